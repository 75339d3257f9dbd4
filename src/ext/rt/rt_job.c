/* rt_job.c — the offload job of `xsubmit.rt` (semantics in rt_job.h, docs/rt.md). */
#include "rt_job.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_leaf.h"
#include "xmem_region.h"
#include "xphmg_csr.h"

/* REQ: RT-117 */
void rt_job_decode(const uint8_t desc[RT_DESC_BYTES], rt_job_desc *jd)
{
    memset(jd, 0, sizeof *jd);
    jd->bvh_base = rt_le_get(desc + RT_DESC_BVH_BASE, 8);
    jd->rayq = rt_le_get(desc + RT_DESC_RAYQ, 8);
    jd->hitq = rt_le_get(desc + RT_DESC_HITQ, 8);
    jd->missq = rt_le_get(desc + RT_DESC_MISSQ, 8);
    jd->tri_buf = rt_le_get(desc + RT_DESC_TRI_BUF, 8);
    jd->opts = (uint32_t)rt_le_get(desc + RT_DESC_OPTS, 4);
    memcpy(jd->memctl, desc + RT_DESC_MEMCTL, sizeof jd->memctl);
}

/* ---- the node cache (a per-job snapshot, see rt_job.h) ---- */

/* Two direct-mapped tables: decoded node tiles by tile address, and leaves (TriRanges
 * whose triangles are plain FP32 memory) by TriRange address: the TriRange's fields and a
 * host pointer to its triangles. Each entry holds its own tag (address and generation;
 * rt_node4w.cache_addr/cache_gen for a node), so that a visit reads one place. The
 * traversal reads an entry in place. A table that keeps evicting entries of the same job
 * (a BVH larger than the table) doubles, up to CACHE_MAX_BITS, between two rays of a job
 * on one thread, between two jobs otherwise.
 *
 * One table serves every thread of a split job (a second thread filling a table of its
 * own decoded each node again per job: bench/README.md "Two threads: one node cache").
 * While shared, an entry is written at most once per generation, so a published entry
 * stays as it is while other threads read it: its tag's gen is claimed (gen + 1, "being
 * filled") by one thread, which writes the address and the entry and then publishes gen
 * (release); a reader checks gen (acquire) before the address. A slot that holds another
 * entry of the generation or is being filled is not replaced: the node is decoded into
 * the thread's spill and counted as an eviction. On one thread the newest entry replaces
 * the slot's. Generations are even (0: never filled). */
typedef struct {
    _Alignas(32) uint64_t addr; /* the TriRange's (tag) */
    const uint8_t *tris;        /* host pointer to triangle `first` (count * 36 bytes, FP32) */
    uint32_t gen;               /* tag: the generation it was cached in */
    uint32_t first, count;
} leaf_ent;

/* The engine's table, or a tracer's view of it (the same tables, with the tracer's own
 * bookkeeping: evict, lo, hi; a view does not grow). */
typedef struct {
    _Alignas(128) rt_node4w *node; /* 2^bits entries */
    leaf_ent *leaf;                /* 2^(bits+1) entries */
    uint64_t mask, lmask;
    unsigned bits, max_bits;
    bool shared; /* a view of a table other threads fill at the same time */
    uint32_t gen;
    uint64_t evict;  /* entries of this generation not kept: their slot held another */
    uint64_t lo, hi; /* address range of the records cached in this generation */
} node_cache;

#define RT_JOB_MAX_THREADS 64u
#define CACHE_MIN_BITS     12u
/* An engine with workers starts larger: its table grows only between jobs. */
#define CACHE_SPLIT_BITS 15u
#define CACHE_MAX_BITS   17u

typedef struct ray_out ray_out;
typedef struct split_job split_job;
/* A block of a split job (rt_job.c "split jobs"), on a cache line of its own: the thread
 * that traced it publishes what the append needs to know of it (ready), the appending
 * thread where a kept block's entries go (placed). */
typedef struct {
    _Alignas(64) _Atomic uint64_t ready; /* b + 1 once block b is traced: the fields below */
    _Atomic uint64_t placed;  /* a kept block b: PLACED(b) at hit_at/miss_at, or TO_RING(b) */
    _Atomic uint64_t in_ring; /* b + 1 once kept block b's results are in its ring slot */
    uint32_t hits, misses;    /* its hit and miss entries */
    uint32_t hit_at, miss_at; /* a placed block: the queue slots of its first entries */
    num_flags flags;          /* of its hits */
    uint8_t events;           /* of its rays */
    bool kept;                /* its results stay with its tracer (no ray faulted or traps) */
} block_state;
_Static_assert(sizeof(block_state) == 64, "a block's state is one cache line");

/* What the cache's generation was decoded under, recorded at the end of the job that
 * last used it (cache_job_end): the next job keeps the generation only when all of it is
 * the same (cache_job_start). A node entry depends on the tile's bytes and on the tile
 * count, whose alignment check a cached address skips (Node8); a leaf entry on its
 * TriRange's and triangles' bytes, on the element format (only FP32 leaves are cached)
 * and on tri_buf (its triangle pointer). The BVH base is not part of an entry (children
 * are kept as offsets from it). */
typedef struct {
    bool valid; /* the last job ended with its whole range watched (epoch below) */
    void *ctx;  /* the memory: its object and callbacks */
    uint64_t (*epoch_fn)(void *ctx);
    bool (*watch)(void *ctx, uint64_t addr, uint64_t n);
    const uint8_t *(*map)(void *ctx, uint64_t addr, unsigned size);
    bool (*load)(void *ctx, uint64_t addr, unsigned size, uint64_t *val);
    uint64_t epoch; /* its value at the end of that job, after the watch */
    rt_elem e;
    bool node8;
    uint64_t tri_buf;
} cache_keep;

/* Besides the cache, a pool of threads - 1 workers that stay between jobs: a split job
 * wakes them and waits until every one of them is back. */
struct rt_job_engine {
    unsigned threads; /* tracing threads: the caller's and the workers */
    node_cache cache;
    cache_keep keep;
    ray_out *ring;       /* a split job's traced results its tracers did not keep in their
                            buffers: ring_blocks units of SPLIT_BLOCK */
    block_state *blocks; /* per ring slot (ring_blocks: enough for blocks of any size) */
    uint64_t *kept_q;    /* each tracer's list of kept blocks (tracer.kept_q): ring_blocks a
                            tracer, kept_tracers of them */
    uint64_t ring_blocks;
    unsigned kept_tracers;    /* the threads the engine was asked for */
    rt_job_split_stats stats; /* of the last job */
    bool pool;                /* mu, wake and back exist */
    pthread_mutex_t mu;
    pthread_cond_t wake, back;
    pthread_t tid[RT_JOB_MAX_THREADS];
    unsigned workers, running;
    uint64_t seq; /* split jobs handed to the workers */
    split_job *job;
    bool quit;
};

static void cache_new_gen(node_cache *nc)
{
    nc->gen += 2;
    if (nc->gen == 0) {
        for (uint64_t i = 0; i <= nc->mask; i++)
            nc->node[i].cache_gen = 0;
        for (uint64_t i = 0; i <= nc->lmask; i++)
            nc->leaf[i].gen = 0;
        nc->gen = 2;
    }
    nc->lo = UINT64_MAX;
    nc->hi = 0;
    nc->evict = 0;
}

/* A slot's tag is its generation word and its address (rt_node4w.cache_gen/cache_addr
 * for a node, leaf_ent.gen/addr for a leaf), both plain fields: the generation word is accessed
 * atomically while a split job's threads share the table, the address is written before
 * the generation is published and read after it is seen. */

/* Whether the slot of tag (gen, addr) holds the entry of address a of generation g. */
static inline bool slot_has(const uint32_t *gen, const uint64_t *addr, uint32_t g, uint64_t a)
{
    return __atomic_load_n(gen, __ATOMIC_ACQUIRE) == g && *addr == a;
}

/* Claims the slot of generation word gen for an entry of this generation (then
 * slot_publish); false when it holds one already or another thread is filling it. */
static bool slot_claim(node_cache *nc, uint32_t *gen)
{
    uint32_t old = __atomic_load_n(gen, __ATOMIC_RELAXED);
    if (!nc->shared) { /* one thread: the newest entry replaces the slot's */
        if (old == nc->gen) nc->evict++;
        return true;
    }
    if (old != nc->gen && old != nc->gen + 1 &&
        __atomic_compare_exchange_n(gen, &old, nc->gen + 1, false, __ATOMIC_RELAXED,
                                    __ATOMIC_RELAXED))
        return true;
    nc->evict++;
    return false;
}

static void slot_publish(const node_cache *nc, uint32_t *gen, uint64_t *addr, uint64_t a)
{
    *addr = a;
    __atomic_store_n(gen, nc->gen, __ATOMIC_RELEASE);
}

static void cache_free(node_cache *nc)
{
    free(nc->node);
    free(nc->leaf);
    memset(nc, 0, sizeof *nc);
}

static bool cache_init(node_cache *nc, unsigned bits)
{
    cache_free(nc);
    nc->bits = bits;
    nc->max_bits = CACHE_MAX_BITS;
    nc->mask = (UINT64_C(1) << bits) - 1;
    nc->lmask = (UINT64_C(2) << bits) - 1;
    nc->node = aligned_alloc(64, (nc->mask + 1) * sizeof *nc->node);
    nc->leaf = aligned_alloc(_Alignof(leaf_ent), (nc->lmask + 1) * sizeof *nc->leaf);
    if (!nc->node || !nc->leaf) {
        cache_free(nc);
        return false;
    }
    memset(nc->node, 0, (nc->mask + 1) * sizeof *nc->node); /* generation 0: no entry */
    memset(nc->leaf, 0, (nc->lmask + 1) * sizeof *nc->leaf);
    cache_new_gen(nc);
    return true;
}

/* Replaces the table by one of 2^bits entries holding the same entries; if that fails
 * the old one stays. No other thread may use it meanwhile. */
static void cache_grow(node_cache *nc, unsigned bits)
{
    node_cache big = {0};
    if (!cache_init(&big, bits)) {
        nc->evict = 0;
        return;
    }
    big.gen = nc->gen;
    big.lo = nc->lo;
    big.hi = nc->hi;
    for (uint64_t i = 0; i <= nc->mask; i++)
        if (nc->node[i].cache_gen == nc->gen)
            big.node[(nc->node[i].cache_addr >> 6) & big.mask] = nc->node[i];
    for (uint64_t i = 0; i <= nc->lmask; i++)
        if (nc->leaf[i].gen == nc->gen) big.leaf[(nc->leaf[i].addr >> 4) & big.lmask] = nc->leaf[i];
    cache_free(nc);
    *nc = big;
}

/* Between two rays of a job on one thread: a table too small for the BVH (it evicted
 * more entries than it holds) doubles. */
static inline void cache_fit(node_cache *nc)
{
    if (nc->evict <= nc->mask + 1 || nc->bits >= nc->max_bits) return;
    cache_grow(nc, nc->bits + 1);
}

/* After a split job (no tracer running): the table grows to as many entries as the job
 * evicted, which the next job then finds. */
static void cache_fit_job(node_cache *nc)
{
    unsigned bits = nc->bits;
    while (bits < nc->max_bits && nc->evict > (UINT64_C(1) << bits))
        bits++;
    if (bits > nc->bits) cache_grow(nc, bits);
}

unsigned rt_job_engine_threads(const rt_job_engine *e)
{
    return e->threads;
}

void rt_job_engine_split_stats(const rt_job_engine *e, rt_job_split_stats *st)
{
    *st = e->stats;
}

/* ---- memory ---- */

typedef struct {
    const rt_job_mem *m;
    rt_job_result *r;
    node_cache *nc;
    rt_fetch fetch;     /* rays and BVH records (SVMEM rules, rt_fetch.h); map_only in a tracer
                           thread of a split job */
    rt_node4w spill[2]; /* a node visited but not kept in the cache */
    rt_ray_pre *ray;    /* the ray being traced (trace_slot), prepared for the slab tests;
                           its shear at its first leaf (ray_sheared) */
} job_ctx;

/* The ray being traced, with its triangle tests' shear prepared: what its first leaf
 * needs. */
static rt_ray_pre *ray_sheared(const job_ctx *c)
{
    rt_ray_prepare_shear(c->ray);
    return c->ray;
}

/* REQ: RT-089 RT-096 */
static bool fault(job_ctx *c, rt_job_status st, uint64_t addr)
{
    c->r->status = st;
    c->r->fault_addr = addr;
    if (st == RT_JOB_MEM_FAULT || st == RT_JOB_MISALIGNED)
        c->r->events |= CAP_XMEM_EVENTS_INV_MISS_MASK;
    return false;
}

/* Charges work to the run's budget (rt_job_mem.charge); false when it is exhausted. */
static bool spend(job_ctx *c, uint64_t units)
{
    if (c->m->charge && c->m->charge(c->m->ctx, units)) return fault(c, RT_JOB_BUDGET, 0);
    return true;
}

/* n bytes at a (8-byte aligned, n a multiple of 8: a queue descriptor) as 8-byte loads, so
 * that a word which is only partly accessible faults at its own address. */
/* REQ: RT-088 RT-097 */
static bool load_words(job_ctx *c, uint64_t a, unsigned n, uint8_t *buf)
{
    for (unsigned i = 0; i < n; i += 8) {
        uint64_t v;
        if (!c->m->load(c->m->ctx, a + i, 8, &v)) return fault(c, RT_JOB_MEM_FAULT, a + i);
        rt_le_put(buf + i, 8, v);
    }
    return true;
}

/* Queue descriptors: ordinary reads (the records go through rt_fetch), n bytes at a
 * (8-byte aligned, n a multiple of 8). */
static bool read_plain(job_ctx *c, uint64_t a, unsigned n, uint8_t *buf)
{
    const uint8_t *p = c->m->map ? c->m->map(c->m->ctx, a, n) : NULL;
    if (p) {
        memcpy(buf, p, n);
        return true;
    }
    return load_words(c, a, n, buf);
}

/* The one write path (queue entries, TAIL, HEAD): n bytes at a, written at host (the
 * host pointer to a from rt_job_mem.map_w: plain memory) or else through the store
 * callback. A store over a cached node tile starts a new cache generation. */
/* REQ: RT-088 RT-097 */
__attribute__((always_inline)) static inline bool store_bytes(job_ctx *c, uint64_t a, uint8_t *host,
                                                              unsigned n, const uint8_t *buf)
{
    if (c->nc && a < c->nc->hi && a + n > c->nc->lo) cache_new_gen(c->nc);
    if (host) {
        memcpy(host, buf, n);
        return true;
    }
    unsigned i = 0;
    while (i < n) {
        unsigned sz = n - i >= 8 ? 8 : n - i >= 4 ? 4 : n - i >= 2 ? 2 : 1;
        if (!c->m->store(c->m->ctx, a + i, sz, rt_le_get(buf + i, sz)))
            return fault(c, RT_JOB_MEM_FAULT, a + i);
        i += sz;
    }
    return true;
}

/* The job's view of a fetch: a failed one is a memory fault of the ray being processed. */
/* REQ: RT-089 RT-096 */
static bool fetched(job_ctx *c, rt_fetch_status st)
{
    if (c->fetch.inv_miss) c->r->events |= CAP_XMEM_EVENTS_INV_MISS_MASK;
    if (st == RT_FETCH_OK) return true;
    return fault(c, st == RT_FETCH_MISALIGNED ? RT_JOB_MISALIGNED : RT_JOB_MEM_FAULT,
                 c->fetch.fault_addr);
}

/* REQ: RT-033 RT-043 */
static bool aligned(job_ctx *c, uint64_t a, uint64_t align)
{
    if (a & (align - 1)) return fault(c, RT_JOB_MISALIGNED, a);
    return true;
}

/* Adds [a, a + n) to the range of the records the generation holds; one that reaches the
 * end of the address space extends it to there (never an empty-looking range). */
static void cache_range(node_cache *nc, uint64_t a, uint64_t n)
{
    uint64_t end = a + n < a ? UINT64_MAX : a + n;
    if (a < nc->lo) nc->lo = a;
    if (end > nc->hi) nc->hi = end;
}

/* The decoded node (nn tiles) at a, from the cache or fetched (rt_fetch.h: alignment,
 * faults and OOB-zero) and decoded; *w0 and (Node8) *w1 point into the cache or the
 * spill. A job's nodes all have the same tile count, so a cached address passed the same
 * alignment check when it was fetched. A tile that read as zero (OOB-zero) is not kept,
 * so every ray that reads it reports INV_MISS. */
/* REQ: RT-033 RT-038 */
static bool node_get(job_ctx *c, uint64_t a, unsigned nn, const rt_node4w **w0,
                     const rt_node4w **w1)
{
    node_cache *nc = c->nc;
    uint64_t i0 = (a >> 6) & nc->mask, i1 = ((a >> 6) + 1) & nc->mask;
    if (slot_has(&nc->node[i0].cache_gen, &nc->node[i0].cache_addr, nc->gen, a)) {
        *w0 = &nc->node[i0];
        if (nn == 1) return true;
        *w1 = &nc->node[i1];
        if (slot_has(&nc->node[i1].cache_gen, &nc->node[i1].cache_addr, nc->gen, a + 64))
            return true;
    }
    uint8_t tiles[128];
    bool inv = c->fetch.inv_miss;
    c->fetch.inv_miss = false;
    rt_fetch_status st = rt_fetch_node(&c->fetch, a, nn, tiles);
    bool zeroed = c->fetch.inv_miss;
    c->fetch.inv_miss |= inv;
    if (!fetched(c, st)) return false;
    for (unsigned k = 0; k < nn; k++) {
        rt_node4w *w = &nc->node[k ? i1 : i0];
        if (!slot_has(&w->cache_gen, &w->cache_addr, nc->gen, a + 64u * k)) {
            bool keep = !zeroed && slot_claim(nc, &w->cache_gen);
            if (!keep) w = &c->spill[k];
            rt_node4w_decode(tiles + 64 * k, w);
            if (keep) slot_publish(nc, &w->cache_gen, &w->cache_addr, a + 64u * k);
        }
        *(k ? w1 : w0) = w;
    }
    cache_range(nc, a, 64u * nn);
    return true;
}

/* ---- queues (FMT_QUEUE, errata Q-70) ---- */

typedef struct {
    uint64_t desc; /* address of the queue descriptor */
    uint32_t head, tail, cap;
    uint64_t base;
    uint8_t *desc_w, *base_w; /* host pointers of the descriptor and of the entry array
                                 when the job writes them directly (map_w), else NULL */
} queue;

/* REQ: RT-043 RT-044 */
static bool queue_read(job_ctx *c, uint64_t desc, queue *q)
{
    uint8_t b[RT_QUEUE_BYTES];
    if (!aligned(c, desc, 8) || !read_plain(c, desc, RT_QUEUE_BYTES, b)) return false;
    q->desc = desc;
    q->head = (uint32_t)rt_le_get(b, 4);
    q->tail = (uint32_t)rt_le_get(b + 4, 4);
    q->cap = (uint32_t)rt_le_get(b + 8, 4);
    q->base = rt_le_get(b + 16, 8);
    if (q->cap == 0 || q->head >= q->cap || q->tail >= q->cap) {
        c->r->status = RT_JOB_BAD_QUEUE;
        c->r->fault_addr = desc;
        return false;
    }
    q->desc_w = q->base_w = NULL;
    return true;
}

/* Where the job may write the queue's HEAD/TAIL and its entries of entry_bytes (0: none)
 * directly: the parts rt_job_mem.map_w serves (each store there is plain memory). */
static void queue_direct(const rt_job_mem *m, queue *q, unsigned entry_bytes)
{
    if (!m->map_w) return;
    q->desc_w = m->map_w(m->ctx, q->desc, 8);
    if (entry_bytes) q->base_w = m->map_w(m->ctx, q->base, (uint64_t)q->cap * entry_bytes);
}

/* Appends one entry of n bytes and stores the advanced TAIL. */
/* REQ: RT-043 RT-044 */
__attribute__((always_inline)) static inline bool queue_push(job_ctx *c, queue *q,
                                                             const uint8_t *entry, unsigned n)
{
    uint32_t next = q->tail + 1 == q->cap ? 0 : q->tail + 1;
    if (next == q->head) {
        c->r->status = RT_JOB_QUEUE_FULL;
        c->r->fault_addr = q->desc;
        return false;
    }
    uint8_t t[4];
    rt_le_put(t, 4, next);
    uint64_t off = (uint64_t)q->tail * n;
    if (!store_bytes(c, q->base + off, q->base_w ? q->base_w + off : NULL, n, entry) ||
        !store_bytes(c, q->desc + 4, q->desc_w ? q->desc_w + 4 : NULL, 4, t))
        return false;
    q->tail = next;
    return true;
}

/* ---- traversal ---- */

typedef struct {
    rt_elem e;
    bool cull, any, node8;
    unsigned eps;
    uint64_t bvh, tri_buf;
    /* The ray queue's records, every slot of it, read in place from rays (rays_in_place),
     * the slot at rays_base first; or rays NULL: fetched one by one. */
    const uint8_t *rays;
    uint64_t rays_base;
} trav_cfg;

typedef rt_tri_hit trav_hit;

/* Leaves with at most this many triangles are cached (the builder's BVH_MAX_LEAF). */
#define LEAF_CACHE_MAX 8u

/* leaf() for a TriRange not in the cache (slot li): fetched, tested, and cached when it can
 * be. */
/* REQ: RT-036 RT-065 */
static __attribute__((noinline)) bool leaf_fill(job_ctx *c, const trav_cfg *k,
                                                const rt_leaf_ray *lr, uint64_t tr_addr,
                                                uint64_t li, trav_hit *best)
{
    node_cache *nc = c->nc;
    const rt_ray_pre *p = lr->p;
    /* Whether this leaf's fetches zero-filled anything (inv_miss is sticky in the job). */
    bool inv = c->fetch.inv_miss;
    c->fetch.inv_miss = false;
    rt_trirange tr;
    bool done = false,
         ok = fetched(c, rt_fetch_trirange(&c->fetch, tr_addr, &tr)) && spend(c, tr.count);
    uint64_t base = k->tri_buf ? k->tri_buf : tr.base;
    uint64_t start = base + 36u * (uint64_t)tr.first, bytes = 36u * (uint64_t)tr.count;
    /* A leaf that can be cached (FP32 triangles, one run without an index wrap) is read in
     * place when every triangle fetch would read plain memory (rt_fetch_run), as later
     * visits read it; otherwise triangle by triangle, which decides faults and zero fills. */
    bool cacheable = ok && !c->fetch.inv_miss && k->e == RT_ELEM_FP32 &&
                     tr.count <= LEAF_CACHE_MAX && (uint64_t)tr.first + tr.count <= UINT32_MAX;
    const uint8_t *tp = NULL;
    if (cacheable) tp = tr.count ? rt_fetch_run(&c->fetch, start, 4, bytes) : (const uint8_t *)"";
    if (ok && tp) { /* as a cached leaf is tested, with the ray's prepared lr */
        rt_leaf_mem(lr, tp, tr.first, tr.count, best);
    } else if (ok) {
        rt_tri_src src = {NULL, &c->fetch, base, k->e};
        ok = fetched(
            c, rt_leaf_closest(&src, tr.first, tr.count, p, k->cull, k->eps, k->any, best, &done));
    }
    c->fetch.inv_miss |= inv;
    if (!ok || !tp || !slot_claim(nc, &nc->leaf[li].gen)) return ok;
    leaf_ent *fill = &nc->leaf[li];
    fill->tris = tp;
    fill->first = tr.first;
    fill->count = tr.count;
    slot_publish(nc, &fill->gen, &fill->addr, tr_addr);
    cache_range(nc, tr_addr, 16);
    if (bytes) cache_range(nc, start, bytes);
    return true;
}

/* Tests the triangles of the TriRange at tr_addr against the ray (lr: prepared for its
 * leaves); updates *best. A cached leaf's test inline (no call frame around it). */
/* REQ: RT-036 RT-065 */
static inline bool leaf(job_ctx *c, const trav_cfg *k, const rt_leaf_ray *lr, uint64_t tr_addr,
                        trav_hit *best, bool charged)
{
    const node_cache *nc = c->nc;
    uint64_t li = (tr_addr >> 4) & nc->lmask;
    const leaf_ent *le = &nc->leaf[li];
    if (!slot_has(&le->gen, &le->addr, nc->gen, tr_addr))
        return leaf_fill(c, k, lr, tr_addr, li, best);
    if (charged && !spend(c, le->count)) return false;
    rt_leaf_mem(lr, le->tris, le->first, le->count, best);
    return true;
}

/* A child to visit: rt_node4w.child (its offset from the BVH base, 16 * index, with its
 * kind in the low bits) and the near end of its slab interval, max(tnear, tmin): when it
 * is popped, the slab test's last step runs again against the closest hit so far. The far
 * end, only needed when the test can see a NaN (not on traverse_fast's rays), is kept in
 * a parallel array. */
typedef struct {
    uint32_t child;
    float lo;
} stack_ent;

#define KIND_MASK RT_NODE4W_KIND_MASK

/* The tables of a thread's node cache as a traversal reads them: they do not move during
 * a ray (cache_fit runs between rays; a job's own stores come after the ray is traced). */
typedef struct {
    const rt_node4w *node;
    const leaf_ent *leaf;
    uint64_t mask, lmask;
} cache_view;

/* Asks for the cache entry of a pushed child (rt_node4w.child) while the nearer ones are
 * visited: a BVH larger than the core's caches makes every visit a wait for memory. */
static inline void prefetch_child(const cache_view *cv, uint64_t bvh, uint32_t child)
{
    uint64_t a = bvh + (child & ~KIND_MASK);
    if ((child & KIND_MASK) == RT_CHILD_LEAF) {
        __builtin_prefetch(&cv->leaf[(a >> 4) & cv->lmask]);
    } else {
        const rt_node4w *w = &cv->node[(a >> 6) & cv->mask];
        __builtin_prefetch(w);
        __builtin_prefetch(&w->child);
    }
}

/* Child ch of a node of nn tiles (w0; w1 the second tile of a Node8): its rt_node4w.child.
 * Always inline, as stack_push: traverse_as's loop makes no call for them (written out as
 * macros before, they compile to the same operations; bench/README.md "rt-walk"). */
__attribute__((always_inline)) static inline uint32_t
node_kid(const rt_node4w *w0, const rt_node4w *w1, unsigned nn, unsigned ch)
{
    return nn == 1 ? w0->child[ch & 3] : (ch < 4 ? w0 : w1)->child[ch & 3];
}

/* Pushes child ch of the node (w0, w1, nn as node_kid) into st[sp], with the raw interval
 * [tn[ch], tf[ch]] of its box: the near end max(tn[ch], tmin), the far end only where a NaN
 * can occur (not fast); and asks for its cache entry. */
__attribute__((always_inline)) static inline void
stack_push(stack_ent *st, float *st_tf, unsigned sp, const rt_node4w *w0, const rt_node4w *w1,
           unsigned nn, unsigned ch, const float *tn, const float *tf, float tmin, bool fast,
           const cache_view *cv, uint64_t bvh)
{
    uint32_t kid = node_kid(w0, w1, nn, ch);
    if (!fast) st_tf[sp] = tf[ch];
    st[sp] = (stack_ent){kid, tn[ch] > tmin ? tn[ch] : tmin};
    prefetch_child(cv, bvh, kid);
}

/* Closest (or any) hit of the ray in the BVH over [tmin, tmax_w] (the ray's range widened
 * by the tolerance 2^-e, errata Q-74, so that boxes never cull a hit the triangle test
 * accepts); false on a fault (c->r->status set). The range closes at the closest hit so
 * far. Children are visited near to far (rt_child_order); the nearest hit child of a node
 * is visited next without going through the stack: it would be popped at once, and its
 * interval passed the test a moment ago against the same [tmin, tmax]. */
/* traverse() expands this twice: for the common case (`fast`: Node4 tiles, no charge
 * callback, the vector slab test by the reciprocals' signs: traverse_fast) with those
 * conditions as constants, and for every case. */
/* REQ: RT-035 RT-056 */
__attribute__((always_inline)) static inline bool traverse_as(job_ctx *c, const trav_cfg *k,
                                                              const rt_ray_pre *p, float tmin,
                                                              float tmax_w, trav_hit *best,
                                                              const bool fast)
{
    stack_ent st[RT_JOB_STACK_DEPTH];
    float st_tf[RT_JOB_STACK_DEPTH]; /* the far ends (see stack_ent), not on a fast ray */
    unsigned sp = 0, visits = 0, nn = fast || !k->node8 ? 1 : 2;
    float tmax = tmax_w;
    uint32_t child = RT_CHILD_NODE; /* the entry being visited: the root node */
    best->hit = false;
    /* What every visit reads, in locals the compiler can keep in registers across the
     * calls of the loop. */
    const uint64_t bvh = k->bvh;
    const bool charged = !fast && c->m->charge != NULL;
    const cache_view cv = {c->nc->node, c->nc->leaf, c->nc->mask, c->nc->lmask};
    const uint32_t gen = c->nc->gen;
    rt_leaf_ray lr; /* prepared at the ray's first leaf */
    bool lr_set = false;
#if defined(__SSE2__)
    /* The vector slab test applies to the whole ray (tmax only decreases to hit distances,
     * never NaN); without a zero direction component, by the reciprocals' signs. */
    bool vec = fast || (!p->nan && !p->slab_scalar && tmin == tmin && tmax_w == tmax_w && nn == 1);
    bool sign = fast || (vec && p->zero_axes == 0);
    __m128 tmin4 = _mm_set1_ps(tmin), tmax4 = _mm_set1_ps(tmax);
    /* the ray's broadcast vectors, read from p at each visit */
    const __m128 *o4 = (const __m128 *)(const void *)p->org4;
    const __m128 *inv4 = (const __m128 *)(const void *)p->inv4;
    const __m128 *ninv4 = (const __m128 *)(const void *)p->ninv4;
#endif
    for (;;) {
        uint64_t addr = bvh + (child & ~KIND_MASK);
        if (++visits > RT_JOB_MAX_VISITS) return fault(c, RT_JOB_STACK, addr);
        if (charged && !spend(c, 1)) return false;
        /* Leaves (about one visit in four) and cache misses as the unlikely cases: the
         * compiler then keeps the ray's vectors in registers through the node visits and
         * saves them around the calls of those cases. */
        if (__builtin_expect((child & KIND_MASK) == RT_CHILD_LEAF, 0)) {
            if (!lr_set) {
                rt_leaf_ray_init(ray_sheared(c), k->cull, k->eps, k->any, &lr);
                lr_set = true;
            }
            if (!leaf(c, k, &lr, addr, best, charged)) return false;
            if (best->hit) {
                if (k->any) return true;
                if (best->t < tmax) { /* min(tmax_w, closest hit) */
                    tmax = best->t;
#if defined(__SSE2__)
                    tmax4 = _mm_set1_ps(tmax);
#endif
                }
            }
        } else {
            const rt_node4w *w0 = &cv.node[(addr >> 6) & cv.mask], *w1 = NULL;
            /* node_get's cache hit, inline */
            if (__builtin_expect(nn != 1 || !slot_has(&w0->cache_gen, &w0->cache_addr, gen, addr),
                                 0)) {
                const rt_node4w *g0, *g1 = NULL;
                if (!node_get(c, addr, nn, &g0, &g1)) return false;
                w0 = g0;
                w1 = g1;
            }
            float tn[8], tf[8];
            unsigned mask;
#if defined(__SSE2__)
            if (sign)
                mask = rt_slab4_sign_sse(o4, ninv4, p->near, p->far, w0, tmin4, tmax4, tn, tf) &
                       w0->live;
            else if (vec)
                mask = rt_slab4_sse(o4, inv4, p->zero_axes, w0, tmin4, tmax4, tn, tf) & w0->live;
            else
#endif
            {
                mask = rt_node4w_slab(p, w0, tmin, tmax, tn, tf);
                if (nn == 2) mask |= rt_node4w_slab(p, w1, tmin, tmax, tn + 4, tf + 4) << 4;
            }
            unsigned rest = mask & (mask - 1);
            if (rest && !(rest & (rest - 1))) { /* two: rt_child_order's one comparison */
                if (sp + 2 > RT_JOB_STACK_DEPTH) return fault(c, RT_JOB_STACK, addr);
                unsigned c0 = (unsigned)__builtin_ctz(mask), c1 = (unsigned)__builtin_ctz(rest);
                bool swap = tn[c0] > tn[c1];
                stack_push(st, st_tf, sp++, w0, w1, nn, swap ? c0 : c1, tn, tf, tmin, fast, &cv,
                           bvh);
                child = node_kid(w0, w1, nn, swap ? c1 : c0);
                continue;
            }
            if (rest) {
                uint8_t order[8];
#if defined(__SSE2__)
                unsigned nhit =
                    fast ? rt_child_order4_sse(mask, tn, order) : rt_child_order(mask, tn, order);
#else
                unsigned nhit = rt_child_order(mask, tn, order);
#endif
                /* Push far to near (room for all nhit, as if the nearest were pushed too);
                 * the nearest is visited next. */
                if (sp + nhit > RT_JOB_STACK_DEPTH) return fault(c, RT_JOB_STACK, addr);
                for (unsigned j = nhit; --j > 0;)
                    stack_push(st, st_tf, sp++, w0, w1, nn, order[j], tn, tf, tmin, fast, &cv, bvh);
                child = node_kid(w0, w1, nn, order[0]);
                continue;
            }
            /* One child (rt_child_order's first case): it always fits, since the pushes
             * above leave room for the child visited next (sp < RT_JOB_STACK_DEPTH). */
            if (mask) {
                child = node_kid(w0, w1, nn, (unsigned)__builtin_ctz(mask));
                continue;
            }
        }
        /* Pop: a child pushed before a closer hit was found is skipped when its box no
         * longer overlaps [tmin, closest hit]: the slab test's last step with the same raw
         * interval, lo <= min(tf, tmax). On a fast ray no value is NaN and the push found
         * lo <= tf already, so that is lo <= tmax. Every popped entry counts as a visit. */
        for (;;) {
            if (sp == 0) return true;
            stack_ent e = st[--sp];
            if (fast ? e.lo <= tmax : e.lo <= (st_tf[sp] < tmax ? st_tf[sp] : tmax)) {
                child = e.child;
                break;
            }
            if (++visits > RT_JOB_MAX_VISITS)
                return fault(c, RT_JOB_STACK, bvh + (e.child & ~KIND_MASK));
            if (charged && !spend(c, 1)) return false;
        }
    }
}

/* Whether traverse_as(fast) applies to the ray: what it takes as constants. (Its range
 * [tmin - 2^-e, tmax + 2^-e] is NaN only where tmin or tmax is: 2^-e is finite.) */
static bool traverse_fast(const job_ctx *c, const trav_cfg *k, const rt_ray_pre *p)
{
#if defined(__SSE2__)
    return !k->node8 && !c->m->charge && p->slab_sign;
#else
    (void)c, (void)k, (void)p;
    return false;
#endif
}

static bool traverse(job_ctx *c, const trav_cfg *k, const rt_ray_pre *p, trav_hit *best)
{
    float eps = rt_eps(k->eps), tmin = p->r.tmin - eps, tmax_w = p->r.tmax + eps;
    if (traverse_fast(c, k, p)) return traverse_as(c, k, p, tmin, tmax_w, best, true);
    return traverse_as(c, k, p, tmin, tmax_w, best, false);
}

/* Fetches the ray at ray_addr (a ray queue slot) into p->r, prepares p and traces it. p is
 * the caller's, one for all its rays (inlined in the ray loops: no frame per ray). */
/* REQ: RT-040 RT-117 */
__attribute__((always_inline)) static inline bool
trace_slot(job_ctx *c, const trav_cfg *k, uint64_t ray_addr, rt_ray_pre *p, trav_hit *h)
{
    cache_fit(c->nc);
    if (k->rays) /* ray_addr is one of its slots */
        rt_ray_decode(k->rays + (ray_addr - k->rays_base), k->e, &p->r);
    else if (!fetched(c, rt_fetch_ray(&c->fetch, ray_addr, k->e, &p->r)))
        return false;
    /* Most rays of a scene reach no leaf (primary rays that miss it, rays whose boxes all
     * miss): the triangle tests' shear waits for the first leaf. */
    rt_ray_prepare_slab(p);
    c->ray = p;
    return traverse(c, k, p, h);
}

/* ---- the job ---- */

/* The domain the job's accesses act for: memctl.dom, or CAP.XMEM.DOM when 0 (RT consumes
 * CAP's memory defaults, CAP 5.1.5). */
/* REQ: RT-100 RT-104 CAP-150 CAP-013 */
static unsigned effective_dom(const rt_job_desc *jd, const cap_snap *s)
{
    unsigned dom = jd->memctl[0];
    if (dom == 0)
        dom = (unsigned)(cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_DOM) & CAP_XMEM_DOM_DOM_MASK);
    return dom == RT_DOM_DEFAULT ? RT_DOM_CPU : dom;
}

/* One ray's outcome: what emit() appends for it, computed by the thread that traced it.
 * 24 bytes: a split job's traced rays cross from core to core through the ring in these. */
enum { OUT_MASKED, OUT_MISS, OUT_HIT, OUT_FAULT };
struct ray_out {
    uint8_t kind;
    bool trap;       /* OUT_HIT: its flags include an exception enabled in the snapshot */
    uint8_t events;  /* CAP.XMEM.EVENTS of the ray's fetches (INV_MISS, bit 0, is the only
                        event a ray's tracing reports) */
    num_flags flags; /* OUT_HIT: of rounding t, u, v */
    union {
        struct {
            uint32_t prim, t, u, v; /* OUT_HIT: the entry's fields (t, u, v in the element
                                       format) */
        };
        struct {
            rt_job_status status; /* OUT_FAULT: why the ray could not be traced */
            uint64_t fault_addr;
        };
    };
};
_Static_assert(CAP_XMEM_EVENTS_INV_MISS_MASK <= UINT8_MAX, "ray_out.events holds INV_MISS");
_Static_assert(sizeof(ray_out) == 24, "ray_out is 24 bytes");

/* The hit or miss of a traced ray: t, u, v rounded once to the element format under the
 * snapshot's policy (rt_result_encode). */
/* REQ: RT-082 RT-085 */
__attribute__((always_inline)) static inline void ray_result(const trav_cfg *k, const cap_snap *s,
                                                             const trav_hit *h, ray_out *o)
{
    if (!h->hit) {
        o->kind = OUT_MISS;
        return;
    }
    num_flags f = 0;
    o->kind = OUT_HIT;
    o->prim = (uint32_t)h->prim;
    o->t = rt_result_encode(h->t, k->e, &s->pol, &f);
    o->u = rt_result_encode(h->u, k->e, &s->pol, &f);
    o->v = rt_result_encode(h->v, k->e, &s->pol, &f);
    o->flags = f;
    o->trap = f != 0 && cap_trap_flags(s, f) != 0; /* no flag traps nothing */
}

/* Ray i's hit entry (its 24 bytes, the last 4 zero) from its traced result. */
static inline void hit_entry(uint8_t *ent, uint32_t i, const ray_out *o)
{
    rt_le_put(ent, 4, i);
    rt_le_put(ent + 4, 4, o->prim);
    rt_le_put(ent + 8, 4, o->t);
    rt_le_put(ent + 12, 4, o->u);
    rt_le_put(ent + 16, 4, o->v);
    rt_le_put(ent + 20, 4, 0);
}

/* Appends ray i's hit or miss entry (nothing at all for a masked-off lane, RT 8.2/8.3) and
 * advances the ray queue's HEAD; false when the job ends. */
/* REQ: RT-120 RT-082 RT-083 RT-085 RT-088 RT-044 RT-091 RT-094 RT-095 */
__attribute__((always_inline)) static inline bool emit(job_ctx *c, queue *rq, queue *hq, queue *mq,
                                                       uint32_t i, const ray_out *o)
{
    rt_job_result *r = c->r;
    if (o->kind == OUT_HIT) {
        r->flags |= o->flags;
        if (o->trap) {
            r->status = RT_JOB_FP_EXC;
            return false;
        }
        uint8_t ent[RT_HIT_BYTES];
        hit_entry(ent, i, o);
        if (!queue_push(c, hq, ent, RT_HIT_BYTES)) return false;
        r->hits++;
    } else if (o->kind == OUT_MISS) {
        uint8_t ent[RT_MISS_BYTES];
        rt_le_put(ent, 4, i);
        if (!queue_push(c, mq, ent, RT_MISS_BYTES)) return false;
        r->misses++;
    }
    uint8_t hb[4];
    rt_le_put(hb, 4, i + 1 == rq->cap ? 0 : i + 1);
    if (!store_bytes(c, rq->desc, rq->desc_w, 4, hb)) return false;
    r->rays++;
    return true;
}

/* ---- split jobs (rt_job.h: parallel tracing, appended in ray order) ----
 *
 * The rays are dealt in blocks (split_block) to whichever thread asks next. The caller's
 * thread appends the blocks in ray order as they complete (the same stores as one thread,
 * to the same final memory) and traces blocks itself while the next block to append is
 * still being traced elsewhere. Tracers read only through map and never read what the
 * job writes (queue descriptors, hit and miss entries: rt_fetch.forbid), so a ray's result
 * does not depend on when it is traced; the ray slots must not overlap those either. A
 * tracer that meets any other read declines: the rays appended so far stand, and the job
 * goes on from there on the caller's thread alone.
 *
 * Appending a block of n rays with h hits and m misses is one thread's n emit() calls:
 * h hit entries from the hit queue's TAIL on, m miss entries from the miss queue's, TAILs
 * and HEAD advanced, the counts and flags summed. Where the job writes plain memory that
 * no two of its written ranges share (split_job.direct), only the counts need to reach
 * the appending thread: its tracer keeps the block's results (tracer.kept) and writes the
 * entries itself once the appending thread has placed the block (block_state.hit_at,
 * miss_at: the TAILs there). The results then never cross to the appending core, and the
 * entries are written on both cores. A tracer keeps every plain block it traces, however
 * far ahead of the append it runs (a descheduled appending thread, for instance): the
 * results of up to SPLIT_KEEP in a buffer of its own, the others in the block's ring
 * slot. A block with a fault or an enabled exception, and one that would fill a queue,
 * are appended ray by ray from the ring, as one thread does. Every entry slot
 * is written once per job, apart from everything a tracer reads, and the caller's thread
 * goes on (alone, or back to the hart) only once every placed block has been written. */

/* Rays per block: SPLIT_BLOCK, or up to SPLIT_BLOCK_MAX in a job long enough for
 * SPLIT_BLOCKS_LONG blocks of that size (split_block). */
#define SPLIT_BLOCK       32u
#define SPLIT_BLOCK_MAX   128u
#define SPLIT_BLOCKS_LONG 512u
/* The ring holds every block of a job up to SPLIT_RING_MAX units of SPLIT_BLOCK rays (1M
 * rays), at least SPLIT_RING_MIN; a longer job is split ring by ring. A whole job in the ring means
 * the appending thread never waits for a block while others are left to trace: on a host whose
 * cores are busy with other work, a worker that is not scheduled then holds up the append once, at
 * the end, not once per ring's worth. */
#define SPLIT_RING_MIN 64u
#define SPLIT_RING_MAX (1u << 15)
/* Kept blocks of SPLIT_BLOCK rays whose results a tracer holds in a buffer of its own (in
 * its core's cache; the others wait in their ring slots): the appending thread places the
 * next block about once per block it traces, so a few are enough while both threads run.
 * (Of longer blocks it holds as many as fit.) */
#define SPLIT_KEEP 16u
#define IN_RING    SPLIT_KEEP /* a kept block whose results are in its ring slot */
#define PLACED(b)  (2 * (uint64_t)(b) + 2)
#define TO_RING(b) (2 * (uint64_t)(b) + 3)

struct split_job {
    const trav_cfg *k;
    const cap_snap *s;
    const rt_job_mem *m;
    rt_job_engine *eng;
    const queue *rq, *hq, *mq;
    uint32_t n;
    uint64_t lanes_off;
    bool oob_zero;
    bool direct;             /* tracers may keep blocks and write their entries */
    const uint64_t (*wr)[2]; /* what the job writes (job_writes) */
    uint64_t rays[2];        /* the ray slots, apart from wr */
    uint32_t block;          /* rays per block (split_block) */
    uint64_t ring;           /* blocks in the ring (eng->ring_blocks units of SPLIT_BLOCK) */
    uint64_t b0, b1;         /* this round's blocks: [b0, b1), at most ring of them */
    /* Each on a cache line of its own (written by different threads). */
    _Alignas(128) atomic_uint_fast64_t next;   /* the next block to trace */
    _Alignas(128) atomic_bool stop;            /* the job ended, or a tracer declined */
    atomic_uint tracing;                       /* workers still taking blocks */
    atomic_uint tracers;                       /* tracers started (each its part of kept_q) */
    atomic_bool placing_done;                  /* no block is placed any more */
    atomic_uint_fast64_t evict;                /* the workers' cache evictions */
    atomic_uint_fast64_t traced, kept_in_ring; /* all tracers' (rt_job_split_stats) */
    /* The address range of the records the tracers cached: [~nlo, hi) (0, 0: none) */
    atomic_uint_fast64_t nlo, hi;
};

/* A tracer thread's state. It reads private copies of what it consults at every ray or
 * node visit (configuration, snapshot, memory interface, ray queue, the ranges it must not
 * read), each tracer on cache lines of its own: the appending thread keeps writing its own
 * queue and result records, which could share a cache line with the originals on its
 * stack, and a reader on another core would then miss that line again and again. */
typedef struct {
    _Alignas(128) job_ctx c;
    node_cache view; /* of the engine's table */
    rt_job_result scratch;
    trav_cfg k;
    cap_snap s;
    rt_job_mem m;
    uint64_t ray_base, lanes_off;
    uint32_t ray_head, ray_cap;
    uint64_t wr[5][2];
    uint8_t *hits, *misses; /* the entry arrays (direct) */
    uint32_t hit_cap, miss_cap;
    bool keep;
    /* The blocks it traced and keeps until they are placed, oldest first: [kept_first,
     * kept_end) of kept_q, each as b << 8 | where its results are (a slot of kept, or
     * IN_RING). A round's blocks all fit: sj->ring entries. */
    uint64_t *kept_q;
    uint64_t kept_first, kept_end;
    uint32_t kept_free, kept_all; /* the slots of kept not in use, and all of them: a bit each */
    uint64_t rays, kept_in_ring;  /* traced, for rt_job_split_stats */
    ray_out kept[SPLIT_KEEP * SPLIT_BLOCK]; /* slot k: from kept + k * sj->block */
} tracer;

static void tracer_init(tracer *tr, split_job *sj)
{
    tr->view = sj->eng->cache;
    tr->view.max_bits = tr->view.bits;
    tr->view.shared = true;
    tr->view.evict = 0;
    tr->k = *sj->k;
    tr->s = *sj->s;
    tr->m = *sj->m;
    tr->ray_base = sj->rq->base;
    tr->ray_head = sj->rq->head;
    tr->ray_cap = sj->rq->cap;
    tr->lanes_off = sj->lanes_off;
    memcpy(tr->wr, sj->wr, sizeof tr->wr);
    tr->keep = sj->direct;
    tr->hits = sj->hq->base_w;
    tr->misses = sj->mq->base_w;
    tr->hit_cap = sj->hq->cap;
    tr->miss_cap = sj->mq->cap;
    tr->kept_q = sj->eng->kept_q + atomic_fetch_add(&sj->tracers, 1) * sj->ring;
    tr->rays = tr->kept_in_ring = 0;
    tr->kept_first = tr->kept_end = 0;
    tr->kept_all = (UINT32_C(1) << (SPLIT_KEEP * SPLIT_BLOCK / sj->block)) - 1;
    tr->kept_free = tr->kept_all;
    tr->c = (job_ctx){.m = &tr->m,
                      .r = &tr->scratch,
                      .nc = &tr->view,
                      .fetch = (rt_fetch){.mem = &tr->m,
                                          .oob_zero = sj->oob_zero,
                                          .map_only = true,
                                          .forbid = (const uint64_t(*)[2])tr->wr,
                                          .nforbid = 5,
                                          .clear = {sj->rays[0], sj->rays[1]}}};
}

static void atomic_max(atomic_uint_fast64_t *x, uint64_t v)
{
    uint_fast64_t old = atomic_load_explicit(x, memory_order_relaxed);
    while (old < v && !atomic_compare_exchange_weak_explicit(x, &old, v, memory_order_relaxed,
                                                             memory_order_relaxed)) {
    }
}

/* A tracer has finished its share of a split job: its evictions and the range of what it
 * cached go to the job (the engine's record of them is updated after the job). */
static void tracer_done(split_job *sj, const tracer *tr)
{
    atomic_fetch_add(&sj->evict, tr->view.evict);
    atomic_fetch_add(&sj->traced, tr->rays);
    atomic_fetch_add(&sj->kept_in_ring, tr->kept_in_ring);
    if (tr->view.lo >= tr->view.hi) return;
    atomic_max(&sj->nlo, ~tr->view.lo);
    atomic_max(&sj->hi, tr->view.hi);
}

/* After a round of a split job (no tracer running; tr: the calling thread's): the
 * engine's table takes the tracers' evictions and the range of the records they cached,
 * which stay valid: a tracer read nothing the job writes (rt_fetch.forbid), and
 * cache_job_start dropped any kept entry the job's writes overlap. */
static void split_cache_done(split_job *sj, const tracer *tr)
{
    tracer_done(sj, tr);
    node_cache *nc = &sj->eng->cache;
    nc->evict += atomic_load(&sj->evict); /* split_run counts each round from 0 */
    /* The range only grows over the rounds of a job: adding it again changes nothing. */
    uint64_t hi = atomic_load(&sj->hi), lo = ~(uint64_t)atomic_load(&sj->nlo);
    if (lo < hi) cache_range(nc, lo, hi - lo);
}

static block_state *block_of(const split_job *sj, uint64_t b)
{
    return &sj->eng->blocks[b % sj->ring];
}

static ray_out *ring_of(const split_job *sj, uint64_t b)
{
    return sj->eng->ring + (b % sj->ring) * sj->block;
}

/* Rays per block of a split job of n rays. A block is handed over between threads (the
 * next counter, the block's line read and written on both cores): rt-mt2 measured that at
 * 4-5 ns per ray of a job in blocks of SPLIT_BLOCK, so a long job takes longer blocks, as
 * long as each thread still gets hundreds of them (an uneven end costs one block). */
static uint32_t split_block(uint32_t n)
{
    uint32_t block = SPLIT_BLOCK;
    while (block < SPLIT_BLOCK_MAX && n / (2 * block) >= SPLIT_BLOCKS_LONG)
        block *= 2;
    return block;
}

/* Block b's rays: [*j0, *j1) of the job. */
static void block_rays(const split_job *sj, uint64_t b, uint32_t *j0, uint32_t *j1)
{
    *j0 = (uint32_t)(b * sj->block);
    *j1 = sj->n - *j0 > sj->block ? *j0 + sj->block : sj->n;
}

/* Block b's results o go to its ring slot. */
static void ring_put(const split_job *sj, uint64_t b, const ray_out *o)
{
    uint32_t j0, j1;
    block_rays(sj, b, &j0, &j1);
    memcpy(ring_of(sj, b), o, (j1 - j0) * sizeof *o);
}

static bool block_ready(split_job *sj, uint64_t b)
{
    return atomic_load_explicit(&block_of(sj, b)->ready, memory_order_acquire) == b + 1;
}

/* Traces block b into a kept slot or its ring slot and publishes it; false when the
 * tracer declined (the block is then not published, and the job stops splitting). */
static bool trace_block(split_job *sj, tracer *tr, uint64_t b)
{
    uint32_t j0, j1;
    block_rays(sj, b, &j0, &j1);
    unsigned slot = tr->keep && tr->kept_free ? (unsigned)__builtin_ctz(tr->kept_free) : IN_RING;
    ray_out *o0 = slot != IN_RING ? tr->kept + slot * sj->block : ring_of(sj, b), *o = o0;
    unsigned rsz = rt_ray_bytes(tr->k.e);
    rt_ray_pre p;
    uint32_t cap = tr->ray_cap, i = (uint32_t)(((uint64_t)tr->ray_head + j0) % cap);
    for (uint32_t j = j0; j < j1; j++, o++, i = i + 1 == cap ? 0 : i + 1) {
        if ((tr->lanes_off >> (j % 64)) & 1) { /* masked-off lane: not traced */
            o->kind = OUT_MASKED;
            o->events = 0;
            continue;
        }
        tr->scratch.status = RT_JOB_OK;
        tr->scratch.events = 0;
        tr->c.fetch.inv_miss = false;
        trav_hit h;
        if (trace_slot(&tr->c, &tr->k, tr->ray_base + (uint64_t)i * rsz, &p, &h)) {
            ray_result(&tr->k, &tr->s, &h, o);
        } else {
            if (tr->c.fetch.declined) {
                atomic_store(&sj->stop, true);
                return false;
            }
            o->kind = OUT_FAULT;
            o->status = tr->scratch.status != RT_JOB_OK ? tr->scratch.status : RT_JOB_MEM_FAULT;
            o->fault_addr = tr->scratch.fault_addr;
        }
        o->events = (uint8_t)tr->scratch.events;
    }
    block_state *bs = block_of(sj, b);
    uint32_t hits = 0, misses = 0;
    num_flags flags = 0;
    uint8_t events = 0;
    bool plain = true;
    for (o = o0; o < o0 + (j1 - j0); o++) {
        events |= o->events;
        hits += o->kind == OUT_HIT;
        misses += o->kind == OUT_MISS;
        if (o->kind == OUT_HIT) flags |= o->flags;
        plain &= o->kind != OUT_FAULT && !(o->kind == OUT_HIT && o->trap);
    }
    bs->hits = hits;
    bs->misses = misses;
    bs->flags = flags;
    bs->events = events;
    bs->kept = tr->keep && plain;
    if (bs->kept) {
        tr->kept_q[tr->kept_end++] = b << 8 | slot;
        tr->kept_in_ring += slot == IN_RING;
        if (slot != IN_RING) tr->kept_free &= ~(UINT32_C(1) << slot);
    } else if (slot != IN_RING) {
        ring_put(sj, b, o0);
    }
    tr->rays += j1 - j0;
    atomic_store_explicit(&bs->ready, b + 1, memory_order_release);
    return true;
}

/* Writes the entries of kept block b, placed at bs->hit_at, bs->miss_at. */
static void kept_write(const split_job *sj, const tracer *tr, uint64_t b, const block_state *bs,
                       const ray_out *o)
{
    uint32_t j0, j1;
    block_rays(sj, b, &j0, &j1);
    uint32_t i = (uint32_t)(((uint64_t)tr->ray_head + j0) % tr->ray_cap);
    uint32_t h = bs->hit_at, m = bs->miss_at;
    for (uint32_t j = j0; j < j1; j++, o++, i = i + 1 == tr->ray_cap ? 0 : i + 1) {
        if (o->kind == OUT_HIT) {
            hit_entry(tr->hits + (uint64_t)h * RT_HIT_BYTES, i, o);
            h = h + 1 == tr->hit_cap ? 0 : h + 1;
        } else if (o->kind == OUT_MISS) {
            rt_le_put(tr->misses + (uint64_t)m * RT_MISS_BYTES, 4, i);
            m = m + 1 == tr->miss_cap ? 0 : m + 1;
        }
    }
}

/* CLOCK_MONOTONIC, ns: the waits of rt_job_split_stats. */
static uint64_t clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

__attribute__((noinline)) static void spin_pause(unsigned *spins)
{
    if (++*spins < 64) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
    } else {
        *spins = 0;
        sched_yield();
    }
}

/* Hands over the tracer's kept blocks the appending thread has decided on, oldest first:
 * a placed block's entries are written, one it asks for goes to its ring slot. With wait,
 * until none is kept: once placing is done, those left were not placed (the job ended
 * before them) and are dropped. */
static void kept_flush(split_job *sj, tracer *tr, bool wait)
{
    unsigned spins = 0;
    while (tr->kept_first < tr->kept_end) {
        uint64_t b = tr->kept_q[tr->kept_first] >> 8;
        unsigned slot = (unsigned)(tr->kept_q[tr->kept_first] & 0xFF);
        block_state *bs = block_of(sj, b);
        uint64_t st = atomic_load_explicit(&bs->placed, memory_order_acquire);
        if (st != PLACED(b) && st != TO_RING(b)) {
            if (!wait) return;
            if (!atomic_load_explicit(&sj->placing_done, memory_order_acquire)) {
                spin_pause(&spins);
                continue;
            }
            st = atomic_load_explicit(&bs->placed, memory_order_acquire);
            if (st != PLACED(b) && st != TO_RING(b)) break; /* the rest are dropped */
        }
        if (st == PLACED(b)) {
            kept_write(sj, tr, b, bs,
                       slot != IN_RING ? tr->kept + slot * sj->block : ring_of(sj, b));
        } else {
            if (slot != IN_RING) ring_put(sj, b, tr->kept + slot * sj->block);
            atomic_store_explicit(&bs->in_ring, b + 1, memory_order_release);
        }
        if (slot != IN_RING) tr->kept_free |= UINT32_C(1) << slot;
        tr->kept_first++;
    }
    /* None left (or the rest dropped): the list starts again at its beginning. */
    tr->kept_first = tr->kept_end = 0;
    tr->kept_free = tr->kept_all;
}

/* A worker's share of a split job: blocks until none is left, the job stops, or it
 * declines; then its kept blocks. */
static void split_work(split_job *sj)
{
    int mode = rt_rne_enter();
    tracer tr;
    tracer_init(&tr, sj);
    while (!atomic_load(&sj->stop)) {
        kept_flush(sj, &tr, false);
        uint64_t b = atomic_fetch_add(&sj->next, 1);
        if (b >= sj->b1 || !trace_block(sj, &tr, b)) break;
    }
    atomic_fetch_sub_explicit(&sj->tracing, 1, memory_order_release);
    kept_flush(sj, &tr, true);
    tracer_done(sj, &tr);
    rt_rne_leave(mode);
}

/* Makes the ring hold at least `blocks` blocks; false when it could not (the ring then
 * stays as it was). */
static bool ring_fit(rt_job_engine *e, uint64_t blocks)
{
    if (e->ring_blocks >= blocks) return true;
    /* Blocks of whole cache lines (32 * 24 bytes): two threads writing neighbouring blocks
     * never share a line. The tracers' lists of kept blocks follow (kept_q). */
    size_t results = (size_t)blocks * SPLIT_BLOCK * sizeof(ray_out);
    size_t lists = ((size_t)blocks * e->kept_tracers * sizeof(uint64_t) + 63) & ~(size_t)63;
    ray_out *ring = aligned_alloc(64, results + lists);
    block_state *bs = aligned_alloc(64, (size_t)blocks * sizeof *bs);
    if (!ring || !bs) {
        free(ring);
        free(bs);
        return false;
    }
    free(e->ring);
    free(e->blocks);
    e->ring = ring;
    e->kept_q = (uint64_t *)(void *)((uint8_t *)ring + results);
    e->blocks = bs;
    e->ring_blocks = blocks;
    return true;
}

/* The pool hands a split job to every worker, and the job is complete only once each of
 * them is back: a completed ticket means the whole of its job is done (RT 9). */
/* REQ: RT-123 */
static void *worker_main(void *arg)
{
    rt_job_engine *e = arg;
    uint64_t seen = 0;
    pthread_mutex_lock(&e->mu);
    for (;;) {
        while (e->seq == seen && !e->quit)
            pthread_cond_wait(&e->wake, &e->mu);
        if (e->quit) break;
        seen = e->seq;
        split_job *sj = e->job;
        pthread_mutex_unlock(&e->mu);
        split_work(sj);
        pthread_mutex_lock(&e->mu);
        if (--e->running == 0) pthread_cond_signal(&e->back);
    }
    pthread_mutex_unlock(&e->mu);
    return NULL;
}

/* REQ: RT-123 */
static void pool_start(rt_job_engine *e, split_job *sj)
{
    pthread_mutex_lock(&e->mu);
    e->job = sj;
    e->seq++;
    e->running = e->workers;
    pthread_cond_broadcast(&e->wake);
    pthread_mutex_unlock(&e->mu);
}

/* REQ: RT-123 */
static void pool_wait(rt_job_engine *e)
{
    pthread_mutex_lock(&e->mu);
    while (e->running)
        pthread_cond_wait(&e->back, &e->mu);
    pthread_mutex_unlock(&e->mu);
}

rt_job_engine *rt_job_engine_new(unsigned threads)
{
    if (threads == 0) threads = 1;
    if (threads > RT_JOB_MAX_THREADS) threads = RT_JOB_MAX_THREADS;
    /* sizeof *e is a multiple of its alignment (the cache's 128 bytes). */
    rt_job_engine *e = aligned_alloc(_Alignof(rt_job_engine), sizeof *e);
    if (!e) return NULL;
    memset(e, 0, sizeof *e);
    e->threads = 1;
    e->kept_tracers = threads;
    if (!cache_init(&e->cache, threads > 1 ? CACHE_SPLIT_BITS : CACHE_MIN_BITS)) {
        rt_job_engine_free(e);
        return NULL;
    }
    if (threads == 1) return e;
    /* Fewer workers than asked for (no memory, no thread) is a smaller engine, not an
     * error: the results are the same. */
    if (!ring_fit(e, SPLIT_RING_MIN) || pthread_mutex_init(&e->mu, NULL) != 0) return e;
    if (pthread_cond_init(&e->wake, NULL) != 0) {
        pthread_mutex_destroy(&e->mu);
        return e;
    }
    if (pthread_cond_init(&e->back, NULL) != 0) {
        pthread_cond_destroy(&e->wake);
        pthread_mutex_destroy(&e->mu);
        return e;
    }
    e->pool = true;
    for (unsigned t = 1; t < threads; t++) {
        if (pthread_create(&e->tid[t], NULL, worker_main, e) != 0) break;
        e->workers++;
        e->threads++;
    }
    return e;
}

void rt_job_engine_free(rt_job_engine *e)
{
    if (!e) return;
    if (e->pool) {
        pthread_mutex_lock(&e->mu);
        e->quit = true;
        pthread_cond_broadcast(&e->wake);
        pthread_mutex_unlock(&e->mu);
        for (unsigned t = 1; t <= e->workers; t++)
            pthread_join(e->tid[t], NULL);
        pthread_cond_destroy(&e->back);
        pthread_cond_destroy(&e->wake);
        pthread_mutex_destroy(&e->mu);
    }
    cache_free(&e->cache);
    free(e->ring);
    free(e->blocks);
    free(e);
}

static bool overlaps(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
    return a0 < b1 && b0 < a1;
}

/* Ranges [lo, hi) by their lower bound (rt_fetch.forbid's order). */
static void ranges_sort(uint64_t (*r)[2], unsigned n)
{
    for (unsigned i = 1; i < n; i++)
        for (unsigned j = i; j > 0 && r[j][0] < r[j - 1][0]; j--) {
            uint64_t t0 = r[j][0], t1 = r[j][1];
            r[j][0] = r[j - 1][0];
            r[j][1] = r[j - 1][1];
            r[j - 1][0] = t0;
            r[j - 1][1] = t1;
        }
}

/* The five address ranges [lo, hi) the job writes, by lo: the three queue descriptors
 * (HEAD, TAIL) and the hit and miss entry arrays. */
static void job_writes(const queue *rq, const queue *hq, const queue *mq, uint64_t wr[5][2])
{
    const uint64_t w[5][2] = {{rq->desc, rq->desc + 8},
                              {hq->desc, hq->desc + 8},
                              {mq->desc, mq->desc + 8},
                              {hq->base, hq->base + (uint64_t)hq->cap * RT_HIT_BYTES},
                              {mq->base, mq->base + (uint64_t)mq->cap * RT_MISS_BYTES}};
    memcpy(wr, w, sizeof w);
    ranges_sort(wr, 5);
}

/* Whether [lo, hi) lies apart from every range the job writes (an empty or wrapping
 * range does not). */
static bool writes_apart(const uint64_t wr[5][2], uint64_t lo, uint64_t hi)
{
    if (hi <= lo) return false;
    for (unsigned w = 0; w < 5; w++)
        if (overlaps(lo, hi, wr[w][0], wr[w][1])) return false;
    return true;
}

/* Whether no two of the job's writes (by lo) share a byte: each lands where one thread
 * leaves it, in whatever order they are made. */
static bool writes_disjoint(const uint64_t wr[5][2])
{
    for (unsigned w = 0; w + 1 < 5; w++)
        if (wr[w][1] > wr[w + 1][0]) return false;
    return true;
}

/* Appends rays *j .. end-1 of the job from their traced results o; false when the job
 * ends (at ray *j). */
static bool append(job_ctx *c, queue *rq, queue *hq, queue *mq, const ray_out *o, uint32_t *j,
                   uint32_t end)
{
    uint32_t i = (uint32_t)(((uint64_t)rq->head + *j) % rq->cap);
    for (; *j < end; (*j)++, o++, i = i + 1 == rq->cap ? 0 : i + 1) {
        c->r->events |= o->events;
        if (o->kind == OUT_FAULT) {
            c->r->status = o->status;
            c->r->fault_addr = o->fault_addr;
            return false;
        }
        if (!emit(c, rq, hq, mq, i, o)) return false;
    }
    return true;
}

/* Entries queue_push can still append before q is full. */
static uint32_t queue_room(const queue *q)
{
    return (uint32_t)(((uint64_t)q->head + q->cap - q->tail - 1) % q->cap);
}

/* Advances q's TAIL past n entries placed at q->tail. */
static bool queue_skip(job_ctx *c, queue *q, uint32_t n)
{
    q->tail = (uint32_t)(((uint64_t)q->tail + n) % q->cap);
    uint8_t t[4];
    rt_le_put(t, 4, q->tail);
    return store_bytes(c, q->desc + 4, q->desc_w + 4, 4, t);
}

/* Appends block b (traced; its rays from *j = its first on): a kept block whose entries
 * fit by placing it, any other from its ring slot, one ray at a time. False when the job
 * ends in it (at ray *j). */
static bool append_block(split_job *sj, tracer *tr, job_ctx *c, queue *rq, queue *hq, queue *mq,
                         uint64_t b, uint32_t *j)
{
    block_state *bs = block_of(sj, b);
    uint32_t j0, j1;
    block_rays(sj, b, &j0, &j1);
    if (bs->kept) {
        if (bs->hits <= queue_room(hq) && bs->misses <= queue_room(mq)) {
            bs->hit_at = hq->tail;
            bs->miss_at = mq->tail;
            atomic_store_explicit(&bs->placed, PLACED(b), memory_order_release);
            rt_job_result *r = c->r;
            r->events |= bs->events;
            r->flags |= bs->flags;
            r->hits += bs->hits;
            r->misses += bs->misses;
            r->rays += j1 - j0;
            uint32_t last = (uint32_t)(((uint64_t)rq->head + j1 - 1) % rq->cap);
            uint8_t hb[4];
            rt_le_put(hb, 4, last + 1 == rq->cap ? 0 : last + 1);
            *j = j1;
            return queue_skip(c, hq, bs->hits) && queue_skip(c, mq, bs->misses) &&
                   store_bytes(c, rq->desc, rq->desc_w, 4, hb);
        }
        /* A queue fills up inside the block: its rays one by one, from the ring. */
        atomic_store_explicit(&bs->placed, TO_RING(b), memory_order_release);
        unsigned spins = 0;
        while (atomic_load_explicit(&bs->in_ring, memory_order_acquire) != b + 1) {
            kept_flush(sj, tr, false); /* the block may be this thread's */
            spin_pause(&spins);
        }
    }
    sj->eng->stats.ring_blocks++;
    return append(c, rq, hq, mq, ring_of(sj, b), j, j1);
}

/* Runs blocks b0 .. b1-1 of the job split across the engine's threads, appending with c
 * (the caller's context) in ray order. Returns the ray the job ended at (*ended), or the
 * end of block b1 - 1, or the first ray of the first block no thread could trace, from
 * which the caller goes on alone. */
static uint32_t split_run(split_job *sj, job_ctx *c, queue *rq, queue *hq, queue *mq, bool *ended)
{
    rt_job_engine *eng = sj->eng;
    for (uint64_t b = sj->b0; b < sj->b1; b++) {
        block_state *bs = block_of(sj, b);
        atomic_init(&bs->ready, 0);
        atomic_init(&bs->placed, 0);
        atomic_init(&bs->in_ring, 0);
    }
    atomic_init(&sj->next, sj->b0);
    atomic_init(&sj->stop, false);
    atomic_init(&sj->tracing, eng->workers);
    atomic_init(&sj->placing_done, false);
    atomic_init(&sj->evict, 0);
    atomic_init(&sj->tracers, 0);
    atomic_init(&sj->traced, 0);
    atomic_init(&sj->kept_in_ring, 0);
    tracer tr;
    tracer_init(&tr, sj);
    pool_start(eng, sj);
    uint64_t b = sj->b0;
    uint32_t j = (uint32_t)(b * sj->block);
    unsigned spins = 0;
    uint64_t wait0 = 0; /* when the wait for block b began (0: not waiting) */
    *ended = false;
    while (b < sj->b1) {
        if (block_ready(sj, b)) {
            spins = 0;
            if (wait0) eng->stats.wait_ns += clock_ns() - wait0;
            wait0 = 0;
            if (!append_block(sj, &tr, c, rq, hq, mq, b, &j)) {
                *ended = true;
                break;
            }
            b++;
            continue;
        }
        kept_flush(sj, &tr, false);
        if (atomic_load(&sj->stop)) break;
        /* Block b is being traced elsewhere: trace a later one meanwhile. */
        uint_fast64_t nb = atomic_load(&sj->next);
        if (nb < sj->b1 && atomic_compare_exchange_weak(&sj->next, &nb, nb + 1)) {
            trace_block(sj, &tr, nb);
            continue;
        }
        if (!wait0) wait0 = clock_ns();
        spin_pause(&spins);
    }
    if (wait0) eng->stats.wait_ns += clock_ns() - wait0;
    atomic_store(&sj->stop, true);
    if (!*ended && b < sj->b1) {
        /* A tracer declined: once no thread traces, the blocks completed before it, in
         * order. */
        while (atomic_load_explicit(&sj->tracing, memory_order_acquire))
            spin_pause(&spins);
        while (b < sj->b1 && block_ready(sj, b)) {
            if (!append_block(sj, &tr, c, rq, hq, mq, b, &j)) {
                *ended = true;
                break;
            }
            b++;
        }
    }
    atomic_store_explicit(&sj->placing_done, true, memory_order_release);
    uint64_t end0 = clock_ns();
    kept_flush(sj, &tr, true);
    pool_wait(eng);
    split_cache_done(sj, &tr);
    eng->stats.end_ns += clock_ns() - end0;
    eng->stats.rays_caller += tr.rays;
    eng->stats.rays_workers += atomic_load(&sj->traced) - tr.rays;
    eng->stats.kept_in_ring += atomic_load(&sj->kept_in_ring);
    eng->stats.blocks += b - sj->b0;
    return j;
}

/* A job of n rays split across the engine's threads, a ring's worth of blocks at a time
 * (split_run), the next round once one has completed. Returns the ray the calling thread
 * goes on from alone (n: none), *ended as split_run. Not inlined into rt_job_run_ex, whose
 * one-thread loop then keeps its registers. */
static __attribute__((noinline)) uint32_t
split_job_run(rt_job_engine *eng, job_ctx *c, const trav_cfg *k, const cap_snap *s,
              uint64_t lanes_off, queue *rq, queue *hq, queue *mq, uint32_t n,
              const uint64_t wr[5][2], uint64_t rays_end, bool *ended)
{
    split_job sj = {.k = k,
                    .s = s,
                    .m = c->m,
                    .eng = eng,
                    .rq = rq,
                    .hq = hq,
                    .mq = mq,
                    .n = n,
                    .lanes_off = lanes_off,
                    .oob_zero = c->fetch.oob_zero,
                    .direct = rq->desc_w && hq->desc_w && mq->desc_w && hq->base_w && mq->base_w &&
                              writes_disjoint(wr),
                    .wr = wr,
                    .rays = {rq->base, rays_end},
                    .block = split_block(n)};
    uint64_t blocks = ((uint64_t)n + sj.block - 1) / sj.block;
    uint64_t units = blocks * (sj.block / SPLIT_BLOCK); /* of SPLIT_BLOCK rays */
    ring_fit(eng, units < SPLIT_RING_MAX ? units : SPLIT_RING_MAX);
    sj.ring = eng->ring_blocks / (sj.block / SPLIT_BLOCK);
    eng->stats.block_rays = sj.block;
    uint32_t j = 0;
    for (sj.b0 = 0; sj.b0 < blocks && !*ended && j == sj.b0 * sj.block; sj.b0 = sj.b1) {
        sj.b1 = blocks - sj.b0 > sj.ring ? sj.b0 + sj.ring : blocks;
        j = split_run(&sj, c, rq, hq, mq, ended);
    }
    cache_fit_job(&eng->cache);
    return j;
}

/* A job keeps the generation of the job before it on this engine (the decoded nodes and
 * leaves stay valid) only when nothing they were decoded from can have changed: the same
 * memory offers an epoch, which has not changed since that job watched every record it
 * cached (cache_job_end), the entries depend on nothing else that differs (cache_keep),
 * and nothing this job writes (wr, job_writes) overlaps them. Otherwise it starts a new
 * generation (an empty cache). Either way a store of the job over what it has cached
 * starts one (store_bytes). */
static void cache_job_start(node_cache *nc, const cache_keep *kept, const rt_job_mem *m,
                            const trav_cfg *k, const uint64_t wr[5][2])
{
    bool same = kept->valid && m->epoch && m->watch && kept->ctx == m->ctx &&
                kept->epoch_fn == m->epoch && kept->watch == m->watch && kept->map == m->map &&
                kept->load == m->load && kept->e == k->e && kept->node8 == k->node8 &&
                kept->tri_buf == k->tri_buf &&
                (nc->lo >= nc->hi || writes_apart(wr, nc->lo, nc->hi));
    if (!same || m->epoch(m->ctx) != kept->epoch) cache_new_gen(nc);
}

/* At the end of a job (no tracer running): every record the generation holds, as one
 * range, is watched, and the epoch after that recorded for the next job. A memory without
 * an epoch, or one that cannot watch all of it (not plain memory), keeps nothing. */
static void cache_job_end(rt_job_engine *eng, const rt_job_mem *m, const trav_cfg *k)
{
    const node_cache *nc = &eng->cache;
    if (!m->epoch || !m->watch) return;
    if (nc->lo < nc->hi && !m->watch(m->ctx, nc->lo, nc->hi - nc->lo)) return;
    eng->keep = (cache_keep){.valid = true,
                             .ctx = m->ctx,
                             .epoch_fn = m->epoch,
                             .watch = m->watch,
                             .map = m->map,
                             .load = m->load,
                             .epoch = m->epoch(m->ctx),
                             .e = k->e,
                             .node8 = k->node8,
                             .tri_buf = k->tri_buf};
}

/* The whole ray array as one host pointer (k->rays), when rt_fetch_ray would read every
 * slot in place (rt_fetch_run: aligned, plain memory, no cache model) and nothing the job
 * writes can change it or what it maps to: every write of the job goes directly to plain
 * memory (queue_direct) and none of it overlaps the rays (rays_apart). A ray is then read
 * as rt_fetch_ray reads it, at the time it is traced, without a call per ray. */
static void rays_in_place(const job_ctx *c, trav_cfg *k, const queue *rq, const queue *hq,
                          const queue *mq, bool rays_apart)
{
    unsigned rsz = rt_ray_bytes(k->e);
    k->rays = NULL;
    if (!rays_apart || !rq->desc_w || !hq->desc_w || !mq->desc_w || !hq->base_w || !mq->base_w)
        return;
    uint64_t lo = rq->base, hi = rq->base + (uint64_t)rq->cap * rsz;
    k->rays = rt_fetch_run(&c->fetch, lo, rsz / 8, hi - lo);
    k->rays_base = lo;
}

void rt_job_run(const rt_job_desc *jd, const cap_snap *s, const rt_job_mem *m, rt_job_result *r)
{
    rt_job_engine *e = rt_job_engine_new(1);
    rt_job_run_ex(jd, s, m, e, r);
    rt_job_engine_free(e);
}

/* REQ: RT-089 RT-096 RT-098 RT-100 RT-103 RT-104 RT-117 */
void rt_job_run_ex(const rt_job_desc *jd, const cap_snap *s, const rt_job_mem *m,
                   rt_job_engine *eng, rt_job_result *r)
{
    memset(r, 0, sizeof *r);
    if (!eng) {
        r->status = RT_JOB_MEM_FAULT; /* no engine: the host is out of memory */
        return;
    }
    node_cache *nc = &eng->cache;
    /* The record of the last job is used once: a job that ends early keeps nothing. */
    cache_keep kept = eng->keep;
    eng->keep.valid = false;
    memset(&eng->stats, 0, sizeof eng->stats);
    job_ctx c = {.m = m, .r = r, .nc = nc};
    uint64_t xcap = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_CAP);
    uint64_t descpol = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_DESCPOL);

    /* Memory policy (errata ). */
    r->dom = effective_dom(jd, s);
    unsigned mclass = jd->memctl[XMEM_MC_MCLASS];
    bool class_part = (xcap & CAP_XMEM_CAP_CLASS_PART_MASK) != 0;
    r->mclass = !class_part ? 0u
                : mclass    ? (mclass & 3u)
                            : (unsigned)((descpol & CAP_XMEM_DESCPOL_DEF_CLASS_MASK) >>
                                      CAP_XMEM_DESCPOL_DEF_CLASS_SHIFT);
    if (jd->memctl[XMEM_MC_HYB] == 1 && xmem_hyb_fallback(s))
        r->events |= CAP_XMEM_EVENTS_HYB_FALLBK_MASK;
    if (jd->opts & ~RT_OPT_DEFINED) {
        r->status = RT_JOB_BAD_OPTS;
        return;
    }
    if ((descpol & CAP_XMEM_DESCPOL_STRICT_DOM_MASK) && r->dom != RT_DOM_RT &&
        r->dom != RT_DOM_ALL) {
        r->status = RT_JOB_DOM_REJECT;
        return;
    }

    /* Element format of rays, triangles and results (errata Q-69). */
    trav_cfg cfg;
    if (!rt_elem_from_pet(s->pet, s->pol.q, &cfg.e)) r->unsup_fmt = true;
    cfg.cull = (jd->opts & RT_OPT_CULL_BACK) != 0;
    cfg.any = (jd->opts & RT_OPT_ANY_HIT) != 0;
    cfg.node8 = (jd->opts & RT_OPT_NODE8) != 0;
    cfg.eps = jd->eps_code;
    cfg.bvh = jd->bvh_base;
    cfg.tri_buf = jd->tri_buf;

    /* SVMEM of the snapshot (errata P-320): OOB-zero for the fetches, FOF per ray. */
    uint64_t svmmode = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_SVMMODE);
    bool fof = (cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_SVMSCL) & CAP_XMEM_SVMSCL_FOF_MASK) != 0;
    c.fetch = (rt_fetch){.mem = m,
                         .oob_zero = (svmmode & CAP_XMEM_SVMMODE_BOUND_CHECK_MASK) &&
                                     (svmmode & CAP_XMEM_SVMMODE_ALLOW_OOB_ZERO_MASK)};

    queue rq, hq, mq;
    if (!queue_read(&c, jd->rayq, &rq) || !queue_read(&c, jd->hitq, &hq) ||
        !queue_read(&c, jd->missq, &mq))
        return;
    if (!aligned(&c, hq.base, 4) || !aligned(&c, mq.base, 4)) return;
    queue_direct(m, &rq, 0);
    queue_direct(m, &hq, RT_HIT_BYTES);
    queue_direct(m, &mq, RT_MISS_BYTES);
    uint64_t wr[5][2];
    job_writes(&rq, &hq, &mq, wr);
    unsigned rsz = rt_ray_bytes(cfg.e);
    uint64_t rays_end = rq.base + (uint64_t)rq.cap * rsz;
    bool rays_apart = writes_apart(wr, rq.base, rays_end);
    rays_in_place(&c, &cfg, &rq, &hq, &mq, rays_apart);
    cache_job_start(nc, &kept, m, &cfg, wr);

    int mode = rt_rne_enter();
    uint32_t n = (uint32_t)(((uint64_t)rq.tail + rq.cap - rq.head) % rq.cap);
    r->svfaulti = ~UINT64_C(0);
    uint32_t j = 0;
    bool ended = false;
    if (eng->workers > 0 && m->map && !m->charge && n >= 4 * SPLIT_BLOCK && rays_apart)
        j = split_job_run(eng, &c, &cfg, s, jd->lanes_off, &rq, &hq, &mq, n,
                          (const uint64_t(*)[2])wr, rays_end, &ended);
    /* Ray j of the job is its lane j (RT 8.2): a masked-off lane is not traced, and a
     * fault of lane j > 0 under fault-only-first stops the job there (errata P-320). */
    uint32_t i = (uint32_t)(((uint64_t)rq.head + j) % rq.cap);
    rt_ray_pre p;
    for (; !ended && j < n; j++, i = i + 1 == rq.cap ? 0 : i + 1) {
        ray_out o;
        o.kind = OUT_MASKED; /* the only field emit reads of a masked lane */
        if (!((jd->lanes_off >> (j % 64)) & 1)) {
            trav_hit h;
            if (!trace_slot(&c, &cfg, rq.base + (uint64_t)i * rsz, &p, &h)) {
                ended = true;
                break;
            }
            ray_result(&cfg, s, &h, &o);
        }
        if (!emit(&c, &rq, &hq, &mq, i, &o)) {
            ended = true;
            break;
        }
    }
    if (ended) {
        r->svfaulti = j;
        if (fof && j > 0 && (r->status == RT_JOB_MEM_FAULT || r->status == RT_JOB_MISALIGNED))
            r->status = RT_JOB_FOF_STOP;
    }
    cache_job_end(eng, m, &cfg);
    rt_rne_leave(mode);
}
