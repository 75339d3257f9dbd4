/* test_xmem_region.c — the XMEM region policy (src/ext/xmem/xmem_region.h, errata
 * P-200..P-205, Q-51, Q-57) without a hart: actors, the access rule for every tier /
 * owner / tag combination, and what an XPHMG_MEMCTL does to a region, including the
 * class budget accounting it moves. Snapshots are taken from the CAP CSR file (default
 * profile) and, for the CAP.XMEM.CAP bits a profile fixes (SEC_DOM, CLASS_PART,
 * STREAM_PROF), edited in the snapshot. Field positions are written out from errata
 * Q-38/Q-39/Q-52/P-201, not taken from generated macros.
 * REQ: XMEM-011 XMEM-021 XMEM-027 XMEM-042 XMEM-062 XMEM-114 XMEM-118 XMEM-120 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cap.h"
#include "xmem_lds.h"
#include "xmem_region.h"

#define XMEM_CAP   0x7E0u
#define LDS_BUDGET 0x7E4u
#define DOM        0x7E6u
#define DESCPOL    0x7EDu
#define SEC_DOM    (UINT64_C(1) << 11)
#define CLASS_PART (UINT64_C(1) << 9)
#define STRICT     (UINT64_C(1) << 6)
#define INV_MISS   1u
#define BUDGET_OVF 0x20u
#define SEC_VIOL   0x40u
#define HYB_FALLBK 0x80u
#define BASE       0x10000000u
#define T0_SIZE    0x4000u
#define RGN(tier, cls, sec, sprof, dom, hyb)                                                       \
    (UINT64_C(1) << 63 | (tier) | (cls) << 2 | (sec) << 4 | (sprof) << 6 | (uint64_t)(dom) << 8 |  \
     (uint64_t)(hyb) << 12)

typedef struct {
    cap_state cap;
    cap_snap s;
    xmem_lds l;
} fix;

static void set_xmem(cap_snap *s, uint32_t addr, uint64_t v)
{
    s->xmem[addr - CAP_XMEM_LO] = v;
}

static int setup(void **state)
{
    fix *f = test_calloc(1, sizeof *f);
    cap_reset(&f->cap, NULL);
    cap_snapshot(&f->cap, &f->s);
    xmem_lds_init(&f->l, 0x10000, T0_SIZE);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fix *f = *state;
    xmem_lds_fini(&f->l);
    test_free(f);
    return 0;
}

static xmem_lds_blk blk(unsigned tier, unsigned dom, unsigned sec)
{
    xmem_lds_blk b = {.base = BASE, .size = 64, .tier = (uint8_t)tier, .dom = (uint8_t)dom};
    b.sec = (uint8_t)sec;
    return b;
}

static xmem_actor actor(unsigned dom, unsigned sec, bool strict, bool sec_dom)
{
    return (xmem_actor){dom, sec, strict, sec_dom};
}

/* Tier-0: only the owner; DOM_ALL: everyone reads, nobody writes; Tier-1..3: anyone
 * unless STRICT_DOM. */
static void test_deny_domains(void **state)
{
    (void)state;
    for (unsigned tier = 0; tier < 4; tier++) {
        xmem_lds_blk rt = blk(tier, XMEM_DOM_RT, 0), all = blk(tier, XMEM_DOM_ALL, 0);
        for (int strict = 0; strict < 2; strict++) {
            xmem_actor cpu = actor(XMEM_DOM_CPU, 0, strict, false);
            xmem_actor r = actor(XMEM_DOM_RT, 0, strict, false);
            unsigned expect = (tier == 0 || strict) ? XMEM_DENY_DOM : 0;
            assert_int_equal(xmem_region_deny(&rt, &cpu, false), expect);
            assert_int_equal(xmem_region_deny(&rt, &cpu, true), expect);
            assert_int_equal(xmem_region_deny(&rt, &r, false), 0);
            assert_int_equal(xmem_region_deny(&rt, &r, true), 0);
            assert_int_equal(xmem_region_deny(&all, &cpu, false), 0);
            assert_int_equal(xmem_region_deny(&all, &cpu, true), expect);
            assert_int_equal(xmem_region_deny(&all, &r, true), expect);
        }
    }
}

/* Tags: ignored without SEC_DOM; with it the actor must dominate (0 < 1 < 2); domain
 * and tag are checked independently (both reasons reported). */
static void test_deny_security(void **state)
{
    (void)state;
    for (unsigned rs = 0; rs < 3; rs++)
        for (unsigned as = 0; as < 3; as++) {
            xmem_lds_blk b = blk(1, XMEM_DOM_CPU, rs);
            xmem_actor off = actor(XMEM_DOM_CPU, as, false, false);
            xmem_actor on = actor(XMEM_DOM_CPU, as, false, true);
            assert_int_equal(xmem_region_deny(&b, &off, true), 0);
            assert_int_equal(xmem_region_deny(&b, &on, false), as < rs ? XMEM_DENY_SEC : 0);
        }
    xmem_lds_blk b = blk(0, XMEM_DOM_RT, 2);
    xmem_actor a = actor(XMEM_DOM_CPU, 0, false, true);
    assert_int_equal(xmem_region_deny(&b, &a, false), XMEM_DENY_DOM | XMEM_DENY_SEC);
}

/* The actor: dom 0 = CAP.XMEM.DOM, 0 there = CPU; sec only with SEC_DOM, 3 = public. */
static void test_actor_of(void **state)
{
    fix *f = *state;
    xmem_actor a = xmem_actor_of(&f->s, 0, 2);
    assert_int_equal(a.dom, XMEM_DOM_CPU);
    assert_int_equal(a.sec, 0);
    assert_false(a.strict);
    set_xmem(&f->s, DOM, 3);
    set_xmem(&f->s, DESCPOL, STRICT);
    set_xmem(&f->s, XMEM_CAP, cap_snap_xmem(&f->s, XMEM_CAP) | SEC_DOM);
    a = xmem_actor_of(&f->s, 0, 2);
    assert_int_equal(a.dom, 3);
    assert_int_equal(a.sec, 2);
    assert_true(a.strict && a.sec_dom);
    assert_int_equal(xmem_actor_of(&f->s, XMEM_DOM_RT, 3).sec, 0);
    assert_int_equal(xmem_actor_of(&f->s, XMEM_DOM_RT, 3).dom, XMEM_DOM_RT);
}

/* Lookup: the containing region, exact bases only for xmem_lds_at. */
static void test_find(void **state)
{
    fix *f = *state;
    assert_null(xmem_lds_find(&f->l, BASE));
    xmem_lds_res a = xmem_lds_alloc(&f->l, &f->s, 32, 0x10);
    xmem_lds_res b = xmem_lds_alloc(&f->l, &f->s, 16, 0x10 | 6); /* 64-byte aligned */
    assert_int_equal(a.addr, BASE);
    assert_int_equal(b.addr, BASE + 64);
    assert_ptr_equal(xmem_lds_find(&f->l, BASE + 31), xmem_lds_find(&f->l, BASE));
    assert_null(xmem_lds_find(&f->l, BASE + 32));
    assert_null(xmem_lds_find(&f->l, BASE + 63));
    assert_int_equal(xmem_lds_find(&f->l, BASE + 64)->base, BASE + 64);
    assert_int_equal(xmem_lds_find(&f->l, BASE + 79)->base, BASE + 64);
    assert_null(xmem_lds_find(&f->l, BASE + 80));
    assert_null(xmem_lds_find(&f->l, BASE - 1));
    assert_null(xmem_lds_at(&f->l, BASE + 8));
    assert_non_null(xmem_lds_at(&f->l, BASE + 64));
    /* the defaults of an allocation: CAP.XMEM.DOM (0 = CPU), partition tier, public */
    assert_int_equal(xmem_region_word(xmem_lds_find(&f->l, BASE)), RGN(0, 0, 0, 0, 1, 0));
    set_xmem(&f->s, DOM, XMEM_DOM_RT);
    xmem_lds_res c = xmem_lds_alloc(&f->l, &f->s, 16, 0);
    assert_int_equal(xmem_region_word(xmem_lds_find(&f->l, c.addr)), RGN(1, 0, 0, 0, 2, 0));
}

static void memctl(uint8_t mc[XMEM_MEMCTL_BYTES], unsigned dom, unsigned mclass, unsigned sprof,
                   unsigned hyb, unsigned sec, unsigned tier)
{
    memset(mc, 0, XMEM_MEMCTL_BYTES);
    mc[0] = (uint8_t)dom;
    mc[16] = (uint8_t)mclass;
    mc[17] = (uint8_t)sprof;
    mc[18] = (uint8_t)hyb;
    mc[19] = (uint8_t)sec;
    mc[20] = (uint8_t)tier;
}

/* Overrides, zeros, unsupported values, refusals; the class budget follows mclass. */
static void test_apply(void **state)
{
    fix *f = *state;
    set_xmem(&f->s, XMEM_CAP, cap_snap_xmem(&f->s, XMEM_CAP) | SEC_DOM);
    set_xmem(&f->s, LDS_BUDGET, UINT64_C(1) << 48); /* CL3: 1 KiB */
    xmem_actor pub = xmem_actor_of(&f->s, 0, 0), sec2 = xmem_actor_of(&f->s, 0, 2);
    uint8_t mc[XMEM_MEMCTL_BYTES];
    uint64_t t1 = xmem_lds_alloc(&f->l, &f->s, 2048, 0).addr;
    assert_int_equal(t1, BASE + T0_SIZE);
    assert_int_equal(f->l.used[0], 2048);
    memctl(mc, XMEM_DOM_RT, 3, 2, 0, 1, 3);
    xmem_region_res r = xmem_region_apply(&f->l, t1, mc, &pub, &f->s);
    assert_int_equal(r.rd, RGN(3, 3, 1, 2, 2, 0));
    assert_int_equal(r.events, BUDGET_OVF);
    assert_int_equal(f->l.used[0], 0);
    assert_int_equal(f->l.used[3], 2048);
    /* unsupported: dom 7, mclass 4, sprof 4 (> MAX_SPROF 3), hyb 2, sec 3; zero: keep */
    memctl(mc, 7, 4, 4, 2, 3, 0);
    mc[1] = mc[2] = mc[3] = 0xff; /* hints */
    r = xmem_region_apply(&f->l, t1, mc, &sec2, &f->s);
    assert_int_equal(r.rd, RGN(3, 3, 1, 2, 2, 0));
    assert_int_equal(r.events, 0);
    /* a trusted region refuses the public actor (SEC_VIOL), not a secure one */
    memctl(mc, XMEM_DOM_CPU, 0, 0, 0, 0, 0);
    xmem_lds_blk before = *xmem_lds_at(&f->l, t1);
    r = xmem_region_apply(&f->l, t1, mc, &pub, &f->s);
    assert_int_equal(r.rd, 0);
    assert_int_equal(r.events, SEC_VIOL);
    assert_memory_equal(&before, xmem_lds_at(&f->l, t1), sizeof before);
    r = xmem_region_apply(&f->l, t1, mc, &sec2, &f->s);
    assert_int_equal(r.rd, RGN(3, 3, 1, 2, 1, 0));
    /* a Tier-0 region takes no T1-T3, and nothing changes */
    uint64_t t0 = xmem_lds_alloc(&f->l, &f->s, 16, 0x10).addr;
    memctl(mc, XMEM_DOM_RT, 0, 0, 0, 0, 1);
    r = xmem_region_apply(&f->l, t0, mc, &pub, &f->s);
    assert_int_equal(r.rd, 0);
    assert_int_equal(r.events, INV_MISS);
    assert_int_equal(xmem_region_word(xmem_lds_at(&f->l, t0)), RGN(0, 0, 0, 0, 1, 0));
    /* a wild base */
    r = xmem_region_apply(&f->l, t0 + 16, mc, &pub, &f->s);
    assert_int_equal(r.events, INV_MISS);
    /* free credits the class the region was moved to */
    assert_int_equal(xmem_lds_free(&f->l, t1), 0);
    assert_int_equal(f->l.used[3], 0);
}

/* The cache hints a descriptor leaves on a region (errata P-208..P-211): non-zero
 * l1_hint, qos, lds_softpin and a line_sz of 32/64/128 replace the region's; zero, other
 * line sizes, l2_hint and lds_hint (P-212, P-213) leave it as it was; the attribute word
 * never shows them. REQ: XMEM-058 XMEM-062 */
static void test_cache_hints(void **state)
{
    fix *f = *state;
    xmem_actor a = xmem_actor_of(&f->s, 0, 0);
    uint8_t mc[XMEM_MEMCTL_BYTES];
    uint64_t r1 = xmem_lds_alloc(&f->l, &f->s, 256, 0).addr;
    memctl(mc, 0, 0, 0, 0, 0, 0);
    mc[XMEM_MC_L1_HINT] = 0x0d; /* LOCK, NONTEMP, way 0 */
    mc[XMEM_MC_LINE_SZ] = 128;
    mc[XMEM_MC_QOS] = 0x34;
    mc[XMEM_MC_QOS + 1] = 0x12;
    mc[XMEM_MC_LDS_SOFTPIN] = 0x40;
    mc[XMEM_MC_LDS_SOFTPIN + 7] = 0x80;
    xmem_region_res r = xmem_region_apply(&f->l, r1, mc, &a, &f->s);
    assert_int_equal(r.rd, RGN(1, 0, 0, 0, 1, 0));
    const xmem_lds_blk *b = xmem_lds_at(&f->l, r1);
    assert_int_equal(b->l1_hint, 0x0d);
    assert_int_equal(b->line_sz, 128);
    assert_int_equal(b->qos, 0x1234);
    assert_int_equal(b->lds_softpin, UINT64_C(0x8000000000000040));
    /* zeros, line_sz 96 and 192, l2/lds hints: nothing changes */
    xmem_lds_blk before = *b;
    for (unsigned line = 0; line <= 256; line += 96) {
        memctl(mc, 0, 0, 0, 0, 0, 0);
        mc[XMEM_MC_L2_HINT] = mc[XMEM_MC_LDS_HINT] = 0xff;
        mc[XMEM_MC_LINE_SZ] = (uint8_t)line;
        mc[XMEM_MC_LINE_SZ + 1] = (uint8_t)(line >> 8);
        r = xmem_region_apply(&f->l, r1, mc, &a, &f->s);
        assert_int_equal(r.rd, RGN(1, 0, 0, 0, 1, 0));
        assert_memory_equal(&before, xmem_lds_at(&f->l, r1), sizeof before);
    }
    /* 32 and 64 are sizes */
    memctl(mc, 0, 0, 0, 0, 0, 0);
    mc[XMEM_MC_LINE_SZ] = 32;
    xmem_region_apply(&f->l, r1, mc, &a, &f->s);
    assert_int_equal(xmem_lds_at(&f->l, r1)->line_sz, 32);
    mc[XMEM_MC_LINE_SZ] = 64;
    xmem_region_apply(&f->l, r1, mc, &a, &f->s);
    assert_int_equal(xmem_lds_at(&f->l, r1)->line_sz, 64);
}

/* hyb = 1: CL2 when allowed, HYB_FALLBK otherwise (class kept); without CLASS_PART the
 * class stays CL0 and mclass is ignored. */
static void test_hyb_and_class_part(void **state)
{
    fix *f = *state;
    xmem_actor a = xmem_actor_of(&f->s, 0, 0);
    uint8_t mc[XMEM_MEMCTL_BYTES];
    uint64_t r1 = xmem_lds_alloc(&f->l, &f->s, 16, 0).addr;
    memctl(mc, 0, 0, 0, 1, 0, 0);
    xmem_region_res r = xmem_region_apply(&f->l, r1, mc, &a, &f->s); /* CL2 has no ways */
    assert_int_equal(r.rd, RGN(1, 0, 0, 0, 1, 1));
    assert_int_equal(r.events, HYB_FALLBK);
    set_xmem(&f->s, 0x7E3, 0xF0000F); /* CLSMAP: CL2 ways 4-7 */
    r = xmem_region_apply(&f->l, r1, mc, &a, &f->s);
    assert_int_equal(r.rd, RGN(1, 2, 0, 0, 1, 1));
    assert_int_equal(r.events, 0);
    set_xmem(&f->s, XMEM_CAP, cap_snap_xmem(&f->s, XMEM_CAP) & ~CLASS_PART);
    uint64_t r2 = xmem_lds_alloc(&f->l, &f->s, 16, 0).addr;
    memctl(mc, 0, 3, 0, 1, 0, 0);
    r = xmem_region_apply(&f->l, r2, mc, &a, &f->s);
    assert_int_equal(r.rd, RGN(1, 0, 0, 0, 1, 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_deny_domains),
        cmocka_unit_test(test_deny_security),
        cmocka_unit_test_setup_teardown(test_actor_of, setup, teardown),
        cmocka_unit_test_setup_teardown(test_find, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cache_hints, setup, teardown),
        cmocka_unit_test_setup_teardown(test_apply, setup, teardown),
        cmocka_unit_test_setup_teardown(test_hyb_and_class_part, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
