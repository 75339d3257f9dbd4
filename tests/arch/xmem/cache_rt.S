/* rt.bbox reads its records through the XMEM L1 model (errata P-224), default profile
 * (8 ways x 64-byte lines, STREAM_PROF, MAX_SPROF 3). The node tile of
 * tests/arch/rt/rt_bbox.S is copied into two Tier-1 regions whose XPHMG_MEMCTL set
 * l1_hint STREAM: A without sprof_id, B with sprof_id 2. STREAM_CTL streams one line
 * (PF_DEPTH 1), SPROF2 three (PF_DEPTH 3, stride 64). RTSPROF.SPROF_ID reads 0 and
 * ignores writes (errata Q-64), so RT-022's default profile is profile 0, STREAM_CTL:
 * - the node fetch from A is a miss that streams 1 line (STREAM_CTL), from B 3 (SPROF2:
 *   the descriptor's sprof_id wins);
 * - the ray (in RAM, no region, no hint) streams nothing; a second rt.bbox of the same
 *   ray and node hits twice (the ray's line and the node's);
 * - rd is the same as without any of this (rt_bbox.S: 0x0000380000000B0B).
 * REQ: RT-022 XMEM-041 XMEM-059 XMEM-087 */
#include "region_test.h"
#include "../rt/bbox_node.h"

/* clang-format off */
#define rt_bbox(rd, rs1, flags)     .insn i 0x0b, 6, rd, rs1, flags
#define xmem_stream(rs1, rs2)       .insn r 0x2b, 1, 1, x0, rs1, rs2
#define DELTA(testnum, csr, expected, code...) test_##testnum: li TESTNUM, testnum; csrr s6, csr; code; csrr s7, csr; sub s7, s7, s6; li t2, expected; bne s7, t2, fail;
/* copies the 64-byte tile `node` to dst (clobbers t0, t1, t3, t4) */
#define COPY_NODE(dst) la t0, node; mv t1, dst; li t3, 8; 1: ld t4, 0(t0); sd t4, 0(t1); addi t0, t0, 8; addi t1, t1, 8; addi t3, t3, -1; bnez t3, 1b;
/* clang-format on */
#define ST_HITS 0xCC0
#define ST_MISSES 0xCC1
#define ST_STREAM 0xCC7
#define RTSPROF 0x819
#define RTNODE 0x81A
#define PREC_MODE 0x7D0
#define PREC_FP16 0x80080000
#define STREAM_CTL_SEL 4
#define L1_STREAM 2
#define BBOX_A 0x0000380000000B0B

RVTEST_CODE_BEGIN
    LDS_TRAP_SETUP
    li t0, PREC_FP16
    csrw PREC_MODE, t0
    /* RTSPROF: SPROF_ID reads 0, a write is ignored */
    li t0, 2
    csrw RTSPROF, t0
    TEST_CASE(2, t1, 0, csrr t1, RTSPROF)
    /* STREAM_CTL depth 1, SPROF2 depth 3 stride 64 */
    li t3, STREAM_CTL_SEL
    li t0, 1 << 16
    xmem_stream(t3, t0)
    li t3, 2
    li t0, (3 << 16) | 64
    xmem_stream(t3, t0)
    /* regions A (no sprof_id) and B (sprof_id 2), both l1_hint STREAM */
    li t0, 1024
    xlds_alloc(s1, t0, T1)
    APPLY(a1, s1, mc_a)
    TEST_CASE(3, a1, 0, srli a1, a1, 6; andi a1, a1, 3)
    li t0, 1024
    xlds_alloc(s2, t0, T1)
    APPLY(a1, s2, mc_b)
    TEST_CASE(4, a1, 2, srli a1, a1, 6; andi a1, a1, 3)
    COPY_NODE(s1)
    COPY_NODE(s2)
    la a0, ray_a
    /* A: the ray's line and the node's miss; the node's streams one line */
    csrw RTNODE, s1
    DELTA(5, ST_STREAM, 1, rt_bbox(a1, a0, 0))
    TEST_CASE(6, a1, BBOX_A, nop)
    DELTA(7, ST_HITS, 2, rt_bbox(a1, a0, 0))
    TEST_CASE(8, a1, BBOX_A, nop)
    /* B: SPROF2, three lines */
    csrw RTNODE, s2
    DELTA(9, ST_STREAM, 3, rt_bbox(a1, a0, 0))
    TEST_CASE(10, a1, BBOX_A, nop)
    /* one miss (the node's line; the ray's line is resident) */
    addi s2, s2, 256
    COPY_NODE(s2)
    csrw RTNODE, s2
    DELTA(11, ST_MISSES, 1, rt_bbox(a1, a0, 0))
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 6
    BBOX_NODE(node)
    .align 6
    BBOX_RAY_A(ray_a)
    MEMCTL(mc_a, 0, L1_STREAM, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    MEMCTL(mc_b, 0, L1_STREAM, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0)
RVTEST_DATA_END
