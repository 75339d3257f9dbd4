/* Machine-mode traps: cause, mepc and mtval for illegal instructions (mtval = the
 * instruction bits, 16-bit ones zero-extended), ecall, ebreak, load/store access faults
 * on wild addresses (below RAM, past its end, straddling its end), fetch access faults,
 * mstatus.MPIE/MIE/MPP bookkeeping across trap entry and mret, and the LR/SC slice a
 * trap starts.
 * Handler: records mcause -> s2, mtval -> s3, mepc -> s4, mstatus -> s5, resumes at
 * the address in mscratch (in M mode). Values hand-derived from the privileged spec. */
#include "xphmg_test.h"

/* Runs `code`, which must trap; resumes at the label after it. */
#define EXPECT_TRAP(n, cause, code...) \
    TEST_CASE(n, s2, cause, la t0, 1f; csrw mscratch, t0; li s2, -1; 2: code; 1:)

RVTEST_CODE_BEGIN
    la t0, handler
    csrw mtvec, t0
    /* 2-4: illegal instructions */
    EXPECT_TRAP(2, 2, .word 0xc0001073)           /* unimp = csrrw x0, cycle, x0 */
    TEST_CASE(3, s3, 0xc0001073, la t0, 2b; bne t0, s4, fail; mv s3, s3)
    EXPECT_TRAP(4, 2, .half 0x0000)               /* c.unimp */
    TEST_CASE(5, s3, 0, mv s3, s3)
    EXPECT_TRAP(6, 2, .word 0xffffffff)           /* no such encoding */
    TEST_CASE(7, s3, 0xffffffff, mv s3, s3)
    EXPECT_TRAP(8, 2, csrr a0, 0x7a5)             /* unimplemented CSR (tcontrol, P-265) */
    TEST_CASE(9, s3, 0x7a502573, mv s3, s3)       /* csrrs a0, 0x7a5, x0 */
    EXPECT_TRAP(10, 2, csrw mvendorid, a0)        /* write to a read-only CSR */
    EXPECT_TRAP(11, 2, .word 0x7b002573)          /* csrr a0, dcsr: Debug Mode only */
    EXPECT_TRAP(12, 2, .word 0x7b200073)          /* dret: no Debug Mode */
    /* 13-15: environment calls and breakpoints */
    EXPECT_TRAP(13, 11, ecall)
    TEST_CASE(14, s3, 0, la t0, 2b; bne t0, s4, fail; mv s3, s3)
    EXPECT_TRAP(15, 3, ebreak)
    EXPECT_TRAP(16, 3, c.ebreak)
    /* 17-22: wild data addresses: access faults with the address in mtval */
    EXPECT_TRAP(17, 5, li a1, 0x10; ld a0, 0(a1))
    TEST_CASE(18, s3, 0x10, mv s3, s3)
    EXPECT_TRAP(19, 7, li a1, 0x20; sw a0, 0(a1))
    TEST_CASE(20, s3, 0x20, mv s3, s3)
    EXPECT_TRAP(21, 5, li a1, 0x90000000 - 4; ld a0, 0(a1))   /* straddles the end of 256M */
    EXPECT_TRAP(22, 7, li a1, 0xffffffffffffffff; sb a0, 0(a1))
    EXPECT_TRAP(23, 5, li a1, 0x02000100; lw a0, 0(a1))     /* CLINT hole */
    /* the faulting load did not write its destination */
    TEST_CASE(24, a0, 77, li a0, 77; la t0, 1f; csrw mscratch, t0; li a1, 0x10; ld a0, 0(a1); 1:)
    /* 25-26: instruction fetch from outside RAM: mepc = mtval = the target */
    EXPECT_TRAP(25, 1, li a1, 0x1000; jr a1)
    TEST_CASE(26, s3, 0x1000, li t0, 0x1000; bne s4, t0, fail; mv s3, s3)
    /* 27: trap entry: MPP = M (3), MPIE = old MIE (0 here), MIE = 0 */
    TEST_CASE(27, a0, 0x1800, la t0, 1f; csrw mscratch, t0; ecall; 1: li t1, 0x1888; and a0, s5, t1)
    /* 28: with MIE = 1 before the trap: MPIE = 1, MIE = 0 */
    TEST_CASE(28, a0, 0x1880, csrsi mstatus, 8; la t0, 1f; csrw mscratch, t0; ecall; 1: li t1, 0x1888; and a0, s5, t1)
    /* 29: mret restored MIE from MPIE (the handler's mret), MPIE = 1, MPP = U */
    TEST_CASE(29, a0, 0x88, csrr t0, mstatus; li t1, 0x1888; and a0, t0, t1; csrci mstatus, 8)
    /* 30-31: a trap starts a new 5000-instruction reservation slice (errata P-267, as
     * Spike): right after an ecall, LR then SC succeeds (a0 = 0). After another ecall,
     * counting from the handler's first instruction: handler 9 (4 csrr, li, csrs, csrr,
     * csrw, mret), la 2, li 1, delay loop 2 * 2483 = 4966, so LR is instruction 4978 and
     * SC 42 later (li, 20 rounds of 2, then SC) is 5020: the slice ends between them, 22
     * after LR and 20 before SC, so the reservation is gone and SC fails (a0 = 1). (The
     * test passes for delays 2472-2494, so the count is right to within a few.) A slice
     * counted from reset would end nowhere near: the trap is some hundreds of
     * instructions in. */
    TEST_CASE(30, a0, 0, la t0, 1f; csrw mscratch, t0; ecall; 1: la a1, lrsc_word; lr.d a2, (a1); sc.d a0, a2, (a1))
    TEST_CASE(31, a0, 1, la t0, 1f; csrw mscratch, t0; ecall; 1: la a1, lrsc_word; li t1, 2483; 2: addi t1, t1, -1; bnez t1, 2b; lr.d a2, (a1); li t1, 20; 3: addi t1, t1, -1; bnez t1, 3b; sc.d a0, a2, (a1))
    /* 32: 0xb20, one past mhpmcounter31, is no CSR: a write without a read (csrw, rd =
     * x0) is an illegal instruction like the read */
    EXPECT_TRAP(32, 2, csrw 0xb20, a0)
    /* 33-34: mhpmcounter3 (0xb03) and mhpmevent3 (0x323), the first of their families,
     * are CSRs: a write does not trap (s2 stays -1; a trap would set it to mcause) */
    TEST_CASE(33, s2, -1, la t0, 1f; csrw mscratch, t0; li s2, -1; csrw 0xb03, a0; 1:)
    TEST_CASE(34, s2, -1, la t0, 1f; csrw mscratch, t0; li s2, -1; csrw 0x323, a0; 1:)
    /* 35-36: on RV64 the odd pmpcfg numbers (pmpcfg1 0x3a1) do not exist: illegal */
    EXPECT_TRAP(35, 2, csrr a0, 0x3a1)
    EXPECT_TRAP(36, 2, csrw 0x3a1, a0)
    /* 37: trap entry itself ends the reservation (as in Spike, whose slice ends at a
     * trap), not only the xRET: LR, then an ecall whose handler (resume_handler) jumps
     * back without an mret, then SC: it fails (a0 = 1). The first ecall starts a fresh
     * slice, so the slice count alone would let the SC succeed. */
    TEST_CASE(37, a0, 1, la t0, 1f; csrw mscratch, t0; ecall; 1: la t0, resume_handler; csrr t3, mtvec; csrw mtvec, t0; la a1, lrsc_word; lr.d a2, (a1); ecall; csrw mtvec, t3; sc.d a0, a2, (a1))
    TEST_PASSFAIL

    .align 2
handler:
    TRAP_RECORD
    csrr s5, mstatus
    TRAP_RESUME_M

    .align 2
resume_handler:                 /* past the trapping ecall, still in M mode, no mret */
    csrr t1, mepc
    addi t1, t1, 4
    jr t1
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
lrsc_word:
    .dword 0
RVTEST_DATA_END
