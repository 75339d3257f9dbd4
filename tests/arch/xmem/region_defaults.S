/* XMEM reset state and the rules that do not depend on who asks (errata Q-43, Q-42,
 * P-200), default profile, straight out of reset:
 *  - every CAP.XMEM RW field reads 0 except CLSMAP = 0xFF (CL0 = all 8 ways) and DESCPOL =
 *    0x4 (HYB_ENABLE); the unassigned slots 0x7EF, 0x7F5-0x7F7 read 0 and ignore writes;
 *    the reset state acts as written: ACTIVE_CLASS 0 charges CL0, a zero LDS_BUDGET never
 *    overflows, STRICT_DOM 0 lets a non-owner use a Tier-1 region;
 *  - the Tier-0 partition is the first CAP.TIER.LDS.T0_KIB KiB of the LDS (read at run
 *    time): T0 regions fill it exactly, the next Tier-0 request falls back to Tier-1 and
 *    is a T1 region; regions are 16-byte aligned, more when ALIGN_LOG2 asks;
 *  - LDS_BUDGET CLn_KIB sits at bits 16n+15:16n: only the class whose field is set
 *    overflows;
 *  - allocation, alignment, freeing and SVMEM fault-only-first behave identically
 *    whatever domain the hart acts for (CAP.XMEM.DOM CPU, RT, MTX): only the owner of a
 *    new region differs.
 * REQ: XMEM-014 XMEM-015 XMEM-053 XMEM-076 XMEM-079 XMEM-126 XMEM-127 XMEM-128 XMEM-129
 * REQ: XMEM-130 XMEM-131 XMEM-134 XMEM-136 XMEM-148 XMEM-151 */
#include "region_test.h"
#define LDS_BUDGET 0x7E4
#define TIER_LDS   0x7CA
#define SVFAULTI   0x808
/* fails unless CSR csr reads value */
#define CSR_IS(testnum, csr, value) TEST_CASE(testnum, a0, value, csrr a0, csr)
RVTEST_CODE_BEGIN
    .option norvc
    LDS_TRAP_SETUP
    /* reset values */
    CSR_IS(2, 0x7E2, 0)
    CSR_IS(3, 0x7E3, 0xFF)
    CSR_IS(4, 0x7E4, 0)
    CSR_IS(5, 0x7E5, 0)
    CSR_IS(6, 0x7E6, 0)
    CSR_IS(7, 0x7E7, 0)
    CSR_IS(8, 0x7E8, 0)
    CSR_IS(9, 0x7E9, 0)
    CSR_IS(10, 0x7EA, 0)
    CSR_IS(11, 0x7EB, 0)
    CSR_IS(12, 0x7EC, 0)
    CSR_IS(13, 0x7ED, 4)
    CSR_IS(14, 0x7EE, 0)
    CSR_IS(15, 0x7F0, 0)
    CSR_IS(16, 0x7F1, 0)
    CSR_IS(17, 0x7F2, 0)
    CSR_IS(18, 0x7F3, 0)
    CSR_IS(19, 0x7F4, 0)
    TEST_CASE(20, a0, 0, li t0, -1; csrw 0x7EF, t0; csrr a0, 0x7EF)
    TEST_CASE(21, a0, 0, li t0, -1; csrw 0x7F5, t0; csrr a0, 0x7F5)
    TEST_CASE(22, a0, 0, li t0, -1; csrw 0x7F7, t0; csrr a0, 0x7F7)
    /* the partition: T0_KIB from CAP.TIER.LDS */
    csrr t0, TIER_LDS; srli t0, t0, 16; li t1, 0xFFFF; and t0, t0, t1; slli s1, t0, 10
    TEST_CASE(23, s1, 0x4000, nop)                       /* default profile: 16 KiB */
    TEST_CASE(24, a1, LDS_BASE, addi t0, s1, -16; xlds_alloc(a1, t0, T0))
    TEST_CASE(25, a0, RGN(0, 0, 0, 0, D_CPU, 0), xmem_region(a0, a1, x0))
    li t1, LDS_BASE - 16; add s2, s1, t1
    TEST_CASE(26, a2, 0, li t0, 1; xlds_alloc(a2, t0, T0); sub a2, a2, s2)
    TEST_CASE(27, a0, RGN(0, 0, 0, 0, D_CPU, 0), add t0, a2, s2; xmem_region(a0, t0, x0))
    li t1, LDS_BASE; add s3, s1, t1                      /* end of Tier-0 */
    TEST_CASE(28, a3, 0, li t0, 1; xlds_alloc(a3, t0, T0); sub a3, a3, s3)
    TEST_CASE(29, a0, RGN(1, 0, 0, 0, D_CPU, 0), xmem_region(a0, s3, x0))
    /* 16-byte granules: a 1-byte region is followed 16 bytes on */
    TEST_CASE(30, a4, 16, li t0, 1; xlds_alloc(a4, t0, 0); sub a4, a4, s3)
    /* alignment beyond the granule is what ALIGN_LOG2 asks for (docs/xmem.md): 2^12 */
    TEST_CASE(50, a5, 0x10005000, li t0, 16; xlds_alloc(a5, t0, 12))
    xlds_free(a5)
    /* reset budgets: unlimited (40 KiB in CL0, no event) */
    TEST_CASE(31, a5, 0x10004020, li t0, 0xA000; xlds_alloc(a5, t0, 0))
    TEST_CASE(32, a0, 0, csrr a0, XMEM_EVENTS)
    xlds_free(a5)
    /* LDS_BUDGET layout: CL2 = bits 47:32 (1 KiB); 2 KiB in CL1 is fine, in CL2 not */
    li t0, 1; slli t0, t0, 32; csrw LDS_BUDGET, t0
    TEST_CASE(33, a5, 0x10004100, li t0, 2048; xlds_alloc(a5, t0, 8 | MCL(1)))
    TEST_CASE(34, a0, 0, csrr a0, XMEM_EVENTS)
    TEST_CASE(35, a6, 0x10004900, li t0, 2048; xlds_alloc(a6, t0, 8 | MCL(2)))
    TEST_CASE(36, a0, EV_BUDGET_OVF, csrr a0, XMEM_EVENTS)
    CLEAR_EVENTS
    csrw LDS_BUDGET, x0
    /* STRICT_DOM = 0 at reset: an RT-owned Tier-1 region is used by the CPU */
    li t0, D_RT; csrw XMEM_DOM, t0
    TEST_CASE(37, a7, 0x10005100, li t0, 64; xlds_alloc(a7, t0, 8))
    csrw XMEM_DOM, x0
    TEST_CASE(38, a0, RGN(1, 0, 0, 0, D_RT, 0), xmem_region(a0, a7, x0))
    TEST_CASE(39, a0, 42, li t0, 42; sd t0, 0(a7); ld a0, 0(a7))
    /* domains do not change allocation, alignment or freeing: the same request under
     * CPU and MTX lands at the same 256-byte aligned address after a free */
    xlds_free(a7)
    TEST_CASE(40, a7, 0x10005100, li t0, 64; xlds_alloc(a7, t0, 8))
    xlds_free(a7)
    li t0, D_MTX; csrw XMEM_DOM, t0
    TEST_CASE(41, a7, 0x10005100, li t0, 64; xlds_alloc(a7, t0, 8))
    TEST_CASE(42, a0, RGN(1, 0, 0, 0, D_MTX, 0), xmem_region(a0, a7, x0))
    TEST_CASE(43, a0, 0, xlds_bar(3); xlds_free(a7); csrr a0, XMEM_EVENTS)
    /* fault-only-first stops at the same element for every domain: element 2 is
     * unmapped (indices are absolute addresses: SVMBASE 0, 64-bit, scale 1) */
    li t0, 0x60; csrw SVMSCL, t0; li t0, 8; csrw SVMLEN, t0
    la t0, idx; csrw SVMIDX, t0
    la s4, buf
    TEST_CASE(44, a0, 2, li t1, 4; xmem_svm(a0, s4, t1, 0))
    TEST_CASE(45, a0, 2, csrr a0, SVFAULTI)
    li t0, D_RT; csrw XMEM_DOM, t0
    TEST_CASE(46, a0, 2, li t1, 4; xmem_svm(a0, s4, t1, 0))
    TEST_CASE(47, a0, 2, csrr a0, SVFAULTI)
    li t0, D_CPU; csrw XMEM_DOM, t0
    TEST_CASE(48, a0, 2, li t1, 4; xmem_svm(a0, s4, t1, 0))
    TEST_CASE(49, a0, 0x1234, ld a0, 8(s4))
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
src:  .dword 0x5678, 0x1234, 0
idx:  .dword src, src + 8, UNMAPPED, src + 16
buf:  .dword 0, 0, 0, 0
RVTEST_DATA_END
