/* Tier-0 handoff to the RT offload engine (CAP 2.2, errata Q-51, Q-52, Q-50, Q-40). Default
 * profile: LDS at 0x10000000, Tier-0 = its first 16 KiB; xlds.alloc with TIER = 1 (FLAGS
 * 0x10) places first fit in Tier-0 (16-byte granules) and falls back to Tier-1 (from
 * 0x10004000) when Tier-0 is full. Each allocation is an XMEM region owned by
 * CAP.XMEM.DOM (errata P-200). The hart (CPU) writes rays and queue descriptors into
 * Tier-0 regions and hands them to RT with `xmem.region` (dom = RT, P-201); a job whose
 * memctl.dom is RT reads the rays and writes hits and misses at those same Tier-0
 * addresses, which the hart reads after xfence.wait, once they are handed back or while
 * it acts for RT (CAP.XMEM.DOM = RT): no copy anywhere. CAP.XMEM.DESCPOL.STRICT_DOM = 1
 * and CAP.XMEM.DOM = CPU (1) make the domain decide: memctl.dom = RT is accepted;
 * memctl.dom = 0 takes the CAP default (CAP.XMEM.DOM), accepted when that is RT and
 * rejected (RTSTAT.LAST_EC 3, nothing consumed) when it is CPU; without STRICT_DOM such a
 * CPU job still cannot touch the RT-owned Tier-0 regions (P-203). With Tier-0 exhausted the
 * hit queue falls back to Tier-1 and the pipeline still works. Expected hit (scene in
 * offload_test.h, FP32): ray (1,2,0) along +z hits B (prim 1) at t 3.0 = 0x40400000;
 * ray (10,10,0) misses.
 * This is the handoff of CAP 2.2: the only path between the hart and the RT job is the
 * tiered region named in the descriptor, under CAP.XMEM.DOM/DESCPOL and the job's
 * XPHMG_MEMCTL (CAP-013); changing the owner of the Tier-0 regions with `xmem.region` is
 * the handoff - right after it the regions answer at the same addresses with the same
 * bytes (read by the hart acting for RT), and the old owner's access faults (CAP-014,
 * CAP-020); the handoff and the job are ordered by xsubmit.rt/xfence.wait (results
 * invisible before the wait, visible after; CAP-024); a Tier-0 request with Tier-0 full
 * gets a Tier-1 region and the pipeline still works through it (CAP-019).
 * CAP-150: memctl.dom = 0 takes CAP.XMEM.DOM. XMEM-141 (the engine side; the debugger
 * side is tests/gdb): a job runs under the XMEM state latched at its xsubmit.rt, never
 * under CAP.XMEM.DOM written after it (cases 30-31 and 35-37).
 * REQ: CAP-150 RT-104 RT-100 CAP-013 CAP-014 CAP-019 CAP-020 CAP-024 XMEM-141 */
#include "offload_regions.h"
#define T0 0x10
/* Applies the XPHMG_MEMCTL at mc to the six Tier-0 regions s1-s6 (errata P-201). */
#define HANDOFF(mc) \
    xmem_region(t0, s1, mc); xmem_region(t0, s2, mc); xmem_region(t0, s3, mc); \
    xmem_region(t0, s4, mc); xmem_region(t0, s5, mc); xmem_region(t0, s6, mc);
RVTEST_CODE_BEGIN
    OFF_TRAP_SETUP
    li t0, 0x80300000; csrw PREC_MODE, t0 /* PET FP32 */
    li t0, 0x44; csrw XMEM_DESCPOL, t0    /* STRICT_DOM 6, HYB_ENABLE 2 */
    li t0, 1; csrw XMEM_DOM, t0           /* CAP.XMEM.DOM = CPU */
    /* Tier-0 regions */
    EXCHANGE_REGIONS(T0, 0x10000000, 0x100, 2, 3, 4, 5, 6, 7)
    /* the hart fills them: rays 0 (hit) and 1 (miss), the three queue descriptors */
    EXCHANGE_FILL(64, 8)
    EXCHANGE_DESC
    li t0, 2; sb t0, D_DOM(s0)            /* memctl.dom = RT: the job is RT's */
    la a3, mc_rt                          /* the handoff: every region to RT */
    HANDOFF(a3)
    TEST_CASE(8, s7, 1, xsubmit_rt(s7, s0))
    /* no data movement (CAP-014, CAP-020): the region at the same address is now RT's
     * (TIER 0, DOM 2, VALID) and holds the same bytes (ray 0 = (1, 2, 0)) */
    TEST_CASE(41, a0, 0x8000000000000200, xmem_region(a0, s1, x0); \
              li t1, 0x8000000000000F03; and a0, a0, t1)
    li t0, 2; csrw XMEM_DOM, t0
    TEST_CASE(42, a0, 0x3F800000, lw a0, 0(s1))
    TEST_CASE(43, a0, 0x40000000, lw a0, 4(s1))
    /* ordering (CAP-024): before the wait the region still holds what the hart left
     * (read by the hart acting for RT) */
    TEST_CASE(38, a0, 0, lw a0, Q_TAIL(s4))
    TEST_CASE(39, a0, 0, lw a0, 8(s3))
    li t0, 1; csrw XMEM_DOM, t0
    TEST_CASE(9, a0, 0, xfence_wait(s7); csrr a0, RTSTAT)
    /* the old owner (CPU) can no longer read them; handed back, it can */
    TEST_CASE(40, s10, 5, li s10, -1; lw a0, Q_TAIL(s4))
    la a3, mc_cpu
    HANDOFF(a3)
    TEST_CASE(10, a0, 1, lw a0, Q_TAIL(s4))
    TEST_CASE(11, a0, 0, lw a0, 0(s3))
    TEST_CASE(12, a0, 1, lw a0, 4(s3))
    TEST_CASE(13, a0, 0x40400000, lw a0, 8(s3))
    TEST_CASE(14, a0, 1, lw a0, Q_TAIL(s6))
    TEST_CASE(15, a0, 1, lw a0, 0(s5))
    TEST_CASE(16, a0, 2, lw a0, Q_HEAD(s2))
    /* memctl.dom = 0 takes CAP.XMEM.DOM: RT -> accepted (ray 2 = copy of ray 0) */
    ld t1, 0(s1); sd t1, 64(s1); ld t1, 8(s1); sd t1, 72(s1)
    ld t1, 16(s1); sd t1, 80(s1); ld t1, 24(s1); sd t1, 88(s1)
    li t0, 3; sw t0, Q_TAIL(s2)
    sb x0, D_DOM(s0)
    la a3, mc_rt
    HANDOFF(a3)
    li t0, 2; csrw XMEM_DOM, t0           /* from now on the hart acts for RT */
    TEST_CASE(17, s7, 2, xsubmit_rt(s7, s0))
    TEST_CASE(18, a0, 0, xfence_wait(s7); csrr a0, RTSTAT)
    TEST_CASE(19, a0, 2, lw a0, Q_TAIL(s4))
    TEST_CASE(20, a0, 2, lw a0, 24(s3))
    /* Tier-0 exhausted: a Tier-0 request falls back to Tier-1; the job still works */
    TEST_CASE(21, a2, 0x10000240, li t0, 0x3DC0; xlds_alloc(a2, t0, T0))
    TEST_CASE(22, s8, 0x10004000, li t0, 0xC0; xlds_alloc(s8, t0, T0))
    TEST_CASE(23, s9, 0x100040C0, li t0, 24; xlds_alloc(s9, t0, T0))
    TEST_CASE(44, a0, 1, xmem_region(a0, s8, x0); andi a0, a0, 3) /* a Tier-1 region */
    li t0, 8; sw t0, Q_CAP(s9); sd s8, Q_BASE(s9)
    sd s9, D_HITQ(s0)
    ld t1, 0(s1); sd t1, 96(s1); ld t1, 8(s1); sd t1, 104(s1)
    ld t1, 16(s1); sd t1, 112(s1); ld t1, 24(s1); sd t1, 120(s1)
    li t0, 4; sw t0, Q_TAIL(s2)
    TEST_CASE(24, s7, 3, xsubmit_rt(s7, s0))
    TEST_CASE(25, a0, 0, xfence_wait(s7); csrr a0, RTSTAT)
    TEST_CASE(26, a0, 1, lw a0, Q_TAIL(s9))
    TEST_CASE(27, a0, 3, lw a0, 0(s8))
    TEST_CASE(28, a0, 0x40400000, lw a0, 8(s8))
    TEST_CASE(29, a0, 4, lw a0, Q_HEAD(s2))
    /* memctl.dom = 0 with CAP.XMEM.DOM = CPU under STRICT_DOM: rejected */
    ld t1, 0(s1); sd t1, 128(s1); ld t1, 8(s1); sd t1, 136(s1)
    ld t1, 16(s1); sd t1, 144(s1); ld t1, 24(s1); sd t1, 152(s1)
    li t0, 5; sw t0, Q_TAIL(s2)
    li t0, 1; csrw XMEM_DOM, t0
    li s10, -1
    TEST_CASE(30, s7, 4, xsubmit_rt(s7, s0))
    TEST_CASE(31, a0, RTSTAT_JOB_FAULT, xfence_wait(s7); csrr a0, RTSTAT)
    li t0, 2; csrw XMEM_DOM, t0
    TEST_CASE(32, a0, 4, lw a0, Q_HEAD(s2))
    TEST_CASE(33, a0, 1, lw a0, Q_TAIL(s9))
    TEST_CASE(34, s10, -1, nop)
    /* the same descriptor without STRICT_DOM: the job is not rejected up front, but as a
     * CPU job it cannot touch RT's Tier-0 regions (P-203): job fault, nothing consumed */
    li t0, 0x4; csrw XMEM_DESCPOL, t0
    li t0, 1; csrw XMEM_DOM, t0
    TEST_CASE(35, s7, 5, xsubmit_rt(s7, s0))
    li t0, 2; csrw XMEM_DOM, t0
    TEST_CASE(36, a0, 4, xfence_wait(s7); lw a0, Q_HEAD(s2))
    TEST_CASE(37, a0, 1, lw a0, Q_TAIL(s9))
    TEST_PASSFAIL
    OFF_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    EXCHANGE_DATA
    MEMCTL_DOM(mc_rt, 2)
    MEMCTL_DOM(mc_cpu, 1)
RVTEST_DATA_END
