/* rt_leaf.c — the closest hit over a TriRange's triangles (rt_leaf.h). */
#include "rt_leaf.h"

#include <string.h>

/* REQ: RT-036 RT-064 RT-065 */
rt_fetch_status rt_leaf_closest(const rt_tri_src *src, uint32_t first, uint32_t count,
                                const rt_ray_pre *p, bool cull_back, unsigned eps_code, bool any,
                                rt_tri_hit *best, bool *stopped)
{
    *stopped = false;
    for (uint32_t i = 0; i < count; i++) {
        uint32_t prim = first + i; /* modulo 2^32 (P-342) */
        float tri[3][3], t, u, vv;
        if (src->mem) {
            memcpy(tri, src->mem + 36u * (size_t)i, sizeof tri);
        } else {
            rt_fetch_status st = rt_fetch_tri(src->f, src->base, prim, src->e, tri);
            if (st != RT_FETCH_OK) return st;
        }
        if (!rt_tri_test_pre(p, tri, cull_back, eps_code, &t, &u, &vv)) continue;
        if (best->hit && !(t < best->t || (t == best->t && prim < best->prim))) continue;
        *best = (rt_tri_hit){true, t, u, vv, prim};
        if (any) {
            *stopped = true;
            return RT_FETCH_OK;
        }
    }
    return RT_FETCH_OK;
}
