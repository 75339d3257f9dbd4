/* xmem_unit.c — the hart adapter of XMEM (`xmem.svm`, SVFAULTI). */
#include "xmem_unit.h"

#include <stdlib.h>
#include <string.h>

#include "xphmg_csr.h"

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
    xmem_unit *u = ctx;
    u->svfaulti = XMEM_SVFAULTI_RESET;
    /* The LDS: no allocations, contents zero (errata Q-50). */
    xmem_lds_reset(&u->lds);
    if (u->lds_mem) memset(u->lds_mem, 0, u->lds.size);
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
    xmem_svm_mem m = {h, hart_quiet_load, hart_quiet_store};
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

/* ---- LDS (errata Q-50) ---- */

/* xlds.alloc rd, rs1[, flags]: the allocator under the boundary snapshot. */
static void exec_alloc(hart *h, void *ctx, const hart_insn *d)
{
    xmem_unit *u = ctx;
    cap_snap s;
    cap_snapshot(&u->cap->cap, &s);
    xmem_lds_res r = xmem_lds_alloc(&u->lds, &s, hart_x(h, d->rs1), (unsigned)(d->imm & 0xfff));
    if (r.illegal) {
        hart_illegal(h, d);
        return;
    }
    if (r.events) cap_xmem_event(&u->cap->cap, r.events);
    hart_set_x(h, d->rd, r.addr);
}

/* xlds.free rs1: a wild, double or zero free is ignored and sets INV_MISS. */
static void exec_free(hart *h, void *ctx, const hart_insn *d)
{
    xmem_unit *u = ctx;
    uint64_t ev = xmem_lds_free(&u->lds, hart_x(h, d->rs1));
    if (ev) cap_xmem_event(&u->cap->cap, ev);
}

/* xlds.bar lvl: scopes 0-4 (thread..system) all have `fence rw,rw` strength on the one
 * in-order hart, which has no visible effect; other values are illegal (P-70). */
static void exec_bar(hart *h, void *ctx, const hart_insn *d)
{
    (void)ctx;
    if ((uint64_t)d->imm > 4) hart_illegal(h, d);
}

/* xlds.atoms amo_sel, rd, rs2, (rs1): AMO_SEL 6:2 = the AMO funct5, bit 1 reserved,
 * bit 0 = 64-bit. The base ISA's AMO (hart_amo) on any address it accepts. */
static void exec_atoms(hart *h, void *ctx, const hart_insn *d)
{
    xmem_unit *u = ctx;
    unsigned sel = (unsigned)(d->imm & 0x7f), f5 = sel >> 2;
    bool known = f5 == 0x00 || f5 == 0x01 || f5 == 0x04 || f5 == 0x08 || f5 == 0x0c || f5 == 0x10 ||
                 f5 == 0x14 || f5 == 0x18 || f5 == 0x1c;
    if ((sel & 2) || !known) {
        hart_illegal(h, d);
        return;
    }
    uint64_t a = hart_x(h, d->rs1), src = hart_x(h, d->rs2), old;
    unsigned rd = d->rd;
    if (!hart_amo(h, f5, a, (sel & 1) ? 8 : 4, src, &old)) {
        cap_xmem_event(&u->cap->cap, XMEM_EV_INV_MISS); /* a faulting XPHMG access */
        return;
    }
    hart_set_x(h, rd, old);
}

/* Whether every byte of [a, a + n) can be loaded (store = false) or stored one byte at a
 * time; otherwise *bad = the first byte that cannot (a + n wraps modulo 2^64). Steps 8
 * bytes at a time where one 8-byte access fits in one memory (RAM or a region: the
 * 1-byte probe of its first byte rules out the CLINT, whose registers take 4/8-byte
 * accesses only), so the walk is bounded by the accessible range, never by n. */
static bool range_ok(hart *h, uint64_t a, uint64_t n, bool store, uint64_t *bad)
{
    uint64_t i = 0;
    while (i < n) {
        uint64_t p = a + i;
        if (n - i >= 8 && hart_mem_ok(h, p, 8, store) && hart_mem_ok(h, p, 1, store)) {
            i += 8;
        } else if (hart_mem_ok(h, p, 1, store)) {
            i += 1;
        } else {
            *bad = p;
            return false;
        }
    }
    return true;
}

/* Moves one chunk of n (1 or 8) bytes; both sides were checked byte by byte, so the
 * 8-byte form is used only where it is itself accessible (not across two memories). */
static void move_chunk(hart *h, uint64_t dst, uint64_t src, unsigned n)
{
    uint64_t v;
    if (n == 8 && !(hart_mem_ok(h, src, 8, false) && hart_mem_ok(h, dst, 8, true))) {
        for (unsigned k = 0; k < 8; k++)
            move_chunk(h, dst + k, src + k, 1);
        return;
    }
    if (hart_load(h, src, n, &v)) hart_store(h, dst, n, v);
}

/* xlds.cpy rd, rs1, rs2, rs3[, cpyf]: memmove of rs3 bytes from rs2 to rs1, rd = rs3.
 * Both ranges are checked before anything is written: load access fault (5) at the
 * first source byte that cannot be read, else store access fault (7) at the first
 * destination byte that cannot be written; INV_MISS with the trap. CPYF (swizzle,
 * non-temporal) are hints without a visible effect. */
static void exec_cpy(hart *h, void *ctx, const hart_insn *d)
{
    xmem_unit *u = ctx;
    uint64_t dst = hart_x(h, d->rs1), src = hart_x(h, d->rs2), n = hart_x(h, d->rs3), bad;
    unsigned rd = d->rd;
    bool load_ok = range_ok(h, src, n, false, &bad);
    if (!load_ok || !range_ok(h, dst, n, true, &bad)) {
        cap_xmem_event(&u->cap->cap, XMEM_EV_INV_MISS);
        hart_raise(h, load_ok ? CAUSE_STORE_ACCESS : CAUSE_LOAD_ACCESS, bad);
        return;
    }
    /* Overlap-safe: forwards when the destination is below the source, else backwards;
     * an 8-byte chunk is loaded whole before it is stored. */
    if (dst - src >= n || dst <= src) {
        uint64_t i = 0;
        for (; n - i >= 8; i += 8)
            move_chunk(h, dst + i, src + i, 8);
        for (; i < n; i++)
            move_chunk(h, dst + i, src + i, 1);
    } else {
        uint64_t i = n;
        for (; i >= 8; i -= 8)
            move_chunk(h, dst + i - 8, src + i - 8, 8);
        for (; i > 0; i--)
            move_chunk(h, dst + i - 1, src + i - 1, 1);
    }
    hart_set_x(h, rd, n);
}

static const hart_unit_insn insns[] = {
    {XOP_XMEM_SVM, exec_svm, HART_WR_X},      {XOP_XLDS_ALLOC, exec_alloc, HART_WR_X},
    {XOP_XLDS_FREE, exec_free, HART_WR_NONE}, {XOP_XLDS_BAR, exec_bar, HART_WR_NONE},
    {XOP_XLDS_ATOMS, exec_atoms, HART_WR_X},  {XOP_XLDS_CPY, exec_cpy, HART_WR_X}};
static const hart_unit_csrs csrs[] = {{XMEM_CSR_SVFAULTI, XMEM_CSR_SVFAULTI, csr_read, csr_write}};
static const hart_unit unit = {"xmem", reset, sizeof insns / sizeof insns[0], insns, 1, csrs};

int xmem_unit_attach(hart *h, xmem_unit *u, cap_unit *cap, pmask_unit *pmask)
{
    u->cap = cap;
    u->pmask = pmask;
    u->svfaulti = XMEM_SVFAULTI_RESET;
    uint64_t size, t0;
    xmem_lds_geometry(cap_discovery(&cap->cap, XPHMG_CSR_CAP_XMEM_CAP),
                      cap_discovery(&cap->cap, XPHMG_CSR_CAP_XMEM_PARAMS),
                      cap_discovery(&cap->cap, XPHMG_CSR_CAP_TIER_LDS), &size, &t0);
    xmem_lds_init(&u->lds, size, t0);
    u->lds_mem = NULL;
    if (hart_register_unit(h, &unit, u)) return -1;
    if (size) {
        u->lds_mem = calloc(1, size);
        if (!u->lds_mem || hart_add_region(h, XMEM_LDS_BASE, size, u->lds_mem)) {
            xmem_unit_free(u); /* the hart keeps a unit that is gone: it must not run */
            return -1;
        }
    }
    return 0;
}

void xmem_unit_free(xmem_unit *u)
{
    xmem_lds_fini(&u->lds);
    free(u->lds_mem);
    u->lds_mem = NULL;
}
