/* guest_header_values — the generated guest header xphmg_insn.h carries the CSR
 * numbers and field layouts the XPHMG specifications state. Expected values are
 * copied from the requirement texts (../shared/spec/requirements.tsv), not from the
 * XML the header is generated from. The header is plain C apart from the intrinsics'
 * inline asm, which is only emitted when used, so the host compiler can include it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "xphmg_insn.h"

/* A field described as bits hi:lo. */
#define FIELD_IS(f, hi, lo)                                                                        \
    do {                                                                                           \
        assert_int_equal(f##_SHIFT, (lo));                                                         \
        assert_int_equal(f##_WIDTH, (hi) - (lo) + 1);                                              \
        assert_int_equal(f##_MASK, ((1ull << ((hi) - (lo) + 1)) - 1) << (lo));                     \
    } while (0)

static void test_cap_core_csrs(void **state)
{
    (void)state;
    /* REQ: CAP-046 */
    assert_int_equal(XPHMG_CSR_CAP_ID, 0x7C0);
    assert_int_equal(XPHMG_CSR_CAP_VERS, 0x7C1);
    assert_int_equal(XPHMG_CSR_CAP_FLAGS, 0x7C2);
    assert_int_equal(XPHMG_CSR_CAP_PROF_CUR, 0x7C3);
    assert_int_equal(XPHMG_CSR_CAP_PROF_SUP, 0x7C4);
}

static void test_cap_partition(void **state)
{
    (void)state;
    /* REQ: CAP-038 */
    assert_in_range(XPHMG_CSR_CAP_FEAT0, 0x7C0, 0x7CF);
    assert_in_range(XPHMG_CSR_CAP_PREC_MODE, 0x7D0, 0x7D7);
    assert_in_range(XPHMG_CSR_CAP_PREC_ALT, 0x7D0, 0x7D7);
    assert_in_range(XPHMG_CSR_CAP_PREC_STAT, 0x7D0, 0x7D7);
    assert_in_range(XPHMG_CSR_CAP_PREC_CAP, 0x7D8, 0x7DF);
    assert_in_range(XPHMG_CSR_CAP_XMEM_CAP, 0x7E0, 0x7EF);
    assert_in_range(XPHMG_CSR_CAP_XMEM_SVMBASE, 0x7F0, 0x7F7);
    assert_in_range(XPHMG_CSR_CAP_XMEM_SVMMODE, 0x7F0, 0x7F7);
}

static void test_cap_xmem_csrs(void **state)
{
    (void)state;
    /* REQ: CAP-138 */
    assert_int_equal(XPHMG_CSR_CAP_XMEM_L1CFG, 0x7E2);
    assert_int_equal(XPHMG_CSR_CAP_XMEM_CLSMAP, 0x7E3);
    assert_int_equal(XPHMG_CSR_CAP_XMEM_LDS_BUDGET, 0x7E4);
    assert_int_equal(XPHMG_CSR_CAP_XMEM_L2CFG, 0x7E5);
    assert_int_equal(XPHMG_CSR_CAP_XMEM_DOM, 0x7E6);
    assert_int_equal(XPHMG_CSR_CAP_XMEM_STREAM_CTL, 0x7E7);
    assert_int_equal(XPHMG_CSR_CAP_XMEM_SPROF0, 0x7E8);
    assert_int_equal(XPHMG_CSR_CAP_XMEM_SPROF3, 0x7EB);
    assert_int_equal(XPHMG_CSR_CAP_XMEM_COMP_CTL, 0x7EC);
    assert_int_equal(XPHMG_CSR_CAP_XMEM_DESCPOL, 0x7ED);
    assert_int_equal(XPHMG_CSR_CAP_XMEM_EVENTS, 0x7EE);
}

static void test_field_layouts(void **state)
{
    (void)state;
    /* REQ: CAP-139 */
    FIELD_IS(CAP_XMEM_L1CFG_WAYS_HINT, 7, 0);
    FIELD_IS(CAP_XMEM_L1CFG_LINE_SZ, 15, 8);
    FIELD_IS(CAP_XMEM_L1CFG_REPL, 19, 16);
    FIELD_IS(CAP_XMEM_L1CFG_LOCK_EN, 20, 20);
    FIELD_IS(CAP_XMEM_L1CFG_ACTIVE_CLASS, 31, 24);
    /* REQ: RT-019 */
    FIELD_IS(RTCONF2_EPS_SCALE, 7, 0);
    FIELD_IS(RTCONF2_IMPL_HINT, 9, 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cap_core_csrs),
        cmocka_unit_test(test_cap_partition),
        cmocka_unit_test(test_cap_xmem_csrs),
        cmocka_unit_test(test_field_layouts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
