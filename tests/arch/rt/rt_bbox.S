/* rt.bbox on the simulator (errata Q-61..Q-67, Q-71..Q-77), default profile.
 *
 * The node tile `node` (FMT_BVHNODE4, Q-67) is built by hand below; binary16 boxes:
 *   child 0: x [3, 4]   y, z [0, 1]  node (idx 4)
 *   child 1: x [1, 2]   y, z [0, 1]  node (idx 8)
 *   child 2: x [-2, -1] y, z [0, 1]  node (idx 12)
 *   child 3: x [0.5, 5] y, z [0, 1]  leaf (idx 16)
 * binary16: 0 0x0000, 0.5 0x3800, 1 0x3C00, 1.5 0x3E00, 2 0x4000, 3 0x4200, 4 0x4400,
 * 5 0x4500, 100 0x5640 (1.5625 * 2^6), -1 0xBC00, -2 0xC000, 2^-24 0x0001, inf 0x7C00.
 * child_flags: c0 01, c1 01, c2 01, c3 10 = 0x95. `node2` is the same tile again, so
 * with NODE8 children 4-7 repeat children 0-3.
 *
 * ray_a: org (0, 0.5, 0.5) dir (1, 0, 0), [0, 100]: slab x gives child 3 [0.5, 5],
 *   child 1 [1, 2], child 0 [3, 4]; child 2 lies behind (tfar -1 < tmin). y and z: dir
 *   0 and the origin strictly inside: (-inf, +inf). HITMASK 0b1011 = 0xB, ORDER 3, 1, 0
 *   = 3 | 1 << 3 = 0xB at bit 8, TNEAR 0.5 (0x3800) -> rd 0x0000380000000B0B.
 * ray_b: org (1.5, 0.5, -2) dir (0, 0, 2): only children 1 and 3 contain x = 1.5; slab
 *   z: (0 + 2) / 2 = 1 to (1 + 2) / 2 = 1.5 for both: a tie, the lower child first:
 *   HITMASK 0b1010, ORDER 1, 3 = 1 | 3 << 3 = 0x19 -> rd 0x00003C000000190A; PACK_HINT
 *   adds tfar 1.5 = 0x3E00 in TNEAR[31:16].
 * REQ: RT-033 RT-035 RT-038 RT-040 RT-041 RT-049 RT-050 RT-051 RT-052 RT-055
 * REQ: RT-056 RT-080 RT-082 RT-083 RT-086 RT-090 RT-094 RT-105 RT-026 RT-028 */
#include "rt_test.h"
#include "bbox_node.h"
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    /* RT 11.1 as rewritten by errata Q-73: FP16 (the MODE value of the example), node in
     * rtnode, PACK_HINT with PB_OUT = bank 1 (flags 0x84), branch on rd */
    la a0, ray_a
    la a2, node
    li t0, 0x80080000
    csrw 0x7D0, t0
    csrw 0x81A, a2
    rt_bbox(a1, a0, 0x84)
    li TESTNUM, 2
    beqz a1, fail
    /* tnear 0.5 (0x3800) in [47:32], tfar 5 (0x4500) of child 3 in [63:48] */
    TEST_CASE(3, a1, 0x4500380000000B0B, nop)
    TEST_CASE(4, a3, 1, csrr a3, PMASK1)
    TEST_CASE(5, a3, STAT_DOWNCAST, csrr a3, 0x7D2; li t0, STAT_DOWNCAST; and a3, a3, t0)
    /* without PACK_HINT: TNEAR alone */
    TEST_CASE(6, a1, 0x0000380000000B0B, rt_bbox(a1, a0, 0))
    /* T_CLAMP with tmin 0.75 (ray_c): child 3's tnear 0.5 reported as 0.75 = 0x3A00 */
    TEST_CASE(7, a1, 0x00003A0000000B0B, la a4, ray_c; rt_bbox(a1, a4, F_CLAMP))
    /* ray_b: a tie at tnear 1 (0x3C00) */
    la a4, ray_b
    TEST_CASE(8, a1, 0x00003C000000190A, rt_bbox(a1, a4, 0))
    TEST_CASE(9, a1, 0x3E003C000000190A, rt_bbox(a1, a4, F_PACK))
    /* Node8 (flags bit 10): children 0-7; ray_a hits 0, 1, 3, 4, 5, 7 = 0xBB; by tnear
     * 3 (0.5), 7 (0.5), 1 (1), 5 (1), 0 (3), 4 (3): ORDER 3 | 7<<3 | 1<<6 | 5<<9 | 0<<12
     * | 4<<15 = 0x20A7B */
    TEST_CASE(10, a1, 0x00003800020A7BBB, rt_bbox(a1, a0, F_NODE8))
    /* PRED_ONLY: rd kept, predicate written (bank 2 lane 0; other lanes kept) */
    li t0, 0xF0
    csrw PMASK2, t0
    TEST_CASE(11, a1, 0x77, li a1, 0x77; rt_bbox(a1, a0, F_PRED | PB_OUT(2)))
    TEST_CASE(12, a3, 0xF1, csrr a3, PMASK2)
    /* a miss (ray_d passes at y = 2): rd = 0, predicate lane cleared */
    la a4, ray_d
    TEST_CASE(13, a1, 0, rt_bbox(a1, a4, PB_OUT(2)))
    TEST_CASE(14, a3, 0xF0, csrr a3, PMASK2)
    /* PB_IN = bank 3 (lane 0 = 0): nothing read (the ray address is unmapped), rd kept
     * (ZMODE 0) or zeroed (ZMODE 1), bank 2 unchanged */
    li a4, UNMAPPED
    li a1, 0x55
    TEST_CASE(15, a1, 0x55, li s10, -1; rt_bbox(a1, a4, PB_IN(3) | PB_OUT(2)))
    TEST_CASE(16, s10, -1, nop)
    li t0, PREC_FP16_ZERO
    csrw 0x7D0, t0
    TEST_CASE(17, a1, 0, rt_bbox(a1, a4, PB_IN(3) | PB_OUT(2)))
    TEST_CASE(18, a3, 0xF0, csrr a3, PMASK2)
    li t0, PREC_FP16
    csrw 0x7D0, t0
    /* FP32 records (ray32): TNEAR 0.5f = 0x3F000000, no DOWNCAST (the APPLY cleared it) */
    li t0, PREC_FP32
    csrw 0x7D0, t0
    la a4, ray32
    TEST_CASE(19, a1, 0x3F00000000000B0B, rt_bbox(a1, a4, 0))
    TEST_CASE(20, a3, 0, csrr a3, 0x7D2; li t0, STAT_DOWNCAST; and a3, a3, t0)
    /* PACK_HINT has no effect with FP32 (Q-77) */
    TEST_CASE(21, a1, 0x3F00000000000B0B, rt_bbox(a1, a4, F_PACK))
    li t0, PREC_FP16
    csrw 0x7D0, t0
    /* faults: a FP16 ray at an odd address is misaligned (cause 4, mtval = it) */
    la a4, ray_a
    addi a4, a4, 1
    li a1, 0x55
    CAP_EXPECT_TRAP(22, 4, rt_bbox(a1, a4, 0))
    TEST_CASE(23, s11, 0, sub s11, s11, a4)
    TEST_CASE(24, a1, 0x55, nop)
    TEST_CASE(25, a3, 1, csrr a3, XMEM_EVENTS) /* INV_MISS (Q-58) */
    /* an unmapped node tile: load access fault at its address */
    li t0, UNMAPPED
    csrw RTNODE, t0
    CAP_EXPECT_TRAP(26, 5, rt_bbox(a1, a0, 0))
    TEST_CASE(27, s11, UNMAPPED, nop)
    /* a Node8 must be 128-byte aligned: node2 (node + 64) is not */
    la t0, node2
    csrw RTNODE, t0
    CAP_EXPECT_TRAP(28, 4, rt_bbox(a1, a0, F_NODE8))
    TEST_CASE(29, s11, 0, la t0, node2; sub s11, s11, t0)
    TEST_CASE(30, a1, 0x55, nop)
    /* rtnode keeps bits 5:0 zero */
    TEST_CASE(31, a3, 0, la t0, node2; addi t1, t0, 0x3F; csrw RTNODE, t1; csrr a3, RTNODE; sub a3, a3, t0)
    csrw RTNODE, a2
    /* an overflowing FP16 tnear (ray_e: dir 2^-24, tnear 2^23 > 65504 -> inf, OF|NX)
     * with EXC.EN = OF: cause 24, mtval = 0x4, rd kept, EXC.ST = OF|NX */
    li t0, 0x4
    csrw 0x7D3, t0
    la a4, ray_e
    CAP_EXPECT_TRAP(32, 24, rt_bbox(a1, a4, 0))
    TEST_CASE(33, s11, 0x4, nop)
    TEST_CASE(34, a1, 0x55, nop)
    TEST_CASE(35, a3, 0x5, csrr a3, 0x7D4)
    csrw 0x7D3, x0
    /* with the exception disabled: rd = TNEAR inf (0x7C00), HITMASK 0xB */
    TEST_CASE(36, a1, 0x00007C0000000B0B, rt_bbox(a1, a4, 0))
    /* illegal: flag bit 11, PB_IN 4, PB_OUT 5 -> cause 2, LAST_EC 1 + ERR = 0x6 */
    li a1, 0x55
    CAP_EXPECT_TRAP(37, 2, rt_bbox(a1, a0, -2048))
    TEST_CASE(38, a3, 0x6, csrr a3, RTSTAT; andi a3, a3, 0xFF)
    CAP_EXPECT_TRAP(39, 2, rt_bbox(a1, a0, PB_IN(4)))
    CAP_EXPECT_TRAP(40, 2, rt_bbox(a1, a0, PB_OUT(5)))
    TEST_CASE(41, a1, 0x55, nop)
    /* RTSTAT.BBOX_ISSUED (35:8): the rt.bbox that retired = checks 2, 6, 7, 8, 9, 10,
     * 11, 13, 15, 17, 19, 21, 36 = 13 */
    TEST_CASE(42, a3, 13, csrr a3, RTSTAT; srli a3, a3, 8)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 7
    BBOX_NODE(node)
    BBOX_NODE(node2)
    .align 3
    BBOX_RAY_A(ray_a) /* org (0, 0.5, 0.5) dir (1, 0, 0) [0, 100] */
ray_b: /* org (1.5, 0.5, -2) dir (0, 0, 2) [0, 100] */
    .hword 0x3E00, 0x3800, 0xC000, 0x0000, 0x0000, 0x4000, 0x0000, 0x5640
ray_c: /* ray_a with tmin 0.75 (0x3A00) */
    .hword 0x0000, 0x3800, 0x3800, 0x3C00, 0x0000, 0x0000, 0x3A00, 0x5640
ray_d: /* org (0, 2, 0.5): above every box */
    .hword 0x0000, 0x4000, 0x3800, 0x3C00, 0x0000, 0x0000, 0x0000, 0x5640
ray_e: /* dir (2^-24, 0, 0), tmax inf */
    .hword 0x0000, 0x3800, 0x3800, 0x0001, 0x0000, 0x0000, 0x0000, 0x7C00
    .align 2
ray32: /* ray_a in binary32: 0.5f 0x3F000000, 1.0f 0x3F800000, 100.0f 0x42C80000 */
    .word 0, 0x3F000000, 0x3F000000, 0x3F800000, 0, 0, 0, 0x42C80000
RVTEST_DATA_END
