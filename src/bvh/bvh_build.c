/* bvh_build.c — 4-wide binned-SAH BVH builder emitting XBVH blobs (include/xphmg/bvh.h).
 *
 * Construction: a node starts as one segment of triangles; the segment with the largest
 * box surface area among those with more than BVH_MAX_LEAF triangles is split in two
 * (binned SAH over 4 + count/16 centroid bins, at most 32, on each axis, cost
 * area(L)*nL + area(R)*nR; equal centroids: halves by order) until the node has 4
 * segments or none can be split. Segments of at most BVH_MAX_LEAF triangles become leaves
 * (a TriRange), the others child nodes, numbered in depth-first preorder (root = node 0).
 * Below SAH_DEPTH node levels the splits are object medians, which halve every segment, so
 * the depth stays below BVH_MAX_DEPTH for any input (BVH_MAX_TRIS triangles: 32 + 21
 * levels).
 *
 * Boxes: the binary32 union of the child's triangles, widened by pad = M * 2^-14 (M = the
 * largest coordinate magnitude of the scene; 2^-24 for an all-zero scene) and then
 * rounded outward to binary16 by rt_node4_encode. Without the widening a box face lying
 * exactly on a binary16 value (integer coordinates) would be hit only up to the
 * rounding of the slab arithmetic, and a ray grazing it could miss the box although the
 * watertight triangle test accepts the hit. The widening is clamped to +-65504.
 *
 * Passes (the build is timed against Embree's, bench/rt): one pass reads the input,
 * checks it and makes the triangles' boxes, each carrying its input index in a spare lane,
 * so the partitions move one 32-byte record and there is no indirection. A split reads
 * its segment twice: one pass bins it on all three axes (and notes each triangle's bins),
 * then an in-place partition by the noted bin computes both parts' centroid bounds; their
 * boxes are unions of bins. The SAH sweep handles the three axes at once. Nothing is
 * allocated per node or split: the node and TriRange arrays grow by doubling. The box
 * arithmetic runs with SSE where the host has it, with the results of the scalar forms
 * bit for bit (test bvh_portable builds both).
 *
 * Determinism: only IEEE basic operations on binary32 (no contraction, this file is
 * built with -ffp-contract=off), deterministic partitioning and numbering. */
#include "xphmg/bvh.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_kernels.h"

/* Bins per axis of a split: 4 + count / BIN_DIV, at most BIN_MAX (Embree's rule too):
 * a small segment gains little from fine bins, and the fixed cost of a split (clearing
 * and sweeping the bins) dominates there; a large one gets more bins than the 16 of
 * before for free, since binning costs the same per triangle whatever the bin count. */
#define BIN_MAX   32u
#define BIN_DIV   16u
#define SAH_DEPTH 32u
/* Segments of at least this many triangles are binned into two sets of bins (bin_prims). */
#define TWO_SETS_MIN 64u

/* A box with a fourth lane, so that the SSE helpers below handle x, y, z at once. In a
 * triangle's box (a "prim") lane 3 of lo and hi holds its input index as the bits of a
 * normal binary32 number (ID_BIAS + index: no NaN, infinity or subnormal, so the lane
 * costs nothing in the arithmetic and the index moves with the box in the partitions);
 * in every other box lane 3 is a don't-care that no result reads. */
typedef struct {
    float lo[4], hi[4];
} box3;

#define ID_BIAS 0x40000000u /* 2.0f; + index < 2^26 stays below 512.0f */

typedef struct {
    rt_node4 n;
    unsigned nkids;
} bnode;

typedef struct {
    uint32_t first, count;
} brange;

/* A segment of the prims being placed, with its box and the bounds of its centroids.
 * Centroids are lo + hi (twice the midpoint: the factor changes no bin and saves a
 * multiplication per triangle and pass). */
typedef struct {
    uint32_t start, count;
    box3 box, cb;
    float area;
} seg;

typedef struct {
    const float (*tris)[9];
    box3 *prim;        /* per triangle in placement order, with its input index */
    uint8_t (*bin)[4]; /* per position: its prim's bins on the three axes in the last binning */
    bnode *nodes;
    size_t nnodes, capnodes;
    brange *ranges;
    size_t nranges, capranges;
    float pad;
    char *err;
    size_t errlen;
} builder;

/* The bins of one split, [axis][bin]: a bin's address is a shift and a constant. */
typedef struct {
    box3 box[3][BIN_MAX];
    int32_t cnt[3][BIN_MAX];
} bins;

static void seterr(char *err, size_t len, const char *fmt, ...)
{
    if (!err || !len) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, len, fmt, ap);
    va_end(ap);
}

static box3 box_empty(void)
{
    box3 b;
    for (int i = 0; i < 4; i++) {
        b.lo[i] = INFINITY;
        b.hi[i] = -INFINITY;
    }
    return b;
}

static uint32_t prim_id(const box3 *p)
{
    uint32_t u;
    memcpy(&u, &p->lo[3], 4);
    return u - ID_BIAS;
}

static unsigned bin_count(uint32_t count)
{
    uint32_t nb = 4u + count / BIN_DIV;
    return nb < BIN_MAX ? (unsigned)nb : BIN_MAX;
}

/* Empties the first nb bins of each axis. */
static void bins_clear(bins *bn, unsigned nb)
{
    const box3 e = box_empty();
    for (int a = 0; a < 3; a++)
        for (unsigned b = 0; b < nb; b++)
            bn->box[a][b] = e;
    memset(bn->cnt, 0, sizeof bn->cnt); /* a constant size: stores inline, no call */
}

/* The split chosen by the SAH sweep: axis < 0 when no split leaves both sides non-empty
 * (all centroids equal). */
typedef struct {
    int axis;
    unsigned split; /* bins [0, split) go left */
} split_choice;

#if defined(__SSE2__)
#include <emmintrin.h>
/* _mm_min_ps(o, b) / _mm_max_ps(o, b) are exactly "o < b ? o : b" / "o > b ? o : b". */
static void box_grow(box3 *b, const box3 *o)
{
    _mm_storeu_ps(b->lo, _mm_min_ps(_mm_loadu_ps(o->lo), _mm_loadu_ps(b->lo)));
    _mm_storeu_ps(b->hi, _mm_max_ps(_mm_loadu_ps(o->hi), _mm_loadu_ps(b->hi)));
}

/* Grows centroid bounds by the centroid (lo + hi) of prim p. */
static void cent_grow(box3 *cb, const box3 *p)
{
    __m128 c = _mm_add_ps(_mm_loadu_ps(p->lo), _mm_loadu_ps(p->hi));
    _mm_storeu_ps(cb->lo, _mm_min_ps(c, _mm_loadu_ps(cb->lo)));
    _mm_storeu_ps(cb->hi, _mm_max_ps(c, _mm_loadu_ps(cb->hi)));
}

static float box_area(const box3 *b)
{
    __m128 d = _mm_sub_ps(_mm_loadu_ps(b->hi), _mm_loadu_ps(b->lo));
    if ((_mm_movemask_ps(_mm_cmpge_ps(d, _mm_setzero_ps())) & 7) != 7) return 0.0f;
    float x[4];
    _mm_storeu_ps(x, d);
    return x[0] * x[1] + x[1] * x[2] + x[2] * x[0];
}

/* The box and centroid bounds of n prims. */
static void prims_bounds(const box3 *p, uint32_t n, box3 *box, box3 *cb)
{
    __m128 bl = _mm_set1_ps(INFINITY), bh = _mm_set1_ps(-INFINITY), cl = bl, ch = bh;
    for (uint32_t i = 0; i < n; i++) {
        __m128 lo = _mm_loadu_ps(p[i].lo), hi = _mm_loadu_ps(p[i].hi), c = _mm_add_ps(lo, hi);
        bl = _mm_min_ps(lo, bl);
        bh = _mm_max_ps(hi, bh);
        cl = _mm_min_ps(c, cl);
        ch = _mm_max_ps(c, ch);
    }
    _mm_storeu_ps(box->lo, bl);
    _mm_storeu_ps(box->hi, bh);
    _mm_storeu_ps(cb->lo, cl);
    _mm_storeu_ps(cb->hi, ch);
}

static void bin_add(box3 *d, __m128 lo, __m128 hi)
{
    _mm_storeu_ps(d->lo, _mm_min_ps(lo, _mm_loadu_ps(d->lo)));
    _mm_storeu_ps(d->hi, _mm_max_ps(hi, _mm_loadu_ps(d->hi)));
}

/* Bins prim pr on all three axes; out gets its bins. Inline: a call per triangle and pass
 * would cost more than the binning's own instructions. */
static inline __attribute__((always_inline)) void bin_one(bins *bn, const box3 *pr, __m128 lo,
                                                          __m128 sc, __m128 mx, uint8_t *out)
{
    __m128 pl = _mm_loadu_ps(pr->lo), ph = _mm_loadu_ps(pr->hi);
    __m128 f = _mm_mul_ps(_mm_sub_ps(_mm_add_ps(pl, ph), lo), sc);
    f = _mm_min_ps(_mm_max_ps(f, _mm_setzero_ps()), mx);
    __m128i k = _mm_cvttps_epi32(f);
    k = _mm_packus_epi16(_mm_packs_epi32(k, k), k);
    uint32_t k4 = (uint32_t)_mm_cvtsi128_si32(k);
    memcpy(out, &k4, 4);
    bin_add(&bn->box[0][k4 & 0xffu], pl, ph);
    bin_add(&bn->box[1][(k4 >> 8) & 0xffu], pl, ph);
    bin_add(&bn->box[2][(k4 >> 16) & 0xffu], pl, ph);
    bn->cnt[0][k4 & 0xffu]++;
    bn->cnt[1][(k4 >> 8) & 0xffu]++;
    bn->cnt[2][(k4 >> 16) & 0xffu]++;
}

/* Counts and boxes of the n prims per bin on all three axes (bn cleared for nb bins); pbin[i]
 * gets prim i's bins. Neighbouring triangles of a mesh mostly fall into the same bins, and
 * each update of a bin waits for the store of the one before; so a large segment is binned
 * into two sets, even and odd prims, merged at the end (min/max and counts: the same bins
 * whatever the order). This costs no more instructions and 10-15% less time on meshes. */
static void bin_prims(const box3 *p, uint32_t n, const box3 *cb, const float scale[4], float maxb,
                      unsigned nb, bins *bn, uint8_t (*pbin)[4])
{
    const __m128 lo = _mm_loadu_ps(cb->lo), sc = _mm_loadu_ps(scale), mx = _mm_set1_ps(maxb);
    if (n < TWO_SETS_MIN) {
        for (uint32_t i = 0; i < n; i++)
            bin_one(bn, &p[i], lo, sc, mx, pbin[i]);
        return;
    }
    bins odd;
    bins_clear(&odd, nb);
    uint32_t i = 0;
    for (; i + 1 < n; i += 2) {
        bin_one(bn, &p[i], lo, sc, mx, pbin[i]);
        bin_one(&odd, &p[i + 1], lo, sc, mx, pbin[i + 1]);
    }
    if (i < n) bin_one(bn, &p[i], lo, sc, mx, pbin[i]);
    for (int a = 0; a < 3; a++)
        for (unsigned b = 0; b < nb; b++) {
            box_grow(&bn->box[a][b], &odd.box[a][b]);
            bn->cnt[a][b] += odd.cnt[a][b];
        }
}

/* Surface areas (without the factor 2) of three boxes, one per lane: lane a =
 * x*y + y*z + z*x of box a's extents, the scalar form's operations in its order. The
 * boxes are non-empty (the sweep reads an area only where its count is not 0). */
static __m128 area3(const __m128 lo[3], const __m128 hi[3])
{
    __m128 d0 = _mm_sub_ps(hi[0], lo[0]), d1 = _mm_sub_ps(hi[1], lo[1]),
           d2 = _mm_sub_ps(hi[2], lo[2]), d3 = _mm_setzero_ps();
    _MM_TRANSPOSE4_PS(d0, d1, d2, d3); /* d0 = the x extents of boxes 0..2, d1 y, d2 z */
    return _mm_add_ps(_mm_add_ps(_mm_mul_ps(d0, d1), _mm_mul_ps(d1, d2)), _mm_mul_ps(d2, d0));
}

static __m128i cnt3(const bins *bn, unsigned b)
{
    return _mm_set_epi32(0, bn->cnt[2][b], bn->cnt[1][b], bn->cnt[0][b]);
}

/* The SAH sweep over the nb bins, all three axes at once (lane = axis): cost of the
 * split before bin b = area(bins < b) * n(< b) + area(bins >= b) * n(>= b); the least
 * cost wins, ties to the lowest axis and then the lowest b. */
static split_choice best_split(const bins *bn, unsigned nb)
{
    __m128 rarea[BIN_MAX];
    __m128i rcnt[BIN_MAX];
    __m128 lo[3], hi[3];
    __m128i n = _mm_setzero_si128(), zero = _mm_setzero_si128();
    for (int a = 0; a < 3; a++) {
        lo[a] = _mm_set1_ps(INFINITY);
        hi[a] = _mm_set1_ps(-INFINITY);
    }
    for (unsigned b = nb - 1; b > 0; b--) {
        for (int a = 0; a < 3; a++) {
            lo[a] = _mm_min_ps(_mm_loadu_ps(bn->box[a][b].lo), lo[a]);
            hi[a] = _mm_max_ps(_mm_loadu_ps(bn->box[a][b].hi), hi[a]);
        }
        n = _mm_add_epi32(n, cnt3(bn, b));
        rcnt[b] = n;
        rarea[b] = area3(lo, hi);
    }
    for (int a = 0; a < 3; a++) {
        lo[a] = _mm_set1_ps(INFINITY);
        hi[a] = _mm_set1_ps(-INFINITY);
    }
    n = zero;
    __m128 best = _mm_set1_ps(INFINITY);
    __m128i bestpos = zero;
    for (unsigned b = 0; b + 1 < nb; b++) {
        for (int a = 0; a < 3; a++) {
            lo[a] = _mm_min_ps(_mm_loadu_ps(bn->box[a][b].lo), lo[a]);
            hi[a] = _mm_max_ps(_mm_loadu_ps(bn->box[a][b].hi), hi[a]);
        }
        n = _mm_add_epi32(n, cnt3(bn, b));
        __m128 cost = _mm_add_ps(_mm_mul_ps(area3(lo, hi), _mm_cvtepi32_ps(n)),
                                 _mm_mul_ps(rarea[b + 1], _mm_cvtepi32_ps(rcnt[b + 1])));
        __m128i ok = _mm_and_si128(_mm_cmpgt_epi32(n, zero), _mm_cmpgt_epi32(rcnt[b + 1], zero));
        __m128i take = _mm_and_si128(ok, _mm_castps_si128(_mm_cmplt_ps(cost, best)));
        best = _mm_or_ps(_mm_and_ps(_mm_castsi128_ps(take), cost),
                         _mm_andnot_ps(_mm_castsi128_ps(take), best));
        bestpos = _mm_or_si128(_mm_and_si128(take, _mm_set1_epi32((int)b + 1)),
                               _mm_andnot_si128(take, bestpos));
    }
    float bc[4];
    int32_t bp[4];
    _mm_storeu_ps(bc, best);
    _mm_storeu_si128((__m128i *)bp, bestpos);
    split_choice ch = {-1, 0};
    float c = INFINITY;
    for (int a = 0; a < 3; a++)
        if (bc[a] < c) {
            c = bc[a];
            ch = (split_choice){a, (unsigned)bp[a]};
        }
    return ch;
}
#else
/* The scalar forms of the SSE functions above, with their results bit for bit (so the
 * blob does not depend on the host). The bin of centroid c: f = (c - lo) * scale clamped
 * to [0, maxb] (a NaN f, from a tiny extent whose scale overflowed, gives 0), truncated;
 * bin_prims' SSE form computes exactly this lane by lane: _mm_max_ps(f, 0) is "f > 0 ? f : 0" and
 * _mm_min_ps(f, m) "f < m ? f : m". Clamping before converting also keeps the conversion defined.
 */
static int bin_of(float c, float lo, float scale, float maxb)
{
    float f = (c - lo) * scale;
    f = f > 0.0f ? f : 0.0f;
    f = f < maxb ? f : maxb;
    return (int)f;
}

static void box_grow(box3 *b, const box3 *o)
{
    for (int i = 0; i < 4; i++) {
        b->lo[i] = o->lo[i] < b->lo[i] ? o->lo[i] : b->lo[i];
        b->hi[i] = o->hi[i] > b->hi[i] ? o->hi[i] : b->hi[i];
    }
}

static void cent_grow(box3 *cb, const box3 *p)
{
    box3 c;
    for (int k = 0; k < 4; k++)
        c.lo[k] = c.hi[k] = p->lo[k] + p->hi[k];
    box_grow(cb, &c);
}

static float box_area(const box3 *b)
{
    float d[3];
    for (int i = 0; i < 3; i++) {
        d[i] = b->hi[i] - b->lo[i];
        if (!(d[i] >= 0.0f)) return 0.0f;
    }
    return d[0] * d[1] + d[1] * d[2] + d[2] * d[0];
}

static void prims_bounds(const box3 *p, uint32_t n, box3 *box, box3 *cb)
{
    *box = box_empty();
    *cb = box_empty();
    for (uint32_t i = 0; i < n; i++) {
        box_grow(box, &p[i]);
        cent_grow(cb, &p[i]);
    }
}

static void bin_prims(const box3 *p, uint32_t n, const box3 *cb, const float scale[4], float maxb,
                      unsigned nb, bins *bn, uint8_t (*pbin)[4])
{
    (void)nb;
    for (uint32_t i = 0; i < n; i++)
        for (int a = 0; a < 3; a++) {
            int k = bin_of(p[i].lo[a] + p[i].hi[a], cb->lo[a], scale[a], maxb);
            pbin[i][a] = (uint8_t)k;
            box_grow(&bn->box[a][k], &p[i]);
            bn->cnt[a][k]++;
        }
}

static float area_nonempty(const box3 *b)
{
    float x = b->hi[0] - b->lo[0], y = b->hi[1] - b->lo[1], z = b->hi[2] - b->lo[2];
    return x * y + y * z + z * x;
}

static split_choice best_split(const bins *bn, unsigned nb)
{
    split_choice ch = {-1, 0};
    float best = INFINITY;
    for (int a = 0; a < 3; a++) {
        float rarea[BIN_MAX];
        int32_t rcnt[BIN_MAX];
        box3 acc = box_empty();
        int32_t n = 0;
        for (unsigned b = nb - 1; b > 0; b--) {
            box_grow(&acc, &bn->box[a][b]);
            n += bn->cnt[a][b];
            rcnt[b] = n;
            rarea[b] = area_nonempty(&acc);
        }
        acc = box_empty();
        n = 0;
        for (unsigned b = 0; b + 1 < nb; b++) {
            box_grow(&acc, &bn->box[a][b]);
            n += bn->cnt[a][b];
            float cost = area_nonempty(&acc) * (float)n + rarea[b + 1] * (float)rcnt[b + 1];
            if (n > 0 && rcnt[b + 1] > 0 && cost < best) {
                best = cost;
                ch = (split_choice){a, b + 1};
            }
        }
    }
    return ch;
}
#endif

static void seg_bounds(const builder *B, seg *s)
{
    prims_bounds(B->prim + s->start, s->count, &s->box, &s->cb);
    s->area = box_area(&s->box);
}

/* Object median along the axis of largest centroid extent: the segment sorted in place by
 * centroid, ties by input index (a total order, so the result is unique whatever the
 * sort). Only below SAH_DEPTH levels, which lopsided SAH splits of adversarial input
 * reach. */
static int sort_axis;
static int cmp_cent(const void *pa, const void *pb)
{
    const box3 *a = pa, *b = pb;
    float ca = a->lo[sort_axis] + a->hi[sort_axis], cb = b->lo[sort_axis] + b->hi[sort_axis];
    if (ca < cb) return -1;
    if (ca > cb) return 1;
    uint32_t ia = prim_id(a), ib = prim_id(b);
    return ia < ib ? -1 : ia > ib;
}

static uint32_t median_split(builder *B, const seg *s)
{
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (s->cb.hi[k] - s->cb.lo[k] > s->cb.hi[axis] - s->cb.lo[axis]) axis = k;
    sort_axis = axis;
    qsort(B->prim + s->start, s->count, sizeof *B->prim, cmp_cent);
    return s->count / 2;
}

static void swap_prim(box3 *a, box3 *b)
{
    box3 t = *a;
    *a = *b;
    *b = t;
}

/* Splits s in two non-empty parts, *l (left) and *r with their bounds. One pass bins the
 * prims on all three axes; the parts' boxes are unions of bins, and the in-place
 * partition computes their centroid bounds, so a split reads its segment twice. */
static void sah_split(builder *B, const seg *s, seg *l, seg *r)
{
    const unsigned nb = bin_count(s->count);
    const float maxb = (float)(nb - 1);
    float scale[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    for (int a = 0; a < 3; a++) {
        float ext = s->cb.hi[a] - s->cb.lo[a];
        scale[a] = ext > 0.0f ? (float)nb / ext : 0.0f;
    }
    bins bn;
    bins_clear(&bn, nb);
    box3 *p = B->prim + s->start;
    uint8_t(*pb)[4] = B->bin + s->start;
    bin_prims(p, s->count, &s->cb, scale, maxb, nb, &bn, pb);
    split_choice ch = best_split(&bn, nb);
    if (ch.axis < 0) { /* all centroids equal: halves by order */
        uint32_t left = s->count / 2;
        *l = (seg){.start = s->start, .count = left};
        *r = (seg){.start = s->start + left, .count = s->count - left};
        seg_bounds(B, l);
        seg_bounds(B, r);
        return;
    }
    const int a = ch.axis;
    const uint8_t split = (uint8_t)ch.split;
    box3 lb = box_empty(), rb = box_empty(), lc = box_empty(), rc = box_empty();
    for (unsigned b = 0; b < nb; b++)
        box_grow(b < ch.split ? &lb : &rb, &bn.box[a][b]);
    /* Hoare partition: prims binned below the split go left; each prim's centroid grows
     * its side's bounds once it is classified (a prim seen twice changes nothing). A swap
     * only moves prims whose positions were read already, so pb needs no swapping. */
    uint32_t i = 0, j = s->count;
    for (;;) {
        while (i < j && pb[i][a] < split)
            cent_grow(&lc, &p[i++]);
        while (i < j && pb[j - 1][a] >= split)
            cent_grow(&rc, &p[--j]);
        if (i >= j) break;
        swap_prim(&p[i], &p[j - 1]);
        cent_grow(&lc, &p[i++]);
        cent_grow(&rc, &p[--j]);
    }
    *l = (seg){s->start, i, lb, lc, box_area(&lb)};
    *r = (seg){s->start + i, s->count - i, rb, rc, box_area(&rb)};
}

static void pad_box(const builder *B, const box3 *b, rt_box *out)
{
    for (int k = 0; k < 3; k++) {
        float lo = b->lo[k] - B->pad, hi = b->hi[k] + B->pad;
        out->lo[k] = lo < -BVH_COORD_MAX ? -BVH_COORD_MAX : lo;
        out->hi[k] = hi > BVH_COORD_MAX ? BVH_COORD_MAX : hi;
    }
}

static bool grow_array(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) return true;
    size_t nc = *cap ? *cap * 2 : 64;
    while (nc < need)
        nc *= 2;
    void *q = realloc(*p, nc * elem);
    if (!q) return false;
    *p = q;
    *cap = nc;
    return true;
}

/* Builds the node for segment s0 at node level depth (root = 0); returns its number, or
 * UINT32_MAX on failure. */
static uint32_t build_node(builder *B, const seg *s0, unsigned depth)
{
    if (depth >= BVH_MAX_DEPTH) {
        seterr(B->err, B->errlen, "internal error: BVH deeper than %u levels", BVH_MAX_DEPTH);
        return UINT32_MAX;
    }
    if (!grow_array((void **)&B->nodes, &B->capnodes, B->nnodes + 1, sizeof *B->nodes)) {
        seterr(B->err, B->errlen, "out of memory");
        return UINT32_MAX;
    }
    uint32_t id = (uint32_t)B->nnodes++;
    seg sg[4];
    sg[0] = *s0;
    unsigned nseg = 1;
    while (nseg < 4) {
        int pick = -1;
        for (unsigned s = 0; s < nseg; s++)
            if (sg[s].count > BVH_MAX_LEAF && (pick < 0 || sg[s].area > sg[pick].area))
                pick = (int)s;
        if (pick < 0) break;
        seg whole = sg[pick];
        if (depth < SAH_DEPTH) {
            sah_split(B, &whole, &sg[pick], &sg[nseg]);
        } else {
            uint32_t left = median_split(B, &whole);
            sg[pick] = (seg){.start = whole.start, .count = left};
            sg[nseg] = (seg){.start = whole.start + left, .count = whole.count - left};
            seg_bounds(B, &sg[pick]);
            seg_bounds(B, &sg[nseg]);
        }
        nseg++;
    }
    bnode nd;
    memset(&nd, 0, sizeof nd);
    nd.nkids = nseg;
    for (unsigned s = 0; s < nseg; s++) {
        pad_box(B, &sg[s].box, &nd.n.box[s]);
        if (sg[s].count <= BVH_MAX_LEAF) {
            if (!grow_array((void **)&B->ranges, &B->capranges, B->nranges + 1,
                            sizeof *B->ranges)) {
                seterr(B->err, B->errlen, "out of memory");
                return UINT32_MAX;
            }
            nd.n.kind[s] = RT_CHILD_LEAF;
            nd.n.index[s] = (uint32_t)B->nranges; /* fixed up at emission */
            B->ranges[B->nranges++] = (brange){sg[s].start, sg[s].count};
        } else {
            uint32_t c = build_node(B, &sg[s], depth + 1);
            if (c == UINT32_MAX) return c;
            nd.n.kind[s] = RT_CHILD_NODE;
            nd.n.index[s] = c;
        }
    }
    B->nodes[id] = nd;
    return id;
}

/* Little-endian stores: a plain copy on a little-endian host. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
static void st32(uint8_t *p, uint32_t v)
{
    memcpy(p, &v, 4);
}
static void st64(uint8_t *p, uint64_t v)
{
    memcpy(p, &v, 8);
}
static void st_tri(uint8_t *p, const float t[9])
{
    memcpy(p, t, 36);
}
#else
static void st32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void st64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void st_tri(uint8_t *p, const float t[9])
{
    for (int k = 0; k < 9; k++) {
        uint32_t u;
        memcpy(&u, &t[k], 4);
        st32(p + 4 * k, u);
    }
}
#endif
static void stf(uint8_t *p, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    st32(p, u);
}

void bvh_blob_free(bvh_blob *b)
{
    if (!b) return;
    free(b->data);
    free(b->perm);
    b->data = NULL;
    b->perm = NULL;
    b->size = 0;
}

/* The first bad coordinate, with its reason (the slow path of check_input). */
static void report_bad(const float (*tris)[9], size_t n, char *err, size_t errlen)
{
    for (size_t t = 0; t < n; t++)
        for (int k = 0; k < 9; k++) {
            float x = tris[t][k];
            if (!isfinite(x)) {
                seterr(err, errlen, "triangle %zu vertex %d: non-finite coordinate", t, k / 3);
                return;
            }
            if (fabsf(x) > BVH_COORD_MAX) {
                seterr(err, errlen,
                       "triangle %zu vertex %d: coordinate %g exceeds the binary16 range "
                       "(|x| <= 65504, errata Q-67); scale the scene down",
                       t, k / 3, (double)x);
                return;
            }
        }
}

#define COORD_MAX_BITS 0x477fe000u /* 65504.0f: a larger magnitude, inf or NaN is above */

/* Checks the input and fills B->prim (boxes with their indices) in one pass; *scene gets
 * the union of the boxes, *cb the centroid bounds, *maxabs the largest magnitude. */
static bool read_input(builder *B, const float (*tris)[9], size_t n, box3 *scene, box3 *cb,
                       float *maxabs, char *err, size_t errlen)
{
    if (n == 0) {
        seterr(err, errlen, "no triangles");
        return false;
    }
    if (n > BVH_MAX_TRIS) {
        seterr(err, errlen, "too many triangles: %zu (at most %u)", n, BVH_MAX_TRIS);
        return false;
    }
    uint32_t maxbits = 0;
    for (size_t t = 0; t < n; t++) {
        box3 b;
        for (int k = 0; k < 3; k++) {
            float v0 = tris[t][k], v1 = tris[t][3 + k], v2 = tris[t][6 + k];
            float lo = v1 < v0 ? v1 : v0, hi = v1 > v0 ? v1 : v0;
            b.lo[k] = v2 < lo ? v2 : lo;
            b.hi[k] = v2 > hi ? v2 : hi;
            uint32_t u[3];
            memcpy(&u[0], &tris[t][k], 4);
            memcpy(&u[1], &tris[t][3 + k], 4);
            memcpy(&u[2], &tris[t][6 + k], 4);
            for (int v = 0; v < 3; v++) {
                uint32_t m = u[v] & 0x7fffffffu;
                maxbits = m > maxbits ? m : maxbits;
            }
        }
        uint32_t id = ID_BIAS + (uint32_t)t;
        memcpy(&b.lo[3], &id, 4);
        memcpy(&b.hi[3], &id, 4);
        B->prim[t] = b;
    }
    /* The magnitude bits of a binary32 order like their values, NaNs above infinity. */
    if (maxbits > COORD_MAX_BITS) {
        report_bad(tris, n, err, errlen);
        return false;
    }
    memcpy(maxabs, &maxbits, 4);
    prims_bounds(B->prim, (uint32_t)n, scene, cb);
    return true;
}

bool bvh_build(const float (*tris)[9], size_t n, bool want_perm, bvh_blob *out, char *err,
               size_t errlen)
{
    memset(out, 0, sizeof *out);
    builder B;
    memset(&B, 0, sizeof B);
    B.tris = tris;
    B.err = err;
    B.errlen = errlen;
    bool ok = false;
    uint8_t *blob = NULL;
    uint32_t *perm = NULL;
    if (n && n <= BVH_MAX_TRIS) {
        B.prim = malloc(n * sizeof *B.prim);
        B.bin = malloc(n * sizeof *B.bin);
        if (!B.prim || !B.bin) {
            seterr(err, errlen, "out of memory");
            goto done;
        }
    }
    seg root = {0, (uint32_t)n, box_empty(), box_empty(), 0.0f};
    float maxabs;
    if (!read_input(&B, tris, n, &root.box, &root.cb, &maxabs, err, errlen)) goto done;
    B.pad = maxabs > 0.0f ? maxabs * 0x1p-14f : 0x1p-24f;
    root.area = box_area(&root.box);
    box3 scene = root.box;
    if (build_node(&B, &root, 0) == UINT32_MAX) goto done;

    uint64_t nodes_off = BVH_HEADER_SIZE;
    uint64_t ranges_off = nodes_off + (uint64_t)BVH_NODE_SIZE * B.nnodes;
    uint64_t tris_off = (ranges_off + (uint64_t)BVH_RANGE_SIZE * B.nranges + 63u) & ~(uint64_t)63;
    uint64_t size = tris_off + (uint64_t)BVH_TRI_SIZE * n;
    uint64_t leaf0 = (ranges_off - nodes_off) / 16u;
    if (leaf0 + B.nranges > 0xffffffu) {
        seterr(err, errlen, "BVH too large: child indices exceed 24 bits (errata Q-67)");
        goto done;
    }
    blob = calloc(1, (size_t)size);
    if (!blob || (want_perm && !(perm = malloc(n * sizeof *perm)))) {
        seterr(err, errlen, "out of memory");
        goto done;
    }
    memcpy(blob, BVH_MAGIC, 4);
    st32(blob + BVH_OFF_VERSION, BVH_VERSION);
    st32(blob + BVH_OFF_NODE_COUNT, (uint32_t)B.nnodes);
    st32(blob + BVH_OFF_RANGE_COUNT, (uint32_t)B.nranges);
    st32(blob + BVH_OFF_TRI_COUNT, (uint32_t)n);
    st32(blob + BVH_OFF_FLAGS, 0);
    st64(blob + BVH_OFF_NODES, nodes_off);
    st64(blob + BVH_OFF_RANGES, ranges_off);
    st64(blob + BVH_OFF_TRIS, tris_off);
    for (int k = 0; k < 3; k++) {
        stf(blob + BVH_OFF_BOUNDS_LO + 4 * k, scene.lo[k]);
        stf(blob + BVH_OFF_BOUNDS_HI + 4 * k, scene.hi[k]);
    }
    for (size_t i = 0; i < B.nnodes; i++) {
        rt_node4 nd = B.nodes[i].n;
        for (unsigned c = 0; c < 4; c++) {
            if (nd.kind[c] == RT_CHILD_NODE) nd.index[c] *= 4u;
            if (nd.kind[c] == RT_CHILD_LEAF) nd.index[c] += (uint32_t)leaf0;
        }
        if (!rt_node4_encode(&nd, blob + nodes_off + BVH_NODE_SIZE * i)) {
            seterr(err, errlen, "internal error: node %zu does not encode", i);
            goto done;
        }
    }
    for (size_t r = 0; r < B.nranges; r++) {
        uint8_t *p = blob + ranges_off + BVH_RANGE_SIZE * r;
        st32(p, B.ranges[r].first);
        st32(p + 4, B.ranges[r].count);
        st64(p + 8, tris_off);
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t id = prim_id(&B.prim[i]);
        st_tri(blob + tris_off + BVH_TRI_SIZE * i, tris[id]);
        if (perm) perm[i] = id;
    }
    out->data = blob;
    out->size = (size_t)size;
    out->perm = perm;
    blob = NULL;
    perm = NULL;
    ok = true;
done:
    free(blob);
    free(perm);
    free(B.prim);
    free(B.bin);
    free(B.nodes);
    free(B.ranges);
    return ok;
}
