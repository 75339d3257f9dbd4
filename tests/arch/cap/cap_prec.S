/* CAP.PREC programming on the simulator: staging and APPLY (errata Q-23), the section 6
 * sequences as rewritten by errata Q-14/Q-16 (6.1 0x80080000, 6.2 0xC9C00000, 6.3 STAT,
 * 6.4 EXC.EN 0x14), the ALT mapping, unsupported formats, IE_MASK latching, sticky
 * lifetimes (Q-26) and W1C (Q-84). STAT values are assembled by hand from the STAT
 * layout (EFF_PET 31:28, EFF_EW 27:26, EFF_ACCW 25:24, EFF_ALT_EN 23, EFF_SAT 22,
 * EFF_FP_RMODE 21:19, EFF_Q 18, EFF_PACK 17:16, UNSUP_FMT 15, DOWNCAST 14, SAT_HIT 13,
 * FTZ_HIT 12, ZMODE 11, SAE 10, NAN_POL 9:8, IE_MASK 4:0, EFF_MIXED 35).
 * REQ: CAP-043 CAP-045 CAP-084 CAP-098 CAP-116 CAP-119 CAP-078 CAP-104 CAP-105
 * REQ: CAP-101 CAP-108 CAP-109 CAP-113 CAP-114 CAP-117
 * REQ: CAP-120 CAP-126 CAP-081 CAP-042 CAP-079 CAP-080 CAP-122 CAP-159 CAP-160 CAP-161
 * REQ: CAP-083 CAP-097 CAP-089 CAP-090 CAP-095 CAP-156 CAP-148 CAP-011
 * REQ: CAP-103 CAP-118
 * REQ: CAP-157 (every APPLY is followed by forward progress: the program completes) */
#include "cap_test.h"
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    /* reset: MODE 0x80000 (PET FP16, EW 16, ACCW FP32, RNE), ALT 0, STAT EFF_EW=16 */
    TEST_CASE(2, a0, 0x80000, csrr a0, CAP_PREC_MODE)
    TEST_CASE(3, a0, 0x04000000, csrr a0, CAP_PREC_STAT)
    TEST_CASE(4, a0, 0, csrr a0, CAP_PREC_ALT; csrr a1, CAP_PREC_EXC_EN; or a0, a0, a1; csrr a1, CAP_PREC_EXC_ST; or a0, a0, a1)
    /* staging: PET=INT8 (3<<21), EW=8, RTZ (1<<27) written without APPLY0: MODE reads
     * the staged value, STAT does not change */
    TEST_CASE(5, a0, 0x08600000, li t0, 0x08600000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_MODE)
    TEST_CASE(6, a0, 0x04000000, csrr a0, CAP_PREC_STAT)
    /* APPLY0 by csrs after staging: EFF_PET 3, EW 00, RTZ (1<<19); APPLY0 reads 0 */
    TEST_CASE(7, a0, 0x30080000, li t0, 0x80000000; csrs CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    TEST_CASE(8, a0, 0x08600000, csrr a0, CAP_PREC_MODE)
    /* 6.1: FP16 compute, FP32 accumulation, RNE, merge, apply */
    TEST_CASE(9, a0, 0x04000000, li t0, 0x80080000; csrw 0x7D0, t0; csrr a0, CAP_PREC_STAT)
    /* 6.2: FP8 E4M3 via ALT, FP16 acc, MIXED, ALT_SAT: EFF_PET 8, EW 8, ACCW 1,
     * ALT_EN, SAT, MIXED (6.3 reads it back) */
    TEST_CASE(10, a0, 0x881C00000, li t1, 0xC9C00000; csrw 0x7D1, t1; csrr t2, 0x7D2; mv a0, t2)
    TEST_CASE(11, a0, 0x49C00000, csrr a0, CAP_PREC_ALT)
    /* ALT without APPLY1 is staged: STAT unchanged */
    TEST_CASE(12, a0, 0x881C00000, li t1, 0x4C000000; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_STAT)
    /* E5M2 (3): EFF_PET 9; INT4 (4): PET 10, PACK forced 1; INT2 (5): PET 11, PACK 2 */
    TEST_CASE(13, a0, 0x90800000, li t1, 0xCC000000; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_STAT)
    TEST_CASE(14, a0, 0xA0810000, li t1, 0xD0000000; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_STAT)
    TEST_CASE(15, a0, 0xB0820000, li t1, 0xD4000000; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_STAT)
    /* ALT inherits MODE: MODE ACCW INT32 (2<<24), SAT, RUP (3<<27); ALT E4M3 plain:
     * EFF ACCW 2, SAT 1, RMODE 3 (3<<19) */
    TEST_CASE(16, a0, 0x82D80000, li t0, 0xDA080000; csrw CAP_PREC_MODE, t0; li t1, 0xC8000000; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_STAT)
    /* unsupported ALT (reserved ALT_FMT 6: APPLY1 | ALT_EN | 6<<26 = 0xD8000000): EFF =
     * MODE, EFF_ALT_EN 0, UNSUP_FMT */
    TEST_CASE(17, a0, 0x06588000, li t1, 0xD8000000; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_STAT)
    /* ALT_EN=0: EFF = MODE, UNSUP_FMT cleared by that APPLY */
    TEST_CASE(18, a0, 0x06580000, li t1, 0x88000000; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_STAT)
    /* BF16_LITE (ALT_FMT 1) is supported now (errata P-179, CAP-103): APPLY1 | ALT_EN |
     * 1<<26 = 0xC4000000 gives EFF_PET BF16 (2<<28) and EFF_EW 16 (1<<26) with EFF_ALT_EN
     * (1<<23); ACCW INT32 (2<<24), SAT (1<<22), RUP (3<<19) still come from MODE; no
     * UNSUP_FMT: 0x20000000 + 0x04000000 + 0x02000000 + 0x00800000 + 0x00400000 +
     * 0x00180000 = 0x26D80000 */
    TEST_CASE(37, a0, 0x26D80000, li t1, 0xC4000000; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_STAT)
    TEST_CASE(38, a0, 0x44000000, csrr a0, CAP_PREC_ALT) /* staged = written minus APPLY1 */
    /* xcvt to the effective PET (15) now gives BF16: 1.0 -> 0x3F80 (exact under RUP);
     * then ALT_EN=0 again (the state of check 18) */
    TEST_CASE(39, a0, 0x3F80, li a1, 0x3F800000; xcvt(a0, a1, 0xF1); li t1, 0x88000000; csrw CAP_PREC_ALT, t1)
    TEST_CASE(40, a0, 0x06580000, csrr a0, CAP_PREC_STAT)
    /* unsupported PET (6): stored, EFF_PET kept, UNSUP_FMT */
    TEST_CASE(19, a0, 0x30008000, li t0, 0x80600000; csrw CAP_PREC_MODE, t0; li t0, 0x80C00000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    TEST_CASE(20, a0, 0x00C00000, csrr a0, CAP_PREC_MODE)
    /* mirrors: ZMODE (bit 3), NAN_POL=2 (1:0), SAE_DEF (29) -> STAT 11, 9:8, 10 */
    TEST_CASE(21, a0, 0x04000E00, li t0, 0xA008000A; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    /* 6.4: EXC.EN = OF|NV, no APPLY needed for the enables; IE_MASK latches at APPLY:
     * 0 while SAE_DEF=1, 0x14 after an APPLY with SAE_DEF=0 */
    TEST_CASE(22, a0, 0x14, li t3, ((1<<2) | (1<<4)); csrw 0x7D3, t3; csrr a0, 0x7D3)
    TEST_CASE(23, a0, 0x04000E00, csrr a0, CAP_PREC_STAT)
    TEST_CASE(24, a0, 0x04000014, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    TEST_CASE(25, a0, 0x04000014, li t1, 0x80000000; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_STAT)
    /* MODE.SAE (bit 2) also gates IE_MASK */
    TEST_CASE(26, a0, 0x04000400, li t0, 0x80080004; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    csrw CAP_PREC_EXC_EN, x0
    /* stickies: xcvt 300.0 FP32 -> INT8 under SAT=1 sets SAT_HIT|DOWNCAST (STAT) and
     * NX (EXC.ST); a staging write keeps them, any APPLY clears STAT's, not EXC.ST */
    TEST_CASE(27, a0, 0x04406000, li t0, 0xC0080000; csrw CAP_PREC_MODE, t0; li a1, 0x43960000; xcvt(a2, a1, 0x31); csrr a0, CAP_PREC_STAT)
    TEST_CASE(28, a0, 127, mv a0, a2)
    TEST_CASE(29, a0, 0x1, csrr a0, CAP_PREC_EXC_ST)
    TEST_CASE(30, a0, 0x04406000, li t0, 0x40000000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    TEST_CASE(31, a0, 0x04400000, li t0, 0xC0080000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    TEST_CASE(32, a0, 0x1, csrr a0, CAP_PREC_EXC_ST)
    /* W1C: zeros keep, ones clear; software cannot set */
    TEST_CASE(33, a0, 0x1, csrw CAP_PREC_EXC_ST, x0; csrr a0, CAP_PREC_EXC_ST)
    TEST_CASE(34, a0, 0, li t0, 1; csrw CAP_PREC_EXC_ST, t0; csrr a0, CAP_PREC_EXC_ST)
    TEST_CASE(35, a0, 0, li t0, 0x7F; csrs CAP_PREC_EXC_ST, t0; csrr a0, CAP_PREC_EXC_ST)
    /* no trap anywhere above */
    TEST_CASE(36, s10, -1, nop)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
