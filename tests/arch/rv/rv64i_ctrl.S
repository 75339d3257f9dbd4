/* RV64I control transfer: every branch condition taken and not taken at the signed /
 * unsigned boundary, jal/jalr link values, jalr clearing bit 0, rd == rs1 in jalr. */
#include "xphmg_test.h"

/* Sets a4 = 1 if the branch is taken, 0 if not. */
#define TEST_BR(n, inst, v1, v2, taken) \
    TEST_CASE(n, a4, taken, li a1, v1; li a2, v2; li a4, 1; inst a1, a2, 1f; li a4, 0; 1:)

RVTEST_CODE_BEGIN
    TEST_BR(2, beq, 5, 5, 1)
    TEST_BR(3, beq, 5, 6, 0)
    TEST_BR(4, bne, 5, 6, 1)
    TEST_BR(5, bne, -1, -1, 0)
    TEST_BR(6, blt, -1, 0, 1)
    TEST_BR(7, blt, 0, -1, 0)
    TEST_BR(8, bltu, 0, -1, 1)
    TEST_BR(9, bltu, -1, 0, 0)
    TEST_BR(10, bge, 0, -1, 1)
    TEST_BR(11, bge, -1, -1, 1)
    TEST_BR(12, bge, 0x8000000000000000, 0x7fffffffffffffff, 0)
    TEST_BR(13, bgeu, 0x8000000000000000, 0x7fffffffffffffff, 1)
    TEST_BR(14, bgeu, 1, 2, 0)
    /* backward branch: a loop counting to 3 */
    TEST_CASE(15, a0, 3, li a0, 0; li a1, 3; 2: addi a0, a0, 1; bne a0, a1, 2b)
    /* jal: rd = address of the next instruction */
    TEST_CASE(16, a0, 0, .option push; .option norvc; jal a1, 3f; 4: nop; 3: la a2, 4b; sub a0, a1, a2; .option pop)
    /* jalr: target = (rs1 + imm) & ~1, link = pc + 4; rd == rs1 uses the old rs1 */
    TEST_CASE(17, a0, 0, .option push; .option norvc; la a1, 5f; addi a1, a1, -3; jalr a1, 3(a1); 6: li a0, 99; 5: la a2, 6b; sub a0, a1, a2; .option pop)
    TEST_CASE(18, a0, 1, la a1, 7f; li a0, 0; jalr x0, 1(a1); li a0, 2; 7: addi a0, a0, 1)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
