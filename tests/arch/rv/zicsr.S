/* Zicsr and the machine CSRs: read/set/clear semantics (old value in rd, no write when
 * rs1 = x0 or uimm = 0, so read-only CSRs can be read with csrrs/csrrc), WARL fields
 * (misa fixed but for C, mtvec modes, mepc bit 0 and with C clear bits 1:0, MPP legal values),
 * identification registers,
 * minstret/mcycle counting exactly one per retired instruction and writable. */
#include "xphmg_test.h"
RVTEST_CODE_BEGIN
    TEST_CASE(2, a0, 0x5, li t0, 0x5; csrw mscratch, t0; li t1, 0xa; csrrw a0, mscratch, t1; csrr a1, mscratch; li t2, 0xa; bne a1, t2, fail)
    TEST_CASE(3, a0, 0xa, li t1, 0x5; csrrs a0, mscratch, t1; csrr a1, mscratch; li t2, 0xf; bne a1, t2, fail)
    TEST_CASE(4, a0, 0xf, li t1, 0x3; csrrc a0, mscratch, t1; csrr a1, mscratch; li t2, 0xc; bne a1, t2, fail)
    TEST_CASE(5, a0, 0xc, csrrwi a0, mscratch, 31; csrr a1, mscratch; li t2, 31; bne a1, t2, fail)
    TEST_CASE(6, a1, 31, csrrsi a0, mscratch, 0; csrrci a0, mscratch, 0; csrr a1, mscratch)
    /* read-only CSRs read with csrrs/csrrc x0 and csrrsi/csrrci 0 */
    TEST_CASE(7, a0, 0, csrrs a0, mhartid, x0; csrrc a1, mvendorid, x0; csrrsi a2, marchid, 0; csrrci a3, mimpid, 0; or a0, a0, a1; or a0, a0, a2; or a0, a0, a3)
    /* misa: RV64 (MXL = 2) with A C D F I M S U and X (errata P-94, P-260); writes
     * change nothing but C, which stays set here (C bit written as 1) */
    TEST_CASE(8, a0, 0x800000000094112d, csrr a0, misa; li t0, 4; csrw misa, t0; csrr a1, misa; bne a0, a1, fail)
    /* mtvec: direct and vectored modes kept, reserved mode 2/3 not */
    TEST_CASE(9, a0, 0x80000101, li t0, 0x80000101; csrw mtvec, t0; csrr a0, mtvec)
    TEST_CASE(10, a0, 0x80000100, li t0, 0x80000102; csrw mtvec, t0; csrr a0, mtvec)
    /* mepc bit 0 reads zero (IALIGN = 16) */
    TEST_CASE(11, a0, 0x1234, li t0, 0x1235; csrw mepc, t0; csrr a0, mepc)
    /* MPP: M (3), S (1) and U (0) are legal; H (2) reads as U */
    TEST_CASE(12, a0, 0, li t0, 0x1800; csrc mstatus, t0; li t0, 0x1000; csrs mstatus, t0; csrr a0, mstatus; li t1, 0x1800; and a0, a0, t1)
    /* mstatus.UXL = 2 (64-bit U) */
    TEST_CASE(13, a0, 2, csrr a0, mstatus; srli a0, a0, 32; andi a0, a0, 3)
    /* minstret: exactly 3 instructions retire between the two reads */
    TEST_CASE(14, a0, 3, csrr a1, minstret; nop; nop; csrr a2, minstret; sub a0, a2, a1)
    TEST_CASE(15, a0, 3, csrr a1, mcycle; nop; nop; csrr a2, mcycle; sub a0, a2, a1)
    TEST_CASE(16, a0, 3, rdinstret a1; nop; nop; rdinstret a2; sub a0, a2, a1)
    /* a write is what the next instruction sees */
    TEST_CASE(17, a0, 1000, li t0, 1000; csrw minstret, t0; csrr a0, minstret)
    TEST_CASE(18, a0, 2000, li t0, 2000; csrw mcycle, t0; csrr a0, mcycle)
    /* fcsr = frm << 5 | fflags, each field reachable on its own */
    TEST_CASE(19, a0, 0x7f, csrwi fcsr, 0; csrwi fflags, 0x1f; csrwi frm, 3; csrr a0, fcsr)
    TEST_CASE(20, a0, 0x1f, csrr a0, fflags; csrwi fcsr, 0)
    /* hpm counters and events read zero */
    TEST_CASE(21, a0, 0, csrr a0, mhpmcounter3; csrw mhpmevent3, t0; csrr a1, mhpmevent3; or a0, a0, a1)
    /* pmp registers accept writes */
    TEST_CASE(22, a0, 0x1f, li t0, 0x1f; csrw pmpcfg0, t0; csrr a0, pmpcfg0; csrw pmpcfg0, x0)
    /* 23-24: with misa.C clear (IALIGN = 32) mepc and sepc read with bits 1:0 zero, and
     * the bit 1 written stays stored: it reads again once C is set. Uncompressed code at a
     * 4-byte aligned pc, so clearing C takes effect. */
    .balign 4
    .option push
    .option norvc
    TEST_CASE(23, a0, 0x1234, li t0, 0x1236; csrw mepc, t0; csrw sepc, t0; li t1, 4; csrc misa, t1; csrr a0, mepc; csrr a2, sepc; csrs misa, t1; csrr a1, mepc; li t2, 0x1236; bne a1, t2, fail; bne a0, a2, fail)
    TEST_CASE(24, a0, 0x1236, csrr a0, sepc)
    .option pop
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
