/* Software replay of the numeric policy (CAP 5.1.8, errata "Replay" of the P-177..P-181
 * design), default profile: record MODE/ALT (the staged images read back the values
 * written with APPLY, minus the APPLY bit), EXC.EN and STAT, run conversions; program
 * something else; replay by writing EXC.EN, then MODE | APPLY0 and ALT | APPLY1, clear
 * EXC.ST; the same conversions give the same results, STAT and stickies. Also: values
 * staged without APPLY have no effect on results or STAT (CAP 5.1.7).
 * Recorded state A:
 *   EXC.EN = DZ (0x08; conversions never raise DZ, so nothing traps);
 *   MODE = APPLY0 | SAT (30) | RDN (2<<27) | ACCW FP16 (1<<24) | EW 16 (1<<19) |
 *          SAT_MODE (16) | NAN_POL canonical (1) = 0xD1090001 (reads 0x51090001);
 *   ALT = APPLY1 | ALT_EN | FP8_E4M3 (2<<26) | MIXED (23) = 0xC8800000 (reads 0x48800000).
 *   STAT = EFF_PET 8 0x80000000 | EFF_EW 8 (0) | EFF_ACCW 1 0x01000000 | EFF_ALT_EN
 *   0x800000 | EFF_SAT 0x400000 | EFF_FP_RMODE 2<<19 0x100000 | NAN_POL 1<<8 | IE_MASK
 *   0x08, + EFF_SAT_MODE (bit 33) and EFF_MIXED (bit 35) = 0xA81D00108.
 * The conversions (run_convs, 15 = EFF_PET = E4M3; E4M3 bias 7, max 448 = 0x7E):
 *   1.0 -> E4M3 0x38 (exact); 1000.0 -> clamped to 448 0x7E (SAT_HIT, NX);
 *   -1000.0 -> -448 0xFE (SAT_HIT, NX); 1.0625 = 1 + 2^-4 lies between 1.0 (0x38) and
 *   1.125 (0x39): RDN -> 0x38 (NX); -1.0625 -> RDN -> -1.125 0xB9 (NX);
 *   sNaN 0x7FA00000 -> FP16 canonical NaN 0x7E00 (NV, SNAN_SEEN);
 *   300.0 -> INT8 127, -300.0 -> -127 (SAT_MODE symmetric; SAT_HIT, NX).
 *   STAT after = 0xA81D00108 | SAT_HIT 0x2000 | DOWNCAST 0x4000 = 0xA81D06108;
 *   EXC.ST = NX 0x1 | NV 0x10 | SNAN_SEEN 0x40 = 0x51.
 * Checks 100-149 are in subroutines (exit status = the failing check's number).
 * REQ: CAP-152 CAP-151 CAP-156 CAP-078 CAP-006 */
#include "cap_test.h"
#define NEXT addi TESTNUM, TESTNUM, 1
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    /* state A */
    li t0, 0x08
    csrw CAP_PREC_EXC_EN, t0
    li t0, 0xD1090001
    csrw CAP_PREC_MODE, t0
    li t0, 0xC8800000
    csrw CAP_PREC_ALT, t0
    TEST_CASE(2, a0, 0xA81D00108, csrr a0, CAP_PREC_STAT)
    /* record */
    csrr s2, CAP_PREC_MODE
    csrr s3, CAP_PREC_ALT
    csrr s4, CAP_PREC_EXC_EN
    csrr s5, CAP_PREC_STAT
    TEST_CASE(3, s2, 0x51090001, nop)
    TEST_CASE(4, s3, 0x48800000, nop)
    TEST_CASE(5, s4, 0x08, nop)
    la a0, run1
    call run_convs
    la a0, run1
    li TESTNUM, 100
    call check_hand

    /* state B: EXC.EN = UF (0x02), MODE = APPLY0 | EW 16 (RNE, SAT 0) = 0x80080000,
     * ALT_EN = 0 applied: STAT = EW 16 | IE_MASK 0x02 = 0x04000002 */
    li t0, 0x02
    csrw CAP_PREC_EXC_EN, t0
    li t0, 0x80080000
    csrw CAP_PREC_MODE, t0
    li t0, 0x80000000
    csrw CAP_PREC_ALT, t0
    TEST_CASE(6, a0, 0x04000002, csrr a0, CAP_PREC_STAT)
    /* the recorded A values staged without APPLY: MODE reads them, STAT does not change,
     * and conversions still run under B: 1 + 3*2^-11 to EFF_PET is FP16 RNE, a tie to
     * even -> 0x3C02 (under A it would be E4M3 RDN -> 0x38); NX is not enabled */
    csrw CAP_PREC_MODE, s2
    csrw CAP_PREC_ALT, s3
    TEST_CASE(7, a0, 0x51090001, csrr a0, CAP_PREC_MODE)
    TEST_CASE(8, a0, 0x04000002, csrr a0, CAP_PREC_STAT)
    TEST_CASE(9, a0, 0x3C02, li t0, 0x7F; csrw CAP_PREC_EXC_ST, t0; li a1, 0x3F803000; xcvt(a0, a1, 0xF1))
    TEST_CASE(10, a0, 0x04004002, csrr a0, CAP_PREC_STAT) /* + DOWNCAST */
    TEST_CASE(11, a0, 0x1, csrr a0, CAP_PREC_EXC_ST)
    /* stage something else again, so the replay does not rely on the staged images */
    li t0, 0x08080000
    csrw CAP_PREC_MODE, t0
    csrw CAP_PREC_ALT, x0

    /* replay: EXC.EN first (IE_MASK latches at APPLY), then MODE and ALT with APPLY,
     * clear EXC.ST; STAT equals the recorded one, MODE/ALT read as recorded */
    csrw CAP_PREC_EXC_EN, s4
    li t1, 0x80000000
    or t0, s2, t1
    csrw CAP_PREC_MODE, t0
    or t0, s3, t1
    csrw CAP_PREC_ALT, t0
    li t0, 0x7F
    csrw CAP_PREC_EXC_ST, t0
    TEST_CASE(12, a0, 0xA81D00108, csrr a0, CAP_PREC_STAT)
    TEST_CASE(13, a0, 0, csrr a0, CAP_PREC_STAT; sub a0, a0, s5)
    TEST_CASE(14, a0, 0, csrr a0, CAP_PREC_MODE; sub a0, a0, s2)
    TEST_CASE(15, a0, 0, csrr a0, CAP_PREC_ALT; sub a0, a0, s3)
    la a0, run2
    call run_convs
    la a0, run2
    li TESTNUM, 120
    call check_hand
    /* and identical to the recorded run, slot by slot (checks 140-149) */
    li TESTNUM, 140
    la a0, run1
    la a1, run2
    li a2, 10
1:  ld t3, 0(a0)
    ld t4, 0(a1)
    bne t3, t4, fail
    NEXT
    addi a0, a0, 8
    addi a1, a1, 8
    addi a2, a2, -1
    bnez a2, 1b
    TEST_CASE(16, s10, -1, nop)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER

/* a0 = a 10-slot buffer: 8 results, then STAT and EXC.ST */
run_convs:
    li a1, 0x3F800000
    xcvt(t3, a1, 0xF1)
    sd t3, 0(a0)
    li a1, 0x447A0000
    xcvt(t3, a1, 0xF1)
    sd t3, 8(a0)
    li a1, 0xC47A0000
    xcvt(t3, a1, 0xF1)
    sd t3, 16(a0)
    li a1, 0x3F880000
    xcvt(t3, a1, 0xF1)
    sd t3, 24(a0)
    li a1, 0xBF880000
    xcvt(t3, a1, 0xF1)
    sd t3, 32(a0)
    li a1, 0x7FA00000
    xcvt(t3, a1, 0x01)
    sd t3, 40(a0)
    li a1, 0x43960000
    xcvt(t3, a1, 0x31)
    sd t3, 48(a0)
    li a1, 0xC3960000
    xcvt(t3, a1, 0x31)
    sd t3, 56(a0)
    csrr t3, CAP_PREC_STAT
    sd t3, 64(a0)
    csrr t3, CAP_PREC_EXC_ST
    sd t3, 72(a0)
    ret

/* a0 = a buffer filled by run_convs; checks TESTNUM .. TESTNUM+9 against the values
 * derived by hand in the header */
#define CHECK_SLOT(off, val) ld t3, off(a0); li t2, val; bne t3, t2, fail; NEXT
check_hand:
    CHECK_SLOT(0, 0x38)
    CHECK_SLOT(8, 0x7E)
    CHECK_SLOT(16, 0xFE)
    CHECK_SLOT(24, 0x38)
    CHECK_SLOT(32, 0xB9)
    CHECK_SLOT(40, 0x7E00)
    CHECK_SLOT(48, 127)
    CHECK_SLOT(56, -127)
    CHECK_SLOT(64, 0xA81D06108)
    CHECK_SLOT(72, 0x51)
    ret
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
run1:
    .fill 10, 8, 0x5A5A5A5A
run2:
    .fill 10, 8, 0xA5A5A5A5
RVTEST_DATA_END
