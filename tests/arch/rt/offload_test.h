/* offload_test.h — shared pieces of the RT offload guest tests (tests/arch/rt/offload_*.S).
 *
 * The instructions through GNU as's .insn (docs/xphmg-isa.md, CUSTOM-0 0x0b):
 * xsubmit.rt funct3 000 funct7 0, xfence.wait funct7 1, xfence.signal funct7 2,
 * xfence.pipe funct3 001 I-type; xlds.alloc CUSTOM-1 0x2b funct3 000 (errata Q-50).
 * OFF_TRAP_SETUP installs off_trap: mcause -> s10, mtval -> s11, resume after the
 * 4-byte trapping instruction. Addresses and field positions are written out from
 * spec/xphmg.xml (Unit RT, FMT_RT_DESC, FMT_QUEUE, FMT_RT_HIT) and errata. */
/* clang-format off */
#ifndef OFFLOAD_TEST_H
#define OFFLOAD_TEST_H

#include "xphmg_test.h"

#define xsubmit_rt(rd, rs1)      .insn r 0x0b, 0, 0, rd, rs1, x0
#define xfence_wait(rs1)         .insn r 0x0b, 0, 1, x0, rs1, x0
#define xfence_signal(rd)        .insn r 0x0b, 0, 2, rd, x0, x0
#define xfence_pipe(domsel)      .insn i 0x0b, 1, x0, x0, domsel
#define xlds_alloc(rd, rs1, fl)  .insn i 0x2b, 0, rd, rs1, fl
#define xcvt(rd, rs1, fmtsel)    .insn i 0x0b, 2, rd, rs1, fmtsel

/* CSRs (errata Q-06: RT at 0x810 + n; CAP 4) */
#define RTCFG        0x810
#define RTSTAT       0x811
#define RTQ_RAY      0x814
#define RTQ_HIT      0x815
#define RTQ_MISS     0x816
#define PREC_MODE    0x7D0
#define PREC_STAT    0x7D2
#define PREC_EXC_EN  0x7D3
#define PREC_EXC_ST  0x7D4
#define XMEM_DOM     0x7E6
#define XMEM_DESCPOL 0x7ED
#define XMEM_EVENTS  0x7EE

/* RTSTAT: BUSY 0, ERR 1, LAST_EC 7:2 (errata Q-66): a job fault = LAST_EC 3 + ERR */
#define RTSTAT_JOB_FAULT 0xE
/* FMT_RT_DESC offsets (errata Q-81) and FMT_QUEUE offsets */
#define D_BVH 0
#define D_RAYQ 8
#define D_HITQ 16
#define D_MISSQ 24
#define D_TRIBUF 32
#define D_OPTS 40
#define D_DOM 48
#define Q_HEAD 0
#define Q_TAIL 4
#define Q_CAP 8
#define Q_BASE 16

#define OFF_TRAP_SETUP                                                                    \
    la t0, off_trap;                                                                       \
    csrw mtvec, t0;                                                                        \
    li s10, -1;                                                                            \
    li s11, 0;

#define OFF_TRAP_HANDLER                                                                  \
    .align 2;                                                                              \
    off_trap:                                                                              \
    csrr s10, mcause;                                                                      \
    csrr s11, mtval;                                                                       \
    csrr t6, mepc;                                                                         \
    addi t6, t6, 4;                                                                        \
    csrw mepc, t6;                                                                         \
    mret;

/* Runs code, then fails unless a trap with cause `cause` was taken. */
#define OFF_EXPECT_TRAP(testnum, cause, code...)                                          \
    test_##testnum: li TESTNUM, testnum;                                                  \
    li s10, -1;                                                                            \
    code;                                                                                  \
    li t2, cause;                                                                          \
    bne s10, t2, fail;

/* The scene of every offload test: a root BVHNode4 (errata Q-67) whose child 0 is a leaf
 * with box (0,0,3)-(4,4,5) (binary16: 0 0x0000, 3 0x4200, 4 0x4400, 5 0x4500), index 4
 * (the TriRange right after the node, bvh + 64), child_flags 0x2 (child 0 = leaf); the
 * TriRange {first 0, count 2, base tris}. Triangles: prim 0 "A" (0,0,5) (4,0,5) (0,4,5)
 * (hit point (4u, 4v, 5), a back face for rays along +z), prim 1 "B" (0,0,3) (0,4,3)
 * (4,0,3) (hit point (4v, 4u, 3), a front face). */
#define SCENE_BVH(tris)                                                                   \
    .align 7;                                                                              \
    bvh:                                                                                   \
    .half 0x0000, 0x0000, 0x4200, 0x4400, 0x4400, 0x4500;                                 \
    .half 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0;                           \
    .byte 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0;                                              \
    .word 0x2;                                                                             \
    .word 0, 2;                                                                            \
    .dword tris;

/* The scene's triangles A and B at label, binary16 (FMT_TRIANGLE16, PET FP16 jobs) or
 * binary32 (FMT_TRIANGLE, PET FP32). */
#define SCENE_TRIS16(label)                                                               \
    .align 2;                                                                              \
    label:                                                                                 \
    .half 0, 0, 0x4500, 0x4400, 0, 0x4500, 0, 0x4400, 0x4500;                             \
    .half 0, 0, 0x4200, 0, 0x4400, 0x4200, 0x4400, 0, 0x4200;
#define SCENE_TRIS32(label)                                                               \
    .align 2;                                                                              \
    label:                                                                                 \
    .float 0, 0, 5, 4, 0, 5, 0, 4, 5;                                                      \
    .float 0, 0, 3, 0, 4, 3, 4, 0, 3;

/* A job descriptor (FMT_RT_DESC, errata Q-81): the BVH root, the ray, hit and miss queue
 * descriptors, tri_buf 0, opts, memctl all zero. */
#define OFF_DESC(label, root, rq, hq, mq, opts)                                           \
    .align 3;                                                                              \
    label:                                                                                 \
    .dword root, rq, hq, mq, 0;                                                            \
    .word opts, 0;                                                                         \
    .space 24;

/* A queue descriptor (FMT_QUEUE, errata Q-70). */
#define OFF_QUEUE(label, head, tail, cap, base)                                           \
    .align 3;                                                                              \
    label:                                                                                 \
    .word head, tail, cap, 0;                                                              \
    .dword base;

/* A binary16 ray (FMT_RAY16) from (1, 2, 0) along +z, tmin 0, tmax 100 (0x5640): it hits
 * B at t 3, u 0.5, v 0.25. */
#define RAY16_B .half 0x3C00, 0x4000, 0, 0, 0, 0x3C00, 0, 0x5640;

/* Room for 8 hit entries (FMT_RT_HIT, 24 bytes) and 8 miss entries (4 bytes). */
#define OFF_RESULTS(hits, misses)                                                         \
    .align 3;                                                                              \
    hits:                                                                                  \
    .space 24 * 8;                                                                         \
    misses:                                                                                \
    .space 4 * 8;

/* The one job of a test in registers: s0 its descriptor `desc`, s1-s3 the queue
 * descriptors rayq, hitq, missq, s4 the hit entries `hits`. */
#define OFF_JOB_REGS                                                                      \
    la s0, desc;                                                                           \
    la s1, rayq;                                                                           \
    la s2, hitq;                                                                           \
    la s3, missq;                                                                          \
    la s4, hits;

/* clang-format on */
#endif
