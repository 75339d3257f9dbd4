/* xmem_unit.c — the hart adapter of XMEM: `xmem.svm` and SVFAULTI, the LDS and `xlds.*`,
 * `xmem.ldg/stg/pref/cctl/stream`, `xswz.*`, and the compressed load/store through
 * libzstd (docs/xmem.md). */
#include "xmem_unit.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "xmem_cache.h"
#include "xmem_comp.h"
#include "xmem_swz.h"
#include "xmem_xdl.h"
#include "xphmg_csr.h"

/* REQ: XMEM-066 XMEM-077 */
static bool csr_read(hart *h, void *ctx, uint32_t a, uint64_t *v)
{
    (void)h;
    if (a != XMEM_CSR_SVFAULTI) return false;
    *v = ((xmem_unit *)ctx)->svfaulti;
    return true;
}

/* The first of the XMEM_CACHE_NSTATS read-only user CSRs (XML xmem_l1_hits ...), in
 * xmem_cache_stats order. */
#define XMEM_CSR_L1STAT XPHMG_CSR_XMEM_L1_HITS
_Static_assert(XPHMG_CSR_XMEM_L1_HINT_STREAM == XMEM_CSR_L1STAT + XMEM_CACHE_NSTATS - 1,
               "the XML's statistics CSRs and xmem_cache_stats disagree");

/* The L1 statistics, read-only user CSRs XMEM_CSR_L1STAT + i (XMEM 9.3: counters outside
 * CAP; errata P-221). Writes never reach here (read-only addresses). */
/* REQ: XMEM-089 */
static bool l1stat_read(hart *h, void *ctx, uint32_t a, uint64_t *v)
{
    (void)h;
    *v = xmem_cache_stat(&((xmem_unit *)ctx)->l1.st, a - XMEM_CSR_L1STAT);
    return true;
}

/* REQ: XMEM-089 */
static bool l1stat_write(hart *h, void *ctx, uint32_t a, uint64_t v)
{
    (void)h;
    (void)ctx;
    (void)a;
    (void)v;
    return false;
}

/* REQ: XMEM-066 XMEM-077 */
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
    u->actor_set = false;
    u->denied = 0;
    /* The LDS: no allocations, contents zero (errata Q-50). */
    xmem_lds_reset(&u->lds);
    xmem_cache_reset(&u->l1); /* the tag model: empty, unlocked */
    if (u->lds_mem) memset(u->lds_mem, 0, u->lds.size);
}

/* REQ: XMEM-063 XMEM-065 XMEM-066 XMEM-070 XMEM-074 XMEM-067 XMEM-077 */
static void exec_svm(hart *h, void *ctx, const hart_insn *d)
{
    xmem_unit *u = ctx;
    unsigned pbank = (unsigned)((uint64_t)d->imm & 7);
    /* Bank 0 is the implied all-ones predicate (CAP 2.3 #2/#3) even without PMASK; any
     * other bank must exist in the profile (PMASK caps banks at PMASK_MAX_BANKS, so the
     * encoding's values 4-7 are illegal too, errata Q-36). */
    if (pbank != 0 && !pmask_bank_valid(&u->pmask->pm, pbank)) {
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
    /* BOUND_CHECK bounds the elements by the region SVMBASE lies in (errata P-205). */
    const xmem_lds_blk *rb = xmem_lds_find(&u->lds, cfg.base);
    if (rb) {
        cfg.bound_lo = rb->base;
        cfg.bound_size = rb->size;
    }
    xmem_svm_mem m = {h, hart_quiet_load, hart_quiet_store};
    xmem_svm_result r;
    xmem_svm_exec(&cfg, &m, buf, count, &r);
    /* One unit per element performed (P-300), charged afterwards: they are bounded by
     * the accessible memory. */
    hart_charge(h, r.performed);
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
/* REQ: XMEM-092 XMEM-093 XMEM-085 */
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

/* The hart as an actor: domain CAP.XMEM.DOM, public tag, the current policy (on the
 * sequential hart the CSRs read now are the instruction boundary's). */
/* REQ: XMEM-013 XMEM-036 XMEM-114 */
static xmem_actor hart_actor(const xmem_unit *u)
{
    uint64_t xcap = 0, descpol = 0, dom = 0;
    cap_csr_read(&u->cap->cap, XPHMG_CSR_CAP_XMEM_CAP, &xcap);
    cap_csr_read(&u->cap->cap, XPHMG_CSR_CAP_XMEM_DESCPOL, &descpol);
    cap_csr_read(&u->cap->cap, XPHMG_CSR_CAP_XMEM_DOM, &dom);
    return xmem_actor_from(xcap, descpol, dom, 0, 0);
}

/* The LDS window's access policy (hart_region_set_check): every region the access
 * touches must let the current actor make it (xmem_region.h). A refusal by the security
 * tag sets SEC_VIOL at once (XMEM 8.2: the violating access, real or a unit's probe
 * before it, is the event); the reasons are kept for the actor's engine (DMA_ERR, errata P-207). */
/* It allows or refuses the access at its own address: domains and classes change what is
 * visible, never the address (XMEM 3.3). */
/* REQ: XMEM-021 XMEM-011 XMEM-012 XMEM-118 XMEM-119 XMEM-120 XMEM-114 XMEM-029 XMEM-027 XMEM-143
 * REQ: XMEM-039 */
static bool region_check(void *ctx, uint64_t a, unsigned n, bool store)
{
    xmem_unit *u = ctx;
    const xmem_lds_blk *first = xmem_lds_find(&u->lds, a);
    const xmem_lds_blk *last = xmem_lds_find(&u->lds, a + n - 1);
    if (!first && !last) return true; /* free LDS space is plain memory */
    xmem_actor act = u->actor_set ? u->actor : hart_actor(u);
    unsigned deny = (first ? xmem_region_deny(first, &act, store) : 0) |
                    (last && last != first ? xmem_region_deny(last, &act, store) : 0);
    if (!deny) return true;
    u->denied |= deny;
    if (deny & XMEM_DENY_SEC) cap_xmem_event(&u->cap->cap, XMEM_EV_SEC_VIOL);
    return false;
}

/* REQ: XMEM-006 XMEM-018 XMEM-020 XMEM-133 XMEM-119 */
void xmem_actor_begin(xmem_unit *u, xmem_actor a)
{
    u->actor = a;
    u->actor_set = true;
    u->denied = 0;
}

/* REQ: XMEM-006 XMEM-018 XMEM-020 XMEM-133 XMEM-119 XMEM-121 */
unsigned xmem_actor_end(xmem_unit *u)
{
    unsigned d = u->denied;
    u->actor_set = false;
    u->denied = 0;
    return d;
}

/* The offload engine's only path to the hart's data: the regions, checked per access. */
/* REQ: XMEM-006 XMEM-018 XMEM-020 XMEM-133 XMEM-119 XMEM-007 */
void xmem_job_begin(void *ctx, const cap_snap *s, const uint8_t memctl[24])
{
    xmem_actor_begin(ctx, xmem_actor_of(s, memctl[XMEM_MC_DOM], memctl[XMEM_MC_SEC]));
}

/* REQ: XMEM-119 XMEM-121 */
uint64_t xmem_job_end(void *ctx)
{
    return xmem_actor_end(ctx) ? XMEM_EV_DMA_ERR : 0;
}

/* REQ: XMEM-003 XMEM-080 */
void xmem_set_offload_drain(xmem_unit *u, void (*fn)(hart *h, void *ctx), void *ctx)
{
    u->drain = fn;
    u->drain_ctx = ctx;
}

/* xmem.region rd, rs1, rs2 (errata P-201): rs2 = 0 reads the attributes of the region
 * containing rs1; otherwise applies the XPHMG_MEMCTL at rs2 to the region based at rs1.
 * The descriptor is read first (8-byte aligned, else load address misaligned; load
 * access fault at the first inaccessible doubleword, with INV_MISS), so a fault changes
 * nothing. */
/* A handoff is this one instruction: no barrier and no copy (XMEM 3.2.6, errata Q-53). */
/* REQ: XMEM-042 XMEM-012 XMEM-018 XMEM-058 XMEM-062 XMEM-137 XMEM-140 XMEM-010 XMEM-019
 * REQ: XMEM-117 XMEM-118 (the hart changes a region as a public actor) */
static void exec_region(hart *h, void *ctx, const hart_insn *d)
{
    xmem_unit *u = ctx;
    uint64_t base = hart_x(h, d->rs1), desc = hart_x(h, d->rs2);
    unsigned rd = d->rd;
    if (desc == 0) {
        const xmem_lds_blk *b = xmem_lds_find(&u->lds, base);
        hart_set_x(h, rd, b ? xmem_region_word(b) : 0);
        return;
    }
    if (desc & 7) {
        hart_raise(h, CAUSE_MISALIGNED_LOAD, desc);
        return;
    }
    uint8_t mc[XMEM_MEMCTL_BYTES];
    for (unsigned i = 0; i < XMEM_MEMCTL_BYTES; i += 8) {
        uint64_t v;
        if (!hart_mem_ok(h, desc + i, 8, false)) {
            cap_xmem_event(&u->cap->cap, XMEM_EV_INV_MISS);
            hart_raise(h, CAUSE_LOAD_ACCESS, desc + i);
            return;
        }
        if (!hart_load(h, desc + i, 8, &v)) return;
        for (unsigned k = 0; k < 8; k++)
            mc[i + k] = (uint8_t)(v >> (8 * k));
    }
    cap_snap s;
    cap_snapshot(&u->cap->cap, &s);
    xmem_actor act = xmem_actor_of(&s, 0, 0);
    xmem_region_res r = xmem_region_apply(&u->lds, base, mc, &act, &s);
    if (r.events) cap_xmem_event(&u->cap->cap, r.events);
    hart_set_x(h, rd, r.rd);
}

/* xlds.free rs1: a wild, double or zero free is ignored and sets INV_MISS; a
 * region whose tag the hart does not dominate is not freed and sets SEC_VIOL (P-204). */
/* REQ: XMEM-094 XMEM-118 */
static void exec_free(hart *h, void *ctx, const hart_insn *d)
{
    xmem_unit *u = ctx;
    uint64_t a = hart_x(h, d->rs1);
    xmem_lds_blk *b = xmem_lds_at(&u->lds, a);
    xmem_actor act = hart_actor(u);
    if (b && act.sec_dom && act.sec < b->sec) {
        cap_xmem_event(&u->cap->cap, XMEM_EV_SEC_VIOL);
        return;
    }
    uint64_t ev = xmem_lds_free(&u->lds, a);
    if (ev) cap_xmem_event(&u->cap->cap, ev);
}

/* xlds.bar lvl: scopes 0-4 (thread, warp, wg, cluster, system; XMEM 3.1). The hart is
 * one in-order thread, so every scope orders its own accesses (`fence rw,rw` strength,
 * The offload engine shares the cluster with it: CLUSTER and SYSTEM also wait for
 * every outstanding offload job, THREAD..WG do not (errata P-206). Other values are
 * illegal (P-70). */
#define XMEM_SCOPE_CLUSTER 3u
#define XMEM_SCOPE_SYSTEM  4u
/* REQ: XMEM-003 XMEM-080 XMEM-084 XMEM-109 XMEM-112 XMEM-037 XMEM-025 XMEM-035 XMEM-106 */
static void exec_bar(hart *h, void *ctx, const hart_insn *d)
{
    xmem_unit *u = ctx;
    uint64_t lvl = (uint64_t)d->imm;
    if (lvl > XMEM_SCOPE_SYSTEM) {
        hart_illegal(h, d);
        return;
    }
    if (lvl >= XMEM_SCOPE_CLUSTER && u->drain) u->drain(h, u->drain_ctx);
}

/* xlds.atoms amo_sel, rd, rs2, (rs1): AMO_SEL 6:2 = the AMO funct5, bit 1 reserved,
 * bit 0 = 64-bit. The base ISA's AMO (hart_amo) on any address it accepts. */
/* REQ: XMEM-081 */
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
/* REQ: XMEM-095 XMEM-083 */
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
/* REQ: XMEM-095 XMEM-083 */
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
/* REQ: XMEM-095 XMEM-083 */
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
    /* One unit per 8 bytes (P-300), charged once both ranges are known to be accessible
     * (so at most the RAM size is charged) and before anything is moved. */
    if (hart_charge(h, n / 8 + 1)) return;
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

/* ---- XSWZ relayout copies and compression (errata) ---- */

/* REQ: XMEM-102 */
static bool swz_ok(void *ctx, uint64_t a, unsigned n, bool store)
{
    return hart_mem_ok(ctx, a, n, store);
}

/* REQ: XMEM-102 */
static bool swz_load(void *ctx, uint64_t a, unsigned n, uint64_t *v)
{
    return hart_load(ctx, a, n, v);
}

/* REQ: XMEM-102 */
static bool swz_store(void *ctx, uint64_t a, unsigned n, uint64_t v)
{
    return hart_store(ctx, a, n, v);
}

/* One work unit per 8 bytes an xswz moved (errata P-300). A platform rule, not an XMEM
 * one, so it carries no requirement id: its tests are the exact charge of
 * host_budget_swz_units (scripts/mutate.py runs the module's own tests here). */
static void charge_moved(hart *h, uint64_t bytes)
{
    hart_charge(h, bytes / 8);
}

/* xswz.tex2ten / xswz.ten2tex rd, rs1, rs2, rs3[, layout]: the element size is EFF_EW of
 * the boundary snapshot; illegal layouts/sizes and faults as in xmem_swz.h. */
/* REQ: XMEM-102 XMEM-030 XMEM-031 XMEM-153 */
static void exec_swz(hart *h, void *ctx, const hart_insn *d, bool ten2tex)
{
    xmem_unit *u = ctx;
    uint64_t dst = hart_x(h, d->rs1), src = hart_x(h, d->rs2), ext = hart_x(h, d->rs3);
    unsigned rd = d->rd, layout = (unsigned)((uint64_t)d->imm & 3);
    cap_snap s;
    cap_snapshot(&u->cap->cap, &s);
    unsigned esize = 1u << (s.ew & 3);
    /* The tensor side in a region that declares XDL tiles (errata P-223): tiled,
     * 16-byte aligned, inside the region, else the access is refused before any work. */
    uint64_t bad, tensor = ten2tex ? src : dst;
    xmem_xdl_status x = xmem_swz_legal(layout, ext)
                            ? xmem_xdl_check(&u->lds, tensor, xmem_swz_bytes(ext, esize),
                                             !(layout & XMEM_SWZ_TEN_LINEAR), &bad)
                            : XMEM_XDL_OK;
    if (x != XMEM_XDL_OK) {
        cap_xmem_event(&u->cap->cap, XMEM_EV_INV_MISS);
        if (x == XMEM_XDL_MISALIGNED)
            hart_raise(h, ten2tex ? CAUSE_MISALIGNED_LOAD : CAUSE_MISALIGNED_STORE, bad);
        else
            hart_raise(h, ten2tex ? CAUSE_LOAD_ACCESS : CAUSE_STORE_ACCESS, bad);
        return;
    }
    xmem_swz_mem m = {h, swz_ok, swz_load, swz_store};
    xmem_swz_result r;
    xmem_swz_exec(&m, ten2tex, layout, esize, dst, src, ext, &r);
    if (r.status == XMEM_SWZ_ILLEGAL) {
        hart_illegal(h, d);
        return;
    }
    if (r.status == XMEM_SWZ_TRAP) {
        cap_xmem_event(&u->cap->cap, XMEM_EV_INV_MISS); /* a faulting XPHMG access */
        hart_raise(h, r.fault_store ? CAUSE_STORE_ACCESS : CAUSE_LOAD_ACCESS, r.tval);
        return;
    }
    /* Charged afterwards: the extent is decoded inside xmem_swz_exec and the move is
     * bounded by the accessible memory. */
    charge_moved(h, r.rd);
    hart_set_x(h, rd, r.rd);
}

/* REQ: XMEM-102 */
static void exec_tex2ten(hart *h, void *ctx, const hart_insn *d)
{
    exec_swz(h, ctx, d, false);
}

/* REQ: XMEM-102 */
static void exec_ten2tex(hart *h, void *ctx, const hart_insn *d)
{
    exec_swz(h, ctx, d, true);
}

/* Copies n bytes between guest memory at a and the host buffer b (the range was checked
 * with range_ok, so every access succeeds). */
/* REQ: XMEM-103 XMEM-088 */
static void guest_read(hart *h, uint64_t a, uint8_t *b, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        (void)hart_load(h, a + i, 1, &v);
        b[i] = (uint8_t)v;
    }
}

/* REQ: XMEM-103 XMEM-088 */
static void guest_write(hart *h, uint64_t a, const uint8_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        (void)hart_store(h, a + i, 1, b[i]);
}

/* xmem.dloadc / xmem.dstorec rd, rs1, rs2, rs3[, cmode] (errata Q-55): decode (load) or
 * encode (store) rs3[31:0] bytes at rs2 into at most rs3[63:32] bytes at rs1; rd = the
 * bytes written. Illegal without CAP.XMEM.CAP.COMPRESS (XMEM 6.5: the trap). An
 * unsupported format, a size above the limit, a corrupt or truncated stream or an output
 * that does not fit: COMP_ERR, rd = 0, nothing written. Inaccessible ranges (the whole
 * capacity is checked): the access fault of xlds.cpy with INV_MISS, before any work. */
/* REQ: XMEM-103 XMEM-104 XMEM-105 XMEM-088 XMEM-138 */
static void exec_compress(hart *h, void *ctx, const hart_insn *d, bool store)
{
    xmem_unit *u = ctx;
    cap_snap s;
    cap_snapshot(&u->cap->cap, &s);
    /* REQ: XMEM-104 XMEM-105 (the trap without COMPRESS) */
    if (!(cap_snap_xmem(&s, XPHMG_CSR_CAP_XMEM_CAP) & CAP_XMEM_CAP_COMPRESS_MASK)) {
        hart_illegal(h, d);
        return;
    }
    /* REQ: XMEM-103 XMEM-088 XMEM-138 (the compressed access) */
    uint64_t dst = hart_x(h, d->rs1), src = hart_x(h, d->rs2), lens = hart_x(h, d->rs3), bad;
    uint64_t n = (uint32_t)lens, cap = lens >> 32;
    unsigned rd = d->rd;
    xmem_comp_cfg cfg =
        xmem_comp_config(cap_snap_xmem(&s, XPHMG_CSR_CAP_XMEM_COMP_CTL), (unsigned)(d->imm & 3));
    size_t out = XMEM_COMP_FAIL;
    if (n <= XMEM_COMP_MAX_BYTES && cap <= XMEM_COMP_MAX_BYTES) {
        bool load_ok = range_ok(h, src, n, false, &bad);
        if (!load_ok || !range_ok(h, dst, cap, true, &bad)) {
            cap_xmem_event(&u->cap->cap, XMEM_EV_INV_MISS);
            hart_raise(h, load_ok ? CAUSE_STORE_ACCESS : CAUSE_LOAD_ACCESS, bad);
            return;
        }
        uint8_t *in = malloc(n ? n : 1), *res = malloc(cap ? cap : 1);
        if (in && res) {
            guest_read(h, src, in, n);
            out = store ? xmem_comp_encode(&cfg, in, n, res, cap)
                        : xmem_comp_decode(&cfg, in, n, res, cap);
            if (out != XMEM_COMP_FAIL) guest_write(h, dst, res, out);
        }
        free(in);
        free(res);
    }
    if (out == XMEM_COMP_FAIL) {
        cap_xmem_event(&u->cap->cap, CAP_XMEM_EVENTS_COMP_ERR_MASK);
        out = 0;
    }
    hart_set_x(h, rd, out);
}

/* REQ: XMEM-103 XMEM-104 */
static void exec_dloadc(hart *h, void *ctx, const hart_insn *d)
{
    exec_compress(h, ctx, d, false);
}

/* REQ: XMEM-103 XMEM-104 */
static void exec_dstorec(hart *h, void *ctx, const hart_insn *d)
{
    exec_compress(h, ctx, d, true);
}

/* ---- Caches and streaming: xmem.ldg/stg/pref/cctl/stream (errata Q-54) ---- */

/* Hint bits L1_ONLY 0 .. STREAM 5; the other hint bits are ignored (P-70). */
#define XMEM_HINT_BITS 0x3fu

/* Latches the cache policy of this instruction (class way mask, hints, stream profile)
 * from the instruction-boundary snapshot (XMEM 5.3, errata Q-54, P-222). The stream
 * profile is STREAM_CTL, or SPROFn when the access at a lies in a region whose MEMCTL
 * sprof_id set n != 0 (the descriptor override of XMEM 5.3 / 11.1.4). */
/* REQ: XMEM-041 XMEM-087 XMEM-059 XMEM-058 XMEM-086 XMEM-135 */
static void latch_policy(xmem_unit *u, unsigned hint, uint64_t a)
{
    cap_snap s;
    cap_snapshot(&u->cap->cap, &s);
    uint64_t xcap = cap_snap_xmem(&s, XPHMG_CSR_CAP_XMEM_CAP);
    uint64_t l1cfg = cap_snap_xmem(&s, XPHMG_CSR_CAP_XMEM_L1CFG);
    const xmem_lds_blk *b = xmem_lds_find(&u->lds, a);
    xmem_cache_memctl mc = {0, 0, 0, 0, 0};
    if (b) {
        /* The region's descriptor hints (errata P-208..P-211). */
        mc.l1_hint = b->l1_hint;
        mc.line_sz = b->line_sz;
        mc.qos = b->qos;
        mc.pin_lo = b->base;
        mc.pin_hi = b->base + (b->lds_softpin < b->size ? b->lds_softpin : b->size);
        hint |= xmem_cache_memctl_hint(&mc);
    }
    xmem_cache_pol p =
        xmem_cache_policy(&u->l1, xcap, l1cfg, cap_snap_xmem(&s, XPHMG_CSR_CAP_XMEM_CLSMAP),
                          cap_snap_xmem(&s, XPHMG_CSR_CAP_XMEM_STREAM_CTL), hint);
    if ((hint & XMEM_HINT_STREAM) && (xcap & CAP_XMEM_CAP_STREAM_PROF_MASK) && b && b->sprof) {
        xmem_cache_pol_sprof(&p, cap_snap_xmem(&s, XPHMG_CSR_CAP_XMEM_SPROF0 + b->sprof));
        p.nontemp = p.nontemp && (xcap & CAP_XMEM_CAP_NONTEMP_MASK);
    }
    xmem_cache_pol_memctl(&p, &u->l1, &mc, xcap, l1cfg);
    xmem_cache_set_policy(&u->l1, &p);
}

/* REQ: XMEM-087 XMEM-097 */
static bool pref_ok(void *ctx, uint64_t line_addr)
{
    return hart_mem_ok(ctx, line_addr, 1, false);
}

/* xmem.ldg rd, (rs1)[, hint]: the base ISA's 64-bit load (any alignment in one memory,
 * load access fault otherwise, P-70 hints never trap); INV_MISS with a fault. */
/* The data go through the base ISA's load whatever the hints (XMEM 5.3). */
/* REQ: XMEM-096 XMEM-089 XMEM-124 XMEM-121 XMEM-091 */
static void exec_ldg(hart *h, void *ctx, const hart_insn *d)
{
    xmem_unit *u = ctx;
    uint64_t a = hart_x(h, d->rs1), v;
    unsigned rd = d->rd, hint = (unsigned)((uint64_t)d->imm & XMEM_HINT_BITS);
    if (!hart_load(h, a, 8, &v)) {
        cap_xmem_event(&u->cap->cap, XMEM_EV_INV_MISS);
        return;
    }
    latch_policy(u, hint, a);
    xmem_cache_access(&u->l1, a, 8, false, hint);
    xmem_cache_stream(&u->l1, a, pref_ok, h);
    hart_set_x(h, rd, v);
}

/* xmem.stg rs2, (rs1)[, hint]: the base ISA's 64-bit store; as xmem.ldg. */
/* REQ: XMEM-096 XMEM-089 XMEM-124 XMEM-121 XMEM-091 */
static void exec_stg(hart *h, void *ctx, const hart_insn *d)
{
    xmem_unit *u = ctx;
    uint64_t a = hart_x(h, d->rs1);
    unsigned hint = (unsigned)((uint64_t)d->imm & XMEM_HINT_BITS);
    if (!hart_store(h, a, 8, hart_x(h, d->rs2))) {
        cap_xmem_event(&u->cap->cap, XMEM_EV_INV_MISS);
        return;
    }
    latch_policy(u, hint, a);
    xmem_cache_access(&u->l1, a, 8, true, hint);
    xmem_cache_stream(&u->l1, a, pref_ok, h);
}

/* A record read of rt.bbox / rt.tri (errata P-224): an L1 read without an instruction hint,
 * under the policy of the region it lies in (its MEMCTL l1_hint, sprof_id, line_sz ...);
 * outside a region, or in one without sprof_id, the stream profile is RTSPROF.SPROF_ID's,
 * which reads 0 (errata Q-64): profile 0, STREAM_CTL, as for every XMEM access. */
/* REQ: XMEM-087 XMEM-041 RT-022 */
void xmem_l1_read(void *hart_ctx, void *ctx, uint64_t a, unsigned n)
{
    xmem_unit *u = ctx;
    latch_policy(u, 0, a);
    xmem_cache_access(&u->l1, a, n, false, 0);
    xmem_cache_stream(&u->l1, a, pref_ok, hart_ctx);
}

/* xmem.pref rs1, rs2[, hint]: never faults, never sets an event, no architectural
 * effect; the tag model takes the readable lines of [rs1, rs1 + rs2). */
/* REQ: XMEM-097 */
static void exec_pref(hart *h, void *ctx, const hart_insn *d)
{
    xmem_unit *u = ctx;
    unsigned hint = (unsigned)((uint64_t)d->imm & XMEM_HINT_BITS);
    latch_policy(u, hint, hart_x(h, d->rs1));
    xmem_cache_prefetch(&u->l1, hart_x(h, d->rs1), hart_x(h, d->rs2), hint, pref_ok, h);
}

enum { CCTL_INV, CCTL_FLUSH, CCTL_LOCK, CCTL_UNLOCK, CCTL_PARTITION };

/* xmem.cctl cctl_sel, rs1, rs2: data never change. inv/flush on the tag model;
 * lock/unlock are no-ops without LINE_LOCK (gated RAZ/WI, Q-38), lock with L1CFG.LOCK_EN
 * = 0 or beyond ways - 1 lines per set sets LOCK_OVF and locks nothing more; partition =
 * the write of CLSMAP.CLn_WAYMASK (n = rs1 0-3, mask = rs2[7:0]) through cap_csr_write,
 * illegal without CLASS_PART or for n > 3; CCTL_SEL 5-7 illegal (P-70). */
/* REQ: XMEM-098 XMEM-099 XMEM-113 XMEM-101 XMEM-090 XMEM-014 */
static void exec_cctl(hart *h, void *ctx, const hart_insn *d)
{
    xmem_unit *u = ctx;
    unsigned sel = (unsigned)((uint64_t)d->imm & 7);
    uint64_t a = hart_x(h, d->rs1), n = hart_x(h, d->rs2);
    cap_snap s;
    cap_snapshot(&u->cap->cap, &s);
    uint64_t xcap = cap_snap_xmem(&s, XPHMG_CSR_CAP_XMEM_CAP);
    bool line_lock = xcap & CAP_XMEM_CAP_LINE_LOCK_MASK;
    switch (sel) {
    case CCTL_INV:
        xmem_cache_inv(&u->l1, a, n);
        return;
    case CCTL_FLUSH:
        xmem_cache_flush(&u->l1, a, n);
        return;
    case CCTL_LOCK:
        if (!line_lock) return;
        latch_policy(u, 0, a); /* locked lines take ways of the active class */
        if (!(cap_snap_xmem(&s, XPHMG_CSR_CAP_XMEM_L1CFG) & CAP_XMEM_L1CFG_LOCK_EN_MASK) ||
            xmem_cache_lock(&u->l1, a, n))
            cap_xmem_event(&u->cap->cap, CAP_XMEM_EVENTS_LOCK_OVF_MASK);
        return;
    case CCTL_UNLOCK:
        if (line_lock) xmem_cache_unlock(&u->l1, a, n);
        return;
    case CCTL_PARTITION: {
        if (!(xcap & CAP_XMEM_CAP_CLASS_PART_MASK) || a > 3) break;
        uint64_t m = UINT64_C(0xff) << (8 * a), v = 0;
        cap_csr_read(&u->cap->cap, XPHMG_CSR_CAP_XMEM_CLSMAP, &v);
        cap_csr_write(&u->cap->cap, XPHMG_CSR_CAP_XMEM_CLSMAP, (v & ~m) | ((n & 0xff) << (8 * a)));
        return;
    }
    default:
        break;
    }
    hart_illegal(h, d);
}

/* xmem.stream rs1, rs2: the csrw of rs2 to SPROF0-3 (rs1 = 0-3) or STREAM_CTL (rs1 = 4)
 * through cap_csr_write (without STREAM_PROF the write is ignored, no trap: Q-38,
 * XMEM-101); any other rs1 is illegal. */
/* REQ: XMEM-100 XMEM-101 XMEM-090 */
static void exec_stream(hart *h, void *ctx, const hart_insn *d)
{
    xmem_unit *u = ctx;
    uint64_t sel = hart_x(h, d->rs1);
    if (sel > 4) {
        hart_illegal(h, d);
        return;
    }
    uint32_t a =
        sel == 4 ? XPHMG_CSR_CAP_XMEM_STREAM_CTL : XPHMG_CSR_CAP_XMEM_SPROF0 + (uint32_t)sel;
    cap_csr_write(&u->cap->cap, a, hart_x(h, d->rs2));
}

static const hart_unit_insn insns[] = {{XOP_XMEM_SVM, exec_svm, HART_WR_X},
                                       {XOP_XLDS_ALLOC, exec_alloc, HART_WR_X},
                                       {XOP_XLDS_FREE, exec_free, HART_WR_NONE},
                                       {XOP_XLDS_BAR, exec_bar, HART_WR_NONE},
                                       {XOP_XLDS_ATOMS, exec_atoms, HART_WR_X},
                                       {XOP_XLDS_CPY, exec_cpy, HART_WR_X},
                                       /* XSWZ and compression (errata) */
                                       {XOP_XSWZ_TEX2TEN, exec_tex2ten, HART_WR_X},
                                       {XOP_XSWZ_TEN2TEX, exec_ten2tex, HART_WR_X},
                                       {XOP_XMEM_DLOADC, exec_dloadc, HART_WR_X},
                                       {XOP_XMEM_DSTOREC, exec_dstorec, HART_WR_X},
                                       /* caches and streaming (errata Q-54) */
                                       {XOP_XMEM_LDG, exec_ldg, HART_WR_X},
                                       {XOP_XMEM_STG, exec_stg, HART_WR_NONE},
                                       {XOP_XMEM_PREF, exec_pref, HART_WR_NONE},
                                       {XOP_XMEM_CCTL, exec_cctl, HART_WR_NONE},
                                       {XOP_XMEM_STREAM, exec_stream, HART_WR_NONE},
                                       /* regions (errata P-201) */
                                       {XOP_XMEM_REGION, exec_region, HART_WR_X}};
static const hart_unit_csrs csrs[] = {
    {XMEM_CSR_SVFAULTI, XMEM_CSR_SVFAULTI, csr_read, csr_write},
    {XMEM_CSR_L1STAT, XMEM_CSR_L1STAT + XMEM_CACHE_NSTATS - 1, l1stat_read, l1stat_write}};
static const hart_unit unit = {
    "xmem", reset, sizeof insns / sizeof insns[0], insns, sizeof csrs / sizeof csrs[0], csrs};

/* The opcodes registered here are the pre-CAP ones, configured by CAP only (XMEM 11.2). */
/* REQ: XMEM-085 XMEM-147 */
int xmem_unit_attach(hart *h, xmem_unit *u, cap_unit *cap, pmask_unit *pmask)
{
    u->cap = cap;
    u->pmask = pmask;
    u->svfaulti = XMEM_SVFAULTI_RESET;
    u->actor_set = false;
    u->denied = 0;
    u->drain = NULL;
    u->drain_ctx = NULL;
    uint64_t size, t0;
    xmem_lds_geometry(cap_discovery(&cap->cap, XPHMG_CSR_CAP_XMEM_CAP),
                      cap_discovery(&cap->cap, XPHMG_CSR_CAP_XMEM_PARAMS),
                      cap_discovery(&cap->cap, XPHMG_CSR_CAP_TIER_LDS), &size, &t0);
    xmem_lds_init(&u->lds, size, t0);
    if (xmem_cache_init(&u->l1, cap_discovery(&cap->cap, XPHMG_CSR_CAP_XMEM_CAP),
                        cap_discovery(&cap->cap, XPHMG_CSR_CAP_XMEM_PARAMS))) {
        xmem_lds_fini(&u->lds);
        return -1;
    }
    u->lds_mem = NULL;
    if (hart_register_unit(h, &unit, u)) {
        xmem_unit_free(u); /* nothing is left to free (the tag model, Q-54) */
        return -1;
    }
    if (size) {
        u->lds_mem = calloc(1, size);
        if (!u->lds_mem || hart_add_region(h, XMEM_LDS_BASE, size, u->lds_mem) ||
            hart_region_set_check(h, XMEM_LDS_BASE, region_check, u)) {
            xmem_unit_free(u); /* the hart keeps a unit that is gone: it must not run */
            return -1;
        }
    }
    return 0;
}

void xmem_unit_print_stats(const xmem_unit *u, FILE *f)
{
    fprintf(f, "xphmg-sim: xmem.l1");
    for (unsigned i = 0; i < XMEM_CACHE_NSTATS; i++)
        fprintf(f, "%s %s %" PRIu64, i ? "," : "", xmem_cache_stat_name(i),
                xmem_cache_stat(&u->l1.st, i));
    fprintf(f, "\n");
}

void xmem_unit_free(xmem_unit *u)
{
    xmem_lds_fini(&u->lds);
    xmem_cache_fini(&u->l1);
    free(u->lds_mem);
    u->lds_mem = NULL;
}
