/* A streaming profile's NT_POLICY without NONTEMP (errata Q-38, P-222; docs/xmem.md
 * "Caches and streaming"), under tests/arch/xmem/stream_temporal.yaml: the default
 * platform with STREAM_PROF = 1 and NONTEMP = 0 (8 ways x 64-byte lines, 64 sets). A
 * region whose descriptor names sprof_id 2 streams STREAM-hinted accesses with SPROF2
 * (depth 2, stride 64: two stream lines after each access), and SPROF2.NT_POLICY = 1 asks
 * for non-temporal fills, which this L1 does not have: the request is ignored, so neither
 * the access's fill nor the stream fills are non-temporal, and nothing else changes (the
 * stream still follows SPROF2's depth). With NONTEMP present the same access fills
 * non-temporally (arch.xmem.cache_policy, the STREAM_CTL NONTEMP_EN cases).
 * cache_sprof_nontemp.S includes this file with WITH_NONTEMP defined, for the default
 * profile (NONTEMP = 1): there SPROF2.NT_POLICY is honoured, and the access's fill and
 * both stream fills are non-temporal.
 * REQ: XMEM-001 XMEM-059 XMEM-087 */
#include "region_test.h"

#ifdef WITH_NONTEMP
#define NT_CAP (1 << 6)
#define NT_FILLS 3
#else
#define NT_CAP 0
#define NT_FILLS 0
#endif

/* clang-format off */
#define xmem_ldg(rd, rs1, hint)     .insn i 0x2b, 5, rd, rs1, hint
#define xmem_stream(rs1, rs2)       .insn r 0x2b, 1, 1, x0, rs1, rs2
#define DELTA(testnum, csr, expected, code...) test_##testnum: li TESTNUM, testnum; csrr s6, csr; code; csrr s7, csr; sub s7, s7, s6; li t2, expected; bne s7, t2, fail;
/* clang-format on */
#define ST_FILLS 0xCC2
#define ST_STREAM 0xCC7
#define ST_NONTEMP 0xCC9
#define XMEM_SPROF2 0x7EA
#define H_STREAM 0x20
#define NT_POLICY (1 << 24)
#define SPROF2_VAL (NT_POLICY | (2 << 16) | 64)

RVTEST_CODE_BEGIN
    LDS_TRAP_SETUP
    /* the profile as this test needs it: STREAM_PROF = 1 (bit 10), NONTEMP (bit 6) */
    TEST_CASE(2, t1, (1 << 10) | NT_CAP, csrr t1, XMEM_CAP; li t0, (1 << 10) | (1 << 6); and t1, t1, t0)
    /* SPROF2 = NT_POLICY, depth 2, stride 64 (xmem.stream rs1 = 2); NT_POLICY is stored */
    li t3, 2
    li t0, SPROF2_VAL
    xmem_stream(t3, t0)
    TEST_CASE(3, t1, SPROF2_VAL, csrr t1, XMEM_SPROF2)
    /* a Tier-1 region with sprof_id 2 */
    li t0, 1024
    xlds_alloc(s1, t0, T1)
    APPLY(a1, s1, mc_sprof2)
    TEST_CASE(4, a1, 2, srli a1, a1, 6; andi a1, a1, 3)
    /* a STREAM-hinted miss: one demand fill and two stream fills (SPROF2 depth 2) ... */
    DELTA(5, ST_STREAM, 2, xmem_ldg(a0, s1, H_STREAM))
    addi s1, s1, 256
    DELTA(6, ST_FILLS, 3, xmem_ldg(a0, s1, H_STREAM))
    /* ... none of them non-temporal without NONTEMP, all three with it */
    addi s1, s1, 256
    DELTA(7, ST_NONTEMP, NT_FILLS, xmem_ldg(a0, s1, H_STREAM))
    TEST_CASE(8, t1, 3 * NT_FILLS, csrr t1, ST_NONTEMP)
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    MEMCTL(mc_sprof2, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0)
RVTEST_DATA_END
