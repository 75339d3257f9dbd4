/* User mode: entering U with mret (MPP = 0), ecall from U (cause 8), M-only CSRs and
 * mret/wfi(TW=1) from U are illegal, counters readable from U only where mcounteren
 * allows, and traps from U record MPP = 0. Handler as in priv_trap.S: records
 * mcause -> s2, mtval -> s3, mepc -> s4, mstatus -> s5, resumes in M at mscratch.
 * U mode needs a PMP entry granting it memory (no match = access fault once PMP
 * entries exist, P-262): entry 0 is NAPOT over all addresses, RWX. */
#include "xphmg_test.h"

/* Runs `code` in U mode; it must trap back to M. */
#define IN_USER(n, cause, code...) \
    TEST_CASE(n, s2, cause, la t0, 1f; csrw mscratch, t0; li t0, 0x1800; csrc mstatus, t0; la t0, 2f; csrw mepc, t0; li s2, -1; mret; 2: code; 1:)

RVTEST_CODE_BEGIN
    la t0, handler
    csrw mtvec, t0
    li t0, -1
    csrw pmpaddr0, t0
    li t0, 0x1f
    csrw pmpcfg0, t0
    IN_USER(2, 8, ecall)
    TEST_CASE(3, a0, 0, li t0, 0x1800; and a0, s5, t0)          /* MPP = U */
    IN_USER(4, 2, csrr a0, mstatus)
    TEST_CASE(5, s3, 0x30002573, mv s3, s3)                     /* csrrs a0, mstatus, x0 */
    IN_USER(6, 2, csrr a0, mscratch)
    IN_USER(7, 2, mret)
    IN_USER(8, 2, csrr a0, satp)                                 /* S-level CSR */
    /* counters: mcounteren = 0 -> illegal in U; CY|TM|IR in mcounteren and scounteren
     * -> readable (with S mode, U needs both) */
    TEST_CASE(9, a0, 0, csrw mcounteren, x0; mv a0, x0)
    IN_USER(10, 2, rdcycle a0)
    IN_USER(11, 2, rdinstret a0)
    IN_USER(12, 2, rdtime a0)
    TEST_CASE(13, a0, 0, csrwi mcounteren, 7; mv a0, x0)
    IN_USER(26, 2, rdcycle a0)
    TEST_CASE(27, a0, 0, csrwi scounteren, 7; mv a0, x0)
    IN_USER(14, 8, rdcycle a0; rdinstret a1; rdtime a2; ecall)
    /* hpmcounter3 is gated by mcounteren bit 3 and reads 0 (no hpm events) */
    IN_USER(22, 2, csrr a0, hpmcounter3)
    TEST_CASE(23, a0, 0, li t0, 8; csrs mcounteren, t0; csrs scounteren, t0; mv a0, x0)
    IN_USER(24, 8, li a4, 5; csrr a4, hpmcounter3; ecall)
    TEST_CASE(25, a4, 0, li t0, 8; csrc mcounteren, t0)
    /* fp CSRs are user-accessible */
    IN_USER(15, 8, csrwi frm, 2; csrr a3, frm; ecall)
    TEST_CASE(16, a3, 2, csrwi frm, 0)
    /* WFI in U is illegal with mstatus.TW = 1, and with TW = 0 too because S mode
     * exists (privileged spec, mstatus.TW) */
    TEST_CASE(17, a0, 0, li t0, 0x200000; csrs mstatus, t0; mv a0, x0)
    IN_USER(18, 2, wfi)
    TEST_CASE(19, a0, 0, li t0, 0x200000; csrc mstatus, t0; mv a0, x0)
    IN_USER(20, 2, wfi; ecall)
    /* a wild access from U faults like in M */
    IN_USER(21, 5, li a1, 8; ld a0, 0(a1))
    TEST_PASSFAIL

    .align 2
handler:
    TRAP_RECORD
    csrr s5, mstatus
    TRAP_RESUME_M
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
