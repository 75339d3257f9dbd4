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
#include "../rt/offload_test.h"
#define xmem_region(rd, rs1, rs2) .insn r 0x2b, 1, 2, rd, rs1, rs2
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
    TEST_CASE(3, s1, 0x10004000, li t0, 64; xlds_alloc(s1, t0, 0))
    TEST_CASE(4, s2, 0x10004040, li t0, 24; xlds_alloc(s2, t0, 0))
    TEST_CASE(5, s3, 0x10004060, li t0, 0xC0; xlds_alloc(s3, t0, 0))
    TEST_CASE(6, s4, 0x10004120, li t0, 24; xlds_alloc(s4, t0, 0))
    TEST_CASE(7, s5, 0x10004140, li t0, 32; xlds_alloc(s5, t0, 0))
    TEST_CASE(8, s6, 0x10004160, li t0, 24; xlds_alloc(s6, t0, 0))
    TEST_CASE(9, s9, 0x10000000, li t0, 16; xlds_alloc(s9, t0, 0x10))
    la a0, tmpl
    li a1, 0
1:  add t0, a0, a1; ld t1, 0(t0); add t0, s1, a1; sd t1, 0(t0)
    addi a1, a1, 8; li t2, 64; bltu a1, t2, 1b
    li t0, 2; sw t0, Q_TAIL(s2); li t0, 8; sw t0, Q_CAP(s2); sd s1, Q_BASE(s2)
    li t0, 8; sw t0, Q_CAP(s4); sd s3, Q_BASE(s4)
    li t0, 8; sw t0, Q_CAP(s6); sd s5, Q_BASE(s6)
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
    la s0, desc
    sd s2, D_RAYQ(s0); sd s4, D_HITQ(s0); sd s6, D_MISSQ(s0)
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
    TEST_PASSFAIL
    OFF_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    SCENE_BVH(tris)
tris:
    .float 0, 0, 5, 4, 0, 5, 0, 4, 5
    .float 0, 0, 3, 0, 4, 3, 4, 0, 3
    .align 3
desc:
    .dword bvh, 0, 0, 0, 0
    .word 0, 0
    .space 24
mc_sec2:                                  /* XPHMG_MEMCTL: sec = secure */
    .space 19
    .byte 2
    .word 0
mc_sec3:                                  /* sec = 3 (reserved) */
    .space 19
    .byte 3
    .word 0
mc_dom_rt:                                /* dom = RT */
    .byte 2
    .space 23
scratch: .dword 0
tmpl:
    .float 1, 2, 0, 0, 0, 1, 0, 100
    .float 10, 10, 0, 0, 0, 1, 0, 100
RVTEST_DATA_END
