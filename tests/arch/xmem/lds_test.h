/* lds_test.h — shared pieces of the LDS guest tests (tests/arch/xmem/lds_*.S).
 *
 * The instructions through GNU as's .insn (CUSTOM-1 0x2b, errata,
 * docs/xphmg-isa.md): xlds_alloc(rd, rs1, flags) funct3 000 I-type; xlds_free(rs1)
 * funct3 001; xlds_bar(lvl) funct3 010; xlds_atoms(sel, rd, rs2, rs1) funct3 011 with
 * AMO_SEL = funct7; xlds_cpy(rd, rs1, rs2, rs3, cpyf) funct3 100 R4 with CPYF = funct2.
 *
 * LDS_TRAP_SETUP installs lds_trap: mcause -> s10, mtval -> s11; an instruction fetch
 * access fault (cause 1) returns to ra (the test jumps into the LDS with jalr), any other
 * trap resumes after the 4-byte trapping instruction. LDS_EXPECT_TRAP checks the cause.
 * Addresses are written out from errata Q-50: the window at 0x10000000. */
/* Assembler macros: clang-format would split assembler directives. */
/* clang-format off */
#ifndef LDS_TEST_H
#define LDS_TEST_H

#include "xphmg_test.h"

#define xlds_alloc(rd, rs1, flags)        .insn i 0x2b, 0, rd, rs1, flags
#define xlds_free(rs1)                    .insn r 0x2b, 1, 0, x0, rs1, x0
#define xlds_bar(lvl)                     .insn i 0x2b, 2, x0, x0, lvl
#define xlds_atoms(sel, rd, rs2, rs1)     .insn r 0x2b, 3, sel, rd, rs1, rs2
#define xlds_cpy(rd, rs1, rs2, rs3, cpyf) .insn r4 0x2b, 4, cpyf, rd, rs1, rs2, rs3

/* CSR numbers (CAP 4.6.2) and CAP.XMEM.EVENTS bits (errata Q-38). */
#define XMEM_L1CFG      0x7E2
#define XMEM_LDS_BUDGET 0x7E4
#define XMEM_EVENTS     0x7EE
#define EV_INV_MISS     1
#define EV_LDS_OOM      4
#define EV_BUDGET_OVF   0x20

/* xlds.alloc FLAGS (errata Q-50): TIER 5:4, MCLASS_EN 6, MCLASS 8:7. */
#define T0   0x10
#define T1   0x20
#define MCL(n) (0x40 | ((n) << 7))

#define LDS_BASE 0x10000000
#define UNMAPPED 0x1000

#define LDS_TRAP_SETUP                                                                    \
    la t0, lds_trap;                                                                       \
    csrw mtvec, t0;                                                                        \
    li s10, -1;                                                                            \
    li s11, 0;

#define LDS_TRAP_HANDLER                                                                  \
    .align 2;                                                                              \
    lds_trap:                                                                              \
    csrr s10, mcause;                                                                      \
    csrr s11, mtval;                                                                       \
    li t6, 1;                                                                              \
    beq s10, t6, 1f;                                                                       \
    csrr t6, mepc;                                                                         \
    addi t6, t6, 4;                                                                        \
    csrw mepc, t6;                                                                         \
    mret;                                                                                  \
    1: csrw mepc, ra;                                                                     \
    mret;

/* Runs code, then fails unless a trap with cause `cause` was taken. */
#define LDS_EXPECT_TRAP(testnum, cause, code...)                                          \
    test_##testnum: li TESTNUM, testnum;                                                  \
    li s10, -1;                                                                            \
    code;                                                                                  \
    li t2, cause;                                                                          \
    bne s10, t2, fail;

/* Clears CAP.XMEM.EVENTS (W1C). */
#define CLEAR_EVENTS                                                                      \
    li t0, -1;                                                                             \
    csrw XMEM_EVENTS, t0;

/* clang-format on */
#endif
