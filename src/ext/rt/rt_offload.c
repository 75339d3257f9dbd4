/* rt_offload.c — the offload path of XPHMG_RT on the hart: `xsubmit.rt`, `xfence.wait`,
 * `xfence.signal`, `xfence.pipe` (errata; docs/rt.md "Offload").
 *
 * The golden model runs a job only when the hart waits for it: `xfence.wait` on its
 * ticket (or 0), `xfence.pipe` for domain RT or ALL, a full job queue at `xsubmit.rt`
 * (the "stall" of Q-80: the oldest job completes first) or rt_offload_drain. A program
 * that reads a job's queues without waiting therefore sees their old contents, which
 * exposes a missing fence. Jobs complete in ticket order; tickets 1, 2, 3, ... are
 * shared with `xfence.signal`. */
#include <string.h>

#include "rt_job.h"
#include "rt_unit.h"
#include "xphmg_csr.h"

/* The queued copy of a descriptor is resolved at `xsubmit.rt`: queue pointers of 0 are
 * replaced by RTQ_RAY/HIT/MISS, and byte 44 of the reserved word (bytes 44-47, ignored as
 * written) carries the tolerance code, so the job does not depend on RT CSR writes after
 * the submission (errata ). The pack hint (opts bit 2 or RTCFG.PACK_HINT_DFLT)
 * changes nothing in a job (errata P-324), so it is not resolved. */
enum { RES_EPS = RT_DESC_RSV };

/* The next ticket: 1, 2, 3, ... from reset on, shared by `xsubmit.rt` and
 * `xfence.signal`. 0 is never a ticket (`xfence.wait 0` waits for everything), so a count
 * that reaches 2^64 goes on at 1. */
/* REQ: RT-118 RT-122 */
static uint64_t issue_ticket(rt_unit *u)
{
    uint64_t t = u->next_ticket++;
    if (u->next_ticket == 0) u->next_ticket = 1;
    return t;
}

/* Guest RAM seen directly by the engine's reads: a plain RAM load has no side effect. Not
 * with address translation, PMP, triggers or a debugger's watch (h->xlate): addresses are
 * then virtual and the accesses are checked and observed on the hart's slow paths. */
static const uint8_t *ram_map(void *ctx, uint64_t a, unsigned n)
{
    hart *h = ctx;
    if (!h->xlate && n <= h->ram_size && a - h->ram_base <= h->ram_size - n)
        return h->ram + (a - h->ram_base);
    return NULL;
}

/* Guest RAM the engine may write directly: a store there would only write its bytes. Not
 * with address translation, PMP, triggers or a debugger's watch (h->xlate: the slow
 * paths see those), nor while the commit log traces stores, nor on a page holding decoded
 * code or the HTIF window (page flags: a store there notifies the hart). */
static uint8_t *ram_map_w(void *ctx, uint64_t a, uint64_t n)
{
    hart *h = ctx;
    if (h->xlate || h->tracing || n == 0 || n > h->ram_size || a - h->ram_base > h->ram_size - n)
        return NULL;
    uint64_t off = a - h->ram_base;
    for (uint64_t pg = off >> 12; pg <= (off + n - 1) >> 12; pg++)
        if (h->page_flags[pg]) return NULL;
    return h->ram + off;
}

/* RAM's epoch and watch (rt_mem): the engine keeps what it decoded from RAM between jobs
 * while no write reached the pages it watches and nothing changed what ram_map serves
 * (hart_ram_epoch says which events count). XMEM regions are not RAM: ram_map never
 * serves them, so a record read there is never kept, and their owner (policy.begin) needs
 * no epoch of its own. */
static uint64_t ram_epoch(void *ctx)
{
    return hart_ram_epoch(ctx);
}

static bool ram_watch(void *ctx, uint64_t a, uint64_t n)
{
    return hart_ram_watch(ctx, a, n);
}

static bool charge_job(void *hart_ctx, uint64_t units)
{
    return hart_charge(hart_ctx, units);
}

/* Runs the oldest queued job and applies its result: flags accrue into STAT/EXC.ST
 * (errata Q-29, never a trap), UNSUP_FMT, XMEM events, LAST_EC = 3 when
 * the job ended early (a fault or an enabled exception). */
/* The job runs under the XMEM state latched at its xsubmit.rt (job.snap, XMEM 11.1.10). */
/* Its XMEM events land in CAP.XMEM.EVENTS as the hart's do (XMEM 9.1). */
/* REQ: RT-121 RT-123 RT-096 XMEM-141 XMEM-123 */
static void complete_oldest(hart *h, rt_unit *u)
{
    rt_pending_job job = u->jobs[0];
    memmove(&u->jobs[0], &u->jobs[1], (u->njobs - 1) * sizeof u->jobs[0]);
    u->njobs--;
    rt_job_desc jd;
    rt_job_decode(job.desc, &jd);
    jd.eps_code = job.desc[RES_EPS];
    jd.lanes_off = job.lanes_off;
    /* Work is charged only to a bounded run; such a job runs on one host thread, so the
     * budget runs out at the same ray whatever --rt-threads says (errata P-300). */
    bool bounded = hart_charge_bounded(h);
    rt_job_mem m = {
        h,         hart_quiet_load, hart_quiet_store, ram_map, bounded ? charge_job : NULL,
        ram_map_w, ram_epoch,       ram_watch};
    rt_job_result r;
    /* The job's accesses are held to XMEM's region rules under its XPHMG_MEMCTL: it reaches
     * a tiered region only while the domain it runs for owns it, so changing the owner
     * with xmem.region is the whole handoff, without a copy (CAP 2.2).
     * REQ: RT-099 CAP-013 CAP-014 CAP-020 */
    if (u->policy.begin) u->policy.begin(u->policy.ctx, &job.snap, jd.memctl);
    /* REQ: RT-121 RT-123 RT-096 */
    if (!u->engine) u->engine = rt_job_engine_new(u->threads);
    rt_job_run_ex(&jd, &job.snap, &m, u->engine, &r);
    /* REQ: RT-099 CAP-013 CAP-014 CAP-020 */
    if (u->policy.begin) r.events |= u->policy.end(u->policy.ctx);
    /* REQ: RT-121 RT-123 RT-096 */
    cap_accrue(&u->cap->cap, r.flags);
    if (r.unsup_fmt) cap_note_unsupported(&u->cap->cap);
    if (r.events) cap_xmem_event(&u->cap->cap, r.events);
    if (u->svfaulti) *u->svfaulti = r.svfaulti;
    /* A fault-only-first stop is not a fault (XMEM 5.1, errata P-320): software resumes
     * from the ray queue's HEAD. */
    if (r.status != RT_JOB_OK && r.status != RT_JOB_FOF_STOP) rt_record_error(u, RT_EC_JOB_FAULT);
}

/* REQ: RT-123 */
void rt_offload_drain(hart *h, rt_unit *u)
{
    while (u->njobs)
        complete_oldest(h, u);
}

/* xsubmit.rt rd, rs1: reads the descriptor at issue (precise faults), snapshots CAP,
 * queues the job and returns its ticket. */
/* REQ: RT-115 RT-118 RT-120 RT-027 RT-068 RT-072 RT-112 RT-114 RT-006 RT-018 RT-067 */
void rt_exec_xsubmit(hart *h, void *ctx, const hart_insn *d)
{
    rt_unit *u = ctx;
    unsigned rd = d->rd;
    uint64_t a = hart_x(h, d->rs1);
    if (!(u->rtcap & RTCAP_DESCQ_MASK)) { /* RT 9: unsupported feature */
        rt_record_error(u, RT_EC_UNSUPPORTED);
        hart_illegal(h, d);
        return;
    }
    /* The descriptor: 8-byte aligned, every doubleword accessible, else a precise load
     * fault at the first failing address with INV_MISS. */
    if (a & 7) {
        hart_raise(h, CAUSE_MISALIGNED_LOAD, a);
        return;
    }
    for (unsigned i = 0; i < RT_DESC_BYTES; i += 8) {
        if (!hart_mem_ok(h, a + i, 8, false)) {
            cap_xmem_event(&u->cap->cap, CAP_XMEM_EVENTS_INV_MISS_MASK);
            hart_raise(h, CAUSE_LOAD_ACCESS, a + i);
            return;
        }
    }
    rt_pending_job job;
    memset(&job, 0, sizeof job);
    for (unsigned i = 0; i < RT_DESC_BYTES; i += 8) {
        uint64_t v = 0;
        if (!hart_load(h, a + i, 8, &v)) return; /* cannot fail after the probe */
        rt_le_put(job.desc + i, 8, v);
    }
    /* The predicate bank (opts.PB, errata P-321) is checked like rt.bbox's PB_IN: a bank
     * that does not exist is an illegal encoding (LAST_EC = 1). */
    uint32_t opts = (uint32_t)rt_le_get(job.desc + RT_DESC_OPTS, 4);
    unsigned pb = (opts & RT_OPT_PB_MASK) >> RT_OPT_PB_SHIFT;
    if (!rt_bank_ok(u, pb)) {
        rt_record_error(u, RT_EC_ILLEGAL);
        hart_illegal(h, d);
        return;
    }
    /* Feature requests the profile lacks are unsupported features (RT 5, Q-66). */
    if (((opts & RT_OPT_NODE8) && !(u->rtcap & RTCAP_NODE8_MASK)) ||
        ((opts & RT_OPT_PACK_HINT) && !(u->rtcap & RTCAP_PACK_HINT_MASK)) ||
        ((opts & RT_OPT_EPS_CTL) && !(u->rtcap & RTCAP_EPS_CTL_MASK))) {
        rt_record_error(u, RT_EC_UNSUPPORTED);
        hart_illegal(h, d);
        return;
    }
    cap_snapshot(&u->cap->cap, &job.snap);
    /* The bank as of this instruction boundary (RT 8.10: the dispatch sees one state). */
    if (pb != 0) job.lanes_off = ~pmask_get(&u->pmask->pm, pb);
    /* Resolve the CSR defaults now (see RES_EPS). */
    static const unsigned qoff[3] = {RT_DESC_RAYQ, RT_DESC_HITQ, RT_DESC_MISSQ};
    const uint64_t qcsr[3] = {u->rtq_ray, u->rtq_hit, u->rtq_miss};
    for (unsigned i = 0; i < 3; i++)
        if (rt_le_get(job.desc + qoff[i], 8) == 0) rt_le_put(job.desc + qoff[i], 8, qcsr[i]);
    unsigned eps = (opts & RT_OPT_EPS_CTL)
                       ? (unsigned)(u->rtconf2 & RTCONF2_EPS_SCALE_MASK)
                       : (unsigned)((u->rtcfg & RTCFG_EPS_DFLT_MASK) >> RTCFG_EPS_DFLT_SHIFT);
    job.desc[RES_EPS] = (uint8_t)eps;
    /* A full queue stalls the hart until the oldest job completes. */
    if (u->njobs == RT_JOBQ_DEPTH) complete_oldest(h, u);
    job.ticket = issue_ticket(u);
    u->jobs[u->njobs++] = job;
    hart_set_x(h, rd, job.ticket);
}

/* xfence.wait rs1: completes every job up to ticket rs1 (0 = all); a ticket never
 * issued is an illegal instruction. It orders a handoff: a job's writes to the
 * regions handed to it are visible after the wait, not before (CAP 2.2.4.1). */
/* REQ: RT-119 RT-123 RT-124 XMEM-108 CAP-024 */
void rt_exec_xfence_wait(hart *h, void *ctx, const hart_insn *d)
{
    rt_unit *u = ctx;
    uint64_t t = hart_x(h, d->rs1);
    if (t >= u->next_ticket) {
        hart_illegal(h, d);
        return;
    }
    while (u->njobs && (t == 0 || u->jobs[0].ticket <= t))
        complete_oldest(h, u);
}

/* xfence.signal rd: a ticket that completes with all earlier work. */
/* REQ: RT-119 XMEM-108 */
void rt_exec_xfence_signal(hart *h, void *ctx, const hart_insn *d)
{
    rt_unit *u = ctx;
    hart_set_x(h, d->rd, issue_ticket(u));
}

/* xfence.pipe domsel: DOMSEL 3:0 (1-6, 15), bit 4 FF_GLOBAL, bits 11:5 zero (P-70).
 * RT (2) and ALL (15) complete every queued job; the other domains have no offload
 * work in this model. FF_GLOBAL also waits for DMA work (XMEM 7.2), and the offload
 * engine is the platform's DMA engine (errata P-207), so it completes every job too.
 * The fence itself has no visible effect on the in-order hart. */
/* REQ: XMEM-107 XMEM-110 */
void rt_exec_xfence_pipe(hart *h, void *ctx, const hart_insn *d)
{
    rt_unit *u = ctx;
    unsigned sel = (unsigned)((uint64_t)d->imm & 0xfff), dom = sel & 0xf;
    if ((sel & ~0x1fu) || dom == 0 || (dom > 6 && dom != RT_DOM_ALL)) {
        hart_illegal(h, d);
        return;
    }
    if (dom == RT_DOM_RT || dom == RT_DOM_ALL || (sel & 0x10)) rt_offload_drain(h, u);
}
