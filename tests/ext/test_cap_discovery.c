/* test_cap_discovery.c — the capability descriptors tell the truth: under every shipped
 * profile (and two made-up ones), a format bit that CAP.PREC.ALU / PREC.CAP / PREC.INTQ
 * advertise works, and one they leave clear does not (CAP 4.2.1: a set bit means
 * "supported by the implementation"; 4.5: the descriptors only advertise). Software
 * written to CAP-057 — probe the bit, then rely on it — is therefore safe here.
 *
 * The expected behaviour of each code is written out by hand from the errata (Q-17 type
 * codes, Q-19 ACCW codes, P-179 ALT mapping, P-178 absent fields); the bits themselves
 * come from the profile under test, which is the point: they must agree with what the
 * unit then does. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cap.h"
#include "cap_fields.h"
#include "cap_profile.h"
#include "cap_unit.h"

enum { MODE = 0x7D0, ALT = 0x7D1, STAT = 0x7D2, PREC_ALU = 0x7D8, PREC_CAP = 0x7DC };
enum { PREC_INTQ = 0x7DE, PROF_SUP = 0x7C4 };

/* Layouts (errata ): cap_fields.h. */

/* Reset MODE: PET FP16 (0), EW 16 (1), ACCW FP32 (0), RNE (errata Q-32). */
#define MODE_RESET M_EW(1)

static uint64_t rd(const cap_state *c, uint32_t a)
{
    uint64_t v = 0;
    assert_true(cap_csr_read(c, a, &v));
    return v;
}

/* ALT_FMT code -> effective PET code (CAP 4.4.2.2 table, errata Q-17, P-179). */
static const unsigned ALT_PET[6] = {0, 2, 8, 9, 10, 11};

static bool reserved_type(unsigned code)
{
    return code == 6 || code == 7 || code == 13 || code == 14;
}

/* Every advertised format bit of the current discovery values against behaviour. */
static void check_truthful(const cap_profile *prof, const char *what)
{
    cap_state c;
    cap_reset(&c, prof);
    uint64_t alu = rd(&c, PREC_ALU), pcap = rd(&c, PREC_CAP), intq = rd(&c, PREC_INTQ);
    unsigned pet_sup = pcap & 0xff, accw_sup = (pcap >> 8) & 0xf, ew_sup = (pcap >> 12) & 0xf;
    unsigned alt_sup = (pcap >> 16) & 0xffff;

    /* xcvt from FP32 to every type code: legal exactly when PREC.ALU has the code. */
    assert_true((alu >> 1) & 1); /* FP32, the source used below */
    for (unsigned d = 0; d < 15; d++) {
        cap_snap s;
        cap_snapshot(&c, &s);
        uint64_t out = 0, trap = 0;
        bool illegal = false;
        cap_xcvt(&c, &s, 1u | (d << 4), 0x3F800000u /* 1.0 */, &out, &illegal, &trap);
        bool adv = (alu >> d) & 1;
        if (reserved_type(d)) assert_false(adv); /* no bit for a reserved code */
        if (illegal == adv)
            fail_msg("%s: PREC.ALU bit %u = %d but xcvt to it is %s", what, d, adv,
                     illegal ? "illegal" : "legal");
        assert_int_equal(trap, 0);
    }

    /* MODE fields one at a time, from the reset value. */
    for (unsigned p = 0; p < 8; p++) {
        cap_reset(&c, prof);
        cap_csr_write(&c, MODE, (MODE_RESET & ~M_PET(7)) | M_PET(p) | APPLY);
        uint64_t st = rd(&c, STAT);
        bool adv = (pet_sup >> p) & 1, ok = !(st & S_UNSUP) && S_PET(st) == p;
        /* a clear bit: flagged, and the unit does not run with the format anyway */
        if (ok != adv || (!adv && S_PET(st) == p))
            fail_msg("%s: PET_SUP bit %u = %d, APPLY gives STAT 0x%llx", what, p, adv,
                     (unsigned long long)st);
    }
    for (unsigned e = 0; e < 4; e++) {
        cap_reset(&c, prof);
        cap_csr_write(&c, MODE, M_EW(e) | APPLY);
        uint64_t st = rd(&c, STAT);
        bool adv = (ew_sup >> e) & 1, ok = !(st & S_UNSUP) && S_EW(st) == e;
        if (ok != adv || (!adv && S_EW(st) == e))
            fail_msg("%s: EW_SUP bit %u = %d, APPLY gives STAT 0x%llx", what, e, adv,
                     (unsigned long long)st);
    }
    for (unsigned a = 0; a < 4; a++) {
        cap_reset(&c, prof);
        cap_csr_write(&c, MODE, MODE_RESET | M_ACCW(a) | APPLY);
        uint64_t st = rd(&c, STAT);
        bool adv = (accw_sup >> a) & 1, ok = !(st & S_UNSUP) && S_ACCW(st) == a;
        if (ok != adv || (!adv && S_ACCW(st) == a))
            fail_msg("%s: ACCW_SUP bit %u = %d, APPLY gives STAT 0x%llx", what, a, adv,
                     (unsigned long long)st);
    }

    /* ALT formats: effective (EFF_ALT_EN, mapped PET, no UNSUP_FMT) exactly when
     * ALT_SUP has the code; codes 0 and 6-15 never are. */
    for (unsigned f = 0; f < 16; f++) {
        cap_reset(&c, prof);
        cap_csr_write(&c, ALT, A_EN | A_FMT(f) | APPLY);
        uint64_t st = rd(&c, STAT);
        bool adv = (alt_sup >> f) & 1;
        bool ok = !(st & S_UNSUP) && S_ALTEN(st) && f >= 1 && f <= 5 && S_PET(st) == ALT_PET[f];
        if (f == 0 || f > 5) assert_false(adv);
        if (ok != adv)
            fail_msg("%s: ALT_SUP bit %u = %d, APPLY gives STAT 0x%llx", what, f, adv,
                     (unsigned long long)st);
    }

    /* ALT_ACCW (codes 1-3 = the ACCW codes, errata Q-19) under an advertised ALT format:
     * ALT is effective with that accumulator exactly when ACCW_SUP has the code. */
    unsigned alt_fmt = 0;
    for (unsigned f = 1; f <= 5 && !alt_fmt; f++)
        if ((alt_sup >> f) & 1) alt_fmt = f;
    for (unsigned a = 1; alt_fmt && a < 4; a++) {
        cap_reset(&c, prof);
        cap_csr_write(&c, ALT, A_EN | A_FMT(alt_fmt) | A_ACCW(a) | APPLY);
        uint64_t st = rd(&c, STAT);
        bool adv = (accw_sup >> a) & 1;
        bool ok = !(st & S_UNSUP) && S_ALTEN(st) && S_ACCW(st) == a;
        if (ok != adv || (!adv && S_ACCW(st) == a))
            fail_msg("%s: ACCW_SUP bit %u = %d, ALT format %u with ALT_ACCW %u gives STAT 0x%llx",
                     what, a, adv, alt_fmt, a, (unsigned long long)st);
    }

    /* Quantization: MODE.Q takes effect exactly when PREC.INTQ has a quantized format
     * (INT4 0, INT2 1, INT8 2; errata Q-37, P-178). */
    cap_reset(&c, prof);
    cap_csr_write(&c, MODE, MODE_RESET | M_Q | APPLY);
    bool quant = (intq & 7) != 0;
    uint64_t st = rd(&c, STAT);
    if ((S_Q(st) && !(st & S_UNSUP)) != quant)
        fail_msg("%s: PREC.INTQ 0x%llx, MODE.Q APPLY gives STAT 0x%llx", what,
                 (unsigned long long)intq, (unsigned long long)st);
    assert_int_equal((rd(&c, MODE) & M_Q) != 0, quant);

    /* Per-channel zero points (ZP_EN 2) stay in effect exactly when PREC.INTQ has
     * PER_CHANNEL (bit 4); otherwise per-tensor (1) with UNSUP_FMT (errata Q-30). */
    if (quant) {
        cap_reset(&c, prof);
        cap_csr_write(&c, MODE, MODE_RESET | M_Q | M_ZPEN(2) | APPLY);
        st = rd(&c, STAT);
        bool per_channel = (intq >> 4) & 1;
        bool ok = !(st & S_UNSUP) && S_ZPEN(st) == 2;
        if (ok != per_channel || (!per_channel && S_ZPEN(st) == 2))
            fail_msg("%s: PREC.INTQ 0x%llx, MODE ZP_EN 2 APPLY gives STAT 0x%llx", what,
                     (unsigned long long)intq, (unsigned long long)st);
    }
}

static cap_profile *load(const char *name)
{
    char path[512], err[512];
    snprintf(path, sizeof path, "%s/%s", PROFILE_DIR, name);
    cap_profile *p = cap_profile_load(path, err, sizeof err);
    if (!p) fail_msg("%s", err);
    return p;
}

static cap_profile *parse(const char *text)
{
    char err[512];
    cap_profile *p = cap_profile_parse(text, strlen(text), "<test>", err, sizeof err);
    if (!p) fail_msg("%s", err);
    return p;
}

/* REQ: CAP-057 CAP-130 */
static void test_shipped_profiles(void **state)
{
    (void)state;
    check_truthful(NULL, "built-in default");
    const char *files[] = {"default.yaml", "minimal.yaml", "runtime.yaml"};
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
        cap_profile *p = load(files[i]);
        check_truthful(p, files[i]);
        /* Every runtime profile too: a switch never changes the format descriptors. */
        cap_state c;
        cap_reset(&c, p);
        uint64_t sup = rd(&c, PROF_SUP), alu = rd(&c, PREC_ALU), pcap = rd(&c, PREC_CAP);
        for (unsigned k = 0; k < 32; k++) {
            if (!((sup >> k) & 1)) continue;
            assert_true(cap_prof_select(&c, k));
            assert_int_equal(rd(&c, PREC_ALU), alu);
            assert_int_equal(rd(&c, PREC_CAP), pcap);
        }
        cap_profile_free(p);
    }
}

/* Made-up subsets, so that "clear" is exercised for codes every shipped profile has. */
/* REQ: CAP-057 */
static void test_made_up_profiles(void **state)
{
    (void)state;
    static const char *texts[] = {
        "xphmg-profile: 1\nname: odd\ncsrs:\n"
        "  cap_prec_alu: 0x1503\n"
        "  cap_prec_cap: {PET_SUP: 0x0B, ACCW_SUP: 0x5, EW_SUP: 0x6, ALT_SUP: 0x2A}\n"
        "  cap_prec_intq: {INT4: 0, INT2: 1, INT8: 0, PER_CHANNEL: 1}\n",
        "xphmg-profile: 1\nname: bare\ncsrs:\n"
        "  cap_prec_alu: 0x3\n"
        "  cap_prec_cap: {PET_SUP: 0x1, ACCW_SUP: 0x1, EW_SUP: 0x2, ALT_SUP: 0}\n"
        "  cap_prec_intq: 0\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        cap_profile *p = parse(texts[i]);
        check_truthful(p, cap_profile_name(p));
        cap_profile_free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_shipped_profiles),
        cmocka_unit_test(test_made_up_profiles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
