/* cap_test.h — shared pieces of the CAP guest tests (the .S files of tests/arch/cap).
 *
 * CAP_TRAP_SETUP installs cap_trap as mtvec. cap_trap records mcause in s10 and mtval
 * in s11, then resumes after the trapping (4-byte) instruction; an ECALL from U mode
 * instead continues in M mode at the address held in s9. CAP_EXPECT_TRAP checks the
 * recorded cause. xcvt(rd, rs1, fmtsel) emits the project instruction `xcvt` (CUSTOM-0,
 * funct3 010, errata Q-83) through GNU as's .insn. */
/* Assembler macros: clang-format would split assembler directives (".section.x"). */
/* clang-format off */
#ifndef CAP_TEST_H
#define CAP_TEST_H

#include "xphmg_test.h"

#define CAP_TRAP_SETUP                                                                    \
    la t0, cap_trap;                                                                       \
    csrw mtvec, t0;                                                                        \
    li s10, -1;                                                                            \
    li s11, 0;

#define CAP_TRAP_HANDLER                                                                  \
    .align 2;                                                                              \
    cap_trap:                                                                              \
    csrr s10, mcause;                                                                      \
    csrr s11, mtval;                                                                       \
    li t6, 8;                                                                              \
    beq s10, t6, 1f;                                                                       \
    csrr t6, mepc;                                                                         \
    addi t6, t6, 4;                                                                        \
    csrw mepc, t6;                                                                         \
    mret;                                                                                  \
    1: jr s9;

/* Runs code, then fails unless exactly one trap with cause `cause` was taken. */
#define CAP_EXPECT_TRAP(testnum, cause, code...)                                          \
    test_##testnum: li TESTNUM, testnum;                                                  \
    li s10, -1;                                                                            \
    code;                                                                                  \
    li t2, cause;                                                                          \
    bne s10, t2, fail;

#define xcvt(rd, rs1, fmtsel) .insn i 0x0b, 2, rd, rs1, fmtsel

/* CSR numbers (CAP 4 tables). */
#define CAP_ID          0x7C0
#define CAP_VERS        0x7C1
#define CAP_FLAGS       0x7C2
#define CAP_PREC_MODE   0x7D0
#define CAP_PREC_ALT    0x7D1
#define CAP_PREC_STAT   0x7D2
#define CAP_PREC_EXC_EN 0x7D3
#define CAP_PREC_EXC_ST 0x7D4
#define CAP_PREC_RSV0   0x7D5

/* clang-format on */
#endif
