/* hart_int.h — internals shared by the hart's own modules (hart.c, csr.c, clint.c,
 * exec_*.c, commitlog.c): the inline RAM fast paths and the name -> handler binding
 * tables. Not for units: they use hart.h. */
#ifndef XPHMG_SIM_HART_INT_H
#define XPHMG_SIM_HART_INT_H

#include <string.h>

#include "hart.h"

#if !defined(__BYTE_ORDER__) || __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the RAM fast path copies guest words as host words: a little-endian host is needed"
#endif

#define LIKELY(x)   __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* mstatus fields (RV64). */
#define MSTATUS_SIE  (UINT64_C(1) << 1)
#define MSTATUS_MIE  (UINT64_C(1) << 3)
#define MSTATUS_SPIE (UINT64_C(1) << 5)
#define MSTATUS_MPIE (UINT64_C(1) << 7)
#define MSTATUS_SPP  (UINT64_C(1) << 8)
#define MSTATUS_MPP  (UINT64_C(3) << 11)
#define MSTATUS_FS   (UINT64_C(3) << 13)
#define MSTATUS_MPRV (UINT64_C(1) << 17)
#define MSTATUS_SUM  (UINT64_C(1) << 18)
#define MSTATUS_MXR  (UINT64_C(1) << 19)
#define MSTATUS_TVM  (UINT64_C(1) << 20)
#define MSTATUS_TW   (UINT64_C(1) << 21)
#define MSTATUS_TSR  (UINT64_C(1) << 22)
#define MSTATUS_UXL  (UINT64_C(3) << 32)
#define MSTATUS_SXL  (UINT64_C(3) << 34)
#define MISA_C       (UINT64_C(1) << 2)
#define MISA_S       (UINT64_C(1) << ('S' - 'A'))
#define MSTATUS_SD   (UINT64_C(1) << 63)
#define FS_OFF       0
#define FS_DIRTY     MSTATUS_FS

/* One semantic binding: an instruction name as the XML spells it -> its handler.
 * This is semantics by name (like Spike's insn list), not an encoding table: the
 * encodings come only from the generated decoder. */
typedef struct {
    const char *name;
    hart_exec_fn fn;
    uint8_t wr; /* HART_WR_* */
} hart_bind;

extern const hart_bind hart_bind_base[]; /* RV64IMAC, Zicsr, Zifencei, privileged */
extern const unsigned hart_bind_base_count;
extern const hart_bind hart_bind_fp[]; /* F, D */
extern const unsigned hart_bind_fp_count;

/* Inline cases of the fast run loop (hart.c): the commonest instructions are executed
 * in the loop itself (threaded dispatch, no call), their handlers in exec_base.c stay
 * the reference semantics (used by the traced loop and whenever the inline fast path
 * does not apply: device or faulting addresses, flagged pages). */
enum {
    K_CALL = 0,
    K_ADDI,
    K_ADDIW,
    K_ANDI,
    K_ORI,
    K_XORI,
    K_SLLI,
    K_SRLI,
    K_SRAI,
    K_SLTI,
    K_SLTIU,
    K_LUI,
    K_AUIPC,
    K_ADD,
    K_SUB,
    K_AND,
    K_OR,
    K_XOR,
    K_SLL,
    K_SRL,
    K_SRA,
    K_SLT,
    K_SLTU,
    K_ADDW,
    K_SUBW,
    K_MUL,
    K_JAL,
    K_JALR,
    K_BEQ,
    K_BNE,
    K_BLT,
    K_BGE,
    K_BLTU,
    K_BGEU,
    K_LB,
    K_LBU,
    K_LH,
    K_LHU,
    K_LW,
    K_LWU,
    K_LD,
    K_SB,
    K_SH,
    K_SW,
    K_SD,
    K_FLW,
    K_FLD,
    K_FSW,
    K_FSD,
    K_SLLIW,
    K_SRLIW,
    K_SRAIW,
    K_SLLW,
    K_SRLW,
    K_SRAW,
    K_MULW,
    /* Assigned by refill(), never by hart_kind_of: an instruction that writes only
     * x0 (a no-op), and jal/jalr that link nothing. So the inline cases never write x0
     * and need not re-zero it. */
    K_NOP,
    K_J,
    K_JR,
    /* F/D arithmetic done in the loop on x86-64 hosts (SSE; see run_fast): RNE only, FS
     * already Dirty, everything else through the handler. */
    K_FADD_S,
    K_FSUB_S,
    K_FMUL_S,
    K_FMADD_S,
    K_FADD_D,
    K_FSUB_D,
    K_FMUL_D,
    K_FMADD_D,
    K_FDIV_S,
    K_FDIV_D,
    K_FSQRT_S,
    K_FSQRT_D,
    K_FMV_X_D,
    K_FMV_D_X,
    K__COUNT
};
/* The inline case for a base handler (exec_base.c) or an FP load/store (exec_fp.c),
 * K_CALL for any other. */
uint8_t hart_kind_of(hart_exec_fn fn);
uint8_t hart_kind_of_fp(hart_exec_fn fn);

/* The inline F/D cases (K_FADD_S..K_FMADD_D) exist on x86-64 hosts only. */
#if defined(__x86_64__)
#define HART_FP_INLINE 1
#else
#define HART_FP_INLINE 0
#endif

/* Per-4-KiB-page flags over RAM (h->page_flags): stores into a flagged page take the
 * notify path. */
#define PAGE_CODE  1 /* some cache entry was decoded from this page */
#define PAGE_WATCH 2 /* holds part of the poll's watch window (HTIF tohost) */
#define PAGE_RT    4 /* holds bytes the RT offload engine watches (hart_ram_watch) */

/* Slow paths (hart.c / clint.c). The load slow path returns by value so that the fast
 * path's result stays in a register. */
typedef struct {
    uint64_t v;
    bool ok;
} hart_ldres;
hart_ldres hart_load_slow(hart *h, uint64_t a, unsigned n);
bool hart_store_slow(hart *h, uint64_t a, unsigned n, uint64_t v);
void hart_store_notify(hart *h, uint64_t a, unsigned n);
void hart_code_written(hart *h, uint64_t a, uint64_t n);
/* A write reached bytes the RT engine watches (or may have: a reset, a change of
 * translation): a new RAM epoch, every watch and PAGE_RT flag cleared. */
void hart_rt_written(hart *h);
/* Drops every decoded instruction (reset, fence.i, a unit registered). */
void hart_icache_flush(hart *h);
void hart_trace_mem(hart *h, uint64_t a, unsigned n, uint64_t v, bool store);
/* A data access performed (hart_set_access_watch); kind HART_ACC_*. */
static inline void hart_note_access(hart *h, uint64_t va, unsigned n, unsigned kind)
{
    if (UNLIKELY(h->access_fn != NULL)) h->access_fn(h->access_ctx, va, n, kind);
}

/* ---- privileged machinery (vm.c) ---- */
enum { ACC_LOAD = 0, ACC_STORE = 1, ACC_FETCH = 2 };
/* Recomputes h->xlate (and the PMP summaries with pmp = true) after a change of
 * privilege, satp, mstatus, PMP, triggers or misa. */
void hart_update_xlate(hart *h, bool pmp);
/* The physical address of the n-byte access (within one page) at virtual address va:
 * load/store triggers, translation, PMP. false after raising the fault (raise = true) or
 * without raising anything (raise = false). */
bool hart_translate(hart *h, uint64_t va, unsigned n, int acc, uint64_t *pa, bool raise);
/* The translator's fetch check, raising nothing: whether an n-byte fetch at va (within
 * one page) passes translation and the PMP in the current mode, its physical address in
 * *pa, and the physical addresses of the page-table entries the walk read in pte[0 ..
 * *npte) (none in M mode or with satp Bare). */
bool hart_fetch_phys(hart *h, uint64_t va, unsigned n, uint64_t *pa, uint64_t pte[4],
                     unsigned *npte);
/* The translator's data TLB fill, raising nothing: whether every load (acc = ACC_LOAD)
 * or store (ACC_STORE) inside the 4 KiB page at va (page-aligned) passes translation
 * and the PMP in the current data privilege, the page's physical address in *pa, the
 * page-table entries read as for hart_fetch_phys. */
bool hart_data_phys(hart *h, uint64_t va, int acc, uint64_t *pa, uint64_t pte[4], unsigned *npte);
/* Execute triggers: true (after raising the breakpoint) when one matches pc. */
bool hart_exec_trigger(hart *h, uint64_t pc);
/* Whether the PMP allows the n-byte physical access at pa in mode priv. */
bool hart_pmp_ok(const hart *h, uint64_t pa, unsigned n, int acc, unsigned priv);
/* The privilege data accesses are made with (mstatus.MPRV). */
static inline unsigned hart_data_priv(const hart *h)
{
    if (h->priv == PRV_M && (h->mstatus & MSTATUS_MPRV)) return (unsigned)(h->mstatus >> 11) & 3;
    return h->priv;
}
/* Logs the trap (commit log) about to be taken: cause, epc, tval (commitlog.c). */
void hart_log_trap(hart *h, uint64_t cause, uint64_t epc, uint64_t tval);
/* Commit log: record the value of CSR a after this instruction (csr.c). */
void hart_trace_csr(hart *h, uint32_t a);
/* The host bytes of [a, a + n) when it lies inside one hart_add_region region and the
 * region's policy (if any) lets this access (store: a store or AMO) proceed, else NULL
 * (hart.c). */
uint8_t *hart_region_ptr(hart *h, uint64_t a, unsigned n, bool store);
bool clint_load(hart *h, uint64_t off, unsigned n, uint64_t *v);
bool clint_store(hart *h, uint64_t off, unsigned n, uint64_t v);
uint64_t hart_mip(const hart *h);
uint64_t hart_exec_illegal(hart *h, const hart_insn *d);
/* Decodes the instruction at physical address pc into *e (for the translator), marking
 * its pages as holding code; false, raising nothing, when it is not all in RAM. */
bool hart_decode_phys(hart *h, uint64_t pc, hart_insn *e);
/* Marks the RAM pages of [pa, pa + n) as holding code, so that stores into them reach
 * hart_code_written (the translator watches page-table entries this way). */
void hart_watch_phys(hart *h, uint64_t pa, unsigned n);
/* The interpreter for up to n instructions of the current batch (the translator's
 * fallback): the fast loop, or the careful loop while h->xlate. */
void hart_run_interp(hart *h, int64_t n);
uint64_t hart_exec_unit(hart *h, const hart_insn *d);

/* The fall-through address of the instruction being executed: d->npc, which a store
 * into the instruction's own bytes leaves intact (it empties the entry by its tag,
 * d->pc; errata P-401). */
#define NEXT (d->npc)

/* Zero-extended little-endian load of n bytes (1, 2, 4, 8), any alignment. */
static inline bool ld(hart *h, uint64_t a, unsigned n, uint64_t *v)
{
    uint64_t off = a - h->ram_base;
    if (LIKELY(off <= h->ram_size - n) && LIKELY(!h->xlate)) {
        const uint8_t *p = h->ram + off;
        switch (n) {
        case 1:
            *v = *p;
            break;
        case 2: {
            uint16_t t;
            memcpy(&t, p, 2);
            *v = t;
            break;
        }
        case 4: {
            uint32_t t;
            memcpy(&t, p, 4);
            *v = t;
            break;
        }
        default:
            memcpy(v, p, 8);
            break;
        }
        if (UNLIKELY(h->tracing)) hart_trace_mem(h, a, n, *v, false);
        return true;
    }
    hart_ldres r = hart_load_slow(h, a, n);
    *v = r.v;
    return r.ok;
}

static inline bool st(hart *h, uint64_t a, unsigned n, uint64_t v)
{
    uint64_t off = a - h->ram_base;
    if (LIKELY(off <= h->ram_size - n) && LIKELY(!h->xlate)) {
        uint8_t *p = h->ram + off;
        switch (n) {
        case 1:
            *p = (uint8_t)v;
            break;
        case 2: {
            uint16_t t = (uint16_t)v;
            memcpy(p, &t, 2);
            break;
        }
        case 4: {
            uint32_t t = (uint32_t)v;
            memcpy(p, &t, 4);
            break;
        }
        default:
            memcpy(p, &v, 8);
            break;
        }
        if (UNLIKELY(h->tracing)) hart_trace_mem(h, a, n, v, true);
        if (UNLIKELY(h->page_flags[off >> 12] | h->page_flags[(off + n - 1) >> 12]))
            hart_store_notify(h, a, n);
        return true;
    }
    return hart_store_slow(h, a, n, v);
}

static inline void wx(hart *h, unsigned r, uint64_t v)
{
    h->x[r] = v;
    h->x[0] = 0; /* cheaper than a branch: x0 is re-zeroed after every write */
}

/* mstatus.FS = Dirty after any change of FP state; the commit log lists the mstatus
 * write when FS actually changes, as Spike does. */
static inline void fs_dirty(hart *h)
{
    if (UNLIKELY((h->mstatus & MSTATUS_FS) != FS_DIRTY)) {
        h->mstatus |= FS_DIRTY;
        if (h->tracing) hart_trace_csr(h, 0x300);
    }
}

static inline int64_t sext32(uint64_t v)
{
    return (int64_t)(int32_t)(uint32_t)v;
}

#endif
