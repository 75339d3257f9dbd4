/* rt_unit.c — the hart adapter of XPHMG_RT: the RT CSRs 0x810-0x81C and the
 * instructions rt.bbox / rt.tri (docs/rt.md; decisions in docs/errata.md "## RT").
 * The offload instructions are registered here and implemented in rt_offload.c. */
#include "rt_unit.h"

#include "rt_job.h"

#include <string.h>

#include "rt_fetch.h"
#include "rt_leaf.h"
#include "xcsr.h"
#include "xphmg_csr.h"

#define RT_TRI_CHARGE_CHUNK 4096u /* rt.tri charges its triangles this many at a time */
#define RT_CSR_LO           XPHMG_CSR_RTCFG
#define RT_CSR_HI           XPHMG_CSR_RTUV

/* FLAGS (imm[11:0]) of rt.bbox / rt.tri (XPHMG_RT 7.1/7.2, errata, P-70). */
#define F_BIT0      0x001u /* rt.bbox T_CLAMP, rt.tri CULL_BACK */
#define F_PRED_ONLY 0x002u
#define F_PACK_HINT 0x004u
#define F_BIT3      0x008u /* rt.bbox W_GUARD (errata P-323), rt.tri EPS_CTL */
#define F_NODE8     0x400u /* rt.bbox only */
#define F_RSV_BBOX  0x800u
#define F_RSV_TRI   0xC00u
#define PB_IN(f)    (((f) >> 4) & 7u)
#define PB_OUT(f)   (((f) >> 7) & 7u)

#define FIELD(v, R) (((v)&R##_MASK) >> R##_SHIFT)

/* ---- CSRs ---- */

/* REQ: RT-008 RT-010 RT-012 RT-017 RT-019 */
static uint64_t csr_writable(uint32_t a)
{
    const xcsr_reg *r = xcsr_find(a);
    uint64_t w = r && r->access != XCSR_RO ? r->writable & r->defined : 0;
    /* Node tiles are 64-byte and TriRange records 16-byte aligned: the low address bits
     * read 0 (XML descriptions of rtnode / rttri). */
    if (a == XPHMG_CSR_RTNODE) w &= ~UINT64_C(0x3F);
    if (a == XPHMG_CSR_RTTRI) w &= ~UINT64_C(0xF);
    return w;
}

/* REQ: RT-005 RT-012 RT-017 RT-018 */
static uint64_t *csr_slot(rt_unit *u, uint32_t a)
{
    switch (a) {
    case XPHMG_CSR_RTCFG:
        return &u->rtcfg;
    case XPHMG_CSR_RTBASE:
        return &u->rtbase;
    case XPHMG_CSR_RTQ_RAY:
        return &u->rtq_ray;
    case XPHMG_CSR_RTQ_HIT:
        return &u->rtq_hit;
    case XPHMG_CSR_RTQ_MISS:
        return &u->rtq_miss;
    case XPHMG_CSR_RTCONF2:
        return &u->rtconf2;
    case XPHMG_CSR_RTNODE:
        return &u->rtnode;
    case XPHMG_CSR_RTTRI:
        return &u->rttri;
    default:
        return NULL;
    }
}

/* REQ: RT-005 RT-009 RT-015 RT-016 RT-021 */
static bool csr_read(hart *h, void *ctx, uint32_t a, uint64_t *v)
{
    (void)h;
    rt_unit *u = ctx;
    uint64_t *p = csr_slot(u, a);
    if (p) {
        *v = *p;
        return true;
    }
    switch (a) {
    case XPHMG_CSR_RTSTAT:
        *v = (u->rtstat & ~RTSTAT_BUSY_MASK) | (u->njobs ? RTSTAT_BUSY_MASK : 0);
        return true;
    case XPHMG_CSR_RTCAP:
        *v = u->rtcap;
        return true;
    /* RT's memory class default and streaming profile are XMEM's, nothing of RT's own.
     * REQ: RT-005 RT-021 RT-103 */
    case XPHMG_CSR_RTCLSDEF: {
        /* A live mirror of CAP.XMEM.DESCPOL[5:0] (errata Q-64). */
        uint64_t d = 0;
        cap_csr_read(&u->cap->cap, XPHMG_CSR_CAP_XMEM_DESCPOL, &d);
        *v = d & 0x3F;
        return true;
    }
    case XPHMG_CSR_RTSPROF:
        *v = 0;
        return true;
    /* REQ: RT-005 RT-009 RT-015 RT-016 RT-021 */
    case XPHMG_CSR_RTUV:
        *v = u->rtuv;
        return true;
    default:
        return false;
    }
}

/* REQ: RT-005 RT-008 RT-010 RT-012 RT-013 RT-017 RT-019 RT-020 */
static bool csr_write(hart *h, void *ctx, uint32_t a, uint64_t v)
{
    (void)h;
    if (a < RT_CSR_LO || a > RT_CSR_HI) return false;
    rt_unit *u = ctx;
    uint64_t *p = csr_slot(u, a);
    if (p) {
        uint64_t w = csr_writable(a);
        /* A default for an absent feature is read-as-zero (errata P-324, RT 8.6 rule). */
        if (a == XPHMG_CSR_RTCFG && !(u->rtcap & RTCAP_PACK_HINT_MASK))
            w &= ~RTCFG_PACK_HINT_DFLT_MASK;
        *p = (*p & ~w) | (v & w);
    }
    return true; /* read-only RT CSRs ignore writes (errata) */
}

/* REQ: RT-007 RT-030 */
static void reset(hart *h, void *ctx)
{
    (void)h;
    rt_unit *u = ctx;
    u->rtcfg = RTCFG_RESET;
    u->rtstat = RTSTAT_RESET; /* LAST_EC/ERR and the counters clear only here */
    u->rtbase = RTBASE_RESET;
    u->rtq_ray = RTQ_RAY_RESET;
    u->rtq_hit = RTQ_HIT_RESET;
    u->rtq_miss = RTQ_MISS_RESET;
    u->rtconf2 = RTCONF2_RESET;
    u->rtnode = RTNODE_RESET;
    u->rttri = RTTRI_RESET;
    u->rtuv = RTUV_RESET;
    /* Offload state: reset discards queued jobs and tickets restart at 1, so the
     * tickets of the queue increase from 1 again.
     * REQ: RT-118 RT-122 */
    u->next_ticket = 1;
    u->njobs = 0;
}

void rt_unit_free(rt_unit *u)
{
    rt_job_engine_free(u->engine);
    u->engine = NULL;
}

/* REQ: RT-015 RT-028 */
void rt_record_error(rt_unit *u, unsigned ec)
{
    u->rtstat = (u->rtstat & ~(RTSTAT_LAST_EC_MASK | RTSTAT_ERR_MASK)) |
                ((uint64_t)ec << RTSTAT_LAST_EC_SHIFT & RTSTAT_LAST_EC_MASK) |
                (ec ? RTSTAT_ERR_MASK : 0);
}

/* RTSTAT.BBOX_ISSUED (rt.bbox) / TRI_ISSUED (rt.tri): 28-bit counters that wrap (errata
 * */
/* REQ: RT-009 RT-015 */
static void count_issued(rt_unit *u, bool tri)
{
    uint64_t mask = tri ? RTSTAT_TRI_ISSUED_MASK : RTSTAT_BBOX_ISSUED_MASK;
    unsigned shift = tri ? RTSTAT_TRI_ISSUED_SHIFT : RTSTAT_BBOX_ISSUED_SHIFT;
    uint64_t n = ((u->rtstat & mask) >> shift) + 1;
    u->rtstat = (u->rtstat & ~mask) | ((n << shift) & mask);
}

/* ---- Shared instruction steps ---- */

/* Illegal instruction with RTSTAT.LAST_EC = ec (errata Q-66). */
/* REQ: RT-026 RT-028 */
static void rt_illegal(hart *h, rt_unit *u, const hart_insn *d, unsigned ec)
{
    rt_record_error(u, ec);
    hart_illegal(h, d);
}

/* REQ: RT-080 */
bool rt_bank_ok(const rt_unit *u, unsigned b)
{
    return b == 0 || pmask_bank_valid(&u->pmask->pm, b);
}

/* The element format of ray records and triangles under s (errata Q-69): FP32, FP16 or
 * BF16 when the effective PET is one of them without quantization; otherwise FP32 with
 * *unsup (UNSUP_FMT). */
/* REQ: RT-006 RT-040 RT-069 RT-071 RT-075 RT-076 */
static rt_elem elem_of(const cap_snap *s, bool *unsup)
{
    rt_elem e;
    *unsup = !rt_elem_from_pet(s->pet, FIELD(s->stat, CAP_PREC_STAT_EFF_Q) != 0, &e);
    return e;
}

/* The fetches of one instruction: guest memory through the quiet accessors, OOB-zero
 * from the snapshot's SVMMODE (rt_fetch.h, errata P-320). */
typedef struct {
    rt_mem mem;
    rt_fetch f;
} insn_fetch;

/* REQ: RT-089 RT-101 */
static void fetch_begin(hart *h, const rt_unit *u, const cap_snap *s, insn_fetch *x)
{
    uint64_t mode = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_SVMMODE);
    x->mem = (rt_mem){.ctx = h, .load = hart_quiet_load, .store = hart_quiet_store};
    x->f = (rt_fetch){.mem = &x->mem,
                      .oob_zero = (mode & CAP_XMEM_SVMMODE_BOUND_CHECK_MASK) &&
                                  (mode & CAP_XMEM_SVMMODE_ALLOW_OOB_ZERO_MASK)};
    /* REQ: RT-022 XMEM-087 (the records go through the XMEM L1 model, P-224) */
    x->f.cache = u->policy.l1_read;
    x->f.cache_ctx = u->policy.ctx;
}

/* A failed fetch of the instruction's only lane traps (fault-only-first needs a lane
 * > 0): INV_MISS, then the load address misaligned or access fault at the fetch's
 * address (errata ). An OOB-zeroed fetch reports INV_MISS only. */
/* REQ: RT-089 RT-041 */
static bool fetched(hart *h, rt_unit *u, insn_fetch *x, rt_fetch_status st)
{
    if (x->f.inv_miss) cap_xmem_event(&u->cap->cap, CAP_XMEM_EVENTS_INV_MISS_MASK);
    if (st == RT_FETCH_OK) return true;
    hart_raise(h, st == RT_FETCH_MISALIGNED ? CAUSE_MISALIGNED_LOAD : CAUSE_LOAD_ACCESS,
               x->f.fault_addr);
    return false;
}

/* PACK_HINT of an instruction: its flag, or RTCFG.PACK_HINT_DFLT when the flag is clear
 * (RT 5.1; errata P-324: the default is read-as-zero without RTCAP.PACK_HINT). */
/* REQ: RT-013 RT-052 RT-061 */
static bool pack_hint(const rt_unit *u, unsigned flags)
{
    return (flags & F_PACK_HINT) || (u->rtcfg & RTCFG_PACK_HINT_DFLT_MASK);
}

/* Common prologue after the encoding checks: the snapshot and the input predicate. False
 * when the predicate is off: then only the ZMODE writeback of rd happens (errata Q-63). */
/* REQ: RT-048 RT-080 RT-081 RT-082 RT-083 RT-084 RT-085 RT-090 RT-091 */
static bool predicate(hart *h, rt_unit *u, unsigned flags, unsigned rd, const cap_snap *s)
{
    unsigned pin = PB_IN(flags);
    if (pin == 0 || pmask_lane(&u->pmask->pm, pin, 0)) return true;
    if (!(flags & F_PRED_ONLY)) hart_set_x(h, rd, pmask_zmode(false, s->zmode, hart_x(h, rd), 0));
    return false;
}

/* Final step of both instructions: stickies (UNSUP_FMT, flags) are set whether or not
 * the instruction traps; an enabled, unsuppressed exception traps with cause 24 and
 * nothing written (errata Q-28). */
/* REQ: RT-029 RT-092 RT-093 RT-094 RT-095 */
static bool finish_flags(hart *h, rt_unit *u, const cap_snap *s, bool unsup, num_flags f)
{
    if (unsup) cap_note_unsupported(&u->cap->cap);
    if (f) cap_accrue(&u->cap->cap, f);
    num_flags t = cap_trap_flags(s, f);
    if (t) {
        hart_raise(h, CAP_CAUSE_FP_EXC, t);
        return false;
    }
    return true;
}

/* The encoding checks of rt.bbox and rt.tri: reserved FLAGS bits (rsv) and banks that do
 * not exist are illegal (errata ). False after trapping. */
/* REQ: RT-026 RT-028 RT-080 */
static bool flags_legal(hart *h, rt_unit *u, const hart_insn *d, unsigned rsv, unsigned *flags)
{
    *flags = (unsigned)((uint64_t)d->imm & 0xFFF);
    if ((*flags & rsv) || !rt_bank_ok(u, PB_IN(*flags)) || !rt_bank_ok(u, PB_OUT(*flags))) {
        rt_illegal(h, u, d, RT_EC_ILLEGAL);
        return false;
    }
    return true;
}

/* What rt.bbox and rt.tri share after their feature checks: the CAP snapshot, the input
 * predicate, the element format and the ray record at rs1. */
typedef struct {
    cap_snap s;
    bool unsup; /* UNSUP_FMT: the effective format is not a ray format */
    rt_elem e;
    insn_fetch x;
    uint64_t ray_addr; /* rs1 */
    rt_ray ray;
} insn_start;

/* False when the instruction is over: predicated off (counted as issued, errata Q-63) or
 * the ray fetch trapped. */
/* REQ: RT-006 RT-040 RT-067 RT-068 RT-072 RT-082 RT-083 */
static bool begin(hart *h, rt_unit *u, const hart_insn *d, unsigned flags, bool tri, insn_start *c)
{
    c->ray_addr = hart_x(h, d->rs1);
    cap_snapshot(&u->cap->cap, &c->s);
    if (!predicate(h, u, flags, d->rd, &c->s)) {
        count_issued(u, tri);
        return false;
    }
    c->e = elem_of(&c->s, &c->unsup);
    fetch_begin(h, u, &c->s, &c->x);
    return fetched(h, u, &c->x, rt_fetch_ray(&c->x.f, c->ray_addr, c->e, &c->ray));
}

/* The architectural writes of rt.bbox and rt.tri once nothing can trap: rd (unless
 * PRED_ONLY), the hit predicate to bank PB_OUT (errata Q-73), the issue counter. */
/* REQ: RT-048 RT-051 RT-060 RT-086 RT-015 */
static void complete(hart *h, rt_unit *u, const hart_insn *d, unsigned flags, uint64_t res,
                     bool hit, bool tri)
{
    if (!(flags & F_PRED_ONLY)) hart_set_x(h, d->rd, res);
    if (PB_OUT(flags)) pmask_set_lane(&u->pmask->pm, PB_OUT(flags), 0, hit);
    count_issued(u, tri);
}

/* ---- rt.bbox rd, rs1[, flags] (errata ..Q-77) ---- */

/* REQ: RT-024 RT-027 RT-049 RT-050 RT-051 RT-053 RT-055 RT-056 RT-086 RT-087 RT-105 */
static void exec_bbox(hart *h, void *ctx, const hart_insn *d)
{
    rt_unit *u = ctx;
    unsigned flags;
    if (!flags_legal(h, u, d, F_RSV_BBOX, &flags)) return;
    bool node8 = flags & F_NODE8;
    if (!(u->rtcap & RTCAP_NODE4_MASK) || (node8 && !(u->rtcap & RTCAP_NODE8_MASK)) ||
        ((flags & F_PACK_HINT) && !(u->rtcap & RTCAP_PACK_HINT_MASK))) {
        rt_illegal(h, u, d, RT_EC_UNSUPPORTED);
        return;
    }
    uint64_t node_addr = u->rtnode;
    insn_start c;
    if (!begin(h, u, d, flags, false, &c)) return;
    rt_elem e = c.e;
    insn_fetch *x = &c.x;
    /* W_GUARD (errata P-323): the ray record's ninth element w (clip-space w, right after
     * tmax) equal to +-0 forces a miss without reading the node tile. */
    bool forced_miss = false;
    if (flags & F_BIT3) {
        float wv;
        if (!fetched(h, u, x, rt_fetch_elem(&x->f, c.ray_addr + 8u * rt_elem_bytes(e), e, &wv)))
            return;
        forced_miss = wv == 0.0f;
    }
    rt_bbox_res r = {0};
    if (!forced_miss) {
        /* A Node8 is 128-byte aligned (Q-67; rtnode itself is always 64-byte aligned). */
        uint8_t tiles[128];
        rt_node4 nodes[2];
        unsigned nn = node8 ? 2 : 1;
        if (!fetched(h, u, x, rt_fetch_node(&x->f, node_addr, nn, tiles))) return;
        for (unsigned i = 0; i < nn; i++)
            rt_node4_decode(tiles + 64 * i, &nodes[i]);
        rt_bbox_children(&c.ray, nodes, nn, &r);
    }

    uint64_t res = 0;
    num_flags f = 0;
    if (r.nhit && !(flags & F_PRED_ONLY)) {
        float tn = r.tnear, tf = r.tfar;
        if (flags & F_BIT0) { /* T_CLAMP: the reported values only */
            tn = tn < c.ray.tmin ? c.ray.tmin : tn > c.ray.tmax ? c.ray.tmax : tn;
            tf = tf < c.ray.tmin ? c.ray.tmin : tf > c.ray.tmax ? c.ray.tmax : tf;
        }
        uint64_t tw = rt_result_encode(tn, e, &c.s.pol, &f);
        if (pack_hint(u, flags) && e != RT_ELEM_FP32) /* */
            tw = (tw & 0xFFFF) | (uint64_t)(rt_result_encode(tf, e, &c.s.pol, &f) & 0xFFFF) << 16;
        res = r.hitmask;
        for (unsigned i = 0; i < r.nhit; i++)
            res |= (uint64_t)(r.order[i] & 7) << (8 + 3 * i);
        res |= tw << 32;
    }
    if (!finish_flags(h, u, &c.s, c.unsup, f)) return;
    complete(h, u, d, flags, res, r.nhit != 0, false);
}

/* ---- rt.tri rd, rs1[, flags] (errata ..Q-77) ---- */

/* REQ: RT-024 RT-027 RT-058 RT-059 RT-060 RT-061 RT-062 RT-064 RT-065 RT-106 RT-086 */
static void exec_tri(hart *h, void *ctx, const hart_insn *d)
{
    rt_unit *u = ctx;
    unsigned flags;
    if (!flags_legal(h, u, d, F_RSV_TRI, &flags)) return;
    bool eps_ctl = flags & F_BIT3;
    if (!(u->rtcap & RTCAP_WATERTIGHT_MASK) ||
        ((flags & F_PACK_HINT) && !(u->rtcap & RTCAP_PACK_HINT_MASK)) ||
        (eps_ctl && !(u->rtcap & RTCAP_EPS_CTL_MASK))) {
        rt_illegal(h, u, d, RT_EC_UNSUPPORTED);
        return;
    }
    uint64_t tr_addr = u->rttri;
    insn_start c;
    if (!begin(h, u, d, flags, true, &c)) return;
    rt_elem e = c.e;
    rt_trirange tr;
    if (!fetched(h, u, &c.x, rt_fetch_trirange(&c.x.f, tr_addr, &tr))) return;
    unsigned eps = eps_ctl ? (unsigned)FIELD(u->rtconf2, RTCONF2_EPS_SCALE)
                           : (unsigned)FIELD(u->rtcfg, RTCFG_EPS_DFLT);
    rt_tri_hit best = {.hit = false};
    rt_tri_src src = {NULL, &c.x.f, tr.base, e};
    int mode = rt_rne_enter();
    rt_ray_pre p;
    rt_ray_prepare(&c.ray, &p);
    rt_rne_leave(mode);
    for (uint32_t k = 0; k < tr.count; k += RT_TRI_CHARGE_CHUNK) {
        /* One unit per triangle (P-300), charged per chunk before testing it. */
        uint32_t n = tr.count - k < RT_TRI_CHARGE_CHUNK ? tr.count - k : RT_TRI_CHARGE_CHUNK;
        if (hart_charge(h, n)) return;
        bool stopped;
        mode = rt_rne_enter();
        rt_fetch_status st =
            rt_leaf_closest(&src, tr.first + k, n, &p, flags & F_BIT0, eps, false, &best, &stopped);
        rt_rne_leave(mode);
        if (!fetched(h, u, &c.x, st)) return;
    }
    bool hit = best.hit;
    uint64_t prim = best.prim;
    float bt = best.t, bu = best.u, bv = best.v;
    num_flags f = 0;
    uint64_t res = 0, uv = 0;
    if (hit) {
        uint64_t ue = rt_result_encode(bu, e, &c.s.pol, &f),
                 ve = rt_result_encode(bv, e, &c.s.pol, &f);
        uv = ue | ve << 32;
        if (!(flags & F_PRED_ONLY)) {
            uint64_t te = rt_result_encode(bt, e, &c.s.pol, &f);
            if (pack_hint(u, flags) && e != RT_ELEM_FP32) /* FMT_RT_TRI_PACKED (P-324) */
                res = te | ue << 16 | ve << 32 | (prim & 0x7FFF) << 48 | UINT64_C(1) << 63;
            else
                res = te | (prim & 0x7FFFFFFF) << 32 | UINT64_C(1) << 63;
        }
    }
    if (!finish_flags(h, u, &c.s, c.unsup, f)) return;
    if (hit) u->rtuv = uv;
    complete(h, u, d, flags, res, hit, true);
}

/* ---- Registration ---- */

static const hart_unit_insn insns[] = {
    {XOP_RT_BBOX, exec_bbox, HART_WR_X},
    {XOP_RT_TRI, exec_tri, HART_WR_X},
    {XOP_XSUBMIT_RT, rt_exec_xsubmit, HART_WR_X},
    {XOP_XFENCE_WAIT, rt_exec_xfence_wait, HART_WR_NONE},
    {XOP_XFENCE_SIGNAL, rt_exec_xfence_signal, HART_WR_X},
    {XOP_XFENCE_PIPE, rt_exec_xfence_pipe, HART_WR_NONE},
};
static const hart_unit_csrs csrs[] = {{RT_CSR_LO, RT_CSR_HI, csr_read, csr_write}};
static const hart_unit unit = {"rt", reset, sizeof insns / sizeof insns[0], insns, 1, csrs};

/* REQ: RT-016 */
int rt_unit_attach(hart *h, rt_unit *u, cap_unit *cap, pmask_unit *pmask, uint64_t rtcap)
{
    memset(u, 0, sizeof *u);
    u->cap = cap;
    u->pmask = pmask;
    const xcsr_reg *r = xcsr_find(XPHMG_CSR_RTCAP);
    u->rtcap = rtcap & (r ? r->defined : 0);
    reset(h, u);
    return hart_register_unit(h, &unit, u);
}
