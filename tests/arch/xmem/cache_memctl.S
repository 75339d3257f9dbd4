/* The cache hints of an XPHMG_MEMCTL applied to a region with `xmem.region` (errata
 * P-208..P-211; docs/xmem.md "Caches and streaming"), default profile: 8 ways x 64-byte
 * lines, 64 sets, so addresses 4096 bytes apart share a set. The four Tier-1 regions
 * A, B, C, D (12 KiB each, 4 KiB aligned: an offset k * 64 in any of them, and in `buf`, is
 * set k) carry descriptor hints; `xmem.ldg/stg` inside them follow the hints. Everything
 * is observed through the statistics CSRs 0xCC0.. and the data:
 * - l1_hint WAYMASK (bits 7:3) narrows the fill ways to the named ways: way 0 alone
 *   evicts on the second line of a set;
 * - l1_hint LOCK locks what the region's accesses make resident (with L1CFG.LOCK_EN),
 *   best effort and without LOCK_OVF;
 * - l1_hint NONTEMP fills non-temporally, l1_hint STREAM streams with STREAM_CTL although
 *   the instruction carries no hint;
 * - line_sz 128 (two 64-byte lines) fills the aligned 128-byte block on a miss; line_sz
 *   64 (the line) fills one line; line_sz 96 is ignored (keeps the region's 128);
 * - qos: a line of a region with qos 5 outlives 8 newer qos-0 lines of its set, a line
 *   without qos is the LRU victim;
 * - lds_softpin 1024: the region's first 1024 bytes outlive 8 newer lines of their set,
 *   its later lines do not;
 * - none of it changes the data, the attribute word or CAP.XMEM.EVENTS.
 * REQ: XMEM-058 XMEM-089 XMEM-091 XMEM-062 */
#include "region_test.h"

/* clang-format off */
#define xmem_ldg(rd, rs1, hint)     .insn i 0x2b, 5, rd, rs1, hint
#define xmem_stg(rs2, rs1, hint)    .insn s 0x2b, 6, rs2, hint(rs1)
#define xmem_cctl(sel, rs1, rs2)    .insn r 0x5b, 0, sel, x0, rs1, rs2
#define xmem_stream(rs1, rs2)       .insn r 0x2b, 1, 1, x0, rs1, rs2
#define DELTA(testnum, csr, expected, code...) test_##testnum: li TESTNUM, testnum; csrr s6, csr; code; csrr s7, csr; sub s7, s7, s6; li t2, expected; bne s7, t2, fail;
/* ldg of the 8 lines buf + off + k * 4096, k = 0..7 (clobbers t0, t1, a0) */
#define EIGHT_LINES(off) la t0, buf; li t1, off; add t0, t0, t1; li t1, 8; 1: xmem_ldg(a0, t0, 0); li a0, 4096; add t0, t0, a0; addi t1, t1, -1; bnez t1, 1b;
/* clang-format on */
#define ST_HITS 0xCC0
#define ST_MISSES 0xCC1
#define ST_FILLS 0xCC2
#define ST_EVICTIONS 0xCC3
#define ST_STREAM 0xCC7
#define ST_NONTEMP 0xCC9
#define ST_LOCK_OVF 0xCCA
#define ST_LOCKED 0xCCB
#define ST_HINT_STREAM 0xCD1
#define XMEM_STREAM_CTL 0x7E7
#define LOCK_EN (1 << 20)
#define UNLOCK 3
#define STREAM_CTL_SEL 4
#define L1_LOCK 1
#define L1_STREAM 2
#define L1_NONTEMP 4
#define L1_WAYS(m) ((m) << 3)
#define T1_RGN RGN(1, 0, 0, 0, D_CPU, 0)

RVTEST_CODE_BEGIN
    LDS_TRAP_SETUP
    CLEAR_EVENTS
    li t0, 0x3000
    xlds_alloc(s1, t0, T1)          /* A */
    xlds_alloc(s2, t0, T1)          /* B */
    xlds_alloc(s3, t0, T1)          /* C */
    xlds_alloc(s4, t0, T1)          /* D */
    TEST_CASE(2, s1, LDS_BASE + 0x4000, nop)
    TEST_CASE(3, s3, LDS_BASE + 0xA000, nop)
    li t0, 0x5A5A
    sd t0, 64(s1)

    /* WAYMASK = way 0 (set 1): the second line of the set evicts the first; the
     * attribute word is that of a plain T1 region */
    APPLY(a1, s1, mc_way0)
    TEST_CASE(4, a1, T1_RGN, nop)
    addi a2, s1, 64
    li t0, 4096
    add a3, a2, t0
    DELTA(5, ST_FILLS, 1, xmem_ldg(a0, a2, 0))
    TEST_CASE(6, a0, 0x5A5A, nop)
    DELTA(7, ST_EVICTIONS, 1, xmem_ldg(a0, a3, 0))
    DELTA(8, ST_MISSES, 1, xmem_ldg(a0, a2, 0))
    TEST_CASE(9, a0, 0x5A5A, nop)
    /* the same two lines in `buf` (no region, all 8 ways): no eviction */
    la a2, buf
    addi a2, a2, 128
    li t0, 4096
    add a3, a2, t0
    xmem_ldg(a0, a2, 0)
    DELTA(10, ST_EVICTIONS, 0, xmem_ldg(a0, a3, 0))
    DELTA(11, ST_HITS, 1, xmem_ldg(a0, a2, 0))

    /* LOCK (set 2): nothing locked without LOCK_EN; with it the fill is locked, and
     * no LOCK_OVF event either way. A later descriptor's l1_hint replaces WAYMASK. */
    APPLY(a1, s1, mc_lock)
    TEST_CASE(12, a1, T1_RGN, nop)
    addi a2, s1, 128
    DELTA(13, ST_LOCKED, 0, xmem_ldg(a0, a2, 0))
    li t0, LOCK_EN
    csrw XMEM_L1CFG, t0
    li t0, 4096
    add a3, a2, t0
    DELTA(14, ST_LOCKED, 1, xmem_stg(a0, a3, 0))
    DELTA(15, ST_EVICTIONS, 0, add a3, a3, t0; xmem_ldg(a0, a3, 0))
    TEST_CASE(16, t2, 2, csrr t2, ST_LOCKED)
    TEST_CASE(17, t2, 0, csrr t2, XMEM_EVENTS)
    li t0, 0x3000
    xmem_cctl(UNLOCK, s1, t0)
    TEST_CASE(18, t2, 0, csrr t2, ST_LOCKED)
    csrw XMEM_L1CFG, zero

    /* NONTEMP (set 3) */
    APPLY(a1, s1, mc_nt)
    addi a2, s1, 192
    DELTA(19, ST_NONTEMP, 1, xmem_ldg(a0, a2, 0))
    la a2, buf
    addi a2, a2, 192
    DELTA(20, ST_NONTEMP, 0, xmem_ldg(a0, a2, 0))

    /* STREAM (set 4): STREAM_CTL depth 2, no instruction hint */
    li t3, STREAM_CTL_SEL
    li t0, (2 << 16) | 64
    xmem_stream(t3, t0)
    APPLY(a1, s1, mc_stream)
    addi a2, s1, 256
    DELTA(21, ST_STREAM, 2, xmem_ldg(a0, a2, 0))
    DELTA(22, ST_HINT_STREAM, 0, xmem_ldg(a0, a2, 0))
    DELTA(23, ST_HITS, 2, addi a3, a2, 64; xmem_ldg(a0, a3, 0); addi a3, a2, 128; xmem_ldg(a0, a3, 0))
    la a2, buf
    addi a2, a2, 256
    DELTA(24, ST_STREAM, 0, xmem_ldg(a0, a2, 0))
    xmem_stream(t3, zero)

    /* line_sz 128 (sets 6-7 of B): one miss fills the aligned block; line_sz 64 (C) one
     * line; line_sz 96 is not a size: D keeps its 128 */
    APPLY(a1, s2, mc_line128)
    TEST_CASE(25, a1, T1_RGN, nop)
    addi a2, s2, 448
    DELTA(26, ST_FILLS, 2, xmem_ldg(a0, a2, 0))
    DELTA(27, ST_HITS, 1, addi a3, s2, 384; xmem_ldg(a0, a3, 0))
    APPLY(a1, s3, mc_line64)
    addi a2, s3, 448
    DELTA(28, ST_FILLS, 1, xmem_ldg(a0, a2, 0))
    DELTA(29, ST_MISSES, 1, addi a3, s3, 384; xmem_ldg(a0, a3, 0))
    APPLY(a1, s4, mc_line128)
    APPLY(a1, s4, mc_line96)
    TEST_CASE(38, a1, T1_RGN, nop)
    addi a2, s4, 448
    DELTA(39, ST_FILLS, 2, xmem_ldg(a0, a2, 0))

    /* qos (set 8 of B, set 9 of C): 8 newer lines of the set evict the LRU line unless
     * it has the higher qos */
    APPLY(a1, s2, mc_qos5)
    TEST_CASE(30, a1, T1_RGN, nop)
    addi a2, s2, 512
    xmem_ldg(a0, a2, 0)
    EIGHT_LINES(512)
    DELTA(31, ST_HITS, 1, xmem_ldg(a0, a2, 0))
    addi a2, s3, 576
    xmem_ldg(a0, a2, 0)
    EIGHT_LINES(576)
    DELTA(32, ST_HITS, 0, xmem_ldg(a0, a2, 0))

    /* lds_softpin 1024 (C): set 10 lies in the pinned bytes, set 17 (offset 1088) not */
    APPLY(a1, s3, mc_pin)
    TEST_CASE(33, a1, T1_RGN, nop)
    addi a2, s3, 640
    xmem_ldg(a0, a2, 0)
    EIGHT_LINES(640)
    DELTA(34, ST_HITS, 1, xmem_ldg(a0, a2, 0))
    addi a2, s3, 1088
    xmem_ldg(a0, a2, 0)
    EIGHT_LINES(1088)
    DELTA(35, ST_HITS, 0, xmem_ldg(a0, a2, 0))

    /* the data of every region are what plain stores wrote; no event was raised */
    TEST_CASE(36, a0, 0x5A5A, ld a0, 64(s1))
    TEST_CASE(37, t2, 0, csrr t2, XMEM_EVENTS)
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 12
buf:
    .skip 9 * 4096
    /*     label       dom l1_hint      l2 lds line qos pin   mclass sprof hyb sec rsv0 */
    MEMCTL(mc_way0,    0, L1_WAYS(1),   0, 0,  0,   0,  0,    0, 0, 0, 0, 0)
    MEMCTL(mc_lock,    0, L1_LOCK,      0, 0,  0,   0,  0,    0, 0, 0, 0, 0)
    MEMCTL(mc_nt,      0, L1_NONTEMP,   0, 0,  0,   0,  0,    0, 0, 0, 0, 0)
    MEMCTL(mc_stream,  0, L1_STREAM,    0, 0,  0,   0,  0,    0, 0, 0, 0, 0)
    MEMCTL(mc_line128, 0, 0,            0, 0,  128, 0,  0,    0, 0, 0, 0, 0)
    MEMCTL(mc_line64,  0, 0,            0, 0,  64,  0,  0,    0, 0, 0, 0, 0)
    MEMCTL(mc_line96,  0, 0,            0, 0,  96,  0,  0,    0, 0, 0, 0, 0)
    MEMCTL(mc_qos5,    0, 0,            0, 0,  0,   5,  0,    0, 0, 0, 0, 0)
    MEMCTL(mc_pin,     0, 0,            0, 0,  0,   0,  1024, 0, 0, 0, 0, 0)
RVTEST_DATA_END
