/* xphmg/bvh.h — the BVH builder and the XBVH blob (src/bvh, docs/bvh.md).
 *
 * bvh_build() turns a non-indexed list of FP32 triangles into one XBVH blob: a 4-wide
 * BVH built with binned SAH (leaves of at most 4 triangles, bounded depth) whose node
 * tiles are FMT_BVHNODE4 (errata Q-67, encoded by rt_node4_encode: binary16 boxes
 * rounded outward), whose leaves are FMT_TRIRANGE records and whose triangles are
 * FMT_TRIANGLE (FP32, 36 bytes), in leaf order. The output depends only on the input
 * triangles (same bytes for the same triangles, whatever the host).
 *
 * XBVH file (little-endian):
 *   header: char magic[4] = "XBVH"; u32 version = 1; u32 node_count; u32 range_count;
 *     u32 tri_count; u32 flags = 0; u64 nodes_off; u64 ranges_off; u64 tris_off;
 *     f32 bounds_lo[3]; f32 bounds_hi[3] (72 bytes of fields), zero padding to 128 bytes
 *   node tiles at nodes_off = 128 (64-byte aligned, root first)
 *   TriRanges at ranges_off (16-byte aligned, after the nodes)
 *   triangles at tris_off (64-byte aligned, after the TriRanges)
 * bvh_base = blob + nodes_off; a child index counts 16-byte units from bvh_base (a node
 * child = 4 * its node number, a leaf = the unit of its TriRange). Every TriRange.base
 * holds tris_off, the offset of the triangle array from the blob start; a loader sets it
 * to load address + tris_off (bvh_relocate, or xphmg_bvh_relocate for guests,
 * target/include/xphmg_bvh.h). */
#ifndef XPHMG_BVH_H
#define XPHMG_BVH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define BVH_MAGIC       "XBVH"
#define BVH_VERSION     1u
#define BVH_HEADER_SIZE 128u /* 72 bytes of fields, padded to a node tile boundary */
#define BVH_NODE_SIZE   64u
#define BVH_RANGE_SIZE  16u
#define BVH_TRI_SIZE    36u
#define BVH_MAX_LEAF    4u       /* triangles per leaf */
#define BVH_MAX_DEPTH   64u      /* node levels below the root; 3 * 64 + 1 stack entries suffice */
#define BVH_COORD_MAX   65504.0f /* largest binary16 magnitude */
#define BVH_MAX_TRIS    (1u << 26)

/* Header offsets (bytes). */
enum {
    BVH_OFF_MAGIC = 0,
    BVH_OFF_VERSION = 4,
    BVH_OFF_NODE_COUNT = 8,
    BVH_OFF_RANGE_COUNT = 12,
    BVH_OFF_TRI_COUNT = 16,
    BVH_OFF_FLAGS = 20,
    BVH_OFF_NODES = 24,
    BVH_OFF_RANGES = 32,
    BVH_OFF_TRIS = 40,
    BVH_OFF_BOUNDS_LO = 48,
    BVH_OFF_BOUNDS_HI = 60,
    BVH_HEADER_FIELDS = 72,
};

/* The header, decoded. */
typedef struct {
    uint32_t version, node_count, range_count, tri_count, flags;
    uint64_t nodes_off, ranges_off, tris_off;
    float bounds_lo[3], bounds_hi[3];
} bvh_header;

/* A built blob (malloc'ed; bvh_blob_free). perm[i] = the input index of stored triangle i
 * (NULL unless asked for). */
typedef struct {
    uint8_t *data;
    size_t size;
    uint32_t *perm;
} bvh_blob;

/* Statistics of a checked blob. */
typedef struct {
    bvh_header hdr;
    unsigned depth;       /* node levels (root alone = 1) */
    unsigned leaves;      /* leaf children (TriRanges reached) */
    unsigned empty_slots; /* empty child slots over all nodes */
    unsigned max_leaf;    /* most triangles in one leaf */
    double sah_cost;      /* sum over nodes/leaves of area(box)/area(root), leaves x count */
} bvh_info;

/* Builds the blob for n triangles tris[i] = {v0.xyz, v1.xyz, v2.xyz}. Returns true, or
 * false with a one-line reason in err (no triangles, too many, a NaN/infinite
 * coordinate, a coordinate beyond +-65504, out of memory). want_perm: fill out->perm. */
bool bvh_build(const float (*tris)[9], size_t n, bool want_perm, bvh_blob *out, char *err,
               size_t errlen);
void bvh_blob_free(bvh_blob *b);

/* Checks a blob in file form (TriRange.base == tris_off) or, with load_addr != 0, in
 * relocated form (base == load_addr + tris_off): header (magic, version, flags, section
 * offsets in order, aligned and inside size, counts), every node reachable from the root
 * exactly once (no cycles, no sharing), child kinds, node indices and leaf indices inside
 * their sections, TriRanges (count 1..BVH_MAX_LEAF, inside the triangle array, base),
 * depth <= BVH_MAX_DEPTH, finite triangles inside the header bounds, and every child box
 * containing its subtree (child boxes, leaf triangles). true, with info when not NULL;
 * false with a one-line reason in err. */
bool bvh_check(const uint8_t *blob, size_t size, uint64_t load_addr, bvh_info *info, char *err,
               size_t errlen);

/* Reads the header fields (blob holds at least BVH_HEADER_SIZE bytes; no checks). */
void bvh_header_decode(const uint8_t *blob, bvh_header *h);

/* Sets every TriRange.base of a blob in memory to (uint64_t)addr + tris_off, where addr
 * is the address the blob will have for the reader (idempotent). Returns the offset of
 * bvh_base (nodes_off). The blob must have passed bvh_check. */
uint64_t bvh_relocate(uint8_t *blob, uint64_t addr);

/* Built-in meshes for examples, benches and tests (no asset files). names: "sphere" (a
 * UV sphere of radius 1), "terrain" (a height field over [-1,1]^2), "soup" (random small
 * triangles in [-1,1]^3, fixed seed), "grid" (a flat grid with integer-valued vertices,
 * many shared edges), "scene" (the terrain with three spheres above it: the picture of
 * scripts/demo.sh). ntris is a target: the mesh has about that many (at least 2).
 * Returns a malloc'ed array and *n, or NULL for an unknown name / out of memory. */
float (*bvh_procedural(const char *name, size_t ntris, size_t *n))[9];
/* The names above, NULL-terminated. */
extern const char *const bvh_procedural_names[];

#ifdef __cplusplus
}
#endif

#endif
