/* test_rt_job_cache.c — the offload engine's node cache generation counter, white-box: it
 * includes src/ext/rt/rt_job.c to reach the static cache functions. A counter that wraps
 * after 2^32 - 1 generations (a job start, or a job's store over what its cache holds,
 * starts one) cannot be reached through the engine's API in a test's time. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "../../src/ext/rt/rt_job.c"

/* A node cache as cache_init makes it at its smallest size (generation 2), then `gens`
 * new generations. */
static void cache_up(node_cache *nc, unsigned gens)
{
    memset(nc, 0, sizeof *nc);
    assert_true(cache_init(nc, CACHE_MIN_BITS));
    for (unsigned k = 0; k < gens; k++)
        cache_new_gen(nc);
}

/* Generations are even (an odd one marks an entry being filled by a split job's thread).
 * A new generation after the last one (2^32 - 2) restarts the counter at 2 with every node
 * and leaf tag back at generation 0 (an entry no generation matches), so no entry of an old
 * generation reads as current: a counter left at 0 would take the cleared tags for current
 * ones. The address range and eviction count restart as for any generation. */
static void test_generation_wrap(void **st)
{
    (void)st;
    node_cache nc;
    cache_up(&nc, 0);
    assert_int_equal(nc.gen, 2);
    const uint32_t last = UINT32_MAX - 1;
    nc.gen = last;
    nc.node[0].cache_addr = 0x1000;
    nc.node[0].cache_gen = last;
    nc.node[nc.mask].cache_addr = 0x2000;
    nc.node[nc.mask].cache_gen = 6;
    nc.leaf[0].addr = 0x3000;
    nc.leaf[0].gen = last;
    nc.leaf[nc.lmask].addr = 0x4000;
    nc.leaf[nc.lmask].gen = last + 1; /* being filled */
    nc.lo = 0x1000;
    nc.hi = 0x2040;
    nc.evict = 3;
    cache_new_gen(&nc);
    assert_int_equal(nc.gen, 2);
    for (uint64_t i = 0; i <= nc.mask; i++)
        assert_int_equal(nc.node[i].cache_gen, 0);
    for (uint64_t i = 0; i <= nc.lmask; i++)
        assert_int_equal(nc.leaf[i].gen, 0);
    assert_int_equal(nc.lo, UINT64_MAX);
    assert_int_equal(nc.hi, 0);
    assert_int_equal(nc.evict, 0);
    /* an ordinary new generation only counts up, by 2 */
    nc.node[1].cache_addr = 0x1040;
    nc.node[1].cache_gen = 2;
    cache_new_gen(&nc);
    assert_int_equal(nc.gen, 4);
    assert_int_equal(nc.node[1].cache_gen, 2);
    cache_free(&nc);
}

/* Claiming a slot for a fill (slot_claim). On one thread the newest entry replaces the
 * slot's, and only replacing an entry of the current generation counts as an eviction
 * (the count decides when the table grows); shared between threads, a slot is claimed
 * only when it holds no entry of the generation and no other thread is filling it (its
 * tag then reads gen + 1), else the fill is counted as an eviction and not kept. */
static void test_slot_claim(void **st)
{
    (void)st;
    node_cache nc;
    cache_up(&nc, 1); /* gen 4: generation 2 is an old one */
    uint32_t empty = 0, old = 2, cur = nc.gen, filling = nc.gen + 1;
    assert_true(slot_claim(&nc, &empty));
    assert_true(slot_claim(&nc, &old));
    assert_int_equal(nc.evict, 0);
    assert_true(slot_claim(&nc, &cur));
    assert_int_equal(nc.evict, 1);
    assert_int_equal(empty, 0); /* one thread: the tag changes when the entry is published */
    nc.shared = true;
    nc.evict = 0;
    assert_true(slot_claim(&nc, &empty));
    assert_int_equal(empty, nc.gen + 1);
    assert_true(slot_claim(&nc, &old));
    assert_int_equal(old, nc.gen + 1);
    cur = nc.gen;
    assert_false(slot_claim(&nc, &cur));
    assert_false(slot_claim(&nc, &filling));
    assert_int_equal(cur, nc.gen);
    assert_int_equal(filling, nc.gen + 1);
    assert_int_equal(nc.evict, 2);
    cache_free(&nc);
}

/* A table that grows keeps the entries of the current generation (at their slots in the
 * larger table), drops the others, and keeps the generation's address range: the range
 * is what the job's stores and the memory's watch are checked against (errata P-346). */
static void test_cache_grow_keeps(void **st)
{
    (void)st;
    node_cache nc;
    cache_up(&nc, 1);
    const uint64_t a = UINT64_C(0x123440), b = UINT64_C(0x5680), l = UINT64_C(0x9990);
    nc.node[(a >> 6) & nc.mask].cache_addr = a;
    nc.node[(a >> 6) & nc.mask].cache_gen = nc.gen;
    nc.node[(b >> 6) & nc.mask].cache_addr = b;
    nc.node[(b >> 6) & nc.mask].cache_gen = nc.gen - 2; /* an old generation's */
    nc.leaf[(l >> 4) & nc.lmask].addr = l;
    nc.leaf[(l >> 4) & nc.lmask].gen = nc.gen;
    nc.leaf[(l >> 4) & nc.lmask].count = 3;
    cache_range(&nc, b, 64);
    cache_range(&nc, a, 64);
    /* entries in the first and the last slot of each table */
    const uint64_t n0 = UINT64_C(1) << (6 + CACHE_MIN_BITS), n1 = nc.mask << 6;
    const uint64_t l0 = UINT64_C(2) << (4 + CACHE_MIN_BITS), l1 = nc.lmask << 4;
    const uint64_t edge[4] = {n0, n1, l0, l1};
    for (int k = 0; k < 2; k++) {
        nc.node[(edge[k] >> 6) & nc.mask].cache_addr = edge[k];
        nc.node[(edge[k] >> 6) & nc.mask].cache_gen = nc.gen;
        nc.leaf[(edge[k + 2] >> 4) & nc.lmask].addr = edge[k + 2];
        nc.leaf[(edge[k + 2] >> 4) & nc.lmask].gen = nc.gen;
    }
    assert_int_equal((n0 >> 6) & nc.mask, 0);
    assert_int_equal((l0 >> 4) & nc.lmask, 0);
    uint32_t gen = nc.gen;
    cache_grow(&nc, CACHE_MIN_BITS + 1);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(nc.node[(edge[k] >> 6) & nc.mask].cache_addr, edge[k]);
        assert_int_equal(nc.node[(edge[k] >> 6) & nc.mask].cache_gen, gen);
        assert_int_equal(nc.leaf[(edge[k + 2] >> 4) & nc.lmask].addr, edge[k + 2]);
        assert_int_equal(nc.leaf[(edge[k + 2] >> 4) & nc.lmask].gen, gen);
    }
    assert_int_equal(nc.bits, CACHE_MIN_BITS + 1);
    assert_int_equal(nc.gen, gen);
    assert_int_equal(nc.lo, b);
    assert_int_equal(nc.hi, a + 64);
    assert_int_equal(nc.node[(a >> 6) & nc.mask].cache_addr, a);
    assert_int_equal(nc.node[(a >> 6) & nc.mask].cache_gen, gen);
    assert_int_equal(nc.node[(b >> 6) & nc.mask].cache_gen, 0);
    assert_int_equal(nc.leaf[(l >> 4) & nc.lmask].addr, l);
    assert_int_equal(nc.leaf[(l >> 4) & nc.lmask].gen, gen);
    assert_int_equal(nc.leaf[(l >> 4) & nc.lmask].count, 3);
    cache_free(&nc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generation_wrap),
        cmocka_unit_test(test_slot_claim),
        cmocka_unit_test(test_cache_grow_keeps),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
