/* rt_job.c — the offload job of `xsubmit.rt` (semantics in rt_job.h, docs/rt.md). */
#include "rt_job.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

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
    jd->pack_hint = (jd->opts & RT_OPT_PACK_HINT) != 0;
    memcpy(jd->memctl, desc + RT_DESC_MEMCTL, sizeof jd->memctl);
}

/* ---- the node cache (a per-job snapshot, see rt_job.h) ---- */

typedef struct {
    uint64_t addr;
    uint32_t gen;
    rt_node4w w;
} cache_ent;

typedef struct {
    cache_ent *ent; /* 2^bits entries, direct-mapped by tile address */
    uint64_t mask;
    uint32_t gen;
    uint64_t lo, hi; /* address range of the tiles cached in this generation */
} node_cache;

#define RT_JOB_MAX_THREADS 64u

struct rt_job_engine {
    unsigned threads;
    node_cache cache[RT_JOB_MAX_THREADS];
};

static void cache_new_gen(node_cache *nc)
{
    if (++nc->gen == 0) {
        for (uint64_t i = 0; i <= nc->mask; i++)
            nc->ent[i].gen = 0;
        nc->gen = 1;
    }
    nc->lo = UINT64_MAX;
    nc->hi = 0;
}

static bool cache_init(node_cache *nc, unsigned bits)
{
    nc->mask = (UINT64_C(1) << bits) - 1;
    nc->ent = calloc(nc->mask + 1, sizeof *nc->ent);
    nc->gen = 0;
    if (nc->ent) cache_new_gen(nc);
    return nc->ent != NULL;
}

rt_job_engine *rt_job_engine_new(unsigned threads)
{
    if (threads == 0) threads = 1;
    if (threads > RT_JOB_MAX_THREADS) threads = RT_JOB_MAX_THREADS;
    rt_job_engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->threads = threads;
    for (unsigned t = 0; t < threads; t++)
        if (!cache_init(&e->cache[t], 14)) {
            rt_job_engine_free(e);
            return NULL;
        }
    return e;
}

void rt_job_engine_free(rt_job_engine *e)
{
    if (!e) return;
    for (unsigned t = 0; t < RT_JOB_MAX_THREADS; t++)
        free(e->cache[t].ent);
    free(e);
}

unsigned rt_job_engine_threads(const rt_job_engine *e)
{
    return e->threads;
}

/* ---- memory ---- */

typedef struct {
    const rt_job_mem *m;
    rt_job_result *r;
    node_cache *nc;
    rt_fetch fetch; /* rays and BVH records (SVMEM rules, rt_fetch.h); map_only in a tracer
                       thread of a split job */
} job_ctx;

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

/* n bytes at a (already alignment-checked) in 8/4/2/1-byte loads. */
/* REQ: RT-088 RT-097 */
static bool load_bytes(job_ctx *c, uint64_t a, unsigned n, uint8_t *buf)
{
    unsigned i = 0;
    while (i < n) {
        unsigned sz = n - i >= 8 ? 8 : n - i >= 4 ? 4 : n - i >= 2 ? 2 : 1;
        uint64_t v;
        if (!c->m->load(c->m->ctx, a + i, sz, &v)) return fault(c, RT_JOB_MEM_FAULT, a + i);
        rt_le_put(buf + i, sz, v);
        i += sz;
    }
    return true;
}

/* Queue descriptors: ordinary reads (the records go through rt_fetch), n bytes at a
 * (already alignment-checked). */
static bool read_plain(job_ctx *c, uint64_t a, unsigned n, uint8_t *buf)
{
    const uint8_t *p = c->m->map ? c->m->map(c->m->ctx, a, n) : NULL;
    if (p) {
        memcpy(buf, p, n);
        return true;
    }
    return load_bytes(c, a, n, buf);
}

/* The one write path (queue entries, TAIL, HEAD). A store over a cached node tile starts
 * a new cache generation. */
/* REQ: RT-088 RT-097 */
static bool store_bytes(job_ctx *c, uint64_t a, unsigned n, const uint8_t *buf)
{
    if (c->nc && a < c->nc->hi && a + n > c->nc->lo) cache_new_gen(c->nc);
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

/* The decoded node (nn tiles) at a, from the cache or fetched (rt_fetch.h: alignment,
 * faults and OOB-zero) and decoded. A job's nodes all have the same tile count, so a
 * cached address passed the same alignment check when it was fetched. */
/* REQ: RT-033 RT-038 */
static bool node_get(job_ctx *c, uint64_t a, unsigned nn, rt_node4w w[2])
{
    node_cache *nc = c->nc;
    cache_ent *e[2];
    bool hit = true;
    for (unsigned i = 0; i < nn; i++) {
        uint64_t ta = a + 64u * i;
        e[i] = &nc->ent[(ta >> 6) & nc->mask];
        hit = hit && e[i]->gen == nc->gen && e[i]->addr == ta;
    }
    if (hit) {
        for (unsigned i = 0; i < nn; i++)
            w[i] = e[i]->w;
        return true;
    }
    if (!fetched(c, rt_fetch_node_w(&c->fetch, a, nn, w))) return false;
    for (unsigned i = 0; i < nn; i++) {
        uint64_t ta = a + 64u * i;
        e[i] = &nc->ent[(ta >> 6) & nc->mask]; /* the second tile may share the first's slot */
        e[i]->w = w[i];
        e[i]->addr = ta;
        e[i]->gen = nc->gen;
        if (ta < nc->lo) nc->lo = ta;
        if (ta + 64 > nc->hi) nc->hi = ta + 64;
    }
    return true;
}

/* ---- queues (FMT_QUEUE, errata Q-70) ---- */

typedef struct {
    uint64_t desc; /* address of the queue descriptor */
    uint32_t head, tail, cap;
    uint64_t base;
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
    return true;
}

/* Appends one entry of n bytes and stores the advanced TAIL. */
/* REQ: RT-043 RT-044 */
static bool queue_push(job_ctx *c, queue *q, const uint8_t *entry, unsigned n)
{
    uint32_t next = (uint32_t)(((uint64_t)q->tail + 1) % q->cap);
    if (next == q->head) {
        c->r->status = RT_JOB_QUEUE_FULL;
        c->r->fault_addr = q->desc;
        return false;
    }
    uint8_t t[4];
    rt_le_put(t, 4, next);
    if (!store_bytes(c, q->base + (uint64_t)q->tail * n, n, entry) ||
        !store_bytes(c, q->desc + 4, 4, t))
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
} trav_cfg;

typedef struct {
    bool hit;
    float t, u, v;
    uint32_t prim;
} trav_hit;

/* Tests the triangles of the TriRange at tr_addr against the ray; updates *best. */
/* REQ: RT-036 RT-065 */
static bool leaf(job_ctx *c, const trav_cfg *k, const rt_ray_pre *p, uint64_t tr_addr,
                 trav_hit *best)
{
    rt_trirange tr;
    if (!fetched(c, rt_fetch_trirange(&c->fetch, tr_addr, &tr))) return false;
    if (!spend(c, tr.count)) return false;
    uint64_t base = k->tri_buf ? k->tri_buf : tr.base;
    for (uint32_t i = 0; i < tr.count; i++) {
        uint32_t prim = tr.first + i;
        float v[3][3], t, u, vv;
        if (!fetched(c, rt_fetch_tri(&c->fetch, base, prim, k->e, v))) return false;
        if (!rt_tri_test_pre(p, v, k->cull, k->eps, &t, &u, &vv)) continue;
        if (best->hit && !(t < best->t || (t == best->t && prim < best->prim))) continue;
        best->hit = true;
        best->t = t;
        best->u = u;
        best->v = vv;
        best->prim = prim;
        if (k->any) return true;
    }
    return true;
}

typedef struct {
    uint64_t addr;
    float tn, tf; /* the child's raw slab interval, tested again when popped */
    bool is_leaf;
} stack_ent;

/* Closest (or any) hit of the ray in the BVH; false on a fault (c->r->status set).
 * Boxes accept [tmin, tmax] widened by the tolerance 2^-e (errata Q-74) so that they
 * never cull a hit the triangle test accepts, closed at the closest hit so far. */
/* REQ: RT-035 RT-056 */
static bool traverse(job_ctx *c, const trav_cfg *k, const rt_ray_pre *p, trav_hit *best)
{
    stack_ent st[RT_JOB_STACK_DEPTH];
    unsigned sp = 0, visits = 0, nn = k->node8 ? 2 : 1;
    float eps = k->eps ? ldexpf(1.0f, -(int)k->eps) : 0.0f;
    float tmin = p->r.tmin - eps, tmax_w = p->r.tmax + eps;
    st[sp++] = (stack_ent){k->bvh, 0, 0, false};
    best->hit = false;
    bool root = true;
    while (sp > 0) {
        stack_ent e = st[--sp];
        if (++visits > RT_JOB_MAX_VISITS) return fault(c, RT_JOB_STACK, e.addr);
        if (!spend(c, 1)) return false;
        float tmax = best->hit && best->t < tmax_w ? best->t : tmax_w;
        /* A child pushed before a closer hit was found is skipped when its box no longer
         * overlaps [tmin, closest hit] (the root has no box): the slab test's last step
         * with the same raw interval. */
        if (!root) {
            float lo = e.tn > tmin ? e.tn : tmin, hi = e.tf < tmax ? e.tf : tmax;
            if (!(lo <= hi)) continue;
        }
        root = false;
        if (e.is_leaf) {
            if (!leaf(c, k, p, e.addr, best)) return false;
            if (k->any && best->hit) return true;
            continue;
        }
        rt_node4w nodes[2];
        if (!node_get(c, e.addr, nn, nodes)) return false;
        rt_bbox_res res;
        rt_bbox_children_pre(p, &nodes[0], nn == 2 ? &nodes[1] : NULL, tmin, tmax, &res);
        /* Push far to near so the nearest child is visited first. */
        for (unsigned j = res.nhit; j-- > 0;) {
            unsigned ch = res.order[j] & 7u, tile = ch / 4, slot = ch % 4;
            uint8_t kind = nodes[tile].kind[slot];
            if (sp == RT_JOB_STACK_DEPTH) return fault(c, RT_JOB_STACK, e.addr);
            st[sp++] = (stack_ent){k->bvh + 16u * (uint64_t)nodes[tile].index[slot], res.tn[j],
                                   res.tf[j], kind == RT_CHILD_LEAF};
        }
    }
    return true;
}

/* Fetches the ray at ray_addr (a ray queue slot) and traces it. */
/* REQ: RT-040 RT-117 */
static bool trace_slot(job_ctx *c, const trav_cfg *k, uint64_t ray_addr, trav_hit *h)
{
    /* A split job's tracer records the range of BVH reads only: the ray slots are checked
     * against the job's writes as one region (split_trace). */
    uint64_t lo = c->fetch.rd_lo, hi = c->fetch.rd_hi;
    rt_ray ray;
    bool ok = fetched(c, rt_fetch_ray(&c->fetch, ray_addr, k->e, &ray));
    c->fetch.rd_lo = lo;
    c->fetch.rd_hi = hi;
    if (!ok) return false;
    rt_ray_pre p;
    rt_ray_prepare(&ray, &p);
    return traverse(c, k, &p, h);
}

/* ---- the job ---- */

/* REQ: RT-100 RT-104 */
static unsigned effective_dom(const rt_job_desc *jd, const cap_snap *s)
{
    unsigned dom = jd->memctl[0];
    if (dom == 0)
        dom = (unsigned)(cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_DOM) & CAP_XMEM_DOM_DOM_MASK);
    return dom == RT_DOM_DEFAULT ? RT_DOM_CPU : dom;
}

/* Appends ray i's hit or miss entry (nothing at all when h is NULL: a masked-off lane,
 * RT 8.2/8.3) and advances the ray queue's HEAD; false when the job ends. */
/* REQ: RT-120 RT-082 RT-083 RT-085 RT-088 RT-044 */
static bool emit(job_ctx *c, const trav_cfg *k, const cap_snap *s, queue *rq, queue *hq, queue *mq,
                 uint32_t i, const trav_hit *h)
{
    rt_job_result *r = c->r;
    if (!h) {
        /* masked-off lane: HEAD only */
    } else if (h->hit) {
        num_flags f = 0;
        uint8_t ent[RT_HIT_BYTES] = {0};
        rt_le_put(ent, 4, i);
        rt_le_put(ent + 4, 4, h->prim);
        rt_le_put(ent + 8, 4, rt_result_encode(h->t, k->e, &s->pol, &f));
        rt_le_put(ent + 12, 4, rt_result_encode(h->u, k->e, &s->pol, &f));
        rt_le_put(ent + 16, 4, rt_result_encode(h->v, k->e, &s->pol, &f));
        r->flags |= f;
        if (cap_trap_flags(s, f)) {
            r->status = RT_JOB_FP_EXC;
            return false;
        }
        if (!queue_push(c, hq, ent, RT_HIT_BYTES)) return false;
        r->hits++;
    } else {
        uint8_t ent[RT_MISS_BYTES];
        rt_le_put(ent, 4, i);
        if (!queue_push(c, mq, ent, RT_MISS_BYTES)) return false;
        r->misses++;
    }
    uint8_t hb[4];
    rt_le_put(hb, 4, ((uint64_t)i + 1) % rq->cap);
    if (!store_bytes(c, rq->desc, 4, hb)) return false;
    r->rays++;
    return true;
}

/* ---- split jobs (rt_job.h: parallel tracing, ordered append) ---- */

typedef struct {
    trav_hit h;
    rt_job_status status;
    uint64_t fault_addr, events;
} ray_out;

typedef struct {
    const trav_cfg *k;
    const rt_job_mem *m;
    rt_job_engine *eng;
    const queue *rq;
    uint32_t n;
    uint64_t lanes_off;
    bool oob_zero;
    ray_out *out;
    atomic_bool abort;
} split_job;

typedef struct {
    split_job *sj;
    unsigned t;
    uint64_t rd_lo, rd_hi;
} split_worker;

#define SPLIT_BLOCK 32u

static void *split_run(void *arg)
{
    split_worker *w = arg;
    split_job *sj = w->sj;
    int mode = rt_rne_enter();
    node_cache *nc = &sj->eng->cache[w->t];
    cache_new_gen(nc);
    rt_job_result scratch;
    job_ctx c = {
        sj->m, &scratch, nc,
        (rt_fetch){.mem = sj->m, .oob_zero = sj->oob_zero, .map_only = true, .rd_lo = UINT64_MAX}};
    unsigned rsz = rt_ray_bytes(sj->k->e);
    /* Blocks are dealt round-robin (block b to thread b mod threads), so which thread
     * traces a ray does not depend on timing. */
    for (uint64_t b = w->t;; b += sj->eng->threads) {
        uint64_t j0 = b * SPLIT_BLOCK;
        if (j0 >= sj->n || atomic_load(&sj->abort)) break;
        uint64_t j1 = j0 + SPLIT_BLOCK < sj->n ? j0 + SPLIT_BLOCK : sj->n;
        for (uint64_t j = j0; j < j1; j++) {
            uint32_t i = (uint32_t)(((uint64_t)sj->rq->head + j) % sj->rq->cap);
            memset(&scratch, 0, sizeof scratch);
            ray_out *o = &sj->out[j];
            if ((sj->lanes_off >> (j % 64)) & 1) { /* masked-off lane: not traced */
                o->status = RT_JOB_OK;
                o->events = 0;
                continue;
            }
            c.fetch.inv_miss = false;
            if (!trace_slot(&c, sj->k, sj->rq->base + (uint64_t)i * rsz, &o->h)) {
                if (c.fetch.unmapped) {
                    atomic_store(&sj->abort, true);
                    break;
                }
                if (scratch.status == RT_JOB_OK) scratch.status = RT_JOB_MEM_FAULT;
            }
            o->status = scratch.status;
            o->fault_addr = scratch.fault_addr;
            o->events = scratch.events;
        }
    }
    w->rd_lo = c.fetch.rd_lo;
    w->rd_hi = c.fetch.rd_hi;
    rt_rne_leave(mode);
    return NULL;
}

static bool overlaps(uint64_t a0, uint64_t a1, uint64_t b0, uint64_t b1)
{
    return a0 < b1 && b0 < a1;
}

/* Traces the n rays of the queue on the engine's threads. False when the results cannot
 * be used (a read without map, or a read of memory the job writes): the caller then runs
 * the job on one thread. */
static bool split_trace(rt_job_engine *eng, const rt_job_mem *m, const trav_cfg *k, const queue *rq,
                        const queue *hq, const queue *mq, uint32_t n, uint64_t lanes_off,
                        bool oob_zero, ray_out *out)
{
    split_job sj = {k, m, eng, rq, n, lanes_off, oob_zero, out, false};
    split_worker w[RT_JOB_MAX_THREADS];
    pthread_t tid[RT_JOB_MAX_THREADS];
    unsigned nt = eng->threads, started = 1;
    for (unsigned t = 0; t < nt; t++)
        w[t] = (split_worker){&sj, t, UINT64_MAX, 0};
    for (unsigned t = 1; t < nt; t++) {
        if (pthread_create(&tid[t], NULL, split_run, &w[t]) != 0) break;
        started++;
    }
    split_run(&w[0]);
    for (unsigned t = 1; t < started; t++)
        pthread_join(tid[t], NULL);
    if (atomic_load(&sj.abort)) return false;
    /* Everything the job writes: queue descriptors (HEAD/TAIL) and the hit and miss
     * entries. No traced ray may have read any of it. */
    uint64_t wr[5][2] = {{rq->desc, rq->desc + 8},
                         {hq->desc, hq->desc + 8},
                         {mq->desc, mq->desc + 8},
                         {hq->base, hq->base + (uint64_t)hq->cap * RT_HIT_BYTES},
                         {mq->base, mq->base + (uint64_t)mq->cap * RT_MISS_BYTES}};
    uint64_t rays_end = rq->base + (uint64_t)rq->cap * rt_ray_bytes(k->e);
    for (unsigned i = 0; i < 5; i++) {
        if (overlaps(rq->base, rays_end, wr[i][0], wr[i][1])) return false;
        for (unsigned t = 0; t < nt; t++)
            if (w[t].rd_lo < w[t].rd_hi && overlaps(w[t].rd_lo, w[t].rd_hi, wr[i][0], wr[i][1]))
                return false;
    }
    return true;
}

void rt_job_run(const rt_job_desc *jd, const cap_snap *s, const rt_job_mem *m, rt_job_result *r)
{
    rt_job_engine e = {1, {{0}}};
    if (!cache_init(&e.cache[0], 10)) {
        memset(r, 0, sizeof *r);
        r->status = RT_JOB_MEM_FAULT; /* host out of memory: reported as a job fault */
        return;
    }
    rt_job_run_ex(jd, s, m, &e, r);
    free(e.cache[0].ent);
}

/* REQ: RT-089 RT-096 RT-098 RT-100 RT-104 RT-117 */
void rt_job_run_ex(const rt_job_desc *jd, const cap_snap *s, const rt_job_mem *m,
                   rt_job_engine *eng, rt_job_result *r)
{
    memset(r, 0, sizeof *r);
    node_cache *nc = &eng->cache[0];
    cache_new_gen(nc);
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

    int mode = rt_rne_enter();
    uint32_t n = (uint32_t)(((uint64_t)rq.tail + rq.cap - rq.head) % rq.cap);
    unsigned rsz = rt_ray_bytes(cfg.e);
    ray_out *out = NULL;
    if (eng->threads > 1 && m->map && !m->charge && n >= 4 * SPLIT_BLOCK)
        out = malloc((size_t)n * sizeof *out);
    bool split =
        out && split_trace(eng, m, &cfg, &rq, &hq, &mq, n, jd->lanes_off, c.fetch.oob_zero, out);
    r->svfaulti = ~UINT64_C(0);
    /* Ray j of the job is its lane j (RT 8.2): a masked-off lane is not traced, and a
     * fault of lane j > 0 under fault-only-first stops the job there (errata P-320). */
    for (uint32_t j = 0; j < n; j++) {
        uint32_t i = (uint32_t)(((uint64_t)rq.head + j) % rq.cap);
        bool lane = !((jd->lanes_off >> (j % 64)) & 1);
        trav_hit h;
        const trav_hit *hp = NULL;
        bool ok = true;
        if (lane && split) {
            r->events |= out[j].events;
            if (out[j].status != RT_JOB_OK) {
                r->status = out[j].status;
                r->fault_addr = out[j].fault_addr;
                ok = false;
            }
            hp = &out[j].h;
        } else if (lane) {
            ok = trace_slot(&c, &cfg, rq.base + (uint64_t)i * rsz, &h);
            hp = &h;
        }
        if (!ok || !emit(&c, &cfg, s, &rq, &hq, &mq, i, hp)) {
            r->svfaulti = j;
            if (fof && j > 0 && (r->status == RT_JOB_MEM_FAULT || r->status == RT_JOB_MISALIGNED))
                r->status = RT_JOB_FOF_STOP;
            break;
        }
    }
    free(out);
    rt_rne_leave(mode);
}
