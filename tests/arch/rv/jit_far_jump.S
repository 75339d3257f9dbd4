/* A jump far above RAM whose address, but for bits 62-63, is the program's own start
 * (the translator keys blocks by pc and privilege: docs/sim.md, "Translator"): the fetch
 * there is an instruction access fault (mcause 1), reported by the test harness's
 * handler as exit status 128 + 1, interpreted or translated; run twice through a
 * translated jalr so the indirect-jump table holds the start's block. */
#include "xphmg_test.h"
RVTEST_CODE_BEGIN
    la t0, 1f
    jalr t0
1:  la t0, _start
    li t1, 0xc000000000000000
    or t0, t0, t1
    jalr t0
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
