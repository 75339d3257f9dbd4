/* RV64M: high products of every signedness, division by zero and signed overflow as the
 * M chapter's table prescribes (no trap), W forms on the low 32 bits. */
#include "xphmg_test.h"
RVTEST_CODE_BEGIN
    TEST_RR_OP(2, mul, 0x0000000000000001, -1, -1)
    TEST_RR_OP(3, mul, 0x8000000000000000, 0x4000000000000000, 2)
    TEST_RR_OP(4, mulh, 0xffffffffffffffff, -1, 1)   /* -1 * 1 = -1: high half all ones */
    TEST_RR_OP(5, mulh, 0x0000000000000000, -1, -1)  /* 1 */
    TEST_RR_OP(6, mulhu, 0xfffffffffffffffe, -1, -1) /* (2^64-1)^2 = 2^128 - 2^65 + 1 */
    TEST_RR_OP(7, mulhsu, 0xffffffffffffffff, -1, -1) /* -1 * (2^64-1) = -(2^64-1) */
    TEST_RR_OP(8, mulh, 0x4000000000000000, 0x8000000000000000, 0x8000000000000000)
    TEST_RR_OP(9, mulw, 0xffffffff80000000, 0x10000, 0x8000)  /* 2^31 wraps to INT32_MIN */
    TEST_RR_OP(10, mulw, 0x0000000000000001, 0xffffffff00000001, 0x1234567800000001)
    /* division rounds toward zero; remainder has the dividend's sign */
    TEST_RR_OP(11, div, -3, -7, 2)
    TEST_RR_OP(12, rem, -1, -7, 2)
    TEST_RR_OP(13, divu, 0x7fffffffffffffff, -1, 2)
    TEST_RR_OP(14, remu, 1, -1, 2)
    /* by zero: quotient all ones, remainder the dividend */
    TEST_RR_OP(15, div, -1, 7, 0)
    TEST_RR_OP(16, divu, -1, 7, 0)
    TEST_RR_OP(17, rem, 7, 7, 0)
    TEST_RR_OP(18, remu, 7, 7, 0)
    /* overflow: INT64_MIN / -1 = INT64_MIN, remainder 0 */
    TEST_RR_OP(19, div, 0x8000000000000000, 0x8000000000000000, -1)
    TEST_RR_OP(20, rem, 0, 0x8000000000000000, -1)
    /* W forms */
    TEST_RR_OP(21, divw, 0xffffffff80000000, 0x80000000, -1)
    TEST_RR_OP(22, remw, 0, 0x80000000, -1)
    TEST_RR_OP(23, divw, -1, 5, 0)
    TEST_RR_OP(24, divuw, -1, 5, 0)              /* 0xffffffff sign-extended */
    TEST_RR_OP(25, remw, 0xfffffffffffffff9, 0xfffffff9, 0)   /* dividend sign-extended */
    TEST_RR_OP(26, remuw, 0xfffffffffffffff9, 0xfffffff9, 0)
    TEST_RR_OP(27, divuw, 0x000000007fffffff, 0xffffffff, 2)
    TEST_RR_OP(28, divw, 0xfffffffffffffffd, 0x1234567ffffffff9, 2) /* -7/2 on low word */
    /* rd == rs1 == rs2 */
    TEST_CASE(29, a0, 49, li a0, 7; mul a0, a0, a0)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
