/* xmem_region.h — the XMEM region model (XMEM 3.2, 4.3, 8; errata P-200..P-207): who may
 * touch a region, and what an XPHMG_MEMCTL descriptor does to one. Pure (no hart),
 * host-testable.
 *
 * A region is a live LDS allocation (xmem_lds_blk: base, size, tier, mclass, owning
 * domain, security tag, streaming profile, hybrid mark). Every engine access to it is
 * made by an actor — a domain and a security tag under the policy of one CAP snapshot —
 * and is refused when
 *   - the region's domain does not authorize the actor: always for a Tier-0 region
 *     (XMEM 3.2.7), for other tiers only with DESCPOL.STRICT_DOM = 1 (XMEM 3.2.9.1: there
 *     `dom` is otherwise a scheduling hint). The owner reads and writes; a region owned
 *     by DOM_ALL is read by every actor and written by none (XMEM 3.2.4 "shared read");
 *   - CAP.XMEM.CAP.SEC_DOM = 1 and the actor's tag is below the region's (public 0 <
 *     trusted 1 < secure 2, XMEM 8.1): SEC_VIOL. With SEC_DOM = 0 tags are ignored. */
#ifndef XPHMG_EXT_XMEM_REGION_H
#define XPHMG_EXT_XMEM_REGION_H

#include <stdbool.h>
#include <stdint.h>

#include "cap.h"
#include "xmem_lds.h"

/* Domain codes (errata Q-40). */
#define XMEM_DOM_CPU 1u
#define XMEM_DOM_RT  2u
#define XMEM_DOM_ALL 15u

/* CAP.XMEM.EVENTS bits this module raises (errata Q-38). */
#define XMEM_EV_SEC_VIOL   (UINT64_C(1) << 6)
#define XMEM_EV_HYB_FALLBK (UINT64_C(1) << 7)
#define XMEM_EV_DMA_ERR    (UINT64_C(1) << 3)

/* XPHMG_MEMCTL (XMEM 4.3, FMT_MEMCTL, errata Q-52): 24 bytes, little-endian. */
#define XMEM_MEMCTL_BYTES 24u
enum {
    XMEM_MC_DOM = 0,
    XMEM_MC_L1_HINT = 1,
    XMEM_MC_L2_HINT = 2,
    XMEM_MC_LDS_HINT = 3,
    XMEM_MC_LINE_SZ = 4,
    XMEM_MC_QOS = 6,
    XMEM_MC_LDS_SOFTPIN = 8,
    XMEM_MC_MCLASS = 16,
    XMEM_MC_SPROF_ID = 17,
    XMEM_MC_HYB = 18,
    XMEM_MC_SEC = 19,
    XMEM_MC_RSV0 = 20, /* TIER = bits 1:0 */
};

/* The 16- and 64-bit little-endian MEMCTL fields at byte offset off. */
uint64_t xmem_memctl_field(const uint8_t mc[XMEM_MEMCTL_BYTES], unsigned off, unsigned bytes);

/* Who makes an access and under which policy. */
typedef struct {
    unsigned dom; /* effective domain (errata Q-40 code, 0 taken as CPU) */
    unsigned sec; /* security tag */
    bool strict;  /* DESCPOL.STRICT_DOM */
    bool sec_dom; /* CAP.XMEM.CAP.SEC_DOM */
} xmem_actor;

/* Why an access was refused (bit set). */
#define XMEM_DENY_DOM 1u
#define XMEM_DENY_SEC 2u

/* The actor of domain dom (0 = CAP.XMEM.DOM of s, then 0 = CPU) and tag sec (ignored
 * unless s has SEC_DOM; 3 = reserved is taken as public) under the policy of s. */
xmem_actor xmem_actor_of(const cap_snap *s, unsigned dom, unsigned sec);
/* The same from the raw CAP.XMEM.CAP, DESCPOL and DOM values. */
xmem_actor xmem_actor_from(uint64_t xcap, uint64_t descpol, uint64_t dom_csr, unsigned dom,
                           unsigned sec);

/* The XMEM_DENY_* reasons that refuse actor a the access (a store when store) to region b;
 * 0 = allowed. */
unsigned xmem_region_deny(const xmem_lds_blk *b, const xmem_actor *a, bool store);

/* The region attribute word `xmem.region` returns (errata P-201): TIER 1:0, MCLASS 3:2,
 * SEC 5:4, SPROF 7:6, DOM 11:8, HYB 12, VALID 63. */
uint64_t xmem_region_word(const xmem_lds_blk *b);

/* True when a hybrid request (MEMCTL.hyb = 1) must fall back under s: HYB_ENABLE = 0,
 * or way partitioning with no CL2 ways (errata Q-58). */
bool xmem_hyb_fallback(const cap_snap *s);

typedef struct {
    uint64_t rd;     /* the region's new attribute word, 0 when refused */
    uint64_t events; /* CAP.XMEM.EVENTS bits to set */
} xmem_region_res;

/* `xmem.region` with a descriptor: applies the XPHMG_MEMCTL mc to the region whose base
 * is base, on behalf of actor a (who must pass the region's security check), under s.
 * Every non-zero supported field overrides the region's attribute, zero or unsupported
 * fields keep it (N-5, XMEM 4.3 "ignored safely"): l1_hint, line_sz (32/64/128), qos and
 * lds_softpin are kept as the region's cache hints (errata P-208..P-211), l2_hint and
 * lds_hint have nothing here to act on (P-212, P-213); a tier the region's partition cannot
 * hold refuses the whole descriptor (XMEM 3.2.5). Refused: rd = 0, nothing changes. */
xmem_region_res xmem_region_apply(xmem_lds *l, uint64_t base, const uint8_t mc[XMEM_MEMCTL_BYTES],
                                  const xmem_actor *a, const cap_snap *s);

#endif
