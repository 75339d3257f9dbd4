/* jit.c — the translator (docs/sim.md, "Translator"): guest basic blocks (up to
 * JIT_MAX_INSNS instructions, ending at the first jump or branch) become x86-64 code in
 * one mmap'd cache that is flushed whole when it is full or when anything it was
 * translated from may have changed. Blocks are keyed by (pc, privilege) and only run
 * while h->xlate is false, so a guest address is a physical RAM address.
 *
 * Generated code keeps: RBX = the hart, RBP = this jit, R12 = host address of RAM,
 * R13 = the batch's instructions left, R14 = RAM's guest base, R15 = the fast-path
 * bound (RAM size - 7, the fast loop's). Guest registers live in h->x. A block first
 * takes its whole instruction count from R13 (or exits if it does not fit, and the
 * interpreter runs the batch's tail), so --max-insns, timer interrupts and the batch
 * boundaries are exactly the fast loop's. The integer instructions the fast loop has
 * inline cases for are translated; every other instruction, and every slow path (a
 * device or faulting address, a store into a page holding code or the HTIF mailbox),
 * calls the instruction's handler with h->pc and h->instret as the fast loop would set
 * them, and leaves the block when the handler trapped, stopped the batch (h->stop) or
 * went elsewhere than the fall-through. */
#include "jit.h"

#include "hart_int.h"

#if defined(__x86_64__)

#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "x86emit.h"

#define JIT_CODE_BYTES (UINT64_C(16) << 20)
#define JIT_MAX_INSNS  64
/* Room kept free for one block: the worst instruction (a single-precision fmadd: its
 * checks, the operation, the flag and NaN paths and its handler call) takes under 400
 * bytes. A block that still does not fit is retried once after a flush. */
#define JIT_BLOCK_ROOM  (JIT_MAX_INSNS * 512 + 1024)
#define JIT_MAX_BLOCKS  65536
#define JIT_MAX_DCOPIES (JIT_MAX_BLOCKS * 2)
#define JIT_HASH_BITS   15
#define JIT_JC_BITS     12
#define JIT_TLB_BITS    8
#define JIT_FEW_BLOCKS  1024 /* a flush clears these blocks' buckets, not the tables */
/* A key is the block's pc (virtual under translation) in its low 57 bits, valid for a pc
 * that sign-extends from bit 56 (every address Sv39/Sv48 or RAM below 2^56 can fetch
 * from; others take the interpreter, which faults), whether the block was translated
 * for a mode with address translation or PMP checks (JIT_XLATE_BIT: its loads and stores
 * are handler calls), and the privilege above. */
#define JIT_PC_BITS    57
#define JIT_PC_MASK    ((UINT64_C(1) << JIT_PC_BITS) - 1)
#define JIT_XLATE_BIT  (UINT64_C(1) << JIT_PC_BITS)
#define JIT_PRIV_SHIFT 62
#define JIT_RAM_LIMIT  (UINT64_C(1) << 56)

typedef struct jit_block {
    uint64_t key;
    const uint8_t *code;
    uint64_t ninsns;
    struct jit_block *next;
} jit_block;

struct jit_jc {
    uint64_t key;
    const uint8_t *code;
};

/* The data TLB of blocks translated under address translation / PMP: virtual page ->
 * RAM offset - virtual address, for pages that translate, pass the PMP as a whole and
 * lie in RAM, per access kind (loads, stores). Filled before a missed access's handler
 * runs, emptied with the cache and whenever what data translation depends on changed
 * (privilege, MPRV/MPP, SUM, MXR, satp: checked on entering the translator, since every
 * change of them ends the batch). */
struct jit_tle {
    uint64_t tag; /* va >> 12, or UINT64_MAX for none */
    uint64_t add;
};

struct jit {
    /* read and written by generated code (RBP-relative) */
    int64_t budget;      /* instructions left in the batch (R13 while running) */
    uint64_t irn;        /* h->instret = irn - budget */
    uint8_t *chain_from; /* the exit taken, when it is a direct jump that can be chained */
    const uint8_t *pflags;
    uint8_t *ram;
    uint64_t base, lim;
    /* MXCSR as last seen by an inline F/D operation, its flags already accrued into
     * fflags (the fast loop's scheme, hart.c); the default value; a store slot */
    uint32_t mx, mxdef, mxst;
    uint8_t mxf[64]; /* MXCSR flags IE DE ZE OE UE PE -> fflags NV . DZ OF UF NX */

    hart *h;
    uint8_t *code;  /* the mmap'd cache */
    uint8_t *start; /* first byte after the entry/exit trampolines */
    uint8_t *free;  /* next block goes here */
    void (*enter)(hart *h, jit *j, const uint8_t *code);
    const uint8_t *exit;
    const uint8_t *clean; /* restores the default MXCSR if an inline operation left flags */
    struct jit_jc *jc;    /* indirect-jump lookup: pc -> code, read by generated code */
    jit_block *blocks;
    unsigned nblocks;
    jit_block **hash;
    hart_insn *dcopy; /* the decoded instructions handler calls pass (stable addresses) */
    unsigned ndcopy;
    /* self-modifying code: a bit per 2-byte granule of RAM holding translated code, and
     * the RAM pages with any such bit (jpage, and their list to clear at a flush) */
    uint8_t *granule;
    uint64_t granule_bytes;
    uint8_t *jpage;
    uint32_t *pages;
    uint64_t npages;
    uint64_t gen;
    bool flush_pending;
    jit_stats st;
    uint64_t tlb_mstatus, tlb_satp; /* what the TLB's entries were made under */
    unsigned tlb_priv;
    struct jit_tle tlb[2][1u << JIT_TLB_BITS];
};

#define HOFF(f)       ((int32_t)offsetof(hart, f))
#define XOFF(r)       ((int32_t)(offsetof(hart, x) + 8 * (r)))
#define JOFF(f)       ((int32_t)offsetof(jit, f))
#define FOFF(r)       ((int32_t)(offsetof(hart, f) + 8 * (r)))
#define MXCSR_DEFAULT 0x1f80u /* RNE, every exception masked, no FTZ/DAZ, no flags */

bool jit_supported(void)
{
    return true;
}

/* ---- the cache ---- */

static void tlb_clear(jit *j)
{
    memset(j->tlb, 0xff, sizeof j->tlb);
}

static unsigned hash_of(uint64_t key);

static void flush(jit *j)
{
    tlb_clear(j);
    for (uint64_t i = 0; i < j->npages; i++) {
        uint64_t p = j->pages[i], lo = p * 256;
        j->jpage[p] = 0;
        if (lo < j->granule_bytes)
            memset(j->granule + lo, 0, j->granule_bytes - lo < 256 ? j->granule_bytes - lo : 256);
    }
    j->npages = 0;
    /* Only a block's key fills a hash bucket or an indirect-jump entry (find): after a
     * short run (a reset, a fence.i under fuzzing) clearing theirs beats 320 KiB. */
    if (j->nblocks < JIT_FEW_BLOCKS) {
        for (unsigned i = 0; i < j->nblocks; i++) {
            uint64_t key = j->blocks[i].key;
            j->hash[hash_of(key)] = NULL;
            j->jc[(key >> 1) & ((1u << JIT_JC_BITS) - 1)] = (struct jit_jc){0, NULL};
        }
    } else {
        memset(j->hash, 0, sizeof *j->hash << JIT_HASH_BITS);
        memset(j->jc, 0, sizeof *j->jc << JIT_JC_BITS);
    }
    j->nblocks = 0;
    j->ndcopy = 0;
    j->free = j->start;
    j->gen++;
    j->flush_pending = false;
    j->st.flushes++;
}

static bool keyable(uint64_t pc)
{
    return (uint64_t)((int64_t)(pc << (64 - JIT_PC_BITS)) >> (64 - JIT_PC_BITS)) == pc;
}

/* The key of the block at pc in the hart's current mode (pc keyable). */
static uint64_t key_of(const hart *h, uint64_t pc)
{
    return (pc & JIT_PC_MASK) | (h->xlate ? JIT_XLATE_BIT : 0) |
           (uint64_t)h->priv << JIT_PRIV_SHIFT;
}

static unsigned hash_of(uint64_t key)
{
    return (unsigned)((key >> 1) ^ (key >> (JIT_HASH_BITS + 1)) ^ (key >> JIT_PRIV_SHIFT)) &
           ((1u << JIT_HASH_BITS) - 1);
}

static jit_block *lookup(jit *j, uint64_t key)
{
    for (jit_block *b = j->hash[hash_of(key)]; b; b = b->next)
        if (b->key == key) return b;
    return NULL;
}

static void note_code(jit *j, uint64_t pc, unsigned len)
{
    uint64_t off = pc - j->h->ram_base;
    for (uint64_t g = off >> 1; g <= (off + len - 1) >> 1; g++)
        j->granule[g >> 3] |= (uint8_t)(1u << (g & 7));
    for (uint64_t p = off >> 12; p <= (off + len - 1) >> 12; p++)
        if (!j->jpage[p]) {
            j->jpage[p] = 1;
            j->pages[j->npages++] = (uint32_t)p;
        }
}

/* The page-table entries a walk read: a store into one drops every translation, as a
 * store into translated code does (the careful loop walks every access, so it would see
 * the new entry). */
static void watch_ptes(jit *j, const uint64_t *pte, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        note_code(j, pte[i], 8);
        hart_watch_phys(j->h, pte[i], 8);
    }
}

/* Called by generated code before the handler of a load (acc 0) or store (acc 1) at va
 * that missed the TLB: enters va's page when all of it is accessible that way. */
static void tlb_fill(hart *h, uint64_t va, uint64_t acc)
{
    jit *j = h->jit;
    uint64_t pa, pte[4];
    unsigned npte;
    if (!hart_data_phys(h, va & ~UINT64_C(4095), (int)acc, &pa, pte, &npte)) return;
    uint64_t off = pa - h->ram_base;
    if (off >= h->ram_size || h->ram_size - off < 4096) return;
    watch_ptes(j, pte, npte);
    struct jit_tle *e = &j->tlb[acc][(va >> 12) & ((1u << JIT_TLB_BITS) - 1)];
    e->tag = va >> 12;
    e->add = off - (va & ~UINT64_C(4095));
}

void jit_code_written(hart *h, uint64_t a, uint64_t n)
{
    jit *j = h->jit;
    if (!j || !j->nblocks || !n) return;
    uint64_t off = a - h->ram_base;
    bool hit = false;
    if (off >= h->ram_size || n > h->ram_size - off) {
        hit = true; /* not a RAM range: be safe */
    } else if (n > 64) {
        for (uint64_t p = off >> 12; p <= (off + n - 1) >> 12 && !hit; p++)
            hit = j->jpage[p] != 0;
    } else {
        for (uint64_t g = off >> 1; g <= (off + n - 1) >> 1 && !hit; g++)
            hit = (j->granule[g >> 3] >> (g & 7)) & 1;
    }
    if (hit) jit_flush_request(h);
}

void jit_flush_request(hart *h)
{
    if (!h->jit) return;
    h->jit->flush_pending = true;
    h->stop = true; /* the running block exits right after this instruction */
}

void jit_get_stats(const jit *j, jit_stats *s)
{
    *s = j->st;
}

/* ---- translation ---- */

enum { COLD_HELPER, COLD_EXIT, COLD_CHAIN, COLD_BUDGET, COLD_FPACC, COLD_FPNAN, COLD_TLBMISS };

/* Out-of-line code emitted after a block's straight-line code: slow paths and exits,
 * reached through up to three jumps each. */
typedef struct {
    int kind;
    unsigned i;       /* the instruction (COLD_HELPER, COLD_EXIT) */
    uint64_t target;  /* COLD_CHAIN: the guest pc; COLD_FPNAN: the canonical NaN */
    uint8_t *from[8]; /* the displacements jumping here */
    const uint8_t *resume;
    unsigned helper;   /* COLD_FPACC, COLD_TLBMISS: the item of the handler call */
    const uint8_t *at; /* where this item's code went */
} cold_item;

typedef struct {
    hart *h;
    jit *j;
    x86buf b;
    const hart_insn *ins;
    unsigned n;
    bool xl; /* translated under address translation / PMP: memory through handlers */
    unsigned ncold;
    cold_item cold[JIT_MAX_INSNS * 4 + 4];
} tctx;

static cold_item *add_cold(tctx *t, int kind, unsigned i, uint8_t *from)
{
    cold_item *c = &t->cold[t->ncold++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->i = i;
    c->from[0] = from;
    return c;
}

static void cold_from(cold_item *c, uint8_t *from)
{
    unsigned k = 0;
    while (c->from[k])
        k++;
    c->from[k] = from;
}

static void ld_x(x86buf *b, int reg, unsigned r)
{
    if (r)
        x86_load_m(b, reg, X_RBX, XOFF(r));
    else
        x86_zero(b, reg);
}

static void st_x(x86buf *b, unsigned r, int reg)
{
    if (r) x86_store_m(b, X_RBX, XOFF(r), reg);
}

/* A direct exit to guest pc `target`, chainable. */
static void exit_to(tctx *t, uint8_t *from, uint64_t target)
{
    add_cold(t, COLD_CHAIN, 0, from)->target = target;
}

/* Instruction i through its handler, as the fast loop's k_call does it. */
static void emit_helper(tctx *t, unsigned i)
{
    x86buf *b = &t->b;
    const hart_insn *d = &t->ins[i];
    hart_insn *dc = &t->j->dcopy[t->j->ndcopy++];
    *dc = *d;
    int32_t left = (int32_t)(t->n - i); /* R13 holds the budget minus this many */
    x86_call_rel(b, t->j->clean);
    x86_load_m(b, X_RAX, X_RBP, JOFF(irn));
    x86_alu_rr(b, XA_SUB, X_RAX, X_R13, true);
    x86_alu_ri(b, XA_SUB, X_RAX, left, true);
    x86_store_m(b, X_RBX, HOFF(instret), X_RAX);
    x86_mov_imm(b, X_RAX, d->pc);
    x86_store_m(b, X_RBX, HOFF(pc), X_RAX);
    x86_mov_rr(b, X_RDI, X_RBX);
    x86_mov_imm(b, X_RSI, (uint64_t)(uintptr_t)dc);
    x86_mov_imm(b, X_RAX, (uint64_t)(uintptr_t)t->h->xop_fn[d->op]);
    x86_call_r(b, X_RAX);
    /* The handler counts as executed (a trap took one off instret): re-base irn. */
    x86_load_m(b, X_RCX, X_RBX, HOFF(instret));
    x86_alu_rr(b, XA_ADD, X_RCX, X_R13, true);
    x86_alu_ri(b, XA_ADD, X_RCX, left, true);
    x86_store_m(b, X_RBP, JOFF(irn), X_RCX);
    x86_cmp_m8_0(b, X_RBX, HOFF(stop));
    cold_item *c = add_cold(t, COLD_EXIT, i, x86_jcc(b, XC_NE));
    x86_mov_imm(b, X_RCX, d->npc);
    x86_alu_rr(b, XA_CMP, X_RAX, X_RCX, true);
    c->from[1] = x86_jcc(b, XC_NE);
}

/* RAX = x[rs1] + imm - RAM base; jumps to c (the handler) when outside the fast path's
 * bound. */
static void emit_ram_offset(tctx *t, unsigned i, cold_item *c)
{
    x86buf *b = &t->b;
    const hart_insn *d = &t->ins[i];
    ld_x(b, X_RAX, d->rs1);
    if (d->imm) x86_alu_ri(b, XA_ADD, X_RAX, (int32_t)d->imm, true);
    x86_alu_rr(b, XA_SUB, X_RAX, X_R14, true);
    x86_alu_rr(b, XA_CMP, X_RAX, X_R15, true);
    cold_from(c, x86_jcc(b, XC_AE));
}

/* RAX = the RAM offset of the size-byte access at x[rs1] + imm of a block translated
 * under address translation / PMP, through the TLB of access kind acc; a miss (or an
 * access across its page) fills the TLB and jumps to c (the handler). */
static void emit_tlb_offset(tctx *t, unsigned i, cold_item *c, unsigned acc, unsigned size)
{
    x86buf *b = &t->b;
    const hart_insn *d = &t->ins[i];
    ld_x(b, X_RAX, d->rs1);
    if (d->imm) x86_alu_ri(b, XA_ADD, X_RAX, (int32_t)d->imm, true);
    x86_mov_rr(b, X_RDX, X_RAX);
    x86_shift_ri(b, XS_SHR, X_RDX, 12, true);
    x86_mov_rr(b, X_RSI, X_RDX);
    x86_alu_ri(b, XA_AND, X_RSI, (1 << JIT_TLB_BITS) - 1, false);
    x86_shift_ri(b, XS_SHL, X_RSI, 4, true);
    x86_mov_imm(b, X_RCX, (uint64_t)(uintptr_t)t->j->tlb[acc]);
    x86_alu_rr(b, XA_ADD, X_RSI, X_RCX, true);
    x86_alu_mr(b, XA_CMP, X_RDX, X_RSI, 0);
    cold_item *miss = add_cold(t, COLD_TLBMISS, i, x86_jcc(b, XC_NE));
    miss->helper = (unsigned)(c - t->cold);
    miss->target = acc;
    x86_mov_rr(b, X_RCX, X_RAX);
    x86_alu_ri(b, XA_AND, X_RCX, 4095, false);
    x86_alu_ri(b, XA_CMP, X_RCX, (int32_t)(4096 - size), false);
    cold_from(miss, x86_jcc(b, XC_A));
    x86_alu_mr(b, XA_ADD, X_RAX, X_RSI, 8);
}

/* RAX = the RAM offset of instruction i's size-byte access (acc: 0 load, 1 store), or a
 * jump to c, the handler. */
static void emit_mem_offset(tctx *t, unsigned i, cold_item *c, unsigned acc, unsigned size)
{
    if (t->xl)
        emit_tlb_offset(t, i, c, acc, size);
    else
        emit_ram_offset(t, i, c);
}

/* Stores: jumps to c unless neither end of the access at RAM offset RAX lies in a flagged
 * page (code, the HTIF mailbox); then [RAM + RAX] = the low `size` bytes of RCX. */
static void emit_store_tail(tctx *t, cold_item *c, unsigned size)
{
    x86buf *b = &t->b;
    x86_load_m(b, X_RDX, X_RBP, JOFF(pflags));
    x86_mov_rr(b, X_RSI, X_RAX);
    x86_shift_ri(b, XS_SHR, X_RSI, 12, true);
    x86_test_m8_idx(b, X_RDX, X_RSI);
    cold_from(c, x86_jcc(b, XC_NE));
    if (size > 1) {
        x86_lea(b, X_RSI, X_RAX, (int32_t)size - 1);
        x86_shift_ri(b, XS_SHR, X_RSI, 12, true);
        x86_test_m8_idx(b, X_RDX, X_RSI);
        cold_from(c, x86_jcc(b, XC_NE));
    }
    x86_store_idx(b, size, X_R12, X_RAX, X_RCX);
}

/* Jumps to c unless mstatus.FS is Dirty (dirty = true) or not Off (dirty = false). */
static void emit_fs_check(tctx *t, cold_item *c, bool dirty)
{
    x86buf *b = &t->b;
    x86_load_m(b, X_RSI, X_RBX, HOFF(mstatus));
    x86_alu_ri(b, XA_AND, X_RSI, (int32_t)MSTATUS_FS, false);
    if (dirty) x86_alu_ri(b, XA_CMP, X_RSI, (int32_t)MSTATUS_FS, false);
    cold_from(c, x86_jcc(b, dirty ? XC_NE : XC_E));
}

/* F/D arithmetic on the host's SSE/FMA3 unit, as the fast loop's inline cases do it
 * (same host instructions as rvfp, same conditions: FS Dirty, the rounding mode resolving
 * to RNE, single operands NaN-boxed; anything else and a NaN out of an fma take the
 * handler). False when this instruction's static rounding mode is not RNE. */
static bool emit_fp_arith(tctx *t, unsigned i)
{
    x86buf *b = &t->b;
    const hart_insn *d = &t->ins[i];
    uint8_t op = 0x58;
    bool dbl = false, fma = false, sqrt = false;
    switch (d->k) {
    case K_FADD_D:
        dbl = true;
        /* fall through */
    case K_FADD_S:
        break;
    case K_FSUB_D:
        dbl = true;
        /* fall through */
    case K_FSUB_S:
        op = 0x5c;
        break;
    case K_FMUL_D:
        dbl = true;
        /* fall through */
    case K_FMUL_S:
        op = 0x59;
        break;
    case K_FDIV_D:
        dbl = true;
        /* fall through */
    case K_FDIV_S:
        op = 0x5e;
        break;
    case K_FSQRT_D:
        dbl = true;
        /* fall through */
    case K_FSQRT_S:
        sqrt = true;
        break;
    case K_FMADD_D:
        dbl = true;
        /* fall through */
    default: /* K_FMADD_S */
        fma = true;
        break;
    }
    if (d->rm != 0 && d->rm != 7) return false;
    cold_item *c = add_cold(t, COLD_HELPER, i, NULL);
    unsigned ci = t->ncold - 1;
    emit_fs_check(t, c, true);
    if (d->rm == 7) {
        x86_cmp_m32_imm(b, X_RBX, HOFF(frm), 0);
        cold_from(c, x86_jcc(b, XC_NE));
    }
    if (!dbl) {
        unsigned src[3] = {d->rs1, sqrt ? d->rs1 : d->rs2, fma ? d->rs3 : d->rs1};
        for (unsigned k = 0; k < 3; k++) {
            x86_cmp_m32_imm(b, X_RBX, FOFF(src[k]) + 4, -1);
            cold_from(c, x86_jcc(b, XC_NE));
        }
    }
    uint8_t pfx = dbl ? 0xf2 : 0xf3;
    if (fma) {
        x86_sse_m(b, pfx, 0x10, 0, X_RBX, FOFF(d->rs3));
        x86_sse_m(b, pfx, 0x10, 1, X_RBX, FOFF(d->rs1));
        x86_vfmadd231_m(b, dbl, 0, 1, X_RBX, FOFF(d->rs2));
    } else if (sqrt) {
        x86_sse_m(b, pfx, 0x51, 0, X_RBX, FOFF(d->rs1));
    } else {
        x86_sse_m(b, pfx, 0x10, 0, X_RBX, FOFF(d->rs1));
        x86_sse_m(b, pfx, op, 0, X_RBX, FOFF(d->rs2));
    }
    x86_mxcsr(b, true, X_RBP, JOFF(mxst));
    x86_load_m32(b, X_RAX, X_RBP, JOFF(mxst));
    x86_cmp_r_m32(b, X_RAX, X_RBP, JOFF(mx));
    cold_item *acc = add_cold(t, COLD_FPACC, i, x86_jcc(b, XC_NE));
    acc->helper = ci;
    acc->resume = b->p;
    x86_movq_r_x(b, X_RAX, 0, dbl);
    x86_mov_rr(b, X_RCX, X_RAX);
    x86_shift_ri(b, XS_SHL, X_RCX, 1, dbl);
    if (dbl) {
        x86_mov_imm(b, X_RDX, UINT64_C(0xffe0000000000000));
        x86_alu_rr(b, XA_CMP, X_RCX, X_RDX, true);
    } else {
        x86_alu_ri(b, XA_CMP, X_RCX, (int32_t)0xff000000u, false);
    }
    if (fma) {
        cold_from(c, x86_jcc(b, XC_A)); /* NaN: RISC-V's rule for inf * 0 + qNaN */
    } else {
        cold_item *nan = add_cold(t, COLD_FPNAN, i, x86_jcc(b, XC_A));
        nan->target = dbl ? UINT64_C(0x7ff8000000000000) : 0x7fc00000u;
        nan->resume = b->p;
    }
    if (!dbl) {
        x86_mov_imm(b, X_RCX, UINT64_C(0xffffffff00000000));
        x86_alu_rr(b, XA_OR, X_RAX, X_RCX, true);
    }
    x86_store_m(b, X_RBX, FOFF(d->rd), X_RAX);
    t->cold[ci].resume = b->p;
    return true;
}

static bool fits32(int64_t v)
{
    return v == (int32_t)v;
}

/* Emits instruction i; returns false when it ended the block with its own exits. */
static bool emit_insn(tctx *t, unsigned i)
{
    x86buf *b = &t->b;
    const hart_insn *d = &t->ins[i];
    int32_t imm = (int32_t)d->imm;
    bool w32 = false;
    x86_alu op = XA_ADD;
    x86_shift sh = XS_SHL;
    x86_cc cc = XC_E;
    x86_load lk = XL_64;
    unsigned size = 8;
    if (!fits32(d->imm)) goto helper;
    switch (d->k) {
    case K_NOP:
        return true;
    case K_ADDIW:
        w32 = true;
        /* fall through */
    case K_ADDI:
        if (d->rs1 == 0 && !w32) {
            x86_mov_imm(b, X_RAX, (uint64_t)d->imm);
        } else {
            ld_x(b, X_RAX, d->rs1);
            if (imm || w32) x86_alu_ri(b, XA_ADD, X_RAX, imm, !w32);
            if (w32) x86_movsxd(b, X_RAX, X_RAX);
        }
        st_x(b, d->rd, X_RAX);
        return true;
    case K_ANDI:
        op = XA_AND;
        goto alui;
    case K_ORI:
        op = XA_OR;
        goto alui;
    case K_XORI:
        op = XA_XOR;
    alui:
        ld_x(b, X_RAX, d->rs1);
        x86_alu_ri(b, op, X_RAX, imm, true);
        st_x(b, d->rd, X_RAX);
        return true;
    case K_SLLIW:
        w32 = true;
        /* fall through */
    case K_SLLI:
        sh = XS_SHL;
        goto shifti;
    case K_SRLIW:
        w32 = true;
        /* fall through */
    case K_SRLI:
        sh = XS_SHR;
        goto shifti;
    case K_SRAIW:
        w32 = true;
        /* fall through */
    case K_SRAI:
        sh = XS_SAR;
    shifti:
        ld_x(b, X_RAX, d->rs1);
        x86_shift_ri(b, sh, X_RAX, (uint8_t)(imm & (w32 ? 31 : 63)), !w32);
        if (w32) x86_movsxd(b, X_RAX, X_RAX);
        st_x(b, d->rd, X_RAX);
        return true;
    case K_SLTI:
        cc = XC_L;
        goto slti;
    case K_SLTIU:
        cc = XC_B;
    slti:
        ld_x(b, X_RAX, d->rs1);
        x86_alu_ri(b, XA_CMP, X_RAX, imm, true);
        x86_setcc_zx(b, cc, X_RAX);
        st_x(b, d->rd, X_RAX);
        return true;
    case K_LUI:
        x86_mov_imm(b, X_RAX, (uint64_t)d->imm << 12);
        st_x(b, d->rd, X_RAX);
        return true;
    case K_AUIPC:
        x86_mov_imm(b, X_RAX, d->pc + ((uint64_t)d->imm << 12));
        st_x(b, d->rd, X_RAX);
        return true;
    case K_ADDW:
        w32 = true;
        /* fall through */
    case K_ADD:
        op = XA_ADD;
        goto alu;
    case K_SUBW:
        w32 = true;
        /* fall through */
    case K_SUB:
        op = XA_SUB;
        goto alu;
    case K_AND:
        op = XA_AND;
        goto alu;
    case K_OR:
        op = XA_OR;
        goto alu;
    case K_XOR:
        op = XA_XOR;
    alu:
        ld_x(b, X_RAX, d->rs1);
        ld_x(b, X_RCX, d->rs2);
        x86_alu_rr(b, op, X_RAX, X_RCX, !w32);
        if (w32) x86_movsxd(b, X_RAX, X_RAX);
        st_x(b, d->rd, X_RAX);
        return true;
    case K_SLLW:
        w32 = true;
        /* fall through */
    case K_SLL:
        sh = XS_SHL;
        goto shift;
    case K_SRLW:
        w32 = true;
        /* fall through */
    case K_SRL:
        sh = XS_SHR;
        goto shift;
    case K_SRAW:
        w32 = true;
        /* fall through */
    case K_SRA:
        sh = XS_SAR;
    shift: /* x86 masks the count in CL to 5 (32-bit) or 6 bits, as RISC-V does */
        ld_x(b, X_RAX, d->rs1);
        ld_x(b, X_RCX, d->rs2);
        x86_shift_rcl(b, sh, X_RAX, !w32);
        if (w32) x86_movsxd(b, X_RAX, X_RAX);
        st_x(b, d->rd, X_RAX);
        return true;
    case K_SLT:
        cc = XC_L;
        goto slt;
    case K_SLTU:
        cc = XC_B;
    slt:
        ld_x(b, X_RAX, d->rs1);
        ld_x(b, X_RCX, d->rs2);
        x86_alu_rr(b, XA_CMP, X_RAX, X_RCX, true);
        x86_setcc_zx(b, cc, X_RAX);
        st_x(b, d->rd, X_RAX);
        return true;
    case K_MULW:
        w32 = true;
        /* fall through */
    case K_MUL:
        ld_x(b, X_RAX, d->rs1);
        ld_x(b, X_RCX, d->rs2);
        x86_imul_rr(b, X_RAX, X_RCX, !w32);
        if (w32) x86_movsxd(b, X_RAX, X_RAX);
        st_x(b, d->rd, X_RAX);
        return true;
    case K_JAL:
        x86_mov_imm(b, X_RAX, d->npc);
        st_x(b, d->rd, X_RAX);
        /* fall through */
    case K_J:
        exit_to(t, x86_jmp(b), d->pc + (uint64_t)d->imm);
        return false;
    case K_JALR:
    case K_JR: {
        ld_x(b, X_RAX, d->rs1);
        if (imm) x86_alu_ri(b, XA_ADD, X_RAX, imm, true);
        x86_alu_ri(b, XA_AND, X_RAX, -2, true);
        if (d->k == K_JALR) {
            x86_mov_imm(b, X_RCX, d->npc);
            st_x(b, d->rd, X_RCX);
        }
        x86_store_m(b, X_RBX, HOFF(pc), X_RAX);
        /* a pc that has no key (not sign-extended from bit 56): the dispatcher lets the
         * interpreter fault on it */
        x86_mov_rr(b, X_RCX, X_RAX);
        x86_shift_ri(b, XS_SHL, X_RCX, 64 - JIT_PC_BITS, true);
        x86_shift_ri(b, XS_SAR, X_RCX, 64 - JIT_PC_BITS, true);
        x86_alu_rr(b, XA_CMP, X_RCX, X_RAX, true);
        add_cold(t, COLD_CHAIN, 0, x86_jcc(b, XC_NE))->target = UINT64_MAX;
        /* the lookup table: entry (pc >> 1) & mask, tag = the key in this block's mode */
        x86_mov_rr(b, X_RDX, X_RAX);
        x86_shift_ri(b, XS_SHR, X_RDX, 1, true);
        x86_alu_ri(b, XA_AND, X_RDX, (1 << JIT_JC_BITS) - 1, false);
        x86_shift_ri(b, XS_SHL, X_RDX, 4, true);
        x86_mov_imm(b, X_RSI, (uint64_t)(uintptr_t)t->j->jc);
        x86_alu_rr(b, XA_ADD, X_RDX, X_RSI, true);
        x86_mov_imm(b, X_RCX, JIT_PC_MASK);
        x86_alu_rr(b, XA_AND, X_RCX, X_RAX, true);
        x86_mov_imm(b, X_RSI, key_of(t->h, 0));
        x86_alu_rr(b, XA_OR, X_RCX, X_RSI, true);
        x86_alu_mr(b, XA_CMP, X_RCX, X_RDX, 0);
        add_cold(t, COLD_CHAIN, 0, x86_jcc(b, XC_NE))->target = UINT64_MAX; /* pc is set */
        x86_jmp_m(b, X_RDX, 8);
        return false;
    }
    case K_BEQ:
        cc = XC_E;
        goto branch;
    case K_BNE:
        cc = XC_NE;
        goto branch;
    case K_BLT:
        cc = XC_L;
        goto branch;
    case K_BGE:
        cc = XC_GE;
        goto branch;
    case K_BLTU:
        cc = XC_B;
        goto branch;
    case K_BGEU:
        cc = XC_AE;
    branch:
        ld_x(b, X_RAX, d->rs1);
        if (d->rs2) {
            x86_alu_mr(b, XA_CMP, X_RAX, X_RBX, XOFF(d->rs2));
        } else {
            x86_alu_ri(b, XA_CMP, X_RAX, 0, true);
        }
        exit_to(t, x86_jcc(b, cc), d->pc + (uint64_t)d->imm);
        exit_to(t, x86_jmp(b), d->npc);
        return false;
    case K_LB:
        lk = XL_S8;
        size = 1;
        goto load;
    case K_LBU:
        lk = XL_U8;
        size = 1;
        goto load;
    case K_LH:
        lk = XL_S16;
        size = 2;
        goto load;
    case K_LHU:
        lk = XL_U16;
        size = 2;
        goto load;
    case K_LW:
        lk = XL_S32;
        size = 4;
        goto load;
    case K_LWU:
        lk = XL_U32;
        size = 4;
        goto load;
    case K_LD:
        lk = XL_64;
    load : {
        cold_item *c = add_cold(t, COLD_HELPER, i, NULL);
        emit_mem_offset(t, i, c, 0, size);
        x86_load_idx(b, lk, X_RCX, X_R12, X_RAX);
        st_x(b, d->rd, X_RCX);
        c->resume = b->p;
        return true;
    }
    case K_SB:
        size = 1;
        goto store;
    case K_SH:
        size = 2;
        goto store;
    case K_SW:
        size = 4;
        goto store;
    case K_SD:
        size = 8;
    store : {
        cold_item *c = add_cold(t, COLD_HELPER, i, NULL);
        emit_mem_offset(t, i, c, 1, size);
        ld_x(b, X_RCX, d->rs2);
        emit_store_tail(t, c, size);
        c->resume = b->p;
        return true;
    }
    case K_FLW:
    case K_FLD: { /* FS already Dirty, as in the fast loop */
        cold_item *c = add_cold(t, COLD_HELPER, i, NULL);
        emit_fs_check(t, c, true);
        emit_mem_offset(t, i, c, 0, d->k == K_FLD ? 8 : 4);
        x86_load_idx(b, d->k == K_FLD ? XL_64 : XL_U32, X_RCX, X_R12, X_RAX);
        if (d->k == K_FLW) {
            x86_mov_imm(b, X_RDX, UINT64_C(0xffffffff00000000));
            x86_alu_rr(b, XA_OR, X_RCX, X_RDX, true);
        }
        x86_store_m(b, X_RBX, FOFF(d->rd), X_RCX);
        c->resume = b->p;
        return true;
    }
    case K_FSW:
    case K_FSD: { /* FS not Off */
        cold_item *c = add_cold(t, COLD_HELPER, i, NULL);
        emit_fs_check(t, c, false);
        emit_mem_offset(t, i, c, 1, d->k == K_FSD ? 8 : 4);
        x86_load_m(b, X_RCX, X_RBX, FOFF(d->rs2));
        emit_store_tail(t, c, d->k == K_FSD ? 8 : 4);
        c->resume = b->p;
        return true;
    }
    case K_FMV_X_D: {
        cold_item *c = add_cold(t, COLD_HELPER, i, NULL);
        emit_fs_check(t, c, false);
        x86_load_m(b, X_RAX, X_RBX, FOFF(d->rs1));
        st_x(b, d->rd, X_RAX);
        c->resume = b->p;
        return true;
    }
    case K_FMV_D_X: {
        cold_item *c = add_cold(t, COLD_HELPER, i, NULL);
        emit_fs_check(t, c, true);
        ld_x(b, X_RAX, d->rs1);
        x86_store_m(b, X_RBX, FOFF(d->rd), X_RAX);
        c->resume = b->p;
        return true;
    }
    case K_FADD_S:
    case K_FSUB_S:
    case K_FMUL_S:
    case K_FDIV_S:
    case K_FSQRT_S:
    case K_FMADD_S:
    case K_FADD_D:
    case K_FSUB_D:
    case K_FMUL_D:
    case K_FDIV_D:
    case K_FSQRT_D:
    case K_FMADD_D:
        if (HART_FP_INLINE && emit_fp_arith(t, i)) return true;
        break;
    default:
        break;
    }
helper:
    emit_helper(t, i);
    return true;
}

/* The out-of-line items; emitting one may add more (a helper's exits). */
static void emit_cold(tctx *t, uint64_t block_pc)
{
    x86buf *b = &t->b;
    for (unsigned k = 0; k < t->ncold; k++) {
        cold_item c = t->cold[k];
        t->cold[k].at = b->p;
        for (unsigned f = 0; f < 8; f++)
            if (c.from[f]) x86_patch(c.from[f], b->p);
        switch (c.kind) {
        case COLD_FPACC: { /* EAX = MXCSR after the operation */
            x86_mov_rr(b, X_RCX, X_RAX);
            x86_alu_ri(b, XA_AND, X_RCX, (int32_t)~0x3fu, false);
            x86_alu_ri(b, XA_CMP, X_RCX, MXCSR_DEFAULT, false);
            uint8_t *foreign = x86_jcc(b, XC_NE);
            x86_store_m32(b, X_RBP, JOFF(mx), X_RAX);
            x86_alu_ri(b, XA_AND, X_RAX, 63, false);
            x86_lea(b, X_RDX, X_RBP, JOFF(mxf));
            x86_load_idx(b, XL_U8, X_RCX, X_RDX, X_RAX);
            x86_or_m32_r(b, X_RBX, HOFF(fflags), X_RCX);
            x86_patch(x86_jmp(b), c.resume);
            /* someone else's control bits: drop the result, restore, take the handler */
            if (foreign) x86_patch(foreign, b->p);
            x86_mxcsr(b, false, X_RBP, JOFF(mxdef));
            x86_mov_m32_imm(b, X_RBP, JOFF(mx), MXCSR_DEFAULT);
            x86_patch(x86_jmp(b), t->cold[c.helper].at);
            break;
        }
        case COLD_TLBMISS: /* RAX = the virtual address */
            x86_mov_rr(b, X_RSI, X_RAX);
            x86_mov_rr(b, X_RDI, X_RBX);
            x86_mov_imm(b, X_RDX, c.target);
            x86_mov_imm(b, X_RAX, (uint64_t)(uintptr_t)tlb_fill);
            x86_call_r(b, X_RAX);
            x86_patch(x86_jmp(b), t->cold[c.helper].at);
            break;
        case COLD_FPNAN:
            x86_mov_imm(b, X_RAX, c.target);
            x86_patch(x86_jmp(b), c.resume);
            break;
        case COLD_HELPER:
            emit_helper(t, c.i);
            x86_patch(x86_jmp(b), c.resume);
            break;
        case COLD_EXIT: /* after a handler: RAX = the next pc */
            x86_store_m(b, X_RBX, HOFF(pc), X_RAX);
            if (t->n - c.i - 1) x86_alu_ri(b, XA_ADD, X_R13, (int32_t)(t->n - c.i - 1), true);
            x86_patch(x86_jmp(b), t->j->exit);
            break;
        case COLD_CHAIN:
            if (c.target != UINT64_MAX) {
                x86_mov_imm(b, X_RAX, c.target);
                x86_store_m(b, X_RBX, HOFF(pc), X_RAX);
                x86_mov_imm(b, X_RAX, (uint64_t)(uintptr_t)c.from[0]);
                x86_store_m(b, X_RBP, JOFF(chain_from), X_RAX);
            }
            x86_patch(x86_jmp(b), t->j->exit);
            break;
        default: /* COLD_BUDGET: give the count back, resume in the dispatcher */
            x86_alu_ri(b, XA_ADD, X_R13, (int32_t)t->n, true);
            x86_mov_imm(b, X_RAX, block_pc);
            x86_store_m(b, X_RBX, HOFF(pc), X_RAX);
            x86_patch(x86_jmp(b), t->j->exit);
            break;
        }
        if (b->full) return;
    }
}

/* Jumps and branches end a block, and so does an instruction that always traps (an
 * unknown encoding, or one of an extension this hart lacks): nothing after it runs by
 * falling through, and code a jump reaches there becomes a block of its own. Random
 * code (fuzz_program) is a quarter illegal instructions, and translating past the first
 * one was three quarters of the translator's work there. */
static bool ends_block(const hart *h, const hart_insn *d)
{
    uint8_t k = d->k;
    return k == K_JAL || k == K_J || k == K_JALR || k == K_JR || (k >= K_BEQ && k <= K_BGEU) ||
           h->xop_fn[d->op] == hart_exec_illegal;
}

/* Fetches the block at pc into ins[] (at most JIT_MAX_INSNS, their physical addresses in
 * pa[]); under translation / PMP (xl) only instructions of pc's page that the careful
 * loop would fetch without a fault, the page-table entries the walk read in pte[0 ..
 * *npte). Returns the count, 0 when the first instruction is not fetched that way (the
 * interpreter then runs it and raises what it raises). */
static unsigned fetch_block(hart *h, uint64_t pc, bool xl, hart_insn *ins, uint64_t *pa,
                            uint64_t pte[4], unsigned *npte)
{
    unsigned n = 0;
    *npte = 0;
    for (uint64_t p = pc; n < JIT_MAX_INSNS;) {
        pa[n] = p;
        if (xl) {
            unsigned k;
            uint64_t ptes[4];
            if ((p ^ pc) >> 12 || !hart_fetch_phys(h, p, 2, &pa[n], ptes, &k)) break;
            if (!n) {
                memcpy(pte, ptes, sizeof ptes);
                *npte = k;
            }
        }
        if (!hart_decode_phys(h, pa[n], &ins[n])) break;
        if (xl) {
            /* a 4-byte instruction: inside the page, and the PMP allows all of it */
            uint64_t pa4, ptes[4];
            unsigned k;
            if (ins[n].len == 4 && ((p & 4095) > 4092 || !hart_fetch_phys(h, p, 4, &pa4, ptes, &k)))
                break;
            ins[n].pc = p;
            ins[n].npc = p + ins[n].len;
        }
        p = ins[n].npc;
        if (ends_block(h, &ins[n++])) break;
    }
    return n;
}

static jit_block *translate(hart *h, jit *j, uint64_t pc, uint64_t key, bool retry)
{
    if ((size_t)(JIT_CODE_BYTES - (uint64_t)(j->free - j->code)) < JIT_BLOCK_ROOM ||
        j->nblocks == JIT_MAX_BLOCKS || j->ndcopy + 2 * JIT_MAX_INSNS > JIT_MAX_DCOPIES || retry)
        flush(j);
    static __thread hart_insn ins[JIT_MAX_INSNS];
    static __thread uint64_t pa[JIT_MAX_INSNS];
    uint64_t pte[4];
    unsigned npte;
    bool xl = (key & JIT_XLATE_BIT) != 0;
    unsigned n = fetch_block(h, pc, xl, ins, pa, pte, &npte);
    if (!n) return NULL;
    static __thread tctx t;
    t.h = h;
    t.j = j;
    t.b = (x86buf){j->free, j->code + JIT_CODE_BYTES, false};
    t.ins = ins;
    t.n = n;
    t.xl = xl;
    t.ncold = 0;
    uint8_t *entry = t.b.p;
    x86_alu_ri(&t.b, XA_SUB, X_R13, (int32_t)n, true);
    add_cold(&t, COLD_BUDGET, 0, x86_jcc(&t.b, XC_L));
    bool open = true;
    for (unsigned i = 0; i < n && open; i++)
        open = emit_insn(&t, i);
    if (open) exit_to(&t, x86_jmp(&t.b), ins[n - 1].npc);
    emit_cold(&t, pc);
    if (t.b.full) return retry ? NULL : translate(h, j, pc, key, true);
    jit_block *blk = &j->blocks[j->nblocks++];
    blk->key = key;
    blk->code = entry;
    blk->ninsns = n;
    unsigned hsh = hash_of(key);
    blk->next = j->hash[hsh];
    j->hash[hsh] = blk;
    for (unsigned i = 0; i < n; i++)
        note_code(j, pa[i], ins[i].len);
    watch_ptes(j, pte, npte);
    j->free = (uint8_t *)(((uintptr_t)t.b.p + 15) & ~(uintptr_t)15);
    j->st.blocks++;
    return blk;
}

/* The block at h->pc in the current mode, translated now if needed; NULL when there is
 * none (the interpreter runs that instruction). */
static jit_block *find(hart *h, jit *j)
{
    if (!keyable(h->pc)) return NULL;
    uint64_t key = key_of(h, h->pc);
    jit_block *b = lookup(j, key);
    if (!b) b = translate(h, j, h->pc, key, false);
    if (b) {
        struct jit_jc *e = &j->jc[(key >> 1) & ((1u << JIT_JC_BITS) - 1)];
        e->key = key;
        e->code = b->code;
    }
    return b;
}

void jit_run(hart *h, int64_t n)
{
    jit *j = h->jit;
    if (j->flush_pending) flush(j);
    uint64_t ms = h->mstatus & (MSTATUS_MPRV | MSTATUS_MPP | MSTATUS_SUM | MSTATUS_MXR);
    if (ms != j->tlb_mstatus || h->satp != j->tlb_satp || h->priv != j->tlb_priv) {
        tlb_clear(j);
        j->tlb_mstatus = ms;
        j->tlb_satp = h->satp;
        j->tlb_priv = h->priv;
    }
    while (n > 0) {
        jit_block *b = find(h, j);
        if (!b) { /* a fetch fault, or an instruction across a page: one interpreted */
            hart_run_interp(h, 1);
            if (h->stop || --n == 0) return;
            if (j->flush_pending) flush(j);
            continue;
        }
        if (b->ninsns > (uint64_t)n) {
            hart_run_interp(h, n);
            return;
        }
        j->budget = n;
        j->irn = h->instret + (uint64_t)n;
        j->chain_from = NULL;
        j->st.entries++;
        j->enter(h, j, b->code);
        n = j->budget;
        h->instret = j->irn - (uint64_t)n;
        if (h->stop) return;
        if (j->chain_from && !j->flush_pending) {
            /* a direct jump left the block: link it to its target's block */
            uint8_t *from = j->chain_from;
            uint64_t gen = j->gen;
            jit_block *to = find(h, j);
            if (to && j->gen == gen) x86_patch(from, to->code);
        }
    }
}

/* ---- lifetime ---- */

static void emit_trampolines(jit *j)
{
    x86buf b = {j->code, j->code + 256, false};
    static const int saved[6] = {X_RBX, X_RBP, X_R12, X_R13, X_R14, X_R15};
    j->enter = (void (*)(hart *, jit *, const uint8_t *))(uintptr_t)b.p;
    for (unsigned i = 0; i < 6; i++)
        x86_push(&b, saved[i]);
    x86_alu_ri(&b, XA_SUB, X_RSP, 8, true); /* 16-byte aligned stack for handler calls */
    x86_mov_rr(&b, X_RBX, X_RDI);
    x86_mov_rr(&b, X_RBP, X_RSI);
    x86_load_m(&b, X_R12, X_RBP, JOFF(ram));
    x86_load_m(&b, X_R13, X_RBP, JOFF(budget));
    x86_load_m(&b, X_R14, X_RBP, JOFF(base));
    x86_load_m(&b, X_R15, X_RBP, JOFF(lim));
    x86_mxcsr(&b, false, X_RBP, JOFF(mxdef)); /* no foreign mode or flag gets in */
    x86_mov_m32_imm(&b, X_RBP, JOFF(mx), MXCSR_DEFAULT);
    x86_jmp_r(&b, X_RDX);
    j->clean = b.p;
    x86_cmp_m32_imm(&b, X_RBP, JOFF(mx), MXCSR_DEFAULT);
    uint8_t *dirty = x86_jcc(&b, XC_NE);
    x86_ret(&b);
    x86_patch(dirty, b.p);
    x86_mxcsr(&b, false, X_RBP, JOFF(mxdef));
    x86_mov_m32_imm(&b, X_RBP, JOFF(mx), MXCSR_DEFAULT);
    x86_ret(&b);
    j->exit = b.p;
    x86_call_rel(&b, j->clean);
    x86_store_m(&b, X_RBP, JOFF(budget), X_R13);
    x86_alu_ri(&b, XA_ADD, X_RSP, 8, true);
    for (unsigned i = 6; i-- > 0;)
        x86_pop(&b, saved[i]);
    x86_ret(&b);
    j->start = j->free = (uint8_t *)(((uintptr_t)b.p + 63) & ~(uintptr_t)63);
}

jit *jit_new(hart *h)
{
    if (h->ram_size < 8 || h->ram_base + h->ram_size > JIT_RAM_LIMIT ||
        h->ram_base + h->ram_size < h->ram_base)
        return NULL;
    jit *j = calloc(1, sizeof *j);
    if (!j) return NULL;
    j->h = h;
    j->pflags = h->page_flags;
    j->ram = h->ram;
    j->base = h->ram_base;
    j->lim = h->ram_size - 7;
    j->mx = j->mxdef = MXCSR_DEFAULT;
    tlb_clear(j);
    for (unsigned m = 0; m < 64; m++)
        j->mxf[m] = (uint8_t)(((m & 1) ? 0x10 : 0) | ((m & 4) ? 0x08 : 0) | ((m & 8) ? 0x04 : 0) |
                              ((m & 16) ? 0x02 : 0) | ((m & 32) ? 0x01 : 0));
    uint64_t pages = (h->ram_size + 4095) >> 12;
    j->granule_bytes = (h->ram_size / 2 + 7) / 8;
    void *code = mmap(NULL, JIT_CODE_BYTES, PROT_READ | PROT_WRITE | PROT_EXEC,
                      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    j->code = code == MAP_FAILED ? NULL : code;
    j->jc = calloc((size_t)1 << JIT_JC_BITS, sizeof *j->jc);
    j->hash = calloc((size_t)1 << JIT_HASH_BITS, sizeof *j->hash);
    j->blocks = calloc(JIT_MAX_BLOCKS, sizeof *j->blocks);
    j->dcopy = calloc(JIT_MAX_DCOPIES, sizeof *j->dcopy);
    j->granule = calloc((size_t)j->granule_bytes, 1);
    j->jpage = calloc((size_t)pages, 1);
    j->pages = calloc((size_t)pages, sizeof *j->pages);
    if (!j->code || !j->jc || !j->hash || !j->blocks || !j->dcopy || !j->granule || !j->jpage ||
        !j->pages) {
        jit_free(j);
        return NULL;
    }
    emit_trampolines(j);
    return j;
}

void jit_free(jit *j)
{
    if (!j) return;
    if (j->code) munmap(j->code, JIT_CODE_BYTES);
    free(j->jc);
    free(j->hash);
    free(j->blocks);
    free(j->dcopy);
    free(j->granule);
    free(j->jpage);
    free(j->pages);
    free(j);
}

#else /* not an x86-64 host: the interpreter runs everything */

struct jit {
    int unused;
};
bool jit_supported(void)
{
    return false;
}
jit *jit_new(hart *h)
{
    (void)h;
    return NULL;
}
void jit_free(jit *j)
{
    (void)j;
}
void jit_run(hart *h, int64_t n)
{
    hart_run_interp(h, n);
}
void jit_code_written(hart *h, uint64_t a, uint64_t n)
{
    (void)h;
    (void)a;
    (void)n;
}
void jit_flush_request(hart *h)
{
    (void)h;
}
void jit_get_stats(const jit *j, jit_stats *s)
{
    (void)j;
    memset(s, 0, sizeof *s);
}

#endif
