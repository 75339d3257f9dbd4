/* rt_kernels.c — XPHMG_RT intersection kernels and record codecs (contract: rt_kernels.h).
 *
 * Numerics. Every kernel computes in IEEE binary32 with round to nearest even (errata
 * ) on the host FPU: the build uses ISO C17 (FLT_EVAL_METHOD 0, i.e. SSE
 * on x86-64, no x87 excess precision, checked below), floating-point contraction is off
 * (ISO mode and -ffp-contract=off: no fused a*b+c), and -frounding-math keeps the compiler
 * from folding or moving operations across the rounding-mode switch. Each kernel entry
 * point saves the host rounding mode, sets FE_TONEAREST when it differs and restores it on
 * return, so the result does not depend on the host state (rvfp switches the host mode
 * around its own operations only). Host exception flags raised here are meaningless and
 * never read: the kernels raise no architectural flags; the only flags are those of
 * rt_result_encode, computed by the numeric engine in integer arithmetic.
 *
 * Watertight triangle test (Woop, Benthin, Wald, JCGT 2(1), 2013), evaluated in binary64
 * from the binary32 inputs and rounded once to binary32 at the end (errata P-340): a
 * vertex's sheared coordinates depend only on the vertex and the ray, and an edge
 * function evaluated by the two triangles sharing the edge is exactly negated (RNE is
 * symmetric), which is what makes the test watertight; binary64 keeps t within 0.5 ulp of
 * binary32 on slivers and distant triangles where binary32 lost 1e-4.
 *
 * Further decisions (where the errata are silent):
 *  - Triangle: kz is the lowest axis of largest |dir| on ties; a zero direction is a miss;
 *    t = T/det, u = V/det, v = W/det by binary64 division rounded to binary32 (the paper
 *    multiplies by 1/det); U, V, W weight v0, v1, v2, so the hit point is
 *    (1-u-v) v0 + u v1 + v v2. Edge functions of 0 are inclusive (a ray through a
 *    shared edge or vertex may hit every incident triangle). The epsilon bounds
 *    tmin - 2^-e and tmax + 2^-e are binary32 RNE operations like everything else (so the
 *    widening vanishes where 2^-e is below half an ulp of the bound). Any NaN in the ray
 *    or the vertices is a miss; infinities follow IEEE arithmetic (a NaN t, u or v misses).
 *  - Slab: a direction component of +-0 (reciprocal +-inf) makes that axis unconstrained
 *    when lo <= org <= hi and a miss otherwise (the limit of the +-inf reciprocal, without
 *    the 0*inf NaN and without a "hit at t = inf" for a parallel ray outside the slab); a
 *    non-zero direction whose reciprocal overflows gives t = 0 exactly for a plane through
 *    the origin (0/d); other NaNs (inf - inf with infinite origins) are misses.
 *  - Node encode: NaN and finite |x| > 65504 do not fit (the scene must be scaled, Q-67);
 *    +-inf encode as +-inf; every child's box must fit, whatever its kind; kind > 3 or
 *    index >= 2^24 fail. Decode keeps kind 3 as 3 (rt_bbox_children never hits it) and
 *    ignores child_flags bits 31:8.
 *  - rt_bbox_children: nnodes > 2 is read as 2; tnear/tfar are 0 when nothing is hit. */
#include "rt_kernels.h"

#include <fenv.h>
#include <float.h>
#include <math.h>
#include <string.h>

#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "rt_kernels.c needs FLT_EVAL_METHOD == 0 (binary32 operations evaluated in binary32)"
#endif

/* ---- Host rounding mode ------------------------------------------------------------ */

static int rne_enter(void)
{
    int m = fegetround();
    if (m != FE_TONEAREST) fesetround(FE_TONEAREST);
    return m;
}

static void rne_leave(int m)
{
    if (m != FE_TONEAREST) fesetround(m);
}

/* ---- Bit helpers ------------------------------------------------------------------- */

static uint32_t f2u(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static float u2f(uint32_t u)
{
    float x;
    memcpy(&x, &u, sizeof x);
    return x;
}

static uint32_t ld16(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8;
}

static uint32_t ld32(const uint8_t *p)
{
    return ld16(p) | ld16(p + 2) << 16;
}

/* NaN by its bits: under -fsignaling-nans isnan() is a library call. */
static bool nan_f(float x)
{
    return (f2u(x) & 0x7fffffffu) > 0x7f800000u;
}

/* REQ: RT-034 RT-040 */
static inline float fp16_widen(uint32_t h)
{
    uint32_t sign = (h & 0x8000u) << 16, e = (h >> 10) & 31u, m = h & 0x3ffu;
    if (e == 31) return u2f(sign | (m ? 0x7fc00000u | m << 13 : 0x7f800000u)); /* quiet NaN */
    if (e != 0) return u2f(sign | (e + 112u) << 23 | m << 13);
    /* Zero or subnormal: m x 2^-24, exact in binary32 under any rounding mode. */
    float x = (float)m * 0x1p-24f;
    return u2f(sign | f2u(x));
}

float rt_fp16_widen(uint32_t h)
{
    return fp16_widen(h);
}

/* Exact widening of one element to binary32 (BF16 is the high half of a binary32). NaNs
 * stay NaNs (they make every test miss). */
/* REQ: RT-040 RT-042 RT-075 */
static float elem_load(const uint8_t *p, rt_elem e)
{
    if (e == RT_ELEM_FP32) return u2f(ld32(p));
    uint32_t h = ld16(p);
    if (e == RT_ELEM_BF16) return u2f(h << 16);
    return fp16_widen(h);
}

/* ---- Records ----------------------------------------------------------------------- */

/* REQ: RT-039 RT-040 RT-042 */
void rt_ray_decode_elems(const uint8_t *bytes, rt_elem e, rt_ray *r)
{
    unsigned s = rt_elem_bytes(e);
    float x[8];
    for (unsigned i = 0; i < 8; i++)
        x[i] = elem_load(bytes + i * s, e);
    for (unsigned i = 0; i < 3; i++) {
        r->org[i] = x[i];
        r->dir[i] = x[3 + i];
    }
    r->tmin = x[6];
    r->tmax = x[7];
}

/* REQ: RT-040 RT-064 */
void rt_tri_decode(const uint8_t *bytes, rt_elem e, float v[3][3])
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (e == RT_ELEM_FP32) {
        memcpy(v, bytes, 36);
        return;
    }
#endif
    unsigned s = rt_elem_bytes(e);
    for (unsigned i = 0; i < 9; i++)
        v[i / 3][i % 3] = elem_load(bytes + i * s, e);
}

/* REQ: RT-036 */
void rt_trirange_decode(const uint8_t bytes[16], rt_trirange *tr)
{
    tr->first = ld32(bytes);
    tr->count = ld32(bytes + 4);
    tr->base = (uint64_t)ld32(bytes + 8) | (uint64_t)ld32(bytes + 12) << 32;
}

/* ---- Ray preparation ---------------------------------------------------------------- */

/* The shear axes (kx, ky) of kz, and of kz with a negative dir[kz] (swapped, to keep the
 * winding): the next two axes cyclically. */
static const uint8_t shear_axes[3][2][2] = {{{1, 2}, {2, 1}}, {{2, 0}, {0, 2}}, {{0, 1}, {1, 0}}};

/* REQ: RT-056 RT-065 */
void rt_ray_prepare(const rt_ray *r, rt_ray_pre *p)
{
    if (r != &p->r) p->r = *r; /* r may be &p->r (a ray decoded in place) */
    rt_ray_prepare_slab(p);
    rt_ray_prepare_shear(p);
}

/* REQ: RT-056 */
/* rt_ray_pre.near and .far from the sign bits of inv (bit i: axis i). */
static void slab_planes(rt_ray_pre *p, unsigned signs)
{
    for (unsigned i = 0; i < 3; i++) {
        bool neg = (signs >> i) & 1;
        p->near[i] = neg ? 12 + 4 * i : 4 * i;
        p->far[i] = neg ? 4 * i : 12 + 4 * i;
    }
}

void rt_ray_prepare_slab(rt_ray_pre *p)
{
    /* every field is written (no memset of the whole struct: this runs once per ray) */
    const rt_ray *r = &p->r;
#if defined(__SSE2__) && !defined(RT_PORTABLE)
    /* The loop below, three axes at once (lane 3 holds dir.x or tmin and is ignored): the
     * same division, the same comparisons. A zero direction's reciprocal and the direction
     * itself are both finite, so |inv| and |d| are tested without excluding those axes. */
    __m128 o = _mm_loadu_ps(r->org), d = _mm_loadu_ps(r->dir); /* org.xyz dir.x, dir.xyz tmin */
    __m128 zero = _mm_cmpeq_ps(d, _mm_setzero_ps());
    __m128 inv = _mm_andnot_ps(zero, _mm_div_ps(_mm_set1_ps(1.0f), d));
    __m128 mag = _mm_castsi128_ps(_mm_set1_epi32(0x7fffffff)), inf4 = _mm_set1_ps(INFINITY);
    __m128 inf_any = _mm_or_ps(_mm_cmpeq_ps(_mm_and_ps(o, mag), inf4),
                               _mm_or_ps(_mm_cmpeq_ps(_mm_and_ps(inv, mag), inf4),
                                         _mm_cmpeq_ps(_mm_and_ps(d, mag), inf4)));
    unsigned zero_axes = (unsigned)_mm_movemask_ps(zero) & 7;
    /* lane 3 of the NaN mask: dir.x or tmin */
    unsigned nan = (unsigned)_mm_movemask_ps(_mm_cmpunord_ps(o, d));
    unsigned scalar = (unsigned)_mm_movemask_ps(inf_any) & 7;
    p->zero_axes = (uint8_t)zero_axes;
    p->nan = (nan & 7) != 0;
    p->slab_scalar = scalar != 0;
    p->slab_sign = (zero_axes | nan | scalar) == 0 && r->tmax == r->tmax;
    _mm_storeu_ps(p->inv, inv); /* lane 3 lands in the unused inv[3] */
    __m128 ninv = _mm_xor_ps(inv, _mm_set1_ps(-0.0f));
    _mm_store_ps(p->org4[0], _mm_shuffle_ps(o, o, 0x00));
    _mm_store_ps(p->org4[1], _mm_shuffle_ps(o, o, 0x55));
    _mm_store_ps(p->org4[2], _mm_shuffle_ps(o, o, 0xaa));
    _mm_store_ps(p->inv4[0], _mm_shuffle_ps(inv, inv, 0x00));
    _mm_store_ps(p->inv4[1], _mm_shuffle_ps(inv, inv, 0x55));
    _mm_store_ps(p->inv4[2], _mm_shuffle_ps(inv, inv, 0xaa));
    _mm_store_ps(p->ninv4[0], _mm_shuffle_ps(ninv, ninv, 0x00));
    _mm_store_ps(p->ninv4[1], _mm_shuffle_ps(ninv, ninv, 0x55));
    _mm_store_ps(p->ninv4[2], _mm_shuffle_ps(ninv, ninv, 0xaa));
    slab_planes(p, (unsigned)_mm_movemask_ps(inv));
#else
    p->zero_axes = 0;
    p->inv[3] = 0.0f;
    bool nan = false, inf = false;
    for (int i = 0; i < 3; i++) {
        nan |= nan_f(r->org[i]) || nan_f(r->dir[i]);
        inf |= (f2u(r->org[i]) & 0x7fffffffu) == 0x7f800000u;
        float d = r->dir[i];
        p->inv[i] = 0.0f;
        if (d == 0.0f)
            p->zero_axes |= (uint8_t)(1u << i);
        else
            p->inv[i] = 1.0f / d;
        for (int l = 0; l < 4; l++) {
            p->org4[i][l] = r->org[i];
            p->inv4[i][l] = p->inv[i];
            p->ninv4[i][l] = -p->inv[i];
        }
        if (d == 0.0f) continue;
        /* An infinite direction (reciprocal 0) or one whose reciprocal overflows can make
         * 0 * inf or inf * 0 in the slab planes: the scalar path handles those. */
        inf |=
            (f2u(p->inv[i]) & 0x7fffffffu) == 0x7f800000u || (f2u(d) & 0x7fffffffu) == 0x7f800000u;
    }
    p->nan = nan;
    p->slab_scalar = inf;
    p->slab_sign = !nan && !inf && p->zero_axes == 0 && !nan_f(r->tmin) && !nan_f(r->tmax);
    slab_planes(p,
                (f2u(p->inv[0]) >> 31) | (f2u(p->inv[1]) >> 31) << 1 | (f2u(p->inv[2]) >> 31) << 2);
#endif
}

/* REQ: RT-065 */
void rt_ray_prepare_shear(rt_ray_pre *p)
{
    /* Woop et al.: kz = the axis of largest |dir| (the lowest such axis on ties: each axis
     * replaces the one before only when strictly larger; a NaN never does), kx and ky
     * from shear_axes. */
    const float *dir = p->r.dir;
    float a0 = fabsf(dir[0]), a1 = fabsf(dir[1]), a2 = fabsf(dir[2]);
    int kz = a1 > a0;
    kz = a2 > (kz ? a1 : a0) ? 2 : kz;
    float dz = dir[kz];
    int kx = shear_axes[kz][dz < 0.0f][0], ky = shear_axes[kz][dz < 0.0f][1];
    p->kx = (uint8_t)kx;
    p->ky = (uint8_t)ky;
    p->kz = (uint8_t)kz;
    p->dir_zero = dz == 0.0f || nan_f(dz);
    if (p->dir_zero) {
        p->dsx = p->dsy = p->dsz = 0.0;
    } else {
        p->dsx = (double)dir[kx] / (double)dz;
        p->dsy = (double)dir[ky] / (double)dz;
        p->dsz = 1.0 / (double)dz;
    }
}

/* ---- Slab test --------------------------------------------------------------------- */

/* One slab plane: t = (p - o) * inv in binary32. NaN from 0 * inf (the origin on the plane
 * and a direction so small that its reciprocal overflows) is the exact value 0 = 0 / d;
 * any other NaN (inf - inf, inf * 0) makes the box a miss (*ok = false). */
/* REQ: RT-056 */
static float slab_t(float p, float o, float inv, bool *ok)
{
    float diff = p - o;
    if (nan_f(diff)) {
        *ok = false;
        return 0.0f;
    }
    float t = diff * inv;
    if (nan_f(t)) {
        if (diff == 0.0f) return 0.0f;
        *ok = false;
    }
    return t;
}

/* The reference slab test (any ray, any box). The 4-wide test below computes the same
 * values for the rays it accepts; rays with infinities come here. The min/max steps are
 * written as the comparisons they are (t1 < t0 ? t1 : t0, ...), which is what SSE
 * minps/maxps compute, including the sign of a zero. */
/* REQ: RT-056 */
static bool box_core(const rt_ray *r, const rt_box *b, float *tnear, float *tfar)
{
    if (nan_f(r->tmin) || nan_f(r->tmax)) return false;
    for (int i = 0; i < 3; i++)
        if (nan_f(r->org[i]) || nan_f(r->dir[i]) || nan_f(b->lo[i]) || nan_f(b->hi[i]) ||
            b->lo[i] > b->hi[i])
            return false;
    float tn = -INFINITY, tf = INFINITY;
    for (int i = 0; i < 3; i++) {
        float o = r->org[i], d = r->dir[i];
        if (d == 0.0f) {
            /* Reciprocal +-inf: the ray is parallel to the slab; it lies inside the
             * (inclusive) slab for every t, or outside for every t. */
            if (o < b->lo[i] || o > b->hi[i]) return false;
            continue;
        }
        float inv = 1.0f / d;
        bool ok = true;
        float t0 = slab_t(b->lo[i], o, inv, &ok);
        float t1 = slab_t(b->hi[i], o, inv, &ok);
        if (!ok) return false;
        float near = t1 < t0 ? t1 : t0, far = t0 > t1 ? t0 : t1;
        tn = near > tn ? near : tn;
        tf = far < tf ? far : tf;
    }
    float lo = tn > r->tmin ? tn : r->tmin;
    float hi = tf < r->tmax ? tf : r->tmax;
    if (!(lo <= hi)) return false;
    *tnear = tn;
    *tfar = tf;
    return true;
}

/* REQ: RT-056 */
bool rt_box_test(const rt_ray *r, const rt_box *b, float *tnear, float *tfar)
{
    int m = rne_enter();
    bool hit = box_core(r, b, tnear, tfar);
    rne_leave(m);
    return hit;
}

/* The scalar slab4 is what the render guest (RV64, no SSE) runs; -DRT_PORTABLE builds it
 * on x86-64 too, so that the host tests check it (ext_rt_kernels_portable). */
#if defined(__SSE2__) && !defined(RT_PORTABLE)
/* REQ: RT-056 */
static unsigned slab4(const rt_ray_pre *p, const rt_node4w *n, float tmin, float tmax,
                      float tn_out[4], float tf_out[4])
{
    return rt_node4w_slab_sse(p, n, tmin, tmax, tn_out, tf_out);
}
#else
/* REQ: RT-056 */
static unsigned slab4(const rt_ray_pre *p, const rt_node4w *n, float tmin, float tmax,
                      float tn_out[4], float tf_out[4])
{
    unsigned mask = 0;
    for (int c = 0; c < 4; c++) {
        float tn = -INFINITY, tf = INFINITY;
        bool inside = true;
        for (int i = 0; i < 3; i++) {
            float lo = n->lo[i][c], hi = n->hi[i][c], o = p->r.org[i];
            if (p->zero_axes & (1u << i)) {
                inside = inside && lo <= o && o <= hi;
                continue;
            }
            float t0 = (lo - o) * p->inv[i], t1 = (hi - o) * p->inv[i];
            float near = t1 < t0 ? t1 : t0, far = t0 > t1 ? t0 : t1;
            tn = near > tn ? near : tn;
            tf = far < tf ? far : tf;
        }
        float lo = tn > tmin ? tn : tmin, hi = tf < tmax ? tf : tmax;
        tn_out[c] = tn;
        tf_out[c] = tf;
        if (inside && lo <= hi) mask |= 1u << c;
    }
    return mask;
}
#endif

/* REQ: RT-056 */
unsigned rt_node4w_slab(const rt_ray_pre *p, const rt_node4w *n, float tmin, float tmax,
                        float tn[4], float tf[4])
{
    if (p->nan || nan_f(tmin) || nan_f(tmax) || !n->live) return 0;
    if (!p->slab_scalar) return slab4(p, n, tmin, tmax, tn, tf) & n->live;
    unsigned mask = 0;
    rt_ray r = p->r;
    r.tmin = tmin;
    r.tmax = tmax;
    for (unsigned c = 0; c < 4; c++) {
        if (!(n->live & (1u << c))) continue;
        rt_box b;
        for (int i = 0; i < 3; i++) {
            b.lo[i] = n->lo[i][c];
            b.hi[i] = n->hi[i][c];
        }
        if (box_core(&r, &b, &tn[c], &tf[c])) mask |= 1u << c;
    }
    return mask;
}

/* ---- Watertight triangle test ------------------------------------------------------ */

/* REQ: RT-059 RT-062 RT-065 */
bool rt_tri_test_pre(const rt_ray_pre *p, const float v[3][3], bool cull_back, unsigned eps_code,
                     float *t, float *u, float *v_out)
{
    const rt_ray *r = &p->r;
    if (p->nan || nan_f(r->tmin) || nan_f(r->tmax) || p->dir_zero) return false;
    /* A NaN coordinate needs no test of its own: it makes the vertex's translated and
     * sheared x or y NaN, so two of the three edge functions and det are NaN, and det's
     * test below rejects the triangle (whatever the culling). */
    /* binary64 from here on (errata P-340): a vertex's translated and sheared coordinates
     * depend on the vertex and the ray only, and each edge function is a difference of
     * two products of them, exactly negated when a neighbour evaluates the shared edge
     * the other way round: watertight, with the precision of binary64. */
    int kx = p->kx, ky = p->ky, kz = p->kz;
    double sx = p->dsx, sy = p->dsy, sz = p->dsz;
    const float *o = r->org;
    double a[3], b[3], c[3];
    for (int i = 0; i < 3; i++) {
        a[i] = (double)v[0][i] - (double)o[i];
        b[i] = (double)v[1][i] - (double)o[i];
        c[i] = (double)v[2][i] - (double)o[i];
    }
    double ax = a[kx] - sx * a[kz], ay = a[ky] - sy * a[kz];
    double bx = b[kx] - sx * b[kz], by = b[ky] - sy * b[kz];
    double cx = c[kx] - sx * c[kz], cy = c[ky] - sy * c[kz];

    double eu = cx * by - cy * bx;
    double ev = ax * cy - ay * cx;
    double ew = bx * ay - by * ax;
    bool neg = eu < 0.0 || ev < 0.0 || ew < 0.0;
    bool pos = eu > 0.0 || ev > 0.0 || ew > 0.0;
    if (cull_back ? neg : (neg && pos)) return false;
    double det = eu + ev + ew;
    if (det == 0.0 || det != det) return false;

    double tt = (eu * (sz * a[kz]) + ev * (sz * b[kz]) + ew * (sz * c[kz])) / det;
    float tf = (float)tt; /* rounded once to binary32 (RNE) */
    float eps = rt_eps(eps_code);
    float lo = r->tmin - eps, hi = r->tmax + eps;
    if (!(tf >= lo && tf <= hi)) return false;
    float uu = (float)(ev / det), vv = (float)(ew / det);
    if (nan_f(uu) || nan_f(vv)) return false;
    *t = tf;
    *u = uu;
    *v_out = vv;
    return true;
}

/* REQ: RT-065 */
bool rt_tri_test(const rt_ray *r, const float v[3][3], bool cull_back, unsigned eps_code, float *t,
                 float *u, float *v_out)
{
    int m = rne_enter();
    rt_ray_pre p;
    rt_ray_prepare(r, &p);
    bool hit = rt_tri_test_pre(&p, v, cull_back, eps_code, t, u, v_out);
    rne_leave(m);
    return hit;
}

int rt_rne_enter(void)
{
    return rne_enter();
}

void rt_rne_leave(int mode)
{
    rne_leave(mode);
}

/* ---- BVHNode4 ---------------------------------------------------------------------- */

/* The fields of child c of a BVHNode4 record. */
static uint32_t child_index(const uint8_t bytes[64], unsigned c)
{
    const uint8_t *q = bytes + 48 + 3 * c;
    return (uint32_t)q[0] | (uint32_t)q[1] << 8 | (uint32_t)q[2] << 16;
}
static uint8_t child_kind(const uint8_t bytes[64], unsigned c)
{
    return (uint8_t)((bytes[60] >> (2 * c)) & 3u);
}
/* -DRT_PORTABLE leaves the host's F16C unused as well (rt_host_f16c false), so that
 * ext_rt_kernels_portable checks the portable widening and narrowing the F16C paths must
 * agree with. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(RT_PORTABLE)
#define RT_F16C 1
#include <immintrin.h>
/* widen24 by the host's F16C instruction (vcvtph2ps: exact, independent of the rounding
 * mode; a NaN keeps sign and payload and becomes quiet, as fp16_widen does). */
__attribute__((target("f16c"))) static void widen24_f16c(const uint8_t bytes[64], float f[24])
{
    for (unsigned k = 0; k < 6; k++)
        _mm_storeu_ps(f + 4 * k, _mm_cvtph_ps(_mm_loadl_epi64((const __m128i *)(bytes + 8 * k))));
}
#include <cpuid.h>
/* CPUID.1:ECX bit `feature` (F16C 29, AVX 28) with OSXSAVE[27] and the OS saving SSE and
 * AVX state (XCR0 bits 1 and 2): VEX-encoded instructions need all three. */
static bool probe_vex(unsigned feature)
{
    unsigned a, b, c, d;
    if (!__get_cpuid(1, &a, &b, &c, &d) || !(c & (1u << feature)) || !(c & (1u << 27)))
        return false;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    (void)hi;
    return (lo & 6u) == 6u;
}
#endif

bool rt_host_f16c(void)
{
#if defined(RT_F16C)
    static int known = -1; /* racy but idempotent: every thread stores the same value */
    if (known < 0) known = probe_vex(29) ? 1 : 0;
    return known == 1;
#else
    return false;
#endif
}

/* The same VEX probe, under the same condition: RT_PORTABLE leaves AVX unused too. */
bool rt_host_avx(void)
{
#if defined(RT_F16C)
    static int known = -1; /* as rt_host_f16c's */
    if (known < 0) known = probe_vex(28) ? 1 : 0;
    return known == 1;
#else
    return false;
#endif
}

/* The 24 box coordinates of a tile widened to binary32, in record order (child c: lo xyz,
 * hi xyz at 6c). */
static void widen24(const uint8_t bytes[64], float f[24])
{
#if defined(RT_F16C)
    if (rt_host_f16c()) {
        widen24_f16c(bytes, f);
        return;
    }
#endif
    for (unsigned k = 0; k < 24; k++)
        f[k] = fp16_widen(ld16(bytes + 2 * k));
}
/* Whether one axis of a child box can be hit: no NaN, lo <= hi. */
static bool axis_live(float lo, float hi)
{
    return !nan_f(lo) && !nan_f(hi) && lo <= hi;
}
static bool kind_live(uint8_t kind)
{
    return kind == RT_CHILD_NODE || kind == RT_CHILD_LEAF;
}

/* REQ: RT-033 RT-034 RT-035 */
void rt_node4_decode(const uint8_t bytes[64], rt_node4 *n)
{
    float f[24];
    widen24(bytes, f);
    for (unsigned c = 0; c < 4; c++) {
        for (unsigned i = 0; i < 3; i++) {
            n->box[c].lo[i] = f[6 * c + i];
            n->box[c].hi[i] = f[6 * c + 3 + i];
        }
        n->index[c] = child_index(bytes, c);
        n->kind[c] = child_kind(bytes, c);
    }
}

/* REQ: RT-034 RT-035 */
void rt_node4w_from(const rt_node4 *n, rt_node4w *w)
{
    w->live = 0;
    for (unsigned c = 0; c < 4; c++) {
        bool live = kind_live(n->kind[c]);
        for (unsigned i = 0; i < 3; i++) {
            float lo = n->box[c].lo[i], hi = n->box[c].hi[i];
            w->lo[i][c] = lo;
            w->hi[i][c] = hi;
            live = live && axis_live(lo, hi);
        }
        w->child[c] = n->index[c] << 4 | n->kind[c];
        if (live) w->live |= (uint8_t)(1u << c);
    }
}

/* REQ: RT-034 RT-035 */
void rt_node4w_decode(const uint8_t bytes[64], rt_node4w *w)
{
    /* rt_node4_decode + rt_node4w_from in one pass (the engine's node cache fill). */
    float f[24];
    widen24(bytes, f);
#if defined(__SSE2__) && !defined(RT_PORTABLE)
    /* Child c's six coordinates are f[6c..6c+5]: rows of (lo.xyz, hi.x) and (lo.z, hi.xyz),
     * transposed into the per-axis vectors. An axis is live when lo <= hi by an ordered
     * comparison (false for a NaN on either side): axis_live. */
    __m128 a0 = _mm_loadu_ps(f), a1 = _mm_loadu_ps(f + 6), a2 = _mm_loadu_ps(f + 12);
    __m128 a3 = _mm_loadu_ps(f + 18);
    __m128 b0 = _mm_loadu_ps(f + 2), b1 = _mm_loadu_ps(f + 8), b2 = _mm_loadu_ps(f + 14);
    __m128 b3 = _mm_loadu_ps(f + 20);
    _MM_TRANSPOSE4_PS(a0, a1, a2, a3); /* lo.x, lo.y, lo.z, - */
    _MM_TRANSPOSE4_PS(b0, b1, b2, b3); /* -, hi.x, hi.y, hi.z */
    _mm_store_ps(w->lo[0], a0);
    _mm_store_ps(w->lo[1], a1);
    _mm_store_ps(w->lo[2], a2);
    _mm_store_ps(w->hi[0], b1);
    _mm_store_ps(w->hi[1], b2);
    _mm_store_ps(w->hi[2], b3);
    __m128 ok =
        _mm_and_ps(_mm_and_ps(_mm_cmple_ps(a0, b1), _mm_cmple_ps(a1, b2)), _mm_cmple_ps(a2, b3));
    unsigned live = (unsigned)_mm_movemask_ps(ok);
    /* child_index and child_kind on a little-endian host: child c's index is the low 24
     * bits of the word at byte 48 + 3c (the last one's top byte is the kinds' byte 60);
     * a kind is live when it is 1 (node) or 2 (leaf), kind_live. */
    for (unsigned c = 0; c < 4; c++) {
        uint32_t index, kind = (uint32_t)bytes[60] >> (2 * c) & 3u;
        memcpy(&index, bytes + 48 + 3 * c, 4);
        w->child[c] = (index & 0xFFFFFFu) << 4 | kind;
        live &= ~((unsigned)(kind - 1u > 1u) << c);
    }
    w->live = (uint8_t)live;
#else
    w->live = 0;
    for (unsigned c = 0; c < 4; c++) {
        uint8_t kind = child_kind(bytes, c);
        w->child[c] = child_index(bytes, c) << 4 | kind;
        bool live = kind_live(kind);
        for (unsigned i = 0; i < 3; i++) {
            float lo = f[6 * c + i], hi = f[6 * c + 3 + i];
            w->lo[i][c] = lo;
            w->hi[i][c] = hi;
            live = live && axis_live(lo, hi);
        }
        if (live) w->live |= (uint8_t)(1u << c);
    }
#endif
}

/* ---- rt.bbox over a node tile ------------------------------------------------------ */

/* REQ: RT-035 RT-038 RT-056 */
void rt_bbox_children_pre(const rt_ray_pre *p, const rt_node4w *lo4, const rt_node4w *hi4,
                          float tmin, float tmax, rt_bbox_res *res)
{
    res->hitmask = 0;
    res->nhit = 0;
    res->tnear = res->tfar = 0.0f;
    float tn[8], tf[8];
    unsigned mask = rt_node4w_slab(p, lo4, tmin, tmax, tn, tf);
    if (hi4) mask |= rt_node4w_slab(p, hi4, tmin, tmax, tn + 4, tf + 4) << 4;
    res->hitmask = (uint8_t)mask;
    res->nhit = rt_child_order(mask, tn, res->order);
    for (unsigned j = 0; j < res->nhit; j++) {
        res->tn[j] = tn[res->order[j]];
        res->tf[j] = tf[res->order[j]];
    }
    if (res->nhit) {
        res->tnear = res->tn[0];
        res->tfar = res->tf[0];
    }
}

/* REQ: RT-035 RT-038 RT-056 */
void rt_bbox_children(const rt_ray *r, const rt_node4 *nodes, unsigned nnodes, rt_bbox_res *res)
{
    if (nnodes > 2) nnodes = 2;
    rt_node4w w[2];
    for (unsigned k = 0; k < nnodes; k++)
        rt_node4w_from(&nodes[k], &w[k]);
    int m = rne_enter();
    rt_ray_pre p;
    rt_ray_prepare(r, &p);
    memset(res, 0, sizeof *res);
    rt_bbox_children_pre(&p, &w[0], nnodes == 2 ? &w[1] : NULL, r->tmin, r->tmax, res);
    rne_leave(m);
}
