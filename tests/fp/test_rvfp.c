/* test_rvfp.c — RISC-V F/D arithmetic (src/num/rvfp.c) against hand-computed vectors and
 * against the independent exact reference in fpref.c.
 *
 * Hand vectors: values worked out from the IEEE 754-2008 / RISC-V unprivileged spec
 * (chapter "F" and "D") rules; each is checked against rvfp AND the reference, which
 * also validates the reference. Random: for every rounding operation and every rounding
 * mode, `iters` inputs (fixed seed) drawn to hit subnormals, ties, overflow, cancellation
 * and NaNs; results and fflags must match the reference bit for bit.
 *
 * Usage: test_rvfp [--iters N] [--seed S] [--only OP]  (default 100000 per op per mode)
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "fpgen.h"
#include "fpref.h"
#include "rvfp.h"

static long g_iters = 100000;
static uint64_t g_seed = 0x5eed1234abcdULL;
static const char *g_only; /* --only OP: sweep just that operation */

enum { NV = 0x10, DZ = 0x08, OF = 0x04, UF = 0x02, NX = 0x01 };
enum { RNE, RTZ, RDN, RUP, RMM };
static const char *const rm_name[5] = {"RNE", "RTZ", "RDN", "RUP", "RMM"};

/* ---------------------------------------------------------------- operation table */

typedef uint64_t (*implfn)(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl);

#define W1S(fn)                                                                                    \
    static uint64_t w_##fn(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl)          \
    {                                                                                              \
        (void)b, (void)c;                                                                          \
        return rvfp_##fn((uint32_t)a, rm, fl);                                                     \
    }
#define W2S(fn)                                                                                    \
    static uint64_t w_##fn(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl)          \
    {                                                                                              \
        (void)c;                                                                                   \
        return rvfp_##fn((uint32_t)a, (uint32_t)b, rm, fl);                                        \
    }
#define W3S(fn)                                                                                    \
    static uint64_t w_##fn(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl)          \
    {                                                                                              \
        return rvfp_##fn((uint32_t)a, (uint32_t)b, (uint32_t)c, rm, fl);                           \
    }
#define W1D(fn)                                                                                    \
    static uint64_t w_##fn(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl)          \
    {                                                                                              \
        (void)b, (void)c;                                                                          \
        return (uint64_t)rvfp_##fn(a, rm, fl);                                                     \
    }
#define W2D(fn)                                                                                    \
    static uint64_t w_##fn(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl)          \
    {                                                                                              \
        (void)c;                                                                                   \
        return rvfp_##fn(a, b, rm, fl);                                                            \
    }
#define W3D(fn)                                                                                    \
    static uint64_t w_##fn(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl)          \
    {                                                                                              \
        return rvfp_##fn(a, b, c, rm, fl);                                                         \
    }
#define WI(fn, T)                                                                                  \
    static uint64_t w_##fn(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl)          \
    {                                                                                              \
        (void)b, (void)c;                                                                          \
        return (uint64_t)rvfp_##fn((T)a, rm, fl);                                                  \
    }

/* clang-format off */
W2S(add_s)
W2S(sub_s)
W2S(mul_s)
W2S(div_s)
W1S(sqrt_s)
W3S(fmadd_s)
W3S(fmsub_s)
W3S(fnmsub_s)
W3S(fnmadd_s)
W2D(add_d)
W2D(sub_d)
W2D(mul_d)
W2D(div_d)
W1D(sqrt_d)
W3D(fmadd_d)
W3D(fmsub_d)
W3D(fnmsub_d)
W3D(fnmadd_d)
WI(cvt_s_d, uint64_t)
WI(cvt_d_s, uint32_t)
WI(cvt_w_s, uint32_t)
WI(cvt_wu_s, uint32_t)
WI(cvt_l_s, uint32_t)
WI(cvt_lu_s, uint32_t)
WI(cvt_w_d, uint64_t)
WI(cvt_wu_d, uint64_t)
WI(cvt_l_d, uint64_t)
WI(cvt_lu_d, uint64_t)
WI(cvt_s_w, int32_t)
WI(cvt_s_wu, uint32_t)
WI(cvt_s_l, int64_t)
WI(cvt_s_lu, uint64_t)
WI(cvt_d_w, int32_t)
WI(cvt_d_wu, uint32_t)
WI(cvt_d_l, int64_t)
WI(cvt_d_lu, uint64_t)
/* clang-format on */

enum { K_ARITH, K_FF, K_TOINT, K_FROMINT };

typedef struct opent {
    const char *name;
    implfn impl;
    int kind;
    int fmt;   /* operand format (K_FROMINT: result format; K_FF: result format) */
    int rop;   /* K_ARITH */
    int nargs; /* K_ARITH */
    int bits;  /* K_TOINT / K_FROMINT */
    int sgn;
} opent;

static const opent ops[] = {
    {"fadd.s", w_add_s, K_ARITH, FP_S, REF_ADD, 2, 0, 0},
    {"fsub.s", w_sub_s, K_ARITH, FP_S, REF_SUB, 2, 0, 0},
    {"fmul.s", w_mul_s, K_ARITH, FP_S, REF_MUL, 2, 0, 0},
    {"fdiv.s", w_div_s, K_ARITH, FP_S, REF_DIV, 2, 0, 0},
    {"fsqrt.s", w_sqrt_s, K_ARITH, FP_S, REF_SQRT, 1, 0, 0},
    {"fmadd.s", w_fmadd_s, K_ARITH, FP_S, REF_FMADD, 3, 0, 0},
    {"fmsub.s", w_fmsub_s, K_ARITH, FP_S, REF_FMSUB, 3, 0, 0},
    {"fnmsub.s", w_fnmsub_s, K_ARITH, FP_S, REF_FNMSUB, 3, 0, 0},
    {"fnmadd.s", w_fnmadd_s, K_ARITH, FP_S, REF_FNMADD, 3, 0, 0},
    {"fadd.d", w_add_d, K_ARITH, FP_D, REF_ADD, 2, 0, 0},
    {"fsub.d", w_sub_d, K_ARITH, FP_D, REF_SUB, 2, 0, 0},
    {"fmul.d", w_mul_d, K_ARITH, FP_D, REF_MUL, 2, 0, 0},
    {"fdiv.d", w_div_d, K_ARITH, FP_D, REF_DIV, 2, 0, 0},
    {"fsqrt.d", w_sqrt_d, K_ARITH, FP_D, REF_SQRT, 1, 0, 0},
    {"fmadd.d", w_fmadd_d, K_ARITH, FP_D, REF_FMADD, 3, 0, 0},
    {"fmsub.d", w_fmsub_d, K_ARITH, FP_D, REF_FMSUB, 3, 0, 0},
    {"fnmsub.d", w_fnmsub_d, K_ARITH, FP_D, REF_FNMSUB, 3, 0, 0},
    {"fnmadd.d", w_fnmadd_d, K_ARITH, FP_D, REF_FNMADD, 3, 0, 0},
    {"fcvt.s.d", w_cvt_s_d, K_FF, FP_S, 0, 1, 0, 0},
    {"fcvt.d.s", w_cvt_d_s, K_FF, FP_D, 0, 1, 0, 0},
    {"fcvt.w.s", w_cvt_w_s, K_TOINT, FP_S, 0, 1, 32, 1},
    {"fcvt.wu.s", w_cvt_wu_s, K_TOINT, FP_S, 0, 1, 32, 0},
    {"fcvt.l.s", w_cvt_l_s, K_TOINT, FP_S, 0, 1, 64, 1},
    {"fcvt.lu.s", w_cvt_lu_s, K_TOINT, FP_S, 0, 1, 64, 0},
    {"fcvt.w.d", w_cvt_w_d, K_TOINT, FP_D, 0, 1, 32, 1},
    {"fcvt.wu.d", w_cvt_wu_d, K_TOINT, FP_D, 0, 1, 32, 0},
    {"fcvt.l.d", w_cvt_l_d, K_TOINT, FP_D, 0, 1, 64, 1},
    {"fcvt.lu.d", w_cvt_lu_d, K_TOINT, FP_D, 0, 1, 64, 0},
    {"fcvt.s.w", w_cvt_s_w, K_FROMINT, FP_S, 0, 1, 32, 1},
    {"fcvt.s.wu", w_cvt_s_wu, K_FROMINT, FP_S, 0, 1, 32, 0},
    {"fcvt.s.l", w_cvt_s_l, K_FROMINT, FP_S, 0, 1, 64, 1},
    {"fcvt.s.lu", w_cvt_s_lu, K_FROMINT, FP_S, 0, 1, 64, 0},
    {"fcvt.d.w", w_cvt_d_w, K_FROMINT, FP_D, 0, 1, 32, 1},
    {"fcvt.d.wu", w_cvt_d_wu, K_FROMINT, FP_D, 0, 1, 32, 0},
    {"fcvt.d.l", w_cvt_d_l, K_FROMINT, FP_D, 0, 1, 64, 1},
    {"fcvt.d.lu", w_cvt_d_lu, K_FROMINT, FP_D, 0, 1, 64, 0},
};
#define NOPS ((int)(sizeof ops / sizeof ops[0]))

static const opent *find_op(const char *name)
{
    for (int i = 0; i < NOPS; i++)
        if (strcmp(ops[i].name, name) == 0) return &ops[i];
    fail_msg("no op %s", name);
    return NULL;
}

static uint64_t ref_call(const opent *o, uint64_t a, uint64_t b, uint64_t c, unsigned rm,
                         unsigned *fl)
{
    switch (o->kind) {
    case K_ARITH:
        return ref_arith(o->fmt, (enum refop)o->rop, a, b, c, rm, fl);
    case K_FF:
        return ref_cvt_f_f(o->fmt, a, rm, fl);
    case K_TOINT:
        return ref_cvt_to_int(o->fmt, a, o->bits, o->sgn, rm, fl);
    default:
        return ref_cvt_from_int(o->fmt, a, o->bits, o->sgn, rm, fl);
    }
}

/* ---------------------------------------------------------------- hand vectors */

typedef struct vec {
    const char *op;
    unsigned rm;
    uint64_t a, b, c;
    uint64_t want;
    unsigned flags;
} vec;

#define S_MAX  0x7f7fffffu
#define S_INF  0x7f800000u
#define S_QNAN 0x7fc00000u
#define S_MINN 0x00800000u
#define D_MAX  0x7fefffffffffffffull
#define D_INF  0x7ff0000000000000ull
#define D_QNAN 0x7ff8000000000000ull
#define SGN_S  0x80000000u
#define SGN_D  0x8000000000000000ull
#define SX(v)  ((uint64_t)(int64_t)(int32_t)(uint32_t)(v))

/* Every value below is derived by hand from the spec rules (comment says how). */
static const vec vecs[] = {
    /* 1 + 2^-24 is halfway between 1 and 1+2^-23 (0x3f800001). */
    {"fadd.s", RNE, 0x3f800000, 0x33800000, 0, 0x3f800000, NX},
    {"fadd.s", RTZ, 0x3f800000, 0x33800000, 0, 0x3f800000, NX},
    {"fadd.s", RDN, 0x3f800000, 0x33800000, 0, 0x3f800000, NX},
    {"fadd.s", RUP, 0x3f800000, 0x33800000, 0, 0x3f800001, NX},
    {"fadd.s", RMM, 0x3f800000, 0x33800000, 0, 0x3f800001, NX},
    /* -(1 + 2^-24): directed modes mirror. */
    {"fsub.s", RDN, 0xbf800000, 0x33800000, 0, 0xbf800001, NX},
    {"fsub.s", RUP, 0xbf800000, 0x33800000, 0, 0xbf800000, NX},
    {"fsub.s", RMM, 0xbf800000, 0x33800000, 0, 0xbf800001, NX},
    /* (1+2^-23) + 2^-24 is halfway with an odd lower neighbour: RNE and RMM both up. */
    {"fadd.s", RNE, 0x3f800001, 0x33800000, 0, 0x3f800002, NX},
    {"fadd.s", RMM, 0x3f800001, 0x33800000, 0, 0x3f800002, NX},
    /* Same for binary64: 1 + 2^-53. */
    {"fadd.d", RNE, 0x3ff0000000000000, 0x3ca0000000000000, 0, 0x3ff0000000000000, NX},
    {"fadd.d", RMM, 0x3ff0000000000000, 0x3ca0000000000000, 0, 0x3ff0000000000001, NX},
    {"fadd.d", RUP, 0x3ff0000000000000, 0x3ca0000000000000, 0, 0x3ff0000000000001, NX},
    /* Exact cancellation: +0, except -0 in RDN. */
    {"fsub.s", RNE, 0x3fc00000, 0x3fc00000, 0, 0x00000000, 0},
    {"fsub.s", RDN, 0x3fc00000, 0x3fc00000, 0, SGN_S, 0},
    {"fsub.s", RMM, 0x3fc00000, 0x3fc00000, 0, 0x00000000, 0},
    {"fadd.d", RDN, 0x4000000000000000, 0xc000000000000000, 0, SGN_D, 0},
    {"fadd.s", RNE, SGN_S, SGN_S, 0, SGN_S, 0},
    /* Overflow: MAX + MAX. Nearest modes and away-direction give inf, others MAX. */
    {"fadd.s", RNE, S_MAX, S_MAX, 0, S_INF, OF | NX},
    {"fadd.s", RTZ, S_MAX, S_MAX, 0, S_MAX, OF | NX},
    {"fadd.s", RDN, S_MAX, S_MAX, 0, S_MAX, OF | NX},
    {"fadd.s", RUP, S_MAX, S_MAX, 0, S_INF, OF | NX},
    {"fadd.s", RMM, S_MAX, S_MAX, 0, S_INF, OF | NX},
    {"fadd.s", RDN, S_MAX | SGN_S, S_MAX | SGN_S, 0, S_INF | SGN_S, OF | NX},
    {"fadd.s", RUP, S_MAX | SGN_S, S_MAX | SGN_S, 0, S_MAX | SGN_S, OF | NX},
    {"fmul.d", RNE, D_MAX, 0x4000000000000000, 0, D_INF, OF | NX},
    {"fmul.d", RTZ, D_MAX, 0x4000000000000000, 0, D_MAX, OF | NX},
    {"fmul.d", RMM, D_MAX, 0x4000000000000000, 0, D_INF, OF | NX},
    /* MAX + half an ulp of MAX (2^103) is halfway to 2^128: RNE/RMM overflow. */
    {"fadd.s", RNE, S_MAX, 0x73000000, 0, S_INF, OF | NX},
    {"fadd.s", RMM, S_MAX, 0x73000000, 0, S_INF, OF | NX},
    {"fadd.s", RTZ, S_MAX, 0x73000000, 0, S_MAX, NX},
    /* Exact subnormal result: no UF. 2^-126 * 0.5 = 2^-127 = 0x00400000. */
    {"fmul.s", RNE, S_MINN, 0x3f000000, 0, 0x00400000, 0},
    /* 2^-149 * 0.5 = 2^-150, halfway between 0 and 2^-149. */
    {"fmul.s", RNE, 0x00000001, 0x3f000000, 0, 0x00000000, UF | NX},
    {"fmul.s", RTZ, 0x00000001, 0x3f000000, 0, 0x00000000, UF | NX},
    {"fmul.s", RUP, 0x00000001, 0x3f000000, 0, 0x00000001, UF | NX},
    {"fmul.s", RDN, 0x00000001, 0xbf000000, 0, 0x80000001, UF | NX},
    {"fmul.s", RMM, 0x00000001, 0x3f000000, 0, 0x00000001, UF | NX},
    {"fmul.s", RMM, 0x00000001, 0xbf000000, 0, 0x80000001, UF | NX},
    {"fdiv.s", RMM, 0x00000001, 0x40000000, 0, 0x00000001, UF | NX},
    {"fdiv.s", RNE, 0x00000003, 0x40000000, 0, 0x00000002, UF | NX},
    {"fdiv.s", RMM, 0x00000003, 0x40000000, 0, 0x00000002, UF | NX},
    {"fdiv.d", RMM, 0x0000000000000001, 0x4000000000000000, 0, 0x0000000000000001, UF | NX},
    {"fdiv.d", RNE, 0x0000000000000001, 0x4000000000000000, 0, 0x0000000000000000, UF | NX},
    /* (1-2^-53) * 2^-1022 = 2^-1022 - 2^-1075: exact in 53 bits with an unbounded
     * exponent, so tiny; on the subnormal grid it is halfway and rounds (even) up to
     * 2^-1022. Tininess after rounding of the unbounded result still says tiny. */
    {"fmul.d", RNE, 0x3fefffffffffffff, 0x0010000000000000, 0, 0x0010000000000000, UF | NX},
    {"fmul.d", RTZ, 0x3fefffffffffffff, 0x0010000000000000, 0, 0x000fffffffffffff, UF | NX},
    {"fmul.d", RMM, 0x3fefffffffffffff, 0x0010000000000000, 0, 0x0010000000000000, UF | NX},
    /* 2^-126 * (1 - 2^-25) via fcvt.s.d: rounding to 24 bits unbounded gives 2^-126 in
     * RNE/RMM/RUP (not tiny after rounding: NX only) but not in RTZ/RDN (UF). */
    {"fcvt.s.d", RNE, 0x380fffffff000000, 0, 0, S_MINN, NX},
    {"fcvt.s.d", RMM, 0x380fffffff000000, 0, 0, S_MINN, NX},
    {"fcvt.s.d", RUP, 0x380fffffff000000, 0, 0, S_MINN, NX},
    {"fcvt.s.d", RTZ, 0x380fffffff000000, 0, 0, 0x007fffff, UF | NX},
    {"fcvt.s.d", RDN, 0x380fffffff000000, 0, 0, 0x007fffff, UF | NX},
    /* NaNs: payload dropped, canonical result; sNaN raises NV, qNaN does not. */
    {"fadd.s", RNE, 0x7fc12345, 0x3f800000, 0, S_QNAN, 0},
    {"fadd.s", RNE, 0xffc00001, 0x3f800000, 0, S_QNAN, 0},
    {"fadd.s", RNE, 0x7f800001, 0x3f800000, 0, S_QNAN, NV},
    {"fmul.s", RMM, 0x7f800001, 0x3f800000, 0, S_QNAN, NV},
    {"fadd.d", RNE, 0x7ff0000000000001, 0, 0, D_QNAN, NV},
    {"fadd.d", RMM, 0xfff8000000000123, 0, 0, D_QNAN, 0},
    {"fsqrt.s", RNE, 0x7f800001, 0, 0, S_QNAN, NV},
    /* Invalid: inf - inf, 0 * inf, 0/0, inf/inf, sqrt(negative). */
    {"fsub.s", RNE, S_INF, S_INF, 0, S_QNAN, NV},
    {"fadd.s", RMM, S_INF, S_INF | SGN_S, 0, S_QNAN, NV},
    {"fmul.s", RNE, 0, S_INF, 0, S_QNAN, NV},
    {"fdiv.s", RNE, 0, 0, 0, S_QNAN, NV},
    {"fdiv.d", RMM, D_INF, D_INF, 0, D_QNAN, NV},
    {"fsqrt.s", RNE, 0xbf800000, 0, 0, S_QNAN, NV},
    {"fsqrt.d", RNE, 0xfff0000000000000, 0, 0, D_QNAN, NV},
    /* sqrt(-0) = -0, sqrt(+inf) = +inf, sqrt(2^-149) = 2^-74.5 rounded. */
    {"fsqrt.s", RNE, SGN_S, 0, 0, SGN_S, 0},
    {"fsqrt.d", RMM, SGN_D, 0, 0, SGN_D, 0},
    {"fsqrt.s", RNE, S_INF, 0, 0, S_INF, 0},
    {"fsqrt.s", RNE, 0x40800000, 0, 0, 0x40000000, 0},
    {"fsqrt.s", RMM, 0x40800000, 0, 0, 0x40000000, 0},
    /* sqrt(2): 1.41421353816986083984375 (0x3fb504f3) and the next up (0x3fb504f4). */
    {"fsqrt.s", RNE, 0x40000000, 0, 0, 0x3fb504f3, NX},
    {"fsqrt.s", RUP, 0x40000000, 0, 0, 0x3fb504f4, NX},
    {"fsqrt.s", RMM, 0x40000000, 0, 0, 0x3fb504f3, NX},
    {"fsqrt.d", RNE, 0x4000000000000000, 0, 0, 0x3ff6a09e667f3bcd, NX},
    {"fsqrt.d", RTZ, 0x4000000000000000, 0, 0, 0x3ff6a09e667f3bcc, NX},
    /* Division by zero: DZ and a signed infinity; 1/inf = +0. */
    {"fdiv.s", RNE, 0x3f800000, 0, 0, S_INF, DZ},
    {"fdiv.s", RNE, 0xbf800000, 0, 0, S_INF | SGN_S, DZ},
    {"fdiv.s", RMM, 0x3f800000, SGN_S, 0, S_INF | SGN_S, DZ},
    {"fdiv.d", RNE, 0x3ff0000000000000, 0, 0, D_INF, DZ},
    {"fdiv.s", RNE, 0x3f800000, S_INF, 0, 0, 0},
    /* 1/3 in binary32: 0x3eaaaaab (RNE, RUP, RMM), 0x3eaaaaaa (RTZ, RDN). */
    {"fdiv.s", RNE, 0x3f800000, 0x40400000, 0, 0x3eaaaaab, NX},
    {"fdiv.s", RTZ, 0x3f800000, 0x40400000, 0, 0x3eaaaaaa, NX},
    {"fdiv.s", RMM, 0x3f800000, 0x40400000, 0, 0x3eaaaaab, NX},
    {"fdiv.d", RNE, 0x3ff0000000000000, 0x4008000000000000, 0, 0x3fd5555555555555, NX},
    {"fdiv.d", RUP, 0x3ff0000000000000, 0x4008000000000000, 0, 0x3fd5555555555556, NX},
    /* Fused: a = 1+2^-23, a*a = 1 + 2^-22 + 2^-46; rounded product 1+2^-22 (0x3f800002);
     * fma(a, a, -0x3f800002) = 2^-46 exactly (0x28800000), where mul+add gives 0. */
    {"fmadd.s", RNE, 0x3f800001, 0x3f800001, 0xbf800002, 0x28800000, 0},
    {"fmadd.s", RMM, 0x3f800001, 0x3f800001, 0xbf800002, 0x28800000, 0},
    /* (18631 * 2^-75) * (1801 * 2^-76) + 0 = (2^25 - 1) * 2^-151 = (2^24 - 1/2) * 2^-150: at 24
     * bits a tie between an odd significand and 2^-126, which RNE takes: not tiny after
     * rounding, so NX without UF, the result the smallest normal */
    {"fmadd.s", RNE, 0x21118e00, 0x1ee12000, 0, 0x00800000, NX},
    {"fmsub.s", RNE, 0x3f800001, 0x3f800001, 0x3f800002, 0x28800000, 0},
    {"fnmsub.s", RNE, 0x3f800001, 0x3f800001, 0x3f800002, 0xa8800000, 0},
    {"fnmadd.s", RNE, 0x3f800001, 0x3f800001, 0xbf800002, 0xa8800000, 0},
    {"fmadd.d", RNE, 0x3ff0000000000001, 0x3ff0000000000001, 0xbff0000000000002, 0x3970000000000000,
     0},
    {"fmadd.d", RMM, 0x3ff0000000000001, 0x3ff0000000000001, 0xbff0000000000002, 0x3970000000000000,
     0},
    /* a*a + 0 alone is 1+2^-22+2^-46: rounds to 0x3f800002 (RNE), 0x3f800003 (RUP). */
    {"fmadd.s", RNE, 0x3f800001, 0x3f800001, 0, 0x3f800002, NX},
    {"fmadd.s", RUP, 0x3f800001, 0x3f800001, 0, 0x3f800003, NX},
    /* Sign conventions: fmadd 1*2+3=5, fmsub 1*2-3=-1, fnmsub -(1*2)+3=1, fnmadd -5. */
    {"fmadd.s", RNE, 0x3f800000, 0x40000000, 0x40400000, 0x40a00000, 0},
    {"fmsub.s", RNE, 0x3f800000, 0x40000000, 0x40400000, 0xbf800000, 0},
    {"fnmsub.s", RNE, 0x3f800000, 0x40000000, 0x40400000, 0x3f800000, 0},
    {"fnmadd.s", RNE, 0x3f800000, 0x40000000, 0x40400000, 0xc0a00000, 0},
    {"fnmadd.d", RNE, 0x3ff0000000000000, 0x4000000000000000, 0x4008000000000000,
     0xc014000000000000, 0},
    /* Zero signs: fnmadd(+0,1,+0) = -(+0) - (+0) = -0; fmadd(+0,1,-0) = +0 (-0 in RDN). */
    {"fnmadd.s", RNE, 0, 0x3f800000, 0, SGN_S, 0},
    {"fmadd.s", RNE, 0, 0x3f800000, SGN_S, 0, 0},
    {"fmadd.s", RDN, 0, 0x3f800000, SGN_S, SGN_S, 0},
    {"fmadd.d", RMM, 0, 0x3ff0000000000000, SGN_D, 0, 0},
    /* inf*0 + qNaN raises NV in RISC-V; inf*1 - inf is invalid; qNaN addend alone not. */
    {"fmadd.s", RNE, S_INF, 0, S_QNAN, S_QNAN, NV},
    {"fmadd.s", RMM, 0, S_INF, 0x7fc00001, S_QNAN, NV},
    {"fmadd.d", RNE, D_INF, 0, D_QNAN, D_QNAN, NV},
    {"fmadd.d", RNE, 0, D_INF, 0x3ff0000000000000, D_QNAN, NV},
    {"fmadd.s", RNE, S_INF, 0x3f800000, S_INF | SGN_S, S_QNAN, NV},
    {"fmadd.s", RNE, 0x3f800000, 0x3f800000, S_QNAN, S_QNAN, 0},
    {"fmadd.s", RNE, 0x3f800000, 0x3f800000, 0x7f800001, S_QNAN, NV},
    /* fcvt.s.d / fcvt.d.s */
    {"fcvt.s.d", RNE, 0x3ff0000000000000, 0, 0, 0x3f800000, 0},
    {"fcvt.s.d", RNE, D_MAX, 0, 0, S_INF, OF | NX},
    {"fcvt.s.d", RTZ, D_MAX, 0, 0, S_MAX, OF | NX},
    {"fcvt.s.d", RMM, D_MAX | SGN_D, 0, 0, S_INF | SGN_S, OF | NX},
    {"fcvt.s.d", RNE, 0x7ff0000000000001, 0, 0, S_QNAN, NV},
    {"fcvt.s.d", RMM, 0x7ff0000000000001, 0, 0, S_QNAN, NV},
    {"fcvt.s.d", RNE, 0xfff8000012345678, 0, 0, S_QNAN, 0},
    {"fcvt.s.d", RNE, 0x3690000000000000, 0, 0, 0, UF | NX},          /* 2^-150 */
    {"fcvt.s.d", RMM, 0x3690000000000000, 0, 0, 0x00000001, UF | NX}, /* tie away */
    {"fcvt.s.d", RNE, 0x3ff0000010000000, 0, 0, 0x3f800000, NX},      /* 1+2^-24 */
    {"fcvt.s.d", RMM, 0x3ff0000010000000, 0, 0, 0x3f800001, NX},
    {"fcvt.s.d", RMM, 0xbff0000010000000, 0, 0, 0xbf800001, NX},
    {"fcvt.s.d", RMM, SGN_D, 0, 0, SGN_S, 0},
    {"fcvt.d.s", RNE, 0x7f800001, 0, 0, D_QNAN, NV},
    {"fcvt.d.s", RNE, 0xffc00123, 0, 0, D_QNAN, 0},
    {"fcvt.d.s", RNE, 0x3f800000, 0, 0, 0x3ff0000000000000, 0},
    {"fcvt.d.s", RNE, 0x00000001, 0, 0, 0x36a0000000000000, 0}, /* 2^-149 */
    {"fcvt.d.s", RNE, S_INF | SGN_S, 0, 0, D_INF | SGN_D, 0},
    /* float -> int32: saturation boundaries. 0x4f000000 = 2^31, 0x4effffff = 2^31-128. */
    {"fcvt.w.s", RNE, 0x4f000000, 0, 0, 0x7fffffff, NV},
    {"fcvt.w.s", RNE, 0x4effffff, 0, 0, 2147483520, 0},
    {"fcvt.w.s", RNE, 0xcf000000, 0, 0, SX(0x80000000), 0},
    {"fcvt.w.s", RNE, 0xcf000001, 0, 0, SX(0x80000000), NV},
    {"fcvt.w.s", RNE, S_QNAN, 0, 0, 0x7fffffff, NV},
    {"fcvt.w.s", RNE, 0xffc00000, 0, 0, 0x7fffffff, NV},
    {"fcvt.w.s", RNE, S_INF, 0, 0, 0x7fffffff, NV},
    {"fcvt.w.s", RNE, S_INF | SGN_S, 0, 0, SX(0x80000000), NV},
    {"fcvt.w.s", RNE, 0xbf000000, 0, 0, 0, NX}, /* -0.5 -> -0 -> 0 */
    {"fcvt.w.s", RDN, 0xbf000000, 0, 0, SX(0xffffffff), NX},
    {"fcvt.w.s", RUP, 0x3f000000, 0, 0, 1, NX},
    {"fcvt.w.s", RNE, 0x3fc00000, 0, 0, 2, NX},              /* 1.5 */
    {"fcvt.w.s", RNE, 0x40200000, 0, 0, 2, NX},              /* 2.5 -> even */
    {"fcvt.w.s", RMM, 0x40200000, 0, 0, 3, NX},              /* 2.5 -> away */
    {"fcvt.w.s", RMM, 0xc0200000, 0, 0, SX(0xfffffffd), NX}, /* -2.5 -> -3 */
    {"fcvt.w.s", RTZ, 0xc0200000, 0, 0, SX(0xfffffffe), NX},
    {"fcvt.w.s", RNE, SGN_S, 0, 0, 0, 0},
    /* float -> uint32: negatives round first, then saturate to 0 with NV. */
    {"fcvt.wu.s", RNE, 0xbf000000, 0, 0, 0, NX},
    {"fcvt.wu.s", RDN, 0xbf000000, 0, 0, 0, NV},
    {"fcvt.wu.s", RNE, 0xbf800000, 0, 0, 0, NV},
    {"fcvt.wu.s", RNE, 0x4f800000, 0, 0, SX(0xffffffff), NV}, /* 2^32 */
    {"fcvt.wu.s", RNE, 0x4f7fffff, 0, 0, SX(0xffffff00), 0},  /* 2^32-256 */
    {"fcvt.wu.s", RNE, S_QNAN, 0, 0, SX(0xffffffff), NV},
    {"fcvt.wu.s", RNE, S_INF | SGN_S, 0, 0, 0, NV},
    {"fcvt.wu.s", RNE, 0x4f000000, 0, 0, SX(0x80000000), 0}, /* 2^31 sign-extends */
    /* float -> int64 / uint64 */
    {"fcvt.l.s", RNE, 0x5f000000, 0, 0, 0x7fffffffffffffff, NV}, /* 2^63 */
    {"fcvt.l.s", RNE, 0xdf000000, 0, 0, 0x8000000000000000, 0},
    {"fcvt.l.s", RNE, 0x5effffff, 0, 0, 0x7fffff8000000000, 0},
    {"fcvt.l.s", RNE, S_QNAN, 0, 0, 0x7fffffffffffffff, NV},
    {"fcvt.l.s", RNE, S_INF | SGN_S, 0, 0, 0x8000000000000000, NV},
    {"fcvt.lu.s", RNE, 0x5f800000, 0, 0, 0xffffffffffffffff, NV}, /* 2^64 */
    {"fcvt.lu.s", RNE, 0x5f7fffff, 0, 0, 0xffffff0000000000, 0},
    {"fcvt.lu.s", RNE, 0xbf800000, 0, 0, 0, NV},
    {"fcvt.lu.s", RNE, 0xbecccccd, 0, 0, 0, NX}, /* -0.4 */
    {"fcvt.lu.s", RNE, S_QNAN, 0, 0, 0xffffffffffffffff, NV},
    /* double -> int32: 2147483647.5 rounds (RNE) to 2^31: out of range, NV not NX. */
    {"fcvt.w.d", RNE, 0x41dfffffffc00000, 0, 0, 0x7fffffff, 0},
    {"fcvt.w.d", RNE, 0x41dfffffffe00000, 0, 0, 0x7fffffff, NV},
    {"fcvt.w.d", RTZ, 0x41dfffffffe00000, 0, 0, 0x7fffffff, NX},
    {"fcvt.w.d", RNE, 0xc1e0000000100000, 0, 0, SX(0x80000000), NX}, /* -2^31-0.5 */
    {"fcvt.w.d", RDN, 0xc1e0000000100000, 0, 0, SX(0x80000000), NV},
    {"fcvt.w.d", RNE, 0xc1e0000000200000, 0, 0, SX(0x80000000), NV}, /* -2^31-1 */
    {"fcvt.w.d", RNE, D_QNAN, 0, 0, 0x7fffffff, NV},
    {"fcvt.wu.d", RNE, 0x41efffffffe00000, 0, 0, SX(0xffffffff), 0},  /* 2^32-1 */
    {"fcvt.wu.d", RNE, 0x41effffffff00000, 0, 0, SX(0xffffffff), NV}, /* 2^32-0.5 */
    {"fcvt.wu.d", RTZ, 0x41effffffff00000, 0, 0, SX(0xffffffff), NX},
    {"fcvt.wu.d", RNE, 0xbfe0000000000000, 0, 0, 0, NX}, /* -0.5 */
    {"fcvt.wu.d", RMM, 0xbfe0000000000000, 0, 0, 0, NV}, /* -0.5 -> -1 */
    {"fcvt.l.d", RNE, 0x43dfffffffffffff, 0, 0, 0x7ffffffffffffc00, 0},
    {"fcvt.l.d", RNE, 0x43e0000000000000, 0, 0, 0x7fffffffffffffff, NV},
    {"fcvt.l.d", RNE, 0xc3e0000000000000, 0, 0, 0x8000000000000000, 0},
    {"fcvt.l.d", RNE, 0xc3e0000000000001, 0, 0, 0x8000000000000000, NV},
    {"fcvt.l.d", RNE, 0xfff0000000000000, 0, 0, 0x8000000000000000, NV},
    {"fcvt.lu.d", RNE, 0x43efffffffffffff, 0, 0, 0xfffffffffffff800, 0},
    {"fcvt.lu.d", RNE, 0x43f0000000000000, 0, 0, 0xffffffffffffffff, NV},
    {"fcvt.lu.d", RNE, 0x7ff0000000000001, 0, 0, 0xffffffffffffffff, NV},
    {"fcvt.lu.d", RUP, 0x3e70000000000000, 0, 0, 1, NX}, /* 2^-24 */
    {"fcvt.lu.d", RNE, 0x0000000000000001, 0, 0, 0, NX},
    /* int -> float */
    {"fcvt.s.w", RNE, 16777217, 0, 0, 0x4b800000, NX}, /* 2^24+1: tie -> even */
    /* 2^24+3: a tie between 2^24+2 (odd significand, 0x4b800001) and 2^24+4: RNE goes up */
    {"fcvt.s.w", RNE, 16777219, 0, 0, 0x4b800002, NX},
    {"fcvt.s.w", RUP, 16777217, 0, 0, 0x4b800001, NX},
    {"fcvt.s.w", RMM, 16777217, 0, 0, 0x4b800001, NX},
    {"fcvt.s.w", RMM, (uint64_t)-16777217, 0, 0, 0xcb800001, NX},
    {"fcvt.s.w", RDN, (uint64_t)-16777217, 0, 0, 0xcb800001, NX},
    {"fcvt.s.w", RNE, 0x80000000, 0, 0, 0xcf000000, 0},
    {"fcvt.s.w", RDN, 0, 0, 0, 0, 0},
    {"fcvt.s.wu", RNE, 0xffffffff, 0, 0, 0x4f800000, NX},
    {"fcvt.s.wu", RTZ, 0xffffffff, 0, 0, 0x4f7fffff, NX},
    {"fcvt.s.l", RNE, 0x8000000000000000, 0, 0, 0xdf000000, 0},
    {"fcvt.s.lu", RNE, 0xffffffffffffffff, 0, 0, 0x5f800000, NX},
    {"fcvt.s.lu", RTZ, 0xffffffffffffffff, 0, 0, 0x5f7fffff, NX},
    {"fcvt.d.l", RNE, 0x0020000000000001, 0, 0, 0x4340000000000000, NX}, /* 2^53+1 */
    {"fcvt.d.l", RMM, 0x0020000000000001, 0, 0, 0x4340000000000001, NX},
    {"fcvt.d.l", RNE, 0x8000000000000000, 0, 0, 0xc3e0000000000000, 0},
    {"fcvt.d.w", RNE, 0x80000000, 0, 0, 0xc1e0000000000000, 0},
    {"fcvt.d.wu", RNE, 0xffffffff, 0, 0, 0x41efffffffe00000, 0},
    {"fcvt.d.lu", RNE, 0xffffffffffffffff, 0, 0, 0x43f0000000000000, NX},
    {"fcvt.d.lu", RTZ, 0xffffffffffffffff, 0, 0, 0x43efffffffffffff, NX},
};

static void check_vec(const vec *v, int against_ref)
{
    const opent *o = find_op(v->op);
    unsigned fl = 0;
    uint64_t got = against_ref ? ref_call(o, v->a, v->b, v->c, v->rm, &fl)
                               : o->impl(v->a, v->b, v->c, v->rm, &fl);
    if (got != v->want || fl != v->flags)
        fail_msg("%s %s %s(%#llx, %#llx, %#llx): got %#llx flags %#x, want %#llx flags %#x",
                 against_ref ? "reference" : "rvfp", v->op, rm_name[v->rm],
                 (unsigned long long)v->a, (unsigned long long)v->b, (unsigned long long)v->c,
                 (unsigned long long)got, fl, (unsigned long long)v->want, v->flags);
}

static void test_vectors_rvfp(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        check_vec(&vecs[i], 0);
}

/* The reference must agree with the hand values too, or the random sweep means little. */
static void test_vectors_reference(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof vecs / sizeof vecs[0]; i++)
        check_vec(&vecs[i], 1);
}

/* ---------------------------------------------------------------- non-rounding ops */

static void test_minmax(void **state)
{
    (void)state;
    unsigned fl = 0;
    /* 2019 rules: a single NaN operand gives the other, no NV unless signalling. */
    assert_int_equal(rvfp_min_s(0x3f800000, S_QNAN, &fl), 0x3f800000);
    assert_int_equal(rvfp_max_s(0x7fc12345, 0xbf800000, &fl), 0xbf800000);
    assert_int_equal(fl, 0);
    assert_int_equal(rvfp_min_s(0x3f800000, 0x7f800001, &fl), 0x3f800000);
    assert_int_equal(fl, NV);
    fl = 0;
    assert_int_equal(rvfp_max_s(0x7fc00001, 0xffc00002, &fl), S_QNAN);
    assert_int_equal(fl, 0);
    assert_int_equal(rvfp_max_s(0x7f800001, S_QNAN, &fl), S_QNAN);
    assert_int_equal(fl, NV);
    fl = 0;
    /* -0 < +0 */
    assert_int_equal(rvfp_min_s(0, SGN_S, &fl), SGN_S);
    assert_int_equal(rvfp_min_s(SGN_S, 0, &fl), SGN_S);
    assert_int_equal(rvfp_max_s(SGN_S, 0, &fl), 0);
    assert_int_equal(rvfp_max_s(0, SGN_S, &fl), 0);
    assert_int_equal(rvfp_min_s(0xc0000000, 0xbf800000, &fl), 0xc0000000);
    assert_int_equal(rvfp_max_s(0xc0000000, 0xbf800000, &fl), 0xbf800000);
    assert_int_equal(rvfp_max_s(S_INF, S_MAX, &fl), S_INF);
    assert_int_equal(rvfp_min_s(S_INF | SGN_S, S_MAX | SGN_S, &fl), S_INF | SGN_S);
    assert_int_equal(rvfp_min_s(0x00000001, 0, &fl), 0);
    assert_int_equal(fl, 0);
    assert_int_equal(rvfp_min_d(0x3ff0000000000000, D_QNAN, &fl), 0x3ff0000000000000);
    assert_int_equal(rvfp_min_d(SGN_D, 0, &fl), SGN_D);
    assert_int_equal(rvfp_max_d(SGN_D, 0, &fl), 0);
    assert_int_equal(rvfp_max_d(0xfff8000000000001, 0x7ff8000000000002, &fl), D_QNAN);
    assert_int_equal(fl, 0);
    assert_int_equal(rvfp_max_d(0x7ff0000000000001, 0x4000000000000000, &fl), 0x4000000000000000);
    assert_int_equal(fl, NV);
}

static void test_compare(void **state)
{
    (void)state;
    unsigned fl = 0;
    /* feq is quiet: only sNaN raises NV. flt/fle signal on any NaN. */
    assert_int_equal(rvfp_eq_s(S_QNAN, 0x3f800000, &fl), 0);
    assert_int_equal(rvfp_eq_s(S_QNAN, S_QNAN, &fl), 0);
    assert_int_equal(fl, 0);
    assert_int_equal(rvfp_eq_s(0x7f800001, 0x3f800000, &fl), 0);
    assert_int_equal(fl, NV);
    fl = 0;
    assert_int_equal(rvfp_lt_s(S_QNAN, 0x3f800000, &fl), 0);
    assert_int_equal(fl, NV);
    fl = 0;
    assert_int_equal(rvfp_le_s(0x3f800000, S_QNAN, &fl), 0);
    assert_int_equal(fl, NV);
    fl = 0;
    assert_int_equal(rvfp_eq_s(SGN_S, 0, &fl), 1);
    assert_int_equal(rvfp_lt_s(SGN_S, 0, &fl), 0);
    assert_int_equal(rvfp_le_s(SGN_S, 0, &fl), 1);
    assert_int_equal(rvfp_le_s(0, SGN_S, &fl), 1);
    assert_int_equal(rvfp_lt_s(S_INF | SGN_S, S_INF, &fl), 1);
    assert_int_equal(rvfp_lt_s(0xc0000000, 0xbf800000, &fl), 1);
    assert_int_equal(rvfp_lt_s(0xbf800000, 0xc0000000, &fl), 0);
    assert_int_equal(rvfp_le_s(0x3f800000, 0x3f800000, &fl), 1);
    assert_int_equal(rvfp_lt_s(0x3f800000, 0x3f800000, &fl), 0);
    assert_int_equal(rvfp_lt_s(0x00000001, 0x00000002, &fl), 1);
    assert_int_equal(rvfp_eq_d(SGN_D, 0, &fl), 1);
    assert_int_equal(rvfp_lt_d(0xbff0000000000000, 0x3ff0000000000000, &fl), 1);
    assert_int_equal(rvfp_le_d(0x4000000000000000, 0x3ff0000000000000, &fl), 0);
    assert_int_equal(fl, 0);
    assert_int_equal(rvfp_eq_d(D_QNAN, D_QNAN, &fl), 0);
    assert_int_equal(fl, 0);
    assert_int_equal(rvfp_le_d(D_QNAN, 0, &fl), 0);
    assert_int_equal(fl, NV);
}

static void test_classify(void **state)
{
    (void)state;
    static const struct {
        uint32_t s;
        uint64_t d;
        unsigned bit;
    } c[] = {
        {0xff800000, 0xfff0000000000000, 1u << 0}, /* -inf */
        {0xbf800000, 0xbff0000000000000, 1u << 1}, /* -normal */
        {0x80000001, 0x8000000000000001, 1u << 2}, /* -subnormal */
        {0x807fffff, 0x800fffffffffffff, 1u << 2},
        {0x80000000, 0x8000000000000000, 1u << 3}, /* -0 */
        {0x00000000, 0x0000000000000000, 1u << 4}, /* +0 */
        {0x00000001, 0x0000000000000001, 1u << 5}, /* +subnormal */
        {0x00800000, 0x0010000000000000, 1u << 6}, /* +normal (smallest) */
        {0x7f7fffff, 0x7fefffffffffffff, 1u << 6},
        {0x7f800000, 0x7ff0000000000000, 1u << 7}, /* +inf */
        {0x7f800001, 0x7ff0000000000001, 1u << 8}, /* sNaN */
        {0xffbfffff, 0xfff7ffffffffffff, 1u << 8},
        {0x7fc00000, 0x7ff8000000000000, 1u << 9}, /* qNaN */
        {0xffffffff, 0xffffffffffffffff, 1u << 9},
    };
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        assert_int_equal(rvfp_classify_s(c[i].s), c[i].bit);
        assert_int_equal(rvfp_classify_d(c[i].d), c[i].bit);
    }
}

static void test_sign_injection(void **state)
{
    (void)state;
    assert_int_equal(rvfp_sgnj_s(0x3f800000, 0x80000000), 0xbf800000);
    assert_int_equal(rvfp_sgnj_s(0xbf800000, 0x00000000), 0x3f800000);
    assert_int_equal(rvfp_sgnjn_s(0x3f800000, 0x00000000), 0xbf800000);
    assert_int_equal(rvfp_sgnjn_s(0x3f800000, 0x80000000), 0x3f800000);
    assert_int_equal(rvfp_sgnjx_s(0xbf800000, 0x80000000), 0x3f800000);
    assert_int_equal(rvfp_sgnjx_s(0xbf800000, 0x00000000), 0xbf800000);
    /* sign injection never canonicalises NaNs (fmv/fneg/fabs are built on it) */
    assert_int_equal(rvfp_sgnjn_s(0x7f800001, 0x7f800001), 0xff800001);
    assert_int_equal(rvfp_sgnj_d(0x3ff0000000000000, SGN_D), 0xbff0000000000000);
    assert_int_equal(rvfp_sgnjn_d(0x7ff0000000000001, 0), 0xfff0000000000001);
    assert_int_equal(rvfp_sgnjx_d(SGN_D, SGN_D), 0);
}

/* Reserved rounding modes are the caller's responsibility; they must not crash, and the
 * arithmetic computes them as RNE (rvfp.c, "arithmetic API"). The inputs round
 * differently under every mode: 1/3, 1 - 2^-25 (a tie below 1), 1 * (1 + 2^-23) /
 * (3/2), and their double counterparts. */
static void test_bad_rm(void **state)
{
    (void)state;
    typedef uint32_t (*bin_s)(uint32_t, uint32_t, unsigned, unsigned *);
    typedef uint64_t (*bin_d)(uint64_t, uint64_t, unsigned, unsigned *);
    static const struct {
        bin_s f;
        uint32_t a, b;
    } s_ops[] = {{rvfp_add_s, 0x3f800000, 0xb3000000},
                 {rvfp_sub_s, 0x3f800000, 0x33000000},
                 {rvfp_mul_s, 0x3f800001, 0x3eaaaaab},
                 {rvfp_div_s, 0x3f800000, 0x40400000}};
    static const struct {
        bin_d f;
        uint64_t a, b;
    } d_ops[] = {{rvfp_add_d, 0x3ff0000000000000, 0xbc90000000000000},
                 {rvfp_sub_d, 0x3ff0000000000000, 0x3c90000000000000},
                 {rvfp_mul_d, 0x3ff0000000000001, 0x3fd5555555555555},
                 {rvfp_div_d, 0x3ff0000000000000, 0x4008000000000000}};
    static const unsigned bad[] = {5, 6, 7, 8, 0xffffffffu};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        for (size_t i = 0; i < sizeof s_ops / sizeof s_ops[0]; i++) {
            unsigned f_rne = 0, f_bad = 0;
            uint32_t rne = s_ops[i].f(s_ops[i].a, s_ops[i].b, RVFP_RNE, &f_rne);
            assert_int_equal(s_ops[i].f(s_ops[i].a, s_ops[i].b, bad[k], &f_bad), rne);
            assert_int_equal(f_bad, f_rne);
        }
        for (size_t i = 0; i < sizeof d_ops / sizeof d_ops[0]; i++) {
            unsigned f_rne = 0, f_bad = 0;
            uint64_t rne = d_ops[i].f(d_ops[i].a, d_ops[i].b, RVFP_RNE, &f_rne);
            assert_int_equal(d_ops[i].f(d_ops[i].a, d_ops[i].b, bad[k], &f_bad), rne);
            assert_int_equal(f_bad, f_rne);
        }
        unsigned f_rne = 0, f_bad = 0;
        uint32_t rne = rvfp_sqrt_s(0x40000000, RVFP_RNE, &f_rne); /* sqrt 2 */
        assert_int_equal(rvfp_sqrt_s(0x40000000, bad[k], &f_bad), rne);
        assert_int_equal(f_bad, f_rne);
    }
    unsigned fl = 0;
    for (unsigned rm = 5; rm < 9; rm++) {
        (void)rvfp_add_s(0x3f800000, 0x33800000, rm, &fl);
        (void)rvfp_fmadd_d(1, 2, 3, rm, &fl);
        (void)rvfp_cvt_w_s(0x3fc00000, rm, &fl);
        (void)rvfp_cvt_s_l(3, rm, &fl);
    }
    (void)rvfp_add_s(0x3f800000, 0x33800000, 0xffffffffu, &fl);
}

/* ---------------------------------------------------------------- random sweep */

static long sweep_op(const opent *o, unsigned rm, long iters, int verbose_fails)
{
    long fails = 0;
    fpgen_seed(g_seed ^ ((uint64_t)(o - ops) << 32) ^ rm);
    for (long i = 0; i < iters; i++) {
        uint64_t a, b, c;
        fpgen_inputs(o->kind == K_ARITH   ? FPGEN_ARITH
                     : o->kind == K_FF    ? FPGEN_FF
                     : o->kind == K_TOINT ? FPGEN_TOINT
                                          : FPGEN_FROMINT,
                     o->fmt, o->nargs, o->bits, &a, &b, &c);
        unsigned f1 = 0, f2 = 0;
        uint64_t got = o->impl(a, b, c, rm, &f1);
        uint64_t want = ref_call(o, a, b, c, rm, &f2);
        if (got != want || f1 != f2) {
            if (fails < verbose_fails)
                print_error("%s %s (%#llx, %#llx, %#llx): rvfp %#llx/%#x reference %#llx/%#x\n",
                            o->name, rm_name[rm], (unsigned long long)a, (unsigned long long)b,
                            (unsigned long long)c, (unsigned long long)got, f1,
                            (unsigned long long)want, f2);
            fails++;
        }
    }
    return fails;
}

static void sweep_kind(int lo, int hi)
{
    long total = 0;
    for (int i = lo; i < hi; i++)
        for (unsigned rm = 0; rm < 5; rm++) {
            if (ops[i].kind == K_FF && ops[i].fmt == FP_D && rm > 0) continue; /* exact */
            if (g_only && strcmp(g_only, ops[i].name) != 0) continue;
            total += sweep_op(&ops[i], rm, g_iters, 5);
        }
    assert_int_equal(total, 0);
}

static void test_random_s(void **state)
{
    (void)state;
    sweep_kind(0, 9);
}
static void test_random_d(void **state)
{
    (void)state;
    sweep_kind(9, 18);
}
static void test_random_cvt(void **state)
{
    (void)state;
    sweep_kind(18, NOPS);
}

/* min/max/compare against the host's own comparison operators (an independent oracle for
 * ordering: binary32 widens exactly to binary64), with the NaN rules written out here. */
static int nan_bits(int f, uint64_t x)
{
    return f ? (x & ~SGN_D) > D_INF : (x & 0x7fffffffu) > S_INF;
}
static int snan_bits(int f, uint64_t x)
{
    return nan_bits(f, x) && !(x & (f ? 0x0008000000000000ull : 0x00400000u));
}
static double host_val(int f, uint64_t x)
{
    if (f) {
        double d;
        memcpy(&d, &x, 8);
        return d;
    }
    uint32_t u = (uint32_t)x;
    float v;
    memcpy(&v, &u, 4);
    return (double)v;
}

static void test_random_minmax_compare(void **state)
{
    (void)state;
    long fails = 0;
    fpgen_seed(g_seed ^ 0xc0ffee);
    for (long i = 0; i < 2 * g_iters; i++) {
        int f = (int)(i & 1);
        uint64_t a = fpgen_operand(f, -1, 30);
        uint64_t b = fpgen_operand(f, (fpgen_rnd() & 1) ? fpgen_bexp(f, a) : -1, 30);
        if (fpgen_rnd() % 8 == 0) b = a ^ (fpgen_rnd() & 1 ? (f ? SGN_D : SGN_S) : 0);
        int na = nan_bits(f, a), nb = nan_bits(f, b);
        unsigned sfl = snan_bits(f, a) || snan_bits(f, b) ? NV : 0;
        uint64_t canon = f ? D_QNAN : S_QNAN, sgn = f ? SGN_D : SGN_S;
        double x = host_val(f, a), y = host_val(f, b);
        uint64_t wmin, wmax;
        if (na && nb)
            wmin = wmax = canon;
        else if (na)
            wmin = wmax = b;
        else if (nb)
            wmin = wmax = a;
        else if (x < y)
            wmin = a, wmax = b;
        else if (y < x)
            wmin = b, wmax = a;
        else if ((a ^ b) & sgn)
            wmin = (a & sgn) ? a : b, wmax = (a & sgn) ? b : a;
        else
            wmin = wmax = a;
        int un = na || nb;
        int weq = !un && x == y, wlt = !un && x < y, wle = !un && x <= y;
        unsigned f1 = 0, f2 = 0, f3 = 0, f4 = 0, f5 = 0;
        uint64_t gmin = f ? rvfp_min_d(a, b, &f1) : rvfp_min_s((uint32_t)a, (uint32_t)b, &f1);
        uint64_t gmax = f ? rvfp_max_d(a, b, &f2) : rvfp_max_s((uint32_t)a, (uint32_t)b, &f2);
        int geq = f ? rvfp_eq_d(a, b, &f3) : rvfp_eq_s((uint32_t)a, (uint32_t)b, &f3);
        int glt = f ? rvfp_lt_d(a, b, &f4) : rvfp_lt_s((uint32_t)a, (uint32_t)b, &f4);
        int gle = f ? rvfp_le_d(a, b, &f5) : rvfp_le_s((uint32_t)a, (uint32_t)b, &f5);
        unsigned sig_fl = un ? NV : 0;
        if (gmin != wmin || gmax != wmax || f1 != sfl || f2 != sfl || geq != weq || glt != wlt ||
            gle != wle || f3 != sfl || f4 != sig_fl || f5 != sig_fl) {
            if (fails < 5)
                print_error("min/max/cmp %c (%#llx, %#llx)\n", f ? 'd' : 's', (unsigned long long)a,
                            (unsigned long long)b);
            fails++;
        }
        unsigned cl = f ? rvfp_classify_d(a) : rvfp_classify_s((uint32_t)a);
        if (cl == 0 || (cl & (cl - 1)) != 0 || ((cl & 0x300) != 0) != na) fails++;
    }
    assert_int_equal(fails, 0);
}

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--iters") == 0 && i + 1 < argc)
            g_iters = atol(argv[++i]);
        else if (strcmp(argv[i], "--only") == 0 && i + 1 < argc)
            g_only = argv[++i];
        else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc)
            g_seed = strtoull(argv[++i], NULL, 0);
        else {
            fprintf(stderr, "usage: %s [--iters N] [--seed S] [--only OP]\n", argv[0]);
            return 2;
        }
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_vectors_reference),
        cmocka_unit_test(test_vectors_rvfp),
        cmocka_unit_test(test_minmax),
        cmocka_unit_test(test_compare),
        cmocka_unit_test(test_classify),
        cmocka_unit_test(test_sign_injection),
        cmocka_unit_test(test_bad_rm),
        cmocka_unit_test(test_random_s),
        cmocka_unit_test(test_random_d),
        cmocka_unit_test(test_random_cvt),
        cmocka_unit_test(test_random_minmax_compare),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
