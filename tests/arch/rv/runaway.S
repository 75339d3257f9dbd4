/* Bad input: a program that never exits. xphmg-sim must stop it at --max-insns with the
 * documented exit status 124. */
#include "xphmg_test.h"
RVTEST_CODE_BEGIN
1:  j 1b
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
