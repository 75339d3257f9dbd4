/* test_bvh — the BVH builder and the XBVH validator (src/bvh, include/xphmg/bvh.h).
 *
 *  - traversal: for procedural and random meshes, thousands of rays traverse the built
 *    blob with the rt_kernels (rt_node4_decode, rt_bbox_children, rt_trirange_decode,
 *    rt_tri_test, a stack, closest hit with ties to the lowest triangle) and must find
 *    the same hit (t bit for bit, triangle) as a brute-force test of every triangle;
 *  - the validator accepts built blobs and refuses hand-corrupted ones with a reason,
 *    and never reads out of bounds on randomly damaged ones;
 *  - determinism (same bytes twice, and a fixed digest), round trip of the triangles,
 *    the guest header (target/include/xphmg_bvh.h) against the host layout;
 *  - refused inputs (no triangles, NaN, infinities, beyond binary16) and bounded depth. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rt_kernels.h"
#include "xphmg/bvh.h"
#include "xphmg_bvh.h"

/* FNV-1a of the blob of bvh_procedural("sphere", 5000): changes only when the builder or
 * the format changes on purpose. */
#define XBVH_SPHERE5000_FNV 0x37905fc099c86e5dull

typedef float tri9[9];

static uint64_t rng = 0x243F6A8885A308D3ull;
static uint64_t rnext(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static float runit(void) /* [-1, 1) */
{
    return (float)((double)(rnext() >> 40) / 8388608.0 - 1.0);
}

static void st32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static bvh_blob build_ok(const tri9 *t, size_t n)
{
    bvh_blob b;
    char err[256] = "";
    bool ok = bvh_build(t, n, true, &b, err, sizeof err);
    if (!ok) fprintf(stderr, "bvh_build: %s\n", err);
    assert_true(ok);
    bvh_info inf;
    ok = bvh_check(b.data, b.size, 0, &inf, err, sizeof err);
    if (!ok) fprintf(stderr, "bvh_check: %s\n", err);
    assert_true(ok);
    assert_true(inf.depth <= BVH_MAX_DEPTH);
    assert_true(inf.max_leaf <= BVH_MAX_LEAF);
    return b;
}

typedef struct {
    bool hit;
    float t;
    uint32_t prim;
} hitrec;

static void consider(hitrec *h, const rt_ray *r, const float v[3][3], uint32_t prim)
{
    float t, u, vv;
    if (!rt_tri_test(r, v, false, 0, &t, &u, &vv)) return;
    if (h->hit && !(t < h->t || (t == h->t && prim < h->prim))) return;
    h->hit = true;
    h->t = t;
    h->prim = prim;
}

static hitrec brute(const uint8_t *blob, const rt_ray *r)
{
    bvh_header h;
    bvh_header_decode(blob, &h);
    hitrec best = {false, 0, 0};
    for (uint32_t i = 0; i < h.tri_count; i++) {
        float v[3][3];
        rt_tri_decode(blob + h.tris_off + BVH_TRI_SIZE * i, RT_ELEM_FP32, v);
        consider(&best, r, v, i);
    }
    return best;
}

typedef struct {
    const uint8_t *addr;
    rt_box box;
    bool leaf, root;
} ent;

/* Closest hit by traversal of a relocated blob from bvh_base; counts visited nodes. */
static hitrec traverse(const uint8_t *base, const rt_ray *r, unsigned *nvisit)
{
    ent st[3 * BVH_MAX_DEPTH + 4];
    unsigned sp = 0;
    st[sp++] = (ent){base, {{0, 0, 0}, {0, 0, 0}}, false, true};
    hitrec best = {false, 0, 0};
    while (sp) {
        ent e = st[--sp];
        rt_ray rb = *r;
        if (best.hit && best.t < rb.tmax) rb.tmax = best.t;
        float tn, tf;
        if (!e.root && !rt_box_test(&rb, &e.box, &tn, &tf)) continue;
        if (e.leaf) {
            rt_trirange tr;
            rt_trirange_decode(e.addr, &tr);
            const uint8_t *tb = (const uint8_t *)(uintptr_t)tr.base;
            for (uint32_t k = 0; k < tr.count; k++) {
                float v[3][3];
                rt_tri_decode(tb + (size_t)BVH_TRI_SIZE * (tr.first + k), RT_ELEM_FP32, v);
                consider(&best, r, v, tr.first + k);
            }
            continue;
        }
        (*nvisit)++;
        rt_node4 n;
        rt_node4_decode(e.addr, &n);
        rt_bbox_res res;
        rt_bbox_children(&rb, &n, 1, &res);
        for (unsigned j = res.nhit; j-- > 0;) {
            unsigned c = res.order[j];
            assert_true(c < 4);
            assert_true(n.kind[c] == RT_CHILD_NODE || n.kind[c] == RT_CHILD_LEAF);
            assert_true(sp < 3 * BVH_MAX_DEPTH + 4);
            st[sp++] =
                (ent){base + 16u * (size_t)n.index[c], n.box[c], n.kind[c] == RT_CHILD_LEAF, false};
        }
    }
    return best;
}

/* nrays rays: half aimed at a point of a random triangle (a vertex, an edge point or an
 * interior point, so edges and vertices shared by several triangles are hit), half in
 * random directions; some axis-parallel, some with a finite tmax. Returns the hits. */
static unsigned check_rays(const tri9 *tris, size_t n, unsigned nrays)
{
    bvh_blob b = build_ok(tris, n);
    uint8_t *base = b.data + bvh_relocate(b.data, (uint64_t)(uintptr_t)b.data);
    char err[256];
    assert_true(bvh_check(b.data, b.size, (uint64_t)(uintptr_t)b.data, NULL, err, sizeof err));
    bvh_header h;
    bvh_header_decode(b.data, &h);
    float ext = 0.0f;
    for (int k = 0; k < 3; k++)
        if (h.bounds_hi[k] - h.bounds_lo[k] > ext) ext = h.bounds_hi[k] - h.bounds_lo[k];
    unsigned hits = 0, visits = 0;
    for (unsigned i = 0; i < nrays; i++) {
        rt_ray r;
        for (int k = 0; k < 3; k++) {
            float mid = h.bounds_lo[k] * 0.5f + h.bounds_hi[k] * 0.5f;
            r.org[k] = mid + runit() * (ext > 0 ? ext : 1.0f);
        }
        if (i % 2 == 0) {
            const float *t = tris[rnext() % n];
            float w[3];
            unsigned mode = (unsigned)(rnext() % 3);
            for (int v = 0; v < 3; v++)
                w[v] = mode == 0 ? (v == 0) : mode == 1 ? (v < 2) * 0.5f : 1.0f / 3.0f;
            for (int k = 0; k < 3; k++)
                r.dir[k] = (w[0] * t[k] + w[1] * t[3 + k] + w[2] * t[6 + k]) - r.org[k];
        } else {
            for (int k = 0; k < 3; k++)
                r.dir[k] = runit();
        }
        if (i % 7 == 3) r.dir[rnext() % 3] = 0.0f;
        if (i % 11 == 5) { /* axis-parallel */
            int a = (int)(rnext() % 3);
            for (int k = 0; k < 3; k++)
                r.dir[k] = k == a ? (rnext() & 1 ? 1.0f : -1.0f) : 0.0f;
        }
        r.tmin = i % 5 == 1 ? 0.25f : 0.0f;
        r.tmax = i % 3 == 2 ? 0.5f + (runit() + 1.0f) : INFINITY;
        hitrec want = brute(b.data, &r);
        hitrec got = traverse(base, &r, &visits);
        if (got.hit != want.hit || (want.hit && (got.t != want.t || got.prim != want.prim)))
            fprintf(stderr,
                    "ray %u org (%a %a %a) dir (%a %a %a): traversal %d t=%a prim %u, brute "
                    "force %d t=%a prim %u\n",
                    i, (double)r.org[0], (double)r.org[1], (double)r.org[2], (double)r.dir[0],
                    (double)r.dir[1], (double)r.dir[2], got.hit, (double)got.t, got.prim, want.hit,
                    (double)want.t, want.prim);
        assert_int_equal(got.hit, want.hit);
        if (want.hit) {
            assert_true(got.t == want.t);
            assert_int_equal(got.prim, want.prim);
            hits++;
        }
    }
    /* the BVH culls: far fewer node visits than a full walk per ray */
    assert_true(visits < (unsigned long long)nrays * h.node_count / 2 + nrays);
    bvh_blob_free(&b);
    return hits;
}

/* Node tiles decoded by rt_node4_decode (child kinds, indices), leaves by
 * rt_trirange_decode. REQ: RT-032 RT-035 RT-036 */
static void test_traversal_procedural(void **state)
{
    (void)state;
    for (const char *const *p = bvh_procedural_names; *p; p++) {
        size_t n;
        tri9 *t = bvh_procedural(*p, 3000, &n);
        assert_non_null(t);
        assert_true(n >= 1000);
        unsigned hits = check_rays((const tri9 *)t, n, 3000);
        assert_true(hits > 500); /* the aimed half mostly hits */
        free(t);
    }
}

static tri9 *random_mesh(size_t n, float scale, float size)
{
    tri9 *t = malloc(sizeof *t * n);
    for (size_t i = 0; i < n; i++) {
        float c[3];
        for (int k = 0; k < 3; k++)
            c[k] = runit() * scale;
        for (int k = 0; k < 9; k++)
            t[i][k] = c[k % 3] + runit() * size;
        if (i % 17 == 0) /* degenerate: a repeated vertex */
            memcpy(&t[i][3], &t[i][0], 3 * sizeof(float));
        if (i % 23 == 0 && i) /* a duplicate of the previous triangle (ties) */
            memcpy(t[i], t[i - 1], sizeof *t);
    }
    return t;
}

/* REQ: RT-032 */
static void test_traversal_random(void **state)
{
    (void)state;
    static const struct {
        size_t n;
        float scale, size;
    } cases[] = {
        {1, 1.0f, 0.5f},      {3, 1.0f, 0.5f},     {5, 1.0f, 0.5f},    {17, 1.0f, 0.5f},
        {500, 1.0f, 0.05f},   {2000, 1.0f, 0.02f}, {2000, 1.0f, 0.8f}, {1500, 60000.0f, 3000.f},
        {1500, 1e-3f, 1e-4f}, {1000, 10.0f, 0.0f},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        tri9 *t = random_mesh(cases[c].n, cases[c].scale, cases[c].size);
        check_rays((const tri9 *)t, cases[c].n, 2000);
        free(t);
    }
}

/* Same triangles twice: same bytes; the digest pins the output across hosts. */
static void test_determinism(void **state)
{
    (void)state;
    size_t n;
    tri9 *t = bvh_procedural("sphere", 5000, &n);
    bvh_blob a = build_ok((const tri9 *)t, n), b = build_ok((const tri9 *)t, n);
    assert_int_equal(a.size, b.size);
    assert_memory_equal(a.data, b.data, a.size);
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < a.size; i++)
        h = (h ^ a.data[i]) * 0x100000001b3ull;
    printf("sphere 5000: %zu bytes, FNV-1a %016llx\n", a.size, (unsigned long long)h);
    assert_true(h == XBVH_SPHERE5000_FNV);
    bvh_blob_free(&a);
    bvh_blob_free(&b);
    free(t);
}

/* The stored triangles are the input in perm order; header (64-byte node tiles at a
 * 64-byte aligned offset), guest header, relocation. REQ: RT-033 */
static void test_round_trip(void **state)
{
    (void)state;
    tri9 *t = random_mesh(777, 2.0f, 0.3f);
    bvh_blob b = build_ok((const tri9 *)t, 777);
    bvh_header h;
    bvh_header_decode(b.data, &h);
    assert_memory_equal(b.data, "XBVH", 4);
    assert_int_equal(h.version, 1);
    assert_int_equal(h.tri_count, 777);
    assert_int_equal(h.flags, 0);
    assert_int_equal(h.nodes_off, BVH_HEADER_SIZE);
    assert_int_equal(h.nodes_off % 64, 0);
    assert_int_equal(h.ranges_off, h.nodes_off + 64u * h.node_count);
    assert_int_equal(h.ranges_off % 16, 0);
    assert_int_equal(h.tris_off % 64, 0);
    assert_int_equal(b.size, h.tris_off + 36u * 777);
    uint8_t *seen = calloc(777, 1);
    for (uint32_t i = 0; i < 777; i++) {
        assert_true(b.perm[i] < 777);
        assert_false(seen[b.perm[i]]);
        seen[b.perm[i]] = 1;
        float v[3][3];
        rt_tri_decode(b.data + h.tris_off + 36u * i, RT_ELEM_FP32, v);
        assert_memory_equal(v, t[b.perm[i]], sizeof v);
    }
    free(seen);
    for (int k = 0; k < 3; k++) {
        float lo = INFINITY, hi = -INFINITY;
        for (int i = 0; i < 777; i++)
            for (int v = 0; v < 3; v++) {
                lo = fminf(lo, t[i][3 * v + k]);
                hi = fmaxf(hi, t[i][3 * v + k]);
            }
        assert_true(h.bounds_lo[k] == lo && h.bounds_hi[k] == hi);
    }
    /* every TriRange.base holds tris_off in the file */
    for (uint32_t r = 0; r < h.range_count; r++) {
        rt_trirange tr;
        rt_trirange_decode(b.data + h.ranges_off + 16u * r, &tr);
        assert_int_equal(tr.base, h.tris_off);
    }
    /* guest header: same layout as the host decoder */
    assert_int_equal(sizeof(xphmg_bvh_header), BVH_HEADER_SIZE);
    assert_int_equal(offsetof(xphmg_bvh_header, node_count), BVH_OFF_NODE_COUNT);
    assert_int_equal(offsetof(xphmg_bvh_header, flags), BVH_OFF_FLAGS);
    assert_int_equal(offsetof(xphmg_bvh_header, nodes_off), BVH_OFF_NODES);
    assert_int_equal(offsetof(xphmg_bvh_header, ranges_off), BVH_OFF_RANGES);
    assert_int_equal(offsetof(xphmg_bvh_header, tris_off), BVH_OFF_TRIS);
    assert_int_equal(offsetof(xphmg_bvh_header, bounds_lo), BVH_OFF_BOUNDS_LO);
    assert_int_equal(offsetof(xphmg_bvh_header, bounds_hi), BVH_OFF_BOUNDS_HI);
    uint8_t *copy = aligned_alloc(64, (b.size + 63) & ~(size_t)63);
    memcpy(copy, b.data, b.size);
    const xphmg_bvh_header *gh = (const xphmg_bvh_header *)copy;
    assert_int_equal(gh->range_count, h.range_count);
    uint8_t *gbase = xphmg_bvh_relocate(copy);
    assert_ptr_equal(gbase, copy + h.nodes_off);
    assert_ptr_equal(xphmg_bvh_relocate(copy), gbase); /* idempotent */
    assert_ptr_equal(xphmg_bvh_triangles(copy), copy + h.tris_off);
    char err[256];
    assert_true(bvh_check(copy, b.size, (uint64_t)(uintptr_t)copy, NULL, err, sizeof err));
    assert_false(bvh_check(copy, b.size, 0, NULL, err, sizeof err)); /* not file form */
    assert_non_null(strstr(err, "base"));
    bvh_relocate(copy, 0); /* back to file form */
    assert_memory_equal(copy, b.data, b.size);
    copy[0] = 'Y';
    assert_null(xphmg_bvh_relocate(copy));
    free(copy);
    bvh_blob_free(&b);
    free(t);
}

/* Hand-corrupted blobs: each refused with its reason. */
static void expect_bad(const bvh_blob *good, void (*mut)(uint8_t *, const bvh_header *),
                       size_t size, const char *what)
{
    uint8_t *c = malloc(good->size);
    memcpy(c, good->data, good->size);
    bvh_header h;
    bvh_header_decode(c, &h);
    if (mut) mut(c, &h);
    char err[256] = "";
    bool ok = bvh_check(c, size, 0, NULL, err, sizeof err);
    if (ok || !strstr(err, what))
        fprintf(stderr, "expected '%s', got %s '%s'\n", what, ok ? "accepted" : "refused", err);
    assert_false(ok);
    assert_non_null(strstr(err, what));
    free(c);
}

static uint8_t *child_slot(uint8_t *c, const bvh_header *h, unsigned node)
{
    return c + h->nodes_off + 64u * node;
}
static void set_index(uint8_t *node, unsigned ch, uint32_t idx)
{
    node[48 + 3 * ch] = (uint8_t)idx;
    node[49 + 3 * ch] = (uint8_t)(idx >> 8);
    node[50 + 3 * ch] = (uint8_t)(idx >> 16);
}
/* first child of kind k of node 0 */
static unsigned first_of_kind(const uint8_t *node, unsigned k)
{
    for (unsigned c = 0; c < 4; c++)
        if (((node[60] >> (2 * c)) & 3u) == k) return c;
    fail();
    return 0;
}
static void m_magic(uint8_t *c, const bvh_header *h)
{
    (void)h;
    c[1] = 'X';
}
static void m_version(uint8_t *c, const bvh_header *h)
{
    (void)h;
    st32(c + BVH_OFF_VERSION, 2);
}
static void m_flags(uint8_t *c, const bvh_header *h)
{
    (void)h;
    st32(c + BVH_OFF_FLAGS, 1);
}
static void m_pad(uint8_t *c, const bvh_header *h)
{
    (void)h;
    c[100] = 1;
}
static void m_nodes_off(uint8_t *c, const bvh_header *h)
{
    (void)h;
    c[BVH_OFF_NODES] = 64;
}
static void m_ranges_off(uint8_t *c, const bvh_header *h)
{
    (void)h;
    st32(c + BVH_OFF_RANGES, (uint32_t)h->ranges_off + 8);
}
static void m_ranges_huge(uint8_t *c, const bvh_header *h)
{
    (void)h;
    st32(c + BVH_OFF_RANGES + 4, 0x10000);
}
static void m_tri_count(uint8_t *c, const bvh_header *h)
{
    st32(c + BVH_OFF_TRI_COUNT, h->tri_count + 1);
}
static void m_cycle(uint8_t *c, const bvh_header *h)
{
    /* a child node of the root points back at the root */
    uint8_t *root = child_slot(c, h, 0);
    unsigned ch = first_of_kind(root, RT_CHILD_NODE);
    uint32_t idx = root[48 + 3 * ch] | root[49 + 3 * ch] << 8 | (uint32_t)root[50 + 3 * ch] << 16;
    uint8_t *kid = child_slot(c, h, idx / 4);
    unsigned kc = first_of_kind(kid, RT_CHILD_NODE);
    set_index(kid, kc, 0);
}
static void m_share(uint8_t *c, const bvh_header *h)
{
    uint8_t *root = child_slot(c, h, 0);
    unsigned a = first_of_kind(root, RT_CHILD_NODE);
    for (unsigned b = a + 1; b < 4; b++)
        if (((root[60] >> (2 * b)) & 3u) == RT_CHILD_NODE) {
            memcpy(root + 48 + 3 * b, root + 48 + 3 * a, 3);
            memcpy(root + 12 * b, root + 12 * a, 12);
            return;
        }
    fail();
}
static void m_unaligned_node(uint8_t *c, const bvh_header *h)
{
    uint8_t *root = child_slot(c, h, 0);
    root[48 + 3 * first_of_kind(root, RT_CHILD_NODE)] += 1;
}
static void m_node_range(uint8_t *c, const bvh_header *h)
{
    uint8_t *root = child_slot(c, h, 0);
    set_index(root, first_of_kind(root, RT_CHILD_NODE), 4u * h->node_count);
}
static void m_leaf_range(uint8_t *c, const bvh_header *h)
{
    uint8_t *n = child_slot(c, h, h->node_count - 1);
    set_index(n, first_of_kind(n, RT_CHILD_LEAF), 1);
}
static void m_kind3(uint8_t *c, const bvh_header *h)
{
    uint8_t *root = child_slot(c, h, 0);
    root[60] |= 3u << (2 * first_of_kind(root, RT_CHILD_NODE));
}
static void m_flag_hi(uint8_t *c, const bvh_header *h)
{
    child_slot(c, h, 0)[62] = 1;
}
static void m_unreached(uint8_t *c, const bvh_header *h)
{
    uint8_t *root = child_slot(c, h, 0);
    root[60] &= (uint8_t) ~(3u << (2 * first_of_kind(root, RT_CHILD_NODE)));
}
static void m_range_count0(uint8_t *c, const bvh_header *h)
{
    st32(c + h->ranges_off + 4, 0);
}
static void m_range_past(uint8_t *c, const bvh_header *h)
{
    st32(c + h->ranges_off, h->tri_count - 1);
    st32(c + h->ranges_off + 4, 2);
}
static void m_range_base(uint8_t *c, const bvh_header *h)
{
    c[h->ranges_off + 8] ^= 0x40;
}
static void m_box_shrink(uint8_t *c, const bvh_header *h)
{
    /* the last node's first leaf box shrunk to a point at its min corner */
    uint8_t *n = child_slot(c, h, h->node_count - 1);
    unsigned ch = first_of_kind(n, RT_CHILD_LEAF);
    memcpy(n + 12 * ch + 6, n + 12 * ch, 6);
}
static void m_box_nan(uint8_t *c, const bvh_header *h)
{
    uint8_t *root = child_slot(c, h, 0);
    root[0] = 0x00;
    root[1] = 0x7e; /* binary16 NaN */
}
static void m_tri_nan(uint8_t *c, const bvh_header *h)
{
    st32(c + h->tris_off + 36u * 5 + 4, 0x7fc00000u);
}
static void m_tri_outside(uint8_t *c, const bvh_header *h)
{
    float f = 1000.0f;
    uint32_t u;
    memcpy(&u, &f, 4);
    st32(c + h->tris_off + 36u * 5 + 4, u);
}

static void test_validator(void **state)
{
    (void)state;
    tri9 *t = random_mesh(400, 1.0f, 0.1f);
    bvh_blob b = build_ok((const tri9 *)t, 400);
    bvh_header h;
    bvh_header_decode(b.data, &h);
    assert_true(h.node_count > 4);
    expect_bad(&b, NULL, 100, "truncated");
    expect_bad(&b, NULL, b.size - 1, "truncated");
    expect_bad(&b, NULL, (size_t)h.ranges_off - 1, "beyond the blob");
    expect_bad(&b, m_magic, b.size, "magic");
    expect_bad(&b, m_version, b.size, "version");
    expect_bad(&b, m_flags, b.size, "flags");
    expect_bad(&b, m_pad, b.size, "padding");
    expect_bad(&b, m_nodes_off, b.size, "nodes_off");
    expect_bad(&b, m_ranges_off, b.size, "ranges_off");
    expect_bad(&b, m_ranges_huge, b.size, "ranges_off");
    expect_bad(&b, m_tri_count, b.size, "truncated");
    expect_bad(&b, m_cycle, b.size, "reached twice");
    expect_bad(&b, m_share, b.size, "reached twice");
    expect_bad(&b, m_unaligned_node, b.size, "not a node");
    expect_bad(&b, m_node_range, b.size, "not a node");
    expect_bad(&b, m_leaf_range, b.size, "not a TriRange");
    expect_bad(&b, m_kind3, b.size, "reserved kind");
    expect_bad(&b, m_flag_hi, b.size, "child_flags");
    expect_bad(&b, m_unreached, b.size, "not reachable");
    expect_bad(&b, m_range_count0, b.size, "TriRange 0");
    expect_bad(&b, m_range_past, b.size, "TriRange 0");
    expect_bad(&b, m_range_base, b.size, "base");
    expect_bad(&b, m_box_shrink, b.size, "not inside the leaf box");
    expect_bad(&b, m_box_nan, b.size, "finite box");
    expect_bad(&b, m_tri_nan, b.size, "non-finite");
    expect_bad(&b, m_tri_outside, b.size, "outside the header bounds");

    /* random damage: refused or accepted, never a crash or an out-of-bounds read (the
     * sanitizer build checks the latter); the copy is exactly size bytes */
    unsigned refused = 0;
    for (int i = 0; i < 3000; i++) {
        size_t size = i % 10 == 0 ? (size_t)(rnext() % b.size) : b.size;
        uint8_t *c = malloc(size ? size : 1);
        memcpy(c, b.data, size);
        int flips = 1 + (int)(rnext() % 4);
        for (int f = 0; f < flips && size; f++)
            c[rnext() % size] ^= (uint8_t)(1u << (rnext() % 8));
        char err[256];
        refused += !bvh_check(c, size, 0, NULL, err, sizeof err);
        free(c);
    }
    assert_true(refused > 1000);
    bvh_blob_free(&b);
    free(t);
}

static void expect_refused(const tri9 *t, size_t n, const char *what)
{
    bvh_blob b;
    char err[256] = "";
    assert_false(bvh_build(t, n, false, &b, err, sizeof err));
    if (!strstr(err, what)) fprintf(stderr, "expected '%s', got '%s'\n", what, err);
    assert_non_null(strstr(err, what));
    assert_null(b.data);
}

static void test_refused(void **state)
{
    (void)state;
    tri9 t[3] = {{0, 0, 0, 1, 0, 0, 0, 1, 0}, {0, 0, 1, 1, 0, 1, 0, 1, 1}, {0}};
    expect_refused(t, 0, "no triangles");
    t[1][4] = NAN;
    expect_refused(t, 2, "non-finite");
    t[1][4] = INFINITY;
    expect_refused(t, 2, "non-finite");
    t[1][4] = 65505.0f;
    expect_refused(t, 2, "binary16");
    t[1][4] = -70000.0f;
    expect_refused(t, 2, "binary16");
    expect_refused(t, (size_t)BVH_MAX_TRIS + 1, "too many");
    /* the binary16 limit itself is accepted */
    t[1][4] = 65504.0f;
    t[2][0] = -65504.0f;
    bvh_blob b = build_ok((const tri9 *)t, 3);
    bvh_blob_free(&b);
}

/* Inputs that drive SAH to lopsided splits or give no split at all: depth stays bounded
 * and traversal stays correct. */
static void test_depth_bound(void **state)
{
    (void)state;
    enum { N = 3000 };
    tri9 *t = malloc(sizeof *t * N);
    for (int i = 0; i < N; i++) { /* tiny triangles at x = 2^-(i/20): ever closer */
        float x = ldexpf(1.0f, -(i / 20)) * (1.0f + (float)(i % 20) / 32.0f);
        float tr[9] = {x, 0, 0, x, 1, 0, x, 0, 1};
        memcpy(t[i], tr, sizeof tr);
    }
    check_rays((const tri9 *)t, N, 1000);
    for (int i = 0; i < N; i++) { /* all identical */
        float tr[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
        memcpy(t[i], tr, sizeof tr);
    }
    check_rays((const tri9 *)t, N, 500);
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_traversal_procedural),
        cmocka_unit_test(test_traversal_random),
        cmocka_unit_test(test_determinism),
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_validator),
        cmocka_unit_test(test_refused),
        cmocka_unit_test(test_depth_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
