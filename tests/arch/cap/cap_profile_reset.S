/* Run with --profile tests/arch/cap/runtime_cur1.yaml (errata P-177): HAS_PROFILES and
 * RUNTIME_MUTABLE (CAP.FLAGS = 0x3), PROF.SUP = 0x5 (profiles 0 and 2), reset into
 * profile 2. Base values: the default profile with HINT.BVHGR GRAN = 1. Variants:
 *   0: TIER.SAMP = 2 (others base: BVHGR 1, FEAT1 0x7, TIER.RT 0);
 *   2: HINT.BVHGR GRAN = 2, FEAT1 = 0x3, TIER.RT = 1 (TIER.SAMP base 0).
 * At reset the advisory CSRs hold the reset index's variant; the policy resets are the
 * usual ones; index 1 is not in SUP and is ignored.
 * REQ: CAP-065 CAP-069 CAP-074 CAP-067 CAP-066 */
#include "cap_test.h"
#define PROF_SEL 0xBC0
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    TEST_CASE(2, a0, 0x3, csrr a0, CAP_FLAGS)
    TEST_CASE(3, a0, 2, csrr a0, 0x7C3)
    TEST_CASE(4, a0, 0x5, csrr a0, 0x7C4)
    TEST_CASE(5, a0, 2, csrr a0, PROF_SEL)
    /* profile 2's variant at reset */
    TEST_CASE(6, a0, 2, csrr a0, 0x7CE)
    TEST_CASE(7, a0, 0x3, csrr a0, 0x7C6)
    TEST_CASE(8, a0, 1, csrr a0, 0x7CC)
    TEST_CASE(9, a0, 0, csrr a0, 0x7CB)
    TEST_CASE(10, a0, 0x118, csrr a0, 0x7C5)
    /* the policy resets do not depend on the profile (errata Q-32) */
    TEST_CASE(11, a0, 0x80000, csrr a0, CAP_PREC_MODE)
    TEST_CASE(12, a0, 0x04000000, csrr a0, CAP_PREC_STAT)
    /* 1 is not in SUP: ignored */
    TEST_CASE(13, a0, 2, li t0, 1; csrw PROF_SEL, t0; csrr a0, 0x7C3)
    TEST_CASE(14, a0, 2, csrr a0, 0x7CE)
    /* profile 0: its variant over the base values */
    TEST_CASE(15, a0, 0, csrwi PROF_SEL, 0; csrr a0, 0x7C3)
    TEST_CASE(16, a0, 1, csrr a0, 0x7CE)
    TEST_CASE(17, a0, 0x7, csrr a0, 0x7C6)
    TEST_CASE(18, a0, 0, csrr a0, 0x7CC)
    TEST_CASE(19, a0, 2, csrr a0, 0x7CB)
    /* and back to 2 */
    TEST_CASE(20, a0, 2, csrwi PROF_SEL, 2; csrr a0, PROF_SEL)
    TEST_CASE(21, a0, 2, csrr a0, 0x7CE)
    TEST_CASE(22, a0, 0x3, csrr a0, 0x7C6)
    TEST_CASE(23, a0, 1, csrr a0, 0x7CC)
    TEST_CASE(24, a0, 0, csrr a0, 0x7CB)
    TEST_CASE(25, s10, -1, nop)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
