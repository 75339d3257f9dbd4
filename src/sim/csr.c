/* csr.c — the machine-, supervisor- and user-level CSRs of an RV64GC hart, the Sdtrig
 * trigger CSRs, the Zicsr instructions, and the hand-off of unit-owned CSR ranges. */
#include "hart_int.h"
#include "jit.h"

/* CSR addresses. */
enum {
    CSR_FFLAGS = 0x001,
    CSR_FRM = 0x002,
    CSR_FCSR = 0x003,
    CSR_SSTATUS = 0x100,
    CSR_SIE = 0x104,
    CSR_STVEC = 0x105,
    CSR_SCOUNTEREN = 0x106,
    CSR_SENVCFG = 0x10a,
    CSR_SSCRATCH = 0x140,
    CSR_SEPC = 0x141,
    CSR_SCAUSE = 0x142,
    CSR_STVAL = 0x143,
    CSR_SIP = 0x144,
    CSR_SATP = 0x180,
    CSR_MENVCFG = 0x30a,
    CSR_TSELECT = 0x7a0,
    CSR_TDATA1 = 0x7a1,
    CSR_TDATA2 = 0x7a2,
    CSR_TDATA3 = 0x7a3,
    CSR_TINFO = 0x7a4,
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
/* What S mode adds to mstatus. */
#define MSTATUS_SMASK                                                                              \
    (MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_SUM | MSTATUS_MXR | MSTATUS_TVM |          \
     MSTATUS_TSR)
/* The sstatus view of mstatus (no V, no XS, no UBE: read zero). */
#define SSTATUS_MASK                                                                               \
    (MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_FS | MSTATUS_SUM | MSTATUS_MXR |           \
     MSTATUS_UXL | MSTATUS_SD)
#define SSTATUS_WMASK                                                                              \
    (MSTATUS_SIE | MSTATUS_SPIE | MSTATUS_SPP | MSTATUS_FS | MSTATUS_SUM | MSTATUS_MXR)
#define MIE_MASK      ((UINT64_C(1) << IRQ_MSI) | (UINT64_C(1) << IRQ_MTI) | (UINT64_C(1) << IRQ_MEI))
#define S_IRQS        ((UINT64_C(1) << IRQ_SSI) | (UINT64_C(1) << IRQ_STI) | (UINT64_C(1) << IRQ_SEI))
#define SATP_PPN_ASID ((UINT64_C(1) << 60) - 1)

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
    case CSR_SSTATUS:
        return "sstatus";
    case CSR_SIE:
        return "sie";
    case CSR_STVEC:
        return "stvec";
    case CSR_SCOUNTEREN:
        return "scounteren";
    case CSR_SENVCFG:
        return "senvcfg";
    case CSR_SSCRATCH:
        return "sscratch";
    case CSR_SEPC:
        return "sepc";
    case CSR_SCAUSE:
        return "scause";
    case CSR_STVAL:
        return "stval";
    case CSR_SIP:
        return "sip";
    case CSR_MENVCFG:
        return "menvcfg";
    case CSR_TSELECT:
        return "tselect";
    case CSR_TDATA1:
        return "tdata1";
    case CSR_TDATA2:
        return "tdata2";
    case CSR_TDATA3:
        return "tdata3";
    case CSR_TINFO:
        return "tinfo";
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

static bool hart_csr_write_raw(hart *h, uint32_t a, uint64_t v);

/* The vendor CSR blocks (CAP 3) are reached at exactly their addresses: an address goes
 * to the unit whose inclusive range holds it.
 * REQ: CAP-033 CAP-039 */
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

/* xepc bit 1 reads zero while IALIGN = 32 (misa.C clear). */
static uint64_t epc_mask(const hart *h)
{
    return (h->misa & MISA_C) ? ~UINT64_C(1) : ~UINT64_C(3);
}

static uint64_t mstatus_read(const hart *h)
{
    uint64_t s = h->mstatus;
    if ((s & MSTATUS_FS) == FS_DIRTY) s |= MSTATUS_SD;
    return s;
}

static bool has_s(const hart *h)
{
    return (h->misa & MISA_S) != 0;
}

/* Privilege check common to every 12-bit CSR: csr[9:8] is the lowest privilege that
 * may access it. Without S mode the S-level CSRs do not exist. */
static bool priv_ok(const hart *h, uint32_t a)
{
    if (a > 0xfff) return true;
    unsigned need = (a >> 8) & 3;
    if (need == PRV_S && !has_s(h)) return false;
    return h->priv >= need;
}

/* S- and U-mode access to cycle/time/instret/hpmcounterN is gated by mcounteren, and
 * U-mode's (with S mode present) by scounteren too. */
static bool counter_ok(const hart *h, uint32_t a)
{
    unsigned bit = a & 31;
    if (h->priv == PRV_M) return true;
    if (!((h->mcounteren >> bit) & 1)) return false;
    return h->priv == PRV_S || !has_s(h) || ((h->scounteren >> bit) & 1);
}

/* satp and sfence.vma: illegal in S mode with mstatus.TVM = 1. */
bool hart_tvm_trap(const hart *h)
{
    return h->priv == PRV_S && (h->mstatus & MSTATUS_TVM);
}

static bool fp_on(const hart *h)
{
    return (h->mstatus & MSTATUS_FS) != FS_OFF && (h->misa & (UINT64_C(1) << ('F' - 'A')));
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
        if (hart_tvm_trap(h)) return false;
        *v = h->satp;
        return true;
    case CSR_SSTATUS:
        *v = mstatus_read(h) & SSTATUS_MASK;
        return true;
    case CSR_SIE:
        *v = h->mie & h->mideleg;
        return true;
    case CSR_SIP:
        *v = hart_mip(h) & h->mideleg;
        return true;
    case CSR_STVEC:
        *v = h->stvec;
        return true;
    case CSR_SCOUNTEREN:
        *v = h->scounteren;
        return true;
    case CSR_SENVCFG:
        *v = h->senvcfg;
        return true;
    case CSR_MENVCFG:
        *v = h->menvcfg;
        return true;
    case CSR_SSCRATCH:
        *v = h->sscratch;
        return true;
    case CSR_SEPC:
        *v = h->sepc & epc_mask(h);
        return true;
    case CSR_SCAUSE:
        *v = h->scause;
        return true;
    case CSR_STVAL:
        *v = h->stval;
        return true;
    case CSR_TSELECT:
        *v = h->tselect;
        return true;
    case CSR_TDATA1:
        *v = h->tdata1[h->tselect];
        return true;
    case CSR_TDATA2:
        *v = h->tdata2[h->tselect];
        return true;
    case CSR_TDATA3:
        *v = 0;
        return true;
    case CSR_TINFO:
        *v = (UINT64_C(1) << 2) | (UINT64_C(1) << 15); /* mcontrol and disabled */
        return true;
    case CSR_MSTATUS:
        *v = mstatus_read(h);
        return true;
    case CSR_MISA:
        *v = h->misa;
        return true;
    case CSR_MEDELEG:
        if (!has_s(h)) return false;
        *v = h->medeleg;
        return true;
    case CSR_MIDELEG:
        if (!has_s(h)) return false;
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
        *v = h->mepc & epc_mask(h);
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
        *v = h->pmpcfg[a - CSR_PMPCFG0]; /* only 0 and 2 are ever written */
        return true;
    }
    if (a >= CSR_PMPADDR0 && a < CSR_PMPADDR0 + 64) {
        unsigned i = a - CSR_PMPADDR0;
        *v = h->pmpaddr[i];
        /* NAPOT reads back with the granule's bits as written; nothing to hide at G=0 */
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
    /* REQ: CAP-033 CAP-039 */
    void *ctx;
    const hart_unit_csrs *r = unit_csr(h, a, &ctx);
    return r && r->read && r->read(h, ctx, a, v);
}

/* 16 PMP entries (pmpcfg0 and pmpcfg2; the rest read zero). A locked entry ignores
 * writes to its configuration and address, and a locked TOR entry also to the address
 * below it; W without R is reserved (WARL: W cleared). */
static unsigned pmp_byte(const hart *h, unsigned i)
{
    return (unsigned)(h->pmpcfg[(i / 8) * 2] >> (8 * (i % 8))) & 0xff;
}

static void pmpcfg_write(hart *h, unsigned idx, uint64_t v)
{
    if (idx > 2) return;
    uint64_t n = 0;
    for (unsigned b = 0; b < 8; b++) {
        unsigned i = idx * 4 + b, old = pmp_byte(h, i), c = (unsigned)(v >> (8 * b)) & 0x9f;
        if (!(c & 1)) c &= ~2u;
        n |= (uint64_t)((old & 0x80) ? old : c) << (8 * b);
    }
    h->pmpcfg[idx] = n;
}

static void pmpaddr_write(hart *h, unsigned i, uint64_t v)
{
    if (i >= 16 || (pmp_byte(h, i) & 0x80)) return;
    if (i + 1 < 16 && (pmp_byte(h, i + 1) & 0x98) == 0x88) return; /* locked TOR above */
    h->pmpaddr[i] = v & ((UINT64_C(1) << 54) - 1);
}

bool hart_csr_write(hart *h, uint32_t a, uint64_t v)
{
    if (!hart_csr_write_raw(h, a, v)) return false;
    /* Anything written may change translation, PMP, triggers, IALIGN or which
     * interrupts are enabled: the run loop re-evaluates before the next instruction. */
    bool pmp = (a >> 4) == 0x3a || (a >> 4) == 0x3b;
    hart_update_xlate(h, pmp);
    if (pmp) jit_flush_request(h); /* translated fetches were checked against the PMP */
    h->stop = true;
    return true;
}

static bool hart_csr_write_raw(hart *h, uint32_t a, uint64_t v)
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
    case CSR_SATP: {
        if (hart_tvm_trap(h)) return false;
        uint64_t mode = v >> 60;
        if (mode == 0 || mode == 8 || mode == 9) h->satp = v; /* else WARL: no change */
        jit_flush_request(h);
        return true;
    }
    case CSR_MSTATUS: {
        uint64_t m = MSTATUS_WMASK | (has_s(h) ? MSTATUS_SMASK : 0);
        uint64_t n = (h->mstatus & ~m) | (v & m);
        uint64_t mpp = (n & MSTATUS_MPP) >> 11;
        if (mpp == 2 || (mpp == PRV_S && !has_s(h))) /* WARL: H (and S) do not exist */
            n = (n & ~MSTATUS_MPP) | ((uint64_t)PRV_U << 11);
        h->mstatus = n;
        return true;
    }
    case CSR_SSTATUS:
        h->mstatus = (h->mstatus & ~SSTATUS_WMASK) | (v & SSTATUS_WMASK);
        return true;
    case CSR_SIE:
        h->mie = (h->mie & ~h->mideleg) | (v & h->mideleg);
        return true;
    case CSR_SIP: {
        uint64_t m = h->mideleg & (UINT64_C(1) << IRQ_SSI);
        h->mip = (h->mip & ~m) | (v & m);
        return true;
    }
    case CSR_STVEC:
        h->stvec = (v & 3) <= 1 ? v : (v & ~UINT64_C(3));
        return true;
    case CSR_SCOUNTEREN:
        h->scounteren = v & 0xffffffff;
        return true;
    case CSR_SENVCFG:
        h->senvcfg = v & 1; /* FIOM only: no Zicbom/Zicfi* */
        return true;
    case CSR_MENVCFG:
        h->menvcfg = v & 1; /* FIOM only: no Zicbom, Svpbmt, Svadu, Sstc */
        return true;
    case CSR_SSCRATCH:
        h->sscratch = v;
        return true;
    case CSR_SEPC:
        h->sepc = v & ~UINT64_C(1);
        return true;
    case CSR_SCAUSE:
        h->scause = v;
        return true;
    case CSR_STVAL:
        h->stval = v;
        return true;
    case CSR_TSELECT:
        if (v < HART_NTRIG) h->tselect = (unsigned)v; /* WARL: no such trigger, no change */
        return true;
    case CSR_TDATA1:
        /* mcontrol (type 2) with address-equal match and the breakpoint-exception
         * action only; any other type writes a disabled trigger (type 15). */
        if ((v >> 60) == 2)
            h->tdata1[h->tselect] = (UINT64_C(2) << 60) | (v & 0x5f);
        else
            h->tdata1[h->tselect] = UINT64_C(15) << 60;
        return true;
    case CSR_TDATA2:
        h->tdata2[h->tselect] = v;
        return true;
    case CSR_TDATA3:
    case CSR_TINFO:
        return true;
    case CSR_MISA:
        /* Only C can be switched off (WARL, else fixed); it stays set when the next
         * instruction would be misaligned without it (as on Spike). */
        if (!(v & MISA_C) && (h->pc & 2)) v |= MISA_C;
        h->misa = (h->misa & ~MISA_C) | (v & MISA_C & h->misa_max);
        return true;
    case CSR_MEDELEG:
        if (!has_s(h)) return false;
        /* Every exception below M can be delegated but ecall from M, and the
         * misaligned fetch only without C (read-only 0 otherwise, as on Spike). */
        h->medeleg = v & ((h->misa & MISA_C) ? 0xb3fe : 0xb3ff);
        return true;
    case CSR_MIDELEG:
        if (!has_s(h)) return false;
        h->mideleg = v & S_IRQS;
        return true;
    case CSR_MIE:
        h->mie = v & (MIE_MASK | (has_s(h) ? S_IRQS : 0));
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
        /* MSIP/MTIP/MEIP come from the CLINT/PLIC: read-only; SSIP/STIP/SEIP are M's */
        if (has_s(h)) h->mip = v & S_IRQS;
        return true;
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
        pmpcfg_write(h, a - CSR_PMPCFG0, v);
        return true;
    }
    if (a >= CSR_PMPADDR0 && a < CSR_PMPADDR0 + 64) {
        pmpaddr_write(h, a - CSR_PMPADDR0, v);
        return true;
    }
    if ((a >= 0xb03 && a <= 0xb1f) || (a >= 0x323 && a <= 0x33f)) return true;
    /* REQ: CAP-033 CAP-039 */
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
        /* A counter write shows the value written, which is what the next
         * instruction sees (the read here is one instruction early). */
        if (a == CSR_MCYCLE || a == CSR_MINSTRET) v++;
        h->trace_csr[k].addr = (uint16_t)a;
        h->trace_csr[k].val = v;
        if (k == h->trace_ncsr) h->trace_ncsr++;
    }
    h->priv = priv;
    h->tracing = true;
}

/* The commit log's view of a CSR write, as Spike logs it: fcsr as fflags and frm,
 * sstatus as mstatus, sie with mie, sip/mip as mip. */
static void log_csr_write(hart *h, uint32_t a)
{
    if (!h->tracing) return;
    switch (a) {
    case CSR_FCSR:
        hart_trace_csr(h, CSR_FFLAGS);
        hart_trace_csr(h, CSR_FRM);
        return;
    case CSR_SSTATUS:
        hart_trace_csr(h, CSR_MSTATUS);
        return;
    case CSR_SIE:
        hart_trace_csr(h, CSR_SIE);
        hart_trace_csr(h, CSR_MIE);
        return;
    case CSR_SIP:
        hart_trace_csr(h, CSR_MIP);
        return;
    default:
        hart_trace_csr(h, a);
        return;
    }
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
        /* A misa write clearing C at a pc that is not 4-byte aligned is ignored, and
         * Spike logs nothing for it. */
        bool ignored = a == CSR_MISA && !(nv & MISA_C) && (h->misa & MISA_C) && (d->pc & 2);
        if (!hart_csr_write(h, a, nv)) return hart_illegal(h, d);
        if (!ignored) log_csr_write(h, a);
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
