/* xphmg_ext.c — one place that wires the XPHMG units to a hart. */
#include "xphmg_ext.h"

#include <stdio.h>
#include <stdlib.h>

#include "xphmg_csr.h"

/* RTCAP is RT's discovery CSR (outside the CAP window): the profile's value, else the
 * XML reset value (errata Q-66: 0x3F). What it advertises is what RT then accepts.
 * REQ: RT-016 RT-024 */
static uint64_t rtcap_of(const cap_profile *prof)
{
    uint64_t v = RTCAP_RESET;
    cap_profile_value(prof, XPHMG_CSR_RTCAP, &v);
    return v;
}

/* An XMEM barrier or fence of wide enough scope completes the outstanding RT jobs.
 * REQ: XMEM-107 XMEM-112 */
static void drain_rt(hart *h, void *rt)
{
    rt_offload_drain(h, rt);
}

xphmg_ext *xphmg_ext_attach(hart *h, const cap_profile *prof, char *err, size_t errlen)
{
    xphmg_ext *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (cap_unit_attach(h, &e->cap, prof) ||
        pmask_unit_attach(h, &e->pmask, cap_discovery(&e->cap.cap, XPHMG_CSR_CAP_PMASK_CAP)) ||
        xmem_unit_attach(h, &e->xmem, &e->cap, &e->pmask) ||
        rt_unit_attach(h, &e->rt, &e->cap, &e->pmask, rtcap_of(prof))) {
        snprintf(err, errlen, "cannot attach the XPHMG units (CSR or opcode already owned)");
        free(e);
        return NULL;
    }
    /* REQ: RT-101 */
    e->rt.svfaulti = &e->xmem.svfaulti; /* RT reports its first-faulting ray there (P-322) */
    /* The RT offload engine is checked by the XMEM region model (errata P-203).
     * REQ: XMEM-133 RT-099 */
    e->rt.policy = (rt_mem_policy){xmem_job_begin, xmem_job_end, &e->xmem, NULL};
    /* rt.bbox / rt.tri read their records through the XMEM L1 model (P-224).
     * REQ: RT-022 XMEM-087 */
    e->rt.policy.l1_read = xmem_l1_read;
    /* ... and ordered by its barriers and fences (P-206).
     * REQ: XMEM-107 XMEM-112 */
    xmem_set_offload_drain(&e->xmem, drain_rt, &e->rt);
    return e;
}

void xphmg_ext_free(xphmg_ext *e)
{
    if (!e) return;
    xmem_unit_free(&e->xmem);
    rt_unit_free(&e->rt);
    free(e);
}

bool xphmg_ext_lds_window(const cap_profile *prof, uint64_t *base, uint64_t *size)
{
    cap_state c;
    cap_reset(&c, prof);
    uint64_t t0;
    xmem_lds_geometry(cap_discovery(&c, XPHMG_CSR_CAP_XMEM_CAP),
                      cap_discovery(&c, XPHMG_CSR_CAP_XMEM_PARAMS),
                      cap_discovery(&c, XPHMG_CSR_CAP_TIER_LDS), size, &t0);
    *base = XMEM_LDS_BASE;
    return *size != 0;
}
