/* hart.h — one RV64GC hart (M, S and U modes, Sv39/Sv48, PMP, Sdtrig) over a sim_mem, with a CLINT,
 * an optional commit log, and the registration interface through which XPHMG units attach.
 *
 * Execution model: instructions are decoded once per address (generated decoder, xdec.h)
 * into a direct-mapped cache of hart_insn entries; each XOP has a handler (its
 * semantics, h->xop_fn) and common instructions also an inline case in the run loop
 * (threaded dispatch). Interrupts, the CLINT timer and the platform
 * poll (HTIF) are looked at between batches of at most HART_BATCH instructions, and a
 * batch ends early whenever an instruction changes something they depend on, so timing
 * is a pure function of the instruction count: same program, same options, same trace.
 *
 * ---- Attaching a unit (Spike-extension-like) -----------------------------------------
 * A unit (CAP, XMEM, RT, PMASK) describes itself in a static hart_unit and calls
 * hart_register_unit() once after hart_new():
 *   - insns[]: XOP ids (enum xop from the generated xdec_ops.h) it executes. Those ops
 *     stop being illegal; the handler gets the decoded fields (rd, rs1, imm, ...) and its
 *     ctx. Handlers use hart_x()/hart_set_x(), hart_load()/hart_store() (which raise the
 *     architectural fault and return false), hart_raise() / hart_illegal().
 *   - csrs[]: inclusive address ranges it owns. Addresses are uint32_t so units whose
 *     spec names CSRs beyond 12 bits can still be reached by a host-side debugger; the
 *     Zicsr instructions only produce 0x000-0xFFF. For a 12-bit address the hart first
 *     applies the architectural checks (privilege in csr[9:8], read-only when
 *     csr[11:10] == 3) and only then calls read/write; a callback that returns false
 *     makes the instruction an illegal-instruction trap.
 *   - reset(): called by hart_reset() after the base state is reset.
 * Registration fails (returns -1) when an op or CSR is already owned (by the base ISA
 * or another unit), so two units can never silently shadow each other.
 */
#ifndef XPHMG_SIM_HART_H
#define XPHMG_SIM_HART_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "mem.h"
#include "xdec.h"

#ifndef HART_BATCH
#define HART_BATCH 4096 /* longest run between interrupt/poll checks */
#endif

/* Addresses of the CLINT (SiFive/Spike layout). */
#define CLINT_BASE     UINT64_C(0x02000000)
#define CLINT_SIZE     UINT64_C(0x000c0000)
#define CLINT_MSIP     UINT64_C(0x0000)
#define CLINT_MTIMECMP UINT64_C(0x4000)
#define CLINT_MTIME    UINT64_C(0xbff8)
/* mtime advances by one every HART_TICK_INSNS retired instructions (like Spike's
 * default), so simulated time is deterministic. */
#define HART_TICK_INSNS 100

/* Exception causes (mcause, interrupt bit clear). */
enum {
    CAUSE_MISALIGNED_FETCH = 0,
    CAUSE_FETCH_ACCESS = 1,
    CAUSE_ILLEGAL_INSN = 2,
    CAUSE_BREAKPOINT = 3,
    CAUSE_MISALIGNED_LOAD = 4,
    CAUSE_LOAD_ACCESS = 5,
    CAUSE_MISALIGNED_STORE = 6, /* also AMO */
    CAUSE_STORE_ACCESS = 7,     /* also AMO */
    CAUSE_ECALL_U = 8,
    CAUSE_ECALL_S = 9,
    CAUSE_ECALL_M = 11,
    CAUSE_FETCH_PAGE_FAULT = 12,
    CAUSE_LOAD_PAGE_FAULT = 13,
    CAUSE_STORE_PAGE_FAULT = 15, /* also AMO */
};
/* Interrupt numbers (mcause = (1 << 63) | n; bit n of mip/mie). */
enum { IRQ_SSI = 1, IRQ_MSI = 3, IRQ_STI = 5, IRQ_MTI = 7, IRQ_SEI = 9, IRQ_MEI = 11 };

#define PRV_U 0
#define PRV_S 1
#define PRV_M 3

/* Sdtrig: the number of mcontrol (type 2) triggers (tselect 0..HART_NTRIG-1). */
#define HART_NTRIG 4

#define HART_RESV_PERIOD 5000

typedef struct hart hart;
typedef struct hart_insn hart_insn;
/* A handler executes one instruction and returns the address of the next one (after a
 * trap: the trap vector, which hart_raise leaves in h->npc). A store may invalidate the
 * handler's own cache entry (self-modifying code): that empties its tag, d->pc, so
 * handlers read d->pc before storing; every other field, d->npc among them, stays. */
typedef uint64_t (*hart_exec_fn)(hart *h, const hart_insn *d);

/* A decoded instruction as cached per address: the generated decoder's fields plus the
 * raw bits (mtval, commit log) and what the fast run loop needs to go on without
 * recomputing it (its case's address, the fall-through address and the distance to the
 * fall-through's slot). 64 bytes and 64-byte aligned: one entry, one cache line; the
 * handler is h->xop_fn[op]. */
struct hart_insn {
    uint64_t pc; /* tag: the address this entry decodes; ~0 = empty */
    int64_t imm;
    uint64_t npc;    /* pc + len */
    const void *lbl; /* the run loop's case (internal to hart.c) */
    uint32_t bits;
    uint16_t op, csr;
    uint8_t len, rd, rs1, rs2, rs3, rm;
    uint8_t wr;   /* what it writes, for the commit log: HART_WR_* */
    uint8_t k;    /* the run loop's inline case for common instructions; 0 = call the handler */
    uint8_t step; /* bytes from this entry to the fall-through's entry */
    uint8_t pad_[7];
    hart_insn *tslot; /* jal/branches: the cache slot of the target (tag still checked) */
};
enum { HART_WR_NONE = 0, HART_WR_X = 1, HART_WR_F = 2 };

/* ---- Units ---- */
/* A unit handler runs with h->npc preset to the fall-through address; it may change
 * h->npc (a jump) or raise a trap. h->pc is the instruction's address. */
typedef void (*hart_unit_exec_fn)(hart *h, void *ctx, const hart_insn *d);
typedef struct {
    uint16_t xop;
    hart_unit_exec_fn fn;
    uint8_t wr; /* HART_WR_* for the commit log */
} hart_unit_insn;
typedef struct {
    uint32_t lo, hi; /* inclusive */
    bool (*read)(hart *h, void *ctx, uint32_t addr, uint64_t *val);
    bool (*write)(hart *h, void *ctx, uint32_t addr, uint64_t val);
} hart_unit_csrs;
typedef struct {
    const char *name;
    void (*reset)(hart *h, void *ctx);
    unsigned insn_count;
    const hart_unit_insn *insns;
    unsigned csr_count;
    const hart_unit_csrs *csrs;
} hart_unit;

#define HART_MAX_UNITS   8
#define HART_CODE_PAGES  16
#define HART_CODE_SLOTS  512
#define HART_MAX_REGIONS 4

/* Platform poll: called between batches (at least every HART_BATCH instructions) and
 * right after any store that touches [watch_lo, watch_hi) (HTIF tohost). */
typedef void (*hart_poll_fn)(hart *h, void *ctx);

/* A debugger's access observer (hart_set_access_watch): a data access of n bytes at
 * virtual address va that is being performed; kind = HART_ACC_LOAD | HART_ACC_STORE
 * (both for an AMO). */
enum { HART_ACC_LOAD = 1, HART_ACC_STORE = 2 };
typedef void (*hart_access_fn)(void *ctx, uint64_t va, unsigned n, unsigned kind);

/* A region's access policy (hart_region_set_check): whether the access of size bytes at
 * addr (a store or AMO when store) may proceed. Asked for real accesses and for
 * hart_mem_ok probes alike. */
typedef bool (*hart_region_check_fn)(void *ctx, uint64_t addr, unsigned size, bool store);

/* The hart's state is public so handlers (base and units) stay inline-cheap; code
 * outside src/sim should prefer the accessor functions. */
struct hart {
    uint64_t x[32];
    uint64_t f[32]; /* NaN-boxed: a binary32 value occupies the low half, upper all ones */
    uint64_t pc, npc;
    unsigned priv;

    /* RAM fast path */
    sim_mem *mem;
    uint8_t *ram;
    uint64_t ram_base, ram_size;
    uint8_t *page_flags; /* per 4 KiB RAM page: PAGE_CODE | PAGE_WATCH | PAGE_RT (hart_int.h) */
    /* RAM as the RT offload engine keeps decoded records of it (hart_ram_epoch): the
     * epoch, the watched bytes [rt_lo, rt_hi) (the hull of the watches; empty: none) and
     * the pages [rt_pg_lo, rt_pg_hi) holding every PAGE_RT page */
    uint64_t rt_epoch;
    uint64_t rt_lo, rt_hi;
    uint64_t rt_pg_lo, rt_pg_hi;

    /* decoded-instruction cache */
    hart_insn *icache;
    uint64_t icache_mask;
    /* The RAM pages entries were decoded from since the last flush, so that a flush
     * (reset, fence.i) clears only their slots; HART_CODE_PAGES + 1 = more than that,
     * the next flush clears every slot. */
    uint32_t code_page[HART_CODE_PAGES];
    unsigned code_page_count;
    /* Likewise the slots refilled since the last flush, so that a flush after a short run
     * (a random program under fuzzing: tens of slots) clears those, not 2048 per page;
     * HART_CODE_SLOTS + 1 = more than that, the flush goes by pages. */
    uint32_t code_slot[HART_CODE_SLOTS];
    unsigned code_slot_count;

    /* CSRs */
    uint64_t misa_max; /* the extensions this hart has (--isa); misa shows those enabled */
    uint64_t mstatus, misa, mtvec, mepc, mcause, mtval, mscratch;
    uint64_t medeleg, mideleg, mie, mip; /* mip holds the software-writable bits only */
    uint64_t mcounteren, mcountinhibit, satp, mhartid;
    uint64_t stvec, sepc, scause, stval, sscratch, scounteren, senvcfg, menvcfg;
    uint64_t pmpcfg[16], pmpaddr[64];
    uint64_t tdata1[HART_NTRIG], tdata2[HART_NTRIG];
    unsigned tselect;
    /* Data accesses and instruction fetch must take the careful path (address
     * translation, PMP, triggers, IALIGN=32): the fast loop and the inline RAM fast
     * paths are off. Recomputed by hart_update_xlate() whenever what it depends on
     * changes (privilege, satp, mstatus, PMP, triggers, misa). */
    bool xlate;
    /* Part of xlate that only the careful loop handles (triggers, IALIGN=32, a debugger
     * watching data accesses); translation and PMP alone the translator handles too. */
    bool xlate_careful;
    bool pmp_su_all; /* the first active PMP entry grants RWX on every address */
    bool pmp_m_lock; /* some active entry is locked: M-mode accesses are checked too */
    uint32_t fflags, frm;
    uint64_t instret;    /* instructions retired since reset */
    uint64_t traps;      /* traps taken since reset (exceptions and interrupts) */
    int64_t cycle_adj;   /* mcycle = instret + cycle_adj */
    int64_t instret_adj; /* minstret = instret + instret_adj */

    /* plain memory regions beside RAM (hart_add_region), looked at by the slow paths */
    unsigned region_count;
    struct {
        uint64_t base, size;
        uint8_t *host;
        hart_region_check_fn check; /* NULL: every access proceeds */
        void *check_ctx;
    } region[HART_MAX_REGIONS];

    /* CLINT */
    uint64_t mtimecmp, msip;
    int64_t mtime_adj; /* mtime = instret / HART_TICK_INSNS + mtime_adj */

    /* run control */
    bool stop;    /* set by anything the run loop must see before the next insn */
    bool trapped; /* the current instruction trapped (not retired) */
    bool halted;
    int exit_code;
    bool wfi_pending;
    uint64_t charged;    /* work units charged by hart_charge since reset (not guest-visible) */
    bool charging;       /* charged units count toward hart_run's max_insns */
    uint64_t budget_end; /* hart_run's limit in instret + traps + charged; UINT64_MAX = none */

    /* LR/SC reservation. An SC fails when a HART_RESV_PERIOD boundary of retired
     * instructions, counted from the last trap (or WFI, or reset), lies between it and
     * its LR: Spike drops the reservation there (it runs harts in slices of 5000
     * instructions, a slice ending early at a trap), and its SC outcomes, so its commit
     * logs, are reproduced (errata P-267). */
    uint64_t resv_addr;
    bool resv_valid;
    uint64_t resv_slice, slice_base;

    /* platform poll */
    hart_poll_fn poll;
    void *poll_ctx;
    uint64_t watch_lo, watch_hi;

    /* debugger access observer (hart_set_access_watch) */
    hart_access_fn access_fn;
    void *access_ctx;

    /* commit log */
    FILE *log;
    bool tracing;
    unsigned trace_nmem;
    struct {
        uint64_t addr, val;
        uint8_t size;
        bool store;
    } trace_mem[4];
    unsigned trace_ncsr;
    struct {
        uint16_t addr;
        uint64_t val;
    } trace_csr[4];

    /* units */
    unsigned unit_count;
    const hart_unit *units[HART_MAX_UNITS];
    void *unit_ctx[HART_MAX_UNITS];
    struct {
        hart_unit_exec_fn fn;
        void *ctx;
    } * xop_unit; /* [XOP__COUNT] */
    hart_exec_fn *xop_fn;
    uint8_t *xop_wr;
    uint8_t *xop_kind;

    /* the translator (jit.h; NULL: the interpreter runs everything) */
    struct jit *jit;
};

/* Creates a hart over mem (not owned), reset to M mode with pc = reset_pc. NULL if the
 * host cannot allocate. */
hart *hart_new(sim_mem *mem, uint64_t reset_pc);
void hart_free(hart *h);
void hart_reset(hart *h, uint64_t reset_pc);
int hart_register_unit(hart *h, const hart_unit *u, void *ctx);

void hart_set_poll(hart *h, hart_poll_fn fn, void *ctx, uint64_t watch_lo, uint64_t watch_hi);
/* Reports every data access the hart performs to fn (NULL: none), after translation and
 * the access checks, before the instruction retires: base and RVC loads and stores, FP
 * loads and stores, LR/SC and AMOs, and everything the XPHMG units read or write through
 * hart_load/hart_store (SVMEM gathers and scatters, LDS copies, xmem.ldg/stg,
 * compression, RT fetches), in whichever run loop. Probes (hart_mem_ok), page-table walks
 * and fetches are not data accesses. While set, the hart runs its careful loop. */
void hart_set_access_watch(hart *h, hart_access_fn fn, void *ctx);
/* Commit log in Spike's --log-commits format to f (NULL turns it off). */
void hart_set_log(hart *h, FILE *f);

/* Turns the translator (docs/sim.md, "Translator") on or off. Translated code runs where
 * the fast loop would (no commit log, no address translation, PMP or trigger in the
 * way); everything else keeps the interpreter. -1 when it cannot be turned on (not an
 * x86-64 host, no memory for the code cache, RAM above 2^56). */
int hart_set_jit(hart *h, bool on);
bool hart_jit_on(const hart *h);

/* Stop the run loop with an exit code (HTIF exit, a host error). */
void hart_halt(hart *h, int code);

typedef enum { HART_RUN_HALTED, HART_RUN_LIMIT } hart_run_result;
/* Runs until halted or until `max_insns` instructions have retired in this call
 * (0 = no limit). */
hart_run_result hart_run(hart *h, uint64_t max_insns);
/* hart_run that also returns HART_RUN_LIMIT once `slice` instructions (retired or
 * trapped; 0 = no slice) have run in this call, while the work units charged
 * (hart_charge) count against max_insns only: a run cut into slices behaves like one
 * hart_run(h, max_insns) (--jit-lockstep compares two harts slice by slice). */
hart_run_result hart_run_for(hart *h, uint64_t max_insns, uint64_t slice);

/* Charges `units` of work done inside the current instruction (elements moved, nodes
 * visited, triangles tested: the exchange rates are in docs/sim.md, "Limits") against
 * hart_run's max_insns, one unit counting as one instruction (errata P-300), when
 * hart_set_charging is on. Returns true when this instruction and its work no longer
 * fit in the budget: the caller stops its work at once and returns; the
 * run then ends with HART_RUN_LIMIT after this instruction, whose effects may be
 * partial. Guest-visible counters (minstret, mtime) are not affected. */
bool hart_charge(hart *h, uint64_t units);
/* Off by default (units are only counted, so a test can step a multi-element
 * instruction with hart_run(h, 1)); xphmg-sim turns it on. */
void hart_set_charging(hart *h, bool on);
/* Whether hart_charge can exhaust anything now: charging is on and a hart_run with a
 * max_insns limit is in progress. */
bool hart_charge_bounded(const hart *h);

/* Traps (used by handlers and units). hart_raise sets up the trap and marks the current
 * instruction as not retired; the handler must return right after. */
void hart_raise(hart *h, uint64_t cause, uint64_t tval);
/* Raises illegal instruction (mtval = the instruction bits); returns the trap vector, so
 * a base handler can `return hart_illegal(h, d);`. */
uint64_t hart_illegal(hart *h, const hart_insn *d);

/* Guest memory as the hart sees it (RAM, CLINT, regions), for units and handlers.
 * Accesses are little-endian, any alignment (Zicclsm), size 1, 2, 4 or 8. On a fault
 * they raise the load/store access fault and return false. */
bool hart_load(hart *h, uint64_t addr, unsigned size, uint64_t *val);
bool hart_store(hart *h, uint64_t addr, unsigned size, uint64_t val);
/* Whether hart_load (store = false) or hart_store (store = true) of size bytes at addr
 * would succeed, without accessing memory, raising or recording anything: for units
 * that must decide themselves what an inaccessible address means (SVMEM fault-only-first
 * and OOB-zero, errata ). */
bool hart_mem_ok(hart *h, uint64_t addr, unsigned size, bool store);
/* hart_load/hart_store behind hart_mem_ok, in the callback form the units' pure
 * semantics take (ctx = the hart; xmem_svm.h, rt_job.h): an inaccessible address returns
 * false without raising or logging; a performed access is logged like a base one. */
bool hart_quiet_load(void *hart_ctx, uint64_t addr, unsigned size, uint64_t *val);
bool hart_quiet_store(void *hart_ctx, uint64_t addr, unsigned size, uint64_t val);
/* RAM's epoch and watch in the sense of rt_mem.epoch/watch (src/ext/rt/rt_fetch.h), for
 * the RT offload engine, whose reads of RAM go straight to h->ram while !h->xlate: the
 * epoch changes at every write to watched bytes (any store or AMO of the hart, whatever
 * path executes it: interpreter, fast loop, translator; a unit's or the engine's
 * hart_store; a host write through mem_note_write: loader, HTIF, syscalls), at a reset,
 * and when translation, PMP or triggers change (hart_update_xlate); while h->xlate every
 * call returns a new value. A change forgets every watch. hart_ram_watch watches
 * [addr, addr + n) (what is watched is the hull of the watches since the last change:
 * stores into its pages take the hart's slow paths) and returns true, or returns false (watching
 * nothing) while h->xlate or when the range is not all RAM. */
uint64_t hart_ram_epoch(hart *h);
bool hart_ram_watch(hart *h, uint64_t addr, uint64_t n);

/* The A extension's AMO with funct5 code funct5 (add 0x00, swap 0x01, xor 0x04, or 0x08,
 * and 0x0c, min 0x10, max 0x14, minu 0x18, maxu 0x1c) of size 4 or 8 bytes at addr with
 * operand src, exactly as the base amo*.w/.d instructions do it (natural alignment, RAM
 * and regions only, commit log): true with *old = the old value (sign-extended for
 * size 4); false after raising the misaligned (6) or access (7) fault. Also false,
 * raising nothing, for another funct5 or size (the caller checks those). */
bool hart_amo(hart *h, unsigned funct5, uint64_t addr, unsigned size, uint64_t src, uint64_t *old);

/* Adds [base, base + size) as plain read/write memory backed by host (size bytes, owned
 * by the caller, must outlive the hart): loads, stores, LR/SC and AMOs of the hart reach
 * it through the slow path after the CLINT (instruction fetch does not: access fault).
 * Little-endian, like RAM. -1 when size is 0, the range wraps, overlaps RAM, the CLINT or
 * another region, or HART_MAX_REGIONS are in use. For units that own a memory window
 * (the XMEM LDS, docs/xmem.md). */
int hart_add_region(hart *h, uint64_t base, uint64_t size, uint8_t *host);
/* Gives the region added at base an access policy: every load, store, LR/SC, AMO and
 * hart_mem_ok probe that reaches it asks fn first, and a refused access is an access
 * fault like an unmapped address (the XMEM region model, docs/xmem.md). RAM and its fast
 * path never consult a policy. -1 when no region starts at base. */
int hart_region_set_check(hart *h, uint64_t base, hart_region_check_fn fn, void *ctx);

/* CSR access as a Zicsr instruction would do it (privilege checks included); false
 * when the access is illegal. */
bool hart_csr_read(hart *h, uint32_t addr, uint64_t *val);
bool hart_csr_write(hart *h, uint32_t addr, uint64_t val);
const char *hart_csr_name(uint32_t addr); /* NULL when unknown */

/* Restricts the hart to the extensions in misa (from isa_string_parse; MISA_RESET is the
 * default): instructions of a missing M, A, F, D or C are illegal, without S the S-mode
 * CSRs and delegation do not exist. Units should be registered only when misa has X.
 * Resets the hart to reset_pc. */
void hart_set_isa(hart *h, uint64_t misa, uint64_t reset_pc);

/* Hardware triggers (Sdtrig mcontrol, for a debugger's breakpoints and watchpoints):
 * trigger idx (< HART_NTRIG) matches an address equal to addr on the accesses in
 * `kinds` in every privilege mode and raises a breakpoint exception (cause 3, tval =
 * the address) before the instruction or access. The same state tselect/tdata1/tdata2
 * show to the guest. -1 for a bad index or no kind. */
enum { HART_TRIG_LOAD = 1, HART_TRIG_STORE = 2, HART_TRIG_EXEC = 4 };
int hart_trigger_set(hart *h, unsigned idx, uint64_t addr, unsigned kinds);
void hart_trigger_clear(hart *h, unsigned idx);

/* mtime as software sees it. */
uint64_t hart_mtime(const hart *h);

static inline uint64_t hart_x(const hart *h, unsigned r)
{
    return h->x[r];
}
static inline void hart_set_x(hart *h, unsigned r, uint64_t v)
{
    if (r) h->x[r] = v;
}

#endif
