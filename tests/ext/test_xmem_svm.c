/* test_xmem_svm.c — SVMEM `xmem.svm` semantics (src/ext/xmem/xmem_svm.h) over a fake
 * memory that records every access attempt, performed or faulting. The SVM CSRs are
 * programmed through the CAP CSR file (cap.h) and reach the operation through the
 * instruction-boundary snapshot, as on the hart. Every expected value is derived by
 * hand from errata, Q-58 (docs/errata.md "## XMEM") and CAP 2.3:
 * field positions below are written out from Q-39, not taken from generated macros. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cap.h"
#include "le_bytes.h"
#include "xmem_svm.h"

/* CSR addresses (CAP 4.6.3) and SVMSCL/SVMMODE layouts (errata Q-39). */
#define SVMBASE 0x7F0u
#define SVMIDX  0x7F1u
#define SVMSCL  0x7F2u
#define SVMLEN  0x7F3u
#define SVMMODE 0x7F4u
#define MODE    0x7D0u
#define SCL(scale_log2, sign, gs, fof, idx_w)                                                      \
    ((uint64_t)(scale_log2) | (uint64_t)(sign) << 3 | (uint64_t)(gs) << 4 | (uint64_t)(fof) << 5 | \
     (uint64_t)(idx_w) << 6)
enum { W32 = 0, W64 = 1, W16 = 2, W8 = 3 }; /* IDX_W */
#define BOUND_CHECK    1u
#define ALLOW_OOB_ZERO 2u
#define INV_MISS       1u /* CAP.XMEM.EVENTS bit 0 (errata Q-38) */

/* The fake memory: 64 KiB of RAM at 0x10000; everything else is inaccessible. */
#define RAM_BASE 0x10000u
#define RAM_SIZE 0x10000u
#define IDX      0x11000u /* index array */
#define TAB      0x12000u /* gather source / scatter target */
#define BUF      0x13000u /* the rs1 data buffer */
#define MID      0x14000u /* base for negative indices */
#define HOLE     0x90000u /* not mapped */

typedef struct {
    uint64_t addr;
    unsigned size;
    bool store, ok;
} access;

typedef struct {
    uint8_t ram[RAM_SIZE];
    access log[512];
    unsigned n;
    /* snapshot isolation: rewrite these CAP CSRs at the first access */
    cap_state *meddle;
    cap_state cap; /* the test's CAP CSR file */
} fake;

static bool mapped(uint64_t a, unsigned n)
{
    return a >= RAM_BASE && a - RAM_BASE <= RAM_SIZE - n;
}

static void note(fake *f, uint64_t a, unsigned n, bool store, bool ok)
{
    if (f->meddle && f->n == 0) {
        cap_csr_write(f->meddle, SVMBASE, HOLE);
        cap_csr_write(f->meddle, SVMIDX, HOLE);
        cap_csr_write(f->meddle, SVMSCL, SCL(4, 1, 1, 1, W8));
        cap_csr_write(f->meddle, SVMLEN, 8);
        cap_csr_write(f->meddle, SVMMODE, 0);
    }
    assert_true(f->n < 512);
    f->log[f->n++] = (access){a, n, store, ok};
}

static bool f_load(void *ctx, uint64_t a, unsigned n, uint64_t *v)
{
    fake *f = ctx;
    bool ok = mapped(a, n);
    note(f, a, n, false, ok);
    if (!ok) return false;
    *v = le_bytes_get(&f->ram[a - RAM_BASE], n);
    return true;
}

static bool f_store(void *ctx, uint64_t a, unsigned n, uint64_t v)
{
    fake *f = ctx;
    bool ok = mapped(a, n);
    note(f, a, n, true, ok);
    if (!ok) return false;
    le_bytes_put(&f->ram[a - RAM_BASE], n, v);
    return true;
}

static void put(fake *f, uint64_t a, unsigned n, uint64_t v)
{
    le_bytes_put(&f->ram[a - RAM_BASE], n, v);
}

static uint64_t get(const fake *f, uint64_t a, unsigned n)
{
    return le_bytes_get(&f->ram[a - RAM_BASE], n);
}

/* Every test gets a fresh fake memory and CAP CSR file. */
static int new_fake(void **state)
{
    fake *f = test_calloc(1, sizeof *f);
    memset(f->ram, 0xCC, sizeof f->ram); /* "never written" marker */
    *state = f;
    return 0;
}

static int free_fake(void **state)
{
    test_free(*state);
    return 0;
}

static void program(cap_state *c, uint64_t base, uint64_t scl, uint64_t len, uint64_t mode)
{
    cap_reset(c, NULL);
    assert_true(cap_csr_write(c, SVMBASE, base));
    assert_true(cap_csr_write(c, SVMIDX, IDX));
    assert_true(cap_csr_write(c, SVMSCL, scl));
    assert_true(cap_csr_write(c, SVMLEN, len));
    assert_true(cap_csr_write(c, SVMMODE, mode));
}

/* Snapshot c now, then run with predicate lanes pred. */
static void run(fake *f, const cap_state *c, uint64_t pred, uint64_t buf, uint64_t count,
                xmem_svm_result *r)
{
    cap_snap s;
    cap_snapshot(c, &s);
    xmem_svm_cfg cfg;
    xmem_svm_config(&s, pred, &cfg);
    xmem_svm_mem m = {f, f_load, f_store};
    f->n = 0;
    memset(r, 0x5A, sizeof *r);
    xmem_svm_exec(&cfg, &m, buf, count, r);
}

static void expect_log(const fake *f, unsigned i, uint64_t addr, unsigned size, bool store)
{
    assert_true(i < f->n);
    assert_int_equal(f->log[i].addr, addr);
    assert_int_equal(f->log[i].size, size);
    assert_int_equal(f->log[i].store, store);
}

/* Number of recorded attempts touching [lo, lo + len). */
static unsigned touches(const fake *f, uint64_t lo, uint64_t len)
{
    unsigned k = 0;
    for (unsigned i = 0; i < f->n; i++)
        if (f->log[i].addr < lo + len && f->log[i].addr + f->log[i].size > lo) k++;
    return k;
}

static void expect_done(const xmem_svm_result *r, uint64_t count)
{
    assert_int_equal(r->status, XMEM_SVM_DONE);
    assert_int_equal(r->rd, count);
    assert_int_equal(r->svfaulti, ~UINT64_C(0));
}

/* A trap at element i: an access fault (a store fault when store) with mtval = tval. */
static void expect_trap(const xmem_svm_result *r, bool store, uint64_t tval, uint64_t i)
{
    assert_int_equal(r->status, XMEM_SVM_TRAP);
    assert_int_equal(r->fault_store, store);
    assert_int_equal(r->tval, tval);
    assert_int_equal(r->svfaulti, i);
}

/* A fault-only-first stop at element i: rd = SVFAULTI = i. */
static void expect_fof_stop(const xmem_svm_result *r, uint64_t i)
{
    assert_int_equal(r->status, XMEM_SVM_FOF_STOP);
    assert_int_equal(r->rd, i);
    assert_int_equal(r->svfaulti, i);
}

/* The table: n elements of `size` bytes from TAB, element k = first + k. */
static void fill_table(fake *f, unsigned size, unsigned n, uint64_t first)
{
    for (unsigned k = 0; k < n; k++)
        put(f, TAB + (uint64_t)size * k, size, first + k);
}

/* The index array: n entries of `width` bytes from IDX. */
static void put_indices(fake *f, unsigned width, const uint64_t *idx, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        put(f, IDX + (uint64_t)width * i, width, idx[i]);
}

/* Gather: 32-bit unsigned indices {3, 0, 7, 1}, scale 4, 4-byte elements from a table
 * whose word k is 0xA0000000 + k: addresses TAB + 12, TAB, TAB + 28, TAB + 4; per element
 * index read, element load, buffer store, in element order; rd = 4; SVFAULTI = ~0.
 * REQ: CAP-025 XMEM-065 XMEM-072 */
static void test_gather(void **state)
{
    fake *f = *state;
    cap_state *c = &f->cap;
    program(c, TAB, SCL(2, 0, 0, 0, W32), 4, 0);
    fill_table(f, 4, 16, 0xA0000000u);
    put_indices(f, 4, (const uint64_t[]){3, 0, 7, 1}, 4);
    xmem_svm_result r;
    run(f, c, ~UINT64_C(0), BUF, 4, &r);
    expect_done(&r, 4);
    assert_int_equal(r.events, 0);
    assert_int_equal(get(f, BUF, 4), 0xA0000003);
    assert_int_equal(get(f, BUF + 4, 4), 0xA0000000);
    assert_int_equal(get(f, BUF + 8, 4), 0xA0000007);
    assert_int_equal(get(f, BUF + 12, 4), 0xA0000001);
    assert_int_equal(get(f, BUF + 16, 4), 0xCCCCCCCC); /* nothing past element 3 */
    assert_int_equal(f->n, 12);
    const uint64_t ea[4] = {TAB + 12, TAB, TAB + 28, TAB + 4};
    for (unsigned i = 0; i < 4; i++) {
        expect_log(f, 3 * i, IDX + 4 * i, 4, false);
        expect_log(f, 3 * i + 1, ea[i], 4, false);
        expect_log(f, 3 * i + 2, BUF + 4 * i, 4, true);
    }
    /* count 0: nothing happens, rd = 0, completed */
    run(f, c, ~UINT64_C(0), BUF, 0, &r);
    expect_done(&r, 0);
    assert_int_equal(f->n, 0);
}

/* Scatter: 16-bit indices {2, 5, 0, 9}, scale 8, 4-byte elements: buffer word i goes to
 * TAB + 16, TAB + 40, TAB, TAB + 72; every other word of TAB is untouched.
 * REQ: CAP-025 XMEM-065 XMEM-072 */
static void test_scatter(void **state)
{
    fake *f = *state;
    cap_state *c = &f->cap;
    program(c, TAB, SCL(3, 0, 1, 0, W16), 4, 0);
    put_indices(f, 2, (const uint64_t[]){2, 5, 0, 9}, 4);
    for (unsigned i = 0; i < 4; i++)
        put(f, BUF + 4 * i, 4, 0x11111111u * (i + 1));
    xmem_svm_result r;
    run(f, c, ~UINT64_C(0), BUF, 4, &r);
    expect_done(&r, 4);
    assert_int_equal(get(f, TAB + 16, 4), 0x11111111);
    assert_int_equal(get(f, TAB + 40, 4), 0x22222222);
    assert_int_equal(get(f, TAB + 0, 4), 0x33333333);
    assert_int_equal(get(f, TAB + 72, 4), 0x44444444);
    for (unsigned off = 0; off < 96; off += 4)
        if (off != 16 && off != 40 && off != 0 && off != 72)
            assert_int_equal(get(f, TAB + off, 4), 0xCCCCCCCC);
    assert_int_equal(f->n, 12);
    const uint64_t ea[4] = {TAB + 16, TAB + 40, TAB, TAB + 72};
    for (unsigned i = 0; i < 4; i++) {
        expect_log(f, 3 * i, IDX + 2 * i, 2, false);
        expect_log(f, 3 * i + 1, BUF + 4 * i, 4, false);
        expect_log(f, 3 * i + 2, ea[i], 4, true);
    }
}

/* SCALE_LOG2 0-4 = scale 1, 2, 4, 8, 16: index 5 addresses TAB + 5, 10, 20, 40, 80.
 * SCALE_LOG2 7 is WARL to 4 (scale 16). REQ: XMEM-064 XMEM-072 */
static void test_scale(void **state)
{
    fake *f = *state;
    cap_state *c = &f->cap;
    const uint64_t want[5] = {TAB + 5, TAB + 10, TAB + 20, TAB + 40, TAB + 80};
    put(f, IDX, 4, 5);
    for (unsigned sl = 0; sl <= 4; sl++) {
        program(c, TAB, SCL(sl, 0, 0, 0, W32), 1, 0);
        xmem_svm_result r;
        run(f, c, ~UINT64_C(0), BUF, 1, &r);
        expect_done(&r, 1);
        expect_log(f, 1, want[sl], 1, false);
    }
    program(c, TAB, SCL(7, 0, 0, 0, W32), 1, 0);
    xmem_svm_result r;
    run(f, c, ~UINT64_C(0), BUF, 1, &r);
    expect_log(f, 1, TAB + 80, 1, false);
}

/* Index widths and extension: base MID = 0x14000, scale 2, one 1-byte element; the index
 * entry is followed by 0x77 bytes that must not be part of it.
 *   IDX_W   raw                   unsigned -> address       signed -> address
 *   8-bit   0xFE                  254 -> 0x141FC            -2 -> 0x13FFC
 *   16-bit  0xFFFE                65534 -> 0x33FFC (fault)  -2 -> 0x13FFC
 *   32-bit  0xFFFFFFFE            -> 0x200013FFC (fault)    -2 -> 0x13FFC
 *   64-bit  0xFFFFFFFFFFFFFFFE    wraps -> 0x13FFC          -2 -> 0x13FFC
 *   8-bit   0x7F                  127 -> 0x140FE            127 -> 0x140FE
 * A faulting element traps with mtval = its address (FOF = 0). REQ: XMEM-064 XMEM-072 */
static void test_index_widths(void **state)
{
    fake *f = *state;
    cap_state *c = &f->cap;
    static const struct {
        unsigned w, bytes;
        uint64_t raw;
        bool sign;
        uint64_t addr;
        bool fault;
    } t[] = {
        {W8, 1, 0xFE, false, 0x141FC, false},
        {W8, 1, 0xFE, true, 0x13FFC, false},
        {W16, 2, 0xFFFE, false, 0x33FFC, true},
        {W16, 2, 0xFFFE, true, 0x13FFC, false},
        {W32, 4, 0xFFFFFFFE, false, 0x200013FFC, true},
        {W32, 4, 0xFFFFFFFE, true, 0x13FFC, false},
        {W64, 8, 0xFFFFFFFFFFFFFFFE, false, 0x13FFC, false},
        {W64, 8, 0xFFFFFFFFFFFFFFFE, true, 0x13FFC, false},
        {W8, 1, 0x7F, false, 0x140FE, false},
        {W8, 1, 0x7F, true, 0x140FE, false},
    };
    put(f, 0x13FFC, 1, 0x42);
    put(f, 0x141FC, 1, 0x43);
    put(f, 0x140FE, 1, 0x44);
    for (unsigned k = 0; k < sizeof t / sizeof t[0]; k++) {
        program(c, MID, SCL(1, t[k].sign, 0, 0, t[k].w), 1, 0);
        put(f, IDX, 8, 0x7777777777777777);
        put(f, IDX, t[k].bytes, t[k].raw);
        put(f, BUF, 1, 0);
        xmem_svm_result r;
        run(f, c, ~UINT64_C(0), BUF, 1, &r);
        expect_log(f, 0, IDX, t[k].bytes, false);
        expect_log(f, 1, t[k].addr, 1, false);
        if (t[k].fault) {
            expect_trap(&r, false, t[k].addr, 0);
            assert_int_equal(f->n, 2);
        } else {
            expect_done(&r, 1);
            assert_int_equal(get(f, BUF, 1), get(f, t[k].addr, 1));
        }
    }
}

/* Element size: the table's byte k is 0x10 + k; indices {2, 5}, scale 1. SVMLEN 1, 2, 4,
 * 8 move that many raw bytes (little-endian) into consecutive buffer slots; the byte
 * after the last slot stays 0xCC. REQ: XMEM-063 CAP-146 */
static void test_svmlen(void **state)
{
    fake *f = *state;
    cap_state *c = &f->cap;
    fill_table(f, 1, 64, 0x10);
    put_indices(f, 4, (const uint64_t[]){2, 5}, 2);
    static const struct {
        unsigned len;
        uint64_t e0, e1;
    } t[] = {{1, 0x12, 0x15},
             {2, 0x1312, 0x1615},
             {4, 0x15141312, 0x18171615},
             {8, 0x1918171615141312, 0x1C1B1A1918171615}};
    for (unsigned k = 0; k < 4; k++) {
        memset(f->ram + (BUF - RAM_BASE), 0xCC, 32);
        program(c, TAB, SCL(0, 0, 0, 0, W32), t[k].len, 0);
        xmem_svm_result r;
        run(f, c, ~UINT64_C(0), BUF, 2, &r);
        expect_done(&r, 2);
        unsigned n = t[k].len;
        assert_int_equal(get(f, BUF, n), t[k].e0);
        assert_int_equal(get(f, BUF + n, n), t[k].e1);
        assert_int_equal(get(f, BUF + 2 * n, 1), 0xCC);
        expect_log(f, 1, TAB + 2, n, false);
        expect_log(f, 2, BUF, n, true);
    }
}

/* SVMLEN = 0 takes EFF_EW from the snapshot: reset EW16 -> 2 bytes; MODE applied with
 * EW8 (code 0) -> 1 byte, EW32 (code 2) -> 4 bytes. SVMLEN 3 is WARL 0 -> EFF_EW.
 * The width tracks PREC state. REQ: XMEM-063 XMEM-069 CAP-146 */
static void test_svmlen_eff_ew(void **state)
{
    fake *f = *state;
    cap_state *c = &f->cap;
    fill_table(f, 1, 64, 0x10);
    put(f, IDX, 4, 2);
    static const struct {
        uint64_t mode; /* 0 = reset MODE */
        uint64_t len;
        unsigned ew, bytes;
        uint64_t e0;
    } t[] = {
        {0, 0, 1, 2, 0x1312},
        {0x80000000u | (0u << 19), 0, 0, 1, 0x12},
        {0x80000000u | (2u << 19), 0, 2, 4, 0x15141312},
        {0x80000000u | (2u << 19), 3, 2, 4, 0x15141312},
    };
    for (unsigned k = 0; k < 4; k++) {
        memset(f->ram + (BUF - RAM_BASE), 0xCC, 32);
        program(c, TAB, SCL(0, 0, 0, 0, W32), t[k].len, 0);
        if (t[k].mode) assert_true(cap_csr_write(c, MODE, t[k].mode));
        cap_snap s;
        cap_snapshot(c, &s);
        assert_int_equal(s.ew, t[k].ew); /* precondition: the EW the MODE write applied */
        xmem_svm_result r;
        run(f, c, ~UINT64_C(0), BUF, 1, &r);
        expect_done(&r, 1);
        expect_log(f, 1, TAB + 2, t[k].bytes, false);
        assert_int_equal(get(f, BUF, t[k].bytes), t[k].e0);
        assert_int_equal(get(f, BUF + t[k].bytes, 1), 0xCC);
    }
}

/* Predication: lanes 0b1010 (elements 1 and 3 enabled). The masked elements' index
 * entries point at an unmapped address; the memory must never see their index entry,
 * their element address or (merge / scatter) their buffer slot. ZMODE merge keeps the
 * masked buffer slots, ZMODE zero writes 0 there (a buffer write, not an element
 * access); a scatter stores nothing for them. rd = 4 in every case.
 * REQ: CAP-032 XMEM-070 XMEM-071 */
static void test_predication(void **state)
{
    fake *f = *state;
    cap_state *c = &f->cap;
    fill_table(f, 4, 16, 0xB0000000u);
    put_indices(f, 4, (const uint64_t[]){0x10000, 2, 0x10001, 4}, 4); /* masked: unmapped */
    /* merge (reset ZMODE 0) */
    program(c, TAB, SCL(2, 0, 0, 0, W32), 4, 0);
    xmem_svm_result r;
    run(f, c, 0xA, BUF, 4, &r);
    expect_done(&r, 4);
    assert_int_equal(get(f, BUF, 4), 0xCCCCCCCC);
    assert_int_equal(get(f, BUF + 4, 4), 0xB0000002);
    assert_int_equal(get(f, BUF + 8, 4), 0xCCCCCCCC);
    assert_int_equal(get(f, BUF + 12, 4), 0xB0000004);
    assert_int_equal(f->n, 6);
    assert_int_equal(touches(f, IDX, 4), 0);
    assert_int_equal(touches(f, IDX + 8, 4), 0);
    assert_int_equal(touches(f, BUF, 4), 0);
    assert_int_equal(touches(f, BUF + 8, 4), 0);
    for (unsigned i = 0; i < f->n; i++)
        assert_true(f->log[i].ok);
    /* zero: MODE ZMODE (bit 3, errata Q-14) with the reset EW16, applied */
    program(c, TAB, SCL(2, 0, 0, 0, W32), 4, 0);
    assert_true(cap_csr_write(c, MODE, 0x80080008u));
    memset(f->ram + (BUF - RAM_BASE), 0xCC, 32);
    run(f, c, 0xA, BUF, 4, &r);
    expect_done(&r, 4);
    assert_int_equal(get(f, BUF, 4), 0);
    assert_int_equal(get(f, BUF + 4, 4), 0xB0000002);
    assert_int_equal(get(f, BUF + 8, 4), 0);
    assert_int_equal(get(f, BUF + 12, 4), 0xB0000004);
    assert_int_equal(f->n, 8); /* 2 x (index, load, store) + 2 zero stores */
    expect_log(f, 0, BUF, 4, true);
    expect_log(f, 4, BUF + 8, 4, true);
    assert_int_equal(touches(f, IDX, 4), 0);
    assert_int_equal(touches(f, IDX + 8, 4), 0);
    /* scatter: the masked elements store nothing and read nothing */
    program(c, TAB, SCL(2, 0, 1, 0, W32), 4, 0);
    memset(f->ram + (TAB - RAM_BASE), 0xCC, 64);
    for (unsigned i = 0; i < 4; i++)
        put(f, BUF + 4 * i, 4, 0xD0000000u + i);
    run(f, c, 0xA, BUF, 4, &r);
    expect_done(&r, 4);
    assert_int_equal(get(f, TAB + 8, 4), 0xD0000001);
    assert_int_equal(get(f, TAB + 16, 4), 0xD0000003);
    assert_int_equal(f->n, 6);
    for (unsigned i = 0; i < f->n; i++)
        assert_true(f->log[i].ok);
    for (unsigned off = 0; off < 64; off += 4)
        if (off != 8 && off != 16) assert_int_equal(get(f, TAB + off, 4), 0xCCCCCCCC);
    /* a masked element of a zeroing gather whose buffer slot is inaccessible: its zero
     * write faults as a store (store access fault at the slot, SVFAULTI = 0) */
    program(c, TAB, SCL(2, 0, 0, 0, W32), 4, 0);
    assert_true(cap_csr_write(c, MODE, 0x80080008u));
    run(f, c, 0xA, HOLE, 4, &r);
    expect_trap(&r, true, HOLE, 0);
}

/* Element i uses lane i mod 64 (errata Q-62): with only lane 1 set, a 130-element gather
 * issues elements 1, 65 and 129 only. An empty predicate with a huge count issues
 * nothing and completes (rd = count). REQ: CAP-032 XMEM-070 */
static void test_predication_lanes(void **state)
{
    fake *f = *state;
    cap_state *c = &f->cap;
    program(c, TAB, SCL(0, 0, 0, 0, W8), 1, 0);
    for (unsigned i = 0; i < 130; i++)
        put(f, IDX + i, 1, i & 0x3F);
    fill_table(f, 1, 64, 0x80);
    xmem_svm_result r;
    run(f, c, 0x2, BUF, 130, &r);
    expect_done(&r, 130);
    assert_int_equal(f->n, 9);
    expect_log(f, 0, IDX + 1, 1, false);
    expect_log(f, 3, IDX + 65, 1, false);
    expect_log(f, 6, IDX + 129, 1, false);
    assert_int_equal(get(f, BUF + 1, 1), 0x81);  /* index 1 */
    assert_int_equal(get(f, BUF + 65, 1), 0x81); /* index 65 & 0x3F = 1 */
    assert_int_equal(get(f, BUF + 129, 1), 0x81);
    assert_int_equal(get(f, BUF + 2, 1), 0xCC);
    /* lane 63 only: element 63 of 64 */
    run(f, c, UINT64_C(1) << 63, BUF, 64, &r);
    expect_done(&r, 64);
    assert_int_equal(f->n, 3);
    expect_log(f, 0, IDX + 63, 1, false);
    /* empty predicate, merge gather and scatter: no access at all */
    run(f, c, 0, BUF, ~UINT64_C(0), &r);
    expect_done(&r, ~UINT64_C(0));
    assert_int_equal(f->n, 0);
    program(c, TAB, SCL(0, 0, 1, 0, W8), 1, 0);
    run(f, c, 0, HOLE, UINT64_C(1) << 40, &r);
    expect_done(&r, UINT64_C(1) << 40);
    assert_int_equal(f->n, 0);
}

/* Fault-only-first, i > 0: indices {0, 1, HOLE, 3}; element 2 faults: no trap, rd = 2,
 * SVFAULTI = 2, elements 0 and 1 done, element 3 never issued (its index entry is not
 * even read), INV_MISS reported (errata Q-58). The same for a scatter.
 * REQ: CAP-143 XMEM-066 XMEM-077 */
static void test_fof_stop(void **state)
{
    fake *f = *state;
    cap_state *c = &f->cap;
    fill_table(f, 8, 4, 0xE000000000000000u);
    put_indices(f, 8, (const uint64_t[]){0, 1, (HOLE - TAB) / 8, 3}, 4);
    program(c, TAB, SCL(3, 0, 0, 1, W64), 8, 0);
    xmem_svm_result r;
    run(f, c, ~UINT64_C(0), BUF, 4, &r);
    expect_fof_stop(&r, 2);
    assert_int_equal(r.events, INV_MISS);
    assert_int_equal(get(f, BUF, 8), 0xE000000000000000u);
    assert_int_equal(get(f, BUF + 8, 8), 0xE000000000000001u);
    assert_int_equal(get(f, BUF + 16, 8), 0xCCCCCCCCCCCCCCCCu);
    assert_int_equal(get(f, BUF + 24, 8), 0xCCCCCCCCCCCCCCCCu);
    assert_int_equal(f->n, 8); /* 2 x 3, then element 2's index and its failed load */
    expect_log(f, 7, HOLE, 8, false);
    assert_false(f->log[7].ok);
    assert_int_equal(touches(f, IDX + 24, 8), 0);
    /* scatter: element 1 faults on its store */
    put_indices(f, 8, (const uint64_t[]){0, (HOLE - TAB) / 8, 2}, 3);
    for (unsigned i = 0; i < 3; i++)
        put(f, BUF + 8 * i, 8, 0xF0 + i);
    memset(f->ram + (TAB - RAM_BASE), 0xCC, 64);
    program(c, TAB, SCL(3, 0, 1, 1, W64), 8, 0);
    run(f, c, ~UINT64_C(0), BUF, 3, &r);
    expect_fof_stop(&r, 1);
    assert_int_equal(get(f, TAB, 8), 0xF0);
    assert_int_equal(get(f, TAB + 16, 8), 0xCCCCCCCCCCCCCCCCu);
    assert_int_equal(f->n, 6);
    expect_log(f, 5, HOLE, 8, true);
}

/* Fault-only-first, element 0: traps normally (gather: load access fault, scatter:
 * store access fault, mtval = the element address), SVFAULTI = 0, nothing done.
 * A masked element 0 is not the first *faulting* element: with lanes 0b10, element 1
 * faulting is an FOF stop with rd = 1. REQ: CAP-143 XMEM-066 XMEM-077 */
static void test_fof_first(void **state)
{
    fake *f = *state;
    cap_state *c = &f->cap;
    put(f, IDX, 4, 0x100); /* HOLE + 0x100 * 16 = HOLE + 0x1000: unmapped */
    put(f, IDX + 4, 4, 0x100);
    program(c, HOLE, SCL(4, 0, 0, 1, W32), 2, 0);
    xmem_svm_result r;
    run(f, c, ~UINT64_C(0), BUF, 2, &r);
    expect_trap(&r, false, HOLE + 0x1000, 0);
    assert_int_equal(r.events, INV_MISS);
    assert_int_equal(f->n, 2);
    assert_int_equal(get(f, BUF, 2), 0xCCCC);
    program(c, HOLE, SCL(4, 0, 1, 1, W32), 2, 0);
    run(f, c, ~UINT64_C(0), BUF, 2, &r);
    expect_trap(&r, true, HOLE + 0x1000, 0);
    assert_int_equal(f->n, 3);
    /* element 0 masked, element 1 faults: FOF stop at 1 */
    program(c, HOLE, SCL(4, 0, 0, 1, W32), 2, 0);
    run(f, c, 0x2, BUF, 2, &r);
    expect_fof_stop(&r, 1);
    assert_int_equal(f->n, 2);
    expect_log(f, 0, IDX + 4, 4, false);
}

/* FOF = 0: the first fault traps with mtval = the address and SVFAULTI = i; earlier
 * elements are done, later ones not issued. Faults of the index entry (load access
 * fault at the entry) and of the buffer slot (gather: store access fault at the slot)
 * count as faults of that element too; BOUND_CHECK or ALLOW_OOB_ZERO alone keeps the
 * fault. REQ: XMEM-067 */
static void test_fault_trap(void **state)
{
    fake *f = *state;
    cap_state *c = &f->cap;
    fill_table(f, 4, 4, 0x70);
    put_indices(f, 4, (const uint64_t[]){1, 2, 0x40000, 3}, 4);
    program(c, TAB, SCL(2, 0, 0, 0, W32), 4, BOUND_CHECK); /* BOUND_CHECK alone faults */
    xmem_svm_result r;
    run(f, c, ~UINT64_C(0), BUF, 4, &r);
    expect_trap(&r, false, TAB + 0x100000, 2);
    assert_int_equal(r.events, INV_MISS);
    assert_int_equal(get(f, BUF, 4), 0x71);
    assert_int_equal(get(f, BUF + 4, 4), 0x72);
    assert_int_equal(get(f, BUF + 8, 4), 0xCCCCCCCC);
    assert_int_equal(touches(f, IDX + 12, 4), 0);
    /* ALLOW_OOB_ZERO without BOUND_CHECK faults too */
    program(c, TAB, SCL(2, 0, 0, 0, W32), 4, ALLOW_OOB_ZERO);
    run(f, c, ~UINT64_C(0), BUF, 4, &r);
    expect_trap(&r, false, TAB + 0x100000, 2);
    /* the index array itself unmapped: load access fault at the entry, element 0 */
    program(c, TAB, SCL(2, 0, 0, 0, W32), 4, 0);
    assert_true(cap_csr_write(c, SVMIDX, HOLE));
    run(f, c, ~UINT64_C(0), BUF, 4, &r);
    expect_trap(&r, false, HOLE, 0);
    /* buffer running off RAM at element 1 (FOF = 0): store access fault at the slot */
    program(c, TAB, SCL(2, 0, 0, 0, W32), 4, 0);
    run(f, c, ~UINT64_C(0), RAM_BASE + RAM_SIZE - 4, 4, &r);
    expect_trap(&r, true, RAM_BASE + RAM_SIZE, 1);
}

/* BOUND_CHECK = 1 and ALLOW_OOB_ZERO = 1: an inaccessible gather element reads 0 and a
 * scatter element is dropped; the operation completes (rd = count, SVFAULTI = ~0) and
 * reports INV_MISS; with FOF = 1 as well, nothing stops. REQ: XMEM-068 */
static void test_oob_zero(void **state)
{
    fake *f = *state;
    cap_state *c = &f->cap;
    fill_table(f, 4, 4, 0x90);
    put_indices(f, 4, (const uint64_t[]){1, 0x40000, 3}, 3);
    program(c, TAB, SCL(2, 0, 0, 1, W32), 4, BOUND_CHECK | ALLOW_OOB_ZERO);
    xmem_svm_result r;
    run(f, c, ~UINT64_C(0), BUF, 3, &r);
    expect_done(&r, 3);
    assert_int_equal(r.events, INV_MISS);
    assert_int_equal(get(f, BUF, 4), 0x91);
    assert_int_equal(get(f, BUF + 4, 4), 0);
    assert_int_equal(get(f, BUF + 8, 4), 0x93);
    /* all accessible: no event */
    put(f, IDX + 4, 4, 2);
    run(f, c, ~UINT64_C(0), BUF, 3, &r);
    expect_done(&r, 3);
    assert_int_equal(r.events, 0);
    assert_int_equal(get(f, BUF + 4, 4), 0x92);
    /* scatter: element 1 dropped */
    put(f, IDX + 4, 4, 0x40000);
    for (unsigned i = 0; i < 3; i++)
        put(f, BUF + 4 * i, 4, 0xA0 + i);
    memset(f->ram + (TAB - RAM_BASE), 0xCC, 16);
    program(c, TAB, SCL(2, 0, 1, 0, W32), 4, BOUND_CHECK | ALLOW_OOB_ZERO);
    run(f, c, ~UINT64_C(0), BUF, 3, &r);
    expect_done(&r, 3);
    assert_int_equal(r.events, INV_MISS);
    assert_int_equal(get(f, TAB + 4, 4), 0xA0);
    assert_int_equal(get(f, TAB + 12, 4), 0xA2);
    assert_int_equal(get(f, TAB + 8, 4), 0xCCCCCCCC);
    expect_log(f, 5, TAB + 0x100000, 4, true);
    assert_false(f->log[5].ok);
}

/* BOUND_CHECK's region bound (errata P-205) at its edges: a region exactly one element
 * long holds its element, and the last element that ends exactly at the region's end is
 * inside; one element further is out of range (zero with ALLOW_OOB_ZERO, INV_MISS).
 * REQ: XMEM-067 XMEM-068 */
static void test_region_bound_edges(void **state)
{
    fake *f = *state;
    cap_state *c = &f->cap;
    fill_table(f, 4, 4, 0x70);
    put_indices(f, 4, (const uint64_t[]){0, 1, 2}, 3);
    program(c, TAB, SCL(2, 0, 0, 0, W32), 4, BOUND_CHECK | ALLOW_OOB_ZERO);
    cap_snap s;
    cap_snapshot(c, &s);
    xmem_svm_mem m = {f, f_load, f_store};
    for (uint64_t bound = 4; bound <= 8; bound += 4) {
        xmem_svm_cfg cfg;
        xmem_svm_config(&s, ~UINT64_C(0), &cfg);
        cfg.bound_lo = TAB;
        cfg.bound_size = bound;
        xmem_svm_result r;
        memset(f->ram + (BUF - RAM_BASE), 0xCC, 12);
        xmem_svm_exec(&cfg, &m, BUF, 3, &r);
        expect_done(&r, 3);
        assert_int_equal(r.events, INV_MISS);
        assert_int_equal(get(f, BUF, 4), 0x70);
        assert_int_equal(get(f, BUF + 4, 4), bound == 8 ? 0x71 : 0);
        assert_int_equal(get(f, BUF + 8, 4), 0);
    }
}

/* The operation runs under the snapshot taken at its boundary: SVM CSRs rewritten while
 * it runs (at its first access) do not affect it; a later snapshot sees them.
 * REQ: XMEM-074 CAP-006 */
static void test_snapshot_isolation(void **state)
{
    fake *f = *state;
    cap_state *c = &f->cap;
    fill_table(f, 4, 4, 0x60);
    put_indices(f, 4, (const uint64_t[]){3, 2, 1, 0}, 4);
    program(c, TAB, SCL(2, 0, 0, 0, W32), 4, 0);
    f->meddle = c;
    xmem_svm_result r;
    run(f, c, ~UINT64_C(0), BUF, 4, &r);
    expect_done(&r, 4);
    for (unsigned i = 0; i < 4; i++)
        assert_int_equal(get(f, BUF + 4 * i, 4), 0x63 - i);
    assert_int_equal(f->n, 12);
    for (unsigned i = 0; i < f->n; i++)
        assert_true(f->log[i].ok);
    f->meddle = NULL;
    cap_snap s;
    cap_snapshot(c, &s);
    assert_int_equal(cap_snap_xmem(&s, SVMBASE), HOLE);
    xmem_svm_cfg cfg;
    xmem_svm_config(&s, ~UINT64_C(0), &cfg);
    assert_int_equal(cfg.base, HOLE);
    assert_int_equal(cfg.idx_ptr, HOLE);
    assert_int_equal(cfg.scale, 16);
    assert_true(cfg.scatter && cfg.fof && cfg.idx_signed);
    assert_int_equal(cfg.idx_size, 1);
    assert_int_equal(cfg.size, 8);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_gather, new_fake, free_fake),
        cmocka_unit_test_setup_teardown(test_scatter, new_fake, free_fake),
        cmocka_unit_test_setup_teardown(test_scale, new_fake, free_fake),
        cmocka_unit_test_setup_teardown(test_index_widths, new_fake, free_fake),
        cmocka_unit_test_setup_teardown(test_svmlen, new_fake, free_fake),
        cmocka_unit_test_setup_teardown(test_svmlen_eff_ew, new_fake, free_fake),
        cmocka_unit_test_setup_teardown(test_predication, new_fake, free_fake),
        cmocka_unit_test_setup_teardown(test_predication_lanes, new_fake, free_fake),
        cmocka_unit_test_setup_teardown(test_fof_stop, new_fake, free_fake),
        cmocka_unit_test_setup_teardown(test_fof_first, new_fake, free_fake),
        cmocka_unit_test_setup_teardown(test_fault_trap, new_fake, free_fake),
        cmocka_unit_test_setup_teardown(test_oob_zero, new_fake, free_fake),
        cmocka_unit_test_setup_teardown(test_region_bound_edges, new_fake, free_fake),
        cmocka_unit_test_setup_teardown(test_snapshot_isolation, new_fake, free_fake),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
