/* Bad input: an illegal encoding with the standard test harness's handler installed:
 * the trap is taken in the guest (mcause 2) and reported as exit status 128 + 2. */
#include "xphmg_test.h"
RVTEST_CODE_BEGIN
    .word 0x0000007f   /* bits[6:0] = 1111111: a >= 80-bit encoding, none exist */
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
