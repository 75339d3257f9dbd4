/* csr.c — the machine- and user-level CSRs of an M+U RV64GC hart (no S-mode), the Zicsr
 * instructions, and the hand-off of unit-owned CSR ranges. */
#include "hart_int.h"

/* CSR addresses. */
enum {
    CSR_FFLAGS = 0x001,
    CSR_FRM = 0x002,
    CSR_FCSR = 0x003,
    CSR_SATP = 0x180,
    CSR_MSTATUS = 0x300,
    CSR_MISA = 0x301,
    CSR_MEDELEG = 0x302,
    CSR_MIDELEG = 0x303,
    CSR_MIE = 0x304,
    CSR_MTVEC = 0x305,
    CSR_MCOUNTEREN = 0x306,
    CSR_MCOUNTINHIBIT = 0x320,
    CSR_MSCRATCH = 0x340,
    CSR_MEPC = 0x341,
    CSR_MCAUSE = 0x342,
    CSR_MTVAL = 0x343,
    CSR_MIP = 0x344,
    CSR_PMPCFG0 = 0x3a0,
    CSR_PMPADDR0 = 0x3b0,
    CSR_MCYCLE = 0xb00,
    CSR_MINSTRET = 0xb02,
    CSR_CYCLE = 0xc00,
    CSR_TIME = 0xc01,
    CSR_INSTRET = 0xc02,
    CSR_MVENDORID = 0xf11,
    CSR_MARCHID = 0xf12,
    CSR_MIMPID = 0xf13,
    CSR_MHARTID = 0xf14,
    CSR_MCONFIGPTR = 0xf15,
};

#define MSTATUS_WMASK                                                                              \
    (MSTATUS_MIE | MSTATUS_MPIE | MSTATUS_MPP | MSTATUS_FS | MSTATUS_MPRV | MSTATUS_TW)
#define MIE_MASK ((UINT64_C(1) << IRQ_MSI) | (UINT64_C(1) << IRQ_MTI) | (UINT64_C(1) << IRQ_MEI))

const char *hart_csr_name(uint32_t a)
{
    static char buf[4][16];
    static unsigned k;
    switch (a) {
    case CSR_FFLAGS:
        return "fflags";
    case CSR_FRM:
        return "frm";
    case CSR_FCSR:
        return "fcsr";
    case CSR_SATP:
        return "satp";
    case CSR_MSTATUS:
        return "mstatus";
    case CSR_MISA:
        return "misa";
    case CSR_MEDELEG:
        return "medeleg";
    case CSR_MIDELEG:
        return "mideleg";
    case CSR_MIE:
        return "mie";
    case CSR_MTVEC:
        return "mtvec";
    case CSR_MCOUNTEREN:
        return "mcounteren";
    case CSR_MCOUNTINHIBIT:
        return "mcountinhibit";
    case CSR_MSCRATCH:
        return "mscratch";
    case CSR_MEPC:
        return "mepc";
    case CSR_MCAUSE:
        return "mcause";
    case CSR_MTVAL:
        return "mtval";
    case CSR_MIP:
        return "mip";
    case CSR_MCYCLE:
        return "mcycle";
    case CSR_MINSTRET:
        return "minstret";
    case CSR_CYCLE:
        return "cycle";
    case CSR_TIME:
        return "time";
    case CSR_INSTRET:
        return "instret";
    case CSR_MVENDORID:
        return "mvendorid";
    case CSR_MARCHID:
        return "marchid";
    case CSR_MIMPID:
        return "mimpid";
    case CSR_MHARTID:
        return "mhartid";
    case CSR_MCONFIGPTR:
        return "mconfigptr";
    default:
        break;
    }
    /* Numbered families. The names are only for the commit log and messages; a small
     * ring of buffers keeps them valid across a few calls. */
    char *b = buf[k++ & 3];
    const char *fmt = NULL;
    unsigned n = 0;
    if (a >= CSR_PMPCFG0 && a < CSR_PMPCFG0 + 16 && !(a & 1))
        fmt = "pmpcfg%u", n = a - CSR_PMPCFG0;
    else if (a >= CSR_PMPADDR0 && a < CSR_PMPADDR0 + 64)
        fmt = "pmpaddr%u", n = a - CSR_PMPADDR0;
    else if (a >= 0xb03 && a <= 0xb1f)
        fmt = "mhpmcounter%u", n = a - 0xb00;
    else if (a >= 0xc03 && a <= 0xc1f)
        fmt = "hpmcounter%u", n = a - 0xc00;
    else if (a >= 0x323 && a <= 0x33f)
        fmt = "mhpmevent%u", n = a - 0x320;
    if (!fmt) return NULL;
    snprintf(b, sizeof buf[0], fmt, n);
    return b;
}

static const hart_unit_csrs *unit_csr(hart *h, uint32_t a, void **ctx)
{
    for (unsigned k = 0; k < h->unit_count; k++)
        for (unsigned j = 0; j < h->units[k]->csr_count; j++) {
            const hart_unit_csrs *r = &h->units[k]->csrs[j];
            if (a >= r->lo && a <= r->hi) {
                *ctx = h->unit_ctx[k];
                return r;
            }
        }
    return NULL;
}

static uint64_t mstatus_read(const hart *h)
{
    uint64_t s = h->mstatus;
    if ((s & MSTATUS_FS) == FS_DIRTY) s |= MSTATUS_SD;
    return s;
}

/* Privilege check common to every 12-bit CSR: csr[9:8] is the lowest privilege that
 * may access it (S-level CSRs such as satp are M-only here: U is below S). */
static bool priv_ok(const hart *h, uint32_t a)
{
    return a > 0xfff || h->priv >= ((a >> 8) & 3);
}

/* U-mode access to cycle/time/instret/hpmcounterN is gated by mcounteren. */
static bool counter_ok(const hart *h, uint32_t a)
{
    return h->priv == PRV_M || ((h->mcounteren >> (a & 31)) & 1);
}

static bool fp_on(const hart *h)
{
    return (h->mstatus & MSTATUS_FS) != FS_OFF;
}

bool hart_csr_read(hart *h, uint32_t a, uint64_t *v)
{
    if (!priv_ok(h, a)) return false;
    switch (a) {
    case CSR_FFLAGS:
        if (!fp_on(h)) return false;
        *v = h->fflags;
        return true;
    case CSR_FRM:
        if (!fp_on(h)) return false;
        *v = h->frm;
        return true;
    case CSR_FCSR:
        if (!fp_on(h)) return false;
        *v = h->frm << 5 | h->fflags;
        return true;
    case CSR_SATP:
        *v = 0;
        return true;
    case CSR_MSTATUS:
        *v = mstatus_read(h);
        return true;
    case CSR_MISA:
        *v = h->misa;
        return true;
    case CSR_MEDELEG:
        *v = h->medeleg;
        return true;
    case CSR_MIDELEG:
        *v = h->mideleg;
        return true;
    case CSR_MIE:
        *v = h->mie;
        return true;
    case CSR_MTVEC:
        *v = h->mtvec;
        return true;
    case CSR_MCOUNTEREN:
        *v = h->mcounteren;
        return true;
    case CSR_MCOUNTINHIBIT:
        *v = 0;
        return true;
    case CSR_MSCRATCH:
        *v = h->mscratch;
        return true;
    case CSR_MEPC:
        *v = h->mepc;
        return true;
    case CSR_MCAUSE:
        *v = h->mcause;
        return true;
    case CSR_MTVAL:
        *v = h->mtval;
        return true;
    case CSR_MIP:
        *v = hart_mip(h);
        return true;
    case CSR_MCYCLE:
        *v = h->instret + (uint64_t)h->cycle_adj;
        return true;
    case CSR_MINSTRET:
        *v = h->instret + (uint64_t)h->instret_adj;
        return true;
    case CSR_CYCLE:
        if (!counter_ok(h, a)) return false;
        *v = h->instret + (uint64_t)h->cycle_adj;
        return true;
    case CSR_TIME:
        if (!counter_ok(h, a)) return false;
        *v = hart_mtime(h);
        return true;
    case CSR_INSTRET:
        if (!counter_ok(h, a)) return false;
        *v = h->instret + (uint64_t)h->instret_adj;
        return true;
    case CSR_MVENDORID:
    case CSR_MARCHID:
    case CSR_MIMPID:
    case CSR_MCONFIGPTR:
        *v = 0;
        return true;
    case CSR_MHARTID:
        *v = h->mhartid;
        return true;
    default:
        break;
    }
    if (a >= CSR_PMPCFG0 && a < CSR_PMPCFG0 + 16 && !(a & 1)) {
        *v = h->pmpcfg[a - CSR_PMPCFG0];
        return true;
    }
    if (a >= CSR_PMPADDR0 && a < CSR_PMPADDR0 + 64) {
        *v = h->pmpaddr[a - CSR_PMPADDR0];
        return true;
    }
    if ((a >= 0xb03 && a <= 0xb1f) || (a >= 0x323 && a <= 0x33f)) {
        *v = 0; /* no hardware performance monitors: counters and events read zero */
        return true;
    }
    if (a >= 0xc03 && a <= 0xc1f) {
        if (!counter_ok(h, a)) return false;
        *v = 0;
        return true;
    }
    void *ctx;
    const hart_unit_csrs *r = unit_csr(h, a, &ctx);
    return r && r->read && r->read(h, ctx, a, v);
}

bool hart_csr_write(hart *h, uint32_t a, uint64_t v)
{
    if (!priv_ok(h, a) || (a <= 0xfff && (a >> 10) == 3))
        return false; /* csr[11:10] == 3: read-only */
    switch (a) {
    case CSR_FFLAGS:
        if (!fp_on(h)) return false;
        h->fflags = v & 0x1f;
        fs_dirty(h);
        return true;
    case CSR_FRM:
        if (!fp_on(h)) return false;
        h->frm = v & 7;
        fs_dirty(h);
        return true;
    case CSR_FCSR:
        if (!fp_on(h)) return false;
        h->fflags = v & 0x1f;
        h->frm = (v >> 5) & 7;
        fs_dirty(h);
        return true;
    case CSR_SATP:
        return true; /* Bare is the only mode: WARL, writes ignored */
    case CSR_MSTATUS: {
        uint64_t n = (h->mstatus & ~MSTATUS_WMASK) | (v & MSTATUS_WMASK);
        uint64_t mpp = (n & MSTATUS_MPP) >> 11;
        if (mpp != PRV_M && mpp != PRV_U) /* WARL: S and H do not exist */
            n = (n & ~MSTATUS_MPP) | ((uint64_t)PRV_U << 11);
        h->mstatus = n;
        h->stop = true; /* MIE may have enabled a pending interrupt */
        return true;
    }
    case CSR_MISA:
        return true; /* fixed: WARL, writes ignored */
    case CSR_MEDELEG:
        h->medeleg = v & 0xb3ff;
        return true; /* stored, no effect: no S-mode */
    case CSR_MIDELEG:
        h->mideleg = v & 0x222;
        return true;
    case CSR_MIE:
        h->mie = v & MIE_MASK;
        h->stop = true;
        return true;
    case CSR_MTVEC:
        /* modes 0 (direct) and 1 (vectored); reserved modes are WARL -> direct */
        h->mtvec = (v & 3) <= 1 ? v : (v & ~UINT64_C(3));
        return true;
    case CSR_MCOUNTEREN:
        h->mcounteren = v & 0xffffffff;
        return true;
    case CSR_MCOUNTINHIBIT:
        return true; /* counters always run: bits read-only zero */
    case CSR_MSCRATCH:
        h->mscratch = v;
        return true;
    case CSR_MEPC:
        h->mepc = v & ~UINT64_C(1);
        return true; /* IALIGN=16 */
    case CSR_MCAUSE:
        h->mcause = v;
        return true;
    case CSR_MTVAL:
        h->mtval = v;
        return true;
    case CSR_MIP:
        return true; /* MSIP/MTIP/MEIP come from the CLINT/PLIC: read-only */
    /* The write is the value the next instruction sees: this instruction's own
     * increment (the loop adds 1 after the handler) is compensated. */
    case CSR_MCYCLE:
        h->cycle_adj = (int64_t)(v - h->instret - 1);
        return true;
    case CSR_MINSTRET:
        h->instret_adj = (int64_t)(v - h->instret - 1);
        return true;
    default:
        break;
    }
    if (a >= CSR_PMPCFG0 && a < CSR_PMPCFG0 + 16 && !(a & 1)) {
        h->pmpcfg[a - CSR_PMPCFG0] = v; /* accepted, not enforced (docs/sim.md) */
        return true;
    }
    if (a >= CSR_PMPADDR0 && a < CSR_PMPADDR0 + 64) {
        h->pmpaddr[a - CSR_PMPADDR0] = v & ((UINT64_C(1) << 54) - 1);
        return true;
    }
    if ((a >= 0xb03 && a <= 0xb1f) || (a >= 0x323 && a <= 0x33f)) return true;
    void *ctx;
    const hart_unit_csrs *r = unit_csr(h, a, &ctx);
    return r && r->write && r->write(h, ctx, a, v);
}

/* csrrw/csrrs/csrrc and the immediate forms. The operation is found from the name the
 * op was bound under (see exec_base.c: the three Zicsr handlers below). */
void hart_trace_csr(hart *h, uint32_t a)
{
    if (!h->tracing) return;
    unsigned k = 0; /* one entry per CSR, holding its latest value */
    while (k < h->trace_ncsr && h->trace_csr[k].addr != a)
        k++;
    if (k == 4) return;
    uint64_t v;
    unsigned priv = h->priv;
    h->tracing = false;
    h->priv = PRV_M; /* the log shows the value whatever the mode */
    if (hart_csr_read(h, a, &v)) {
        h->trace_csr[k].addr = (uint16_t)a;
        h->trace_csr[k].val = v;
        if (k == h->trace_ncsr) h->trace_ncsr++;
    }
    h->priv = priv;
    h->tracing = true;
}

static uint64_t do_csr(hart *h, const hart_insn *d, int kind, uint64_t src, bool src_nonzero)
{
    uint32_t a = d->csr;
    uint64_t old = 0;
    /* csrrw with rd = x0 does not read; every other form does. */
    bool rd_ok = (kind == 0 && d->rd == 0) || hart_csr_read(h, a, &old);
    if (!rd_ok) return hart_illegal(h, d);
    bool write = kind == 0 || src_nonzero;
    if (write) {
        uint64_t nv = kind == 0 ? src : kind == 1 ? (old | src) : (old & ~src);
        if (!hart_csr_write(h, a, nv)) return hart_illegal(h, d);
        hart_trace_csr(h, a);
    }
    wx(h, d->rd, old);
    return NEXT;
}

uint64_t hart_exec_csrrw(hart *h, const hart_insn *d)
{
    return do_csr(h, d, 0, h->x[d->rs1], true);
}
uint64_t hart_exec_csrrs(hart *h, const hart_insn *d)
{
    return do_csr(h, d, 1, h->x[d->rs1], d->rs1 != 0);
}
uint64_t hart_exec_csrrc(hart *h, const hart_insn *d)
{
    return do_csr(h, d, 2, h->x[d->rs1], d->rs1 != 0);
}
uint64_t hart_exec_csrrwi(hart *h, const hart_insn *d)
{
    return do_csr(h, d, 0, (uint64_t)d->imm & 31, true);
}
uint64_t hart_exec_csrrsi(hart *h, const hart_insn *d)
{
    return do_csr(h, d, 1, (uint64_t)d->imm & 31, (d->imm & 31) != 0);
}
uint64_t hart_exec_csrrci(hart *h, const hart_insn *d)
{
    return do_csr(h, d, 2, (uint64_t)d->imm & 31, (d->imm & 31) != 0);
}
