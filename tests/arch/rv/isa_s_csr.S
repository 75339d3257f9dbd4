/* Reads sstatus and writes medeleg: fine on a hart with S mode; without it (--isa
 * without s) the first access is an illegal instruction and the test harness's
 * unexpected-trap exit gives 128 + 2 (errata P-260). */
#include "xphmg_test.h"
RVTEST_CODE_BEGIN
    TEST_CASE(2, a0, 0, csrr a0, sstatus; li t0, 0x100; csrw medeleg, t0; csrw medeleg, x0; andi a0, a0, 2)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
