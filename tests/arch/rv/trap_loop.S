/* Bad input: mtvec points outside RAM and the program executes an illegal instruction,
 * so every trap entry faults again (fetch access fault at the handler address). Nothing
 * retires; --max-insns counts traps too, so the run still ends with status 124. */
#include "xphmg_test.h"
RVTEST_CODE_BEGIN
    li t0, 0x1000
    csrw mtvec, t0
    .word 0xffffffff
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
