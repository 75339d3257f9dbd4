/* XDL layout metadata (errata Q-60, P-223; docs/xmem.md "XDL"), default profile, EW16
 * (reset): a Tier-0 region (the Tier-0 partition, `xlds.alloc` TIER = 1) declares
 * XDL_TILE4x4_ROWMAJOR tiles; a Tier-1 region declares nothing. The texture `tex` is
 * 8 x 4 halfwords in row-major order, element (x, y) = 8y + x. As the composite tile
 * XDL_TILE(4, 8) (two 4x4 tiles side by side) element (x, y) sits at halfword
 * ((y/4)*2 + x/4)*16 + (y%4)*4 + x%4: (0,0) -> 0, (3,0) -> 3, (0,1) -> 4, (4,0) -> 16,
 * (5,2) -> 25, (7,3) -> 31.
 * - tex2ten tiled into the Tier-0 region gives that order; ten2tex tiled brings it back;
 * - a linear tensor into or out of the Tier-0 region is refused: store (7) / load (5)
 *   access fault at the region base, INV_MISS, nothing written; into the Tier-1 region
 *   it is a plain copy;
 * - a tile buffer off a 16-byte boundary: store address misaligned (6);
 * - a composite tile larger than its region: store access fault at the region's end,
 *   nothing written;
 * - every region starts on a 16-byte boundary (the minimum alignment, one tile);
 * - after a handoff (`xmem.region` dom = ALL) the region keeps its layout.
 * REQ: XMEM-030 XMEM-031 XMEM-148 XMEM-149 XMEM-151 XMEM-152 XMEM-153 XMEM-155 XMEM-156
 * REQ: XMEM-158 XMEM-161 */
#include "region_test.h"

/* clang-format off */
#define xswz_tex2ten(rd, rs1, rs2, rs3, layout) .insn r4 0x5b, 2, layout, rd, rs1, rs2, rs3
#define xswz_ten2tex(rd, rs1, rs2, rs3, layout) .insn r4 0x5b, 3, layout, rd, rs1, rs2, rs3
#define HALF(testnum, base, idx, value) TEST_CASE(testnum, a5, value, lhu a5, (2 * (idx))(base))
/* clang-format on */
#define TILED 0
#define LINEAR 2
#define EXT(w, h) (((h) << 32) | (w))

RVTEST_CODE_BEGIN
    LDS_TRAP_SETUP
    CLEAR_EVENTS
    la s1, tex
    li s3, EXT(8, 4)
    /* a 64-byte Tier-0 region and a 64-byte Tier-1 region */
    li t0, 64
    xlds_alloc(s2, t0, T0)
    TEST_CASE(2, t1, LDS_BASE, li t2, 0xFFFFC000; and t1, s2, t2)
    xlds_alloc(s4, t0, T1)
    TEST_CASE(3, t1, 0, andi t1, s4, 15)
    /* other sizes: every region is 16-byte aligned */
    li t0, 1
    xlds_alloc(s5, t0, T0)
    TEST_CASE(4, t1, 0, andi t1, s5, 15)
    li t0, 40
    xlds_alloc(s5, t0, 0)
    TEST_CASE(5, t1, 0, andi t1, s5, 15)

    /* linear texture -> XDL tiles in the Tier-0 region */
    TEST_CASE(6, a0, 64, xswz_tex2ten(a0, s2, s1, s3, TILED))
    HALF(7, s2, 0, 0)
    HALF(8, s2, 3, 3)
    HALF(9, s2, 4, 8)
    HALF(10, s2, 16, 4)
    HALF(11, s2, 25, 21)
    HALF(12, s2, 31, 31)
    /* ... and back: the texture at out equals tex */
    la s6, out
    TEST_CASE(13, a0, 64, xswz_ten2tex(a0, s6, s2, s3, TILED))
    TEST_CASE(14, a5, 21, lhu a5, (2 * 21)(s6))
    TEST_CASE(15, a5, 31, lhu a5, (2 * 31)(s6))
    TEST_CASE(16, a5, 12, lhu a5, (2 * 12)(s6))

    /* a linear tensor may not reinterpret the Tier-0 tiles: refused, nothing written */
    li a0, 0x55
    LDS_EXPECT_TRAP(17, CAUSE_STORE_ACCESS_FAULT, xswz_tex2ten(a0, s2, s1, s3, LINEAR))
    TEST_CASE(18, s11, 0, sub s11, s11, s2)
    TEST_CASE(19, a0, 0x55, nop)
    HALF(20, s2, 4, 8)
    TEST_CASE(21, t1, EV_INV_MISS, csrr t1, XMEM_EVENTS)
    CLEAR_EVENTS
    LDS_EXPECT_TRAP(22, CAUSE_LOAD_ACCESS_FAULT, xswz_ten2tex(a0, s6, s2, s3, LINEAR))
    TEST_CASE(23, s11, 0, sub s11, s11, s2)
    CLEAR_EVENTS
    /* the Tier-1 region declares nothing: a linear tensor is a plain copy */
    TEST_CASE(24, a0, 64, xswz_tex2ten(a0, s4, s1, s3, LINEAR))
    HALF(25, s4, 4, 4)
    HALF(26, s4, 25, 25)

    /* a tile off a 16-byte boundary: store address misaligned, nothing written */
    addi t3, s2, 8
    LDS_EXPECT_TRAP(27, 6, xswz_tex2ten(a0, t3, s1, s3, TILED))
    TEST_CASE(28, s11, 8, sub s11, s11, s2)
    HALF(29, s2, 4, 8)
    CLEAR_EVENTS
    /* an 8 x 8 composite tile (128 bytes) does not fit the 64-byte region: refused at
     * the region's end (the tile would leave its region), nothing written */
    li t3, EXT(8, 8)
    LDS_EXPECT_TRAP(30, CAUSE_STORE_ACCESS_FAULT, xswz_tex2ten(a0, s2, s1, t3, TILED))
    TEST_CASE(31, s11, 64, sub s11, s11, s2)
    HALF(32, s2, 4, 8)
    TEST_CASE(33, t1, EV_INV_MISS, csrr t1, XMEM_EVENTS)
    CLEAR_EVENTS

    /* handoff to DOM_ALL (shared read): the layout stays: tiled reads work, linear
     * reads are refused */
    APPLY(a1, s2, mc_all)
    TEST_CASE(34, a1, RGN(0, 0, 0, 0, D_ALL, 0), nop)
    sh zero, (2 * 21)(s6)
    TEST_CASE(35, a0, 64, xswz_ten2tex(a0, s6, s2, s3, TILED))
    TEST_CASE(36, a5, 21, lhu a5, (2 * 21)(s6))
    LDS_EXPECT_TRAP(37, CAUSE_LOAD_ACCESS_FAULT, xswz_ten2tex(a0, s6, s2, s3, LINEAR))
    CLEAR_EVENTS
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 4
tex:
    .half 0, 1, 2, 3, 4, 5, 6, 7
    .half 8, 9, 10, 11, 12, 13, 14, 15
    .half 16, 17, 18, 19, 20, 21, 22, 23
    .half 24, 25, 26, 27, 28, 29, 30, 31
    .align 4
out:
    .skip 64
    MEMCTL(mc_all, D_ALL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
RVTEST_DATA_END
