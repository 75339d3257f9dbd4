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
 * Replacement: among the unlocked ways of the set that the access's policy allows (the
 * class's CLSMAP way mask, narrowed by a descriptor's WAYMASK): an invalid way, else the
 * way with the lowest (soft-pinned, qos, LRU age) rank; lookups hit in any way. Locks: at most ways
 * - 1 locked lines per set. An access whose allowed ways are all locked (or empty), or that asks
 * not to allocate (L2_ONLY), bypasses: it is looked up but fills nothing.
 *
 * The policy (xmem_cache_pol) is what the unit latched at the instruction boundary: the
 * way mask of the active class, the hints and the stream profile (XMEM 5.3, errata Q-54).
 * None of it changes data; it changes which lines are resident and the statistics. */
#ifndef XPHMG_EXT_XMEM_CACHE_H
#define XPHMG_EXT_XMEM_CACHE_H

#include <stdbool.h>
#include <stdint.h>

/* The modelled L1 capacity (bytes): the spec and the XML give none. */
#define XMEM_CACHE_L1_BYTES (32u * 1024u)

/* Statistics (not architectural, XMEM 9.3: what the hints, class masks and stream
 * profiles are allowed to change). The order is the guest-visible one (XMEM_L1STAT). */
typedef struct {
    uint64_t hits, misses;      /* xmem.ldg/stg lookups */
    uint64_t fills;             /* lines brought in (misses, prefetches, locks) */
    uint64_t evictions;         /* valid lines replaced */
    uint64_t writebacks;        /* dirty lines written back (eviction, inv, flush) */
    uint64_t invalidations;     /* lines dropped by inv */
    uint64_t prefetches;        /* lines touched by xmem.pref */
    uint64_t stream_prefetches; /* lines touched by a stream profile after an access */
    uint64_t bypasses;          /* missing lines not filled (L2_ONLY, no usable way) */
    uint64_t nontemp_fills;     /* fills placed as least recently used */
    uint64_t lock_overflows;    /* lock requests refused */
    uint64_t locked;            /* lines locked now */
    uint64_t hinted[6];         /* xmem.ldg/stg/pref with hint bit n set (L1_ONLY..STREAM) */
} xmem_cache_stats;

/* The number of counters, their names ("hits", ...) and values in the order above. */
#define XMEM_CACHE_NSTATS 18u
const char *xmem_cache_stat_name(unsigned i);
uint64_t xmem_cache_stat(const xmem_cache_stats *st, unsigned i);

/* Hint bits (xmem.ldg/stg/pref imm, errata Q-54). */
#define XMEM_HINT_L1_ONLY  0x01u
#define XMEM_HINT_L2_ONLY  0x02u /* no L1 allocation */
#define XMEM_HINT_LDS_PREF 0x04u
#define XMEM_HINT_NONTEMP  0x08u /* fill as least recently used (CAP.XMEM.CAP.NONTEMP) */
#define XMEM_HINT_LOCK     0x10u
#define XMEM_HINT_STREAM   0x20u /* apply the stream profile (CAP.XMEM.CAP.STREAM_PROF) */

/* What one instruction may do to the cache. */
typedef struct {
    uint64_t waymask;       /* ways a fill may use (bit w = way w) */
    bool no_alloc;          /* look up only */
    bool nontemp;           /* fills become the next victim */
    unsigned stream_depth;  /* lines fetched ahead after the access (PF_DEPTH) */
    uint64_t stream_stride; /* bytes between them (STRIDE; 0 = one line) */
    /* From the XPHMG_MEMCTL of the region the access lies in (errata P-208..P-211): */
    bool lock_fill;     /* lines it makes resident are locked, best effort (no event) */
    unsigned fill_log2; /* a demand miss fills the aligned 2^fill_log2-line block */
    uint16_t qos;       /* replacement priority of the lines it makes resident */
    uint64_t pin_lo;    /* lines in [pin_lo, pin_hi) are soft-pinned: evicted only */
    uint64_t pin_hi;    /* when every other candidate way is pinned too */
} xmem_cache_pol;

/* The cache hints of a region's XPHMG_MEMCTL (XMEM 4.3): l1_hint (LOCK 0, STREAM 1,
 * NONTEMP 2, WAYMASK 7:3), line_sz in bytes, qos, and the soft-pinned byte range
 * [pin_lo, pin_hi) (the region's first lds_softpin bytes). */
typedef struct {
    unsigned l1_hint;
    unsigned line_sz;
    unsigned qos;
    uint64_t pin_lo, pin_hi;
} xmem_cache_memctl;

#define XMEM_MEMCTL_L1_LOCK      0x01u
#define XMEM_MEMCTL_L1_STREAM    0x02u
#define XMEM_MEMCTL_L1_NONTEMP   0x04u
#define XMEM_MEMCTL_L1_WAY_SHIFT 3u

typedef struct {
    unsigned sets, ways, line_log2;
    uint64_t *tag;     /* sets * ways line numbers (address >> line_log2) */
    uint8_t *flag;     /* XMEM_CACHE_V / _D / _L per way */
    uint64_t *age;     /* LRU stamp per way (larger = more recent) */
    uint16_t *qos;     /* replacement priority per way (MEMCTL qos of its last user) */
    unsigned *nlocked; /* locked lines per set */
    uint64_t clock;
    xmem_cache_stats st;
    xmem_cache_pol pol; /* the current instruction's policy (reset: xmem_cache_pol_all) */
} xmem_cache;

#define XMEM_CACHE_V 1u /* valid */
#define XMEM_CACHE_D 2u /* dirty */
#define XMEM_CACHE_L 4u /* locked */
#define XMEM_CACHE_P 8u /* soft-pinned (MEMCTL lds_softpin) */

/* Geometry from CAP.XMEM.CAP (bit L1) and CAP.XMEM.PARAMS (L1_WAYS, L1_LINE_LOG2);
 * empty. -1 when the host cannot allocate (then c holds nothing to free). */
int xmem_cache_init(xmem_cache *c, uint64_t xmem_cap, uint64_t params);
void xmem_cache_fini(xmem_cache *c);
/* Everything invalid and unlocked, statistics zero (hart reset). */
void xmem_cache_reset(xmem_cache *c);

/* The policy that uses every way, allocates, keeps lines temporal and streams nothing. */
xmem_cache_pol xmem_cache_pol_all(const xmem_cache *c);
/* The policy of a hart instruction with hint bits `hint`, from the instruction-boundary
 * CAP.XMEM.CAP, L1CFG, CLSMAP and STREAM_CTL (XMEM 5.3):
 *   - way mask: with WAY_PART, CLSMAP.CLn_WAYMASK of the active class n (L1CFG.ACTIVE_CLASS
 *     with CLASS_PART, else CL0); ways 8 and up, which no 8-bit mask names, are usable by
 *     every class; without WAY_PART every way;
 *   - L2_ONLY: no allocation; NONTEMP (or STREAM with STREAM_CTL.NONTEMP_EN): fills are
 *     non-temporal, only with CAP.XMEM.CAP.NONTEMP;
 *   - STREAM: STREAM_CTL's STRIDE and PF_DEPTH (RAZ without STREAM_PROF). */
xmem_cache_pol xmem_cache_policy(const xmem_cache *c, uint64_t xmem_cap, uint64_t l1cfg,
                                 uint64_t clsmap, uint64_t stream_ctl, unsigned hint);
/* The stream part of a policy from a streaming profile CAP.XMEM.SPROFn (STRIDE 15:0,
 * PF_DEPTH 23:16, NT_POLICY 27:24, non-zero = non-temporal): for engines whose
 * descriptor selects SPROFn (MEMCTL.sprof_id != 0, XMEM 5.3). */
void xmem_cache_pol_sprof(xmem_cache_pol *p, uint64_t sprof);
/* The instruction hint bits a region's l1_hint adds (STREAM, NONTEMP): the region's
 * accesses behave as if the instruction carried them (errata P-208). */
unsigned xmem_cache_memctl_hint(const xmem_cache_memctl *m);
/* The rest of a region's descriptor hints (errata P-208..P-211), applied to a policy
 * built by xmem_cache_policy: WAYMASK (with WAY_PART) narrows the fill ways to the named
 * ways 0-4, LOCK (with LINE_LOCK and L1CFG.LOCK_EN) locks what is made resident, line_sz
 * 2^k x the line fills that block on a demand miss, qos and the pinned range rank the
 * victims. */
void xmem_cache_pol_memctl(xmem_cache_pol *p, const xmem_cache *c, const xmem_cache_memctl *m,
                           uint64_t xmem_cap, uint64_t l1cfg);
/* Latches p as the policy of the following calls (the unit: once per instruction). */
void xmem_cache_set_policy(xmem_cache *c, const xmem_cache_pol *p);

/* The lines an access of n bytes at a touches, as a tag lookup/fill (a store marks them
 * dirty); hint = the access's hint bits (statistics only). */
void xmem_cache_access(xmem_cache *c, uint64_t a, unsigned n, bool store, unsigned hint);
/* After an access at a: the policy's stream prefetch, depth lines at a + k * stride (k =
 * 1..depth, stride 0 = one line, modulo 2^64) for which ok(ctx, line address) is true. */
void xmem_cache_stream(xmem_cache *c, uint64_t a, bool (*ok)(void *ctx, uint64_t line_addr),
                       void *ctx);
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
