/* cap.c — the XPHMG_CAP CSR file. Layouts come from the generated xphmg_csr.h macros
 * and the xcsr table; this file only holds the behaviour (errata "## CAP"). */
#include "cap.h"

#include <string.h>

#include "cap_profile.h"
#include "xcsr.h"
#include "xphmg_csr.h"

#define IDX(a)       ((a)-CAP_CSR_LO)
#define GET(v, F)    ((unsigned)(((v)&F##_MASK) >> F##_SHIFT))
#define PUT(v, F, x) (((v) & ~F##_MASK) | (((uint64_t)(x) << F##_SHIFT) & F##_MASK))

/* STAT bits that are stickies rather than mirrors (errata Q-26). */
#define STAT_STICKY                                                                                \
    (CAP_PREC_STAT_UNSUP_FMT_MASK | CAP_PREC_STAT_SAT_HIT_MASK | CAP_PREC_STAT_FTZ_HIT_MASK |      \
     CAP_PREC_STAT_DOWNCAST_TAKEN_MASK)

/* REQ: CAP-033 CAP-034 CAP-035 CAP-038 CAP-039 */
bool cap_csr_in_window(uint32_t addr)
{
    return addr >= CAP_CSR_LO && addr <= CAP_CSR_HI;
}

/* REQ: CAP-076 */
static uint64_t rd(const cap_state *c, uint32_t a)
{
    return c->reg[IDX(a)];
}

/* Fields tied to an XMEM feature that CAP.XMEM.CAP reports absent read zero and ignore
 * writes (CAP 4.6 #2, errata XMEM Q-38). */
/* REQ: CAP-133 CAP-135 CAP-140 XMEM-001 */
static uint64_t xmem_gated(const cap_state *c, uint32_t a)
{
    uint64_t cap = rd(c, XPHMG_CSR_CAP_XMEM_CAP);
    bool way = cap & CAP_XMEM_CAP_WAY_PART_MASK, lock = cap & CAP_XMEM_CAP_LINE_LOCK_MASK;
    bool stream = cap & CAP_XMEM_CAP_STREAM_PROF_MASK, comp = cap & CAP_XMEM_CAP_COMPRESS_MASK;
    bool cls = cap & CAP_XMEM_CAP_CLASS_PART_MASK, sec = cap & CAP_XMEM_CAP_SEC_DOM_MASK;
    bool xdma = cap & CAP_XMEM_CAP_XDMA_MASK;
    switch (a) {
    case XPHMG_CSR_CAP_XMEM_CLSMAP:
        return way ? 0
                   : CAP_XMEM_CLSMAP_CL0_WAYMASK_MASK | CAP_XMEM_CLSMAP_CL1_WAYMASK_MASK |
                         CAP_XMEM_CLSMAP_CL2_WAYMASK_MASK | CAP_XMEM_CLSMAP_CL3_WAYMASK_MASK;
    case XPHMG_CSR_CAP_XMEM_L1CFG:
        return (lock ? 0 : CAP_XMEM_L1CFG_LOCK_EN_MASK) |
               (cls ? 0 : CAP_XMEM_L1CFG_ACTIVE_CLASS_MASK);
    case XPHMG_CSR_CAP_XMEM_LDS_BUDGET:
        return cls ? 0 : ~UINT64_C(0);
    case XPHMG_CSR_CAP_XMEM_L2CFG:
        return comp ? 0 : CAP_XMEM_L2CFG_COMP_THR_MASK;
    case XPHMG_CSR_CAP_XMEM_STREAM_CTL:
    case XPHMG_CSR_CAP_XMEM_SPROF0:
    case XPHMG_CSR_CAP_XMEM_SPROF1:
    case XPHMG_CSR_CAP_XMEM_SPROF2:
    case XPHMG_CSR_CAP_XMEM_SPROF3:
        return stream ? 0 : ~UINT64_C(0);
    case XPHMG_CSR_CAP_XMEM_COMP_CTL:
        return comp ? 0 : ~UINT64_C(0);
    case XPHMG_CSR_CAP_XMEM_SVMMODE:
        return comp ? 0 : CAP_XMEM_SVMMODE_COMPRESS_EN_MASK | CAP_XMEM_SVMMODE_EXPAND_EN_MASK;
    case XPHMG_CSR_CAP_XMEM_EVENTS:
        return (lock ? 0 : CAP_XMEM_EVENTS_LOCK_OVF_MASK) |
               (comp ? 0 : CAP_XMEM_EVENTS_COMP_ERR_MASK) |
               (sec ? 0 : CAP_XMEM_EVENTS_SEC_VIOL_MASK) |
               (xdma ? 0 : CAP_XMEM_EVENTS_DMA_ERR_MASK);
    default:
        return 0;
    }
}

/* Precision fields whose capability the profile lacks read zero and ignore writes
 * (CAP 5.2.3, errata P-178): all of ALT without any ALT format, the quantization fields
 * without any quantized integer format. */
/* REQ: CAP-010 CAP-097 CAP-153 */
static uint64_t prec_gated(const cap_state *c, uint32_t a)
{
    uint64_t intq = rd(c, XPHMG_CSR_CAP_PREC_INTQ);
    bool quant =
        intq & (CAP_PREC_INTQ_INT8_MASK | CAP_PREC_INTQ_INT4_MASK | CAP_PREC_INTQ_INT2_MASK);
    switch (a) {
    case XPHMG_CSR_CAP_PREC_MODE:
        return quant ? 0
                     : CAP_PREC_MODE_Q_MASK | CAP_PREC_MODE_ZP_EN_MASK | CAP_PREC_MODE_ZP_MASK |
                           CAP_PREC_MODE_SCALE_SH_MASK;
    case XPHMG_CSR_CAP_PREC_ALT:
        if (!GET(rd(c, XPHMG_CSR_CAP_PREC_CAP), CAP_PREC_CAP_ALT_SUP))
            return ~CAP_PREC_ALT_APPLY1_MASK;
        return quant ? 0 : CAP_PREC_ALT_ZP_MASK | CAP_PREC_ALT_ZP_OFFS_MASK;
    default:
        return 0;
    }
}

/* Everything that reads zero and ignores writes because a feature is absent. */
/* REQ: CAP-010 CAP-133 CAP-153 */
static uint64_t gated(const cap_state *c, uint32_t a)
{
    return xmem_gated(c, a) | prec_gated(c, a);
}

/* WARL fields with a stated legal set (errata Q-11, XMEM Q-39). */
/* REQ: CAP-010 CAP-145 CAP-146 */
static uint64_t xmem_warl(uint32_t a, uint64_t v)
{
    switch (a) {
    case XPHMG_CSR_CAP_XMEM_L1CFG:
        if (GET(v, CAP_XMEM_L1CFG_ACTIVE_CLASS) > 3) v = PUT(v, CAP_XMEM_L1CFG_ACTIVE_CLASS, 3);
        return v;
    case XPHMG_CSR_CAP_XMEM_SVMSCL:
        if (GET(v, CAP_XMEM_SVMSCL_SCALE_LOG2) > 4) v = PUT(v, CAP_XMEM_SVMSCL_SCALE_LOG2, 4);
        return v;
    case XPHMG_CSR_CAP_XMEM_SVMLEN: {
        unsigned n = GET(v, CAP_XMEM_SVMLEN_LEN);
        if (n != 1 && n != 2 && n != 4 && n != 8) v = PUT(v, CAP_XMEM_SVMLEN_LEN, 0);
        return v;
    }
    default:
        return v;
    }
}

/* ---- EFF composition (CAP 4.4.2.3, errata Q-17..Q-31) ---- */

/* ALT_FMT code -> unified EFF_PET code (errata Q-17); 0 = none/reserved. */
/* REQ: CAP-103 CAP-104 CAP-105 CAP-106 CAP-107 CAP-109 */
static unsigned alt_pet(unsigned fmt)
{
    /* BF16_LITE: effective PET BF16 (CAP 4.4.2.2 mapping table, errata P-179). */
    static const unsigned char map[6] = {0,          CAP_T_BF16, CAP_T_E4M3,
                                         CAP_T_E5M2, CAP_T_INT4, CAP_T_INT2};
    return fmt < 6 ? map[fmt] : 0;
}

/* REQ: CAP-011 CAP-083 CAP-114 CAP-154 */
static void recompute(cap_state *c)
{
    uint64_t cap = rd(c, XPHMG_CSR_CAP_PREC_CAP), intq = rd(c, XPHMG_CSR_CAP_PREC_INTQ);
    unsigned pet_sup = GET(cap, CAP_PREC_CAP_PET_SUP), ew_sup = GET(cap, CAP_PREC_CAP_EW_SUP);
    unsigned accw_sup = GET(cap, CAP_PREC_CAP_ACCW_SUP), alt_sup = GET(cap, CAP_PREC_CAP_ALT_SUP);
    /* An APPLY that asked for an absent field is a precision omission (P-178). */
    bool unsup = c->mode_applied_absent || c->alt_applied_absent;

    /* Base: MODE's applied image, unsupported selections replaced by the previous
     * effective field. */
    uint64_t m = c->mode_applied, prev = c->base_eff, b = m;
    unsigned pet = GET(m, CAP_PREC_MODE_PET), ew = GET(m, CAP_PREC_MODE_EW);
    unsigned accw = GET(m, CAP_PREC_MODE_ACCW), pack = GET(m, CAP_PREC_MODE_PACK);
    unsigned zpen = GET(m, CAP_PREC_MODE_ZP_EN);
#define KEEP(ok, F)                                                                                \
    if (!(ok)) {                                                                                   \
        b = (b & ~F##_MASK) | (prev & F##_MASK);                                                   \
        unsup = true;                                                                              \
    }
    /* A clear support bit means unsupported: discovery is truthful (CAP-057).
     * REQ: CAP-011 CAP-057 CAP-108 CAP-154 */
    KEEP((pet_sup >> pet) & 1, CAP_PREC_MODE_PET)
    KEEP((ew_sup >> ew) & 1, CAP_PREC_MODE_EW)
    KEEP((accw_sup >> accw) & 1, CAP_PREC_MODE_ACCW)
    /* Codes the spec leaves undefined, with no discovery bit behind them.
     * REQ: CAP-011 CAP-108 CAP-154 */
    KEEP(pack <= 2, CAP_PREC_MODE_PACK)
    KEEP(zpen != 3, CAP_PREC_MODE_ZP_EN)
#undef KEEP
    /* PREC.INTQ.PER_CHANNEL clear: per-channel zero points are not supported.
     * REQ: CAP-011 CAP-057 CAP-108 CAP-154 */
    if (zpen == 2 && !(intq & CAP_PREC_INTQ_PER_CHANNEL_MASK)) {
        b = PUT(b, CAP_PREC_MODE_ZP_EN, 1); /* per-channel -> per-tensor ZP */
        unsup = true;
    }
    c->base_eff = b;

    /* REQ: CAP-057 CAP-109 CAP-114 */
    /* ALT (CAP 4.4.2.2/4.4.2.3): only a supported format, version 0, a legal minimum
     * PACK and a supported ALT_ACCW make ALT effective; otherwise EFF = MODE. */
    uint64_t a = c->alt_applied;
    bool alt = false;
    unsigned fmt = GET(a, CAP_PREC_ALT_ALT_FMT), aaccw = GET(a, CAP_PREC_ALT_ALT_ACCW);
    if (GET(a, CAP_PREC_ALT_ALT_EN)) {
        alt = alt_pet(fmt) && ((alt_sup >> fmt) & 1) && GET(a, CAP_PREC_ALT_VER) == 0 &&
              GET(a, CAP_PREC_ALT_PACK) <= 2 && (aaccw == 0 || ((accw_sup >> aaccw) & 1));
        if (!alt) unsup = true;
    }

    /* REQ: CAP-099 CAP-101 CAP-102 CAP-103 CAP-104 CAP-105 */
    /* REQ: CAP-106 CAP-107 CAP-108 CAP-109 CAP-111
     * REQ: CAP-090 (the EW codes an ALT format selects: 01 = 16, 00 = 8 bits) */
    unsigned e_pet = GET(b, CAP_PREC_MODE_PET), e_ew = GET(b, CAP_PREC_MODE_EW);
    unsigned e_accw = GET(b, CAP_PREC_MODE_ACCW), e_pack = GET(b, CAP_PREC_MODE_PACK);
    unsigned e_sat = GET(b, CAP_PREC_MODE_SAT);
    bool q = GET(b, CAP_PREC_MODE_Q);
    unsigned e_zp = GET(b, CAP_PREC_MODE_ZP);
    if (alt) {
        e_pet = alt_pet(fmt);
        e_ew = fmt == 1 ? 1 : 0;   /* BF16_LITE: EW 16; FP8/INT4/INT2: EW 8 */
        if (aaccw) e_accw = aaccw; /* ALT_ACCW codes 1-3 equal the ACCW codes */
        e_sat |= GET(a, CAP_PREC_ALT_ALT_SAT);
        unsigned minp = GET(a, CAP_PREC_ALT_PACK);
        unsigned force = e_pet == CAP_T_INT4 ? 1 : e_pet == CAP_T_INT2 ? 2 : 0;
        if (minp > e_pack) e_pack = minp;
        if (force > e_pack) e_pack = force;
        /* ALT.ZP replaces MODE.ZP, plus ZP_OFFS (errata, CAP section). */
        e_zp = (GET(a, CAP_PREC_ALT_ZP) + GET(a, CAP_PREC_ALT_ZP_OFFS)) & 0xff;
    }
    /* REQ: CAP-078 CAP-110 CAP-112 CAP-113 CAP-117 CAP-118 CAP-119 CAP-120 */
    /* REQ: CAP-148 */
    bool sae = GET(b, CAP_PREC_MODE_SAE_DEF) | GET(b, CAP_PREC_MODE_SAE);

    uint64_t s = rd(c, XPHMG_CSR_CAP_PREC_STAT) & (STAT_STICKY & ~CAP_PREC_STAT_UNSUP_FMT_MASK);
    if (unsup) s |= CAP_PREC_STAT_UNSUP_FMT_MASK;
    s = PUT(s, CAP_PREC_STAT_EFF_PET, e_pet);
    s = PUT(s, CAP_PREC_STAT_EFF_EW, e_ew);
    s = PUT(s, CAP_PREC_STAT_EFF_ACCW, e_accw);
    s = PUT(s, CAP_PREC_STAT_EFF_ALT_EN, alt);
    s = PUT(s, CAP_PREC_STAT_EFF_SAT, e_sat);
    s = PUT(s, CAP_PREC_STAT_EFF_FP_RMODE, GET(b, CAP_PREC_MODE_FP_RMODE));
    s = PUT(s, CAP_PREC_STAT_EFF_Q, q);
    s = PUT(s, CAP_PREC_STAT_EFF_PACK, e_pack);
    s = PUT(s, CAP_PREC_STAT_EFF_ZMODE, GET(b, CAP_PREC_MODE_ZMODE));
    s = PUT(s, CAP_PREC_STAT_EFF_SAE, sae);
    s = PUT(s, CAP_PREC_STAT_EFF_NAN_POL, GET(b, CAP_PREC_MODE_NAN_POL));
    s = PUT(s, CAP_PREC_STAT_IE_MASK, sae ? 0 : rd(c, XPHMG_CSR_CAP_PREC_EXC_EN) & 0x1f);
    s = PUT(s, CAP_PREC_STAT_EFF_UNS, GET(b, CAP_PREC_MODE_UNS));
    s = PUT(s, CAP_PREC_STAT_EFF_SAT_MODE, GET(b, CAP_PREC_MODE_SAT_MODE));
    s = PUT(s, CAP_PREC_STAT_EFF_DENORM_FTZ, GET(b, CAP_PREC_MODE_DENORM_FTZ));
    s = PUT(s, CAP_PREC_STAT_EFF_MIXED, alt && GET(a, CAP_PREC_ALT_MIXED));
    /* ZP_EN/ZP/SCALE_SH take effect only with Q=1 (CAP 4.4.2.3). */
    s = PUT(s, CAP_PREC_STAT_EFF_ZP_EN, q ? GET(b, CAP_PREC_MODE_ZP_EN) : 0);
    s = PUT(s, CAP_PREC_STAT_EFF_ZP, q ? e_zp : 0);
    s = PUT(s, CAP_PREC_STAT_EFF_SCALE_SH, q ? GET(b, CAP_PREC_MODE_SCALE_SH) : 0);
    c->reg[IDX(XPHMG_CSR_CAP_PREC_STAT)] = s;
}

/* ---- Reset, read, write ---- */

/* The profile's (or the spec's reset) discovery values, FLAGS among them (CAP-050); the
 * reset values are the XML's (errata Q-43: CLSMAP all ways to CL0, DESCPOL HYB_ENABLE).
 * REQ: CAP-047 CAP-048 CAP-050 CAP-122 CAP-159 CAP-160 CAP-161 CAP-163
 * REQ: XMEM-126 XMEM-127 XMEM-128 XMEM-129 XMEM-130 */
void cap_reset(cap_state *c, const cap_profile *prof)
{
    memset(c, 0, sizeof *c);
    c->prof = prof;
    for (uint32_t a = CAP_CSR_LO; a <= CAP_CSR_HI; a++) {
        const xcsr_reg *r = xcsr_find(a);
        uint64_t v = r ? r->reset & r->defined : 0;
        uint64_t pv;
        if (r && cap_profile_value(prof, a, &pv)) v = pv & r->defined;
        c->disc[IDX(a)] = v;
        c->reg[IDX(a)] = v;
    }
    for (uint32_t a = CAP_CSR_LO; a <= CAP_CSR_HI; a++)
        c->reg[IDX(a)] &= ~gated(c, a);
    c->mode_applied = c->base_eff = rd(c, XPHMG_CSR_CAP_PREC_MODE);
    c->alt_applied = rd(c, XPHMG_CSR_CAP_PREC_ALT);
    c->reg[IDX(XPHMG_CSR_CAP_PREC_STAT)] = 0;
    recompute(c); /* the reset state is applied (errata Q-32) */
}

/* A profile switch is this one CSR write, so it lands between instructions (CAP-068),
 * and changes advisory values only, never correctness (CAP-064, CAP-075).
 * REQ: CAP-051 CAP-052 CAP-053 CAP-064 CAP-065 CAP-068 CAP-069 CAP-070 CAP-075 */
bool cap_prof_select(cap_state *c, unsigned idx)
{
    uint64_t sup = rd(c, XPHMG_CSR_CAP_PROF_SUP);
    if (idx >= 32 || !((sup >> idx) & 1)) return false; /* WARL: CUR stays in SUP */
    c->reg[IDX(XPHMG_CSR_CAP_PROF_CUR)] = c->disc[IDX(XPHMG_CSR_CAP_PROF_CUR)] = idx;
    if (!GET(rd(c, XPHMG_CSR_CAP_FLAGS), CAP_FLAGS_RUNTIME_MUTABLE)) return true;
    for (uint32_t a = CAP_CSR_LO; a <= CAP_CSR_HI; a++) {
        uint64_t v;
        if (!cap_profile_is_advisory(a) || !cap_profile_value_at(c->prof, idx, a, &v)) continue;
        c->reg[IDX(a)] = c->disc[IDX(a)] = v & xcsr_find(a)->defined;
    }
    return true;
}

/* REQ: CAP-018 CAP-034 CAP-036 CAP-056 CAP-077 CAP-082 CAP-129 CAP-164 XMEM-131 */
bool cap_csr_read(const cap_state *c, uint32_t addr, uint64_t *val)
{
    if (addr == CAP_CSR_PROF_SEL) {
        *val = rd(c, XPHMG_CSR_CAP_PROF_CUR);
        return true;
    }
    if (addr >= CAP_RSV_LO && addr <= CAP_RSV_HI) { /* unimplemented block */
        *val = 0;
        return true;
    }
    if (!cap_csr_in_window(addr)) return false;
    const xcsr_reg *r = xcsr_find(addr);
    *val = r ? c->reg[IDX(addr)] & r->defined & ~gated(c, addr) : 0;
    return true;
}

/* The format capability CSRs are read-only here: a write never changes precision or
 * policy (CAP-130); an RW register such as XMEM.DOM holds what was written (CAP-141);
 * a 1 written to a W1C bit, such as an XMEM.EVENTS sticky, clears it (CAP-142).
 * REQ: CAP-036 CAP-041 CAP-042 CAP-045 CAP-046 CAP-055 CAP-063 CAP-073 CAP-076 CAP-081
 * REQ: CAP-082 CAP-129 CAP-130 CAP-132 CAP-138 CAP-141 CAP-142 CAP-145 CAP-164 */
bool cap_csr_write(cap_state *c, uint32_t addr, uint64_t val)
{
    if (addr == CAP_CSR_PROF_SEL) {
        cap_prof_select(c, (unsigned)GET(val, CAP_PROF_SEL_IDX));
        return true;
    }
    if (addr >= CAP_RSV_LO && addr <= CAP_RSV_HI) return true; /* ignored */
    if (!cap_csr_in_window(addr)) return false;
    const xcsr_reg *r = xcsr_find(addr);
    if (!r) return true; /* unassigned address: reads 0, ignores writes (CAP 3.1 #3) */
    /* A sign-extended 32-bit MODE value (bit 63 set) writes no scale: the section 6
     * sequences stay what their comments say however the constant was extended. */
    if (addr == XPHMG_CSR_CAP_PREC_MODE && (val >> 63)) val &= ~CAP_PREC_MODE_SCALE_SH_MASK;
    uint64_t g = gated(c, addr), w = r->writable & ~g;
    uint64_t *p = &c->reg[IDX(addr)];
    uint64_t nv = (*p & ~w) | (val & w);
    /* REQ: CAP-042 CAP-126 CAP-132 XMEM-122 (W1C: a 1 clears, a 0 keeps) */
    nv &= ~(val & r->w1c & ~g); /* W1C: a 1 clears (CAP 4 rule 3, errata Q-84) */
    switch (addr) {
    /* REQ: CAP-043 CAP-045 CAP-084 CAP-098 CAP-116 CAP-120 CAP-126 */
    /* REQ: CAP-156 CAP-151 (staged values are not used) CAP-152 (an APPLY of a read-back
     * value reinstates the same state) */
    case XPHMG_CSR_CAP_PREC_MODE:
        *p = nv & ~CAP_PREC_MODE_APPLY0_MASK; /* APPLY0 reads 0 */
        c->mode_asked_absent |= (val & g & r->defined) != 0;
        if (val & CAP_PREC_MODE_APPLY0_MASK) {
            c->mode_applied = *p;
            c->mode_applied_absent = c->mode_asked_absent;
            c->mode_asked_absent = false;
            goto apply;
        }
        return true;
    case XPHMG_CSR_CAP_PREC_ALT:
        *p = nv & ~CAP_PREC_ALT_APPLY1_MASK;
        c->alt_asked_absent |= (val & g & r->defined) != 0;
        if (val & CAP_PREC_ALT_APPLY1_MASK) {
            c->alt_applied = *p;
            c->alt_applied_absent = c->alt_asked_absent;
            c->alt_asked_absent = false;
            goto apply;
        }
        return true;
    default:
        /* XMEM/SVMEM writes: no APPLY, and never UNSUP_FMT (CAP-155).
         * REQ: CAP-010 CAP-041 CAP-042 CAP-132 CAP-134 CAP-155 */
        *p = xmem_warl(addr, nv);
        return true;
    }
apply:
    /* REQ: CAP-116 CAP-120 CAP-126 */
    /* Any APPLY clears STAT's stickies, then may set UNSUP_FMT itself (errata Q-26). */
    c->reg[IDX(XPHMG_CSR_CAP_PREC_STAT)] &= ~STAT_STICKY;
    recompute(c);
    return true;
}

/* ---- Snapshot, flags, traps ---- */

/* REQ: CAP-003 CAP-004 CAP-006 CAP-008 CAP-085 CAP-087 CAP-092 CAP-093 CAP-094 CAP-112
 * REQ: CAP-147 (the one mapping of EFF onto the numeric engine, for every domain)
 * REQ: CAP-001 (every domain's numeric and memory policy is read from CAP here)
 * REQ: CAP-134 (XMEM/SVMEM writes reach an instruction through the snapshot taken at its
 * boundary) */
void cap_snapshot(const cap_state *c, cap_snap *s)
{
    uint64_t st = rd(c, XPHMG_CSR_CAP_PREC_STAT);
    memset(s, 0, sizeof *s);
    s->stat = st;
    s->pet = (uint8_t)GET(st, CAP_PREC_STAT_EFF_PET);
    s->ew = (uint8_t)GET(st, CAP_PREC_STAT_EFF_EW);
    s->accw = (uint8_t)GET(st, CAP_PREC_STAT_EFF_ACCW);
    s->pack = (uint8_t)GET(st, CAP_PREC_STAT_EFF_PACK);
    s->uns = GET(st, CAP_PREC_STAT_EFF_UNS);
    s->mixed = GET(st, CAP_PREC_STAT_EFF_MIXED);
    s->zmode = GET(st, CAP_PREC_STAT_EFF_ZMODE);
    s->sae = GET(st, CAP_PREC_STAT_EFF_SAE);
    s->exc_en = (uint32_t)(rd(c, XPHMG_CSR_CAP_PREC_EXC_EN) & 0x1f);
    s->alu_sup = (uint32_t)rd(c, XPHMG_CSR_CAP_PREC_ALU);
    for (uint32_t i = 0; i < CAP_XMEM_COUNT; i++)
        cap_csr_read(c, CAP_XMEM_LO + i, &s->xmem[i]);

    num_policy *p = &s->pol;
    *p = num_policy_default();
    p->rm = (num_rm)GET(st, CAP_PREC_STAT_EFF_FP_RMODE); /* RNE RTZ RDN RUP = rm 0-3 */
    p->sat = GET(st, CAP_PREC_STAT_EFF_SAT);
    p->sat_mode = GET(st, CAP_PREC_STAT_EFF_SAT_MODE) ? NUM_SAT_SYMMETRIC : NUM_SAT_CLAMP;
    p->ftz = GET(st, CAP_PREC_STAT_EFF_DENORM_FTZ);
    p->nan_pol = (num_nan_pol)GET(st, CAP_PREC_STAT_EFF_NAN_POL);
    p->q = GET(st, CAP_PREC_STAT_EFF_Q);
    p->uns = s->uns;
    p->zp_en = (num_zp_mode)GET(st, CAP_PREC_STAT_EFF_ZP_EN);
    unsigned zp = GET(st, CAP_PREC_STAT_EFF_ZP);
    p->zp = s->uns ? (int32_t)zp : (int32_t)(int8_t)(uint8_t)zp; /* int8 / uint8 */
    unsigned sh = GET(st, CAP_PREC_STAT_EFF_SCALE_SH);
    p->scale_sh = (sh & 0x40) ? (int32_t)sh - 128 : (int32_t)sh; /* signed 7-bit */
}

/* The one read of the CAP.XMEM/SVMEM defaults by every domain's engine (SVMEM gather and
 * scatter, LDS, RT jobs).
 * REQ: CAP-006 CAP-025 CAP-131 CAP-137 CAP-150 */
uint64_t cap_snap_xmem(const cap_snap *s, uint32_t addr)
{
    return addr >= CAP_XMEM_LO && addr <= CAP_CSR_HI ? s->xmem[addr - CAP_XMEM_LO] : 0;
}

/* REQ: CAP-080 CAP-121 CAP-125 CAP-127 CAP-149 */
void cap_accrue(cap_state *c, num_flags f)
{
    c->reg[IDX(XPHMG_CSR_CAP_PREC_EXC_ST)] |= f & NUM_EXC_ST_MASK;
    uint64_t *s = &c->reg[IDX(XPHMG_CSR_CAP_PREC_STAT)];
    if (f & NUM_SAT_HIT) *s |= CAP_PREC_STAT_SAT_HIT_MASK;
    if (f & NUM_FTZ_HIT) *s |= CAP_PREC_STAT_FTZ_HIT_MASK;
    if (f & NUM_DOWNCAST_TAKEN) *s |= CAP_PREC_STAT_DOWNCAST_TAKEN_MASK;
}

/* REQ: CAP-011 */
void cap_note_unsupported(cap_state *c)
{
    c->reg[IDX(XPHMG_CSR_CAP_PREC_STAT)] |= CAP_PREC_STAT_UNSUP_FMT_MASK;
}

/* Every engine's events land here, sticky until a W1C write (XMEM 9.1); memory events
 * never go to UNSUP_FMT (CAP-155).
 * REQ: CAP-142 CAP-155 XMEM-001 XMEM-122 XMEM-123 */
void cap_xmem_event(cap_state *c, uint64_t ev)
{
    const xcsr_reg *r = xcsr_find(XPHMG_CSR_CAP_XMEM_EVENTS);
    c->reg[IDX(XPHMG_CSR_CAP_XMEM_EVENTS)] |=
        ev & r->defined & ~gated(c, XPHMG_CSR_CAP_XMEM_EVENTS);
}

/* REQ: CAP-079 CAP-086 CAP-124 CAP-128 */
num_flags cap_trap_flags(const cap_snap *s, num_flags flags)
{
    return num_trap_pending(flags, s->exc_en, s->sae);
}

/* REQ: CAP-089 */
int cap_type_fmt(unsigned code, bool uns)
{
    switch (code) {
    case CAP_T_FP16:
        return NUM_FP16;
    case CAP_T_FP32:
        return NUM_FP32;
    case CAP_T_BF16:
    case CAP_T_BF16_LITE: /* BF16 storage and arithmetic here (errata P-179) */
        return NUM_BF16;
    case CAP_T_E4M3:
        return NUM_E4M3;
    case CAP_T_E5M2:
        return NUM_E5M2;
    case CAP_T_INT8:
        return num_fmt_int(8, uns);
    case CAP_T_INT16:
        return num_fmt_int(16, uns);
    case CAP_T_INT32:
        return num_fmt_int(32, uns);
    case CAP_T_INT4:
        return num_fmt_int(4, uns);
    case CAP_T_INT2:
        return num_fmt_int(2, uns);
    default:
        return -1;
    }
}

/* REQ: CAP-002 CAP-163 */
uint64_t cap_discovery(const cap_state *c, uint32_t addr)
{
    return cap_csr_in_window(addr) ? c->disc[IDX(addr)] : 0;
}
