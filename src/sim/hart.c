/* hart.c — hart lifetime, the decoded-instruction cache, the run loops, traps and
 * interrupts, and the memory slow paths. Instruction semantics live in exec_*.c, CSRs in
 * csr.c, the CLINT in clint.c, the commit log in commitlog.c. */
#include <stdlib.h>
#include <string.h>

#include "hart_int.h"
#include "xphmg_csr.h"
#include "mem_hook.h"

_Static_assert(sizeof(hart_insn) == 32, "a cache entry should fill half a cache line");

#define ICACHE_ENTRIES (UINT64_C(1) << 16) /* direct-mapped, indexed by pc >> 1 */
#define EMPTY_TAG      UINT64_MAX

void hart_commit_log(hart *h, const hart_insn *d, uint64_t pc, unsigned priv);

/* ---- binding names to handlers ---- */

/* Atomics come in .aq/.rl/.aqrl spellings with identical semantics on a single hart in
 * a sequentially consistent simulator: the suffix is dropped before lookup. */
static void base_name(const char *name, char *out, size_t outlen)
{
    size_t n = strlen(name);
    if (n >= outlen) n = outlen - 1;
    memcpy(out, name, n);
    out[n] = 0;
    if (strncmp(out, "lr.", 3) && strncmp(out, "sc.", 3) && strncmp(out, "amo", 3)) return;
    static const char *const sfx[] = {".aqrl", ".aq", ".rl"};
    for (unsigned i = 0; i < 3; i++) {
        size_t k = strlen(sfx[i]);
        if (n > k && !strcmp(out + n - k, sfx[i])) {
            out[n - k] = 0;
            return;
        }
    }
}

static const hart_bind *find_bind(const char *name)
{
    char b[64];
    base_name(name, b, sizeof b);
    for (unsigned i = 0; i < hart_bind_base_count; i++)
        if (!strcmp(hart_bind_base[i].name, b)) return &hart_bind_base[i];
    for (unsigned i = 0; i < hart_bind_fp_count; i++)
        if (!strcmp(hart_bind_fp[i].name, b)) return &hart_bind_fp[i];
    return NULL;
}

static void bind_all(hart *h)
{
    for (unsigned op = 0; op < XOP__COUNT; op++) {
        const hart_bind *b = op ? find_bind(xop_names[op]) : NULL;
        h->xop_fn[op] = b ? b->fn : hart_exec_illegal;
        h->xop_wr[op] = b ? b->wr : HART_WR_NONE;
        h->xop_kind[op] = b ? (hart_kind_of(b->fn) | hart_kind_of_fp(b->fn)) : K_CALL;
    }
}

/* ---- cache invalidation ---- */

static void icache_flush(hart *h)
{
    for (uint64_t i = 0; i <= h->icache_mask; i++)
        h->icache[i].pc = EMPTY_TAG;
}

/* An instruction overlapping [a, a+n) starts in [a-2, a+n): every such start address
 * has exactly one slot in the direct-mapped cache. */
void hart_code_written(hart *h, uint64_t a, uint64_t n)
{
    if (n > 64) {
        /* Large writes come from the host (loader, HTIF read into a buffer): only a
         * write over pages that hold decoded code costs a full flush. */
        uint64_t off = a - h->ram_base;
        if (off >= h->ram_size || n > h->ram_size - off) {
            icache_flush(h);
            return;
        }
        for (uint64_t p = off >> 12; p <= (off + n - 1) >> 12; p++)
            if (h->page_flags[p] & PAGE_CODE) {
                icache_flush(h);
                return;
            }
        return;
    }
    uint64_t first = (a & ~UINT64_C(1)) - 2;
    uint64_t count = ((a + n - 1) - first) / 2 + 1;
    for (uint64_t k = 0; k < count; k++) {
        uint64_t pc = first + 2 * k;
        hart_insn *e = &h->icache[(pc >> 1) & h->icache_mask];
        if (e->pc == pc) e->pc = EMPTY_TAG;
    }
}

static void mem_hook(void *ctx, uint64_t addr, uint64_t n)
{
    hart_code_written(ctx, addr, n);
}

/* ---- lifetime ---- */

hart *hart_new(sim_mem *mem, uint64_t reset_pc)
{
    hart *h = calloc(1, sizeof *h);
    if (!h) return NULL;
    h->mem = mem;
    h->ram_base = mem_base(mem);
    h->ram_size = mem_size(mem);
    h->ram = mem_ptr(mem, h->ram_base, h->ram_size);
    h->page_flags = calloc((size_t)((h->ram_size + 4095) >> 12) + 1, 1);
    /* Two sentinel entries past the end (never filled, tag EMPTY) let the run loop find
     * a fall-through successor at d + len/2 without wrapping the index. */
    h->icache = malloc(sizeof(hart_insn) * (ICACHE_ENTRIES + 2));
    h->xop_fn = calloc(XOP__COUNT, sizeof *h->xop_fn);
    h->xop_wr = calloc(XOP__COUNT, 1);
    h->xop_kind = calloc(XOP__COUNT, 1);
    h->xop_unit = calloc(XOP__COUNT, sizeof *h->xop_unit);
    if (!h->page_flags || !h->icache || !h->xop_fn || !h->xop_wr || !h->xop_kind || !h->xop_unit) {
        hart_free(h);
        return NULL;
    }
    h->icache_mask = ICACHE_ENTRIES - 1;
    h->icache[ICACHE_ENTRIES].pc = h->icache[ICACHE_ENTRIES + 1].pc = EMPTY_TAG;
    bind_all(h);
    mem_set_write_hook(mem, mem_hook, h);
    hart_reset(h, reset_pc);
    return h;
}

void hart_free(hart *h)
{
    if (!h) return;
    if (h->mem) mem_set_write_hook(h->mem, NULL, NULL);
    free(h->page_flags);
    free(h->icache);
    free(h->xop_fn);
    free(h->xop_wr);
    free(h->xop_kind);
    free(h->xop_unit);
    free(h);
}

void hart_reset(hart *h, uint64_t reset_pc)
{
    memset(h->x, 0, sizeof h->x);
    memset(h->f, 0, sizeof h->f);
    h->pc = h->npc = reset_pc;
    h->priv = PRV_M;
    /* Reset values come from ISA/Registers of the XML (docs/errata.md P-94): mstatus
     * UXL=64 with FS=Initial, so bare-metal programs whose start-up code does not
     * enable the FPU still run; misa RV64 A, C, D, F, I, M, U and X (XPHMG). */
    h->mstatus = MSTATUS_RESET;
    h->misa = MISA_RESET;
    h->mtvec = h->mepc = h->mcause = h->mtval = h->mscratch = 0;
    h->medeleg = h->mideleg = h->mie = h->mip = 0;
    h->mcounteren = h->mcountinhibit = h->satp = h->mhartid = 0;
    memset(h->pmpcfg, 0, sizeof h->pmpcfg);
    memset(h->pmpaddr, 0, sizeof h->pmpaddr);
    h->fflags = h->frm = 0;
    h->instret = h->traps = 0;
    h->cycle_adj = h->instret_adj = 0;
    h->mtimecmp = UINT64_MAX; /* no timer interrupt until software programs one */
    h->msip = 0;
    h->mtime_adj = 0;
    h->stop = false;
    h->trapped = h->halted = h->wfi_pending = false;
    h->exit_code = 0;
    h->resv_valid = false;
    icache_flush(h);
    for (unsigned i = 0; i < h->unit_count; i++)
        if (h->units[i]->reset) h->units[i]->reset(h, h->unit_ctx[i]);
}

int hart_register_unit(hart *h, const hart_unit *u, void *ctx)
{
    if (!u || h->unit_count >= HART_MAX_UNITS) return -1;
    for (unsigned i = 0; i < u->insn_count; i++) {
        uint16_t op = u->insns[i].xop;
        if (op == 0 || op >= XOP__COUNT || h->xop_fn[op] != hart_exec_illegal) return -1;
        for (unsigned j = 0; j < i; j++)
            if (u->insns[j].xop == op) return -1;
    }
    for (unsigned i = 0; i < u->csr_count; i++) {
        const hart_unit_csrs *r = &u->csrs[i];
        if (r->lo > r->hi) return -1;
        for (uint32_t a = r->lo; a <= r->hi && a <= 0xfff; a++)
            if (hart_csr_name(a)) return -1;
        for (unsigned k = 0; k < h->unit_count; k++)
            for (unsigned j = 0; j < h->units[k]->csr_count; j++) {
                const hart_unit_csrs *o = &h->units[k]->csrs[j];
                if (r->lo <= o->hi && o->lo <= r->hi) return -1;
            }
    }
    unsigned idx = h->unit_count++;
    h->units[idx] = u;
    h->unit_ctx[idx] = ctx;
    for (unsigned i = 0; i < u->insn_count; i++) {
        uint16_t op = u->insns[i].xop;
        h->xop_fn[op] = hart_exec_unit;
        h->xop_wr[op] = u->insns[i].wr;
        h->xop_kind[op] = K_CALL;
        h->xop_unit[op].fn = u->insns[i].fn;
        h->xop_unit[op].ctx = ctx;
    }
    icache_flush(h); /* entries decoded earlier carry the illegal handler */
    if (u->reset) u->reset(h, ctx);
    return 0;
}

uint64_t hart_exec_unit(hart *h, const hart_insn *d)
{
    h->npc = NEXT;
    h->xop_unit[d->op].fn(h, h->xop_unit[d->op].ctx, d);
    return h->npc;
}

void hart_set_poll(hart *h, hart_poll_fn fn, void *ctx, uint64_t watch_lo, uint64_t watch_hi)
{
    h->poll = fn;
    h->poll_ctx = ctx;
    h->watch_lo = watch_hi > watch_lo ? watch_lo : 0;
    h->watch_hi = watch_hi > watch_lo ? watch_hi : 0;
    /* Stores reach the watch check through the page flags; a window outside RAM needs
     * none (stores there fault). */
    for (uint64_t a = h->watch_lo & ~UINT64_C(4095); a < h->watch_hi; a += 4096) {
        uint64_t off = a - h->ram_base;
        if (off < h->ram_size) h->page_flags[off >> 12] |= PAGE_WATCH;
        if (a + 4096 < a) break;
    }
}

void hart_set_log(hart *h, FILE *f)
{
    h->log = f;
}

void hart_halt(hart *h, int code)
{
    h->halted = true;
    h->exit_code = code;
    h->stop = true;
}

/* ---- traps ---- */

static void enter_trap(hart *h, uint64_t cause, uint64_t tval, uint64_t epc)
{
    h->mepc = epc;
    h->mcause = cause;
    h->mtval = tval;
    uint64_t s = h->mstatus;
    s = (s & ~MSTATUS_MPIE) | ((s & MSTATUS_MIE) ? MSTATUS_MPIE : 0);
    s &= ~MSTATUS_MIE;
    s = (s & ~MSTATUS_MPP) | ((uint64_t)h->priv << 11);
    h->mstatus = s;
    h->priv = PRV_M;
    h->resv_valid = false;
    h->traps++;
    uint64_t base = h->mtvec & ~UINT64_C(3);
    if ((h->mtvec & 3) == 1 && (cause >> 63)) base += 4 * (cause & 63);
    h->npc = base;
}

void hart_raise(hart *h, uint64_t cause, uint64_t tval)
{
    enter_trap(h, cause, tval, h->pc);
    h->trapped = true;
    h->instret--;   /* the loop counts every executed instruction as retired */
    h->stop = true; /* MIE changed: let the outer loop re-evaluate */
}

uint64_t hart_illegal(hart *h, const hart_insn *d)
{
    hart_raise(h, CAUSE_ILLEGAL_INSN, d->bits);
    return h->npc;
}
uint64_t hart_exec_illegal(hart *h, const hart_insn *d)
{
    return hart_illegal(h, d);
}

/* ---- memory slow paths: devices, watched words, faults ---- */

hart_ldres hart_load_slow(hart *h, uint64_t a, unsigned n)
{
    hart_ldres r = {0, false};
    if (a - CLINT_BASE < CLINT_SIZE && clint_load(h, a - CLINT_BASE, n, &r.v)) {
        if (h->tracing) hart_trace_mem(h, a, n, r.v, false);
        r.ok = true;
        return r;
    }
    hart_raise(h, CAUSE_LOAD_ACCESS, a);
    return r;
}

/* A store (or AMO) hit a flagged page: drop decoded instructions it overwrote, and run
 * the platform poll when it touched the watch window (HTIF tohost). */
void hart_store_notify(hart *h, uint64_t a, unsigned n)
{
    uint64_t off = a - h->ram_base;
    unsigned f = h->page_flags[off >> 12] | h->page_flags[(off + n - 1) >> 12];
    if (f & PAGE_CODE) hart_code_written(h, a, n);
    if ((f & PAGE_WATCH) && a < h->watch_hi && a + n > h->watch_lo && h->poll) {
        h->poll(h, h->poll_ctx);
        h->stop = true; /* finish this instruction, then re-check */
    }
}

bool hart_store_slow(hart *h, uint64_t a, unsigned n, uint64_t v)
{
    if (a - CLINT_BASE < CLINT_SIZE && clint_store(h, a - CLINT_BASE, n, v)) {
        if (h->tracing) hart_trace_mem(h, a, n, v, true);
        return true;
    }
    hart_raise(h, CAUSE_STORE_ACCESS, a);
    return false;
}

bool hart_load(hart *h, uint64_t addr, unsigned size, uint64_t *val)
{
    return ld(h, addr, size, val);
}
bool hart_store(hart *h, uint64_t addr, unsigned size, uint64_t val)
{
    return st(h, addr, size, val);
}

/* ---- fetch and decode ---- */

static bool fetch16(hart *h, uint64_t a, uint32_t *out)
{
    uint64_t off = a - h->ram_base;
    if (off > h->ram_size - 2) return false;
    uint16_t t;
    memcpy(&t, h->ram + off, 2);
    *out = t;
    return true;
}

/* Decodes the instruction at h->pc into its cache slot. Returns NULL after raising a
 * fetch fault (h->npc then holds the handler address). */
static hart_insn *refill(hart *h, uint64_t pc)
{
    uint32_t lo, hi = 0;
    if (!fetch16(h, pc, &lo)) {
        enter_trap(h, CAUSE_FETCH_ACCESS, pc, pc);
        return NULL;
    }
    unsigned len = (lo & 3) == 3 ? 4 : 2;
    if (len == 4 && !fetch16(h, pc + 2, &hi)) {
        enter_trap(h, CAUSE_FETCH_ACCESS, pc + 2, pc);
        return NULL;
    }
    uint32_t bits = lo | hi << 16;
    xdec x;
    memset(&x, 0, sizeof x);
    unsigned got = xdec_decode(bits, &x);
    hart_insn *e = &h->icache[(pc >> 1) & h->icache_mask];
    e->pc = pc;
    e->bits = bits;
    e->len = (uint8_t)len;
    if (got != len) {
        /* Unknown or reserved encoding (or a decoder/length disagreement, which would be
         * a spec bug): illegal instruction with the raw bits in mtval. */
        e->op = XOP_ILLEGAL;
        e->wr = HART_WR_NONE;
        e->k = K_CALL;
        e->imm = 0;
        e->csr = 0;
        e->rd = e->rs1 = e->rs2 = e->rs3 = e->rm = 0;
    } else {
        e->op = x.op;
        e->wr = h->xop_wr[x.op];
        e->k = h->xop_kind[x.op];
        e->imm = x.imm;
        e->csr = x.csr;
        e->rd = x.rd & 31;
        e->rs1 = x.rs1 & 31;
        e->rs2 = x.rs2 & 31;
        e->rs3 = x.rs3 & 31;
        e->rm = x.rm;
    }
    uint64_t off = pc - h->ram_base;
    h->page_flags[off >> 12] |= PAGE_CODE;
    h->page_flags[(off + len - 1) >> 12] |= PAGE_CODE;
    return e;
}

/* ---- interrupts and time ---- */

uint64_t hart_mtime(const hart *h)
{
    return h->instret / HART_TICK_INSNS + (uint64_t)h->mtime_adj;
}

uint64_t hart_mip(const hart *h)
{
    uint64_t p = 0;
    if (h->msip & 1) p |= UINT64_C(1) << IRQ_MSI;
    if (hart_mtime(h) >= h->mtimecmp) p |= UINT64_C(1) << IRQ_MTI;
    return p;
}

/* Takes a pending, enabled interrupt before the instruction at h->pc. */
static bool take_interrupt(hart *h)
{
    uint64_t pend = hart_mip(h) & h->mie;
    if (!pend || (h->priv == PRV_M && !(h->mstatus & MSTATUS_MIE))) return false;
    static const unsigned prio[] = {IRQ_MEI, IRQ_MSI, IRQ_MTI};
    for (unsigned i = 0; i < 3; i++)
        if (pend & (UINT64_C(1) << prio[i])) {
            enter_trap(h, (UINT64_C(1) << 63) | prio[i], 0, h->pc);
            h->pc = h->npc;
            return true;
        }
    return false;
}

/* WFI: with nothing pending, jump simulated time to the next timer event (if the timer
 * can wake the hart); otherwise WFI is a no-op, which the spec allows. */
static void do_wfi(hart *h)
{
    h->wfi_pending = false;
    if (hart_mip(h) & h->mie) return;
    if ((h->mie & (UINT64_C(1) << IRQ_MTI)) && h->mtimecmp != UINT64_MAX) {
        uint64_t now = hart_mtime(h);
        if (h->mtimecmp > now) h->mtime_adj += (int64_t)(h->mtimecmp - now);
    }
}

/* How many instructions may run before something the loop must notice can happen. */
static int64_t batch_len(const hart *h, uint64_t left)
{
    uint64_t n = HART_BATCH;
    if (h->mie & (UINT64_C(1) << IRQ_MTI)) {
        uint64_t now = hart_mtime(h);
        if (h->mtimecmp > now) {
            uint64_t ticks = h->mtimecmp - now;
            if (ticks < HART_BATCH) {
                uint64_t k = ticks * HART_TICK_INSNS - h->instret % HART_TICK_INSNS;
                if (k < n) n = k ? k : 1;
            }
        }
        /* Already pending: nothing changes until a CSR write, which ends the batch. */
    }
    if (left && left < n) n = left;
    return (int64_t)n;
}

/* ---- run loops: one without and one with the commit log, so tracing costs nothing
 * when off ---- */

/* The fast loop: threaded dispatch (GNU labels-as-values, as the issue allows:
 * "computed goto or switch"). Each case ends with its own indirect jump to the next
 * instruction's case, which predicts far better than one shared call site. Inline cases
 * cover the common instructions' fast paths only; everything else, and every slow path
 * (devices, faults, flagged pages), calls the entry's handler, the reference semantics.
 * The retired count lives in a register and is written back around handler calls,
 * which are the only code that reads it. */
static void run_fast(hart *h, int64_t n)
{
    static const void *const cases[K__COUNT] = {
        [K_CALL] = &&k_call,   [K_ADDI] = &&k_addi, [K_ADDIW] = &&k_addiw, [K_ANDI] = &&k_andi,
        [K_ORI] = &&k_ori,     [K_XORI] = &&k_xori, [K_SLLI] = &&k_slli,   [K_SRLI] = &&k_srli,
        [K_SRAI] = &&k_srai,   [K_SLTI] = &&k_slti, [K_SLTIU] = &&k_sltiu, [K_LUI] = &&k_lui,
        [K_AUIPC] = &&k_auipc, [K_ADD] = &&k_add,   [K_SUB] = &&k_sub,     [K_AND] = &&k_and,
        [K_OR] = &&k_or,       [K_XOR] = &&k_xor,   [K_SLL] = &&k_sll,     [K_SRL] = &&k_srl,
        [K_SRA] = &&k_sra,     [K_SLT] = &&k_slt,   [K_SLTU] = &&k_sltu,   [K_ADDW] = &&k_addw,
        [K_SUBW] = &&k_subw,   [K_MUL] = &&k_mul,   [K_JAL] = &&k_jal,     [K_JALR] = &&k_jalr,
        [K_BEQ] = &&k_beq,     [K_BNE] = &&k_bne,   [K_BLT] = &&k_blt,     [K_BGE] = &&k_bge,
        [K_BLTU] = &&k_bltu,   [K_BGEU] = &&k_bgeu, [K_LB] = &&k_lb,       [K_LBU] = &&k_lbu,
        [K_LH] = &&k_lh,       [K_LHU] = &&k_lhu,   [K_LW] = &&k_lw,       [K_LWU] = &&k_lwu,
        [K_LD] = &&k_ld,       [K_SB] = &&k_sb,     [K_SH] = &&k_sh,       [K_SW] = &&k_sw,
        [K_SD] = &&k_sd,       [K_FLW] = &&k_flw,   [K_FLD] = &&k_fld,     [K_FSW] = &&k_fsw,
        [K_FSD] = &&k_fsd,
    };
    hart_insn *const ic = h->icache;
    const uint64_t mask = h->icache_mask;
    hart_exec_fn *const xfn = h->xop_fn;
    uint64_t *const x = h->x, *const f = h->f;
    uint8_t *const ram = h->ram;
    const uint64_t base = h->ram_base, size = h->ram_size;
    const uint8_t *const pflags = h->page_flags;
    /* Retired count = ir0 + (n0 - n): the countdown doubles as the counter. */
    const int64_t n0 = n;
    uint64_t pc = h->pc, ir0 = h->instret;
#define IR() (ir0 + (uint64_t)(n0 - n))
    hart_insn *d; /* the entry of the instruction at pc (d->pc == pc) */

#define FETCH()                                                                                    \
    do {                                                                                           \
        d = &ic[(pc >> 1) & mask];                                                                 \
        if (UNLIKELY(d->pc != pc)) {                                                               \
            h->pc = pc;                                                                            \
            h->instret = IR();                                                                     \
            d = refill(h, pc);                                                                     \
            if (!d) {                                                                              \
                pc = h->npc;                                                                       \
                goto out;                                                                          \
            }                                                                                      \
        }                                                                                          \
    } while (0)
/* Retire an inline case and go to the next instruction's case. */
#define NEXT_INSN(npc)                                                                             \
    do {                                                                                           \
        pc = (npc);                                                                                \
        if (UNLIKELY(--n <= 0)) goto out;                                                          \
        FETCH();                                                                                   \
        goto *cases[d->k];                                                                         \
    } while (0)
/* Retire an inline case and fall through to the next instruction: its entry, if
 * cached, is the neighbouring slot (index (pc >> 1) & mask, plus sentinels at the end). */
#define NEXT_SEQ()                                                                                 \
    do {                                                                                           \
        unsigned l_ = d->len;                                                                      \
        pc += l_;                                                                                  \
        if (UNLIKELY(--n <= 0)) goto out;                                                          \
        d += l_ >> 1;                                                                              \
        if (UNLIKELY(d->pc != pc)) FETCH();                                                        \
        goto *cases[d->k];                                                                         \
    } while (0)
#define WX(v)                                                                                      \
    do {                                                                                           \
        x[d->rd] = (v);                                                                            \
        x[0] = 0; /* cheaper than a branch on rd */                                                \
    } while (0)
#define ALU(name, expr)                                                                            \
    name : {                                                                                       \
        uint64_t a = x[d->rs1], b = x[d->rs2];                                                     \
        WX(expr);                                                                                  \
        NEXT_SEQ();                                                                                \
    }
#define ALUI(name, expr)                                                                           \
    name : {                                                                                       \
        uint64_t a = x[d->rs1], b = (uint64_t)d->imm;                                              \
        WX(expr);                                                                                  \
        NEXT_SEQ();                                                                                \
    }
#define BRANCH(name, cond)                                                                         \
    name : {                                                                                       \
        uint64_t a = x[d->rs1], b = x[d->rs2];                                                     \
        NEXT_INSN((cond) ? pc + (uint64_t)d->imm : pc + d->len);                                   \
    }
/* RAM only: anything else (devices, faults) is the handler's business. */
#define LOADK(name, nb, T, conv)                                                                   \
    name : {                                                                                       \
        uint64_t off = x[d->rs1] + (uint64_t)d->imm - base;                                        \
        if (UNLIKELY(off > size - nb)) goto k_call;                                                \
        T t;                                                                                       \
        memcpy(&t, ram + off, nb);                                                                 \
        WX(conv);                                                                                  \
        NEXT_SEQ();                                                                                \
    }
/* RAM only, and neither over decoded code nor over the watch window. SRC is the
 * register file the value comes from (x, or f for fsw/fsd, which need FS != Off). */
#define STOREK(name, nb, T, SRC, COND)                                                             \
    name : {                                                                                       \
        uint64_t off = x[d->rs1] + (uint64_t)d->imm - base;                                        \
        if (UNLIKELY(!(COND))) goto k_call;                                                        \
        if (UNLIKELY(off > size - nb)) goto k_call;                                                \
        if (UNLIKELY(pflags[off >> 12] | pflags[(off + nb - 1) >> 12]) &&                          \
            ((pflags[off >> 12] | pflags[(off + nb - 1) >> 12]) & PAGE_CODE ||                     \
             (off + base < h->watch_hi && off + base + nb > h->watch_lo)))                         \
            goto k_call;                                                                           \
        T t = (T)SRC[d->rs2];                                                                      \
        memcpy(ram + off, &t, nb);                                                                 \
        NEXT_SEQ();                                                                                \
    }
/* flw/fld: FS != Off; the value is NaN-boxed (flw) and FS becomes Dirty. */
#define FLOADK(name, nb, T, box)                                                                   \
    name : {                                                                                       \
        uint64_t off = x[d->rs1] + (uint64_t)d->imm - base;                                        \
        if (UNLIKELY(off > size - nb) || UNLIKELY(!(h->mstatus & MSTATUS_FS))) goto k_call;        \
        T t;                                                                                       \
        memcpy(&t, ram + off, nb);                                                                 \
        f[d->rd] = (box) | t;                                                                      \
        h->mstatus |= FS_DIRTY;                                                                    \
        NEXT_SEQ();                                                                                \
    }

    FETCH();
    goto *cases[d->k];

k_call:
    h->pc = pc;
    h->instret = IR();
    pc = xfn[d->op](h, d);
    ir0 = h->instret - (uint64_t)(n0 - n); /* +1 by the decrement below, unless it trapped */
    if (UNLIKELY(--n <= 0) || UNLIKELY(h->stop)) goto out;
    FETCH();
    goto *cases[d->k];

    ALUI(k_addi, a + b)
    ALUI(k_addiw, (uint64_t)sext32(a + b))
    ALUI(k_andi, a & b)
    ALUI(k_ori, a | b)
    ALUI(k_xori, a ^ b)
    ALUI(k_slli, a << (b & 63))
    ALUI(k_srli, a >> (b & 63))
    ALUI(k_srai, (uint64_t)((int64_t)a >> (b & 63)))
    ALUI(k_slti, (uint64_t)((int64_t)a < (int64_t)b))
    ALUI(k_sltiu, (uint64_t)(a < b))
k_lui:
    WX((uint64_t)d->imm << 12);
    NEXT_SEQ();
k_auipc:
    WX(pc + ((uint64_t)d->imm << 12));
    NEXT_SEQ();
    ALU(k_add, a + b)
    ALU(k_sub, a - b)
    ALU(k_and, a & b)
    ALU(k_or, a | b)
    ALU(k_xor, a ^ b)
    ALU(k_sll, a << (b & 63))
    ALU(k_srl, a >> (b & 63))
    ALU(k_sra, (uint64_t)((int64_t)a >> (b & 63)))
    ALU(k_slt, (uint64_t)((int64_t)a < (int64_t)b))
    ALU(k_sltu, (uint64_t)(a < b))
    ALU(k_addw, (uint64_t)sext32(a + b))
    ALU(k_subw, (uint64_t)sext32(a - b))
    ALU(k_mul, a * b)
k_jal : {
    uint64_t t = pc + (uint64_t)d->imm;
    WX(pc + d->len);
    NEXT_INSN(t);
}
k_jalr : {
    uint64_t t = (x[d->rs1] + (uint64_t)d->imm) & ~UINT64_C(1);
    WX(pc + d->len);
    NEXT_INSN(t);
}
    BRANCH(k_beq, a == b)
    BRANCH(k_bne, a != b)
    BRANCH(k_blt, (int64_t)a < (int64_t)b)
    BRANCH(k_bge, (int64_t)a >= (int64_t)b)
    BRANCH(k_bltu, a < b)
    BRANCH(k_bgeu, a >= b)
    LOADK(k_lb, 1, int8_t, (uint64_t)(int64_t)t)
    LOADK(k_lbu, 1, uint8_t, (uint64_t)t)
    LOADK(k_lh, 2, int16_t, (uint64_t)(int64_t)t)
    LOADK(k_lhu, 2, uint16_t, (uint64_t)t)
    LOADK(k_lw, 4, int32_t, (uint64_t)(int64_t)t)
    LOADK(k_lwu, 4, uint32_t, (uint64_t)t)
    LOADK(k_ld, 8, uint64_t, t)
    STOREK(k_sb, 1, uint8_t, x, 1)
    STOREK(k_sh, 2, uint16_t, x, 1)
    STOREK(k_sw, 4, uint32_t, x, 1)
    STOREK(k_sd, 8, uint64_t, x, 1)
    STOREK(k_fsw, 4, uint32_t, f, h->mstatus & MSTATUS_FS)
    STOREK(k_fsd, 8, uint64_t, f, h->mstatus & MSTATUS_FS)
    FLOADK(k_flw, 4, uint32_t, UINT64_C(0xffffffff00000000))
    FLOADK(k_fld, 8, uint64_t, 0)

out:
    h->pc = pc;
    h->instret = IR();
#undef IR
#undef FETCH
#undef NEXT_INSN
#undef NEXT_SEQ
#undef WX
#undef ALU
#undef ALUI
#undef BRANCH
#undef LOADK
#undef STOREK
#undef FLOADK
}

static void run_traced(hart *h, int64_t n)
{
    uint64_t pc = h->pc;
    do {
        unsigned priv = h->priv;
        hart_insn *d = &h->icache[(pc >> 1) & h->icache_mask];
        if (d->pc != pc) {
            h->pc = pc;
            d = refill(h, pc);
            if (!d) {
                pc = h->npc;
                break;
            }
        }
        h->pc = pc;
        h->trapped = false;
        h->trace_nmem = h->trace_ncsr = 0;
        h->tracing = true;
        uint64_t next = h->xop_fn[d->op](h, d);
        h->tracing = false;
        h->instret++;
        if (!h->trapped) hart_commit_log(h, d, pc, priv);
        pc = next;
    } while (--n > 0 && !h->stop);
    h->pc = pc;
}

hart_run_result hart_run(hart *h, uint64_t max_insns)
{
    /* Trapping instructions count toward the limit too, so a trap loop (say mtvec
     * pointing at unmapped memory) still ends. */
    uint64_t start = h->instret + h->traps;
    for (;;) {
        if (h->halted) return HART_RUN_HALTED;
        uint64_t done = h->instret + h->traps - start;
        if (max_insns && done >= max_insns) return HART_RUN_LIMIT;
        if (h->wfi_pending) do_wfi(h);
        take_interrupt(h);
        int64_t n = batch_len(h, max_insns ? max_insns - done : 0);
        h->stop = false;
        if (h->log)
            run_traced(h, n);
        else
            run_fast(h, n);
        if (h->poll && !h->halted) h->poll(h, h->poll_ctx);
    }
}
