/* PMASK banks on the simulator (errata Q-36, Q-62), default profile (4 banks): pmask0 is
 * the virtual ALL-ONES bank (reads all ones, writes ignored without a trap), pmask1-3 are
 * 64-lane RW banks reset to 0, 0x804-0x807 do not exist (illegal). The banks are in the
 * user range, so U mode reads and writes them, while the CAP window stays M-mode only
 * (errata Q-01).
 * REQ: CAP-028 CAP-029 CAP-058 CAP-027 */
#include "cap_test.h"
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    TEST_CASE(2, a0, -1, csrr a0, 0x800)
    TEST_CASE(3, a0, -1, csrw 0x800, x0; csrr a0, 0x800)
    TEST_CASE(4, a0, -1, csrc 0x800, a0; csrr a0, 0x800)
    TEST_CASE(5, s10, -1, nop)
    TEST_CASE(6, a0, 0, csrr a0, 0x801; csrr a1, 0x802; or a0, a0, a1; csrr a1, 0x803; or a0, a0, a1)
    TEST_CASE(7, a0, 0x8000000000000001, li t0, 0x8000000000000001; csrw 0x801, t0; csrr a0, 0x801)
    TEST_CASE(8, a0, 0x8000000000000003, csrsi 0x801, 2; csrr a0, 0x801)
    TEST_CASE(9, a0, 0xF0, li t0, 0xF0; csrw 0x803, t0; csrr a0, 0x803)
    CAP_EXPECT_TRAP(10, 2, csrr a0, 0x804)
    CAP_EXPECT_TRAP(11, 2, csrw 0x807, x0)
    /* U mode: pmask2 is reachable, CAP.ID is not */
    li TESTNUM, 12
    la s9, back_in_m
    la t0, in_u
    csrw mepc, t0
    li t0, 0x1800
    csrc mstatus, t0 /* MPP = U */
    li s10, -1
    mret
in_u:
    li t0, 0x5A
    csrw 0x802, t0
    csrr a3, 0x802
    csrr a4, 0x800
    csrr a5, 0x7C0 /* illegal in U mode */
    mv a6, s10
    ecall
back_in_m:
    TEST_CASE(13, a3, 0x5A, nop)
    TEST_CASE(14, a4, -1, nop)
    TEST_CASE(15, a6, 2, nop)
    TEST_CASE(16, s10, 8, nop)
    TEST_CASE(17, a0, 0x5A, csrr a0, 0x802)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
