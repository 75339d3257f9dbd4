/* RV64I loads and stores: sign/zero extension of every width, store widths, negative
 * offsets, and misaligned scalar accesses (performed, Zicclsm), including one that
 * crosses an 8-byte boundary. */
#include "xphmg_test.h"
RVTEST_CODE_BEGIN
    la s0, buf
    TEST_CASE(2, a0, 0xffffffffffffff80, lb a0, 0(s0))
    TEST_CASE(3, a0, 0x80, lbu a0, 0(s0))
    TEST_CASE(4, a0, 0xffffffffffff8180, lh a0, 0(s0))
    TEST_CASE(5, a0, 0x8180, lhu a0, 0(s0))
    TEST_CASE(6, a0, 0xffffffff83828180, lw a0, 0(s0))
    TEST_CASE(7, a0, 0x83828180, lwu a0, 0(s0))
    TEST_CASE(8, a0, 0x8786858483828180, ld a0, 0(s0))
    /* misaligned loads: bytes 0x81.. little-endian */
    TEST_CASE(9, a0, 0xffffffffffff8281, lh a0, 1(s0))
    TEST_CASE(10, a0, 0xffffffff86858483, lw a0, 3(s0))
    TEST_CASE(11, a0, 0x8c8b8a8988878685, ld a0, 5(s0))
    /* stores of each width, negative offset */
    la s1, scratch
    TEST_CASE(12, a0, 0x00000000000000ef, sd x0, 0(s1); li a1, 0x1234567890abcdef; addi s2, s1, 8; sb a1, -8(s2); ld a0, 0(s1))
    TEST_CASE(13, a0, 0x000000000000cdef, sd x0, 0(s1); sh a1, 0(s1); ld a0, 0(s1))
    TEST_CASE(14, a0, 0x0000000090abcdef, sd x0, 0(s1); sw a1, 0(s1); ld a0, 0(s1))
    TEST_CASE(15, a0, 0x1234567890abcdef, sd x0, 0(s1); sd a1, 0(s1); ld a0, 0(s1))
    /* misaligned stores across the 8-byte boundary */
    /* sw of 0x90abcdef at offset 5: bytes 5..8 = ef cd ab | 90 */
    TEST_CASE(16, a0, 0xabcdef0000000000, sd x0, 0(s1); sd x0, 8(s1); sw a1, 5(s1); ld a2, 8(s1); li t1, 0x90; bne a2, t1, fail; ld a0, 0(s1))
    /* sd at offset 4: bytes 4..11 = ef cd ab 90 | 78 56 34 12 */
    TEST_CASE(17, a0, 0x90abcdef00000000, sd x0, 0(s1); sd x0, 8(s1); sd a1, 4(s1); ld a0, 0(s1); ld a2, 8(s1); li t1, 0x12345678; bne a2, t1, fail)
    /* load into x0 is performed (no fault) and discarded */
    TEST_CASE(18, a0, 0, ld x0, 0(s0); mv a0, x0)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
buf:
    .byte 0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87
    .byte 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8d, 0x8e, 0x8f
    .align 3
scratch:
    .dword 0, 0
RVTEST_DATA_END
