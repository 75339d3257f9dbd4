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
#include "heap_in_use.h"
#include "xcsr.h"

#ifndef PROFILE_DIR
#error PROFILE_DIR must name the profiles/ folder
#endif

/* Profile p's value of CSR a (VALUE_AT_IS: in runtime profile i) is want. Macros, so that a
 * failure names the line of the check. */
#define VALUE_IS(p, a, want)                                                                       \
    do {                                                                                           \
        uint64_t v_;                                                                               \
        assert_true(cap_profile_value(p, a, &v_));                                                 \
        assert_int_equal(v_, want);                                                                \
    } while (0)
#define VALUE_AT_IS(p, i, a, want)                                                                 \
    do {                                                                                           \
        uint64_t v_;                                                                               \
        assert_true(cap_profile_value_at(p, i, a, &v_));                                           \
        assert_int_equal(v_, want);                                                                \
    } while (0)

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

/* The minimal profile changes discovery values, never policy. REQ: CAP-163 CAP-071 CAP-066
 * REQ: CAP-016 (four tiers, P-181) */
static void test_minimal(void **state)
{
    (void)state;
    char err[256] = "";
    cap_profile *p = load("minimal.yaml", err, sizeof err);
    if (!p) fail_msg("%s", err);
    static const struct {
        uint32_t addr;
        uint64_t v;
        const char *why;
    } want[] = {
        {0x7C5, 0, "FEAT0"},
        {0x7C7, 0x13, "PMASK: 2 banks"},
        /* CAP.TIER.LDS (P-181): T0_KIB 4 << 16 | T0_SCALAR_VISIBLE 1 << 5 | T0_IN_LDS 1 << 4 |
         * TIER_COUNT_M1 3 << 2 (T0..T3) | LDS_TIER 0 = 0x40000 + 0x20 + 0x10 + 0xC = 0x4003C
         * (T0_SHARED 0; the design text's 0x0004007C would include T0_SHARED 1 << 6) */
        {0x7CA, 0x0004003C, "TIER.LDS"},
        {0x7DE, 0, "PREC.INTQ (P-178): no quantized integer formats"},
        {0x7DC, 0x733F, "PREC.CAP: ALT_SUP 31:16 0, ACCW_SUP 0x3 << 8, EW_SUP 0x7 << 12, PET 0x3F"},
        {0x7C2, 0, "FLAGS: no runtime profiles"},
        {0x7C4, 0, "PROF.SUP: no runtime profiles"},
        {0x7E1, 0x00460010, "XMEM.PARAMS"},
        /* the policy reset is the same as in the default profile (CAP 4.3.3) */
        {0x7D0, 0x80000, "MODE"},
        {0x7D2, 0x04000000, "STAT"},
    };
    cap_state c;
    cap_reset(&c, p);
    uint64_t v;
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        assert_true(cap_csr_read(&c, want[i].addr, &v));
        if (v != want[i].v)
            fail_msg("CSR 0x%x (%s): 0x%llx, want 0x%llx", (unsigned)want[i].addr, want[i].why,
                     (unsigned long long)v, (unsigned long long)want[i].v);
    }
    /* FP8 through ALT is unsupported here: ALT is an absent field (P-178), the request is
     * an omission (UNSUP_FMT), EFF = MODE */
    cap_csr_write(&c, 0x7D1, 0xC8000000);
    cap_csr_read(&c, 0x7D2, &v);
    assert_int_equal(v, 0x04008000);
    cap_csr_read(&c, 0x7D1, &v);
    assert_int_equal(v, 0);
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
 * only with HAS_PROFILES, at least four tiers (P-181). REQ: CAP-061 CAP-054 CAP-016
 * REQ: CAP-049 */
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
    expect_error(HDR "csrs:\n  cap_feat0: 1\ncsrs:\n  cap_feat1: 1\n", "'csrs' given twice");
    expect_error(HDR "csrs:\n  cap_prof_cur: 1\n", "HAS_PROFILES=0");
    expect_error(HDR "csrs:\n  cap_flags: 2\n  cap_prof_cur: 1\n  cap_prof_sup: 1\n",
                 "not in cap_prof_sup");
    expect_error(HDR "csrs:\n  cap_pmask_cap: 0x7\n", "BANK0_ALLONES must be 1");
    /* the rule follows PMASK_PRESENT alone: one bank (BANKS_M1 = 0) needs it too */
    expect_error(HDR "csrs:\n  cap_pmask_cap: 0x1\n", "BANK0_ALLONES must be 1");
    expect_error(HDR "csrs:\n  cap_pmask_cap: 0x10\n", "must be 0 when PMASK_PRESENT=0");
    /* a 2-bit pbank: at most banks 0..3 (errata Q-36) */
    expect_error(HDR "csrs:\n  cap_pmask_cap: 0x19\n", "PMASK_BANKS_M1 must be 0-3");
    /* ALT_SUP bit n = ALT_FMT code n: codes 1-5 may be supported (P-179); bit 0 (no
     * format) and bits 6-15 (reserved codes) are refused */
    expect_error(HDR "csrs:\n  cap_prec_cap: {ALT_SUP: 0x7C}\n", "ALT_SUP");
    expect_error(HDR "csrs:\n  cap_prec_cap: {ALT_SUP: 0x3D}\n", "ALT_SUP");
    expect_error(HDR "csrs:\n  cap_prec_cap: {ALT_SUP: 0x01}\n", "ALT_SUP");
    expect_error(HDR "csrs:\n  cap_prec_cap: {ALT_SUP: 0x8000}\n", "ALT_SUP");
    /* fewer than four tiers T0..T3 (P-181) */
    expect_error(HDR "csrs:\n  cap_tier_lds: {TIER_COUNT_M1: 2}\n", "TIER_COUNT_M1");
    expect_error(HDR "csrs:\n  cap_tier_lds: 0x00100070\n", "TIER_COUNT_M1");
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
    VALUE_IS(p, 0x7C5, 0x119);
    VALUE_IS(p, 0x7C6, 0xA);
    cap_profile_free(p);
#undef HDR
}

/* P-179: BF16_LITE may now be supported; the default profile does (CAP.PREC.ALU bit 12,
 * ALT_SUP bit 1, CAP.PREC.FP8.BF16_LITE bit 2). REQ: CAP-103 CAP-129 */
static void test_bf16_lite_support(void **state)
{
    (void)state;
    char err[256] = "";
    cap_profile *p = load("default.yaml", err, sizeof err);
    if (!p) fail_msg("%s", err);
    /* ALU: codes 0-5, 8-12 = 0x3F | 0x1F00 = 0x1F3F */
    VALUE_IS(p, 0x7D8, 0x1F3F);
    /* PREC.CAP: ALT_SUP 0x3E (codes 1-5) << 16 | EW_SUP 0x7 << 12 | ACCW_SUP 0xF << 8 |
     * PET_SUP 0x3F = 0x003E0000 + 0x7000 + 0xF00 + 0x3F = 0x003E7F3F */
    VALUE_IS(p, 0x7DC, 0x003E7F3F);
    /* FP8: E4M3 bit 0, E5M2 bit 1, BF16_LITE bit 2 = 0x7 */
    VALUE_IS(p, 0x7DD, 0x7);
    cap_profile_free(p);
    /* the old "BF16_LITE cannot be supported" refusal is gone */
    static const char *ok[] = {
        "xphmg-profile: 1\nname: x\ncsrs:\n  cap_prec_fp8: 7\n",
        "xphmg-profile: 1\nname: x\ncsrs:\n  cap_prec_cap: {ALT_SUP: 0x3E}\n",
        "xphmg-profile: 1\nname: x\ncsrs:\n  cap_prec_cap: {ALT_SUP: 0x02}\n",
        "xphmg-profile: 1\nname: x\ncsrs:\n  cap_prec_alu: 0x1F3F\n",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        p = cap_profile_parse(ok[i], strlen(ok[i]), "ok.yaml", err, sizeof err);
        if (!p) fail_msg("refused: %s (%s)", ok[i], err);
        cap_profile_free(p);
    }
    p = cap_profile_parse(ok[2], strlen(ok[2]), "ok.yaml", err, sizeof err);
    assert_non_null(p);
    VALUE_IS(p, 0x7DC, 0x00027F3F); /* ALT_SUP 0x02 << 16, the rest as the default */
    cap_profile_free(p);
}

/* The implementation-defined values of a profile are written as numbers in every
 * documented spelling (docs/cap.md: decimal, 0x hex and 0b binary in either case, '_'
 * between digits); 0x1F3F = 7999 = 0b1_1111_0011_1111, by hand. Anything else is refused
 * with the CSR named, never read as some other number. REQ: CAP-163 */
static void test_value_syntax(void **state)
{
    (void)state;
    static const char *same[] = {
        "0x1F3F", "0x1f3f", "0X1f3F", "7999", "0b1_1111_0011_1111", "0B1111100111111", "0x1f_3f"};
    for (size_t i = 0; i < sizeof same / sizeof same[0]; i++) {
        char y[128], err[256] = "";
        snprintf(y, sizeof y, "xphmg-profile: 1\nname: x\ncsrs:\n  cap_prec_alu: %s\n", same[i]);
        cap_profile *p = cap_profile_parse(y, strlen(y), "ok.yaml", err, sizeof err);
        if (!p) fail_msg("refused %s: %s", same[i], err);
        uint64_t v = 0;
        assert_true(cap_profile_value(p, 0x7D8, &v));
        if (v != 0x1F3F) fail_msg("%s read as 0x%llx", same[i], (unsigned long long)v);
        cap_profile_free(p);
    }
    static const char *bad[] = {"0x1g3f", "0x",   "_7999",
                                "0b102",  "79a9", "0x1_0000_0000_0000_0000"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char y[128];
        snprintf(y, sizeof y, "xphmg-profile: 1\nname: x\ncsrs:\n  cap_prec_alu: %s\n", bad[i]);
        expect_error(y, "is not a number");
    }
}

/* Nesting deeper than any profile needs (8 levels) and aliases are refused before the
 * document is built, with their own messages, wherever they are (an alias even where the
 * value it stands for would be accepted). */
static void test_shape_limits(void **state)
{
    (void)state;
    expect_error("xphmg-profile: 1\nname: &n x\ndescription: *n\n", "aliases are not allowed");
    expect_error("xphmg-profile: 1\nname: [[[[[[[[[x]]]]]]]]]\n", "nested deeper than 8 levels");
    expect_error("xphmg-profile: 1\nname: x\ncsrs: {a: {b: {c: {d: {e: {f: {g: {h: 1}}}}}}}}\n",
                 "nested deeper than 8 levels");
}

static void parse_round(const void *yaml)
{
    char err[256];
    cap_profile_free(cap_profile_parse(yaml, strlen(yaml), "t", err, sizeof err));
}

/* Reading a profile, accepted or refused, gives back every byte it took (libyaml's
 * parser and document included): 64 rounds of each leave the heap as they found it. */
static void test_parse_frees(void **state)
{
    (void)state;
    static const char *yaml[] = {
        "xphmg-profile: 1\nname: x\ncsrs:\n  cap_prec_alu: 0x1F3F\n", /* accepted */
        "xphmg-profile: 1\nname: x\ncsrs:\n  cap_prec_alu: 0x1g\n",   /* refused by a value */
        "xphmg-profile: 1\nname: &a x\ncsrs: *a\n",                   /* refused by shape */
        "xphmg-profile: [1\n",                                        /* not YAML */
        "xphmg-profile: 1\n---\nname: y\n", /* refused: a second document */
    };
    for (size_t i = 0; i < sizeof yaml / sizeof yaml[0]; i++)
        assert_heap_balanced(parse_round, yaml[i], 1, 64, yaml[i]);
}

/* ---- runtime profiles (P-177) ---- */

/* The runtime-profiles example of the design, with CUR = cur. */
#define RT_EXAMPLE(cur)                                                                            \
    "xphmg-profile: 1\nname: rt\ncsrs:\n"                                                          \
    "  cap_flags: {RUNTIME_MUTABLE: 1, HAS_PROFILES: 1}\n"                                         \
    "  cap_prof_sup: 0x7\n  cap_prof_cur: " #cur "\n"                                              \
    "runtime-profiles:\n"                                                                          \
    "  1: {cap_tier_wave: {WAVES: 3}, cap_hint_align: {A16: 0, A32: 0, A64: 0, A128: 1}}\n"        \
    "  2: {cap_feat0: 0x108, cap_hint_ldsbk: {GRAN_LOG2: 3},\n"                                    \
    "      cap_tier_reg: {VGPR_TIER: 2, SGPR_TIER: 1}}\n"

enum { FLAGS = 0x7C2, CUR = 0x7C3, SUP = 0x7C4, FEAT0 = 0x7C5, FEAT1 = 0x7C6 };
enum { TREG = 0x7C8, TWAVE = 0x7C9, TLDS = 0x7CA, TSAMP = 0x7CB, TRT = 0x7CC };
enum { HALIGN = 0x7CD, HBVH = 0x7CE, HLDSBK = 0x7CF };

/* The values of the example under index 0 (base = default values), 1 and 2, by hand:
 * FEAT0 default 0x118, 2: 0x108; TIER.REG default 0, 2: VGPR 2 (1:0) | SGPR 1 (3:2) = 0x6;
 * TIER.WAVE default 0, 1: WAVES 3 = 0x3; HINT.ALIGN default A64 = bit 2 = 0x4, 1: A128 =
 * bit 3 = 0x8; HINT.LDSBK default GRAN_LOG2 2, 2: 3. */
static const struct {
    uint32_t addr;
    uint64_t v[3];
} rt_want[] = {
    {FEAT0, {0x118, 0x118, 0x108}},
    {TREG, {0, 0, 0x6}},
    {TWAVE, {0, 0x3, 0}},
    {HALIGN, {0x4, 0x8, 0x4}},
    {HLDSBK, {0x2, 0x2, 0x3}},
    {FEAT1, {0x7, 0x7, 0x7}},
    {TLDS, {0x0010007C, 0x0010007C, 0x0010007C}},
};

static cap_profile *parse_ok(const char *y)
{
    char err[256] = "";
    cap_profile *p = cap_profile_parse(y, strlen(y), "rt.yaml", err, sizeof err);
    if (!p) fail_msg("refused: %s", err);
    return p;
}

/* An accepted runtime-profiles section: values per index, base values where a variant does
 * not name a CSR, reset = CUR's variant. REQ: CAP-065 CAP-067 CAP-064 CAP-074 */
static void test_runtime_values(void **state)
{
    (void)state;
    for (unsigned cur = 0; cur < 3; cur++) {
        static const char *y[3] = {RT_EXAMPLE(0), RT_EXAMPLE(1), RT_EXAMPLE(2)};
        cap_profile *p = parse_ok(y[cur]);
        uint64_t v;
        for (size_t i = 0; i < sizeof rt_want / sizeof rt_want[0]; i++) {
            for (unsigned idx = 0; idx < 3; idx++) {
                v = 0xdead;
                assert_true(cap_profile_value_at(p, idx, rt_want[i].addr, &v));
                if (v != rt_want[i].v[idx])
                    fail_msg("CSR 0x%x under index %u: 0x%llx, want 0x%llx", rt_want[i].addr, idx,
                             (unsigned long long)v, (unsigned long long)rt_want[i].v[idx]);
            }
            /* the reset value is the one of index CUR */
            VALUE_IS(p, rt_want[i].addr, rt_want[i].v[cur]);
        }
        /* non-advisory discovery CSRs are the same under every index */
        for (unsigned idx = 0; idx < 3; idx++) {
            VALUE_AT_IS(p, idx, FLAGS, 0x3); /* RUNTIME_MUTABLE bit 0 | HAS_PROFILES bit 1 */
            VALUE_AT_IS(p, idx, SUP, 0x7);
            VALUE_AT_IS(p, idx, 0x7DC, 0x003E7F3F);
        }
        VALUE_IS(p, CUR, cur);
        /* a non-discovery CSR, or no profile: false */
        assert_false(cap_profile_value_at(p, 1, 0x7D0, &v));
        assert_false(cap_profile_value_at(p, 1, 0x7D2, &v));
        assert_false(cap_profile_value_at(NULL, 1, FEAT0, &v));
        /* the CSR file resets to CUR's variant */
        cap_state c;
        cap_reset(&c, p);
        for (size_t i = 0; i < sizeof rt_want / sizeof rt_want[0]; i++) {
            assert_true(cap_csr_read(&c, rt_want[i].addr, &v));
            assert_int_equal(v, rt_want[i].v[cur]);
        }
        assert_true(cap_csr_read(&c, CUR, &v));
        assert_int_equal(v, cur);
        /* and its policy reset is the same in every case (CAP 4.3.2) */
        assert_true(cap_csr_read(&c, 0x7D0, &v));
        assert_int_equal(v, 0x80000);
        assert_true(cap_csr_read(&c, 0x7D2, &v));
        assert_int_equal(v, 0x04000000);
        cap_profile_free(p);
    }
}

/* More accepted forms: every advisory CSR may be named; an index in SUP without a variant
 * uses the base values; runtime-profiles may come before csrs; an empty variant needs no
 * RUNTIME_MUTABLE; the tier rule accepts TIER_COUNT_M1 = 3 in a variant. REQ: CAP-067 */
static void test_runtime_accepted(void **state)
{
    (void)state;
    /* SUP = 0b1011 (indices 0, 1, 3); variants for 1 and 3 only; index 0 = base */
    cap_profile *p = parse_ok("xphmg-profile: 1\nname: a\n"
                              "runtime-profiles:\n"
                              "  3: {cap_feat1: 0x1, cap_tier_samp: 2, cap_tier_rt: 3,\n"
                              "      cap_hint_bvhgr: {GRAN: 2},\n"
                              "      cap_tier_lds: {TIER_COUNT_M1: 3, T0_KIB: 8}}\n"
                              "  1: {cap_feat0: {BINDLESS: 1}}\n"
                              "csrs:\n"
                              "  cap_flags: {RUNTIME_MUTABLE: 1, HAS_PROFILES: 1}\n"
                              "  cap_prof_sup: 0xB\n  cap_prof_cur: 3\n"
                              "  cap_feat1: 0x6\n");
    /* index 0: base (FEAT0 0x118, FEAT1 0x6 from csrs, TIER.SAMP/RT 0, BVHGR 0) */
    VALUE_AT_IS(p, 0, FEAT0, 0x118);
    VALUE_AT_IS(p, 0, FEAT1, 0x6);
    VALUE_AT_IS(p, 0, TSAMP, 0);
    /* index 1: FEAT0 0x118 with BINDLESS (bit 0) = 0x119; FEAT1 the base 0x6 */
    VALUE_AT_IS(p, 1, FEAT0, 0x119);
    VALUE_AT_IS(p, 1, FEAT1, 0x6);
    /* index 3 */
    VALUE_AT_IS(p, 3, FEAT0, 0x118);
    VALUE_AT_IS(p, 3, FEAT1, 0x1);
    VALUE_AT_IS(p, 3, TSAMP, 2);
    VALUE_AT_IS(p, 3, TRT, 3);
    VALUE_AT_IS(p, 3, HBVH, 2);
    /* TIER.LDS: the base 0x0010007C with T0_KIB (31:16) = 8: 0x0008007C */
    VALUE_AT_IS(p, 3, TLDS, 0x0008007C);
    /* reset = index 3 */
    VALUE_IS(p, FEAT1, 0x1);
    VALUE_IS(p, TLDS, 0x0008007C);
    cap_profile_free(p);
    /* a variant's field form overlays the `csrs` value field by field (errata P-177 "its
     * values overlay the file's csrs"): base FEAT0 0x10, variant 1 {BINDLESS: 1} gives
     * 0x10 | 0x1 = 0x11 (not the XML reset 0x118 | 1) */
    p = parse_ok("xphmg-profile: 1\nname: o\ncsrs:\n"
                 "  cap_flags: {RUNTIME_MUTABLE: 1, HAS_PROFILES: 1}\n  cap_prof_sup: 0x3\n"
                 "  cap_feat0: 0x10\n  cap_hint_align: 0x1\n"
                 "runtime-profiles:\n  1: {cap_feat0: {BINDLESS: 1}, cap_hint_align: {A32: 1}}\n");
    VALUE_AT_IS(p, 1, FEAT0, 0x11);
    VALUE_AT_IS(p, 1, HALIGN, 0x3); /* A16 (bit 0) from csrs, A32 (bit 1) from the variant */
    VALUE_AT_IS(p, 0, FEAT0, 0x10);
    cap_profile_free(p);
    /* HAS_PROFILES without RUNTIME_MUTABLE: empty variants are fine */
    p = parse_ok("xphmg-profile: 1\nname: b\ncsrs:\n  cap_flags: {HAS_PROFILES: 1}\n"
                 "  cap_prof_sup: 0x3\nruntime-profiles:\n  1: {}\n");
    VALUE_AT_IS(p, 1, FEAT0, 0x118);
    cap_profile_free(p);
    /* an empty runtime-profiles mapping */
    p = parse_ok("xphmg-profile: 1\nname: c\ncsrs:\n  cap_flags: {HAS_PROFILES: 1}\n"
                 "  cap_prof_sup: 0x1\nruntime-profiles: {}\n");
    cap_profile_free(p);
    /* index 31, the highest (bit 31 of SUP) */
    p = parse_ok("xphmg-profile: 1\nname: d\ncsrs:\n"
                 "  cap_flags: {RUNTIME_MUTABLE: 1, HAS_PROFILES: 1}\n"
                 "  cap_prof_sup: 0x80000001\nruntime-profiles:\n  31: {cap_tier_wave: 2}\n");
    VALUE_AT_IS(p, 31, TWAVE, 2);
    VALUE_AT_IS(p, 0, TWAVE, 0);
    cap_profile_free(p);
}

/* The error must be a refusal whose message carries the file, the line of the offending
 * node (line > 0) and the needle (NULL: any text). */
static void expect_error_at(const char *yaml, unsigned line, const char *needle)
{
    char err[256] = "", loc[32];
    cap_profile *p = cap_profile_parse(yaml, strlen(yaml), "bad.yaml", err, sizeof err);
    if (p) fail_msg("accepted: %s", yaml);
    if (needle && !strstr(err, needle)) fail_msg("error '%s' does not mention '%s'", err, needle);
    if (line)
        snprintf(loc, sizeof loc, "bad.yaml:%u:", line);
    else
        snprintf(loc, sizeof loc, "bad.yaml:");
    if (!strstr(err, loc)) fail_msg("error '%s' is not at '%s'", err, loc);
}

/* Every refusal rule of P-177 (and P-181 in a variant). REQ: CAP-074 CAP-009 CAP-066
 * REQ: CAP-067 CAP-016 */
static void test_runtime_errors(void **state)
{
    (void)state;
    /* lines: 1 xphmg-profile, 2 name, 3 csrs, 4 cap_flags, 5 cap_prof_sup, 6
     * runtime-profiles, 7 the first variant, 8 the second */
#define RT_HDR                                                                                     \
    "xphmg-profile: 1\nname: x\ncsrs:\n  cap_flags: {RUNTIME_MUTABLE: 1, HAS_PROFILES: 1}\n"       \
    "  cap_prof_sup: 0x7\nruntime-profiles:\n"
    /* without HAS_PROFILES (with and without RUNTIME_MUTABLE) */
    expect_error_at("xphmg-profile: 1\nname: x\nruntime-profiles:\n  0: {cap_feat0: 0}\n", 0,
                    "HAS_PROFILES");
    expect_error_at("xphmg-profile: 1\nname: x\ncsrs:\n  cap_flags: {RUNTIME_MUTABLE: 1}\n"
                    "runtime-profiles:\n  0: {cap_feat0: 0}\n",
                    0, "HAS_PROFILES");
    expect_error_at("xphmg-profile: 1\nname: x\nruntime-profiles: {}\n", 0, "HAS_PROFILES");
    /* index not in SUP (0x7: 0-2) */
    expect_error_at(RT_HDR "  3: {cap_feat0: 0}\n", 7, "cap_prof_sup");
    expect_error_at(RT_HDR "  1: {cap_feat0: 0}\n  5: {cap_feat0: 0}\n", 8, "cap_prof_sup");
    /* an index twice (also written differently) */
    expect_error_at(RT_HDR "  1: {cap_feat0: 0}\n  1: {cap_feat1: 0}\n", 8, "twice");
    expect_error_at(RT_HDR "  2: {cap_feat0: 0}\n  0x2: {cap_feat1: 0}\n", 8, "2");
    /* index > 31 or not a number */
    expect_error_at(RT_HDR "  32: {cap_feat0: 0}\n", 7, "0-31");
    expect_error_at(RT_HDR "  99999999999999999999: {cap_feat0: 0}\n", 7, "0-31");
    expect_error_at(RT_HDR "  one: {cap_feat0: 0}\n", 7, "0-31");
    expect_error_at(RT_HDR "  -1: {cap_feat0: 0}\n", 7, "0-31");
    expect_error_at(RT_HDR "  [1]: {cap_feat0: 0}\n", 7, "0-31");
    /* not a mapping */
    expect_error_at(RT_HDR "  - 1\n", 0, "mapping");
    expect_error_at(RT_HDR "  1: 5\n", 7, "mapping");
    expect_error_at(RT_HDR "  1: [cap_feat0]\n", 7, "mapping");
    /* non-advisory CSRs: discovery but not tiers/hints/FEAT ... */
    static const char *const non_adv[] = {
        "cap_id",          "cap_vers",     "cap_flags",     "cap_prof_cur", "cap_prof_sup",
        "cap_pmask_cap",   "cap_prec_alu", "cap_prec_tex",  "cap_prec_img", "cap_prec_rt",
        "cap_prec_cap",    "cap_prec_fp8", "cap_prec_intq", "cap_prec_hyb", "cap_xmem_cap",
        "cap_xmem_params", "rtcap",
    };
    char y[512];
    for (size_t i = 0; i < sizeof non_adv / sizeof non_adv[0]; i++) {
        snprintf(y, sizeof y, RT_HDR "  1: {%s: 0}\n", non_adv[i]);
        expect_error_at(y, 7, "not advisory");
    }
    /* ... index 0 included (a variant like the others, not the `csrs` section) */
    expect_error_at(RT_HDR "  0: {cap_prec_alu: 0}\n", 7, "not advisory");
    /* ... and policy CSRs (not even discovery) */
    static const char *const policy[] = {"cap_prec_mode",   "cap_prec_alt", "cap_prec_stat",
                                         "cap_prec_exc_en", "cap_xmem_dom", "pmask1"};
    for (size_t i = 0; i < sizeof policy / sizeof policy[0]; i++) {
        snprintf(y, sizeof y, RT_HDR "  1: {%s: 0}\n", policy[i]);
        expect_error_at(y, 7, NULL);
    }
    /* a variant that names a CSR needs RUNTIME_MUTABLE=1 */
    expect_error_at("xphmg-profile: 1\nname: x\ncsrs:\n  cap_flags: {HAS_PROFILES: 1}\n"
                    "  cap_prof_sup: 0x3\nruntime-profiles:\n  1: {cap_tier_wave: 1}\n",
                    0, "RUNTIME_MUTABLE");
    /* unknown CSR / field, values too wide, a CSR or field twice */
    expect_error_at(RT_HDR "  1: {cap_nonesuch: 1}\n", 7, "unknown CSR");
    expect_error_at(RT_HDR "  1: {cap_feat0: {NOPE: 1}}\n", 7, "has no field 'NOPE'");
    expect_error_at(RT_HDR "  1: {cap_tier_wave: {WAVES: 4}}\n", 7, "does not fit in 2 bits");
    expect_error_at(RT_HDR "  1: {cap_feat0: 0x400}\n", 7, "outside its fields");
    expect_error_at(RT_HDR "  1: {cap_feat0: 0x10000000000000000}\n", 7, "not a number");
    expect_error_at(RT_HDR "  1: {cap_feat0: 1, cap_feat0: 2}\n", 7, "twice");
    expect_error_at(RT_HDR "  1: {cap_tier_reg: {VGPR_TIER: 1, VGPR_TIER: 2}}\n", 7, "twice");
    /* the line points at the offending node inside a multi-line variant */
    expect_error_at(RT_HDR "  2:\n    cap_feat0: 0x100\n    cap_hint_align: {A256: 1}\n", 9,
                    "has no field 'A256'");
    /* the tier rule applies to every variant (P-181): TIER_COUNT_M1 < 3 */
    expect_error_at(RT_HDR "  2: {cap_tier_lds: {TIER_COUNT_M1: 2}}\n", 0, "TIER_COUNT_M1");
    expect_error_at(RT_HDR "  1: {cap_tier_lds: 0x0010007C}\n  2: {cap_tier_lds: 0x00100070}\n", 0,
                    "TIER_COUNT_M1");
    /* a variant never makes an otherwise bad profile good: base refused even though every
     * variant restores four tiers */
    expect_error_at("xphmg-profile: 1\nname: x\ncsrs:\n"
                    "  cap_flags: {RUNTIME_MUTABLE: 1, HAS_PROFILES: 1}\n  cap_prof_sup: 0x2\n"
                    "  cap_prof_cur: 1\n  cap_tier_lds: {TIER_COUNT_M1: 1}\n"
                    "runtime-profiles:\n  1: {cap_tier_lds: {TIER_COUNT_M1: 3}}\n",
                    0, "TIER_COUNT_M1");
#undef RT_HDR
}

/* profiles/runtime.yaml: the documented example (design P-177). REQ: CAP-065 CAP-067 */
static void test_runtime_yaml(void **state)
{
    (void)state;
    char err[256] = "";
    cap_profile *p = load("runtime.yaml", err, sizeof err);
    if (!p) fail_msg("%s", err);
    uint64_t v;
    for (size_t i = 0; i < sizeof rt_want / sizeof rt_want[0]; i++)
        for (unsigned idx = 0; idx < 3; idx++) {
            assert_true(cap_profile_value_at(p, idx, rt_want[i].addr, &v));
            if (v != rt_want[i].v[idx])
                fail_msg("CSR 0x%x under index %u: 0x%llx, want 0x%llx", rt_want[i].addr, idx,
                         (unsigned long long)v, (unsigned long long)rt_want[i].v[idx]);
        }
    VALUE_IS(p, FLAGS, 0x3); /* RUNTIME_MUTABLE (0) | HAS_PROFILES (1) */
    VALUE_IS(p, SUP, 0x7);
    VALUE_IS(p, CUR, 0);
    /* everything else is the default profile: compare every discovery CSR with
     * default.yaml except FLAGS and PROF.SUP */
    cap_profile *d = load("default.yaml", err, sizeof err);
    if (!d) fail_msg("%s", err);
    for (uint32_t a = 0x7C0; a <= 0x7F7; a++) {
        uint64_t dv;
        if (!cap_profile_is_discovery(a) || a == FLAGS || a == SUP) continue;
        assert_true(cap_profile_value(p, a, &v));
        assert_true(cap_profile_value(d, a, &dv));
        if (v != dv)
            fail_msg("CSR 0x%x: runtime 0x%llx, default 0x%llx", a, (unsigned long long)v,
                     (unsigned long long)dv);
    }
    cap_profile_free(d);
    cap_profile_free(p);
}

/* Deterministic mutation run over a shipped profile: truncations, flipped bytes and
 * inserted YAML punctuation must all give a profile or an error message, never a crash
 * (run under XPHMG_SANITIZE for memory errors). runtime.yaml reaches the runtime-profiles
 * parser (P-177). */
static void mutate(const char *file)
{
    char path[512], err[256];
    snprintf(path, sizeof path, "%s/%s", PROFILE_DIR, file);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    static char base[8192], buf[8192];
    size_t n = fread(base, 1, sizeof base, f);
    fclose(f);
    assert_true(n > 100 && n < sizeof base);
    static const char punct[] = "{}[]:,-&*!|>'\"#%@` \n\t\x01\xff"
                                "0123";
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
            /* whatever was accepted answers every query */
            uint64_t v;
            for (unsigned idx = 0; idx < 32; idx++)
                cap_profile_value_at(p, idx, 0x7C5, &v);
            cap_state c;
            cap_reset(&c, p);
            for (unsigned idx = 0; idx < 40; idx++)
                cap_prof_select(&c, idx);
            cap_profile_free(p);
        } else {
            rejected++;
            assert_true(strlen(err) > 0);
        }
    }
    assert_true(accepted > 0 && rejected > 0);
}

static void test_mutations(void **state)
{
    (void)state;
    mutate("default.yaml");
    mutate("runtime.yaml");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_matches_xml), cmocka_unit_test(test_minimal),
        cmocka_unit_test(test_bad_input),           cmocka_unit_test(test_bf16_lite_support),
        cmocka_unit_test(test_runtime_values),      cmocka_unit_test(test_runtime_accepted),
        cmocka_unit_test(test_runtime_errors),      cmocka_unit_test(test_runtime_yaml),
        cmocka_unit_test(test_mutations),           cmocka_unit_test(test_value_syntax),
        cmocka_unit_test(test_shape_limits),        cmocka_unit_test(test_parse_frees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
