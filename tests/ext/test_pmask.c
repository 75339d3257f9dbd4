/* test_pmask.c — PMASK banks and the ZMODE helper (src/ext/pmask/pmask.h). Expected
 * values follow CAP 2.3 and errata "## PMASK" by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "pmask.h"

/* CAP.PMASK.CAP default 0x17: present, 4 banks, bank0 all-ones. REQ: CAP-028 CAP-029
 * REQ: CAP-026 CAP-027 CAP-059 */
static void test_banks(void **state)
{
    (void)state;
    pmask_state p;
    pmask_reset(&p, 0x17);
    uint64_t v;
    assert_true(pmask_csr_read(&p, 0x800, &v));
    assert_int_equal(v, ~UINT64_C(0));
    assert_true(pmask_csr_write(&p, 0x800, 0)); /* ignored, no trap */
    assert_true(pmask_csr_read(&p, 0x800, &v));
    assert_int_equal(v, ~UINT64_C(0));
    for (uint32_t a = 0x801; a <= 0x803; a++) {
        assert_true(pmask_csr_read(&p, a, &v));
        assert_int_equal(v, 0);
        assert_true(pmask_csr_write(&p, a, 0xA5A5000000000001 + a));
        assert_true(pmask_csr_read(&p, a, &v));
        assert_int_equal(v, 0xA5A5000000000001 + a);
    }
    for (uint32_t a = 0x804; a <= 0x807; a++) { /* banks 4-7: absent -> illegal */
        assert_false(pmask_csr_read(&p, a, &v));
        assert_false(pmask_csr_write(&p, a, 1));
    }
    /* a missing bank holds no predicate: it reads 0 and no lane is true */
    pmask_reset(&p, 0x13); /* banks 0 and 1 */
    assert_int_equal(pmask_get(&p, 2), 0);
    assert_false(pmask_lane(&p, 2, 0));
    pmask_set(&p, 2, ~UINT64_C(0));
    assert_int_equal(pmask_get(&p, 2), 0);
    /* writes to a bank number beyond any bank touch nothing (no memory past the state) */
    struct {
        pmask_state p;
        uint64_t after[8];
    } g;
    memset(&g, 0, sizeof g);
    pmask_reset(&g.p, 0x17);
    for (unsigned b = 4; b < 12; b++)
        pmask_set(&g.p, b, ~UINT64_C(0));
    for (unsigned i = 0; i < 8; i++)
        assert_int_equal(g.after[i], 0);
    assert_int_equal(pmask_get(&g.p, 3), 0);
    pmask_reset(&p, 0x17);
    assert_true(pmask_lane(&p, 0, 0));
    assert_true(pmask_lane(&p, 0, 63));
    assert_false(pmask_bank_valid(&p, 4));
    /* pbank 0 is implied when none is selected: all lanes true */
    for (unsigned i = 0; i < 130; i++)
        assert_true(pmask_lane(&p, 0, i));
}

/* Lane i = bit i (i mod 64); set_lane keeps the other lanes (errata Q-62). */
static void test_lanes(void **state)
{
    (void)state;
    pmask_state p;
    pmask_reset(&p, 0x17);
    pmask_set(&p, 2, 0x8000000000000005);
    assert_true(pmask_lane(&p, 2, 0));
    assert_false(pmask_lane(&p, 2, 1));
    assert_true(pmask_lane(&p, 2, 2));
    assert_true(pmask_lane(&p, 2, 63));
    assert_true(pmask_lane(&p, 2, 64)); /* 64 mod 64 = 0 */
    pmask_set_lane(&p, 2, 0, false);
    assert_int_equal(pmask_get(&p, 2), 0x8000000000000004);
    pmask_set_lane(&p, 2, 1, true);
    assert_int_equal(pmask_get(&p, 2), 0x8000000000000006);
    pmask_set_lane(&p, 0, 0, false); /* bank 0 ignores writes */
    assert_true(pmask_lane(&p, 0, 0));
}

/* Profile-driven bank count; PMASK absent. A 2-bit pbank reaches banks 0..3 only, so a
 * PMASK_BANKS_M1 above 3 still gives 4 banks and 0x804-0x807 are no PMASK CSRs (errata
 * REQ: CAP-058 CAP-060 */
static void test_profiles(void **state)
{
    (void)state;
    pmask_state p;
    uint64_t v;
    pmask_reset(&p, 0x1F); /* BANKS_M1 = 7 */
    assert_true(pmask_csr_write(&p, 0x803, 0x42));
    assert_true(pmask_csr_read(&p, 0x803, &v));
    assert_int_equal(v, 0x42);
    assert_true(pmask_bank_valid(&p, 3));
    assert_false(pmask_bank_valid(&p, 4));
    for (uint32_t a = 0x804; a <= 0x807; a++) {
        assert_false(pmask_csr_read(&p, a, &v));
        assert_false(pmask_csr_write(&p, a, 1));
    }
    pmask_reset(&p, 0x11); /* only bank 0 */
    assert_true(pmask_csr_read(&p, 0x800, &v));
    assert_false(pmask_csr_read(&p, 0x801, &v));
    pmask_reset(&p, 0); /* no PMASK: no predicate state at all */
    assert_false(pmask_csr_read(&p, 0x800, &v));
    assert_false(pmask_bank_valid(&p, 0));
}

/* ZMODE: merge keeps the old element, zero writes 0. REQ: CAP-030 CAP-031 CAP-095 */
static void test_zmode(void **state)
{
    (void)state;
    assert_int_equal(pmask_zmode(true, false, 7, 9), 9);
    assert_int_equal(pmask_zmode(true, true, 7, 9), 9);
    assert_int_equal(pmask_zmode(false, false, 7, 9), 7);
    assert_int_equal(pmask_zmode(false, true, 7, 9), 0);
    /* packed bytes: predicate 0b0101 over 4 of 8 bytes */
    uint64_t old = 0x1111111111111111, res = 0x2222222222222222;
    assert_int_equal(pmask_zmode_packed(0x5, false, old, res, 8), 0x1111111111221122);
    assert_int_equal(pmask_zmode_packed(0x5, true, old, res, 8), 0x0000000000220022);
    assert_int_equal(pmask_zmode_packed(1, true, old, res, 64), res);
    /* a 64-bit element is taken whole, its bit 0 included */
    assert_int_equal(pmask_zmode_packed(1, false, 0, UINT64_C(0x2222222222222223), 64),
                     UINT64_C(0x2222222222222223));
    assert_int_equal(pmask_zmode_packed(0, false, old, res, 64), old);
    assert_int_equal(pmask_zmode_packed(~UINT64_C(0), true, old, res, 2), res);
    /* one-bit elements: all 64 predicate bits count, bit 63 included */
    assert_int_equal(pmask_zmode_packed(UINT64_C(0x8000000000000001), false, 0, ~UINT64_C(0), 1),
                     UINT64_C(0x8000000000000001));
    assert_int_equal(pmask_zmode_packed(0x6, true, ~UINT64_C(0), ~UINT64_C(0), 1), 0x6);
    /* predicate bits beyond the element count select nothing */
    assert_int_equal(pmask_zmode_packed(0x100, false, old, res, 8), old);
    assert_int_equal(pmask_zmode_packed(0x10, false, old, res, 16), old);
    assert_int_equal(pmask_zmode_packed(1, true, old, res, 3), old); /* bad width */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_banks),
        cmocka_unit_test(test_lanes),
        cmocka_unit_test(test_profiles),
        cmocka_unit_test(test_zmode),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
