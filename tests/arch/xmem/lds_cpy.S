/* `xlds.cpy rd, rs1, rs2, rs3[, cpyf]` (errata Q-50, Q-58) on the simulator, default
 * profile: memmove of rs3 bytes from rs2 to rs1, rd = rs3. Global memory -> LDS and
 * LDS -> global; overlapping copies in both directions (hand-computed bytes of the
 * pattern 0x00..0x1f); CPYF (swizzle/non-temporal hints) gives the same result; rs3 = 0
 * touches nothing. Faults are taken before anything is written: load access fault (5)
 * at the first unreadable source byte (unmapped, past the window's end, a huge rs3),
 * else store access fault (7) at the first unwritable destination byte (past the end,
 * the CLINT, which has no byte access); mtval, rd and memory unchanged, INV_MISS set.
 * REQ: XMEM-095 XMEM-083 */
#include "lds_test.h"
#define CHECK_DW(testnum, base, off, value) TEST_CASE(testnum, t1, value, ld t1, off(base))
RVTEST_CODE_BEGIN
    LDS_TRAP_SETUP
    TEST_CASE(2, s1, 0x10004000, li t0, 64; xlds_alloc(s1, t0, 0))
    la s2, pat
    la s3, buf
    /* global -> LDS */
    TEST_CASE(3, a0, 32, li t0, 32; xlds_cpy(a0, s1, s2, t0, 0))
    CHECK_DW(4, s1, 0, 0x0706050403020100)
    CHECK_DW(5, s1, 24, 0x1F1E1D1C1B1A1918)
    /* overlap, destination above the source: 16 bytes from s1 to s1 + 1 */
    addi s4, s1, 1
    TEST_CASE(6, a0, 16, li t0, 16; xlds_cpy(a0, s4, s1, t0, 0))
    CHECK_DW(7, s1, 0, 0x0605040302010000)
    CHECK_DW(8, s1, 8, 0x0E0D0C0B0A090807)
    CHECK_DW(9, s1, 16, 0x171615141312110F)
    /* CPYF = 3 (swizzle + non-temporal hints): the same copy */
    TEST_CASE(10, a0, 32, li t0, 32; xlds_cpy(a0, s1, s2, t0, 3))
    CHECK_DW(11, s1, 0, 0x0706050403020100)
    CHECK_DW(12, s1, 8, 0x0F0E0D0C0B0A0908)
    /* overlap, destination below the source: 13 bytes from s1 + 3 to s1 */
    addi s4, s1, 3
    TEST_CASE(13, a0, 13, li t0, 13; xlds_cpy(a0, s1, s4, t0, 0))
    CHECK_DW(14, s1, 0, 0x0A09080706050403)
    CHECK_DW(15, s1, 8, 0x0F0E0D0F0E0D0C0B)
    CHECK_DW(16, s1, 16, 0x1716151413121110)
    /* LDS -> global */
    TEST_CASE(17, a0, 8, li t0, 8; xlds_cpy(a0, s3, s1, t0, 0))
    CHECK_DW(18, s3, 0, 0x0A09080706050403)
    CHECK_DW(19, s3, 8, 0x5555555555555555)
    /* rs3 = 0: no access at all */
    TEST_CASE(20, a0, 0, li s10, -1; li t1, UNMAPPED; xlds_cpy(a0, t1, t1, x0, 0))
    TEST_CASE(21, s10, -1, nop)
    /* faults: nothing written, rd unchanged, INV_MISS */
    CLEAR_EVENTS
    li a0, 0x55
    LDS_EXPECT_TRAP(22, 5, li t1, UNMAPPED; li t0, 8; xlds_cpy(a0, s1, t1, t0, 0))
    TEST_CASE(23, s11, UNMAPPED, nop)
    TEST_CASE(24, t1, EV_INV_MISS, csrr t1, XMEM_EVENTS)
    LDS_EXPECT_TRAP(25, 5, li t1, 0x1000FFF8; li t0, 16; xlds_cpy(a0, s1, t1, t0, 0))
    TEST_CASE(26, s11, 0x10010000, nop)
    CHECK_DW(27, s1, 0, 0x0A09080706050403)
    LDS_EXPECT_TRAP(28, 7, li t1, 0x1000FFFC; li t0, 8; xlds_cpy(a0, t1, s2, t0, 0))
    TEST_CASE(29, s11, 0x10010000, nop)
    TEST_CASE(30, t1, 0, li t0, 0x1000FFFC; lw t1, 0(t0))
    /* both ranges bad: the source is reported */
    LDS_EXPECT_TRAP(31, 5, li t1, UNMAPPED; li t0, 8; xlds_cpy(a0, t1, t1, t0, 0))
    TEST_CASE(32, s11, UNMAPPED, nop)
    /* a huge length faults where the source stops being readable */
    LDS_EXPECT_TRAP(33, 5, li t0, 0x7FFFFFFFFFFFFFFF; xlds_cpy(a0, s3, s1, t0, 0))
    TEST_CASE(34, s11, 0x10010000, nop)
    CHECK_DW(35, s3, 8, 0x5555555555555555)
    /* the CLINT takes no byte accesses */
    LDS_EXPECT_TRAP(36, 7, li t1, 0x02000000; li t0, 4; xlds_cpy(a0, t1, s2, t0, 0))
    TEST_CASE(37, s11, 0x02000000, nop)
    TEST_CASE(38, a0, 0x55, nop)
    /* overlap, destination above the source, with a byte tail: 11 bytes from s1 to
     * s1 + 2 (bytes 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 0d 0e 0f before) */
    addi s4, s1, 2
    TEST_CASE(39, a0, 11, li t0, 11; xlds_cpy(a0, s4, s1, t0, 0))
    CHECK_DW(40, s1, 0, 0x0807060504030403)
    CHECK_DW(41, s1, 8, 0x0F0E0D0D0C0B0A09)
    /* ... and one shorter than 8 bytes: 5 bytes from s1 to s1 + 1 */
    addi s4, s1, 1
    TEST_CASE(42, a0, 5, li t0, 5; xlds_cpy(a0, s4, s1, t0, 0))
    CHECK_DW(43, s1, 0, 0x0807050403040303)
    CHECK_DW(44, s1, 8, 0x0F0E0D0D0C0B0A09)
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
pat:
    .byte 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07
    .byte 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f
    .byte 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17
    .byte 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f
buf:
    .dword 0x5555555555555555, 0x5555555555555555
RVTEST_DATA_END
