/* xmem_lds.c — the LDS allocator (errata ). */
#include "xmem_lds.h"

#include <stdlib.h>
#include <string.h>

#include "xphmg_csr.h"

/* REQ: XMEM-085 XMEM-014 XMEM-015 */
void xmem_lds_geometry(uint64_t xmem_cap, uint64_t params, uint64_t tier_lds, uint64_t *size,
                       uint64_t *t0_size)
{
    uint64_t kib = (params & CAP_XMEM_PARAMS_LDS_KIB_MASK) >> CAP_XMEM_PARAMS_LDS_KIB_SHIFT;
    if (!(xmem_cap & CAP_XMEM_CAP_LDS_MASK)) kib = 0;
    uint64_t t0 = (tier_lds & CAP_TIER_LDS_T0_KIB_MASK) >> CAP_TIER_LDS_T0_KIB_SHIFT;
    *size = kib << 10;
    *t0_size = (t0 < kib ? t0 : kib) << 10;
}

/* REQ: XMEM-092 XMEM-085 */
void xmem_lds_init(xmem_lds *l, uint64_t size, uint64_t t0_size)
{
    memset(l, 0, sizeof *l);
    l->base = XMEM_LDS_BASE;
    l->size = size;
    l->t0_size = t0_size < size ? t0_size : size;
}

/* REQ: XMEM-092 */
void xmem_lds_reset(xmem_lds *l)
{
    l->n = 0;
    memset(l->used, 0, sizeof l->used);
}

void xmem_lds_fini(xmem_lds *l)
{
    free(l->blk);
    l->blk = NULL;
    l->n = l->cap = 0;
}

/* s is the instruction boundary's snapshot: a CSR write after it changes nothing here
 * (CAP-131); L1CFG.ACTIVE_CLASS is the default, MCLASS the per-instruction override
 * (CAP-137), for allocations in either tier (CAP-015: class policy beyond Tier-0).
 * REQ: XMEM-078 XMEM-036 XMEM-043 CAP-015 CAP-131 CAP-137 */
unsigned xmem_lds_class(const cap_snap *s, unsigned flags)
{
    /* Errata Q-41: the MCLASS override when MCLASS_EN, else L1CFG.ACTIVE_CLASS; without
     * CLASS_PART everything is CL0. */
    if (!(cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_CAP) & CAP_XMEM_CAP_CLASS_PART_MASK)) return 0;
    if (flags & XMEM_LDS_F_MCLASS_EN) return (flags >> XMEM_LDS_F_MCLASS_SHIFT) & 3;
    uint64_t l1 = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_L1CFG);
    return (unsigned)((l1 & CAP_XMEM_L1CFG_ACTIVE_CLASS_MASK) >>
                      CAP_XMEM_L1CFG_ACTIVE_CLASS_SHIFT) &
           3;
}

/* Soft budgets (errata Q-50): CLn_KIB, 0 = unlimited; going over one succeeds and sets
 * BUDGET_OVF. */
/* REQ: XMEM-054 XMEM-079 XMEM-053 */
static uint64_t over_budget(const xmem_lds *l, unsigned cls, const cap_snap *s)
{
    uint64_t budget = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_LDS_BUDGET);
    uint64_t kib = (budget >> (16 * cls)) & 0xffff;
    return kib && l->used[cls] > (kib << 10) ? XMEM_EV_BUDGET_OVF : 0;
}

/* First fit in address order in [lo, hi): the lowest base aligned to `align` such that
 * [base, base + size) lies in a gap between live allocations. Returns the base and the
 * index where the new block goes in the sorted list; false when nothing fits. */
/* REQ: XMEM-092 XMEM-085 XMEM-148 XMEM-151 */
static bool first_fit(const xmem_lds *l, uint64_t lo, uint64_t hi, uint64_t size, uint64_t align,
                      uint64_t *base, size_t *at)
{
    uint64_t gap = lo;
    for (size_t i = 0; i <= l->n; i++) {
        uint64_t end = hi;
        if (i < l->n) {
            const xmem_lds_blk *b = &l->blk[i];
            if (b->base + b->size <= lo) continue; /* below the partition */
            if (b->base < hi) end = b->base;
        }
        if (gap < end) {
            uint64_t a = (gap + align - 1) & ~(align - 1);
            if (a >= gap && a < end && end - a >= size) {
                *base = a;
                *at = i;
                return true;
            }
        }
        if (i == l->n || l->blk[i].base >= hi) break;
        gap = l->blk[i].base + l->blk[i].size;
    }
    return false;
}

/* REQ: XMEM-092 XMEM-093 XMEM-085 XMEM-078 XMEM-054 XMEM-015 XMEM-136 */
xmem_lds_res xmem_lds_alloc(xmem_lds *l, const cap_snap *s, uint64_t bytes, unsigned flags)
{
    xmem_lds_res r = {0, 0, false};
    unsigned tier = (flags >> XMEM_LDS_F_TIER_SHIFT) & 3;
    if ((flags & XMEM_LDS_F_RESERVED) || tier == 3) {
        r.illegal = true;
        return r;
    }
    unsigned la = flags & XMEM_LDS_F_ALIGN_MASK;
    uint64_t align = UINT64_C(1) << (la < 4 ? 4 : la);
    /* 0 bytes: one granule; the size is rounded up to the granule. A size larger than
     * the window cannot fit anywhere (and must not overflow the rounding). */
    uint64_t size = bytes ? bytes : XMEM_LDS_GRANULE;
    bool fits = size <= l->size;
    size = (size + XMEM_LDS_GRANULE - 1) & ~(uint64_t)(XMEM_LDS_GRANULE - 1);
    uint64_t t0_lo = l->base, t0_hi = l->base + l->t0_size, t1_hi = l->base + l->size;
    uint64_t base = 0;
    size_t at = 0;
    bool ok = false;
    /* Tier-1 is the default (tier 0, CAP 2.2.4 #1), an explicit choice (tier 2) and the
     * fallback of a Tier-0 request that does not fit (CAP 2.2.3, XMEM 3.2.8; CAP-019: a
     * pipeline whose Tier-0 is full goes on through Tier-1): only tier 1 asks for Tier-0.
     * REQ: XMEM-092 XMEM-093 XMEM-085 XMEM-078 XMEM-054 XMEM-015 XMEM-136 CAP-019 CAP-021 */
    if (fits && tier == 1) ok = first_fit(l, t0_lo, t0_hi, size, align, &base, &at);
    if (fits && !ok) ok = first_fit(l, t0_hi, t1_hi, size, align, &base, &at);
    /* REQ: XMEM-092 XMEM-093 XMEM-085 XMEM-078 XMEM-054 XMEM-015 XMEM-136 */
    if (ok && l->n == l->cap) {
        size_t nc = l->cap ? 2 * l->cap : 64;
        xmem_lds_blk *nb = realloc(l->blk, nc * sizeof *nb);
        if (!nb)
            ok = false; /* host out of memory: reported like an exhausted LDS */
        else {
            l->blk = nb;
            l->cap = nc;
        }
    }
    if (!ok) {
        r.events = XMEM_EV_LDS_OOM; /* XMEM 6.1: 0, and no other state changes */
        return r;
    }
    unsigned cls = xmem_lds_class(s, flags);
    /* The region's other attributes are the CAP defaults (errata P-200): the owner is
     * CAP.XMEM.DOM (0 = CPU, XMEM 3.2.4), the tier its partition, the tag public. */
    unsigned dom = (unsigned)(cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_DOM) & CAP_XMEM_DOM_DOM_MASK);
    memmove(&l->blk[at + 1], &l->blk[at], (l->n - at) * sizeof *l->blk);
    l->blk[at] = (xmem_lds_blk){.base = base,
                                .size = size,
                                .cls = (uint8_t)cls,
                                .tier = base < t0_hi ? 0 : 1,
                                .dom = (uint8_t)(dom ? dom : 1)};
    l->n++;
    l->used[cls] += size;
    r.events |= over_budget(l, cls, s);
    r.addr = base;
    return r;
}

/* REQ: XMEM-054 XMEM-059 XMEM-079 */
uint64_t xmem_lds_recharge(xmem_lds *l, xmem_lds_blk *b, unsigned cls, const cap_snap *s)
{
    l->used[b->cls] -= b->size;
    b->cls = (uint8_t)cls;
    l->used[cls] += b->size;
    return over_budget(l, cls, s);
}

/* Index of the first allocation whose base is >= addr. */
/* REQ: XMEM-094 XMEM-011 XMEM-021 */
static size_t lower_bound(const xmem_lds *l, uint64_t addr)
{
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->blk[mid].base < addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* REQ: XMEM-094 XMEM-011 XMEM-021 */
const xmem_lds_blk *xmem_lds_find(const xmem_lds *l, uint64_t addr)
{
    size_t i = lower_bound(l, addr);
    if (i < l->n && l->blk[i].base == addr) return &l->blk[i];
    if (i == 0) return NULL;
    const xmem_lds_blk *b = &l->blk[i - 1];
    return addr - b->base < b->size ? b : NULL;
}

/* REQ: XMEM-094 XMEM-011 */
xmem_lds_blk *xmem_lds_at(xmem_lds *l, uint64_t base)
{
    size_t i = lower_bound(l, base);
    return i < l->n && l->blk[i].base == base ? &l->blk[i] : NULL;
}

/* REQ: XMEM-094 XMEM-054 */
uint64_t xmem_lds_free(xmem_lds *l, uint64_t addr)
{
    size_t lo = lower_bound(l, addr);
    if (lo == l->n || l->blk[lo].base != addr) return XMEM_EV_INV_MISS; /* wild, double, 0 */
    l->used[l->blk[lo].cls] -= l->blk[lo].size;
    memmove(&l->blk[lo], &l->blk[lo + 1], (l->n - lo - 1) * sizeof *l->blk);
    l->n--;
    return 0;
}
