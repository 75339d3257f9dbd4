/* xmem_lds.h — the LDS allocator of XPHMG_XMEM (`xlds.alloc` / `xlds.free`, XMEM 5.2,
 * 6.1, errata Q-50): pure state (no hart, no memory contents), host-testable.
 *
 * The LDS is one window of plain memory at XMEM_LDS_BASE, size = CAP.XMEM.PARAMS.LDS_KIB
 * KiB (no window when that is 0 or CAP.XMEM.CAP.LDS = 0). Its first CAP.TIER.LDS.T0_KIB
 * KiB (clamped to the window) are the Tier-0 partition, the rest the Tier-1 partition.
 * The geometry is fixed when the allocator is set up (from the discovery values of the
 * profile); the per-operation inputs (class, budgets) come from the CAP snapshot taken at
 * the instruction boundary. Allocations are first fit in address order within one
 * partition, sizes rounded up to the 16-byte granule. */
#ifndef XPHMG_EXT_XMEM_LDS_H
#define XPHMG_EXT_XMEM_LDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cap.h"

#define XMEM_LDS_BASE    UINT64_C(0x10000000) /* physical address of the window */
#define XMEM_LDS_GRANULE 16u                  /* minimum size and alignment */

/* xlds.alloc FLAGS (imm[11:0]) */
#define XMEM_LDS_F_ALIGN_MASK   0xfu /* ALIGN_LOG2 3:0 */
#define XMEM_LDS_F_TIER_SHIFT   4    /* TIER 5:4: 0 default (= Tier-1), 1 Tier-0, 2 Tier-1 */
#define XMEM_LDS_F_MCLASS_EN    0x40u
#define XMEM_LDS_F_MCLASS_SHIFT 7      /* MCLASS 8:7 */
#define XMEM_LDS_F_RESERVED     0xe00u /* bits 11:9 (errata P-70) */

/* CAP.XMEM.EVENTS bits (errata Q-38) */
#define XMEM_EV_INV_MISS   (UINT64_C(1) << 0)
#define XMEM_EV_LDS_OOM    (UINT64_C(1) << 2)
#define XMEM_EV_BUDGET_OVF (UINT64_C(1) << 5)

/* An allocation is an XMEM region (errata P-200): its attributes start from the CAP
 * defaults of the allocating instruction and change only through `xmem.region`
 * (xmem_region.h). */
typedef struct {
    uint64_t base, size; /* size in bytes, a multiple of the granule */
    uint8_t cls;         /* mclass: the class whose budget it consumes */
    uint8_t tier;        /* 0-3 = T0-T3; T0 exactly when it lies in the Tier-0 partition */
    uint8_t dom;         /* owning domain (errata Q-40 code, never 0) */
    uint8_t sec;         /* security tag 0 public, 1 trusted, 2 secure (XMEM 8.1) */
    uint8_t sprof;       /* streaming profile id 0-3 */
    uint8_t hyb;         /* 1 = hybrid region (MEMCTL.hyb) */
    /* Cache hints of its XPHMG_MEMCTL (errata P-208..P-211), 0 = none. */
    uint8_t l1_hint;      /* LOCK 0, STREAM 1, NONTEMP 2, WAYMASK 7:3 */
    uint16_t line_sz;     /* 32, 64 or 128 bytes */
    uint16_t qos;         /* replacement priority of its lines */
    uint64_t lds_softpin; /* its first lds_softpin bytes are soft-pinned in the L1 */
} xmem_lds_blk;

typedef struct {
    uint64_t base, size; /* the window; size 0 = no LDS */
    uint64_t t0_size;    /* Tier-0 partition = [base, base + t0_size) */
    xmem_lds_blk *blk;   /* live allocations, sorted by base */
    size_t n, cap;
    uint64_t used[4]; /* bytes allocated per class CL0-CL3 */
} xmem_lds;

/* The window size and Tier-0 size in bytes from the discovery values CAP.XMEM.CAP,
 * CAP.XMEM.PARAMS and CAP.TIER.LDS. */
void xmem_lds_geometry(uint64_t xmem_cap, uint64_t params, uint64_t tier_lds, uint64_t *size,
                       uint64_t *t0_size);

/* Sets up an empty allocator over [XMEM_LDS_BASE, + size) with the given Tier-0 size
 * (clamped to size). */
void xmem_lds_init(xmem_lds *l, uint64_t size, uint64_t t0_size);
/* Frees every allocation (hart reset). */
void xmem_lds_reset(xmem_lds *l);
/* Releases the host memory of the allocation list. */
void xmem_lds_fini(xmem_lds *l);

typedef struct {
    uint64_t addr;   /* rd: the base, 0 on failure */
    uint64_t events; /* CAP.XMEM.EVENTS bits to set */
    bool illegal;    /* reserved FLAGS: illegal instruction, nothing changed */
} xmem_lds_res;

/* xlds.alloc of `bytes` with FLAGS `flags` under snapshot s. */
xmem_lds_res xmem_lds_alloc(xmem_lds *l, const cap_snap *s, uint64_t bytes, unsigned flags);
/* xlds.free: the events to set (INV_MISS unless addr is the base of a live allocation). */
uint64_t xmem_lds_free(xmem_lds *l, uint64_t addr);

/* The live allocation containing addr, NULL when none does. */
const xmem_lds_blk *xmem_lds_find(const xmem_lds *l, uint64_t addr);
/* The live allocation whose base is exactly base, NULL when none is. */
xmem_lds_blk *xmem_lds_at(xmem_lds *l, uint64_t base);
/* Charges allocation b to class cls from now on (its bytes leave its old class) under
 * the budgets of s: the events to set (BUDGET_OVF when cls goes over its budget). */
uint64_t xmem_lds_recharge(xmem_lds *l, xmem_lds_blk *b, unsigned cls, const cap_snap *s);

/* The class an allocation under s with flags is charged to (errata Q-41). */
unsigned xmem_lds_class(const cap_snap *s, unsigned flags);

#endif
