/* Interrupts from the CLINT (base 0x02000000: msip +0, mtimecmp +0x4000, mtime +0xbff8):
 * a machine timer interrupt through vectored mtvec (entry base + 4 * 7), mcause =
 * 2^63 + 7, mepc = the interrupted instruction; no interrupt while mstatus.MIE = 0 even
 * though mip.MTIP is set; WFI waking on a pending timer with MIE = 0; a software
 * interrupt (cause 2^63 + 3) from msip; mtime advancing and writable; interrupts taken
 * in U mode with mstatus.MIE = 0; mtval = 0 on an interrupt. */
#include "xphmg_test.h"

#define CLINT     0x02000000
#define MSIP      (CLINT + 0x0)
#define MTIMECMP  (CLINT + 0x4000)
#define MTIME     (CLINT + 0xbff8)

RVTEST_CODE_BEGIN
    la t0, vectors
    ori t0, t0, 1                  /* vectored */
    csrw mtvec, t0
    li s0, MTIMECMP
    li s1, MTIME
    li s6, MSIP
    /* 2: mtime advances while instructions run */
    TEST_CASE(2, a0, 1, ld a1, 0(s1); li t0, 1000; 1: addi t0, t0, -1; bnez t0, 1b; ld a2, 0(s1); sltu a0, a1, a2)
    /* 3: timer interrupt, vectored, taken in the spin loop */
    TEST_CASE(3, s2, 0x8000000000000007, li s2, 0; ld t0, 0(s1); addi t0, t0, 5; sd t0, 0(s0); li t0, 0x80; csrs mie, t0; csrsi mstatus, 8; 1: beqz s2, 1b; csrci mstatus, 8)
    /* the handler ran at the vectored entry */
    TEST_CASE(4, s3, 7, mv s3, s3)
    /* 5: pending but MIE = 0: no trap, mip.MTIP visible */
    TEST_CASE(5, a0, 0x80, li s2, 0; sd x0, 0(s0); li t0, 100; 1: addi t0, t0, -1; bnez t0, 1b; bnez s2, fail; csrr a0, mip; andi a0, a0, 0x80)
    /* 6: mtimecmp in the future again: MTIP clears */
    TEST_CASE(6, a0, 0, li t0, -1; sd t0, 0(s0); csrr a0, mip; andi a0, a0, 0x80)
    /* 7: WFI with MIE = 0 and MTIE = 1 returns once the timer is due */
    TEST_CASE(7, a0, 0x80, ld t0, 0(s1); li t1, 100000; add t0, t0, t1; sd t0, 0(s0); wfi; csrr a0, mip; andi a0, a0, 0x80; ld t2, 0(s1); bltu t2, t0, fail)
    TEST_CASE(8, a0, 0, li t0, -1; sd t0, 0(s0); li t0, 0x80; csrc mie, t0; mv a0, x0)
    /* 9: software interrupt via msip */
    TEST_CASE(9, s2, 0x8000000000000003, li s2, 0; csrsi mie, 8; csrsi mstatus, 8; li t0, 1; sw t0, 0(s6); 1: beqz s2, 1b; csrci mstatus, 8; csrci mie, 8)
    TEST_CASE(10, s3, 3, mv s3, s3)
    /* 11: mtime is writable */
    TEST_CASE(11, a0, 1, li t0, 0x100000000; sd t0, 0(s1); ld a1, 0(s1); sltu a0, a1, t0; xori a0, a0, 1)
    /* 12: in U mode interrupts are enabled whatever mstatus.MIE says (M is above U):
     * a pending, mie-enabled timer interrupt is taken right after mret to U, with
     * MPP = U and mepc = the first U instruction */
    TEST_CASE(12, s2, 0x8000000000000007, li s2, 0; csrci mstatus, 8; li t0, 0x1800; csrc mstatus, t0; \
        la t0, 2f; csrw mepc, t0; sd x0, 0(s0); li t0, 0x80; csrs mie, t0; mret; \
        2: j 2b; 3: li t0, 0x80; csrc mie, t0)
    TEST_CASE(13, a0, 0, la t1, 2b; bne s4, t1, fail; li t1, 0x1800; and a0, s5, t1)
    /* 14: MSI and MTI pending together: MSI is taken first, then MTI (priority
     * MEI > MSI > MTI); the handlers append their number to s7 */
    TEST_CASE(14, s7, 0x37, li s7, 0; sd x0, 0(s0); li t0, 1; sw t0, 0(s6); \
        li t0, 0x88; csrs mie, t0; csrsi mstatus, 8; nop; csrci mstatus, 8; li t0, 0x88; csrc mie, t0)
    TEST_CASE(15, a0, 0x80, li t0, -1; sd t0, 0(s0); sw x0, 0(s6); li a0, 0x80)
    /* 16: the time CSR reads mtime (nothing retires between the two reads' samples
     * except the ld itself: mtime changes at most once) */
    TEST_CASE(16, a0, 1, ld a1, 0(s1); rdtime a2; sub a3, a2, a1; sltiu a0, a3, 2)
    /* 17: an interrupt writes mtval with zero (privileged spec, mtval: no trap-specific
     * information), over the all-ones left there; the MSI handler records mtval in s8 */
    TEST_CASE(17, s8, 0, li s8, -1; li t0, -1; csrw mtval, t0; li s2, 0; csrsi mie, 8; csrsi mstatus, 8; li t0, 1; sw t0, 0(s6); 1: beqz s2, 1b; csrci mstatus, 8; csrci mie, 8)
    TEST_PASSFAIL

    /* Vector table: exceptions at +0, interrupt n at +4n (4-byte jumps: no RVC). */
    .align 6
    .option push
    .option norvc
vectors:
    j unexpected
    j unexpected
    j unexpected
    j msi
    j unexpected
    j unexpected
    j unexpected
    j mti
    j unexpected
    j unexpected
    j unexpected
    j unexpected
    .option pop
msi:
    slli s7, s7, 4
    ori s7, s7, 3
    csrr s2, mcause
    csrr s8, mtval
    li s3, 3
    sw x0, 0(s6)                   /* clear msip */
    mret
mti:
    slli s7, s7, 4
    ori s7, s7, 7
    csrr s2, mcause
    csrr s4, mepc
    csrr s5, mstatus
    li s3, 7
    li t0, -1
    sd t0, 0(s0)                   /* mtimecmp = max: no more timer interrupts */
    li t0, 0x1800
    and t0, s5, t0
    beqz t0, 1f                    /* interrupted U code: resume in M after the spin */
    mret
1:  li t0, 0x1800
    csrs mstatus, t0
    la t0, 3b
    csrw mepc, t0
    mret
unexpected:
    li TESTNUM, 99
    j fail
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
