/* test_xmem_swz.c — XSWZ relayout copies `xswz.tex2ten` / `xswz.ten2tex`
 * (src/ext/xmem/xmem_swz.h, errata Q-56) over a fake memory that counts every probe and
 * records every performed load/store. Expected layouts are written out by hand from
 * Q-56, XMEM 13.4/13.5 (XDL_TILE4x4_ROWMAJOR, composite tiles in row-major tile order)
 * and the Morton order documented in xmem_swz.h (x bits even, y bits odd). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "le_bytes.h"
#include "xmem_swz.h"

/* The fake memory: RAM [0x10000, 0x20000) and a second memory REG [0x20000, 0x21000)
 * right after it; an access must lie within one of them (one that straddles the two
 * is refused, as on the hart for RAM next to a region). */
#define RAM_BASE 0x10000u
#define RAM_SIZE 0x11000u /* both memories, one host array */
#define SPLIT    0x20000u
#define MEM_END  0x21000u
#define SRC      0x11000u
#define DST      0x13000u
#define TMP      0x15000u
#define HOLE     0x90000u /* not mapped */

enum { TILED_LIN = 0, TILED_MORTON = 1, LIN_LIN = 2, LIN_MORTON = 3 }; /* LAYOUT values */

typedef struct {
    uint64_t addr;
    unsigned size;
    bool store;
} access;

typedef struct {
    uint8_t ram[RAM_SIZE];
    access log[4096];
    unsigned n;      /* performed loads/stores */
    uint64_t probes; /* ok() calls */
} fake;

static bool within(uint64_t a, unsigned n, uint64_t lo, uint64_t hi)
{
    return a >= lo && a < hi && hi - a >= n;
}

static bool f_ok(void *ctx, uint64_t a, unsigned n, bool store)
{
    (void)store;
    ((fake *)ctx)->probes++;
    return within(a, n, RAM_BASE, SPLIT) || within(a, n, SPLIT, MEM_END);
}

static bool f_load(void *ctx, uint64_t a, unsigned n, uint64_t *v)
{
    fake *f = ctx;
    assert_true(f_ok(ctx, a, n, false)); /* only called where ok() said yes */
    assert_true(f->n < 4096);
    f->log[f->n++] = (access){a, n, false};
    *v = le_bytes_get(&f->ram[a - RAM_BASE], n);
    return true;
}

static bool f_store(void *ctx, uint64_t a, unsigned n, uint64_t v)
{
    fake *f = ctx;
    assert_true(f_ok(ctx, a, n, true));
    assert_true(f->n < 4096);
    f->log[f->n++] = (access){a, n, true};
    le_bytes_put(&f->ram[a - RAM_BASE], n, v);
    return true;
}

static uint8_t *at(fake *f, uint64_t a)
{
    return f->ram + (a - RAM_BASE);
}

static fake *new_fake(void)
{
    fake *f = test_calloc(1, sizeof *f);
    memset(f->ram, 0xCC, sizeof f->ram); /* "never written" marker */
    return f;
}

static uint64_t ext(uint32_t w, uint32_t h)
{
    return (uint64_t)h << 32 | w;
}

static void run(fake *f, bool ten2tex, unsigned layout, unsigned esize, uint64_t dst, uint64_t src,
                uint64_t extent, xmem_swz_result *r)
{
    xmem_swz_mem m = {f, f_ok, f_load, f_store};
    f->n = 0;
    f->probes = 0;
    memset(r, 0x5A, sizeof *r);
    xmem_swz_exec(&m, ten2tex, layout, esize, dst, src, extent, r);
}

static void expect_done(const xmem_swz_result *r, uint64_t bytes)
{
    assert_int_equal(r->status, XMEM_SWZ_DONE);
    assert_int_equal(r->rd, bytes);
}

/* Source bytes 0, 1, 2, ... (byte i = i mod 256). */
static void fill_seq(fake *f, uint64_t a, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        at(f, a)[i] = (uint8_t)i;
}

/* The Morton order of a 4x4 image, written out: index of (x, y) with x bits at 0, 2 and
 * y bits at 1, 3. Row y = 0: x = 0..3 -> 0b0000, 0b0001, 0b0100, 0b0101 = 0 1 4 5;
 * y = 1 (bit 1): 2 3 6 7; y = 2 (bit 3): 8 9 12 13; y = 3: 10 11 14 15. 8x4 (W > H: x bit 2
 * goes to index bit 4): the right 4x4 block adds 16. 4x8 (H > W: y bit 2 -> bit 4): the
 * lower block adds 16. 2x1 and 1x2: m = 0, the index is x (resp. y). REQ: XMEM-102 */
static void test_morton_order(void **state)
{
    (void)state;
    static const uint8_t m44[4][4] = {{0, 1, 4, 5}, {2, 3, 6, 7}, {8, 9, 12, 13}, {10, 11, 14, 15}};
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 4; x++) {
            assert_int_equal(xmem_swz_morton(x, y, 4, 4), m44[y][x]);
            assert_int_equal(xmem_swz_morton(x, y, 8, 4), m44[y][x]);
            assert_int_equal(xmem_swz_morton(x + 4, y, 8, 4), m44[y][x] + 16);
            assert_int_equal(xmem_swz_morton(x, y + 4, 4, 8), m44[y][x] + 16);
        }
    assert_int_equal(xmem_swz_morton(1, 0, 2, 1), 1);
    assert_int_equal(xmem_swz_morton(0, 1, 1, 2), 1);
    /* 8x8: (7, 7) = all six bits = 63; (5, 2) = x 101, y 010 -> bits x0->0, y1->3, x2->4
     * = 1 + 8 + 16 = 25; 16x2: (13, 1) = x 1101, y 1: bits x0->0, y0->1, x1..3 (110) from
     * bit 2 = 0b110 << 2 = 24; 1 + 2 + 24 = 27 */
    assert_int_equal(xmem_swz_morton(7, 7, 8, 8), 63);
    assert_int_equal(xmem_swz_morton(5, 2, 8, 8), 25);
    assert_int_equal(xmem_swz_morton(13, 1, 16, 2), 27);
    /* a permutation of 0 .. W*H-1 for 16x4 */
    uint8_t seen[64] = {0};
    for (uint32_t y = 0; y < 4; y++)
        for (uint32_t x = 0; x < 16; x++) {
            uint64_t i = xmem_swz_morton(x, y, 16, 4);
            assert_true(i < 64);
            assert_int_equal(seen[i]++, 0);
        }
}

/* tex2ten, linear texture -> XDL tiles, 8x4 EW8: source byte y*8 + x. Tile 0 (x 0-3)
 * holds rows 0..3 of columns 0-3: 0 1 2 3, 8 9 10 11, 16..19, 24..27; tile 1 (x 4-7)
 * 4..7, 12..15, 20..23, 28..31. rd = 8*4*1 = 32. The byte after stays 0xCC.
 * REQ: XMEM-102 */
static void test_tiles_8x4(void **state)
{
    (void)state;
    fake *f = new_fake();
    fill_seq(f, SRC, 32);
    static const uint8_t want[32] = {0, 1, 2, 3, 8,  9,  10, 11, 16, 17, 18, 19, 24, 25, 26, 27,
                                     4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31};
    xmem_swz_result r;
    run(f, false, TILED_LIN, 1, DST, SRC, ext(8, 4), &r);
    expect_done(&r, 32);
    assert_memory_equal(at(f, DST), want, 32);
    assert_int_equal(at(f, DST)[32], 0xCC);
    /* element (0,0) first: load SRC, store DST; then (1,0): SRC+1 -> DST+1 */
    assert_int_equal(f->n, 64);
    assert_int_equal(f->log[0].addr, SRC);
    assert_false(f->log[0].store);
    assert_int_equal(f->log[1].addr, DST);
    assert_true(f->log[1].store);
    /* ten2tex back to a linear texture gives the source again */
    run(f, true, TILED_LIN, 1, TMP, DST, ext(8, 4), &r);
    expect_done(&r, 32);
    assert_memory_equal(at(f, TMP), at(f, SRC), 32);
    /* a 4x4 image is one tile: the tile is the row-major image (XMEM 13.4) */
    run(f, false, TILED_LIN, 1, DST, SRC, ext(4, 4), &r);
    expect_done(&r, 16);
    assert_memory_equal(at(f, DST), at(f, SRC), 16);
    test_free(f);
}

/* 8x8 EW16, linear -> tiles: tile order (0,0) (1,0) (0,1) (1,1) (row-major tile order).
 * Element value = y*8 + x (16-bit). Tensor element k of tile t: tile t = ty*2 + tx, row
 * r = k/4, col c = k%4 -> value (4ty + r) * 8 + 4tx + c. So tensor element 16 (tile 1, k
 * 0) = 4, element 20 (tile 1, k 4) = 12, element 32 (tile 2, k 0) = 32, element 63 =
 * (4 + 3) * 8 + 7 = 63, element 47 (tile 2, k 15) = 7*8 + 3 = 59. rd = 64 * 2 = 128.
 * REQ: XMEM-102 */
static void test_tiles_8x8_ew16(void **state)
{
    (void)state;
    fake *f = new_fake();
    for (unsigned i = 0; i < 64; i++) {
        at(f, SRC)[2 * i] = (uint8_t)i;
        at(f, SRC)[2 * i + 1] = 0xA0;
    }
    xmem_swz_result r;
    run(f, false, TILED_LIN, 2, DST, SRC, ext(8, 8), &r);
    expect_done(&r, 128);
    static const struct {
        unsigned k, v;
    } t[] = {{0, 0}, {3, 3}, {4, 8}, {15, 27}, {16, 4}, {20, 12}, {32, 32}, {47, 59}, {63, 63}};
    for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
        assert_int_equal(at(f, DST)[2 * t[i].k], t[i].v);
        assert_int_equal(at(f, DST)[2 * t[i].k + 1], 0xA0);
    }
    assert_int_equal(at(f, DST)[128], 0xCC);
    test_free(f);
}

/* Morton 4x4 texture -> linear tensor, EW8: source byte i = i (i = Morton index). Tensor
 * element y*4 + x = morton(x, y): 0 1 4 5 / 2 3 6 7 / 8 9 12 13 / 10 11 14 15. A 4x4
 * image in tiles is the same (one tile). And EW32, 2x2 Morton -> linear: Morton order
 * (0,0) (1,0) (0,1) (1,1) = row-major for 2x2, a plain copy. REQ: XMEM-102 */
static void test_morton_4x4(void **state)
{
    (void)state;
    fake *f = new_fake();
    fill_seq(f, SRC, 16);
    static const uint8_t want[16] = {0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15};
    xmem_swz_result r;
    run(f, false, LIN_MORTON, 1, DST, SRC, ext(4, 4), &r);
    expect_done(&r, 16);
    assert_memory_equal(at(f, DST), want, 16);
    memset(at(f, DST), 0xCC, 16);
    run(f, false, TILED_MORTON, 1, DST, SRC, ext(4, 4), &r);
    expect_done(&r, 16);
    assert_memory_equal(at(f, DST), want, 16);
    /* ten2tex: linear tensor -> Morton texture. Tensor byte j = j; texture index
     * morton(x, y) receives y*4 + x, so texture byte 2 (= morton(0,1)) = 4, byte 4
     * (morton(2,0)) = 2, byte 10 (morton(0,3)) = 12, byte 15 = 15 */
    fill_seq(f, SRC, 16);
    run(f, true, LIN_MORTON, 1, DST, SRC, ext(4, 4), &r);
    expect_done(&r, 16);
    static const uint8_t inv[16] = {0, 1, 4, 5, 2, 3, 6, 7, 8, 9, 12, 13, 10, 11, 14, 15};
    assert_memory_equal(at(f, DST), inv, 16); /* 4x4 Morton is its own inverse */
    /* 8x4 Morton -> linear, EW8: tensor (x, y) = morton(x, y) (source byte i = i); row 0 =
     * 0 1 4 5 16 17 20 21, row 3 = 10 11 14 15 26 27 30 31 */
    fill_seq(f, SRC, 32);
    run(f, false, LIN_MORTON, 1, DST, SRC, ext(8, 4), &r);
    expect_done(&r, 32);
    static const uint8_t row0[8] = {0, 1, 4, 5, 16, 17, 20, 21},
                         row3[8] = {10, 11, 14, 15, 26, 27, 30, 31};
    assert_memory_equal(at(f, DST), row0, 8);
    assert_memory_equal(at(f, DST + 24), row3, 8);
    test_free(f);
}

/* Round trips tex2ten then ten2tex for the 4 layouts and element sizes 1, 2, 4 (EW 8,
 * 16, 32) on an 8x8 and a 16x4 image: the texture comes back exactly; the tensor differs
 * from the texture except for LAYOUT 2 (linear both sides: a plain copy). REQ: XMEM-102 */
static void test_round_trips(void **state)
{
    (void)state;
    fake *f = new_fake();
    static const uint32_t dims[2][2] = {{8, 8}, {16, 4}};
    for (unsigned layout = 0; layout < 4; layout++)
        for (unsigned e = 1; e <= 4; e *= 2)
            for (unsigned d = 0; d < 2; d++) {
                uint32_t w = dims[d][0], h = dims[d][1];
                unsigned n = w * h * e;
                for (unsigned i = 0; i < n; i++)
                    at(f, SRC)[i] = (uint8_t)(i * 7 + 3);
                memset(at(f, DST), 0xCC, n + 8);
                memset(at(f, TMP), 0xCC, n + 8);
                xmem_swz_result r;
                run(f, false, layout, e, DST, SRC, ext(w, h), &r);
                expect_done(&r, n);
                assert_int_equal(f->n, 2 * w * h); /* one load + one store per element */
                if (layout == LIN_LIN)
                    assert_memory_equal(at(f, DST), at(f, SRC), n);
                else
                    assert_memory_not_equal(at(f, DST), at(f, SRC), n);
                run(f, true, layout, e, TMP, DST, ext(w, h), &r);
                expect_done(&r, n);
                assert_memory_equal(at(f, TMP), at(f, SRC), n);
                assert_int_equal(at(f, TMP)[n], 0xCC);
                assert_int_equal(at(f, DST)[n], 0xCC);
            }
    test_free(f);
}

/* Illegal sizes: tiles need W and H multiples of 4, Morton needs powers of two; nothing
 * is probed or accessed. Legal edge cases: linear both sides takes any size (3x5 EW8 = 15
 * bytes), Morton 2x1 with linear tensor, W or H = 0 (rd = 0, no access). REQ: XMEM-102 */
static void test_sizes(void **state)
{
    (void)state;
    fake *f = new_fake();
    static const struct {
        unsigned layout;
        uint32_t w, h;
    } bad[] = {{TILED_LIN, 6, 4},  {TILED_LIN, 4, 2},  {TILED_LIN, 1, 1},    {TILED_MORTON, 12, 4},
               {LIN_MORTON, 6, 4}, {LIN_MORTON, 4, 3}, {TILED_MORTON, 2, 4}, {LIN_MORTON, 3, 1}};
    for (unsigned k = 0; k < sizeof bad / sizeof bad[0]; k++)
        for (unsigned dir = 0; dir < 2; dir++) {
            xmem_swz_result r;
            run(f, dir, bad[k].layout, 1, DST, SRC, ext(bad[k].w, bad[k].h), &r);
            assert_int_equal(r.status, XMEM_SWZ_ILLEGAL);
            assert_int_equal(f->n, 0);
            assert_int_equal(f->probes, 0);
        }
    xmem_swz_result r;
    fill_seq(f, SRC, 15);
    run(f, false, LIN_LIN, 1, DST, SRC, ext(3, 5), &r);
    expect_done(&r, 15);
    assert_memory_equal(at(f, DST), at(f, SRC), 15);
    run(f, false, LIN_MORTON, 4, DST, SRC, ext(2, 1), &r);
    expect_done(&r, 8);
    for (unsigned layout = 0; layout < 4; layout++) {
        run(f, false, layout, 4, HOLE, HOLE, ext(0, 8), &r);
        expect_done(&r, 0);
        run(f, true, layout, 4, HOLE, HOLE, ext(8, 0), &r);
        expect_done(&r, 0);
        assert_int_equal(f->probes, 0);
    }
    test_free(f);
}

/* Faults: checked before anything is written. Source ending past MEM_END: load access
 * fault at MEM_END; destination past it: store access fault at MEM_END; both bad: the
 * source. No store performed in any case. REQ: XMEM-102 */
static void test_faults(void **state)
{
    (void)state;
    fake *f = new_fake();
    xmem_swz_result r;
    /* 8x4 EW16 = 64 bytes from MEM_END - 32 */
    run(f, false, TILED_LIN, 2, DST, MEM_END - 32, ext(8, 4), &r);
    assert_int_equal(r.status, XMEM_SWZ_TRAP);
    assert_false(r.fault_store);
    assert_int_equal(r.tval, MEM_END);
    assert_int_equal(f->n, 0);
    run(f, true, LIN_MORTON, 2, MEM_END - 8, SRC, ext(4, 4), &r);
    assert_int_equal(r.status, XMEM_SWZ_TRAP);
    assert_true(r.fault_store);
    assert_int_equal(r.tval, MEM_END);
    assert_int_equal(f->n, 0);
    assert_int_equal(at(f, MEM_END - 8)[0], 0xCC);
    run(f, false, LIN_LIN, 1, HOLE, HOLE + 4, ext(4, 4), &r);
    assert_int_equal(r.status, XMEM_SWZ_TRAP);
    assert_false(r.fault_store);
    assert_int_equal(r.tval, HOLE + 4);
    /* below the RAM */
    run(f, false, LIN_LIN, 1, DST, RAM_BASE - 1, ext(4, 1), &r);
    assert_int_equal(r.status, XMEM_SWZ_TRAP);
    assert_int_equal(r.tval, RAM_BASE - 1);
    /* wrap: 16 bytes from 2^64 - 8 fault there */
    run(f, false, LIN_LIN, 1, DST, UINT64_MAX - 7, ext(16, 1), &r);
    assert_int_equal(r.status, XMEM_SWZ_TRAP);
    assert_int_equal(r.tval, UINT64_MAX - 7);
    test_free(f);
}

/* A huge extent (W = H = 2^32 - 1, linear: (2^32-1)^2 * 4 bytes saturates at 2^64 - 1)
 * faults at the end of the accessible memory after a walk bounded by it: from SRC the
 * range [SRC, MEM_END) is 0x10000 bytes, probed 8 at a time with two probes each: 2 *
 * 0x10000 / 8 = 0x4000 probes, plus one failing 8-byte and one failing 1-byte probe.
 * REQ: XMEM-102 */
static void test_huge(void **state)
{
    (void)state;
    fake *f = new_fake();
    xmem_swz_result r;
    run(f, false, LIN_LIN, 4, DST, SRC, ext(0xFFFFFFFFu, 0xFFFFFFFFu), &r);
    assert_int_equal(r.status, XMEM_SWZ_TRAP);
    assert_false(r.fault_store);
    assert_int_equal(r.tval, MEM_END);
    assert_int_equal(f->probes, 0x4000 + 2);
    assert_int_equal(f->n, 0);
    /* Morton with 2^31 x 2^31 EW8: 2^62 bytes; the source range is checked first and
     * faults at MEM_END */
    run(f, false, LIN_MORTON, 1, HOLE, SRC, ext(0x80000000u, 0x80000000u), &r);
    assert_int_equal(r.status, XMEM_SWZ_TRAP);
    assert_int_equal(r.tval, MEM_END);
    test_free(f);
}

/* An empty extent (W = 0 or H = 0) is legal and moves nothing, at once: W = 0 with
 * H = 2^31 used to walk 2^31 empty rows (minutes under the sanitizers; the test's
 * CTest timeout catches a return of that loop). REQ: XMEM-102 */
static void test_empty_extent(void **state)
{
    (void)state;
    fake *f = new_fake();
    xmem_swz_result r;
    for (unsigned layout = 0; layout < 4; layout++) {
        run(f, layout & 1, layout, 8, DST, SRC, ext(0, 0x80000000u), &r);
        assert_int_equal(r.status, XMEM_SWZ_DONE);
        assert_int_equal(r.rd, 0);
        run(f, layout & 1, layout, 8, DST, SRC, ext(0x80000000u, 0), &r);
        assert_int_equal(r.status, XMEM_SWZ_DONE);
        assert_int_equal(r.rd, 0);
    }
    assert_int_equal(f->n, 0);
    /* ... and the smallest extent that is not empty (1x1, one byte) still moves its
     * element: one load and one store. */
    run(f, false, LIN_LIN, 1, DST, SRC, ext(1, 1), &r);
    assert_int_equal(r.status, XMEM_SWZ_DONE);
    assert_int_equal(r.rd, 1);
    assert_int_equal(f->n, 2);
    test_free(f);
}

/* An element that straddles RAM and the next memory (both accessible byte by byte) is
 * moved byte by byte: 4x1 EW4 linear from SPLIT - 6: element 1 is [SPLIT - 2, SPLIT + 2),
 * moved as 4 one-byte loads and stores. Elements 0, 2, 3 are one 4-byte access each:
 * 3 * 2 + 4 * 2 = 14 accesses. REQ: XMEM-102 */
static void test_straddle(void **state)
{
    (void)state;
    fake *f = new_fake();
    fill_seq(f, SPLIT - 6, 16);
    xmem_swz_result r;
    run(f, false, LIN_LIN, 4, DST, SPLIT - 6, ext(4, 1), &r);
    expect_done(&r, 16);
    assert_memory_equal(at(f, DST), at(f, SPLIT - 6), 16);
    assert_int_equal(f->n, 14);
    assert_int_equal(f->log[2].addr, SPLIT - 2);
    assert_int_equal(f->log[2].size, 1);
    test_free(f);
}

/* Overlapping buffers: undefined content, but the copy completes with rd = the byte count
 * and stays inside both ranges (the byte after is untouched). */
static void test_overlap(void **state)
{
    (void)state;
    fake *f = new_fake();
    fill_seq(f, SRC, 32);
    xmem_swz_result r;
    run(f, false, TILED_LIN, 1, SRC, SRC, ext(8, 4), &r);
    expect_done(&r, 32);
    run(f, true, LIN_MORTON, 2, SRC + 2, SRC, ext(4, 4), &r);
    expect_done(&r, 32);
    assert_int_equal(at(f, SRC + 34)[0], 0xCC);
    test_free(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_morton_order),   cmocka_unit_test(test_tiles_8x4),
        cmocka_unit_test(test_tiles_8x8_ew16), cmocka_unit_test(test_morton_4x4),
        cmocka_unit_test(test_round_trips),    cmocka_unit_test(test_sizes),
        cmocka_unit_test(test_faults),         cmocka_unit_test(test_huge),
        cmocka_unit_test(test_empty_extent),   cmocka_unit_test(test_straddle),
        cmocka_unit_test(test_overlap),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
