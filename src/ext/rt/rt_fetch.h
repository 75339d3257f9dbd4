/* rt_fetch.h — how XPHMG_RT reads its records: the one fetch interface of the RT
 * instructions (rt_unit.c) and of the offload traversal (rt_job.c), under the XMEM rules
 * for indexed accesses (XPHMG_RT 8.3, 8.6; errata Q-61, P-320).
 *
 * A record — a ray (8 elements), a node tile (64 or 128 bytes), a TriRange (16 bytes) or
 * a triangle (9 elements) — is one element of an SVMEM gather: its address comes from an
 * index scaled by the record size (child index * 16 from the BVH base, triangle index *
 * triangle bytes from TriRange.base, ray slot * ray bytes from the queue base), it is
 * read as naturally aligned units (8-byte words for nodes and TriRanges, elements for rays
 * and triangles), and an inaccessible unit is handled as SVMEM handles an inaccessible
 * element (errata ):
 *   - with oob_zero (the snapshot's SVMMODE.BOUND_CHECK = ALLOW_OOB_ZERO = 1) the whole
 *     record reads as zero — a zero node has four empty children, a zero TriRange no
 *     triangles, a zero triangle is degenerate, a zero ray has no direction: a miss —
 *     and INV_MISS is reported;
 *   - otherwise the fetch fails with RT_FETCH_ACCESS at the first inaccessible unit in
 *     field order (INV_MISS too). Who then traps, stops fault-only-first or ends a job is
 *     the caller's decision: a fetch belongs to one lane (one ray).
 * A misaligned record (not a multiple of its alignment) always fails with
 * RT_FETCH_MISALIGNED at the record's address (INV_MISS too); OOB-zero does not apply.
 *
 * Nothing is cached here: a caller that keeps decoded records (node tiles) across fetches
 * must itself make sure the guest memory behind them has not changed, and must repeat the
 * fetch (so that faults and OOB-zero are decided by this module) for anything it has not
 * successfully fetched before. */
#ifndef XPHMG_EXT_RT_FETCH_H
#define XPHMG_EXT_RT_FETCH_H

#include <stdbool.h>
#include <stdint.h>

#include "rt_kernels.h"

/* Guest memory (sizes 1, 2, 4, 8, little-endian). A call that returns false is an
 * access fault and must have had no effect. */
typedef struct {
    void *ctx;
    bool (*load)(void *ctx, uint64_t addr, unsigned size, uint64_t *val);
    bool (*store)(void *ctx, uint64_t addr, unsigned size, uint64_t val);
    /* Optional (may be NULL): a host pointer to the `size` bytes at addr when they are
     * plain memory that loads would read without side effects and without a fault, else
     * NULL (the fetch then uses load). Called from several threads at once when an
     * offload job runs split (rt_job_engine with threads > 1), so it must not change any
     * state. */
    const uint8_t *(*map)(void *ctx, uint64_t addr, unsigned size);
    /* Optional (NULL: free): charges units of work (one per node visited, one per
     * triangle of a TriRange, before testing it); true = the run's budget is exhausted
     * and the job ends with RT_JOB_BUDGET (hart_charge, errata P-300). An offload job
     * with a charge callback is never split across threads. */
    bool (*charge)(void *ctx, uint64_t units);
    /* Optional (may be NULL): a host pointer to the `size` bytes at addr when stores there
     * would do nothing but write those bytes (plain memory: no fault, no side effect, no
     * observer of the individual stores), else NULL. An offload job asks once for each
     * queue descriptor and entry array it writes, and writes what it gets directly
     * instead of calling store; the memory it leaves is the same. */
    uint8_t *(*map_w)(void *ctx, uint64_t addr, uint64_t size);
    /* Optional, both or neither (NULL: an offload engine keeps no decoded record from one
     * job to the next). They let an engine keep what it decoded while nothing it was
     * decoded from can have changed (rt_job.h "the engine's state kept between jobs").
     * Called only from the thread that runs the job, never while a split job's other
     * threads run.
     *
     * epoch: a value for the memory's state. Whenever, since an earlier call returned v,
     * a byte of a range watched (below) after that call may have been written by anyone
     * (the guest, the host, a device, a debugger, the loader; a job's own stores
     * included), or map may serve different bytes, fail or start serving for any address,
     * or a load could fault or read other bytes than map serves, a later call returns a
     * value other than v. A memory that cannot tell returns a new value at every call.
     * Values are compared only between calls on the same ctx and epoch function: a memory
     * that reuses its ctx for other contents must not return an old value again.
     *
     * watch: asks that any later write to [addr, addr + n) (n > 0, no wrap) changes the
     * epoch, until the epoch next changes (a memory may then forget every watched range:
     * the engine watches again what it keeps). True only when map serves every byte of the
     * range now (plain memory, as map's contract says) and the watch is in place; false
     * (nothing watched) otherwise, and the engine then keeps nothing. */
    uint64_t (*epoch)(void *ctx);
    bool (*watch)(void *ctx, uint64_t addr, uint64_t n);
} rt_mem;

typedef enum {
    RT_FETCH_OK = 0,
    RT_FETCH_ACCESS,     /* an inaccessible unit, oob_zero off: fault_addr = that unit */
    RT_FETCH_MISALIGNED, /* fault_addr = the record's address */
} rt_fetch_status;

typedef struct {
    const rt_mem *mem;
    bool oob_zero;               /* in: SVMMODE.BOUND_CHECK && SVMMODE.ALLOW_OOB_ZERO */
    bool map_only;               /* in: read through mem->map only (a split job's tracer thread) */
    const uint64_t (*forbid)[2]; /* in (map_only): nforbid address ranges [lo, hi) the
                                    fetch must not read (what a split job writes), sorted
                                    by lo */
    unsigned nforbid;
    uint64_t clear[2];   /* in (map_only, optional): a range [lo, hi) known to overlap no
                            forbidden range (a split job's ray slots): a fetch inside it
                            skips the check */
    bool declined;       /* out (map_only): a record map() could not serve, or one that
                            overlaps a forbidden range; the fetch read nothing, failed with
                            RT_FETCH_ACCESS and decided nothing */
    bool inv_miss;       /* out: set by every failed or zero-filled fetch */
    uint64_t fault_addr; /* out: of the last failed fetch */
    /* in, optional (NULL: no cache model): told of every record read that succeeded, as
     * cache(mem->ctx, cache_ctx, addr, size), so that the XMEM L1 model sees the reads of
     * rt.bbox / rt.tri (errata P-224) */
    void (*cache)(void *ctx, void *cache_ctx, uint64_t addr, unsigned size);
    void *cache_ctx;
} rt_fetch;

/* Alignments (errata ): node tiles 64 bytes (a Node8 128), TriRanges 16,
 * rays and triangles their element size. */
rt_fetch_status rt_fetch_ray(rt_fetch *f, uint64_t addr, rt_elem e, rt_ray *ray);
/* One element of format e at addr, widened to binary32 (the W_GUARD w, errata P-323). */
rt_fetch_status rt_fetch_elem(rt_fetch *f, uint64_t addr, rt_elem e, float *x);
/* ntiles (1 = BVHNode4, 2 = BVHNode8) consecutive tiles at addr: their 64 * ntiles bytes,
 * for the caller's decoder (rt_node4_decode for rt.bbox, rt_node4w_decode for traversal). */
rt_fetch_status rt_fetch_node(rt_fetch *f, uint64_t addr, unsigned ntiles, uint8_t bytes[128]);
rt_fetch_status rt_fetch_trirange(rt_fetch *f, uint64_t addr, rt_trirange *tr);
/* Triangle index of the non-indexed buffer at base (address base + index * 9 elements,
 * modulo 2^64). */
rt_fetch_status rt_fetch_tri(rt_fetch *f, uint64_t base, uint64_t index, rt_elem e, float v[3][3]);
/* A host pointer to the n bytes at addr when every fetch of records of alignment align
 * inside them would read them as they are: addr aligned, mem->map serving the whole run,
 * no forbidden range (map_only) overlapping it and no cache model to tell; else (and for
 * n = 0) NULL. No
 * effect either way: a caller that gets NULL fetches record by record, which decides the
 * faults, zero fills and declines. */
const uint8_t *rt_fetch_run(const rt_fetch *f, uint64_t addr, uint64_t align, uint64_t n);

#endif
