/* PMP (privileged spec, "Physical Memory Protection"), 16 entries of 4-byte grain:
 *   entry 0 NA4 on word w0, R only; entry 1 NAPOT on the 4 KiB page pg, no permission;
 *   entry 2 off (pmpaddr2 = 0: the bottom of entry 3); entry 3 TOR [0, 2^56), RWX.
 * U-mode accesses take the first matching entry: read w0 but not write it, nothing on
 * pg (load, store, fetch: access faults 5/7/1 with the address in mtval), an access
 * straddling w0's boundary fails, the rest of memory is RWX. M mode ignores unlocked
 * entries; locking entry 1 makes it apply to M too and freezes its cfg and address;
 * a locked TOR entry also freezes the address below it.
 * With no entry active (reset) nothing is checked (errata P-262).
 * 18-26 (between 12 and 13): the hart checks nothing in S/U only when the first active
 * entry is NAPOT over every address with R, W and X, and nothing in M only without a
 * locked entry: entries that come close (no W; NAPOT [0, 2^31); NA4 on the top word; a
 * later entry over everything) are checked, and so is M after entry 0 is locked.
 * M handler: mcause -> s2, mtval -> s3, resumes in M at mscratch. */
#include "xphmg_test.h"

#define IN_U(n, cause, code...) \
    TEST_CASE(n, s2, cause, la t0, 1f; csrw mscratch, t0; li s2, -1; li t0, 0x1800; csrc mstatus, t0; la t0, 2f; csrw mepc, t0; mret; 2: code; 1:)

RVTEST_CODE_BEGIN
    la t0, handler
    csrw mtvec, t0
    /* 2: PMP all off: U mode reaches memory (ld, then an ecall back to M) */
    IN_U(2, 8, la a1, w1; ld a0, 0(a1); ecall)
    la t0, w0
    srli t0, t0, 2
    csrw pmpaddr0, t0                           /* NA4: the word's address >> 2 */
    la t0, pg
    srli t0, t0, 2
    ori t0, t0, 0x1ff                           /* NAPOT 4 KiB: 9 trailing ones */
    csrw pmpaddr1, t0
    csrw pmpaddr2, x0
    li t0, (1 << 54) - 1
    csrw pmpaddr3, t0
    li t0, (0x0f << 24) | (0x18 << 8) | 0x11
    csrw pmpcfg0, t0
    TEST_CASE(3, a0, (0x0f << 24) | (0x18 << 8) | 0x11, csrr a0, pmpcfg0)
    /* 4-5: w0 readable, not writable */
    IN_U(4, 8, la a1, w0; lw a0, 0(a1); ecall)
    IN_U(5, 7, la a1, w0; sw a0, 0(a1))
    TEST_CASE(6, a0, 0, la t0, w0; sub a0, s3, t0)
    /* 7-9: pg: load, store, fetch */
    IN_U(7, 5, la a1, pg + 8; ld a0, 0(a1))
    IN_U(8, 7, la a1, pg; sd a0, 0(a1))
    IN_U(9, 1, la a1, pg; jr a1)
    TEST_CASE(10, a0, 0, la t0, pg; sub a0, s3, t0)
    /* 11: 8 bytes from w0 - 4 match entry 0 only in part: fail */
    IN_U(11, 5, la a1, w0 - 4; ld a0, 0(a1))
    /* 12: other memory through the TOR entry */
    IN_U(12, 8, la a1, w1; ld a0, 0(a1); sd a0, 0(a1); ecall)
    /* 18-26: the first active entry alone decides the hart's shortcut (no check at all
     * when it is NAPOT over every address with R, W and X); a locked entry 0 makes M mode
     * check too. Before the locks of 14-17, after which every access is checked. */
    csrw pmpcfg0, x0
    li t0, -1
    csrw pmpaddr0, t0                           /* NAPOT over all addresses */
    li t0, 0x1d
    csrw pmpcfg0, t0                            /* R X, no W */
    IN_U(18, 7, la a1, w1; sd a0, 0(a1))
    li t0, 0x1f
    csrw pmpcfg0, t0                            /* R W X */
    IN_U(19, 8, la a1, w1; ld a0, 0(a1); sd a0, 0(a1); ecall)
    li t0, (1 << 28) - 1
    csrw pmpaddr0, t0                           /* NAPOT [0, 2^31): not the RAM */
    IN_U(20, 1, ecall)
    li t0, (1 << 54) - 1
    csrw pmpaddr0, t0                           /* NA4 on the last word below 2^56 */
    li t0, 0x17
    csrw pmpcfg0, t0                            /* R W X */
    IN_U(26, 1, ecall)
    la t0, w0
    srli t0, t0, 2
    csrw pmpaddr0, t0                           /* NA4 on w0 */
    li t0, -1
    csrw pmpaddr1, t0                           /* NAPOT over all addresses */
    li t0, (0x1f << 8) | 0x11
    csrw pmpcfg0, t0                            /* w0 R only, then everything R W X */
    IN_U(21, 7, la a1, w0; sw a0, 0(a1))
    IN_U(22, 8, la a1, w0; lw a0, 0(a1); la a1, w1; sd a0, 0(a1); ecall)
    li t0, (0x1f << 8) | 0x91
    csrw pmpcfg0, t0                            /* entry 0 locked */
    TEST_CASE(23, s2, 7, la t0, 1f; csrw mscratch, t0; li s2, -1; la a1, w0; sw a0, 0(a1); 1:)
    TEST_CASE(24, a0, 0x55, la a1, w0; lw a0, 0(a1))
    /* back to the entries of 3 (entry 0 stays locked: the same entry, now for M too) */
    la t0, pg
    srli t0, t0, 2
    ori t0, t0, 0x1ff
    csrw pmpaddr1, t0
    li t0, (0x0f << 24) | (0x18 << 8) | 0x11
    csrw pmpcfg0, t0
    TEST_CASE(25, a0, (0x0f << 24) | (0x18 << 8) | 0x91, csrr a0, pmpcfg0)
    /* 13: M mode ignores the unlocked entries */
    TEST_CASE(13, a0, 0x1234, la a1, pg; li t0, 0x1234; sd t0, 0(a1); ld a0, 0(a1))
    /* 14-16: lock entry 1: M mode faults on pg, and the entry ignores writes */
    TEST_CASE(14, s2, 5, li t0, 0x80 << 8; csrs pmpcfg0, t0; la t0, 1f; csrw mscratch, t0; li s2, -1; la a1, pg; ld a0, 0(a1); 1:)
    TEST_CASE(15, a0, 0x98, csrw pmpcfg0, x0; csrr a0, pmpcfg0; srli a0, a0, 8; andi a0, a0, 0xff)
    TEST_CASE(16, a0, 1, csrr t1, pmpaddr1; csrw pmpaddr1, x0; csrr a0, pmpaddr1; sub a0, a0, t1; seqz a0, a0)
    /* 17: a locked TOR entry (5: L | TOR, no permission, over the empty range [0, 0))
     * also freezes the address below it, its bottom: pmpaddr4 ignores the write */
    TEST_CASE(17, a0, 0, csrw pmpaddr4, x0; csrw pmpaddr5, x0; li t0, 0x88 << 40; csrs pmpcfg0, t0; li t0, 0x100; csrw pmpaddr4, t0; csrr a0, pmpaddr4)
    TEST_PASSFAIL

    .align 2
handler:
    TRAP_RECORD
    TRAP_RESUME_M
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
w1: .dword 7
    .align 4
    .word 0
w0: .word 0x55
    .align 12
pg: .fill 512, 8, 0
RVTEST_DATA_END
