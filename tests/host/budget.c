/* budget — single instructions and offload jobs that would do minutes to hours of work:
 * under --max-insns they are charged one unit per triangle, node or 8 bytes (errata
 * P-300) and the run ends with 124 within the budget instead.
 *   rtjob: one xsubmit.rt job over a BVH whose child points back at the root, beside a
 *          leaf of 2M triangles (16k+ leaf visits per ray before the visit limit)
 *   rttri: one rt.tri over a TriRange of 2M triangles
 *   cpy:   one xlds.cpy of 32 MiB
 *   svm:   1024 xmem.svm gathers of 4096 elements (4M units, about 6K instructions)
 *   swz:   64 xswz.tex2ten of a 256x256 FP32 texture (2M units, under 1K instructions)
 * Each prints "done" only if the work completed; svm and swz complete within the budget
 * as instructions alone, so they end with 124 only if their elements and bytes are
 * charged. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xphmg_cap.h"
#include "xphmg_rt.h"

#define NTRI (2u << 20)

static uint8_t bvh[128] __attribute__((aligned(64))); /* Node4 root + TriRange */
static xphmg_ray ray = {{0, 0, -1}, {0, 0, 1}, 0, 1e30f};
static xphmg_ray rayq_buf[2];
static uint32_t hitq_buf[16], missq_buf[4];
static xphmg_rt_queue rayq __attribute__((aligned(8))), hitq __attribute__((aligned(8))),
    missq __attribute__((aligned(8)));
static uint64_t desc[9];

/* The triangles: whatever is in RAM from the start of the program on (72 MiB of code,
 * data and zeros: accessible, mostly degenerate). */
extern char _start[]; /* crt0: the first instruction, at the start of RAM */
static uintptr_t tri_base(void)
{
    return (uintptr_t)_start & ~(uintptr_t)63;
}

static void put_trirange(uint8_t *p, uint32_t count)
{
    uint32_t first = 0;
    uint64_t base = tri_base();
    memcpy(p, &first, 4);
    memcpy(p + 4, &count, 4);
    memcpy(p + 8, &base, 8);
}

static void cyclic_bvh(void)
{
    /* Child 0 is a leaf at index 4 (byte 64), child 1 a node at index 0 (the root
     * itself), both with a box of +-65504 (binary16 0xfbff / 0x7bff). Equal boxes are
     * visited in child order, leaf first, so the stack stays two entries deep, and a
     * hit in the leaf never culls the root: the traversal only ends at the per-ray
     * visit limit. */
    for (unsigned c = 0; c < 2; c++)
        for (unsigned i = 0; i < 3; i++) {
            uint16_t lo = 0xfbff, hi = 0x7bff;
            memcpy(bvh + 12 * c + 2 * i, &lo, 2);
            memcpy(bvh + 12 * c + 6 + 2 * i, &hi, 2);
        }
    bvh[48] = 4;                 /* child 0 index 4; child 1 index 0 */
    bvh[60] = 2u << 0 | 1u << 2; /* kinds: leaf, node, empty, empty */
    put_trirange(bvh + 64, NTRI);
}

/* The buffers of svm and swz come from the heap: in .bss, crt0 would clear them in
 * every mode, and the rttri mode's charge (tests/sim/exit_codes.cmake) would shrink. */
#define SVM_N 4096u
static const uint64_t svm_word = 0x1111111111111111u;

static void svm_gathers(void)
{
    uint64_t *svm_idx = malloc(SVM_N * 8), *svm_buf = malloc(SVM_N * 8);
    if (!svm_idx || !svm_buf) exit(104);
    for (unsigned i = 0; i < SVM_N; i++)
        svm_idx[i] = (uintptr_t)&svm_word;
    /* SVMBASE 0, 64-bit indices (absolute addresses), 8-byte elements, gather, no bound
     * check (tests/arch/xmem/svm_gather.S) */
    xphmg_csr_write(XPHMG_CSR_CAP_XMEM_SVMBASE, 0);
    xphmg_csr_write(XPHMG_CSR_CAP_XMEM_SVMIDX, (uintptr_t)svm_idx);
    xphmg_csr_write(XPHMG_CSR_CAP_XMEM_SVMSCL, 1u << CAP_XMEM_SVMSCL_IDX_W_SHIFT);
    xphmg_csr_write(XPHMG_CSR_CAP_XMEM_SVMLEN, 8);
    xphmg_csr_write(XPHMG_CSR_CAP_XMEM_SVMMODE, 0);
    for (unsigned k = 0; k < 1024; k++)
        if (xphmg_xmem_svm((uintptr_t)svm_buf, SVM_N, 0) != SVM_N || svm_buf[SVM_N - 1] != svm_word)
            exit(102);
}

#define TEX_W 256u

static void swz_relayouts(void)
{
    size_t bytes = TEX_W * TEX_W * 4;
    uint32_t *tex = calloc(1, bytes), *ten = malloc(bytes);
    if (!tex || !ten) exit(104);
    /* EFF_EW 32 (set in main), linear texture -> XDL 4x4 tiles (LAYOUT 0) */
    for (unsigned k = 0; k < 64; k++)
        if (xphmg_xswz_tex2ten((uintptr_t)ten, (uintptr_t)tex, (uint64_t)TEX_W << 32 | TEX_W, 0) !=
            bytes)
            exit(103);
}

int main(int argc, char **argv)
{
    if (argc < 2) return 100;
    xphmg_prec_apply_mode(
        xphmg_prec_mode(XPHMG_T_FP32, XPHMG_EW_32, XPHMG_ACCW_FP32, XPHMG_RM_RNE));
    if (!strcmp(argv[1], "rtjob")) {
        cyclic_bvh();
        rayq_buf[0] = ray;
        rayq = (xphmg_rt_queue){0, 1, 2, 0, (uintptr_t)rayq_buf};
        hitq = (xphmg_rt_queue){0, 0, 2, 0, (uintptr_t)hitq_buf};
        missq = (xphmg_rt_queue){0, 0, 2, 0, (uintptr_t)missq_buf};
        desc[0] = (uintptr_t)bvh;
        desc[1] = (uintptr_t)&rayq;
        desc[2] = (uintptr_t)&hitq;
        desc[3] = (uintptr_t)&missq;
        xphmg_xfence_wait(xphmg_xsubmit_rt((uintptr_t)desc));
    } else if (!strcmp(argv[1], "rttri")) {
        put_trirange(bvh + 64, NTRI);
        xphmg_csr_write(XPHMG_CSR_RTTRI, (uintptr_t)(bvh + 64));
        (void)xphmg_rt_tri((uintptr_t)&ray, 0);
    } else if (!strcmp(argv[1], "svm")) {
        svm_gathers();
    } else if (!strcmp(argv[1], "swz")) {
        swz_relayouts();
    } else if (!strcmp(argv[1], "cpy")) {
        uintptr_t src = tri_base();
        (void)xphmg_xlds_cpy(src + (64u << 20), src, 32u << 20, 0);
    } else {
        return 101;
    }
    printf("done\n");
    return 0;
}
