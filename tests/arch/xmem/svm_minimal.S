/* SVMEM predication under profiles/minimal.yaml, whose PMASK has banks 0 and 1 only
 * (CAP.PMASK.CAP.PMASK_BANKS_M1 = 1; errata Q-36, Q-62): PBANK 1 predicates (bank 1 =
 * 0b01 completes element 0 only, a masked element never touches its unmapped address),
 * PBANK 2 and 3 name banks this profile does not have and are illegal instructions, rd
 * unwritten, like PBANK 4-7 everywhere.
 * REQ: XMEM-070 */
#include "svm_test.h"
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    li t0, 0
    csrw SVMBASE, t0
    la t0, idx
    csrw SVMIDX, t0
    li t0, SCL_I64
    csrw SVMSCL, t0
    li t0, 8
    csrw SVMLEN, t0
    csrw SVMMODE, x0
    li t0, 1
    csrw PMASK1, t0
    la a1, buf
    li a2, 2
    TEST_CASE(2, a0, 2, li s10, -1; xmem_svm(a0, a1, a2, 1))
    TEST_CASE(3, s10, -1, nop)
    CHECK_DW(4, buf, 0, 0x1111111111111111)
    li a0, 0x55
    CAP_EXPECT_TRAP(5, 2, xmem_svm(a0, a1, a2, 2))
    CAP_EXPECT_TRAP(6, 2, xmem_svm(a0, a1, a2, 3))
    CAP_EXPECT_TRAP(7, 2, xmem_svm(a0, a1, a2, 4))
    TEST_CASE(8, a0, 0x55, nop)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
tab:
    .dword 0x1111111111111111
idx:
    .dword tab, UNMAPPED
buf:
    .dword 0, 0
RVTEST_DATA_END
