/* Zifencei and self-modifying code: code written by stores runs as written after
 * fence.i (the decoded-instruction cache must not serve the old instruction), also for
 * a compressed instruction replaced by a 32-bit one. Encodings hand-assembled from the
 * base ISA formats: addi a0,a0,1 = 0x00150513, addi a0,a0,2 = 0x00250513,
 * ret = jalr x0,0(ra) = 0x00008067, c.addi a0,3 = 0x050d, c.nop = 0x0001. */
#include "xphmg_test.h"
RVTEST_CODE_BEGIN
    la s0, code
    TEST_CASE(2, a0, 1, li t0, 0x00150513; sw t0, 0(s0); li t0, 0x00008067; sw t0, 4(s0); fence.i; li a0, 0; jalr s0)
    TEST_CASE(3, a0, 2, li t0, 0x00250513; sw t0, 0(s0); fence.i; li a0, 0; jalr s0)
    /* the same slot, now two compressed instructions: c.addi a0,3; c.nop */
    TEST_CASE(4, a0, 3, li t0, 0x0001050d; sw t0, 0(s0); fence.i; li a0, 0; jalr s0)
    /* only the upper half rewritten: c.addi a0,3; c.addi a0,3 */
    TEST_CASE(5, a0, 6, li t0, 0x050d; sh t0, 2(s0); fence.i; li a0, 0; jalr s0)
    /* a loop that patches its own body on the second pass */
    TEST_CASE(6, a0, 3, li a0, 0; li t1, 2; la t2, 1f; li t3, 0x00250513; \
        .option push; .option norvc; 1: addi a0, a0, 1; .option pop; sw t3, 0(t2); fence.i; addi t1, t1, -1; bnez t1, 1b)
    /* 7-9: unused fields are ignored (errata P-90): fence with rd = x1 writes nothing,
     * fence.i with rd = x1 likewise, fence with the reserved fm 1111 is a fence; an
     * illegal instruction here would end the test with status 130 */
    TEST_CASE(7, a0, 0, li x1, 5; .word 0x0ff0008f; addi a0, x1, -5)
    TEST_CASE(8, a0, 0, li x1, 5; .word 0x0000108f; addi a0, x1, -5)
    TEST_CASE(9, a0, 0, li a0, 0; .word 0xfff0000f)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 4
code:
    .word 0x00008067, 0x00008067, 0x00008067, 0x00008067
RVTEST_DATA_END
