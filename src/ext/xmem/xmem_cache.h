/* xmem_cache.h — the tag-only L1 model of XMEM (errata Q-54): no data, only which lines
 * are resident, dirty and locked, for `xmem.ldg/stg/pref/cctl`. Nothing here changes
 * guest-visible data; the only architectural output is the lock overflow that the unit
 * turns into CAP.XMEM.EVENTS.LOCK_OVF. Pure (no hart): host-testable.
 *
 * Geometry (project decision, docs/xmem.md "Caches and streaming"): ways =
 * CAP.XMEM.PARAMS.L1_WAYS, line = 2^L1_LINE_LOG2 bytes, and a fixed capacity of
 * XMEM_CACHE_L1_BYTES, so sets = XMEM_CACHE_L1_BYTES / (ways * line) rounded down to a
 * power of two, at least 1. No L1 (CAP.XMEM.CAP.L1 = 0 or L1_WAYS = 0): sets = 0, nothing
 * is ever resident and every lock overflows. Set index = line number mod sets.
 * Replacement: LRU among the unlocked ways of the set. Locks: at most ways - 1 locked
 * lines per set, so one way always remains for fills. */
#ifndef XPHMG_EXT_XMEM_CACHE_H
#define XPHMG_EXT_XMEM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

/* The modelled L1 capacity (bytes): the spec and the XML give none. */
#define XMEM_CACHE_L1_BYTES (32u * 1024u)

/* Statistics (not architectural: what the hints and prefetches are allowed to change). */
typedef struct {
    uint64_t hits, misses;   /* xmem.ldg/stg lookups */
    uint64_t fills;          /* lines brought in (misses, prefetches, locks) */
    uint64_t evictions;      /* valid lines replaced */
    uint64_t writebacks;     /* dirty lines written back (eviction, inv, flush) */
    uint64_t invalidations;  /* lines dropped by inv */
    uint64_t prefetches;     /* lines touched by xmem.pref */
    uint64_t hinted[6];      /* xmem.ldg/stg/pref with hint bit n set (L1_ONLY..STREAM) */
    uint64_t lock_overflows; /* lock requests refused */
} xmem_cache_stats;

typedef struct {
    unsigned sets, ways, line_log2;
    uint64_t *tag;     /* sets * ways line numbers (address >> line_log2) */
    uint8_t *flag;     /* XMEM_CACHE_V / _D / _L per way */
    uint64_t *age;     /* LRU stamp per way (larger = more recent) */
    unsigned *nlocked; /* locked lines per set */
    uint64_t clock;
    xmem_cache_stats st;
} xmem_cache;

#define XMEM_CACHE_V 1u /* valid */
#define XMEM_CACHE_D 2u /* dirty */
#define XMEM_CACHE_L 4u /* locked */

/* Geometry from CAP.XMEM.CAP (bit L1) and CAP.XMEM.PARAMS (L1_WAYS, L1_LINE_LOG2);
 * empty. -1 when the host cannot allocate (then c holds nothing to free). */
int xmem_cache_init(xmem_cache *c, uint64_t xmem_cap, uint64_t params);
void xmem_cache_fini(xmem_cache *c);
/* Everything invalid and unlocked, statistics zero (hart reset). */
void xmem_cache_reset(xmem_cache *c);

/* The lines an access of n bytes at a touches, as a tag lookup/fill (a store marks them
 * dirty); hint = the access's hint bits (statistics only). */
void xmem_cache_access(xmem_cache *c, uint64_t a, unsigned n, bool store, unsigned hint);
/* Fills the lines of [a, a + n) (clamped at 2^64) for which ok(ctx, line address) is
 * true (ok NULL: all), at most sets * ways lines (more could only evict each other). */
void xmem_cache_prefetch(xmem_cache *c, uint64_t a, uint64_t n, unsigned hint,
                         bool (*ok)(void *ctx, uint64_t line_addr), void *ctx);
/* inv: resident lines of [a, a + n) are written back and dropped, except locked ones,
 * which are only written back. flush: written back (dirty cleared), kept. */
void xmem_cache_inv(xmem_cache *c, uint64_t a, uint64_t n);
void xmem_cache_flush(xmem_cache *c, uint64_t a, uint64_t n);
/* Locks every line of [a, a + n): a resident locked line stays as it is; another one is
 * brought in and locked unless its set already holds ways - 1 locked lines. Returns true
 * when at least one line could not be locked (LOCK_OVF). */
bool xmem_cache_lock(xmem_cache *c, uint64_t a, uint64_t n);
/* Unlocks the resident lines of [a, a + n) (they stay resident). */
void xmem_cache_unlock(xmem_cache *c, uint64_t a, uint64_t n);

/* Whether the line holding a is resident; *flags = its XMEM_CACHE_* bits (0 if not). */
bool xmem_cache_probe(const xmem_cache *c, uint64_t a, unsigned *flags);
/* The set of address a, and the number of locked lines in set s. */
unsigned xmem_cache_set_of(const xmem_cache *c, uint64_t a);
unsigned xmem_cache_locked_in(const xmem_cache *c, unsigned s);

#endif
