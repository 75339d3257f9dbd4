/* RVC: each compressed form executed from its 16-bit encoding (the assembler is told
 * to emit the c. mnemonics explicitly), with the immediates at their range limits. */
#include "xphmg_test.h"
RVTEST_CODE_BEGIN
    .option push
    .option rvc
    TEST_CASE(2, a0, 0xffffffffffffffe0, c.li a0, -32)
    TEST_CASE(3, a0, 31, c.li a0, 31)
    TEST_CASE(4, a0, 0xffffffffffffffe1, c.li a0, 1; c.addi a0, -32; c.addi a0, 0)
    TEST_CASE(5, a0, 0xfffffffffffe0000, c.lui a0, 0xfffe0)  /* nzimm = -32 << 12 */
    TEST_CASE(6, a0, 0x1f000, c.lui a0, 0x1f)
    TEST_CASE(7, a0, 0xffffffff80000000, li a0, 0x7fffffff; c.addiw a0, 1)
    TEST_CASE(8, a0, 0xffffffffffffffff, li a0, 0xffffffff; c.addiw a0, 0)  /* sext.w */
    TEST_CASE(9, a0, 0, mv s1, sp; li sp, 0x1000; c.addi16sp sp, -512; li t0, 0x1000-512; sub a0, sp, t0; mv sp, s1)
    TEST_CASE(10, a0, 1020, mv s1, sp; li sp, 0; c.addi4spn a0, sp, 1020; mv sp, s1)
    TEST_CASE(11, a0, 0x8000000000000000, li a0, 1; c.slli a0, 63)
    TEST_CASE(12, a2, 1, li a2, 0x8000000000000000; c.srli a2, 63)
    TEST_CASE(13, a2, 0xffffffffffffffff, li a2, 0x8000000000000000; c.srai a2, 63)
    TEST_CASE(14, a2, 0x0a, li a2, 0xfa; c.andi a2, 0x0f)
    TEST_CASE(15, a2, 0xffffffffffffffe0, li a2, -1; c.andi a2, -32)
    TEST_CASE(16, a2, 2, li a2, 5; li a3, 3; c.sub a2, a3)
    TEST_CASE(17, a2, 6, li a2, 5; li a3, 3; c.xor a2, a3)
    TEST_CASE(18, a2, 7, li a2, 5; li a3, 3; c.or a2, a3)
    TEST_CASE(19, a2, 1, li a2, 5; li a3, 3; c.and a2, a3)
    TEST_CASE(20, a2, 0xffffffff80000000, li a2, 0x7fffffff; li a3, -1; c.subw a2, a3)
    TEST_CASE(21, a2, 0xffffffff80000000, li a2, 0x7fffffff; li a3, 1; c.addw a2, a3)
    TEST_CASE(22, a0, 12, li a1, 12; c.mv a0, a1)
    TEST_CASE(23, a0, 13, li a0, 6; li a1, 7; c.add a0, a1)
    /* loads and stores, register-based and sp-based */
    TEST_CASE(24, a0, 0xffffffff80000001, la a2, data; li a3, 0x80000001; c.sw a3, 4(a2); c.lw a0, 4(a2))
    TEST_CASE(25, a0, 0x123456789abcdef0, la a2, data; li a3, 0x123456789abcdef0; c.sd a3, 8(a2); c.ld a0, 8(a2))
    TEST_CASE(26, a0, 0x5555, mv s1, sp; la sp, data; li a3, 0x5555; c.swsp a3, 16(sp); c.lwsp a0, 16(sp); mv sp, s1)
    TEST_CASE(27, a0, -2, mv s1, sp; la sp, data; li a3, -2; c.sdsp a3, 24(sp); c.ldsp a0, 24(sp); mv sp, s1)
    TEST_CASE(28, a0, 0x3ff0000000000000, la a2, data; li a3, 0x3ff0000000000000; sd a3, 0(a2); c.fld fa0, 0(a2); c.fsd fa0, 8(a2); c.ld a0, 8(a2))
    TEST_CASE(29, a0, 0x4000000000000000, mv s1, sp; la sp, data; li a3, 0x4000000000000000; sd a3, 16(sp); c.fldsp fa1, 16(sp); c.fsdsp fa1, 24(sp); c.ld a0, 24(a2); mv sp, s1)
    /* control transfer */
    TEST_CASE(30, a0, 1, li a0, 1; c.j 1f; li a0, 2; 1:)
    TEST_CASE(31, a0, 1, li a0, 1; li a2, 0; c.beqz a2, 1f; li a0, 2; 1:)
    TEST_CASE(32, a0, 1, li a0, 1; li a2, 1; c.bnez a2, 1f; li a0, 2; 1:)
    TEST_CASE(33, a0, 3, li a0, 3; li a2, 1; c.beqz a2, 1f; j 2f; 1: li a0, 4; 2:)
    TEST_CASE(34, a0, 1, li a0, 1; la a1, 1f; c.jr a1; li a0, 2; 1:)
    TEST_CASE(35, a0, 2, la a1, 1f; c.jalr a1; 2: j 3f; 1: la t0, 2b; sub a0, ra, t0; addi a0, a0, 2; 3:)
    TEST_CASE(36, a0, 9, li a0, 9; c.nop)
    .option pop
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 4
data:
    .dword 0, 0, 0, 0
RVTEST_DATA_END
