/* The STAT stickies accumulate the observations of every domain (CAP 5.1.4, errata Q-26,
 * Q-29): the CPU's `xcvt` and an RT offload job set their own stickies in the one
 * CAP.PREC.STAT, and neither clears or changes what the other set; only an APPLY clears
 * them. STAT stickies (spec/xphmg.xml CAP.PREC.STAT): FTZ_HIT 12 (0x1000), SAT_HIT 13
 * (0x2000), DOWNCAST_TAKEN 14 (0x4000), UNSUP_FMT 15 (0x8000); 0xF000 = all four.
 * MODE 0x84080000 = APPLY0 (31) | DENORM_FTZ (26) | EW 16 (19), PET FP16: the job of
 * offload_flags.S (exact FP16 hit, t 3, u 0.5, v 0.25) narrows its results, so it sets
 * DOWNCAST_TAKEN and nothing else. `xcvt` FP32 -> FP16 (fmtsel 0x01) of 2^-20
 * (0x35800000, subnormal in binary16: 2^-20 < 2^-14) flushes to +0 under DENORM_FTZ and
 * sets FTZ_HIT. MODE 0xC0080000 adds SAT (30) without FTZ: 2^20 (0x49800000) exceeds
 * binary16's 65504, saturates to 0x7BFF and sets SAT_HIT. FP32 -> FP16 is itself a
 * narrowing, so every `xcvt` here also sets DOWNCAST_TAKEN (errata Q-26).
 * REQ: CAP-149 */
#include "offload_test.h"
RVTEST_CODE_BEGIN
    OFF_TRAP_SETUP
    li s9, 0xF000
    OFF_JOB_REGS
    /* APPLY clears the stickies */
    TEST_CASE(2, a0, 0, li t0, 0x84080000; csrw PREC_MODE, t0; csrr a0, PREC_STAT; and a0, a0, s9)
    /* RT domain alone: DOWNCAST_TAKEN only */
    TEST_CASE(3, s5, 1, xsubmit_rt(s5, s0))
    TEST_CASE(4, a0, 0x4000, xfence_wait(s5); csrr a0, PREC_STAT; and a0, a0, s9)
    TEST_CASE(5, a0, 0x4200, lw a0, 8(s4))
    /* CPU domain: FTZ_HIT added, DOWNCAST_TAKEN kept */
    TEST_CASE(6, a0, 0, li a1, 0x35800000; xcvt(a0, a1, 0x01))
    TEST_CASE(7, a0, 0x5000, csrr a0, PREC_STAT; and a0, a0, s9)
    /* RT again: both stay, nothing else set */
    li t0, 2; sw t0, Q_TAIL(s1)
    TEST_CASE(8, s5, 2, xsubmit_rt(s5, s0))
    TEST_CASE(9, a0, 0x5000, xfence_wait(s5); csrr a0, PREC_STAT; and a0, a0, s9)
    TEST_CASE(10, a0, 0x4200, lw a0, 24 + 8(s4))
    /* A new APPLY (SAT, no FTZ) clears them; CPU first this time: SAT_HIT and
     * DOWNCAST_TAKEN, no FTZ_HIT */
    TEST_CASE(11, a0, 0, li t0, 0xC0080000; csrw PREC_MODE, t0; csrr a0, PREC_STAT; and a0, a0, s9)
    TEST_CASE(12, a0, 0x7BFF, li a1, 0x49800000; xcvt(a0, a1, 0x01))
    TEST_CASE(13, a0, 0x6000, csrr a0, PREC_STAT; and a0, a0, s9)
    /* then RT: the CPU's SAT_HIT stays, no FTZ_HIT */
    li t0, 3; sw t0, Q_TAIL(s1)
    TEST_CASE(14, s5, 3, xsubmit_rt(s5, s0))
    TEST_CASE(15, a0, 0x6000, xfence_wait(s5); csrr a0, PREC_STAT; and a0, a0, s9)
    TEST_CASE(16, a0, 0x4200, lw a0, 48 + 8(s4))
    TEST_CASE(17, s10, -1, nop)
    TEST_PASSFAIL
    OFF_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    SCENE_BVH(tris)
    SCENE_TRIS16(tris)
    OFF_DESC(desc, bvh, rayq, hitq, missq, 0)
    OFF_QUEUE(rayq, 0, 1, 8, rays)
    OFF_QUEUE(hitq, 0, 0, 8, hits)
    OFF_QUEUE(missq, 0, 0, 8, misses)
rays:
    RAY16_B
    RAY16_B
    RAY16_B
    .space 16 * 5
    OFF_RESULTS(hits, misses)
RVTEST_DATA_END
