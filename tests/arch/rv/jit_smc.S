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
    /* 5-8: a store that rewrites the bytes of its own instruction (the same encoding, so
     * only the decoding is at stake): execution goes on at the next instruction, as for
     * any store (a fuzzing finding, errata P-401: the handlers' fall-through was read
     * from the entry the store had just emptied, and went to 3). 5: sw (an inline case
     * of the fast loop), 6: fsd (a handler), 7: amoswap.w (a handler), 8: fsd to the
     * instruction's address + 1, overwriting it and the next one's first byte with
     * themselves (misaligned). sw t3,0(t2) = 0x01c3a023, fsd ft0,0(t2) = 0x0003b027,
     * fsd ft0,1(t2) = 0x0003b0a7, amoswap.w t4,t3,(t2) = 0x09c3aeaf. */
    TEST_CASE(5, a0, 6, li a0, 5; la t2, 6f; li t3, 0x01c3a023; \
        .option push; .option norvc; 6: sw t3, 0(t2); addi a0, a0, 1; .option pop)
    TEST_CASE(6, a0, 6, li a0, 5; la t2, 7f; ld t3, 0(t2); fmv.d.x ft0, t3; \
        .option push; .option norvc; 7: fsd ft0, 0(t2); addi a0, a0, 1; .option pop)
    TEST_CASE(7, a0, 6, li a0, 5; la t2, 8f; li t3, 0x09c3aeaf; \
        .option push; .option norvc; 8: amoswap.w t4, t3, (t2); addi a0, a0, 1; .option pop)
    TEST_CASE(8, a0, 6, li a0, 5; la t2, 9f; ld t3, 1(t2); fmv.d.x ft0, t3; \
        .option push; .option norvc; 9: fsd ft0, 1(t2); addi a0, a0, 1; .option pop)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
