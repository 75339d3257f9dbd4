/* cap_unit.c — the hart adapter of XPHMG_CAP. */
#include "cap_unit.h"

/* REQ: CAP-039 CAP-076 */
static bool csr_read(hart *h, void *ctx, uint32_t a, uint64_t *v)
{
    (void)h;
    return cap_csr_read(&((cap_unit *)ctx)->cap, a, v);
}

/* REQ: CAP-039 CAP-076 */
static bool csr_write(hart *h, void *ctx, uint32_t a, uint64_t v)
{
    (void)h;
    return cap_csr_write(&((cap_unit *)ctx)->cap, a, v);
}

/* REQ: CAP-159 CAP-161 CAP-163 */
static void reset(hart *h, void *ctx)
{
    (void)h;
    cap_unit *u = ctx;
    u->cap = u->reset_state;
}

/* A per-instruction override (OSAE) acts on this instruction only and never changes CAP
 * state (CAP-005).
 * REQ: CAP-005 CAP-012 CAP-089 CAP-123 CAP-124 CAP-125 CAP-128 */
bool cap_xcvt(cap_state *c, const cap_snap *s, unsigned fmtsel, uint64_t in, uint64_t *out,
              bool *illegal, uint64_t *trap)
{
    *illegal = false;
    *trap = 0;
    unsigned sc = fmtsel & 15, dc = (fmtsel >> 4) & 15, osae = (fmtsel >> 8) & 3;
    /* FMTSEL bits 11:10 are reserved (errata P-70), OSAE 01 too (P-180). */
    if ((fmtsel >> 10) || osae == 1) {
        *illegal = true;
        return false;
    }
    if (sc == CAP_T_EFFECTIVE) sc = s->pet;
    if (dc == CAP_T_EFFECTIVE) dc = s->pet;
    /* A reserved code, or a format this implementation does not have (CAP.PREC.ALU),
     * is an illegal instruction. */
    int sf = cap_type_fmt(sc, s->uns), df = cap_type_fmt(dc, s->uns);
    if (sf < 0 || df < 0 || !((s->alu_sup >> sc) & 1) || !((s->alu_sup >> dc) & 1)) {
        *illegal = true;
        return false;
    }
    unsigned bits = num_fmt_bits((num_fmt)sf);
    uint32_t x = (uint32_t)(bits >= 32 ? in : in & ((UINT64_C(1) << bits) - 1));
    num_flags f = 0;
    uint32_t r = num_convert((num_fmt)df, (num_fmt)sf, x, &s->pol, &f);
    cap_accrue(c, f); /* stickies are set even when the exception traps (CAP 4.4.2.5) */
    /* OSAE 1x: this instruction's SAE, in place of EFF_SAE and without touching CAP
     * state (CAP 4.4.2.5: per-instruction overrides take precedence over SAE_DEF). */
    num_flags t = osae ? num_trap_pending(f, s->exc_en, osae & 1) : cap_trap_flags(s, f);
    if (t) {
        *trap = t;
        return false;
    }
    *out = num_fmt_is_float((num_fmt)df) ? (uint64_t)r : (uint64_t)num_int_value((num_fmt)df, r);
    return true;
}

/* REQ: CAP-006 CAP-008 CAP-124 */
static void exec_xcvt(hart *h, void *ctx, const hart_insn *d)
{
    cap_unit *u = ctx;
    /* The instruction executes under the CAP state latched at its boundary (CAP 5.1.1). */
    cap_snap s;
    cap_snapshot(&u->cap, &s);
    uint64_t out, trap;
    bool illegal;
    if (cap_xcvt(&u->cap, &s, (unsigned)((uint64_t)d->imm & 0xfff), hart_x(h, d->rs1), &out,
                 &illegal, &trap)) {
        hart_set_x(h, d->rd, out);
    } else if (illegal) {
        hart_illegal(h, d);
    } else {
        hart_raise(h, CAP_CAUSE_FP_EXC, trap); /* precise: rd unwritten (errata Q-28) */
    }
}

static const hart_unit_insn insns[] = {{XOP_XCVT, exec_xcvt, HART_WR_X}};
static const hart_unit_csrs csrs[] = {{CAP_CSR_LO, CAP_CSR_HI, csr_read, csr_write},
                                      {CAP_RSV_LO, CAP_RSV_HI, csr_read, csr_write},
                                      {CAP_CSR_PROF_SEL, CAP_CSR_PROF_SEL, csr_read, csr_write}};
static const hart_unit unit = {"cap", reset, 1, insns, 3, csrs};

/* REQ: CAP-163 */
int cap_unit_attach(hart *h, cap_unit *u, const cap_profile *prof)
{
    u->prof = prof;
    cap_reset(&u->reset_state, prof);
    u->cap = u->reset_state;
    return hart_register_unit(h, &unit, u);
}
