/* bvh_check.c — the XBVH validator, header decoding and relocation (include/xphmg/bvh.h).
 * Every read is bounds-checked against the blob size before it happens, so any byte
 * string is either accepted or refused with a reason, never read out of bounds. */
#include "xphmg/bvh.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_err.h"
#include "rt_kernels.h"

static uint32_t ld32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static uint64_t ld64(const uint8_t *p)
{
    return (uint64_t)ld32(p) | (uint64_t)ld32(p + 4) << 32;
}
static float ldf(const uint8_t *p)
{
    uint32_t u = ld32(p);
    float f;
    memcpy(&f, &u, 4);
    return f;
}

void bvh_header_decode(const uint8_t *b, bvh_header *h)
{
    h->version = ld32(b + BVH_OFF_VERSION);
    h->node_count = ld32(b + BVH_OFF_NODE_COUNT);
    h->range_count = ld32(b + BVH_OFF_RANGE_COUNT);
    h->tri_count = ld32(b + BVH_OFF_TRI_COUNT);
    h->flags = ld32(b + BVH_OFF_FLAGS);
    h->nodes_off = ld64(b + BVH_OFF_NODES);
    h->ranges_off = ld64(b + BVH_OFF_RANGES);
    h->tris_off = ld64(b + BVH_OFF_TRIS);
    for (int k = 0; k < 3; k++) {
        h->bounds_lo[k] = ldf(b + BVH_OFF_BOUNDS_LO + 4 * k);
        h->bounds_hi[k] = ldf(b + BVH_OFF_BOUNDS_HI + 4 * k);
    }
}

static bool box_in(const rt_box *in, const rt_box *out)
{
    for (int k = 0; k < 3; k++)
        if (!(in->lo[k] >= out->lo[k] && in->hi[k] <= out->hi[k])) return false;
    return true;
}

static double area(const rt_box *b)
{
    double d[3];
    for (int k = 0; k < 3; k++)
        d[k] = (double)b->hi[k] - (double)b->lo[k];
    return d[0] * d[1] + d[1] * d[2] + d[2] * d[0];
}

typedef struct {
    uint32_t node;
    unsigned depth;
    bool has_box;
    rt_box box; /* the parent's box of this node */
} visit;

bool bvh_check(const uint8_t *b, size_t size, uint64_t load_addr, bvh_info *info, char *err,
               size_t errlen)
{
    if (size < BVH_HEADER_SIZE)
        return bvh_fail(err, errlen, "truncated: %zu bytes, the header needs %u", size,
                        BVH_HEADER_SIZE);
    if (memcmp(b, BVH_MAGIC, 4) != 0) return bvh_fail(err, errlen, "not an XBVH blob (bad magic)");
    bvh_header h;
    bvh_header_decode(b, &h);
    if (h.version != BVH_VERSION)
        return bvh_fail(err, errlen, "unsupported version %u (expected %u)", h.version,
                        BVH_VERSION);
    if (h.flags != 0) return bvh_fail(err, errlen, "flags 0x%x: must be 0", h.flags);
    for (unsigned i = BVH_HEADER_FIELDS; i < BVH_HEADER_SIZE; i++)
        if (b[i]) return bvh_fail(err, errlen, "header padding byte %u is not zero", i);
    if (h.nodes_off != BVH_HEADER_SIZE)
        return bvh_fail(err, errlen, "nodes_off %llu: must be %u", (unsigned long long)h.nodes_off,
                        BVH_HEADER_SIZE);
    if (h.node_count == 0) return bvh_fail(err, errlen, "no nodes");
    if (h.tri_count == 0) return bvh_fail(err, errlen, "no triangles");
    uint64_t nodes_end = h.nodes_off + (uint64_t)BVH_NODE_SIZE * h.node_count;
    if (h.ranges_off % 16u || h.ranges_off < nodes_end)
        return bvh_fail(err, errlen, "ranges_off %llu: must be 16-byte aligned and after the nodes",
                        (unsigned long long)h.ranges_off);
    if (h.ranges_off > size)
        return bvh_fail(err, errlen, "ranges_off %llu beyond the blob (%zu bytes)",
                        (unsigned long long)h.ranges_off, size);
    uint64_t ranges_end = h.ranges_off + (uint64_t)BVH_RANGE_SIZE * h.range_count;
    if (h.tris_off % 4u || h.tris_off < ranges_end)
        return bvh_fail(err, errlen,
                        "tris_off %llu: must be 4-byte aligned and after the TriRanges",
                        (unsigned long long)h.tris_off);
    if (h.tris_off > size)
        return bvh_fail(err, errlen, "tris_off %llu beyond the blob (%zu bytes)",
                        (unsigned long long)h.tris_off, size);
    if ((uint64_t)BVH_TRI_SIZE * h.tri_count > size - h.tris_off)
        return bvh_fail(err, errlen, "truncated: %u triangles at %llu need %llu bytes, have %zu",
                        h.tri_count, (unsigned long long)h.tris_off,
                        (unsigned long long)(h.tris_off + (uint64_t)BVH_TRI_SIZE * h.tri_count),
                        size);
    rt_box bounds;
    for (int k = 0; k < 3; k++) {
        bounds.lo[k] = h.bounds_lo[k];
        bounds.hi[k] = h.bounds_hi[k];
        if (!isfinite(bounds.lo[k]) || !isfinite(bounds.hi[k]) || bounds.lo[k] > bounds.hi[k])
            return bvh_fail(err, errlen, "header bounds are not a finite box");
    }
    const uint8_t *tris = b + h.tris_off;
    for (uint32_t t = 0; t < h.tri_count; t++)
        for (int v = 0; v < 3; v++) {
            rt_box p;
            for (int k = 0; k < 3; k++) {
                float x = ldf(tris + BVH_TRI_SIZE * t + 12 * v + 4 * k);
                if (!isfinite(x))
                    return bvh_fail(err, errlen, "triangle %u: non-finite coordinate", t);
                p.lo[k] = p.hi[k] = x;
            }
            if (!box_in(&p, &bounds))
                return bvh_fail(err, errlen, "triangle %u lies outside the header bounds", t);
        }

    uint64_t leaf_lo = (h.ranges_off - h.nodes_off) / 16u;
    uint64_t base_want = load_addr + h.tris_off;
    uint8_t *seen = calloc(h.node_count, 1);
    uint8_t *rseen = calloc(h.range_count ? h.range_count : 1, 1);
    visit *st = malloc(sizeof *st * ((size_t)3 * BVH_MAX_DEPTH + 4));
    if (!seen || !rseen || !st) {
        free(seen);
        free(rseen);
        free(st);
        return bvh_fail(err, errlen, "out of memory");
    }
    bvh_info inf;
    memset(&inf, 0, sizeof inf);
    inf.hdr = h;
    double aroot = area(&bounds);
    if (!(aroot > 0.0)) aroot = 1.0;
    bool ok = true;
    unsigned sp = 0;
    st[sp++] = (visit){0, 1, false, bounds};
    uint32_t reached = 0;
    while (ok && sp > 0) {
        visit e = st[--sp];
        if (seen[e.node]) {
            ok = bvh_fail(err, errlen, "node %u reached twice (a cycle or a shared subtree)",
                          e.node);
            break;
        }
        seen[e.node] = 1;
        reached++;
        if (e.depth > inf.depth) inf.depth = e.depth;
        if (e.depth > BVH_MAX_DEPTH) {
            ok = bvh_fail(err, errlen, "deeper than %u node levels", BVH_MAX_DEPTH);
            break;
        }
        rt_node4 n;
        rt_node4_decode(b + h.nodes_off + (uint64_t)BVH_NODE_SIZE * e.node, &n);
        if (b[h.nodes_off + (uint64_t)BVH_NODE_SIZE * e.node + 61] ||
            b[h.nodes_off + (uint64_t)BVH_NODE_SIZE * e.node + 62] ||
            b[h.nodes_off + (uint64_t)BVH_NODE_SIZE * e.node + 63]) {
            ok = bvh_fail(err, errlen, "node %u: child_flags bits 31:8 are not zero", e.node);
            break;
        }
        for (unsigned c = 0; ok && c < 4; c++) {
            if (n.kind[c] == RT_CHILD_EMPTY) {
                inf.empty_slots++;
                continue;
            }
            if (n.kind[c] == 3) {
                ok = bvh_fail(err, errlen, "node %u child %u: reserved kind 3", e.node, c);
                break;
            }
            const rt_box *cb = &n.box[c];
            for (int k = 0; k < 3; k++)
                if (!isfinite(cb->lo[k]) || !isfinite(cb->hi[k]) || cb->lo[k] > cb->hi[k])
                    ok = bvh_fail(err, errlen, "node %u child %u: box is not a finite box", e.node,
                                  c);
            if (!ok) break;
            if (e.has_box && !box_in(cb, &e.box)) {
                ok = bvh_fail(err, errlen, "node %u child %u: box is not inside its parent's box",
                              e.node, c);
                break;
            }
            if (n.kind[c] == RT_CHILD_NODE) {
                uint32_t idx = n.index[c];
                if (idx % 4u || idx / 4u >= h.node_count) {
                    ok = bvh_fail(err, errlen,
                                  "node %u child %u: node index %u is not a node of the blob",
                                  e.node, c, idx);
                    break;
                }
                if (sp >= 3u * BVH_MAX_DEPTH + 4u) {
                    ok = bvh_fail(err, errlen, "deeper than %u node levels", BVH_MAX_DEPTH);
                    break;
                }
                inf.sah_cost += area(cb) / aroot;
                st[sp++] = (visit){idx / 4u, e.depth + 1, true, *cb};
                continue;
            }
            /* leaf */
            uint64_t idx = n.index[c];
            if (idx < leaf_lo || idx - leaf_lo >= h.range_count) {
                ok = bvh_fail(err, errlen,
                              "node %u child %u: leaf index %llu is not a TriRange of the blob",
                              e.node, c, (unsigned long long)idx);
                break;
            }
            uint64_t r = idx - leaf_lo;
            if (rseen[r]) {
                ok = bvh_fail(err, errlen, "TriRange %llu is referenced twice",
                              (unsigned long long)r);
                break;
            }
            rseen[r] = 1;
            rt_trirange tr;
            rt_trirange_decode(b + h.ranges_off + BVH_RANGE_SIZE * r, &tr);
            if (tr.count == 0 || tr.count > BVH_MAX_LEAF ||
                (uint64_t)tr.first + tr.count > h.tri_count) {
                ok = bvh_fail(err, errlen,
                              "TriRange %llu: first %u count %u outside the %u triangles (count "
                              "1..%u)",
                              (unsigned long long)r, tr.first, tr.count, h.tri_count, BVH_MAX_LEAF);
                break;
            }
            if (tr.base != base_want) {
                ok = bvh_fail(err, errlen, "TriRange %llu: base 0x%llx, expected 0x%llx",
                              (unsigned long long)r, (unsigned long long)tr.base,
                              (unsigned long long)base_want);
                break;
            }
            for (uint32_t t = tr.first; ok && t < tr.first + tr.count; t++) {
                float v[3][3];
                rt_tri_decode(tris + (uint64_t)BVH_TRI_SIZE * t, RT_ELEM_FP32, v);
                for (int k = 0; k < 3; k++) {
                    rt_box p;
                    for (int a = 0; a < 3; a++)
                        p.lo[a] = p.hi[a] = v[k][a];
                    if (!box_in(&p, cb))
                        ok = bvh_fail(err, errlen,
                                      "node %u child %u: triangle %u is not inside the leaf box",
                                      e.node, c, t);
                }
            }
            inf.leaves++;
            if (tr.count > inf.max_leaf) inf.max_leaf = tr.count;
            inf.sah_cost += area(cb) / aroot * tr.count;
        }
    }
    if (ok && reached != h.node_count)
        ok = bvh_fail(err, errlen, "%u of %u nodes are not reachable from the root",
                      h.node_count - reached, h.node_count);
    if (ok)
        for (uint32_t r = 0; r < h.range_count; r++)
            if (!rseen[r]) {
                ok = bvh_fail(err, errlen, "TriRange %u is not referenced by any node", r);
                break;
            }
    free(seen);
    free(rseen);
    free(st);
    if (ok && info) *info = inf;
    return ok;
}

uint64_t bvh_relocate(uint8_t *blob, uint64_t addr)
{
    bvh_header h;
    bvh_header_decode(blob, &h);
    for (uint32_t r = 0; r < h.range_count; r++) {
        uint8_t *p = blob + h.ranges_off + BVH_RANGE_SIZE * r + 8;
        uint64_t v = addr + h.tris_off;
        for (int i = 0; i < 8; i++)
            p[i] = (uint8_t)(v >> (8 * i));
    }
    return h.nodes_off;
}
