/* xmem_unit.h — XPHMG_XMEM attached to the hart: `xmem.svm` (SVMEM gather/scatter,
 * errata Q-46..Q-48), the project CSR SVFAULTI (0x808, user custom read/write, errata
 * Q-47), and the LDS (errata Q-50): its memory window at XMEM_LDS_BASE (a hart region,
 * hart_add_region) and `xlds.alloc/free/bar/atoms/cpy`; the tag-only L1 model of
 * `xmem.ldg/stg/pref/cctl` and `xmem.stream` (errata Q-54); the XSWZ relayout copies
 * and the compressed load/store, illegal in every profile. The CAP.XMEM
 * CSRs themselves stay in the CAP window (cap_unit.h); this unit reads them through the
 * instruction-boundary snapshot, and predicates through the PMASK unit. */
#ifndef XPHMG_EXT_XMEM_UNIT_H
#define XPHMG_EXT_XMEM_UNIT_H

#include <stdio.h>

#include "cap_unit.h"
#include "hart.h"
#include "pmask_unit.h"
#include "xmem_cache.h"
#include "xmem_lds.h"
#include "xmem_region.h"
#include "xmem_svm.h"

typedef struct {
    cap_unit *cap;     /* snapshot source and CAP.XMEM.EVENTS (not owned) */
    pmask_unit *pmask; /* predicate banks (not owned) */
    uint64_t svfaulti; /* SVFAULTI */
    xmem_lds lds;      /* the allocator; lds.size = 0: no LDS window */
    uint8_t *lds_mem;  /* the window's contents (owned; lds.size bytes) */
    xmem_cache l1;     /* the tag-only L1 model (errata Q-54; owned) */
    /* The region model (errata P-200..P-207): the actor whose accesses the LDS window's
     * policy checks. Without one set, the hart's (domain CAP.XMEM.DOM, public tag). */
    bool actor_set;
    xmem_actor actor;
    unsigned denied; /* XMEM_DENY_* of the accesses refused since xmem_actor_begin */
    /* Completes the outstanding offload work (the RT engine), for `xlds.bar` scopes
     * >= CLUSTER (errata P-206); NULL when there is no offload engine. */
    void (*drain)(hart *h, void *ctx);
    void *drain_ctx;
} xmem_unit;

/* Registers the unit with h (cap and pmask must be attached to the same hart and
 * outlive u) and, when the profile has an LDS, allocates the window and adds it to the
 * hart's memory map; -1 when the hart refuses (op or CSR already owned, the window
 * overlaps RAM or the CLINT) or the host cannot allocate (then nothing is left to free).
 * The window's size and Tier-0 partition come from cap's discovery values. */
int xmem_unit_attach(hart *h, xmem_unit *u, cap_unit *cap, pmask_unit *pmask);
/* One line "xphmg-sim: xmem.l1 hits N, misses N, ..." with every L1 statistic. */
void xmem_unit_print_stats(const xmem_unit *u, FILE *f);
/* The region model's engine interface (errata P-203): accesses that reach the LDS
 * window until xmem_actor_end are made by actor a (an offload job), not by the hart.
 * xmem_actor_end returns the XMEM_DENY_* reasons of the accesses refused meanwhile. */
void xmem_actor_begin(xmem_unit *u, xmem_actor a);
unsigned xmem_actor_end(xmem_unit *u);
/* The same for a descriptor-driven job (rt_mem_policy): the actor is the job's
 * effective domain and tag (FMT_MEMCTL dom/sec over the CAP defaults of s); the end
 * returns DMA_ERR when one of its accesses was refused by the region policy (P-207). */
void xmem_job_begin(void *xmem_unit_ctx, const cap_snap *s, const uint8_t memctl[24]);
uint64_t xmem_job_end(void *xmem_unit_ctx);
/* An RT instruction's record read of n bytes at a, after it succeeded: one read of the L1
 * model (rt_mem_policy.l1_read; errata P-224). */
void xmem_l1_read(void *hart_ctx, void *xmem_unit_ctx, uint64_t a, unsigned n);
/* Names the offload engine's drain (see xmem_unit.drain). */
void xmem_set_offload_drain(xmem_unit *u, void (*fn)(hart *h, void *ctx), void *ctx);

/* Frees what attach allocated (after the hart stops using the window). */
void xmem_unit_free(xmem_unit *u);

#endif
