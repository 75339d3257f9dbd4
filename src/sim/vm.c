/* vm.c — what stands between a virtual address and memory: Sv39/Sv48 translation,
 * the PMP, and the Sdtrig address triggers; and when all of that is needed at all
 * (h->xlate), so that code running in M mode (or with satp Bare and a PMP that allows
 * everything) keeps the fast loop.
 *
 * Choices (docs/errata.md, Hart section): A/D bits are not updated by hardware, a leaf
 * with A = 0, or D = 0 on a store, is a page fault (Spike's default, no Svadu); 16 PMP
 * entries with 4-byte granularity; an S/U access no PMP entry matches fails once any
 * entry is active (A != OFF), while a PMP left entirely off (the reset state) checks
 * nothing, as if no entry were implemented (P-262). */
#include "hart_int.h"

#define PTE_V    (UINT64_C(1) << 0)
#define PTE_R    (UINT64_C(1) << 1)
#define PTE_W    (UINT64_C(1) << 2)
#define PTE_X    (UINT64_C(1) << 3)
#define PTE_U    (UINT64_C(1) << 4)
#define PTE_A    (UINT64_C(1) << 6)
#define PTE_D    (UINT64_C(1) << 7)
#define PTE_PPN  (((UINT64_C(1) << 44) - 1) << 10)
#define PTE_RSVD (~((UINT64_C(1) << 54) - 1)) /* N, PBMT, reserved: none implemented */

#define PMP_R     1
#define PMP_W     2
#define PMP_X     4
#define PMP_A     0x18
#define PMP_TOR   0x08
#define PMP_NA4   0x10
#define PMP_NAPOT 0x18
#define PMP_L     0x80
#define PMP_COUNT 16
#define PA_LIMIT  (UINT64_C(1) << 56)

/* mcontrol (tdata1 type 2) fields. */
#define MC_LOAD  (UINT64_C(1) << 0)
#define MC_STORE (UINT64_C(1) << 1)
#define MC_EXEC  (UINT64_C(1) << 2)
#define MC_U     (UINT64_C(1) << 3)
#define MC_S     (UINT64_C(1) << 4)
#define MC_M     (UINT64_C(1) << 6)
#define MC_TYPE2 (UINT64_C(2) << 60)

static unsigned pmp_cfg(const hart *h, unsigned i)
{
    return (unsigned)(h->pmpcfg[(i / 8) * 2] >> (8 * (i % 8))) & 0xff;
}

/* [lo, hi) of PMP entry i (hi = 0: matches nothing). */
static void pmp_range(const hart *h, unsigned i, uint64_t *lo, uint64_t *hi)
{
    unsigned cfg = pmp_cfg(h, i);
    uint64_t a = h->pmpaddr[i];
    *lo = *hi = 0;
    switch (cfg & PMP_A) {
    case PMP_TOR:
        *lo = i ? h->pmpaddr[i - 1] << 2 : 0;
        *hi = a << 2;
        break;
    case PMP_NA4:
        *lo = a << 2;
        *hi = *lo + 4;
        break;
    case PMP_NAPOT: {
        unsigned ones = (unsigned)__builtin_ctzll(~a); /* a < 2^54: never all ones */
        uint64_t size = UINT64_C(1) << (ones + 3);
        *lo = (a << 2) & ~(size - 1);
        *hi = *lo + size;
        break;
    }
    default:
        break;
    }
}

bool hart_pmp_ok(const hart *h, uint64_t pa, unsigned n, int acc, unsigned priv)
{
    static const unsigned need[3] = {PMP_R, PMP_W, PMP_X};
    bool active = false;
    for (unsigned i = 0; i < PMP_COUNT; i++) {
        unsigned cfg = pmp_cfg(h, i);
        if (!(cfg & PMP_A)) continue; /* off: matches nothing (and is most entries) */
        uint64_t lo, hi;
        active = true;
        pmp_range(h, i, &lo, &hi);
        if (lo >= hi || pa + n <= lo || pa >= hi) continue;
        /* The first entry any byte matches decides; all bytes must lie in it. */
        if (pa < lo || pa + n > hi) return false;
        if (priv == PRV_M && !(cfg & PMP_L)) return true;
        return (cfg & need[acc]) != 0;
    }
    return priv == PRV_M || !active;
}

void hart_update_xlate(hart *h, bool pmp)
{
    if (pmp) {
        h->pmp_su_all = true; /* no active entry: nothing is checked (P-262) */
        h->pmp_m_lock = false;
        bool first = true;
        for (unsigned i = 0; i < PMP_COUNT; i++) {
            unsigned cfg = pmp_cfg(h, i);
            if (!(cfg & PMP_A)) continue;
            if (cfg & PMP_L) h->pmp_m_lock = true;
            if (first) {
                uint64_t lo, hi;
                pmp_range(h, i, &lo, &hi);
                h->pmp_su_all = lo == 0 && hi >= PA_LIMIT && (cfg & 7) == 7;
                first = false;
            }
        }
        if (h->pmp_su_all) h->pmp_m_lock = false; /* its lock allows M everything too */
    }
    bool vm = (h->satp >> 60) != 0;
    unsigned dp = hart_data_priv(h);
    bool x = false, careful = false;
    if (h->priv != PRV_M || dp != PRV_M) x = vm || !h->pmp_su_all;
    if (h->pmp_m_lock) x = true;
    if (!(h->misa & MISA_C)) careful = true;
    if (h->access_fn) careful = true; /* a debugger watches data accesses (slow paths only) */
    for (unsigned i = 0; i < HART_NTRIG; i++)
        if ((h->tdata1[i] >> 60) == 2 && (h->tdata1[i] & (MC_LOAD | MC_STORE | MC_EXEC)))
            careful = true;
    /* The RT engine's kept records were read from RAM as it was mapped (hart_ram_epoch). */
    if (pmp || h->xlate != (x || careful)) hart_rt_written(h);
    h->xlate = x || careful;
    h->xlate_careful = careful;
}

/* ---- triggers ---- */

static bool trig_fires(const hart *h, unsigned i, uint64_t a, uint64_t kind)
{
    uint64_t t = h->tdata1[i];
    if ((t >> 60) != 2 || !(t & kind) || h->tdata2[i] != a) return false;
    static const uint64_t mode_bit[4] = {MC_U, MC_S, 0, MC_M};
    if (!(t & mode_bit[h->priv])) return false;
    /* No tcontrol: a breakpoint-exception trigger in M mode fires only while
     * mstatus.MIE = 1, so the M-mode handler cannot retrigger itself (Sdtrig). */
    return h->priv != PRV_M || (h->mstatus & MSTATUS_MIE);
}

static bool trig_check(hart *h, uint64_t a, uint64_t kind)
{
    for (unsigned i = 0; i < HART_NTRIG; i++)
        if (trig_fires(h, i, a, kind)) {
            hart_raise(h, CAUSE_BREAKPOINT, a);
            return true;
        }
    return false;
}

bool hart_exec_trigger(hart *h, uint64_t pc)
{
    return trig_check(h, pc, MC_EXEC);
}

int hart_trigger_set(hart *h, unsigned idx, uint64_t addr, unsigned kinds)
{
    if (idx >= HART_NTRIG || !(kinds & 7) || (kinds & ~7u)) return -1;
    h->tdata1[idx] = MC_TYPE2 | MC_M | MC_S | MC_U | kinds; /* kinds = MC_LOAD.. bits */
    h->tdata2[idx] = addr;
    hart_update_xlate(h, false);
    h->stop = true;
    return 0;
}

void hart_trigger_clear(hart *h, unsigned idx)
{
    if (idx >= HART_NTRIG) return;
    h->tdata1[idx] = UINT64_C(15) << 60; /* disabled */
    h->tdata2[idx] = 0;
    hart_update_xlate(h, false);
}

/* ---- translation ---- */

static const uint64_t fault_cause[3] = {CAUSE_LOAD_PAGE_FAULT, CAUSE_STORE_PAGE_FAULT,
                                        CAUSE_FETCH_PAGE_FAULT};
static const uint64_t access_cause[3] = {CAUSE_LOAD_ACCESS, CAUSE_STORE_ACCESS, CAUSE_FETCH_ACCESS};

/* Walks the page table; 0 = ok, else the cause. The physical addresses of the PTEs read
 * go to pte[*npte++] when pte is not NULL (the translator watches them). */
static uint64_t walk(hart *h, uint64_t va, int acc, unsigned priv, uint64_t *pa, uint64_t *pte_at,
                     unsigned *npte)
{
    unsigned levels = (h->satp >> 60) == 9 ? 4 : 3;
    unsigned vabits = 12 + 9 * levels;
    if ((uint64_t)((int64_t)(va << (64 - vabits)) >> (64 - vabits)) != va) return fault_cause[acc];
    uint64_t table = (h->satp & ((UINT64_C(1) << 44) - 1)) << 12;
    for (int lvl = (int)levels - 1; lvl >= 0; lvl--) {
        uint64_t pte_pa = table + ((va >> (12 + 9 * lvl)) & 511) * 8;
        /* The walk's own reads are S-mode accesses under the PMP. */
        uint64_t off = pte_pa - h->ram_base;
        if (!hart_pmp_ok(h, pte_pa, 8, ACC_LOAD, PRV_S) || off > h->ram_size - 8)
            return access_cause[acc];
        uint64_t pte;
        memcpy(&pte, h->ram + off, 8);
        if (pte_at) pte_at[(*npte)++] = pte_pa;
        if ((pte & PTE_RSVD) || !(pte & PTE_V) || ((pte & PTE_W) && !(pte & PTE_R)))
            return fault_cause[acc];
        uint64_t ppn = (pte & PTE_PPN) >> 10;
        if (!(pte & (PTE_R | PTE_X))) {
            if (pte & (PTE_A | PTE_D | PTE_U)) return fault_cause[acc];
            table = ppn << 12;
            continue;
        }
        if (pte & PTE_U) {
            if (priv == PRV_S && (acc == ACC_FETCH || !(h->mstatus & MSTATUS_SUM)))
                return fault_cause[acc];
        } else if (priv == PRV_U) {
            return fault_cause[acc];
        }
        bool ok = acc == ACC_FETCH ? (pte & PTE_X)
                  : acc == ACC_STORE
                      ? (pte & PTE_W)
                      : ((pte & PTE_R) || ((h->mstatus & MSTATUS_MXR) && (pte & PTE_X)));
        if (!ok) return fault_cause[acc];
        uint64_t span = UINT64_C(1) << (9 * lvl);      /* pages per leaf */
        if (ppn & (span - 1)) return fault_cause[acc]; /* misaligned superpage */
        if (!(pte & PTE_A) || (acc == ACC_STORE && !(pte & PTE_D))) return fault_cause[acc];
        *pa = ((ppn | ((va >> 12) & (span - 1))) << 12) | (va & 4095);
        return 0;
    }
    return fault_cause[acc];
}

bool hart_translate(hart *h, uint64_t va, unsigned n, int acc, uint64_t *pa, bool raise)
{
    unsigned priv = acc == ACC_FETCH ? h->priv : hart_data_priv(h);
    if (raise && acc != ACC_FETCH && trig_check(h, va, acc == ACC_LOAD ? MC_LOAD : MC_STORE))
        return false;
    uint64_t cause = 0;
    *pa = va;
    if (priv != PRV_M && (h->satp >> 60)) cause = walk(h, va, acc, priv, pa, NULL, NULL);
    if (!cause && !hart_pmp_ok(h, *pa, n, acc, priv)) cause = access_cause[acc];
    if (!cause) return true;
    if (raise) hart_raise(h, cause, va);
    return false;
}

bool hart_fetch_phys(hart *h, uint64_t va, unsigned n, uint64_t *pa, uint64_t pte[4],
                     unsigned *npte)
{
    *pa = va;
    *npte = 0;
    if (h->priv != PRV_M && (h->satp >> 60) && walk(h, va, ACC_FETCH, h->priv, pa, pte, npte))
        return false;
    return hart_pmp_ok(h, *pa, n, ACC_FETCH, h->priv);
}

bool hart_data_phys(hart *h, uint64_t va, int acc, uint64_t *pa, uint64_t pte[4], unsigned *npte)
{
    unsigned priv = hart_data_priv(h);
    *pa = va;
    *npte = 0;
    if (priv != PRV_M && (h->satp >> 60) && walk(h, va, acc, priv, pa, pte, npte)) return false;
    return hart_pmp_ok(h, *pa, 4096, acc, priv);
}
