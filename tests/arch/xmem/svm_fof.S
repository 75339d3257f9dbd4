/* SVMEM fault-only-first and bounds (errata Q-47, Q-48) on the simulator. SVMBASE = 0,
 * scale 1, 64-bit indices (absolute addresses), 8-byte elements, bank 0 (all ones).
 * FOF = 1 with element 2 unmapped: no trap, rd = 2, SVFAULTI = 2, elements 0-1 done,
 * 2-3 not issued, INV_MISS set; software fixes the index and resumes at SVFAULTI.
 * FOF = 1 with element 0 unmapped: an ordinary load access fault (cause 5, mtval = the
 * address), SVFAULTI = 0, rd not written. FOF = 0: the fault at element 2 traps with
 * SVFAULTI = 2. BOUND_CHECK + ALLOW_OOB_ZERO: the unmapped element reads 0, the
 * operation completes (rd = 4, SVFAULTI = all ones) and sets INV_MISS.
 * REQ: CAP-143 XMEM-066 XMEM-067 XMEM-068 XMEM-077 */
#include "svm_test.h"
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    csrw SVMBASE, x0
    la t0, idx
    csrw SVMIDX, t0
    li t0, SCL_I64 | SCL_FOF
    csrw SVMSCL, t0
    li t0, 8
    csrw SVMLEN, t0
    csrw SVMMODE, x0
    /* FOF stop at element 2 */
    FILL4(buf, 0xEEEEEEEEEEEEEEEE)
    la a1, buf
    li a2, 4
    TEST_CASE(2, a0, 2, li s10, -1; xmem_svm(a0, a1, a2, 0))
    TEST_CASE(3, s10, -1, nop)
    TEST_CASE(4, a0, 2, csrr a0, SVFAULTI)
    CHECK_DW(5, buf, 0, 0x2222222222222222)
    CHECK_DW(6, buf, 1, 0x4444444444444444)
    CHECK_DW(7, buf, 2, 0xEEEEEEEEEEEEEEEE)
    CHECK_DW(8, buf, 3, 0xEEEEEEEEEEEEEEEE)
    TEST_CASE(9, a0, 1, csrr a0, XMEM_EVENTS)
    li t0, 1
    csrw XMEM_EVENTS, t0
    /* resume: fix index 2, restart at element SVFAULTI with the rest of the buffer */
    la t0, idx
    la t1, tab + 16
    sd t1, 16(t0)
    csrr t3, SVFAULTI
    slli t3, t3, 3
    add t0, t0, t3
    csrw SVMIDX, t0
    add a1, a1, t3
    li a2, 2
    TEST_CASE(10, a0, 2, li s10, -1; xmem_svm(a0, a1, a2, 0))
    TEST_CASE(11, a0, -1, csrr a0, SVFAULTI)
    CHECK_DW(12, buf, 2, 0x3333333333333333)
    CHECK_DW(13, buf, 3, 0x1111111111111111)
    TEST_CASE(14, a0, 0, csrr a0, XMEM_EVENTS)
    /* FOF with element 0 faulting: an ordinary trap */
    la t0, idx
    li t1, UNMAPPED
    sd t1, 16(t0)
    addi t0, t0, 16
    csrw SVMIDX, t0
    FILL4(buf, 0xEEEEEEEEEEEEEEEE)
    la a1, buf
    li a0, 0x55
    CAP_EXPECT_TRAP(15, 5, xmem_svm(a0, a1, a2, 0))
    TEST_CASE(16, s11, UNMAPPED, nop)
    TEST_CASE(17, a0, 0x55, nop)
    TEST_CASE(18, a0, 0, csrr a0, SVFAULTI)
    CHECK_DW(19, buf, 0, 0xEEEEEEEEEEEEEEEE)
    /* FOF = 0: the fault at element 2 traps, SVFAULTI = 2, elements 0-1 done */
    la t0, idx
    csrw SVMIDX, t0
    li t0, SCL_I64
    csrw SVMSCL, t0
    li a2, 4
    li a0, 0x55
    CAP_EXPECT_TRAP(20, 5, xmem_svm(a0, a1, a2, 0))
    TEST_CASE(21, s11, UNMAPPED, nop)
    TEST_CASE(22, a0, 0x55, nop)
    TEST_CASE(23, a0, 2, csrr a0, SVFAULTI)
    CHECK_DW(24, buf, 1, 0x4444444444444444)
    CHECK_DW(25, buf, 2, 0xEEEEEEEEEEEEEEEE)
    /* BOUND_CHECK + ALLOW_OOB_ZERO: element 2 reads 0, completes (FOF too) */
    li t0, 1
    csrw XMEM_EVENTS, t0
    li t0, MODE_OOB_ZERO
    csrw SVMMODE, t0
    li t0, SCL_I64 | SCL_FOF
    csrw SVMSCL, t0
    FILL4(buf, 0xEEEEEEEEEEEEEEEE)
    la a1, buf
    TEST_CASE(26, a0, 4, li s10, -1; xmem_svm(a0, a1, a2, 0))
    TEST_CASE(27, s10, -1, nop)
    TEST_CASE(28, a0, -1, csrr a0, SVFAULTI)
    CHECK_DW(29, buf, 1, 0x4444444444444444)
    CHECK_DW(30, buf, 2, 0)
    CHECK_DW(31, buf, 3, 0x1111111111111111)
    TEST_CASE(32, a0, 1, csrr a0, XMEM_EVENTS)
    /* BOUND_CHECK alone: the fault comes back (FOF stop at 2) */
    li t0, 1
    csrw SVMMODE, t0
    TEST_CASE(33, a0, 2, li s10, -1; xmem_svm(a0, a1, a2, 0))
    TEST_CASE(34, a0, 2, csrr a0, SVFAULTI)
    /* software keeps its restart point there: SVFAULTI takes a write */
    TEST_CASE(35, a0, 0x77, li t0, 0x77; csrw SVFAULTI, t0; csrr a0, SVFAULTI)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
tab:
    .dword 0x1111111111111111, 0x2222222222222222, 0x3333333333333333, 0x4444444444444444
idx:
    .dword tab + 8, tab + 24, UNMAPPED, tab + 0
buf:
    .dword 0, 0, 0, 0
RVTEST_DATA_END
