/* RV64F: results and accrued flags (NV=0x10 DZ=0x08 OF=0x04 UF=0x02 NX=0x01) at the
 * edges — ties under each rounding mode, overflow, tininess after rounding with and
 * without inexactness, invalid operations, canonical NaN results, min/max and compare
 * NaN rules, saturating conversions; NaN-boxing (an unboxed operand reads as the
 * canonical NaN; flw/fmv.w.x box; fsw/fmv.x.w move raw bits); dynamic rounding via
 * frm; reserved rounding modes and mstatus.FS = Off are illegal instructions; FS
 * becomes Dirty on a write. Values hand-derived from IEEE 754-2008 and the RISC-V F
 * chapter (checked against the host FPU where IEEE defines them). */
#include "xphmg_test.h"

#define BOX(v) (0xffffffff00000000 | (v))
/* fa0 = inst(fa1, fa2, fa3) from raw bit patterns; checks fflags then the boxed result */
#define TF(n, res, fl, a, b, c, inst...) \
    TEST_CASE(n, a0, BOX(res), li t0, a; fmv.w.x fa1, t0; li t0, b; fmv.w.x fa2, t0; \
              li t0, c; fmv.w.x fa3, t0; csrwi fflags, 0; inst; fmv.x.d a0, fa0; \
              csrr a1, fflags; li t2, fl; bne a1, t2, fail)
/* a0 = inst(fa1, fa2) for results in an integer register */
#define TX(n, res, fl, a, b, inst...) \
    TEST_CASE(n, a0, res, li t0, a; fmv.w.x fa1, t0; li t0, b; fmv.w.x fa2, t0; \
              csrwi fflags, 0; inst; csrr a1, fflags; li t2, fl; bne a1, t2, fail)

#define ONE   0x3f800000
#define TWO   0x40000000
#define THREE 0x40400000
#define HALF  0x3f000000
#define QNAN  0x7fc00000
#define SNAN  0x7f800001
#define PINF  0x7f800000
#define NINF  0xff800000
#define MAXF  0x7f7fffff
#define MINN  0x00800000     /* smallest normal, 2^-126 */
#define ULP24 0x33800000     /* 2^-24: half an ulp of 1.0 */

RVTEST_CODE_BEGIN
    la t0, trap
    csrw mtvec, t0
    TF(2, THREE, 0, ONE, TWO, 0, fadd.s fa0, fa1, fa2)
    /* 1 + 2^-24 is a tie: RNE -> 1.0 (even), RUP -> next up, RDN/RTZ -> 1.0, RMM -> up */
    TF(3, ONE, 0x01, ONE, ULP24, 0, fadd.s fa0, fa1, fa2, rne)
    TF(4, 0x3f800001, 0x01, ONE, ULP24, 0, fadd.s fa0, fa1, fa2, rup)
    TF(5, ONE, 0x01, ONE, ULP24, 0, fadd.s fa0, fa1, fa2, rdn)
    TF(6, ONE, 0x01, ONE, ULP24, 0, fadd.s fa0, fa1, fa2, rtz)
    TF(7, 0x3f800001, 0x01, ONE, ULP24, 0, fadd.s fa0, fa1, fa2, rmm)
    /* dynamic: frm = RUP */
    TF(8, 0x3f800001, 0x01, ONE, ULP24, 0, csrwi frm, 3; fadd.s fa0, fa1, fa2, dyn; csrwi frm, 0)
    /* overflow: OF|NX, +inf under RNE, MAXF under RTZ */
    TF(9, PINF, 0x05, MAXF, TWO, 0, fmul.s fa0, fa1, fa2)
    TF(10, MAXF, 0x05, MAXF, TWO, 0, fmul.s fa0, fa1, fa2, rtz)
    /* exact subnormal result: no UF; inexact tiny result: UF|NX (tie to even) */
    TF(11, 0x00400000, 0, MINN, HALF, 0, fmul.s fa0, fa1, fa2)
    TF(12, 0x00400000, 0x03, 0x00800001, HALF, 0, fmul.s fa0, fa1, fa2)
    /* division by zero, 0/0, sqrt(-1), inf - inf */
    TF(13, PINF, 0x08, ONE, 0, 0, fdiv.s fa0, fa1, fa2)
    TF(14, QNAN, 0x10, 0, 0, 0, fdiv.s fa0, fa1, fa2)
    TF(15, QNAN, 0x10, 0xbf800000, 0, 0, fsqrt.s fa0, fa1)
    TF(16, QNAN, 0x10, PINF, PINF, 0, fsub.s fa0, fa1, fa2)
    /* NaN results are canonical: a NaN payload is not propagated; qNaN input raises nothing */
    TF(17, QNAN, 0, 0x7fc12345, ONE, 0, fadd.s fa0, fa1, fa2)
    TF(18, QNAN, 0x10, SNAN, ONE, 0, fadd.s fa0, fa1, fa2)
    /* fused multiply-add family: 2*3+1, 2*3-1, -(2*3)+1, -(2*3)-1 */
    TF(19, 0x40e00000, 0, TWO, THREE, ONE, fmadd.s fa0, fa1, fa2, fa3)
    TF(20, 0x40a00000, 0, TWO, THREE, ONE, fmsub.s fa0, fa1, fa2, fa3)
    TF(21, 0xc0a00000, 0, TWO, THREE, ONE, fnmsub.s fa0, fa1, fa2, fa3)
    TF(22, 0xc0e00000, 0, TWO, THREE, ONE, fnmadd.s fa0, fa1, fa2, fa3)
    /* inf * 0 + qNaN is invalid (RISC-V requires NV) */
    TF(23, QNAN, 0x10, PINF, 0, QNAN, fmadd.s fa0, fa1, fa2, fa3)
    /* min/max: one NaN -> the other operand; sNaN raises NV; -0 < +0 */
    TF(24, ONE, 0, QNAN, ONE, 0, fmin.s fa0, fa1, fa2)
    TF(25, ONE, 0x10, SNAN, ONE, 0, fmax.s fa0, fa1, fa2)
    TF(26, QNAN, 0, QNAN, QNAN, 0, fmin.s fa0, fa1, fa2)
    TF(27, 0x80000000, 0, 0, 0x80000000, 0, fmin.s fa0, fa1, fa2)
    TF(28, 0, 0, 0x80000000, 0, 0, fmax.s fa0, fa1, fa2)
    /* sign injection */
    TF(29, 0xbf800000, 0, ONE, 0x80000000, 0, fsgnj.s fa0, fa1, fa2)
    TF(30, 0xbf800000, 0, ONE, ONE, 0, fsgnjn.s fa0, fa1, fa2)
    TF(31, ONE, 0, 0xbf800000, 0xbf800000, 0, fsgnjx.s fa0, fa1, fa2)
    /* compares: feq quiet (NV only for sNaN), flt/fle signalling */
    TX(32, 0, 0, QNAN, ONE, feq.s a0, fa1, fa2)
    TX(33, 0, 0x10, SNAN, ONE, feq.s a0, fa1, fa2)
    TX(34, 0, 0x10, QNAN, ONE, flt.s a0, fa1, fa2)
    TX(35, 1, 0, 0x80000000, 0, fle.s a0, fa1, fa2)
    TX(36, 0, 0, 0x80000000, 0, flt.s a0, fa1, fa2)
    TX(37, 1, 0, 0x80000000, 0, feq.s a0, fa1, fa2)
    /* fclass */
    TX(38, 0x001, 0, NINF, 0, fclass.s a0, fa1)
    TX(39, 0x010, 0, 0, 0, fclass.s a0, fa1)
    TX(40, 0x020, 0, 1, 0, fclass.s a0, fa1)
    TX(41, 0x100, 0, SNAN, 0, fclass.s a0, fa1)
    TX(42, 0x200, 0, QNAN, 0, fclass.s a0, fa1)
    TX(43, 0x008, 0, 0x80000000, 0, fclass.s a0, fa1)
    /* float -> int: rounding, saturation, NaN -> max; 32-bit results sign-extended */
    TX(44, 2, 0x01, 0x3fc00000, 0, fcvt.w.s a0, fa1)           /* 1.5 RNE */
    TX(45, 1, 0x01, 0x3fc00000, 0, fcvt.w.s a0, fa1, rtz)
    TX(46, -2, 0x01, 0xbfc00000, 0, fcvt.w.s a0, fa1, rdn)     /* -1.5 */
    TX(47, 0x7fffffff, 0x10, QNAN, 0, fcvt.w.s a0, fa1)
    TX(48, 0xffffffff80000000, 0x10, NINF, 0, fcvt.w.s a0, fa1)
    TX(49, 0, 0x10, 0xbf800000, 0, fcvt.wu.s a0, fa1)          /* -1.0 */
    TX(50, 0xffffffffffffffff, 0x10, 0x4f800000, 0, fcvt.wu.s a0, fa1) /* 2^32 */
    TX(51, 0xffffffff80000000, 0, 0x4f000000, 0, fcvt.wu.s a0, fa1)    /* 2^31 fits */
    TX(52, 0x7fffffffffffffff, 0x10, PINF, 0, fcvt.l.s a0, fa1)
    TX(53, 0x8000000000000000, 0, 0xdf000000, 0, fcvt.l.s a0, fa1)    /* -2^63 exact */
    TX(54, 0xffffffffffffffff, 0x10, QNAN, 0, fcvt.lu.s a0, fa1)
    TX(55, 0, 0x01, 0xbf000000, 0, fcvt.lu.s a0, fa1, rtz)             /* -0.5 -> 0, NX */
    /* int -> float */
    TEST_CASE(56, a0, BOX(0x4b800000), li t0, 16777217; csrwi fflags, 0; fcvt.s.w fa0, t0; fmv.x.d a0, fa0; csrr a1, fflags; li t2, 1; bne a1, t2, fail)
    TEST_CASE(57, a0, BOX(0x4f800000), li t0, -1; fcvt.s.wu fa0, t0; fmv.x.d a0, fa0)  /* 2^32-1 rounds to 2^32 */
    TEST_CASE(58, a0, BOX(0xbf800000), li t0, 0x00000000ffffffff; fcvt.s.w fa0, t0; fmv.x.d a0, fa0) /* only rs1[31:0] */
    TEST_CASE(59, a0, BOX(0x5f800000), li t0, -1; fcvt.s.lu fa0, t0; fmv.x.d a0, fa0)  /* 2^64 */
    TEST_CASE(60, a0, BOX(0xdf000000), li t0, 0x8000000000000000; fcvt.s.l fa0, t0; fmv.x.d a0, fa0)
    /* NaN-boxing */
    TEST_CASE(61, a0, BOX(QNAN), li t0, ONE; fmv.d.x fa1, t0; fadd.s fa0, fa1, fa1; fmv.x.d a0, fa0)
    /* sign injection reads unboxed operands as canonical NaN too: -qNaN */
    TEST_CASE(62, a0, BOX(0xffc00000), li t0, 0x000000003f800000; fmv.d.x fa1, t0; fsgnjn.s fa0, fa1, fa1; fmv.x.d a0, fa0)
    TEST_CASE(63, a0, BOX(ONE), la t1, fdata; li t0, ONE; sw t0, 0(t1); flw fa0, 0(t1); fmv.x.d a0, fa0)
    TEST_CASE(64, a0, 0xffffffffbf800000, li t0, 0xbf800000; fmv.w.x fa0, t0; fmv.x.w a0, fa0)
    TEST_CASE(65, a0, 0x9abcdef0, la t1, fdata; li t0, 0x123456789abcdef0; fmv.d.x fa0, t0; sd x0, 0(t1); fsw fa0, 0(t1); ld a0, 0(t1))
    TEST_CASE(66, a0, 0xffffffff9abcdef0, li t0, 0x123456789abcdef0; fmv.d.x fa0, t0; fmv.x.w a0, fa0)
    /* flags accrue until written */
    TEST_CASE(67, a0, 0x09, li t0, ONE; fmv.w.x fa1, t0; fmv.w.x fa2, x0; csrwi fflags, 0; fdiv.s fa0, fa1, fa2; li t0, ULP24; fmv.w.x fa2, t0; fadd.s fa0, fa1, fa2; csrr a0, fflags)
    /* reserved rounding modes: rm = 5 in the instruction, or frm = 5 under dyn */
    TEST_CASE(68, s2, 2, la t0, 1f; csrw mscratch, t0; li s2, 0; .word 0x00005053; 1:) /* fadd.s f0,f0,f0 rm=5 */
    TEST_CASE(69, s3, 0x00005053, mv s3, s3)
    TEST_CASE(70, s2, 2, la t0, 1f; csrw mscratch, t0; li s2, 0; csrwi frm, 5; fadd.s fa0, fa1, fa2, dyn; 1: csrwi frm, 0)
    /* FS = Off: FP instructions and FP CSRs are illegal; FS = Initial -> Dirty on write */
    TEST_CASE(71, s2, 2, li t0, 0x6000; csrc mstatus, t0; la t0, 1f; csrw mscratch, t0; li s2, 0; fadd.s fa0, fa1, fa2; 1:)
    TEST_CASE(72, s2, 2, la t0, 1f; csrw mscratch, t0; li s2, 0; csrr a0, fflags; 1:)
    TEST_CASE(73, s2, 2, la t0, 1f; csrw mscratch, t0; li s2, 0; la t1, fdata; flw fa0, 0(t1); 1:)
    TEST_CASE(74, a0, 0x2000, li t0, 0x2000; csrs mstatus, t0; csrr a0, mstatus; li t1, 0x6000; and a0, a0, t1)
    TEST_CASE(75, a0, 0x6000, fmv.w.x fa0, x0; csrr a0, mstatus; li t1, 0x6000; and a0, a0, t1; csrr t2, mstatus; bgez t2, fail) /* SD set */
    TEST_PASSFAIL

    .align 2
trap:
    TRAP_RECORD
    TRAP_RESUME
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
fdata:
    .dword 0
RVTEST_DATA_END
