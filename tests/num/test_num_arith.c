/* test_num_arith.c — num_fma / num_mul / num_add against the host FPU.
 *
 * The host's IEEE binary32 arithmetic (with fesetround for the four IEEE directions; RMM
 * has no host mode and is covered by hand vectors) is an independent source for:
 *   FP32 a*b+c (hardware FMA when the CPU has it), FP32 a*b, FP32 a+b, and the mixed
 *   FP16 x FP16 + FP32 accumulate (the FP16 product is exact in binary32, so the host's
 *   single FP32 addition is the one rounding).
 * Results are compared bit for bit (any NaN against any NaN, as the host NaN payload
 * rules differ from NAN_POL) and the flags NV, OF, UF, NX against fetestexcept.
 */
#include <fenv.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "xphmg/num.h"

/* -frounding-math (CMake) stands in for FENV_ACCESS, which GCC ignores. */
static uint64_t rng_state = 0x9e3779b97f4a7c15u;

static uint32_t rnd32(void)
{
    /* xorshift64*: a fixed sequence, so a failure is reproducible. */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return (uint32_t)((rng_state * 0x2545f4914f6cdd1dULL) >> 32);
}

/* FP32 operands biased towards the interesting places: specials, subnormals, values
 * near 1 and the overflow threshold, and exponents close to each other. */
static uint32_t rnd_f32(void)
{
    uint32_t r = rnd32(), sign = r & 0x80000000u;
    switch (r & 7) {
    case 0: {
        static const uint32_t sp[] = {0,          0x7f800000, 0x7fc00000, 0x7f800001, 0x00000001,
                                      0x007fffff, 0x00800000, 0x7f7fffff, 0x3f800000, 0x33800000};
        return sign | sp[(r >> 3) % 10];
    }
    case 1:
        return sign | (rnd32() & 0x007fffff); /* subnormal */
    case 2:
        return sign | ((rnd32() & 0x00ffffff) + 0x3f000000); /* near 1 */
    case 3:
        return sign | ((rnd32() & 0x00ffffff) + 0x7e800000); /* huge */
    case 4:
        return sign | ((rnd32() & 0x01ffffff) + 0x00000000); /* tiny */
    default:
        return rnd32();
    }
}

static float as_f(uint32_t b)
{
    float f;
    memcpy(&f, &b, 4);
    return f;
}

static uint32_t as_u(float f)
{
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

static num_flags host_flags(void)
{
    int e = fetestexcept(FE_ALL_EXCEPT);
    num_flags f = 0;
    if (e & FE_INVALID) f |= NUM_NV;
    if (e & FE_OVERFLOW) f |= NUM_OF;
    if (e & FE_UNDERFLOW) f |= NUM_UF;
    if (e & FE_INEXACT) f |= NUM_NX;
    if (e & FE_DIVBYZERO) f |= NUM_DZ;
    return f;
}

static const int HOST_RM[4] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD};
static const num_rm NUM_RMS[4] = {NUM_RNE, NUM_RTZ, NUM_RDN, NUM_RUP};

typedef enum { OP_FMA, OP_MUL, OP_ADD, OP_MIX16 } op_kind;

static uint32_t host_op(op_kind op, uint32_t a, uint32_t b, uint32_t c)
{
    volatile float x = as_f(a), y = as_f(b), z = as_f(c), r = 0;
    switch (op) {
    case OP_FMA:
        r = fmaf(x, y, z);
        break;
    case OP_MUL:
        r = x * y;
        break;
    case OP_ADD:
        r = x + y;
        break;
    case OP_MIX16: {
        volatile float prod = x * y; /* exact: FP16 operands */
        r = prod + z;                /* the one rounding */
        break;
    }
    }
    return as_u(r);
}

/* FP16 value by the binary16 definition (exact in binary32). */
static uint32_t fp16_to_f32_exact(uint16_t h)
{
    int e = (h >> 10) & 31, m = h & 1023;
    double v = e == 0 ? ldexp(m, -24) : e == 31 ? (m ? NAN : INFINITY) : ldexp(m + 1024, e - 25);
    return as_u((float)((h >> 15) ? -v : v));
}

static int nan32(uint32_t b)
{
    return (b & 0x7fffffffu) > 0x7f800000u;
}

static int check_op(op_kind op, int rmi, unsigned iters)
{
    num_policy pol = num_policy_default();
    pol.rm = NUM_RMS[rmi];
    int bad = 0;
    for (unsigned i = 0; i < iters; i++) {
        uint32_t a = rnd_f32(), b = rnd_f32(), c = rnd_f32();
        uint32_t ha = a, hb = b;
        if (op == OP_MIX16) {
            a = rnd32() & 0xffff;
            b = rnd32() & 0xffff;
            if (num_is_nan(NUM_FP16, a) || num_is_nan(NUM_FP16, b)) continue;
            ha = fp16_to_f32_exact((uint16_t)a);
            hb = fp16_to_f32_exact((uint16_t)b);
        }
        feclearexcept(FE_ALL_EXCEPT);
        fesetround(HOST_RM[rmi]);
        uint32_t want = host_op(op, ha, hb, c);
        num_flags want_fl = host_flags();
        fesetround(FE_TONEAREST);
        num_flags got_fl = 0;
        uint32_t got = 0;
        switch (op) {
        case OP_FMA:
            got = num_fma(NUM_FP32, NUM_FP32, a, b, c, &pol, &got_fl);
            break;
        case OP_MUL:
            got = num_mul(NUM_FP32, NUM_FP32, a, b, &pol, &got_fl);
            break;
        case OP_ADD:
            got = num_add(NUM_FP32, a, b, &pol, &got_fl);
            break;
        case OP_MIX16:
            got = num_fma(NUM_FP32, NUM_FP16, a, b, c, &pol, &got_fl);
            break;
        }
        got_fl &= NUM_FFLAGS_MASK;
        int same = (nan32(got) && nan32(want)) || got == want;
        /* With a NaN operand only the bits are compared: hosts differ on NV for
         * inf*0+qNaN. */
        int nan_in =
            op == OP_MIX16 ? nan32(c) : (nan32(a) || nan32(b) || (op == OP_FMA && nan32(c)));
        if (!same || (!nan_in && got_fl != want_fl)) {
            if (bad < 8)
                fprintf(stderr, "op %d rm %d a=%08x b=%08x c=%08x: got %08x/%x want %08x/%x\n", op,
                        rmi, a, b, c, got, got_fl, want, want_fl);
            bad++;
        }
    }
    return bad;
}

/* REQ: CAP-087 */
static void test_fma_fp32(void **state)
{
    (void)state;
    int bad = 0;
    for (int r = 0; r < 4; r++)
        bad += check_op(OP_FMA, r, 200000);
    assert_int_equal(bad, 0);
}

static void test_mul_add_fp32(void **state)
{
    (void)state;
    int bad = 0;
    for (int r = 0; r < 4; r++)
        bad += check_op(OP_MUL, r, 100000) + check_op(OP_ADD, r, 100000);
    assert_int_equal(bad, 0);
}

/* FP16 x FP16 + FP32 through num_fma: no instruction in these specs accumulates, so it
 * names no requirement (ACCW and MIXED are listed in docs/uncovered.tsv). */
static void test_mixed_fp16_fp32(void **state)
{
    (void)state;
    int bad = 0;
    for (int r = 0; r < 4; r++)
        bad += check_op(OP_MIX16, r, 200000);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fma_fp32),
        cmocka_unit_test(test_mul_add_fp32),
        cmocka_unit_test(test_mixed_fp16_fp32),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
