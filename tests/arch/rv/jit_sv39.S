/* Translated code under Sv39 and the PMP (docs/sim.md, "Translator"): what must drop or
 * re-key a translation, each checked by running the same virtual address again after
 * the change. Run interpreted, translated and side by side (CMakeLists.txt); expected
 * values are derived by hand from the page tables built below.
 *   - a store through a writable alias of a code page (no fence.i: the hart's stores
 *     invalidate decoded code, docs/sim.md "How it is fast");
 *   - a leaf PTE rewritten, without sfence.vma: the hart has no TLB, every access walks
 *     (errata P-400), so the next fetch sees the new page;
 *   - satp switched to another root that maps the same VA elsewhere;
 *   - the PMP revoking X on the physical page (fetch access fault, cause 1, mtval = VA);
 *   - a U page: executes in U, is a fetch page fault in S (privilege in the key);
 *   - a fetch page fault when straight-line code runs off its page (mtval = mepc = the
 *     first VA of the unmapped page), a load page fault in a loop (mtval = the VA,
 *     mepc = the load), a 4-byte instruction whose halves lie on two physical pages that
 *     are not adjacent;
 *   - M mode with MPRV = 1 and MPP = S: loads translated in a loop run in M mode;
 *   - a U page read in S with SUM = 1, then with SUM = 0 (a load page fault);
 *   - a misaligned load across two pages that are not adjacent in RAM.
 * Traps go to M (no delegation): the handler records mcause -> s2, mtval -> s3,
 * mepc -> s4, and resumes in S at sscratch; an ecall from S with a7 = 1, 2, 3 is a
 * service instead (1: PMP entry 0 makes page_r1 read-only, 2: back to RWX everywhere,
 * 3: sum of the four dwords at VA 0x40208000 read in M mode under MPRV into a0), which
 * resumes after the ecall. */
#include "xphmg_test.h"

#define PT  0x80400000 /* root A; L1 +0x1000, L0 +0x2000; root B +0x3000, L1 +0x4000, L0 +0x5000 */
#define DATA 0x80410000 /* the data page mapped at VA 0x40208000 */
#include "sv39_test.h"

/* PTE at table offset `off` -> the page at `label`, flags fl */
#define SET_PTE_LA(off, label, fl) la t0, label; srli t0, t0, 12; slli t0, t0, 10; \
    ori t0, t0, fl; li t1, PT + (off); sd t0, 0(t1)

/* Calls VA `va` n times, a0 = the sum of what it returned. */
#define CALL_N(va, n) li s5, n; li s6, 0; li s7, va; 7: jalr s7; add s6, s6, a0; \
    addi s5, s5, -1; bnez s5, 7b; mv a0, s6

RVTEST_CODE_BEGIN
    li t0, -1                                   /* PMP entry 1 too (service 1) */
    csrw pmpaddr1, t0
    SV_SETUP(6)
    /* root A */
    SET_PTE(2 * 8, PTE(0x80000000, V | R | W | X | A | D))     /* VA 0x80000000: 1 GiB, VA = PA */
    SET_PTE(1 * 8, PTE(PT + 0x1000, V))                         /* VA 0x40000000: L1 */
    SET_PTE(0x1000 + 1 * 8, PTE(PT + 0x2000, V))                /* VA 0x40200000: L0 */
    SET_PTE_LA(0x2000 + 0 * 8, page_r1, V | R | X | A)          /* 0x40200000: r1 */
    SET_PTE_LA(0x2000 + 1 * 8, page_r1, V | R | W | A | D)      /* 0x40201000: r1, writable */
    SET_PTE_LA(0x2000 + 2 * 8, page_end, V | R | X | A)         /* 0x40202000: runs off */
                                                                /* 0x40203000: invalid */
    SET_PTE_LA(0x2000 + 4 * 8, page_s1, V | R | X | A)          /* 0x40204000: straddle, */
    SET_PTE_LA(0x2000 + 5 * 8, page_s2, V | R | X | A)          /* 0x40205000: its 2nd half */
    SET_PTE(0x2000 + 6 * 8, PTE(PT + 0x2000, V | R | W | A | D)) /* 0x40206000: this L0 */
    SET_PTE_LA(0x2000 + 7 * 8, page_u, V | R | X | U | A)       /* 0x40207000: U code */
    SET_PTE(0x2000 + 8 * 8, PTE(DATA, V | R | W | A | D))       /* 0x40208000: data */
                                                                /* 0x40209000: invalid */
    /* root B: the same gigapage, VA 0x40200000 -> r2 */
    SET_PTE(0x3000 + 2 * 8, PTE(0x80000000, V | R | W | X | A | D))
    SET_PTE(0x3000 + 1 * 8, PTE(PT + 0x4000, V))
    SET_PTE(0x4000 + 1 * 8, PTE(PT + 0x5000, V))
    SET_PTE_LA(0x5000 + 0 * 8, page_r2, V | R | X | A)
    li a7, 0
    SV_ENTER_S

s_body:
    /* 2: r1 through its VA, ten calls (translated from the second on) */
    TEST_CASE(2, a0, 10, CALL_N(0x40200000, 10))
    /* 3-4: its first instruction rewritten to addi a0, zero, 3 through the writable
     * alias, then back */
    TEST_CASE(3, a0, 30, li t0, 0x00300513; li t1, 0x40201000; sw t0, 0(t1); CALL_N(0x40200000, 10))
    TEST_CASE(4, a0, 10, li t0, 0x00100513; li t1, 0x40201000; sw t0, 0(t1); CALL_N(0x40200000, 10))
    /* 5-6: the leaf PTE of 0x40200000 rewritten to r2 (through the L0's own VA), back */
    TEST_CASE(5, a0, 20, la t0, page_r2; srli t0, t0, 12; slli t0, t0, 10; ori t0, t0, V | R | X | A; li t1, 0x40206000; sd t0, 0(t1); CALL_N(0x40200000, 10))
    TEST_CASE(6, a0, 10, la t0, page_r1; srli t0, t0, 12; slli t0, t0, 10; ori t0, t0, V | R | X | A; li t1, 0x40206000; sd t0, 0(t1); CALL_N(0x40200000, 10))
    /* 7-8: root B, then root A again */
    TEST_CASE(7, a0, 20, li t0, (8 << 60) | ((PT + 0x3000) >> 12); csrw satp, t0; CALL_N(0x40200000, 10))
    TEST_CASE(8, a0, 10, li t0, (8 << 60) | (PT >> 12); csrw satp, t0; CALL_N(0x40200000, 10))
    /* 9-11: the PMP takes X away from r1's page: fetch access fault at the VA */
    IN_S_TRAP(9, 1, li a7, 1; ecall; li a7, 0; CALL_N(0x40200000, 10))
    TEST_CASE(10, s3, 0x40200000, mv s3, s3)
    TEST_CASE(11, a0, 10, li a7, 2; ecall; li a7, 0; CALL_N(0x40200000, 10))
    /* 12-15: straight-line code from 0x40202ff8 runs into the invalid page: cause 12,
     * mtval = mepc = 0x40203000, after both instructions ran (a0 = 6) */
    IN_S_TRAP(12, 12, li a0, 0; li t0, 0x40202ff8; jr t0)
    TEST_CASE(13, s3, 0x40203000, mv s3, s3)
    TEST_CASE(14, s4, 0x40203000, mv s4, s4)
    TEST_CASE(15, a0, 6, mv a0, a0)
    /* 16-19: loads every 512 bytes from 0x40208000 until the invalid page: the ninth
     * faults (cause 13, mtval 0x40209000, mepc = the load) */
    IN_S_TRAP(16, 13, li a1, 0x40208000; li a0, 0; 3: ld t0, 0(a1); addi a0, a0, 1; addi a1, a1, 512; j 3b)
    TEST_CASE(17, s3, 0x40209000, mv s3, s3)
    TEST_CASE(18, t3, 0, la t1, 3b; sub t3, s4, t1)
    TEST_CASE(19, a0, 8, mv a0, a0)
    /* 20: the 4-byte addi a0, a0, 7 at 0x40204ffe, halves on two physical pages */
    TEST_CASE(20, a0, 70, CALL_N(0x40204ffc, 10))
    /* 21-23: U code at 0x40207000 runs in U (addi a0, zero, 9; ecall: cause 8); the same
     * VA from S is a fetch page fault */
    IN_S_TRAP(21, 8, li t0, 0x100; csrc sstatus, t0; li t0, 0x40207000; csrw sepc, t0; li a0, 0; sret)
    TEST_CASE(22, a0, 9, mv a0, a0)
    IN_S_TRAP(23, 12, CALL_N(0x40207000, 1))
    /* 24: M mode under MPRV with MPP = S reads the data page through its VA */
    TEST_CASE(24, a0, 0x64, li t1, 0x40208000; li t0, 0x10; sd t0, 0(t1); li t0, 0x20; sd t0, 8(t1); li t0, 0x30; sd t0, 16(t1); li t0, 0x4; sd t0, 24(t1); li a7, 3; ecall; li a7, 0)
    /* 25-26: the U page read from S in a loop with SUM = 1, then with SUM = 0: a load
     * page fault (what data translation depends on changed between the two) */
    TEST_CASE(25, a0, 0x00900513, li t0, 0x40000; csrs sstatus, t0; li s5, 4; 5: li a1, 0x40207000; lw a0, 0(a1); addi s5, s5, -1; bnez s5, 5b; csrc sstatus, t0)
    IN_S_TRAP(26, 13, li s5, 4; 6: li a1, 0x40207000; lw a0, 0(a1); addi s5, s5, -1; bnez s5, 6b)
    /* 27: a misaligned dword across 0x40205000 (pages not adjacent in RAM), four times:
     * 0x4501 0x0513 from page_s1's end, 0x0075 and ret's low half 0x8067 from page_s2 */
    TEST_CASE(27, a0, 0x8067007505134501, li s5, 4; 5: li a1, 0x40204ffc; ld a0, 0(a1); addi s5, s5, -1; bnez s5, 5b)
    TEST_PASSFAIL

    .balign 4
    .option push
    .option norvc /* from here on: whole pages of 4-byte instructions, 4-byte padding */
handler:
    TRAP_RECORD
    li t0, 9
    bne s2, t0, resume_s
    li t0, 1
    beq a7, t0, pmp_deny
    li t0, 2
    beq a7, t0, pmp_allow
    li t0, 3
    beq a7, t0, mprv_sum
resume_s:
    csrr t0, sscratch
resume_t0:
    csrw mepc, t0
    li t0, 0x1800
    csrc mstatus, t0
    li t0, 0x0800
    csrs mstatus, t0
    mret
service_done:
    addi t0, s4, 4
    j resume_t0
pmp_deny: /* entry 0: r1's 4 KiB NAPOT, R only; entry 1: everything RWX */
    la t0, page_r1
    srli t0, t0, 2
    ori t0, t0, 0x1ff
    csrw pmpaddr0, t0
    li t0, -1
    csrw pmpaddr1, t0
    li t0, 0x1f19
    csrw pmpcfg0, t0
    j service_done
pmp_allow:
    li t0, -1
    csrw pmpaddr0, t0
    li t0, 0x1f
    csrw pmpcfg0, t0
    j service_done
mprv_sum: /* MPP is S (the ecall came from S) */
    li t1, 0x20000
    csrs mstatus, t1
    li t2, 0x40208000
    li a0, 0
    li t3, 4
4:  ld t0, 0(t2)
    add a0, a0, t0
    addi t2, t2, 8
    addi t3, t3, -1
    bnez t3, 4b
    csrc mstatus, t1
    j service_done

    .align 12
page_r1:                        /* VA 0x40200000 */
    addi a0, zero, 1
    ret
    .align 12
page_s2:                        /* VA 0x40205000: the second half of page_s1's last insn */
    .half 0x0075
    ret
    .option rvc
    c.nop                       /* back to a 4-byte boundary */
    .option norvc
    .align 12
page_r2:                        /* VA 0x40200000 under root B, or under the rewritten PTE */
    addi a0, zero, 2
    ret
    .align 12
page_s1:                        /* VA 0x40204000 */
    .fill 0xffc / 4, 4, 0x00000013
    .half 0x4501                /* 0x40204ffc: c.li a0, 0 */
    .half 0x0513                /* 0x40204ffe: addi a0, a0, 7 (0x00750513), first half */
    .align 12
page_end:                       /* VA 0x40202000 */
    .fill 0xff8 / 4, 4, 0x00000013
    addi a0, a0, 5              /* 0x40202ff8 */
    addi a0, a0, 1              /* 0x40202ffc, then 0x40203000: unmapped */
    .align 12
page_u:                         /* VA 0x40207000 */
    addi a0, zero, 9
    ecall
    .align 12
    .option pop
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
pad: .dword 0
RVTEST_DATA_END
