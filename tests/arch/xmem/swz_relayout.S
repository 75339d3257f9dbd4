/* `xswz.tex2ten` / `xswz.ten2tex rd, rs1, rs2, rs3[, layout]` (errata Q-56) on the
 * simulator, default profile: rs1 destination, rs2 source, rs3 = {W 31:0, H 63:32} in
 * elements of EFF_EW bits, rd = bytes written; LAYOUT bit 0 texture Morton, bit 1 tensor
 * linear (0 = XDL_TILE4x4_ROWMAJOR composite tiles). Source = the bytes 0x00..0x1f.
 * Hand-computed results (docs/xmem.md "Swizzle (XSWZ) and compression"):
 *   - EW8 (MODE applied with EW code 0), 8x4, linear -> tiles: tile 0 = bytes 0-3, 8-11,
 *     16-19, 24-27, tile 1 = 4-7, 12-15, 20-23, 28-31; ten2tex gives the source back;
 *   - EW16 (reset), 4x4 Morton -> linear: tensor halfword y*4+x = texture halfword
 *     morton(x, y) = 0 1 4 5 / 2 3 6 7 / 8 9 12 13 / 10 11 14 15;
 *   - EW32, 4x2 Morton -> linear: morton = x0 | y0 << 1 | x1 << 2, so the tensor words are
 *     texture words 0 1 4 5 / 2 3 6 7;
 * illegal sizes (cause 2, rd kept); a source fault (cause 5) and a destination fault past
 * the LDS window's end (cause 7) before anything is written, mtval = the first bad byte,
 * INV_MISS set. REQ: XMEM-102 */
#include "svm_test.h"
#define xswz_tex2ten(rd, rs1, rs2, rs3, layout) .insn r4 0x5b, 2, layout, rd, rs1, rs2, rs3
#define xswz_ten2tex(rd, rs1, rs2, rs3, layout) .insn r4 0x5b, 3, layout, rd, rs1, rs2, rs3
#define EXT(w, h) (((h) << 32) | (w))
#define PREC_EW8  0x80000000
#define PREC_EW32 0x80100000
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    la s2, pat
    la s3, buf
    la s4, buf2
    /* EW8, 8x4, linear texture -> tiles (LAYOUT 0) */
    li t0, PREC_EW8
    csrw CAP_PREC_MODE, t0
    li s5, EXT(8, 4)
    TEST_CASE(2, a0, 32, xswz_tex2ten(a0, s3, s2, s5, 0))
    CHECK_DW(3, buf, 0, 0x0B0A090803020100)
    CHECK_DW(4, buf, 1, 0x1B1A191813121110)
    CHECK_DW(5, buf, 2, 0x0F0E0D0C07060504)
    CHECK_DW(6, buf, 3, 0x1F1E1D1C17161514)
    /* and back: tiles -> linear texture */
    TEST_CASE(7, a0, 32, xswz_ten2tex(a0, s4, s3, s5, 0))
    CHECK_DW(8, buf2, 0, 0x0706050403020100)
    CHECK_DW(9, buf2, 1, 0x0F0E0D0C0B0A0908)
    CHECK_DW(10, buf2, 2, 0x1716151413121110)
    CHECK_DW(11, buf2, 3, 0x1F1E1D1C1B1A1918)
    /* EW16 (reset MODE), 4x4 Morton texture -> linear tensor (LAYOUT 3) */
    li t0, PREC_MERGE
    csrw CAP_PREC_MODE, t0
    li s5, EXT(4, 4)
    TEST_CASE(12, a0, 32, xswz_tex2ten(a0, s3, s2, s5, 3))
    CHECK_DW(13, buf, 0, 0x0B0A090803020100)
    CHECK_DW(14, buf, 1, 0x0F0E0D0C07060504)
    CHECK_DW(15, buf, 2, 0x1B1A191813121110)
    CHECK_DW(16, buf, 3, 0x1F1E1D1C17161514)
    /* EW32, 4x2 Morton -> linear */
    li t0, PREC_EW32
    csrw CAP_PREC_MODE, t0
    li s5, EXT(4, 2)
    TEST_CASE(17, a0, 32, xswz_tex2ten(a0, s3, s2, s5, 3))
    CHECK_DW(18, buf, 0, 0x0706050403020100)
    CHECK_DW(19, buf, 1, 0x1716151413121110)
    CHECK_DW(20, buf, 2, 0x0F0E0D0C0B0A0908)
    CHECK_DW(21, buf, 3, 0x1F1E1D1C1B1A1918)
    /* ... and linear -> Morton gives the source back */
    TEST_CASE(22, a0, 32, xswz_ten2tex(a0, s4, s3, s5, 3))
    CHECK_DW(23, buf2, 1, 0x0F0E0D0C0B0A0908)
    CHECK_DW(24, buf2, 2, 0x1716151413121110)
    /* illegal sizes: tiles 6x4, Morton 3x4 (EW32); rd kept */
    li a0, 0x55
    li s5, EXT(6, 4)
    CAP_EXPECT_TRAP(25, 2, xswz_tex2ten(a0, s3, s2, s5, 0))
    li s5, EXT(3, 4)
    CAP_EXPECT_TRAP(26, 2, xswz_ten2tex(a0, s3, s2, s5, 3))
    TEST_CASE(27, a0, 0x55, nop)
    /* faults: the source first (cause 5 at UNMAPPED), INV_MISS */
    li t0, -1
    csrw XMEM_EVENTS, t0
    li s5, EXT(4, 4)
    li t1, UNMAPPED
    CAP_EXPECT_TRAP(28, 5, xswz_tex2ten(a0, s3, t1, s5, 0))
    TEST_CASE(29, s11, UNMAPPED, nop)
    TEST_CASE(30, t1, 1, csrr t1, XMEM_EVENTS)
    /* 4x4 EW32 = 64 bytes into the last 32 bytes of the LDS window: store access fault at
     * its end 0x10010000, nothing written there */
    li t1, 0x1000FFE0
    CAP_EXPECT_TRAP(31, 7, xswz_tex2ten(a0, t1, s2, s5, 2))
    TEST_CASE(32, s11, 0x10010000, nop)
    TEST_CASE(33, t2, 0, li t1, 0x1000FFE0; ld t2, 0(t1))
    TEST_CASE(34, a0, 0x55, nop)
    /* W = 0: nothing accessed (unmapped buffers), rd = 0 */
    li s5, EXT(0, 4)
    li t1, UNMAPPED
    TEST_CASE(35, a0, 0, xswz_tex2ten(a0, t1, t1, s5, 0))
    /* EW32 3x1 linear both sides (LAYOUT 2): 12 bytes, not a multiple of 8, the bytes
     * 0x10..0x1b into buf2; its bytes 12.. keep what test 22 left */
    li s5, EXT(3, 1)
    addi t1, s2, 16
    TEST_CASE(36, a0, 12, xswz_tex2ten(a0, s4, t1, s5, 2))
    CHECK_DW(37, buf2, 0, 0x1716151413121110)
    CHECK_DW(38, buf2, 1, 0x0F0E0D0C1B1A1918)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 4
pat:
    .byte 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07
    .byte 0x08, 0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x0e, 0x0f
    .byte 0x10, 0x11, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17
    .byte 0x18, 0x19, 0x1a, 0x1b, 0x1c, 0x1d, 0x1e, 0x1f
buf:
    .dword 0, 0, 0, 0
buf2:
    .dword 0, 0, 0, 0
RVTEST_DATA_END
