/* xphmg_bvh.h — the XBVH blob for guest programs (written by the host tool xphmg-bvh;
 * format in include/xphmg/bvh.h and docs/bvh.md). A guest loads the whole file into
 * memory (any 64-byte aligned address), calls xphmg_bvh_relocate() once (calling it
 * again is harmless) and gets bvh_base: the root node tile, the base that child indices
 * count 16-byte units from (RTBASE for software traversal, bvh_base of FMT_RT_DESC).
 * Triangles (FMT_TRIANGLE, FP32) are at blob + tris_off; rt.tri PRIM numbers index them. */
#ifndef XPHMG_BVH_GUEST_H
#define XPHMG_BVH_GUEST_H

#include <stdint.h>

/* Little-endian, 128 bytes (72 bytes of fields, zero padding to the first node tile). */
typedef struct {
    char magic[4];    /* "XBVH" */
    uint32_t version; /* 1 */
    uint32_t node_count;
    uint32_t range_count;
    uint32_t tri_count;
    uint32_t flags;      /* 0 */
    uint64_t nodes_off;  /* 128: node tiles (FMT_BVHNODE4), root first */
    uint64_t ranges_off; /* TriRanges (FMT_TRIRANGE), 16-byte aligned */
    uint64_t tris_off;   /* triangles (FMT_TRIANGLE, 36 bytes), 64-byte aligned */
    float bounds_lo[3], bounds_hi[3];
    uint8_t pad[56];
} xphmg_bvh_header;

_Static_assert(sizeof(xphmg_bvh_header) == 128, "XBVH header is 128 bytes");

/* Sets every TriRange.base to blob + tris_off and returns bvh_base (blob + nodes_off);
 * NULL when the blob does not start with "XBVH" version 1. */
static inline void *xphmg_bvh_relocate(void *blob)
{
    xphmg_bvh_header *h = (xphmg_bvh_header *)blob;
    if (h->magic[0] != 'X' || h->magic[1] != 'B' || h->magic[2] != 'V' || h->magic[3] != 'H' ||
        h->version != 1)
        return (void *)0;
    uint8_t *b = (uint8_t *)blob;
    uint64_t base = (uint64_t)(uintptr_t)(b + h->tris_off);
    for (uint32_t r = 0; r < h->range_count; r++)
        *(uint64_t *)(b + h->ranges_off + 16u * r + 8u) = base;
    return b + h->nodes_off;
}

/* The triangle array (9 floats each: v0.xyz, v1.xyz, v2.xyz). */
static inline const float *xphmg_bvh_triangles(const void *blob)
{
    const xphmg_bvh_header *h = (const xphmg_bvh_header *)blob;
    return (const float *)((const uint8_t *)blob + h->tris_off);
}

#endif
