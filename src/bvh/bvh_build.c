/* bvh_build.c — 4-wide binned-SAH BVH builder emitting XBVH blobs (include/xphmg/bvh.h).
 *
 * Construction: a node starts as one segment of triangles; the segment with the largest
 * box surface area among those with more than BVH_MAX_LEAF triangles is split in two
 * (binned SAH over BVH_BINS centroid bins on each axis, cost area(L)*nL + area(R)*nR;
 * equal centroids: halves by order) until the node has 4 segments or none can be split.
 * Segments of at most BVH_MAX_LEAF triangles become leaves (a TriRange), the others child
 * nodes, numbered in depth-first preorder (root = node 0). Below SAH_DEPTH node levels
 * the splits are object medians, which halve every segment, so the depth stays below
 * BVH_MAX_DEPTH for any input (BVH_MAX_TRIS triangles: 32 + 21 levels).
 *
 * Boxes: the binary32 union of the child's triangles, widened by pad = M * 2^-14 (M = the
 * largest coordinate magnitude of the scene; 2^-24 for an all-zero scene) and then
 * rounded outward to binary16 by rt_node4_encode. Without the widening a box face lying
 * exactly on a binary16 value (integer coordinates) would be hit only up to the
 * rounding of the slab arithmetic, and a ray grazing it could miss the box although the
 * watertight triangle test accepts the hit. The widening is clamped to +-65504.
 *
 * Passes: the triangles' boxes are moved in place with their input indices (no indirection);
 * one pass bins a segment on all three axes, and the partition computes both parts' boxes
 * and centroid bounds, so a split reads its segment twice. The box arithmetic (box_grow,
 * cent_grow, box_area, bin3) runs three lanes at a time with SSE where the host has it,
 * with the scalar operations' results bit for bit.
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

#define BVH_BINS  16
#define SAH_DEPTH 32u

/* A box with a fourth lane (0, or +-inf when empty) so that the SSE helpers below handle
 * x, y, z at once. */
typedef struct {
    float lo[4], hi[4];
} box3;

typedef struct {
    rt_node4 n;
    unsigned nkids;
} bnode;

typedef struct {
    uint32_t first, count;
} brange;

/* A segment of the triangles being placed (their boxes, moved in place by the partitions
 * with their input indices: no indirection in the passes), with its box and the bounds
 * of its centroids. */
typedef struct {
    uint32_t start, count;
    box3 box, cb;
    float area;
} seg;

typedef struct {
    const float (*tris)[9];
    box3 *tbox;   /* per triangle in placement order */
    uint32_t *id; /* its input index (the permutation being built) */
    bnode *nodes;
    size_t nnodes, capnodes;
    brange *ranges;
    size_t nranges, capranges;
    float pad;
    char *err;
    size_t errlen;
    bool failed;
} builder;

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

/* A centroid coordinate: the midpoint of the box. */
static float cent_of(const box3 *b, int k)
{
    return b->lo[k] * 0.5f + b->hi[k] * 0.5f;
}

/* The four helpers below (box_grow, cent_grow, box_area, bin3) are the only arithmetic on
 * boxes; their SSE forms do the scalar forms' IEEE operations lane by lane, and
 * _mm_min_ps(o, b) / _mm_max_ps(o, b) are exactly "o < b ? o : b" / "o > b ? o : b". */
static int bin_of(float c, float lo, float scale)
{
    /* Clamp before converting: a tiny centroid extent makes scale (and the product) inf,
     * and converting inf or NaN to int is undefined. */
    float f = (c - lo) * scale;
    if (!(f >= 0.0f)) return 0;
    if (f >= (float)BVH_BINS) return BVH_BINS - 1;
    return (int)f;
}

#if defined(__SSE2__)
#include <emmintrin.h>
static void box_grow(box3 *b, const box3 *o)
{
    _mm_storeu_ps(b->lo, _mm_min_ps(_mm_loadu_ps(o->lo), _mm_loadu_ps(b->lo)));
    _mm_storeu_ps(b->hi, _mm_max_ps(_mm_loadu_ps(o->hi), _mm_loadu_ps(b->hi)));
}

static __m128 cent4(const box3 *b)
{
    __m128 h = _mm_set1_ps(0.5f);
    return _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(b->lo), h), _mm_mul_ps(_mm_loadu_ps(b->hi), h));
}

/* Grows a centroid bound by the centroid of b. */
static void cent_grow(box3 *cb, const box3 *b)
{
    __m128 c = cent4(b);
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

/* bin_of of b's centroid on the three axes (a NaN or negative f gives bin 0: maxps
 * returns its second operand for an unordered pair; f >= BINS - 1 the last bin; else the
 * truncation of f). */
static void bin3(const box3 *b, const box3 *cb, const float scale[4], int bin[4])
{
    __m128 f = _mm_mul_ps(_mm_sub_ps(cent4(b), _mm_loadu_ps(cb->lo)), _mm_loadu_ps(scale));
    f = _mm_min_ps(_mm_max_ps(f, _mm_setzero_ps()), _mm_set1_ps((float)(BVH_BINS - 1)));
    _mm_storeu_si128((__m128i *)bin, _mm_cvttps_epi32(f));
}
#else
static void box_grow(box3 *b, const box3 *o)
{
    for (int i = 0; i < 3; i++) {
        if (o->lo[i] < b->lo[i]) b->lo[i] = o->lo[i];
        if (o->hi[i] > b->hi[i]) b->hi[i] = o->hi[i];
    }
}

static void cent_grow(box3 *cb, const box3 *b)
{
    for (int k = 0; k < 3; k++) {
        float c = cent_of(b, k);
        if (c < cb->lo[k]) cb->lo[k] = c;
        if (c > cb->hi[k]) cb->hi[k] = c;
    }
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

static void bin3(const box3 *b, const box3 *cb, const float scale[4], int bin[4])
{
    for (int k = 0; k < 3; k++)
        bin[k] = bin_of(cent_of(b, k), cb->lo[k], scale[k]);
}
#endif

/* The box and centroid bounds of s's triangles. */
static void seg_bounds(const builder *B, seg *s)
{
    s->box = box_empty();
    s->cb = box_empty();
    for (uint32_t i = s->start; i < s->start + s->count; i++) {
        box_grow(&s->box, &B->tbox[i]);
        cent_grow(&s->cb, &B->tbox[i]);
    }
    s->area = box_area(&s->box);
}

static void swap_tri(builder *B, uint32_t i, uint32_t j)
{
    box3 b = B->tbox[i];
    B->tbox[i] = B->tbox[j];
    B->tbox[j] = b;
    uint32_t t = B->id[i];
    B->id[i] = B->id[j];
    B->id[j] = t;
}

/* Object median along the axis of largest centroid extent (ties: centroid, then input
 * index, a total order, so the order is unique): sorts the input indices, then moves the
 * boxes along. */
static const builder *sort_b;
static int sort_axis;
static box3 *sort_box; /* the boxes of the segment, by input index offset */
static int cmp_cent(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    float ca = cent_of(&sort_box[a], sort_axis), cb = cent_of(&sort_box[b], sort_axis);
    if (ca < cb) return -1;
    if (ca > cb) return 1;
    return sort_b->id[a] < sort_b->id[b] ? -1 : sort_b->id[a] > sort_b->id[b];
}

static uint32_t median_split(builder *B, const seg *s)
{
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (s->cb.hi[k] - s->cb.lo[k] > s->cb.hi[axis] - s->cb.lo[axis]) axis = k;
    /* sort positions of the segment, then apply the order */
    uint32_t *pos = malloc(s->count * sizeof *pos);
    box3 *tb = malloc(s->count * sizeof *tb);
    uint32_t *ti = malloc(s->count * sizeof *ti);
    if (!pos || !tb || !ti) {
        free(pos);
        free(tb);
        free(ti);
        B->failed = true;
        return s->count / 2;
    }
    for (uint32_t i = 0; i < s->count; i++)
        pos[i] = s->start + i;
    sort_b = B;
    sort_axis = axis;
    sort_box = B->tbox;
    qsort(pos, s->count, sizeof *pos, cmp_cent);
    for (uint32_t i = 0; i < s->count; i++) {
        tb[i] = B->tbox[pos[i]];
        ti[i] = B->id[pos[i]];
    }
    memcpy(B->tbox + s->start, tb, s->count * sizeof *tb);
    memcpy(B->id + s->start, ti, s->count * sizeof *ti);
    free(pos);
    free(tb);
    free(ti);
    return s->count / 2;
}

/* Bins every triangle of s on the three axes (an axis of scale 0 puts everything in
 * bin 0): counts and boxes. */
static void bin_tris(const builder *B, const seg *s, const box3 *cb, const float scale[4],
                     uint32_t bn[3][BVH_BINS], box3 bb[3][BVH_BINS])
{
    for (uint32_t i = s->start; i < s->start + s->count; i++) {
        const box3 *pb = &B->tbox[i];
        int bin[4];
        bin3(pb, cb, scale, bin);
        for (int a = 0; a < 3; a++) {
            bn[a][bin[a]]++;
            box_grow(&bb[a][bin[a]], pb);
        }
    }
}

/* Splits s in two non-empty parts; returns the size of the left one. One pass bins the
 * refs on all three axes; the partition then computes both parts' bounds. *l and *r get
 * the two parts with their bounds (left first). */
static void sah_split(builder *B, const seg *s, seg *l, seg *r)
{
    const box3 cb = s->cb;
    float best = INFINITY, scale[4] = {0.0f, 0.0f, 0.0f, 0.0f};
    int best_axis = -1, best_split = 0;
    bool live[3];
    box3 bb[3][BVH_BINS];
    uint32_t bn[3][BVH_BINS] = {{0}};
    for (int axis = 0; axis < 3; axis++) {
        float ext = cb.hi[axis] - cb.lo[axis];
        live[axis] = ext > 0.0f;
        scale[axis] = live[axis] ? (float)BVH_BINS / ext : 0.0f;
        for (int b = 0; b < BVH_BINS; b++)
            bb[axis][b] = box_empty();
    }
    bin_tris(B, s, &cb, scale, bn, bb);
    for (int axis = 0; axis < 3; axis++) {
        if (!live[axis]) continue;
        /* right sweep: area and count of bins b..BINS-1 */
        float rarea[BVH_BINS];
        uint32_t rcount[BVH_BINS];
        box3 acc = box_empty();
        uint32_t n = 0;
        for (int b = BVH_BINS - 1; b > 0; b--) {
            box_grow(&acc, &bb[axis][b]);
            n += bn[axis][b];
            rarea[b] = box_area(&acc);
            rcount[b] = n;
        }
        acc = box_empty();
        n = 0;
        for (int b = 0; b < BVH_BINS - 1; b++) {
            box_grow(&acc, &bb[axis][b]);
            n += bn[axis][b];
            if (n == 0 || rcount[b + 1] == 0) continue;
            float cost = box_area(&acc) * (float)n + rarea[b + 1] * (float)rcount[b + 1];
            if (cost < best) {
                best = cost;
                best_axis = axis;
                best_split = b + 1;
            }
        }
    }
    uint32_t left = s->count / 2; /* all centroids equal: halves by order */
    if (best_axis >= 0) {
        float sc = (float)BVH_BINS / (cb.hi[best_axis] - cb.lo[best_axis]);
        uint32_t i = s->start, j = s->start + s->count;
        box3 lb = box_empty(), lc = box_empty(), rb = box_empty(), rc = box_empty();
        while (i < j) {
            const box3 *p = &B->tbox[i];
            if (bin_of(cent_of(p, best_axis), cb.lo[best_axis], sc) < best_split) {
                box_grow(&lb, p);
                cent_grow(&lc, p);
                i++;
            } else {
                box_grow(&rb, p);
                cent_grow(&rc, p);
                j--;
                swap_tri(B, i, j);
            }
        }
        left = i - s->start;
        *l = (seg){s->start, left, lb, lc, box_area(&lb)};
        *r = (seg){s->start + left, s->count - left, rb, rc, box_area(&rb)};
        return;
    }
    *l = (seg){.start = s->start, .count = left};
    *r = (seg){.start = s->start + left, .count = s->count - left};
    seg_bounds(B, l);
    seg_bounds(B, r);
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
            if (B->failed) {
                seterr(B->err, B->errlen, "out of memory");
                return UINT32_MAX;
            }
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

static bool check_input(const float (*tris)[9], size_t n, float *maxabs, char *err, size_t errlen)
{
    if (n == 0) {
        seterr(err, errlen, "no triangles");
        return false;
    }
    if (n > BVH_MAX_TRIS) {
        seterr(err, errlen, "too many triangles: %zu (at most %u)", n, BVH_MAX_TRIS);
        return false;
    }
    float m = 0.0f;
    for (size_t t = 0; t < n; t++)
        for (int k = 0; k < 9; k++) {
            float x = tris[t][k];
            if (!isfinite(x)) {
                seterr(err, errlen, "triangle %zu vertex %d: non-finite coordinate", t, k / 3);
                return false;
            }
            if (fabsf(x) > BVH_COORD_MAX) {
                seterr(err, errlen,
                       "triangle %zu vertex %d: coordinate %g exceeds the binary16 range "
                       "(|x| <= 65504, errata Q-67); scale the scene down",
                       t, k / 3, (double)x);
                return false;
            }
            if (fabsf(x) > m) m = fabsf(x);
        }
    *maxabs = m;
    return true;
}

bool bvh_build(const float (*tris)[9], size_t n, bool want_perm, bvh_blob *out, char *err,
               size_t errlen)
{
    memset(out, 0, sizeof *out);
    float maxabs;
    if (!check_input(tris, n, &maxabs, err, errlen)) return false;
    builder B;
    memset(&B, 0, sizeof B);
    B.tris = tris;
    B.err = err;
    B.errlen = errlen;
    B.pad = maxabs > 0.0f ? maxabs * 0x1p-14f : 0x1p-24f;
    B.tbox = malloc(n * sizeof *B.tbox);
    B.id = malloc(n * sizeof *B.id);
    bool ok = false;
    uint8_t *blob = NULL;
    if (!B.tbox || !B.id) {
        seterr(err, errlen, "out of memory");
        goto done;
    }
    seg root = {0, (uint32_t)n, box_empty(), box_empty(), 0.0f};
    for (size_t t = 0; t < n; t++) {
        box3 b = box_empty();
        b.lo[3] = b.hi[3] = 0.0f;
        for (int v = 0; v < 3; v++)
            for (int k = 0; k < 3; k++) {
                float x = tris[t][3 * v + k];
                if (x < b.lo[k]) b.lo[k] = x;
                if (x > b.hi[k]) b.hi[k] = x;
            }
        B.tbox[t] = b;
        B.id[t] = (uint32_t)t;
        box_grow(&root.box, &b);
        cent_grow(&root.cb, &b);
    }
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
    if (!blob) {
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
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 9; k++)
            stf(blob + tris_off + BVH_TRI_SIZE * i + 4 * k, tris[B.id[i]][k]);
    out->data = blob;
    out->size = (size_t)size;
    blob = NULL;
    if (want_perm) {
        out->perm = B.id;
        B.id = NULL;
    }
    ok = true;
done:
    free(blob);
    free(B.tbox);
    free(B.id);
    free(B.nodes);
    free(B.ranges);
    return ok;
}
