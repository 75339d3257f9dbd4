/* RV64I integer computation: results at the edges (overflow wraps, sign extension of
 * the W forms and of immediates, shift amounts, x0 as source and destination).
 * Expected values are derived by hand from the RISC-V unprivileged spec, chapter 2/5. */
#include "xphmg_test.h"
RVTEST_RV64U
RVTEST_CODE_BEGIN
    /* add/sub wrap modulo 2^64 */
    TEST_RR_OP(2, add, 0x8000000000000000, 0x7fffffffffffffff, 1)
    TEST_RR_OP(3, sub, 0x7fffffffffffffff, 0x8000000000000000, 1)
    TEST_RR_OP(4, add, 0, -1, 1)
    /* addi: 12-bit immediate sign-extended */
    TEST_IMM_OP(5, addi, 0xfffffffffffff800, 0, -2048)
    TEST_IMM_OP(6, addi, 0x7ff, 0, 2047)
    /* W forms: 32-bit result sign-extended to 64 */
    TEST_RR_OP(7, addw, 0xffffffff80000000, 0x7fffffff, 1)
    TEST_RR_OP(8, subw, 0x7fffffff, 0x80000000, 1)
    TEST_IMM_OP(9, addiw, 0xffffffffffffffff, 0x00000000ffffffff, 0)
    TEST_IMM_OP(10, addiw, 0x0000000000000000, 0x1234567800000000, 0)
    /* logic with sign-extended immediates */
    TEST_IMM_OP(11, xori, 0xffffffffffffff0f, 0xf0, -1)
    TEST_IMM_OP(12, ori, 0xfffffffffffff800, 0, -2048)
    TEST_IMM_OP(13, andi, 0x00000000000000ff, 0x12345678abcdefff, 0xff)
    TEST_RR_OP(14, and, 0x0000ff0000000000, 0x0000ffff00000000, 0xffffff0000000000)
    TEST_RR_OP(15, or, 0xffffffff00000000, 0xffff000000000000, 0x0000ffff00000000)
    TEST_RR_OP(16, xor, 0xffff0000ffff0000, 0xffffffffffffffff, 0x0000ffff0000ffff)
    /* comparisons, signed vs unsigned */
    TEST_RR_OP(17, slt, 1, -1, 0)
    TEST_RR_OP(18, sltu, 0, -1, 0)
    TEST_IMM_OP(19, slti, 1, 0x8000000000000000, 0)
    TEST_IMM_OP(20, sltiu, 1, 0, -1)   /* imm sign-extends to all ones, then unsigned */
    TEST_IMM_OP(21, sltiu, 0, -1, -1)
    /* shifts: 6-bit amounts (register form uses rs2[5:0]) */
    TEST_RR_OP(22, sll, 0x8000000000000000, 1, 63)
    TEST_RR_OP(23, sll, 2, 1, 65)       /* 65 & 63 = 1 */
    TEST_RR_OP(24, srl, 1, 0x8000000000000000, 63)
    TEST_RR_OP(25, sra, 0xffffffffffffffff, 0x8000000000000000, 63)
    TEST_IMM_OP(26, slli, 0x8000000000000000, 1, 63)
    TEST_IMM_OP(27, srli, 0x0000000000000001, 0x8000000000000000, 63)
    TEST_IMM_OP(28, srai, 0xfffffffffffffff0, 0x8000000000000000, 59)
    /* 32-bit shifts: 5-bit amounts, sign-extended results */
    TEST_IMM_OP(29, slliw, 0xffffffff80000000, 1, 31)
    TEST_IMM_OP(30, srliw, 0x0000000000000001, 0x80000000, 31)
    TEST_IMM_OP(31, sraiw, 0xffffffffffffffff, 0x80000000, 31)
    TEST_IMM_OP(32, srliw, 0x000000007fffffff, 0xffffffffffffffff, 1)
    TEST_RR_OP(33, sllw, 0xffffffff80000000, 1, 63) /* 63 & 31 = 31 */
    TEST_RR_OP(34, srlw, 0x0000000000000001, 0x0000000180000000, 31)
    TEST_RR_OP(35, sraw, 0xfffffffffffffffe, 0x00000000fffffffc, 1)
    /* lui: imm << 12 sign-extended on RV64 */
    TEST_CASE(36, a0, 0xffffffff80000000, lui a0, 0x80000)
    TEST_CASE(37, a0, 0x000000007ffff000, lui a0, 0x7ffff)
    /* auipc: pc-relative */
    TEST_CASE(38, a0, 0x1000, 1: auipc a0, 1; la a1, 1b; sub a0, a0, a1)
    /* x0: writes are discarded, reads are zero */
    TEST_CASE(39, a0, 0, li a1, 5; add x0, a1, a1; mv a0, x0)
    TEST_CASE(40, a0, 5, li a1, 5; addi x0, x0, 7; add a0, a1, x0)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
