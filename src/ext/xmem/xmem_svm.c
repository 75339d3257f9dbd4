/* xmem_svm.c — SVMEM gather/scatter semantics (see xmem_svm.h). */
#include "xmem_svm.h"

#include "xphmg_csr.h"

#define GET(v, F) ((unsigned)(((v)&F##_MASK) >> F##_SHIFT))

/* The CAP.XMEM.SVM* defaults of the instruction boundary's snapshot are what a gather or
 * scatter uses: `xmem.svm` has no instruction field or descriptor that overrides them
 * (errata Q-33's levels), so they always apply (CAP-025).
 * REQ: XMEM-063 XMEM-064 XMEM-065 XMEM-069 XMEM-074 XMEM-076 CAP-025 */
void xmem_svm_config(const cap_snap *s, uint64_t pred, xmem_svm_cfg *cfg)
{
    uint64_t scl = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_SVMSCL);
    uint64_t mode = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_SVMMODE);
    unsigned len = GET(cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_SVMLEN), CAP_XMEM_SVMLEN_LEN);
    static const unsigned idx_size[4] = {4, 8, 2, 1}; /* IDX_W (errata Q-39) */
    unsigned sl = GET(scl, CAP_XMEM_SVMSCL_SCALE_LOG2);

    cfg->base = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_SVMBASE);
    cfg->idx_ptr = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_SVMIDX);
    cfg->scale = 1u << (sl > 4 ? 4 : sl); /* the CSR already clamps (WARL); be safe */
    cfg->idx_size = idx_size[GET(scl, CAP_XMEM_SVMSCL_IDX_W)];
    cfg->idx_signed = GET(scl, CAP_XMEM_SVMSCL_SIGNED) != 0;
    cfg->scatter = GET(scl, CAP_XMEM_SVMSCL_GS) != 0;
    cfg->fof = GET(scl, CAP_XMEM_SVMSCL_FOF) != 0;
    /* SVMLEN 0 (or a value the WARL rule would have cleared) = EFF_EW (XMEM 5.1.1). */
    cfg->size = (len == 1 || len == 2 || len == 4 || len == 8) ? len : 1u << (s->ew & 3);
    cfg->oob_zero =
        GET(mode, CAP_XMEM_SVMMODE_BOUND_CHECK) && GET(mode, CAP_XMEM_SVMMODE_ALLOW_OOB_ZERO);
    cfg->bound_check = GET(mode, CAP_XMEM_SVMMODE_BOUND_CHECK) != 0;
    cfg->bound_lo = cfg->bound_size = 0;
    cfg->zmode = s->zmode;
    cfg->pred = pred;
}

/* Whether the element at ea lies inside the bound (errata P-205): out of range is
 * treated exactly like an inaccessible address. */
/* REQ: XMEM-067 XMEM-068 */
static bool in_bound(const xmem_svm_cfg *c, uint64_t ea)
{
    if (!c->bound_check || !c->bound_size) return true;
    uint64_t off = ea - c->bound_lo;
    return c->size <= c->bound_size && off <= c->bound_size - c->size;
}

/* The first element after i whose lane is enabled, or count when there is none: the
 * lanes in between issue no access (CAP-032).
 * REQ: XMEM-070 XMEM-071 CAP-032 */
static uint64_t next_enabled(uint64_t pred, uint64_t i, uint64_t count)
{
    if (pred == 0 || i + 1 >= count) return count;
    unsigned s = (unsigned)((i + 1) % 64);
    uint64_t rot = s ? (pred >> s) | (pred << (64 - s)) : pred;
    uint64_t d = (uint64_t)__builtin_ctzll(rot);
    return d >= count - (i + 1) ? count : i + 1 + d;
}

/* REQ: XMEM-064 XMEM-072 */
static uint64_t extend(uint64_t v, unsigned bytes, bool sign)
{
    if (bytes >= 8) return v;
    unsigned sh = 64 - 8 * bytes;
    return sign ? (uint64_t)((int64_t)(v << sh) >> sh) : (v << sh) >> sh;
}

/* One element; false = fault of this element with *store / *addr describing it. */
/* REQ: XMEM-065 XMEM-071 XMEM-072 XMEM-067 XMEM-068 XMEM-066 XMEM-077 */
static bool element(const xmem_svm_cfg *c, const xmem_svm_mem *m, uint64_t buf, uint64_t i,
                    bool *oob, bool *store, uint64_t *addr)
{
    uint64_t slot = buf + i * c->size;
    /* CAP 2.3 #4/#5: no memory access; a zeroing gather writes its destination.
     * REQ: XMEM-065 XMEM-071 XMEM-072 XMEM-067 XMEM-068 XMEM-066 XMEM-077 CAP-032 */
    bool pred = (c->pred >> (i % 64)) & 1;
    if (!pred) {
        if (c->scatter || !c->zmode) return true;
        *store = true;
        *addr = slot;
        return m->store(m->ctx, slot, c->size, 0);
    }
    /* REQ: XMEM-065 XMEM-071 XMEM-072 XMEM-067 XMEM-068 XMEM-066 XMEM-077 */
    uint64_t raw, ia = c->idx_ptr + i * c->idx_size;
    if (!m->load(m->ctx, ia, c->idx_size, &raw)) {
        *store = false;
        *addr = ia;
        return false;
    }
    uint64_t ea = c->base + extend(raw, c->idx_size, c->idx_signed) * c->scale;
    uint64_t v;
    if (c->scatter) {
        if (!m->load(m->ctx, slot, c->size, &v)) {
            *store = false;
            *addr = slot;
            return false;
        }
        if (in_bound(c, ea) && m->store(m->ctx, ea, c->size, v)) return true;
        if (c->oob_zero) { /* dropped (errata Q-48) */
            *oob = true;
            return true;
        }
        *store = true;
        *addr = ea;
        return false;
    }
    if (!in_bound(c, ea) || !m->load(m->ctx, ea, c->size, &v)) {
        if (!c->oob_zero) {
            *store = false;
            *addr = ea;
            return false;
        }
        *oob = true; /* reads 0 (errata Q-48) */
        v = 0;
    }
    *store = true;
    *addr = slot;
    return m->store(m->ctx, slot, c->size, v);
}

/* REQ: XMEM-066 XMEM-077 XMEM-070 XMEM-071 XMEM-134 */
void xmem_svm_exec(const xmem_svm_cfg *c, const xmem_svm_mem *m, uint64_t buf, uint64_t count,
                   xmem_svm_result *r)
{
    r->events = 0;
    r->performed = 0;
    r->fault_store = false;
    r->tval = 0;
    /* Predicate-false elements of a scatter or a merging gather have no effect at all:
     * skip to the next enabled lane (a huge count with an empty mask ends at once).
     * REQ: XMEM-066 XMEM-077 XMEM-070 XMEM-071 XMEM-134 CAP-032 */
    bool skip_masked = c->scatter || !c->zmode;
    uint64_t i = 0;
    while (i < count) {
        if (skip_masked && !((c->pred >> (i % 64)) & 1)) {
            i = next_enabled(c->pred, i, count);
            continue;
        }
        /* REQ: XMEM-066 XMEM-077 XMEM-070 XMEM-071 XMEM-134 */
        bool oob = false, store = false;
        uint64_t addr = 0;
        r->performed++;
        bool ok = element(c, m, buf, i, &oob, &store, &addr);
        if (oob) r->events |= CAP_XMEM_EVENTS_INV_MISS_MASK;
        if (!ok) {
            /* The faulting element's index goes to SVFAULTI; under FOF past element 0
             * the operation stops there (CAP-143).
             * REQ: XMEM-066 XMEM-077 XMEM-070 XMEM-071 XMEM-134 CAP-143 */
            r->events |= CAP_XMEM_EVENTS_INV_MISS_MASK; /* errata Q-58 */
            r->svfaulti = i;
            r->rd = i;
            if (c->fof && i > 0) {
                r->status = XMEM_SVM_FOF_STOP;
            } else {
                r->status = XMEM_SVM_TRAP;
                r->fault_store = store;
                r->tval = addr;
            }
            return;
        }
        /* REQ: XMEM-066 XMEM-077 XMEM-070 XMEM-071 XMEM-134 */
        i++;
    }
    r->status = XMEM_SVM_DONE;
    r->rd = count;
    r->svfaulti = XMEM_SVFAULTI_DONE;
}
