/* rt_job.c — the offload job of `xsubmit.rt` (semantics in rt_job.h, docs/rt.md). */
#include "rt_job.h"

#include <math.h>
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

/* ---- memory ---- */

typedef struct {
    const rt_job_mem *m;
    rt_job_result *r;
    rt_fetch fetch; /* rays and BVH records (SVMEM rules, rt_fetch.h) */
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

static bool store_bytes(job_ctx *c, uint64_t a, unsigned n, const uint8_t *buf)
{
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
static bool fetched(job_ctx *c, rt_fetch_status st)
{
    if (c->fetch.inv_miss) c->r->events |= CAP_XMEM_EVENTS_INV_MISS_MASK;
    if (st == RT_FETCH_OK) return true;
    return fault(c, st == RT_FETCH_MISALIGNED ? RT_JOB_MISALIGNED : RT_JOB_MEM_FAULT,
                 c->fetch.fault_addr);
}

static bool aligned(job_ctx *c, uint64_t a, uint64_t align)
{
    if (a & (align - 1)) return fault(c, RT_JOB_MISALIGNED, a);
    return true;
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
    if (!aligned(c, desc, 8) || !load_bytes(c, desc, RT_QUEUE_BYTES, b)) return false;
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

/* Tests the triangles of the TriRange at tr_addr against r; updates *best. */
static bool leaf(job_ctx *c, const trav_cfg *k, const rt_ray *r, uint64_t tr_addr, trav_hit *best)
{
    rt_trirange tr;
    if (!fetched(c, rt_fetch_trirange(&c->fetch, tr_addr, &tr))) return false;
    uint64_t base = k->tri_buf ? k->tri_buf : tr.base;
    for (uint32_t i = 0; i < tr.count; i++) {
        uint32_t prim = tr.first + i;
        float v[3][3], t, u, vv;
        if (!fetched(c, rt_fetch_tri(&c->fetch, base, prim, k->e, v))) return false;
        if (!rt_tri_test(r, v, k->cull, k->eps, &t, &u, &vv)) continue;
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
    rt_box box; /* the child's box, tested again when popped (closest hit so far) */
    bool is_leaf;
} stack_ent;

/* The range boxes and triangles accept: [tmin, tmax], widened by the tolerance 2^-e
 * (errata Q-74) so that boxes never cull a hit the triangle test accepts, and closed at
 * the closest hit so far. */
static rt_ray box_ray(const rt_ray *ray, float eps, const trav_hit *best)
{
    rt_ray rb = *ray;
    rb.tmin -= eps;
    rb.tmax += eps;
    if (best->hit && best->t < rb.tmax) rb.tmax = best->t;
    return rb;
}

/* Closest (or any) hit of ray in the BVH; false on a fault (c->r->status set). */
static bool traverse(job_ctx *c, const trav_cfg *k, const rt_ray *ray, trav_hit *best)
{
    stack_ent st[RT_JOB_STACK_DEPTH];
    unsigned sp = 0, visits = 0, nn = k->node8 ? 2 : 1;
    float eps = k->eps ? ldexpf(1.0f, -(int)k->eps) : 0.0f;
    st[sp++] = (stack_ent){k->bvh, {{0, 0, 0}, {0, 0, 0}}, false};
    best->hit = false;
    bool root = true;
    while (sp > 0) {
        stack_ent e = st[--sp];
        if (++visits > RT_JOB_MAX_VISITS) return fault(c, RT_JOB_STACK, e.addr);
        rt_ray rb = box_ray(ray, eps, best);
        float tn, tf;
        /* A child pushed before a closer hit was found is skipped when its box no longer
         * overlaps [tmin, closest hit] (the root has no box). */
        if (!root && !rt_box_test(&rb, &e.box, &tn, &tf)) continue;
        root = false;
        if (e.is_leaf) {
            if (!leaf(c, k, ray, e.addr, best)) return false;
            if (k->any && best->hit) return true;
            continue;
        }
        rt_node4 nodes[2];
        if (!fetched(c, rt_fetch_node(&c->fetch, e.addr, nn, nodes))) return false;
        rt_bbox_res res;
        rt_bbox_children(&rb, nodes, nn, &res);
        /* Push far to near so the nearest child is visited first. */
        for (unsigned j = res.nhit; j-- > 0;) {
            unsigned ch = res.order[j] & 7u, tile = ch / 4, slot = ch % 4;
            if (tile >= nn) continue;
            uint8_t kind = nodes[tile].kind[slot];
            if (kind != RT_CHILD_NODE && kind != RT_CHILD_LEAF) continue;
            if (sp == RT_JOB_STACK_DEPTH) return fault(c, RT_JOB_STACK, e.addr);
            st[sp++] = (stack_ent){k->bvh + 16u * (uint64_t)nodes[tile].index[slot],
                                   nodes[tile].box[slot], kind == RT_CHILD_LEAF};
        }
    }
    return true;
}

/* ---- the job ---- */

/* Ray slot i of the ray queue: traversal and its hit or miss entry (nothing at all for a
 * masked-off lane, RT 8.2/8.3), then the ray HEAD = i + 1. False when the job ends here
 * (c->r->status set). */
/* REQ: RT-120 RT-082 RT-083 RT-085 RT-088 RT-044 */
static bool run_ray(job_ctx *c, const trav_cfg *cfg, const cap_snap *s, bool lane, uint32_t i,
                    queue *rq, queue *hq, queue *mq)
{
    rt_job_result *r = c->r;
    if (lane) {
        rt_ray ray;
        uint64_t ra = rq->base + (uint64_t)i * rt_ray_bytes(cfg->e);
        if (!fetched(c, rt_fetch_ray(&c->fetch, ra, cfg->e, &ray))) return false;
        trav_hit h;
        if (!traverse(c, cfg, &ray, &h)) return false;
        if (h.hit) {
            num_flags f = 0;
            uint8_t ent[RT_HIT_BYTES] = {0};
            rt_le_put(ent, 4, i);
            rt_le_put(ent + 4, 4, h.prim);
            rt_le_put(ent + 8, 4, rt_result_encode(h.t, cfg->e, &s->pol, &f));
            rt_le_put(ent + 12, 4, rt_result_encode(h.u, cfg->e, &s->pol, &f));
            rt_le_put(ent + 16, 4, rt_result_encode(h.v, cfg->e, &s->pol, &f));
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
    }
    uint8_t hb[4];
    rt_le_put(hb, 4, ((uint64_t)i + 1) % rq->cap);
    if (!store_bytes(c, rq->desc, 4, hb)) return false;
    r->rays++;
    return true;
}

static unsigned effective_dom(const rt_job_desc *jd, const cap_snap *s)
{
    unsigned dom = jd->memctl[0];
    if (dom == 0)
        dom = (unsigned)(cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_DOM) & CAP_XMEM_DOM_DOM_MASK);
    return dom == RT_DOM_DEFAULT ? RT_DOM_CPU : dom;
}

/* REQ: RT-089 RT-096 RT-098 RT-100 RT-104 RT-117 */
void rt_job_run(const rt_job_desc *jd, const cap_snap *s, const rt_job_mem *m, rt_job_result *r)
{
    memset(r, 0, sizeof *r);
    job_ctx c = {.m = m, .r = r};
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

    uint64_t k = 0; /* the ray's lane: its position in the job */
    for (uint32_t i = rq.head; i != rq.tail; i = (uint32_t)(((uint64_t)i + 1) % rq.cap), k++) {
        r->svfaulti = k;
        bool lane = !((jd->lanes_off >> (k % 64)) & 1);
        if (!run_ray(&c, &cfg, s, lane, i, &rq, &hq, &mq)) {
            if (fof && k > 0 && (r->status == RT_JOB_MEM_FAULT || r->status == RT_JOB_MISALIGNED))
                r->status = RT_JOB_FOF_STOP;
            return;
        }
    }
    r->svfaulti = ~UINT64_C(0);
}
