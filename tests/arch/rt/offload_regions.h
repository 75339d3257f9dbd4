/* offload_regions.h — the set-up shared by the guest tests in which the hart and the RT
 * offload engine exchange rays and results through XMEM regions
 * (tests/arch/xmem/region_rt.S, region_secure.S, tests/arch/rt/offload_handoff.S):
 * `xmem.region` (errata P-201), the six regions of one exchange, the rays copied into
 * them from `tmpl`, the queue descriptors, and the data every such test carries (the
 * scene of offload_test.h, a queue-less job descriptor `desc`, the ray templates `tmpl`
 * and one-field XPHMG_MEMCTL descriptors). Builds on offload_test.h. */
/* clang-format off */
#ifndef OFFLOAD_REGIONS_H
#define OFFLOAD_REGIONS_H

#include "offload_test.h"

#define xmem_region(rd, rs1, rs2) .insn r 0x2b, 1, 2, rd, rs1, rs2

/* The regions of one exchange, allocated with xlds.alloc flags `fl` (the first at `base`,
 * so every address is known): s1 rays (`ray_bytes`), s2 ray queue, s3 hits (6 x 32
 * bytes), s4 hit queue, s5 misses, s6 miss queue; a queue descriptor is 24 bytes, held in
 * a 32-byte granule. The six checks are test cases n1 .. n6. */
#define EXCHANGE_REGIONS(fl, base, ray_bytes, n1, n2, n3, n4, n5, n6)                   \
    TEST_CASE(n1, s1, base, li t0, ray_bytes; xlds_alloc(s1, t0, fl));                    \
    TEST_CASE(n2, s2, (base) + (ray_bytes), li t0, 24; xlds_alloc(s2, t0, fl));           \
    TEST_CASE(n3, s3, (base) + (ray_bytes) + 0x20, li t0, 0xC0; xlds_alloc(s3, t0, fl));  \
    TEST_CASE(n4, s4, (base) + (ray_bytes) + 0xE0, li t0, 24; xlds_alloc(s4, t0, fl));    \
    TEST_CASE(n5, s5, (base) + (ray_bytes) + 0x100, li t0, 32; xlds_alloc(s5, t0, fl));   \
    TEST_CASE(n6, s6, (base) + (ray_bytes) + 0x120, li t0, 24; xlds_alloc(s6, t0, fl));

/* Fills the `ray_bytes` of s1 with the rays of `tmpl` (hit, miss, hit, miss, ...) and the
 * queue descriptors: 2 rays queued of `ray_cap`, 8 hit and 8 miss slots (clobbers t0-t2,
 * a0, a1). */
#define EXCHANGE_FILL(ray_bytes, ray_cap)                                                 \
    la a0, tmpl;                                                                           \
    li a1, 0;                                                                              \
    1: andi t1, a1, 63; add t0, a0, t1; ld t1, 0(t0); add t0, s1, a1; sd t1, 0(t0);        \
    addi a1, a1, 8; li t2, ray_bytes; bltu a1, t2, 1b;                                     \
    li t0, 2; sw t0, Q_TAIL(s2); li t0, ray_cap; sw t0, Q_CAP(s2); sd s1, Q_BASE(s2);      \
    li t0, 8; sw t0, Q_CAP(s4); sd s3, Q_BASE(s4);                                         \
    li t0, 8; sw t0, Q_CAP(s6); sd s5, Q_BASE(s6);

/* s0 = desc, with the exchange's three queues (clobbers nothing else). */
#define EXCHANGE_DESC                                                                     \
    la s0, desc;                                                                           \
    sd s2, D_RAYQ(s0); sd s4, D_HITQ(s0); sd s6, D_MISSQ(s0);

/* The data: the scene, `desc` (BVH only: the queues are the exchange's), `tmpl` (ray 0
 * (1, 2, 0) +z hits prim 1 at t = 3, ray 1 (10, 10, 0) misses). */
#define EXCHANGE_DATA                                                                     \
    SCENE_BVH(tris);                                                                       \
    tris:                                                                                  \
    .float 0, 0, 5, 4, 0, 5, 0, 4, 5;                                                      \
    .float 0, 0, 3, 0, 4, 3, 4, 0, 3;                                                      \
    .align 3;                                                                              \
    desc:                                                                                  \
    .dword bvh, 0, 0, 0, 0;                                                                \
    .word 0, 0;                                                                            \
    .space 24;                                                                             \
    tmpl:                                                                                  \
    .float 1, 2, 0, 0, 0, 1, 0, 100;                                                       \
    .float 10, 10, 0, 0, 0, 1, 0, 100;

/* An XPHMG_MEMCTL that sets dom alone. */
#define MEMCTL_DOM(label, dom)                                                            \
    .align 3;                                                                              \
    label:                                                                                 \
    .byte dom;                                                                             \
    .space 23;

/* clang-format on */
#endif
