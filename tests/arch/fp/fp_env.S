/* F/D environment at guest level: the fcsr/frm/fflags CSR views, flag accrual, dynamic
 * rounding through frm in all five modes, reserved rounding modes (static rm 5/6 in the
 * encoding of every rm-carrying instruction class, frm 5/6/7 under DYN) raising an
 * illegal-instruction exception without side effects while instructions that have no rm
 * field ignore frm, and NaN-boxing for every kind of binary32 consumer.
 * Expected values are hand-derived from the RISC-V unprivileged spec (F chapter: fcsr
 * layout and reserved bits, NaN-boxing, canonical NaN) and IEEE 754-2008 rounding;
 * flags: NV=0x10 DZ=0x08 OF=0x04 UF=0x02 NX=0x01. */
#include "xphmg_test.h"

#define BOX(v)  (0xffffffff00000000 | (v))
#define ONE_S   0x3f800000
#define NONE_S  0xbf800000
#define ULP24   0x33800000   /* 2^-24: half an ulp of 1.0f */
#define QNAN_S  0x7fc00000
#define QNAN_D  0x7ff8000000000000
#define UNBOXED 0xfffffffe3f800000  /* upper half not all ones: not a valid binary32 */

/* Runs `code`; s2 = mcause if it trapped (the handler resumes at label 1), else -1. */
#define RUN(code...) la t0, 1f; csrw mscratch, t0; li s2, -1; code; 1:
#define EXPECT_ILLEGAL(n, code...) TEST_CASE(n, s2, 2, RUN(code))
#define EXPECT_NO_TRAP(n, code...) TEST_CASE(n, s2, -1, RUN(code))
/* fa0 = op under dynamic rounding with frm = mode; checks fflags too */
#define DYN_S(n, mode, res, fl, a, b, inst...) \
    TEST_CASE(n, a0, BOX(res), li t0, a; fmv.w.x fa1, t0; li t0, b; fmv.w.x fa2, t0; \
              csrwi frm, mode; csrwi fflags, 0; inst; fmv.x.d a0, fa0; csrr a1, fflags; \
              li t2, fl; bne a1, t2, fail; csrwi frm, 0)

RVTEST_CODE_BEGIN
    la t0, trap
    csrw mtvec, t0

    /* ---- 2-13: fcsr = frm[7:5] | fflags[4:0]; bits 31:8 ignore writes, read 0 ---- */
    TEST_CASE(2, a0, 0xff, li t0, -1; csrw fcsr, t0; csrr a0, fcsr)
    TEST_CASE(3, a0, 7, csrr a0, frm)
    TEST_CASE(4, a0, 0x1f, csrr a0, fflags)
    TEST_CASE(5, a0, 0xe0, csrwi fflags, 0; csrr a0, fcsr)          /* frm kept */
    TEST_CASE(6, a0, 0x1f, li t0, 0xff; csrw fflags, t0; csrr a0, fflags) /* 5 bits */
    TEST_CASE(7, a0, 0x5f, li t0, 0xfa; csrw frm, t0; csrr a0, fcsr) /* frm = 2, 3 bits */
    TEST_CASE(8, a0, 0x5f, li t0, 0x23; csrrw a0, fcsr, t0)          /* swap returns old */
    TEST_CASE(9, a0, 0x23, csrr a0, fcsr)
    TEST_CASE(10, a0, 0x27, csrrsi a0, fflags, 0x04; csrr a0, fcsr)  /* set bits */
    TEST_CASE(11, a0, 0x07, csrrci a0, fflags, 0x01; csrr a0, fflags; ori a0, a0, 1; csrr a1, frm; li t2, 1; bne a1, t2, fail)
    TEST_CASE(12, a0, 0x01, fsrm a0, x0; csrr a1, frm; bnez a1, fail) /* fsrm returns old frm */
    TEST_CASE(13, a0, 0, csrwi fcsr, 0; frflags a0)

    /* ---- 14-19: flags accrue (OR) across instructions; non-arithmetic leaves them ---- */
    TEST_CASE(14, a0, 0x09, li t0, ONE_S; fmv.w.x fa1, t0; fmv.w.x fa2, x0; fdiv.s fa0, fa1, fa2; \
              li t0, ULP24; fmv.w.x fa2, t0; fadd.s fa0, fa1, fa2; csrr a0, fflags)
    TEST_CASE(15, a0, 0x09, fsgnjn.s fa3, fa1, fa2; fmv.x.w a1, fa3; fmv.w.x fa3, a1; fmin.s fa3, fa1, fa2; fclass.s a1, fa3; csrr a0, fflags)
    TEST_CASE(16, a0, 0x19, li t0, 0x7fc00000; fmv.w.x fa2, t0; flt.s a1, fa1, fa2; csrr a0, fflags)
    TEST_CASE(17, a0, 0x19, feq.s a1, fa1, fa2; csrr a0, fflags)   /* quiet compare: no new flag */
    TEST_CASE(18, a0, 0, csrwi fflags, 0; fadd.s fa0, fa1, fa1; csrr a0, fflags) /* 1+1 exact */
    /* an arithmetic instruction writes fflags only by OR: a set flag survives an exact op */
    TEST_CASE(19, a0, 0x02, csrwi fflags, 0x02; fadd.s fa0, fa1, fa1; csrr a0, fflags)

    /* ---- 20-29: dynamic rounding, every mode, on the tie +-(1 + 2^-24) ---- */
    DYN_S(20, 0, ONE_S, 0x01, ONE_S, ULP24, fadd.s fa0, fa1, fa2, dyn)      /* RNE: even */
    DYN_S(21, 1, ONE_S, 0x01, ONE_S, ULP24, fadd.s fa0, fa1, fa2, dyn)      /* RTZ */
    DYN_S(22, 2, ONE_S, 0x01, ONE_S, ULP24, fadd.s fa0, fa1, fa2, dyn)      /* RDN */
    DYN_S(23, 3, 0x3f800001, 0x01, ONE_S, ULP24, fadd.s fa0, fa1, fa2, dyn) /* RUP */
    DYN_S(24, 4, 0x3f800001, 0x01, ONE_S, ULP24, fadd.s fa0, fa1, fa2, dyn) /* RMM: away */
    DYN_S(25, 2, 0xbf800001, 0x01, NONE_S, 0xb3800000, fadd.s fa0, fa1, fa2, dyn)
    DYN_S(26, 3, NONE_S, 0x01, NONE_S, 0xb3800000, fadd.s fa0, fa1, fa2, dyn)
    DYN_S(27, 4, 0xbf800001, 0x01, NONE_S, 0xb3800000, fadd.s fa0, fa1, fa2, dyn)
    /* a static rm wins over frm */
    DYN_S(28, 3, ONE_S, 0x01, ONE_S, ULP24, fadd.s fa0, fa1, fa2, rtz)
    /* RMM through the software path of several ops: 2^-149 * 0.5 ties away to 2^-149 */
    DYN_S(29, 4, 0x00000001, 0x03, 0x00000001, 0x3f000000, fmul.s fa0, fa1, fa2, dyn)
    TEST_CASE(30, a0, 0x0000000000000001, li t0, 1; fmv.d.x fa1, t0; li t0, 0x4000000000000000; \
              fmv.d.x fa2, t0; csrwi fflags, 0; fdiv.d fa0, fa1, fa2, rmm; fmv.x.d a0, fa0; \
              csrr a1, fflags; li t2, 0x03; bne a1, t2, fail)
    TEST_CASE(31, a0, BOX(0x4b800001), li t0, 16777217; fcvt.s.w fa0, t0, rmm; fmv.x.d a0, fa0)
    TEST_CASE(32, a0, 3, li t0, 0x4004000000000000; fmv.d.x fa1, t0; fcvt.l.d a0, fa1, rmm)
    TEST_CASE(33, a0, -3, li t0, 0xc0200000; fmv.w.x fa1, t0; fcvt.w.s a0, fa1, rmm)
    TEST_CASE(34, a0, BOX(0x3f800001), li t0, 0x3ff0000010000000; fmv.d.x fa1, t0; fcvt.s.d fa0, fa1, rmm; fmv.x.d a0, fa0)
    /* fmadd.s RMM: 1*1 + 2^-24 is the tie of test 24, fused */
    TEST_CASE(35, a0, BOX(0x3f800001), li t0, ONE_S; fmv.w.x fa1, t0; li t0, ULP24; fmv.w.x fa3, t0; \
              fmadd.s fa0, fa1, fa1, fa3, rmm; fmv.x.d a0, fa0)

    /* ---- 40-57: reserved rounding modes are illegal; nothing is written ---- */
    csrwi fcsr, 0
    li t0, 0x4000000000000000
    fmv.d.x fa1, t0
    fmv.d.x fa2, t0
    fmv.d.x fa3, t0
    li t0, 0x1234
    fmv.d.x fa0, t0
    EXPECT_ILLEGAL(40, .insn r OP_FP, 5, 0x01, fa0, fa1, fa2)        /* fadd.d rm=5 */
    EXPECT_ILLEGAL(41, .insn r OP_FP, 6, 0x09, fa0, fa1, fa2)        /* fmul.d rm=6 */
    EXPECT_ILLEGAL(42, .insn r OP_FP, 5, 0x2d, fa0, fa1, f0)         /* fsqrt.d rm=5 */
    EXPECT_ILLEGAL(43, .insn r4 MADD, 6, 1, fa0, fa1, fa2, fa3)      /* fmadd.d rm=6 */
    EXPECT_ILLEGAL(44, .insn r4 NMSUB, 5, 0, fa0, fa1, fa2, fa3)     /* fnmsub.s rm=5 */
    EXPECT_ILLEGAL(45, .insn r OP_FP, 6, 0x61, a0, fa1, f0)          /* fcvt.w.d rm=6 */
    EXPECT_ILLEGAL(46, .insn r OP_FP, 5, 0x69, fa0, a1, f2)          /* fcvt.d.l rm=5 */
    EXPECT_ILLEGAL(47, .insn r OP_FP, 5, 0x20, fa0, fa1, f1)         /* fcvt.s.d rm=5 */
    EXPECT_ILLEGAL(48, .insn r OP_FP, 6, 0x21, fa0, fa1, f0)         /* fcvt.d.s rm=6 */
    TEST_CASE(49, a0, 0x1234, fmv.x.d a0, fa0; csrr a1, fflags; bnez a1, fail)
    /* DYN with a reserved frm value: 5, 6 and 7 */
    EXPECT_ILLEGAL(50, csrwi frm, 5; fadd.d fa0, fa1, fa2, dyn)
    EXPECT_ILLEGAL(51, csrwi frm, 6; fmadd.d fa0, fa1, fa2, fa3, dyn)
    EXPECT_ILLEGAL(52, csrwi frm, 7; fcvt.w.d a0, fa1, dyn)
    EXPECT_ILLEGAL(53, csrwi frm, 7; fsqrt.s fa0, fa1, dyn)
    TEST_CASE(54, a0, 0x1234, fmv.x.d a0, fa0)
    /* with frm = 7, a static rm and instructions without an rm field run normally */
    EXPECT_NO_TRAP(55, csrwi frm, 7; fadd.d fa0, fa1, fa2, rne)
    EXPECT_NO_TRAP(56, csrwi frm, 7; fmin.d fa0, fa1, fa2; fsgnj.d fa0, fa1, fa2; feq.d a0, fa1, fa2; \
                   fclass.d a0, fa1; fmv.x.d a0, fa1; fmv.d.x fa0, a0)
    EXPECT_NO_TRAP(57, csrwi frm, 7; fcvt.d.w fa0, x0; fcvt.d.s fa0, fa5)
    csrwi frm, 0

    /* ---- 60-72: NaN-boxing: an unboxed binary32 operand reads as the canonical NaN ---- */
    li t0, UNBOXED
    fmv.d.x fa4, t0
    li t0, ONE_S
    fmv.w.x fa5, t0
    TEST_CASE(60, a0, BOX(QNAN_S), csrwi fflags, 0; fmadd.s fa0, fa5, fa5, fa4; fmv.x.d a0, fa0; \
              csrr a1, fflags; bnez a1, fail)                         /* quiet: no NV */
    TEST_CASE(61, a0, BOX(ONE_S), fmin.s fa0, fa4, fa5; fmv.x.d a0, fa0)   /* the other one */
    TEST_CASE(62, a0, BOX(ONE_S), fmax.s fa0, fa5, fa4; fmv.x.d a0, fa0)
    TEST_CASE(63, a0, BOX(QNAN_S), fmax.s fa0, fa4, fa4; fmv.x.d a0, fa0)
    TEST_CASE(64, a0, 0, csrwi fflags, 0; feq.s a0, fa4, fa4; csrr a1, fflags; bnez a1, fail)
    TEST_CASE(65, a0, 0x10, flt.s a1, fa5, fa4; csrr a0, fflags; bnez a1, fail)
    TEST_CASE(66, a0, 0x200, fclass.s a0, fa4)                       /* quiet NaN */
    TEST_CASE(67, a0, QNAN_D, csrwi fflags, 0; fcvt.d.s fa0, fa4; fmv.x.d a0, fa0; csrr a1, fflags; bnez a1, fail)
    TEST_CASE(68, a0, 0x7fffffff, csrwi fflags, 0; fcvt.w.s a0, fa4; csrr a1, fflags; li t2, 0x10; bne a1, t2, fail)
    /* sign injection: rs2 unboxed -> sign of the canonical NaN (+); rs1 unboxed -> NaN */
    TEST_CASE(69, a0, BOX(ONE_S), li t0, NONE_S; fmv.w.x fa1, t0; fsgnj.s fa0, fa1, fa4; fmv.x.d a0, fa0)
    TEST_CASE(70, a0, BOX(0xffc00000), fsgnjn.s fa0, fa4, fa4; fmv.x.d a0, fa0)
    TEST_CASE(71, a0, BOX(QNAN_S), fsgnjx.s fa0, fa4, fa5; fmv.x.d a0, fa0)
    /* a binary64 NaN written by a D op is not a boxed single either (upper half 0x7ff8...) */
    TEST_CASE(72, a0, BOX(QNAN_S), li t0, 0x3ff0000000000000; fmv.d.x fa1, t0; fadd.s fa0, fa1, fa5; fmv.x.d a0, fa0)
    /* and a properly boxed single is read as such, whatever produced it */
    TEST_CASE(73, a0, BOX(0x40000000), li t0, BOX(ONE_S); fmv.d.x fa1, t0; fadd.s fa0, fa1, fa5; fmv.x.d a0, fa0)
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
