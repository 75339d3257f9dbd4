/* Translated code and a PMP change that keeps the translator's mode (docs/sim.md,
 * "Translator": blocks are keyed by pc, privilege and whether accesses are checked). A
 * locked PMP entry (entry 1, over a page the program never touches) makes M mode's
 * accesses checked, so `func` is translated in the checked mode; then locked entry 0
 * takes X away from func's page (R only), and the mode stays the same: the next call
 * must be an instruction access fault (mcause 1, mtval = mepc = func). Translations
 * checked their fetches against the PMP as it was, so a PMP write drops them.
 * Interpreted, translated and side by side. Handler: as in priv_trap.S. */
#include "xphmg_test.h"

#define FAR_PAGE 0x80F00000

RVTEST_CODE_BEGIN
    la t0, handler
    csrw mtvec, t0
    /* entry 1: locked NAPOT 4 KiB, RWX (cfg 0x9f in pmpcfg0 byte 1) over FAR_PAGE */
    li t0, (FAR_PAGE >> 2) | 0x1ff
    csrw pmpaddr1, t0
    li t0, 0x9f << 8
    csrw pmpcfg0, t0
    /* The handler's resume address, set before func is translated: between the call
     * below that translates it and the call that must fault, only the PMP writes may
     * change what the translator keeps. */
    la t0, 1f
    csrw mscratch, t0
    /* 2: func returns 7, called often enough to be translated */
    la s0, func
    li s1, 64
5:  li a0, 0
    jalr ra, s0
    addi s1, s1, -1
    bnez s1, 5b
    TEST_CASE(2, a0, 7, nop)
    /* 3-6: entry 0 locked NAPOT over func's page, R only (cfg 0x99): the call faults */
    li s2, -1
    li a0, 0
    srli t0, s0, 2
    ori t0, t0, 0x1ff
    csrw pmpaddr0, t0
    li t0, (0x9f << 8) | 0x99
    csrw pmpcfg0, t0
    jalr ra, s0
1:  TEST_CASE(3, s2, 1, nop)
    TEST_CASE(4, s3, 0, sub s3, s3, s0)
    TEST_CASE(5, s4, 0, sub s4, s4, s0)
    TEST_CASE(6, a0, 0, nop)
    TEST_PASSFAIL

    .align 2
handler:
    TRAP_RECORD
    TRAP_RESUME

    .align 12
func:                           /* alone on its 4 KiB page */
    li a0, 7
    ret
    .align 12
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
