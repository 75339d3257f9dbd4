/* rt_job.c — the offload job of `xsubmit.rt` (semantics in rt_job.h, docs/rt.md). */
#include "rt_job.h"

#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "xphmg_csr.h"

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
    bool worker;       /* a parallel tracer: reads through map only, records its range */
    bool worker_abort; /* it needed a read map() could not serve */
    uint64_t rd_lo, rd_hi;
} job_ctx;

static bool fault(job_ctx *c, rt_job_status st, uint64_t addr)
{
    c->r->status = st;
    c->r->fault_addr = addr;
    if (st == RT_JOB_MEM_FAULT || st == RT_JOB_MISALIGNED)
        c->r->events |= CAP_XMEM_EVENTS_INV_MISS_MASK;
    return false;
}

/* n bytes at a (already alignment-checked) in 8/4/2/1-byte loads. */
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

/* The one read path of the job (queue descriptors, rays, nodes, TriRanges, triangles):
 * n bytes at a (already alignment-checked). */
static bool fetch(job_ctx *c, uint64_t a, unsigned n, uint8_t *buf)
{
    const uint8_t *p = c->m->map ? c->m->map(c->m->ctx, a, n) : NULL;
    if (p) {
        memcpy(buf, p, n);
        if (c->worker) {
            if (a < c->rd_lo) c->rd_lo = a;
            if (a + n > c->rd_hi) c->rd_hi = a + n;
        }
        return true;
    }
    if (c->worker) {
        c->worker_abort = true;
        return false;
    }
    return load_bytes(c, a, n, buf);
}

/* The one write path (queue entries, TAIL, HEAD). A store over a cached node tile starts
 * a new cache generation. */
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

static bool aligned(job_ctx *c, uint64_t a, uint64_t align)
{
    if (a & (align - 1)) return fault(c, RT_JOB_MISALIGNED, a);
    return true;
}

/* The decoded node tile at a (64-byte aligned), from the cache or read and decoded; NULL
 * on a fault. The pointer is valid until the next node_get of another tile mapping to
 * the same slot (tiles a and a + 64 never share one). */
static const rt_node4w *node_get(job_ctx *c, uint64_t a)
{
    node_cache *nc = c->nc;
    cache_ent *e = &nc->ent[(a >> 6) & nc->mask];
    if (e->gen == nc->gen && e->addr == a) return &e->w;
    uint8_t b[64];
    if (!fetch(c, a, 64, b)) return NULL;
    rt_node4w_decode(b, &e->w);
    e->addr = a;
    e->gen = nc->gen;
    if (a < nc->lo) nc->lo = a;
    if (a + 64 > nc->hi) nc->hi = a + 64;
    return &e->w;
}

/* ---- queues (FMT_QUEUE, errata Q-70) ---- */

typedef struct {
    uint64_t desc; /* address of the queue descriptor */
    uint32_t head, tail, cap;
    uint64_t base;
} queue;

static bool queue_read(job_ctx *c, uint64_t desc, queue *q)
{
    uint8_t b[RT_QUEUE_BYTES];
    if (!aligned(c, desc, 8) || !fetch(c, desc, RT_QUEUE_BYTES, b)) return false;
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
static bool leaf(job_ctx *c, const trav_cfg *k, const rt_ray_pre *p, uint64_t tr_addr,
                 trav_hit *best)
{
    uint8_t b[16], tb[36];
    rt_trirange tr;
    if (!aligned(c, tr_addr, 16) || !fetch(c, tr_addr, 16, b)) return false;
    rt_trirange_decode(b, &tr);
    uint64_t base = k->tri_buf ? k->tri_buf : tr.base;
    unsigned tsz = rt_tri_bytes(k->e);
    /* The whole range in one map when it is plain memory (the usual case), else one
     * fetch per triangle, whose first fault ends the job at the right address. */
    uint64_t first = base + (uint64_t)tr.first * tsz;
    const uint8_t *all = NULL;
    if (c->m->map && tr.count <= 64 && !(first & (rt_elem_bytes(k->e) - 1))) {
        all = c->m->map(c->m->ctx, first, tr.count * tsz);
        if (all && c->worker) {
            if (first < c->rd_lo) c->rd_lo = first;
            if (first + tr.count * tsz > c->rd_hi) c->rd_hi = first + tr.count * tsz;
        }
    }
    for (uint32_t i = 0; i < tr.count; i++) {
        uint32_t prim = tr.first + i;
        uint64_t a = base + (uint64_t)prim * tsz;
        float v[3][3], t, u, vv;
        if (all)
            rt_tri_decode(all + (uint64_t)i * tsz, k->e, v);
        else if (!aligned(c, a, rt_elem_bytes(k->e)) || !fetch(c, a, tsz, tb))
            return false;
        else
            rt_tri_decode(tb, k->e, v);
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
        const rt_node4w *nodes[2];
        if (!aligned(c, e.addr, 64u * nn)) return false;
        for (unsigned i = 0; i < nn; i++)
            if (!(nodes[i] = node_get(c, e.addr + 64u * i))) return false;
        rt_bbox_res res;
        rt_bbox_children_pre(p, nodes[0], nn == 2 ? nodes[1] : NULL, tmin, tmax, &res);
        /* Push far to near so the nearest child is visited first. */
        for (unsigned j = res.nhit; j-- > 0;) {
            unsigned ch = res.order[j] & 7u, tile = ch / 4, slot = ch % 4;
            uint8_t kind = nodes[tile]->kind[slot];
            if (sp == RT_JOB_STACK_DEPTH) return fault(c, RT_JOB_STACK, e.addr);
            st[sp++] = (stack_ent){k->bvh + 16u * (uint64_t)nodes[tile]->index[slot], res.tn[j],
                                   res.tf[j], kind == RT_CHILD_LEAF};
        }
    }
    return true;
}

/* Loads ray slot i of the ray queue and traces it. */
static bool trace_slot(job_ctx *c, const trav_cfg *k, uint64_t ray_addr, trav_hit *h)
{
    uint8_t rb[32];
    unsigned rsz = rt_ray_bytes(k->e);
    /* A parallel tracer records the range of BVH reads only: the ray slots are checked
     * against the job's writes as one region (split_trace). */
    uint64_t lo = c->rd_lo, hi = c->rd_hi;
    if (!aligned(c, ray_addr, rt_elem_bytes(k->e)) || !fetch(c, ray_addr, rsz, rb)) return false;
    c->rd_lo = lo;
    c->rd_hi = hi;
    rt_ray ray;
    rt_ray_decode(rb, k->e, &ray);
    rt_ray_pre p;
    rt_ray_prepare(&ray, &p);
    return traverse(c, k, &p, h);
}

/* ---- the job ---- */

static unsigned effective_dom(const rt_job_desc *jd, const cap_snap *s)
{
    unsigned dom = jd->memctl[0];
    if (dom == 0)
        dom = (unsigned)(cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_DOM) & CAP_XMEM_DOM_DOM_MASK);
    return dom == RT_DOM_DEFAULT ? RT_DOM_CPU : dom;
}

/* Appends ray i's result and advances the ray queue's HEAD; false when the job ends. */
static bool emit(job_ctx *c, const trav_cfg *k, const cap_snap *s, queue *rq, queue *hq, queue *mq,
                 uint32_t i, const trav_hit *h)
{
    rt_job_result *r = c->r;
    if (h->hit) {
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
    job_ctx c = {sj->m, &scratch, nc, true, false, UINT64_MAX, 0};
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
            if (!trace_slot(&c, sj->k, sj->rq->base + (uint64_t)i * rsz, &o->h)) {
                if (c.worker_abort) {
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
    w->rd_lo = c.rd_lo;
    w->rd_hi = c.rd_hi;
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
                        const queue *hq, const queue *mq, uint32_t n, ray_out *out)
{
    split_job sj = {k, m, eng, rq, n, out, false};
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

void rt_job_run_ex(const rt_job_desc *jd, const cap_snap *s, const rt_job_mem *m,
                   rt_job_engine *eng, rt_job_result *r)
{
    memset(r, 0, sizeof *r);
    node_cache *nc = &eng->cache[0];
    cache_new_gen(nc);
    job_ctx c = {m, r, nc, false, false, 0, 0};
    uint64_t xcap = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_CAP);
    uint64_t descpol = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_DESCPOL);
    uint64_t clsmap = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_CLSMAP);

    /* Memory policy (errata ). */
    r->dom = effective_dom(jd, s);
    unsigned mclass = jd->memctl[16];
    bool class_part = (xcap & CAP_XMEM_CAP_CLASS_PART_MASK) != 0;
    r->mclass = !class_part ? 0u
                : mclass    ? (mclass & 3u)
                            : (unsigned)((descpol & CAP_XMEM_DESCPOL_DEF_CLASS_MASK) >>
                                      CAP_XMEM_DESCPOL_DEF_CLASS_SHIFT);
    if (jd->memctl[18] == 1) {
        bool way_part = (xcap & CAP_XMEM_CAP_WAY_PART_MASK) != 0;
        bool cl2_ways = ((clsmap & CAP_XMEM_CLSMAP_CL2_WAYMASK_MASK) != 0);
        if (!(descpol & CAP_XMEM_DESCPOL_HYB_ENABLE_MASK) || (way_part && !cl2_ways))
            r->events |= CAP_XMEM_EVENTS_HYB_FALLBK_MASK;
    }
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
    trav_cfg k;
    if (!rt_elem_from_pet(s->pet, s->pol.q, &k.e)) r->unsup_fmt = true;
    k.cull = (jd->opts & RT_OPT_CULL_BACK) != 0;
    k.any = (jd->opts & RT_OPT_ANY_HIT) != 0;
    k.node8 = (jd->opts & RT_OPT_NODE8) != 0;
    k.eps = jd->eps_code;
    k.bvh = jd->bvh_base;
    k.tri_buf = jd->tri_buf;

    queue rq, hq, mq;
    if (!queue_read(&c, jd->rayq, &rq) || !queue_read(&c, jd->hitq, &hq) ||
        !queue_read(&c, jd->missq, &mq))
        return;
    unsigned rsz = rt_ray_bytes(k.e);
    if (!aligned(&c, hq.base, 4) || !aligned(&c, mq.base, 4)) return;

    int mode = rt_rne_enter();
    uint32_t n = (uint32_t)(((uint64_t)rq.tail + rq.cap - rq.head) % rq.cap);
    ray_out *out = NULL;
    if (eng->threads > 1 && m->map && n >= 4 * SPLIT_BLOCK) out = malloc((size_t)n * sizeof *out);
    if (out && split_trace(eng, m, &k, &rq, &hq, &mq, n, out)) {
        for (uint32_t j = 0; j < n; j++) {
            uint32_t i = (uint32_t)(((uint64_t)rq.head + j) % rq.cap);
            if (out[j].status != RT_JOB_OK) {
                r->status = out[j].status;
                r->fault_addr = out[j].fault_addr;
                r->events |= out[j].events;
                break;
            }
            if (!emit(&c, &k, s, &rq, &hq, &mq, i, &out[j].h)) break;
        }
    } else {
        for (uint32_t i = rq.head; i != rq.tail; i = (uint32_t)(((uint64_t)i + 1) % rq.cap)) {
            trav_hit h;
            if (!trace_slot(&c, &k, rq.base + (uint64_t)i * rsz, &h) ||
                !emit(&c, &k, s, &rq, &hq, &mq, i, &h))
                break;
        }
    }
    free(out);
    rt_rne_leave(mode);
}
