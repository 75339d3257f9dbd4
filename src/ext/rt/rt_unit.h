/* rt_unit.h — XPHMG_RT attached to the hart: the RT CSRs 0x810-0x81C (errata,
 * Q-64..Q-66), the instructions rt.bbox / rt.tri (errata Q-67..Q-77, kernels in
 * rt_kernels.h), and the offload path xsubmit.rt / xfence.wait / xfence.signal /
 * xfence.pipe (errata; engine in rt_job.h, handlers in rt_offload.c).
 * Numeric policy, stickies and memory defaults come from the CAP unit (snapshot at the
 * issuing instruction, Q-79/Q-13); predicates from the PMASK unit. */
#ifndef XPHMG_EXT_RT_UNIT_H
#define XPHMG_EXT_RT_UNIT_H

#include <stdbool.h>
#include <stdint.h>

#include "cap_unit.h"
#include "hart.h"
#include "pmask_unit.h"
#include "rt_kernels.h"

/* Offload jobs waiting for completion (errata Q-80: "a full queue stalls the hart": the
 * oldest job is then completed before the new one is queued). */
#define RT_JOBQ_DEPTH 8

/* RTSTAT.LAST_EC codes (errata Q-66). */
enum { RT_EC_NONE = 0, RT_EC_ILLEGAL = 1, RT_EC_UNSUPPORTED = 2, RT_EC_JOB_FAULT = 3 };

/* A submitted job: the descriptor as read at xsubmit.rt and the CAP snapshot of that
 * instruction (errata ). */
typedef struct {
    uint64_t ticket;
    uint8_t desc[72];   /* FMT_RT_DESC */
    uint64_t lanes_off; /* complement of the opts.PB bank at submission (errata P-321) */
    cap_snap snap;
} rt_pending_job;

/* The memory policy the offload engine's accesses are checked under (the XMEM region
 * model, wired by xphmg_ext; errata P-203): begin before a job runs (its submit snapshot
 * and FMT_MEMCTL bytes), end after it, returning the CAP.XMEM.EVENTS bits its refused
 * accesses earned. begin = NULL: no policy. */
typedef struct {
    void (*begin)(void *ctx, const cap_snap *s, const uint8_t memctl[24]);
    uint64_t (*end)(void *ctx);
    void *ctx;
    /* The L1 model's read of rt.bbox/rt.tri records (rt_mem.cache, errata P-224), called
     * with the hart and ctx; NULL: none. */
    void (*l1_read)(void *hart_ctx, void *ctx, uint64_t addr, unsigned size);
} rt_mem_policy;

typedef struct rt_unit {
    cap_unit *cap;      /* not owned */
    pmask_unit *pmask;  /* not owned */
    uint64_t *svfaulti; /* XMEM's SVFAULTI, where a completed job reports its first-faulting
                           ray (errata P-322); NULL: not reported (not owned) */
    /* CSRs (layouts: spec/xphmg.xml, Unit RT) */
    uint64_t rtcfg, rtstat, rtcap, rtbase, rtq_ray, rtq_hit, rtq_miss, rtconf2;
    uint64_t rtnode, rttri, rtuv;
    /* offload state (rt_offload.c) */
    uint64_t next_ticket; /* tickets 1, 2, 3, ... (0 = none), shared with xfence.signal */
    unsigned njobs;       /* queued, oldest first */
    rt_pending_job jobs[RT_JOBQ_DEPTH];
    /* the offload engine (node cache, host threads): created at the first job with
     * `threads` host threads (0 = 1; xphmg-sim --rt-threads), freed by rt_unit_free */
    unsigned threads;
    struct rt_job_engine *engine;
    rt_mem_policy policy;
} rt_unit;

/* Registers the unit with h; cap and pmask attached to the same hart and outliving u.
 * rtcap = the profile's RTCAP discovery value. -1 when the hart refuses. */
int rt_unit_attach(hart *h, rt_unit *u, cap_unit *cap, pmask_unit *pmask, uint64_t rtcap);

/* Frees what the unit allocated (the offload engine). */
void rt_unit_free(rt_unit *u);
/* A predicate bank selector of an RT instruction or job: 0 (none / all ones) or a bank the
 * PMASK unit has (at most banks 0..3, errata, P-321). */
bool rt_bank_ok(const rt_unit *u, unsigned b);

/* Records an error in RTSTAT: LAST_EC = ec, ERR = 1 (errata Q-66). */
void rt_record_error(rt_unit *u, unsigned ec);

/* Offload handlers (rt_offload.c), registered by rt_unit_attach; ctx = the rt_unit. */
void rt_exec_xsubmit(hart *h, void *ctx, const hart_insn *d);
void rt_exec_xfence_wait(hart *h, void *ctx, const hart_insn *d);
void rt_exec_xfence_signal(hart *h, void *ctx, const hart_insn *d);
void rt_exec_xfence_pipe(hart *h, void *ctx, const hart_insn *d);
/* Completes every queued job (oldest first); for reset paths and tools that stop. */
void rt_offload_drain(hart *h, rt_unit *u);

#endif
