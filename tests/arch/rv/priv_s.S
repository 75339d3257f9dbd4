/* S mode (privileged spec, supervisor-level ISA): medeleg/mideleg writable bits,
 * an ecall from U delegated to S (stvec, scause, sepc, sret back to U), an ecall from S
 * not delegated (cause 9 in M), sret illegal in U and with TSR, satp and sfence.vma
 * illegal with TVM, wfi illegal with TW, a delegated S software interrupt taken in S
 * only once sstatus.SIE is set, the sstatus view of mstatus, and stvec's WARL MODE.
 * M handler: mcause -> s2, mepc -> s4, resumes in M at mscratch. S handler: scause ->
 * s6, sepc -> s8, stval -> s9, sstatus -> s10, clears sip.SSIP, resumes at sscratch
 * with sret. Hand-derived values. */
#include "xphmg_test.h"

/* Runs code in mode `mpp` (0 = U, 1 = S); it must end by trapping to M. */
#define IN_MODE(mpp, n, reg, val, code...) \
    TEST_CASE(n, reg, val, la t0, 1f; csrw mscratch, t0; li s2, -1; li t0, 0x1800; csrc mstatus, t0; li t0, (mpp) << 11; csrs mstatus, t0; la t0, 2f; csrw mepc, t0; mret; 2: code; 1:)

RVTEST_CODE_BEGIN
    la t0, mhandler
    csrw mtvec, t0
    la t0, shandler
    csrw stvec, t0
    /* 2-3: writable delegation bits: every exception below M but misaligned fetch (C
     * present) and ecall from M; the three S interrupts */
    TEST_CASE(2, a0, 0xb3fe, li t0, -1; csrw medeleg, t0; csrr a0, medeleg)
    TEST_CASE(3, a0, 0x222, li t0, -1; csrw mideleg, t0; csrr a0, mideleg)
    TEST_CASE(4, a0, 0, li t0, 0x100; csrw medeleg, t0; csrw mideleg, x0; li a0, 0)
    /* 5-7: ecall from U goes to S (cause 8, sepc = the ecall); sret returns to U, whose
     * illegal instruction (not delegated) reaches M */
    la t0, 3f                                   /* the S handler's return point in U */
    csrw sscratch, t0
    li s6, -1
    IN_MODE(0, 5, s6, 8, 4: ecall; 3: unimp)
    TEST_CASE(6, s8, 0, la t0, 4b; sub s8, s8, t0)
    TEST_CASE(7, s2, 2, mv s2, s2)
    /* 8: ecall from S is not delegated: cause 9 in M */
    IN_MODE(1, 8, s2, 9, ecall)
    /* 9: sret in U is illegal */
    IN_MODE(0, 9, s2, 2, sret)
    /* 10: sret in S with TSR = 1 is illegal */
    li t0, 0x400000
    csrs mstatus, t0
    IN_MODE(1, 10, s2, 2, sret)
    TEST_CASE(11, a0, 0, li t0, 0x400000; csrc mstatus, t0; li a0, 0)
    /* 12-16: satp is readable in S, but with TVM = 1 satp and sfence.vma are illegal */
    IN_MODE(1, 12, s2, 9, csrr a0, satp; ecall)
    TEST_CASE(13, a0, 0, li t0, 0x100000; csrs mstatus, t0; li a0, 0)
    IN_MODE(1, 14, s2, 2, csrr a0, satp)
    IN_MODE(1, 15, s2, 2, sfence.vma)
    TEST_CASE(16, a0, 0, li t0, 0x100000; csrc mstatus, t0; li a0, 0)
    /* 17: wfi in S with TW = 1 */
    li t0, 0x200000
    csrs mstatus, t0
    IN_MODE(1, 17, s2, 2, wfi)
    TEST_CASE(18, a0, 0, li t0, 0x200000; csrc mstatus, t0; li a0, 0)
    /* 19-20: a delegated SSIP, pending while in M, is taken in S once SIE = 1 */
    TEST_CASE(19, s6, -1, li s6, -1; csrwi mideleg, 2; csrsi mie, 2; csrsi mip, 2; nop)
    IN_MODE(1, 20, s6, 0x8000000000000001, la t0, 3f; csrw sscratch, t0; csrsi sstatus, 2; nop; 3: ecall)
    TEST_CASE(21, a0, 0, csrci mip, 2; csrci mstatus, 2; csrw mideleg, x0; li a0, 0)
    /* 22-23: sstatus shows SIE SPIE SPP FS SUM MXR UXL SD of mstatus, nothing else */
    TEST_CASE(22, a0, 0x80000002000c6122, li t0, -1; csrw sstatus, t0; csrr a0, sstatus)
    TEST_CASE(23, a0, 0x6000, li t0, 0x6000; csrw sstatus, t0; csrr a0, mstatus; li t1, 0xc6122; and a0, a0, t1)
    /* 24-25: stvec.MODE is WARL: 1 (vectored) is kept, 2 (reserved) is written as 0
     * (direct) with the base kept; a0 = what reads back minus the base */
    TEST_CASE(24, a0, 1, la t1, shandler; ori t0, t1, 1; csrw stvec, t0; csrr a0, stvec; sub a0, a0, t1)
    TEST_CASE(25, a0, 0, la t1, shandler; ori t0, t1, 2; csrw stvec, t0; csrr a0, stvec; sub a0, a0, t1)
    /* 26-28: an illegal instruction in U delegated to S (medeleg bit 2 only) writes
     * stval with the instruction's bits (over an all-ones stval) and sets sstatus.SPP = 0
     * (from U), SIE = 0, SPIE = the old SIE (over SPP = 1, SIE = 1): the S handler
     * records stval -> s9, sstatus -> s10; sret returns to U, whose ecall reaches M */
    la t1, shandler
    csrw stvec, t1
    li t0, 4
    csrw medeleg, t0
    li t0, -1
    csrw stval, t0
    li t0, 0x102
    csrs mstatus, t0
    la t0, 3f
    csrw sscratch, t0
    li s6, -1
    IN_MODE(0, 26, s6, 2, .word 0xffffffff; 3: ecall)
    TEST_CASE(27, s9, 0xffffffff, mv s9, s9)
    TEST_CASE(28, a0, 0x20, li t0, 0x122; and a0, s10, t0; csrc mstatus, t0; csrw medeleg, x0)
    /* 29-30: the same delegated trap with SIE = 0: SPIE = 0, and no other bit of mstatus
     * changes (bit 0 is WPRI and reads 0 in M, before and after) */
    li t0, 4
    csrw medeleg, t0
    la t0, 3f
    csrw sscratch, t0
    li s6, -1
    IN_MODE(0, 29, s6, 2, .word 0xffffffff; 3: ecall)
    TEST_CASE(30, a0, 0, li t0, 0x21; and a0, s10, t0; csrr t1, mstatus; andi t1, t1, 1; or a0, a0, t1; csrw medeleg, x0)
    TEST_PASSFAIL

    .align 2
mhandler:
    TRAP_RECORD
    TRAP_RESUME_M

    .align 2
shandler:
    csrr s6, scause
    csrr s8, sepc
    csrr s9, stval
    csrr s10, sstatus
    csrci sip, 2
    csrr t0, sscratch
    csrw sepc, t0
    sret
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
