/* test_rt_kernels.c — the XPHMG_RT kernels (src/ext/rt/rt_kernels.h) against hand-computed
 * cases (arithmetic in the comments, all values exact in binary32) and against independent
 * references written here: a binary64 Cramer's-rule ray/triangle solver, a binary64 slab
 * test, a bit-level binary16 decoder, and geometric facts about meshes (a ray crossing a
 * height-field sheet or entering a closed convex mesh must hit it). Decisions: errata Q-67,
 * Q-69, Q-72, Q-74, Q-75, Q-76 (docs/errata.md "## RT"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <fenv.h>
#include <sys/mman.h>
#include <unistd.h>
#include <math.h>

#include <cmocka.h>

#include "le_bytes.h"
#include "rt_kernels.h"
#include "rt_leaf.h"

/* ---- Helpers ----------------------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15u;
static uint64_t rng_next(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}
/* Uniform double in [a, b). */
static double rnd(double a, double b)
{
    return a + (b - a) * (double)(rng_next() >> 11) * 0x1p-53;
}

static uint32_t fbits(float x)
{
    uint32_t u;
    memcpy(&u, &x, 4);
    return u;
}

static rt_ray mkray(float ox, float oy, float oz, float dx, float dy, float dz, float tmin,
                    float tmax)
{
    rt_ray r = {{ox, oy, oz}, {dx, dy, dz}, tmin, tmax};
    return r;
}

static rt_box mkbox(float lx, float ly, float lz, float hx, float hy, float hz)
{
    rt_box b = {{lx, ly, lz}, {hx, hy, hz}};
    return b;
}

/* binary16 bits -> exact value (independent of the numeric engine). */
static double h2d(uint32_t h)
{
    int s = (h >> 15) & 1, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 0)
        v = ldexp(m, -24);
    else if (e == 31)
        v = m ? NAN : INFINITY;
    else
        v = ldexp(1024 + m, e - 25);
    return s ? -v : v;
}
/* The next binary16 above / below (finite inputs). */
static uint32_t h_up(uint32_t h)
{
    if (h == 0x8000u) return 0x0001u;
    return (h & 0x8000u) ? h - 1 : h + 1;
}
static uint32_t h_down(uint32_t h)
{
    if (h == 0x0000u) return 0x8001u;
    return (h & 0x8000u) ? h + 1 : h - 1;
}

/* Reference ray/triangle in binary64: solve o + t d = v0 + u (v1-v0) + v (v2-v0) by
 * Cramer's rule. *front: the triangle is counter-clockwise seen from the origin, i.e. the
 * normal (v1-v0) x (v2-v0) points against d. Returns false when the system is singular. */
static bool ref_tri(const rt_ray *r, const float v[3][3], double *t, double *u, double *w,
                    bool *front, double *cosang)
{
    double e1[3], e2[3], s[3], d[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = (double)v[1][i] - v[0][i];
        e2[i] = (double)v[2][i] - v[0][i];
        s[i] = (double)r->org[i] - v[0][i];
        d[i] = r->dir[i];
    }
    /* u e1 + v e2 - t d = s; columns c0 = e1, c1 = e2, c2 = -d. */
    double n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                   e1[0] * e2[1] - e1[1] * e2[0]};
    double nd = n[0] * d[0] + n[1] * d[1] + n[2] * d[2];
    double det = -nd; /* det[e1 e2 -d] = -(e1 x e2).d */
    double nn = sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
    double dn = sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
    *cosang = fabs(nd) / (nn * dn);
    *front = nd < 0;
    if (det == 0) return false;
    /* u = det[s e2 -d] / det = -(s x e2).d / det ; v = -(e1 x s).d / det ;
     * t = det[e1 e2 s] / det = (e1 x e2).s / det. */
    double sxe2[3] = {s[1] * e2[2] - s[2] * e2[1], s[2] * e2[0] - s[0] * e2[2],
                      s[0] * e2[1] - s[1] * e2[0]};
    double e1xs[3] = {e1[1] * s[2] - e1[2] * s[1], e1[2] * s[0] - e1[0] * s[2],
                      e1[0] * s[1] - e1[1] * s[0]};
    *u = -(sxe2[0] * d[0] + sxe2[1] * d[1] + sxe2[2] * d[2]) / det;
    *w = -(e1xs[0] * d[0] + e1xs[1] * d[1] + e1xs[2] * d[2]) / det;
    *t = (n[0] * s[0] + n[1] * s[1] + n[2] * s[2]) / det;
    return true;
}

/* Reference slab test in binary64 with the same definitions (inclusive, d = 0: inside or
 * outside the slab for every t). */
static bool ref_box(const rt_ray *r, const rt_box *b, double *tn, double *tf)
{
    double n = -INFINITY, f = INFINITY;
    for (int i = 0; i < 3; i++) {
        double o = r->org[i], d = r->dir[i], lo = b->lo[i], hi = b->hi[i];
        if (d == 0) {
            if (o < lo || o > hi) return false;
            continue;
        }
        double t0 = (lo - o) / d, t1 = (hi - o) / d;
        if (t0 > t1) {
            double s = t0;
            t0 = t1;
            t1 = s;
        }
        n = fmax(n, t0);
        f = fmin(f, t1);
    }
    *tn = n;
    *tf = f;
    return fmax(n, r->tmin) <= fmin(f, r->tmax);
}

/* ---- Records ------------------------------------------------------------------------ */

/* FMT_RAY / FMT_RAY16 element order org.xyz, dir.xyz, tmin, tmax, little-endian;
 * 16-bit elements widen exactly. REQ: RT-039 RT-040 RT-042 */
static void test_ray_decode(void **state)
{
    (void)state;
    /* FP32: 1.0 = 0x3F800000, -2.5 = 0xC0200000, 0.0, 3.0 = 0x40400000 ... */
    const uint32_t w[8] = {0x3F800000u, 0xC0200000u, 0x00000000u, 0x40400000u,
                           0x00000001u, 0x80000000u, 0x00000000u, 0x7F800000u};
    uint8_t b[32];
    for (int i = 0; i < 8; i++)
        for (int k = 0; k < 4; k++)
            b[4 * i + k] = (uint8_t)(w[i] >> (8 * k));
    rt_ray r;
    rt_ray_decode(b, RT_ELEM_FP32, &r);
    assert_true(r.org[0] == 1.0f && r.org[1] == -2.5f && r.org[2] == 0.0f);
    assert_true(r.dir[0] == 3.0f && fbits(r.dir[1]) == 1u && fbits(r.dir[2]) == 0x80000000u);
    assert_true(r.tmin == 0.0f && isinf(r.tmax) && r.tmax > 0);

    /* FP16: 1.0 0x3C00, -2.0 0xC000, 0.5 0x3800, 65504 0x7BFF, 2^-24 0x0001 (subnormal),
     * -0 0x8000, 0, +inf 0x7C00. */
    const uint16_t h[8] = {0x3C00, 0xC000, 0x3800, 0x7BFF, 0x0001, 0x8000, 0x0000, 0x7C00};
    for (int i = 0; i < 8; i++) {
        b[2 * i] = (uint8_t)h[i];
        b[2 * i + 1] = (uint8_t)(h[i] >> 8);
    }
    rt_ray_decode(b, RT_ELEM_FP16, &r);
    assert_true(r.org[0] == 1.0f && r.org[1] == -2.0f && r.org[2] == 0.5f);
    assert_true(r.dir[0] == 65504.0f && r.dir[1] == 0x1p-24f && fbits(r.dir[2]) == 0x80000000u);
    assert_true(r.tmin == 0.0f && isinf(r.tmax));

    /* BF16: the high half of a binary32: 0x3F80 = 1.0, 0xC040 = -3.0, 0x3E20 = 0.15625. */
    const uint16_t g[8] = {0x3F80, 0xC040, 0x3E20, 0x0000, 0x0000, 0x3F80, 0x0000, 0x4120};
    for (int i = 0; i < 8; i++) {
        b[2 * i] = (uint8_t)g[i];
        b[2 * i + 1] = (uint8_t)(g[i] >> 8);
    }
    rt_ray_decode(b, RT_ELEM_BF16, &r);
    assert_true(r.org[0] == 1.0f && r.org[1] == -3.0f && r.org[2] == 0.15625f);
    assert_true(r.dir[2] == 1.0f && r.tmax == 10.0f); /* 0x4120 = 10.0 */
    assert_int_equal(rt_ray_bytes(RT_ELEM_FP32), 32);
    assert_int_equal(rt_ray_bytes(RT_ELEM_FP16), 16);
    assert_int_equal(rt_tri_bytes(RT_ELEM_FP32), 36);
    assert_int_equal(rt_tri_bytes(RT_ELEM_BF16), 18);
}

/* FMT_TRIANGLE16 (v0, v1, v2 xyz) and FMT_TRIRANGE (first, count, base). REQ: RT-036
 * REQ: RT-064 */
static void test_tri_trirange_decode(void **state)
{
    (void)state;
    uint8_t b[18];
    for (int i = 0; i < 9; i++) { /* element i = i + 1 in FP16: 1.0 0x3C00, 2.0 0x4000, ... */
        static const uint16_t h[9] = {0x3C00, 0x4000, 0x4200, 0x4400, 0x4500,
                                      0x4600, 0x4700, 0x4800, 0x4880};
        b[2 * i] = (uint8_t)h[i];
        b[2 * i + 1] = (uint8_t)(h[i] >> 8);
    }
    float v[3][3];
    rt_tri_decode(b, RT_ELEM_FP16, v);
    for (int i = 0; i < 9; i++)
        assert_true(v[i / 3][i % 3] == (float)(i + 1));
    /* exactly nine elements are written, in every format (a canary after them) */
    for (int e = 0; e < 3; e++) {
        struct {
            float v[3][3];
            float canary;
        } d;
        d.canary = 42.0f;
        uint8_t b36[36];
        memset(b36, 0x3C, sizeof b36);
        rt_tri_decode(b36, e == 0 ? RT_ELEM_FP32 : e == 1 ? RT_ELEM_FP16 : RT_ELEM_BF16, d.v);
        assert_true(d.canary == 42.0f);
    }

    const uint8_t tr[16] = {0x78, 0x56, 0x34, 0x12, 0x05, 0,    0,    0,
                            0x00, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70};
    rt_trirange r;
    rt_trirange_decode(tr, &r);
    assert_int_equal(r.first, 0x12345678u);
    assert_int_equal(r.count, 5);
    assert_int_equal(r.base, UINT64_C(0x7060504030201000));
}

/* FP16 records are computed in binary32 (errata Q-76): org 0, dir.x = 3, box x >= 1 gives
 * tnear = (1 - 0) * RNE32(1/3) = 0x3EAAAAAB, where binary16 arithmetic would give 0x3555
 * (0.33325...). The same ray against a triangle at x = 1 (FP16 vertices) gives t within
 * binary32 rounding of 1/3. REQ: RT-057 RT-066 RT-078 */
static void test_fp16_records_fp32_math(void **state)
{
    (void)state;
    /* org (0,0,0) dir (3,0,0) = 0x4200, tmin 0, tmax 10 = 0x4900 */
    const uint16_t h[8] = {0, 0, 0, 0x4200, 0, 0, 0, 0x4900};
    uint8_t b[16];
    for (int i = 0; i < 8; i++) {
        b[2 * i] = (uint8_t)h[i];
        b[2 * i + 1] = (uint8_t)(h[i] >> 8);
    }
    rt_ray r;
    rt_ray_decode(b, RT_ELEM_FP16, &r);
    rt_box bx = mkbox(1, -1, -1, 2, 1, 1);
    float tn, tf;
    assert_true(rt_box_test(&r, &bx, &tn, &tf));
    assert_int_equal(fbits(tn), 0x3EAAAAABu);
    /* triangle (1,-1,-1) (1,2,-1) (1,-1,2) as FP16: 1 = 0x3C00, -1 = 0xBC00, 2 = 0x4000 */
    const uint16_t tv[9] = {0x3C00, 0xBC00, 0xBC00, 0x3C00, 0x4000, 0xBC00, 0x3C00, 0xBC00, 0x4000};
    uint8_t tb[18];
    for (int i = 0; i < 9; i++) {
        tb[2 * i] = (uint8_t)tv[i];
        tb[2 * i + 1] = (uint8_t)(tv[i] >> 8);
    }
    float v[3][3], t, u, w;
    rt_tri_decode(tb, RT_ELEM_FP16, v);
    assert_true(rt_tri_test(&r, v, false, 0, &t, &u, &w));
    assert_true(fabs((double)t - 1.0 / 3) < 1e-7);
    /* hit point (1, 0, 0) = (1-u-v) v0 + u v1 + v v2: y: -1 + 3u = 0, z: -1 + 3v = 0. */
    assert_true(fabs((double)u - 1.0 / 3) < 1e-7 && fabs((double)w - 1.0 / 3) < 1e-7);
}

/* ---- Slab test --------------------------------------------------------------------- */

/* Hand-computed slab cases (all values exact). REQ: RT-056 */
static void test_box_hand(void **state)
{
    (void)state;
    rt_box b = mkbox(1, 1, 1, 2, 2, 2);
    float tn = -7, tf = -7;
    /* o = 0, d = (1,1,1): every axis [1, 2]. */
    rt_ray r = mkray(0, 0, 0, 1, 1, 1, 0, 10);
    assert_true(rt_box_test(&r, &b, &tn, &tf));
    assert_true(tn == 1.0f && tf == 2.0f);
    /* d = (2, 1, 0.5): x [0.5, 1], y [1, 2], z [2, 4] -> tnear 2 > tfar 1: miss. */
    r = mkray(0, 0, 0, 2, 1, 0.5f, 0, 10);
    assert_false(rt_box_test(&r, &b, &tn, &tf));
    /* Negative direction from (3,3,3): x t0 = (1-3)/-1 = 2, t1 = 1 -> [1, 2]. */
    r = mkray(3, 3, 3, -1, -1, -1, 0, 10);
    assert_true(rt_box_test(&r, &b, &tn, &tf));
    assert_true(tn == 1.0f && tf == 2.0f);
    /* Origin inside: x [-0.5, 0.5]; raw tnear -0.5 is reported (not clamped to tmin). */
    r = mkray(1.5f, 1.5f, 1.5f, 1, 0, 0, 0, 10);
    assert_true(rt_box_test(&r, &b, &tn, &tf));
    assert_true(tn == -0.5f && tf == 0.5f);
    /* Box behind: x [-2, -1], max(-2, tmin 0) = 0 > min(-1, 10): miss. */
    r = mkray(3, 1.5f, 1.5f, 1, 0, 0, 0, 10);
    assert_false(rt_box_test(&r, &b, &tn, &tf));
    /* Inclusive boundaries: tmax = tnear = 1 hits; the float below 1 misses; tmin = tfar
     * = 2 hits; the float above 2 misses. */
    r = mkray(0, 0, 0, 1, 1, 1, 0, 1);
    assert_true(rt_box_test(&r, &b, &tn, &tf));
    r.tmax = nextafterf(1.0f, 0.0f);
    assert_false(rt_box_test(&r, &b, &tn, &tf));
    r = mkray(0, 0, 0, 1, 1, 1, 2, 10);
    assert_true(rt_box_test(&r, &b, &tn, &tf));
    r.tmin = nextafterf(2.0f, 3.0f);
    assert_false(rt_box_test(&r, &b, &tn, &tf));
    /* Corner touch: box [1,2]x[2,3]x[0,1], o = 0, d = (1,1,0): x [1,2], y [2,3], z: d = 0
     * and o = lo -> tnear = tfar = 2, a hit. */
    rt_box c = mkbox(1, 2, 0, 2, 3, 1);
    r = mkray(0, 0, 0, 1, 1, 0, 0, 10);
    assert_true(rt_box_test(&r, &c, &tn, &tf));
    assert_true(tn == 2.0f && tf == 2.0f);
    /* Flat box (lo = hi on z) is hit inclusively: z [1.5, 1.5]. */
    rt_box f = mkbox(1, 1, 1.5f, 2, 2, 1.5f);
    r = mkray(1.5f, 1.5f, 0, 0, 0, 1, 0, 10);
    assert_true(rt_box_test(&r, &f, &tn, &tf));
    assert_true(tn == 1.5f && tf == 1.5f);
    /* Infinite box: every axis (-inf, +inf). */
    rt_box inf = mkbox(-INFINITY, -INFINITY, -INFINITY, INFINITY, INFINITY, INFINITY);
    r = mkray(0, 0, 0, 1, 2, 3, 0, 10);
    assert_true(rt_box_test(&r, &inf, &tn, &tf));
    assert_true(isinf(tn) && tn < 0 && isinf(tf) && tf > 0);
}

/* Zero direction components: +-inf reciprocals without 0*inf NaNs; a parallel ray outside
 * a slab misses even with tmax = +inf (it would "hit at infinity" with naive IEEE slabs);
 * an origin on a slab plane is inside (inclusive). REQ: RT-056 */
static void test_box_zero_dir(void **state)
{
    (void)state;
    rt_box b = mkbox(1, 1, 1, 2, 2, 2);
    float tn, tf;
    /* o = (0, 1, 2): on the y = lo and z = hi planes; d = (1, 0, -0): x [1, 2]. */
    rt_ray r = mkray(0, 1, 2, 1, 0, -0.0f, 0, 10);
    assert_true(rt_box_test(&r, &b, &tn, &tf));
    assert_true(tn == 1.0f && tf == 2.0f);
    /* o.y = 0.99 < lo: outside the y slab for every t. */
    r = mkray(0, 0.99f, 1.5f, 1, 0, 0, 0, INFINITY);
    assert_false(rt_box_test(&r, &b, &tn, &tf));
    r = mkray(0, 2.01f, 1.5f, 1, -0.0f, 0, -INFINITY, INFINITY);
    assert_false(rt_box_test(&r, &b, &tn, &tf));
    /* Whole direction zero, origin inside: every t, tnear -inf, tfar +inf. */
    r = mkray(1.5f, 1.5f, 1.5f, 0, 0, 0, 0, 1);
    assert_true(rt_box_test(&r, &b, &tn, &tf));
    assert_true(isinf(tn) && tn < 0 && isinf(tf) && tf > 0);
    /* Origin on the y = lo plane, inside the box: the parallel axis constrains nothing, so
     * the raw tnear is the x slab's -0.5 (not 0 from a plane "at t = 0"). */
    r = mkray(1.5f, 1, 1.5f, 1, 0, 0, -10, 10);
    assert_true(rt_box_test(&r, &b, &tn, &tf));
    assert_true(tn == -0.5f && tf == 0.5f);
    /* Zero direction outside, tmax = +inf: IEEE slabs would give [inf, inf] and "hit at
     * infinity"; a parallel ray outside a slab misses. */
    r = mkray(0, 1.5f, 1.5f, 0, 0, 0, 0, INFINITY);
    assert_false(rt_box_test(&r, &b, &tn, &tf));
    rt_box slab = mkbox(-INFINITY, 1, 1, INFINITY, 2, 2);
    r = mkray(0, 0.5f, 1.5f, 1, 0, 0, 0, INFINITY);
    assert_false(rt_box_test(&r, &slab, &tn, &tf));
    r.org[1] = 1.5f; /* inside the y slab: (-inf, +inf) */
    assert_true(rt_box_test(&r, &slab, &tn, &tf));
    assert_true(isinf(tn) && tn < 0 && isinf(tf) && tf > 0);
    /* Subnormal direction whose reciprocal overflows: d.x = 2^-140, 1/d.x = +inf. Origin on
     * the x = lo plane: the plane is at t = 0/d = 0 exactly (not NaN), the far plane at
     * +inf; y [1, 2]; z parallel inside -> [1, 2]. */
    r = mkray(1, 0, 1.5f, 0x1p-140f, 1, 0, 0, 10);
    assert_true(rt_box_test(&r, &b, &tn, &tf));
    assert_true(tn == 1.0f && tf == 2.0f);
    /* o.x = 0.5: x reaches 1 only at t = 0.5 * 2^140 (binary32 inf) while y needs t in
     * [1, 2]: miss, also with tmax = +inf. */
    r = mkray(0.5f, 0, 1.5f, 0x1p-140f, 1, 0, 0, INFINITY);
    assert_false(rt_box_test(&r, &b, &tn, &tf));
}

/* NaN anywhere -> miss; lo > hi on an axis -> miss even where swapping the slab values
 * would give an interval. REQ: RT-056 */
static void test_box_nan_empty(void **state)
{
    (void)state;
    const rt_box b = mkbox(1, 1, 1, 2, 2, 2);
    const rt_ray r0 = mkray(0, 0, 0, 1, 1, 1, 0, 10);
    float tn, tf;
    assert_true(rt_box_test(&r0, &b, &tn, &tf));
    for (int k = 0; k < 8; k++) {
        rt_ray r = r0;
        float *p = k < 3 ? &r.org[k] : k < 6 ? &r.dir[k - 3] : k == 6 ? &r.tmin : &r.tmax;
        *p = NAN;
        assert_false(rt_box_test(&r, &b, &tn, &tf));
    }
    for (int k = 0; k < 6; k++) {
        rt_box c = b;
        if (k < 3)
            c.lo[k] = NAN;
        else
            c.hi[k - 3] = NAN;
        assert_false(rt_box_test(&r0, &c, &tn, &tf));
    }
    /* Inverted box lo = 2, hi = 1: a naive test gives t0 = 2, t1 = 1, swapped [1, 2]. */
    rt_box inv = mkbox(2, 2, 2, 1, 1, 1);
    assert_false(rt_box_test(&r0, &inv, &tn, &tf));
    rt_box inv1 = mkbox(1, 2, 1, 2, 1, 2); /* only y inverted */
    assert_false(rt_box_test(&r0, &inv1, &tn, &tf));
}

/* Every NaN in a ray is a miss (errata Q-75, Q-74), the signalling ones with the smallest
 * payload (0x7f800001, 0xff800001) included: for each NaN in each of the eight ray
 * elements, the single-box test, the four-child node test (its 4-wide path when nothing
 * else is special) and the triangle test all miss. REQ: RT-056 RT-065 */
static void test_nan_payloads(void **state)
{
    (void)state;
    const uint32_t nans[5] = {0x7f800001u, 0xff800001u, 0x7fbfffffu, 0x7fc00000u, 0xffffffffu};
    const rt_box b = mkbox(-1, -1, 1, 1, 1, 2);
    rt_node4 nd;
    memset(&nd, 0, sizeof nd);
    for (int c = 0; c < 4; c++) {
        nd.box[c] = b;
        nd.kind[c] = RT_CHILD_LEAF;
    }
    const float T[3][3] = {{-1, -1, 1.5f}, {1, -1, 1.5f}, {0, 1, 1.5f}};
    const rt_ray r0 = mkray(0, 0, 0, 0.25f, 0.125f, 1, 0, 10);
    float tn, tf, t, u, v;
    rt_bbox_res res;
    assert_true(rt_box_test(&r0, &b, &tn, &tf));
    rt_bbox_children(&r0, &nd, 1, &res);
    assert_int_equal(res.hitmask, 0xF);
    assert_true(rt_tri_test(&r0, T, false, 0, &t, &u, &v));
    for (int n = 0; n < 5; n++)
        for (int k = 0; k < 8; k++) {
            rt_ray r = r0;
            float *p = k < 3 ? &r.org[k] : k < 6 ? &r.dir[k - 3] : k == 6 ? &r.tmin : &r.tmax;
            memcpy(p, &nans[n], 4);
            assert_false(rt_box_test(&r, &b, &tn, &tf));
            rt_bbox_children(&r, &nd, 1, &res);
            assert_int_equal(res.hitmask, 0);
            assert_false(rt_tri_test(&r, T, false, 0, &t, &u, &v));
        }
}

/* Random rays and boxes against the binary64 slab reference, away from decision
 * boundaries; tnear/tfar within binary32 rounding. REQ: RT-056 */
static void test_box_random(void **state)
{
    (void)state;
    int checked = 0, hits = 0;
    for (int it = 0; it < 20000; it++) {
        rt_box b;
        for (int i = 0; i < 3; i++) {
            float a = (float)rnd(-10, 10), c = (float)rnd(-10, 10);
            b.lo[i] = fminf(a, c);
            b.hi[i] = fmaxf(a, c);
        }
        rt_ray r;
        /* Aim at a point of the box grown by 30% (about half the rays hit); some direction
         * components are zero. */
        for (int i = 0; i < 3; i++) {
            double c = 0.5 * ((double)b.lo[i] + b.hi[i]), h = 0.65 * ((double)b.hi[i] - b.lo[i]);
            r.org[i] = (float)rnd(-20, 20);
            r.dir[i] = (rng_next() & 7) == 0
                           ? 0.0f
                           : (float)((rnd(c - h, c + h) - r.org[i]) * rnd(0.05, 0.5));
        }
        r.tmin = (float)rnd(-5, 5);
        r.tmax = r.tmin + (float)rnd(0, 60);
        double rn = 0, rf = 0;
        bool want = ref_box(&r, &b, &rn, &rf);
        /* Margin: skip rays whose decision is within 1e-3 of flipping. */
        double gap = fmin(fmin(rf, (double)r.tmax) - fmax(rn, (double)r.tmin), 1e30);
        if (isfinite(gap) && fabs(gap) < 1e-3) continue;
        bool near_plane = false;
        for (int i = 0; i < 3; i++)
            if (r.dir[i] == 0 && (fabs((double)r.org[i] - b.lo[i]) < 1e-3 ||
                                  fabs((double)r.org[i] - b.hi[i]) < 1e-3))
                near_plane = true;
        if (near_plane) continue;
        float tn = 0, tf = 0;
        bool got = rt_box_test(&r, &b, &tn, &tf);
        assert_int_equal(got, want);
        checked++;
        if (got) {
            hits++;
            if (isinf(rn))
                assert_true(isinf(tn) && tn < 0);
            else
                assert_true(fabs(tn - rn) <= 1e-5 * (1 + fabs(rn)));
            if (isinf(rf))
                assert_true(isinf(tf) && tf > 0);
            else
                assert_true(fabs(tf - rf) <= 1e-5 * (1 + fabs(rf)));
        }
    }
    assert_true(checked > 15000);
    assert_true(hits > 1000);
}

/* rt_ray_prepare against a plain reference written from its contract (rt_kernels.h and
 * the Woop et al. axis choice of rt_kernels.c), field by field, bit for bit, on rays whose
 * components are drawn from the values where the vector and branch-free forms can go
 * wrong: signed zeros (zero_axes, the shear of a zero dir[kz]), infinities and
 * reciprocals that overflow (slab_scalar), NaNs of both signs (nan, and a NaN never
 * chosen as kz), ties of |dir| (the lowest axis), and random values. Each ray is prepared
 * from a separate record, in place (r == &p->r, as the offload engine decodes it), and in
 * the engine's two steps (rt_ray_prepare_slab, then rt_ray_prepare_shear).
 * REQ: RT-056 RT-065 */
static void test_ray_prepare_reference(void **state)
{
    (void)state;
    const float special[] = {0.0f,   -0.0f,   1.0f,      -1.0f,     0.5f,   -2.0f,
                             3.0f,   -3.0f,   INFINITY,  -INFINITY, NAN,    -NAN,
                             1e-40f, -1e-40f, 0x1p-149f, 3e38f,     -3e38f, 0x1p-126f};
    const unsigned ns = sizeof special / sizeof special[0];
    unsigned zero_dirs = 0, nans = 0, scalars = 0, ties = 0;
    for (unsigned n = 0; n < 200000; n++) {
        float x[8];
        for (unsigned i = 0; i < 8; i++)
            x[i] = (rng_next() & 3) ? special[rng_next() % ns] : (float)rnd(-8, 8);
        if ((n & 7) == 0) x[3 + rng_next() % 3] = x[3 + rng_next() % 3]; /* a tie, maybe */
        if ((n & 15) == 1) x[4] = -x[3];                                 /* |tie|, signs differ */
        rt_ray r = mkray(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]);
        /* the reference */
        uint8_t zero_axes = 0;
        bool nan = false, scalar = false;
        float inv[3];
        for (int i = 0; i < 3; i++) {
            nan |= isnan(r.org[i]) || isnan(r.dir[i]);
            scalar |= isinf(r.org[i]);
            if (r.dir[i] == 0.0f) {
                zero_axes |= (uint8_t)(1u << i);
                inv[i] = 0.0f;
            } else {
                inv[i] = 1.0f / r.dir[i];
                scalar |= isinf(inv[i]) || isinf(r.dir[i]);
            }
        }
        int kz = 0;
        for (int i = 1; i < 3; i++)
            if (fabsf(r.dir[i]) > fabsf(r.dir[kz])) kz = i;
        ties += fabsf(r.dir[0]) == fabsf(r.dir[1]) || fabsf(r.dir[1]) == fabsf(r.dir[2]);
        int kx = (kz + 1) % 3, ky = (kz + 2) % 3;
        if (r.dir[kz] < 0.0f) {
            int t = kx;
            kx = ky;
            ky = t;
        }
        bool dir_zero = r.dir[kz] == 0.0f || isnan(r.dir[kz]);
        double sx = 0, sy = 0, sz = 0;
        if (!dir_zero) {
            sx = (double)r.dir[kx] / r.dir[kz];
            sy = (double)r.dir[ky] / r.dir[kz];
            sz = 1.0 / r.dir[kz];
        }
        zero_dirs += dir_zero;
        nans += nan;
        scalars += scalar;
        for (int place = 0; place < 3; place++) {
            rt_ray_pre p;
            memset(&p, 0xA5, sizeof p); /* every field must be written */
            if (place == 2) {
                p.r = r;
                rt_ray_prepare_slab(&p);
                rt_ray_prepare_shear(&p);
            } else if (place == 1) {
                p.r = r;
                rt_ray_prepare(&p.r, &p);
            } else {
                rt_ray_prepare(&r, &p);
            }
            assert_memory_equal(&p.r, &r, sizeof r);
            assert_int_equal(p.zero_axes, zero_axes);
            assert_int_equal(p.nan, nan);
            assert_int_equal(p.slab_scalar, scalar);
            assert_int_equal(p.dir_zero, dir_zero);
            assert_int_equal(p.kx, kx);
            assert_int_equal(p.ky, ky);
            assert_int_equal(p.kz, kz);
            for (int i = 0; i < 3; i++) {
                assert_int_equal(fbits(p.inv[i]), fbits(inv[i]));
                for (int l = 0; l < 4; l++) {
                    assert_int_equal(fbits(p.org4[i][l]), fbits(r.org[i]));
                    assert_int_equal(fbits(p.inv4[i][l]), fbits(inv[i]));
                }
            }
            assert_memory_equal(&p.dsx, &sx, sizeof sx);
            assert_memory_equal(&p.dsy, &sy, sizeof sy);
            assert_memory_equal(&p.dsz, &sz, sizeof sz);
        }
    }
    assert_true(zero_dirs > 1000 && nans > 1000 && scalars > 1000 && ties > 1000);
}

/* rt_eps: 2^-e exactly (ldexpf: normal to e = 126, subnormal to 149), 0 for e = 0 and
 * beyond 149, from the low 8 bits of the code only. REQ: RT-014 RT-062 */
static void test_eps_values(void **state)
{
    (void)state;
    for (unsigned code = 0; code < 0x400; code++) {
        unsigned e = code & 0xffu;
        float want = e == 0 || e > 149 ? 0.0f : ldexpf(1.0f, -(int)e);
        assert_int_equal(fbits(rt_eps(code)), fbits(want));
    }
    assert_int_equal(fbits(rt_eps(149)), 1u);
    assert_int_equal(fbits(rt_eps(126)), 0x00800000u);
}

/* rt_node4w_slab of a ray prepared for it, under round-to-nearest-even as the engine runs. */
static unsigned slab_rne(const rt_ray *r, const rt_node4w *w, rt_ray_pre *p, float tn[4],
                         float tf[4])
{
    int m = rt_rne_enter();
    rt_ray_prepare(r, p);
    unsigned mask = rt_node4w_slab(p, w, r->tmin, r->tmax, tn, tf);
    rt_rne_leave(m);
    return mask;
}

/* A box's bounds on one axis for the random slab tests: each a special value or in
 * [-4, 4], mostly in order (a non-empty slab), sometimes not (an empty one). */
static void random_slab(const float *special, unsigned ns, float *lo, float *hi)
{
    float a = (rng_next() & 1) ? special[rng_next() % ns] : (float)rnd(-4, 4);
    float b = (rng_next() & 1) ? special[rng_next() % ns] : (float)rnd(-4, 4);
    if ((rng_next() & 15) != 0 && a > b) {
        float t = a;
        a = b;
        b = t;
    }
    *lo = a;
    *hi = b;
}

/* The 4-wide slab test of a decoded tile (rt_node4w_slab: SSE for rays without
 * infinities, the scalar test otherwise) computes the same hit mask and the same tnear/tfar
 * bits as the scalar rt_box_test (checked against binary64 above), on boxes made of the
 * values where min/max and comparisons can differ: signed zeros, infinities, equal
 * planes, origins on a plane, zero and tiny (overflowing reciprocal) directions, empty
 * and NaN boxes, and every child kind. REQ: RT-056 */
static void test_slab4_matches_scalar(void **state)
{
    (void)state;
    static const float special[] = {0.0f,  -0.0f,    1.0f,      -1.0f, 2.5f,
                                    -2.5f, INFINITY, -INFINITY, 0.5f,  3.0f};
    const unsigned ns = sizeof special / sizeof special[0];
    unsigned hits = 0, fast = 0;
    for (int it = 0; it < 40000; it++) {
        rt_node4 n;
        for (unsigned c = 0; c < 4; c++) {
            for (int i = 0; i < 3; i++) {
                random_slab(special, ns, &n.box[c].lo[i], &n.box[c].hi[i]);
                if ((rng_next() & 255) == 0) n.box[c].lo[i] = NAN;
            }
            n.index[c] = c;
            n.kind[c] = (rng_next() & 7) == 0 ? (uint8_t)(rng_next() & 3) : RT_CHILD_NODE;
        }
        rt_ray r;
        for (int i = 0; i < 3; i++) {
            unsigned k = rng_next() % 8;
            r.org[i] = k == 0 ? special[rng_next() % ns] : (float)rnd(-6, 6);
            r.dir[i] = k == 1   ? 0.0f
                       : k == 2 ? -0.0f
                       : k == 3 ? 1e-39f
                       : k == 4 ? special[rng_next() % ns]
                                : (float)rnd(-2, 2);
        }
        r.tmin = (rng_next() & 3) == 0 ? -INFINITY : (float)rnd(-3, 3);
        r.tmax = (rng_next() & 3) == 0 ? INFINITY : r.tmin + (float)rnd(0, 8);
        rt_node4w w;
        rt_node4w_from(&n, &w);
        rt_ray_pre p;
        float tn[4], tf[4];
        unsigned mask = slab_rne(&r, &w, &p, tn, tf);
        fast += !p.slab_scalar && !p.nan;
        for (unsigned c = 0; c < 4; c++) {
            float a = 0, b = 0;
            bool want = (n.kind[c] == RT_CHILD_NODE || n.kind[c] == RT_CHILD_LEAF) &&
                        rt_box_test(&r, &n.box[c], &a, &b);
            assert_int_equal((mask >> c) & 1u, want);
            if (want) {
                hits++;
                assert_int_equal(fbits(tn[c]), fbits(a));
                assert_int_equal(fbits(tf[c]), fbits(b));
            }
        }
    }
    assert_true(hits > 4000);
    assert_true(fast > 10000);
}

#if defined(__SSE2__)
/* The offload traversal's slab test for rays without a zero direction component
 * (rt_slab4_sign_sse: near and far planes chosen once per ray by the reciprocals' signs)
 * gives the hit mask of rt_slab4_sse (the min/max form, checked against the scalar test
 * above) and tnear/tfar of equal value (a zero's sign aside) for every live child: boxes
 * with signed zeros, infinities, equal planes and origins on planes, directions of both
 * signs on each axis, tiny and huge. REQ: RT-056 */
static void test_slab4_sign_matches(void **state)
{
    (void)state;
    static const float special[] = {0.0f, -0.0f, 1.0f, -1.0f, 2.5f, -2.5f, INFINITY, -INFINITY};
    static const float dirs[] = {1.0f, -1.0f, 1e-30f, -1e-30f, 3e30f, -3e30f, 0.25f, -0.25f};
    const unsigned ns = sizeof special / sizeof special[0], nd = sizeof dirs / sizeof dirs[0];
    unsigned hits = 0, neg_axes = 0;
    const __m128 sign = _mm_set1_ps(-0.0f);
    for (int it = 0; it < 40000; it++) {
        rt_node4 n;
        for (unsigned c = 0; c < 4; c++) {
            for (int i = 0; i < 3; i++) {
                random_slab(special, ns, &n.box[c].lo[i], &n.box[c].hi[i]);
            }
            n.index[c] = c;
            n.kind[c] = RT_CHILD_NODE;
        }
        rt_ray r;
        for (int i = 0; i < 3; i++) {
            r.org[i] = (rng_next() & 3) == 0 ? special[rng_next() % 6] : (float)rnd(-6, 6);
            r.dir[i] = (rng_next() & 1) ? dirs[rng_next() % nd] : (float)rnd(-2, 2);
            if (r.dir[i] == 0.0f) r.dir[i] = 1.0f;
        }
        r.tmin = (rng_next() & 3) == 0 ? -INFINITY : (float)rnd(-3, 3);
        r.tmax = (rng_next() & 3) == 0 ? INFINITY : r.tmin + (float)rnd(0, 8);
        rt_node4w w;
        rt_node4w_from(&n, &w);
        int m = rt_rne_enter();
        rt_ray_pre p;
        rt_ray_prepare(&r, &p);
        assert_false(p.nan || p.slab_scalar);
        assert_int_equal(p.zero_axes, 0);
        __m128 o[3], inv[3], ninv[3];
        unsigned near[3], far[3];
        for (unsigned i = 0; i < 3; i++) {
            o[i] = _mm_load_ps(p.org4[i]);
            inv[i] = _mm_load_ps(p.inv4[i]);
            ninv[i] = _mm_xor_ps(inv[i], sign);
            near[i] = p.inv[i] < 0.0f ? 12 + 4 * i : 4 * i;
            far[i] = p.inv[i] < 0.0f ? 4 * i : 12 + 4 * i;
            neg_axes += p.inv[i] < 0.0f;
        }
        float tn[4], tf[4], tn2[4], tf2[4];
        __m128 lo = _mm_set1_ps(r.tmin), hi = _mm_set1_ps(r.tmax);
        unsigned want = rt_slab4_sse(o, inv, 0, &w, lo, hi, tn, tf) & w.live;
        unsigned got = rt_slab4_sign_sse(o, ninv, near, far, &w, lo, hi, tn2, tf2) & w.live;
        rt_rne_leave(m);
        assert_int_equal(got, want);
        for (unsigned c = 0; c < 4; c++) {
            if (!(w.live >> c & 1u)) continue;
            assert_true(tn2[c] == tn[c]);
            assert_true(tf2[c] == tf[c]);
        }
        hits += (unsigned)__builtin_popcount(got);
    }
    assert_true(hits > 5000);
    assert_true(neg_axes > 40000);
}

/* The offload traversal's visiting order for three or four hit children of a tile
 * (rt_child_order4_sse, all four ranked at once) is rt_child_order's (increasing tnear,
 * ties to the lower child, errata Q-72): every mask, tnear drawn from a few values so
 * that ties of two, three and four children are common, signed zeros (equal), infinities,
 * and NaN in the children that are not hit (a dead child's box). REQ: RT-056 */
static void test_child_order4_matches(void **state)
{
    (void)state;
    static const float vals[] = {-INFINITY, -1.0f, -0.0f, 0.0f, 0.5f, 1.0f, INFINITY};
    const unsigned nv = sizeof vals / sizeof vals[0];
    unsigned ties = 0;
    for (int it = 0; it < 20000; it++) {
        unsigned mask = (unsigned)(rng_next() & 15u);
        float tn[4];
        for (unsigned c = 0; c < 4; c++)
            tn[c] = !(mask >> c & 1u) && (rng_next() & 1) ? NAN : vals[rng_next() % nv];
        uint8_t want[4] = {9, 9, 9, 9}, got[4] = {9, 9, 9, 9};
        unsigned n = rt_child_order(mask, tn, want);
        assert_int_equal(rt_child_order4_sse(mask, tn, got), n);
        assert_memory_equal(got, want, n);
        for (unsigned j = 1; j < n; j++)
            ties += tn[want[j]] == tn[want[j - 1]];
    }
    assert_true(ties > 3000);
}
#endif

/* Two axes whose exits are equal zeros of opposite signs: tfar is the minimum over the
 * axes, x first, and a tie keeps the earlier axis's value (what minps gives the 4-wide
 * test). Ray o = (0, 0, 0), d = (1, -1, 1), tmin 0: box x [-1, 0] exits at (0 - 0) * 1 =
 * +0, y [0, 1] at (0 - 0) * -1 = -0, z [-1, 1] at 1; tnear -1, tfar +0. With the x and y
 * roles swapped (d = (-1, 1, 1), box x [0, 1], y [-1, 0]) tfar is -0. Both hit (0 <= +-0)
 * in rt_box_test and in the 4-wide test. REQ: RT-056 */
static void test_box_zero_exit_tie(void **state)
{
    (void)state;
    for (unsigned swap = 0; swap < 2; swap++) {
        rt_ray r = swap ? mkray(0, 0, 0, -1, 1, 1, 0, 10) : mkray(0, 0, 0, 1, -1, 1, 0, 10);
        rt_box b = swap ? mkbox(0, -1, -1, 1, 0, 1) : mkbox(-1, 0, -1, 0, 1, 1);
        float tn, tf;
        assert_true(rt_box_test(&r, &b, &tn, &tf));
        assert_true(tn == -1.0f);
        assert_int_equal(fbits(tf), swap ? 0x80000000u : 0u);
        rt_node4 n;
        memset(&n, 0, sizeof n);
        n.box[0] = b;
        n.kind[0] = RT_CHILD_NODE;
        rt_node4w w;
        rt_node4w_from(&n, &w);
        rt_ray_pre p;
        float tn4[4], tf4[4];
        assert_int_equal(slab_rne(&r, &w, &p, tn4, tf4) & 1u, 1u);
        assert_true(tn4[0] == -1.0f);
        assert_int_equal(fbits(tf4[0]), swap ? 0x80000000u : 0u);
    }
}

/* The 4-wide slab test (the SSE one, and the scalar slab4 of the portable build and the
 * render guest) with a zero direction component and the origin on a slab plane: inside,
 * inclusive at both planes (as rt_box_test, test_box_zero_dir). Ray o = (0, 1, 1.5),
 * d = (1, 0, 0); x [1, 2] gives t [1, 2] for every child; y: child 0 [1, 2] (origin on
 * lo), child 1 [0, 1] (on hi), child 2 [1.5, 2] and child 3 [0, 0.5] (outside). The
 * random comparison above draws a zero direction only with a random origin, never on a
 * plane. REQ: RT-056 */
static void test_slab4_zero_dir_on_plane(void **state)
{
    (void)state;
    static const float ylo[4] = {1, 0, 1.5f, 0}, yhi[4] = {2, 1, 2, 0.5f};
    rt_node4 n;
    for (unsigned c = 0; c < 4; c++) {
        n.box[c] = mkbox(1, ylo[c], 1, 2, yhi[c], 2);
        n.index[c] = c;
        n.kind[c] = RT_CHILD_NODE;
    }
    rt_node4w w;
    rt_node4w_from(&n, &w);
    rt_ray r = mkray(0, 1, 1.5f, 1, 0, 0, 0, 10);
    rt_ray_pre p;
    float tn[4], tf[4];
    unsigned mask = slab_rne(&r, &w, &p, tn, tf);
    assert_false(p.slab_scalar); /* the 4-wide path, not the scalar fallback */
    assert_int_equal(mask, 0x3u);
    for (unsigned c = 0; c < 2; c++) {
        assert_true(tn[c] == 1.0f);
        assert_true(tf[c] == 2.0f);
    }
}

/* rt_fp16_widen (bit manipulation) against the numeric engine's FP16 -> FP32 conversion
 * and the independent decoder h2d, for all 65,536 encodings. REQ: RT-034 */
static void test_fp16_widen_exhaustive(void **state)
{
    (void)state;
    num_policy pol = num_policy_default();
    for (uint32_t h = 0; h < 0x10000u; h++) {
        float x = rt_fp16_widen(h);
        assert_int_equal(fbits(x), num_convert(NUM_FP32, NUM_FP16, h, &pol, NULL));
        if (!isnan(x)) assert_true((double)x == h2d(h) && (signbit(x) != 0) == ((h >> 15) != 0));
    }
}

/* The node decoders widen the 24 coordinates of a tile at once (with the host's F16C
 * instruction where it has one): each of the 65,536 encodings (position k of tile t holds
 * 24t + 7k, so every encoding appears, spread over all 24 positions) gives rt_fp16_widen's
 * bits, in rt_node4_decode and rt_node4w_decode alike. */
static void test_node_decode_widen_exhaustive(void **state)
{
    (void)state;
    for (uint32_t base = 0; base < 0x10000u; base += 24) {
        uint8_t b[64] = {0};
        for (unsigned k = 0; k < 24; k++) {
            uint32_t h = (base + 7u * k) & 0xffffu;
            b[2 * k] = (uint8_t)h;
            b[2 * k + 1] = (uint8_t)(h >> 8);
        }
        rt_node4 n;
        rt_node4w w;
        rt_node4_decode(b, &n);
        rt_node4w_decode(b, &w);
        for (unsigned c = 0; c < 4; c++)
            for (unsigned i = 0; i < 3; i++) {
                uint32_t lo = (base + 7u * (6 * c + i)) & 0xffffu;
                uint32_t hi = (base + 7u * (6 * c + 3 + i)) & 0xffffu;
                assert_int_equal(fbits(n.box[c].lo[i]), fbits(rt_fp16_widen(lo)));
                assert_int_equal(fbits(n.box[c].hi[i]), fbits(rt_fp16_widen(hi)));
                assert_int_equal(fbits(w.lo[i][c]), fbits(rt_fp16_widen(lo)));
                assert_int_equal(fbits(w.hi[i][c]), fbits(rt_fp16_widen(hi)));
            }
    }
}

/* rt_node4w_decode (the engine's cache fill: one SSE pass where the host has SSE2) gives
 * what rt_node4_decode followed by rt_node4w_from gives, field by field, liveness included:
 * tiles of random bytes (NaNs, infinities, lo > hi, all four kinds) and tiles of ordered
 * boxes with a NaN, an inverted axis or an empty kind here and there. REQ: RT-034 RT-035 */
static void test_node4w_decode_matches(void **state)
{
    (void)state;
    unsigned live_seen = 0;
    for (int rep = 0; rep < 20000; rep++) {
        uint8_t b[64];
        for (unsigned k = 0; k < 64; k++)
            b[k] = (uint8_t)rng_next();
        if (rep & 1) { /* ordered boxes: lo = a, hi = a + small */
            for (unsigned c = 0; c < 4; c++)
                for (unsigned i = 0; i < 3; i++) {
                    uint32_t lo = (uint32_t)(rng_next() % 0x7800u), hi = lo + rng_next() % 64;
                    if (rng_next() % 16 == 0) hi = lo - 1 - rng_next() % 8; /* inverted */
                    if (rng_next() % 16 == 0) lo = 0x7e00u;                 /* NaN */
                    if (rng_next() % 4 == 0) lo |= 0x8000u, hi = lo == 0x8000u ? 0 : hi;
                    for (unsigned h = 0; h < 2; h++) {
                        uint32_t x = h ? hi : lo;
                        b[2 * (6 * c + 3 * h + i)] = (uint8_t)x;
                        b[2 * (6 * c + 3 * h + i) + 1] = (uint8_t)(x >> 8);
                    }
                }
        }
        rt_node4 n;
        rt_node4w want, got;
        rt_node4_decode(b, &n);
        rt_node4w_from(&n, &want);
        memset(&got, 0xa5, sizeof got);
        rt_node4w_decode(b, &got);
        for (unsigned c = 0; c < 4; c++) {
            for (unsigned i = 0; i < 3; i++) {
                assert_int_equal(fbits(got.lo[i][c]), fbits(want.lo[i][c]));
                assert_int_equal(fbits(got.hi[i][c]), fbits(want.hi[i][c]));
            }
            assert_int_equal(got.child[c], want.child[c]);
            assert_int_equal(got.child[c], n.index[c] << 4 | n.kind[c]);
        }
        assert_int_equal(got.live, want.live);
        live_seen |= 1u << (got.live & 15u);
    }
    assert_int_equal(live_seen, 0xffffu); /* every liveness pattern was met */
}

/* ---- Triangle test ------------------------------------------------------------------- */

/* T1 = v0 (-1,-1,2), v1 (3,-1,2), v2 (-1,3,2) in the plane z = 2. */
static const float T1[3][3] = {{-1, -1, 2}, {3, -1, 2}, {-1, 3, 2}};

/* Hand-computed Woop/Benthin/Wald values. Ray o = (0.5, 0, 0), d = (0, 0, 1): kz = z,
 * kx = x, ky = y, shear 0, Sz = 1. A = v0-o = (-1.5,-1,2), B = (2.5,-1,2), C = (-1.5,3,2).
 * U = Cx By - Cy Bx = 1.5 - 7.5 = -6, V = Ax Cy - Ay Cx = -4.5 - 1.5 = -6,
 * W = Bx Ay - By Ax = -2.5 - 1.5 = -4: all negative = clockwise seen from the origin (the
 * normal (v1-v0)x(v2-v0) = (0,0,16) points along d). det = -16, T = 2(U+V+W) = -32, t = 2,
 * u = V/det = 0.375, v = W/det = 0.25; check: 0.375*(3,-1) + 0.25*(-1,3) + 0.375*(-1,-1) =
 * (0.5, 0) = the hit point. REQ: RT-065 RT-059 */
static void test_tri_hand(void **state)
{
    (void)state;
    float t = 0, u = 0, v = 0;
    rt_ray r = mkray(0.5f, 0, 0, 0, 0, 1, 0, 10);
    assert_true(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    assert_true(t == 2.0f && u == 0.375f && v == 0.25f);
    assert_false(rt_tri_test(&r, T1, true, 0, &t, &u, &v)); /* back face culled */

    /* Reversed winding v0, v2, v1 (front face): B = (-1.5,3,2), C = (2.5,-1,2): U = 7.5 -
     * 1.5 = 6, V = 1.5 + 2.5 = 4, W = 1.5 + 4.5 = 6; det 16, t 2, u = 0.25, v = 0.375
     * (the weights of the new v1 = old v2 and of the new v2 = old v1). */
    const float T1r[3][3] = {{-1, -1, 2}, {-1, 3, 2}, {3, -1, 2}};
    assert_true(rt_tri_test(&r, T1r, true, 0, &t, &u, &v));
    assert_true(t == 2.0f && u == 0.25f && v == 0.375f);

    /* Seen from above (o = (0.5,0,4), d = (0,0,-1)) T1 is counter-clockwise: kz = z with
     * dir < 0 swaps kx = y, ky = x; Sz = -1. A = (-1.5,-1,-2) -> (Ax, Ay) = (-1, -1.5),
     * B -> (-1, 2.5), C -> (3, -1.5): U = 7.5 - 1.5 = 6, V = 1.5 + 4.5 = 6, W = 1.5 + 2.5 =
     * 4; det 16; Az = Bz = Cz = 2, T = 32, t = 2, u = 0.375, v = 0.25. */
    r = mkray(0.5f, 0, 4, 0, 0, -1, 0, 10);
    assert_true(rt_tri_test(&r, T1, true, 0, &t, &u, &v));
    assert_true(t == 2.0f && u == 0.375f && v == 0.25f);

    /* Through vertex v1: o = (3,-1,0): A = (-4,0,2), B = (0,0,2), C = (-4,4,2): U = 0,
     * V = -16, W = 0 (binary64 fallback agrees): accepted (edges inclusive), det -16,
     * t = 2, u = 1, v = 0. */
    r = mkray(3, -1, 0, 0, 0, 1, 0, 10);
    assert_true(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    assert_true(t == 2.0f && u == 1.0f && v == 0.0f);
    /* Midpoint of edge v1-v2 = (1,1): A = (-2,-2,2), B = (2,-2,2), C = (-2,2,2): U = 4 - 4
     * = 0, V = -4 - 4 = -8, W = -4 - 4 = -8: t = 2, u = v = 0.5. */
    r = mkray(1, 1, 0, 0, 0, 1, 0, 10);
    assert_true(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    assert_true(t == 2.0f && u == 0.5f && v == 0.5f);
    /* Just outside that edge (x + y > 2): miss. */
    r = mkray(1, nextafterf(1.0f, 2.0f), 0, 0, 0, 1, 0, 10);
    assert_false(rt_tri_test(&r, T1, false, 0, &t, &u, &v));

    /* t range inclusive: tmax = 2 hits, tmax = 2^- misses, tmin = 2 hits. */
    r = mkray(0.5f, 0, 0, 0, 0, 1, 0, 2);
    assert_true(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    r.tmax = nextafterf(2.0f, 0.0f);
    assert_false(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    r = mkray(0.5f, 0, 0, 0, 0, 1, 2, INFINITY);
    assert_true(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    r.tmin = nextafterf(2.0f, 3.0f);
    assert_false(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    /* Behind the origin: o = (0.5,0,3): t = -1 < tmin 0: miss; with tmin -2: hit, t -1. */
    r = mkray(0.5f, 0, 3, 0, 0, 1, 0, 10);
    assert_false(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    r.tmin = -2;
    assert_true(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    assert_true(t == -1.0f);
}

/* det = 0 (ray in the triangle's plane, degenerate triangles) and non-finite inputs:
 * misses. REQ: RT-065 */
static void test_tri_degenerate(void **state)
{
    (void)state;
    float t, u, v;
    /* Ray along x inside the plane z = 2: kz = x; all projected ky (= z) coordinates are 0,
     * so U = V = W = 0 (also in binary64), det = 0. */
    rt_ray r = mkray(-5, 0.5f, 2, 1, 0, 0, -100, 100);
    assert_false(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    /* Collinear vertices (0,0,2), (1,1,2), (2,2,2), ray hitting (1,1,2) along z. */
    const float deg[3][3] = {{0, 0, 2}, {1, 1, 2}, {2, 2, 2}};
    r = mkray(1, 1, 0, 0, 0, 1, 0, 10);
    assert_false(rt_tri_test(&r, deg, false, 0, &t, &u, &v));
    /* All three vertices equal. */
    const float pt[3][3] = {{1, 1, 2}, {1, 1, 2}, {1, 1, 2}};
    assert_false(rt_tri_test(&r, pt, false, 0, &t, &u, &v));
    /* Zero direction. */
    r = mkray(0.5f, 0, 0, 0, 0, 0, -10, 10);
    assert_false(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    /* NaN anywhere. */
    const rt_ray r0 = mkray(0.5f, 0, 0, 0, 0, 1, 0, 10);
    assert_true(rt_tri_test(&r0, T1, false, 0, &t, &u, &v));
    for (int k = 0; k < 8; k++) {
        rt_ray q = r0;
        float *p = k < 3 ? &q.org[k] : k < 6 ? &q.dir[k - 3] : k == 6 ? &q.tmin : &q.tmax;
        *p = NAN;
        assert_false(rt_tri_test(&q, T1, false, 0, &t, &u, &v));
    }
    for (int k = 0; k < 9; k++) {
        float w[3][3];
        memcpy(w, T1, sizeof w);
        w[k / 3][k % 3] = NAN;
        assert_false(rt_tri_test(&r0, w, false, 0, &t, &u, &v));
    }
    /* An infinite vertex: U, V, W become infinite or NaN, so T/det is NaN: miss. */
    float w[3][3];
    memcpy(w, T1, sizeof w);
    w[0][0] = -INFINITY;
    assert_false(rt_tri_test(&r0, w, false, 0, &t, &u, &v));
    /* tmax = +inf is an ordinary bound. */
    rt_ray q = r0;
    q.tmax = INFINITY;
    assert_true(rt_tri_test(&q, T1, false, 0, &t, &u, &v));
    assert_true(t == 2.0f);
}

/* An edge decision is exact (the paper's binary64 re-evaluation of an edge function that
 * is 0 in binary32). With e = 2^-23, B = (-1, -1-e, 2), C = (1+e, 1+2e, 2), ray o = 0,
 * d = +z (no shear): for Ta = (A, B, C), A = (2,-2,2), U = Cx By - Cy Bx = -(1+2e+e^2) +
 * (1+2e) = -e^2 exactly, but both products round to 1+2e in binary32, so U = 0 there;
 * V = 2(1+2e) + 2(1+e) > 0, W = 2 + 2(1+e) > 0: mixed signs, the origin is outside Ta by
 * e^2. Tb = (A2, C, B), A2 = (-2,2,2), shares edge BC: U = +e^2, V, W > 0: inside. Exactly
 * one of the two is hit (binary32 alone would accept both). With the origin exactly on the
 * shared edge (B = (-1,-1), C = (1,1)) both accept it. No edge tolerance hides the e^2
 * margin (errata P-327). REQ: RT-065 RT-073 */
static void test_tri_exact_edge(void **state)
{
    (void)state;
    const float e = 0x1p-23f;
    const float Ta[3][3] = {{2, -2, 2}, {-1, -1 - e, 2}, {1 + e, 1 + 2 * e, 2}};
    const float Tb[3][3] = {{-2, 2, 2}, {1 + e, 1 + 2 * e, 2}, {-1, -1 - e, 2}};
    rt_ray r = mkray(0, 0, 0, 0, 0, 1, 0, 10);
    float t, u, v;
    assert_false(rt_tri_test(&r, Ta, false, 0, &t, &u, &v));
    assert_true(rt_tri_test(&r, Tb, false, 0, &t, &u, &v));
    assert_true(t == 2.0f);
    /* Tb is counter-clockwise seen from the origin (all edge functions positive). */
    assert_true(rt_tri_test(&r, Tb, true, 0, &t, &u, &v));
    const float Sa[3][3] = {{2, -2, 2}, {-1, -1, 2}, {1, 1, 2}};
    const float Sb[3][3] = {{-2, 2, 2}, {1, 1, 2}, {-1, -1, 2}};
    assert_true(rt_tri_test(&r, Sa, false, 0, &t, &u, &v));
    /* On edge v1-v2 of Sa at its midpoint: u = v = 0.5. */
    assert_true(t == 2.0f && u == 0.5f && v == 0.5f);
    assert_true(rt_tri_test(&r, Sb, false, 0, &t, &u, &v));
    assert_true(t == 2.0f && u == 0.5f && v == 0.5f);
}

/* Epsilon code e widens [tmin, tmax] to [tmin - 2^-e, tmax + 2^-e] (binary32 bounds);
 * e = 0: none. The hit of test_tri_hand is at t = 2 exactly. This is the meaning of the
 * code in RTCONF2.EPS_SCALE (EPS_CTL) and RTCFG.EPS_DFLT (errata Q-74).
 * REQ: RT-065 RT-014 RT-062 */
static void test_tri_eps(void **state)
{
    (void)state;
    float t, u, v;
    rt_ray r = mkray(0.5f, 0, 0, 0, 0, 1, 0, 1.75f);
    assert_false(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    assert_true(rt_tri_test(&r, T1, false, 2, &t, &u, &v)); /* 1.75 + 0.25 = 2 */
    assert_true(t == 2.0f);
    assert_false(rt_tri_test(&r, T1, false, 3, &t, &u, &v)); /* 1.875 < 2 */
    assert_false(rt_tri_test(&r, T1, false, 255, &t, &u, &v));
    assert_true(rt_tri_test(&r, T1, false, 1, &t, &u, &v)); /* 2.25 */
    r = mkray(0.5f, 0, 0, 0, 0, 1, 2.25f, 10);
    assert_false(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    assert_true(rt_tri_test(&r, T1, false, 2, &t, &u, &v));  /* 2.25 - 0.25 = 2 */
    assert_false(rt_tri_test(&r, T1, false, 3, &t, &u, &v)); /* 2.125 > 2 */
    /* tmax = 2 - 2^-22 (exact in binary32, ulp 2^-23 on [1, 2)): e = 22 gives 2 (hit),
     * e = 23 gives 2 - 2^-23 (miss). */
    r = mkray(0.5f, 0, 0, 0, 0, 1, 0, 2.0f - 0x1p-22f);
    assert_false(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    assert_true(rt_tri_test(&r, T1, false, 22, &t, &u, &v));
    assert_false(rt_tri_test(&r, T1, false, 23, &t, &u, &v));
    /* The widening is in binary32: 1.75 + 2^-30 rounds back to 1.75 (no effect). */
    r = mkray(0.5f, 0, 0, 0, 0, 1, 0, 1.75f);
    assert_false(rt_tri_test(&r, T1, false, 30, &t, &u, &v));
    /* A hit at t just below 0 with tmin = 0: o = (0.5, 0, 2 + 2^-10), t = -2^-10; e = 10
     * accepts it, e = 11 does not. */
    r = mkray(0.5f, 0, 2.0f + 0x1p-10f, 0, 0, 1, 0, 10);
    assert_false(rt_tri_test(&r, T1, false, 0, &t, &u, &v));
    assert_true(rt_tri_test(&r, T1, false, 10, &t, &u, &v));
    assert_true(t == -0x1p-10f);
    assert_false(rt_tri_test(&r, T1, false, 11, &t, &u, &v));
    /* The subnormal end: o.z = 2 + 2^-149 is not representable, so shift the triangle
     * instead: T1 moved to z = 0 and o.z = 2^-149 give t = -2^-149 exactly. e = 149 is
     * 2^-149 (accepted), e = 150 rounds to 0 (2^-150 ties to even 0: not accepted). */
    float Tz[3][3];
    memcpy(Tz, T1, sizeof Tz);
    for (int k = 0; k < 3; k++)
        Tz[k][2] = 0;
    r = mkray(0.5f, 0, 0x1p-149f, 0, 0, 1, 0, 10);
    assert_false(rt_tri_test(&r, Tz, false, 0, &t, &u, &v));
    assert_true(rt_tri_test(&r, Tz, false, 149, &t, &u, &v));
    assert_true(t == -0x1p-149f);
    assert_false(rt_tri_test(&r, Tz, false, 150, &t, &u, &v));
    /* Across the normal/subnormal boundary of 2^-e: o.z = 2^-127 (subnormal) gives
     * t = -2^-127; e = 126 (2^-126, the smallest normal) and e = 127 (2^-127) accept it,
     * e = 128 (2^-128) does not. */
    r = mkray(0.5f, 0, 0x1p-127f, 0, 0, 1, 0, 10);
    assert_false(rt_tri_test(&r, Tz, false, 0, &t, &u, &v));
    assert_true(rt_tri_test(&r, Tz, false, 126, &t, &u, &v));
    assert_true(rt_tri_test(&r, Tz, false, 127, &t, &u, &v));
    assert_true(t == -0x1p-127f);
    assert_false(rt_tri_test(&r, Tz, false, 128, &t, &u, &v));
}

/* No tolerance other than the epsilon code (errata P-327, RT 8.1 "no custom epsilon
 * scheme"): the code only widens the t-range, so edges and the t-range are exact at e = 0
 * and edges stay exact at the widest code (e = 1: 0.5); a ray starting on a triangle hits
 * it at t = 0 (no self-intersection offset). Triangle v0 (300,300,500) v1 (600,300,500)
 * v2 (300,600,500) at coordinates where a relative fudge would show: edge v1-v2 is
 * x + y = 900, and one ulp of 450 is 2^-15; rays along +z hit at t = 500. REQ: RT-073 */
static void test_no_custom_epsilon(void **state)
{
    (void)state;
    const float T[3][3] = {{300, 300, 500}, {600, 300, 500}, {300, 600, 500}};
    const float out = nextafterf(450.0f, 1000.0f); /* 450 + 2^-15 */
    float t, u, v;
    for (unsigned e = 0; e <= 1; e++) {
        rt_ray r = mkray(450, 450, 0, 0, 0, 1, 0, 1000); /* on the edge: hit */
        assert_true(rt_tri_test(&r, T, false, e, &t, &u, &v));
        assert_true(t == 500.0f && u == 0.5f && v == 0.5f);
        r = mkray(450, out, 0, 0, 0, 1, 0, 1000); /* one ulp outside x + y = 900 */
        assert_false(rt_tri_test(&r, T, false, e, &t, &u, &v));
        r = mkray(out, 450, 0, 0, 0, 1, 0, 1000);
        assert_false(rt_tri_test(&r, T, false, e, &t, &u, &v));
        r = mkray(nextafterf(300.0f, 0.0f), 400, 0, 0, 0, 1, 0, 1000); /* outside x = 300 */
        assert_false(rt_tri_test(&r, T, false, e, &t, &u, &v));
        r = mkray(400, nextafterf(300.0f, 0.0f), 0, 0, 0, 1, 0, 1000); /* outside y = 300 */
        assert_false(rt_tri_test(&r, T, false, e, &t, &u, &v));
        r = mkray(300, 300, 0, 0, 0, 1, 0, 1000); /* vertex v0: hit */
        assert_true(rt_tri_test(&r, T, false, e, &t, &u, &v));
    }
    /* t-range at e = 0: exact bounds, no relative or absolute slack at t = 500. */
    rt_ray r = mkray(400, 400, 0, 0, 0, 1, 0, 500);
    assert_true(rt_tri_test(&r, T, false, 0, &t, &u, &v));
    r.tmax = nextafterf(500.0f, 0.0f);
    assert_false(rt_tri_test(&r, T, false, 0, &t, &u, &v));
    r = mkray(400, 400, 0, 0, 0, 1, nextafterf(500.0f, 1000.0f), 1000);
    assert_false(rt_tri_test(&r, T, false, 0, &t, &u, &v));
    /* ... and at e = 1 exactly 0.5 more: 499.5 reaches t = 500, 499.5 - ulp does not. */
    r = mkray(400, 400, 0, 0, 0, 1, 0, 499.5f);
    assert_true(rt_tri_test(&r, T, false, 1, &t, &u, &v));
    r.tmax = nextafterf(499.5f, 0.0f);
    assert_false(rt_tri_test(&r, T, false, 1, &t, &u, &v));
    /* Origin on the triangle, tmin = 0: hit at t = 0; the smallest positive tmin misses. */
    r = mkray(400, 400, 500, 0, 0, 1, 0, 1000);
    assert_true(rt_tri_test(&r, T, false, 0, &t, &u, &v));
    assert_true(t == 0.0f);
    r.tmin = 0x1p-149f;
    assert_false(rt_tri_test(&r, T, false, 0, &t, &u, &v));
    /* The slab test has no tolerance either: a box face one ulp away misses. */
    const rt_box b = {{300, 300, 400}, {600, 600, 500}};
    float tn, tf;
    r = mkray(400, 600, 0, 0, 0, 1, 0, 1000); /* on the face y = 600: hit */
    assert_true(rt_box_test(&r, &b, &tn, &tf));
    assert_true(tn == 400.0f && tf == 500.0f);
    r = mkray(400, nextafterf(600.0f, 1000.0f), 0, 0, 0, 1, 0, 1000);
    assert_false(rt_box_test(&r, &b, &tn, &tf));
    r = mkray(400, 400, 0, 0, 0, 1, 0, nextafterf(400.0f, 0.0f)); /* tmax short of the box */
    assert_false(rt_box_test(&r, &b, &tn, &tf));
    r = mkray(400, 400, 0, 0, 0, 1, nextafterf(500.0f, 1000.0f), 1000); /* tmin past it */
    assert_false(rt_box_test(&r, &b, &tn, &tf));
}

/* Random triangles and rays against the binary64 Cramer solver, away from edges and
 * grazing angles: hit/miss, orientation (cull_back), t, and the barycentric convention
 * hit = (1-u-v) v0 + u v1 + v v2 (errata Q-72). REQ: RT-065 RT-059 RT-066 RT-078 */
static void test_tri_random(void **state)
{
    (void)state;
    int checked = 0, hits = 0, culled = 0;
    for (int it = 0; it < 20000; it++) {
        float v[3][3];
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 3; i++)
                v[k][i] = (float)rnd(-10, 10);
        rt_ray r;
        /* Aim at a random barycentric point (sometimes outside) from a random origin. */
        double a = rnd(-0.3, 1.0), b = rnd(-0.3, 1.0);
        double p[3];
        for (int i = 0; i < 3; i++) {
            p[i] = (1 - a - b) * v[0][i] + a * v[1][i] + b * v[2][i];
            r.org[i] = (float)rnd(-20, 20);
            r.dir[i] = (float)((p[i] - r.org[i]) * rnd(0.2, 3));
        }
        r.tmin = (float)rnd(-1, 0.5);
        r.tmax = (float)rnd(0.2, 10);
        double rt, ru, rv, cosang;
        bool front;
        if (!ref_tri(&r, v, &rt, &ru, &rv, &front, &cosang)) continue;
        double rw = 1 - ru - rv;
        double m = fmin(fmin(fabs(ru), fabs(rv)), fabs(rw));
        if (m < 1e-3 || cosang < 0.05 || fabs(rt - r.tmin) < 1e-3 || fabs(rt - r.tmax) < 1e-3)
            continue;
        bool inside = ru > 0 && rv > 0 && rw > 0 && rt >= r.tmin && rt <= r.tmax;
        for (int cull = 0; cull < 2; cull++) {
            float t = 0, u = 0, w = 0;
            bool got = rt_tri_test(&r, v, cull, 0, &t, &u, &w);
            bool want = inside && (!cull || front);
            assert_int_equal(got, want);
            if (inside && cull && !front) culled++;
            if (!got) continue;
            hits++;
            assert_true(fabs(t - rt) <= 1e-4 * (1 + fabs(rt)));
            assert_true(fabs(u - ru) <= 1e-4 && fabs(w - rv) <= 1e-4);
            /* The reported (t, u, v) reconstruct the same point. */
            for (int i = 0; i < 3; i++) {
                double hp = (1.0 - u - w) * v[0][i] + (double)u * v[1][i] + (double)w * v[2][i];
                double rp = (double)r.org[i] + (double)t * r.dir[i];
                assert_true(fabs(hp - rp) <= 1e-3);
            }
        }
        checked++;
    }
    assert_true(checked > 10000);
    assert_true(hits > 2000);
    assert_true(culled > 500);
}

/* ---- Watertightness ------------------------------------------------------------------ */

#define GN 8 /* grid cells per side */
static float grid_v[GN + 1][GN + 1][3];
static float grid_tri[2 * GN * GN][3][3];

/* A height field z = 0.2 sin(1.3 i + 0.7 j) over a 0.7-spaced grid, rotated by R (rows of
 * an orthonormal matrix) and translated; coordinates rounded to binary32 once; triangles
 * (P00, P10, P11) and (P00, P11, P01) share vertices bit-exactly and face +z' (up). */
static void build_grid(const double R[3][3])
{
    for (int i = 0; i <= GN; i++)
        for (int j = 0; j <= GN; j++) {
            double p[3] = {0.1 + 0.7 * i, -0.3 + 0.7 * j, 0.2 * sin(1.3 * i + 0.7 * j)};
            for (int k = 0; k < 3; k++)
                grid_v[i][j][k] =
                    (float)(R[k][0] * p[0] + R[k][1] * p[1] + R[k][2] * p[2] + 0.37 * (k + 1));
        }
    int n = 0;
    for (int i = 0; i < GN; i++)
        for (int j = 0; j < GN; j++) {
            const float *p00 = grid_v[i][j], *p10 = grid_v[i + 1][j], *p11 = grid_v[i + 1][j + 1],
                        *p01 = grid_v[i][j + 1];
            memcpy(grid_tri[n][0], p00, 12);
            memcpy(grid_tri[n][1], p10, 12);
            memcpy(grid_tri[n][2], p11, 12);
            n++;
            memcpy(grid_tri[n][0], p00, 12);
            memcpy(grid_tri[n][1], p11, 12);
            memcpy(grid_tri[n][2], p01, 12);
            n++;
        }
}

/* Random rotation (orthonormal rows from Gram-Schmidt of random vectors). */
static void rand_rot(double R[3][3])
{
    for (;;) {
        double a[3], b[3];
        for (int i = 0; i < 3; i++) {
            a[i] = rnd(-1, 1);
            b[i] = rnd(-1, 1);
        }
        double na = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
        if (na < 0.3) continue;
        for (int i = 0; i < 3; i++)
            a[i] /= na;
        double d = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
        for (int i = 0; i < 3; i++)
            b[i] -= d * a[i];
        double nb = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
        if (nb < 0.3) continue;
        for (int i = 0; i < 3; i++)
            b[i] /= nb;
        double c[3] = {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                       a[0] * b[1] - a[1] * b[0]};
        for (int i = 0; i < 3; i++) {
            R[i][0] = a[i];
            R[i][1] = b[i];
            R[i][2] = c[i];
        }
        return;
    }
}

/* Shoots a ray through target (x', y' coordinates of the unrotated frame implied) from 3
 * units above along -z' with a small tilt; returns the number of triangles hit (tmin 0,
 * tmax inf) and checks that every hit is at the target (t = 1 +- 1e-3). skip: triangle
 * index to leave out (-1: none). */
static int shoot_grid(const double R[3][3], const float target[3], bool cull, int skip)
{
    double tilt[3] = {rnd(-0.05, 0.05), rnd(-0.05, 0.05), -1.0};
    double d[3];
    for (int k = 0; k < 3; k++)
        d[k] = 3 * (R[k][0] * tilt[0] + R[k][1] * tilt[1] + R[k][2] * tilt[2]);
    rt_ray r;
    for (int k = 0; k < 3; k++) {
        r.org[k] = (float)(target[k] - d[k]);
        r.dir[k] = (float)d[k];
    }
    r.tmin = 0;
    r.tmax = INFINITY;
    int hits = 0;
    for (int n = 0; n < 2 * GN * GN; n++) {
        if (n == skip) continue;
        float t, u, v;
        if (rt_tri_test(&r, grid_tri[n], cull, 0, &t, &u, &v)) {
            hits++;
            assert_true(fabsf(t - 1.0f) < 1e-3f);
        }
    }
    return hits;
}

/* A ray crossing the interior of a height-field sheet crosses it exactly once (slopes
 * < 1, tilt <= 0.05: the height difference along the ray is monotone), so: rays through
 * shared vertices and shared edges (at binary32-rounded points on them) hit at least one
 * and at most the incident triangles; rays through triangle interiors hit exactly one;
 * a ray through a removed triangle's interior hits none. Four orientations of the mesh
 * (identity and random rotations) exercise every kz and both signs. REQ: RT-065 */
static void test_watertight_grid(void **state)
{
    (void)state;
    double R[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    int rays = 0;
    for (int rot = 0; rot < 4; rot++) {
        if (rot) rand_rot(R);
        build_grid(R);
        for (int cull = 0; cull < 2; cull++) {
            for (int i = 1; i < GN; i++)
                for (int j = 1; j < GN; j++) {
                    /* Shared vertex: 6 incident triangles. */
                    for (int rep = 0; rep < 3; rep++) {
                        int h = shoot_grid(R, grid_v[i][j], cull, -1);
                        assert_true(h >= 1 && h <= 6);
                        rays++;
                    }
                    /* Points on the three edges leaving (i, j): +i, +j, the diagonal. */
                    const float *e[3] = {grid_v[i + 1][j], grid_v[i][j + 1], grid_v[i + 1][j + 1]};
                    for (int k = 0; k < 3; k++)
                        for (int rep = 0; rep < 3; rep++) {
                            double s = rep == 0 ? 0.5 : rnd(0.01, 0.99);
                            float p[3];
                            for (int c = 0; c < 3; c++)
                                p[c] = (float)((1 - s) * grid_v[i][j][c] + s * e[k][c]);
                            int h = shoot_grid(R, p, cull, -1);
                            assert_true(h >= 1 && h <= 2);
                            rays++;
                        }
                    /* Centroids of the two triangles of cell (i, j): exactly one hit. */
                    for (int k = 0; k < 2; k++) {
                        const float(*T)[3] = grid_tri[2 * (i * GN + j) + k];
                        float p[3];
                        for (int c = 0; c < 3; c++)
                            p[c] = (float)(((double)T[0][c] + T[1][c] + T[2][c]) / 3);
                        assert_int_equal(shoot_grid(R, p, cull, -1), 1);
                        /* The same triangle removed: a gap, no hit. */
                        assert_int_equal(shoot_grid(R, p, cull, 2 * (i * GN + j) + k), 0);
                        rays++;
                    }
                }
        }
    }
    assert_true(rays > 5000);
}

/* Octahedron around c with radius 1.7 (binary32 vertices), faces counter-clockwise seen
 * from outside (checked here with the binary64 normal). */
static float octa[8][3][3];
static void build_octa(void)
{
    const double c[3] = {0.1, 0.2, 0.3}, rad = 1.7;
    int n = 0;
    for (int s = 0; s < 8; s++) {
        double sg[3] = {s & 1 ? -1 : 1, s & 2 ? -1 : 1, s & 4 ? -1 : 1};
        float P[3][3];
        for (int a = 0; a < 3; a++)
            for (int k = 0; k < 3; k++)
                P[a][k] = (float)(c[k] + (a == k ? sg[a] * rad : 0));
        bool flip = sg[0] * sg[1] * sg[2] < 0;
        memcpy(octa[n][0], P[0], 12);
        memcpy(octa[n][1], flip ? P[2] : P[1], 12);
        memcpy(octa[n][2], flip ? P[1] : P[2], 12);
        double e1[3], e2[3], cen[3];
        for (int k = 0; k < 3; k++) {
            e1[k] = (double)octa[n][1][k] - octa[n][0][k];
            e2[k] = (double)octa[n][2][k] - octa[n][0][k];
            cen[k] = ((double)octa[n][0][k] + octa[n][1][k] + octa[n][2][k]) / 3 - c[k];
        }
        double nrm[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                         e1[0] * e2[1] - e1[1] * e2[0]};
        assert_true(nrm[0] * cen[0] + nrm[1] * cen[1] + nrm[2] * cen[2] > 0); /* outward */
        n++;
    }
}

/* Shoots from outside through target toward the centre (direction perturbed by <= 0.1);
 * target at t = 1. Counts front hits (culling on; all at t = 1) and back-face hits (no
 * culling minus culling; all beyond the target). */
static void shoot_octa(const float target[3], int *front, int *back)
{
    const double c[3] = {0.1, 0.2, 0.3};
    double w[3], nw = 0;
    for (int k = 0; k < 3; k++) {
        w[k] = target[k] - c[k];
        nw += w[k] * w[k];
    }
    nw = sqrt(nw);
    rt_ray r;
    for (int k = 0; k < 3; k++) {
        double o = target[k] + 6 * (w[k] / nw + rnd(-0.1, 0.1) / 1.0);
        r.org[k] = (float)o;
        r.dir[k] = (float)(target[k] - o);
    }
    r.tmin = 0;
    r.tmax = INFINITY;
    *front = *back = 0;
    for (int n = 0; n < 8; n++) {
        float t, u, v;
        bool any = rt_tri_test(&r, octa[n], false, 0, &t, &u, &v);
        bool f = rt_tri_test(&r, octa[n], true, 0, &t, &u, &v);
        if (f) {
            (*front)++;
            assert_true(fabsf(t - 1.0f) < 1e-3f);
        } else if (any) {
            (*back)++;
            assert_true(t > 1.01f);
        }
    }
}

/* Closed convex mesh: a ray entering it through a vertex, an edge or a face hits at least
 * one front face where it enters and at least one back face where it leaves; through a
 * face interior exactly one of each. REQ: RT-065 RT-059 */
static void test_watertight_closed(void **state)
{
    (void)state;
    build_octa();
    int fr, bk;
    for (int rep = 0; rep < 200; rep++) {
        for (int n = 0; n < 8; n++) {
            for (int a = 0; a < 3; a++) { /* vertices (each shared by 4 faces) */
                shoot_octa(octa[n][a], &fr, &bk);
                assert_true(fr >= 1 && fr <= 4 && bk >= 1 && bk <= 4);
                /* points on edges (each shared by 2 faces) */
                const float *p = octa[n][a], *q = octa[n][(a + 1) % 3];
                double s = rep == 0 ? 0.5 : rnd(0.02, 0.98);
                float e[3];
                for (int k = 0; k < 3; k++)
                    e[k] = (float)((1 - s) * p[k] + s * q[k]);
                shoot_octa(e, &fr, &bk);
                assert_true(fr >= 1 && fr <= 2 && bk >= 1 && bk <= 4);
            }
            float cen[3];
            for (int k = 0; k < 3; k++)
                cen[k] = (float)(((double)octa[n][0][k] + octa[n][1][k] + octa[n][2][k]) / 3);
            shoot_octa(cen, &fr, &bk);
            assert_int_equal(fr, 1);
            assert_int_equal(bk, 1);
        }
    }
}

/* ---- The leaf loop over triangles read in place ------------------------------------ */

/* A leaf's closest hit by rt_tri_test, triangle by triangle, with the rule of rt_leaf.h
 * written out here: a hit replaces the best when nearer, or as near with a lower index;
 * with any, the first hit ends the search. */
static void leaf_reference(const rt_ray *r, const float (*tri)[3][3], unsigned n, uint32_t first,
                           bool cull, unsigned eps, bool any, rt_tri_hit *best, bool *stopped)
{
    best->hit = false;
    *stopped = false;
    for (unsigned i = 0; i < n; i++) {
        float t, u, v;
        if (!rt_tri_test(r, tri[i], cull, eps, &t, &u, &v)) continue;
        if (best->hit && !(t < best->t || (t == best->t && first + i < best->prim))) continue;
        *best = (rt_tri_hit){true, t, u, v, first + i};
        if (any) {
            *stopped = true;
            return;
        }
    }
}

/* A point of triangle T: a vertex (k 0-2), an edge point (3-5) or an interior point. */
static void leaf_target(const float T[3][3], int k, float p[3])
{
    double w[3] = {0, 0, 0};
    if (k < 3) {
        w[k] = 1;
    } else if (k < 6) {
        double s = rnd(0, 1);
        w[k - 3] = s;
        w[(k - 2) % 3] = 1 - s;
    } else {
        w[0] = rnd(0.05, 0.9);
        w[1] = rnd(0.05, 1 - w[0]);
        w[2] = 1 - w[0] - w[1];
    }
    for (int c = 0; c < 3; c++)
        p[c] = (float)(w[0] * T[0][c] + w[1] * T[1][c] + w[2] * T[2][c]);
}

/* rt_leaf_closest over triangles read in place (the offload engine's cached leaves: on an
 * AVX host tested four at a time, in the portable build one at a time; and the one-at-a-time
 * loop forced by rt_leaf_ray_x4 on any host) finds the same hit,
 * bit for bit, as rt_tri_test over the same triangles: leaves of 1-8 triangles from a
 * height field (shared vertices and edges, hit at and around them), random and degenerate
 * triangles, NaN and infinite coordinates; rays aimed at vertices, edges and interiors,
 * random rays, rays along the axes (zero direction components), rays with a zero
 * direction, a NaN origin or a NaN range; both cullings, any-hit, tolerance codes.
 * REQ: RT-065 RT-036 */
static void test_leaf_in_place(void **state)
{
    (void)state;
    double R[3][3];
    rand_rot(R);
    build_grid(R);
    float tri[8][3][3];
    unsigned checked = 0, hits = 0, multi = 0;
    for (int rep = 0; rep < 6000; rep++) {
        unsigned n = 1 + (unsigned)(rng_next() % 8);
        int kind = (int)(rng_next() % 4);
        if (kind < 2) { /* neighbours in the height field */
            unsigned at = (unsigned)(rng_next() % (2 * GN * GN - 8));
            memcpy(tri, grid_tri[at], sizeof tri[0] * n);
        } else {
            for (unsigned i = 0; i < n; i++)
                for (int v = 0; v < 3; v++)
                    for (int c = 0; c < 3; c++)
                        tri[i][v][c] = (float)rnd(-2, 2);
        }
        if (kind == 3) { /* degenerate, NaN or infinite coordinates in some triangles */
            unsigned i = (unsigned)(rng_next() % n);
            int v = (int)(rng_next() % 3), c = (int)(rng_next() % 3);
            switch (rng_next() % 4) {
            case 0:
                memcpy(tri[i][v], tri[i][(v + 1) % 3], 12);
                break;
            case 1:
                tri[i][v][c] = NAN;
                break;
            case 2:
                tri[i][v][c] = rng_next() & 1 ? INFINITY : -INFINITY;
                break;
            default:
                for (int k = 0; k < 3; k++) /* collinear */
                    tri[i][2][k] = 2 * tri[i][1][k] - tri[i][0][k];
            }
        }
        float target[3];
        leaf_target(tri[rng_next() % n], (int)(rng_next() % 7), target);
        for (int ray = 0; ray < 4; ray++) {
            rt_ray r;
            for (int c = 0; c < 3; c++) {
                r.org[c] = (float)rnd(-4, 4);
                r.dir[c] = ray == 3 ? (float)rnd(-1, 1) : target[c] - r.org[c];
            }
            if (ray == 2) { /* along an axis through the target */
                int a = (int)(rng_next() % 3);
                for (int c = 0; c < 3; c++) {
                    r.dir[c] = c == a ? (rng_next() & 1 ? 1.0f : -1.0f) : 0.0f;
                    if (c != a) r.org[c] = target[c];
                }
            }
            r.tmin = 0;
            r.tmax = rng_next() % 4 ? INFINITY : (float)rnd(0.2, 1.5);
            switch (rng_next() % 64) { /* rays every triangle test misses */
            case 0:
                r.dir[0] = r.dir[1] = r.dir[2] = 0.0f;
                break;
            case 1:
                r.org[rng_next() % 3] = NAN;
                break;
            case 2:
                r.tmax = NAN;
                break;
            }
            bool cull = rng_next() & 1, any = rng_next() % 4 == 0;
            unsigned eps = rng_next() % 3 == 0 ? 20 : 0;
            uint32_t first = rng_next() % 8 ? (uint32_t)rng_next() : UINT32_MAX - 2;
            rt_tri_hit want = {false, 0, 0, 0, 0}, got = {false, 0, 0, 0, 0};
            bool want_stop, got_stop;
            leaf_reference(&r, (const float(*)[3][3])tri, n, first, cull, eps, any, &want,
                           &want_stop);
            /* exactly the leaf's bytes, so that a read past them shows under ASan */
            uint8_t *leaf = malloc(36u * n);
            assert_non_null(leaf);
            memcpy(leaf, tri, 36u * n);
            rt_tri_src src = {leaf, NULL, 0, RT_ELEM_FP32};
            int m = rt_rne_enter();
            rt_ray_pre p;
            rt_ray_prepare(&r, &p);
            assert_int_equal(rt_leaf_closest(&src, first, n, &p, cull, eps, any, &got, &got_stop),
                             RT_FETCH_OK);
            /* the loop of a host without AVX, forced: the same hit */
            rt_leaf_ray lr;
            rt_leaf_ray_init(&p, cull, eps, any, &lr);
            rt_leaf_ray_x4(&lr, false);
            rt_tri_hit one = {false, 0, 0, 0, 0};
            assert_int_equal(rt_leaf_mem(&lr, leaf, first, n, &one), !want_stop);
            rt_rne_leave(m);
            assert_int_equal(one.hit, want.hit);
            if (want.hit) {
                assert_int_equal(fbits(one.t), fbits(want.t));
                assert_int_equal(fbits(one.u), fbits(want.u));
                assert_int_equal(fbits(one.v), fbits(want.v));
                assert_int_equal(one.prim, want.prim);
            }
            free(leaf);
            assert_int_equal(got.hit, want.hit);
            assert_int_equal(got_stop, want_stop);
            if (want.hit) {
                assert_int_equal(fbits(got.t), fbits(want.t));
                assert_int_equal(fbits(got.u), fbits(want.u));
                assert_int_equal(fbits(got.v), fbits(want.v));
                assert_int_equal(got.prim, want.prim);
                hits++;
                unsigned nh = 0;
                for (unsigned i = 0; i < n; i++) {
                    float t, u, v;
                    nh += rt_tri_test(&r, tri[i], cull, eps, &t, &u, &v);
                }
                multi += nh > 1;
            }
            checked++;
        }
    }
    assert_true(checked == 24000);
    assert_true(hits > 5000); /* about a quarter of the rays hit */
    assert_true(multi > 300); /* shared edges and vertices: several triangles hit */
}

/* The leaf loops read nothing past a leaf's triangles: each leaf of 1-4 triangles is laid
 * so that its last byte is the last byte of a readable page, the next page inaccessible
 * (a read past it crashes the test), and tested by the AVX loop (on an AVX host) and the
 * scalar one, with rays aimed at each triangle (a hit found, bit for bit as rt_tri_test).
 * REQ: RT-036 RT-065 */
static void test_leaf_reads_inside(void **state)
{
    (void)state;
    long pg = sysconf(_SC_PAGESIZE);
    assert_true(pg >= 4096);
    uint8_t *pages =
        mmap(NULL, 2 * (size_t)pg, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(pages != MAP_FAILED);
    assert_int_equal(mprotect(pages + pg, (size_t)pg, PROT_NONE), 0);
    unsigned hits = 0;
    for (unsigned n = 1; n <= 4; n++) {
        float tri[4][3][3];
        for (unsigned i = 0; i < n; i++) /* side by side along x in the plane z = 2 */
            for (int v = 0; v < 3; v++) {
                tri[i][v][0] = (float)(2 * i) + (v == 1 ? 1.0f : 0.0f);
                tri[i][v][1] = v == 2 ? 1.0f : 0.0f;
                tri[i][v][2] = 2.0f;
            }
        uint8_t *leaf = pages + pg - 36 * n;
        memcpy(leaf, tri, 36 * n);
        for (unsigned aim = 0; aim < n; aim++)
            for (int x4 = 0; x4 < 2; x4++) {
                rt_ray r = mkray((float)(2 * aim) + 0.25f, 0.25f, 0, 0, 0, 1, 0, INFINITY);
                float want_t, want_u, want_v;
                assert_true(rt_tri_test(&r, tri[aim], false, 0, &want_t, &want_u, &want_v));
                int m = rt_rne_enter();
                rt_ray_pre p;
                rt_ray_prepare(&r, &p);
                rt_leaf_ray lr;
                rt_leaf_ray_init(&p, false, 0, false, &lr);
                rt_leaf_ray_x4(&lr, x4);
                rt_tri_hit got = {false, 0, 0, 0, 0};
                assert_true(rt_leaf_mem(&lr, leaf, 10, n, &got));
                rt_rne_leave(m);
                assert_true(got.hit);
                assert_int_equal(got.prim, 10 + aim);
                assert_int_equal(fbits(got.t), fbits(want_t));
                assert_int_equal(fbits(got.u), fbits(want_u));
                assert_int_equal(fbits(got.v), fbits(want_v));
                hits++;
            }
    }
    assert_int_equal(hits, 2 * (1 + 2 + 3 + 4));
    munmap(pages, 2 * (size_t)pg);
}

/* ---- rt_fetch_trirange over a memory of 64 bytes at 0x1000 -------------------------- */

typedef struct {
    uint8_t ram[64];
    bool mapped;     /* map() serves the bytes */
    unsigned loads;  /* load() calls */
    unsigned cached; /* cache model calls */
    uint64_t cache_addr;
    unsigned cache_size;
} tr_mem;

static bool tr_load(void *ctx, uint64_t a, unsigned n, uint64_t *v)
{
    tr_mem *m = ctx;
    m->loads++;
    if (a < 0x1000 || a + n > 0x1040) return false;
    *v = le_bytes_get(&m->ram[a - 0x1000], n);
    return true;
}

static const uint8_t *tr_map(void *ctx, uint64_t a, unsigned n)
{
    tr_mem *m = ctx;
    return m->mapped && a >= 0x1000 && a + n <= 0x1040 ? m->ram + (a - 0x1000) : NULL;
}

static void tr_cache(void *ctx, void *cache_ctx, uint64_t a, unsigned n)
{
    (void)cache_ctx;
    tr_mem *m = ctx;
    m->cached++;
    m->cache_addr = a;
    m->cache_size = n;
}

/* rt_fetch_trirange reads the 16 bytes of a TriRange (first, count, base: little-endian,
 * written here byte by byte) read in place when map() serves them, else as two 8-byte
 * loads; a record not 16-aligned is RT_FETCH_MISALIGNED even when map() would serve it;
 * the XMEM L1 model (errata P-224) is told of one read of 16 bytes; the last 16 bytes of
 * the memory are read without touching what lies after them.
 * REQ: RT-036 RT-089 */
static void test_fetch_trirange(void **state)
{
    (void)state;
    tr_mem m = {{0}, true, 0, 0, 0, 0};
    const uint8_t rec[16] = {0x04, 0x03, 0x02, 0x01, 0x07, 0,    0,    0,
                             0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70, 0x08};
    memcpy(m.ram + 0x30, rec, 16); /* at 0x1030: the memory's last 16 bytes */
    memcpy(m.ram + 0x10, rec, 16); /* at 0x1010 */
    const rt_mem mem = {&m, tr_load, NULL, tr_map, NULL, NULL, NULL, NULL};
    for (int mapped = 0; mapped < 2; mapped++)
        for (int cache = 0; cache < 2; cache++)
            for (uint64_t a = 0x1010; a <= 0x1030; a += 0x20) {
                m.mapped = mapped;
                m.loads = m.cached = 0;
                rt_fetch f = {&mem,   false, false, NULL, 0,
                              {0, 0}, false, false, 0,    cache ? tr_cache : NULL,
                              NULL};
                rt_trirange tr;
                assert_int_equal(rt_fetch_trirange(&f, a, &tr), RT_FETCH_OK);
                assert_int_equal(tr.first, 0x01020304u);
                assert_int_equal(tr.count, 7);
                assert_true(tr.base == 0x0870605040302010u);
                assert_false(f.inv_miss);
                assert_int_equal(m.loads, mapped ? 0 : 2);
                assert_int_equal(m.cached, cache ? 1 : 0);
                if (cache) {
                    assert_true(m.cache_addr == a);
                    assert_int_equal(m.cache_size, 16);
                }
            }
    for (uint64_t a = 0x1008; a < 0x1030; a += 8) {
        if (a % 16 == 0) continue;
        m.mapped = true;
        rt_fetch f = {&mem, false, false, NULL, 0, {0, 0}, false, false, 0, NULL, NULL};
        rt_trirange tr;
        assert_int_equal(rt_fetch_trirange(&f, a, &tr), RT_FETCH_MISALIGNED);
        assert_true(f.fault_addr == a);
        assert_true(f.inv_miss);
    }
}

/* ---- rt_fetch_node: mapped tiles against loads ------------------------------------- */

/* 1 KB of memory at 0x10000: loads succeed below 0x10300, map serves [0x10000, map_hi). */
typedef struct {
    uint8_t ram[0x400];
    uint64_t map_hi;
    unsigned loads, maps, cached;
    uint64_t cache_addr[4];
    unsigned cache_size[4];
} node_mem;

static bool nm_load(void *ctx, uint64_t a, unsigned n, uint64_t *v)
{
    node_mem *m = ctx;
    m->loads++;
    if (a < 0x10000 || a + n > 0x10300) return false;
    *v = le_bytes_get(&m->ram[a - 0x10000], n);
    return true;
}

static const uint8_t *nm_map(void *ctx, uint64_t a, unsigned n)
{
    node_mem *m = ctx;
    m->maps++;
    return a >= 0x10000 && a + n <= m->map_hi ? m->ram + (a - 0x10000) : NULL;
}

static void nm_cache(void *ctx, void *cache_ctx, uint64_t a, unsigned n)
{
    (void)cache_ctx;
    node_mem *m = ctx;
    if (m->cached < 4) {
        m->cache_addr[m->cached] = a;
        m->cache_size[m->cached] = n;
    }
    m->cached++;
}

/* A node tile (or a Node8's two) that map serves is copied from it; anything else goes the
 * general way. Against the same fetch by loads alone (no map): the same status, bytes
 * (and nothing written past them), INV_MISS, fault address and cache-model calls, for
 * tiles inside the mapped part, straddling its end, straddling the end of the memory
 * (a fault, or a zero fill under OOB-zero), misaligned, with and without a cache model;
 * and a map_only fetch declines exactly the tiles that map does not serve whole or that
 * overlap a forbidden range. A tile map serves whole takes one map call and no load.
 * REQ: RT-033 RT-038 RT-089 */
static void test_fetch_node_mapped(void **state)
{
    (void)state;
    static node_mem m;
    for (unsigned i = 0; i < sizeof m.ram; i++)
        m.ram[i] = (uint8_t)(i * 7 + 3);
    const rt_mem with_map = {.ctx = &m, .load = nm_load, .map = nm_map};
    const rt_mem loads_only = {.ctx = &m, .load = nm_load};
    const uint64_t forbid[1][2] = {{0x10100, 0x10108}};
    unsigned served = 0, declined = 0, faults = 0, zeroed = 0, straddled = 0;
    static const uint64_t map_his[] = {0x10220, 0x10240, 0x10300};
    for (unsigned mh = 0; mh < 3; mh++)
        for (unsigned nt = 1; nt <= 2; nt++)
            for (uint64_t a = 0xffc0; a < 0x10340; a += 8)
                for (int v = 0; v < 8; v++) {
                    bool oob = v & 1, cache = v & 2, map_only = v & 4;
                    uint64_t map_hi = m.map_hi = map_his[mh];
                    uint8_t got[128], want[128];
                    memset(got, 0xEE, sizeof got);
                    memset(want, 0xEE, sizeof want);
                    rt_fetch f = {&with_map, oob,   map_only, forbid, 1,
                                  {0, 0},    false, false,    0,      cache ? nm_cache : NULL,
                                  NULL};
                    m.loads = m.maps = m.cached = 0;
                    rt_fetch_status st = rt_fetch_node(&f, a, nt, got);
                    unsigned got_cached = m.cached, got_loads = m.loads, got_maps = m.maps;
                    uint64_t got_ca = m.cache_addr[0];
                    unsigned got_cs = m.cache_size[0];
                    bool whole = a >= 0x10000 && a + 64 * nt <= map_hi;
                    bool aligned = a % (64 * nt) == 0;
                    straddled += aligned && a >= 0x10000 && a < map_hi && !whole;
                    if (map_only) {
                        bool forb = a < 0x10108 && a + 64 * nt > 0x10100;
                        if (aligned && (!whole || forb)) {
                            assert_true(f.declined);
                            assert_int_equal(st, RT_FETCH_ACCESS);
                            assert_int_equal(m.loads, 0);
                            declined++;
                            continue;
                        }
                        assert_false(f.declined);
                    }
                    rt_fetch g = {&loads_only, oob,   false, NULL, 0,
                                  {0, 0},      false, false, 0,    cache ? nm_cache : NULL,
                                  NULL};
                    m.cached = 0;
                    rt_fetch_status ref = rt_fetch_node(&g, a, nt, want);
                    assert_int_equal(st, ref);
                    assert_memory_equal(got, want, sizeof got);
                    assert_int_equal(f.inv_miss, g.inv_miss);
                    if (ref != RT_FETCH_OK) assert_true(f.fault_addr == g.fault_addr);
                    assert_int_equal(got_cached, m.cached);
                    if (m.cached) {
                        assert_true(got_ca == m.cache_addr[0]);
                        assert_int_equal(got_cs, m.cache_size[0]);
                    }
                    if (aligned && whole) {
                        assert_int_equal(got_loads, 0);
                        assert_int_equal(got_maps, 1);
                    }
                    served += ref == RT_FETCH_OK && whole;
                    faults += ref == RT_FETCH_ACCESS;
                    zeroed += ref == RT_FETCH_OK && g.inv_miss;
                }
    assert_true(served > 100 && declined > 50 && faults > 10 && zeroed > 10 && straddled >= 24);
}

/* A ray record that ends where map's memory ends is read in place: one map call, no
 * load (FP32 and FP16 records), with the same values as by loads. REQ: RT-039 RT-089 */
static void test_fetch_ray_at_map_end(void **state)
{
    (void)state;
    static node_mem m;
    for (unsigned i = 0; i < sizeof m.ram; i++)
        m.ram[i] = (uint8_t)(i * 13 + 1);
    m.map_hi = 0x10300;
    const rt_mem with_map = {.ctx = &m, .load = nm_load, .map = nm_map};
    const rt_mem loads_only = {.ctx = &m, .load = nm_load};
    for (int e = 0; e < 2; e++) {
        rt_elem el = e ? RT_ELEM_FP16 : RT_ELEM_FP32;
        uint64_t a = 0x10300 - rt_ray_bytes(el);
        rt_fetch f = {.mem = &with_map}, g = {.mem = &loads_only};
        rt_ray r1, r2;
        m.loads = m.maps = 0;
        assert_int_equal(rt_fetch_ray(&f, a, el, &r1), RT_FETCH_OK);
        assert_int_equal(m.loads, 0);
        assert_int_equal(m.maps, 1);
        assert_int_equal(rt_fetch_ray(&g, a, el, &r2), RT_FETCH_OK);
        assert_memory_equal(&r1, &r2, sizeof r1);
    }
}

/* map answers every request with this (never read) */
static const uint8_t *any_map(void *ctx, uint64_t a, unsigned n)
{
    (void)a, (void)n;
    return ctx;
}

/* rt_fetch_run's edges, with a map that serves anything: NULL for n = 0, a misaligned
 * address, more than 2^32 - 1 bytes, a run that wraps past 2^64 (one ending exactly
 * there included), a cache model or no map; the pointer otherwise, up to n = 2^32 - 1
 * and a run ending one byte below 2^64. REQ: RT-064 RT-089 */
static void test_fetch_run_edges(void **state)
{
    (void)state;
    static uint8_t token;
    const rt_mem mem = {.ctx = &token, .map = any_map}, no_map = {.ctx = &token};
    const rt_fetch f = {.mem = &mem};
    assert_null(rt_fetch_run(&f, 0x1000, 8, 0));
    assert_ptr_equal(rt_fetch_run(&f, 0x1001, 1, 1), &token);
    assert_null(rt_fetch_run(&f, 0x1004, 8, 16));
    assert_ptr_equal(rt_fetch_run(&f, 0x1000, 8, 16), &token);
    assert_ptr_equal(rt_fetch_run(&f, 0, 1, UINT32_MAX), &token);
    assert_null(rt_fetch_run(&f, 0, 1, (uint64_t)UINT32_MAX + 1));
    assert_null(rt_fetch_run(&f, UINT64_MAX - 7, 8, 8));              /* ends at 2^64 */
    assert_null(rt_fetch_run(&f, UINT64_MAX - 7, 8, 16));             /* wraps */
    assert_ptr_equal(rt_fetch_run(&f, UINT64_MAX - 8, 1, 8), &token); /* ends at 2^64 - 1 */
    const rt_fetch cached = {.mem = &mem, .cache = nm_cache}, none = {.mem = &no_map};
    assert_null(rt_fetch_run(&cached, 0x1000, 8, 16));
    assert_null(rt_fetch_run(&none, 0x1000, 8, 16));
}

/* ---- Host rounding mode -------------------------------------------------------------- */

/* Results do not depend on the host rounding mode, and the mode is restored (errata Q-76:
 * binary32 RNE). REQ: RT-078 */
static void test_host_rounding(void **state)
{
    (void)state;
    static const int modes[3] = {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    int differ_checked = 0;
    for (int it = 0; it < 2000; it++) {
        float v[3][3];
        for (int k = 0; k < 9; k++)
            v[k / 3][k % 3] = (float)rnd(-3, 3);
        rt_ray r;
        for (int i = 0; i < 3; i++) {
            r.org[i] = (float)rnd(-5, 5);
            r.dir[i] = (float)((v[0][i] + v[1][i] + v[2][i]) / 3 - r.org[i]);
        }
        r.tmin = 0;
        r.tmax = 100;
        rt_box b = {{(float)rnd(-3, 0), (float)rnd(-3, 0), (float)rnd(-3, 0)},
                    {(float)rnd(0.1, 3), (float)rnd(0.1, 3), (float)rnd(0.1, 3)}};
        float t0 = 0, u0 = 0, w0 = 0, n0 = 0, f0 = 0;
        bool h0 = rt_tri_test(&r, v, false, 0, &t0, &u0, &w0);
        bool b0 = rt_box_test(&r, &b, &n0, &f0);
        for (int m = 0; m < 3; m++) {
            float t = 0, u = 0, w = 0, n = 0, f = 0;
            fesetround(modes[m]);
            bool h = rt_tri_test(&r, v, false, 0, &t, &u, &w);
            bool bb = rt_box_test(&r, &b, &n, &f);
            int after = fegetround();
            fesetround(FE_TONEAREST);
            assert_int_equal(after, modes[m]);
            assert_int_equal(h, h0);
            assert_int_equal(bb, b0);
            if (h) {
                assert_int_equal(fbits(t), fbits(t0));
                assert_int_equal(fbits(u), fbits(u0));
                assert_int_equal(fbits(w), fbits(w0));
                differ_checked++;
            }
            if (bb) {
                assert_int_equal(fbits(n), fbits(n0));
                assert_int_equal(fbits(f), fbits(f0));
            }
        }
    }
    assert_true(differ_checked > 1000);
}

/* ---- BVHNode4 --------------------------------------------------------------------------- */

static void put16(uint8_t *p, uint16_t h)
{
    p[0] = (uint8_t)h;
    p[1] = (uint8_t)(h >> 8);
}

/* Decoding a hand-assembled tile (Q-67 byte positions). REQ: RT-033 RT-034 RT-035 */
static void test_node_decode(void **state)
{
    (void)state;
    uint8_t b[64] = {0};
    /* child 0: lo (1, -2, 0.5) = 3C00 C000 3800; hi (65504, +inf, 2^-14) = 7BFF 7C00 0400 */
    put16(b + 0, 0x3C00);
    put16(b + 2, 0xC000);
    put16(b + 4, 0x3800);
    put16(b + 6, 0x7BFF);
    put16(b + 8, 0x7C00);
    put16(b + 10, 0x0400);
    /* child 3: lo (-0.25, 0, 2^-24) = B400 0000 0001; hi (3, 4, 5) = 4200 4400 4500 */
    put16(b + 36, 0xB400);
    put16(b + 38, 0x0000);
    put16(b + 40, 0x0001);
    put16(b + 42, 0x4200);
    put16(b + 44, 0x4400);
    put16(b + 46, 0x4500);
    /* indices: child0 0x123456, child1 0x000004, child2 0xABCDEF, child3 0xFFFFFC */
    const uint8_t idx[12] = {0x56, 0x34, 0x12, 0x04, 0x00, 0x00,
                             0xEF, 0xCD, 0xAB, 0xFC, 0xFF, 0xFF};
    memcpy(b + 48, idx, 12);
    /* flags: c0 node 01, c1 leaf 10, c2 empty 00, c3 reserved 11 -> 0b11001001 = 0xC9;
     * bits 31:8 set to garbage (ignored). */
    b[60] = 0xC9;
    b[61] = 0xFF;
    rt_node4 n;
    rt_node4_decode(b, &n);
    assert_true(n.box[0].lo[0] == 1.0f && n.box[0].lo[1] == -2.0f && n.box[0].lo[2] == 0.5f);
    assert_true(n.box[0].hi[0] == 65504.0f && isinf(n.box[0].hi[1]) && n.box[0].hi[2] == 0x1p-14f);
    assert_true(n.box[3].lo[0] == -0.25f && n.box[3].lo[1] == 0.0f && n.box[3].lo[2] == 0x1p-24f);
    assert_true(n.box[3].hi[0] == 3.0f && n.box[3].hi[1] == 4.0f && n.box[3].hi[2] == 5.0f);
    assert_true(n.box[1].lo[0] == 0.0f && n.box[2].hi[2] == 0.0f);
    assert_int_equal(n.index[0], 0x123456);
    assert_int_equal(n.index[1], 4);
    assert_int_equal(n.index[2], 0xABCDEF);
    assert_int_equal(n.index[3], 0xFFFFFC);
    assert_int_equal(n.kind[0], RT_CHILD_NODE);
    assert_int_equal(n.kind[1], RT_CHILD_LEAF);
    assert_int_equal(n.kind[2], RT_CHILD_EMPTY);
    assert_int_equal(n.kind[3], 3);

    /* Round trip of a tile whose coordinates are binary16 values: identical bytes (with
     * the reserved flag bits cleared). */
    uint8_t e[64];
    assert_true(rt_node4_encode(&n, e));
    b[61] = 0;
    assert_memory_equal(e, b, 64);
}

/* Encoding rounds lo down and hi up to the adjacent binary16 values (conservative and
 * tight, checked with the bit-level decoder h2d); bytes at the Q-67 positions; limits.
 * REQ: RT-033 RT-034 RT-035 */
static void test_node_encode(void **state)
{
    (void)state;
    for (int it = 0; it < 20000; it++) {
        rt_node4 n;
        for (int c = 0; c < 4; c++) {
            for (int i = 0; i < 3; i++) {
                /* magnitudes from 2^-26 (subnormal in binary16) to ~2^15.9 */
                float a = (float)(ldexp(rnd(1, 2), (int)rnd(-26, 15)) * (rnd(0, 1) < 0.5 ? -1 : 1));
                float z = (float)(ldexp(rnd(1, 2), (int)rnd(-26, 15)) * (rnd(0, 1) < 0.5 ? -1 : 1));
                n.box[c].lo[i] = fminf(a, z);
                n.box[c].hi[i] = fmaxf(a, z);
            }
            n.index[c] = (uint32_t)(rng_next() & 0xFFFFFF);
            n.kind[c] = (uint8_t)(rng_next() & 3);
        }
        uint8_t b[64];
        assert_true(rt_node4_encode(&n, b));
        for (int c = 0; c < 4; c++) {
            for (int i = 0; i < 3; i++) {
                uint32_t lo = b[12 * c + 2 * i] | (uint32_t)b[12 * c + 2 * i + 1] << 8;
                uint32_t hi = b[12 * c + 6 + 2 * i] | (uint32_t)b[12 * c + 7 + 2 * i] << 8;
                double L = n.box[c].lo[i], H = n.box[c].hi[i];
                assert_true(h2d(lo) <= L && h2d(h_up(lo)) > L);
                assert_true(h2d(hi) >= H && h2d(h_down(hi)) < H);
            }
            uint32_t idx =
                b[48 + 3 * c] | (uint32_t)b[49 + 3 * c] << 8 | (uint32_t)b[50 + 3 * c] << 16;
            assert_int_equal(idx, n.index[c]);
            assert_int_equal((b[60] >> (2 * c)) & 3, n.kind[c]);
        }
        assert_true(b[61] == 0 && b[62] == 0 && b[63] == 0);
        rt_node4 d;
        rt_node4_decode(b, &d);
        for (int c = 0; c < 4; c++)
            for (int i = 0; i < 3; i++) {
                uint32_t lo = b[12 * c + 2 * i] | (uint32_t)b[12 * c + 2 * i + 1] << 8;
                assert_true((double)d.box[c].lo[i] == h2d(lo));
                assert_true(d.box[c].lo[i] <= n.box[c].lo[i]);
                assert_true(d.box[c].hi[i] >= n.box[c].hi[i]);
            }
    }
    /* Hand cases: 1/3 -> lo 0x3555 (341/1024 * 2^-2 + 2^-2 = 0.33325..), hi 0x3556;
     * 65504 exact; 65505 does not fit; -inf/+inf encode as 0xFC00/0x7C00; NaN, index 2^24
     * and kind 4 are rejected. */
    rt_node4 n = {0};
    n.box[0] = mkbox(1.0f / 3, -65504, -INFINITY, 1.0f / 3, 65504, INFINITY);
    uint8_t b[64];
    assert_true(rt_node4_encode(&n, b));
    assert_int_equal(b[0] | b[1] << 8, 0x3555);
    assert_int_equal(b[6] | b[7] << 8, 0x3556);
    assert_int_equal(b[2] | b[3] << 8, 0xFBFF);
    assert_int_equal(b[8] | b[9] << 8, 0x7BFF);
    assert_int_equal(b[4] | b[5] << 8, 0xFC00);
    assert_int_equal(b[10] | b[11] << 8, 0x7C00);
    rt_node4 m = n;
    m.box[2].hi[1] = 65505;
    assert_false(rt_node4_encode(&m, b));
    m = n;
    m.box[1].lo[0] = -1e6f;
    assert_false(rt_node4_encode(&m, b));
    m = n;
    m.box[3].lo[2] = NAN;
    assert_false(rt_node4_encode(&m, b));
    /* every NaN, the signalling ones with the smallest payload too */
    const uint32_t nans[4] = {0x7f800001u, 0xff800001u, 0x7fffffffu, 0x7fc00000u};
    for (int k = 0; k < 4; k++) {
        m = n;
        memcpy(&m.box[0].hi[1], &nans[k], 4);
        assert_false(rt_node4_encode(&m, b));
    }
    m = n;
    m.index[1] = 0x1000000;
    assert_false(rt_node4_encode(&m, b));
    m = n;
    m.kind[2] = 4;
    assert_false(rt_node4_encode(&m, b));
    /* the largest index and kind fit: child 1's index bytes 51-53 FF FF FF, kind 3 at
     * bits 5:4 of byte 60 */
    m = n;
    m.index[1] = 0xFFFFFF;
    m.kind[2] = 3;
    assert_true(rt_node4_encode(&m, b));
    assert_true(b[51] == 0xFF && b[52] == 0xFF && b[53] == 0xFF);
    assert_int_equal(b[60], 3u << 4);
}

/* ---- rt.bbox over children ------------------------------------------------------------ */

/* Four unit boxes along +x at x = 4, 1, 7, 1 (children 0-3) plus a second tile: hit mask,
 * order by tnear, ties to the lower child, empty/reserved children never hit, the nearest
 * child's raw tnear/tfar. REQ: RT-056 RT-038 */
static void test_bbox_children(void **state)
{
    (void)state;
    rt_node4 nd[2];
    memset(nd, 0, sizeof nd);
    const float xs[8] = {4, 1, 7, 1, 10, 2.5f, 0.5f, 20};
    for (int c = 0; c < 8; c++) {
        nd[c / 4].box[c % 4] = mkbox(xs[c], -1, -1, xs[c] + 1, 1, 1);
        nd[c / 4].kind[c % 4] = (c & 1) ? RT_CHILD_LEAF : RT_CHILD_NODE;
        nd[c / 4].index[c % 4] = 4u * (unsigned)c;
    }
    /* Ray o = (0,0,0), d = (1,0,0): child c hit at tnear = xs[c], tfar = xs[c] + 1. */
    rt_ray r = mkray(0, 0, 0, 1, 0, 0, 0, 100);
    rt_bbox_res res;
    rt_bbox_children(&r, nd, 1, &res);
    assert_int_equal(res.hitmask, 0x0F);
    assert_int_equal(res.nhit, 4);
    const uint8_t o4[4] = {1, 3, 0, 2}; /* tnear 1 (child 1), 1 (child 3), 4, 7 */
    assert_memory_equal(res.order, o4, 4);
    for (int i = 4; i < 8; i++)
        assert_int_equal(res.order[i], 0);
    assert_true(res.tnear == 1.0f && res.tfar == 2.0f);

    /* Node8: children 4-7 from the second tile; tnears 4,1,7,1,10,2.5,0.5,20. */
    rt_bbox_children(&r, nd, 2, &res);
    assert_int_equal(res.hitmask, 0xFF);
    assert_int_equal(res.nhit, 8);
    const uint8_t o8[8] = {6, 1, 3, 5, 0, 2, 4, 7};
    assert_memory_equal(res.order, o8, 8);
    assert_true(res.tnear == 0.5f && res.tfar == 1.5f);

    /* Empty (0) and reserved (3) children are never hit; tmax 5 cuts children 2, 4, 7;
     * child 6 (tnear 0.5) emptied. */
    nd[1].kind[2] = RT_CHILD_EMPTY; /* child 6 */
    nd[0].kind[3] = 3;              /* child 3 */
    r.tmax = 5;
    rt_bbox_children(&r, nd, 2, &res);
    assert_int_equal(res.hitmask, 0x23); /* children 0, 1, 5 */
    assert_int_equal(res.nhit, 3);
    const uint8_t o3[8] = {1, 5, 0, 0, 0, 0, 0, 0};
    assert_memory_equal(res.order, o3, 8);
    assert_true(res.tnear == 1.0f && res.tfar == 2.0f);

    /* Ties: identical boxes in children 2 and 0 -> order 0, 2. Origin inside both: raw
     * tnear -0.5 reported for the nearest. */
    rt_node4 t = {0};
    t.box[2] = t.box[0] = mkbox(-0.5f, -1, -1, 0.5f, 1, 1);
    t.kind[0] = t.kind[2] = RT_CHILD_NODE;
    t.box[1] = mkbox(-3, -1, -1, -2, 1, 1); /* behind: miss */
    t.kind[1] = RT_CHILD_LEAF;
    r = mkray(0, 0, 0, 1, 0, 0, 0, 10);
    rt_bbox_children(&r, &t, 1, &res);
    assert_int_equal(res.hitmask, 0x05);
    assert_int_equal(res.order[0], 0);
    assert_int_equal(res.order[1], 2);
    assert_true(res.tnear == -0.5f && res.tfar == 0.5f);

    /* Nothing hit: tnear = tfar = 0, also from rt_bbox_children_pre (the entry point of
     * the offload engine and the guest's software traversal) whatever res held. */
    r = mkray(0, 5, 0, 1, 0, 0, 0, 10);
    rt_bbox_children(&r, &t, 1, &res);
    assert_int_equal(res.hitmask, 0);
    assert_int_equal(res.nhit, 0);
    rt_ray_pre pp;
    rt_node4w tw;
    rt_ray_prepare(&r, &pp);
    rt_node4w_from(&t, &tw);
    memset(&res, 0xFF, sizeof res);
    rt_bbox_children_pre(&pp, &tw, NULL, r.tmin, r.tmax, &res);
    assert_int_equal(res.hitmask, 0);
    assert_int_equal(res.nhit, 0);
    assert_int_equal(fbits(res.tnear), 0);
    assert_int_equal(fbits(res.tfar), 0);
}

/* ---- Formats ------------------------------------------------------------------------- */

/* EFF_PET FP16 0, FP32 1, BF16 2 without quantization; anything else falls back to FP32
 * (caller reports UNSUP_FMT). REQ: RT-040 RT-069 */
static void test_elem_from_pet(void **state)
{
    (void)state;
    rt_elem e = RT_ELEM_BF16;
    assert_true(rt_elem_from_pet(0, false, &e) && e == RT_ELEM_FP16);
    assert_true(rt_elem_from_pet(1, false, &e) && e == RT_ELEM_FP32);
    assert_true(rt_elem_from_pet(2, false, &e) && e == RT_ELEM_BF16);
    for (unsigned p = 3; p < 16; p++) {
        e = RT_ELEM_FP16;
        assert_false(rt_elem_from_pet(p, false, &e));
        assert_int_equal(e, RT_ELEM_FP32);
    }
    for (unsigned p = 0; p < 3; p++) {
        e = RT_ELEM_FP16;
        assert_false(rt_elem_from_pet(p, true, &e));
        assert_int_equal(e, RT_ELEM_FP32);
    }
}

/* One rounding from binary32 to the effective format under FP_RMODE, DOWNCAST_TAKEN on
 * every narrowing (exact or not), flags ORed, 16-bit results zero-extended.
 * REQ: RT-079 RT-105 RT-106 RT-074 RT-077 RT-107 */
/* FP32 results (the offload engine's hit records) take a shortcut for normal numbers,
 * zeros and infinities: the same bits and flags as the numeric engine's FP32 -> FP32
 * conversion under every rounding mode, SAT, FTZ and NaN policy, for random encodings
 * and the class boundaries. REQ: RT-079 */
static void test_result_encode_fp32(void **state)
{
    (void)state;
    static const uint32_t edge[] = {0u,          0x80000000u, 0x00000001u, 0x007fffffu,
                                    0x00800000u, 0x80800000u, 0x7f7fffffu, 0x7f800000u,
                                    0xff800000u, 0x7f800001u, 0x7fc00000u, 0xffc00001u};
    for (int it = 0; it < 200000; it++) {
        uint32_t b = it < 12 * 16 ? edge[it % 12] : (uint32_t)rng_next();
        num_policy p = num_policy_default();
        p.rm = (num_rm)((it / 12) % 5);
        p.sat = (it / 60) % 2;
        p.ftz = (it / 120) % 2;
        p.nan_pol = (num_nan_pol)((it >> 3) % 3);
        float x;
        memcpy(&x, &b, 4);
        num_flags f1 = 0, f2 = 0;
        uint32_t got = rt_result_encode(x, RT_ELEM_FP32, &p, &f1);
        assert_int_equal(got, num_convert(NUM_FP32, NUM_FP32, b, &p, &f2));
        assert_int_equal(f1, f2);
    }
}

static void test_result_encode(void **state)
{
    (void)state;
    num_policy p = num_policy_default();
    num_flags f = 0;
    /* 1/3 in binary32 = 0x3EAAAAAB. FP32: unchanged, no flags. */
    assert_int_equal(rt_result_encode(1.0f / 3, RT_ELEM_FP32, &p, &f), 0x3EAAAAABu);
    assert_int_equal(f, 0);
    /* FP16: 1/3 = 1.0101...b * 2^-2: exponent 13 (0x3400), fraction 341.33/1024 -> RNE
     * 341 = 0x155 -> 0x3555; RUP 0x3556; inexact: NX | DOWNCAST_TAKEN. */
    assert_int_equal(rt_result_encode(1.0f / 3, RT_ELEM_FP16, &p, &f), 0x3555u);
    assert_int_equal(f, NUM_NX | NUM_DOWNCAST_TAKEN);
    p.rm = NUM_RUP;
    f = 0;
    assert_int_equal(rt_result_encode(1.0f / 3, RT_ELEM_FP16, &p, &f), 0x3556u);
    /* BF16: high half 0x3EAA, dropped 0xAAAB > 0x8000: RNE/RUP 0x3EAB, RTZ 0x3EAA. */
    assert_int_equal(rt_result_encode(1.0f / 3, RT_ELEM_BF16, &p, &f), 0x3EABu);
    p.rm = NUM_RTZ;
    assert_int_equal(rt_result_encode(1.0f / 3, RT_ELEM_BF16, &p, &f), 0x3EAAu);
    /* Exact narrowing: 1.5 -> FP16 0x3E00 with DOWNCAST_TAKEN only. */
    p = num_policy_default();
    f = 0;
    assert_int_equal(rt_result_encode(1.5f, RT_ELEM_FP16, &p, &f), 0x3E00u);
    assert_int_equal(f, NUM_DOWNCAST_TAKEN);
    /* Negative values are zero-extended: -1.0 -> 0x0000BC00. */
    assert_int_equal(rt_result_encode(-1.0f, RT_ELEM_FP16, &p, &f), 0xBC00u);
    /* Overflow: 70000 -> inf (0x7C00) with OF|NX; SAT=1 -> 65504 (0x7BFF) with SAT_HIT. */
    f = 0;
    assert_int_equal(rt_result_encode(70000.0f, RT_ELEM_FP16, &p, &f), 0x7C00u);
    assert_int_equal(f, NUM_OF | NUM_NX | NUM_DOWNCAST_TAKEN);
    p.sat = true;
    f = 0;
    assert_int_equal(rt_result_encode(70000.0f, RT_ELEM_FP16, &p, &f), 0x7BFFu);
    assert_true(f & NUM_SAT_HIT);
    /* FTZ: a subnormal binary32 result (2^-140) is flushed to +0 with FTZ_HIT even in
     * FP32; without FTZ it is kept. */
    p = num_policy_default();
    f = 0;
    assert_int_equal(rt_result_encode(0x1p-140f, RT_ELEM_FP32, &p, &f), 0x00000200u);
    assert_int_equal(f, 0);
    p.ftz = true;
    assert_int_equal(rt_result_encode(0x1p-140f, RT_ELEM_FP32, &p, &f), 0u);
    assert_true(f & NUM_FTZ_HIT);
    /* NaN follows NAN_POL: canonical -> 0x7E00 in FP16. */
    p = num_policy_default();
    p.nan_pol = NUM_NAN_CANONICAL;
    f = 0;
    assert_int_equal(rt_result_encode(-NAN, RT_ELEM_FP16, &p, &f), 0x7E00u);
    /* Flags accrue (OR), never cleared. */
    f = NUM_DZ;
    p = num_policy_default();
    rt_result_encode(1.5f, RT_ELEM_FP16, &p, &f);
    assert_int_equal(f, NUM_DZ | NUM_DOWNCAST_TAKEN);
}

/* rt_ray_prepare_slab's fields for the traversal's sign-form slab test (rt-soup): slab_sign
 * is the rule traverse_fast applied per ray (no NaN in org, dir, tmin, tmax, no
 * slab_scalar, no zero direction component), ninv4 is -inv4 bit for bit, near/far are the
 * planes by inv's sign bit, which is inv < 0 on every slab_sign ray; by rt_ray_prepare and
 * by the two steps in place, on rays of signed zeros, infinities, NaNs (tmin and tmax
 * too), overflowing reciprocals. REQ: RT-056 */
static void test_ray_prepare_slab_sign(void **state)
{
    (void)state;
    const float special[] = {0.0f,   -0.0f, 1.0f,   -1.0f,     INFINITY, -INFINITY, NAN,      -NAN,
                             1e-40f, 3e38f, -3e38f, 0x1p-126f, -1e-40f,  -0.75f,    0x1p-149f};
    const unsigned ns = sizeof special / sizeof special[0];
    unsigned signs = 0, not_sign[2] = {0, 0};
    for (unsigned n = 0; n < 100000; n++) {
        float x[8];
        for (unsigned i = 0; i < 8; i++)
            x[i] = (rng_next() % 5 == 0) ? special[rng_next() % ns] : (float)rnd(-8, 8);
        rt_ray r = mkray(x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7]);
        for (int two = 0; two < 2; two++) {
            rt_ray_pre p;
            memset(&p, 0xA5, sizeof p);
            if (two) {
                p.r = r;
                rt_ray_prepare_slab(&p);
            } else {
                rt_ray_prepare(&r, &p);
            }
            bool want =
                !p.nan && !p.slab_scalar && p.zero_axes == 0 && !isnan(r.tmin) && !isnan(r.tmax);
            assert_int_equal(p.slab_sign, want);
            for (unsigned i = 0; i < 3; i++) {
                bool neg = signbit(p.inv[i]);
                if (want) assert_int_equal(neg, p.inv[i] < 0.0f);
                assert_int_equal(p.near[i], neg ? 12 + 4 * i : 4 * i);
                assert_int_equal(p.far[i], neg ? 4 * i : 12 + 4 * i);
                for (int l = 0; l < 4; l++)
                    assert_int_equal(fbits(p.ninv4[i][l]), fbits(p.inv[i]) ^ 0x80000000u);
            }
            signs += want;
            /* rays the sign form must refuse for their range alone */
            if (!p.nan && !p.slab_scalar && p.zero_axes == 0)
                not_sign[isnan(r.tmin) ? 0 : 1] += !want;
        }
    }
    assert_true(signs > 10000 && not_sign[0] > 100 && not_sign[1] > 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ray_decode),
        cmocka_unit_test(test_tri_trirange_decode),
        cmocka_unit_test(test_fp16_records_fp32_math),
        cmocka_unit_test(test_box_hand),
        cmocka_unit_test(test_box_zero_dir),
        cmocka_unit_test(test_box_nan_empty),
        cmocka_unit_test(test_nan_payloads),
        cmocka_unit_test(test_box_random),
        cmocka_unit_test(test_ray_prepare_reference),
        cmocka_unit_test(test_eps_values),
        cmocka_unit_test(test_slab4_matches_scalar),
        cmocka_unit_test(test_slab4_zero_dir_on_plane),
#if defined(__SSE2__)
        cmocka_unit_test(test_slab4_sign_matches),
        cmocka_unit_test(test_child_order4_matches),
#endif

        cmocka_unit_test(test_box_zero_exit_tie),
        cmocka_unit_test(test_fp16_widen_exhaustive),
        cmocka_unit_test(test_node_decode_widen_exhaustive),
        cmocka_unit_test(test_node4w_decode_matches),
        cmocka_unit_test(test_tri_hand),
        cmocka_unit_test(test_tri_degenerate),
        cmocka_unit_test(test_tri_exact_edge),
        cmocka_unit_test(test_tri_eps),
        cmocka_unit_test(test_no_custom_epsilon),
        cmocka_unit_test(test_tri_random),
        cmocka_unit_test(test_watertight_grid),
        cmocka_unit_test(test_watertight_closed),
        cmocka_unit_test(test_leaf_in_place),
        cmocka_unit_test(test_leaf_reads_inside),
        cmocka_unit_test(test_fetch_trirange),
        cmocka_unit_test(test_fetch_node_mapped),
        cmocka_unit_test(test_fetch_ray_at_map_end),
        cmocka_unit_test(test_fetch_run_edges),
        cmocka_unit_test(test_host_rounding),
        cmocka_unit_test(test_node_decode),
        cmocka_unit_test(test_node_encode),
        cmocka_unit_test(test_bbox_children),
        cmocka_unit_test(test_elem_from_pet),
        cmocka_unit_test(test_result_encode),
        cmocka_unit_test(test_result_encode_fp32),
        cmocka_unit_test(test_ray_prepare_slab_sign),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
