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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_geometry),
        cmocka_unit_test(test_no_l1),
        cmocka_unit_test(test_lru_and_dirty),
        cmocka_unit_test(test_lock_counting),
        cmocka_unit_test(test_lock_huge_and_clamp),
        cmocka_unit_test(test_prefetch_and_hints),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
