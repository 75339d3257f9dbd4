/* Flags and exceptions of offload jobs (errata Q-29, Q-79, Q-69, Q-76; CAP 5.1.4). PET =
 * FP16: 16-byte rays, 18-byte triangles, results binary16 zero-extended, DOWNCAST_TAKEN
 * (STAT bit 14) for every narrowing. Ray (1,2,0) along +z hits B at t 3 (0x4200), u 0.5
 * (0x3800), v 0.25 (0x3400), exact. A ray with dir.z = 2^-15 (binary16 0x0200) and tmax
 * +inf hits B at t = 3 * 2^15 = 98304 > 65504: +inf (0x7C00) with OF|NX (EXC.ST 0x5).
 * The job's flags reach STAT/EXC.ST only when the hart waits, accumulate with those of
 * `xcvt` (QNAN_SEEN 0x20 from converting a quiet NaN) in the same EXC.ST (CAP-149), and
 * the enables are honoured per domain: `xcvt` traps (cause 24, mtval = OF 0x4), the job
 * never traps but ends with RTSTAT.LAST_EC = 3 (Q-29) without writing that ray's hit.
 * The job uses EXC.EN as snapshotted at xsubmit.rt (Q-79), not at the wait.
 * REQ: CAP-149 RT-093 RT-094 RT-106 RT-072 */
#include "offload_test.h"
RVTEST_CODE_BEGIN
    OFF_TRAP_SETUP
    /* MODE: PET FP16, EW 16, APPLY0 (clears the STAT stickies); EFF_PET 31:28 = 0 */
    TEST_CASE(2, a0, 0, li t0, 0x80080000; csrw PREC_MODE, t0; csrr a0, PREC_STAT; li t1, 0xF000C000; and a0, a0, t1)
    OFF_JOB_REGS
    li s9, 0x4000 /* STAT.DOWNCAST_TAKEN */
    TEST_CASE(3, s5, 1, xsubmit_rt(s5, s0))
    TEST_CASE(4, a0, 0, csrr a0, PREC_STAT; and a0, a0, s9)
    TEST_CASE(5, a0, 0x4000, xfence_wait(s5); csrr a0, PREC_STAT; and a0, a0, s9)
    TEST_CASE(6, a0, 0, csrr a0, PREC_EXC_ST)
    TEST_CASE(7, a0, 0x4200, lw a0, 8(s4))
    TEST_CASE(8, a0, 0x3800, lw a0, 12(s4))
    TEST_CASE(9, a0, 0x3400, lw a0, 16(s4))
    /* xcvt then the overflowing job: both domains' flags in EXC.ST */
    TEST_CASE(10, a0, 0x20, li a1, 0x7FC00000; xcvt(a0, a1, 0x01); csrr a0, PREC_EXC_ST)
    la s0, desc2
    la s2, hitq2
    la s1, rayq2
    la s3, hits2
    TEST_CASE(11, a0, 0x20, xsubmit_rt(s5, s0); csrr a0, PREC_EXC_ST)
    TEST_CASE(12, a0, 0x25, xfence_wait(s5); csrr a0, PREC_EXC_ST)
    TEST_CASE(13, a0, 0x7C00, lw a0, 8(s3))
    TEST_CASE(14, a0, 0, csrr a0, RTSTAT)
    /* EXC.EN as snapshotted: OF enabled only after the submission -> the job completes */
    li s10, -1
    li t0, 0x7F; csrw PREC_EXC_ST, t0
    li t0, 2; sw t0, Q_TAIL(s1)
    xsubmit_rt(s5, s0)
    li t0, 4; csrw PREC_EXC_EN, t0
    TEST_CASE(15, a0, 2, xfence_wait(s5); lw a0, Q_TAIL(s2))
    TEST_CASE(16, a0, 0, csrr a0, RTSTAT)
    TEST_CASE(17, a0, 0x5, csrr a0, PREC_EXC_ST)
    TEST_CASE(18, s10, -1, nop)
    /* OF enabled at the submission (cleared before the wait): LAST_EC 3, no trap, the
     * ray's hit not appended, HEAD stays at that ray, the stickies still set */
    li t0, 0x7F; csrw PREC_EXC_ST, t0
    li t0, 3; sw t0, Q_TAIL(s1)
    xsubmit_rt(s5, s0)
    csrw PREC_EXC_EN, x0
    TEST_CASE(19, a0, RTSTAT_JOB_FAULT, xfence_wait(s5); csrr a0, RTSTAT)
    TEST_CASE(20, s10, -1, nop)
    TEST_CASE(21, a0, 2, lw a0, Q_TAIL(s2))
    TEST_CASE(22, a0, 2, lw a0, Q_HEAD(s1))
    TEST_CASE(23, a0, 0x5, csrr a0, PREC_EXC_ST)
    /* the same enable traps xcvt (cause 24, mtval = OF), rd kept */
    li t0, 4; csrw PREC_EXC_EN, t0
    li a2, 0x55
    OFF_EXPECT_TRAP(24, 24, li a1, 0x501502F9; xcvt(a2, a1, 0x01))
    TEST_CASE(25, s11, 0x4, nop)
    TEST_CASE(26, a2, 0x55, nop)
    TEST_PASSFAIL
    OFF_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    SCENE_BVH(tris)
    SCENE_TRIS16(tris)
    OFF_DESC(desc, bvh, rayq, hitq, missq, 0)
    OFF_DESC(desc2, bvh, rayq2, hitq2, missq, 0)
    OFF_QUEUE(rayq, 0, 1, 8, rays)
    OFF_QUEUE(hitq, 0, 0, 8, hits)
    OFF_QUEUE(missq, 0, 0, 8, misses)
    OFF_QUEUE(rayq2, 0, 1, 8, rays2)
    OFF_QUEUE(hitq2, 0, 0, 8, hits2)
rays:
    RAY16_B
rays2:
    .half 0x3C00, 0x4000, 0, 0, 0, 0x0200, 0, 0x7C00
    .half 0x3C00, 0x4000, 0, 0, 0, 0x0200, 0, 0x7C00
    .half 0x3C00, 0x4000, 0, 0, 0, 0x0200, 0, 0x7C00
    .space 16 * 5
    OFF_RESULTS(hits, misses)
hits2:
    .space 24 * 8
RVTEST_DATA_END
