/* Two engines on one region model (errata P-200..P-206), default profile: the hart and
 * the RT offload engine. The handoff of XMEM 3.2.6 as written: (1) the producer (the
 * hart, DOM_CPU) writes rays and queue descriptors into regions marked CLS_SHARED (CL2,
 * errata Q-52) / T0 / DOM_CPU; (2) `xmem.region` sets R.dom = DOM_RT; (3) the consumer
 * (an RT job whose memctl names DOM_RT) reads R in place — no copy exists, the job has no
 * other buffer — and writes its hits and misses into RT-owned Tier-0 regions. The old
 * owner's accesses then fault; handed back, the hart reads the results at the same
 * addresses. Scopes (P-206): after `xsubmit.rt`, `xlds.bar` THREAD/WARP/WG leave the job
 * outstanding (its results are not visible), CLUSTER and SYSTEM complete it;
 * `xfence.pipe mtx` does not, `xfence.pipe rt` does, `xfence.pipe mtx` with FF_GLOBAL
 * does (the offload engine is the platform's DMA engine, P-207); `xfence.signal` /
 * `xfence.wait` do; a Tier-1 region is ordered the same way. The platform has no
 * coherence fabric, and the scopes are still honoured (XMEM 3.2.11 NOTE). The rays'
 * cache lines stay locked (`xmem.cctl lock`) through the whole exchange: the results do
 * not depend on it (XMEM 7.3).
 * Finally a job whose regions belong to another domain is refused (job fault, INV_MISS,
 * nothing written). Scene: offload_test.h (ray (1,2,0) +z hits prim 1 at t = 3.0 =
 * 0x40400000, ray (10,10,0) misses).
 * REQ: XMEM-003 XMEM-006 XMEM-007 XMEM-008 XMEM-010 XMEM-012 XMEM-018 XMEM-019 XMEM-020
 * REQ: XMEM-021 XMEM-037 XMEM-080 XMEM-084 XMEM-106 XMEM-107 XMEM-108 XMEM-109 XMEM-112
 * REQ: XMEM-025 XMEM-035 XMEM-110 XMEM-113 XMEM-133
 * CAP 2.2: the hart-RT dataflow goes only through these tiered regions, a handoff is the
 * change of their owner with no copy, ordered by the scopes above.
 * REQ: CAP-013 CAP-014 CAP-020 CAP-024
 * RT 8.6: the RT job uses XMEM's LDS regions, memory classes and XPHMG_MEMCTL descriptors;
 * a job on regions its domain does not own is refused (tests 37-41).
 * REQ: RT-099 */
#include "../rt/offload_regions.h"
#define T0 0x10
#define xlds_bar(lvl)             .insn i 0x2b, 2, x0, x0, lvl
#define xmem_cctl(sel, rs1, rs2)  .insn r 0x5b, 0, sel, x0, rs1, rs2
#define RGN_SHARED(dom) (0x8000000000000000 | (2 << 2) | ((dom) << 8))
#define EV_INV_MISS 1
/* Applies the XPHMG_MEMCTL at label to the six regions s1-s6, checking each result. */
#define ALL_REGIONS(testnum, label, word) \
    la a3, label; li a4, word; \
    test_##testnum: li TESTNUM, testnum; \
    xmem_region(a0, s1, a3); bne a0, a4, fail; xmem_region(a0, s2, a3); bne a0, a4, fail; \
    xmem_region(a0, s3, a3); bne a0, a4, fail; xmem_region(a0, s4, a3); bne a0, a4, fail; \
    xmem_region(a0, s5, a3); bne a0, a4, fail; xmem_region(a0, s6, a3); bne a0, a4, fail;
/* Lets the RT job see two more rays (ray queue TAIL += 2), as the hart acting for RT. */
#define MORE_RAYS lw t0, Q_TAIL(s2); addi t0, t0, 2; sw t0, Q_TAIL(s2)
RVTEST_CODE_BEGIN
    .option norvc                 /* the trap handler resumes at mepc + 4 */
    OFF_TRAP_SETUP
    li t0, 0x80300000; csrw PREC_MODE, t0 /* PET FP32 */
    /* (1) the producer's regions: rays (16 slots), ray queue, hits, hit queue, misses,
     * miss queue, all Tier-0 and owned by CAP.XMEM.DOM = CPU */
    EXCHANGE_REGIONS(T0, 0x10000000, 512, 2, 3, 4, 5, 6, 7)
    ALL_REGIONS(8, mc_shared, RGN_SHARED(1))
    /* rays 0-15: hit, miss, hit, miss, ... */
    EXCHANGE_FILL(512, 16)
    EXCHANGE_DESC
    li t0, 2; sb t0, D_DOM(s0)            /* the job is RT's (memctl.dom) */
    /* the rays' cache lines are locked (L1CFG.LOCK_EN) and the lock is ordered by a
     * CLUSTER barrier: nothing below may depend on it (XMEM 7.3) */
    li t0, 1 << 20; csrw 0x7E2, t0
    li t1, 512; xmem_cctl(2, s1, t1)
    TEST_CASE(51, a0, 0, xlds_bar(3); csrr a0, XMEM_EVENTS)
    /* scopes are 0-4 (THREAD .. SYSTEM): 5 is no scope, an illegal instruction (P-70) */
    OFF_EXPECT_TRAP(52, 2, xlds_bar(5))
    /* (2) the handoff: R.dom = DOM_RT, nothing else changes */
    ALL_REGIONS(9, mc_rt, RGN_SHARED(2))
    /* the producer (CPU) can no longer touch them */
    TEST_CASE(10, s10, 5, li s10, -1; ld a0, 0(s1))
    TEST_CASE(11, s10, 7, li s10, -1; sw x0, Q_TAIL(s2))
    /* (3) the consumer; scopes: THREAD, WARP, WG leave the job outstanding; CLUSTER
     * completes it (the hart acts for RT, CAP.XMEM.DOM = RT, to look) */
    TEST_CASE(12, s7, 1, xsubmit_rt(s7, s0))
    li t0, 2; csrw XMEM_DOM, t0
    TEST_CASE(13, a0, 0, xlds_bar(0); lw a0, Q_TAIL(s4))
    TEST_CASE(14, a0, 0, xlds_bar(1); lw a0, Q_TAIL(s4))
    TEST_CASE(15, a0, 0, xlds_bar(2); lw a0, Q_TAIL(s4))
    TEST_CASE(16, a0, 0, lw a0, Q_HEAD(s2))
    TEST_CASE(17, a0, 1, xlds_bar(3); lw a0, Q_TAIL(s4))
    TEST_CASE(18, a0, 1, lw a0, Q_TAIL(s6))
    TEST_CASE(19, a0, 2, lw a0, Q_HEAD(s2))
    /* SYSTEM completes too (and WG still does not) */
    MORE_RAYS
    TEST_CASE(20, s7, 2, xsubmit_rt(s7, s0))
    TEST_CASE(21, a0, 1, xlds_bar(2); lw a0, Q_TAIL(s4))
    TEST_CASE(22, a0, 2, xlds_bar(4); lw a0, Q_TAIL(s4))
    /* xfence.pipe: MTX (3) has nothing to do with the RT job, RT (2) completes it */
    MORE_RAYS
    TEST_CASE(23, s7, 3, xsubmit_rt(s7, s0))
    TEST_CASE(24, a0, 2, xfence_pipe(3); lw a0, Q_TAIL(s4))
    TEST_CASE(25, a0, 3, xfence_pipe(2); lw a0, Q_TAIL(s4))
    /* tokens: a signal after the job completes with it */
    MORE_RAYS
    TEST_CASE(26, s7, 4, xsubmit_rt(s7, s0))
    TEST_CASE(27, s8, 5, xfence_signal(s8))
    TEST_CASE(28, a0, 3, lw a0, Q_TAIL(s4))
    TEST_CASE(29, a0, 4, xfence_wait(s8); lw a0, Q_TAIL(s4))
    TEST_CASE(30, a0, 4, lw a0, Q_TAIL(s6))
    /* a global fence (FF_GLOBAL) of another domain completes the DMA-like offload
     * work too (P-207) */
    MORE_RAYS
    TEST_CASE(42, s7, 6, xsubmit_rt(s7, s0))
    TEST_CASE(43, a0, 4, xfence_pipe(3); lw a0, Q_TAIL(s4))
    TEST_CASE(44, a0, 5, xfence_pipe(0x13); lw a0, Q_TAIL(s4))
    /* Tier-1 follows the same ordering: hits into a Tier-1 region are not visible
     * after WG, visible after CLUSTER */
    TEST_CASE(45, s8, 0x10004000, li t0, 0xC0; xlds_alloc(s8, t0, 0))
    TEST_CASE(46, s9, 0x100040C0, li t0, 24; xlds_alloc(s9, t0, 0))
    li t0, 8; sw t0, Q_CAP(s9); sd s8, Q_BASE(s9)
    sd s9, D_HITQ(s0)
    MORE_RAYS
    TEST_CASE(47, s7, 7, xsubmit_rt(s7, s0))
    TEST_CASE(48, a0, 0, xlds_bar(2); lw a0, Q_TAIL(s9))
    TEST_CASE(49, a0, 1, xlds_bar(3); lw a0, Q_TAIL(s9))
    TEST_CASE(50, a0, 0x40400000, lw a0, 8(s8))
    sd s4, D_HITQ(s0)
    /* handed back to the CPU, the hart reads the results where the job wrote them */
    csrw XMEM_DOM, x0
    ALL_REGIONS(31, mc_cpu, RGN_SHARED(1))
    TEST_CASE(32, a0, 0, lw a0, 0(s3))            /* hit 0: ray 0 */
    TEST_CASE(33, a0, 1, lw a0, 4(s3))            /* prim 1 */
    TEST_CASE(34, a0, 0x40400000, lw a0, 8(s3))   /* t = 3.0 */
    TEST_CASE(35, a0, 6, lw a0, 72(s3))           /* hit 3: ray 6 */
    TEST_CASE(36, a0, 7, lw a0, 12(s5))           /* miss 3: ray 7 */
    li t1, 512; xmem_cctl(3, s1, t1)                   /* unlock */
    /* the RT engine without ownership: a job of domain RT on CPU-owned Tier-0 regions
     * is refused at its first access (job fault, INV_MISS), nothing is written */
    li t0, -1; csrw XMEM_EVENTS, t0
    MORE_RAYS
    TEST_CASE(37, s7, 8, xsubmit_rt(s7, s0))
    TEST_CASE(38, a0, RTSTAT_JOB_FAULT, xfence_wait(s7); csrr a0, RTSTAT)
    TEST_CASE(39, a0, EV_INV_MISS, csrr a0, XMEM_EVENTS)
    TEST_CASE(40, a0, 5, lw a0, Q_TAIL(s4))
    TEST_CASE(41, a0, 12, lw a0, Q_HEAD(s2))
    TEST_PASSFAIL
    OFF_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    EXCHANGE_DATA
    .align 3
mc_shared:                                /* XPHMG_MEMCTL: dom CPU, mclass CL2 */
    .byte 1, 0, 0, 0
    .space 12
    .byte 2, 0, 0, 0
    .word 0
    MEMCTL_DOM(mc_rt, 2)
    MEMCTL_DOM(mc_cpu, 1)
RVTEST_DATA_END
