/* The offload engine's kept cache on the simulator (errata P-346): a job decodes the
 * scene's node and TriRange, and the next job over unchanged memory reuses them; every
 * way the guest can write RAM between two jobs makes the next job read the new bytes.
 * The scene (offload_test.h) sits alone on its page; its TriRange {first 0, count 2} is
 * rewritten to {first 0, count 1} by sd, sw, amoswap.w, sc.w, fsd and xlds.cpy (an XMEM
 * copy) in turn, after a job that read it with count 2. Expected by hand: ray (1, 2, 0)
 * along +z hits B (prim 1) at t 3 (0x40400000) with both triangles, A (prim 0) at t 5
 * (0x40A00000) with the first only. Run interpreted, translated and through the
 * commit-log loop (CMakeLists.txt).
 * REQ: RT-117 RT-123 */
#include "offload_test.h"

/* xlds.cpy rd, rs1, rs2, rs3, cpyf (tests/arch/xmem/lds_test.h) */
#define xlds_cpy(rd, rs1, rs2, rs3, cpyf) .insn r4 0x2b, 4, cpyf, rd, rs1, rs2, rs3

/* Queues as new: the ray queue holds ray 0, the hit and miss queues are empty. */
#define RESET_QUEUES                                                                      \
    sw x0, Q_HEAD(s1); li t0, 1; sw t0, Q_TAIL(s1);                                        \
    sw x0, Q_HEAD(s2); sw x0, Q_TAIL(s2);                                                  \
    sw x0, Q_HEAD(s3); sw x0, Q_TAIL(s3);

/* A job with both triangles, the write, a job that must see one. */
#define KEEP_ROUND(testnum, write...)                                                     \
    li t0, 2; sw t0, 68(s6);                                                               \
    RESET_QUEUES                                                                           \
    TEST_CASE(testnum, a0, 1, xsubmit_rt(s5, s0); xfence_wait(s5); lw a0, 4(s4))          \
    RESET_QUEUES                                                                           \
    write;                                                                                 \
    TEST_CASE(1##testnum, a0, 0, xsubmit_rt(s5, s0); xfence_wait(s5); lw a0, 4(s4))       \
    TEST_CASE(2##testnum, a0, 0x40A00000, lw a0, 8(s4))

RVTEST_CODE_BEGIN
    OFF_TRAP_SETUP
    /* PET = FP32 (MODE 23:21 = 1), EW 32 (20:19 = 2), APPLY0 (bit 31) */
    li t0, 0x80300000
    csrw PREC_MODE, t0
    OFF_JOB_REGS
    la s6, bvh
    /* two jobs with nothing written between them: the same hit */
    RESET_QUEUES
    TEST_CASE(2, a0, 1, xsubmit_rt(s5, s0); xfence_wait(s5); lw a0, 4(s4))
    RESET_QUEUES
    TEST_CASE(3, a0, 1, xsubmit_rt(s5, s0); xfence_wait(s5); lw a0, 4(s4))
    TEST_CASE(4, a0, 0x40400000, lw a0, 8(s4))
    KEEP_ROUND(11, li t0, 1; slli t0, t0, 32; sd t0, 64(s6))
    KEEP_ROUND(12, li t0, 1; sw t0, 68(s6))
    KEEP_ROUND(13, li t0, 1; addi t1, s6, 68; amoswap.w t2, t0, (t1))
    KEEP_ROUND(14, li t0, 1; addi t1, s6, 68; 1: lr.w t2, (t1); sc.w t2, t0, (t1); bnez t2, 1b)
    KEEP_ROUND(15, li t0, 1; slli t0, t0, 32; fmv.d.x ft0, t0; fsd ft0, 64(s6))
    KEEP_ROUND(16, addi t1, s6, 64; la t2, patch; li t0, 8; xlds_cpy(t0, t1, t2, t0, 0))
    TEST_CASE(17, s10, -1, nop)
    TEST_PASSFAIL
    OFF_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 12
    SCENE_BVH(tris)
    SCENE_TRIS32(tris)
    .align 12
    OFF_DESC(desc, bvh, rayq, hitq, missq, 0)
    OFF_QUEUE(rayq, 0, 1, 8, rays)
    OFF_QUEUE(hitq, 0, 0, 8, hits)
    OFF_QUEUE(missq, 0, 0, 8, misses)
    .align 3
patch:
    .word 0, 1
rays:
    .float 1, 2, 0, 0, 0, 1, 0, 100
    .space 32 * 7
    OFF_RESULTS(hits, misses)
RVTEST_DATA_END
