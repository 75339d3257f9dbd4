/* rt_leaf.c — the closest hit over a TriRange's triangles (rt_leaf.h). */
#include "rt_leaf.h"

#include <stdatomic.h>
#include <string.h>

/* Takes triangle prim's hit into *best by the rule of rt_leaf.h (nearer, or as near with a
 * lower index); false when an any-hit search stops at it. */
/* REQ: RT-064 RT-065 */
static bool take(rt_tri_hit *best, uint32_t prim, float t, float u, float v, bool any)
{
    if (best->hit && !(t < best->t || (t == best->t && prim < best->prim))) return true;
    *best = (rt_tri_hit){true, t, u, v, prim};
    return !any;
}

/* The portable loop is what the render guest (RV64) runs; -DRT_PORTABLE builds it on x86-64
 * too, so that the host tests check it (ext_rt_kernels_portable). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(RT_PORTABLE)
#include <immintrin.h>
#define RT_LEAF_X4 1

/* The nine floats of four binary32 triangles (rows row[k]), transposed: vert[v][c] holds
 * coordinate c of vertex v of each. Floats 0-3 and 4-7 of a row are two transposed loads,
 * float 8 is gathered by scalar loads: every load stays inside its triangle's 36 bytes. */
__attribute__((target("avx"), always_inline)) static inline void
tri4_vert(const uint8_t *const row[4], __m128 vert[3][3])
{
    __m128 r[2][4];
#pragma GCC unroll 2
    for (unsigned h = 0; h < 2; h++) {
#pragma GCC unroll 4
        for (unsigned k = 0; k < 4; k++)
            r[h][k] = _mm_loadu_ps((const float *)(const void *)(row[k] + 16 * h));
        _MM_TRANSPOSE4_PS(r[h][0], r[h][1], r[h][2], r[h][3]);
    }
    float last[4];
#pragma GCC unroll 4
    for (unsigned k = 0; k < 4; k++)
        memcpy(&last[k], row[k] + 32, 4);
    vert[0][0] = r[0][0], vert[0][1] = r[0][1], vert[0][2] = r[0][2];
    vert[1][0] = r[0][3], vert[1][1] = r[1][0], vert[1][2] = r[1][1];
    vert[2][0] = r[1][2], vert[2][1] = r[1][3], vert[2][2] = _mm_loadu_ps(last);
}

/* rt_tri_test_pre for the n (1-4) binary32 triangles at row[0..n-1], one per lane of AVX
 * binary64 vectors: the same conversions and operations in the same order (separate
 * multiplies and adds, never fused: intrinsics of a target without FMA), the same ordered
 * comparisons, the same divisions and roundings to binary32 (MXCSR is round to nearest
 * even inside rt_rne_enter), so each lane computes the bits the scalar test computes for
 * its triangle. For a ray with neither NaN nor a zero direction (lr->none false) whose
 * shear axes are kx, ky, kz. Returns the mask of hit lanes, their t, u, v in t/u/v.
 * Lanes k >= n repeat triangle n - 1 and are masked off. */
/* REQ: RT-059 RT-062 RT-065 */
__attribute__((target("avx"), always_inline)) static inline unsigned
tri4_axes(const rt_leaf_ray *lr, const uint8_t *const row[4], unsigned n, const unsigned kx,
          const unsigned ky, const unsigned kz, float t[4], float u[4], float v[4])
{
    __m128 vert[3][3];
    tri4_vert(row, vert);
    const rt_ray_pre *p = lr->p;
    const __m256d sx = _mm256_broadcast_sd(&p->dsx), sy = _mm256_broadcast_sd(&p->dsy);
    const __m256d sz = _mm256_broadcast_sd(&p->dsz);
    const __m256d ox = _mm256_broadcast_sd(&lr->ox), oy = _mm256_broadcast_sd(&lr->oy);
    const __m256d oz = _mm256_broadcast_sd(&lr->oz);
    __m256d x[3], y[3], z[3]; /* per vertex: sheared x and y, translated z */
    /* vertex k's columns kx, ky, kz: the ray's axis order as data, the columns read back
     * through three pointers (made opaque so that the compiler keeps three and does not
     * derive, hoist and spill nine) */
    const __m128 *cx = &vert[0][kx], *cy = &vert[0][ky], *cz = &vert[0][kz];
    __asm__("" : "+r"(cx), "+r"(cy), "+r"(cz));
#pragma GCC unroll 3
    for (unsigned k = 0; k < 3; k++) {
        z[k] = _mm256_sub_pd(_mm256_cvtps_pd(cz[3 * k]), oz);
        x[k] =
            _mm256_sub_pd(_mm256_sub_pd(_mm256_cvtps_pd(cx[3 * k]), ox), _mm256_mul_pd(sx, z[k]));
        y[k] =
            _mm256_sub_pd(_mm256_sub_pd(_mm256_cvtps_pd(cy[3 * k]), oy), _mm256_mul_pd(sy, z[k]));
    }
    /* eu = cx*by - cy*bx, ev = ax*cy - ay*cx, ew = bx*ay - by*ax (a, b, c: vertices 0-2) */
    __m256d eu = _mm256_sub_pd(_mm256_mul_pd(x[2], y[1]), _mm256_mul_pd(y[2], x[1]));
    __m256d ev = _mm256_sub_pd(_mm256_mul_pd(x[0], y[2]), _mm256_mul_pd(y[0], x[2]));
    __m256d ew = _mm256_sub_pd(_mm256_mul_pd(x[1], y[0]), _mm256_mul_pd(y[1], x[0]));
    const __m256d zero = _mm256_setzero_pd();
    __m256d neg = _mm256_or_pd(
        _mm256_or_pd(_mm256_cmp_pd(eu, zero, _CMP_LT_OQ), _mm256_cmp_pd(ev, zero, _CMP_LT_OQ)),
        _mm256_cmp_pd(ew, zero, _CMP_LT_OQ));
    __m256d pos = _mm256_or_pd(
        _mm256_or_pd(_mm256_cmp_pd(eu, zero, _CMP_GT_OQ), _mm256_cmp_pd(ev, zero, _CMP_GT_OQ)),
        _mm256_cmp_pd(ew, zero, _CMP_GT_OQ));
    __m256d det = _mm256_add_pd(_mm256_add_pd(eu, ev), ew);
    __m256d reject = lr->cull_back ? neg : _mm256_and_pd(neg, pos);
    reject = _mm256_or_pd(reject, _mm256_cmp_pd(det, zero, _CMP_EQ_OQ));
    reject = _mm256_or_pd(reject, _mm256_cmp_pd(det, det, _CMP_UNORD_Q));
    unsigned mask = ~(unsigned)_mm256_movemask_pd(reject) & ((1u << n) - 1);
    if (!mask) return 0;
    __m256d tt = _mm256_add_pd(_mm256_add_pd(_mm256_mul_pd(eu, _mm256_mul_pd(sz, z[0])),
                                             _mm256_mul_pd(ev, _mm256_mul_pd(sz, z[1]))),
                               _mm256_mul_pd(ew, _mm256_mul_pd(sz, z[2])));
    __m128 tf = _mm256_cvtpd_ps(_mm256_div_pd(tt, det));
    __m128 uu = _mm256_cvtpd_ps(_mm256_div_pd(ev, det));
    __m128 vv = _mm256_cvtpd_ps(_mm256_div_pd(ew, det));
    __m128 ok = _mm_and_ps(_mm_cmp_ps(tf, _mm_set1_ps(lr->lo), _CMP_GE_OQ),
                           _mm_cmp_ps(tf, _mm_set1_ps(lr->hi), _CMP_LE_OQ));
    ok = _mm_and_ps(ok, _mm_cmpord_ps(uu, vv)); /* neither u nor v NaN */
    _mm_storeu_ps(t, tf);
    _mm_storeu_ps(u, uu);
    _mm_storeu_ps(v, vv);
    return mask & (unsigned)_mm_movemask_ps(ok);
}

/* The byte offset of row k (1-3) of a group of n triangles (36 bytes each): triangle
 * min(k, n - 1), group_rows[n - 1][k - 1] (row 0 is triangle 0). */
static const uint8_t group_rows[4][3] = {{0, 0, 0}, {36, 36, 36}, {36, 72, 72}, {36, 72, 108}};

/* rt_leaf_mem's AVX path: four triangles at a time, hits taken in index order (so an
 * any-hit search stops where the scalar loop stops). The ray's axis order is data: one
 * loop for every ray. (It was expanded for each of the six axis orders, the columns in
 * registers: 3.5% fewer instructions on the soup, but six copies of the loop to keep in
 * the instruction caches and a different call target from one ray to the next;
 * bench/README.md "rt-soup".) */
__attribute__((target("avx"))) static bool leaf_x4(const rt_leaf_ray *lr, const uint8_t *mem,
                                                   uint32_t first, uint32_t count, rt_tri_hit *best)
{
    const unsigned kx = lr->p->kx, ky = lr->p->ky, kz = lr->p->kz;
    for (uint32_t i0 = 0; i0 < count; i0 += 4) {
        const uint8_t *q = mem + 36u * (size_t)i0, *row[4];
        unsigned n = count - i0 < 4 ? count - i0 : 4;
        /* row k is triangle min(k, n - 1), from a table rather than by comparisons: the
         * leaves' counts (1-4, mixed) would make those branches mispredict */
        row[0] = q;
#pragma GCC unroll 3
        for (unsigned k = 1; k < 4; k++)
            row[k] = q + group_rows[n - 1][k - 1];
        float t[4], u[4], v[4];
        for (unsigned hit = tri4_axes(lr, row, n, kx, ky, kz, t, u, v); hit; hit &= hit - 1) {
            unsigned j = (unsigned)__builtin_ctz(hit);
            if (!take(best, first + i0 + j, t[j], u[j], v[j], lr->any)) return false;
        }
    }
    return true;
}

#endif

/* rt_tri_test_pre of triangle prim (tri) and, on a hit, take; false when an any-hit search
 * stops at it. */
/* REQ: RT-064 RT-065 */
static bool test_take(const rt_ray_pre *p, const float tri[3][3], bool cull_back, unsigned eps_code,
                      bool any, uint32_t prim, rt_tri_hit *best)
{
    float t, u, v;
    return !rt_tri_test_pre(p, tri, cull_back, eps_code, &t, &u, &v) ||
           take(best, prim, t, u, v, any);
}

/* REQ: RT-036 RT-064 RT-065 */
static bool leaf_scalar(const rt_leaf_ray *lr, const uint8_t *mem, uint32_t first, uint32_t count,
                        rt_tri_hit *best)
{
    for (uint32_t i = 0; i < count; i++) {
        float tri[3][3];
        memcpy(tri, mem + 36u * (size_t)i, sizeof tri);
        if (!test_take(lr->p, tri, lr->cull_back, lr->eps_code, lr->any, first + i, best))
            return false; /* first + i modulo 2^32 (P-342) */
    }
    return true;
}

/* A ray every triangle test misses. */
static bool leaf_none(const rt_leaf_ray *lr, const uint8_t *mem, uint32_t first, uint32_t count,
                      rt_tri_hit *best)
{
    (void)lr, (void)mem, (void)first, (void)count, (void)best;
    return true;
}

#ifdef RT_LEAF_X4
/* rt_host_avx, asked once: a ray's init then reads one word instead of calling it. */
static _Atomic int host_x4 = -1;
#endif

/* lr's loop (rt_leaf_ray_x4), inline in rt_leaf_ray_init. */
__attribute__((always_inline)) static inline void leaf_loop(rt_leaf_ray *lr, bool x4)
{
    lr->mem = leaf_scalar;
#ifdef RT_LEAF_X4
    int avx = atomic_load_explicit(&host_x4, memory_order_relaxed);
    if (avx < 0) {
        avx = rt_host_avx();
        atomic_store_explicit(&host_x4, avx, memory_order_relaxed);
    }
    /* (a NaN range fails tri4_axes's t test as the scalar test's NaN check does) */
    if (x4 && avx) lr->mem = lr->none ? leaf_none : leaf_x4;
#else
    (void)x4;
    (void)leaf_none;
#endif
}

/* REQ: RT-065 */
void rt_leaf_ray_x4(rt_leaf_ray *lr, bool x4)
{
    leaf_loop(lr, x4);
}

void rt_leaf_ray_init(const rt_ray_pre *p, bool cull_back, unsigned eps_code, bool any,
                      rt_leaf_ray *lr)
{
    float eps = rt_eps(eps_code);
    lr->p = p;
    lr->lo = p->r.tmin - eps;
    lr->hi = p->r.tmax + eps;
    lr->none = p->nan || p->dir_zero; /* rt_tri_test_pre's whole-ray misses */
    lr->cull_back = cull_back;
    lr->any = any;
    lr->eps_code = eps_code;
    lr->ox = (double)p->r.org[p->kx];
    lr->oy = (double)p->r.org[p->ky];
    lr->oz = (double)p->r.org[p->kz];
    leaf_loop(lr, true);
}

/* REQ: RT-036 RT-064 RT-065 */
rt_fetch_status rt_leaf_closest(const rt_tri_src *src, uint32_t first, uint32_t count,
                                const rt_ray_pre *p, bool cull_back, unsigned eps_code, bool any,
                                rt_tri_hit *best, bool *stopped)
{
    *stopped = false;
    if (src->mem) {
        rt_leaf_ray lr;
        rt_leaf_ray_init(p, cull_back, eps_code, any, &lr);
        *stopped = !rt_leaf_mem(&lr, src->mem, first, count, best);
        return RT_FETCH_OK;
    }
    for (uint32_t i = 0; i < count; i++) {
        uint32_t prim = first + i; /* modulo 2^32 (P-342) */
        float tri[3][3];
        rt_fetch_status st = rt_fetch_tri(src->f, src->base, prim, src->e, tri);
        if (st != RT_FETCH_OK) return st;
        if (!test_take(p, tri, cull_back, eps_code, any, prim, best)) {
            *stopped = true;
            return RT_FETCH_OK;
        }
    }
    return RT_FETCH_OK;
}
