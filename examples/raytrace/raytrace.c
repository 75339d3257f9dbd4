/* raytrace — renders a procedural scene with the XPHMG_RT instructions.
 *
 * The scene is an XBVH blob (tools/bvh: `xphmg-bvh --procedural`) embedded at build time
 * (scene.S, .incbin). The program relocates it (xphmg_bvh_relocate), casts 64x48 FP32
 * primary rays (raytrace_camera.h) and traces each one twice:
 *   1. on the hart: a stack traversal written with rt.bbox (node tile in RTNODE, children
 *      near to far from FMT_RT_BBOX_RES) and rt.tri (TriRange in RTTRI), closest hit,
 *      ties to the lower triangle index;
 *   2. through the offload path: all rays in a ray queue, one xsubmit.rt job, xfence.wait,
 *      results read back from the hit and miss queues;
 * and checks that both give the same triangle and the same t bits for every pixel. It
 * prints the hit count, an FNV-1a checksum of the hit buffer (prim + 1 per pixel, 0 for
 * a miss) and a 64x48 ASCII image shaded by the hit triangle's normal. The expected
 * output comes from a host brute-force tracer in double precision (raytrace_ref.c). */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "raytrace_camera.h"
#include "xphmg_bvh.h"
#include "xphmg_cap.h"
#include "xphmg_rt.h"

extern uint8_t scene_blob[]; /* scene.S: the XBVH file, 64-byte aligned, writable */

#define NRAYS (RT_W * RT_H)

static xphmg_ray rays[NRAYS];
static xphmg_ray rayq_buf[NRAYS + 1];
static xphmg_rt_hit hitq_buf[NRAYS + 1];
static uint32_t missq_buf[NRAYS + 1];
static xphmg_rt_queue rayq __attribute__((aligned(8))), hitq __attribute__((aligned(8))),
    missq __attribute__((aligned(8)));
static uint64_t desc[9]; /* FMT_RT_DESC, 72 bytes */

static uint32_t hit_prim[NRAYS]; /* prim + 1, 0 = miss */
static uint32_t hit_t[NRAYS];    /* binary32 bits of t */

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static float f32_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

/* One ray on the hart. Returns prim + 1 (0 = miss) and the t bits. The ray record's
 * tmax shrinks to the closest hit so far, so rt.bbox culls farther boxes and rt.tri
 * farther triangles. */
static uint32_t trace_hart(xphmg_ray *r, const uint8_t *base, uint32_t *t_bits)
{
    uint32_t stack[3 * 64 + 1]; /* BVH_MAX_DEPTH levels, at most 3 pushes each */
    unsigned sp = 0;
    uint32_t best = 0, best_t = 0;
    stack[sp++] = 0; /* the root node is at the base */
    while (sp > 0) {
        const uint8_t *node = base + 16u * stack[--sp];
        xphmg_csr_write(XPHMG_CSR_RTNODE, (uintptr_t)node);
        uint64_t res = xphmg_rt_bbox((uintptr_t)r, 0);
        if (res == 0) continue;
        unsigned mask = res & 0xff, n = (unsigned)__builtin_popcount(mask);
        uint32_t kinds = le32(node + 60);
        uint32_t child[4];
        for (unsigned k = 0; k < 4; k++)
            child[k] = (uint32_t)node[48 + 3 * k] | (uint32_t)node[49 + 3 * k] << 8 |
                       (uint32_t)node[50 + 3 * k] << 16;
        /* leaves near to far now; inner nodes pushed far first so the nearest pops next */
        for (unsigned k = 0; k < n; k++) {
            unsigned c = (res >> (8 + 3 * k)) & 7;
            if (((kinds >> (2 * c)) & 3) != 2) continue;
            xphmg_csr_write(XPHMG_CSR_RTTRI, (uintptr_t)(base + 16u * child[c]));
            uint64_t h = xphmg_rt_tri((uintptr_t)r, 0);
            if (!(h >> 63)) continue;
            uint32_t tb = (uint32_t)h, prim = (uint32_t)(h >> 32) & 0x7fffffffu;
            float t = f32_of(tb);
            if (best == 0 || t < f32_of(best_t) || (t == f32_of(best_t) && prim + 1 < best)) {
                best = prim + 1;
                best_t = tb;
                r->tmax = t;
            }
        }
        for (unsigned k = n; k-- > 0;) {
            unsigned c = (res >> (8 + 3 * k)) & 7;
            if (((kinds >> (2 * c)) & 3) == 1) {
                if (sp == sizeof stack / sizeof stack[0])
                    return 0xffffffffu; /* deeper than any builder output */
                stack[sp++] = child[c];
            }
        }
    }
    *t_bits = best_t;
    return best;
}

/* All rays through one offload job; returns the number of rays that disagree with the
 * hart's results, -1 if the job did not complete. */
static int trace_offload(const uint8_t *base)
{
    memcpy(rayq_buf, rays, sizeof rays);
    rayq = (xphmg_rt_queue){0, NRAYS, NRAYS + 1, 0, (uintptr_t)rayq_buf};
    hitq = (xphmg_rt_queue){0, 0, NRAYS + 1, 0, (uintptr_t)hitq_buf};
    missq = (xphmg_rt_queue){0, 0, NRAYS + 1, 0, (uintptr_t)missq_buf};
    memset(desc, 0, sizeof desc);
    desc[0] = (uintptr_t)base;
    desc[1] = (uintptr_t)&rayq;
    desc[2] = (uintptr_t)&hitq;
    desc[3] = (uintptr_t)&missq;
    /* tri_buf 0 (TriRange.base), opts 0 (closest hit), memctl 0 (CAP defaults) */
    uint64_t ticket = xphmg_xsubmit_rt((uintptr_t)desc);
    xphmg_xfence_wait(ticket);
    if (xphmg_csr_read(XPHMG_CSR_RTSTAT) & 2u) /* ERR: the job faulted */
        return -1;
    if (rayq.head != NRAYS || hitq.tail + missq.tail != NRAYS) return -1;
    int bad = 0;
    static uint8_t seen[NRAYS];
    for (uint32_t k = 0; k < hitq.tail; k++) {
        const xphmg_rt_hit *h = &hitq_buf[k];
        if (h->ray >= NRAYS || seen[h->ray]++ || hit_prim[h->ray] != h->prim + 1 ||
            hit_t[h->ray] != h->t)
            bad++;
    }
    for (uint32_t k = 0; k < missq.tail; k++) {
        uint32_t i = missq_buf[k];
        if (i >= NRAYS || seen[i]++ || hit_prim[i] != 0) bad++;
    }
    return bad;
}

int main(void)
{
    /* Ray records and triangles are in the effective format (errata Q-69), FP16 after
     * reset: switch CAP.PREC to FP32 (CAP 6.1). */
    xphmg_prec_apply_mode(
        xphmg_prec_mode(XPHMG_T_FP32, XPHMG_EW_32, XPHMG_ACCW_FP32, XPHMG_RM_RNE));
    const xphmg_bvh_header *hdr = (const xphmg_bvh_header *)scene_blob;
    const uint8_t *base = xphmg_bvh_relocate(scene_blob);
    if (base == NULL) {
        printf("raytrace: bad scene blob\n");
        return 1;
    }
    const float *tris = xphmg_bvh_triangles(scene_blob);
    printf("scene: %u triangles, %u nodes, %u leaves\n", (unsigned)hdr->tri_count,
           (unsigned)hdr->node_count, (unsigned)hdr->range_count);

    for (int py = 0; py < RT_H; py++)
        for (int px = 0; px < RT_W; px++) {
            xphmg_ray *r = &rays[py * RT_W + px];
            camera_ray(hdr->bounds_lo, hdr->bounds_hi, px, py, r->org, r->dir);
            r->tmin = 0.0f;
            r->tmax = 1e30f;
        }

    unsigned hits = 0;
    uint32_t sum = RT_FNV_OFFSET;
    for (int i = 0; i < NRAYS; i++) {
        xphmg_ray r = rays[i];
        hit_prim[i] = trace_hart(&r, base, &hit_t[i]);
        if (hit_prim[i] == 0xffffffffu) {
            printf("raytrace: traversal stack overflow\n");
            return 1;
        }
        hits += hit_prim[i] != 0;
        for (int b = 0; b < 4; b++)
            sum = (sum ^ ((hit_prim[i] >> (8 * b)) & 0xff)) * RT_FNV_PRIME;
    }
    printf("rays: %d (%dx%d), hits %u, misses %u\n", NRAYS, RT_W, RT_H, hits, NRAYS - hits);
    printf("checksum: 0x%08lx\n", (unsigned long)sum);

    for (int py = 0; py < RT_H; py++) {
        char line[RT_W + 1];
        for (int px = 0; px < RT_W; px++) {
            uint32_t p = hit_prim[py * RT_W + px];
            if (p == 0) {
                line[px] = ' ';
                continue;
            }
            const float *v = tris + 9u * (p - 1);
            float e1[3] = {v[3] - v[0], v[4] - v[1], v[5] - v[2]};
            float e2[3] = {v[6] - v[0], v[7] - v[1], v[8] - v[2]};
            float n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                          e1[0] * e2[1] - e1[1] * e2[0]};
            float d = n[0] * RT_LIGHT_X + n[1] * RT_LIGHT_Y + n[2] * RT_LIGHT_Z;
            float nn = n[0] * n[0] + n[1] * n[1] + n[2] * n[2];
            float ll = RT_LIGHT_X * RT_LIGHT_X + RT_LIGHT_Y * RT_LIGHT_Y + RT_LIGHT_Z * RT_LIGHT_Z;
            int s = (int)(d * d / (nn * ll) * 9.0f);
            line[px] = RT_RAMP[s > 8 ? 8 : s < 0 ? 0 : s];
        }
        line[RT_W] = 0;
        printf("|%s|\n", line);
    }

    int bad = trace_offload(base);
    if (bad < 0) {
        printf("offload: job failed (rtstat 0x%llx)\n",
               (unsigned long long)xphmg_csr_read(XPHMG_CSR_RTSTAT));
        return 1;
    }
    printf("offload: %u hits, %u misses, %d disagreements\n", (unsigned)hitq.tail,
           (unsigned)missq.tail, bad);
    return bad != 0;
}
