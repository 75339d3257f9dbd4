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

typedef struct {
    float lo[3], hi[3];
} box3;

typedef struct {
    rt_node4 n;
    unsigned nkids;
} bnode;

typedef struct {
    uint32_t first, count;
} brange;

typedef struct {
    const float (*tris)[9];
    box3 *pbox;       /* per input triangle */
    float (*cent)[3]; /* per input triangle */
    uint32_t *idx;    /* the permutation being built */
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
    for (int i = 0; i < 3; i++) {
        b.lo[i] = INFINITY;
        b.hi[i] = -INFINITY;
    }
    return b;
}

static void box_grow(box3 *b, const box3 *o)
{
    for (int i = 0; i < 3; i++) {
        if (o->lo[i] < b->lo[i]) b->lo[i] = o->lo[i];
        if (o->hi[i] > b->hi[i]) b->hi[i] = o->hi[i];
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

static box3 seg_box(const builder *B, uint32_t start, uint32_t count)
{
    box3 b = box_empty();
    for (uint32_t i = start; i < start + count; i++)
        box_grow(&b, &B->pbox[B->idx[i]]);
    return b;
}

/* Object median along the axis of largest centroid extent (ties: centroid, then input
 * index, a total order, so qsort's result is unique). */
static const builder *sort_b;
static int sort_axis;
static int cmp_cent(const void *pa, const void *pb)
{
    uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
    float ca = sort_b->cent[a][sort_axis], cb = sort_b->cent[b][sort_axis];
    if (ca < cb) return -1;
    if (ca > cb) return 1;
    return a < b ? -1 : a > b;
}

static void cent_bounds(const builder *B, uint32_t start, uint32_t count, box3 *cb)
{
    *cb = box_empty();
    for (uint32_t i = start; i < start + count; i++) {
        const float *c = B->cent[B->idx[i]];
        for (int k = 0; k < 3; k++) {
            if (c[k] < cb->lo[k]) cb->lo[k] = c[k];
            if (c[k] > cb->hi[k]) cb->hi[k] = c[k];
        }
    }
}

static uint32_t median_split(builder *B, uint32_t start, uint32_t count)
{
    box3 cb;
    cent_bounds(B, start, count, &cb);
    int axis = 0;
    for (int k = 1; k < 3; k++)
        if (cb.hi[k] - cb.lo[k] > cb.hi[axis] - cb.lo[axis]) axis = k;
    sort_b = B;
    sort_axis = axis;
    qsort(B->idx + start, count, sizeof *B->idx, cmp_cent);
    return count / 2;
}

static int bin_of(float c, float lo, float scale)
{
    /* Clamp before converting: a tiny centroid extent makes scale (and the product) inf,
     * and converting inf or NaN to int is undefined. */
    float f = (c - lo) * scale;
    if (!(f >= 0.0f)) return 0;
    if (f >= (float)BVH_BINS) return BVH_BINS - 1;
    return (int)f;
}

/* Splits [start, start+count) in two non-empty parts; returns the size of the left one. */
static uint32_t sah_split(builder *B, uint32_t start, uint32_t count)
{
    box3 cb;
    cent_bounds(B, start, count, &cb);
    float best = INFINITY;
    int best_axis = -1, best_split = 0;
    for (int axis = 0; axis < 3; axis++) {
        float ext = cb.hi[axis] - cb.lo[axis];
        if (!(ext > 0.0f)) continue;
        float scale = (float)BVH_BINS / ext;
        box3 bb[BVH_BINS];
        uint32_t bn[BVH_BINS] = {0};
        for (int b = 0; b < BVH_BINS; b++)
            bb[b] = box_empty();
        for (uint32_t i = start; i < start + count; i++) {
            uint32_t t = B->idx[i];
            int b = bin_of(B->cent[t][axis], cb.lo[axis], scale);
            bn[b]++;
            box_grow(&bb[b], &B->pbox[t]);
        }
        /* right sweep: area and count of bins b..BINS-1 */
        float rarea[BVH_BINS];
        uint32_t rcount[BVH_BINS];
        box3 acc = box_empty();
        uint32_t n = 0;
        for (int b = BVH_BINS - 1; b > 0; b--) {
            box_grow(&acc, &bb[b]);
            n += bn[b];
            rarea[b] = box_area(&acc);
            rcount[b] = n;
        }
        acc = box_empty();
        n = 0;
        for (int b = 0; b < BVH_BINS - 1; b++) {
            box_grow(&acc, &bb[b]);
            n += bn[b];
            if (n == 0 || rcount[b + 1] == 0) continue;
            float cost = box_area(&acc) * (float)n + rarea[b + 1] * (float)rcount[b + 1];
            if (cost < best) {
                best = cost;
                best_axis = axis;
                best_split = b + 1;
            }
        }
    }
    if (best_axis < 0) return count / 2; /* all centroids equal: halves by order */
    float scale = (float)BVH_BINS / (cb.hi[best_axis] - cb.lo[best_axis]);
    uint32_t i = start, j = start + count;
    while (i < j) {
        if (bin_of(B->cent[B->idx[i]][best_axis], cb.lo[best_axis], scale) < best_split) {
            i++;
        } else {
            j--;
            uint32_t s = B->idx[i];
            B->idx[i] = B->idx[j];
            B->idx[j] = s;
        }
    }
    return i - start;
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

/* Builds the node for [start, start+count) at node level depth (root = 0); returns its
 * number, or UINT32_MAX on failure. */
static uint32_t build_node(builder *B, uint32_t start, uint32_t count, unsigned depth)
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
    uint32_t sstart[4] = {start}, scount[4] = {count};
    float sarea[4];
    box3 sbox[4];
    sbox[0] = seg_box(B, start, count);
    sarea[0] = box_area(&sbox[0]);
    unsigned nseg = 1;
    while (nseg < 4) {
        int pick = -1;
        for (unsigned s = 0; s < nseg; s++)
            if (scount[s] > BVH_MAX_LEAF && (pick < 0 || sarea[s] > sarea[pick])) pick = (int)s;
        if (pick < 0) break;
        uint32_t left = depth < SAH_DEPTH ? sah_split(B, sstart[pick], scount[pick])
                                          : median_split(B, sstart[pick], scount[pick]);
        sstart[nseg] = sstart[pick] + left;
        scount[nseg] = scount[pick] - left;
        scount[pick] = left;
        sbox[pick] = seg_box(B, sstart[pick], scount[pick]);
        sarea[pick] = box_area(&sbox[pick]);
        sbox[nseg] = seg_box(B, sstart[nseg], scount[nseg]);
        sarea[nseg] = box_area(&sbox[nseg]);
        nseg++;
    }
    bnode nd;
    memset(&nd, 0, sizeof nd);
    nd.nkids = nseg;
    for (unsigned s = 0; s < nseg; s++) {
        pad_box(B, &sbox[s], &nd.n.box[s]);
        if (scount[s] <= BVH_MAX_LEAF) {
            if (!grow_array((void **)&B->ranges, &B->capranges, B->nranges + 1,
                            sizeof *B->ranges)) {
                seterr(B->err, B->errlen, "out of memory");
                return UINT32_MAX;
            }
            nd.n.kind[s] = RT_CHILD_LEAF;
            nd.n.index[s] = (uint32_t)B->nranges; /* fixed up at emission */
            B->ranges[B->nranges++] = (brange){sstart[s], scount[s]};
        } else {
            uint32_t c = build_node(B, sstart[s], scount[s], depth + 1);
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
    B.pbox = malloc(n * sizeof *B.pbox);
    B.cent = malloc(n * sizeof *B.cent);
    B.idx = malloc(n * sizeof *B.idx);
    bool ok = false;
    uint8_t *blob = NULL;
    if (!B.pbox || !B.cent || !B.idx) {
        seterr(err, errlen, "out of memory");
        goto done;
    }
    box3 scene = box_empty();
    for (size_t t = 0; t < n; t++) {
        box3 b = box_empty();
        for (int v = 0; v < 3; v++)
            for (int k = 0; k < 3; k++) {
                float x = tris[t][3 * v + k];
                if (x < b.lo[k]) b.lo[k] = x;
                if (x > b.hi[k]) b.hi[k] = x;
            }
        B.pbox[t] = b;
        for (int k = 0; k < 3; k++)
            B.cent[t][k] = b.lo[k] * 0.5f + b.hi[k] * 0.5f;
        box_grow(&scene, &b);
        B.idx[t] = (uint32_t)t;
    }
    if (build_node(&B, 0, (uint32_t)n, 0) == UINT32_MAX) goto done;

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
            stf(blob + tris_off + BVH_TRI_SIZE * i + 4 * k, tris[B.idx[i]][k]);
    out->data = blob;
    out->size = (size_t)size;
    blob = NULL;
    if (want_perm) {
        out->perm = B.idx;
        B.idx = NULL;
    }
    ok = true;
done:
    free(blob);
    free(B.pbox);
    free(B.cent);
    free(B.idx);
    free(B.nodes);
    free(B.ranges);
    return ok;
}
