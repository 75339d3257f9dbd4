/* The XMEM region model on the hart (errata P-200..P-206), default profile: LDS
 * [0x10000000, 0x10010000), Tier-0 = its first 16 KiB, CLASS_PART = WAY_PART =
 * STREAM_PROF = 1, MAX_SPROF = 3, SEC_DOM = 0, XDMA = 0.
 * Every LDS allocation is a region whose attributes start from the CAP defaults
 * (CAP.XMEM.DOM as owner, the partition's tier, the effective class, public) and change
 * only through `xmem.region` with an XPHMG_MEMCTL: non-zero supported fields override,
 * zero or unsupported ones keep (N-5), hints change nothing, SEC_DOM = 0 ignores `sec`, a
 * tier the partition cannot hold refuses the descriptor. A Tier-0 region is always
 * checked against its owner (XMEM 3.2.7); other tiers only under DESCPOL.STRICT_DOM; the
 * hart's accesses (base and XPHMG) carry domain CAP.XMEM.DOM. A handoff changes the owner
 * and nothing else: the old owner faults, the new one reads the same bytes at the same
 * address. DOM_ALL is shared read, no writes. BOUND_CHECK bounds SVMEM elements by the
 * region SVMBASE lies in (an accessible address outside it faults). Bad input: wild
 * region bases, misaligned or inaccessible descriptors. EVENTS are sticky and W1C.
 * REQ: XMEM-005 XMEM-009 XMEM-011 XMEM-012 XMEM-013 XMEM-015 XMEM-021 XMEM-024
 * REQ: XMEM-026 XMEM-027 XMEM-029 XMEM-032 XMEM-036 XMEM-039 XMEM-041 XMEM-042 XMEM-056
 * REQ: XMEM-058 XMEM-059 XMEM-060 XMEM-061 XMEM-062 XMEM-067 XMEM-068 XMEM-074
 * REQ: XMEM-075 XMEM-087 XMEM-089 XMEM-114 XMEM-122 XMEM-124 XMEM-137 XMEM-140 XMEM-143
 * REQ: XMEM-033 XMEM-091 */
#include "region_test.h"
#define LDS_BUDGET 0x7E4
#define RAM_END 0x90000000
RVTEST_CODE_BEGIN
    .option norvc                 /* the trap handler resumes at mepc + 4 */
    LDS_TRAP_SETUP
    /* 1. allocation defaults: owner CAP.XMEM.DOM (0 = CPU), tier by partition, class
     * = L1CFG.ACTIVE_CLASS, public, profile 0 */
    TEST_CASE(2, s1, 0x10000000, li t0, 64; xlds_alloc(s1, t0, T0))
    TEST_CASE(3, a0, RGN(0, 0, 0, 0, D_CPU, 0), xmem_region(a0, s1, x0))
    TEST_CASE(4, a0, RGN(0, 0, 0, 0, D_CPU, 0), addi t1, s1, 63; xmem_region(a0, t1, x0))
    TEST_CASE(5, a0, 0, addi t1, s1, 64; xmem_region(a0, t1, x0))   /* free LDS */
    TEST_CASE(6, a0, 0, la t1, scratch; xmem_region(a0, t1, x0))     /* RAM */
    li t0, D_MTX; csrw XMEM_DOM, t0
    li t0, 0x1000000; csrw XMEM_L1CFG, t0                             /* ACTIVE_CLASS 1 */
    TEST_CASE(7, s2, 0x10004000, li t0, 256; xlds_alloc(s2, t0, 0))
    TEST_CASE(8, a0, RGN(1, 1, 0, 0, D_MTX, 0), xmem_region(a0, s2, x0))
    csrw XMEM_DOM, x0; csrw XMEM_L1CFG, x0
    /* 2. a descriptor overrides with its non-zero supported fields: dom RT, mclass 2,
     * sprof_id 3, tier T2 */
    TEST_CASE(9, a0, RGN(2, 2, 0, 3, D_RT, 0), APPLY(a0, s2, mc_full))
    TEST_CASE(10, a0, RGN(2, 2, 0, 3, D_RT, 0), xmem_region(a0, s2, x0))
    /* zero fields keep everything; hints (l1/l2/lds hints, line_sz, qos, softpin)
     * change nothing (XMEM 5.3) */
    CLEAR_EVENTS
    TEST_CASE(11, a0, RGN(2, 2, 0, 3, D_RT, 0), APPLY(a0, s2, mc_hints))
    /* unsupported values are ignored safely: dom 9, mclass 5, sprof 7, hyb 2, sec 1
     * (SEC_DOM = 0: RAZ/WI), rsv0 bits 31:2 */
    TEST_CASE(12, a0, RGN(2, 2, 0, 3, D_RT, 0), APPLY(a0, s2, mc_unsup))
    TEST_CASE(13, a0, 0, csrr a0, XMEM_EVENTS)
    /* T3, then T1 again: tiers are hints, the data stay where they are */
    TEST_CASE(14, a0, RGN(3, 2, 0, 3, D_RT, 0), APPLY(a0, s2, mc_t3))
    /* a T3 region is coherent memory like any other: what a store left, an engine
     * copy (xlds.cpy) reads at once */
    TEST_CASE(76, a0, 8, li t1, 0x5555; sd t1, 0(s2); la t0, scratch; li t1, 8; xlds_cpy(a0, t0, s2, t1, 0))
    TEST_CASE(77, a0, 0x5555, la t0, scratch; ld a0, 0(t0))
    li t1, 0x0123456789abcdef; sd t1, 8(s2)
    TEST_CASE(15, a0, RGN(1, 2, 0, 3, D_RT, 0), APPLY(a0, s2, mc_t1))
    TEST_CASE(16, a0, 0x0123456789abcdef, ld a0, 8(s2))
    /* only T0 maps into the Tier-0 partition: T1 for a Tier-0 region is refused,
     * INV_MISS, nothing changes */
    TEST_CASE(17, a0, 0, APPLY(a0, s1, mc_t1))
    TEST_CASE(18, a0, EV_INV_MISS, csrr a0, XMEM_EVENTS)
    TEST_CASE(19, a0, RGN(0, 0, 0, 0, D_CPU, 0), xmem_region(a0, s1, x0))
    /* 3. hyb = 1 prefers CL2: with the reset CLSMAP (CL2 has no ways, WAY_PART = 1)
     * it falls back (HYB_FALLBK, class kept); with CL2 ways it takes CL2; with
     * HYB_ENABLE = 0 it falls back again */
    CLEAR_EVENTS
    TEST_CASE(20, s3, 0x10004100, li t0, 32; xlds_alloc(s3, t0, 0))
    TEST_CASE(21, a0, RGN(1, 0, 0, 0, D_CPU, 1), APPLY(a0, s3, mc_hyb))
    TEST_CASE(22, a0, EV_HYB_FALLBK, csrr a0, XMEM_EVENTS)
    CLEAR_EVENTS
    li t0, 0xF0000F; csrw XMEM_CLSMAP, t0                             /* CL2 ways 4-7 */
    TEST_CASE(23, a0, RGN(1, 2, 0, 0, D_CPU, 1), APPLY(a0, s3, mc_hyb))
    TEST_CASE(24, a0, 0, csrr a0, XMEM_EVENTS)
    csrw XMEM_DESCPOL, x0                                             /* HYB_ENABLE 0 */
    TEST_CASE(25, a0, RGN(1, 2, 0, 0, D_CPU, 1), APPLY(a0, s3, mc_hyb))
    TEST_CASE(26, a0, EV_HYB_FALLBK, csrr a0, XMEM_EVENTS)
    li t0, 4; csrw XMEM_DESCPOL, t0
    /* 4. mclass moves the region's bytes to its class budget: CL3 budget 1 KiB, a
     * 2 KiB CL0 region moved to CL3 goes over (BUDGET_OVF, soft) */
    CLEAR_EVENTS
    li t0, 1 << 48; csrw LDS_BUDGET, t0
    TEST_CASE(27, s4, 0x10004200, li t0, 2048; xlds_alloc(s4, t0, 8))
    TEST_CASE(28, a0, 0, csrr a0, XMEM_EVENTS)
    TEST_CASE(29, a0, RGN(1, 3, 0, 0, D_CPU, 0), APPLY(a0, s4, mc_cl3))
    TEST_CASE(30, a0, EV_BUDGET_OVF, csrr a0, XMEM_EVENTS)
    csrw LDS_BUDGET, x0
    /* 5. Tier-0 ownership: the owner (CPU) reads and writes; after the handoff to RT
     * (no data movement) every CPU access faults and changes nothing */
    li t1, 0x1111222233334444; sd t1, 0(s1)
    TEST_CASE(31, a0, RGN(0, 0, 0, 0, D_RT, 0), APPLY(a0, s1, mc_rt))
    TEST_CASE(32, s10, CAUSE_LOAD_ACCESS_FAULT, li s10, -1; ld a0, 0(s1))
    TEST_CASE(33, s11, 0x10000000, nop)
    TEST_CASE(34, s10, CAUSE_STORE_ACCESS_FAULT, li s10, -1; sd x0, 8(s1))
    TEST_CASE(35, s10, CAUSE_STORE_ACCESS_FAULT, li s10, -1; amoadd.d a0, t1, (s1))
    TEST_CASE(36, s10, CAUSE_LOAD_ACCESS_FAULT, li s10, -1; lr.d a0, (s1))
    /* the hart acting for RT (CAP.XMEM.DOM = RT) sees the same bytes at the same place */
    li t0, D_RT; csrw XMEM_DOM, t0
    TEST_CASE(37, a0, 0x1111222233334444, ld a0, 0(s1))
    csrw XMEM_DOM, x0
    /* XPHMG instructions of the hart carry CAP.XMEM.DOM too: xlds.cpy, xlds.atoms and
     * xmem.svm from/to RT's region fault (INV_MISS) as CPU, work as RT */
    CLEAR_EVENTS
    la s5, scratch
    TEST_CASE(38, s10, CAUSE_LOAD_ACCESS_FAULT, li s10, -1; li t1, 8; xlds_cpy(a0, s5, s1, t1, 0))
    TEST_CASE(39, a0, EV_INV_MISS, csrr a0, XMEM_EVENTS)
    TEST_CASE(40, s10, CAUSE_STORE_ACCESS_FAULT, li s10, -1; li t1, 1; xlds_atoms(1, a0, t1, s1))
    csrw SVMBASE, s1; la t0, idx; csrw SVMIDX, t0; li t0, 0x40; csrw SVMSCL, t0
    li t0, 8; csrw SVMLEN, t0
    TEST_CASE(41, s10, CAUSE_LOAD_ACCESS_FAULT, li s10, -1; li t1, 1; xmem_svm(a0, s5, t1, 0))
    TEST_CASE(42, s11, 0x10000000, nop)
    li t0, D_RT; csrw XMEM_DOM, t0
    TEST_CASE(43, a0, 8, li t1, 8; xlds_cpy(a0, s5, s1, t1, 0))
    sd x0, 0(s5)
    TEST_CASE(44, a0, 1, li t1, 1; xmem_svm(a0, s5, t1, 0))
    TEST_CASE(45, a0, 0x1111222233334444, ld a0, 0(s5))
    csrw XMEM_DOM, x0
    /* DOM_ALL: shared read, no writes */
    TEST_CASE(46, a0, RGN(0, 0, 0, 0, D_ALL, 0), APPLY(a0, s1, mc_all))
    TEST_CASE(47, a0, 0x1111222233334444, ld a0, 0(s1))
    TEST_CASE(48, s10, CAUSE_STORE_ACCESS_FAULT, li s10, -1; sd x0, 0(s1))
    TEST_CASE(49, a0, 0x1111222233334444, ld a0, 0(s1))
    /* 6. Tier-1: s2 is RT's; without STRICT_DOM dom is a hint (the CPU reads and writes
     * it), with STRICT_DOM = 1 it is enforced */
    TEST_CASE(50, a0, 0x0123456789abcdef, ld a0, 8(s2))
    li t0, 0x44; csrw XMEM_DESCPOL, t0
    TEST_CASE(51, s10, CAUSE_LOAD_ACCESS_FAULT, li s10, -1; ld a0, 8(s2))
    TEST_CASE(52, a0, 0, ld a0, 0(s3))                                /* s3 is CPU's */
    li t0, 0x4; csrw XMEM_DESCPOL, t0
    /* 7. BOUND_CHECK: SVMBASE in region s6 (32 bytes); index 6 (48 bytes on) lands in
     * region s7, accessible memory, yet out of the bound: load access fault there;
     * with ALLOW_OOB_ZERO it reads 0 and sets INV_MISS; BOUND_CHECK = 0: plain load */
    TEST_CASE(53, s6, 0x10004120, li t0, 32; xlds_alloc(s6, t0, 0))
    TEST_CASE(54, s7, 0x10004140, li t0, 32; xlds_alloc(s7, t0, 0))
    li t1, 0x7777; sd t1, 16(s7)
    csrw SVMBASE, s6; la t0, idx6; csrw SVMIDX, t0; li t0, 0x43; csrw SVMSCL, t0
    TEST_CASE(55, a0, 1, li t1, 1; xmem_svm(a0, s5, t1, 0))
    TEST_CASE(56, a0, 0x7777, ld a0, 0(s5))
    li t0, 1; csrw SVMMODE, t0
    CLEAR_EVENTS
    TEST_CASE(57, s10, CAUSE_LOAD_ACCESS_FAULT, li s10, -1; li t1, 1; xmem_svm(a0, s5, t1, 0))
    TEST_CASE(58, s11, 0x10004150, nop)
    TEST_CASE(59, a0, EV_INV_MISS, csrr a0, XMEM_EVENTS)
    li t0, 3; csrw SVMMODE, t0
    TEST_CASE(60, a0, 1, li t1, 1; xmem_svm(a0, s5, t1, 0))
    TEST_CASE(61, a0, 0, ld a0, 0(s5))
    csrw SVMMODE, x0
    /* 8. bad input: a wild base (inside a region, or nowhere), a misaligned and an
     * inaccessible descriptor: nothing changes */
    CLEAR_EVENTS
    TEST_CASE(62, a0, 0, addi t1, s3, 16; APPLY(a0, t1, mc_rt))
    TEST_CASE(63, a0, EV_INV_MISS, csrr a0, XMEM_EVENTS)
    TEST_CASE(64, s10, CAUSE_MISALIGNED_LOAD, li s10, -1; li a0, 0x55; la t0, mc_rt; addi t0, t0, 4; xmem_region(a0, s3, t0))
    TEST_CASE(65, a0, 0x55, nop)
    CLEAR_EVENTS
    TEST_CASE(66, s10, CAUSE_LOAD_ACCESS_FAULT, li s10, -1; li t0, UNMAPPED; xmem_region(a0, s3, t0))
    TEST_CASE(67, s11, UNMAPPED, nop)
    TEST_CASE(68, a0, EV_INV_MISS, csrr a0, XMEM_EVENTS)
    TEST_CASE(69, a0, RGN(1, 2, 0, 0, D_CPU, 1), xmem_region(a0, s3, x0))
    /* 9. EVENTS: sticky (a read does not clear), W1C bit by bit */
    li t1, 0x10000008; xlds_free(t1)                                 /* wild: INV_MISS */
    TEST_CASE(70, a0, EV_INV_MISS, csrr a0, XMEM_EVENTS)
    TEST_CASE(71, a0, EV_INV_MISS, csrr a0, XMEM_EVENTS)
    li t0, 0x10000; li a1, 0x55; xlds_alloc(a1, t0, 0)                /* LDS_OOM */
    TEST_CASE(72, a0, EV_INV_MISS | EV_LDS_OOM, csrr a0, XMEM_EVENTS)
    TEST_CASE(73, a0, EV_LDS_OOM, li t0, EV_INV_MISS; csrw XMEM_EVENTS, t0; csrr a0, XMEM_EVENTS)
    TEST_CASE(74, a0, EV_LDS_OOM, csrw XMEM_EVENTS, x0; csrr a0, XMEM_EVENTS)
    TEST_CASE(75, a0, 0, li t0, EV_LDS_OOM; csrw XMEM_EVENTS, t0; csrr a0, XMEM_EVENTS)
    /* 10. an access that starts in a region and ends in free LDS space is checked
     * against the region alone (the owner may make it): a 16-byte Tier-1 region, free
     * space after it, an 8-byte load and store across its end */
    li t0, 16; xlds_alloc(s4, t0, T1)
    addi t1, s4, 16
    TEST_CASE(90, a0, 0, xmem_region(a0, t1, x0))
    li t0, 0x11223344; sw t0, 12(s4)
    li t0, 0x55667788; sw t0, 16(s4)
    TEST_CASE(91, a0, 0x5566778811223344, ld a0, 12(s4))
    li t0, 0x0102030405060708; sd t0, 12(s4)
    TEST_CASE(92, a0, 0x01020304, lwu a0, 16(s4))
    xlds_free(s4)
    /* 11. an access that ends at a region's last byte is checked against that region
     * alone, not against the region right after it: two adjacent 16-byte Tier-0
     * regions, the second handed to RT; the hart loads and stores the first one's last
     * doubleword */
    TEST_CASE(93, s4, 0x10000040, li t0, 16; xlds_alloc(s4, t0, T0))
    TEST_CASE(94, s5, 0x10000050, li t0, 16; xlds_alloc(s5, t0, T0))
    TEST_CASE(95, a0, RGN(0, 0, 0, 0, D_RT, 0), APPLY(a0, s5, mc_rt))
    li t0, 0x1122334455667788; sd t0, 8(s4)
    TEST_CASE(96, a0, 0x1122334455667788, li s10, -1; ld a0, 8(s4))
    TEST_CASE(97, s10, -1, nop)
    /* 12. a descriptor in the last 24 bytes of RAM is read whole (hands s5 back) */
    la t1, mc_cpu; li t2, RAM_END - 24
    ld t0, 0(t1); sd t0, 0(t2); ld t0, 8(t1); sd t0, 8(t2); ld t0, 16(t1); sd t0, 16(t2)
    TEST_CASE(98, a0, RGN(0, 0, 0, 0, D_CPU, 0), li s10, -1; li t2, RAM_END - 24; xmem_region(a0, s5, t2))
    TEST_CASE(99, s10, -1, nop)
    xlds_free(s4)
    xlds_free(s5)
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    MEMCTL(mc_full, D_RT, 0, 0, 0, 0, 0, 0, 2, 3, 0, 0, 2)
    MEMCTL(mc_hints, 0, 0xFF, 0xFF, 0xFF, 128, 0xFFFF, 0xFFFFFFFFFFFFFFFF, 0, 0, 0, 0, 0)
    MEMCTL(mc_unsup, 9, 0, 0, 0, 0, 0, 0, 5, 7, 2, 1, 0xFFFFFFFC)
    MEMCTL(mc_t1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1)
    MEMCTL(mc_t3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3)
    MEMCTL(mc_hyb, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0)
    MEMCTL(mc_cl3, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0)
    MEMCTL(mc_rt, D_RT, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    MEMCTL(mc_cpu, D_CPU, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    MEMCTL(mc_all, D_ALL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    .align 3
idx:  .dword 0
idx6: .dword 6
scratch: .dword 0, 0
RVTEST_DATA_END
