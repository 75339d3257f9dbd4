/* Run with --profile profiles/minimal.yaml: the discovery CSRs come from the profile,
 * the policy resets are unchanged, unsupported formats are reported (UNSUP_FMT) or are
 * illegal in `xcvt`, and PMASK has the profile's 2 banks.
 * CAP.TIER.LDS = T0_KIB 4 << 16 (0x40000) | T0_SHARED 0 (bit 6) | T0_SCALAR_VISIBLE
 * 1 << 5 (0x20) | T0_IN_LDS 1 << 4 (0x10) | TIER_COUNT_M1 3 << 2 (0xC; four tiers T0..T3,
 * errata P-181) | LDS_TIER 0 = 0x0004003C (the design note's 0x0004007C would need
 * T0_SHARED = 1).
 * No quantized integers (CAP.PREC.INTQ = 0) and no ALT formats (ALT_SUP = 0): the absent
 * precision fields (MODE.Q 5, ZP 13:6, ZP_EN 15:14, SCALE_SH 39:33; the whole of ALT)
 * read zero and ignore writes in the staged and applied images; an APPLY while either
 * group's last write asked for an absent field sets UNSUP_FMT (errata P-178).
 * REQ: CAP-163 CAP-009 CAP-011 CAP-114 CAP-154 CAP-058 CAP-071 CAP-153 CAP-016 CAP-010
 * REQ: CAP-017 */
#include "cap_test.h"
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    TEST_CASE(2, a0, 0, csrr a0, 0x7C5)
    TEST_CASE(3, a0, 0x13, csrr a0, 0x7C7)
    TEST_CASE(4, a0, 0x0004003C, csrr a0, 0x7CA)
    TEST_CASE(5, a0, 0x3F, csrr a0, 0x7D8)
    TEST_CASE(6, a0, 0x733F, csrr a0, 0x7DC)
    TEST_CASE(7, a0, 0x00460010, csrr a0, 0x7E1)
    TEST_CASE(8, a0, 0x80000, csrr a0, CAP_PREC_MODE)
    TEST_CASE(9, a0, 0x04000000, csrr a0, CAP_PREC_STAT)
    /* example 6.2 on this implementation: FP8 E4M3 unsupported -> base mode + UNSUP_FMT */
    TEST_CASE(10, a0, 0x04008000, li t1, 0xC9C00000; csrw 0x7D1, t1; csrr a0, 0x7D2)
    /* ACCW INT32 unsupported (ACCW_SUP 0x3): EFF_ACCW stays FP32 */
    TEST_CASE(11, a0, 0x04008000, li t0, 0x82080000; csrw CAP_PREC_MODE, t0; li t1, 0x80000000; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_STAT)
    /* xcvt to E4M3 or INT4 is illegal here; FP16 works */
    CAP_EXPECT_TRAP(12, 2, li a1, 0x3F800000; xcvt(a0, a1, 0x81))
    CAP_EXPECT_TRAP(13, 2, xcvt(a0, a1, 0xA1))
    TEST_CASE(14, a0, 0x3C00, li s10, -1; xcvt(a0, a1, 0x01))
    /* two PMASK banks */
    TEST_CASE(15, a0, 7, li t0, 7; csrw 0x801, t0; csrr a0, 0x801)
    CAP_EXPECT_TRAP(16, 2, csrr a0, 0x802)
    /* LINE_LOCK, CLASS_PART, WAY_PART absent: L1CFG.LOCK_EN/ACTIVE_CLASS and CLSMAP ways RAZ */
    TEST_CASE(17, a0, 0x000FFFFF, li t0, -1; csrw 0x7E2, t0; csrr a0, 0x7E2)
    TEST_CASE(18, a0, 0, csrr a0, 0x7E3)
    /* four-tier discovery: TIER_COUNT_M1 (3:2) = 3; no quantized integer formats */
    TEST_CASE(19, a0, 3, li s10, -1; csrr a0, 0x7CA; srli a0, a0, 2; andi a0, a0, 3)
    TEST_CASE(20, a0, 0, csrr a0, 0x7DE)
    /* BF16_LITE (12) is not in CAP.PREC.ALU (0x3F): xcvt with it is illegal */
    CAP_EXPECT_TRAP(21, 2, li a1, 0x3F800000; xcvt(a0, a1, 0xC1))
    /* a clean MODE APPLY (APPLY0 | EW 16 = 0x80080000) clears UNSUP_FMT: STAT = EW 16 */
    TEST_CASE(22, a0, 0x04000000, li s10, -1; li t0, 0x80080000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    /* staged write of every absent MODE field: Q (0x20), ZP_EN per tensor (1 << 14),
     * ZP 3 (3 << 6), SCALE_SH -2 (0x7E << 33) with EW 16 = 0xFC000840E0: reads 0x80000,
     * STAT unchanged; the request stays pending until the next APPLY of MODE, which
     * reports it (errata P-178: "stage, then csrs APPLY0" must report too, and an APPLY
     * cannot tell csrs from csrw); the APPLY after that is clean again */
    TEST_CASE(23, a0, 0x80000, li t0, 0xFC000840E0; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_MODE)
    TEST_CASE(24, a0, 0x04000000, csrr a0, CAP_PREC_STAT)
    TEST_CASE(25, a0, 0x04008000, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    TEST_CASE(51, a0, 0x04000000, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    /* the same with APPLY0 (0xFC800840E0): reads 0x80000, UNSUP_FMT (0x8000), EFF_Q and
     * the quantization mirrors stay 0: STAT = 0x04008000 */
    TEST_CASE(26, a0, 0x80000, li t0, 0xFC800840E0; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_MODE)
    TEST_CASE(27, a0, 0x04008000, csrr a0, CAP_PREC_STAT)
    /* no quantization happens: 1.5 -> INT8 is a plain RNE conversion, a tie -> 2 (with
     * Q, ZP 3, SCALE_SH -2 it would be 1.5 * 4 + 3 = 9) */
    TEST_CASE(28, a0, 2, li a1, 0x3FC00000; xcvt(a0, a1, 0x31))
    /* the omission is reported again by the next APPLY of the other group (clean ALT
     * APPLY1 = 0x80000000) until MODE is rewritten cleanly */
    TEST_CASE(29, a0, 0x04008000, li t1, 0x80000000; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_STAT)
    TEST_CASE(30, a0, 0x04000000, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    /* each absent MODE field alone, with APPLY0: reads 0x80000 and sets UNSUP_FMT; a clean
     * APPLY clears it. Q: 0x80080020, ZP_EN 1: 0x80084000, ZP 3: 0x800800C0, SCALE_SH 1
     * (1 << 33): 0x280080000 */
    TEST_CASE(31, a0, 0x04008000, li t0, 0x80080020; csrw CAP_PREC_MODE, t0; csrr a1, CAP_PREC_MODE; li t0, 0x80000; bne a1, t0, fail; csrr a0, CAP_PREC_STAT)
    TEST_CASE(32, a0, 0x04000000, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    TEST_CASE(33, a0, 0x04008000, li t0, 0x80084000; csrw CAP_PREC_MODE, t0; csrr a1, CAP_PREC_MODE; li t0, 0x80000; bne a1, t0, fail; csrr a0, CAP_PREC_STAT)
    TEST_CASE(34, a0, 0x04000000, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    TEST_CASE(35, a0, 0x04008000, li t0, 0x800800C0; csrw CAP_PREC_MODE, t0; csrr a1, CAP_PREC_MODE; li t0, 0x80000; bne a1, t0, fail; csrr a0, CAP_PREC_STAT)
    TEST_CASE(36, a0, 0x04000000, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    TEST_CASE(37, a0, 0x04008000, li t0, 0x280080000; csrw CAP_PREC_MODE, t0; csrr a1, CAP_PREC_MODE; li t0, 0x80000; bne a1, t0, fail; csrr a0, CAP_PREC_STAT)
    TEST_CASE(38, a0, 0x04000000, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    /* MODE.UNS (bit 4) is not gated: 0x80080010 reads 0x80010, STAT.EFF_UNS (bit 32) */
    TEST_CASE(39, a0, 0x80010, li t0, 0x80080010; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_MODE)
    TEST_CASE(40, a0, 0x104000000, csrr a0, CAP_PREC_STAT)
    TEST_CASE(41, a0, 0x04000000, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    /* ALT_SUP = 0: ALT reads 0 after any write (staged FP8_E5M2 0x0C000000, all field
     * bits 0x7FFFFFFF); STAT unchanged */
    TEST_CASE(42, a0, 0, li t1, 0x0C000000; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_ALT)
    TEST_CASE(43, a0, 0, li t1, 0x7FFFFFFF; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_ALT)
    TEST_CASE(44, a0, 0x04000000, csrr a0, CAP_PREC_STAT)
    /* APPLY1 | ALT_EN (0xC0000000): UNSUP_FMT, ALT still reads 0; clean APPLY1 clears */
    TEST_CASE(45, a0, 0x04008000, li t1, 0xC0000000; csrw CAP_PREC_ALT, t1; csrr a1, CAP_PREC_ALT; bnez a1, fail; csrr a0, CAP_PREC_STAT)
    TEST_CASE(46, a0, 0x04000000, li t1, 0x80000000; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_STAT)
    /* any non-zero ALT field bit counts, even with ALT_EN = 0: APPLY1 | PACK 1 (bit 3) =
     * 0x80000008; reported again by a clean MODE APPLY; cleared by a clean ALT APPLY1 */
    TEST_CASE(47, a0, 0x04008000, li t1, 0x80000008; csrw CAP_PREC_ALT, t1; csrr a1, CAP_PREC_ALT; bnez a1, fail; csrr a0, CAP_PREC_STAT)
    TEST_CASE(48, a0, 0x04008000, li t0, 0x80080000; csrw CAP_PREC_MODE, t0; csrr a0, CAP_PREC_STAT)
    TEST_CASE(49, a0, 0x04000000, li t1, 0x80000000; csrw CAP_PREC_ALT, t1; csrr a0, CAP_PREC_STAT)
    TEST_CASE(50, s10, -1, nop)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
