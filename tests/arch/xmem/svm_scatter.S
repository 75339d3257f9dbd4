/* SVMEM scatter (`xmem.svm` with SVMSCL.GS = 1, errata Q-46/Q-47/Q-48, CAP 2.3) on the
 * simulator. SVMBASE = 0, scale 1, 64-bit indices (absolute addresses). Elements 1 and 3
 * point at UNMAPPED; with PMASK bank 2 = 0b0101 they are masked: no store, no trap,
 * under ZMODE merge and zero alike (ZMODE governs destination registers, a scatter's
 * masked lanes just do not store). With bank 0 element 1 faults: store access fault
 * (cause 7), mtval = UNMAPPED, SVFAULTI = 1, element 0 stored. FOF = 1: rd = 1, no trap.
 * SVMLEN = 4 stores 4 bytes only; BOUND_CHECK + ALLOW_OOB_ZERO drops the element.
 * REQ: CAP-032 XMEM-063 XMEM-065 XMEM-071 XMEM-072 XMEM-068 */
#include "svm_test.h"
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    csrw SVMBASE, x0
    la t0, idx
    csrw SVMIDX, t0
    li t0, SCL_I64 | SCL_GS
    csrw SVMSCL, t0
    li t0, 8
    csrw SVMLEN, t0
    csrw SVMMODE, x0
    li t0, 5
    csrw PMASK2, t0
    la a1, src
    li a2, 4
    FILL4(dst, 0xDDDDDDDDDDDDDDDD)
    TEST_CASE(2, a0, 4, li s10, -1; xmem_svm(a0, a1, a2, 2))
    TEST_CASE(3, s10, -1, nop)
    CHECK_DW(4, dst, 0, 0xA3A3A3A3A3A3A3A3)
    CHECK_DW(5, dst, 1, 0xDDDDDDDDDDDDDDDD)
    CHECK_DW(6, dst, 2, 0xDDDDDDDDDDDDDDDD)
    CHECK_DW(7, dst, 3, 0xA1A1A1A1A1A1A1A1)
    TEST_CASE(8, a0, -1, csrr a0, SVFAULTI)
    /* ZMODE = 1 does not make masked scatter lanes store */
    li t0, PREC_ZERO
    csrw 0x7D0, t0
    FILL4(dst, 0xDDDDDDDDDDDDDDDD)
    TEST_CASE(9, a0, 4, li s10, -1; xmem_svm(a0, a1, a2, 2))
    TEST_CASE(10, s10, -1, nop)
    CHECK_DW(11, dst, 1, 0xDDDDDDDDDDDDDDDD)
    CHECK_DW(12, dst, 2, 0xDDDDDDDDDDDDDDDD)
    CHECK_DW(13, dst, 3, 0xA1A1A1A1A1A1A1A1)
    li t0, PREC_MERGE
    csrw 0x7D0, t0
    /* bank 0: element 1 faults on its store */
    FILL4(dst, 0xDDDDDDDDDDDDDDDD)
    li a0, 0x55
    CAP_EXPECT_TRAP(14, 7, xmem_svm(a0, a1, a2, 0))
    TEST_CASE(15, s11, UNMAPPED, nop)
    TEST_CASE(16, a0, 0x55, nop)
    TEST_CASE(17, a0, 1, csrr a0, SVFAULTI)
    CHECK_DW(18, dst, 3, 0xA1A1A1A1A1A1A1A1)
    CHECK_DW(19, dst, 0, 0xDDDDDDDDDDDDDDDD)
    /* FOF = 1: stop at 1 without a trap */
    li t0, SCL_I64 | SCL_GS | SCL_FOF
    csrw SVMSCL, t0
    FILL4(dst, 0xDDDDDDDDDDDDDDDD)
    TEST_CASE(20, a0, 1, li s10, -1; xmem_svm(a0, a1, a2, 0))
    TEST_CASE(21, s10, -1, nop)
    TEST_CASE(22, a0, 1, csrr a0, SVFAULTI)
    CHECK_DW(23, dst, 3, 0xA1A1A1A1A1A1A1A1)
    CHECK_DW(24, dst, 0, 0xDDDDDDDDDDDDDDDD)
    /* SVMLEN = 4: the low 4 bytes of each source element, bank 2 */
    li t0, 4
    csrw SVMLEN, t0
    FILL4(dst, 0xDDDDDDDDDDDDDDDD)
    TEST_CASE(25, a0, 4, li s10, -1; xmem_svm(a0, a1, a2, 2))
    CHECK_DW(26, dst, 3, 0xDDDDDDDDA1A1A1A1)
    CHECK_DW(27, dst, 0, 0xDDDDDDDDA2A2A2A2)
    /* BOUND_CHECK + ALLOW_OOB_ZERO: the unmapped elements are dropped, bank 0 */
    li t0, MODE_OOB_ZERO
    csrw SVMMODE, t0
    li t0, 8
    csrw SVMLEN, t0
    li t0, 1
    csrw XMEM_EVENTS, t0
    FILL4(dst, 0xDDDDDDDDDDDDDDDD)
    TEST_CASE(28, a0, 4, li s10, -1; xmem_svm(a0, a1, a2, 0))
    TEST_CASE(29, s10, -1, nop)
    TEST_CASE(30, a0, -1, csrr a0, SVFAULTI)
    CHECK_DW(31, dst, 3, 0xA1A1A1A1A1A1A1A1)
    CHECK_DW(32, dst, 0, 0xA3A3A3A3A3A3A3A3)
    TEST_CASE(33, a0, 1, csrr a0, XMEM_EVENTS)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
src:
    .dword 0xA1A1A1A1A1A1A1A1, 0xA2A2A2A2A2A2A2A2, 0xA3A3A3A3A3A3A3A3, 0xA4A4A4A4A4A4A4A4
idx:
    .dword dst + 24, UNMAPPED, dst + 0, UNMAPPED
dst:
    .dword 0, 0, 0, 0
RVTEST_DATA_END
