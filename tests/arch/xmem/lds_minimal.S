/* The LDS under profiles/minimal.yaml (errata Q-50, Q-41): LDS_KIB 16, T0_KIB 4,
 * CLASS_PART = 0. Window [0x10000000, 0x10004000), Tier-0 [0x10000000, 0x10001000),
 * Tier-1 [0x10001000, 0x10004000) (addresses by hand from those numbers). Checks the
 * partitions, the Tier-0 fill and fallback, OOM, the smaller window's end, and that
 * without CLASS_PART the MCLASS override and budgets have no effect (LDS_BUDGET reads 0
 * and ignores writes: no BUDGET_OVF).
 * REQ: XMEM-092 XMEM-093 XMEM-085 CAP-021 */
#include "lds_test.h"
RVTEST_CODE_BEGIN
    LDS_TRAP_SETUP
    TEST_CASE(2, a0, 0x10001000, xlds_alloc(a0, x0, 0))
    TEST_CASE(3, a1, 0x10000000, xlds_alloc(a1, x0, T0))
    /* Tier-0 has 0xFF0 bytes left: exactly that fits, then 0x2000 falls back */
    TEST_CASE(4, a2, 0x10000010, li t0, 0xFF0; xlds_alloc(a2, t0, T0))
    TEST_CASE(5, a3, 0x10001010, li t0, 0x2000; xlds_alloc(a3, t0, T0))
    /* Tier-1 has 0xFF0 bytes left at 0x10003010 */
    TEST_CASE(6, a4, 0, li t0, 0xFF1; xlds_alloc(a4, t0, T1))
    TEST_CASE(7, t1, EV_LDS_OOM, csrr t1, XMEM_EVENTS)
    TEST_CASE(8, a4, 0x10003010, li t0, 0xFF0; xlds_alloc(a4, t0, T1))
    /* no CLASS_PART: budgets read 0 and ignore writes; MCLASS_EN has no effect */
    CLEAR_EVENTS
    li t0, 0x00010001
    csrw XMEM_LDS_BUDGET, t0
    TEST_CASE(9, t1, 0, csrr t1, XMEM_LDS_BUDGET)
    xlds_free(a3)
    TEST_CASE(10, a3, 0x10001010, li t0, 0x1000; xlds_alloc(a3, t0, MCL(1)))
    TEST_CASE(11, t1, 0, csrr t1, XMEM_EVENTS)
    /* the window ends at 0x10004000 */
    TEST_CASE(12, t1, 0x1234, li t0, 0x10003FF8; li t1, 0x1234; sd t1, 0(t0); ld t1, 0(t0))
    LDS_EXPECT_TRAP(13, 5, li t0, 0x10004000; ld t1, 0(t0))
    TEST_CASE(14, s11, 0x10004000, nop)
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .dword 0
RVTEST_DATA_END
