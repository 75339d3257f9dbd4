/* rt_leaf.h — the closest hit over the triangles of one TriRange: the loop that rt.tri
 * (rt_unit.c) and the offload traversal's leaves (rt_job.c) share (errata ).
 *
 * Triangles are tested in index order with rt_tri_test_pre, so the caller brackets the
 * call with rt_rne_enter()/rt_rne_leave(). Charging for the triangles and turning a failed
 * fetch into a trap or a job fault stay with the caller. */
#ifndef XPHMG_EXT_RT_LEAF_H
#define XPHMG_EXT_RT_LEAF_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_fetch.h"
#include "rt_kernels.h"

/* The closest hit so far (hit false: none yet). */
typedef struct {
    bool hit;
    float t, u, v;
    uint64_t prim;
} rt_tri_hit;

/* Where the triangles come from: read in place from mem (binary32, 36 bytes each, mem
 * pointing at the run's first triangle, which the caller fetched before without a fault
 * or zero fill) when mem is non-NULL; otherwise fetched through f, triangle i at
 * base + i * (its size in element format e). */
typedef struct {
    const uint8_t *mem;
    rt_fetch *f;
    uint64_t base;
    rt_elem e;
} rt_tri_src;

/* Tests triangles first, first + 1, ..., first + count - 1 of src against the prepared ray p
 * (culling back faces with cull_back, tolerance code eps_code) and keeps the closest hit in
 * *best: a hit replaces it when nearer, or as near with a lower triangle index. Triangle
 * indices are TriRange's 32-bit numbers (errata P-342): first + k is taken modulo 2^32,
 * for the triangle's address and for the index reported, so a run past 0xFFFFFFFF goes on
 * at index 0 (tested in that order). With any, stops at the first hit taken (*stopped
 * true). Returns RT_FETCH_OK, or the status of the first fetch that failed (the triangles
 * before it are tested, none after). */
rt_fetch_status rt_leaf_closest(const rt_tri_src *src, uint32_t first, uint32_t count,
                                const rt_ray_pre *p, bool cull_back, unsigned eps_code, bool any,
                                rt_tri_hit *best, bool *stopped);

/* What the in-place test of every leaf of one ray shares (rt_leaf_mem): prepared once per
 * ray by rt_leaf_ray_init for the culling, tolerance code and any-hit of rt_leaf_closest. */
typedef struct rt_leaf_ray rt_leaf_ray;
struct rt_leaf_ray {
    /* the loop rt_leaf_mem runs: the ray's whole-ray miss, the AVX loop, or the scalar
     * loop */
    bool (*mem)(const rt_leaf_ray *lr, const uint8_t *tris, uint32_t first, uint32_t count,
                rt_tri_hit *best);
    const rt_ray_pre *p;
    float lo, hi; /* the accepted t range [tmin - 2^-e, tmax + 2^-e] */
    bool none;    /* every triangle test misses (a NaN in the ray, a zero direction) */
    bool cull_back, any;
    unsigned eps_code;
    double ox, oy, oz; /* org[kx], org[ky], org[kz] in binary64 */
};
void rt_leaf_ray_init(const rt_ray_pre *p, bool cull_back, unsigned eps_code, bool any,
                      rt_leaf_ray *lr);
/* Chooses lr's loop: four triangles at a time with AVX when x4 and the host has AVX
 * (rt_leaf_ray_init asks for it), else one at a time; both find the same hits. */
void rt_leaf_ray_x4(rt_leaf_ray *lr, bool x4);
/* rt_leaf_closest for triangles read in place (mem: triangle `first`, binary32, 36 bytes
 * each): the same hits by the same rule; false when an any-hit search stopped. */
static inline bool rt_leaf_mem(const rt_leaf_ray *lr, const uint8_t *mem, uint32_t first,
                               uint32_t count, rt_tri_hit *best)
{
    return lr->mem(lr, mem, first, count, best);
}

#endif
