/* On a hart without S mode (--isa rv64gc, errata P-260) mie holds only the machine
 * interrupt enables MSIE (3), MTIE (7) and MEIE (11): writing all ones reads back 0x888,
 * with neither the S enables (1, 5, 9) nor any other bit. */
#include "xphmg_test.h"
RVTEST_CODE_BEGIN
    TEST_CASE(2, a0, 0x888, li t0, -1; csrw mie, t0; csrr a0, mie; csrw mie, x0)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
