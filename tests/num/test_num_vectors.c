/* test_num_vectors.c — hand-computed vectors for the numeric engine.
 *
 * Every expected value is worked out from the format definitions (IEEE 754 binary16,
 * bfloat16, OCP OFP8 E4M3/E5M2) and the policy decisions in docs/errata.md
 * ("### Numeric engine"); the FP32 input encodings were checked with Python's struct.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "xphmg/num.h"

#define DC NUM_DOWNCAST_TAKEN

static num_policy pol_rm(num_rm rm)
{
    num_policy p = num_policy_default();
    p.rm = rm;
    return p;
}

/* Converts and checks result bits and the exact flag set. */
static void cv(num_fmt dst, num_fmt src, uint32_t in, const num_policy *p, uint32_t want,
               num_flags want_flags)
{
    num_flags fl = 0;
    uint32_t got = num_convert(dst, src, in, p, &fl);
    if (got != want || fl != want_flags)
        print_error("%s <- %s 0x%08x rm=%d: got 0x%x flags 0x%x, want 0x%x flags 0x%x\n",
                    num_fmt_name(dst), num_fmt_name(src), in, p->rm, got, fl, want, want_flags);
    assert_int_equal(got, want);
    assert_int_equal(fl, want_flags);
}

static void cv_rm(num_fmt dst, uint32_t in, num_rm rm, uint32_t want, num_flags want_flags)
{
    num_policy p = pol_rm(rm);
    cv(dst, NUM_FP32, in, &p, want, want_flags);
}

/* REQ: CAP-087 */
static void test_fp16_limits(void **state)
{
    (void)state;
    cv_rm(NUM_FP16, 0x477fe000, NUM_RNE, 0x7bff, DC);                   /* 65504 = max */
    cv_rm(NUM_FP16, 0x477ff000, NUM_RNE, 0x7c00, DC | NUM_OF | NUM_NX); /* 65520: tie -> inf */
    cv_rm(NUM_FP16, 0x477ff000, NUM_RTZ, 0x7bff, DC | NUM_NX);          /* below 2^16: no OF */
    cv_rm(NUM_FP16, 0xc77ff000, NUM_RUP, 0xfbff, DC | NUM_NX);          /* -65520 toward +inf */
    cv_rm(NUM_FP16, 0xc77ff000, NUM_RDN, 0xfc00, DC | NUM_OF | NUM_NX);
    cv_rm(NUM_FP16, 0x47800000, NUM_RTZ, 0x7bff, DC | NUM_OF | NUM_NX); /* 65536, RTZ */
    cv_rm(NUM_FP16, 0x33800000, NUM_RNE, 0x0001, DC);                   /* 2^-24 min subnormal */
    cv_rm(NUM_FP16, 0x33000000, NUM_RNE, 0x0000, DC | NUM_UF | NUM_NX); /* 2^-25 tie -> 0 */
    cv_rm(NUM_FP16, 0x33000000, NUM_RMM, 0x0001, DC | NUM_UF | NUM_NX);
    cv_rm(NUM_FP16, 0x33000000, NUM_RUP, 0x0001, DC | NUM_UF | NUM_NX);
    cv_rm(NUM_FP16, 0xb3000000, NUM_RDN, 0x8001, DC | NUM_UF | NUM_NX);
    cv_rm(NUM_FP16, 0x3f800000, NUM_RNE, 0x3c00, DC); /* 1.0 */
    cv_rm(NUM_FP16, 0x80000000, NUM_RNE, 0x8000, DC); /* -0 */
    cv_rm(NUM_FP16, 0xff800000, NUM_RNE, 0xfc00, DC); /* -inf exact */
    /* Just below 2^-14 (min normal): 2^-14 - 2^-26 rounds up to 2^-14 in RNE at 11 bits
     * too, so it is not tiny: NX only. */
    cv_rm(NUM_FP16, 0x387fffff, NUM_RNE, 0x0400, DC | NUM_NX);
    /* 2^-14 - 2^-25 - 2^-26... (0x387ff000 = 2^-14*(1-2^-11)): tie at 11 bits rounds up
     * (odd), so not tiny; at the subnormal grid it rounds up to 2^-14 too. */
    cv_rm(NUM_FP16, 0x387ff000, NUM_RNE, 0x0400, DC | NUM_NX);
    /* Toward zero the same value stays subnormal (0x3ff) and is tiny. */
    cv_rm(NUM_FP16, 0x387ff000, NUM_RTZ, 0x03ff, DC | NUM_UF | NUM_NX);
}

/* REQ: CAP-087 */
static void test_bf16_rounding(void **state)
{
    (void)state;
    /* 1 + 2^-8 is a tie between 1.0 (even) and 1 + 2^-7. */
    cv_rm(NUM_BF16, 0x3f808000, NUM_RNE, 0x3f80, DC | NUM_NX);
    cv_rm(NUM_BF16, 0x3f808000, NUM_RMM, 0x3f81, DC | NUM_NX);
    cv_rm(NUM_BF16, 0x3f808000, NUM_RTZ, 0x3f80, DC | NUM_NX);
    cv_rm(NUM_BF16, 0x3f808000, NUM_RUP, 0x3f81, DC | NUM_NX);
    cv_rm(NUM_BF16, 0x3f808000, NUM_RDN, 0x3f80, DC | NUM_NX);
    cv_rm(NUM_BF16, 0xbf808000, NUM_RDN, 0xbf81, DC | NUM_NX);
    /* 1 + 2^-7 + 2^-8: tie between 0x3f81 (odd) and 0x3f82: RNE goes up. */
    cv_rm(NUM_BF16, 0x3f818000, NUM_RNE, 0x3f82, DC | NUM_NX);
    cv_rm(NUM_BF16, 0x3f80c000, NUM_RNE, 0x3f81, DC | NUM_NX);          /* above the tie */
    cv_rm(NUM_BF16, 0x7f7fffff, NUM_RNE, 0x7f80, DC | NUM_OF | NUM_NX); /* FLT_MAX */
    cv_rm(NUM_BF16, 0x7f7fffff, NUM_RTZ, 0x7f7f, DC | NUM_NX);
    cv_rm(NUM_BF16, 0x00000001, NUM_RNE, 0x0000, DC | NUM_UF | NUM_NX); /* 2^-149 */
}

/* REQ: CAP-104 CAP-105 CAP-085 */
static void test_fp8(void **state)
{
    (void)state;
    num_policy sat = num_policy_default();
    sat.sat = true;
    cv_rm(NUM_E4M3, 0x43e00000, NUM_RNE, 0x7e, DC);                   /* 448 = max */
    cv_rm(NUM_E4M3, 0x43e80000, NUM_RNE, 0x7e, DC | NUM_NX);          /* 464: tie to even 448 */
    cv_rm(NUM_E4M3, 0x43e88000, NUM_RNE, 0x7f, DC | NUM_OF | NUM_NX); /* 465: NaN */
    /* E4M3 overflow and inf create a NaN: canonical 0x7f whatever the sign. */
    cv_rm(NUM_E4M3, 0xc3e88000, NUM_RNE, 0x7f, DC | NUM_OF | NUM_NX); /* -465 */
    cv_rm(NUM_E4M3, 0x43e88000, NUM_RTZ, 0x7e, DC | NUM_NX);
    cv(NUM_E4M3, NUM_FP32, 0x43e88000, &sat, 0x7e, DC | NUM_SAT_HIT | NUM_NX);
    cv_rm(NUM_E4M3, 0x3b000000, NUM_RNE, 0x01, DC);          /* 2^-9 min subnormal */
    cv_rm(NUM_E4M3, 0x3f800000, NUM_RNE, 0x38, DC);          /* 1.0: e=7 */
    cv_rm(NUM_E4M3, 0x7f800000, NUM_RNE, 0x7f, DC | NUM_NV); /* +inf: no inf in E4M3 */
    cv_rm(NUM_E4M3, 0xff800000, NUM_RNE, 0x7f, DC | NUM_NV); /* -inf: canonical */
    cv(NUM_E4M3, NUM_FP32, 0xff800000, &sat, 0xfe, DC | NUM_SAT_HIT | NUM_NX);
    cv_rm(NUM_E5M2, 0x47600000, NUM_RNE, 0x7b, DC);                   /* 57344 = max */
    cv_rm(NUM_E5M2, 0x47700000, NUM_RNE, 0x7c, DC | NUM_OF | NUM_NX); /* 61440 tie -> inf */
    cv_rm(NUM_E5M2, 0x37800000, NUM_RNE, 0x01, DC);                   /* 2^-16 */
    cv(NUM_E5M2, NUM_FP32, 0x47700000, &sat, 0x7b, DC | NUM_SAT_HIT | NUM_NX);
    cv(NUM_E5M2, NUM_FP32, 0x7f800000, &sat, 0x7c, DC); /* inf stays inf */
    /* Decoding by definition. */
    assert_true(num_to_double(NUM_E4M3, 0x7e) == 448.0);
    assert_true(num_to_double(NUM_E4M3, 0x01) == 1.0 / 512);
    assert_true(num_to_double(NUM_E4M3, 0x78) == 256.0); /* S.1111.000 is a number */
    assert_true(num_is_nan(NUM_E4M3, 0x7f) && num_is_nan(NUM_E4M3, 0xff));
    assert_false(num_is_nan(NUM_E4M3, 0x7e));
    assert_true(num_to_double(NUM_E5M2, 0x7b) == 57344.0);
    assert_true(num_is_nan(NUM_E5M2, 0x7d) && !num_is_nan(NUM_E5M2, 0x7c));
}

/* REQ: CAP-113 CAP-127 */
static void test_nan_policies(void **state)
{
    (void)state;
    num_policy p = num_policy_default();
    /* sNaN: NV + SNAN_SEEN; propagate quiets it (payload 0x000001 has no high bits). */
    cv(NUM_FP16, NUM_FP32, 0x7f800001, &p, 0x7e00, DC | NUM_NV | NUM_SNAN_SEEN);
    /* qNaN with payload: sign and high payload bits kept (0x412345 >> 13 = 0x209). */
    cv(NUM_FP16, NUM_FP32, 0xffc12345, &p, 0xfe09, DC | NUM_QNAN_SEEN);
    cv(NUM_E4M3, NUM_FP32, 0xffc12345, &p, 0xff, DC | NUM_QNAN_SEEN);
    /* FP16 sNaN widened: payload left-justified, quiet bit set. */
    cv(NUM_FP32, NUM_FP16, 0x7c01, &p, 0x7fc02000, NUM_NV | NUM_SNAN_SEEN);
    p.nan_pol = NUM_NAN_CANONICAL;
    cv(NUM_FP16, NUM_FP32, 0xffc12345, &p, 0x7e00, DC | NUM_QNAN_SEEN);
    cv(NUM_BF16, NUM_FP32, 0xffc12345, &p, 0x7fc0, DC | NUM_QNAN_SEEN);
    cv(NUM_E5M2, NUM_FP32, 0xffc12345, &p, 0x7e, DC | NUM_QNAN_SEEN);
    cv(NUM_E4M3, NUM_FP32, 0xffc12345, &p, 0x7f, DC | NUM_QNAN_SEEN);
    /* NaN-to-zero squashes created NaNs too: E4M3 overflow and inf give +0. */
    p.nan_pol = NUM_NAN_ZERO;
    cv(NUM_FP16, NUM_FP32, 0x7f800001, &p, 0x0000, DC | NUM_NV | NUM_SNAN_SEEN);
    cv(NUM_E4M3, NUM_FP32, 0xc3e88000, &p, 0x00, DC | NUM_OF | NUM_NX);
    cv(NUM_E4M3, NUM_FP32, 0xff800000, &p, 0x00, DC | NUM_NV);
    /* E4M3's NaN reads as quiet: QNAN_SEEN, no NV; propagate keeps its sign. */
    p = num_policy_default();
    cv(NUM_FP16, NUM_E4M3, 0xff, &p, 0xfe00, NUM_QNAN_SEEN);
    cv(NUM_E4M3, NUM_E4M3, 0xff, &p, 0xff, NUM_QNAN_SEEN);
    cv(NUM_E4M3, NUM_FP32, 0x7f800000, &p, 0x7f, DC | NUM_NV); /* +inf: canonical */
    /* NaN to integer: RISC-V max with SAT=0, 0 with SAT=1; NV either way. */
    p = num_policy_default();
    cv(NUM_I32, NUM_FP32, 0x7fc00000, &p, 0x7fffffff, DC | NUM_NV | NUM_QNAN_SEEN);
    p.sat = true;
    cv(NUM_I32, NUM_FP32, 0x7fc00000, &p, 0, DC | NUM_NV | NUM_QNAN_SEEN);
}

/* REQ: CAP-110 CAP-121 */
static void test_ftz(void **state)
{
    (void)state;
    num_policy p = num_policy_default();
    p.ftz = true;
    /* Subnormal input reads as zero. */
    cv(NUM_FP16, NUM_FP32, 0x00000001, &p, 0x0000, DC | NUM_FTZ_HIT);
    cv(NUM_FP16, NUM_FP32, 0x807fffff, &p, 0x8000, DC | NUM_FTZ_HIT);
    /* 2^-20 is FP16 subnormal 0x0010: flushed on output. */
    cv(NUM_FP16, NUM_FP32, 0x35800000, &p, 0x0000, DC | NUM_FTZ_HIT | NUM_UF | NUM_NX);
    /* Without FTZ it is exact. */
    num_policy q = num_policy_default();
    cv(NUM_FP16, NUM_FP32, 0x35800000, &q, 0x0010, DC);
    /* Subnormal input to an integer under RUP: 0 with FTZ, 1 without. */
    p.rm = NUM_RUP;
    q.rm = NUM_RUP;
    cv(NUM_I8, NUM_FP32, 0x00000001, &p, 0, DC | NUM_FTZ_HIT);
    cv(NUM_I8, NUM_FP32, 0x00000001, &q, 1, DC | NUM_NX);
}

/* A value is held in the low num_fmt_bits bits of its uint32_t: higher input bits are
 * ignored (num.h), and a 32-bit format uses all 32. */
static void test_input_width(void **state)
{
    (void)state;
    num_policy p = num_policy_default();
    cv(NUM_FP32, NUM_I8, 0xffffff05, &p, 0x40a00000, 0);   /* 5 */
    cv(NUM_FP32, NUM_I8, 0x00000185, &p, 0xc2f60000, 0);   /* 0x85 = -123 */
    cv(NUM_FP32, NUM_FP16, 0xffff3c00, &p, 0x3f800000, 0); /* 1.0 */
    assert_true(num_to_double(NUM_FP32, 0x3f800000) == 1.0);
    assert_true(num_to_double(NUM_FP32, 0xc0200000) == -2.5);
    assert_true(num_to_double(NUM_FP16, 0xffff3c00) == 1.0);
    assert_true(num_to_double(NUM_I8, 0x1fb) == -5.0);
}

/* REQ: CAP-085 CAP-092 */
static void test_int_conversions(void **state)
{
    (void)state;
    /* 2.5 and -2.5 in every mode. */
    cv_rm(NUM_I8, 0x40200000, NUM_RNE, 2, DC | NUM_NX);
    cv_rm(NUM_I8, 0x40200000, NUM_RMM, 3, DC | NUM_NX);
    cv_rm(NUM_I8, 0x40200000, NUM_RUP, 3, DC | NUM_NX);
    cv_rm(NUM_I8, 0x40200000, NUM_RDN, 2, DC | NUM_NX);
    cv_rm(NUM_I8, 0x40200000, NUM_RTZ, 2, DC | NUM_NX);
    cv_rm(NUM_I8, 0xc0200000, NUM_RNE, 0xfe, DC | NUM_NX);
    cv_rm(NUM_I8, 0xc0200000, NUM_RMM, 0xfd, DC | NUM_NX);
    cv_rm(NUM_I8, 0xc0200000, NUM_RUP, 0xfe, DC | NUM_NX);
    cv_rm(NUM_I8, 0xc0200000, NUM_RDN, 0xfd, DC | NUM_NX);
    cv_rm(NUM_I8, 0xc0200000, NUM_RTZ, 0xfe, DC | NUM_NX);
    /* Overflow: SAT=0 is RISC-V fcvt (clamp, NV only); SAT=1 saturates. */
    cv_rm(NUM_I8, 0x43960000, NUM_RNE, 0x7f, DC | NUM_NV); /* 300 */
    num_policy s = num_policy_default();
    s.sat = true;
    cv(NUM_I8, NUM_FP32, 0x43960000, &s, 0x7f, DC | NUM_SAT_HIT | NUM_NX);
    cv(NUM_I8, NUM_FP32, 0xc3480000, &s, 0x80, DC | NUM_SAT_HIT | NUM_NX); /* -200 */
    s.sat_mode = NUM_SAT_SYMMETRIC;
    cv(NUM_I8, NUM_FP32, 0xc3480000, &s, 0x81, DC | NUM_SAT_HIT | NUM_NX); /* -127 */
    /* Unsigned: -0.3 rounds to 0 (in range), -1 is out of range. */
    cv_rm(NUM_U8, 0xbe99999a, NUM_RNE, 0, DC | NUM_NX);
    cv_rm(NUM_U8, 0xbf800000, NUM_RNE, 0, DC | NUM_NV);
    /* INT4: 7.6 -> 8 overflows; -8.4 -> -8 fits. */
    cv(NUM_I4, NUM_FP32, 0x40f33333, &s, 0x7, DC | NUM_SAT_HIT | NUM_NX);
    cv_rm(NUM_I4, 0xc1066666, NUM_RNE, 0x8, DC | NUM_NX);
    cv_rm(NUM_I2, 0xbf800000, NUM_RNE, 0x3, DC); /* -1 */
    /* Integer to integer and integer to FP. */
    num_policy p = num_policy_default();
    cv(NUM_I8, NUM_I32, 0xffffff80, &p, 0x80, DC);                  /* -128 fits */
    cv(NUM_I8, NUM_I32, 0xffffff7f, &p, 0x80, DC | NUM_NV);         /* -129 */
    cv(NUM_U16, NUM_I8, 0xff, &p, 0, DC | NUM_NV);                  /* -1 -> u16 */
    cv(NUM_I16, NUM_U8, 0xff, &p, 0xff, 0);                         /* widening: no downcast */
    cv(NUM_FP32, NUM_I32, 0x01000001, &p, 0x4b800000, DC | NUM_NX); /* 2^24+1 */
    p.rm = NUM_RUP;
    cv(NUM_FP32, NUM_I32, 0x01000001, &p, 0x4b800001, DC | NUM_NX);
    p.rm = NUM_RNE;
    cv(NUM_FP16, NUM_U32, 70000, &p, 0x7c00, DC | NUM_OF | NUM_NX);
    cv(NUM_BF16, NUM_I8, 0x80, &p, 0xc300, 0); /* -128 exact, I8 fits in BF16 */
}

/* REQ: CAP-094 CAP-112 */
static void test_quantization(void **state)
{
    (void)state;
    num_policy p = num_policy_default();
    p.q = true;
    p.zp_en = NUM_ZP_TENSOR;
    p.zp = -3;
    p.scale_sh = -2;
    /* 3.7f * 2^2 = 14.8 -> 15, + (-3) = 12. */
    cv(NUM_I8, NUM_FP32, 0x406ccccd, &p, 12, DC | NUM_NX);
    /* Dequantize: (12 - (-3)) * 2^-2 = 3.75. */
    cv(NUM_FP32, NUM_I8, 12, &p, 0x40700000, 0);
    /* q = 0 is not 0.0: (0 + 3) * 2^-2 = 0.75; q = zp gives +0. */
    cv(NUM_FP32, NUM_I8, 0, &p, 0x3f400000, 0);
    cv(NUM_FP32, NUM_I8, 0xfd, &p, 0x00000000, 0);
    /* SCALE_SH is clamped to -64..63 (errata ): 100 acts as 63, so
     * (1 - (-3)) * 2^63 = 2^65 = 0x60000000, and -100 as -64: 4 * 2^-64 = 2^-62. */
    p.scale_sh = 100;
    cv(NUM_FP32, NUM_I8, 1, &p, 0x60000000, 0);
    p.scale_sh = -100;
    cv(NUM_FP32, NUM_I8, 1, &p, 0x20800000, 0);
    p.scale_sh = -65; /* the first clamped value */
    cv(NUM_FP32, NUM_I8, 1, &p, 0x20800000, 0);
    p.scale_sh = 64;
    cv(NUM_FP32, NUM_I8, 1, &p, 0x60000000, 0);
    p.scale_sh = -2;
    /* Zero point off: 3.7 * 4 -> 15. */
    p.zp_en = NUM_ZP_OFF;
    cv(NUM_I8, NUM_FP32, 0x406ccccd, &p, 15, DC | NUM_NX);
    /* Unsigned, zero point 128, scale 2^-4: -1.0 * 2^4 = -16, + 128 = 112. */
    p.uns = true;
    p.zp_en = NUM_ZP_TENSOR;
    p.zp = 128;
    p.scale_sh = -4;
    assert_int_equal(num_policy_int_fmt(&p, 8), NUM_U8);
    cv(NUM_U8, NUM_FP32, 0xbf800000, &p, 112, DC);
    cv(NUM_U8, NUM_FP32, 0xc1800000, &p, 0, DC | NUM_NV); /* -16*16 + 128 = -128 */
    /* Positive scale shift: 40.0 * 2^-3 = 5, + 128 = 133. */
    p.scale_sh = 3;
    cv(NUM_U8, NUM_FP32, 0x42200000, &p, 133, DC);
    /* Zero maps to the zero point; saturation clamps the quantized value. */
    cv(NUM_U8, NUM_FP32, 0x00000000, &p, 128, DC);
    p.sat = true;
    cv(NUM_U8, NUM_FP32, 0x4f000000, &p, 255, DC | NUM_SAT_HIT | NUM_NX); /* 2^31 */
    /* FP -> FP ignores quantization. */
    cv(NUM_FP16, NUM_FP32, 0x3f800000, &p, 0x3c00, DC);
}

/* num_pack_get/put: no instruction in these specs packs elements, so it names no
 * requirement (PACK is listed in docs/uncovered.tsv). */
static void test_packing(void **state)
{
    (void)state;
    uint8_t buf[2] = {0, 0};
    const int8_t v4[4] = {1, -2, 7, -8};
    for (size_t i = 0; i < 4; i++)
        assert_true(num_pack_put(buf, sizeof buf, NUM_I4, i, (uint32_t)v4[i] & 0xf));
    assert_int_equal(buf[0], 0xe1); /* element 0 in the low nibble */
    assert_int_equal(buf[1], 0x87);
    for (size_t i = 0; i < 4; i++) {
        uint32_t b;
        assert_true(num_pack_get(buf, sizeof buf, NUM_I4, i, &b));
        assert_int_equal(num_int_value(NUM_I4, b), v4[i]);
    }
    uint8_t c = 0;
    const int8_t v2[4] = {1, -1, -2, 0};
    for (size_t i = 0; i < 4; i++)
        assert_true(num_pack_put(&c, 1, NUM_I2, i, (uint32_t)v2[i] & 3));
    assert_int_equal(c, 0x2d); /* crumbs 00 10 11 01 */
    uint32_t b;
    assert_false(num_pack_get(&c, 1, NUM_I2, 4, &b)); /* out of range */
    assert_false(num_pack_put(buf, sizeof buf, NUM_I4, 4, 0));
    uint8_t w[4] = {0};
    assert_true(num_pack_put(w, 4, NUM_FP16, 1, 0x3c00));
    assert_int_equal(w[2], 0x00);
    assert_int_equal(w[3], 0x3c);
    /* every byte of a wide element is written, the low one included */
    uint8_t h[2] = {0xaa, 0xaa};
    assert_true(num_pack_put(h, 2, NUM_FP16, 0, 0x3c01));
    assert_int_equal(h[0], 0x01);
    assert_int_equal(h[1], 0x3c);
    assert_false(num_pack_put(w, 4, NUM_FP32, 1, 0));
    assert_false(num_pack_get(NULL, 4, NUM_FP32, 0, &b));
}

/* num_fma: no instruction in these specs accumulates, so it names no requirement
 * (ACCW and MIXED are listed in docs/uncovered.tsv). */
static void test_fma(void **state)
{
    (void)state;
    num_policy p = num_policy_default();
    num_flags fl = 0;
    /* FP16 x FP16 + FP32 (ACCW=FP32): (1+2^-10)^2 - 1 = 2^-9 + 2^-20, exact in FP32. */
    assert_int_equal(num_fma(NUM_FP32, NUM_FP16, 0x3c01, 0x3c01, 0xbf800000, &p, &fl), 0x3b001000);
    assert_int_equal(fl, 0);
    /* The same in FP16: 2^-9(1+2^-11) is a tie -> 2^-9 = 0x1800. */
    fl = 0;
    assert_int_equal(num_fma(NUM_FP16, NUM_FP16, 0x3c01, 0x3c01, 0xbc00, &p, &fl), 0x1800);
    assert_int_equal(fl, NUM_NX);
    /* INT8 x INT8 + INT32: (-128)(-128) + 100 = 16484. */
    fl = 0;
    assert_int_equal(num_fma(NUM_I32, NUM_I8, 0x80, 0x80, 100, &p, &fl), 16484);
    assert_int_equal(fl, 0);
    /* INT16 MAC overflow: 32767^2 + (2^31-1). */
    fl = 0;
    assert_int_equal(num_fma(NUM_I32, NUM_I16, 0x7fff, 0x7fff, 0x7fffffff, &p, &fl), 0x7fffffff);
    assert_int_equal(fl, NUM_NV);
    p.sat = true;
    fl = 0;
    assert_int_equal(num_fma(NUM_I32, NUM_I16, 0x7fff, 0x7fff, 0x7fffffff, &p, &fl), 0x7fffffff);
    assert_int_equal(fl, NUM_SAT_HIT | NUM_NX);
    p.sat = false;
    /* inf * 0 + c: NV, canonical NaN. */
    fl = 0;
    assert_int_equal(num_fma(NUM_FP32, NUM_FP32, 0x7f800000, 0, 0x3f800000, &p, &fl), 0x7fc00000);
    assert_int_equal(fl, NUM_NV);
    /* inf - inf */
    fl = 0;
    assert_int_equal(num_fma(NUM_FP32, NUM_FP32, 0x7f800000, 0x3f800000, 0xff800000, &p, &fl),
                     0x7fc00000);
    assert_int_equal(fl, NUM_NV);
    /* Exact cancellation: +0 in RNE, -0 in RDN. */
    fl = 0;
    assert_int_equal(num_fma(NUM_FP32, NUM_FP32, 0x3f800000, 0x3f800000, 0xbf800000, &p, &fl), 0);
    p.rm = NUM_RDN;
    assert_int_equal(num_fma(NUM_FP32, NUM_FP32, 0x3f800000, 0x3f800000, 0xbf800000, &p, &fl),
                     0x80000000);
    assert_int_equal(fl, 0);
    /* add / mul */
    assert_int_equal(num_add(NUM_FP32, 0, 0x80000000, &p, &fl), 0x80000000); /* RDN */
    p.rm = NUM_RNE;
    assert_int_equal(num_add(NUM_FP32, 0, 0x80000000, &p, &fl), 0);
    assert_int_equal(num_add(NUM_FP32, 0x3f800000, 0x33800000, &p, &fl), 0x3f800000); /* tie */
    assert_int_equal(fl, NUM_NX);
    p.rm = NUM_RUP;
    assert_int_equal(num_add(NUM_FP32, 0x3f800000, 0x33800000, &p, &fl), 0x3f800001);
    p.rm = NUM_RDN;
    fl = 0;
    assert_int_equal(num_mul(NUM_FP32, NUM_FP32, 0, 0xc0a00000, &p, &fl), 0x80000000); /* +0*-5 */
    assert_int_equal(num_mul(NUM_FP32, NUM_FP32, 0, 0x40a00000, &p, &fl), 0); /* +0, even RDN */
    assert_int_equal(fl, 0);
    /* FP8 products accumulated in FP16 (MIXED): 448 * 448 = 200704 overflows FP16. */
    p.rm = NUM_RNE;
    fl = 0;
    assert_int_equal(num_mul(NUM_FP16, NUM_E4M3, 0x7e, 0x7e, &p, &fl), 0x7c00);
    assert_int_equal(fl, NUM_OF | NUM_NX);
    /* E4M3 1.0 * 2.0 + FP16 0.5 = 2.5 (0x4100). */
    fl = 0;
    assert_int_equal(num_fma(NUM_FP16, NUM_E4M3, 0x38, 0x40, 0x3800, &p, &fl), 0x4100);
    assert_int_equal(fl, 0);
    /* A quiet NaN operand propagates (first NaN in a, b, c order). */
    fl = 0;
    assert_int_equal(num_fma(NUM_FP32, NUM_FP32, 0x3f800000, 0xffc00001, 0x7fc00002, &p, &fl),
                     0xffc00001);
    assert_int_equal(fl, NUM_QNAN_SEEN);
}

/* REQ: CAP-124 CAP-128 */
static void test_traps(void **state)
{
    (void)state;
    assert_int_equal(num_trap_pending(NUM_OF | NUM_NX, 1u << 2, false), NUM_OF);
    assert_int_equal(num_trap_pending(NUM_OF | NUM_NX, 1u << 2, true), 0);
    assert_int_equal(num_trap_pending(NUM_NX, 1u << 2, false), 0);
    /* SAT_HIT and NaN-seen never trap: no enable bits exist for them. */
    assert_int_equal(num_trap_pending(NUM_SAT_HIT | NUM_QNAN_SEEN, 0xffffffffu, false), 0);
    assert_int_equal(num_trap_pending(NUM_NV | NUM_DZ | NUM_UF, 0x1f, false),
                     NUM_NV | NUM_DZ | NUM_UF);
}

/* REQ: CAP-121 */
static void test_downcast_and_formats(void **state)
{
    (void)state;
    assert_true(num_fmt_narrows(NUM_FP16, NUM_FP32));
    assert_false(num_fmt_narrows(NUM_FP32, NUM_FP16));
    assert_false(num_fmt_narrows(NUM_FP16, NUM_E4M3));
    assert_false(num_fmt_narrows(NUM_FP16, NUM_E5M2));
    assert_true(num_fmt_narrows(NUM_E5M2, NUM_E4M3));
    assert_true(num_fmt_narrows(NUM_E4M3, NUM_E5M2));
    assert_true(num_fmt_narrows(NUM_FP16, NUM_BF16));
    assert_true(num_fmt_narrows(NUM_BF16, NUM_FP16));
    assert_false(num_fmt_narrows(NUM_BF16, NUM_I8));
    assert_false(num_fmt_narrows(NUM_BF16, NUM_U8));
    assert_true(num_fmt_narrows(NUM_FP16, NUM_I16));
    assert_true(num_fmt_narrows(NUM_FP32, NUM_I32));
    assert_false(num_fmt_narrows(NUM_E4M3, NUM_I4));
    assert_false(num_fmt_narrows(NUM_I16, NUM_U8));
    assert_true(num_fmt_narrows(NUM_U8, NUM_I8));
    assert_true(num_fmt_narrows(NUM_I32, NUM_FP16));
    /* Same format: no downcast; FTZ/NaN policy still apply. */
    num_policy p = num_policy_default();
    cv(NUM_FP16, NUM_FP16, 0x3c00, &p, 0x3c00, 0);
    cv(NUM_FP32, NUM_FP16, 0x3c00, &p, 0x3f800000, 0);
    cv(NUM_FP16, NUM_E4M3, 0x7e, &p, 0x5f00, 0); /* 448 */
    assert_int_equal(num_fmt_from_name("E4M3"), NUM_E4M3);
    assert_int_equal(num_fmt_from_name("i2"), NUM_I2);
    assert_int_equal(num_fmt_from_name("FP8_E5M2"), NUM_E5M2);
    assert_int_equal(num_fmt_from_name("uint4"), NUM_U4);
    assert_int_equal(num_fmt_from_name("fp64"), -1);
    assert_int_equal(num_fmt_from_name(NULL), -1);
    assert_int_equal(num_fmt_int(4, true), NUM_U4);
    assert_int_equal(num_fmt_int(64, false), -1);
    assert_int_equal(num_fmt_bits(NUM_I2), 2);
    assert_int_equal(num_int_value(NUM_I4, 0x8), -8);
    assert_int_equal(num_int_value(NUM_U4, 0x8), 8);
}

static void test_bad_input(void **state)
{
    (void)state;
    num_policy p = num_policy_default();
    num_flags fl = 0;
    assert_int_equal(num_convert((num_fmt)99, NUM_FP32, 0x3f800000, &p, &fl), 0);
    assert_int_equal(fl, NUM_NV);
    fl = 0;
    assert_int_equal(num_convert(NUM_FP16, (num_fmt)-1, 0, &p, &fl), 0);
    assert_int_equal(fl, NUM_NV);
    fl = 0;
    assert_int_equal(num_convert(NUM_FP16, NUM_FP32, 0, NULL, &fl), 0);
    assert_int_equal(fl, NUM_NV);
    assert_int_equal(num_fma(NUM_FP16, (num_fmt)50, 0, 0, 0, &p, NULL), 0);
    /* Reserved rounding mode and NaN policy values fall back to RNE / canonical. */
    p.rm = (num_rm)7;
    p.nan_pol = (num_nan_pol)3;
    cv(NUM_BF16, NUM_FP32, 0x3f818000, &p, 0x3f82, DC | NUM_NX);
    cv(NUM_BF16, NUM_FP32, 0xffc12345, &p, 0x7fc0, DC | NUM_QNAN_SEEN);
    /* Bits above the format width are ignored. */
    p = num_policy_default();
    cv(NUM_FP32, NUM_FP16, 0xabcd3c00, &p, 0x3f800000, 0);
    assert_false(num_fmt_valid((num_fmt)NUM_FMT_COUNT));
    assert_string_equal(num_fmt_name((num_fmt)99), "?");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fp16_limits),
        cmocka_unit_test(test_bf16_rounding),
        cmocka_unit_test(test_fp8),
        cmocka_unit_test(test_nan_policies),
        cmocka_unit_test(test_ftz),
        cmocka_unit_test(test_input_width),
        cmocka_unit_test(test_int_conversions),
        cmocka_unit_test(test_quantization),
        cmocka_unit_test(test_packing),
        cmocka_unit_test(test_fma),
        cmocka_unit_test(test_traps),
        cmocka_unit_test(test_downcast_and_formats),
        cmocka_unit_test(test_bad_input),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
