/* RV64A: LR/SC success and failure paths (no reservation, reservation to another
 * address, SC after SC), every AMO with its old value in rd, 32-bit AMOs sign-extending
 * and comparing on 32 bits, and misaligned atomics raising address-misaligned
 * (cause 6 for SC/AMO, 4 for LR) with the address in mtval; what ends a reservation. */
#include "xphmg_test.h"

#define TEST_AMO(n, inst, init, src, old, new) \
    TEST_CASE(n, a0, new, la s1, word; li t0, init; sd t0, 0(s1); li a1, src; inst a2, a1, (s1); li t1, old; bne a2, t1, fail; ld a0, 0(s1))

RVTEST_CODE_BEGIN
    la t0, trap
    csrw mtvec, t0
    la s0, word
    /* LR then SC to the same address succeeds (rd = 0) and stores */
    TEST_CASE(2, a0, 0, li t0, 5; sd t0, 0(s0); lr.d a1, (s0); li a2, 9; sc.d a0, a2, (s0); ld t1, 0(s0); li t2, 9; bne t1, t2, fail; li t2, 5; bne a1, t2, fail)
    /* a second SC fails: the first SC ended the reservation; memory unchanged */
    TEST_CASE(3, a0, 1, li a2, 11; sc.d a0, a2, (s0); ld t1, 0(s0); li t2, 9; bne t1, t2, fail)
    /* SC to an address other than the reserved one fails */
    TEST_CASE(4, a0, 1, lr.d a1, (s0); addi s2, s0, 8; sc.d a0, a2, (s2))
    /* lr.w sign-extends; sc.w stores 32 bits */
    TEST_CASE(5, a0, 0xffffffff80000000, li t0, 0x80000000; sw t0, 0(s0); lr.w a0, (s0); li a2, 0x7fffffff; sc.w a3, a2, (s0); bnez a3, fail; lw t1, 0(s0); bne t1, a2, fail)
    /* AMOs: (init, src) -> old in rd, new in memory */
    TEST_AMO(6, amoswap.d, 1, 2, 1, 2)
    TEST_AMO(7, amoadd.d, -1, 2, -1, 1)
    TEST_AMO(8, amoxor.d, 0xff, 0x0f, 0xff, 0xf0)
    TEST_AMO(9, amoand.d, 0xff, 0x0f, 0xff, 0x0f)
    TEST_AMO(10, amoor.d, 0xf0, 0x0f, 0xf0, 0xff)
    TEST_AMO(11, amomin.d, -1, 1, -1, -1)
    TEST_AMO(12, amomax.d, -1, 1, -1, 1)
    TEST_AMO(13, amominu.d, -1, 1, -1, 1)
    TEST_AMO(14, amomaxu.d, -1, 1, -1, -1)
    /* 32-bit: the upper word of memory is untouched; compares are 32-bit */
    TEST_AMO(15, amoadd.w, 0x123456787fffffff, 1, 0x7fffffff, 0x1234567880000000)
    TEST_AMO(16, amomin.w, 0x0000000080000000, 1, 0xffffffff80000000, 0x0000000080000000)
    TEST_AMO(17, amominu.w, 0x0000000080000000, 1, 0xffffffff80000000, 0x0000000000000001)
    TEST_AMO(18, amomax.w, 0x00000000ffffffff, 0x100000000, 0xffffffffffffffff, 0x0000000000000000)
    TEST_AMO(19, amoswap.w, 0xaaaaaaaa00000000, 0xffffffff, 0, 0xaaaaaaaaffffffff)
    /* aq/rl spellings behave the same */
    TEST_AMO(20, amoadd.d.aqrl, 40, 2, 40, 42)
    /* misaligned atomics trap */
    TEST_CASE(21, a0, 6, addi a1, s0, 4; la t0, 1f; csrw mscratch, t0; amoadd.d a2, a2, (a1); 1: csrr a0, mcause; csrr t1, mtval; bne t1, a1, fail)
    TEST_CASE(22, a0, 4, addi a1, s0, 2; la t0, 1f; csrw mscratch, t0; lr.w a2, (a1); 1: csrr a0, mcause; csrr t1, mtval; bne t1, a1, fail)
    TEST_CASE(23, a0, 6, addi a1, s0, 1; la t0, 1f; csrw mscratch, t0; sc.w a2, a2, (a1); 1: csrr a0, mcause)
    /* an rd of x0 still performs the AMO */
    TEST_CASE(24, a0, 8, li t0, 5; sd t0, 0(s0); li a1, 3; amoadd.d x0, a1, (s0); ld a0, 0(s0))
    /* a trap between LR and SC ends the reservation (errata P-118) */
    TEST_CASE(25, a0, 1, lr.d a1, (s0); la t0, 1f; csrw mscratch, t0; ecall; 1: sc.d a0, a2, (s0))
    /* a plain store by the same hart does not (errata P-118): SC succeeds */
    TEST_CASE(26, a0, 0, lr.d a1, (s0); sd a1, 0(s0); sc.d a0, a2, (s0))
    TEST_PASSFAIL

/* Expected traps resume at the address left in mscratch. */
    .align 2
trap:
    TRAP_RESUME
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 4
word:
    .dword 0, 0
RVTEST_DATA_END
