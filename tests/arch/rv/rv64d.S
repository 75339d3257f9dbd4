/* RV64D: results and flags at the edges (NV=0x10 DZ=0x08 OF=0x04 UF=0x02 NX=0x01), the
 * single rounding of fused multiply-add, S<->D conversions (narrowing rounds and can
 * overflow; widening is exact; NaNs become canonical), 64- and 32-bit integer
 * conversions with saturation, raw moves, and c.fld/fsd. Values hand-derived from IEEE
 * 754-2008 and the RISC-V D chapter; checked against the host FPU where IEEE defines
 * them. */
#include "xphmg_test.h"

#define TD(n, res, fl, a, b, c, inst...) \
    TEST_CASE(n, a0, res, li t0, a; fmv.d.x fa1, t0; li t0, b; fmv.d.x fa2, t0; \
              li t0, c; fmv.d.x fa3, t0; csrwi fflags, 0; inst; fmv.x.d a0, fa0; \
              csrr a1, fflags; li t2, fl; bne a1, t2, fail)
#define TX(n, res, fl, a, b, inst...) \
    TEST_CASE(n, a0, res, li t0, a; fmv.d.x fa1, t0; li t0, b; fmv.d.x fa2, t0; \
              csrwi fflags, 0; inst; csrr a1, fflags; li t2, fl; bne a1, t2, fail)

#define ONE   0x3ff0000000000000
#define TWO   0x4000000000000000
#define THREE 0x4008000000000000
#define QNAN  0x7ff8000000000000
#define SNAN  0x7ff0000000000001
#define PINF  0x7ff0000000000000
#define NINF  0xfff0000000000000
#define MAXD  0x7fefffffffffffff

RVTEST_CODE_BEGIN
    TD(2, THREE, 0, ONE, TWO, 0, fadd.d fa0, fa1, fa2)
    TD(3, 0x3fd5555555555555, 0x01, ONE, THREE, 0, fdiv.d fa0, fa1, fa2)
    TD(4, 0x3fd5555555555556, 0x01, ONE, THREE, 0, fdiv.d fa0, fa1, fa2, rup)
    TD(5, 0x3ff6a09e667f3bcd, 0x01, TWO, 0, 0, fsqrt.d fa0, fa1)
    TD(6, QNAN, 0x10, 0xbff0000000000000, 0, 0, fsqrt.d fa0, fa1)
    TD(7, PINF, 0x08, ONE, 0, 0, fdiv.d fa0, fa1, fa2)
    TD(8, PINF, 0x05, MAXD, TWO, 0, fmul.d fa0, fa1, fa2)
    TD(9, MAXD, 0x05, MAXD, TWO, 0, fmul.d fa0, fa1, fa2, rdn)
    /* 2^-1022 * (1 + 2^-52) * 0.5: tiny and inexact -> UF|NX, ties to even */
    TD(10, 0x0008000000000000, 0x03, 0x0010000000000001, 0x3fe0000000000000, 0, fmul.d fa0, fa1, fa2)
    TD(11, QNAN, 0, 0x7ff8000000000123, ONE, 0, fsub.d fa0, fa1, fa2)
    /* fused: (1+2^-30)^2 - 1 = 2^-29 + 2^-60 exactly (an unfused mul would lose 2^-60) */
    TD(12, 0x3e20000000200000, 0, 0x3ff0000000400000, 0x3ff0000000400000, ONE, fmsub.d fa0, fa1, fa2, fa3)
    TD(13, 0xc01c000000000000, 0, TWO, THREE, ONE, fnmadd.d fa0, fa1, fa2, fa3)  /* -7 */
    TD(14, 0xc014000000000000, 0, TWO, THREE, ONE, fnmsub.d fa0, fa1, fa2, fa3)  /* -5 */
    TD(15, 0x401c000000000000, 0, TWO, THREE, ONE, fmadd.d fa0, fa1, fa2, fa3)   /* 7 */
    TD(16, QNAN, 0x10, 0, PINF, QNAN, fmadd.d fa0, fa1, fa2, fa3)
    TD(17, ONE, 0x10, SNAN, ONE, 0, fmin.d fa0, fa1, fa2)
    TD(18, 0x8000000000000000, 0, 0, 0x8000000000000000, 0, fmin.d fa0, fa1, fa2)
    TD(19, TWO, 0, QNAN, TWO, 0, fmax.d fa0, fa1, fa2)
    TD(20, 0xbff0000000000000, 0, ONE, NINF, 0, fsgnj.d fa0, fa1, fa2)
    TD(21, 0xbff0000000000000, 0, 0xbff0000000000000, ONE, 0, fsgnjn.d fa0, fa1, fa2) /* sign = !sign(b) */
    TD(22, 0xbff0000000000000, 0, 0xbff0000000000000, ONE, 0, fsgnjx.d fa0, fa1, fa2)
    TX(23, 1, 0, ONE, TWO, flt.d a0, fa1, fa2)
    TX(24, 0, 0x10, QNAN, TWO, fle.d a0, fa1, fa2)
    TX(25, 0, 0, QNAN, QNAN, feq.d a0, fa1, fa2)
    TX(26, 0x004, 0, 0x800fffffffffffff, 0, fclass.d a0, fa1)   /* negative subnormal */
    TX(27, 0x080, 0, PINF, 0, fclass.d a0, fa1)
    TX(28, 0x040, 0, ONE, 0, fclass.d a0, fa1)
    TX(29, 0x002, 0, 0xbff0000000000000, 0, fclass.d a0, fa1)
    /* S <-> D */
    TEST_CASE(30, a0, 0xffffffff3eaaaaab, li t0, 0x3fd5555555555555; fmv.d.x fa1, t0; csrwi fflags, 0; fcvt.s.d fa0, fa1; fmv.x.d a0, fa0; csrr a1, fflags; li t2, 1; bne a1, t2, fail)
    TEST_CASE(31, a0, 0x3fd5555560000000, li t0, 0x3eaaaaab; fmv.w.x fa1, t0; csrwi fflags, 0; fcvt.d.s fa0, fa1; fmv.x.d a0, fa0; csrr a1, fflags; bnez a1, fail)
    TEST_CASE(32, a0, 0xffffffff7f800000, li t0, 0x7e37e43c8800759c; fmv.d.x fa1, t0; csrwi fflags, 0; fcvt.s.d fa0, fa1; fmv.x.d a0, fa0; csrr a1, fflags; li t2, 5; bne a1, t2, fail) /* 1e300 */
    TEST_CASE(33, a0, QNAN, li t0, 0x7f800001; fmv.w.x fa1, t0; csrwi fflags, 0; fcvt.d.s fa0, fa1; fmv.x.d a0, fa0; csrr a1, fflags; li t2, 0x10; bne a1, t2, fail)
    TEST_CASE(34, a0, 0xffffffff7fc00000, li t0, SNAN; fmv.d.x fa1, t0; fcvt.s.d fa0, fa1; fmv.x.d a0, fa0)
    /* double -> int */
    TX(35, 0x7fffffffffffffff, 0x10, 0x43e0000000000000, 0, fcvt.l.d a0, fa1)   /* 2^63 */
    TX(36, 0x8000000000000000, 0, 0xc3e0000000000000, 0, fcvt.l.d a0, fa1)      /* -2^63 */
    TX(37, 0, 0x01, 0xbfe0000000000000, 0, fcvt.lu.d a0, fa1, rtz)              /* -0.5 */
    TX(38, 0, 0x10, 0xbfe0000000000000, 0, fcvt.lu.d a0, fa1, rdn)              /* -> -1 */
    TX(39, 0xffffffffffffffff, 0x10, PINF, 0, fcvt.lu.d a0, fa1)
    TX(40, 0x7fffffff, 0x10, 0x41e0000000000000, 0, fcvt.w.d a0, fa1)           /* 2^31 */
    TX(41, 0xffffffff80000000, 0x01, 0xc1e0000000100000, 0, fcvt.w.d a0, fa1, rtz) /* -2^31 - 0.5 */
    TX(42, 0xffffffffffffffff, 0, 0x41efffffffe00000, 0, fcvt.wu.d a0, fa1)    /* 2^32-1 */
    TX(43, 3, 0x01, 0x4004000000000000, 0, fcvt.wu.d a0, fa1, rmm)              /* 2.5 -> 3 */
    TX(44, 2, 0x01, 0x4004000000000000, 0, fcvt.wu.d a0, fa1, rne)              /* 2.5 -> 2 */
    /* int -> double */
    TEST_CASE(45, a0, 0x4340000000000000, li t0, 0x20000000000001; csrwi fflags, 0; fcvt.d.l fa0, t0; fmv.x.d a0, fa0; csrr a1, fflags; li t2, 1; bne a1, t2, fail)
    TEST_CASE(46, a0, 0xbff0000000000000, li t0, 0x12345678ffffffff; fcvt.d.w fa0, t0; fmv.x.d a0, fa0)
    TEST_CASE(47, a0, 0x41efffffffe00000, li t0, 0x12345678ffffffff; fcvt.d.wu fa0, t0; fmv.x.d a0, fa0)
    TEST_CASE(48, a0, 0x43f0000000000000, li t0, -1; fcvt.d.lu fa0, t0; fmv.x.d a0, fa0)   /* 2^64 */
    /* raw moves and memory */
    TEST_CASE(49, a0, 0x7ff0000000000001, li t0, SNAN; fmv.d.x fa0, t0; la t1, ddata; fsd fa0, 0(t1); fld fa1, 0(t1); fmv.x.d a0, fa1)
    TEST_CASE(50, a0, 0x123456789abcdef0, li t0, 0x123456789abcdef0; la a3, ddata; sd t0, 8(a3); .option push; .option rvc; c.fld fa2, 8(a3); .option pop; fmv.x.d a0, fa2)
    /* misaligned FP load/store is performed */
    TEST_CASE(51, a0, 0x0123456789abcdef, li t0, 0x0123456789abcdef; fmv.d.x fa0, t0; la t1, ddata; fsd fa0, 3(t1); fld fa1, 3(t1); fmv.x.d a0, fa1)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
ddata:
    .dword 0, 0, 0
RVTEST_DATA_END
