/* Self-modifying code without fence.i, the shapes a translator gets wrong: a store that
 * rewrites an instruction further down its own straight-line block (already translated
 * when the store runs), and a loop that rewrites an instruction of its own block on
 * each pass (a block chained to itself). The interpreter's decoded-instruction cache
 * drops overlapping entries on such stores (docs/sim.md, "How it is fast"); translated
 * code must be dropped the same way (docs/sim.md, "Translator"). Encodings
 * hand-assembled: addi a0,a0,1 = 0x00150513, addi a0,a0,2 = 0x00250513,
 * addi a0,a0,4 = 0x00450513. */
#include "xphmg_test.h"
RVTEST_CODE_BEGIN
    /* 2: the store patches the instruction two below it: 5 + 2 */
    TEST_CASE(2, a0, 7, li a0, 0; la t2, 2f; li t3, 0x00250513; \
        .option push; .option norvc; sw t3, 0(t2); addi a0, a0, 5; 2: addi a0, a0, 1; .option pop)
    /* 3: each pass adds what the previous pass wrote: 1 + 2 + 2 */
    TEST_CASE(3, a0, 5, li a0, 0; li t1, 3; la t2, 3f; li t3, 0x00250513; \
        .option push; .option norvc; 3: addi a0, a0, 1; sw t3, 0(t2); addi t1, t1, -1; bnez t1, 3b; .option pop)
    /* 4: a compressed store (c.sw) patching a later instruction of its block, in a loop:
     * pass 1 writes and runs addi 4, pass 2 writes and runs addi 0 (addi 1 never runs) */
    TEST_CASE(4, a0, 4, li a0, 0; li s1, 2; la s0, 4f; li a5, 0x00450513; \
        .option push; .option norvc; 5: addi a0, a0, 0; .option pop; \
        .option push; .option rvc; c.sw a5, 0(s0); .option pop; \
        .option push; .option norvc; 4: addi a0, a0, 1; .option pop; \
        li a5, 0x00050513; addi s1, s1, -1; bnez s1, 5b)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
