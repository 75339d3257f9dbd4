/* Sv39 and Sv48 translation from S mode (privileged spec, "Sv39"/"Sv48"): a 1 GiB
 * gigapage maps the program at VA = PA, a 2 MiB megapage and 4 KiB pages map windows at
 * 0x40000000; faults carry cause 12/13/15 and the virtual address in mtval: store to a
 * read-only page, store with D = 0 and load with A = 0 (A/D are not set by hardware,
 * errata P-261), invalid PTE, U page from S without and with SUM, X-only page without
 * and with MXR, misaligned megapage, non-canonical address, fetch from a non-X page.
 * Traps go to M (no delegation), whose own accesses are untranslated; the handler
 * records mcause -> s2 and m_record, mtval -> s3, mepc -> s4 and resumes in S at the
 * address in sscratch. Expected values are derived
 * by hand from the page tables built below. */
#include "xphmg_test.h"

#define PT 0x80400000 /* Sv39 root; L1 +0x1000, L0 +0x2000; Sv48 root +0x3000 */
#include "sv39_test.h"

RVTEST_CODE_BEGIN
    SV_SETUP(4)
    SET_PTE(2 * 8, PTE(0x80000000, V | R | W | X | A | D))     /* VA 0x80000000: 1 GiB */
    SET_PTE(1 * 8, PTE(PT + 0x1000, V))                         /* VA 0x40000000: L1 */
    SET_PTE(0x1000 + 0 * 8, PTE(0x80600000, V | R | W | A | D)) /* 0x40000000: 2 MiB */
    SET_PTE(0x1000 + 1 * 8, PTE(PT + 0x2000, V))                /* 0x40200000: L0 */
    SET_PTE(0x1000 + 2 * 8, PTE(0x80601000, V | R | W | A | D)) /* 0x40400000: misaligned */
    SET_PTE(0x2000 + 0 * 8, PTE(0x80800000, V | R | A))         /* 0x40200000: read-only */
    SET_PTE(0x2000 + 1 * 8, PTE(0x80801000, V | R | W | A))     /* 0x40201000: D = 0 */
                                                                /* 0x40202000: invalid */
    SET_PTE(0x2000 + 3 * 8, PTE(0x80803000, V | R | W | U | A | D)) /* 0x40203000: U */
    SET_PTE(0x2000 + 4 * 8, PTE(0x80804000, V | R | W | D))     /* 0x40204000: A = 0 */
    SET_PTE(0x2000 + 5 * 8, PTE(0x80805000, V | X | A))         /* 0x40205000: X only */
    SET_PTE(0x2000 + 6 * 8, PTE(PT, V | R | W | A | D))         /* 0x40206000: the root */
    SET_PTE(0x3000 + 0 * 8, PTE(PT, V))         /* Sv48 root: VA[47:39] = 0 -> Sv39 root */
    SV_ENTER_S

s_body:
    /* 2-4: the three page sizes translate (checked through the gigapage's VA = PA) */
    TEST_CASE(2, a0, 0x1122334455667788, la a1, word_a; ld a0, 0(a1))
    TEST_CASE(3, a0, 0x5a5a, li a1, 0x40000010; li t0, 0x5a5a; sd t0, 0(a1); li a2, 0x80600010; ld a0, 0(a2))
    TEST_CASE(4, a0, 0x77, li a2, 0x80800008; li t0, 0x77; sd t0, 0(a2); li a1, 0x40200008; ld a0, 0(a1))
    /* 5-7: store page faults: read-only page, D = 0 */
    IN_S_TRAP(5, 15, li a1, 0x40200008; sd a1, 0(a1))
    TEST_CASE(6, s3, 0x40200008, mv s3, s3)
    IN_S_TRAP(7, 15, li a1, 0x40201000; sd a1, 0(a1))
    /* 8-9: invalid PTE: load page fault, mtval = the virtual address */
    IN_S_TRAP(8, 13, li a1, 0x40202010; ld a0, 0(a1))
    TEST_CASE(9, s3, 0x40202010, mv s3, s3)
    /* 10-11: a U page from S: fault with SUM = 0, readable with SUM = 1 */
    IN_S_TRAP(10, 13, li a1, 0x40203000; ld a0, 0(a1))
    TEST_CASE(11, a0, 0x99, li a2, 0x80803000; li t1, 0x99; sd t1, 0(a2); li t0, 0x40000; csrs sstatus, t0; li a1, 0x40203000; ld a0, 0(a1); csrc sstatus, t0)
    /* 12: A = 0 */
    IN_S_TRAP(12, 13, li a1, 0x40204000; ld a0, 0(a1))
    /* 13: a megapage whose PPN is not 2 MiB aligned */
    IN_S_TRAP(13, 13, li a1, 0x40400000; ld a0, 0(a1))
    /* 14-15: bits 63:39 not all equal to bit 38 */
    IN_S_TRAP(14, 13, li a1, 0x0000008000000000; ld a0, 0(a1))
    TEST_CASE(15, s3, 0x0000008000000000, mv s3, s3)
    /* 16-17: fetch from a page without X: instruction page fault at the target */
    IN_S_TRAP(16, 12, li a1, 0x40000000; jr a1)
    TEST_CASE(17, s4, 0x40000000, mv s3, s3; mv s4, s4)
    /* 18-19: an X-only page: load fault with MXR = 0, readable with MXR = 1 */
    IN_S_TRAP(18, 13, li a1, 0x40205000; ld a0, 0(a1))
    TEST_CASE(19, a0, 0x44, li a2, 0x80805000; li t1, 0x44; sd t1, 0(a2); li t0, 0x80000; csrs sstatus, t0; li a1, 0x40205000; ld a0, 0(a1); csrc sstatus, t0)
    /* 20: sfence.vma is legal in S (TVM = 0) */
    TEST_CASE(20, a0, 0, sfence.vma; li a0, 0)
    /* 21-23: Sv48: the same windows one level deeper; bit 47 set alone is not canonical */
    TEST_CASE(21, a0, 0x5a5a, li t0, (9 << 60) | ((PT + 0x3000) >> 12); csrw satp, t0; sfence.vma; li a1, 0x40000010; ld a0, 0(a1))
    IN_S_TRAP(22, 13, li a1, 0x0000800000000000; ld a0, 0(a1))
    IN_S_TRAP(23, 15, li a1, 0x40201000; sd a1, 0(a1))
    /* 24: ecall from S is cause 9 */
    IN_S_TRAP(24, 9, ecall)
    /* 25: trap entry to M leaves S's translation behind: with the program's gigapage
     * made read-only for S (through the root's writable alias at 0x40206000), the M
     * handler's store of mcause into m_record still lands, since M's accesses are
     * untranslated; S then makes the gigapage writable again and reads 9 (ecall from S) */
    TEST_CASE(25, a0, 9, li a1, 0x40206000 + 2 * 8; li t0, PTE(0x80000000, V | R | X | A | D); sd t0, 0(a1); sfence.vma; la t0, 1f; csrw sscratch, t0; ecall; 1: li t0, PTE(0x80000000, V | R | W | X | A | D); sd t0, 0(a1); sfence.vma; la a2, m_record; ld a0, 0(a2))
    TEST_PASSFAIL

    .align 2
handler:
    TRAP_RECORD
    la t0, m_record
    sd s2, 0(t0)
    csrr t0, sscratch
    csrw mepc, t0
    mret
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
word_a: .dword 0x1122334455667788
m_record: .dword 0
RVTEST_DATA_END
