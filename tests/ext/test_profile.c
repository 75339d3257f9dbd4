/* test_profile.c — YAML implementation profiles (src/ext/cap/cap_profile.h): the shipped
 * profiles, and bad input (every error is a clear message, never a crash). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cap.h"
#include "cap_profile.h"
#include "xcsr.h"

#ifndef PROFILE_DIR
#error PROFILE_DIR must name the profiles/ folder
#endif

static cap_profile *load(const char *file, char *err, size_t n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", PROFILE_DIR, file);
    return cap_profile_load(path, err, n);
}

/* profiles/default.yaml documents exactly the XML reset values. REQ: CAP-163 */
static void test_default_matches_xml(void **state)
{
    (void)state;
    char err[256] = "";
    cap_profile *p = load("default.yaml", err, sizeof err);
    if (!p) fail_msg("%s", err);
    assert_string_equal(cap_profile_name(p), "default");
    unsigned n = 0;
    for (unsigned i = 0; i < xcsr_count; i++) {
        uint32_t a = xcsr_regs[i].addr;
        uint64_t v;
        if (!cap_profile_is_discovery(a)) continue;
        n++;
        assert_true(cap_profile_value(p, a, &v));
        if (v != xcsr_regs[i].reset)
            fail_msg("%s: profile 0x%llx, XML 0x%llx", xcsr_regs[i].name, (unsigned long long)v,
                     (unsigned long long)xcsr_regs[i].reset);
    }
    assert_int_equal(n, 27); /* 16 core, 8 format descriptors, XMEM CAP/PARAMS, rtcap */
    cap_profile_free(p);
}

/* The minimal profile changes discovery values, never policy. REQ: CAP-163 CAP-071 CAP-066 */
static void test_minimal(void **state)
{
    (void)state;
    char err[256] = "";
    cap_profile *p = load("minimal.yaml", err, sizeof err);
    if (!p) fail_msg("%s", err);
    cap_state c;
    cap_reset(&c, p);
    uint64_t v;
    cap_csr_read(&c, 0x7C5, &v);
    assert_int_equal(v, 0);
    cap_csr_read(&c, 0x7C7, &v);
    assert_int_equal(v, 0x13); /* PMASK: 2 banks */
    cap_csr_read(&c, 0x7CA, &v);
    assert_int_equal(v, 0x00040034);
    cap_csr_read(&c, 0x7DC, &v);
    assert_int_equal(v, 0x733F);
    cap_csr_read(&c, 0x7E1, &v);
    assert_int_equal(v, 0x00460010);
    /* the policy reset is the same as in the default profile (CAP 4.3.3) */
    cap_csr_read(&c, 0x7D0, &v);
    assert_int_equal(v, 0x80000);
    cap_csr_read(&c, 0x7D2, &v);
    assert_int_equal(v, 0x04000000);
    /* FP8 through ALT is unsupported here */
    cap_csr_write(&c, 0x7D1, 0xC8000000);
    cap_csr_read(&c, 0x7D2, &v);
    assert_int_equal(v, 0x04008000); /* UNSUP_FMT, EFF = MODE */
    cap_profile_free(p);
}

static void expect_error(const char *yaml, const char *needle)
{
    char err[256] = "";
    cap_profile *p = cap_profile_parse(yaml, strlen(yaml), "bad.yaml", err, sizeof err);
    if (p) fail_msg("accepted: %s", yaml);
    if (!strstr(err, needle)) fail_msg("error '%s' does not mention '%s'", err, needle);
    assert_non_null(strstr(err, "bad.yaml:"));
}

/* Inconsistent profiles are refused: BANK0_ALLONES must be 1 with PMASK_PRESENT, PROF.*
 * only with HAS_PROFILES. REQ: CAP-061 CAP-054 */
static void test_bad_input(void **state)
{
    (void)state;
#define HDR "xphmg-profile: 1\nname: x\n"
    expect_error("", "mapping");
    expect_error("- a\n- b\n", "mapping");
    expect_error("xphmg-profile: 1\nname: [unclosed\n", "YAML error");
    expect_error("\x01\x02\xff", "YAML error");
    expect_error("name: x\n", "required");
    expect_error(HDR "---\nname: y\n", "only one YAML document");
    expect_error(HDR "---\n: [\n", "bad.yaml:");
    expect_error("xphmg-profile: 2\nname: x\n", "must be given once and be 1");
    expect_error(HDR "name: y\n", "'name' must be given once");
    expect_error(HDR "colour: blue\n", "unknown key 'colour'");
    expect_error(HDR "csrs: 3\n", "'csrs' must be a mapping");
    expect_error(HDR "csrs:\n  cap_nonesuch: 1\n", "unknown CSR 'cap_nonesuch'");
    expect_error(HDR "csrs:\n  cap_prec_mode: 1\n", "not a discovery CSR");
    expect_error(HDR "csrs:\n  cap_prec_stat: 1\n", "not a discovery CSR");
    expect_error(HDR "csrs:\n  pmask1: 1\n", "not a discovery CSR");
    expect_error(HDR "csrs:\n  cap_feat0: 0x400\n", "outside its fields");
    expect_error(HDR "csrs:\n  cap_feat0: twelve\n", "not a number");
    expect_error(HDR "csrs:\n  cap_feat0: -1\n", "not a number");
    expect_error(HDR "csrs:\n  cap_feat0: 0x\n", "not a number");
    expect_error(HDR "csrs:\n  cap_feat0: 99999999999999999999999\n", "not a number");
    expect_error(HDR "csrs:\n  cap_feat0: [1, 2]\n", "expected a number or a mapping");
    expect_error(HDR "csrs:\n  cap_feat0: {NOPE: 1}\n", "has no field 'NOPE'");
    expect_error(HDR "csrs:\n  cap_feat0: {BINDLESS: 2}\n", "does not fit in 1 bits");
    expect_error(HDR "csrs:\n  cap_feat0: {BINDLESS: 1, BINDLESS: 0}\n", "given twice");
    expect_error(HDR "csrs:\n  cap_feat0: 1\n  cap_feat0: 1\n", "given twice");
    expect_error(HDR "csrs:\n  cap_prof_cur: 1\n", "HAS_PROFILES=0");
    expect_error(HDR "csrs:\n  cap_flags: 2\n  cap_prof_cur: 1\n  cap_prof_sup: 1\n",
                 "not in cap_prof_sup");
    expect_error(HDR "csrs:\n  cap_pmask_cap: 0x7\n", "BANK0_ALLONES must be 1");
    expect_error(HDR "csrs:\n  cap_pmask_cap: 0x10\n", "must be 0 when PMASK_PRESENT=0");
    expect_error(HDR "csrs:\n  cap_prec_fp8: 7\n", "BF16_LITE");
    expect_error(HDR "csrs:\n  cap_prec_cap: {ALT_SUP: 0x3E}\n", "BF16_LITE");
    expect_error(HDR "csrs:\n  cap_prec_cap: {ALT_SUP: 0x7C}\n", "ALT_FMT codes 2-5");
    expect_error(HDR "csrs:\n  cap_prec_cap: {PET_SUP: 0x7F}\n", "reserved");
    expect_error(HDR "csrs:\n  cap_prec_cap: {EW_SUP: 0xF}\n", "EW=64");
    expect_error(HDR "csrs:\n  cap_prec_cap: {PET_SUP: 0x3E}\n", "reset state");
    /* the line number points at the offending node */
    char err[256];
    const char *y = HDR "csrs:\n  cap_feat1: 1\n  cap_feat0: bad\n";
    assert_null(cap_profile_parse(y, strlen(y), "f.yaml", err, sizeof err));
    assert_non_null(strstr(err, "f.yaml:5:"));
    /* a missing file */
    assert_null(cap_profile_load("/nonexistent/p.yaml", err, sizeof err));
    assert_non_null(strstr(err, "cannot open"));
    /* a directory */
    assert_null(cap_profile_load(PROFILE_DIR, err, sizeof err));
    /* true/false and binary are accepted; an empty csrs mapping is the default */
    const char *ok = HDR "description: d\ncsrs:\n  cap_feat0: {BINDLESS: true}\n"
                         "  cap_feat1: 0b1010\n";
    cap_profile *p = cap_profile_parse(ok, strlen(ok), "ok.yaml", err, sizeof err);
    assert_non_null(p);
    uint64_t v;
    assert_true(cap_profile_value(p, 0x7C5, &v));
    assert_int_equal(v, 0x119);
    assert_true(cap_profile_value(p, 0x7C6, &v));
    assert_int_equal(v, 0xA);
    cap_profile_free(p);
#undef HDR
}

/* Deterministic mutation run over the default profile: truncations, flipped bytes and
 * inserted YAML punctuation must all give a profile or an error message, never a crash
 * (run under XPHMG_SANITIZE for memory errors). */
static void test_mutations(void **state)
{
    (void)state;
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/default.yaml", PROFILE_DIR);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char base[8192], buf[8192];
    size_t n = fread(base, 1, sizeof base, f);
    fclose(f);
    assert_true(n > 100 && n < sizeof base);
    static const char punct[] = "{}[]:,-&*!|>'\"#%@` \n\t\x01\xff";
    uint32_t x = 12345;
    unsigned accepted = 0, rejected = 0;
    for (int i = 0; i < 3000; i++) {
        memcpy(buf, base, n);
        size_t len = n;
        for (int k = 0; k < 1 + i % 4 && len > 0; k++) {
            x = x * 1103515245u + 12345u;
            size_t pos = (x >> 8) % len;
            switch ((x >> 4) % 3) {
            case 0:
                buf[pos] = punct[(x >> 16) % (sizeof punct - 1)];
                break;
            case 1:
                buf[pos] ^= (char)(1u << ((x >> 20) % 8));
                break;
            default:
                len = pos;
                break;
            }
        }
        cap_profile *p = cap_profile_parse(buf, len, "m.yaml", err, sizeof err);
        if (p) {
            accepted++;
            cap_profile_free(p);
        } else {
            rejected++;
            assert_true(strlen(err) > 0);
        }
    }
    assert_true(accepted > 0 && rejected > 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_matches_xml),
        cmocka_unit_test(test_minimal),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_mutations),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
