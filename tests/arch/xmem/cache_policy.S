/* The L1 model's policy (errata Q-54, P-221, P-222; docs/xmem.md "Caches and streaming"),
 * default profile: 8 ways x 64-byte lines, 64 sets (addresses 4096 bytes apart share a
 * set), WAY_PART, CLASS_PART, LINE_LOCK, NONTEMP and STREAM_PROF present. Everything is
 * observed through the read-only statistics CSRs 0xCC0.. (deltas around one access) and
 * the data; expected counts are worked out in the comments.
 * - statistics: zero after reset, read-only (csrw is illegal), hits/misses/fills;
 * - CLSMAP.CLn_WAYMASK of L1CFG.ACTIVE_CLASS limits the ways a fill may take: one way
 *   evicts, another class's way does not, a class without ways bypasses;
 * - locks take ways of the active class: LOCK_OVF when the class's ways are all locked;
 * - NONTEMP fills are the next victim; L2_ONLY does not allocate;
 * - STREAM: STREAM_CTL's PF_DEPTH lines STRIDE bytes apart follow the access (stride 0 =
 *   one line), NONTEMP_EN makes stream fills non-temporal; no STREAM hint, no stream;
 *   in a region whose descriptor set sprof_id = 2 (`xmem.region`) SPROF2 replaces it,
 *   with the same effect whatever CAP.XMEM.DOM the access is made under;
 * - hints never change data: the same stores and loads with and without hints leave the
 *   same memory and registers, while the statistics differ.
 * REQ: XMEM-086 XMEM-051 XMEM-050 XMEM-089 XMEM-091 XMEM-087 XMEM-055 XMEM-041 XMEM-038
 * REQ: XMEM-059 XMEM-135 */
#include "region_test.h"

/* clang-format off */
#define xmem_ldg(rd, rs1, hint)     .insn i 0x2b, 5, rd, rs1, hint
#define xmem_stg(rs2, rs1, hint)    .insn s 0x2b, 6, rs2, hint(rs1)
#define xmem_cctl(sel, rs1, rs2)    .insn r 0x5b, 0, sel, x0, rs1, rs2
#define xmem_stream(rs1, rs2)       .insn r 0x2b, 1, 1, x0, rs1, rs2
/* Fails with testnum unless statistic csr grew by exactly expected during code (code
 * must keep s6). */
#define DELTA(testnum, csr, expected, code...) test_##testnum: li TESTNUM, testnum; csrr s6, csr; code; csrr s7, csr; sub s7, s7, s6; li t2, expected; bne s7, t2, fail;
/* clang-format on */
#define ST_HITS 0xCC0
#define ST_MISSES 0xCC1
#define ST_FILLS 0xCC2
#define ST_EVICTIONS 0xCC3
#define ST_STREAM 0xCC7
#define ST_BYPASS 0xCC8
#define ST_NONTEMP 0xCC9
#define ST_LOCK_OVF 0xCCA
#define ST_LOCKED 0xCCB
#define ST_HINT_STREAM 0xCD1
#define XMEM_CLSMAP 0x7E3
#define XMEM_STREAM_CTL 0x7E7
#define LOCK_EN (1 << 20)
#define CLASS(n) ((n) << 24)
#define H_L2_ONLY 2
#define H_NONTEMP 8
#define H_STREAM 0x20
#define LOCK 2
#define UNLOCK 3
#define EV_LOCK_OVF 2
#define STREAM_CTL_SEL 4

RVTEST_CODE_BEGIN
    LDS_TRAP_SETUP
    /* statistics are zero after reset and read-only */
    TEST_CASE(2, t1, 0, csrr t1, ST_HITS)
    TEST_CASE(3, t1, 0, csrr t1, ST_MISSES)
    TEST_CASE(4, t1, 0, csrr t1, ST_FILLS)
    TEST_CASE(5, t1, 0, csrr t1, ST_HINT_STREAM)
    LDS_EXPECT_TRAP(6, 2, csrw ST_HITS, zero)
    la s0, buf
    /* set 1: a miss that fills, then a hit */
    addi s1, s0, 64
    DELTA(7, ST_MISSES, 1, xmem_ldg(a0, s1, 0))
    DELTA(8, ST_FILLS, 0, xmem_ldg(a0, s1, 0))
    DELTA(9, ST_HITS, 1, xmem_ldg(a0, s1, 0))

    /* set 2, lines X0 = buf+128, X1 = X0+4096, X2 = X0+8192; CL0 = way 0, CL1 = way 1 */
    li t0, 0x0201
    csrw XMEM_CLSMAP, t0
    csrw XMEM_L1CFG, zero
    addi s1, s0, 128
    li t0, 4096
    add s2, s1, t0
    add s3, s2, t0
    xmem_ldg(a0, s1, 0)             /* X0 -> way 0 */
    DELTA(10, ST_EVICTIONS, 1, xmem_ldg(a0, s2, 0))   /* X1 -> way 0, evicts X0 */
    DELTA(11, ST_HITS, 0, xmem_ldg(a0, s1, 0))        /* X0 misses, evicts X1 */
    li t0, CLASS(1)
    csrw XMEM_L1CFG, t0
    DELTA(12, ST_EVICTIONS, 0, xmem_ldg(a0, s2, 0))   /* class 1: X1 -> way 1 */
    csrw XMEM_L1CFG, zero
    DELTA(13, ST_HITS, 1, xmem_ldg(a0, s1, 0))        /* X0 still in way 0 */
    DELTA(14, ST_HITS, 1, xmem_ldg(a0, s2, 0))        /* lookups hit in any way */
    /* class 2 has no ways: X2 is loaded (data) but not filled, twice */
    li t0, CLASS(2)
    csrw XMEM_L1CFG, t0
    li t1, 0x2222
    sd t1, 0(s3)
    DELTA(15, ST_BYPASS, 1, xmem_ldg(a0, s3, 0))
    TEST_CASE(16, a0, 0x2222, nop)
    DELTA(17, ST_MISSES, 1, xmem_ldg(a0, s3, 0))
    DELTA(18, ST_FILLS, 0, xmem_ldg(a0, s3, 0))

    /* set 3, Y0..Y2 = buf+192 + k*4096: CL0 = ways 0-1, LOCK_EN; two locks fill the
     * class, the third overflows although the set holds only 2 of 7 locked lines */
    li t0, 0x03
    csrw XMEM_CLSMAP, t0
    li t0, LOCK_EN
    csrw XMEM_L1CFG, t0
    CLEAR_EVENTS
    addi s1, s0, 192
    li t0, 4096
    add s2, s1, t0
    add s3, s2, t0
    li t1, 8
    xmem_cctl(LOCK, s1, t1)
    xmem_cctl(LOCK, s2, t1)
    TEST_CASE(19, t2, 0, csrr t2, XMEM_EVENTS)
    TEST_CASE(20, t2, 2, csrr t2, ST_LOCKED)
    DELTA(21, ST_LOCK_OVF, 1, xmem_cctl(LOCK, s3, t1))
    TEST_CASE(22, t2, EV_LOCK_OVF, csrr t2, XMEM_EVENTS)
    DELTA(23, ST_BYPASS, 1, xmem_ldg(a0, s3, 0))
    li t1, 8
    xmem_cctl(UNLOCK, s1, t1)
    xmem_cctl(UNLOCK, s2, t1)
    TEST_CASE(24, t2, 0, csrr t2, ST_LOCKED)
    CLEAR_EVENTS

    /* set 4, Z0..Z2 = buf+256 + k*4096, CL0 = ways 0-1: Z1 filled non-temporal is the
     * victim of Z2, so Z0 (older but temporal) stays */
    csrw XMEM_L1CFG, zero
    addi s1, s0, 256
    li t0, 4096
    add s2, s1, t0
    add s3, s2, t0
    xmem_ldg(a0, s1, 0)
    DELTA(25, ST_NONTEMP, 1, xmem_ldg(a0, s2, H_NONTEMP))
    xmem_ldg(a0, s3, 0)
    DELTA(26, ST_HITS, 1, xmem_ldg(a0, s1, 0))
    DELTA(27, ST_MISSES, 1, xmem_ldg(a0, s2, 0))

    /* set 5: L2_ONLY looks up but does not allocate */
    addi s1, s0, 320
    DELTA(28, ST_BYPASS, 1, xmem_ldg(a0, s1, H_L2_ONLY))
    DELTA(29, ST_MISSES, 1, xmem_ldg(a0, s1, 0))

    /* streams: all ways again. STREAM_CTL = PF_DEPTH 4, STRIDE 64 (xmem.stream 4):
     * a STREAM load at S = buf+384 fills S and the 4 next lines */
    li t0, 0xFF
    csrw XMEM_CLSMAP, t0
    li t3, STREAM_CTL_SEL
    li t0, (4 << 16) | 64
    xmem_stream(t3, t0)
    addi s1, s0, 384
    DELTA(30, ST_STREAM, 4, xmem_ldg(a0, s1, H_STREAM))
    addi s2, s1, 64
    addi s3, s1, 128
    addi s4, s1, 256
    DELTA(31, ST_HITS, 3, xmem_ldg(a0, s2, 0); xmem_ldg(a0, s3, 0); xmem_ldg(a0, s4, 0))
    addi s4, s1, 320
    DELTA(32, ST_MISSES, 1, xmem_ldg(a0, s4, 0))
    /* no STREAM hint: no stream */
    addi s1, s0, 1024
    DELTA(33, ST_STREAM, 0, xmem_ldg(a0, s1, 0))
    DELTA(34, ST_FILLS, 1, addi s1, s0, 1088; xmem_ldg(a0, s1, 0))
    /* STRIDE 1024, PF_DEPTH 2: U = buf+2048 brings U+1024 and U+2048 */
    li t0, (2 << 16) | 1024
    xmem_stream(t3, t0)
    li t0, 2048
    add s1, s0, t0
    DELTA(35, ST_FILLS, 3, xmem_ldg(a0, s1, H_STREAM))
    li t0, 2048
    add s2, s1, t0
    DELTA(36, ST_HITS, 1, xmem_ldg(a0, s2, 0))
    addi s2, s1, 64
    DELTA(37, ST_HITS, 0, xmem_ldg(a0, s2, 0))
    /* STRIDE 0 = one line, and NONTEMP_EN: the access and its 1 follower non-temporal */
    li t0, (1 << 24) | (1 << 16)
    xmem_stream(t3, t0)
    li t0, 2560
    add s1, s0, t0
    DELTA(38, ST_NONTEMP, 2, xmem_ldg(a0, s1, H_STREAM))
    addi s1, s1, 64
    DELTA(39, ST_HITS, 1, xmem_ldg(a0, s1, 0))
    xmem_stream(t3, zero)

    /* hints never change data: the same stores/loads into HA without hints and into HB
     * with L2_ONLY|NONTEMP|STREAM (and all six bits for the loads) */
    li t0, (3 << 16) | 64
    xmem_stream(t3, t0)
    la s1, ha
    la s2, hb
    li a1, 0x0123456789ABCDEF
    li a2, 0x1111111111111111
    li s5, 0
    li s8, 0
    csrr s9, ST_BYPASS
    li t4, 8
    li TESTNUM, 44          /* every load returns exactly what was stored */
1:  xmem_stg(a1, s1, 0)
    xmem_stg(a1, s2, 0x2A)
    xmem_ldg(a3, s1, 0)
    xmem_ldg(a4, s2, 0x3F)
    bne a3, a1, fail
    bne a4, a1, fail
    add s5, s5, a3
    add s8, s8, a4
    add a1, a1, a2
    addi s1, s1, 8
    addi s2, s2, 8
    addi t4, t4, -1
    bnez t4, 1b
    /* the register results agree (and equal the sum computed by hand:
     * 8 * 0x0123456789ABCDEF + 28 * 0x1111111111111111 mod 2^64) */
    TEST_CASE(40, s8, 0xE6F8091A2B3C4D54, mv s8, s8)
    TEST_CASE(41, s5, 0xE6F8091A2B3C4D54, mv s5, s5)
    /* memory agrees */
    la t0, ha
    la t1, hb
    li t4, 8
test_42:
    li TESTNUM, 42
2:  ld t5, 0(t0)
    ld t6, 0(t1)
    bne t5, t6, fail
    addi t0, t0, 8
    addi t1, t1, 8
    addi t4, t4, -1
    bnez t4, 2b
    /* while the statistics differ: every one of the 16 hinted accesses bypasses (L2_ONLY)
     * and so do the 3 stream lines after each (STREAM_CTL depth 3): 16 * 4 = 64; the
     * unhinted run never bypasses */
    TEST_CASE(43, s9, 64, csrr t0, ST_BYPASS; sub s9, t0, s9)

    /* a region's descriptor sprof_id = 2 overrides STREAM_CTL with SPROF2 (depth 3) for
     * accesses inside it; elsewhere STREAM_CTL (depth 1) stays the default */
    li t3, 2
    li t0, (3 << 16) | 64
    xmem_stream(t3, t0)
    li t3, STREAM_CTL_SEL
    li t0, 1 << 16
    xmem_stream(t3, t0)
    li t0, 512
    xlds_alloc(s1, t0, T1)
    APPLY(a1, s1, mc_sprof2)
    TEST_CASE(45, a1, 2, srli a1, a1, 6; andi a1, a1, 3)
    DELTA(46, ST_STREAM, 3, xmem_ldg(a0, s1, H_STREAM))
    li t0, 3072
    add s2, s0, t0
    DELTA(47, ST_STREAM, 1, xmem_ldg(a0, s2, H_STREAM))
    addi s1, s1, 256
    DELTA(48, ST_STREAM, 0, xmem_ldg(a0, s1, 0))
    DELTA(49, ST_STREAM, 3, xmem_stg(a0, s1, H_STREAM))
    /* the same profile means the same stream in another domain (CAP.XMEM.DOM = MTX; the
     * Tier-1 region admits it without STRICT_DOM) */
    li t0, D_MTX
    csrw XMEM_DOM, t0
    addi s1, s1, 64
    DELTA(50, ST_STREAM, 3, xmem_ldg(a0, s1, H_STREAM))
    csrw XMEM_DOM, zero
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 12
buf:
    .skip 3 * 4096 + 4096
    .align 6
ha:
    .skip 64
hb:
    .skip 64
    MEMCTL(mc_sprof2, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0)
RVTEST_DATA_END
