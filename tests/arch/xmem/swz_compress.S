/* `xmem.dloadc` / `xmem.dstorec rd, rs1, rs2, rs3[, cmode]` under the default profile
 * (errata Q-55): CAP.XMEM.CAP.COMPRESS = 0, so both are illegal instructions (cause 2;
 * XMEM 6.5: trap or plain access, this implementation traps). Every CMODE, rd not
 * written, the buffers untouched. The same instructions compress under
 * profiles/compress.yaml (comp_zstd.S). REQ: XMEM-104 XMEM-105 */
#include "svm_test.h"
#define xmem_dloadc(rd, rs1, rs2, rs3, cmode)  .insn r4 0x5b, 4, cmode, rd, rs1, rs2, rs3
#define xmem_dstorec(rd, rs1, rs2, rs3, cmode) .insn r4 0x5b, 5, cmode, rd, rs1, rs2, rs3
#define XMEM_CAP 0x7E0
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    /* precondition: COMPRESS (bit 8) = 0 in CAP.XMEM.CAP (default 0x677, errata Q-38) */
    TEST_CASE(2, t1, 0, csrr t1, XMEM_CAP; andi t1, t1, 0x100)
    la s2, src
    la s3, dst
    li s4, 8
    li a0, 0x55
    CAP_EXPECT_TRAP(3, 2, xmem_dloadc(a0, s3, s2, s4, 0))
    CAP_EXPECT_TRAP(4, 2, xmem_dloadc(a0, s3, s2, s4, 3))
    CAP_EXPECT_TRAP(5, 2, xmem_dstorec(a0, s3, s2, s4, 0))
    CAP_EXPECT_TRAP(6, 2, xmem_dstorec(a0, s3, s2, s4, 1))
    TEST_CASE(7, a0, 0x55, nop)
    CHECK_DW(8, dst, 0, 0)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
src:
    .dword 0x1122334455667788
dst:
    .dword 0
RVTEST_DATA_END
