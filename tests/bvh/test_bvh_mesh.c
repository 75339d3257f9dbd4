/* test_bvh_mesh — mesh import (src/bvh/bvh_mesh.c, assimp) and the builder on bad input:
 * specific malformed OBJ texts give the expected one-line reason, and thousands of
 * deterministic mutations of a valid OBJ (deleted, inserted and replaced characters,
 * numbers replaced by nan / inf / huge values, bad indices, duplicated and truncated
 * lines) are either refused with a message or give a triangle list that builds into a
 * blob the validator accepts; never a crash. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_mesh.h"
#include "xphmg/bvh.h"

static const char cube_obj[] = "# cube\n"
                               "o cube\n"
                               "v -1 -1 -1\nv 1 -1 -1\nv 1 1 -1\nv -1 1 -1\n"
                               "v -1 -1 1\nv 1 -1 1\nv 1 1 1\nv -1 1 1\n"
                               "vn 0 0 1\n"
                               "g sides\n"
                               "f 1 2 3 4\nf 5 8 7 6\nf 1 5 6 2\n"
                               "f 2 6 7 3\nf 3 7 8 4\nf 5 1 4 8\n"
                               "l 1 7\n"
                               "f -1 -2 -3\n";

typedef float tri9[9];

static tri9 *load(const char *text, float scale, size_t *n, char *err, size_t len)
{
    return bvh_mesh_load_memory(text, strlen(text), "obj", scale, n, err, len);
}

static void expect_err(const char *text, float scale, const char *what)
{
    char err[512] = "";
    size_t n = 0;
    tri9 *t = load(text, scale, &n, err, sizeof err);
    if (t) {
        bvh_blob b;
        bool ok = bvh_build((const tri9 *)t, n, false, &b, err, sizeof err);
        free(t);
        if (ok) bvh_blob_free(&b);
        assert_false(ok);
    }
    if (!strstr(err, what)) fprintf(stderr, "expected '%s', got '%s'\n", what, err);
    assert_non_null(strstr(err, what));
}

static void test_obj(void **state)
{
    (void)state;
    char err[512];
    size_t n = 0;
    tri9 *t = load(cube_obj, 1.0f, &n, err, sizeof err);
    assert_non_null(t);
    assert_int_equal(n, 13); /* 6 quads -> 12 triangles, the line dropped, one triangle */
    bvh_blob b;
    assert_true(bvh_build((const tri9 *)t, n, false, &b, err, sizeof err));
    assert_true(bvh_check(b.data, b.size, 0, NULL, err, sizeof err));
    bvh_blob_free(&b);
    free(t);
    /* --scale: coordinates multiplied */
    t = load(cube_obj, 0.5f, &n, err, sizeof err);
    assert_non_null(t);
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 9; k++)
            assert_true(t[i][k] == 0.5f || t[i][k] == -0.5f);
    free(t);

    expect_err("# nothing\n", 1.0f, "cannot import");
    expect_err("v 0 0 0\nv 1 0 0\nv 0 1 0\n", 1.0f, "cannot import");
    expect_err("v 0 0 0\nv 1 0 0\nl 1 2\n", 1.0f, "no triangles");
    expect_err("v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 7\n", 1.0f, "cannot import");
    expect_err("v 0 0 0\nv 1e5 0 0\nv 0 1 0\nf 1 2 3\n", 1.0f, "binary16");
    expect_err("v 0 0 0\nv 1e38 0 0\nv 0 1 0\nf 1 2 3\n", 100.0f, "overflows after scaling");
    expect_err("v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n", 1.0f, "non-finite");
    expect_err("v 0 0 0\nv inf 0 0\nv 0 1 0\nf 1 2 3\n", 1.0f, "non-finite");
    /* 1e5 fits after scaling */
    t = load("v 0 0 0\nv 1e5 0 0\nv 0 1 0\nf 1 2 3\n", 0.25f, &n, err, sizeof err);
    assert_non_null(t);
    assert_true(bvh_build((const tri9 *)t, n, false, &b, err, sizeof err));
    bvh_blob_free(&b);
    free(t);
}

static uint64_t rng = 0x0DDB1A5E5BAD5EEDull;
static uint64_t rnext(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static const char *const tokens[] = {"nan", "inf", "-inf",  "1e39",     "-7e4",  "65504", "65505",
                                     "0",   "-0",  "1e-45", "99999999", "-9",    "0x10",  "",
                                     "f",   "v",   "/",     "//",       "1/2/3", " ",     "\n"};

/* one mutation of s (len < cap) in place; returns the new length */
static size_t mutate(char *s, size_t len, size_t cap)
{
    size_t pos = len ? (size_t)(rnext() % len) : 0;
    switch (rnext() % 6) {
    case 0: /* delete a run */
        if (len) {
            size_t k = 1 + (size_t)(rnext() % 4);
            if (pos + k > len) k = len - pos;
            memmove(s + pos, s + pos + k, len - pos - k);
            len -= k;
        }
        break;
    case 1: { /* insert a character */
        static const char set[] = "0123456789.-+eE /\nfvlnai#";
        if (len + 1 < cap) {
            memmove(s + pos + 1, s + pos, len - pos);
            s[pos] = set[rnext() % (sizeof set - 1)];
            len++;
        }
        break;
    }
    case 2:
    case 3: { /* replace a token (a run of non-blanks) with one of tokens[] */
        while (pos > 0 && s[pos - 1] != ' ' && s[pos - 1] != '\n')
            pos--;
        size_t end = pos;
        while (end < len && s[end] != ' ' && s[end] != '\n')
            end++;
        const char *tk = tokens[rnext() % (sizeof tokens / sizeof *tokens)];
        size_t tl = strlen(tk);
        if (len - (end - pos) + tl < cap) {
            memmove(s + pos + tl, s + end, len - end);
            memcpy(s + pos, tk, tl);
            len = len - (end - pos) + tl;
        }
        break;
    }
    case 4: { /* duplicate a line */
        while (pos > 0 && s[pos - 1] != '\n')
            pos--;
        size_t end = pos;
        while (end < len && s[end] != '\n')
            end++;
        if (end < len) end++;
        size_t l = end - pos;
        if (len + l < cap) {
            memmove(s + end + l, s + end, len - end);
            memcpy(s + end, s + pos, l);
            len += l;
        }
        break;
    }
    default: /* truncate */
        len = pos;
        break;
    }
    s[len] = 0;
    return len;
}

static void test_mutated_obj(void **state)
{
    (void)state;
    enum { CAP = 4096, ROUNDS = 3000 };
    static char buf[CAP];
    unsigned built = 0, refused = 0;
    for (int i = 0; i < ROUNDS; i++) {
        size_t len = strlen(cube_obj);
        memcpy(buf, cube_obj, len + 1);
        int muts = 1 + (int)(rnext() % 6);
        for (int m = 0; m < muts; m++)
            len = mutate(buf, len, CAP);
        char err[512] = "";
        size_t n = 0;
        tri9 *t = len ? bvh_mesh_load_memory(buf, len, "obj", 1.0f, &n, err, sizeof err) : NULL;
        if (!t) {
            refused++;
            if (len) assert_true(err[0] != 0);
            continue;
        }
        bvh_blob b;
        if (!bvh_build((const tri9 *)t, n, false, &b, err, sizeof err)) {
            assert_true(err[0] != 0);
            refused++;
        } else {
            bool ok = bvh_check(b.data, b.size, 0, NULL, err, sizeof err);
            if (!ok) fprintf(stderr, "mutation %d: built blob refused: %s\n", i, err);
            assert_true(ok);
            bvh_blob_free(&b);
            built++;
        }
        free(t);
    }
    printf("mutated OBJ: %u built, %u refused\n", built, refused);
    assert_true(built > ROUNDS / 10);
    assert_true(refused > ROUNDS / 20);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_obj),
        cmocka_unit_test(test_mutated_obj),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
