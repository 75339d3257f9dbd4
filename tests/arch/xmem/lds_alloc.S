/* The LDS window and `xlds.alloc` / `xlds.free` / `xlds.bar` (errata Q-50, Q-41, Q-58,
 * P-70) on the simulator, default profile: LDS_KIB 64, T0_KIB 16, CLASS_PART = 1, so the
 * window is [0x10000000, 0x10010000), Tier-0 = [0x10000000, 0x10004000), Tier-1 =
 * [0x10004000, 0x10010000). Every address below is computed by hand from those numbers:
 * sizes round up to 16 bytes, first fit in address order within the partition.
 * Checks: default placement is Tier-1 (CAP 2.2.4 #1), TIER = 1 is Tier-0 and 2 Tier-1,
 * alignment, zero contents at reset, plain loads/stores, LR/SC and a base AMO in the
 * window, reuse after free, Tier-0 -> Tier-1 fallback, OOM (rd = 0, LDS_OOM, nothing
 * changed), wild/double/zero free (INV_MISS), reserved FLAGS and TIER = 3 illegal, soft
 * budgets per class (BUDGET_OVF) with ACTIVE_CLASS vs the MCLASS override and the
 * budget returned by free, xlds.bar scopes, the window's end and that it is not
 * executable (instruction access fault).
 * REQ: XMEM-092 XMEM-093 XMEM-094 XMEM-085 XMEM-078 XMEM-054 CAP-021 CAP-131
 * REQ: CAP-137 */
#include "lds_test.h"
RVTEST_CODE_BEGIN
    LDS_TRAP_SETUP
    /* placement: default = Tier-1, TIER 1 = Tier-0, TIER 2 = Tier-1, 0 bytes = 16 */
    TEST_CASE(2, a0, 0x10004000, li t0, 100; xlds_alloc(a0, t0, 0))
    TEST_CASE(3, a1, 0x10000000, li t0, 1; xlds_alloc(a1, t0, T0))
    TEST_CASE(4, a2, 0x10004070, xlds_alloc(a2, x0, T1))
    /* ALIGN_LOG2 = 8: 256-byte aligned, after the 16 bytes at 0x10004070 */
    TEST_CASE(5, a3, 0x10004100, li t0, 32; xlds_alloc(a3, t0, 8))
    /* the window is ordinary memory: zero at reset, loads, stores, LR/SC, AMOs */
    TEST_CASE(6, t1, 0, ld t1, 0(a0))
    TEST_CASE(7, t1, 0x1122334455667788, li t0, 0x1122334455667788; sd t0, 0(a1); ld t1, 0(a1))
    TEST_CASE(8, t1, 0x11223344, lw t1, 4(a1))
    TEST_CASE(9, t1, 0x88, lbu t1, 0(a1))
    TEST_CASE(10, t1, 0, li t0, 5; amoadd.d t1, t0, (a0))
    TEST_CASE(11, t1, 5, ld t1, 0(a0))
    TEST_CASE(12, t1, 5, lr.d t1, (a0))
    TEST_CASE(13, t1, 0, li t0, 9; sc.d t1, t0, (a0))
    TEST_CASE(14, t1, 9, ld t1, 0(a0))
    /* free, then the same request reuses the hole (first fit) */
    xlds_free(a2)
    TEST_CASE(15, a2, 0x10004070, xlds_alloc(a2, x0, T1))
    TEST_CASE(16, t1, 0, csrr t1, XMEM_EVENTS)
    /* Tier-0 has 16 bytes in use: 16 KiB does not fit there and falls back to Tier-1,
     * first fit after the 256-byte aligned block (0x10004100 + 0x20) */
    TEST_CASE(17, a4, 0x10004120, li t0, 0x4000; xlds_alloc(a4, t0, T0))
    /* OOM: Tier-1 holes are 0x80 at 0x10004080 and 0x7EE0 at 0x10008120 */
    TEST_CASE(18, a5, 0, li a5, 0x55; li t0, 0x8000; xlds_alloc(a5, t0, 0))
    TEST_CASE(19, t1, EV_LDS_OOM, csrr t1, XMEM_EVENTS)
    /* ... and nothing changed: the largest hole still takes exactly 0x7EE0 bytes */
    TEST_CASE(20, a5, 0x10008120, li t0, 0x7EE0; xlds_alloc(a5, t0, 0))
    TEST_CASE(21, a6, 0x10004080, li t0, 16; xlds_alloc(a6, t0, 0))
    /* Tier-0 filled to the last byte, then a Tier-0 request falls back to Tier-1 */
    TEST_CASE(22, a7, 0x10000010, li t0, 0x3FF0; xlds_alloc(a7, t0, T0))
    TEST_CASE(23, s2, 0x10004090, li t0, 16; xlds_alloc(s2, t0, T0))
    TEST_CASE(24, t1, EV_LDS_OOM, csrr t1, XMEM_EVENTS)
    /* free: wild, zero and double frees are ignored and set INV_MISS */
    CLEAR_EVENTS
    TEST_CASE(25, t1, EV_INV_MISS, li t0, 0x10000008; xlds_free(t0); csrr t1, XMEM_EVENTS)
    CLEAR_EVENTS
    TEST_CASE(26, t1, EV_INV_MISS, xlds_free(x0); csrr t1, XMEM_EVENTS)
    CLEAR_EVENTS
    TEST_CASE(27, t1, 0, xlds_free(a1); csrr t1, XMEM_EVENTS)
    TEST_CASE(28, t1, EV_INV_MISS, xlds_free(a1); csrr t1, XMEM_EVENTS)
    /* reserved FLAGS bits 11:9 and TIER = 3: illegal instruction, rd not written */
    li a1, 0x55
    LDS_EXPECT_TRAP(29, 2, li t0, 16; xlds_alloc(a1, t0, 0x200))
    LDS_EXPECT_TRAP(30, 2, li t0, 16; xlds_alloc(a1, t0, 0x400))
    LDS_EXPECT_TRAP(31, 2, li t0, 16; xlds_alloc(a1, t0, 0x30))
    TEST_CASE(32, a1, 0x55, nop)
    /* budgets (soft): CL1 = 1 KiB. After these frees Tier-1 has a 0x60-byte hole at
     * 0x100040A0 and is free from 0x10004120 */
    xlds_free(a5)
    xlds_free(a4)
    CLEAR_EVENTS
    li t0, 0x10000
    csrw XMEM_LDS_BUDGET, t0
    TEST_CASE(33, s3, 0x10004120, li t0, 0x400; xlds_alloc(s3, t0, MCL(1)))
    TEST_CASE(34, t1, 0, csrr t1, XMEM_EVENTS)
    TEST_CASE(35, s4, 0x100040A0, li t0, 1; xlds_alloc(s4, t0, MCL(1)))
    TEST_CASE(36, t1, EV_BUDGET_OVF, csrr t1, XMEM_EVENTS)
    /* ACTIVE_CLASS = 1 (L1CFG 31:24) charges CL1 without an override ... */
    CLEAR_EVENTS
    li t0, 0x01000000
    csrw XMEM_L1CFG, t0
    TEST_CASE(37, s5, 0x100040B0, xlds_alloc(s5, x0, 0))
    TEST_CASE(38, t1, EV_BUDGET_OVF, csrr t1, XMEM_EVENTS)
    /* ... the MCLASS override to CL0 (unlimited) wins over ACTIVE_CLASS */
    CLEAR_EVENTS
    TEST_CASE(39, s6, 0x100040C0, xlds_alloc(s6, x0, MCL(0)))
    TEST_CASE(40, t1, 0, csrr t1, XMEM_EVENTS)
    /* free gives the 1 KiB back to CL1: 48 bytes in use, no overflow */
    xlds_free(s3)
    TEST_CASE(41, s3, 0x100040D0, xlds_alloc(s3, x0, 0))
    TEST_CASE(42, t1, 0, csrr t1, XMEM_EVENTS)
    /* xlds.bar: scopes 0-4 (no visible effect), others illegal */
    li s10, -1
    xlds_bar(0)
    xlds_bar(1)
    xlds_bar(2)
    xlds_bar(3)
    TEST_CASE(43, s10, -1, xlds_bar(4))
    LDS_EXPECT_TRAP(44, 2, xlds_bar(5))
    LDS_EXPECT_TRAP(45, 2, xlds_bar(0x7FF))
    /* the window ends at 0x10010000 */
    TEST_CASE(46, t1, 0, li t0, 0x1000FFF8; ld t1, 0(t0))
    LDS_EXPECT_TRAP(47, 5, li t0, 0x10010000; ld t1, 0(t0))
    TEST_CASE(48, s11, 0x10010000, nop)
    LDS_EXPECT_TRAP(49, 7, li t0, 0x1000FFFC; sd t0, 0(t0))
    TEST_CASE(50, s11, 0x1000FFFC, nop)
    LDS_EXPECT_TRAP(51, 7, li t0, 0x10010000; amoadd.w t1, t0, (t0))
    /* not executable: instruction access fault, mtval = the address */
    LDS_EXPECT_TRAP(52, 1, la ra, 1f; li t0, LDS_BASE; jr t0; 1: nop)
    TEST_CASE(53, s11, LDS_BASE, nop)
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .dword 0
RVTEST_DATA_END
