/* test_bvh_portable — the builder's output does not depend on the host's vector unit.
 *
 * bvh_build.c has SSE forms of its box arithmetic, binning and SAH sweep and scalar forms
 * for other hosts (docs/bvh.md, "Determinism"). bvh_build_scalar.c compiles the scalar
 * forms under other names; both must give the same blob and the same permutation for
 * procedural meshes, random ones with degenerate and duplicate triangles, meshes whose
 * centroids coincide on some or all axes, and a lopsided one that reaches the median
 * splits below 32 levels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xphmg/bvh.h"

bool bvh_build_scalar(const float (*tris)[9], size_t n, bool want_perm, bvh_blob *out, char *err,
                      size_t errlen);
void bvh_blob_free_scalar(bvh_blob *b);

typedef float tri9[9];

static uint64_t rng = 0x13198A2E03707344ull;
static float runit(void) /* [-1, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((double)(rng >> 40) / 8388608.0 - 1.0);
}

static void same_both_ways(const tri9 *t, size_t n, const char *what)
{
    bvh_blob a, b;
    char err[256] = "";
    assert_true(bvh_build(t, n, true, &a, err, sizeof err));
    assert_true(bvh_build_scalar(t, n, true, &b, err, sizeof err));
    printf("%s: %zu triangles, %zu bytes\n", what, n, a.size);
    assert_int_equal(a.size, b.size);
    assert_memory_equal(a.data, b.data, a.size);
    assert_memory_equal(a.perm, b.perm, n * sizeof *a.perm);
    bvh_blob_free(&a);
    bvh_blob_free_scalar(&b);
}

static void test_procedural(void **state)
{
    (void)state;
    for (const char *const *name = bvh_procedural_names; *name; name++) {
        size_t n;
        tri9 *t = bvh_procedural(*name, 20000, &n);
        assert_non_null(t);
        same_both_ways((const tri9 *)t, n, *name);
        free(t);
    }
}

static void test_random(void **state)
{
    (void)state;
    static const size_t sizes[] = {1, 2, 5, 17, 300, 5000, 40000};
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++) {
        size_t n = sizes[s];
        tri9 *t = malloc(sizeof *t * n);
        for (size_t i = 0; i < n; i++) {
            float c[3];
            for (int k = 0; k < 3; k++)
                c[k] = runit() * (s % 2 ? 60000.0f : 0.001f);
            for (int k = 0; k < 9; k++)
                t[i][k] = c[k % 3] + runit() * (s % 2 ? 500.0f : 1e-5f);
            if (i % 11 == 0) /* degenerate: a repeated vertex */
                memcpy(&t[i][3], &t[i][0], 3 * sizeof(float));
            if (i % 13 == 0 && i) /* a duplicate */
                memcpy(t[i], t[i - 1], sizeof *t);
        }
        same_both_ways((const tri9 *)t, n, "random");
        free(t);
    }
}

/* Coincident centroids: on one axis (a flat sheet), on all (one triangle repeated), and
 * ever closer ones that make SAH lopsided until the median splits take over. */
static void test_degenerate(void **state)
{
    (void)state;
    enum { N = 3000 };
    tri9 *t = malloc(sizeof *t * N);
    for (int i = 0; i < N; i++) {
        float x = (float)(i % 60), y = (float)(i / 60);
        float tr[9] = {x, y, 0, x + 1, y, 0, x, y + 1, 0};
        memcpy(t[i], tr, sizeof tr);
    }
    same_both_ways((const tri9 *)t, N, "flat sheet");
    for (int i = 0; i < N; i++) {
        float tr[9] = {0, 0, 0, 1, 0, 0, 0, 1, 0};
        memcpy(t[i], tr, sizeof tr);
    }
    same_both_ways((const tri9 *)t, N, "all identical");
    for (int i = 0; i < N; i++) {
        float x = ldexpf(1.0f, -(i / 20)) * (1.0f + (float)(i % 20) / 32.0f);
        float tr[9] = {x, 0, 0, x, 1, 0, x, 0, 1};
        memcpy(t[i], tr, sizeof tr);
    }
    same_both_ways((const tri9 *)t, N, "lopsided");
    free(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_procedural),
        cmocka_unit_test(test_random),
        cmocka_unit_test(test_degenerate),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
