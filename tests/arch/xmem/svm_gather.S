/* SVMEM gather (`xmem.svm`, errata Q-46/Q-47/Q-48, CAP 2.3) on the simulator, default
 * profile. SVMBASE = 0, scale 1, 64-bit indices (absolute addresses), 8-byte elements.
 * The index array points elements 1 and 3 at UNMAPPED; with PMASK bank 1 = 0b0101 those
 * elements are masked and must not be accessed: no trap, rd = 4, SVFAULTI = all ones,
 * merge keeps their buffer slots, ZMODE = 1 zeroes them. With bank 0 (all ones) element
 * 1 does fault: load access fault (cause 5), mtval = UNMAPPED, SVFAULTI = 1, rd not
 * written, element 0 done, INV_MISS set. PBANK >= 4 is illegal; SVFAULTI resets to 0
 * and is a user RW CSR; SVMLEN = 0 takes EFF_EW (16 bits at reset).
 * REQ: CAP-025 CAP-032 XMEM-063 XMEM-065 XMEM-070 XMEM-071 XMEM-072 */
#include "svm_test.h"
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    TEST_CASE(2, a0, 0, csrr a0, SVFAULTI)
    li t0, 0
    csrw SVMBASE, t0
    la t0, idx
    csrw SVMIDX, t0
    li t0, SCL_I64
    csrw SVMSCL, t0
    li t0, 8
    csrw SVMLEN, t0
    csrw SVMMODE, x0
    li t0, 5
    csrw PMASK1, t0
    /* masked elements 1 and 3 (unmapped) are not touched; merge keeps their slots */
    FILL4(buf, 0xEEEEEEEEEEEEEEEE)
    la a1, buf
    li a2, 4
    TEST_CASE(3, a0, 4, li s10, -1; xmem_svm(a0, a1, a2, 1))
    TEST_CASE(4, s10, -1, nop)
    CHECK_DW(5, buf, 0, 0x3333333333333333)
    CHECK_DW(6, buf, 1, 0xEEEEEEEEEEEEEEEE)
    CHECK_DW(7, buf, 2, 0x1111111111111111)
    CHECK_DW(8, buf, 3, 0xEEEEEEEEEEEEEEEE)
    TEST_CASE(9, a0, -1, csrr a0, SVFAULTI)
    TEST_CASE(10, a0, 0, csrr a0, XMEM_EVENTS)
    /* ZMODE = 1: masked slots are written with zero (and still not accessed) */
    li t0, PREC_ZERO
    csrw 0x7D0, t0
    FILL4(buf, 0xEEEEEEEEEEEEEEEE)
    la a1, buf
    TEST_CASE(11, a0, 4, li s10, -1; xmem_svm(a0, a1, a2, 1))
    TEST_CASE(12, s10, -1, nop)
    CHECK_DW(13, buf, 0, 0x3333333333333333)
    CHECK_DW(14, buf, 1, 0)
    CHECK_DW(15, buf, 2, 0x1111111111111111)
    CHECK_DW(16, buf, 3, 0)
    li t0, PREC_MERGE
    csrw 0x7D0, t0
    /* bank 0 = all ones: element 1 faults -> load access fault, mtval = its address */
    FILL4(buf, 0xEEEEEEEEEEEEEEEE)
    la a1, buf
    li a0, 0x55
    CAP_EXPECT_TRAP(17, 5, xmem_svm(a0, a1, a2, 0))
    TEST_CASE(18, s11, UNMAPPED, nop)
    TEST_CASE(19, a0, 0x55, nop)
    TEST_CASE(20, a0, 1, csrr a0, SVFAULTI)
    CHECK_DW(21, buf, 0, 0x3333333333333333)
    CHECK_DW(22, buf, 1, 0xEEEEEEEEEEEEEEEE)
    TEST_CASE(23, a0, 1, csrr a0, XMEM_EVENTS)
    TEST_CASE(24, a0, 0, li t0, 1; csrw XMEM_EVENTS, t0; csrr a0, XMEM_EVENTS)
    /* PBANK 4-7 do not exist: illegal instruction; bank 3 (= 0) masks everything */
    li a0, 0x55
    CAP_EXPECT_TRAP(25, 2, xmem_svm(a0, a1, a2, 4))
    CAP_EXPECT_TRAP(26, 2, xmem_svm(a0, a1, a2, 7))
    TEST_CASE(27, a0, 0x55, nop)
    FILL4(buf, 0xEEEEEEEEEEEEEEEE)
    la a1, buf
    TEST_CASE(28, a0, 4, li s10, -1; xmem_svm(a0, a1, a2, 3))
    TEST_CASE(29, s10, -1, nop)
    CHECK_DW(30, buf, 0, 0xEEEEEEEEEEEEEEEE)
    TEST_CASE(31, a0, -1, csrr a0, SVFAULTI)
    /* SVMLEN = 0: EFF_EW = 16 bits; elements 0 and 2 (bank 1) move 2 bytes each, of
     * tab[2] and tab[0], into halfwords 0 and 2 of the buffer */
    csrw SVMLEN, x0
    FILL4(buf, 0xEEEEEEEEEEEEEEEE)
    la a1, buf
    TEST_CASE(32, a0, 4, li s10, -1; xmem_svm(a0, a1, a2, 1))
    CHECK_DW(33, buf, 0, 0xEEEE1111EEEE3333)
    CHECK_DW(34, buf, 1, 0xEEEEEEEEEEEEEEEE)
    /* SVFAULTI is a user read/write CSR */
    TEST_CASE(35, a0, 0x1234, li t0, 0x1234; csrw SVFAULTI, t0; csrr a0, SVFAULTI)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
tab:
    .dword 0x1111111111111111, 0x2222222222222222, 0x3333333333333333, 0x4444444444444444
idx:
    .dword tab + 16, UNMAPPED, tab + 0, UNMAPPED
buf:
    .dword 0, 0, 0, 0
RVTEST_DATA_END
