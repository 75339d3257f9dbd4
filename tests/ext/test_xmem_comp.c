/* test_xmem_comp.c — the compressed-access codec (src/ext/xmem/xmem_comp.h, errata Q-55)
 * over host buffers. Reference frames come from libzstd's own one-shot and streaming
 * API, called here directly. Every output buffer is followed by a guard that must stay
 * untouched. REQ: XMEM-103 XMEM-088 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include <cmocka.h>

#include "xmem_comp.h"
#include "xphmg_csr.h"

#define GUARD      64
#define GUARD_BYTE 0xEE

static uint8_t *guarded(size_t cap)
{
    uint8_t *b = malloc(cap + GUARD);
    assert_non_null(b);
    memset(b, GUARD_BYTE, cap + GUARD);
    return b;
}

static void guard_intact(const uint8_t *b, size_t cap)
{
    for (size_t i = 0; i < GUARD; i++)
        assert_int_equal(b[cap + i], GUARD_BYTE);
}

/* Compressible test data: a few repeated words with a changing counter. */
static void fill(uint8_t *p, size_t n, unsigned seed)
{
    static const char *w[] = {"tile ", "ray ", "node ", "lds "};
    size_t i = 0;
    for (unsigned k = seed; i < n; k++)
        for (const char *s = w[k % 4]; *s && i < n; s++)
            p[i++] = (uint8_t)(*s ^ (k / 64));
}

static xmem_comp_cfg zstd_cfg(unsigned level)
{
    return xmem_comp_config((uint64_t)level << CAP_XMEM_COMP_CTL_LEVEL_SHIFT, 1);
}

/* The reference frame of one level: what the unit's stores promise (content size and
 * checksum), made through libzstd directly. */
static size_t reference(const uint8_t *in, size_t n, int level, uint8_t *out, size_t cap)
{
    ZSTD_CCtx *z = ZSTD_createCCtx();
    assert_non_null(z);
    assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(z, ZSTD_c_compressionLevel, level)));
    assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(z, ZSTD_c_checksumFlag, 1)));
    size_t r = ZSTD_compress2(z, out, cap, in, n);
    ZSTD_freeCCtx(z);
    assert_false(ZSTD_isError(r));
    return r;
}

/* COMP_CTL fields and CMODE: CMODE 0 takes MODE, 1-3 replace it; LEVEL 0 = zstd's
 * default; DICT_ID passes through. */
static void test_config(void **st)
{
    (void)st;
    xmem_comp_cfg c = xmem_comp_config(0x5A7, 0);
    assert_int_equal(c.mode, 7);
    assert_int_equal(c.level, 10);
    assert_int_equal(c.dict, 5);
    c = xmem_comp_config(0x5A7, 2);
    assert_int_equal(c.mode, 2);
    c = xmem_comp_config(0, 0);
    assert_int_equal(c.mode, XMEM_COMP_RAW);
    assert_int_equal(c.level, ZSTD_CLEVEL_DEFAULT);
    assert_int_equal(c.dict, 0);
}

/* Every level: the store equals the reference frame, and loads back exactly. */
static void test_levels_round_trip(void **st)
{
    (void)st;
    enum { N = 20000 };
    uint8_t *in = malloc(N), *ref = malloc(ZSTD_compressBound(N)), *out = guarded(N);
    assert_non_null(in);
    assert_non_null(ref);
    fill(in, N, 3);
    size_t bound = ZSTD_compressBound(N);
    uint8_t *frame = guarded(bound);
    for (unsigned lv = 0; lv < 16; lv++) {
        xmem_comp_cfg c = zstd_cfg(lv);
        size_t n = xmem_comp_encode(&c, in, N, frame, bound);
        size_t rn = reference(in, N, lv ? (int)lv : ZSTD_CLEVEL_DEFAULT, ref, bound);
        assert_int_equal(n, rn);
        assert_memory_equal(frame, ref, n);
        guard_intact(frame, bound);
        memset(out, 0, N);
        assert_int_equal(xmem_comp_decode(&c, frame, n, out, N), N);
        assert_memory_equal(out, in, N);
        guard_intact(out, N);
    }
    free(in);
    free(ref);
    free(out);
    free(frame);
}

/* A capacity one byte short fails for loads and stores, and nothing passes it. */
static void test_capacity(void **st)
{
    (void)st;
    enum { N = 3000 };
    uint8_t in[N], frame[N + 64];
    fill(in, N, 1);
    xmem_comp_cfg c = zstd_cfg(1);
    size_t n = xmem_comp_encode(&c, in, N, frame, sizeof frame);
    assert_true(n < N);
    uint8_t *small = guarded(n - 1);
    assert_int_equal(xmem_comp_encode(&c, in, N, small, n - 1), XMEM_COMP_FAIL);
    guard_intact(small, n - 1);
    free(small);
    uint8_t *out = guarded(N - 1);
    assert_int_equal(xmem_comp_decode(&c, frame, n, out, N - 1), XMEM_COMP_FAIL);
    guard_intact(out, N - 1);
    free(out);
    /* raw: a copy that must fit */
    xmem_comp_cfg raw = xmem_comp_config(0, 0);
    uint8_t *r = guarded(16);
    assert_int_equal(xmem_comp_decode(&raw, in, 17, r, 16), XMEM_COMP_FAIL);
    assert_int_equal(xmem_comp_encode(&raw, in, 16, r, 16), 16);
    assert_memory_equal(r, in, 16);
    guard_intact(r, 16);
    assert_int_equal(xmem_comp_decode(&raw, in, 0, r, 16), 0);
    free(r);
}

/* A frame without a content size that expands beyond the capacity,
 * and a header whose content size claims 1 GiB: refused, nothing past the capacity. */
static void test_hostile_sizes(void **st)
{
    (void)st;
    enum { N = 65536 };
    uint8_t *in = calloc(1, N), frame[512];
    assert_non_null(in);
    ZSTD_CCtx *z = ZSTD_createCCtx();
    assert_false(ZSTD_isError(ZSTD_CCtx_setParameter(z, ZSTD_c_contentSizeFlag, 0)));
    ZSTD_outBuffer o = {frame, sizeof frame, 0};
    ZSTD_inBuffer i = {in, N, 0};
    assert_int_equal(ZSTD_compressStream2(z, &o, &i, ZSTD_e_end), 0);
    ZSTD_freeCCtx(z);
    assert_int_equal(ZSTD_getFrameContentSize(frame, o.pos), ZSTD_CONTENTSIZE_UNKNOWN);
    xmem_comp_cfg c = zstd_cfg(0);
    uint8_t *out = guarded(100);
    assert_int_equal(xmem_comp_decode(&c, frame, o.pos, out, 100), XMEM_COMP_FAIL);
    guard_intact(out, 100);
    free(out);
    out = guarded(N);
    assert_int_equal(xmem_comp_decode(&c, frame, o.pos, out, N), N);
    guard_intact(out, N);
    free(out);
    /* a 4-byte content size field set to 2^30 (frame header descriptor FCS flag 2) */
    uint8_t hdr[] = {
        0x28, 0xB5, 0x2F, 0xFD, 0xA0, 0x00, 0x00,
        0x00, 0x40, 0x01, 0x00, 0x00, 0x41}; /* then a raw last block of 0 bytes + junk */
    out = guarded(64);
    assert_int_equal(xmem_comp_decode(&c, hdr, sizeof hdr, out, 64), XMEM_COMP_FAIL);
    guard_intact(out, 64);
    free(out);
    /* sizes over the limit, before anything is read (a NULL source would crash) */
    assert_int_equal(xmem_comp_decode(&c, NULL, XMEM_COMP_MAX_BYTES + 1, frame, 16),
                     XMEM_COMP_FAIL);
    assert_int_equal(xmem_comp_encode(&c, frame, 16, NULL, XMEM_COMP_MAX_BYTES + 1),
                     XMEM_COMP_FAIL);
    free(in);
}

/* Every truncation fails; every single-bit flip either fails or (never seen, allowed)
 * decodes to the original; the guard stays intact throughout. */
static void test_corrupt_and_truncated(void **st)
{
    (void)st;
    enum { N = 1000 };
    uint8_t in[N], frame[N + 64];
    fill(in, N, 7);
    xmem_comp_cfg c = zstd_cfg(5);
    size_t n = xmem_comp_encode(&c, in, N, frame, sizeof frame);
    uint8_t *out = guarded(N);
    for (size_t len = 0; len < n; len++) {
        assert_int_equal(xmem_comp_decode(&c, frame, len, out, N), XMEM_COMP_FAIL);
        guard_intact(out, N);
    }
    unsigned failed = 0;
    for (size_t k = 0; k < n * 8; k++) {
        frame[k / 8] ^= (uint8_t)(1u << (k % 8));
        size_t r = xmem_comp_decode(&c, frame, n, out, N);
        if (r == XMEM_COMP_FAIL)
            failed++;
        else
            assert_memory_equal(out, in, N);
        guard_intact(out, N);
        frame[k / 8] ^= (uint8_t)(1u << (k % 8));
    }
    assert_true(failed > n * 8 * 9 / 10);
    free(out);
}

/* No dictionaries: DICT_ID != 0 with zstd, and a frame naming dictionary 7, fail;
 * modes 2..15 fail; DICT_ID is ignored by the raw copy. */
static void test_unsupported(void **st)
{
    (void)st;
    uint8_t in[64], frame[160], out[64];
    fill(in, sizeof in, 0);
    xmem_comp_cfg c = zstd_cfg(1);
    size_t n = xmem_comp_encode(&c, in, sizeof in, frame, sizeof frame);
    assert_true(n != XMEM_COMP_FAIL);
    xmem_comp_cfg d = xmem_comp_config(0x701, 0);
    assert_int_equal(xmem_comp_encode(&d, in, sizeof in, out, sizeof out), XMEM_COMP_FAIL);
    assert_int_equal(xmem_comp_decode(&d, frame, n, out, sizeof out), XMEM_COMP_FAIL);
    /* the same frame with Dictionary_ID_flag = 1 and the ID byte 7 after the
     * descriptor (single-segment frame: no window descriptor) */
    uint8_t named[sizeof frame + 1];
    assert_int_equal(frame[4] & 0x23, 0x20);
    memcpy(named, frame, 5);
    named[4] |= 1;
    named[5] = 7;
    memcpy(named + 6, frame + 5, n - 5);
    assert_int_equal(xmem_comp_decode(&c, named, n + 1, out, sizeof out), XMEM_COMP_FAIL);
    assert_int_equal(xmem_comp_decode(&c, frame, n, out, sizeof out), sizeof in);
    for (unsigned m = 2; m < 16; m++) {
        xmem_comp_cfg u = xmem_comp_config(m, 0);
        assert_int_equal(xmem_comp_decode(&u, frame, n, out, sizeof out), XMEM_COMP_FAIL);
        assert_int_equal(xmem_comp_encode(&u, in, sizeof in, out, sizeof out), XMEM_COMP_FAIL);
    }
    xmem_comp_cfg raw = xmem_comp_config(0x700, 0);
    assert_int_equal(xmem_comp_encode(&raw, in, sizeof in, out, sizeof out), sizeof in);
}

int main(void)
{
    const struct CMUnitTest t[] = {
        cmocka_unit_test(test_config),
        cmocka_unit_test(test_levels_round_trip),
        cmocka_unit_test(test_capacity),
        cmocka_unit_test(test_hostile_sizes),
        cmocka_unit_test(test_corrupt_and_truncated),
        cmocka_unit_test(test_unsupported),
    };
    return cmocka_run_group_tests(t, NULL, NULL);
}
