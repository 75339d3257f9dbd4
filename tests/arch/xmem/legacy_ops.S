/* The XMEM opcodes of the earlier drafts are all still there (XMEM 11.2) and take their
 * configuration from CAP.XMEM / CAP.PREC (errata Q-49, default profile): xlds.alloc /
 * free / bar / atoms / cpy, xmem.ldg / stg / pref / cctl, xswz.tex2ten / ten2tex each
 * execute, and their CAP inputs change what they do — the allocation class follows
 * L1CFG.ACTIVE_CLASS, a lock follows L1CFG.LOCK_EN (LOCK_OVF), the relayout element
 * size follows the effective element width. xmem.dloadc / dstorec remain decoded and
 * take the COMPRESS = 0 choice of XMEM 6.5 this profile documents: illegal instruction.
 * REQ: XMEM-147 */
#include "region_test.h"
/* clang-format off */
#define xmem_ldg(rd, rs1, hint)     .insn i 0x2b, 5, rd, rs1, hint
#define xmem_stg(rs2, rs1, hint)    .insn s 0x2b, 6, rs2, hint(rs1)
#define xmem_pref(rs1, rs2, hint)   .insn r 0x2b, 7, hint, x0, rs1, rs2
#define xmem_cctl(sel, rs1, rs2)    .insn r 0x5b, 0, sel, x0, rs1, rs2
#define xswz_tex2ten(rd, rs1, rs2, rs3, layout) .insn r4 0x5b, 2, layout, rd, rs1, rs2, rs3
#define xswz_ten2tex(rd, rs1, rs2, rs3, layout) .insn r4 0x5b, 3, layout, rd, rs1, rs2, rs3
#define xmem_dloadc(rd, rs1, rs2, rs3, cmode)  .insn r4 0x5b, 4, cmode, rd, rs1, rs2, rs3
#define xmem_dstorec(rd, rs1, rs2, rs3, cmode) .insn r4 0x5b, 5, cmode, rd, rs1, rs2, rs3
/* clang-format on */
#define PREC_MODE 0x7D0
#define PREC_EW8  0x80000000
#define PREC_EW32 0x80100000
#define EV_LOCK_OVF 2
RVTEST_CODE_BEGIN
    .option norvc
    LDS_TRAP_SETUP
    /* xlds.alloc: the class is L1CFG.ACTIVE_CLASS */
    li t0, 3 << 24; csrw XMEM_L1CFG, t0
    TEST_CASE(2, s1, 0x10004000, li t0, 64; xlds_alloc(s1, t0, 0))
    TEST_CASE(3, a0, RGN(1, 3, 0, 0, D_CPU, 0), xmem_region(a0, s1, x0))
    csrw XMEM_L1CFG, x0
    TEST_CASE(4, s2, 0x10004040, li t0, 64; xlds_alloc(s2, t0, 0))
    TEST_CASE(5, a0, RGN(1, 0, 0, 0, D_CPU, 0), xmem_region(a0, s2, x0))
    /* xlds.atoms, xlds.bar, xlds.cpy, xlds.free */
    TEST_CASE(6, a0, 0, li t1, 5; xlds_atoms(1, a0, t1, s1))
    TEST_CASE(7, a0, 5, xlds_bar(4); ld a0, 0(s1))
    TEST_CASE(8, a0, 8, li t1, 8; xlds_cpy(a0, s2, s1, t1, 0))
    TEST_CASE(9, a0, 5, ld a0, 0(s2))
    xlds_free(s2)
    TEST_CASE(10, s2, 0x10004040, li t0, 16; xlds_alloc(s2, t0, 0))
    /* xmem.ldg / stg / pref */
    TEST_CASE(11, a0, 0x123456789, li t1, 0x123456789; xmem_stg(t1, s1, 3); xmem_ldg(a0, s1, 5))
    TEST_CASE(12, s10, -1, li s10, -1; li t1, 4096; xmem_pref(s1, t1, 0))
    /* xmem.cctl lock: refused (LOCK_OVF) while L1CFG.LOCK_EN = 0, taken with it */
    CLEAR_EVENTS
    TEST_CASE(13, a0, EV_LOCK_OVF, li t1, 64; xmem_cctl(2, s1, t1); csrr a0, XMEM_EVENTS)
    CLEAR_EVENTS
    li t0, 1 << 20; csrw XMEM_L1CFG, t0
    TEST_CASE(14, a0, 0, li t1, 64; xmem_cctl(2, s1, t1); csrr a0, XMEM_EVENTS)
    li t1, 64; xmem_cctl(3, s1, t1)
    /* xswz: 4 x 1 elements, linear both sides; E from the effective element width */
    li t0, PREC_EW8; csrw PREC_MODE, t0
    la s3, src; la s4, dst
    TEST_CASE(15, a0, 4, li t1, 4 | (1 << 32); xswz_tex2ten(a0, s4, s3, t1, 3))
    li t0, PREC_EW32; csrw PREC_MODE, t0
    TEST_CASE(16, a0, 16, li t1, 4 | (1 << 32); xswz_ten2tex(a0, s4, s3, t1, 3))
    TEST_CASE(17, a0, 0x0f0e0d0c0b0a0908, ld a0, 8(s4))
    /* the compressed pair: decoded, illegal under COMPRESS = 0 (XMEM 6.5) */
    TEST_CASE(18, s10, 2, li s10, -1; li t1, 8; xmem_dloadc(a0, s4, s3, t1, 0))
    TEST_CASE(19, s10, 2, li s10, -1; li t1, 8; xmem_dstorec(a0, s4, s3, t1, 0))
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
src: .dword 0x0706050403020100, 0x0f0e0d0c0b0a0908
dst: .dword 0, 0
RVTEST_DATA_END
