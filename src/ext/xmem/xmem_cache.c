/* xmem_cache.c — the tag-only L1 model (errata Q-54; see xmem_cache.h). */
#include "xmem_cache.h"

#include <stdlib.h>
#include <string.h>

#include "xphmg_csr.h"

/* REQ: XMEM-098 XMEM-086 */
int xmem_cache_init(xmem_cache *c, uint64_t xmem_cap, uint64_t params)
{
    memset(c, 0, sizeof *c);
    unsigned ways =
        (unsigned)((params & CAP_XMEM_PARAMS_L1_WAYS_MASK) >> CAP_XMEM_PARAMS_L1_WAYS_SHIFT);
    unsigned lg = (unsigned)((params & CAP_XMEM_PARAMS_L1_LINE_LOG2_MASK) >>
                             CAP_XMEM_PARAMS_L1_LINE_LOG2_SHIFT);
    c->line_log2 = lg;
    if (!(xmem_cap & CAP_XMEM_CAP_L1_MASK) || ways == 0) return 0; /* no L1 */
    uint64_t way_bytes = (uint64_t)ways << lg, sets = XMEM_CACHE_L1_BYTES / way_bytes, p = 1;
    while (p * 2 <= sets)
        p *= 2;
    c->sets = (unsigned)p; /* a power of two, at least 1 */
    c->ways = ways;
    size_t n = (size_t)c->sets * ways;
    c->tag = calloc(n, sizeof *c->tag);
    c->flag = calloc(n, sizeof *c->flag);
    c->age = calloc(n, sizeof *c->age);
    c->qos = calloc(n, sizeof *c->qos);
    c->nlocked = calloc(c->sets, sizeof *c->nlocked);
    if (!c->tag || !c->flag || !c->age || !c->qos || !c->nlocked) {
        xmem_cache_fini(c);
        return -1;
    }
    c->pol = xmem_cache_pol_all(c);
    return 0;
}

static const char *const stat_names[XMEM_CACHE_NSTATS] = {
    "hits",         "misses",        "fills",          "evictions",
    "writebacks",   "invalidations", "prefetches",     "stream_prefetches",
    "bypasses",     "nontemp_fills", "lock_overflows", "locked",
    "hint_l1_only", "hint_l2_only",  "hint_lds_pref",  "hint_nontemp",
    "hint_lock",    "hint_stream"};

/* REQ: XMEM-089 */
const char *xmem_cache_stat_name(unsigned i)
{
    return i < XMEM_CACHE_NSTATS ? stat_names[i] : NULL;
}

/* REQ: XMEM-089 */
uint64_t xmem_cache_stat(const xmem_cache_stats *st, unsigned i)
{
    const uint64_t v[XMEM_CACHE_NSTATS] = {
        st->hits,       st->misses,        st->fills,          st->evictions,
        st->writebacks, st->invalidations, st->prefetches,     st->stream_prefetches,
        st->bypasses,   st->nontemp_fills, st->lock_overflows, st->locked,
        st->hinted[0],  st->hinted[1],     st->hinted[2],      st->hinted[3],
        st->hinted[4],  st->hinted[5]};
    return i < XMEM_CACHE_NSTATS ? v[i] : 0;
}

/* REQ: XMEM-086 */
xmem_cache_pol xmem_cache_pol_all(const xmem_cache *c)
{
    xmem_cache_pol p = {0};
    p.waymask = c->ways >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << c->ways) - 1;
    return p;
}

/* REQ: XMEM-086 XMEM-051 XMEM-050 XMEM-055 XMEM-089 XMEM-041 XMEM-038 XMEM-101 XMEM-090 */
xmem_cache_pol xmem_cache_policy(const xmem_cache *c, uint64_t xmem_cap, uint64_t l1cfg,
                                 uint64_t clsmap, uint64_t stream_ctl, unsigned hint)
{
    xmem_cache_pol p = xmem_cache_pol_all(c);
    if (xmem_cap & CAP_XMEM_CAP_WAY_PART_MASK) {
        unsigned cls = (xmem_cap & CAP_XMEM_CAP_CLASS_PART_MASK)
                           ? (unsigned)((l1cfg & CAP_XMEM_L1CFG_ACTIVE_CLASS_MASK) >>
                                        CAP_XMEM_L1CFG_ACTIVE_CLASS_SHIFT) &
                                 3
                           : 0;
        p.waymask &= ~UINT64_C(0xff) | ((clsmap >> (8 * cls)) & 0xff);
    }
    p.no_alloc = hint & XMEM_HINT_L2_ONLY;
    bool stream = (hint & XMEM_HINT_STREAM) && (xmem_cap & CAP_XMEM_CAP_STREAM_PROF_MASK);
    p.nontemp = (xmem_cap & CAP_XMEM_CAP_NONTEMP_MASK) &&
                ((hint & XMEM_HINT_NONTEMP) ||
                 (stream && (stream_ctl & CAP_XMEM_STREAM_CTL_NONTEMP_EN_MASK)));
    if (stream) {
        p.stream_stride =
            (stream_ctl & CAP_XMEM_STREAM_CTL_STRIDE_MASK) >> CAP_XMEM_STREAM_CTL_STRIDE_SHIFT;
        p.stream_depth = (unsigned)((stream_ctl & CAP_XMEM_STREAM_CTL_PF_DEPTH_MASK) >>
                                    CAP_XMEM_STREAM_CTL_PF_DEPTH_SHIFT);
    }
    return p;
}

/* REQ: XMEM-087 XMEM-055 XMEM-135 XMEM-059 */
void xmem_cache_pol_sprof(xmem_cache_pol *p, uint64_t sprof)
{
    p->stream_stride = (sprof & CAP_XMEM_SPROF0_STRIDE_MASK) >> CAP_XMEM_SPROF0_STRIDE_SHIFT;
    p->stream_depth =
        (unsigned)((sprof & CAP_XMEM_SPROF0_PF_DEPTH_MASK) >> CAP_XMEM_SPROF0_PF_DEPTH_SHIFT);
    p->nontemp = (sprof & CAP_XMEM_SPROF0_NT_POLICY_MASK) != 0;
}

/* REQ: XMEM-058 XMEM-089 */
unsigned xmem_cache_memctl_hint(const xmem_cache_memctl *m)
{
    return ((m->l1_hint & XMEM_MEMCTL_L1_STREAM) ? XMEM_HINT_STREAM : 0) |
           ((m->l1_hint & XMEM_MEMCTL_L1_NONTEMP) ? XMEM_HINT_NONTEMP : 0);
}

/* REQ: XMEM-058 XMEM-089 */
void xmem_cache_pol_memctl(xmem_cache_pol *p, const xmem_cache *c, const xmem_cache_memctl *m,
                           uint64_t xmem_cap, uint64_t l1cfg)
{
    uint64_t ways = m->l1_hint >> XMEM_MEMCTL_L1_WAY_SHIFT;
    if (ways && (xmem_cap & CAP_XMEM_CAP_WAY_PART_MASK)) p->waymask &= ways;
    p->lock_fill = (m->l1_hint & XMEM_MEMCTL_L1_LOCK) && (xmem_cap & CAP_XMEM_CAP_LINE_LOCK_MASK) &&
                   (l1cfg & CAP_XMEM_L1CFG_LOCK_EN_MASK);
    /* 32, 64 or 128 bytes; a size at or below the line changes nothing (no sectors). */
    p->fill_log2 = 0;
    for (unsigned lg = c->line_log2 + 1; lg <= 7; lg++)
        if (m->line_sz == 1u << lg) p->fill_log2 = lg - c->line_log2;
    p->qos = (uint16_t)m->qos;
    p->pin_lo = m->pin_lo;
    p->pin_hi = m->pin_hi;
}

/* REQ: XMEM-089 XMEM-086 */
void xmem_cache_set_policy(xmem_cache *c, const xmem_cache_pol *p)
{
    c->pol = *p;
}

void xmem_cache_fini(xmem_cache *c)
{
    free(c->tag);
    free(c->flag);
    free(c->age);
    free(c->qos);
    free(c->nlocked);
    c->tag = c->age = NULL;
    c->flag = NULL;
    c->qos = NULL;
    c->nlocked = NULL;
    c->sets = c->ways = 0;
}

/* REQ: XMEM-098 */
void xmem_cache_reset(xmem_cache *c)
{
    size_t n = (size_t)c->sets * c->ways;
    if (n) {
        memset(c->flag, 0, n * sizeof *c->flag);
        memset(c->age, 0, n * sizeof *c->age);
        memset(c->qos, 0, n * sizeof *c->qos);
        memset(c->nlocked, 0, c->sets * sizeof *c->nlocked);
    }
    c->clock = 0;
    memset(&c->st, 0, sizeof c->st);
    c->pol = xmem_cache_pol_all(c);
}

/* REQ: XMEM-098 XMEM-086 */
unsigned xmem_cache_set_of(const xmem_cache *c, uint64_t a)
{
    return c->sets ? (unsigned)((a >> c->line_log2) & (c->sets - 1)) : 0;
}

/* REQ: XMEM-098 */
unsigned xmem_cache_locked_in(const xmem_cache *c, unsigned s)
{
    return s < c->sets ? c->nlocked[s] : 0;
}

/* The way of set s holding line ln, or -1. */
/* REQ: XMEM-098 XMEM-086 */
static int find(const xmem_cache *c, unsigned s, uint64_t ln)
{
    for (unsigned w = 0; w < c->ways; w++) {
        size_t i = (size_t)s * c->ways + w;
        if ((c->flag[i] & XMEM_CACHE_V) && c->tag[i] == ln) return (int)w;
    }
    return -1;
}

/* REQ: XMEM-098 XMEM-086 */
bool xmem_cache_probe(const xmem_cache *c, uint64_t a, unsigned *flags)
{
    *flags = 0;
    if (!c->sets) return false;
    uint64_t ln = a >> c->line_log2;
    unsigned s = (unsigned)(ln & (c->sets - 1));
    int w = find(c, s, ln);
    if (w < 0) return false;
    *flags = c->flag[(size_t)s * c->ways + (unsigned)w];
    return true;
}

/* Whether way j is a better victim than way v (SIZE_MAX = none yet): an unpinned line
 * before a soft-pinned one, then the lower qos, then the older (errata P-210, P-211). */
/* REQ: XMEM-058 XMEM-089 */
static bool better_victim(const xmem_cache *c, size_t j, size_t v)
{
    if (v == SIZE_MAX) return true;
    unsigned pj = c->flag[j] & XMEM_CACHE_P, pv = c->flag[v] & XMEM_CACHE_P;
    if (pj != pv) return pv != 0;
    if (c->qos[j] != c->qos[v]) return c->qos[j] < c->qos[v];
    return c->age[j] < c->age[v];
}

/* The policy's marks on the line at index i (line number ln) that it made resident or
 * hit: its qos and whether it lies in the soft-pinned range. */
/* REQ: XMEM-058 XMEM-089 */
static void mark(xmem_cache *c, size_t i, uint64_t ln)
{
    uint64_t la = ln << c->line_log2;
    bool pin = la >= c->pol.pin_lo && la < c->pol.pin_hi;
    c->qos[i] = c->pol.qos;
    c->flag[i] = (uint8_t)(pin ? c->flag[i] | XMEM_CACHE_P : c->flag[i] & ~XMEM_CACHE_P);
}

/* Makes line ln resident under the current policy (among the unlocked ways of its way
 * mask: an invalid one first, else the better_victim) and returns its index; *hit =
 * whether it already was. SIZE_MAX (a bypass, nothing changes) when it is missing and
 * the policy does not allocate or leaves no usable way. Needs sets > 0. */
/* REQ: XMEM-086 XMEM-089 XMEM-098 */
static size_t touch(xmem_cache *c, uint64_t ln, bool *hit)
{
    unsigned s = (unsigned)(ln & (c->sets - 1));
    int w = find(c, s, ln);
    size_t base = (size_t)s * c->ways, i;
    *hit = w >= 0;
    if (w >= 0) {
        i = base + (unsigned)w;
        mark(c, i, ln);
        if (c->pol.nontemp) return i; /* a non-temporal hit does not refresh the line */
    } else {
        size_t victim = SIZE_MAX;
        for (unsigned k = 0; k < c->ways && !c->pol.no_alloc; k++) {
            size_t j = base + k;
            if (k < 64 && !(c->pol.waymask >> k & 1)) continue;
            if (!(c->flag[j] & XMEM_CACHE_V)) {
                victim = j;
                break;
            }
            if (!(c->flag[j] & XMEM_CACHE_L) && better_victim(c, j, victim)) victim = j;
        }
        if (victim == SIZE_MAX) {
            c->st.bypasses++;
            return SIZE_MAX;
        }
        i = victim;
        if (c->flag[i] & XMEM_CACHE_V) {
            c->st.evictions++;
            if (c->flag[i] & XMEM_CACHE_D) c->st.writebacks++;
        }
        c->tag[i] = ln;
        c->flag[i] = XMEM_CACHE_V;
        mark(c, i, ln);
        c->st.fills++;
        if (c->pol.nontemp) {
            /* the next victim of its set: older than every other line */
            c->st.nontemp_fills++;
            c->age[i] = 0;
            return i;
        }
    }
    c->age[i] = ++c->clock;
    return i;
}

/* REQ: XMEM-089 */
static void count_hints(xmem_cache *c, unsigned hint)
{
    for (unsigned b = 0; b < 6; b++)
        if (hint & (1u << b)) c->st.hinted[b]++;
}

/* First and last line numbers of [a, a + n), clamped at 2^64; false when n = 0. */
/* REQ: XMEM-098 */
static bool line_range(const xmem_cache *c, uint64_t a, uint64_t n, uint64_t *first, uint64_t *last)
{
    if (n == 0) return false;
    uint64_t end = n - 1 > UINT64_MAX - a ? UINT64_MAX : a + (n - 1);
    *first = a >> c->line_log2;
    *last = end >> c->line_log2;
    return true;
}

/* A descriptor's LOCK on the resident line at index i of set s: best effort, within the
 * ways - 1 locks per set of xmem.cctl lock; a lock not taken is counted, never an event
 * (a hint changes no architectural state, XMEM 5.3). */
/* REQ: XMEM-058 XMEM-089 */
static void lock_fill(xmem_cache *c, size_t i, unsigned s)
{
    if (c->flag[i] & XMEM_CACHE_L) return;
    if (c->nlocked[s] >= c->ways - 1) {
        c->st.lock_overflows++;
        return;
    }
    c->flag[i] |= XMEM_CACHE_L;
    c->nlocked[s]++;
    c->st.locked++;
}

/* Line ln made resident by a demand access (touch), with the descriptor's LOCK. */
/* REQ: XMEM-058 XMEM-089 */
static size_t place(xmem_cache *c, uint64_t ln, bool *hit)
{
    size_t i = touch(c, ln, hit);
    if (i != SIZE_MAX && c->pol.lock_fill) lock_fill(c, i, (unsigned)(ln & (c->sets - 1)));
    return i;
}

/* REQ: XMEM-089 XMEM-086 XMEM-058 */
void xmem_cache_access(xmem_cache *c, uint64_t a, unsigned n, bool store, unsigned hint)
{
    count_hints(c, hint);
    uint64_t f, l;
    if (!c->sets || !line_range(c, a, n, &f, &l)) return;
    for (uint64_t ln = f;; ln++) {
        bool hit;
        size_t i = place(c, ln, &hit);
        if (hit)
            c->st.hits++;
        else
            c->st.misses++;
        if (store && i != SIZE_MAX) c->flag[i] |= XMEM_CACHE_D;
        /* line_sz larger than the line: a filling miss brings the aligned block (P-209) */
        uint64_t blk = ln >> c->pol.fill_log2 << c->pol.fill_log2;
        for (uint64_t k = 0; !hit && i != SIZE_MAX && k < (UINT64_C(1) << c->pol.fill_log2); k++) {
            bool h2;
            if (blk + k != ln) (void)place(c, blk + k, &h2);
        }
        if (ln == l) break;
    }
}

/* REQ: XMEM-087 XMEM-055 XMEM-038 XMEM-135 */
void xmem_cache_stream(xmem_cache *c, uint64_t a, bool (*ok)(void *ctx, uint64_t line_addr),
                       void *ctx)
{
    if (!c->sets) return;
    uint64_t stride = c->pol.stream_stride ? c->pol.stream_stride : UINT64_C(1) << c->line_log2;
    for (unsigned k = 1; k <= c->pol.stream_depth; k++) {
        uint64_t la = ((a + k * stride) >> c->line_log2) << c->line_log2;
        c->st.stream_prefetches++;
        if (!ok || ok(ctx, la)) {
            bool hit;
            (void)touch(c, la >> c->line_log2, &hit);
        }
    }
}

/* REQ: XMEM-098 */
void xmem_cache_prefetch(xmem_cache *c, uint64_t a, uint64_t n, unsigned hint,
                         bool (*ok)(void *ctx, uint64_t line_addr), void *ctx)
{
    count_hints(c, hint);
    uint64_t f, l;
    if (!c->sets || !line_range(c, a, n, &f, &l)) return;
    uint64_t max = (uint64_t)c->sets * c->ways;
    for (uint64_t k = 0; k < max; k++) {
        uint64_t ln = f + k, la = ln << c->line_log2;
        c->st.prefetches++;
        if (!ok || ok(ctx, la)) {
            bool hit;
            (void)place(c, ln, &hit);
        }
        if (ln == l) break;
    }
}

/* Applies op to every resident line of [a, a + n): 0 inv, 1 flush, 2 unlock. */
/* REQ: XMEM-098 */
static void each_resident(xmem_cache *c, uint64_t a, uint64_t n, int op)
{
    uint64_t f, l;
    if (!c->sets || !line_range(c, a, n, &f, &l)) return;
    for (size_t i = 0; i < (size_t)c->sets * c->ways; i++) {
        uint8_t *fl = &c->flag[i];
        if (!(*fl & XMEM_CACHE_V) || c->tag[i] < f || c->tag[i] > l) continue;
        unsigned s = (unsigned)(i / c->ways);
        if (op == 2) {
            if (*fl & XMEM_CACHE_L) {
                c->nlocked[s]--;
                c->st.locked--;
            }
            *fl &= (uint8_t)~XMEM_CACHE_L;
            continue;
        }
        if (*fl & XMEM_CACHE_D) c->st.writebacks++;
        *fl &= (uint8_t)~XMEM_CACHE_D;
        if (op == 0 && !(*fl & XMEM_CACHE_L)) {
            *fl = 0;
            c->st.invalidations++;
        }
    }
}

/* REQ: XMEM-098 */
void xmem_cache_inv(xmem_cache *c, uint64_t a, uint64_t n)
{
    each_resident(c, a, n, 0);
}

/* REQ: XMEM-098 */
void xmem_cache_flush(xmem_cache *c, uint64_t a, uint64_t n)
{
    each_resident(c, a, n, 1);
}

/* REQ: XMEM-098 */
void xmem_cache_unlock(xmem_cache *c, uint64_t a, uint64_t n)
{
    each_resident(c, a, n, 2);
}

/* REQ: XMEM-098 XMEM-086 */
bool xmem_cache_lock(xmem_cache *c, uint64_t a, uint64_t n)
{
    uint64_t f, l;
    if (!line_range(c, a, n, &f, &l)) return false;
    if (!c->sets) {
        c->st.lock_overflows++;
        return true;
    }
    /* After sets * ways consecutive lines every set has seen `ways` distinct lines, at
     * most ways - 1 of them locked, so it has refused one and is full: every later line
     * is refused too. The walk stops there; the overflow is already recorded. */
    uint64_t max = (uint64_t)c->sets * c->ways;
    bool ovf = false;
    for (uint64_t k = 0; k < max; k++) {
        uint64_t ln = f + k;
        unsigned s = (unsigned)(ln & (c->sets - 1));
        int w = find(c, s, ln);
        if (w >= 0 && (c->flag[(size_t)s * c->ways + (unsigned)w] & XMEM_CACHE_L)) {
            /* already locked */
        } else if (c->nlocked[s] >= c->ways - 1) {
            ovf = true;
            c->st.lock_overflows++;
        } else {
            bool hit;
            size_t i = touch(c, ln, &hit);
            if (i == SIZE_MAX) { /* every way of the class is locked (or it has none) */
                ovf = true;
                c->st.lock_overflows++;
            } else {
                c->flag[i] |= XMEM_CACHE_L;
                c->nlocked[s]++;
                c->st.locked++;
            }
        }
        if (ln == l) break;
    }
    return ovf;
}
