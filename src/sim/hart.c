/* hart.c — hart lifetime, the decoded-instruction cache, the run loops, traps and
 * interrupts, and the memory slow paths. Instruction semantics live in exec_*.c, CSRs in
 * csr.c, the CLINT in clint.c, the commit log in commitlog.c. */
#include <stdlib.h>
#include <string.h>

#include "hart_int.h"
#include "jit.h"
#include "xphmg_csr.h"
#include "mem_hook.h"

_Static_assert(sizeof(hart_insn) == 64, "a cache entry should fill one cache line");

/* The fast loop's case addresses (labels-as-values, so they only exist inside
 * run_fast); published by run_fast(h, 0), which hart_new calls, so that refill() can
 * store an entry's case address in the entry itself. */
static const void *const *case_labels;
static void run_fast(hart *h, int64_t n);

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

/* The misa letter an instruction belongs to ('I' for the base, Zicsr, Zifencei and
 * privileged ones); compressed FP loads/stores need C and D. */
static uint64_t ext_bits(const char *n)
{
#define L(c) (UINT64_C(1) << ((c) - 'A'))
    uint64_t m = 0;
    const char *b = n;
    if (!strncmp(n, "c.", 2)) {
        m |= L('C');
        b = n + 2;
    }
    if (!strncmp(b, "mul", 3) || !strncmp(b, "div", 3) || !strncmp(b, "rem", 3)) m |= L('M');
    if (!strncmp(b, "lr.", 3) || !strncmp(b, "sc.", 3) || !strncmp(b, "amo", 3)) m |= L('A');
    if (b[0] == 'f' && strncmp(b, "fence", 5)) {
        size_t k = strlen(b);
        bool dbl = (k > 2 && !strcmp(b + k - 2, ".d")) || strstr(b, ".d.") || !strcmp(b, "fld") ||
                   !strcmp(b, "fsd") || !strcmp(b, "fldsp") || !strcmp(b, "fsdsp");
        m |= dbl ? L('D') : L('F');
    }
    return m;
#undef L
}

static void bind_all(hart *h)
{
    for (unsigned op = 0; op < XOP__COUNT; op++) {
        const hart_bind *b = op ? find_bind(xop_names[op]) : NULL;
        if (b && (ext_bits(xop_names[op]) & ~h->misa_max)) b = NULL;
        h->xop_fn[op] = b ? b->fn : hart_exec_illegal;
        h->xop_wr[op] = b ? b->wr : HART_WR_NONE;
        h->xop_kind[op] = b ? (hart_kind_of(b->fn) | hart_kind_of_fp(b->fn)) : K_CALL;
    }
}

/* ---- cache invalidation ---- */

/* Empties every slot an entry may have been decoded into since the last flush: those
 * listed in h->code_slot (refill_at lists each slot it fills), else those of the pages in
 * h->code_page (an entry's slot is fixed by its start address, and refill_at lists the
 * page of every start address), or all of them after more pages than the list holds.
 * Resets and fence.i come often (once per input under fuzzing); the whole cache is
 * 4 MiB. */
void hart_icache_flush(hart *h)
{
    jit_flush_request(h);
    uint64_t npages = (h->ram_size + 4095) >> 12;
    bool by_slot = h->code_slot_count <= HART_CODE_SLOTS;
    if (by_slot)
        for (unsigned k = 0; k < h->code_slot_count; k++)
            h->icache[h->code_slot[k]].pc = EMPTY_TAG;
    if (h->code_page_count > HART_CODE_PAGES) {
        if (!by_slot)
            for (uint64_t i = 0; i <= h->icache_mask; i++)
                h->icache[i].pc = EMPTY_TAG;
        for (uint64_t p = 0; p < npages; p++)
            h->page_flags[p] &= (uint8_t)~PAGE_CODE;
    } else {
        for (unsigned k = 0; k < h->code_page_count; k++) {
            uint64_t p = h->code_page[k];
            uint64_t first = (h->ram_base + (p << 12)) >> 1;
            if (!by_slot)
                for (uint64_t i = 0; i < 2048; i++)
                    h->icache[(first + i) & h->icache_mask].pc = EMPTY_TAG;
            h->page_flags[p] &= (uint8_t)~PAGE_CODE;
        }
    }
    h->code_page_count = 0;
    h->code_slot_count = 0;
}

static void mark_code_page(hart *h, uint64_t p)
{
    if (h->page_flags[p] & PAGE_CODE) return;
    h->page_flags[p] |= PAGE_CODE;
    if (h->code_page_count < HART_CODE_PAGES) h->code_page[h->code_page_count] = (uint32_t)p;
    if (h->code_page_count <= HART_CODE_PAGES) h->code_page_count++;
}

/* An instruction overlapping [a, a+n) starts in [a-2, a+n): every such start address
 * has exactly one slot in the direct-mapped cache. */
void hart_code_written(hart *h, uint64_t a, uint64_t n)
{
    jit_code_written(h, a, n);
    if (n > 64) {
        /* Large writes come from the host (loader, HTIF read into a buffer): only a
         * write over pages that hold decoded code costs a full flush. */
        uint64_t off = a - h->ram_base;
        if (off >= h->ram_size || n > h->ram_size - off) {
            hart_icache_flush(h);
            return;
        }
        for (uint64_t p = off >> 12; p <= (off + n - 1) >> 12; p++)
            if (h->page_flags[p] & PAGE_CODE) {
                hart_icache_flush(h);
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

/* A host write (loader, HTIF, syscalls): anything not all in RAM counts as touching
 * every page. */
static void mem_hook(void *ctx, uint64_t addr, uint64_t n)
{
    hart *h = ctx;
    hart_code_written(h, addr, n);
    uint64_t off = addr - h->ram_base;
    if (off >= h->ram_size || n > h->ram_size - off) {
        hart_rt_written(h);
        return;
    }
    if (addr < h->rt_hi && addr + n > h->rt_lo) hart_rt_written(h);
}

void hart_rt_written(hart *h)
{
    h->rt_epoch++;
    for (uint64_t p = h->rt_pg_lo; p < h->rt_pg_hi; p++)
        h->page_flags[p] &= (uint8_t)~PAGE_RT;
    h->rt_pg_lo = h->rt_pg_hi = 0;
    h->rt_lo = h->rt_hi = 0;
}

uint64_t hart_ram_epoch(hart *h)
{
    if (h->xlate) hart_rt_written(h);
    return h->rt_epoch;
}

bool hart_ram_watch(hart *h, uint64_t addr, uint64_t n)
{
    uint64_t off = addr - h->ram_base;
    if (h->xlate || n == 0 || off >= h->ram_size || n > h->ram_size - off) return false;
    uint64_t p0 = off >> 12, p1 = ((off + n - 1) >> 12) + 1;
    for (uint64_t p = p0; p < p1; p++)
        h->page_flags[p] |= PAGE_RT;
    if (h->rt_pg_lo >= h->rt_pg_hi || p0 < h->rt_pg_lo) h->rt_pg_lo = p0;
    if (p1 > h->rt_pg_hi) h->rt_pg_hi = p1;
    if (h->rt_lo >= h->rt_hi || addr < h->rt_lo) h->rt_lo = addr;
    if (addr + n > h->rt_hi) h->rt_hi = addr + n;
    return true;
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
    h->icache = aligned_alloc(64, sizeof(hart_insn) * (ICACHE_ENTRIES + 2));
    h->xop_fn = calloc(XOP__COUNT, sizeof *h->xop_fn);
    h->xop_wr = calloc(XOP__COUNT, 1);
    h->xop_kind = calloc(XOP__COUNT, 1);
    h->xop_unit = calloc(XOP__COUNT, sizeof *h->xop_unit);
    if (!h->page_flags || !h->icache || !h->xop_fn || !h->xop_wr || !h->xop_kind || !h->xop_unit) {
        hart_free(h);
        return NULL;
    }
    h->icache_mask = ICACHE_ENTRIES - 1;
    h->code_page_count = HART_CODE_PAGES + 1; /* the slots hold garbage yet */
    h->code_slot_count = HART_CODE_SLOTS + 1;
    h->misa_max = MISA_RESET;
    mem_set_write_hook(mem, mem_hook, h);
    run_fast(h, 0); /* publishes case_labels */
    h->icache[ICACHE_ENTRIES].pc = h->icache[ICACHE_ENTRIES + 1].pc = EMPTY_TAG;
    bind_all(h);
    hart_reset(h, reset_pc);
    return h;
}

void hart_set_isa(hart *h, uint64_t misa, uint64_t reset_pc)
{
    h->misa_max = misa;
    bind_all(h);
    hart_reset(h, reset_pc);
}

void hart_free(hart *h)
{
    if (!h) return;
    if (h->mem) mem_set_write_hook(h->mem, NULL, NULL);
    jit_free(h->jit);
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
    h->misa = h->misa_max;
    h->mtvec = h->mepc = h->mcause = h->mtval = h->mscratch = 0;
    h->medeleg = h->mideleg = h->mie = h->mip = 0;
    h->mcounteren = h->mcountinhibit = h->satp = h->mhartid = 0;
    h->stvec = h->sepc = h->scause = h->stval = h->sscratch = 0;
    h->scounteren = h->senvcfg = h->menvcfg = 0;
    memset(h->pmpcfg, 0, sizeof h->pmpcfg);
    memset(h->pmpaddr, 0, sizeof h->pmpaddr);
    for (unsigned i = 0; i < HART_NTRIG; i++)
        hart_trigger_clear(h, i);
    h->tselect = 0;
    h->fflags = h->frm = 0;
    h->instret = h->traps = 0;
    h->cycle_adj = h->instret_adj = 0;
    h->mtimecmp = UINT64_MAX; /* no timer interrupt until software programs one */
    h->msip = 0;
    h->mtime_adj = 0;
    h->stop = false;
    h->trapped = h->halted = h->wfi_pending = false;
    h->budget_end = UINT64_MAX; /* no hart_run in progress: nothing to exhaust */
    h->exit_code = 0;
    h->resv_valid = false;
    h->slice_base = 0;
    hart_update_xlate(h, true); /* also a new RAM epoch for the RT engine (pmp = true) */
    hart_icache_flush(h);
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
    hart_icache_flush(h); /* entries decoded earlier carry the illegal handler */
    if (u->reset) u->reset(h, ctx);
    return 0;
}

uint64_t hart_exec_unit(hart *h, const hart_insn *d)
{
    h->npc = NEXT;
    h->xop_unit[d->op].fn(h, h->xop_unit[d->op].ctx, d);
    return h->npc;
}

void hart_set_access_watch(hart *h, hart_access_fn fn, void *ctx)
{
    h->access_fn = fn;
    h->access_ctx = ctx;
    hart_update_xlate(h, false); /* the fast paths do not report: take the slow ones */
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

/* Takes trap `cause` at epc: to S mode when delegated (medeleg/mideleg) and the hart
 * is not in M mode, else to M. */
static void enter_trap(hart *h, uint64_t cause, uint64_t tval, uint64_t epc)
{
    if (h->log) hart_log_trap(h, cause, epc, tval);
    bool irq = cause >> 63;
    uint64_t deleg = irq ? h->mideleg : h->medeleg;
    uint64_t s = h->mstatus, vec;
    if (h->priv <= PRV_S && ((deleg >> (cause & 63)) & 1)) {
        h->sepc = epc;
        h->scause = cause;
        h->stval = tval;
        s = (s & ~MSTATUS_SPIE) | ((s & MSTATUS_SIE) ? MSTATUS_SPIE : 0);
        s &= ~(MSTATUS_SIE | MSTATUS_SPP);
        s |= (uint64_t)h->priv << 8;
        h->priv = PRV_S;
        vec = h->stvec;
    } else {
        h->mepc = epc;
        h->mcause = cause;
        h->mtval = tval;
        s = (s & ~MSTATUS_MPIE) | ((s & MSTATUS_MIE) ? MSTATUS_MPIE : 0);
        s &= ~MSTATUS_MIE;
        s = (s & ~MSTATUS_MPP) | ((uint64_t)h->priv << 11);
        h->priv = PRV_M;
        vec = h->mtvec;
    }
    h->mstatus = s;
    h->resv_valid = false;
    h->slice_base = h->instret;
    h->traps++;
    hart_update_xlate(h, false);
    uint64_t base = vec & ~UINT64_C(3);
    if ((vec & 3) == 1 && irq) base += 4 * (cause & 63);
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

/* A physical load of n bytes at pa for the access at virtual address va (the commit
 * log and the fault show va): RAM, the CLINT, the regions. */
static hart_ldres phys_load(hart *h, uint64_t pa, uint64_t va, unsigned n)
{
    hart_ldres r = {0, false};
    uint64_t off = pa - h->ram_base;
    if (off <= h->ram_size - n) {
        memcpy(&r.v, h->ram + off, n); /* little-endian host (hart_int.h): zero-extended */
        r.ok = true;
    } else if (pa - CLINT_BASE < CLINT_SIZE && clint_load(h, pa - CLINT_BASE, n, &r.v)) {
        r.ok = true;
    } else {
        const uint8_t *p = hart_region_ptr(h, pa, n, false);
        if (p) {
            memcpy(&r.v, p, n);
            r.ok = true;
        }
    }
    if (!r.ok) {
        hart_raise(h, CAUSE_LOAD_ACCESS, va);
        return r;
    }
    hart_note_access(h, va, n, HART_ACC_LOAD);
    if (h->tracing) hart_trace_mem(h, va, n, r.v, false);
    return r;
}

static bool crosses_page(uint64_t a, unsigned n)
{
    return ((a & 4095) + n) > 4096;
}

/* Every load the inline fast paths do not perform: devices, regions, faults, and
 * everything while h->xlate (translation, PMP, triggers). */
hart_ldres hart_load_slow(hart *h, uint64_t a, unsigned n)
{
    if (!h->xlate) return phys_load(h, a, a, n);
    hart_ldres r = {0, false};
    if (crosses_page(a, n)) {
        /* Misaligned across a page: byte by byte, each through its own translation. */
        bool tr = h->tracing;
        h->tracing = false;
        for (unsigned i = 0; i < n; i++) {
            hart_ldres b = hart_load_slow(h, a + i, 1);
            if (!b.ok) {
                h->tracing = tr;
                return b;
            }
            r.v |= b.v << (8 * i);
        }
        h->tracing = tr;
        if (tr) hart_trace_mem(h, a, n, r.v, false);
        r.ok = true;
        return r;
    }
    uint64_t pa;
    if (!hart_translate(h, a, n, ACC_LOAD, &pa, true)) return r;
    return phys_load(h, pa, a, n);
}

/* A store (or AMO) hit a flagged page: drop decoded instructions it overwrote, and run
 * the platform poll when it touched the watch window (HTIF tohost). */
void hart_store_notify(hart *h, uint64_t a, unsigned n)
{
    uint64_t off = a - h->ram_base;
    unsigned f = h->page_flags[off >> 12] | h->page_flags[(off + n - 1) >> 12];
    if (f & PAGE_CODE) hart_code_written(h, a, n);
    if ((f & PAGE_RT) && a < h->rt_hi && a + n > h->rt_lo) hart_rt_written(h);
    if ((f & PAGE_WATCH) && a < h->watch_hi && a + n > h->watch_lo && h->poll) {
        h->poll(h, h->poll_ctx);
        h->stop = true; /* finish this instruction, then re-check */
    }
}

static bool phys_store(hart *h, uint64_t pa, uint64_t va, unsigned n, uint64_t v)
{
    uint64_t off = pa - h->ram_base;
    if (off <= h->ram_size - n) {
        hart_note_access(h, va, n, HART_ACC_STORE);
        memcpy(h->ram + off, &v, n);
        if (h->tracing) hart_trace_mem(h, va, n, v, true);
        if (h->page_flags[off >> 12] | h->page_flags[(off + n - 1) >> 12])
            hart_store_notify(h, pa, n);
        return true;
    }
    if (pa - CLINT_BASE < CLINT_SIZE && clint_store(h, pa - CLINT_BASE, n, v)) {
        hart_note_access(h, va, n, HART_ACC_STORE);
        if (h->tracing) hart_trace_mem(h, va, n, v, true);
        return true;
    }
    uint8_t *p = hart_region_ptr(h, pa, n, true);
    if (p) {
        hart_note_access(h, va, n, HART_ACC_STORE);
        memcpy(p, &v, n);
        if (h->tracing) hart_trace_mem(h, va, n, v, true);
        return true;
    }
    hart_raise(h, CAUSE_STORE_ACCESS, va);
    return false;
}

bool hart_store_slow(hart *h, uint64_t a, unsigned n, uint64_t v)
{
    if (!h->xlate) return phys_store(h, a, a, n, v);
    if (crosses_page(a, n)) {
        /* Every byte's translation first, so a fault leaves memory untouched. */
        uint64_t pa[8];
        for (unsigned i = 0; i < n; i++)
            if (!hart_translate(h, a + i, 1, ACC_STORE, &pa[i], true)) return false;
        bool tr = h->tracing;
        h->tracing = false;
        bool ok = true;
        for (unsigned i = 0; i < n && ok; i++)
            ok = phys_store(h, pa[i], a + i, 1, (v >> (8 * i)) & 0xff);
        h->tracing = tr;
        if (ok && tr) hart_trace_mem(h, a, n, v, true);
        return ok;
    }
    uint64_t pa;
    if (!hart_translate(h, a, n, ACC_STORE, &pa, true)) return false;
    return phys_store(h, pa, a, n, v);
}

uint8_t *hart_region_ptr(hart *h, uint64_t a, unsigned n, bool store)
{
    for (unsigned i = 0; i < h->region_count; i++) {
        uint64_t off = a - h->region[i].base;
        if (n <= h->region[i].size && off <= h->region[i].size - n) {
            if (h->region[i].check && !h->region[i].check(h->region[i].check_ctx, a, n, store))
                return NULL;
            return h->region[i].host + off;
        }
    }
    return NULL;
}

int hart_region_set_check(hart *h, uint64_t base, hart_region_check_fn fn, void *ctx)
{
    for (unsigned i = 0; i < h->region_count; i++) {
        if (h->region[i].base != base) continue;
        h->region[i].check = fn;
        h->region[i].check_ctx = ctx;
        return 0;
    }
    return -1;
}

static bool overlaps(uint64_t a, uint64_t an, uint64_t b, uint64_t bn)
{
    return a < b + bn && b < a + an;
}

int hart_add_region(hart *h, uint64_t base, uint64_t size, uint8_t *host)
{
    if (!size || !host || base + size < base || h->region_count >= HART_MAX_REGIONS) return -1;
    if (overlaps(base, size, h->ram_base, h->ram_size) ||
        overlaps(base, size, CLINT_BASE, CLINT_SIZE))
        return -1;
    for (unsigned i = 0; i < h->region_count; i++)
        if (overlaps(base, size, h->region[i].base, h->region[i].size)) return -1;
    h->region[h->region_count].base = base;
    h->region[h->region_count].size = size;
    h->region[h->region_count].host = host;
    h->region[h->region_count].check = NULL;
    h->region[h->region_count].check_ctx = NULL;
    h->region_count++;
    return 0;
}

bool hart_load(hart *h, uint64_t addr, unsigned size, uint64_t *val)
{
    return ld(h, addr, size, val);
}
bool hart_store(hart *h, uint64_t addr, unsigned size, uint64_t val)
{
    return st(h, addr, size, val);
}

bool hart_mem_ok(hart *h, uint64_t addr, unsigned size, bool store)
{
    if (size != 1 && size != 2 && size != 4 && size != 8) return false;
    if (h->xlate) {
        if (crosses_page(addr, size))
            return hart_mem_ok(h, addr, 1, store) && hart_mem_ok(h, addr + size - 1, 1, store);
        if (!hart_translate(h, addr, size, store ? ACC_STORE : ACC_LOAD, &addr, false))
            return false;
    }
    if (size <= h->ram_size && addr - h->ram_base <= h->ram_size - size) return true;
    /* A CLINT load has no side effect, and it accepts exactly what a store accepts. */
    uint64_t v;
    if (addr - CLINT_BASE < CLINT_SIZE && clint_load(h, addr - CLINT_BASE, size, &v)) return true;
    return hart_region_ptr(h, addr, size, store) != NULL;
}

bool hart_quiet_load(void *hart_ctx, uint64_t addr, unsigned size, uint64_t *val)
{
    hart *h = hart_ctx;
    return hart_mem_ok(h, addr, size, false) && hart_load(h, addr, size, val);
}

bool hart_quiet_store(void *hart_ctx, uint64_t addr, unsigned size, uint64_t val)
{
    hart *h = hart_ctx;
    return hart_mem_ok(h, addr, size, true) && hart_store(h, addr, size, val);
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

/* The inline case for an instruction whose destination is x0: none of them has an
 * effect other than writing rd, except loads (which may fault: they take the handler)
 * and jumps (which still jump). */
static uint8_t k_no_x0(uint8_t k)
{
    switch (k) {
    case K_JAL:
        return K_J;
    case K_JALR:
        return K_JR;
    case K_LB:
    case K_LBU:
    case K_LH:
    case K_LHU:
    case K_LW:
    case K_LWU:
    case K_LD:
    case K_FMV_X_D:
        return K_CALL;
    case K_ADDI:
    case K_ADDIW:
    case K_ANDI:
    case K_ORI:
    case K_XORI:
    case K_SLLI:
    case K_SRLI:
    case K_SRAI:
    case K_SLTI:
    case K_SLTIU:
    case K_LUI:
    case K_AUIPC:
    case K_ADD:
    case K_SUB:
    case K_AND:
    case K_OR:
    case K_XOR:
    case K_SLL:
    case K_SRL:
    case K_SRA:
    case K_SLT:
    case K_SLTU:
    case K_ADDW:
    case K_SUBW:
    case K_MUL:
    case K_SLLIW:
    case K_SRLIW:
    case K_SRAIW:
    case K_SLLW:
    case K_SRLW:
    case K_SRAW:
    case K_MULW:
        return K_NOP;
    default:
        return k; /* stores, branches, FP: rd is not an x destination */
    }
}

/* Fills cache entry e with the decoded instruction `bits` at address pc. */
static void decode_entry(hart *h, hart_insn *e, uint64_t pc, uint32_t bits, unsigned len)
{
    xdec x;
    memset(&x, 0, sizeof x);
    unsigned got = xdec_decode(bits, &x);
    e->pc = pc;
    e->npc = pc + len;
    e->bits = bits;
    e->len = (uint8_t)len;
    e->step = (uint8_t)(len / 2 * sizeof(hart_insn));
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
        if (e->rd == 0) e->k = k_no_x0(e->k);
    }
    e->lbl = case_labels[e->k];
    /* pc-relative jumps: the slot their target maps to is fixed (the tag check still
     * decides whether it holds the target), so the loop need not index the cache */
    e->tslot = &h->icache[((pc + (uint64_t)e->imm) >> 1) & h->icache_mask];
}

/* Decodes the instruction at physical address pc into its cache slot (no translation).
 * Returns NULL after raising a fetch fault with tval/epc at virtual address vpc (h->npc
 * then holds the handler address). */
static hart_insn *refill_at(hart *h, uint64_t pc, uint64_t vpc)
{
    uint32_t lo, hi = 0;
    if (!fetch16(h, pc, &lo)) {
        enter_trap(h, CAUSE_FETCH_ACCESS, vpc, vpc);
        return NULL;
    }
    unsigned len = (lo & 3) == 3 ? 4 : 2;
    if (len == 4 && !fetch16(h, pc + 2, &hi)) {
        enter_trap(h, CAUSE_FETCH_ACCESS, vpc + 2, vpc);
        return NULL;
    }
    uint64_t slot = (pc >> 1) & h->icache_mask;
    hart_insn *e = &h->icache[slot];
    decode_entry(h, e, pc, lo | hi << 16, len);
    if (h->code_slot_count < HART_CODE_SLOTS) h->code_slot[h->code_slot_count] = (uint32_t)slot;
    if (h->code_slot_count <= HART_CODE_SLOTS) h->code_slot_count++;
    uint64_t off = pc - h->ram_base;
    mark_code_page(h, off >> 12);
    mark_code_page(h, (off + len - 1) >> 12);
    return e;
}

bool hart_decode_phys(hart *h, uint64_t pc, hart_insn *e)
{
    uint32_t lo, hi = 0;
    if (!fetch16(h, pc, &lo)) return false;
    unsigned len = (lo & 3) == 3 ? 4 : 2;
    if (len == 4 && !fetch16(h, pc + 2, &hi)) return false;
    decode_entry(h, e, pc, lo | hi << 16, len);
    uint64_t off = pc - h->ram_base;
    /* Listed like refill_at's pages: a page flagged without being listed would keep the
     * interpreter's later entries on it out of hart_icache_flush. */
    mark_code_page(h, off >> 12);
    mark_code_page(h, (off + len - 1) >> 12);
    return true;
}

void hart_watch_phys(hart *h, uint64_t pa, unsigned n)
{
    uint64_t off = pa - h->ram_base;
    if (off >= h->ram_size || n > h->ram_size - off) return;
    mark_code_page(h, off >> 12);
    mark_code_page(h, (off + n - 1) >> 12);
}

static hart_insn *refill(hart *h, uint64_t pc)
{
    return refill_at(h, pc, pc);
}

/* The careful loop's fetch: the instruction at virtual address pc through translation
 * and the PMP, in *tmp (the cached entry of its physical address, with the virtual pc)
 * or NULL after raising the fault. An instruction whose halves lie on two different
 * physical pages is decoded without the cache. */
static hart_insn *fetch_careful(hart *h, uint64_t pc, hart_insn *tmp)
{
    uint64_t pa, pa2;
    /* hart_raise counts the faulting instruction out of instret; a fetch fault was never
     * counted in, so that is undone. */
    if (!hart_translate(h, pc, 2, ACC_FETCH, &pa, true)) {
        h->trapped = false;
        h->instret++;
        return NULL;
    }
    uint32_t lo;
    if (!fetch16(h, pa, &lo)) {
        enter_trap(h, CAUSE_FETCH_ACCESS, pc, pc);
        return NULL;
    }
    hart_insn *e = NULL;
    if ((lo & 3) == 3 && (pc & 4095) == 4094) {
        uint32_t hi;
        if (!hart_translate(h, pc + 2, 2, ACC_FETCH, &pa2, true)) {
            h->trapped = false;
            h->instret++;
            return NULL;
        }
        if (pa2 != pa + 2) {
            if (!fetch16(h, pa2, &hi)) {
                enter_trap(h, CAUSE_FETCH_ACCESS, pc + 2, pc);
                return NULL;
            }
            decode_entry(h, tmp, pc, lo | hi << 16, 4);
            return tmp;
        }
    }
    e = &h->icache[(pa >> 1) & h->icache_mask];
    if (e->pc != pa && !(e = refill_at(h, pa, pc))) return NULL;
    *tmp = *e;
    tmp->pc = pc;
    tmp->npc = pc + tmp->len;
    return tmp;
}

/* ---- interrupts and time ---- */

uint64_t hart_mtime(const hart *h)
{
    return h->instret / HART_TICK_INSNS + (uint64_t)h->mtime_adj;
}

uint64_t hart_mip(const hart *h)
{
    uint64_t p = h->mip; /* SSIP, STIP, SEIP: written by software */
    if (h->msip & 1) p |= UINT64_C(1) << IRQ_MSI;
    if (hart_mtime(h) >= h->mtimecmp) p |= UINT64_C(1) << IRQ_MTI;
    return p;
}

/* Takes a pending, enabled interrupt before the instruction at h->pc: M-level ones
 * (not delegated) unless in M mode with MIE = 0, S-level ones (delegated) below S or in
 * S mode with SIE = 1; in the privileged spec's priority order. */
static bool take_interrupt(hart *h)
{
    uint64_t pend = hart_mip(h) & h->mie;
    if (!pend) return false;
    uint64_t en = 0;
    if (h->priv < PRV_M || (h->mstatus & MSTATUS_MIE)) en |= pend & ~h->mideleg;
    if (h->priv < PRV_S || (h->priv == PRV_S && (h->mstatus & MSTATUS_SIE)))
        en |= pend & h->mideleg;
    if (!en) return false;
    static const unsigned prio[] = {IRQ_MEI, IRQ_MSI, IRQ_MTI, IRQ_SEI, IRQ_SSI, IRQ_STI};
    for (unsigned i = 0; i < 6; i++)
        if (en & (UINT64_C(1) << prio[i])) {
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
        [K_CALL] = &&k_call,
        [K_ADDI] = &&k_addi,
        [K_ADDIW] = &&k_addiw,
        [K_ANDI] = &&k_andi,
        [K_ORI] = &&k_ori,
        [K_XORI] = &&k_xori,
        [K_SLLI] = &&k_slli,
        [K_SRLI] = &&k_srli,
        [K_SRAI] = &&k_srai,
        [K_SLTI] = &&k_slti,
        [K_SLTIU] = &&k_sltiu,
        [K_LUI] = &&k_lui,
        [K_AUIPC] = &&k_auipc,
        [K_ADD] = &&k_add,
        [K_SUB] = &&k_sub,
        [K_AND] = &&k_and,
        [K_OR] = &&k_or,
        [K_XOR] = &&k_xor,
        [K_SLL] = &&k_sll,
        [K_SRL] = &&k_srl,
        [K_SRA] = &&k_sra,
        [K_SLT] = &&k_slt,
        [K_SLTU] = &&k_sltu,
        [K_ADDW] = &&k_addw,
        [K_SUBW] = &&k_subw,
        [K_MUL] = &&k_mul,
        [K_JAL] = &&k_jal,
        [K_JALR] = &&k_jalr,
        [K_BEQ] = &&k_beq,
        [K_BNE] = &&k_bne,
        [K_BLT] = &&k_blt,
        [K_BGE] = &&k_bge,
        [K_BLTU] = &&k_bltu,
        [K_BGEU] = &&k_bgeu,
        [K_LB] = &&k_lb,
        [K_LBU] = &&k_lbu,
        [K_LH] = &&k_lh,
        [K_LHU] = &&k_lhu,
        [K_LW] = &&k_lw,
        [K_LWU] = &&k_lwu,
        [K_LD] = &&k_ld,
        [K_SB] = &&k_sb,
        [K_SH] = &&k_sh,
        [K_SW] = &&k_sw,
        [K_SD] = &&k_sd,
        [K_FLW] = &&k_flw,
        [K_FLD] = &&k_fld,
        [K_FSW] = &&k_fsw,
        [K_FSD] = &&k_fsd,
        [K_SLLIW] = &&k_slliw,
        [K_SRLIW] = &&k_srliw,
        [K_SRAIW] = &&k_sraiw,
        [K_SLLW] = &&k_sllw,
        [K_SRLW] = &&k_srlw,
        [K_SRAW] = &&k_sraw,
        [K_MULW] = &&k_mulw,
        [K_NOP] = &&k_nop,
        [K_J] = &&k_j,
        [K_JR] = &&k_jr,
        [K_FMV_X_D] = &&k_fmv_x_d,
        [K_FMV_D_X] = &&k_fmv_d_x,
#if HART_FP_INLINE
        [K_FADD_S] = &&k_fadd_s,
        [K_FSUB_S] = &&k_fsub_s,
        [K_FMUL_S] = &&k_fmul_s,
        [K_FMADD_S] = &&k_fmadd_s,
        [K_FADD_D] = &&k_fadd_d,
        [K_FSUB_D] = &&k_fsub_d,
        [K_FMUL_D] = &&k_fmul_d,
        [K_FMADD_D] = &&k_fmadd_d,
        [K_FDIV_S] = &&k_fdiv_s,
        [K_FDIV_D] = &&k_fdiv_d,
        [K_FSQRT_S] = &&k_fsqrt_s,
        [K_FSQRT_D] = &&k_fsqrt_d,
#else
        [K_FADD_S] = &&k_call,
        [K_FSUB_S] = &&k_call,
        [K_FMUL_S] = &&k_call,
        [K_FMADD_S] = &&k_call,
        [K_FADD_D] = &&k_call,
        [K_FSUB_D] = &&k_call,
        [K_FMUL_D] = &&k_call,
        [K_FMADD_D] = &&k_call,
        [K_FDIV_S] = &&k_call,
        [K_FDIV_D] = &&k_call,
        [K_FSQRT_S] = &&k_call,
        [K_FSQRT_D] = &&k_call,
#endif
    };
    if (n <= 0) {
        case_labels = cases;
        return;
    }
    _Static_assert(sizeof cases / sizeof cases[0] == K__COUNT, "a case per kind");
    hart_insn *const ic = h->icache;
    const uint64_t mask = h->icache_mask;
    hart_exec_fn *const xfn = h->xop_fn;
    uint64_t *const x = h->x, *const f = h->f;
    uint8_t *const ram = h->ram;
    const uint64_t base = h->ram_base, size = h->ram_size;
    /* One bound for every width: off < lim means 8 bytes at off are in RAM. Accesses to
     * RAM's last 7 bytes (and all of a RAM under 8 bytes) take the handler, which is
     * exact; one bound saves a computation per access. */
    const uint64_t lim = size >= 8 ? size - 7 : 0;
    const uint8_t *const pflags = h->page_flags;
    /* Retired count = irn - n: the countdown doubles as the counter. */
    uint64_t pc = h->pc, irn = h->instret + (uint64_t)n;
#define IR() (irn - (uint64_t)n)
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
/* Retire an inline case and go to the next instruction's case. n counts down from
 * its start (>= 1) by one per instruction, so it reaches 0 exactly. */
#define NEXT_INSN(npc)                                                                             \
    do {                                                                                           \
        pc = (npc);                                                                                \
        if (UNLIKELY(--n == 0)) goto out;                                                          \
        FETCH();                                                                                   \
        goto * d->lbl;                                                                             \
    } while (0)
/* Retire an inline case and fall through to the next instruction: its entry, if
 * cached, is the neighbouring slot (index (pc >> 1) & mask, plus sentinels at the end),
 * d->step bytes on. */
#define NEXT_SEQ()                                                                                 \
    do {                                                                                           \
        pc = d->npc;                                                                               \
        if (UNLIKELY(--n == 0)) goto out;                                                          \
        d = (hart_insn *)((char *)d + d->step);                                                    \
        if (UNLIKELY(d->pc != pc)) FETCH();                                                        \
        goto * d->lbl;                                                                             \
    } while (0)
/* Inline cases never see rd == 0 (refill gives those K_NOP/K_J/K_JR or the handler),
 * so x0 stays zero without a check. */
#define WX(v)                                                                                      \
    do {                                                                                           \
        x[d->rd] = (v);                                                                            \
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
/* Retire an inline case and go to npc, whose cache slot is at `slot`. */
#define NEXT_AT(npc, slot)                                                                         \
    do {                                                                                           \
        pc = (npc);                                                                                \
        d = (slot);                                                                                \
        if (UNLIKELY(--n == 0)) goto out;                                                          \
        if (UNLIKELY(d->pc != pc)) FETCH();                                                        \
        goto * d->lbl;                                                                             \
    } while (0)
#define BRANCH(name, cond)                                                                         \
    name : {                                                                                       \
        uint64_t a = x[d->rs1], b = x[d->rs2];                                                     \
        if (cond)                                                                                  \
            NEXT_AT(pc + (uint64_t)d->imm, d->tslot);                                              \
        else                                                                                       \
            NEXT_AT(d->npc, (hart_insn *)((char *)d + d->step));                                   \
    }
/* RAM only: anything else (devices, faults) is the handler's business. */
#define LOADK(name, nb, T, conv)                                                                   \
    name : {                                                                                       \
        uint64_t off = x[d->rs1] + (uint64_t)d->imm - base;                                        \
        if (UNLIKELY(off >= lim)) goto k_call;                                                     \
        T t;                                                                                       \
        memcpy(&t, ram + off, nb);                                                                 \
        WX(conv);                                                                                  \
        NEXT_SEQ();                                                                                \
    }
/* RAM only, and neither over decoded code, a page the RT engine watches, nor the watch
 * window. SRC is the
 * register file the value comes from (x, or f for fsw/fsd, which need FS != Off). */
#define STOREK(name, nb, T, SRC, COND)                                                             \
    name : {                                                                                       \
        uint64_t off = x[d->rs1] + (uint64_t)d->imm - base;                                        \
        if (UNLIKELY(!(COND))) goto k_call;                                                        \
        if (UNLIKELY(off >= lim)) goto k_call;                                                     \
        if (UNLIKELY(pflags[off >> 12] | pflags[(off + nb - 1) >> 12]) &&                          \
            ((pflags[off >> 12] | pflags[(off + nb - 1) >> 12]) & (PAGE_CODE | PAGE_RT) ||         \
             (off + base < h->watch_hi && off + base + nb > h->watch_lo)))                         \
            goto k_call;                                                                           \
        T t = (T)SRC[d->rs2];                                                                      \
        memcpy(ram + off, &t, nb);                                                                 \
        NEXT_SEQ();                                                                                \
    }
/* flw/fld: the value is NaN-boxed (flw); FS must already be Dirty (the handler does
 * the Off check and the state change otherwise). */
#define FLOADK(name, nb, T, box)                                                                   \
    name : {                                                                                       \
        uint64_t off = x[d->rs1] + (uint64_t)d->imm - base;                                        \
        if (UNLIKELY(off >= lim) || UNLIKELY((h->mstatus & MSTATUS_FS) != FS_DIRTY)) goto k_call;  \
        T t;                                                                                       \
        memcpy(&t, ram + off, nb);                                                                 \
        f[d->rd] = (box) | t;                                                                      \
        NEXT_SEQ();                                                                                \
    }

#if HART_FP_INLINE
    /* Inline F/D arithmetic on the host's SSE unit, exact (the same host operations as
     * rvfp). Applies only with FS already Dirty and the rounding mode resolving to RNE,
     * which is the host's default MXCSR (0x1f80: RNE, all exceptions masked, no FTZ/DAZ),
     * so there is no mode switch. The host's sticky flags are not cleared after every
     * operation (ldmxcsr is the costly part): mx holds the MXCSR value last seen, whose
     * flags are already accrued into fflags (fflags is sticky too, so seeing a flag
     * again changes nothing). The loop restores the default MXCSR (MX_CLEAN) before any
     * handler runs and when it returns, so nothing else ever sees a stale flag, and no
     * csrr of fflags can run while flags are pending. Before the first inline operation
     * after a clean MXCSR, a check that it really is the default (nobody else left a
     * mode or a flag in it) keeps foreign state out. Anything unusual (another mode,
     * unboxed single operands, a NaN out of an fma) goes to the handler. */
    unsigned mx = 0x1f80u;
    static const uint8_t mxf[64] = {
#define MXF(m)                                                                                     \
    (((m)&1 ? 0x10 : 0) | ((m)&4 ? 0x08 : 0) | ((m)&8 ? 0x04 : 0) | ((m)&16 ? 0x02 : 0) |          \
     ((m)&32 ? 0x01 : 0))
#define MXF4(m)  MXF(m), MXF(m + 1), MXF(m + 2), MXF(m + 3)
#define MXF16(m) MXF4(m), MXF4(m + 4), MXF4(m + 8), MXF4(m + 12)
        MXF16(0), MXF16(16), MXF16(32), MXF16(48)
#undef MXF
#undef MXF4
#undef MXF16
    };
#define MX_CLEAN()                                                                                 \
    do {                                                                                           \
        if (UNLIKELY(mx != 0x1f80u)) {                                                             \
            static const unsigned mx_def_ = 0x1f80u;                                               \
            __asm__ volatile("ldmxcsr %0" : : "m"(mx_def_));                                       \
            mx = 0x1f80u;                                                                          \
        }                                                                                          \
    } while (0)
/* FS Dirty and rm (7 = frm) RNE, else the handler; with a clean MXCSR, check it. */
#define FP_PRE()                                                                                   \
    do {                                                                                           \
        if (UNLIKELY((h->mstatus & MSTATUS_FS) != FS_DIRTY)) goto k_call;                          \
        unsigned rm_ = d->rm;                                                                      \
        if (rm_ == 7) rm_ = h->frm;                                                                \
        if (UNLIKELY(rm_ != 0)) goto k_call;                                                       \
        if (mx == 0x1f80u) {                                                                       \
            unsigned st0_;                                                                         \
            __asm__ volatile("stmxcsr %0" : "=m"(st0_));                                           \
            if (UNLIKELY(st0_ != 0x1f80u)) goto k_call;                                            \
        }                                                                                          \
    } while (0)
/* After the operation: st is MXCSR; accrue new flags (a changed control field means
 * someone else's state: drop the result, restore, let the handler do it). */
#define FP_POST(st)                                                                                \
    do {                                                                                           \
        if (UNLIKELY((st) != mx)) {                                                                \
            if (UNLIKELY(((st) & ~0x3fu) != 0x1f80u)) {                                            \
                mx = 1;                                                                            \
                goto k_call;                                                                       \
            }                                                                                      \
            h->fflags |= mxf[(st)&63];                                                             \
            mx = (st);                                                                             \
        }                                                                                          \
    } while (0)
/* FBIN_*: rd = rs1 op RS2; sqrt is "rd = sqrt(rs1)" with RS2 = rs1 */
#define FBIN_D(name, insn, RS2)                                                                    \
    name : {                                                                                       \
        FP_PRE();                                                                                  \
        double a_, b_;                                                                             \
        uint64_t r_;                                                                               \
        unsigned st_;                                                                              \
        memcpy(&a_, &f[d->rs1], 8);                                                                \
        memcpy(&b_, &f[d->RS2], 8);                                                                \
        __asm__ volatile(insn " %[y], %[x]\n\tstmxcsr %[s]"                                        \
                         : [x] "+x"(a_), [s] "=m"(st_)                                             \
                         : [y] "x"(b_));                                                           \
        FP_POST(st_);                                                                              \
        memcpy(&r_, &a_, 8);                                                                       \
        if (UNLIKELY((r_ >> 52 & 0x7ff) == 0x7ff) && (r_ << 12))                                   \
            r_ = UINT64_C(0x7ff8000000000000); /* canonical NaN */                                 \
        f[d->rd] = r_;                                                                             \
        NEXT_SEQ();                                                                                \
    }
#define BOXED(v) ((v) >> 32 == 0xffffffffu)
#define FBIN_S(name, insn, RS2)                                                                    \
    name : {                                                                                       \
        FP_PRE();                                                                                  \
        uint64_t ra_ = f[d->rs1], rb_ = f[d->RS2];                                                 \
        if (UNLIKELY(!BOXED(ra_) || !BOXED(rb_))) goto k_call;                                     \
        float a_, b_;                                                                              \
        uint32_t r_, ua_ = (uint32_t)ra_, ub_ = (uint32_t)rb_;                                     \
        unsigned st_;                                                                              \
        memcpy(&a_, &ua_, 4);                                                                      \
        memcpy(&b_, &ub_, 4);                                                                      \
        __asm__ volatile(insn " %[y], %[x]\n\tstmxcsr %[s]"                                        \
                         : [x] "+x"(a_), [s] "=m"(st_)                                             \
                         : [y] "x"(b_));                                                           \
        FP_POST(st_);                                                                              \
        memcpy(&r_, &a_, 4);                                                                       \
        if (UNLIKELY((r_ >> 23 & 0xff) == 0xff) && (r_ << 9))                                      \
            r_ = 0x7fc00000u; /* canonical NaN */                                                  \
        f[d->rd] = UINT64_C(0xffffffff00000000) | r_;                                              \
        NEXT_SEQ();                                                                                \
    }

    FETCH();
    goto * d->lbl;

    FBIN_D(k_fadd_d, "addsd", rs2)
    FBIN_D(k_fsub_d, "subsd", rs2)
    FBIN_D(k_fmul_d, "mulsd", rs2)
    FBIN_D(k_fdiv_d, "divsd", rs2)
    FBIN_D(k_fsqrt_d, "sqrtsd", rs1)
    FBIN_S(k_fadd_s, "addss", rs2)
    FBIN_S(k_fsub_s, "subss", rs2)
    FBIN_S(k_fmul_s, "mulss", rs2)
    FBIN_S(k_fdiv_s, "divss", rs2)
    FBIN_S(k_fsqrt_s, "sqrtss", rs1)
/* fmadd: rd = rs1 * rs2 + rs3, one rounding. A NaN result goes to the handler, which
 * knows RISC-V's rule for inf * 0 + qNaN (flags accrued here are a subset of its). */
k_fmadd_d : {
    FP_PRE();
    double a_, b_, c_;
    uint64_t r_;
    unsigned st_;
    memcpy(&a_, &f[d->rs1], 8);
    memcpy(&b_, &f[d->rs2], 8);
    memcpy(&c_, &f[d->rs3], 8);
    __asm__ volatile("vfmadd231sd %[b], %[a], %[c]\n\tstmxcsr %[s]"
                     : [c] "+x"(c_), [s] "=m"(st_)
                     : [a] "x"(a_), [b] "x"(b_));
    FP_POST(st_);
    memcpy(&r_, &c_, 8);
    if (UNLIKELY((r_ >> 52 & 0x7ff) == 0x7ff) && (r_ << 12)) goto k_call;
    f[d->rd] = r_;
    NEXT_SEQ();
}
k_fmadd_s : {
    FP_PRE();
    uint64_t ra_ = f[d->rs1], rb_ = f[d->rs2], rc_ = f[d->rs3];
    if (UNLIKELY(!BOXED(ra_) || !BOXED(rb_) || !BOXED(rc_))) goto k_call;
    float a_, b_, c_;
    uint32_t r_, ua_ = (uint32_t)ra_, ub_ = (uint32_t)rb_, uc_ = (uint32_t)rc_;
    unsigned st_;
    memcpy(&a_, &ua_, 4);
    memcpy(&b_, &ub_, 4);
    memcpy(&c_, &uc_, 4);
    __asm__ volatile("vfmadd231ss %[b], %[a], %[c]\n\tstmxcsr %[s]"
                     : [c] "+x"(c_), [s] "=m"(st_)
                     : [a] "x"(a_), [b] "x"(b_));
    FP_POST(st_);
    memcpy(&r_, &c_, 4);
    if (UNLIKELY((r_ >> 23 & 0xff) == 0xff) && (r_ << 9)) goto k_call;
    f[d->rd] = UINT64_C(0xffffffff00000000) | r_;
    NEXT_SEQ();
}
#undef FP_PRE
#undef FP_POST
#undef FBIN_D
#undef FBIN_S
#undef BOXED
#else
#define MX_CLEAN() ((void)0)
    FETCH();
    goto * d->lbl;
#endif

k_call:
    MX_CLEAN();
    h->pc = pc;
    h->instret = IR();
    pc = xfn[d->op](h, d);
    irn = h->instret + (uint64_t)n; /* +1 by the decrement below, unless it trapped */
    if (UNLIKELY(--n == 0) || UNLIKELY(h->stop)) goto out;
    FETCH();
    goto * d->lbl;

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
    ALUI(k_slliw, (uint64_t)sext32((uint32_t)a << (b & 31)))
    ALUI(k_srliw, (uint64_t)sext32((uint32_t)a >> (b & 31)))
    ALUI(k_sraiw, (uint64_t)(int64_t)((int32_t)(uint32_t)a >> (b & 31)))
    ALU(k_sllw, (uint64_t)sext32((uint32_t)a << (b & 31)))
    ALU(k_srlw, (uint64_t)sext32((uint32_t)a >> (b & 31)))
    ALU(k_sraw, (uint64_t)(int64_t)((int32_t)(uint32_t)a >> (b & 31)))
    ALU(k_mulw, (uint64_t)sext32((uint32_t)a * (uint32_t)b))
k_nop:
    NEXT_SEQ();
/* fmv.x.d needs FS != Off; fmv.d.x writes FP state, so FS must already be Dirty. */
k_fmv_x_d:
    if (UNLIKELY(!(h->mstatus & MSTATUS_FS))) goto k_call;
    WX(f[d->rs1]);
    NEXT_SEQ();
k_fmv_d_x:
    if (UNLIKELY((h->mstatus & MSTATUS_FS) != FS_DIRTY)) goto k_call;
    f[d->rd] = x[d->rs1];
    NEXT_SEQ();
k_jal:
    WX(d->npc);
    NEXT_AT(pc + (uint64_t)d->imm, d->tslot);
k_jalr : {
    uint64_t t = (x[d->rs1] + (uint64_t)d->imm) & ~UINT64_C(1);
    WX(d->npc);
    NEXT_INSN(t);
}
k_j:
    NEXT_AT(pc + (uint64_t)d->imm, d->tslot);
k_jr:
    NEXT_INSN((x[d->rs1] + (uint64_t)d->imm) & ~UINT64_C(1));
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
    MX_CLEAN();
    h->pc = pc;
    h->instret = IR();
#undef IR
#undef FETCH
#undef NEXT_INSN
#undef NEXT_SEQ
#undef NEXT_AT
#undef WX
#undef ALU
#undef ALUI
#undef BRANCH
#undef LOADK
#undef STOREK
#undef FLOADK
#undef MX_CLEAN
}

/* Without misa.C, a jump to an address that is not 4-byte aligned raises the
 * instruction-address-misaligned fault at the jump (its rd unwritten): true after
 * raising it. */
static bool misaligned_target(hart *h, const hart_insn *d, uint64_t next, uint64_t old_rd)
{
    if (!(next & 2) || next == d->npc || h->trapped || (h->misa & MISA_C)) return false;
    h->x[d->rd] = old_rd;
    h->x[0] = 0;
    hart_raise(h, CAUSE_MISALIGNED_FETCH, next);
    return true;
}

/* The careful loop: one instruction at a time through its handler, with the commit log
 * (h->log) and/or translation, PMP, triggers and IALIGN=32 (h->xlate). */
static void run_careful(hart *h, int64_t n)
{
    uint64_t pc = h->pc;
    hart_insn tmp __attribute__((aligned(64)));
    bool log = h->log != NULL;
    do {
        unsigned priv = h->priv;
        hart_insn *d;
        h->pc = pc;
        h->trapped = false;
        if (h->xlate) {
            if (hart_exec_trigger(h, pc)) {
                h->instret++;
                pc = h->npc;
                continue;
            }
            d = fetch_careful(h, pc, &tmp);
            if (!d) {
                pc = h->npc;
                break;
            }
            if (d->len == 2 && !(h->misa & MISA_C)) d = &tmp, d->op = XOP_ILLEGAL;
        } else {
            d = &h->icache[(pc >> 1) & h->icache_mask];
            if (d->pc != pc && !(d = refill(h, pc))) {
                pc = h->npc;
                break;
            }
        }
        h->trace_nmem = h->trace_ncsr = 0;
        h->tracing = log;
        uint64_t old_rd = h->x[d->rd];
        uint64_t next = h->xop_fn[d->op](h, d);
        if (misaligned_target(h, d, next, old_rd)) next = h->npc;
        h->tracing = false;
        h->instret++;
        if (log && !h->trapped) hart_commit_log(h, d, pc, priv);
        pc = next;
    } while (--n > 0 && !h->stop);
    h->pc = pc;
}

bool hart_charge(hart *h, uint64_t units)
{
    h->charged = units > UINT64_MAX - h->charged ? UINT64_MAX : h->charged + units;
    if (!hart_charge_bounded(h)) return false;
    h->stop = true; /* the batch was sized without this work: let hart_run re-plan */
    /* Exhausted when this instruction (1) and everything charged cannot fit. */
    uint64_t used = h->instret + h->traps + 1;
    return h->charged > h->budget_end || used > h->budget_end - h->charged;
}

void hart_set_charging(hart *h, bool on)
{
    h->charging = on;
}

bool hart_charge_bounded(const hart *h)
{
    return h->charging && h->budget_end != UINT64_MAX;
}

static hart_run_result run_bounded(hart *h, uint64_t max_insns, uint64_t slice)
{
    /* Trapping instructions count toward the limit too, so a trap loop (say mtvec
     * pointing at unmapped memory) still ends; so does the work units charge
     * (hart_charge). */
    uint64_t charged0 = h->charging ? h->charged : 0;
    uint64_t start = h->instret + h->traps + charged0;
    h->budget_end = max_insns && start + max_insns > start ? start + max_insns : UINT64_MAX;
    const uint64_t slice0 = h->instret + h->traps;
    for (;;) {
        if (h->halted) return HART_RUN_HALTED;
        uint64_t done = h->instret + h->traps + (h->charging ? h->charged : 0) - start;
        if (max_insns && done >= max_insns) return HART_RUN_LIMIT;
        uint64_t sliced = h->instret + h->traps - slice0;
        if (slice && sliced >= slice) return HART_RUN_LIMIT;
        if (h->wfi_pending) do_wfi(h);
        take_interrupt(h);
        uint64_t left = max_insns ? max_insns - done : 0;
        if (slice && (!left || slice - sliced < left)) left = slice - sliced;
        int64_t n = batch_len(h, left);
        h->stop = false;
        hart_update_xlate(h, false);
        if (h->log || h->xlate_careful || (h->xlate && !h->jit))
            run_careful(h, n);
        else if (h->jit)
            jit_run(h, n);
        else
            run_fast(h, n);
        if (h->poll && !h->halted) h->poll(h, h->poll_ctx);
    }
}

void hart_run_interp(hart *h, int64_t n)
{
    if (h->xlate)
        run_careful(h, n);
    else
        run_fast(h, n);
}

int hart_set_jit(hart *h, bool on)
{
    if (!on) {
        jit_free(h->jit);
        h->jit = NULL;
        return 0;
    }
    if (!h->jit) h->jit = jit_new(h);
    return h->jit ? 0 : -1;
}

bool hart_jit_on(const hart *h)
{
    return h->jit != NULL;
}

hart_run_result hart_run(hart *h, uint64_t max_insns)
{
    return hart_run_for(h, max_insns, 0);
}

hart_run_result hart_run_for(hart *h, uint64_t max_insns, uint64_t slice)
{
    hart_run_result r = run_bounded(h, max_insns, slice);
    h->budget_end = UINT64_MAX;
    return r;
}
