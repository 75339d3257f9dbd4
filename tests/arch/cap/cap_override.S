/* The per-instruction SAE override of `xcvt` (errata P-180), default profile: FMTSEL
 * bits 9:8 = OSAE, 00 none (EFF_SAE of the snapshot), 01 reserved (illegal), 10 = SAE 0
 * for this instruction (an enabled exception traps even with MODE.SAE_DEF or MODE.SAE
 * set), 11 = SAE 1 for this instruction (no trap, stickies still set); bits 11:10 stay
 * reserved (illegal). One-shot: MODE and ALT (staged and applied), STAT (EFF_SAE mirror
 * bit 10, IE_MASK 4:0) and EXC.EN are the same afterwards, only stickies accrue.
 * Trap rule (errata Q-28): cause 24, mtval = raised-and-enabled flags (NV 4 .. NX 0),
 * rd unwritten. 1e10 (0x501502F9) -> FP16 with SAT=0, RNE overflows to +inf 0x7C00 with
 * OF|NX (0x5); 1 + 2^-23 (0x3F800001) -> FP16 is inexact only (NX, 0x1). Every
 * FP32 -> FP16 conversion sets DOWNCAST_TAKEN (STAT bit 14, errata Q-76).
 * REQ: CAP-012 CAP-123 CAP-005 CAP-124 CAP-125 CAP-128 CAP-127 */
#include "cap_test.h"
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    /* EXC.EN = OF|NX, then MODE = APPLY0 | SAE_DEF (29) | EW 16 = 0xA0080000: IE_MASK =
     * EXC.EN & ~EFF_SAE = 0; STAT = EW 16 0x04000000 | SAE mirror 0x400 = 0x04000400.
     * ALT staged (no APPLY1) = FP8_E5M2 code 3<<26 = 0x0C000000, applied ALT = 0. */
    li t0, 0x5
    csrw CAP_PREC_EXC_EN, t0
    li t0, 0xA0080000
    csrw CAP_PREC_MODE, t0
    li t0, 0x0C000000
    csrw CAP_PREC_ALT, t0
    TEST_CASE(2, a0, 0x04000400, csrr a0, CAP_PREC_STAT)
    /* plain xcvt: EFF_SAE = 1, no trap, +inf, stickies OF|NX */
    TEST_CASE(3, a0, 0x7C00, li s10, -1; li a1, 0x501502F9; xcvt(a0, a1, 0x01))
    TEST_CASE(4, s10, -1, nop)
    TEST_CASE(5, a0, 0x5, csrr a0, CAP_PREC_EXC_ST)
    /* OSAE = 10 (0x200): SAE 0 for this one: cause 24, mtval OF|NX, rd kept, stickies */
    CAP_EXPECT_TRAP(6, 24, li t0, 0x7F; csrw CAP_PREC_EXC_ST, t0; li a2, 0x55; xcvt(a2, a1, 0x201))
    TEST_CASE(7, s11, 0x5, nop)
    TEST_CASE(8, a2, 0x55, nop)
    TEST_CASE(9, a0, 0x5, csrr a0, CAP_PREC_EXC_ST)
    /* one-shot: MODE (staged = written minus APPLY0), ALT, STAT (+ DOWNCAST 0x4000 from
     * the conversions: 0x04004400), EXC.EN unchanged */
    TEST_CASE(10, a0, 0x20080000, csrr a0, CAP_PREC_MODE)
    TEST_CASE(11, a0, 0x0C000000, csrr a0, CAP_PREC_ALT)
    TEST_CASE(12, a0, 0x04004400, csrr a0, CAP_PREC_STAT)
    TEST_CASE(13, a0, 0x5, csrr a0, CAP_PREC_EXC_EN)
    /* the next plain xcvt again runs under SAE_DEF = 1: no trap */
    TEST_CASE(14, s10, -1, li s10, -1; xcvt(a0, a1, 0x01))
    TEST_CASE(15, a0, 0x7C00, nop)
    /* only the raised enabled flags trap and appear in mtval: NX alone -> 0x1 */
    CAP_EXPECT_TRAP(16, 24, li a1, 0x3F800001; xcvt(a2, a1, 0x201))
    TEST_CASE(17, s11, 0x1, nop)
    /* OSAE = 10 with nothing enabled: no trap (the override is SAE, not an enable) */
    TEST_CASE(18, s10, -1, csrw CAP_PREC_EXC_EN, x0; li s10, -1; li a1, 0x501502F9; xcvt(a0, a1, 0x201))
    TEST_CASE(19, a0, 0x7C00, nop)
    /* MODE.SAE (bit 2) instead of SAE_DEF: APPLY0 | EW 16 | SAE = 0x80080004; OSAE = 10
     * traps as well, MODE keeps SAE */
    li t0, 0x5
    csrw CAP_PREC_EXC_EN, t0
    li t0, 0x80080004
    csrw CAP_PREC_MODE, t0
    CAP_EXPECT_TRAP(20, 24, xcvt(a2, a1, 0x201))
    TEST_CASE(21, s11, 0x5, nop)
    TEST_CASE(22, a0, 0x00080004, csrr a0, CAP_PREC_MODE)
    TEST_CASE(23, a0, 0x04004400, csrr a0, CAP_PREC_STAT) /* SAE mirror, IE_MASK 0, DOWNCAST */

    /* SAE_DEF = 0: MODE = APPLY0 | EW 16 = 0x80080000, IE_MASK = 0x5: STAT 0x04000005 */
    TEST_CASE(24, a0, 0x04000005, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    CAP_EXPECT_TRAP(25, 24, xcvt(a2, a1, 0x01))
    TEST_CASE(26, s11, 0x5, nop)
    /* OSAE = 11 (0x300): no trap, +inf, stickies OF|NX still set */
    TEST_CASE(27, a0, 0x7C00, li t0, 0x7F; csrw CAP_PREC_EXC_ST, t0; li s10, -1; xcvt(a0, a1, 0x301))
    TEST_CASE(28, s10, -1, nop)
    TEST_CASE(29, a0, 0x5, csrr a0, CAP_PREC_EXC_ST)
    /* one-shot: MODE 0x80000 (SAE_DEF 0), ALT, STAT (EFF_SAE 0, IE_MASK 0x5, DOWNCAST
     * 0x4000: 0x04004005), EXC.EN unchanged */
    TEST_CASE(30, a0, 0x00080000, csrr a0, CAP_PREC_MODE)
    TEST_CASE(31, a0, 0x0C000000, csrr a0, CAP_PREC_ALT)
    TEST_CASE(32, a0, 0x04004005, csrr a0, CAP_PREC_STAT)
    TEST_CASE(33, a0, 0x5, csrr a0, CAP_PREC_EXC_EN)
    /* the next plain xcvt traps again; OSAE = 10 with SAE already 0 traps the same way */
    CAP_EXPECT_TRAP(34, 24, li a2, 0x55; xcvt(a2, a1, 0x01))
    TEST_CASE(35, a2, 0x55, nop)
    CAP_EXPECT_TRAP(36, 24, xcvt(a2, a1, 0x201))
    TEST_CASE(37, s11, 0x5, nop)
    /* OSAE = 11 with NV enabled: the signalling NaN 0x7FA00000 -> FP16 (NAN_POL
     * propagate: quieted, payload kept -> 0x7F00) raises NV|SNAN_SEEN (0x50), no trap;
     * without the override it traps with mtval NV (0x10) */
    li t0, 0x10
    csrw CAP_PREC_EXC_EN, t0
    TEST_CASE(38, a0, 0x7F00, li t0, 0x7F; csrw CAP_PREC_EXC_ST, t0; li s10, -1; li a1, 0x7FA00000; xcvt(a0, a1, 0x301))
    TEST_CASE(39, a0, 0x50, li t0, -1; bne s10, t0, fail; csrr a0, CAP_PREC_EXC_ST)
    CAP_EXPECT_TRAP(40, 24, xcvt(a2, a1, 0x01))
    TEST_CASE(41, s11, 0x10, nop)

    /* illegal FMTSEL (cause 2, rd unwritten, no flags): OSAE = 01 (0x101), bit 10
     * (0x401), bit 11 (0x801 = -2047), bit 10 with OSAE = 10 (0x601), bits 11:8 all set
     * (0xF01 = -255) */
    li t0, 0x7F
    csrw CAP_PREC_EXC_ST, t0
    CAP_EXPECT_TRAP(42, 2, li a2, 0x55; xcvt(a2, a1, 0x101))
    CAP_EXPECT_TRAP(43, 2, xcvt(a2, a1, 0x401))
    CAP_EXPECT_TRAP(44, 2, xcvt(a2, a1, -2047))
    CAP_EXPECT_TRAP(45, 2, xcvt(a2, a1, 0x601))
    CAP_EXPECT_TRAP(46, 2, xcvt(a2, a1, -255))
    TEST_CASE(47, a2, 0x55, nop)
    TEST_CASE(48, a0, 0, csrr a0, CAP_PREC_EXC_ST)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
