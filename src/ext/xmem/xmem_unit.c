/* xmem_unit.c — the hart adapter of XMEM (`xmem.svm`, SVFAULTI). */
#include "xmem_unit.h"

/* PBANK values the encoding allows (funct7[2:0]); banks >= 4 are illegal (XML, Q-36). */
#define XMEM_SVM_PBANK_MAX 4u

static bool csr_read(hart *h, void *ctx, uint32_t a, uint64_t *v)
{
    (void)h;
    if (a != XMEM_CSR_SVFAULTI) return false;
    *v = ((xmem_unit *)ctx)->svfaulti;
    return true;
}

static bool csr_write(hart *h, void *ctx, uint32_t a, uint64_t v)
{
    (void)h;
    if (a != XMEM_CSR_SVFAULTI) return false;
    ((xmem_unit *)ctx)->svfaulti = v;
    return true;
}

static void reset(hart *h, void *ctx)
{
    (void)h;
    ((xmem_unit *)ctx)->svfaulti = XMEM_SVFAULTI_RESET;
}

/* The hart's memory, probed first so that an inaccessible address neither traps nor
 * shows up in the commit log; hart_load/hart_store then cannot fail. Each performed
 * access is recorded like a base load/store: the commit log keeps the first 4 of an
 * instruction (hart_trace_mem ignores the rest), so long gathers cannot overflow it. */
static bool mem_load(void *ctx, uint64_t a, unsigned n, uint64_t *v)
{
    hart *h = ctx;
    return hart_mem_ok(h, a, n, false) && hart_load(h, a, n, v);
}

static bool mem_store(void *ctx, uint64_t a, unsigned n, uint64_t v)
{
    hart *h = ctx;
    return hart_mem_ok(h, a, n, true) && hart_store(h, a, n, v);
}

static void exec_svm(hart *h, void *ctx, const hart_insn *d)
{
    xmem_unit *u = ctx;
    unsigned pbank = (unsigned)((uint64_t)d->imm & 7);
    /* Bank 0 is the implied all-ones predicate (CAP 2.3 #2/#3) even without PMASK; any
     * other bank must exist in the profile and be < 4 (errata Q-36). */
    if (pbank != 0 && (pbank >= XMEM_SVM_PBANK_MAX || !pmask_bank_valid(&u->pmask->pm, pbank))) {
        hart_illegal(h, d);
        return;
    }
    /* Operands and the CAP/PMASK state as of the instruction boundary (CAP 5.1.1). */
    uint64_t buf = hart_x(h, d->rs1), count = hart_x(h, d->rs2);
    unsigned rd = d->rd;
    cap_snap s;
    cap_snapshot(&u->cap->cap, &s);
    xmem_svm_cfg cfg;
    xmem_svm_config(&s, pbank ? pmask_get(&u->pmask->pm, pbank) : ~UINT64_C(0), &cfg);
    xmem_svm_mem m = {h, mem_load, mem_store};
    xmem_svm_result r;
    xmem_svm_exec(&cfg, &m, buf, count, &r);
    u->svfaulti = r.svfaulti;
    if (r.events) cap_xmem_event(&u->cap->cap, r.events);
    if (r.status == XMEM_SVM_TRAP) {
        hart_raise(h, r.fault_store ? CAUSE_STORE_ACCESS : CAUSE_LOAD_ACCESS, r.tval);
        return;
    }
    hart_set_x(h, rd, r.rd);
}

static const hart_unit_insn insns[] = {{XOP_XMEM_SVM, exec_svm, HART_WR_X}};
static const hart_unit_csrs csrs[] = {{XMEM_CSR_SVFAULTI, XMEM_CSR_SVFAULTI, csr_read, csr_write}};
static const hart_unit unit = {"xmem", reset, 1, insns, 1, csrs};

int xmem_unit_attach(hart *h, xmem_unit *u, cap_unit *cap, pmask_unit *pmask)
{
    u->cap = cap;
    u->pmask = pmask;
    u->svfaulti = XMEM_SVFAULTI_RESET;
    return hart_register_unit(h, &unit, u);
}
