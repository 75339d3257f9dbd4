/* test_xmem_lds.c — the LDS allocator of `xlds.alloc` / `xlds.free`
 * (src/ext/xmem/xmem_lds.h) without a hart. The CAP.XMEM CSRs are programmed through the
 * CAP CSR file (cap.h) and reach the allocator through the instruction-boundary snapshot,
 * as on the hart. Every expected address is computed by hand from errata Q-50 (window at
 * 0x10000000, Tier-0 = its first T0_KIB KiB, 16-byte granule, first fit in address order
 * within the partition, TIER 0 = default = Tier-1, 1 = Tier-0 with fallback to Tier-1,
 * 2 = Tier-1, 3 illegal), Q-41 (class), Q-38/Q-39 (field positions, written out here,
 * not taken from generated macros) and Q-58 (INV_MISS on a wild free).
 *
 * Requirements: XMEM-092/093/094 (alloc returns a base or 0 with no state change, free),
 * XMEM-078 (class: MCLASS override, else ACTIVE_CLASS), XMEM-054 (budget overflow sets
 * BUDGET_OVF), XMEM-085 (failures: LDS_OOM and a zero return; CLASS_PART changes only
 * the source), XMEM-043 and CAP-131 (the inputs are the boundary snapshot), CAP-137 (the
 * CAP.XMEM policy CSRs are the defaults, MCLASS the per-instruction override), CAP-021
 * (Tier-1 is the default target). CAP-015 (tiers beyond Tier-0 follow CAP's class
 * policy): the class part is what this file checks — a Tier-1 allocation is charged to
 * the class CAP selects and counted against its budget; coherence has nothing to
 * observe on the one hart and streaming policy has no effect on LDS.
 * XMEM-147 (test_attach_refused: the unit owns the XMEM opcodes once; a second unit on the
 * same hart is refused and leaves nothing allocated; test_window_refused: nor does an
 * attach whose LDS window the hart refuses).
 * REQ: XMEM-092 XMEM-093 XMEM-094 XMEM-078 XMEM-054 XMEM-085 XMEM-043 CAP-131 CAP-137
 * REQ: XMEM-147
 * REQ: CAP-021 CAP-015 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cap.h"
#include "cap_profile.h"
#include "hart.h"
#include "xmem_cache.h"
#include "xmem_lds.h"
#include "xmem_region.h"
#include "xmem_unit.h"
#include "xphmg_ext.h"

#include "heap_in_use.h"

/* CSR addresses (CAP 4.6.1/4.6.2, 4.2.2) and field positions (errata ). */
#define XMEM_CAP        0x7E0u
#define PARAMS          0x7E1u
#define L1CFG           0x7E2u
#define LDS_BUDGET      0x7E4u
#define TIER_LDS        0x7CAu
#define ACTIVE(n)       ((uint64_t)(n) << 24)
#define BUDGET(cl, kib) ((uint64_t)(kib) << (16 * (cl)))
#define INV_MISS        1u
#define LDS_OOM         4u
#define BUDGET_OVF      0x20u
/* FLAGS */
#define T0       0x10u
#define T1       0x20u
#define MCL(n)   (0x40u | (n) << 7)
#define ALIGN(n) (n)

#define BASE 0x10000000u
#define KIB  1024u

typedef struct {
    cap_state cap;
    xmem_lds l;
    cap_snap s;
    cap_profile *p; /* the profile's CSR values (profile()), freed by down(); NULL: default */
} rig;

static cap_profile *profile(const char *csrs)
{
    char text[512], err[256];
    snprintf(text, sizeof text, "xphmg-profile: 1\nname: t\ncsrs:\n%s", csrs);
    cap_profile *p = cap_profile_parse(text, strlen(text), "t", err, sizeof err);
    if (!p) fail_msg("%s", err);
    return p;
}

/* A rig reset to a profile with these CSR values (profile()), or NULL: the default
 * profile (64 KiB, Tier-0 16 KiB, CLASS_PART = 1). */
static void up(rig *r, const char *csrs)
{
    r->p = csrs ? profile(csrs) : NULL;
    cap_reset(&r->cap, r->p);
    uint64_t size, t0;
    xmem_lds_geometry(cap_discovery(&r->cap, XMEM_CAP), cap_discovery(&r->cap, PARAMS),
                      cap_discovery(&r->cap, TIER_LDS), &size, &t0);
    xmem_lds_init(&r->l, size, t0);
    cap_snapshot(&r->cap, &r->s);
}

static void csr(rig *r, uint32_t a, uint64_t v)
{
    assert_true(cap_csr_write(&r->cap, a, v));
    cap_snapshot(&r->cap, &r->s);
}

/* An allocation that must succeed at `want` with events `ev`. */
static void alloc_ok(rig *r, uint64_t bytes, unsigned flags, uint64_t want, uint64_t ev)
{
    xmem_lds_res x = xmem_lds_alloc(&r->l, &r->s, bytes, flags);
    assert_false(x.illegal);
    assert_int_equal(x.addr, want);
    assert_int_equal(x.events, ev);
}

/* An allocation that must fail (0, LDS_OOM) and leave the allocator exactly as it was. */
static void alloc_oom(rig *r, uint64_t bytes, unsigned flags)
{
    size_t n = r->l.n;
    uint64_t used[4];
    memcpy(used, r->l.used, sizeof used);
    xmem_lds_blk *copy = malloc((n ? n : 1) * sizeof *copy);
    assert_non_null(copy);
    if (n) memcpy(copy, r->l.blk, n * sizeof *copy);
    xmem_lds_res x = xmem_lds_alloc(&r->l, &r->s, bytes, flags);
    assert_false(x.illegal);
    assert_int_equal(x.addr, 0);
    assert_int_equal(x.events, LDS_OOM);
    assert_int_equal(r->l.n, n);
    assert_memory_equal(r->l.used, used, sizeof used);
    if (n) assert_memory_equal(r->l.blk, copy, n * sizeof *copy);
    free(copy);
}

/* fini leaves no regions and no array, and a second fini is harmless. */
static void down(rig *r)
{
    xmem_lds_fini(&r->l);
    assert_null(r->l.blk);
    assert_int_equal(r->l.n, 0);
    assert_int_equal(r->l.cap, 0);
    xmem_lds_fini(&r->l);
    cap_profile_free(r->p);
    r->p = NULL;
}

static void test_geometry(void **state)
{
    (void)state;
    uint64_t size, t0;
    /* the default profile's discovery values (XML reset values, Q-38/Q-39/Q-34) */
    xmem_lds_geometry(0x677, 0x30860040, 0x10007c, &size, &t0);
    assert_int_equal(size, 64 * KIB);
    assert_int_equal(t0, 16 * KIB);
    /* CAP.XMEM.CAP.LDS = 0 or LDS_KIB = 0: no window */
    xmem_lds_geometry(0x676, 0x30860040, 0x10007c, &size, &t0);
    assert_int_equal(size, 0);
    assert_int_equal(t0, 0);
    xmem_lds_geometry(0x677, 0x30860000, 0x10007c, &size, &t0);
    assert_int_equal(size, 0);
    /* T0_KIB larger than the LDS: clamped; 0: no Tier-0 */
    xmem_lds_geometry(0x677, 0x30860004, 0x10007c, &size, &t0);
    assert_int_equal(size, 4 * KIB);
    assert_int_equal(t0, 4 * KIB);
    xmem_lds_geometry(0x677, 0x30860040, 0x00007c, &size, &t0);
    assert_int_equal(t0, 0);
    /* the same through the CAP unit's discovery values of a profile */
    rig r;
    up(&r, "  cap_xmem_params: {LDS_KIB: 16}\n  cap_tier_lds: {T0_KIB: 4}\n");
    assert_int_equal(r.l.base, BASE);
    assert_int_equal(r.l.size, 16 * KIB);
    assert_int_equal(r.l.t0_size, 4 * KIB);
    down(&r);
}

static void test_placement_and_alignment(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    /* default = Tier-1 (CAP 2.2.4 #1); 1 byte takes one granule */
    alloc_ok(&r, 1, 0, BASE + 0x4000, 0);
    /* TIER 1 = Tier-0; TIER 2 = Tier-1; 0 bytes = one granule */
    alloc_ok(&r, 0, T0, BASE, 0);
    alloc_ok(&r, 0, T1, BASE + 0x4010, 0);
    alloc_ok(&r, 17, T0, BASE + 0x10, 0); /* 32 bytes */
    alloc_ok(&r, 1, T0, BASE + 0x30, 0);
    /* ALIGN_LOG2 0-4 all mean 16 */
    alloc_ok(&r, 1, ALIGN(3), BASE + 0x4020, 0);
    alloc_ok(&r, 1, ALIGN(4), BASE + 0x4030, 0);
    /* 2^5, 2^6, 2^12, 2^15 */
    alloc_ok(&r, 1, ALIGN(5), BASE + 0x4040, 0);
    alloc_ok(&r, 1, ALIGN(6), BASE + 0x4080, 0);
    alloc_ok(&r, 1, ALIGN(12), BASE + 0x5000, 0);
    alloc_ok(&r, 1, ALIGN(15), BASE + 0x8000, 0);
    /* the holes left by alignment are first fit for later requests */
    alloc_ok(&r, 16, 0, BASE + 0x4050, 0);
    alloc_ok(&r, 32, 0, BASE + 0x4060, 0);
    alloc_ok(&r, 0x40, ALIGN(6), BASE + 0x40c0, 0);
    /* an aligned Tier-0 request */
    alloc_ok(&r, 1, T0 | ALIGN(8), BASE + 0x100, 0);
    down(&r);
}

static void test_tiers_and_fallback(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    /* Tier-0 exactly full, then a Tier-0 request falls back to Tier-1 (CAP 2.2.3,
     * XMEM 3.2.8) */
    alloc_ok(&r, 0x3ff0, T0, BASE, 0);
    alloc_ok(&r, 16, T0, BASE + 0x3ff0, 0);
    alloc_ok(&r, 16, T0, BASE + 0x4000, 0);
    /* too big for Tier-0 at all: Tier-1 */
    xmem_lds_free(&r.l, BASE);
    alloc_ok(&r, 0x4000, T0, BASE + 0x4010, 0);
    /* a Tier-1 request never takes Tier-0 space: Tier-1 full, Tier-0 almost empty */
    alloc_ok(&r, 0xc000 - 0x4010, 0, BASE + 0x8010, 0);
    alloc_oom(&r, 16, 0);
    alloc_oom(&r, 16, T1);
    /* ... while a Tier-0 request still fits there */
    alloc_ok(&r, 16, T0, BASE, 0);
    /* both full: a Tier-0 request fails too */
    alloc_ok(&r, 0x3fe0, T0, BASE + 0x10, 0);
    alloc_oom(&r, 16, T0);
    down(&r);

    /* no Tier-0 partition: Tier-0 requests go to Tier-1 */
    up(&r, "  cap_tier_lds: {T0_KIB: 0}\n");
    alloc_ok(&r, 16, T0, BASE, 0);
    down(&r);
    /* Tier-0 = the whole LDS: nothing for Tier-1 */
    up(&r, "  cap_xmem_params: {LDS_KIB: 4}\n  cap_tier_lds: {T0_KIB: 8}\n");
    alloc_oom(&r, 16, 0);
    alloc_ok(&r, 16, T0, BASE, 0);
    down(&r);
}

static void test_first_fit(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    const uint64_t t1 = BASE + 0x4000;
    alloc_ok(&r, 32, 0, t1, 0);                          /* A */
    alloc_ok(&r, 48, 0, t1 + 0x20, 0);                   /* B */
    alloc_ok(&r, 32, 0, t1 + 0x50, 0);                   /* C */
    alloc_ok(&r, 16, 0, t1 + 0x70, 0);                   /* D */
    assert_int_equal(xmem_lds_free(&r.l, t1 + 0x20), 0); /* hole of 48 at 0x20 */
    assert_int_equal(xmem_lds_free(&r.l, t1 + 0x70), 0); /* the top is free again */
    /* 64 does not fit the hole: after C */
    alloc_ok(&r, 64, 0, t1 + 0x70, 0);
    /* 16 and 32 fill the hole in address order */
    alloc_ok(&r, 16, 0, t1 + 0x20, 0);
    alloc_ok(&r, 32, 0, t1 + 0x30, 0);
    alloc_ok(&r, 16, 0, t1 + 0xb0, 0);
    /* an aligned request skips a hole whose aligned start does not fit */
    assert_int_equal(xmem_lds_free(&r.l, t1 + 0x30), 0); /* 32-byte hole at 0x30 */
    alloc_ok(&r, 32, ALIGN(6), t1 + 0xc0, 0);
    alloc_ok(&r, 32, ALIGN(5), t1 + 0xe0, 0); /* aligned 0x40 + 32 > 0x50: after 0xc0 */
    alloc_ok(&r, 16, ALIGN(5), t1 + 0x40, 0); /* aligned 0x40 + 16 = 0x50 fits */
    alloc_ok(&r, 16, 0, t1 + 0x30, 0);
    down(&r);
}

static void test_oom(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    alloc_ok(&r, 100, 0, BASE + 0x4000, 0);
    alloc_ok(&r, 100, T0, BASE, 0);
    /* Tier-1 has 0xc000 - 0x70 bytes left */
    alloc_oom(&r, 0xc000 - 0x70 + 1, 0);
    alloc_oom(&r, 0xc000, T1);
    alloc_oom(&r, UINT64_MAX, 0); /* no overflow in the rounding */
    alloc_oom(&r, UINT64_MAX - 14, T0);
    alloc_oom(&r, 64 * KIB, T0); /* the whole window: fits no partition */
    /* an alignment that no hole can meet */
    alloc_ok(&r, 0xc000 - 0x70, 0, BASE + 0x4070, 0);
    xmem_lds_free(&r.l, BASE + 0x4000);
    alloc_oom(&r, 16, ALIGN(15));
    alloc_ok(&r, 16, 0, BASE + 0x4000, 0);
    /* the state is as it was: the failed requests left no trace in the budgets */
    assert_int_equal(r.l.used[0], 0x70 + (0xc000 - 0x70) + 0x10);
    down(&r);

    /* no window at all (CAP.XMEM.CAP.LDS = 0): every request fails, every free misses */
    up(&r, "  cap_xmem_cap: {LDS: 0}\n");
    assert_int_equal(r.l.size, 0);
    alloc_oom(&r, 16, 0);
    alloc_oom(&r, 0, T0);
    assert_int_equal(xmem_lds_free(&r.l, BASE), INV_MISS);
    down(&r);
}

static void test_lds_free(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    alloc_ok(&r, 64, 0, BASE + 0x4000, 0);
    alloc_ok(&r, 16, T0, BASE, 0);
    /* wild: inside an allocation, past it, outside the window, 0 */
    assert_int_equal(xmem_lds_free(&r.l, BASE + 0x4010), INV_MISS);
    assert_int_equal(xmem_lds_free(&r.l, BASE + 0x4040), INV_MISS);
    assert_int_equal(xmem_lds_free(&r.l, 0x80000000u), INV_MISS);
    assert_int_equal(xmem_lds_free(&r.l, 0), INV_MISS);
    assert_int_equal(r.l.n, 2);
    assert_int_equal(r.l.used[0], 80);
    /* exact base: freed once; the second time it is a double free */
    assert_int_equal(xmem_lds_free(&r.l, BASE + 0x4000), 0);
    assert_int_equal(r.l.used[0], 16);
    assert_int_equal(xmem_lds_free(&r.l, BASE + 0x4000), INV_MISS);
    assert_int_equal(xmem_lds_free(&r.l, BASE), 0);
    assert_int_equal(r.l.n, 0);
    assert_int_equal(r.l.used[0], 0);
    /* reset (hart reset) frees everything */
    alloc_ok(&r, 16, 0, BASE + 0x4000, 0);
    xmem_lds_reset(&r.l);
    assert_int_equal(r.l.n, 0);
    assert_int_equal(r.l.used[0], 0);
    alloc_ok(&r, 16, 0, BASE + 0x4000, 0);
    /* many allocations (the list grows) and frees in a scattered order */
    xmem_lds_reset(&r.l);
    for (unsigned i = 0; i < 1024; i++)
        alloc_ok(&r, 16, T0, BASE + 16 * i, 0);
    for (unsigned i = 0; i < 1024; i += 2)
        assert_int_equal(xmem_lds_free(&r.l, BASE + 16 * i), 0);
    assert_int_equal(r.l.n, 512);
    alloc_ok(&r, 16, T0, BASE, 0);
    alloc_ok(&r, 16, T0, BASE + 32, 0);
    alloc_ok(&r, 32, T0, BASE + 16 * 1024, 0);
    down(&r);
}

static void test_budgets(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    /* CL0 1 KiB, CL2 2 KiB; CL1, CL3 unlimited (0) */
    csr(&r, LDS_BUDGET, BUDGET(0, 1) | BUDGET(2, 2));
    alloc_ok(&r, 1024, 0, BASE + 0x4000, 0);         /* CL0 at its budget: no event */
    alloc_ok(&r, 16, 0, BASE + 0x4400, BUDGET_OVF);  /* soft: succeeds, BUDGET_OVF */
    alloc_ok(&r, 16, MCL(2), BASE + 0x4410, 0);      /* other classes unaffected */
    alloc_ok(&r, 8 * KIB, MCL(1), BASE + 0x4420, 0); /* CL1 unlimited */
    alloc_ok(&r, 2 * KIB - 16, MCL(2), BASE + 0x6420, 0);
    alloc_ok(&r, 1, MCL(2), BASE + 0x6c10, BUDGET_OVF);
    assert_int_equal(r.l.used[0], 1040);
    assert_int_equal(r.l.used[1], 8 * KIB);
    assert_int_equal(r.l.used[2], 2 * KIB + 16);
    assert_int_equal(r.l.used[3], 0);
    /* free returns the bytes to the class: CL0 back under its budget */
    assert_int_equal(xmem_lds_free(&r.l, BASE + 0x4000), 0);
    assert_int_equal(r.l.used[0], 16);
    alloc_ok(&r, 1008, 0, BASE + 0x4000, 0);
    alloc_ok(&r, 16, 0, BASE + 0x43f0, BUDGET_OVF);
    /* Tier-0 allocations count against the same class budgets */
    csr(&r, LDS_BUDGET, BUDGET(3, 1));
    alloc_ok(&r, 1024, T0 | MCL(3), BASE, 0);
    alloc_ok(&r, 16, T0 | MCL(3), BASE + 0x400, BUDGET_OVF);
    /* the maximum budget, 0xffff KiB, is never exceeded by a 64 KiB LDS */
    csr(&r, LDS_BUDGET, BUDGET(1, 0xffff));
    alloc_ok(&r, 16, MCL(1), BASE + 0x6c20, 0);
    down(&r);
}

static void test_class(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    /* ACTIVE_CLASS (L1CFG 31:24) without an override; MCLASS bits without MCLASS_EN are
     * ignored; MCLASS_EN wins */
    csr(&r, L1CFG, ACTIVE(2));
    assert_int_equal(xmem_lds_class(&r.s, 0), 2);
    assert_int_equal(xmem_lds_class(&r.s, 3u << 7), 2);
    assert_int_equal(xmem_lds_class(&r.s, MCL(3)), 3);
    assert_int_equal(xmem_lds_class(&r.s, MCL(0)), 0);
    alloc_ok(&r, 32, 0, BASE + 0x4000, 0);
    alloc_ok(&r, 64, MCL(1), BASE + 0x4020, 0);
    alloc_ok(&r, 16, 3u << 7, BASE + 0x4060, 0);
    assert_int_equal(r.l.used[2], 48);
    assert_int_equal(r.l.used[1], 64);
    /* the free credits the class the allocation was charged to, whatever is active now */
    csr(&r, L1CFG, ACTIVE(0));
    assert_int_equal(xmem_lds_free(&r.l, BASE + 0x4020), 0);
    assert_int_equal(r.l.used[1], 0);
    assert_int_equal(r.l.used[2], 48);
    assert_int_equal(r.l.used[0], 0);
    down(&r);

    /* CLASS_PART = 0: everything is CL0, and LDS_BUDGET/ACTIVE_CLASS read 0 */
    up(&r, "  cap_xmem_cap: {CLASS_PART: 0}\n");
    csr(&r, L1CFG, ACTIVE(2));
    csr(&r, LDS_BUDGET, BUDGET(0, 1) | BUDGET(3, 1));
    assert_int_equal(xmem_lds_class(&r.s, 0), 0);
    assert_int_equal(xmem_lds_class(&r.s, MCL(3)), 0);
    alloc_ok(&r, 2 * KIB, MCL(3), BASE + 0x4000, 0); /* no budget: no BUDGET_OVF */
    alloc_ok(&r, 2 * KIB, 0, BASE + 0x4800, 0);
    assert_int_equal(r.l.used[0], 4 * KIB);
    assert_int_equal(r.l.used[3], 0);
    down(&r);
}

static void test_snapshot_isolation(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    csr(&r, L1CFG, ACTIVE(1));
    /* live CSRs change after the boundary: the operation still sees the snapshot */
    assert_true(cap_csr_write(&r.cap, LDS_BUDGET, BUDGET(1, 1)));
    assert_true(cap_csr_write(&r.cap, L1CFG, ACTIVE(3)));
    alloc_ok(&r, 2 * KIB, 0, BASE + 0x4000, 0);
    assert_int_equal(r.l.used[1], 2 * KIB);
    assert_int_equal(r.l.used[3], 0);
    /* the next boundary sees them */
    cap_snapshot(&r.cap, &r.s);
    alloc_ok(&r, 2 * KIB, 0, BASE + 0x4800, 0);
    assert_int_equal(r.l.used[3], 2 * KIB);
    csr(&r, L1CFG, ACTIVE(1));
    alloc_ok(&r, 16, 0, BASE + 0x5000, BUDGET_OVF);
    down(&r);
}

static void test_illegal_flags(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    alloc_ok(&r, 16, 0, BASE + 0x4000, 0);
    static const unsigned bad[] = {0x200, 0x400, 0x800, 0xe00, 0x30, 0x3f, 0x230};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        xmem_lds_res x = xmem_lds_alloc(&r.l, &r.s, 16, bad[i]);
        assert_true(x.illegal);
        assert_int_equal(x.addr, 0);
        assert_int_equal(x.events, 0);
    }
    assert_int_equal(r.l.n, 1);
    assert_int_equal(r.l.used[0], 16);
    /* every legal combination of the low 9 bits works */
    for (unsigned f = 0; f < 0x200; f++) {
        if (((f >> 4) & 3) == 3) continue;
        xmem_lds_res x = xmem_lds_alloc(&r.l, &r.s, 16, f);
        assert_false(x.illegal);
        assert_int_not_equal(x.addr, 0);
        assert_int_equal(xmem_lds_free(&r.l, x.addr), 0);
    }
    down(&r);
}

/* The window on a real hart (hart_add_region, errata Q-50): plain memory for hart
 * loads/stores/AMOs, bounds, refused overlaps, and hart reset (contents zero, no
 * allocations). */
static void test_hart_window(void **state)
{
    (void)state;
    char err[256];
    sim_mem *m = mem_new(0x80000000u, 64 * KIB);
    assert_non_null(m);
    hart *h = hart_new(m, 0x80000000u);
    assert_non_null(h);
    xphmg_ext *e = xphmg_ext_attach(h, NULL, err, sizeof err);
    assert_non_null(e);
    uint64_t base, size;
    assert_true(xphmg_ext_lds_window(NULL, &base, &size));
    assert_int_equal(base, BASE);
    assert_int_equal(size, 64 * KIB);
    /* a profile without LDS has no window: RAM may go anywhere */
    cap_profile *nl = profile("  cap_xmem_cap: {LDS: 0}\n");
    assert_false(xphmg_ext_lds_window(nl, &base, &size));
    assert_int_equal(size, 0);
    cap_profile_free(nl);
    /* a second region may overlap neither RAM, the CLINT, the LDS, nor wrap */
    static uint8_t buf[64];
    assert_int_equal(hart_add_region(h, BASE + 64 * KIB - 16, 64, buf), -1);
    assert_int_equal(hart_add_region(h, 0x80000000u - 16, 64, buf), -1);
    assert_int_equal(hart_add_region(h, 0x02000000u + 0xbff0, 64, buf), -1);
    assert_int_equal(hart_add_region(h, UINT64_MAX - 15, 64, buf), -1);
    assert_int_equal(hart_add_region(h, 0x20000000u, 0, buf), -1);
    /* loads, stores, AMOs; the last byte and no further */
    uint64_t v;
    assert_true(hart_store(h, BASE + 64 * KIB - 8, 8, 0x1122334455667788u));
    assert_true(hart_load(h, BASE + 64 * KIB - 8, 8, &v));
    assert_int_equal(v, 0x1122334455667788u);
    assert_true(hart_load(h, BASE + 64 * KIB - 1, 1, &v));
    assert_int_equal(v, 0x11);
    assert_true(hart_mem_ok(h, BASE, 8, true));
    assert_false(hart_mem_ok(h, BASE + 64 * KIB - 4, 8, false));
    assert_false(hart_mem_ok(h, BASE - 1, 1, false));
    assert_true(hart_amo(h, 0x00, BASE + 64 * KIB - 8, 8, 2, &v));
    assert_int_equal(v, 0x1122334455667788u);
    assert_true(hart_load(h, BASE + 64 * KIB - 8, 8, &v));
    assert_int_equal(v, 0x112233445566778au);
    assert_false(hart_amo(h, 0x02, BASE, 8, 2, &v)); /* not an AMO code: nothing raised */
    assert_false(h->trapped);
    /* allocations and contents are gone after hart reset */
    cap_snap snap;
    cap_snapshot(&e->cap.cap, &snap);
    assert_int_equal(xmem_lds_alloc(&e->xmem.lds, &snap, 16, 0).addr, BASE + 0x4000);
    assert_int_equal(e->xmem.lds.n, 1);
    /* and so is the rest of the unit's state: SVFAULTI, an engine's actor and its
     * refusals, the L1 model's lines and statistics */
    e->xmem.svfaulti = 5;
    xmem_actor_begin(&e->xmem, xmem_actor_of(&snap, XMEM_DOM_RT, 0));
    e->xmem.denied = XMEM_DENY_DOM;
    xmem_cache_access(&e->xmem.l1, 0x80000000u, 8, true, XMEM_HINT_STREAM);
    unsigned fl;
    assert_true(xmem_cache_probe(&e->xmem.l1, 0x80000000u, &fl));
    hart_reset(h, 0x80000000u);
    assert_int_equal(e->xmem.lds.n, 0);
    assert_true(hart_load(h, BASE + 64 * KIB - 8, 8, &v));
    assert_int_equal(v, 0);
    assert_int_equal(e->xmem.svfaulti, XMEM_SVFAULTI_RESET);
    assert_false(e->xmem.actor_set);
    assert_int_equal(e->xmem.denied, 0);
    assert_false(xmem_cache_probe(&e->xmem.l1, 0x80000000u, &fl));
    assert_int_equal(e->xmem.l1.st.misses, 0);
    assert_int_equal(e->xmem.l1.st.hinted[5], 0);
    hart_free(h);
    xphmg_ext_free(e);
    mem_free(m);
}

/* A second XMEM unit on a hart that has one: its opcodes are owned, so the hart refuses
 * it, and what its attach allocated (LDS bookkeeping, the L1 model) is freed again. */
static void refused_round(hart *h, xphmg_ext *e)
{
    xmem_unit u2;
    memset(&u2, 0, sizeof u2);
    assert_int_equal(xmem_unit_attach(h, &u2, &e->cap, &e->pmask), -1);
}

static void test_attach_refused(void **state)
{
    (void)state;
    char err[256];
    sim_mem *m = mem_new(0x80000000u, 64 * KIB);
    assert_non_null(m);
    hart *h = hart_new(m, 0x80000000u);
    assert_non_null(h);
    xphmg_ext *e = xphmg_ext_attach(h, NULL, err, sizeof err);
    assert_non_null(e);
    for (int k = 0; k < 4; k++)
        refused_round(h, e);
    size_t before = heap_in_use();
    for (int k = 0; k < 16; k++)
        refused_round(h, e);
    if (heap_in_use() != before)
        fail_msg("%zu bytes in use before, %zu after 16 refused attaches", before, heap_in_use());
    hart_free(h);
    xphmg_ext_free(e);
    mem_free(m);
}

/* A hart whose RAM covers the LDS window refuses the window: the attach fails and frees
 * what it allocated (the hart, its memory and the units are freed by the caller). */
static void window_refused_round(const void *unused)
{
    (void)unused;
    char err[256];
    sim_mem *m = mem_new(BASE, 64 * KIB);
    assert_non_null(m);
    hart *h = hart_new(m, BASE);
    assert_non_null(h);
    assert_null(xphmg_ext_attach(h, NULL, err, sizeof err));
    hart_free(h);
    mem_free(m);
}

static void test_window_refused(void **state)
{
    (void)state;
    assert_heap_balanced(window_refused_round, NULL, 4, 16, "refused windows");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry),
        cmocka_unit_test(test_placement_and_alignment),
        cmocka_unit_test(test_tiers_and_fallback),
        cmocka_unit_test(test_first_fit),
        cmocka_unit_test(test_oom),
        cmocka_unit_test(test_lds_free),
        cmocka_unit_test(test_budgets),
        cmocka_unit_test(test_class),
        cmocka_unit_test(test_snapshot_isolation),
        cmocka_unit_test(test_illegal_flags),
        cmocka_unit_test(test_hart_window),
        cmocka_unit_test(test_attach_refused),
        cmocka_unit_test(test_window_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
