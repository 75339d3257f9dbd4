/* Runtime profile switching (errata P-177) on the simulator; run with --profile
 * profiles/runtime.yaml: CAP.FLAGS = RUNTIME_MUTABLE (bit 0) | HAS_PROFILES (bit 1) = 0x3,
 * PROF.SUP = 0x7 (profiles 0, 1, 2), PROF.CUR resets to 0. The variants of that file:
 *   0: base values (the default profile): FEAT0 0x118, TIER.REG 0, TIER.WAVE 0,
 *      HINT.ALIGN 0x4 (A64), HINT.LDSBK 0x2;
 *   1: TIER.WAVE WAVES 3 (1:0) = 0x3, HINT.ALIGN A128 only (bit 3) = 0x8;
 *   2: FEAT0 0x108, HINT.LDSBK GRAN_LOG2 3 = 0x3, TIER.REG VGPR 2 (1:0) | SGPR 1 (3:2) = 0x6.
 * The select CSR 0xBC0 reads PROF.CUR; a write of an index (bits 4:0) in SUP switches at
 * the boundary of the writing instruction, anything else is ignored (WARL); PROF.CUR/SUP
 * ignore writes. A switch changes only PROF.CUR and the advisory CSRs: the PREC policy
 * (staged and applied), STAT with its stickies, EXC.EN/ST, XMEM and PMASK are kept,
 * conversions and traps behave identically under every profile (advisory values never
 * change correctness). 0xBC0 is machine-mode only (csr[9:8] = 11).
 * Checks 100-230 are in subroutines: the exit status is the failing check's number.
 * REQ: CAP-064 CAP-065 CAP-066 CAP-067 CAP-068 CAP-069 CAP-070 CAP-071 CAP-073 CAP-074
 * REQ: CAP-075 CAP-009 CAP-052 CAP-053 CAP-051 */
#include "cap_test.h"
#define PROF_SEL 0xBC0
#define NEXT addi TESTNUM, TESTNUM, 1
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    /* reset: FLAGS, PROF.CUR 0, PROF.SUP 0x7, 0xBC0 = PROF.CUR */
    TEST_CASE(2, a0, 0x3, csrr a0, CAP_FLAGS)
    TEST_CASE(3, a0, 0, csrr a0, 0x7C3)
    TEST_CASE(4, a0, 0x7, csrr a0, 0x7C4)
    TEST_CASE(5, a0, 0, csrr a0, PROF_SEL)
    /* profile 0 = the base values */
    TEST_CASE(6, a0, 0x118, csrr a0, 0x7C5)
    TEST_CASE(7, a0, 0, csrr a0, 0x7C8)
    TEST_CASE(8, a0, 0, csrr a0, 0x7C9)
    TEST_CASE(9, a0, 0x4, csrr a0, 0x7CD)
    TEST_CASE(10, a0, 0x2, csrr a0, 0x7CF)
    /* switch to 1: csrrw returns the old index, the very next instructions see PROF.CUR 1
     * and profile 1's WAVES together */
    TEST_CASE(11, a1, 0, li t0, 1; csrrw a1, PROF_SEL, t0; csrr a2, 0x7C9; csrr a3, 0x7C3)
    TEST_CASE(12, a2, 0x3, nop)
    TEST_CASE(13, a3, 1, nop)
    TEST_CASE(14, a0, 1, csrr a0, PROF_SEL)
    TEST_CASE(15, a0, 0x8, csrr a0, 0x7CD)
    /* CSRs profile 1 does not name keep the base values */
    TEST_CASE(16, a0, 0x118, csrr a0, 0x7C5)
    TEST_CASE(17, a0, 0x2, csrr a0, 0x7CF)
    TEST_CASE(18, a0, 0, csrr a0, 0x7C8)
    /* switch to 2: FEAT0, LDSBK, TIER.REG change; WAVE and ALIGN go back to the base */
    TEST_CASE(19, a0, 0x108, li t0, 2; csrw PROF_SEL, t0; csrr a0, 0x7C5)
    TEST_CASE(20, a0, 2, csrr a0, 0x7C3)
    TEST_CASE(21, a0, 0x3, csrr a0, 0x7CF)
    TEST_CASE(22, a0, 0x6, csrr a0, 0x7C8)
    TEST_CASE(23, a0, 0, csrr a0, 0x7C9)
    TEST_CASE(24, a0, 0x4, csrr a0, 0x7CD)
    /* indices outside SUP (3, 31, 5) are ignored: PROF.CUR stays 2, profile 2's values
     * stay; csrrw still returns the current index */
    TEST_CASE(25, a0, 2, li t0, 3; csrw PROF_SEL, t0; csrr a0, PROF_SEL)
    TEST_CASE(26, a0, 2, li t0, 31; csrw PROF_SEL, t0; csrr a0, 0x7C3)
    TEST_CASE(27, a0, 0x108, csrr a0, 0x7C5)
    TEST_CASE(28, a0, 2, csrrwi a0, PROF_SEL, 5)
    TEST_CASE(29, a0, 0x6, csrr a1, PROF_SEL; li t0, 2; bne a1, t0, fail; csrr a0, 0x7C8)
    /* only bits 4:0 are the index: 0x21 selects 1, 0x40 selects 0 */
    TEST_CASE(30, a0, 1, li t0, 0x21; csrw PROF_SEL, t0; csrr a0, PROF_SEL)
    TEST_CASE(31, a0, 0x3, csrr a0, 0x7C9)
    TEST_CASE(32, a0, 0, li t0, 0x40; csrw PROF_SEL, t0; csrr a0, 0x7C3)
    /* set/clear forms write old|rs1 and old&~rs1: from 1, csrsi 2 writes 3 (not in SUP,
     * ignored), csrci 1 writes 0 (switches) */
    TEST_CASE(33, a0, 1, csrwi PROF_SEL, 1; csrsi PROF_SEL, 2; csrr a0, PROF_SEL)
    TEST_CASE(34, a0, 0, csrci PROF_SEL, 1; csrr a0, PROF_SEL; csrr a1, 0x7C9; or a0, a0, a1)
    /* PROF.CUR and PROF.SUP ignore writes: CUR stays 0, SUP 0x7, no switch, FLAGS 0x3 */
    TEST_CASE(35, a0, 0, li s10, -1; li t0, 2; csrw 0x7C3, t0; csrr a0, 0x7C3)
    TEST_CASE(36, a0, 0x7, li t0, -1; csrw 0x7C4, t0; csrw 0x7C2, x0; csrr a0, 0x7C4)
    TEST_CASE(37, a0, 0x3, csrr a1, PROF_SEL; bnez a1, fail; csrr a1, 0x7C5; li t0, 0x118; bne a1, t0, fail; csrr a0, CAP_FLAGS)
    TEST_CASE(38, s10, -1, nop)

    /* 0xBC0 is machine-mode only: from U mode a read or a write is an illegal instruction
     * and the profile does not change */
    li TESTNUM, 39
    la s9, back_in_m
    la t0, in_u
    csrw mepc, t0
    li t0, 0x1800
    csrc mstatus, t0 /* MPP = U */
    li s10, -1
    li a4, 0x55
    mret
in_u:
    csrr a4, PROF_SEL
    mv a5, s10
    li s10, -1
    li t0, 2
    csrw PROF_SEL, t0
    mv a6, s10
    ecall
back_in_m:
    TEST_CASE(40, a4, 0x55, nop)
    TEST_CASE(41, a5, 2, nop)
    TEST_CASE(42, a6, 2, nop)
    TEST_CASE(43, a0, 0, csrr a0, PROF_SEL)
    li s10, -1 /* the ecall above left 8: no trap from here to check 46 */

    /* the state a switch must not touch, programmed to non-reset values under profile 0:
     * EXC.EN = OF|NV (0x14) first, then MODE applied = APPLY0 | SAT (30) | RTZ (1<<27) |
     * EW 16 (1<<19) = 0xC8080000, ALT applied = APPLY1 | ALT_EN | FP8_E5M2 (3<<26) =
     * 0xCC000000; xcvt 1 + 2^-23 to FP16 (RTZ 0x3C00) raises NX (not enabled: EXC.ST 0x1)
     * and DOWNCAST_TAKEN; then staged MODE = RUP (3<<27) | EW 16 = 0x18080000 and staged
     * ALT = ALT_EN | FP8_E4M3 (2<<26) = 0x48000000 (no APPLY); XMEM.DOM = 5, SVMBASE, pmask1.
     * STAT (check_state) = EFF_PET 9 (E5M2) 0x90000000 | EFF_EW 8 (0) | EFF_ALT_EN
     * 0x800000 | EFF_SAT 0x400000 | EFF_FP_RMODE RTZ 1<<19 | DOWNCAST 0x4000 | IE_MASK
     * 0x14 = 0x90C84014 */
    li t0, 0x14
    csrw CAP_PREC_EXC_EN, t0
    li t0, 0xC8080000
    csrw CAP_PREC_MODE, t0
    li t0, 0xCC000000
    csrw CAP_PREC_ALT, t0
    TEST_CASE(44, a0, 0x3C00, li a1, 0x3F800001; xcvt(a0, a1, 0x01))
    li t0, 0x18080000
    csrw CAP_PREC_MODE, t0
    li t0, 0x48000000
    csrw CAP_PREC_ALT, t0
    li t0, 5
    csrw 0x7E6, t0
    li t0, 0x8000000000001234
    csrw 0x7F0, t0
    li t0, 0x0123456789ABCDEF
    csrw 0x801, t0
    li TESTNUM, 100
    call check_state
    li t0, 2
    csrw PROF_SEL, t0
    li TESTNUM, 120
    call check_state
    li t0, 1
    csrw PROF_SEL, t0
    li TESTNUM, 140
    call check_state
    csrwi PROF_SEL, 0
    li TESTNUM, 160
    call check_state
    /* still the applied MODE (RTZ), not the staged one (RUP): 1 + 2^-11 -> 0x3C00 */
    TEST_CASE(45, a0, 0x3C00, li a1, 0x3F801000; xcvt(a0, a1, 0x01))
    TEST_CASE(46, s10, -1, nop)

    /* the same conversions, stickies and traps under profiles 0, 1 and 2 */
    li a0, 0
    li TESTNUM, 180
    call conv_suite
    li a0, 1
    li TESTNUM, 200
    call conv_suite
    li a0, 2
    li TESTNUM, 220
    call conv_suite
    TEST_CASE(47, a0, 2, csrr a0, 0x7C3)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER

/* Checks TESTNUM .. TESTNUM+10: the state programmed before check 45 is unchanged. */
check_state:
    csrr t3, CAP_PREC_MODE
    li t2, 0x18080000
    bne t3, t2, fail
    NEXT
    csrr t3, CAP_PREC_ALT
    li t2, 0x48000000
    bne t3, t2, fail
    NEXT
    csrr t3, CAP_PREC_STAT
    li t2, 0x90C84014
    bne t3, t2, fail
    NEXT
    csrr t3, CAP_PREC_EXC_EN
    li t2, 0x14
    bne t3, t2, fail
    NEXT
    csrr t3, CAP_PREC_EXC_ST
    li t2, 0x1
    bne t3, t2, fail
    NEXT
    csrr t3, 0x7E6
    li t2, 5
    bne t3, t2, fail
    NEXT
    csrr t3, 0x7F0
    li t2, 0x8000000000001234
    bne t3, t2, fail
    NEXT
    csrr t3, 0x801
    li t2, 0x0123456789ABCDEF
    bne t3, t2, fail
    NEXT
    /* capability descriptors are not advisory variants: default values in every profile */
    csrr t3, 0x7D8
    li t2, 0x1F3F
    bne t3, t2, fail
    NEXT
    csrr t3, 0x7DC
    li t2, 0x003E7F3F
    bne t3, t2, fail
    NEXT
    csrr t3, CAP_FLAGS
    li t2, 0x3
    bne t3, t2, fail
    ret

/* a0 = profile index. The policy is programmed under profile 0, then profile a0 is
 * selected and the conversions run (checks TESTNUM .. TESTNUM+12):
 * MODE = APPLY0 | SAT | EW 16 (RNE) = 0xC0080000, ALT_EN = 0, EXC.EN = 0:
 *   1 + 2^-11 (0x3F801000) -> FP16: half an ulp, tie to even 0x3C00 (NX);
 *   1 + 3*2^-11 (0x3F803000) -> FP16: tie, 0x3C01 is odd -> 0x3C02 (NX);
 *   300.0 -> INT8: clamped to 127 (SAT_HIT, NX);
 *   0x3F818000 -> BF16: tie, 0x3F81 odd -> 0x3F82 (NX);
 *   1e10 (0x501502F9) -> FP16: SAT=1 clamps to the largest finite 65504 = 0x7BFF
 *   (SAT_HIT, NX, no OF);
 *   STAT = EFF_EW 16 0x04000000 | EFF_SAT 0x400000 | SAT_HIT 0x2000 | DOWNCAST 0x4000 =
 *   0x04406000, EXC.ST = NX = 0x1.
 * MODE = APPLY0 | EW 16 = 0x80080000 (SAT 0), EXC.EN = OF|NX (0x5): 1e10 -> FP16
 *   overflows (OF|NX): trap cause 24, mtval 0x5, rd kept, EXC.ST 0x5, profile kept. */
conv_suite:
    csrwi PROF_SEL, 0
    csrw CAP_PREC_EXC_EN, x0
    li t0, 0xC0080000
    csrw CAP_PREC_MODE, t0
    li t0, 0x80000000
    csrw CAP_PREC_ALT, t0
    li t0, 0x7F
    csrw CAP_PREC_EXC_ST, t0
    csrw PROF_SEL, a0
    csrr t3, 0x7C3
    bne t3, a0, fail
    NEXT
    li a1, 0x3F801000
    xcvt(t3, a1, 0x01)
    li t2, 0x3C00
    bne t3, t2, fail
    NEXT
    li a1, 0x3F803000
    xcvt(t3, a1, 0x01)
    li t2, 0x3C02
    bne t3, t2, fail
    NEXT
    li a1, 0x43960000
    xcvt(t3, a1, 0x31)
    li t2, 127
    bne t3, t2, fail
    NEXT
    li a1, 0x3F818000
    xcvt(t3, a1, 0x21)
    li t2, 0x3F82
    bne t3, t2, fail
    NEXT
    li a1, 0x501502F9
    xcvt(t3, a1, 0x01)
    li t2, 0x7BFF
    bne t3, t2, fail
    NEXT
    csrr t3, CAP_PREC_STAT
    li t2, 0x04406000
    bne t3, t2, fail
    NEXT
    csrr t3, CAP_PREC_EXC_ST
    li t2, 0x1
    bne t3, t2, fail
    NEXT
    csrwi PROF_SEL, 0
    li t0, 0x80080000
    csrw CAP_PREC_MODE, t0
    li t0, 0x5
    csrw CAP_PREC_EXC_EN, t0
    li t0, 0x7F
    csrw CAP_PREC_EXC_ST, t0
    csrw PROF_SEL, a0
    li s10, -1
    li t3, 0x55
    li a1, 0x501502F9
    xcvt(t3, a1, 0x01)
    li t2, 24
    bne s10, t2, fail
    NEXT
    li t2, 0x5
    bne s11, t2, fail
    NEXT
    li t2, 0x55
    bne t3, t2, fail
    NEXT
    csrr t3, CAP_PREC_EXC_ST
    li t2, 0x5
    bne t3, t2, fail
    NEXT
    csrr t3, PROF_SEL
    bne t3, a0, fail
    csrw CAP_PREC_EXC_EN, x0
    li s10, -1
    ret
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
