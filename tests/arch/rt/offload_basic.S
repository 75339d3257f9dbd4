/* The RT offload path on the simulator (errata Q-53, Q-80, Q-81; docs/rt.md "Offload"):
 * xsubmit.rt returns tickets 1, 2, 3, ... shared with xfence.signal; the job runs only
 * when the hart waits (xfence.wait, xfence.pipe rt/all, a full job queue), so the queues
 * read before the wait still hold their old contents; after xfence.wait the hit/miss
 * entries, TAILs and the ray HEAD are visible. Expected hits by hand (scene in
 * offload_test.h, FP32 records after APPLY of PET = FP32): ray (1,2,0) along +z hits B at
 * t 3 with u = 2/4, v = 1/4 (A at t 5 is farther); ray (10,10,0) misses; ray (1,2,4)
 * hits A at t 1 with u = 1/4, v = 2/4 (B is behind). Binary32: 3.0 0x40400000, 1.0
 * 0x3F800000, 0.5 0x3F000000, 0.25 0x3E800000. Also: queue pointers 0 take RTQ_*,
 * the 9th outstanding job completes the oldest (Q-80 stall), xfence.wait of a ticket
 * never issued and reserved xfence.pipe selectors are illegal (Q-53, P-70), descriptor
 * faults trap precisely at xsubmit.rt (cause 4/5, mtval), reserved opts bits fault the
 * job at completion (LAST_EC 3, no trap).
 * REQ: RT-117 RT-118 RT-119 RT-122 RT-123 RT-124 RT-018 RT-043 */
#include "offload_test.h"
RVTEST_CODE_BEGIN
    OFF_TRAP_SETUP
    /* PET = FP32 (MODE 23:21 = 1), EW 32 (20:19 = 2), APPLY0 (bit 31); EFF_PET 31:28 */
    TEST_CASE(2, a0, 0x10000000, li t0, 0x80300000; csrw PREC_MODE, t0; csrr a0, PREC_STAT; li t1, 0xF0000000; and a0, a0, t1)
    OFF_JOB_REGS
    /* submit: ticket 1, the unit is busy, nothing has run yet (old contents) */
    TEST_CASE(3, s5, 1, xsubmit_rt(s5, s0))
    TEST_CASE(4, a0, 1, csrr a0, RTSTAT; andi a0, a0, 1)
    TEST_CASE(5, a0, 0, lw a0, Q_TAIL(s2))
    TEST_CASE(6, a0, 0, lw a0, Q_HEAD(s1))
    TEST_CASE(7, a0, 0, lw a0, 0(s4))
    /* wait: everything visible */
    TEST_CASE(8, a0, 2, xfence_wait(s5); lw a0, Q_TAIL(s2))
    TEST_CASE(9, a0, 1, lw a0, Q_TAIL(s3))
    TEST_CASE(10, a0, 3, lw a0, Q_HEAD(s1))
    TEST_CASE(11, a0, 0, lw a0, 0(s4))
    TEST_CASE(12, a0, 1, lw a0, 4(s4))
    TEST_CASE(13, a0, 0x40400000, lw a0, 8(s4))
    TEST_CASE(14, a0, 0x3F000000, lw a0, 12(s4))
    TEST_CASE(15, a0, 0x3E800000, lw a0, 16(s4))
    TEST_CASE(16, a0, 2, lw a0, 24(s4))
    TEST_CASE(17, a0, 0, lw a0, 28(s4))
    TEST_CASE(18, a0, 0x3F800000, lw a0, 32(s4))
    TEST_CASE(19, a0, 0x3E800000, lw a0, 36(s4))
    TEST_CASE(20, a0, 0x3F000000, lw a0, 40(s4))
    TEST_CASE(21, a0, 1, la t0, misses; lw a0, 0(t0))
    TEST_CASE(22, a0, 0, csrr a0, RTSTAT)
    TEST_CASE(23, a0, 0, csrr a0, PREC_EXC_ST)
    TEST_CASE(24, s10, -1, nop)
    /* tickets: signal 2, submit 3; waiting on 2 leaves job 3 queued; pipe rt runs it */
    TEST_CASE(25, s6, 2, xfence_signal(s6))
    TEST_CASE(26, s7, 3, xsubmit_rt(s7, s0))
    TEST_CASE(27, a0, 1, xfence_wait(s6); csrr a0, RTSTAT; andi a0, a0, 1)
    TEST_CASE(28, a0, 0, xfence_pipe(2); csrr a0, RTSTAT; andi a0, a0, 1)
    OFF_EXPECT_TRAP(29, 2, li t0, 99; xfence_wait(t0))
    OFF_EXPECT_TRAP(30, 2, li t0, 4; xfence_wait(t0))
    TEST_CASE(31, s10, -1, li s10, -1; xfence_wait(x0); xfence_wait(s7); xfence_pipe(0x1F); xfence_pipe(1); xfence_pipe(6))
    OFF_EXPECT_TRAP(32, 2, xfence_pipe(0))
    OFF_EXPECT_TRAP(33, 2, xfence_pipe(7))
    OFF_EXPECT_TRAP(34, 2, xfence_pipe(0x22))
    /* queue pointers 0 in the descriptor take RTQ_RAY/HIT/MISS: one more ray (slot 3 =
     * a copy of ray 0) through desc0 */
    csrw RTQ_RAY, s1
    csrw RTQ_HIT, s2
    csrw RTQ_MISS, s3
    la t0, rays
    ld t1, 0(t0); sd t1, 96(t0)
    ld t1, 8(t0); sd t1, 104(t0)
    ld t1, 16(t0); sd t1, 112(t0)
    ld t1, 24(t0); sd t1, 120(t0)
    li t1, 4; sw t1, Q_TAIL(s1)
    la s8, desc0
    TEST_CASE(35, s5, 4, xsubmit_rt(s5, s8))
    TEST_CASE(36, a0, 3, xfence_wait(s5); lw a0, Q_TAIL(s2))
    TEST_CASE(37, a0, 3, lw a0, 48(s4))
    TEST_CASE(38, a0, 0x40400000, lw a0, 56(s4))
    /* the stall: one more ray, then 8 outstanding jobs (tickets 5-12) run nothing; the
     * 9th submission completes the oldest (ticket 5), which takes the ray */
    la t0, rays
    ld t1, 0(t0); sd t1, 128(t0)
    ld t1, 8(t0); sd t1, 136(t0)
    ld t1, 16(t0); sd t1, 144(t0)
    ld t1, 24(t0); sd t1, 152(t0)
    li t1, 5; sw t1, Q_TAIL(s1)
    xsubmit_rt(s5, s0)
    xsubmit_rt(t0, s0)
    xsubmit_rt(t0, s0)
    xsubmit_rt(t0, s0)
    xsubmit_rt(t0, s0)
    xsubmit_rt(t0, s0)
    xsubmit_rt(t0, s0)
    TEST_CASE(39, t0, 12, xsubmit_rt(t0, s0))
    TEST_CASE(40, a0, 3, lw a0, Q_TAIL(s2))
    TEST_CASE(41, t0, 13, xsubmit_rt(t0, s0))
    TEST_CASE(42, a0, 4, lw a0, Q_TAIL(s2))
    TEST_CASE(43, a0, 1, csrr a0, RTSTAT; andi a0, a0, 1)
    TEST_CASE(44, a0, 0, xfence_wait(x0); csrr a0, RTSTAT)
    /* descriptor faults trap at xsubmit.rt, rd unchanged, no ticket used */
    li s5, 0x55
    OFF_EXPECT_TRAP(45, 4, addi t0, s0, 4; xsubmit_rt(s5, t0))
    TEST_CASE(46, s11, 0, sub s11, s11, s0; addi s11, s11, -4)
    OFF_EXPECT_TRAP(47, 5, li t0, 0x1000; xsubmit_rt(s5, t0))
    TEST_CASE(48, s11, 0x1000, nop)
    TEST_CASE(49, s5, 0x55, nop)
    /* reserved opts bit 1: accepted (ticket 14), the job faults when it runs */
    la s8, descbad
    li s10, -1
    TEST_CASE(50, s5, 14, xsubmit_rt(s5, s8))
    TEST_CASE(51, a0, 1, csrr a0, RTSTAT)
    TEST_CASE(52, a0, RTSTAT_JOB_FAULT, xfence_wait(s5); csrr a0, RTSTAT)
    TEST_CASE(53, s10, -1, nop)
    TEST_PASSFAIL
    OFF_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    SCENE_BVH(tris)
    SCENE_TRIS32(tris)
    OFF_DESC(desc, bvh, rayq, hitq, missq, 0)
    OFF_DESC(desc0, bvh, 0, 0, 0, 0)
    OFF_DESC(descbad, bvh, rayq, hitq, missq, 2)
    OFF_QUEUE(rayq, 0, 3, 8, rays)
    OFF_QUEUE(hitq, 0, 0, 8, hits)
    OFF_QUEUE(missq, 0, 0, 8, misses)
rays:
    .float 1, 2, 0, 0, 0, 1, 0, 100
    .float 10, 10, 0, 0, 0, 1, 0, 100
    .float 1, 2, 4, 0, 0, 1, 0, 100
    .space 32 * 5
    OFF_RESULTS(hits, misses)
RVTEST_DATA_END
