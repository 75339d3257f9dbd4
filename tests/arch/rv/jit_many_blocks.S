/* More blocks than the translator keeps (65,536: docs/sim.md, "Translator"): 70,000
 * one-instruction blocks (a branch never taken ends each), run twice, so the cache is
 * flushed while the program runs and the second pass is translated again; every block
 * adds to a0 only on the path the branches define: 2 passes x 70,000 = 140,000 not-taken
 * branches, then one addi per pass. */
#include "xphmg_test.h"
RVTEST_CODE_BEGIN
    TEST_CASE(2, a0, 2, li a0, 0; li t1, 2; 1: \
        .rept 70000; bne zero, zero, .+4; .endr; \
        addi a0, a0, 1; addi t1, t1, -1; bnez t1, 1b)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
