/* `xcvt` (project extension, errata Q-83) on the simulator: every policy field of EFF
 * reaches the numeric engine, stickies accrue into STAT/EXC.ST, enabled exceptions trap
 * precisely with cause 24 and mtval = the raised enabled flags (errata Q-28), SAE
 * suppresses, bad FMTSEL is illegal, fflags is untouched (Q-05). Results are
 * hand-computed from the format definitions (FP16 binary16, E4M3/E5M2 OCP OFP8).
 * REQ: CAP-085 CAP-086 CAP-087 CAP-092 CAP-093 CAP-094 CAP-112 CAP-121 CAP-124
 * REQ: CAP-125 CAP-127 CAP-128 CAP-006 CAP-004 CAP-003 CAP-147 CAP-080 CAP-001 CAP-103 */
#include "cap_test.h"
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    li a1, 0x3F800000 /* 1.0 */
    TEST_CASE(2, a0, 0x3C00, xcvt(a0, a1, 0x01))
    TEST_CASE(3, a0, 0x3F80, xcvt(a0, a1, 0x21))
    TEST_CASE(4, a0, 0x38, xcvt(a0, a1, 0x81))
    TEST_CASE(5, a0, 0x3C, xcvt(a0, a1, 0x91))
    TEST_CASE(6, a0, -3, li a1, 0xC0400000; xcvt(a0, a1, 0x31))
    TEST_CASE(7, a0, 0xC0400000, li a1, -3; xcvt(a0, a1, 0x13))
    TEST_CASE(8, a0, 0xC0000000, li a1, 0xC000; xcvt(a0, a1, 0x10))
    /* 15 = the effective PET: FP16 at reset, E4M3 after ALT FP8_E4M3 is applied */
    TEST_CASE(9, a0, 0x3C00, li a1, 0x3F800000; xcvt(a0, a1, 0xF1))
    TEST_CASE(10, a0, 0x38, li t1, 0xC8000000; csrw CAP_PREC_ALT, t1; xcvt(a0, a1, 0xF1))
    TEST_CASE(11, a0, 0x3F800000, xcvt(a0, a0, 0x1F); li t1, 0x80000000; csrw CAP_PREC_ALT, t1)
    /* quantization: Q, ZP_EN per tensor, ZP 3, SCALE_SH -2: 1.5 -> 1.5*4 + 3 = 9; back:
     * (9 - 3) / 4 = 1.5 */
    TEST_CASE(12, a0, 9, li t0, 0xFC800840E0; csrw CAP_PREC_MODE, t0; li a1, 0x3FC00000; xcvt(a0, a1, 0x31))
    TEST_CASE(13, a0, 0x3FC00000, xcvt(a0, a0, 0x13))
    /* SAT=1, UNS: 300.0 -> 255 (zero-extended), -5.0 -> 0 */
    TEST_CASE(14, a0, 255, li t0, 0xC0080010; csrw CAP_PREC_MODE, t0; li a1, 0x43960000; xcvt(a0, a1, 0x31))
    TEST_CASE(15, a0, 0, li a1, 0xC0A00000; xcvt(a0, a1, 0x31))
    /* SAT_MODE symmetric: -300.0 -> -127 */
    TEST_CASE(16, a0, -127, li t0, 0xC0090000; csrw CAP_PREC_MODE, t0; li a1, 0xC3960000; xcvt(a0, a1, 0x31))
    /* SAT=0: RISC-V fcvt behaviour, NV: -300.0 -> -128 */
    TEST_CASE(17, a0, -128, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; li t0, 0x7F; csrw CAP_PREC_EXC_ST, t0; li a1, 0xC3960000; xcvt(a0, a1, 0x31))
    TEST_CASE(18, a0, 0x10, csrr a0, CAP_PREC_EXC_ST)
    /* DENORM_FTZ (bit 26, errata Q-20): the smallest FP32 subnormal -> FP16 +0, FTZ_HIT
     * (STAT 12) */
    TEST_CASE(19, a0, 0, li t0, 0x84080000; csrw CAP_PREC_MODE, t0; li a1, 1; xcvt(a0, a1, 0x01))
    TEST_CASE(20, a0, 0x1000, csrr a0, CAP_PREC_STAT; li t0, 0x1000; and a0, a0, t0)
    /* NaN policy on sNaN 0x7FA00000 -> FP16: propagate 0x7F00, canonical 0x7E00, squash 0;
     * NV|SNAN_SEEN (0x50) */
    TEST_CASE(21, a0, 0x7F00, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; li t0, 0x7F; csrw CAP_PREC_EXC_ST, t0; li a1, 0x7FA00000; xcvt(a0, a1, 0x01))
    TEST_CASE(22, a0, 0x50, csrr a0, CAP_PREC_EXC_ST)
    TEST_CASE(23, a0, 0x7E00, li t0, 0x80080001; csrw CAP_PREC_MODE, t0; xcvt(a0, a1, 0x01))
    TEST_CASE(24, a0, 0, li t0, 0x80080002; csrw CAP_PREC_MODE, t0; xcvt(a0, a1, 0x01))
    TEST_CASE(25, a0, 0x20, li t0, 0x7F; csrw CAP_PREC_EXC_ST, t0; li a1, 0x7FC00000; xcvt(a0, a1, 0x01); csrr a0, CAP_PREC_EXC_ST)
    /* rounding: 1 + 2^-11 is half an FP16 ulp: RNE 0x3C00, RUP 0x3C01; RDN on the
     * negative 0xBC01; RNE of 1 + 3*2^-11 goes to even 0x3C02 */
    TEST_CASE(26, a0, 0x3C00, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; li a1, 0x3F801000; xcvt(a0, a1, 0x01))
    TEST_CASE(27, a0, 0x3C01, li t0, 0x98080000; csrw CAP_PREC_MODE, t0; xcvt(a0, a1, 0x01))
    TEST_CASE(28, a0, 0x3C00, li t0, 0x88080000; csrw CAP_PREC_MODE, t0; xcvt(a0, a1, 0x01))
    TEST_CASE(29, a0, 0xBC01, li t0, 0x90080000; csrw CAP_PREC_MODE, t0; li a1, 0xBF801000; xcvt(a0, a1, 0x01))
    TEST_CASE(30, a0, 0x3C02, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; li a1, 0x3F803000; xcvt(a0, a1, 0x01))
    /* traps: all enabled, 1e10 -> FP16 overflows: cause 24, mtval OF|NX = 0x5, rd kept,
     * stickies set */
    li t0, 0x7F; csrw CAP_PREC_EXC_ST, t0
    li t0, 0x1F
    csrw CAP_PREC_EXC_EN, t0
    CAP_EXPECT_TRAP(31, 24, li a2, 0x55; li a1, 0x501502F9; xcvt(a2, a1, 0x01))
    TEST_CASE(32, s11, 0x5, nop)
    TEST_CASE(33, a2, 0x55, nop)
    TEST_CASE(34, a0, 0x5, csrr a0, CAP_PREC_EXC_ST)
    /* only the enabled flags trap and appear in mtval: EN = OF */
    li t0, 0x4
    csrw CAP_PREC_EXC_EN, t0
    CAP_EXPECT_TRAP(35, 24, xcvt(a2, a1, 0x01))
    TEST_CASE(36, s11, 0x4, nop)
    TEST_CASE(37, s10, -1, li s10, -1; li a1, 0x3F800001; xcvt(a2, a1, 0x01)) /* NX only */
    /* SAE_DEF=1 or SAE=1: no trap, IEEE result +inf */
    TEST_CASE(38, a2, 0x7C00, li t0, 0xA0080000; csrw CAP_PREC_MODE, t0; li a1, 0x501502F9; xcvt(a2, a1, 0x01); li t0, -1; bne s10, t0, fail)
    TEST_CASE(39, a2, 0x7C00, li t0, 0x80080004; csrw CAP_PREC_MODE, t0; li a2, 0; xcvt(a2, a1, 0x01); li t0, -1; bne s10, t0, fail)
    csrw CAP_PREC_EXC_EN, x0
    /* illegal FMTSEL: OSAE (bits 9:8) = 01 is reserved, bit 11 (0x801 = -2047), reserved
     * codes 6, 7 and 13 (BF16_LITE, 12, is legal since errata P-179) */
    CAP_EXPECT_TRAP(40, 2, xcvt(a0, a1, 0x110))
    CAP_EXPECT_TRAP(41, 2, xcvt(a0, a1, -2047))
    CAP_EXPECT_TRAP(42, 2, xcvt(a0, a1, 0x61))
    CAP_EXPECT_TRAP(43, 2, xcvt(a0, a1, 0x17))
    CAP_EXPECT_TRAP(44, 2, xcvt(a0, a1, 0xD1))
    /* XPHMG operations leave fflags alone (errata Q-05) */
    TEST_CASE(45, a0, 0, csrw fflags, x0; li a1, 0x3F800001; xcvt(a2, a1, 0x01); csrr a0, fflags)
    /* CAP, not fcsr, is the numeric authority for XPHMG operations: frm = RUP does not
     * change xcvt's rounding (RNE here), 1 + 2^-11 -> 0x3C00 */
    TEST_CASE(46, a0, 0x3C00, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; csrwi frm, 3; li a1, 0x3F801000; xcvt(a0, a1, 0x01); csrwi frm, 0)
    /* more format pairs (MODE back to reset: RNE, SAT=0, signed) */
    li t0, 0x80080000
    csrw CAP_PREC_MODE, t0
    TEST_CASE(47, a0, 0x3F800000, li a1, 0x3C; xcvt(a0, a1, 0x19))   /* E5M2 1.0 -> FP32 */
    TEST_CASE(48, a0, 0x43E00000, li a1, 0x7E; xcvt(a0, a1, 0x18))   /* E4M3 448 -> FP32 */
    TEST_CASE(49, a0, 0xBF800000, li a1, 0xF; xcvt(a0, a1, 0x1A))    /* INT4 -1 -> FP32 */
    TEST_CASE(50, a0, -2, li a1, 0x2; xcvt(a0, a1, 0x3B))            /* INT2 -2 -> INT8 */
    TEST_CASE(51, a0, 0x3C00, li a1, 0x3F80; xcvt(a0, a1, 0x02))     /* BF16 1.0 -> FP16 */
    TEST_CASE(52, a0, 0x7C00, li a1, 100000; xcvt(a0, a1, 0x05))     /* INT32 -> FP16: +inf */
    TEST_CASE(53, a0, 0x7F, li a1, 0x447A0000; xcvt(a0, a1, 0x81))   /* 1000 -> E4M3: NaN */
    TEST_CASE(54, a0, 0x5, li t0, 0x7F; csrw CAP_PREC_EXC_ST, t0; xcvt(a0, a1, 0x81); csrr a0, CAP_PREC_EXC_ST) /* OF|NX */
    TEST_CASE(55, a0, -2, li t0, 0x90080000; csrw CAP_PREC_MODE, t0; li a1, 0xBFC00000; xcvt(a0, a1, 0x41)) /* RDN -1.5 -> INT16 */
    TEST_CASE(56, a0, 0x41700000, li t0, 0x80080010; csrw CAP_PREC_MODE, t0; li a1, 0xF; xcvt(a0, a1, 0x1A)) /* UNS: UINT4 15 */
    /* BF16_LITE (unified code 12, errata P-179, CAP-103) converts exactly like BF16 (2).
     * RNE, SAT=0. FP32 -> BF16 keeps the upper 16 bits and rounds on the lower 16:
     * 0x3F808000: lower half 0x8000 is a tie, 0x3F80 is even -> 0x3F80 (NX);
     * 0x3F818000: tie, 0x3F81 is odd -> 0x3F82; 0x3F80C000: above the tie -> 0x3F81;
     * 0x7F7FFFFF (FLT_MAX): 0x7F7F + round up carries into the exponent -> +inf 0x7F80,
     * OF|NX = 0x5. */
    li s10, -1 /* no trap from here on (check 74) */
    li t0, 0x80080000
    csrw CAP_PREC_MODE, t0
    TEST_CASE(57, a0, 0x3F80, li t0, 0x7F; csrw CAP_PREC_EXC_ST, t0; li a1, 0x3F808000; xcvt(a0, a1, 0xC1))
    TEST_CASE(58, a0, 0x1, csrr a0, CAP_PREC_EXC_ST)
    TEST_CASE(59, a0, 0x3F80, xcvt(a0, a1, 0x21))
    TEST_CASE(60, a0, 0x3F82, li a1, 0x3F818000; xcvt(a0, a1, 0xC1))
    TEST_CASE(61, a0, 0x3F82, xcvt(a0, a1, 0x21))
    TEST_CASE(62, a0, 0x3F81, li a1, 0x3F80C000; xcvt(a0, a1, 0xC1))
    TEST_CASE(63, a0, 0x3F81, xcvt(a0, a1, 0x21))
    TEST_CASE(64, a0, 0x7F80, li t0, 0x7F; csrw CAP_PREC_EXC_ST, t0; li a1, 0x7F7FFFFF; xcvt(a0, a1, 0xC1))
    TEST_CASE(65, a0, 0x5, csrr a0, CAP_PREC_EXC_ST)
    TEST_CASE(66, a0, 0x7F80, xcvt(a0, a1, 0x21))
    /* rounding modes: -(1 + 3*2^-8) = 0xBF818000: RTZ truncates -> 0xBF81, RDN goes away
     * from zero -> 0xBF82 */
    TEST_CASE(67, a0, 0xBF81, li t0, 0x88080000; csrw CAP_PREC_MODE, t0; li a1, 0xBF818000; xcvt(a0, a1, 0xC1))
    TEST_CASE(68, a0, 0xBF81, xcvt(a0, a1, 0x21))
    TEST_CASE(69, a0, 0xBF82, li t0, 0x90080000; csrw CAP_PREC_MODE, t0; xcvt(a0, a1, 0xC1))
    TEST_CASE(70, a0, 0xBF82, xcvt(a0, a1, 0x21))
    /* BF16_LITE as source: 0x3F82 -> FP32 0x3F820000 (exact); FP16 1.0 0x3C00 -> 0x3F80;
     * FP32 -> BF16_LITE is a downcast: DOWNCAST_TAKEN (STAT bit 14) after a fresh APPLY */
    TEST_CASE(71, a0, 0x3F820000, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; li a1, 0x3F82; xcvt(a0, a1, 0x1C))
    TEST_CASE(72, a0, 0x3F80, li a1, 0x3C00; xcvt(a0, a1, 0xC0))
    TEST_CASE(73, a0, 0x4000, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; li a1, 0x3F800000; xcvt(a0, a1, 0xC1); csrr a0, CAP_PREC_STAT; li t0, 0x4000; and a0, a0, t0)
    /* Errata Q-15/Q-20: the 6.1 sequence as a sign-extended 32-bit value (lui gives
     * 0xFFFFFFFF80080000) applies EW 16 and nothing else: MODE reads 0x80000, STAT bits
     * 63:32 (EFF_DENORM_FTZ, EFF_SCALE_SH, ...) are 0, an FP16 subnormal (2^-24) is not
     * flushed (FP32 0x33800000) */
    TEST_CASE(74, a0, 0x80000, lui t0, 0x80080; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_MODE)
    TEST_CASE(75, a0, 0, csrr a0, CAP_PREC_STAT; srli a0, a0, 32)
    TEST_CASE(76, a0, 0x33800000, li a1, 1; xcvt(a0, a1, 0x10))
    /* Q=1 written sign-extended: SCALE_SH stays 0, so 1.5 -> INT8 is 2 (RNE), not 3 (the
     * -1 a sign extension would have put in 39:33); a zero-extended 64-bit value with
     * SCALE_SH = -1 (0x7F << 33) still sets it: 1.5 * 2 = 3 */
    TEST_CASE(77, a0, 2, li t0, 0x80080020; sext.w t0, t0; csrw CAP_PREC_MODE, t0; li a1, 0x3FC00000; xcvt(a0, a1, 0x31))
    TEST_CASE(78, a0, 3, li t0, 0xFE80080020; csrw CAP_PREC_MODE, t0; li a1, 0x3FC00000; xcvt(a0, a1, 0x31))
    TEST_CASE(79, s10, -1, nop)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
