/* rt.tri on the simulator (errata Q-61, Q-62, Q-63, Q-68, Q-69, Q-72..Q-74), default
 * profile, FP32 (CAP.PREC.MODE PET FP32) unless noted.
 *
 * tris (FMT_TRIANGLE, stride 36) and the ray org (0.25, 0.125, 0) dir (0, 0, 1):
 *   tri 0: z = 1, front-facing; outside the TriRange (first = 1), never tested
 *   tri 1: v0 (0,0,2) v1 (1,0,2) v2 (0,1,2): normal (v1-v0)x(v2-v0) = (0,0,1) points
 *          along the ray: clockwise seen from the origin (back face); hit at t = 2,
 *          (0.25, 0.125) = u v1 + v v2 -> u = 0.25, v = 0.125
 *   tri 2: v0 (0,0,3) v1 (0,1,3) v2 (1,0,3): normal (0,0,-1): front face; t = 3,
 *          u = y = 0.125, v = x = 0.25
 *   tri 3: = tri 2 (same t: the tie goes to the lower index, 2)
 * binary32: 0.125 0x3E000000, 0.25 0x3E800000, 2 0x40000000, 3 0x40400000.
 * rd = HIT (63) | PRIM (62:32) | T (31:0); RTUV = U (31:0) | V (63:32).
 * REQ: RT-036 RT-058 RT-059 RT-060 RT-062 RT-064 RT-065 RT-106 RT-014 RT-040 RT-041
 * REQ: RT-069 RT-086 RT-090 */
#include "rt_test.h"
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    li t0, PREC_FP32
    csrw 0x7D0, t0
    la a0, ray
    /* RT 11.2 as rewritten by errata Q-73: TriRange in rttri, CULL_BACK */
    la a2, trr
    csrw 0x81B, a2
    rt_tri(a1, a0, 0x1)
    li TESTNUM, 2
    bgez a1, fail /* HIT is bit 63 */
    TEST_CASE(3, a1, 0x8000000240400000, nop)
    TEST_CASE(4, a3, 0x3E8000003E000000, csrr a3, RTUV)
    /* no culling: tri 1 at t 2 */
    TEST_CASE(5, a1, 0x8000000140000000, rt_tri(a1, a0, 0))
    TEST_CASE(6, a3, 0x3E0000003E800000, csrr a3, RTUV)
    /* tmax 1.75 (ray_short): a miss, rd 0, RTUV keeps the last hit */
    la a4, ray_short
    TEST_CASE(7, a1, 0, rt_tri(a1, a4, 0))
    TEST_CASE(8, a3, 0x3E0000003E800000, csrr a3, RTUV)
    /* EPS_CTL with RTCONF2.EPS_SCALE = 1: t up to 1.75 + 2^-1 -> tri 1 */
    li t0, 1
    csrw RTCONF2, t0
    TEST_CASE(9, a1, 0x8000000140000000, rt_tri(a1, a4, F_EPS))
    /* the default RTCFG.EPS_DFLT = 0 applies without EPS_CTL */
    TEST_CASE(10, a1, 0, rt_tri(a1, a4, 0))
    /* PRED_ONLY + CULL_BACK + PB_OUT 1: rd kept, RTUV of tri 2, bank 1 lane 0 set */
    li t0, 0x10
    csrw PMASK1, t0
    TEST_CASE(11, a1, 0x66, li a1, 0x66; rt_tri(a1, a0, F_PRED | F_CULL | PB_OUT(1)))
    TEST_CASE(12, a3, 0x11, csrr a3, PMASK1)
    TEST_CASE(13, a3, 0x3E8000003E000000, csrr a3, RTUV)
    /* PB_IN = bank 2 (lane 0 = 0), ZMODE 0: rd kept; nothing read (ray unmapped) */
    li a4, UNMAPPED
    TEST_CASE(14, a1, 0x66, li s10, -1; rt_tri(a1, a4, PB_IN(2)))
    TEST_CASE(15, s10, -1, nop)
    /* FP16 (PET FP16): tri16 index 1 = tri 2 at t 3 (0x4200), u 0.125 (0x3000), v 0.25
     * (0x3400); index 0 is the same triangle at z = 6 (0x4600) */
    li t0, PREC_FP16
    csrw 0x7D0, t0
    la t0, trr16
    csrw RTTRI, t0
    la a4, ray16
    TEST_CASE(16, a1, 0x8000000100004200, rt_tri(a1, a4, 0))
    TEST_CASE(17, a3, 0x0000340000003000, csrr a3, RTUV)
    TEST_CASE(18, a3, STAT_DOWNCAST, csrr a3, 0x7D2; li t0, STAT_DOWNCAST; and a3, a3, t0)
    /* INT8 effective PET: FP32 records and results, UNSUP_FMT set (Q-69) */
    li t0, PREC_INT8
    csrw 0x7D0, t0
    csrw RTTRI, a2
    TEST_CASE(33, a3, 0, csrr a3, 0x7D2; li t0, STAT_UNSUP; and a3, a3, t0)
    TEST_CASE(19, a1, 0x8000000140000000, rt_tri(a1, a0, 0))
    TEST_CASE(20, a3, STAT_UNSUP, csrr a3, 0x7D2; li t0, STAT_UNSUP; and a3, a3, t0)
    li t0, PREC_FP32
    csrw 0x7D0, t0
    /* U mode: rt.tri and the RT CSRs are unprivileged (Q-01, Q-06) */
    la s9, 1f
    li t0, 0x1800
    csrc mstatus, t0
    la t0, 2f
    csrw mepc, t0
    mret
2:  csrw RTTRI, a2
    rt_tri(a5, a0, 0)
    csrr a6, RTUV
    ecall
1:  TEST_CASE(21, a5, 0x8000000140000000, nop)
    TEST_CASE(22, a6, 0x3E0000003E800000, nop)
    /* faults: a triangle buffer base that is only 2-byte aligned -> cause 4 at the first
     * triangle of the range, base + 36 */
    la t0, trr_bad
    csrw RTTRI, t0
    li a1, 0x55
    CAP_EXPECT_TRAP(23, 4, rt_tri(a1, a0, 0))
    TEST_CASE(24, s11, 38, la t0, tris; sub s11, s11, t0)
    TEST_CASE(25, a1, 0x55, nop)
    /* a TriRange whose base is unmapped: cause 5 at base + 36 */
    la t0, trr_unmapped
    csrw RTTRI, t0
    CAP_EXPECT_TRAP(26, 5, rt_tri(a1, a0, 0))
    TEST_CASE(27, s11, UNMAPPED + 36, nop)
    /* rttri keeps bits 3:0 zero */
    TEST_CASE(28, a3, 0, addi t1, a2, 0xF; csrw RTTRI, t1; csrr a3, RTTRI; sub a3, a3, a2)
    /* illegal: flag bits 10 and 11 -> cause 2, LAST_EC 1 */
    CAP_EXPECT_TRAP(29, 2, rt_tri(a1, a0, 0x400))
    CAP_EXPECT_TRAP(30, 2, rt_tri(a1, a0, -2048))
    TEST_CASE(31, a3, 0x6, csrr a3, RTSTAT; andi a3, a3, 0xFF)
    /* TRI_ISSUED (63:36): checks 2, 5, 7, 9, 10, 11, 14, 16, 19, 21 = 10 retired */
    TEST_CASE(32, a3, 10, csrr a3, RTSTAT; srli a3, a3, 36)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 4
trr: /* first 1, count 3, base tris */
    .word 1, 3
    .dword tris
trr16:
    .word 0, 2
    .dword tri16
trr_bad:
    .word 1, 3
    .dword tris + 2
trr_unmapped:
    .word 1, 1
    .dword UNMAPPED
    .align 2
ray: /* org (0.25, 0.125, 0) dir (0, 0, 1) [0, 100] */
    .word 0x3E800000, 0x3E000000, 0, 0, 0, 0x3F800000, 0, 0x42C80000
ray_short: /* tmax 1.75 = 0x3FE00000 */
    .word 0x3E800000, 0x3E000000, 0, 0, 0, 0x3F800000, 0, 0x3FE00000
tris:
    .word 0, 0, 0x3F800000, 0, 0x3F800000, 0x3F800000, 0x3F800000, 0, 0x3F800000
    .word 0, 0, 0x40000000, 0x3F800000, 0, 0x40000000, 0, 0x3F800000, 0x40000000
    .word 0, 0, 0x40400000, 0, 0x3F800000, 0x40400000, 0x3F800000, 0, 0x40400000
    .word 0, 0, 0x40400000, 0, 0x3F800000, 0x40400000, 0x3F800000, 0, 0x40400000
ray16: /* org (0.25, 0.125, 0) dir (0, 0, 1) [0, 100]: 0x3400 0x3000 0 0 0 0x3C00 0 0x5640 */
    .hword 0x3400, 0x3000, 0, 0, 0, 0x3C00, 0, 0x5640
tri16:
    .hword 0, 0, 0x4600, 0, 0x3C00, 0x4600, 0x3C00, 0, 0x4600
    .hword 0, 0, 0x4200, 0, 0x3C00, 0x4200, 0x3C00, 0, 0x4200
RVTEST_DATA_END
