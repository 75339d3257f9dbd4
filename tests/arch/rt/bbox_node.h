/* bbox_node.h — the hand-built BVHNode4 tile of tests/arch/rt/rt_bbox.S (described there:
 * children 0-2 inner nodes at x [3, 4], [1, 2], [-2, -1], child 3 a leaf at x [0.5, 5],
 * y and z [0, 1], binary16) and its ray_a, org (0, 0.5, 0.5) dir (1, 0, 0) [0, 100], whose
 * rt.bbox result is 0x0000380000000B0B; shared with tests/arch/xmem/cache_rt.S. */
/* clang-format off */
#ifndef BBOX_NODE_H
#define BBOX_NODE_H

/* One 64-byte tile at label (the caller aligns it). */
#define BBOX_NODE(label)                                                                  \
    label:                                                                                 \
    .hword 0x4200, 0x0000, 0x0000, 0x4400, 0x3C00, 0x3C00;                                \
    .hword 0x3C00, 0x0000, 0x0000, 0x4000, 0x3C00, 0x3C00;                                \
    .hword 0xC000, 0x0000, 0x0000, 0xBC00, 0x3C00, 0x3C00;                                \
    .hword 0x3800, 0x0000, 0x0000, 0x4500, 0x3C00, 0x3C00;                                \
    .byte 4, 0, 0, 8, 0, 0, 12, 0, 0, 16, 0, 0;                                            \
    .word 0x95;

#define BBOX_RAY_A(label)                                                                 \
    label:                                                                                 \
    .hword 0x0000, 0x3800, 0x3800, 0x3C00, 0x0000, 0x0000, 0x0000, 0x5640;

/* clang-format on */
#endif
