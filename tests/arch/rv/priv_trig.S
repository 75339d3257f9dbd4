/* Sdtrig mcontrol (type 2) triggers, address match, action = breakpoint exception
 * (debug spec, "Match Control"): tselect 0..3, tdata1 reads back type 2 with the mode
 * and access bits written, an execute trigger traps before the instruction (mepc =
 * mtval = its address), a load or store trigger before the access (mtval = the address;
 * the load's rd and the stored memory unchanged); in M mode a trigger fires only while
 * mstatus.MIE = 1 (no tcontrol); a trigger for U mode only does not fire in M; another
 * type written makes a disabled trigger (type 15). errata P-265.
 * M handler: mcause -> s2, mtval -> s3, mepc -> s4, resumes at mscratch, MIE restored
 * by mret from MPIE. */
#include "xphmg_test.h"

#define MC(bits) ((2 << 60) | (bits))
#define MC_M 0x40
#define MC_U 0x08
#define MC_X 0x04
#define MC_ST 0x02
#define MC_LD 0x01

RVTEST_CODE_BEGIN
    la t0, handler
    csrw mtvec, t0
    csrsi mstatus, 8                            /* MIE = 1 (mie = 0: no interrupt) */
    TEST_CASE(2, a0, 3, li t0, 3; csrw tselect, t0; li t0, 4; csrw tselect, t0; csrr a0, tselect)
    TEST_CASE(3, a0, MC(MC_M | MC_X), csrw tselect, x0; li t0, MC(MC_M | MC_X); csrw tdata1, t0; csrr a0, tdata1)
    /* 4-6: execute */
    TEST_CASE(4, s2, 3, la t0, 4f; csrw tdata2, t0; la t0, 1f; csrw mscratch, t0; li s2, -1; li a0, 0; 4: li a0, 1; 1:)
    TEST_CASE(5, a0, 0, mv a0, a0)
    TEST_CASE(6, a0, 0, la t0, 4b; sub a0, s3, t0; sub t1, s4, t0; or a0, a0, t1)
    /* 7-8: load: rd unchanged, mtval = the address */
    TEST_CASE(7, s2, 3, li t0, MC(MC_M | MC_LD); csrw tdata1, t0; la a1, d0; csrw tdata2, a1; la t0, 1f; csrw mscratch, t0; li a0, 9; ld a0, 0(a1); 1:)
    TEST_CASE(8, a0, 9, la t0, d0; bne s3, t0, fail)
    /* 9-10: store: memory unchanged */
    TEST_CASE(9, s2, 3, li t0, MC(MC_M | MC_ST); csrw tdata1, t0; la t0, 1f; csrw mscratch, t0; li s2, -1; la a1, d0; li t1, 5; sd t1, 0(a1); 1:)
    TEST_CASE(10, a0, 0x77, csrw tdata1, x0; la a1, d0; ld a0, 0(a1))
    /* 11: type 0 written: disabled (type 15) */
    TEST_CASE(11, a0, 15, csrr a0, tdata1; srli a0, a0, 60)
    /* 12: MIE = 0: an M-mode trigger does not fire */
    TEST_CASE(12, a0, 0x77, csrci mstatus, 8; li t0, MC(MC_M | MC_LD); csrw tdata1, t0; la a1, d0; ld a0, 0(a1); csrw tdata1, x0; csrsi mstatus, 8)
    /* 13: a U-only trigger does not fire in M */
    TEST_CASE(13, a0, 0x77, li t0, MC(MC_U | MC_LD); csrw tdata1, t0; la a1, d0; ld a0, 0(a1); csrw tdata1, x0)
    /* 14: trigger 1 works on its own */
    TEST_CASE(14, s2, 3, li t0, 1; csrw tselect, t0; li t0, MC(MC_M | MC_LD); csrw tdata1, t0; la a1, d0; csrw tdata2, a1; la t0, 1f; csrw mscratch, t0; li s2, -1; ld a0, 0(a1); 1: csrw tdata1, x0)
    TEST_PASSFAIL

    .align 2
handler:
    TRAP_RECORD
    TRAP_RESUME_M
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
d0: .dword 0x77
RVTEST_DATA_END
