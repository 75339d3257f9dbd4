/* Run with --profile tests/arch/cap/runtime_stable.yaml (errata P-177): HAS_PROFILES=1,
 * RUNTIME_MUTABLE=0 (CAP.FLAGS = 0x2), PROF.SUP = 0x3, base TIER.WAVE WAVES = 1. Without
 * RUNTIME_MUTABLE a profile switch changes CAP.PROF.CUR only: the advisory CSRs stay at
 * their reset values (CAP 4.3.2).
 * REQ: CAP-009 CAP-067 CAP-065 CAP-069 CAP-074 CAP-051 */
#include "cap_test.h"
#define PROF_SEL 0xBC0
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    TEST_CASE(2, a0, 0x2, csrr a0, CAP_FLAGS)
    TEST_CASE(3, a0, 0x3, csrr a0, 0x7C4)
    TEST_CASE(4, a0, 0, csrr a0, 0x7C3)
    TEST_CASE(5, a0, 1, csrr a0, 0x7C9)
    TEST_CASE(6, a0, 1, csrwi PROF_SEL, 1; csrr a0, 0x7C3)
    TEST_CASE(7, a0, 1, csrr a0, PROF_SEL)
    TEST_CASE(8, a0, 1, csrr a0, 0x7C9)
    TEST_CASE(9, a0, 0x118, csrr a0, 0x7C5)
    TEST_CASE(10, a0, 0x4, csrr a0, 0x7CD)
    TEST_CASE(11, a0, 0x2, csrr a0, 0x7CF)
    TEST_CASE(12, a0, 0x0010007C, csrr a0, 0x7CA)
    /* 2 is not in SUP: ignored; back to 0 */
    TEST_CASE(13, a0, 1, csrwi PROF_SEL, 2; csrr a0, PROF_SEL)
    TEST_CASE(14, a0, 0, csrwi PROF_SEL, 0; csrr a0, 0x7C3)
    TEST_CASE(15, a0, 1, csrr a0, 0x7C9)
    TEST_CASE(16, a0, 0x2, csrr a0, CAP_FLAGS)
    TEST_CASE(17, s10, -1, nop)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
