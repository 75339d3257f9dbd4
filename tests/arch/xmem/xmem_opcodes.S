/* Every previously defined XMEM opcode (XMEM 11.2: XLDS.*, XMEM.LDG/STG/PREF/CCTL,
 * XSWZ.*, XMEM.DLOADC/DSTOREC) still executes, here once each in a legal form under
 * profiles/compress.yaml (so that the compressed pair is present), with no trap and the
 * result its own test gives in detail; configuration comes from CAP (COMP_CTL.MODE = 0
 * raw copy, EW16 from CAP.PREC for XSWZ). A removed or mis-decoded opcode traps
 * (illegal instruction) and fails its check. REQ: XMEM-147 */
#include "region_test.h"

/* clang-format off */
#define xmem_ldg(rd, rs1, hint)     .insn i 0x2b, 5, rd, rs1, hint
#define xmem_stg(rs2, rs1, hint)    .insn s 0x2b, 6, rs2, hint(rs1)
#define xmem_pref(rs1, rs2, hint)   .insn r 0x2b, 7, hint, x0, rs1, rs2
#define xmem_cctl(sel, rs1, rs2)    .insn r 0x5b, 0, sel, x0, rs1, rs2
#define xmem_stream(rs1, rs2)       .insn r 0x2b, 1, 1, x0, rs1, rs2
#define xswz_tex2ten(rd, rs1, rs2, rs3, layout) .insn r4 0x5b, 2, layout, rd, rs1, rs2, rs3
#define xswz_ten2tex(rd, rs1, rs2, rs3, layout) .insn r4 0x5b, 3, layout, rd, rs1, rs2, rs3
#define xmem_dloadc(rd, rs1, rs2, rs3, cmode)  .insn r4 0x5b, 4, cmode, rd, rs1, rs2, rs3
#define xmem_dstorec(rd, rs1, rs2, rs3, cmode) .insn r4 0x5b, 5, cmode, rd, rs1, rs2, rs3
/* Runs code; fails with testnum when it trapped. */
#define NO_TRAP(testnum, code...) test_##testnum: li TESTNUM, testnum; li s10, -1; code; li t2, -1; bne s10, t2, fail;
/* clang-format on */

RVTEST_CODE_BEGIN
    LDS_TRAP_SETUP
    la s1, buf
    li t0, 64
    NO_TRAP(2, xlds_alloc(s2, t0, 0))
    TEST_CASE(3, t1, LDS_BASE, li t2, 0xFFFF0000; and t1, s2, t2)
    li t0, 5
    sd t0, 0(s2)
    li t0, 3
    NO_TRAP(4, xlds_atoms(1, a0, t0, s2))      /* amoadd.d */
    TEST_CASE(5, a0, 5, nop)
    NO_TRAP(6, xlds_bar(4))
    li t0, 16
    NO_TRAP(7, xlds_cpy(a0, s1, s2, t0, 0))
    TEST_CASE(8, a0, 16, nop)
    TEST_CASE(9, a0, 8, ld a0, 0(s1))
    NO_TRAP(10, xlds_free(s2))
    li t0, 0x77
    NO_TRAP(11, xmem_stg(t0, s1, 0))
    NO_TRAP(12, xmem_ldg(a0, s1, 0))
    TEST_CASE(13, a0, 0x77, nop)
    li t0, 64
    NO_TRAP(14, xmem_pref(s1, t0, 0))
    NO_TRAP(15, xmem_cctl(1, s1, t0))        /* flush */
    li t3, 4
    li t0, 1 << 16
    NO_TRAP(16, xmem_stream(t3, t0))
    li t3, 0x4                               /* W 4, H 4 (EW16: 32 bytes) */
    slli t4, t3, 32
    or t3, t3, t4
    addi s3, s1, 64
    NO_TRAP(17, xswz_tex2ten(a0, s3, s1, t3, 0))
    TEST_CASE(18, a0, 32, nop)
    addi s4, s1, 128
    NO_TRAP(19, xswz_ten2tex(a0, s4, s3, t3, 0))
    TEST_CASE(20, a0, 32, nop)
    li t3, (16 << 32) | 8                    /* 8 bytes into at most 16 */
    addi s5, s1, 192
    NO_TRAP(21, xmem_dstorec(a0, s5, s1, t3, 0))
    TEST_CASE(22, a0, 8, nop)
    addi s6, s1, 224
    NO_TRAP(23, xmem_dloadc(a0, s6, s5, t3, 0))
    TEST_CASE(24, a0, 8, nop)
    TEST_CASE(25, a0, 0x77, ld a0, 0(s6))
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 6
buf:
    .skip 256
RVTEST_DATA_END
