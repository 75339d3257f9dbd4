/* `xmem.ldg/stg/pref/cctl/stream` (errata Q-54, P-70, Q-58, Q-38; docs/xmem.md "Caches and
 * streaming") on the simulator, default profile: CAP.XMEM.CAP = 0x677 (L1, WAY_PART,
 * LINE_LOCK, CLASS_PART, STREAM_PROF), L1_WAYS 8, L1_LINE_LOG2 6. The tag-only L1 has
 * 32 KiB / (8 ways * 64 B) = 64 sets, so addresses 64 * 64 = 4096 bytes apart share a
 * set and each set may hold 8 - 1 = 7 locked lines.
 * - ldg/stg: 64-bit accesses, misaligned ones performed (the base ISA, Zicclsm), every
 *   hint value (reserved bits 11:6 included) gives the same data; faults: load (5) /
 *   store (7) access fault, mtval = address, rd unchanged, INV_MISS set.
 * - pref: unmapped addresses and huge lengths never trap and set no event.
 * - cctl: inv/flush leave data unchanged, inv drops a resident line; lock counting and
 *   LOCK_OVF (W1C); LOCK_EN = 0
 *   makes lock overflow; partition = CLSMAP.CLn_WAYMASK; CCTL_SEL 5-7, class > 3 and
 *   funct7[6:3] != 0 illegal.
 * - stream: SPROF0-3 / STREAM_CTL written as csrw (WARL field masks), rs1 > 4 illegal.
 * REQ: XMEM-096 XMEM-097 XMEM-098 XMEM-099 XMEM-100 XMEM-089 XMEM-086 XMEM-124 */
#include "lds_test.h"

/* clang-format off */
#define xmem_ldg(rd, rs1, hint)     .insn i 0x2b, 5, rd, rs1, hint
#define xmem_stg(rs2, rs1, hint)    .insn s 0x2b, 6, rs2, hint(rs1)
#define xmem_pref(rs1, rs2, hint)   .insn r 0x2b, 7, hint, x0, rs1, rs2
#define xmem_cctl(sel, rs1, rs2)    .insn r 0x5b, 0, sel, x0, rs1, rs2
#define xmem_stream(rs1, rs2)       .insn r 0x2b, 1, 1, x0, rs1, rs2
/* clang-format on */
#define INV 0
#define FLUSH 1
#define LOCK 2
#define UNLOCK 3
#define PARTITION 4
#define EV_LOCK_OVF 2
#define XMEM_CLSMAP 0x7E3
#define XMEM_STREAM_CTL 0x7E7
#define XMEM_SPROF0 0x7E8
#define XMEM_SPROF3 0x7EB
#define LOCK_EN (1 << 20)
/* a 4096-aligned tag range; cctl never touches memory, so it need not exist */
#define LBASE 0x90000000

RVTEST_CODE_BEGIN
    LDS_TRAP_SETUP
    CLEAR_EVENTS
    la s1, buf
    /* ldg: hint 0, all six hint bits, every bit of the 11-bit immediate */
    TEST_CASE(2, a0, 0x0123456789ABCDEF, xmem_ldg(a0, s1, 0))
    TEST_CASE(3, a0, 0x0123456789ABCDEF, li a0, 0; xmem_ldg(a0, s1, 0x3f))
    TEST_CASE(4, a0, 0x0123456789ABCDEF, li a0, 0; xmem_ldg(a0, s1, 0x7ff))
    /* misaligned: buf bytes 0..15 = EF CD AB 89 67 45 23 01 10 32 54 76 98 BA DC FE, so
     * bytes 4..11 = 67 45 23 01 10 32 54 76 -> 0x7654321001234567 */
    addi s2, s1, 4
    TEST_CASE(5, a0, 0x7654321001234567, xmem_ldg(a0, s2, 0x8))
    /* stg: all hint bits; read back with ld */
    li t0, 0x1122334455667788
    addi s2, s1, 16
    TEST_CASE(6, a0, 0x1122334455667788, xmem_stg(t0, s2, 0x3f); ld a0, 0(s2))
    /* misaligned stg at +20 of 0xAABBCCDDEEFF0011: bytes 20..23 = 11 00 FF EE, so the
     * dword at +16 = 0xEEFF0011_55667788 and the dword at +24 = 0x..._AABBCCDD */
    li t0, 0xAABBCCDDEEFF0011
    addi s3, s1, 20
    TEST_CASE(7, a0, 0xEEFF001155667788, xmem_stg(t0, s3, 0x7ff); ld a0, 16(s1))
    TEST_CASE(8, a0, 0xAABBCCDD, lwu a0, 24(s1))
    TEST_CASE(9, t1, 0, csrr t1, XMEM_EVENTS)
    /* faults: load access fault (5) / store access fault (7), rd unchanged, INV_MISS */
    li s4, UNMAPPED
    li a0, 0x55
    LDS_EXPECT_TRAP(10, 5, xmem_ldg(a0, s4, 0))
    TEST_CASE(11, s11, UNMAPPED, nop)
    TEST_CASE(12, a0, 0x55, nop)
    TEST_CASE(13, t1, EV_INV_MISS, csrr t1, XMEM_EVENTS)
    CLEAR_EVENTS
    addi s4, s4, 3
    LDS_EXPECT_TRAP(14, 7, xmem_stg(a0, s4, 0))
    TEST_CASE(15, s11, UNMAPPED + 3, nop)
    TEST_CASE(16, t1, EV_INV_MISS, csrr t1, XMEM_EVENTS)
    CLEAR_EVENTS
    /* pref: never faults, no event, whatever the address, length and hint */
    li s4, UNMAPPED
    li t0, -1
    TEST_CASE(17, s10, -1, li s10, -1; xmem_pref(s4, t0, 0x7f); xmem_pref(s1, t0, 0x3f))
    TEST_CASE(18, t1, 0, csrr t1, XMEM_EVENTS)
    /* cctl inv/flush never change data (also over the whole address space) */
    li t0, 64
    TEST_CASE(19, a0, 0x0123456789ABCDEF, xmem_cctl(INV, s1, t0); ld a0, 0(s1))
    TEST_CASE(20, a0, 0xEEFF001155667788, xmem_cctl(FLUSH, s1, t0); ld a0, 16(s1))
    li t0, -1
    TEST_CASE(21, a0, 0xEEFF001155667788, xmem_cctl(INV, x0, t0); xmem_cctl(FLUSH, x0, t0); ld a0, 16(s1))
    TEST_CASE(22, s10, -1, nop)
    /* lock needs L1CFG.LOCK_EN (reset 0): otherwise LOCK_OVF and nothing locked */
    li s5, LBASE
    li t0, 64
    TEST_CASE(23, t1, EV_LOCK_OVF, xmem_cctl(LOCK, s5, t0); csrr t1, XMEM_EVENTS)
    CLEAR_EVENTS
    li t0, LOCK_EN
    csrs XMEM_L1CFG, t0
    /* 7 lines in each of the 64 sets: [LBASE, LBASE + 7 * 4096) = 448 lines, no overflow */
    li t0, 7 * 4096
    TEST_CASE(24, t1, 0, xmem_cctl(LOCK, s5, t0); csrr t1, XMEM_EVENTS)
    /* an 8th line of set 0 (LBASE + 7 * 4096) overflows */
    li s6, LBASE + 7 * 4096
    li t0, 1
    TEST_CASE(25, t1, EV_LOCK_OVF, xmem_cctl(LOCK, s6, t0); csrr t1, XMEM_EVENTS)
    CLEAR_EVENTS
    /* relocking a locked line is no new lock; an empty range does nothing */
    li t0, 64
    TEST_CASE(26, t1, 0, xmem_cctl(LOCK, s5, t0); xmem_cctl(LOCK, s6, x0); csrr t1, XMEM_EVENTS)
    /* unlock LBASE's line: set 0 has 6, so the 8th line now locks; a 9th overflows */
    TEST_CASE(27, t1, 0, xmem_cctl(UNLOCK, s5, t0); xmem_cctl(LOCK, s6, t0); csrr t1, XMEM_EVENTS)
    li s7, LBASE + 8 * 4096
    TEST_CASE(28, t1, EV_LOCK_OVF, xmem_cctl(LOCK, s7, t0); csrr t1, XMEM_EVENTS)
    CLEAR_EVENTS
    /* inv keeps locked lines locked: the 9th still overflows after inv of everything */
    li t0, -1
    xmem_cctl(INV, x0, t0)
    li t0, 64
    TEST_CASE(29, t1, EV_LOCK_OVF, xmem_cctl(LOCK, s7, t0); csrr t1, XMEM_EVENTS)
    CLEAR_EVENTS
    /* unlock everything, then the 9th line locks */
    li t0, -1
    xmem_cctl(UNLOCK, x0, t0)
    li t0, 64
    TEST_CASE(30, t1, 0, xmem_cctl(LOCK, s7, t0); csrr t1, XMEM_EVENTS)
    /* the whole address space: ends at once with LOCK_OVF */
    li t0, -1
    TEST_CASE(31, t1, EV_LOCK_OVF, xmem_cctl(LOCK, x0, t0); csrr t1, XMEM_EVENTS)
    CLEAR_EVENTS
    xmem_cctl(UNLOCK, x0, t0)
    /* partition: CLSMAP resets to 0xFF; CL1 gets rs2[7:0] = 0xF8 (0x1F8 & 0xFF), then
     * CL0 0x07: 0xF807, errata Q-86's "CL0 ways 0-2, CL1 ways 3-7" */
    TEST_CASE(32, t1, 0xFF, csrr t1, XMEM_CLSMAP)
    li t3, 1
    li t0, 0x1F8
    TEST_CASE(33, t1, 0xF8FF, xmem_cctl(PARTITION, t3, t0); csrr t1, XMEM_CLSMAP)
    li t0, 0x07
    TEST_CASE(34, t1, 0xF807, xmem_cctl(PARTITION, x0, t0); csrr t1, XMEM_CLSMAP)
    /* class 4: illegal, CLSMAP unchanged */
    li t3, 4
    LDS_EXPECT_TRAP(35, 2, xmem_cctl(PARTITION, t3, t0))
    TEST_CASE(36, t1, 0xF807, csrr t1, XMEM_CLSMAP)
    /* CCTL_SEL 5-7 and funct7[6:3] != 0 (does not decode): illegal */
    LDS_EXPECT_TRAP(37, 2, xmem_cctl(5, s1, t0))
    LDS_EXPECT_TRAP(38, 2, xmem_cctl(6, s1, t0))
    LDS_EXPECT_TRAP(39, 2, xmem_cctl(7, s1, t0))
    LDS_EXPECT_TRAP(40, 2, xmem_cctl(0x8, s1, t0))
    LDS_EXPECT_TRAP(41, 2, xmem_cctl(0x40, s1, t0))
    /* stream: SPROFn (WARL mask 0x0FFFFFFF: STRIDE 15:0, PF_DEPTH 23:16, NT_POLICY
     * 27:24), STREAM_CTL (0x01FFFFFF: NONTEMP_EN 24) */
    li t0, -1
    TEST_CASE(42, t1, 0x0FFFFFFF, xmem_stream(x0, t0); csrr t1, XMEM_SPROF0)
    li t3, 3
    li t0, 0x12345
    TEST_CASE(43, t1, 0x12345, xmem_stream(t3, t0); csrr t1, XMEM_SPROF3)
    li t3, 4
    li t0, -1
    TEST_CASE(44, t1, 0x01FFFFFF, xmem_stream(t3, t0); csrr t1, XMEM_STREAM_CTL)
    li t3, 5
    li t0, 0x77
    LDS_EXPECT_TRAP(45, 2, xmem_stream(t3, t0))
    li t3, -1
    LDS_EXPECT_TRAP(46, 2, xmem_stream(t3, t0))
    TEST_CASE(47, t1, 0x01FFFFFF, csrr t1, XMEM_STREAM_CTL)
    TEST_CASE(48, t1, 0, csrr t1, XMEM_EVENTS)
    /* each xmem.pref takes its own policy: after an L2_ONLY load (no allocation), a
     * plain prefetch of a fresh line fills it (statistic fills, CSR 0xCC2) */
    li s1, 0x80F00000
    xmem_ldg(a0, s1, 2)
    addi s2, s1, 64
    li t1, 8
    csrr s6, 0xCC2
    xmem_pref(s2, t1, 0)
    csrr s7, 0xCC2
    sub s7, s7, s6
    TEST_CASE(49, s7, 1, nop)
    /* xmem.ldg/stg are 8-byte accesses: the last 8 bytes of the LDS window work */
    li s1, 0x1000FFF8
    li t1, 0x0123456789ABCDEF
    xmem_stg(t1, s1, 0)
    TEST_CASE(50, a0, 0x0123456789ABCDEF, xmem_ldg(a0, s1, 0))
    /* partition replaces the whole CLn field and nothing next to it: CL1 0x01, then
     * 0x06 (bit 0 of the field cleared, CL0 and CL2 kept) */
    li t3, 1
    li t0, 0x01
    TEST_CASE(51, t1, 0x0107, xmem_cctl(PARTITION, t3, t0); csrr t1, XMEM_CLSMAP)
    li t0, 0x06
    TEST_CASE(52, t1, 0x0607, xmem_cctl(PARTITION, t3, t0); csrr t1, XMEM_CLSMAP)
    /* inv drops a resident unlocked line: invalidations (CSR 0xCC5) counts it and the
     * next ldg of it misses again (misses, 0xCC1); the data stays */
    la s1, buf
    xmem_ldg(a0, s1, 0)
    csrr s6, 0xCC5
    csrr s8, 0xCC1
    li t0, 8
    xmem_cctl(INV, s1, t0)
    xmem_ldg(a0, s1, 0)
    csrr s7, 0xCC5
    csrr s9, 0xCC1
    TEST_CASE(53, t1, 1, sub t1, s7, s6)
    TEST_CASE(54, t1, 1, sub t1, s9, s8)
    TEST_CASE(55, a0, 0x0123456789ABCDEF, nop)
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 6
buf:
    .dword 0x0123456789ABCDEF
    .dword 0xFEDCBA9876543210
    .dword 0
    .dword 0
RVTEST_DATA_END
