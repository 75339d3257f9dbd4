/* `xlds.atoms amo_sel, rd, rs2, (rs1)` (errata Q-50, P-70, Q-58; docs/xphmg-isa.md) on
 * the simulator, default profile. AMO_SEL = funct5 << 2 | 64-bit. Each of the nine AMOs
 * once as .w (on a word in an LDS allocation, next to a sentinel word that must not
 * change) and once as .d, with hand-computed old values (rd; .w sign-extended) and
 * memory contents; rs2's upper half is ignored by .w. Also on global memory (RAM) and
 * with rd = x0. Reserved AMO_SEL (bit 1, funct5 codes outside the AMO set) are illegal;
 * misaligned: store/AMO address misaligned (6); inaccessible (unmapped, the CLINT, past
 * the window): store/AMO access fault (7); mtval = the address, rd and memory unchanged,
 * INV_MISS set.
 * REQ: XMEM-081 */
#include "lds_test.h"
#define ADD_W 0x00
#define ADD_D 0x01
#define SWAP_W 0x04
#define SWAP_D 0x05
#define XOR_W 0x10
#define XOR_D 0x11
#define OR_W 0x20
#define OR_D 0x21
#define AND_W 0x30
#define AND_D 0x31
#define MIN_W 0x40
#define MIN_D 0x41
#define MAX_W 0x50
#define MAX_D 0x51
#define MINU_W 0x60
#define MINU_D 0x61
#define MAXU_W 0x70
#define MAXU_D 0x71
/* one AMO: rd (a0) must be `old` (check n), then the memory must read `new` (check m) */
#define AMO(n, m, sel, base, src, old, load, new)                                         \
    TEST_CASE(n, a0, old, li t0, src; xlds_atoms(sel, a0, t0, base))                     \
    TEST_CASE(m, t1, new, load t1, 0(base))
RVTEST_CODE_BEGIN
    LDS_TRAP_SETUP
    TEST_CASE(2, s1, 0x10004000, li t0, 32; xlds_alloc(s1, t0, 0))
    addi s2, s1, 8
    li t0, 0x7FFFFFFF
    sw t0, 0(s1)
    li t0, 0x5A5A5A5A
    sw t0, 4(s1)
    li t0, 0x7FFFFFFFFFFFFFFF
    sd t0, 0(s2)
    /* 32-bit forms */
    AMO(3, 103, ADD_W, s1, 0x100000001, 0x7FFFFFFF, lw, 0xFFFFFFFF80000000)
    AMO(4, 104, SWAP_W, s1, 0x12345678, 0xFFFFFFFF80000000, lw, 0x12345678)
    AMO(5, 105, XOR_W, s1, -1, 0x12345678, lwu, 0xEDCBA987)
    AMO(6, 106, OR_W, s1, 0x78, 0xFFFFFFFFEDCBA987, lwu, 0xEDCBA9FF)
    AMO(7, 107, AND_W, s1, 0xFFFF, 0xFFFFFFFFEDCBA9FF, lw, 0xA9FF)
    AMO(8, 108, MIN_W, s1, -5, 0xA9FF, lw, -5)
    AMO(9, 109, MAX_W, s1, 3, -5, lw, 3)
    AMO(10, 110, MINU_W, s1, -1, 3, lw, 3)
    AMO(11, 111, MAXU_W, s1, 0x80000000, 3, lw, 0xFFFFFFFF80000000)
    TEST_CASE(12, t1, 0x5A5A5A5A, lw t1, 4(s1))
    /* 64-bit forms */
    AMO(13, 113, ADD_D, s2, 1, 0x7FFFFFFFFFFFFFFF, ld, 0x8000000000000000)
    AMO(14, 114, SWAP_D, s2, 0x0123456789ABCDEF, 0x8000000000000000, ld, 0x0123456789ABCDEF)
    AMO(15, 115, XOR_D, s2, -1, 0x0123456789ABCDEF, ld, 0xFEDCBA9876543210)
    AMO(16, 116, OR_D, s2, 0xF, 0xFEDCBA9876543210, ld, 0xFEDCBA987654321F)
    AMO(17, 117, AND_D, s2, 0xFFFFFFFF, 0xFEDCBA987654321F, ld, 0x7654321F)
    AMO(18, 118, MIN_D, s2, -1, 0x7654321F, ld, -1)
    AMO(19, 119, MAX_D, s2, 5, -1, ld, 5)
    AMO(20, 120, MINU_D, s2, -1, 5, ld, 5)
    AMO(21, 121, MAXU_D, s2, -2, 5, ld, 0xFFFFFFFFFFFFFFFE)
    /* global memory shares the address space; rd = x0 still updates memory */
    la s3, gdat
    AMO(22, 122, ADD_D, s3, 7, 10, ld, 17)
    TEST_CASE(23, t1, 18, li t0, 1; xlds_atoms(ADD_D, x0, t0, s3); ld t1, 0(s3))
    TEST_CASE(24, s10, -1, nop)
    /* reserved AMO_SEL: bit 1, funct5 2 (LR), 3 (SC), 31 */
    li a0, 0x55
    LDS_EXPECT_TRAP(25, 2, xlds_atoms(0x02, a0, t0, s1))
    LDS_EXPECT_TRAP(26, 2, xlds_atoms(0x09, a0, t0, s1))
    LDS_EXPECT_TRAP(27, 2, xlds_atoms(0x0C, a0, t0, s1))
    LDS_EXPECT_TRAP(28, 2, xlds_atoms(0x7D, a0, t0, s1))
    TEST_CASE(29, a0, 0x55, nop)
    /* faults: misaligned (6), inaccessible (7); mtval, rd, memory, INV_MISS */
    CLEAR_EVENTS
    addi s4, s1, 2
    LDS_EXPECT_TRAP(30, 6, li t0, 1; xlds_atoms(ADD_W, a0, t0, s4))
    TEST_CASE(31, s11, 0x10004002, nop)
    TEST_CASE(32, t1, EV_INV_MISS, csrr t1, XMEM_EVENTS)
    TEST_CASE(33, t1, 0xFFFFFFFF80000000, lw t1, 0(s1))
    addi s4, s1, 4
    LDS_EXPECT_TRAP(34, 6, li t0, 1; xlds_atoms(ADD_D, a0, t0, s4))
    TEST_CASE(35, s11, 0x10004004, nop)
    CLEAR_EVENTS
    li s4, UNMAPPED
    LDS_EXPECT_TRAP(36, 7, li t0, 1; xlds_atoms(SWAP_D, a0, t0, s4))
    TEST_CASE(37, s11, UNMAPPED, nop)
    TEST_CASE(38, t1, EV_INV_MISS, csrr t1, XMEM_EVENTS)
    li s4, 0x02000000
    LDS_EXPECT_TRAP(39, 7, li t0, 1; xlds_atoms(OR_W, a0, t0, s4))
    TEST_CASE(40, s11, 0x02000000, nop)
    li s4, 0x10010000
    LDS_EXPECT_TRAP(41, 7, li t0, 1; xlds_atoms(MAXU_W, a0, t0, s4))
    TEST_CASE(42, s11, 0x10010000, nop)
    TEST_CASE(43, a0, 0x55, nop)
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
gdat:
    .dword 10
RVTEST_DATA_END
