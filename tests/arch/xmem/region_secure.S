/* XMEM security tags (errata Q-57, P-204, P-207) under profiles/secure.yaml: the default
 * platform with CAP.XMEM.CAP.SEC_DOM = 1 and XDMA = 1. A region starts public; a
 * descriptor raises its tag (`xmem.region`, sec 1 trusted / 2 secure; 3 reserved is
 * ignored). The hart's accesses are public: every access to a trusted or secure region
 * (ld, sd, AMO, xlds.cpy; Tier-0 or Tier-1, owner or not) does not complete, faults and
 * sets SEC_VIOL; changing or freeing such a region is refused with SEC_VIOL. An RT job
 * carries memctl.sec: a secure job reads the secure rays in place and writes its public
 * queues; a public job is refused at the secure region (job fault, SEC_VIOL, and DMA_ERR:
 * the engine's access was refused by XMEM policy, P-207). Domain and security are both
 * checked (XMEM 8.3): the hart owns the region and is still refused.
 * REQ: XMEM-001 XMEM-114 XMEM-117 XMEM-118 XMEM-119 XMEM-120 XMEM-121 XMEM-122 XMEM-123 */
#include "../rt/offload_regions.h"
#define xlds_free(rs1)            .insn r 0x2b, 1, 0, x0, rs1, x0
#define xlds_cpy(rd, rs1, rs2, rs3, cpyf) .insn r4 0x2b, 4, cpyf, rd, rs1, rs2, rs3
#define RGN(tier, sec, dom) (0x8000000000000000 | (tier) | ((sec) << 4) | ((dom) << 8))
#define EV_INV_MISS 1
#define EV_DMA_ERR  8
#define EV_SEC_VIOL 0x40
#define D_SEC 67                                  /* memctl.sec in FMT_RT_DESC */
#define CLEAR li t0, -1; csrw XMEM_EVENTS, t0
RVTEST_CODE_BEGIN
    .option norvc                 /* the trap handler resumes at mepc + 4 */
    OFF_TRAP_SETUP
    li t0, 0x80300000; csrw PREC_MODE, t0 /* PET FP32 */
    /* SEC_DOM and XDMA are advertised */
    TEST_CASE(2, a0, 0xE7F, csrr a0, 0x7E0)
    /* Tier-1 regions (owned by CPU, dom not enforced without STRICT_DOM): rays, queue
     * descriptors, hits, misses; one Tier-0 region */
    EXCHANGE_REGIONS(0, 0x10004000, 64, 3, 4, 5, 6, 7, 8)
    TEST_CASE(9, s9, 0x10000000, li t0, 16; xlds_alloc(s9, t0, 0x10))
    EXCHANGE_FILL(64, 8)
    li t0, 0x5a5a; sd t0, 0(s9)
    /* tags: 3 is reserved (ignored), 2 makes the rays and the Tier-0 region secure */
    CLEAR
    TEST_CASE(10, a0, RGN(1, 0, 1), la t0, mc_sec3; xmem_region(a0, s1, t0))
    TEST_CASE(11, a0, RGN(1, 2, 1), la t0, mc_sec2; xmem_region(a0, s1, t0))
    TEST_CASE(12, a0, RGN(0, 2, 1), la t0, mc_sec2; xmem_region(a0, s9, t0))
    TEST_CASE(13, a0, 0, csrr a0, XMEM_EVENTS)
    /* the public hart, though the owner, cannot touch them: fault + SEC_VIOL */
    TEST_CASE(14, s10, 5, li s10, -1; ld a0, 0(s1))
    TEST_CASE(15, a0, EV_SEC_VIOL, csrr a0, XMEM_EVENTS)
    CLEAR
    TEST_CASE(16, s10, 7, li s10, -1; sd x0, 0(s1))
    TEST_CASE(17, a0, EV_SEC_VIOL, csrr a0, XMEM_EVENTS)
    TEST_CASE(18, s10, 7, li s10, -1; li t1, 1; amoadd.d a0, t1, (s9))
    TEST_CASE(19, s10, 5, li s10, -1; ld a0, 0(s9))
    CLEAR
    la s7, scratch
    TEST_CASE(20, s10, 5, li s10, -1; li t1, 8; xlds_cpy(a0, s7, s1, t1, 0))
    TEST_CASE(21, a0, EV_SEC_VIOL | EV_INV_MISS, csrr a0, XMEM_EVENTS)
    TEST_CASE(22, a0, 0, ld a0, 0(s7))
    /* changing or freeing it is refused too (a tag cannot be lowered from below) */
    CLEAR
    TEST_CASE(23, a0, 0, la t0, mc_dom_rt; xmem_region(a0, s1, t0))
    TEST_CASE(24, a0, EV_SEC_VIOL, csrr a0, XMEM_EVENTS)
    CLEAR
    TEST_CASE(25, a0, EV_SEC_VIOL, xlds_free(s9); csrr a0, XMEM_EVENTS)
    TEST_CASE(26, a0, RGN(0, 2, 1), xmem_region(a0, s9, x0))
    /* a secure RT job reads the secure rays in place and writes the public queues */
    CLEAR
    EXCHANGE_DESC
    li t0, 2; sb t0, D_SEC(s0)
    TEST_CASE(27, s8, 1, xsubmit_rt(s8, s0))
    TEST_CASE(28, a0, 0, xfence_wait(s8); csrr a0, RTSTAT)
    TEST_CASE(29, a0, 0, csrr a0, XMEM_EVENTS)
    TEST_CASE(30, a0, 1, lw a0, Q_TAIL(s4))
    TEST_CASE(31, a0, 1, lw a0, 4(s3))
    TEST_CASE(32, a0, 0x40400000, lw a0, 8(s3))
    TEST_CASE(33, a0, 1, lw a0, Q_TAIL(s6))
    /* a public job is refused at the secure rays: job fault, nothing consumed,
     * SEC_VIOL + DMA_ERR + INV_MISS; both are W1C */
    sw x0, Q_HEAD(s2)                             /* rays 0 and 1 again */
    sb x0, D_SEC(s0)
    TEST_CASE(34, s8, 2, xsubmit_rt(s8, s0))
    TEST_CASE(35, a0, RTSTAT_JOB_FAULT, xfence_wait(s8); csrr a0, RTSTAT)
    TEST_CASE(36, a0, EV_SEC_VIOL | EV_DMA_ERR | EV_INV_MISS, csrr a0, XMEM_EVENTS)
    TEST_CASE(37, a0, 0, lw a0, Q_HEAD(s2))
    TEST_CASE(38, a0, 1, lw a0, Q_TAIL(s4))
    TEST_CASE(39, a0, EV_SEC_VIOL | EV_INV_MISS, li t0, EV_DMA_ERR; csrw XMEM_EVENTS, t0; csrr a0, XMEM_EVENTS)
    TEST_CASE(40, a0, EV_INV_MISS, li t0, EV_SEC_VIOL; csrw XMEM_EVENTS, t0; csrr a0, XMEM_EVENTS)
    /* the public hart may raise a region's tag to 1 but then no longer change it */
    TEST_CASE(41, a5, 0x10004180, li t0, 16; xlds_alloc(a5, t0, 0))
    TEST_CASE(42, a0, RGN(1, 1, 1), la t0, mc_sec1; xmem_region(a0, a5, t0))
    CLEAR
    TEST_CASE(43, a0, 0, la t0, mc_dom_rt; xmem_region(a0, a5, t0))
    TEST_CASE(44, a0, EV_SEC_VIOL, csrr a0, XMEM_EVENTS)
    TEST_CASE(45, a0, RGN(1, 1, 1), xmem_region(a0, a5, x0))
    TEST_PASSFAIL
    OFF_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    EXCHANGE_DATA
    .align 3
mc_sec2:                                  /* XPHMG_MEMCTL: sec = secure */
    .space 19
    .byte 2
    .word 0
mc_sec1:                                  /* sec = 1 */
    .space 19
    .byte 1
    .word 0
mc_sec3:                                  /* sec = 3 (reserved) */
    .space 19
    .byte 3
    .word 0
    MEMCTL_DOM(mc_dom_rt, 2)
scratch: .dword 0
RVTEST_DATA_END
