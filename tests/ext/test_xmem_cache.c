/* test_xmem_cache.c — the tag-only L1 model of `xmem.ldg/stg/pref/cctl` (errata Q-54;
 * src/ext/xmem/xmem_cache.h) without a hart. Geometry values are written out from
 * errata Q-38/Q-39 (CAP.XMEM.CAP: L1 bit 1; PARAMS: L1_LINE_LOG2 19:16, L1_WAYS 27:20)
 * and the project's fixed 32 KiB capacity (docs/xmem.md "Caches and streaming"):
 * sets = 32768 / (ways * line), rounded down to a power of two, at least 1. Every
 * expected residency, lock count and statistic is computed by hand in the comments.
 * The guest tests (arch.xmem.cache_ops, arch.xmem.cache_minimal) check the
 * architectural side (data, faults, LOCK_OVF, partition, stream).
 * Requirements: XMEM-098 (inv/flush/lock/unlock operate on the cache: what each does to
 * the tags), XMEM-089 (hints reach statistics only: no state a hint alone changes).
 * REQ: XMEM-098 XMEM-089 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "xmem_cache.h"

#define CAP_DEFAULT 0x677u /* L1 (bit 1) set */
#define CAP_NO_L1   0x675u
/* PARAMS with L1_WAYS w and L1_LINE_LOG2 l (LDS_KIB and MAX_SPROF do not matter) */
#define PARAMS(w, l) (((uint64_t)(w) << 20) | ((uint64_t)(l) << 16))

static void test_geometry(void **state)
{
    (void)state;
    xmem_cache c;
    /* default 0x30860040: 8 ways, 64 B -> 32768 / 512 = 64 sets */
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, 0x30860040u), 0);
    assert_int_equal(c.sets, 64);
    assert_int_equal(c.ways, 8);
    assert_int_equal(c.line_log2, 6);
    /* set = (a >> 6) mod 64: 0x1040 -> line 0x41 -> set 1; 0x1000 apart: same set */
    assert_int_equal(xmem_cache_set_of(&c, 0x1040), 1);
    assert_int_equal(xmem_cache_set_of(&c, 0x2040), 1);
    xmem_cache_fini(&c);
    /* minimal: 4 ways, 64 B -> 32768 / 256 = 128 sets */
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(4, 6)), 0);
    assert_int_equal(c.sets, 128);
    xmem_cache_fini(&c);
    /* 3 ways of 64 B: 32768 / 192 = 170 -> 128 */
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(3, 6)), 0);
    assert_int_equal(c.sets, 128);
    xmem_cache_fini(&c);
    /* 255 ways of 32 KiB lines: more than the capacity -> 1 set */
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(255, 15)), 0);
    assert_int_equal(c.sets, 1);
    assert_int_equal(c.ways, 255);
    xmem_cache_fini(&c);
    /* no L1 bit, or 0 ways: no sets */
    assert_int_equal(xmem_cache_init(&c, CAP_NO_L1, 0x30860040u), 0);
    assert_int_equal(c.sets, 0);
    xmem_cache_fini(&c);
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(0, 6)), 0);
    assert_int_equal(c.sets, 0);
    xmem_cache_fini(&c);
}

static void test_no_l1(void **state)
{
    (void)state;
    xmem_cache c;
    unsigned f;
    assert_int_equal(xmem_cache_init(&c, CAP_NO_L1, 0x30860040u), 0);
    xmem_cache_access(&c, 0x1000, 8, true, 0);
    assert_false(xmem_cache_probe(&c, 0x1000, &f));
    assert_int_equal(c.st.misses, 0); /* nothing is looked up */
    /* nothing can be locked: any non-empty lock overflows, an empty one does not */
    assert_true(xmem_cache_lock(&c, 0x1000, 1));
    assert_false(xmem_cache_lock(&c, 0x1000, 0));
    xmem_cache_inv(&c, 0, UINT64_MAX);
    xmem_cache_fini(&c);
}

/* 2 ways of 64 B: 32768 / 128 = 256 sets, lines 256 * 64 = 0x4000 apart share a set. */
static void test_lru_and_dirty(void **state)
{
    (void)state;
    xmem_cache c;
    unsigned f;
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(2, 6)), 0);
    assert_int_equal(c.sets, 256);
    xmem_cache_access(&c, 0x8000, 8, false, 0);  /* A: miss */
    xmem_cache_access(&c, 0xC000, 8, true, 0);   /* B: miss, dirty */
    xmem_cache_access(&c, 0x8008, 8, false, 0);  /* A: hit, now most recent */
    xmem_cache_access(&c, 0x10000, 8, false, 0); /* C: miss, evicts B (LRU, dirty) */
    assert_true(xmem_cache_probe(&c, 0x8000, &f));
    assert_int_equal(f, XMEM_CACHE_V);
    assert_false(xmem_cache_probe(&c, 0xC000, &f));
    assert_true(xmem_cache_probe(&c, 0x10000, &f));
    assert_int_equal(c.st.hits, 1);
    assert_int_equal(c.st.misses, 3);
    assert_int_equal(c.st.fills, 3);
    assert_int_equal(c.st.evictions, 1);
    assert_int_equal(c.st.writebacks, 1);
    /* an 8-byte access at 0x803C crosses into line 0x8040: both lines, 1 hit + 1 miss */
    xmem_cache_access(&c, 0x803C, 8, true, 0);
    assert_int_equal(c.st.hits, 2);
    assert_int_equal(c.st.misses, 4);
    assert_true(xmem_cache_probe(&c, 0x8040, &f));
    assert_int_equal(f, XMEM_CACHE_V | XMEM_CACHE_D);
    /* flush: written back, kept; inv: dropped */
    xmem_cache_flush(&c, 0x8000, 0x80);
    assert_int_equal(c.st.writebacks, 3); /* 0x8000 and 0x8040 were dirty */
    assert_true(xmem_cache_probe(&c, 0x8040, &f));
    assert_int_equal(f, XMEM_CACHE_V);
    xmem_cache_inv(&c, 0x8040, 1);
    assert_false(xmem_cache_probe(&c, 0x8040, &f));
    assert_true(xmem_cache_probe(&c, 0x8000, &f)); /* outside [0x8040, 0x8041) */
    assert_int_equal(c.st.invalidations, 1);
    xmem_cache_inv(&c, 0, UINT64_MAX); /* everything: 0x8000 and 0x10000 */
    assert_int_equal(c.st.invalidations, 3);
    assert_false(xmem_cache_probe(&c, 0x10000, &f));
    xmem_cache_fini(&c);
}

/* 4 ways of 64 B: 128 sets, set stride 128 * 64 = 0x2000, 3 lockable lines per set. */
static void test_lock_counting(void **state)
{
    (void)state;
    xmem_cache c;
    unsigned f;
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(4, 6)), 0);
    for (unsigned k = 0; k < 3; k++)
        assert_false(xmem_cache_lock(&c, 0x100000 + k * 0x2000, 64));
    assert_int_equal(xmem_cache_locked_in(&c, 0), 3);
    assert_true(xmem_cache_probe(&c, 0x104000, &f));
    assert_int_equal(f, XMEM_CACHE_V | XMEM_CACHE_L);
    /* the 4th line of set 0 is refused and not brought in */
    assert_true(xmem_cache_lock(&c, 0x106000, 8));
    assert_false(xmem_cache_probe(&c, 0x106000, &f));
    assert_int_equal(c.st.lock_overflows, 1);
    /* relocking is no new lock */
    assert_false(xmem_cache_lock(&c, 0x100000, 1));
    assert_int_equal(xmem_cache_locked_in(&c, 0), 3);
    /* five more lines of set 0 cycle through the one unlocked way; locks stay */
    for (unsigned k = 4; k < 9; k++)
        xmem_cache_access(&c, 0x100000 + k * 0x2000, 8, false, 0);
    for (unsigned k = 0; k < 3; k++)
        assert_true(xmem_cache_probe(&c, 0x100000 + k * 0x2000, &f));
    assert_true(xmem_cache_probe(&c, 0x100000 + 8 * 0x2000, &f));
    assert_false(xmem_cache_probe(&c, 0x100000 + 7 * 0x2000, &f));
    /* inv keeps locked lines (written back only) */
    xmem_cache_inv(&c, 0, UINT64_MAX);
    assert_true(xmem_cache_probe(&c, 0x102000, &f));
    assert_int_equal(f, XMEM_CACHE_V | XMEM_CACHE_L);
    assert_false(xmem_cache_probe(&c, 0x100000 + 8 * 0x2000, &f));
    /* unlock one: it stays resident, unlocked; now the 4th line locks */
    xmem_cache_unlock(&c, 0x102000, 1);
    assert_true(xmem_cache_probe(&c, 0x102000, &f));
    assert_int_equal(f, XMEM_CACHE_V);
    assert_int_equal(xmem_cache_locked_in(&c, 0), 2);
    assert_false(xmem_cache_lock(&c, 0x106000, 8));
    assert_int_equal(xmem_cache_locked_in(&c, 0), 3);
    /* a range over two sets: lines 0x100040 (set 1) and 0x100080 (set 2) */
    assert_false(xmem_cache_lock(&c, 0x100070, 0x20));
    assert_int_equal(xmem_cache_locked_in(&c, 1), 1);
    assert_int_equal(xmem_cache_locked_in(&c, 2), 1);
    xmem_cache_reset(&c);
    assert_int_equal(xmem_cache_locked_in(&c, 0), 0);
    assert_false(xmem_cache_probe(&c, 0x100000, &f));
    assert_int_equal(c.st.lock_overflows, 0);
    xmem_cache_fini(&c);
}

static void test_lock_huge_and_clamp(void **state)
{
    (void)state;
    xmem_cache c;
    unsigned f;
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(4, 6)), 0);
    /* the whole address space: every set ends with 3 locked lines, and it overflows */
    assert_true(xmem_cache_lock(&c, 0, UINT64_MAX));
    for (unsigned s = 0; s < 128; s++)
        assert_int_equal(xmem_cache_locked_in(&c, s), 3);
    /* the walk stops after sets * ways = 512 lines: 128 of them refused */
    assert_int_equal(c.st.lock_overflows, 128);
    xmem_cache_unlock(&c, 0, UINT64_MAX);
    for (unsigned s = 0; s < 128; s++)
        assert_int_equal(xmem_cache_locked_in(&c, s), 0);
    /* [2^64 - 11, 2^64 - 11 + 100) is clamped at 2^64: one line, the last (set 127) */
    assert_false(xmem_cache_lock(&c, UINT64_MAX - 10, 100));
    assert_true(xmem_cache_probe(&c, UINT64_MAX, &f));
    assert_int_equal(f, XMEM_CACHE_V | XMEM_CACHE_L);
    assert_int_equal(xmem_cache_locked_in(&c, 127), 1);
    xmem_cache_fini(&c);
    /* 1 way: no line can ever be locked (ways - 1 = 0) */
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(1, 6)), 0);
    assert_true(xmem_cache_lock(&c, 0x1000, 1));
    assert_int_equal(xmem_cache_locked_in(&c, xmem_cache_set_of(&c, 0x1000)), 0);
    xmem_cache_fini(&c);
}

static bool even_lines(void *ctx, uint64_t la)
{
    (void)ctx;
    return ((la >> 6) & 1) == 0;
}

static void test_prefetch_and_hints(void **state)
{
    (void)state;
    xmem_cache c;
    unsigned f;
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, 0x30860040u), 0);
    /* [0x2000, 0x2100): lines 0x2000, 0x2040, 0x2080, 0x20C0; only even line numbers
     * (0x80, 0x82) are "readable" */
    xmem_cache_prefetch(&c, 0x2000, 0x100, 0x20, even_lines, NULL);
    assert_true(xmem_cache_probe(&c, 0x2000, &f));
    assert_false(xmem_cache_probe(&c, 0x2040, &f));
    assert_true(xmem_cache_probe(&c, 0x2080, &f));
    assert_false(xmem_cache_probe(&c, 0x20C0, &f));
    assert_int_equal(c.st.prefetches, 4);
    assert_int_equal(c.st.fills, 2);
    assert_int_equal(c.st.hinted[5], 1); /* STREAM */
    /* a huge prefetch walks at most sets * ways = 512 lines */
    xmem_cache_prefetch(&c, 0, UINT64_MAX, 0, NULL, NULL);
    assert_int_equal(c.st.prefetches, 4 + 512);
    /* hints: statistics only — the same access with and without hints leaves the same
     * tag state (0x3000 resident, clean) */
    xmem_cache_reset(&c);
    xmem_cache_access(&c, 0x3000, 8, false, 0x3f);
    assert_true(xmem_cache_probe(&c, 0x3000, &f));
    assert_int_equal(f, XMEM_CACHE_V);
    for (unsigned b = 0; b < 6; b++)
        assert_int_equal(c.st.hinted[b], 1);
    /* an empty prefetch touches nothing */
    xmem_cache_prefetch(&c, 0x5000, 0, 0, NULL, NULL);
    assert_false(xmem_cache_probe(&c, 0x5000, &f));
    xmem_cache_fini(&c);
}

/* CAP.XMEM.CAP with WAY_PART 4, CLASS_PART 9, NONTEMP 6, STREAM_PROF 10. */
#define CAP_POLICY (CAP_DEFAULT | 0x40u)

static bool not_0x10200(void *ctx, uint64_t line_addr)
{
    (void)ctx;
    return line_addr != 0x10200;
}
#define L1CFG_CLASS(n) ((uint64_t)(n) << 24)

/* The policy from CAP state (XMEM 5.3): the active class's way mask (ways 8+ shared,
 * every way without WAY_PART, CL0 without CLASS_PART), L2_ONLY, NONTEMP (only with the
 * NONTEMP capability), STREAM with STREAM_CTL (only with STREAM_PROF), SPROF fields.
 * REQ: XMEM-051 XMEM-050 XMEM-055 */
static void test_policy(void **state)
{
    (void)state;
    xmem_cache c;
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(12, 6)), 0);
    xmem_cache_pol p = xmem_cache_policy(&c, CAP_POLICY, L1CFG_CLASS(1), 0x03F0, 0, 0);
    assert_int_equal(p.waymask, 0xF03); /* CL1 = ways 0-1, ways 8-11 shared */
    p = xmem_cache_policy(&c, CAP_POLICY & ~0x200u, L1CFG_CLASS(1), 0x03F0, 0, 0);
    assert_int_equal(p.waymask, 0xFF0); /* no CLASS_PART: CL0 */
    p = xmem_cache_policy(&c, CAP_POLICY & ~0x10u, L1CFG_CLASS(1), 0x03F0, 0, 0);
    assert_int_equal(p.waymask, 0xFFF); /* no WAY_PART: every way */
    assert_false(p.no_alloc || p.nontemp || p.stream_depth);
    p = xmem_cache_policy(&c, CAP_POLICY, 0, 0xFF, 0, 0x02 | 0x08);
    assert_true(p.no_alloc);
    assert_true(p.nontemp);
    p = xmem_cache_policy(&c, CAP_POLICY & ~0x40u, 0, 0xFF, 0, 0x08);
    assert_false(p.nontemp); /* NONTEMP absent: the hint is ignored */
    /* STREAM_CTL: STRIDE 15:0, PF_DEPTH 23:16, NONTEMP_EN 24 */
    p = xmem_cache_policy(&c, CAP_POLICY, 0, 0xFF, 0x1050200, 0x20);
    assert_int_equal(p.stream_stride, 0x200);
    assert_int_equal(p.stream_depth, 5);
    assert_true(p.nontemp);
    p = xmem_cache_policy(&c, CAP_POLICY, 0, 0xFF, 0x1050200, 0);
    assert_int_equal(p.stream_depth, 0); /* no STREAM hint */
    p = xmem_cache_policy(&c, CAP_POLICY & ~0x400u, 0, 0xFF, 0x1050200, 0x20);
    assert_int_equal(p.stream_depth, 0); /* no STREAM_PROF */
    /* SPROFn: STRIDE 15:0, PF_DEPTH 23:16, NT_POLICY 27:24 */
    xmem_cache_pol_sprof(&p, 0x2070040);
    assert_int_equal(p.stream_stride, 0x40);
    assert_int_equal(p.stream_depth, 7);
    assert_true(p.nontemp);
    xmem_cache_pol_sprof(&p, 0x0010000);
    assert_false(p.nontemp);
    xmem_cache_fini(&c);
}

/* Fills obey the way mask; an empty mask or all-locked class bypasses; lookups hit in
 * any way; a stream fetches depth lines stride apart (0 = one line) where ok() allows;
 * non-temporal fills are the next victim. 2 ways of 64 B: 256 sets, 0x4000 apart share
 * a set. REQ: XMEM-086 XMEM-089 */
static void test_masks_streams_nontemp(void **state)
{
    (void)state;
    xmem_cache c;
    unsigned f;
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(2, 6)), 0);
    xmem_cache_pol one = xmem_cache_pol_all(&c);
    one.waymask = 1;
    xmem_cache_set_policy(&c, &one);
    xmem_cache_access(&c, 0x0, 8, false, 0);
    xmem_cache_access(&c, 0x4000, 8, false, 0); /* same set, way 0 again: evicts 0x0 */
    assert_false(xmem_cache_probe(&c, 0x0, &f));
    assert_int_equal(c.st.evictions, 1);
    xmem_cache_pol none = one;
    none.waymask = 0;
    xmem_cache_set_policy(&c, &none);
    xmem_cache_access(&c, 0x4000, 8, false, 0); /* resident: hits though not in mask */
    assert_int_equal(c.st.hits, 1);
    xmem_cache_access(&c, 0x8000, 8, true, 0);
    assert_false(xmem_cache_probe(&c, 0x8000, &f));
    assert_int_equal(c.st.bypasses, 1);
    /* a lock through an empty mask overflows without a fill */
    assert_true(xmem_cache_lock(&c, 0xC000, 1));
    assert_int_equal(c.st.locked, 0);
    /* stream: depth 3, stride 0x100 after an access at 0x10000; 0x10200 refused */
    xmem_cache_reset(&c);
    xmem_cache_pol st = xmem_cache_pol_all(&c);
    st.stream_depth = 3;
    st.stream_stride = 0x100;
    xmem_cache_set_policy(&c, &st);
    xmem_cache_stream(&c, 0x10000, not_0x10200, NULL);
    assert_true(xmem_cache_probe(&c, 0x10100, &f));
    assert_false(xmem_cache_probe(&c, 0x10200, &f));
    assert_true(xmem_cache_probe(&c, 0x10300, &f));
    assert_false(xmem_cache_probe(&c, 0x10040, &f));
    assert_int_equal(c.st.stream_prefetches, 3);
    st.stream_stride = 0; /* one line */
    st.stream_depth = 1;
    xmem_cache_set_policy(&c, &st);
    xmem_cache_stream(&c, 0x20000, NULL, NULL);
    assert_true(xmem_cache_probe(&c, 0x20040, &f));
    /* non-temporal: A temporal, B non-temporal, C evicts B */
    xmem_cache_reset(&c);
    xmem_cache_pol nt = xmem_cache_pol_all(&c);
    nt.nontemp = true;
    xmem_cache_access(&c, 0x0, 8, false, 0);
    xmem_cache_set_policy(&c, &nt);
    xmem_cache_access(&c, 0x4000, 8, false, 0);
    xmem_cache_pol all = xmem_cache_pol_all(&c);
    xmem_cache_set_policy(&c, &all);
    xmem_cache_access(&c, 0x8000, 8, false, 0);
    assert_true(xmem_cache_probe(&c, 0x0, &f));
    assert_false(xmem_cache_probe(&c, 0x4000, &f));
    assert_int_equal(c.st.nontemp_fills, 1);
    /* no allocation */
    xmem_cache_pol na = all;
    na.no_alloc = true;
    xmem_cache_set_policy(&c, &na);
    xmem_cache_access(&c, 0x100000, 8, false, 0);
    assert_false(xmem_cache_probe(&c, 0x100000, &f));
    xmem_cache_fini(&c);
}

/* A region's descriptor hints on the policy (errata P-208..P-211): STREAM and NONTEMP
 * as instruction hints; WAYMASK only with WAY_PART; LOCK only with LINE_LOCK and
 * LOCK_EN, best effort within ways - 1 per set, counted, never reported; line_sz as a
 * block of lines (never below one line); soft-pinned lines are the last victims, then
 * the lower qos, then LRU. REQ: XMEM-058 XMEM-089 */
static void test_memctl_hints(void **state)
{
    (void)state;
    xmem_cache c;
    unsigned f;
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(2, 6)), 0);
    xmem_cache_memctl m = {XMEM_MEMCTL_L1_STREAM, 0, 0, 0, 0};
    assert_int_equal(xmem_cache_memctl_hint(&m), XMEM_HINT_STREAM);
    m.l1_hint = XMEM_MEMCTL_L1_NONTEMP;
    assert_int_equal(xmem_cache_memctl_hint(&m), XMEM_HINT_NONTEMP);
    m.l1_hint = XMEM_MEMCTL_L1_LOCK | (2u << XMEM_MEMCTL_L1_WAY_SHIFT);
    assert_int_equal(xmem_cache_memctl_hint(&m), 0);
    const uint64_t lock_en = UINT64_C(1) << 20, way_part = 0x10, line_lock = 0x20;
    xmem_cache_pol p = xmem_cache_pol_all(&c);
    xmem_cache_pol_memctl(&p, &c, &m, CAP_DEFAULT, lock_en);
    assert_int_equal(p.waymask, 2);
    assert_true(p.lock_fill);
    p = xmem_cache_pol_all(&c);
    xmem_cache_pol_memctl(&p, &c, &m, CAP_DEFAULT & ~(way_part | line_lock), lock_en);
    assert_int_equal(p.waymask, 3);
    assert_false(p.lock_fill);
    xmem_cache_pol_memctl(&p, &c, &m, CAP_DEFAULT, 0);
    assert_false(p.lock_fill);
    /* line sizes over 64-byte lines: 128 = 2 lines, 64 and 32 = 1, 96 nothing */
    const unsigned sizes[] = {128, 64, 32, 96, 256}, log2s[] = {1, 0, 0, 0, 0};
    for (unsigned i = 0; i < 5; i++) {
        m.line_sz = sizes[i];
        xmem_cache_pol_memctl(&p, &c, &m, CAP_DEFAULT, 0);
        assert_int_equal(p.fill_log2, log2s[i]);
    }
    /* locks: the second line of a 2-way set is refused (ways - 1 = 1), no return value */
    p = xmem_cache_pol_all(&c);
    p.lock_fill = true;
    xmem_cache_set_policy(&c, &p);
    xmem_cache_access(&c, 0x0, 8, false, 0);
    xmem_cache_access(&c, 0x4000, 8, false, 0);
    assert_int_equal(c.st.locked, 1);
    assert_int_equal(c.st.lock_overflows, 1);
    assert_true(xmem_cache_probe(&c, 0x0, &f));
    assert_int_equal(f, XMEM_CACHE_V | XMEM_CACHE_L);
    /* a block fill: one miss, two fills, the other line resident; a hit fills nothing */
    xmem_cache_reset(&c);
    p = xmem_cache_pol_all(&c);
    p.fill_log2 = 1;
    xmem_cache_set_policy(&c, &p);
    xmem_cache_access(&c, 0x1c0, 8, true, 0);
    assert_int_equal(c.st.misses, 1);
    assert_int_equal(c.st.fills, 2);
    assert_true(xmem_cache_probe(&c, 0x180, &f));
    assert_int_equal(f, XMEM_CACHE_V); /* only the written line is dirty */
    assert_true(xmem_cache_probe(&c, 0x1c0, &f));
    assert_int_equal(f, XMEM_CACHE_V | XMEM_CACHE_D);
    xmem_cache_access(&c, 0x180, 8, false, 0);
    assert_int_equal(c.st.fills, 2);
    /* victims: A pinned qos 0 (oldest), B qos 9, C qos 3 (newest); D evicts C (lowest
     * qos of the unpinned), E then evicts B, A stays */
    xmem_cache_reset(&c);
    xmem_cache_fini(&c);
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(4, 6)), 0);
    const uint64_t set_step = (uint64_t)c.sets << 6;
    p = xmem_cache_pol_all(&c);
    p.pin_lo = 0;
    p.pin_hi = 64;
    xmem_cache_set_policy(&c, &p);
    xmem_cache_access(&c, 0, 8, false, 0);
    assert_true(xmem_cache_probe(&c, 0, &f));
    assert_int_equal(f, XMEM_CACHE_V | XMEM_CACHE_P);
    p = xmem_cache_pol_all(&c);
    p.qos = 9;
    xmem_cache_set_policy(&c, &p);
    xmem_cache_access(&c, set_step, 8, false, 0);
    p.qos = 3;
    xmem_cache_set_policy(&c, &p);
    xmem_cache_access(&c, 2 * set_step, 8, false, 0);
    p.qos = 3;
    xmem_cache_set_policy(&c, &p);
    xmem_cache_access(&c, 3 * set_step, 8, false, 0); /* the set is full now */
    xmem_cache_access(&c, 4 * set_step, 8, false, 0); /* evicts 2 * step (qos 3, older) */
    assert_false(xmem_cache_probe(&c, 2 * set_step, &f));
    assert_true(xmem_cache_probe(&c, 3 * set_step, &f));
    xmem_cache_access(&c, 5 * set_step, 8, false, 0); /* evicts 3 * step */
    xmem_cache_access(&c, 6 * set_step, 8, false, 0); /* evicts 4 * step */
    xmem_cache_access(&c, 7 * set_step, 8, false, 0); /* evicts 5 * step */
    p.qos = 0;
    xmem_cache_set_policy(&c, &p);
    xmem_cache_access(&c, 8 * set_step, 8, false, 0); /* qos 0 < 3: evicts 6 * step */
    assert_false(xmem_cache_probe(&c, 6 * set_step, &f));
    xmem_cache_access(&c, 9 * set_step, 8, false, 0); /* evicts 8 * step (qos 0) */
    assert_false(xmem_cache_probe(&c, 8 * set_step, &f));
    assert_true(xmem_cache_probe(&c, 0, &f));        /* pinned, oldest, qos 0 */
    assert_true(xmem_cache_probe(&c, set_step, &f)); /* qos 9 */
    /* a hit re-marks the line with the current policy: 0 loses its pin */
    xmem_cache_access(&c, 0, 8, false, 0);
    assert_true(xmem_cache_probe(&c, 0, &f));
    assert_int_equal(f, XMEM_CACHE_V);
    xmem_cache_fini(&c);
}

/* 64 ways: the all-ways policy names every one of them (a 64-bit mask), so fills go
 * on; hint bits above STREAM are counted nowhere and change nothing else. REQ: XMEM-089 */
static void test_64_ways_and_hint_bits(void **state)
{
    (void)state;
    xmem_cache c;
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(64, 6)), 0);
    assert_true(xmem_cache_pol_all(&c).waymask == ~UINT64_C(0));
    xmem_cache_access(&c, 0x0, 8, false, 0);
    assert_int_equal(c.st.fills, 1);
    xmem_cache_pol before = c.pol;
    xmem_cache_access(&c, 0x40, 8, false, 0xffu);
    for (unsigned b = 0; b < 6; b++)
        assert_int_equal(c.st.hinted[b], 1);
    assert_memory_equal(&before, &c.pol, sizeof before);
    xmem_cache_fini(&c);
}

/* fini leaves an empty model (no sets, no arrays) that a second fini leaves alone, and
 * a model without an L1 never allocated anything. */
static void test_fini(void **state)
{
    (void)state;
    xmem_cache c;
    unsigned f;
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(8, 6)), 0);
    xmem_cache_access(&c, 0x40, 8, true, 0);
    f = 7;
    assert_false(xmem_cache_probe(&c, 0x80, &f));
    assert_int_equal(f, 0);
    xmem_cache_fini(&c);
    assert_int_equal(c.sets, 0);
    assert_int_equal(c.ways, 0);
    assert_null(c.tag);
    assert_null(c.flag);
    assert_null(c.age);
    assert_null(c.qos);
    assert_null(c.nlocked);
    f = 7;
    assert_false(xmem_cache_probe(&c, 0x40, &f));
    assert_int_equal(f, 0); /* a failed probe reports no flags */
    xmem_cache_fini(&c);
    assert_int_equal(xmem_cache_init(&c, CAP_NO_L1, PARAMS(8, 6)), 0);
    assert_null(c.tag);
    xmem_cache_fini(&c);
}

/* Replacement details of the model (docs/xmem.md): ways 64 and up, which no way-mask bit
 * names, are usable by every policy; a non-temporal fill is older than every temporal
 * line of its set, and among non-temporal lines (equal ages) the lowest way is the
 * victim. REQ: XMEM-086 */
static void test_replacement_details(void **state)
{
    (void)state;
    xmem_cache c;
    unsigned f;
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(72, 6)), 0);
    assert_int_equal(c.sets, 4);
    const uint64_t step = (uint64_t)c.sets << 6;
    xmem_cache_pol p = xmem_cache_pol_all(&c);
    p.waymask = ~UINT64_C(1); /* every way but way 0: 71 ways, 64..71 included */
    xmem_cache_set_policy(&c, &p);
    for (uint64_t k = 0; k < 71; k++)
        xmem_cache_access(&c, k * step, 8, false, 0);
    assert_int_equal(c.st.evictions, 0);
    xmem_cache_access(&c, 71 * step, 8, false, 0);
    assert_int_equal(c.st.evictions, 1);
    assert_false(xmem_cache_probe(&c, 0, &f)); /* the least recently used went */
    xmem_cache_fini(&c);
    /* 2 ways: X (way 0) and Y (way 1) both non-temporal; Z evicts X, the lower way */
    assert_int_equal(xmem_cache_init(&c, CAP_DEFAULT, PARAMS(2, 6)), 0);
    p = xmem_cache_pol_all(&c);
    p.nontemp = true;
    xmem_cache_set_policy(&c, &p);
    xmem_cache_access(&c, 0x0, 8, false, 0);
    xmem_cache_access(&c, 0x4000, 8, false, 0);
    xmem_cache_access(&c, 0x8000, 8, false, 0);
    assert_false(xmem_cache_probe(&c, 0x0, &f));
    assert_true(xmem_cache_probe(&c, 0x4000, &f));
    /* a non-temporal fill into a way that held a newer line (B, invalidated) is still
     * older than the temporal A: Z evicts it, not A */
    xmem_cache_reset(&c);
    xmem_cache_pol all = xmem_cache_pol_all(&c);
    xmem_cache_set_policy(&c, &all);
    xmem_cache_access(&c, 0x0, 8, false, 0);    /* A, way 0 */
    xmem_cache_access(&c, 0x4000, 8, false, 0); /* B, way 1, newer */
    xmem_cache_inv(&c, 0x4000, 1);
    xmem_cache_set_policy(&c, &p);
    xmem_cache_access(&c, 0x8000, 8, false, 0); /* X, way 1, non-temporal */
    xmem_cache_set_policy(&c, &all);
    xmem_cache_access(&c, 0xC000, 8, false, 0); /* Z */
    assert_false(xmem_cache_probe(&c, 0x8000, &f));
    assert_true(xmem_cache_probe(&c, 0x0, &f));
    xmem_cache_fini(&c);
}

static void test_stat_order(void **state)
{
    (void)state;
    /* The guest-visible order of errata P-221 (CSRs 0xCC0..0xCD1), written out. */
    static const char *const names[XMEM_CACHE_NSTATS] = {
        "hits",         "misses",        "fills",          "evictions",
        "writebacks",   "invalidations", "prefetches",     "stream_prefetches",
        "bypasses",     "nontemp_fills", "lock_overflows", "locked",
        "hint_l1_only", "hint_l2_only",  "hint_lds_pref",  "hint_nontemp",
        "hint_lock",    "hint_stream"};
    xmem_cache_stats st = {0};
    st.hits = 1;
    st.misses = 2;
    st.fills = 3;
    st.evictions = 4;
    st.writebacks = 5;
    st.invalidations = 6;
    st.prefetches = 7;
    st.stream_prefetches = 8;
    st.bypasses = 9;
    st.nontemp_fills = 10;
    st.lock_overflows = 11;
    st.locked = 12;
    for (unsigned b = 0; b < 6; b++)
        st.hinted[b] = 13 + b;
    for (unsigned i = 0; i < XMEM_CACHE_NSTATS; i++) {
        assert_string_equal(xmem_cache_stat_name(i), names[i]);
        assert_int_equal(xmem_cache_stat(&st, i), i + 1);
    }
    assert_null(xmem_cache_stat_name(XMEM_CACHE_NSTATS));
    assert_int_equal(xmem_cache_stat(&st, XMEM_CACHE_NSTATS), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry),
        cmocka_unit_test(test_no_l1),
        cmocka_unit_test(test_lru_and_dirty),
        cmocka_unit_test(test_lock_counting),
        cmocka_unit_test(test_lock_huge_and_clamp),
        cmocka_unit_test(test_prefetch_and_hints),
        cmocka_unit_test(test_policy),
        cmocka_unit_test(test_masks_streams_nontemp),
        cmocka_unit_test(test_memctl_hints),
        cmocka_unit_test(test_replacement_details),
        cmocka_unit_test(test_64_ways_and_hint_bits),
        cmocka_unit_test(test_fini),
        cmocka_unit_test(test_stat_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
