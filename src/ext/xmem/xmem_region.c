/* xmem_region.c — the region model (errata P-200..P-207, docs/xmem.md "Regions"). */
#include "xmem_region.h"

#include "xphmg_csr.h"

/* Security tags (XMEM 8.1); 3 is reserved. */
#define SEC_MAX 2u

/* REQ: XMEM-011 XMEM-042 XMEM-062 */
static bool dom_supported(unsigned d)
{
    return (d >= 1 && d <= 6) || d == XMEM_DOM_ALL; /* errata Q-40 */
}

/* REQ: XMEM-058 */
uint64_t xmem_memctl_field(const uint8_t mc[XMEM_MEMCTL_BYTES], unsigned off, unsigned bytes)
{
    uint64_t v = 0;
    for (unsigned k = 0; k < bytes; k++)
        v |= (uint64_t)mc[off + k] << (8 * k);
    return v;
}

/* REQ: XMEM-013 XMEM-036 XMEM-114 XMEM-117 XMEM-061 */
xmem_actor xmem_actor_of(const cap_snap *s, unsigned dom, unsigned sec)
{
    return xmem_actor_from(cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_CAP),
                           cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_DESCPOL),
                           cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_DOM), dom, sec);
}

/* REQ: XMEM-013 XMEM-036 XMEM-114 XMEM-117 XMEM-061 */
xmem_actor xmem_actor_from(uint64_t xcap, uint64_t descpol, uint64_t dom_csr, unsigned dom,
                           unsigned sec)
{
    /* The domain: CAP.XMEM.DOM unless a descriptor names one, for the hart and for every
     * engine's job alike (CAP-150: CAP's memory defaults are consumed by every engine).
     * REQ: XMEM-013 XMEM-036 XMEM-075 CAP-150 */
    if (dom == 0) dom = (unsigned)(dom_csr & CAP_XMEM_DOM_DOM_MASK);
    xmem_actor a;
    a.dom = dom ? dom : XMEM_DOM_CPU;
    /* REQ: XMEM-114 XMEM-117 XMEM-061 (the security tag) */
    a.sec_dom = (xcap & CAP_XMEM_CAP_SEC_DOM_MASK) != 0;
    a.sec = a.sec_dom && sec <= SEC_MAX ? sec : 0;
    /* REQ: XMEM-021 XMEM-027 XMEM-029 XMEM-056 (DESCPOL.STRICT_DOM, bit 6) */
    a.strict = (descpol & CAP_XMEM_DESCPOL_STRICT_DOM_MASK) != 0;
    return a;
}

/* Only Tier-0 regions (or STRICT_DOM) check the owner: T1-T3 are visible to every engine
 * (XMEM 3.2.11, errata Q-59). */
/* REQ: XMEM-011 XMEM-021 XMEM-027 XMEM-029 XMEM-114 XMEM-118 XMEM-120 XMEM-012 XMEM-020
 * REQ: XMEM-033 */
unsigned xmem_region_deny(const xmem_lds_blk *b, const xmem_actor *a, bool store)
{
    unsigned deny = 0;
    if (b->tier == 0 || a->strict) {
        bool ok = b->dom == XMEM_DOM_ALL ? !store : b->dom == a->dom;
        if (!ok) deny |= XMEM_DENY_DOM;
    }
    if (a->sec_dom && a->sec < b->sec) deny |= XMEM_DENY_SEC;
    return deny;
}

/* The class field reports CLS_SHARED as 2 (errata Q-52), SEC the region's tag (XMEM 8.1). */
/* REQ: XMEM-009 XMEM-024 XMEM-032 XMEM-005 XMEM-008 XMEM-117 */
uint64_t xmem_region_word(const xmem_lds_blk *b)
{
    return (uint64_t)(b->tier & 3) | (uint64_t)(b->cls & 3) << 2 | (uint64_t)(b->sec & 3) << 4 |
           (uint64_t)(b->sprof & 3) << 6 | (uint64_t)(b->dom & 15) << 8 |
           (uint64_t)(b->hyb & 1) << 12 | UINT64_C(1) << 63;
}

/* REQ: XMEM-060 XMEM-056 (DESCPOL.HYB_ENABLE, bit 2) */
bool xmem_hyb_fallback(const cap_snap *s)
{
    uint64_t xcap = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_CAP);
    uint64_t descpol = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_DESCPOL);
    uint64_t clsmap = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_CLSMAP);
    bool way_part = (xcap & CAP_XMEM_CAP_WAY_PART_MASK) != 0;
    bool cl2_ways = (clsmap & CAP_XMEM_CLSMAP_CL2_WAYMASK_MASK) != 0;
    return !(descpol & CAP_XMEM_DESCPOL_HYB_ENABLE_MASK) || (way_part && !cl2_ways);
}

/* REQ: XMEM-042 XMEM-062 XMEM-137 XMEM-059 XMEM-060 XMEM-061 XMEM-009 XMEM-012 XMEM-024 XMEM-027
 * XMEM-005 XMEM-032 XMEM-117 XMEM-018 XMEM-010 XMEM-058 */
xmem_region_res xmem_region_apply(xmem_lds *l, uint64_t base, const uint8_t mc[XMEM_MEMCTL_BYTES],
                                  const xmem_actor *a, const cap_snap *s)
{
    xmem_region_res r = {0, 0};
    xmem_lds_blk *b = xmem_lds_at(l, base);
    if (!b) {
        r.events = XMEM_EV_INV_MISS; /* no region starts there */
        return r;
    }
    /* Changing a region is an access to it: a tag the actor does not dominate refuses
     * it, so a tag can be raised but never lowered from below (XMEM 8.2). */
    if (a->sec_dom && a->sec < b->sec) {
        r.events = XMEM_EV_SEC_VIOL;
        return r;
    }
    uint64_t xcap = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_CAP);
    uint64_t params = cap_snap_xmem(s, XPHMG_CSR_CAP_XMEM_PARAMS);
    unsigned tier = mc[XMEM_MC_RSV0] & 3u;
    /* Tier 0 cannot be asked for (0 = no override); T1-T3 are refused for a region of the
     * Tier-0 partition, which holds T0 regions only, and nothing moves (XMEM 3.2.5). */
    if (tier && b->tier == 0) {
        r.events = XMEM_EV_INV_MISS;
        return r;
    }
    xmem_lds_blk nb = *b;
    if (tier) nb.tier = (uint8_t)tier;
    unsigned dom = mc[XMEM_MC_DOM];
    if (dom_supported(dom)) nb.dom = (uint8_t)dom; /* a Tier-0 handoff moves no data */
    unsigned sec = mc[XMEM_MC_SEC];
    if ((xcap & CAP_XMEM_CAP_SEC_DOM_MASK) && sec >= 1 && sec <= SEC_MAX) nb.sec = (uint8_t)sec;
    unsigned sprof = mc[XMEM_MC_SPROF_ID];
    unsigned max_sprof =
        (unsigned)((params & CAP_XMEM_PARAMS_MAX_SPROF_MASK) >> CAP_XMEM_PARAMS_MAX_SPROF_SHIFT);
    if ((xcap & CAP_XMEM_CAP_STREAM_PROF_MASK) && sprof >= 1 && sprof <= max_sprof && sprof <= 3)
        nb.sprof = (uint8_t)sprof;
    /* Cache hints (errata P-208..P-211): never an attribute of the word, never data. */
    if (mc[XMEM_MC_L1_HINT]) nb.l1_hint = mc[XMEM_MC_L1_HINT];
    unsigned line_sz = (unsigned)xmem_memctl_field(mc, XMEM_MC_LINE_SZ, 2);
    if (line_sz == 32 || line_sz == 64 || line_sz == 128) nb.line_sz = (uint16_t)line_sz;
    unsigned qos = (unsigned)xmem_memctl_field(mc, XMEM_MC_QOS, 2);
    if (qos) nb.qos = (uint16_t)qos;
    uint64_t softpin = xmem_memctl_field(mc, XMEM_MC_LDS_SOFTPIN, 8);
    if (softpin) nb.lds_softpin = softpin;
    /* Class: a supported mclass wins; else hyb = 1 asks for CL2 (XMEM 4.3), which the
     * HYB_FALLBK rule may refuse. Without CLASS_PART every region stays CL0. */
    bool class_part = (xcap & CAP_XMEM_CAP_CLASS_PART_MASK) != 0;
    unsigned mclass = mc[XMEM_MC_MCLASS], cls = b->cls;
    if (mc[XMEM_MC_HYB] == 1) {
        nb.hyb = 1;
        if (xmem_hyb_fallback(s))
            r.events |= XMEM_EV_HYB_FALLBK;
        else if (class_part)
            cls = 2;
    }
    if (class_part && mclass >= 1 && mclass <= 3) cls = mclass;
    *b = nb;
    if (cls != b->cls) r.events |= xmem_lds_recharge(l, b, cls, s);
    r.rd = xmem_region_word(b);
    return r;
}
