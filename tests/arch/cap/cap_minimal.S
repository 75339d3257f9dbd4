/* Run with --profile profiles/minimal.yaml: the discovery CSRs come from the profile,
 * the policy resets are unchanged, unsupported formats are reported (UNSUP_FMT) or are
 * illegal in `xcvt`, and PMASK has the profile's 2 banks.
 * REQ: CAP-163 CAP-009 CAP-011 CAP-114 CAP-154 CAP-058 CAP-071 */
#include "cap_test.h"
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    TEST_CASE(2, a0, 0, csrr a0, 0x7C5)
    TEST_CASE(3, a0, 0x13, csrr a0, 0x7C7)
    TEST_CASE(4, a0, 0x00040034, csrr a0, 0x7CA)
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
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
