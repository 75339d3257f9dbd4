/* The exact conversions fcvt.d.s, fcvt.d.w and fcvt.d.wu still carry an rm field in the
 * RISC-V encoding (funct3, like every other fcvt): rm 0..4 and DYN with a valid frm must
 * execute (the result does not depend on it), rm 5/6 and DYN with frm 5..7 are illegal.
 * Encodings written with .insn because assemblers emit rm = 0 for these. */
#include "xphmg_test.h"

#define BOX(v) (0xffffffff00000000 | (v))
#define RUN(code...) la t0, 1f; csrw mscratch, t0; li s2, -1; code; 1:
/* fa0 = fcvt(...) with rounding field `rm`; must not trap and must give `res` */
#define OK_F(n, res, code...) TEST_CASE(n, a0, res, RUN(code); li t0, -1; bne s2, t0, fail; fmv.x.d a0, fa0)
#define ILLEGAL(n, code...) TEST_CASE(n, s2, 2, RUN(code))

RVTEST_CODE_BEGIN
    la t0, trap
    csrw mtvec, t0
    li t0, BOX(0x3fc00000)      /* 1.5f */
    fmv.d.x fa1, t0
    li a1, -3
    /* fcvt.d.s: funct7 0x21, rs2 0 */
    OK_F(2, 0x3ff8000000000000, .insn r OP_FP, 1, 0x21, fa0, fa1, f0)
    OK_F(3, 0x3ff8000000000000, .insn r OP_FP, 2, 0x21, fa0, fa1, f0)
    OK_F(4, 0x3ff8000000000000, .insn r OP_FP, 3, 0x21, fa0, fa1, f0)
    OK_F(5, 0x3ff8000000000000, .insn r OP_FP, 4, 0x21, fa0, fa1, f0)
    OK_F(6, 0x3ff8000000000000, csrwi frm, 2; .insn r OP_FP, 7, 0x21, fa0, fa1, f0)
    /* fcvt.d.w: funct7 0x69, rs2 0;  fcvt.d.wu: rs2 1 (-3 as u32 = 4294967293) */
    OK_F(7, 0xc008000000000000, .insn r OP_FP, 1, 0x69, fa0, a1, f0)
    OK_F(8, 0xc008000000000000, csrwi frm, 4; .insn r OP_FP, 7, 0x69, fa0, a1, f0)
    OK_F(9, 0x41efffffffa00000, .insn r OP_FP, 3, 0x69, fa0, a1, f1)
    OK_F(10, 0x41efffffffa00000, .insn r OP_FP, 4, 0x69, fa0, a1, f1)
    /* reserved modes stay illegal */
    ILLEGAL(11, .insn r OP_FP, 5, 0x21, fa0, fa1, f0)
    ILLEGAL(12, .insn r OP_FP, 6, 0x69, fa0, a1, f0)
    ILLEGAL(13, csrwi frm, 5; .insn r OP_FP, 7, 0x69, fa0, a1, f1)
    csrwi frm, 0
    TEST_PASSFAIL

    .align 2
trap:
    TRAP_RECORD
    TRAP_RESUME
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
