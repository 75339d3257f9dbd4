/* rt_kernels.h — the one set of XPHMG_RT intersection kernels and record codecs (pure
 * functions; no hart, no CAP state). Used by the instructions rt.bbox/rt.tri (rt_unit)
 * and by the offload engine (rt_job), and by host tools (BVH builder, benches).
 *
 * Numerics (errata ): all arithmetic is IEEE binary32 with round to
 * nearest even, whatever the host's rounding mode; results are converted to the
 * effective format by the caller with the numeric engine (include/xphmg/num.h). Record
 * layouts are those of spec/xphmg.xml (FMT_RAY, FMT_RAY16, FMT_BVHNODE4, FMT_TRIRANGE,
 * FMT_TRIANGLE, FMT_TRIANGLE16, FMT_RT_BBOX_RES, FMT_RT_TRI_RES); decisions in
 * docs/errata.md "## RT". */
#ifndef XPHMG_EXT_RT_KERNELS_H
#define XPHMG_EXT_RT_KERNELS_H

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "xphmg/num.h"

/* A ray in binary32: origin, direction, [tmin, tmax]. */
typedef struct {
    float org[3], dir[3];
    float tmin, tmax;
} rt_ray;

/* An axis-aligned box in binary32 (a child box of a node, widened from binary16). */
typedef struct {
    float lo[3], hi[3];
} rt_box;

/* Element formats of ray records and triangles (errata Q-69): FP32 (4-byte elements)
 * or a 16-bit float (NUM_FP16 / NUM_BF16). */
typedef enum { RT_ELEM_FP32, RT_ELEM_FP16, RT_ELEM_BF16 } rt_elem;
static inline unsigned rt_elem_bytes(rt_elem e)
{
    return e == RT_ELEM_FP32 ? 4u : 2u;
}
/* Bytes of a ray record (32 or 16) and of a triangle (36 or 18). */
static inline unsigned rt_ray_bytes(rt_elem e)
{
    return 8u * rt_elem_bytes(e);
}
static inline unsigned rt_tri_bytes(rt_elem e)
{
    return 9u * rt_elem_bytes(e);
}

/* Decodes a ray record (8 little-endian elements: org.xyz, dir.xyz, tmin, tmax) from
 * bytes; 16-bit elements widen exactly to binary32. Inline, as the offload engine decodes
 * one per ray: on a little-endian host an FP32 record is rt_ray's eight binary32 fields in
 * order; rt_ray_decode_elems decodes every other case element by element. */
void rt_ray_decode_elems(const uint8_t *bytes, rt_elem e, rt_ray *r);
static inline void rt_ray_decode(const uint8_t *bytes, rt_elem e, rt_ray *r)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    _Static_assert(sizeof *r == 32, "rt_ray is eight floats");
    if (e == RT_ELEM_FP32) {
        memcpy(r, bytes, 32);
        return;
    }
#endif
    rt_ray_decode_elems(bytes, e, r);
}
/* Decodes a triangle (v0.xyz, v1.xyz, v2.xyz) into v[3][3]. */
void rt_tri_decode(const uint8_t *bytes, rt_elem e, float v[3][3]);

/* Slab test (errata Q-75): t-interval of the ray against b, tnear <= tfar; the child is
 * hit iff max(tnear, tmin) <= min(tfar, tmax), boundaries inclusive. Direction
 * components of 0 use +-inf reciprocals; any NaN (ray or box) is a miss; a box with
 * lo > hi on any axis (an empty child) is a miss. *tnear, *tfar are the raw slab values
 * (not clamped to [tmin, tmax]) of a hit. Raises no flags. */
bool rt_box_test(const rt_ray *r, const rt_box *b, float *tnear, float *tfar);

/* Watertight ray/triangle test of Woop, Benthin and Wald (JCGT 2013) in binary32
 * (errata Q-74): front faces are counter-clockwise seen from the ray origin; cull_back
 * discards clockwise hits; det = 0 is a miss; eps_code e (0 = none) widens the
 * accepted t range to [tmin - 2^-e, tmax + 2^-e]. On a hit: *t, and the barycentrics
 * (u, v) with hit point = (1-u-v) v0 + u v1 + v v2. */
bool rt_tri_test(const rt_ray *r, const float v[3][3], bool cull_back, unsigned eps_code, float *t,
                 float *u, float *v_out);
/* The tolerance 2^-e of eps_code e (its low 8 bits; 0 = none: 0.0f), in binary32 (RNE):
 * normal for e <= 126, subnormal to e = 149, 0 beyond (2^-150 is the tie between 0 and
 * 2^-149 and rounds to the even 0). Inline: the offload engine asks for it once per ray. */
/* REQ: RT-014 RT-062 RT-073 */
static inline float rt_eps(unsigned eps_code)
{
    unsigned e = eps_code & 0xffu;
    uint32_t bits = e == 0 ? 0u : e <= 126 ? (127u - e) << 23 : e <= 149 ? 1u << (149u - e) : 0u;
    float x;
    memcpy(&x, &bits, sizeof x);
    return x;
}

/* BVHNode4 (errata Q-67): 64 bytes; four children with binary16 boxes, 24-bit child
 * indices (16-byte units from the BVH base) and 2-bit kinds. */
enum { RT_CHILD_EMPTY = 0, RT_CHILD_NODE = 1, RT_CHILD_LEAF = 2 }; /* 3 reads as empty */
typedef struct {
    rt_box box[4];
    uint32_t index[4];
    uint8_t kind[4];
} rt_node4;
void rt_node4_decode(const uint8_t bytes[64], rt_node4 *n);
/* Encodes a node (for the BVH builder and tests): boxes rounded outward to binary16
 * (lo down, hi up) so they stay conservative; false if a coordinate does not fit
 * binary16 or an index does not fit 24 bits. */
bool rt_node4_encode(const rt_node4 *n, uint8_t bytes[64]);

/* rt.bbox over the children of nnodes consecutive Node4 tiles (1 = Node4, 2 = Node8):
 * hit mask (bit = child number 0-7), hit children sorted by tnear (ties: lower child),
 * and the nearest hit child's raw tnear/tfar (errata ). */
typedef struct {
    uint8_t hitmask;
    uint8_t order[8]; /* order[0..nhit-1] */
    unsigned nhit;
    float tnear, tfar;  /* of order[0]; meaningful when nhit > 0 */
    float tn[8], tf[8]; /* tnear/tfar of order[0..nhit-1] */
} rt_bbox_res;
void rt_bbox_children(const rt_ray *r, const rt_node4 *nodes, unsigned nnodes, rt_bbox_res *res);

/* ---- The fast path of the offload engine (and the base of the functions above) ------
 *
 * The functions below assume the host rounding mode is already round-to-nearest-even:
 * a caller brackets a batch of them with rt_rne_enter()/rt_rne_leave(). They compute the
 * same bits as rt_box_test/rt_tri_test/rt_bbox_children (which are built on them). */
int rt_rne_enter(void);
void rt_rne_leave(int mode);

/* Whether the host has F16C (x86-64, with the OS saving AVX state): the node decoders and
 * the node encoder convert binary16 with it, bit for bit as without. */
bool rt_host_f16c(void);
/* Whether the host has AVX (x86-64, with the OS saving AVX state): the leaf loop
 * (rt_leaf.c) tests four triangles at a time with it, bit for bit as one at a time. */
bool rt_host_avx(void);

/* Exact binary16 -> binary32 widening by bit manipulation; a NaN keeps its sign and
 * payload and becomes quiet, as in the numeric engine's conversion. */
float rt_fp16_widen(uint32_t h);

/* A ray with what every box and triangle test of it shares: reciprocal directions, the
 * axes with a zero direction, and the shear of the watertight test (kx, ky, kz, sx, sy,
 * sz). */
typedef struct {
    rt_ray r;
    bool nan;         /* a NaN in org or dir: every test misses */
    bool slab_scalar; /* an infinite origin/direction or an overflowing reciprocal */
    bool dir_zero;    /* dir = 0: every triangle misses */
    /* The sign form of the slab test (rt_slab4_sign_sse) applies to every box test of the
     * ray: no NaN in org, dir, tmin or tmax, no slab_scalar, no zero direction component
     * (so every inv[i] is finite and non-zero, and its sign bit is inv[i] < 0). */
    bool slab_sign;
    uint8_t zero_axes; /* bit i: dir[i] == 0 */
    uint8_t kx, ky, kz;
    float inv[4];         /* inv[3]: unused (rt_ray_prepare stores four lanes at once) */
    double dsx, dsy, dsz; /* the shear, binary64 (errata P-340) */
    /* org, inv and -inv, each broadcast to 4 lanes: what a traversal's slab tests read from
     * here at every visit (its calls would make it keep copies on its stack anyway) */
    _Alignas(16) float org4[3][4], inv4[3][4], ninv4[3][4];
    /* rt_slab4_sign_sse's plane offsets for axis i by the sign bit of inv[i]: near[i] = 4i
     * (lo[i]) and far[i] = 12 + 4i (hi[i]) when it is clear, the other way round when set */
    unsigned near[3], far[3];
} rt_ray_pre;
void rt_ray_prepare(const rt_ray *r, rt_ray_pre *p);
/* rt_ray_prepare in two steps, both from p->r, for a caller that may not test any triangle
 * with the ray (the offload engine's rays that reach no leaf): rt_ray_prepare_slab writes
 * what the slab tests read (nan, slab_scalar, slab_sign, zero_axes, inv, org4, inv4, ninv4,
 * near, far),
 * rt_ray_prepare_shear what the triangle tests read (kx, ky, kz, dir_zero, dsx, dsy,
 * dsz). */
void rt_ray_prepare_slab(rt_ray_pre *p);
void rt_ray_prepare_shear(rt_ray_pre *p);

/* A decoded node tile laid out for the 4-wide slab test: per axis the four children's
 * bounds; child c's index and kind as index << 4 | kind (the offset of its record from the
 * BVH base, 16 * index, with the kind in the low bits: what a traversal pushes); live bit
 * c = child c can be hit (kind node or leaf, no NaN, lo <= hi). */
typedef struct {
    _Alignas(64) float lo[3][4]; /* 128 bytes in all, two cache lines (the engine's cache) */
    float hi[3][4];
    uint32_t child[4];
    uint8_t live;
    /* Not written by the decoders: the tag of a cache holding the decoded tile (the offload
     * engine's node cache keeps the tile address and its generation here, so that a visit
     * reads the tag from the lines it reads anyway). */
    uint32_t cache_gen;
    uint64_t cache_addr;
} rt_node4w;
#define RT_NODE4W_KIND_MASK 15u /* child[c] & this: the kind; & ~this: 16 * index */
void rt_node4w_decode(const uint8_t bytes[64], rt_node4w *w);
void rt_node4w_from(const rt_node4 *n, rt_node4w *w);
/* Slab test of the four children against [tmin, tmax]: the mask of hit children, with
 * their raw tnear/tfar in tn[c]/tf[c]. */
unsigned rt_node4w_slab(const rt_ray_pre *p, const rt_node4w *n, float tmin, float tmax,
                        float tn[4], float tf[4]);
#if defined(__SSE2__)
#include <emmintrin.h>
/* The slab planes of four children at once, the vector path of rt_node4w_slab for a ray
 * with neither nan nor slab_scalar, tmin and tmax not NaN: for such a ray no operation
 * can make a NaN (finite origin, finite non-zero reciprocal, box coordinates finite or
 * infinite but not NaN: live children only), so box_core's steps reduce to subtract,
 * multiply, min and max. The mask still has to be ANDed with n->live. Intrinsics only
 * (no contraction into fused operations is possible). rt_slab4_sse takes the ray's
 * origin and reciprocals already broadcast (o[i], inv[i]: axis i in all four lanes), its
 * zero_axes and the range in all four lanes, so that a traversal keeps them in registers. */
static inline unsigned rt_slab4_sse(const __m128 o[3], const __m128 inv[3], unsigned zero_axes,
                                    const rt_node4w *n, __m128 tmin, __m128 tmax, float tn_out[4],
                                    float tf_out[4])
{
    __m128 tn = _mm_set1_ps(-__builtin_inff()), tf = _mm_set1_ps(__builtin_inff());
    __m128 inside = _mm_castsi128_ps(_mm_set1_epi32(-1));
#pragma GCC unroll 3
    for (int i = 0; i < 3; i++) {
        __m128 lo = _mm_load_ps(n->lo[i]), hi = _mm_load_ps(n->hi[i]);
        if (zero_axes & (1u << i)) {
            inside = _mm_and_ps(inside, _mm_and_ps(_mm_cmple_ps(lo, o[i]), _mm_cmple_ps(o[i], hi)));
            continue;
        }
        __m128 t0 = _mm_mul_ps(_mm_sub_ps(lo, o[i]), inv[i]);
        __m128 t1 = _mm_mul_ps(_mm_sub_ps(hi, o[i]), inv[i]);
        tn = _mm_max_ps(_mm_min_ps(t1, t0), tn);
        tf = _mm_min_ps(_mm_max_ps(t0, t1), tf);
    }
    __m128 lo = _mm_max_ps(tn, tmin), hi = _mm_min_ps(tf, tmax);
    _mm_storeu_ps(tn_out, tn);
    _mm_storeu_ps(tf_out, tf);
    return (unsigned)_mm_movemask_ps(_mm_and_ps(inside, _mm_cmple_ps(lo, hi)));
}
/* rt_slab4_sse for a ray without a zero direction component (zero_axes 0), with the same
 * mask and the same tn/tf values (a zero's sign aside): a plane's distance (p - o) * inv
 * is monotonic in p (RNE rounding is), so on a live child (lo <= hi) the near plane of
 * axis i is lo when inv[i] > 0 and hi when inv[i] < 0, and its distance is what min(t0,
 * t1) picks (equal values; they can differ only as +0 and -0, which every later
 * comparison treats alike). near[i] and far[i] are the float offsets in n of the near and
 * far planes' vectors (4i for lo[i], 12 + 4i for hi[i]), fixed for the ray: no per-axis
 * min and max. The distance is taken as (o - p) * ninv with ninv = -inv: under RNE
 * rounding is symmetric and negation exact, so that is the value of (p - o) * inv (again
 * a zero's sign aside), and the plane, the operand that varies, is the subtrahend, which
 * an instruction can read from memory. */
static inline unsigned rt_slab4_sign_sse(const __m128 o[3], const __m128 ninv[3],
                                         const unsigned near[3], const unsigned far[3],
                                         const rt_node4w *n, __m128 tmin, __m128 tmax,
                                         float tn_out[4], float tf_out[4])
{
    const float *b = n->lo[0];
    __m128 n0 = _mm_mul_ps(_mm_sub_ps(o[0], _mm_load_ps(b + near[0])), ninv[0]);
    __m128 n1 = _mm_mul_ps(_mm_sub_ps(o[1], _mm_load_ps(b + near[1])), ninv[1]);
    __m128 n2 = _mm_mul_ps(_mm_sub_ps(o[2], _mm_load_ps(b + near[2])), ninv[2]);
    __m128 f0 = _mm_mul_ps(_mm_sub_ps(o[0], _mm_load_ps(b + far[0])), ninv[0]);
    __m128 f1 = _mm_mul_ps(_mm_sub_ps(o[1], _mm_load_ps(b + far[1])), ninv[1]);
    __m128 f2 = _mm_mul_ps(_mm_sub_ps(o[2], _mm_load_ps(b + far[2])), ninv[2]);
    __m128 tn = _mm_max_ps(_mm_max_ps(n0, n1), n2), tf = _mm_min_ps(_mm_min_ps(f0, f1), f2);
    _mm_storeu_ps(tn_out, tn);
    _mm_storeu_ps(tf_out, tf);
    return (unsigned)_mm_movemask_ps(_mm_cmple_ps(_mm_max_ps(tn, tmin), _mm_min_ps(tf, tmax)));
}
/* The same for a prepared ray (its broadcast origin and reciprocals). */
static inline unsigned rt_node4w_slab_sse(const rt_ray_pre *p, const rt_node4w *n, float tmin,
                                          float tmax, float tn_out[4], float tf_out[4])
{
    __m128 o[3], inv[3];
    for (int i = 0; i < 3; i++) {
        o[i] = _mm_load_ps(p->org4[i]);
        inv[i] = _mm_load_ps(p->inv4[i]);
    }
    return rt_slab4_sse(o, inv, p->zero_axes, n, _mm_set1_ps(tmin), _mm_set1_ps(tmax), tn_out,
                        tf_out);
}
#endif

/* rt_bbox_children for a prepared ray over a decoded tile lo4 (children 0-3) and, for a
 * Node8, hi4 (children 4-7; NULL for a Node4), the ray's range [tmin, tmax]. Only the
 * fields up to nhit entries of order/tn/tf are written. */
void rt_bbox_children_pre(const rt_ray_pre *p, const rt_node4w *lo4, const rt_node4w *hi4,
                          float tmin, float tmax, rt_bbox_res *res);
/* The visiting order of the hit children (bit c of mask, tnear tn[c]): increasing tnear,
 * ties to the lower child (rt.bbox's order, errata Q-72). Writes order[0..n-1], returns n. */
static inline unsigned rt_child_order(unsigned mask, const float *tn, uint8_t *order)
{
    if (mask && !(mask & (mask - 1))) { /* one child (the common case) */
        order[0] = (uint8_t)__builtin_ctz(mask);
        return 1;
    }
    unsigned rest = mask & (mask - 1);
    if (rest && !(rest & (rest - 1))) { /* two: the one comparison the loop below makes */
        unsigned c0 = (unsigned)__builtin_ctz(mask), c1 = (unsigned)__builtin_ctz(rest);
        bool swap = tn[c0] > tn[c1];
        order[0] = (uint8_t)(swap ? c1 : c0);
        order[1] = (uint8_t)(swap ? c0 : c1);
        return 2;
    }
    unsigned n = 0;
    for (unsigned c = 0; mask; c++, mask >>= 1) {
        if (!(mask & 1u)) continue;
        unsigned j = n++;
        while (j > 0 && tn[order[j - 1]] > tn[c]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = (uint8_t)c;
    }
    return n;
}
#if defined(__SSE2__)
/* One step of rt_child_order4_sse: lanes of t whose child comes after the child in the
 * same lane of o (rotated t: another child, hit when oh), nearer or as near with a lower
 * index (lower: the lanes where o's child has the lower index), as -1. */
static inline __m128i rt_child_rank_step(__m128 t, __m128 o, __m128i oh, __m128i lower)
{
    __m128 before =
        _mm_or_ps(_mm_cmplt_ps(o, t), _mm_and_ps(_mm_cmpeq_ps(o, t), _mm_castsi128_ps(lower)));
    return _mm_and_si128(_mm_castps_si128(before), oh);
}
/* rt_child_order for the four children of one tile when no hit child's tnear is NaN (the
 * rays of the vector slab test): a hit child's place is the number of hit children before
 * it (nearer, or as near with a lower index), counted for the four at once against the
 * three others (the tile's tnear rotated by one, two and three lanes). The same order as
 * the insertion of rt_child_order, which moves a child before another only when strictly
 * nearer. */
static inline unsigned rt_child_order4_sse(unsigned mask, const float tn[4], uint8_t order[4])
{
    const __m128i bit = _mm_setr_epi32(1, 2, 4, 8);
    __m128 t = _mm_loadu_ps(tn);
    __m128i hit = _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32((int)mask), bit), bit);
    /* rotation by r: lane i meets child (i + r) & 3, which has the lower index when
     * i >= 4 - r */
    __m128i rank = _mm_sub_epi32(
        _mm_setzero_si128(), rt_child_rank_step(t, _mm_shuffle_ps(t, t, _MM_SHUFFLE(0, 3, 2, 1)),
                                                _mm_shuffle_epi32(hit, _MM_SHUFFLE(0, 3, 2, 1)),
                                                _mm_setr_epi32(0, 0, 0, -1)));
    rank = _mm_sub_epi32(rank, rt_child_rank_step(t, _mm_shuffle_ps(t, t, _MM_SHUFFLE(1, 0, 3, 2)),
                                                  _mm_shuffle_epi32(hit, _MM_SHUFFLE(1, 0, 3, 2)),
                                                  _mm_setr_epi32(0, 0, -1, -1)));
    rank = _mm_sub_epi32(rank, rt_child_rank_step(t, _mm_shuffle_ps(t, t, _MM_SHUFFLE(2, 1, 0, 3)),
                                                  _mm_shuffle_epi32(hit, _MM_SHUFFLE(2, 1, 0, 3)),
                                                  _mm_setr_epi32(0, -1, -1, -1)));
    /* the four ranks (0..3) as the bytes of one word */
    uint32_t r = (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(_mm_packs_epi32(rank, rank), rank));
    unsigned n = 0;
    for (unsigned m = mask & 15u; m; m &= m - 1, n++) {
        unsigned c = (unsigned)__builtin_ctz(m);
        order[(r >> (8 * c)) & 3u] = (uint8_t)c;
    }
    return n;
}
#endif
/* rt_tri_test for a prepared ray (the range is p->r.tmin, p->r.tmax). */
bool rt_tri_test_pre(const rt_ray_pre *p, const float v[3][3], bool cull_back, unsigned eps_code,
                     float *t, float *u, float *v_out);

/* The element format of ray records and triangles for effective PET code eff_pet (the
 * unified type code of CAP.PREC.STAT.EFF_PET: FP16 0, FP32 1, BF16 2) and EFF_Q (errata
 * true with *e for FP32/FP16/BF16 without quantization; false with *e = FP32 for
 * anything else (the caller then reports UNSUP_FMT through cap_note_unsupported()). */
bool rt_elem_from_pet(unsigned eff_pet, bool q, rt_elem *e);
/* rt_result_encode through the numeric engine, for every value and format. */
uint32_t rt_result_convert(float x, rt_elem e, const num_policy *pol, num_flags *f);
/* Rounds a binary32 result once to e under pol (its rounding mode and policy, errata
 * Q-76), ORs the flags into *f (DOWNCAST_TAKEN whenever e is narrower than FP32, as the
 * numeric engine does for every narrowing conversion) and returns the bits, zero-extended
 * to 32. Inline, as the offload engine encodes three values per hit: FP32 to FP32 of a
 * normal number, a zero or an infinity is the identity without flags under every policy
 * (only subnormals and NaNs depend on it; test_result_encode_fp32 compares with
 * rt_result_convert's numeric engine). */
static inline uint32_t rt_result_encode(float x, rt_elem e, const num_policy *pol, num_flags *f)
{
    uint32_t b, ex;
    memcpy(&b, &x, sizeof b);
    ex = b & 0x7f800000u;
    if (e == RT_ELEM_FP32 && ((ex != 0 && ex != 0x7f800000u) || (b & 0x7fffffu) == 0)) return b;
    return rt_result_convert(x, e, pol, f);
}

/* TriRange (FMT_TRIRANGE, 16 bytes): first triangle, count, buffer base address. */
typedef struct {
    uint32_t first, count;
    uint64_t base;
} rt_trirange;
void rt_trirange_decode(const uint8_t bytes[16], rt_trirange *tr);

#endif
