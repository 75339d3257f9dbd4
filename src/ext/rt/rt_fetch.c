/* rt_fetch.c — RT record fetches under the XMEM rules (semantics in rt_fetch.h). */
#include "rt_fetch.h"

#include <string.h>

/* A record read that succeeded is one read of the XMEM L1 model (errata P-224). */
/* REQ: RT-022 XMEM-087 */
static rt_fetch_status fetched_from(rt_fetch *f, uint64_t a, unsigned bytes)
{
    if (f->cache) f->cache(f->mem->ctx, f->cache_ctx, a, bytes);
    return RT_FETCH_OK;
}

/* Whether the n bytes at a overlap a range a map_only fetch must not read (the ranges
 * are sorted by their lower bound: none after one that starts at or above a + n). */
__attribute__((always_inline)) static inline bool forbidden(const rt_fetch *f, uint64_t a,
                                                            uint64_t n)
{
    if (f->map_only && !(a >= f->clear[0] && a + n <= f->clear[1] && a + n > a))
        for (unsigned i = 0; i < f->nforbid && f->forbid[i][0] < a + n; i++)
            if (a < f->forbid[i][1]) return true;
    return false;
}

/* rt_fetch_run, inline in the record fetchers below (their sizes and alignments constant). */
__attribute__((always_inline)) static inline const uint8_t *
fetch_run(const rt_fetch *f, uint64_t addr, uint64_t align, uint64_t n)
{
    if (n == 0 || (addr & (align - 1)) || n > UINT32_MAX || addr + n < addr || f->cache ||
        !f->mem->map || forbidden(f, addr, n))
        return NULL;
    return f->mem->map(f->mem->ctx, addr, (unsigned)n);
}

/* n units of unit bytes at a into buf (little-endian), after the alignment check. */
/* REQ: RT-089 RT-097 RT-099 RT-101 RT-102 RT-033 RT-041 */
static rt_fetch_status fetch(rt_fetch *f, uint64_t a, uint64_t align, unsigned unit, unsigned n,
                             uint8_t *buf)
{
    if (a & (align - 1)) {
        f->inv_miss = true;
        f->fault_addr = a;
        return RT_FETCH_MISALIGNED;
    }
    if (forbidden(f, a, (uint64_t)unit * n)) {
        f->declined = true;
        return RT_FETCH_ACCESS;
    }
    const uint8_t *p = f->mem->map ? f->mem->map(f->mem->ctx, a, unit * n) : NULL;
    if (p) {
        memcpy(buf, p, (size_t)unit * n);
        return fetched_from(f, a, unit * n);
    }
    if (f->map_only) {
        f->declined = true;
        return RT_FETCH_ACCESS;
    }
    for (unsigned i = 0; i < n; i++) {
        uint64_t v, ua = a + (uint64_t)i * unit;
        if (!f->mem->load(f->mem->ctx, ua, unit, &v)) {
            f->inv_miss = true;
            if (f->oob_zero) { /* the whole record reads as zero (SVMEM OOB-zero) */
                memset(buf, 0, (size_t)unit * n);
                return RT_FETCH_OK;
            }
            f->fault_addr = ua;
            return RT_FETCH_ACCESS;
        }
        for (unsigned k = 0; k < unit; k++)
            buf[i * unit + k] = (uint8_t)(v >> (8 * k));
    }
    return fetched_from(f, a, unit * n);
}

/* REQ: RT-039 RT-041 RT-042 RT-089 */
rt_fetch_status rt_fetch_ray(rt_fetch *f, uint64_t addr, rt_elem e, rt_ray *ray)
{
    unsigned es = rt_elem_bytes(e);
    const uint8_t *run = fetch_run(f, addr, es, 8u * es); /* what fetch would copy */
    if (run) {
        rt_ray_decode(run, e, ray);
        return RT_FETCH_OK;
    }
    uint8_t b[32];
    rt_fetch_status st = fetch(f, addr, es, es, 8, b);
    if (st == RT_FETCH_OK) rt_ray_decode(b, e, ray);
    return st;
}

/* REQ: RT-053 RT-089 */
rt_fetch_status rt_fetch_elem(rt_fetch *f, uint64_t addr, rt_elem e, float *x)
{
    /* The ray decoder widens elements; one element is the first of a ray whose other
     * elements are zero. */
    uint8_t b[32] = {0};
    unsigned es = rt_elem_bytes(e);
    rt_fetch_status st = fetch(f, addr, es, es, 1, b);
    if (st == RT_FETCH_OK) {
        rt_ray r;
        rt_ray_decode(b, e, &r);
        *x = r.org[0];
    }
    return st;
}

/* REQ: RT-033 RT-038 RT-089 */
rt_fetch_status rt_fetch_node(rt_fetch *f, uint64_t addr, unsigned ntiles, uint8_t bytes[128])
{
    /* what fetch would copy, with a copy of constant size (a node fill is one per tile
     * the offload engine first visits) */
    const uint8_t *run = fetch_run(f, addr, 64u * ntiles, 64u * ntiles);
    if (run && ntiles == 1) {
        memcpy(bytes, run, 64);
        return RT_FETCH_OK;
    }
    if (run && ntiles == 2) {
        memcpy(bytes, run, 128);
        return RT_FETCH_OK;
    }
    return fetch(f, addr, 64u * ntiles, 8, 8 * ntiles, bytes);
}

/* REQ: RT-036 RT-064 RT-089 */
rt_fetch_status rt_fetch_trirange(rt_fetch *f, uint64_t addr, rt_trirange *tr)
{
    const uint8_t *run = fetch_run(f, addr, 16, 16); /* what fetch would copy */
    if (run) {
        rt_trirange_decode(run, tr);
        return RT_FETCH_OK;
    }
    uint8_t b[16];
    rt_fetch_status st = fetch(f, addr, 16, 8, 2, b);
    if (st == RT_FETCH_OK) rt_trirange_decode(b, tr);
    return st;
}

/* REQ: RT-064 RT-089 */
rt_fetch_status rt_fetch_tri(rt_fetch *f, uint64_t base, uint64_t index, rt_elem e, float v[3][3])
{
    uint8_t b[36];
    unsigned es = rt_elem_bytes(e);
    rt_fetch_status st = fetch(f, base + index * rt_tri_bytes(e), es, es, 9, b);
    if (st == RT_FETCH_OK) rt_tri_decode(b, e, v);
    return st;
}

/* REQ: RT-064 RT-089 */
const uint8_t *rt_fetch_run(const rt_fetch *f, uint64_t addr, uint64_t align, uint64_t n)
{
    return fetch_run(f, addr, align, n);
}
