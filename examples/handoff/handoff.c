/* handoff — a Tier-0 producer/consumer handoff between the hart and the RT offload
 * engine (XMEM 3.2.6, errata P-200..P-206): the hart produces rays in CLS_SHARED / T0
 * regions it owns, hands them to RT with `xmem.region` (only the owner changes, nothing
 * is copied), an RT job reads them in place and writes hits and misses into RT-owned
 * Tier-0 regions, `xlds.bar` CLUSTER makes the results visible, and a second handoff
 * gives them back to the hart, which reads them where the job wrote them. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "xphmg_insn.h"

#define T0_FLAGS 0x10u /* xlds.alloc TIER = 1: Tier-0 */

/* XPHMG_MEMCTL (XMEM 4.3, FMT_MEMCTL); tier = rsv0 bits 1:0 */
struct memctl {
    uint8_t dom, l1_hint, l2_hint, lds_hint;
    uint16_t line_sz, qos;
    uint64_t lds_softpin;
    uint8_t mclass, sprof_id, hyb, sec;
    uint32_t rsv0;
};
/* FMT_QUEUE and FMT_RT_DESC (errata) */
struct queue {
    uint32_t head, tail, cap, rsv;
    uint64_t base;
};
struct rt_desc {
    uint64_t bvh_base, rayq, hitq, missq, tri_buf;
    uint32_t opts, rsv;
    struct memctl memctl;
};

/* One BVHNode4 (errata Q-67) whose child 0 is a leaf with box (0,0,3)-(4,4,5) in binary16
 * and the TriRange right after it: two triangles at z = 5 (back face) and z = 3. */
static struct {
    uint16_t box[24];
    uint8_t index[12];
    uint32_t flags;
    uint32_t first, count;
    uint64_t base;
} bvh __attribute__((aligned(64))) = {
    {0x0000, 0x0000, 0x4200, 0x4400, 0x4400, 0x4500}, {4}, 0x2, 0, 2, 0};
static const float tris[18] = {0, 0, 5, 4, 0, 5, 0, 4, 5, 0, 0, 3, 0, 4, 3, 4, 0, 3};
/* rays: origin, direction, tmin, tmax (FMT_RAY, FP32) */
static const float rays[2][8] = {{1, 2, 0, 0, 0, 1, 0, 100}, {10, 10, 0, 0, 0, 1, 0, 100}};
static struct rt_desc desc __attribute__((aligned(8)));
static const struct memctl shared_cpu = {.dom = 1, .mclass = 2}; /* CLS_SHARED = CL2 */
static const struct memctl to_rt = {.dom = 2};
static const struct memctl to_cpu = {.dom = 1};

static const char *dom_name(unsigned d)
{
    return d == 1 ? "CPU" : d == 2 ? "RT" : "?";
}

static void show(const char *what, uint64_t base)
{
    uint64_t w = xphmg_xmem_region(base, 0); /* FMT_XMEM_RGN */
    printf("  %-6s 0x%08lx T%u CL%u dom=%s\n", what, (unsigned long)base, (unsigned)(w & 3),
           (unsigned)((w >> 2) & 3), dom_name((unsigned)((w >> 8) & 15)));
}

int main(void)
{
    xphmg_csr_write(XPHMG_CSR_CAP_PREC_MODE, 0x80300000); /* PET FP32, applied */
    bvh.base = (uint64_t)(uintptr_t)tris;
    /* the producer's Tier-0 regions, owned by CAP.XMEM.DOM = CPU */
    uint64_t r_rays = xphmg_xlds_alloc(sizeof rays, T0_FLAGS);
    uint64_t r_hits = xphmg_xlds_alloc(4 * 24, T0_FLAGS);
    uint64_t r_miss = xphmg_xlds_alloc(4 * 4, T0_FLAGS);
    uint64_t r_q = xphmg_xlds_alloc(3 * sizeof(struct queue), T0_FLAGS);
    uint64_t regions[4] = {r_rays, r_hits, r_miss, r_q};
    for (unsigned i = 0; i < 4; i++)
        xphmg_xmem_region(regions[i], (uintptr_t)&shared_cpu);
    memcpy((void *)(uintptr_t)r_rays, rays, sizeof rays);
    struct queue *q = (struct queue *)(uintptr_t)r_q;
    q[0] = (struct queue){0, 2, 4, 0, r_rays};
    q[1] = (struct queue){0, 0, 4, 0, r_hits};
    q[2] = (struct queue){0, 0, 4, 0, r_miss};
    printf("produced by the hart:\n");
    show("rays", r_rays);
    show("hits", r_hits);
    /* the handoff: R.dom = DOM_RT, nothing moves */
    for (unsigned i = 0; i < 4; i++)
        xphmg_xmem_region(regions[i], (uintptr_t)&to_rt);
    printf("handed to RT (same addresses, no copy):\n");
    show("rays", r_rays);
    show("hits", r_hits);
    desc = (struct rt_desc){(uintptr_t)&bvh, r_q, r_q + 24, r_q + 48, 0, 0, 0, to_rt};
    uint64_t ticket = xphmg_xsubmit_rt((uintptr_t)&desc);
    xphmg_xlds_bar(3); /* CLUSTER: the RT job's results are visible after this */
    printf("job %lu done\n", (unsigned long)ticket);
    for (unsigned i = 0; i < 4; i++)
        xphmg_xmem_region(regions[i], (uintptr_t)&to_cpu);
    printf("handed back to the hart:\n");
    show("hits", r_hits);
    const uint32_t *h = (const uint32_t *)(uintptr_t)r_hits;
    const uint32_t *m = (const uint32_t *)(uintptr_t)r_miss;
    printf("hits %u: ray %u prim %u t 0x%08x\n", (unsigned)q[1].tail, (unsigned)h[0],
           (unsigned)h[1], (unsigned)h[2]);
    printf("misses %u: ray %u\n", (unsigned)q[2].tail, (unsigned)m[0]);
    printf("events 0x%lx\n", (unsigned long)xphmg_csr_read(XPHMG_CSR_CAP_XMEM_EVENTS));
    return 0;
}
