/* test_xmem_xdl.c — XDL layout metadata (src/ext/xmem/xmem_xdl.h, errata Q-60, P-223)
 * over a hand-built region list: a Tier-0 region [0x10000000, +64) and a Tier-1 region
 * [0x10004000, +64). The tile index of 13.4/13.5 written out for an 8 x 8 composite tile.
 * REQ: XMEM-030 XMEM-031 XMEM-153 XMEM-156 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "xmem_xdl.h"

static xmem_lds_blk blk[2] = {
    {.base = 0x10000000, .size = 64, .tier = 0, .dom = 1},
    {.base = 0x10004000, .size = 64, .tier = 1, .dom = 1},
};

static xmem_lds regions(void)
{
    xmem_lds l = {0};
    l.base = 0x10000000;
    l.size = 0x10000;
    l.t0_size = 0x4000;
    l.blk = blk;
    l.n = l.cap = 2;
    return l;
}

/* XDL_TILE(8, 8) = 2 x 2 canonical tiles in row-major tile order: the index of (x, y),
 * row by row, tile 0 = 0..15, tile 1 = 16..31 to its right, tiles 2 and 3 below. */
static void test_tile_index(void **st)
{
    (void)st;
    static const unsigned want[8][8] = {
        {0, 1, 2, 3, 16, 17, 18, 19},     {4, 5, 6, 7, 20, 21, 22, 23},
        {8, 9, 10, 11, 24, 25, 26, 27},   {12, 13, 14, 15, 28, 29, 30, 31},
        {32, 33, 34, 35, 48, 49, 50, 51}, {36, 37, 38, 39, 52, 53, 54, 55},
        {40, 41, 42, 43, 56, 57, 58, 59}, {44, 45, 46, 47, 60, 61, 62, 63}};
    for (uint32_t y = 0; y < 8; y++)
        for (uint32_t x = 0; x < 8; x++)
            assert_int_equal(xmem_xdl_tile_index(x, y, 8), want[y][x]);
    /* a 4 x 8 (two tiles side by side): (4, 0) starts the second tile */
    assert_int_equal(xmem_xdl_tile_index(4, 0, 8), 16);
}

static void test_layout_of_regions(void **st)
{
    (void)st;
    assert_int_equal(xmem_xdl_layout(&blk[0]), XMEM_XDL_TILE4X4);
    assert_int_equal(xmem_xdl_layout(&blk[1]), XMEM_XDL_NONE);
    assert_int_equal(xmem_xdl_layout(NULL), XMEM_XDL_NONE);
}

static void test_check(void **st)
{
    (void)st;
    xmem_lds l = regions();
    uint64_t bad;
    /* Tier-0: tiled, aligned, inside */
    assert_int_equal(xmem_xdl_check(&l, 0x10000000, 64, true, &bad), XMEM_XDL_OK);
    assert_int_equal(xmem_xdl_check(&l, 0x10000020, 32, true, &bad), XMEM_XDL_OK);
    /* a non-XDL interpretation */
    assert_int_equal(xmem_xdl_check(&l, 0x10000010, 16, false, &bad), XMEM_XDL_REFUSED);
    assert_int_equal(bad, 0x10000010);
    /* off a 16-byte boundary (8 and 1) */
    assert_int_equal(xmem_xdl_check(&l, 0x10000008, 16, true, &bad), XMEM_XDL_MISALIGNED);
    assert_int_equal(bad, 0x10000008);
    assert_int_equal(xmem_xdl_check(&l, 0x10000001, 1, true, &bad), XMEM_XDL_MISALIGNED);
    /* leaving the region: one byte too many, and a huge length */
    assert_int_equal(xmem_xdl_check(&l, 0x10000010, 49, true, &bad), XMEM_XDL_REFUSED);
    assert_int_equal(bad, 0x10000040);
    assert_int_equal(xmem_xdl_check(&l, 0x10000000, UINT64_MAX, true, &bad), XMEM_XDL_REFUSED);
    /* Tier-1, free LDS space, global memory: no declared layout */
    assert_int_equal(xmem_xdl_check(&l, 0x10004008, 999, false, &bad), XMEM_XDL_OK);
    assert_int_equal(xmem_xdl_check(&l, 0x10000040, 16, false, &bad), XMEM_XDL_OK);
    assert_int_equal(xmem_xdl_check(&l, 0x80000000, 16, false, &bad), XMEM_XDL_OK);
    /* nothing to interpret */
    assert_int_equal(xmem_xdl_check(&l, 0x10000008, 0, false, &bad), XMEM_XDL_OK);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(test_tile_index),
        cmocka_unit_test(test_layout_of_regions),
        cmocka_unit_test(test_check),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
