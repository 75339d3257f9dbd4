/* xphmg_test.h — riscv-tests style macros for bare assembly guest tests (.S files built
 * with xphmg_guest_executable(... NOLIBC)). A test looks like:
 *
 *     #include "xphmg_test.h"
 *     RVTEST_CODE_BEGIN
 *         TEST_CASE(2, a0, 3, li a1, 1; addi a0, a1, 2)
 *         TEST_PASSFAIL
 *     RVTEST_CODE_END
 *     RVTEST_DATA_BEGIN
 *         ... test data ...
 *     RVTEST_DATA_END
 *
 * Results go to the host through tohost (Spike/qemu HTIF): value (code << 1) | 1 makes
 * the simulator exit with status code. RVTEST_PASS exits 0; RVTEST_FAIL exits with the
 * number of the failing check (TESTNUM, kept in gp, must be nonzero). An unexpected trap
 * exits with 128 + (mcause & 63) unless the test installs its own mtvec. */
/* Assembler macros: clang-format would split assembler directives (".section.x"). */
/* clang-format off */
#ifndef XPHMG_TEST_H
#define XPHMG_TEST_H

#define TESTNUM gp

#define RVTEST_RV64U
#define RVTEST_RV64UF
#define RVTEST_RV64M

/* FPU on and fcsr cleared, when the ISA has F. */
#ifdef __riscv_flen
#define XPHMG_TEST_FPU_ON                                                                 \
    li t0, 0x2000;                                                                         \
    csrs mstatus, t0;                                                                      \
    csrwi fcsr, 0;
#else
#define XPHMG_TEST_FPU_ON
#endif

/* Machine mode, FPU enabled, mtvec -> the unexpected-trap exit. CSR instructions need
 * Zicsr, which -march=rv64imac does not imply. */
#define RVTEST_CODE_BEGIN                                                                 \
    .option arch, +zicsr;                                                                  \
    .section .text.init, "ax", @progbits;                                                  \
    .globl _start;                                                                         \
    _start:                                                                                \
    la t0, xphmg_unexpected_trap;                                                          \
    csrw mtvec, t0;                                                                        \
    XPHMG_TEST_FPU_ON                                                                      \
    li TESTNUM, 0;                                                                         \
    j xphmg_test_body;                                                                     \
    .align 2;                                                                              \
    xphmg_unexpected_trap:                                                                 \
    csrr t0, mcause;                                                                       \
    andi t0, t0, 63;                                                                       \
    addi t0, t0, 128;                                                                      \
    slli t0, t0, 1;                                                                        \
    ori t0, t0, 1;                                                                         \
    la t1, tohost;                                                                         \
    1: sd t0, 0(t1);                                                                      \
    j 1b;                                                                                  \
    xphmg_test_body:

#define RVTEST_CODE_END                                                                   \
    unimp;

#define RVTEST_PASS                                                                       \
    fence;                                                                                 \
    li t0, 1;                                                                              \
    la t1, tohost;                                                                         \
    1: sd t0, 0(t1);                                                                      \
    j 1b;

/* Exit status = TESTNUM (a zero TESTNUM would read as a pass, so it becomes 1337 & 255). */
#define RVTEST_FAIL                                                                       \
    fence;                                                                                 \
    bnez TESTNUM, 2f;                                                                      \
    li TESTNUM, 1337;                                                                      \
    2: slli t0, TESTNUM, 1;                                                               \
    ori t0, t0, 1;                                                                         \
    la t1, tohost;                                                                         \
    1: sd t0, 0(t1);                                                                      \
    j 1b;

/* The mailboxes, in the .tohost section link.ld places on its own page. */
#define RVTEST_DATA_BEGIN                                                                 \
    .pushsection .tohost, "aw", @progbits;                                                 \
    .align 6;                                                                              \
    .globl tohost;                                                                         \
    tohost:                                                                                \
    .dword 0;                                                                              \
    .size tohost, 8;                                                                       \
    .align 6;                                                                              \
    .globl fromhost;                                                                       \
    fromhost:                                                                              \
    .dword 0;                                                                              \
    .size fromhost, 8;                                                                     \
    .popsection;                                                                           \
    .data;                                                                                 \
    .align 4;                                                                              \
    .globl begin_signature;                                                                \
    begin_signature:

#define RVTEST_DATA_END                                                                   \
    .align 4;                                                                              \
    .globl end_signature;                                                                  \
    end_signature:

/* A check: run code, then compare testreg with correctval (loaded into t2). */
#define TEST_CASE(testnum, testreg, correctval, code...)                                  \
    test_##testnum: li TESTNUM, testnum;                                                  \
    code;                                                                                  \
    li t2, correctval;                                                                     \
    bne testreg, t2, fail;

/* Register-register and register-immediate operation checks. */
#define TEST_RR_OP(testnum, inst, result, val1, val2)                                     \
    TEST_CASE(testnum, a4, result, li a1, val1; li a2, val2; inst a4, a1, a2)
#define TEST_IMM_OP(testnum, inst, result, val1, imm)                                     \
    TEST_CASE(testnum, a4, result, li a1, val1; inst a4, a1, imm)

/* End of the checks: fall into pass, or fail from any `bne ..., fail`. */
#define TEST_PASSFAIL                                                                     \
    bne x0, TESTNUM, pass;                                                                 \
    fail:                                                                                  \
    RVTEST_FAIL;                                                                           \
    pass:                                                                                  \
    RVTEST_PASS;

/* A test that expects traps installs its own M-mode `handler` (csrw mtvec). TRAP_RECORD
 * keeps what the checks compare: s2 = mcause, s3 = mtval, s4 = mepc. TRAP_RESUME goes on
 * at the address the test put in mscratch, in the mode that trapped; TRAP_RESUME_M in M
 * mode (MPP = M), for tests that trap from S or U and check the result in M. */
#define TRAP_RECORD csrr s2, mcause; csrr s3, mtval; csrr s4, mepc
#define TRAP_RESUME csrr t0, mscratch; csrw mepc, t0; mret
#define TRAP_RESUME_M li t0, 0x1800; csrs mstatus, t0; TRAP_RESUME

/* clang-format on */
#endif
