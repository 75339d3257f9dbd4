/* `xmem.dloadc` / `xmem.dstorec rd, rs1, rs2, rs3[, cmode]` with compression (errata
 * Q-55; docs/xmem.md "Compression"), under profiles/compress.yaml (the default platform
 * with CAP.XMEM.CAP.COMPRESS = 1). rs1 = destination, rs2 = source, rs3 = {input length
 * 31:0, output capacity 63:32}, rd = bytes written. COMP_CTL: MODE 3:0 (0 raw, 1 zstd),
 * LEVEL 7:4 (0 = zstd's default 3), DICT_ID 15:8 (0 only); CMODE 1-3 overrides MODE.
 * The expected frames were made independently by Debian 12's zstd command-line tool
 * (libzstd 1.5.4): `zstd -1` / `zstd -15` / `zstd -3` of `plain` (256 bytes) give 105 /
 * 68 / 117 bytes, each with the content size and a content checksum.
 * - loads decode CLI frames (one frame, two concatenated frames) exactly;
 * - stores produce the CLI's frame byte for byte at levels 1 and 15, and the default
 *   level when LEVEL = 0; a stored frame loads back;
 * - COMP_ERR, rd = 0 and not one byte written for a corrupted payload byte (checksum), a
 *   broken magic number, a truncated or empty stream, a capacity one byte short (load and
 *   store), CMODE 2/3, an unsupported COMP_CTL.MODE, a non-zero DICT_ID, sizes over the
 *   1 MiB limit (nothing accessed: the source is unmapped);
 * - MODE 0 is a plain copy that must fit;
 * - inaccessible ranges: load (5) / store (7) access fault, mtval, INV_MISS, nothing
 *   written.
 * - another CAP.XMEM.DOM stores the same frame (one set of defaults for every domain).
 * REQ: XMEM-103 XMEM-088 XMEM-038 XMEM-138 */
#include "lds_test.h"

/* clang-format off */
#define xmem_dloadc(rd, rs1, rs2, rs3, cmode)  .insn r4 0x5b, 4, cmode, rd, rs1, rs2, rs3
#define xmem_dstorec(rd, rs1, rs2, rs3, cmode) .insn r4 0x5b, 5, cmode, rd, rs1, rs2, rs3
/* Fills n bytes at label with byte b (clobbers t0, t1, t3). */
#define FILL(label, n, b) la t0, label; li t1, n; li t3, b; 1: sb t3, 0(t0); addi t0, t0, 1; addi t1, t1, -1; bnez t1, 1b
/* Fails with testnum unless the n bytes at a and b are equal (clobbers t0, t1, t3-t5). */
#define SAME(testnum, a, b, n) test_##testnum: li TESTNUM, testnum; la t0, a; la t1, b; li t3, n; 1: lbu t4, 0(t0); lbu t5, 0(t1); bne t4, t5, fail; addi t0, t0, 1; addi t1, t1, 1; addi t3, t3, -1; bnez t3, 1b
/* Fails with testnum unless the n bytes at label all equal b. */
#define FILLED(testnum, label, n, b) test_##testnum: li TESTNUM, testnum; la t0, label; li t3, n; li t4, b; 1: lbu t5, 0(t0); bne t4, t5, fail; addi t0, t0, 1; addi t3, t3, -1; bnez t3, 1b
/* Fails with n1 unless op returns rd = a0 = 0 (a0 is 0x55 before), with n2 unless it set
 * COMP_ERR; then clears the events. */
#define COMP_ERR_CASE(n1, n2, op...) li a0, 0x55; TEST_CASE(n1, a0, 0, op); TEST_CASE(n2, t1, EV_COMP_ERR, csrr t1, XMEM_EVENTS); CLEAR_EVENTS
/* clang-format on */
#define XMEM_CAP 0x7E0
#define XMEM_DOM 0x7E6
#define XMEM_COMP_CTL 0x7EC
#define EV_COMP_ERR 0x10
#define LENS(len, cap) (((cap) << 32) | (len))
#define RAM_END 0x90000000

RVTEST_CODE_BEGIN
    LDS_TRAP_SETUP
    CLEAR_EVENTS
    /* the profile: COMPRESS (bit 8) = 1; COMP_CTL's three fields are writable */
    TEST_CASE(2, t1, 0x100, csrr t1, XMEM_CAP; andi t1, t1, 0x100)
    li t0, -1
    TEST_CASE(3, t1, 0xFFFF, csrw XMEM_COMP_CTL, t0; csrr t1, XMEM_COMP_CTL)
    csrw XMEM_COMP_CTL, zero
    la s1, plain
    la s2, dst
    la s3, p1_frame
    la s4, p15_frame
    la s5, work
    /* load one CLI frame (explicit CMODE 1), then through COMP_CTL.MODE = 1 */
    li a3, LENS(105, 512)
    TEST_CASE(4, a0, 256, xmem_dloadc(a0, s2, s3, a3, 1))
    SAME(5, dst, plain, 256)
    FILL(dst, 512, 0)
    li t0, 1
    csrw XMEM_COMP_CTL, t0
    li a3, LENS(68, 256)
    TEST_CASE(6, a0, 256, xmem_dloadc(a0, s2, s4, a3, 0))
    SAME(7, dst, plain, 256)
    /* two concatenated frames (p1 then p15) decode to plain twice */
    li a3, LENS(105 + 68, 512)
    TEST_CASE(8, a0, 512, xmem_dloadc(a0, s2, s3, a3, 1))
    SAME(9, dst, plain, 256)
    SAME(10, dst + 256, plain, 256)
    /* stores: LEVEL 1 and 15 give the CLI's frames byte for byte, LEVEL 0 level 3 */
    li t0, 0x10
    csrw XMEM_COMP_CTL, t0
    li a3, LENS(256, 512)
    TEST_CASE(11, a0, 105, xmem_dstorec(a0, s5, s1, a3, 1))
    SAME(12, work, p1_frame, 105)
    li t0, 0xF1
    csrw XMEM_COMP_CTL, t0
    TEST_CASE(13, a0, 68, xmem_dstorec(a0, s5, s1, a3, 0))
    SAME(14, work, p15_frame, 68)
    li t0, 1
    csrw XMEM_COMP_CTL, t0
    TEST_CASE(15, a0, 117, xmem_dstorec(a0, s5, s1, a3, 0))
    /* another domain (CAP.XMEM.DOM = RT) uses the same COMP_CTL defaults: the same frame */
    li t0, 2
    csrw XMEM_DOM, t0
    TEST_CASE(66, a0, 117, xmem_dstorec(a0, s2, s1, a3, 0))
    SAME(67, dst, work, 117)
    csrw XMEM_DOM, zero
    /* ... and that frame loads back */
    FILL(dst, 512, 0)
    li a3, LENS(117, 256)
    TEST_CASE(16, a0, 256, xmem_dloadc(a0, s2, s5, a3, 0))
    SAME(17, dst, plain, 256)
    TEST_CASE(18, t1, 0, csrr t1, XMEM_EVENTS)

    /* COMP_ERR cases: dst pre-filled with 0xAA must stay so; rd = 0 */
    FILL(dst, 512, 0xAA)
    /* a flipped literal byte (offset 20 of the level-1 frame): the checksum catches it */
    li a3, LENS(105, 512)
    la t0, p1_frame
    la t1, work
    li t3, 105
1:  lbu t4, 0(t0)
    sb t4, 0(t1)
    addi t0, t0, 1
    addi t1, t1, 1
    addi t3, t3, -1
    bnez t3, 1b
    lbu t4, 20(s5)
    xori t4, t4, 1
    sb t4, 20(s5)
    li a0, 0x55
    TEST_CASE(19, a0, 0, xmem_dloadc(a0, s2, s5, a3, 1))
    TEST_CASE(20, t1, EV_COMP_ERR, csrr t1, XMEM_EVENTS)
    FILLED(21, dst, 512, 0xAA)
    /* the events are W1C */
    li t0, EV_COMP_ERR
    TEST_CASE(22, t1, 0, csrw XMEM_EVENTS, t0; csrr t1, XMEM_EVENTS)
    /* truncated by one byte, and empty */
    li a3, LENS(104, 512)
    COMP_ERR_CASE(23, 24, xmem_dloadc(a0, s2, s3, a3, 1))
    li a3, LENS(0, 512)
    COMP_ERR_CASE(25, 26, xmem_dloadc(a0, s2, s3, a3, 1))
    /* a capacity one byte short: nothing written, not even the first 255 bytes */
    li a3, LENS(105, 255)
    COMP_ERR_CASE(27, 28, xmem_dloadc(a0, s2, s3, a3, 1))
    FILLED(29, dst, 512, 0xAA)
    /* a broken magic number */
    lbu t4, 0(s5)
    xori t4, t4, 0x80
    sb t4, 0(s5)
    li a3, LENS(105, 512)
    COMP_ERR_CASE(30, 31, xmem_dloadc(a0, s2, s5, a3, 1))
    /* a store that does not fit: level 1 needs 105 bytes, capacity 104 */
    li a3, LENS(256, 104)
    COMP_ERR_CASE(32, 33, xmem_dstorec(a0, s2, s1, a3, 1))
    FILLED(34, dst, 512, 0xAA)
    /* unsupported formats: CMODE 2 and 3, COMP_CTL.MODE 5, DICT_ID 5 with zstd */
    li a3, LENS(105, 512)
    COMP_ERR_CASE(35, 36, xmem_dloadc(a0, s2, s3, a3, 2))
    COMP_ERR_CASE(37, 38, xmem_dstorec(a0, s2, s1, a3, 3))
    li t0, 5
    csrw XMEM_COMP_CTL, t0
    COMP_ERR_CASE(39, 40, xmem_dloadc(a0, s2, s3, a3, 0))
    li t0, 0x501
    csrw XMEM_COMP_CTL, t0
    COMP_ERR_CASE(41, 42, xmem_dloadc(a0, s2, s3, a3, 0))
    li a3, LENS(256, 512)
    COMP_ERR_CASE(43, 44, xmem_dstorec(a0, s2, s1, a3, 1))
    FILLED(45, dst, 512, 0xAA)
    /* sizes over 1 MiB: COMP_ERR before any access (the source is unmapped: no trap) */
    csrw XMEM_COMP_CTL, zero
    li t0, UNMAPPED
    li a3, LENS(0x100001, 16)
    li a0, 0x55
    TEST_CASE(46, a0, 0, xmem_dloadc(a0, s2, t0, a3, 1))
    TEST_CASE(47, s10, -1, nop)
    li a3, LENS(16, 0x100001)
    TEST_CASE(48, a0, 0, xmem_dstorec(a0, s2, t0, a3, 0))
    TEST_CASE(49, s10, -1, nop)
    TEST_CASE(50, t1, EV_COMP_ERR, csrr t1, XMEM_EVENTS)
    CLEAR_EVENTS
    /* MODE 0 (COMP_CTL reset value): a plain copy; one that does not fit is COMP_ERR */
    li a3, LENS(16, 16)
    TEST_CASE(51, a0, 16, xmem_dloadc(a0, s2, s1, a3, 0))
    SAME(52, dst, plain, 16)
    FILLED(53, dst + 16, 496, 0xAA)
    li a3, LENS(24, 64)
    TEST_CASE(54, a0, 24, xmem_dstorec(a0, s2, s1, a3, 0))
    SAME(55, dst, plain, 24)
    li a3, LENS(17, 16)
    COMP_ERR_CASE(56, 57, xmem_dloadc(a0, s2, s1, a3, 0))
    /* faults: an unmapped source (5), a capacity past the end of RAM (7); rd unchanged */
    li t0, UNMAPPED
    li a3, LENS(16, 256)
    li a0, 0x55
    LDS_EXPECT_TRAP(58, 5, xmem_dloadc(a0, s2, t0, a3, 1))
    TEST_CASE(59, s11, UNMAPPED, nop)
    TEST_CASE(60, a0, 0x55, nop)
    TEST_CASE(61, t1, EV_INV_MISS, csrr t1, XMEM_EVENTS)
    CLEAR_EVENTS
    li t0, RAM_END - 32
    li t1, 0x3333333333333333
    sd t1, 0(t0)
    li a3, LENS(105, 64)
    LDS_EXPECT_TRAP(62, 7, xmem_dloadc(a0, t0, s3, a3, 1))
    TEST_CASE(63, s11, RAM_END, nop)
    TEST_CASE(64, t1, 0x3333333333333333, li t0, RAM_END - 32; ld t1, 0(t0))
    TEST_CASE(65, t1, EV_INV_MISS, csrr t1, XMEM_EVENTS)
    CLEAR_EVENTS
    /* exactly 1 MiB in and 1 MiB of capacity is within the limit (P-220): MODE 0 copies
     * 0x100000 bytes from 0x80800000 to 0x80A00000, first and last byte included */
    li t0, 0x80800000
    li t2, 0x80A00000
    li t1, 0x5A
    sb t1, 0(t0)
    li t3, 0x100000 - 1
    add t3, t0, t3
    li t1, 0xA5
    sb t1, 0(t3)
    li a3, LENS(0x100000, 0x100000)
    TEST_CASE(90, a0, 0x100000, xmem_dloadc(a0, t2, t0, a3, 0))
    TEST_CASE(91, t1, 0x5A, li t2, 0x80A00000; lbu t1, 0(t2))
    TEST_CASE(92, t1, 0xA5, li t2, 0x80A00000 + 0x100000 - 1; lbu t1, 0(t2))
    TEST_CASE(93, t1, 0, csrr t1, XMEM_EVENTS)
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 4
plain:    /* 256 bytes: row i, column j = 'A' + (7i + j) mod 26 */
    .ascii "ABCDEFGHIJKLMNOP", "HIJKLMNOPQRSTUVW", "OPQRSTUVWXYZABCD", "VWXYZABCDEFGHIJK"
    .ascii "CDEFGHIJKLMNOPQR", "JKLMNOPQRSTUVWXY", "QRSTUVWXYZABCDEF", "XYZABCDEFGHIJKLM"
    .ascii "EFGHIJKLMNOPQRST", "LMNOPQRSTUVWXYZA", "STUVWXYZABCDEFGH", "ZABCDEFGHIJKLMNO"
    .ascii "GHIJKLMNOPQRSTUV", "NOPQRSTUVWXYZABC", "UVWXYZABCDEFGHIJ", "BCDEFGHIJKLMNOPQ"
/* `zstd -1 plain` immediately followed by `zstd -15 plain` (no padding between) */
p1_frame:    /* 105 bytes */
    .byte 0x28, 0xb5, 0x2f, 0xfd, 0x64, 0x00, 0x00, 0xdd, 0x02, 0x00, 0x54, 0x02, 0x41, 0x42, 0x43, 0x44
    .byte 0x45, 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50, 0x51, 0x52, 0x53, 0x54
    .byte 0x55, 0x56, 0x57, 0x58, 0x59, 0x5a, 0x41, 0x42, 0x43, 0x44, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50
    .byte 0x51, 0x1b, 0x00, 0xa0, 0x00, 0xc8, 0x00, 0x0a, 0x80, 0x0c, 0xa0, 0x00, 0xc8, 0x00, 0x0a, 0x80
    .byte 0x0c, 0xa0, 0x00, 0xc8, 0x00, 0x0a, 0x80, 0x0c, 0xa0, 0x00, 0xc8, 0x00, 0x0a, 0x80, 0x0c, 0xa0
    .byte 0x00, 0xc8, 0x00, 0x0a, 0x80, 0x0c, 0xa0, 0x00, 0xc8, 0x00, 0x0a, 0x60, 0x95, 0x01, 0x28, 0x06
    .byte 0x14, 0x83, 0x45, 0x59, 0x02, 0xce, 0x6b, 0xac, 0xca
p15_frame:    /* 68 bytes */
    .byte 0x28, 0xb5, 0x2f, 0xfd, 0x64, 0x00, 0x00, 0xb5, 0x01, 0x00, 0xf0, 0x41, 0x42, 0x43, 0x44, 0x45
    .byte 0x46, 0x47, 0x48, 0x49, 0x4a, 0x4b, 0x4c, 0x4d, 0x4e, 0x4f, 0x50, 0x51, 0x52, 0x53, 0x54, 0x55
    .byte 0x56, 0x57, 0x58, 0x59, 0x5a, 0x41, 0x42, 0x43, 0x44, 0x1c, 0xa8, 0xe0, 0xb5, 0xeb, 0x1b, 0xf0
    .byte 0x95, 0x31, 0x10, 0x06, 0x06, 0x1f, 0x55, 0x5a, 0xa9, 0x25, 0xe0, 0x45, 0xde, 0x8d, 0x43, 0xa6
    .byte 0xce, 0x6b, 0xac, 0xca
    .align 4
dst:
    .skip 512
work:
    .skip 512
RVTEST_DATA_END
