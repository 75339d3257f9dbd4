/* test_bvh_job — built XBVH blobs run through the RT offload job (src/ext/rt/rt_job.c,
 * the engine behind `xsubmit.rt`): the blob is placed in a fake memory at a load address,
 * relocated there, and bvh_base = load address + nodes_off goes into the job descriptor.
 * For every procedural mesh, 2,000 queued rays must give the hit records (triangle, t bit
 * for bit) and miss records of a brute-force closest-hit test of every triangle, in ray
 * order, with tri_buf = 0 (TriRange.base) and with tri_buf = the triangle array. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap.h"
#include "rt_job.h"
#include "xphmg/bvh.h"

typedef float tri9[9];

#define LOAD_ADDR 0x40000000ull
#define NRAYS     2000u

typedef struct {
    uint8_t *ram;
    size_t size;
} fake;

static bool f_load(void *ctx, uint64_t a, unsigned n, uint64_t *v)
{
    fake *f = ctx;
    if (a < LOAD_ADDR || a - LOAD_ADDR > f->size - n) return false;
    *v = rt_le_get(f->ram + (a - LOAD_ADDR), n);
    return true;
}

static bool f_store(void *ctx, uint64_t a, unsigned n, uint64_t v)
{
    fake *f = ctx;
    if (a < LOAD_ADDR || a - LOAD_ADDR > f->size - n) return false;
    rt_le_put(f->ram + (a - LOAD_ADDR), n, v);
    return true;
}

static uint64_t rng = 0x5851F42D4C957F2Dull;
static uint64_t rnext(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}
static float runit(void)
{
    return (float)((double)(rnext() >> 40) / 8388608.0 - 1.0);
}

static void queue(uint8_t *p, uint32_t tail, uint32_t cap, uint64_t base)
{
    memset(p, 0, RT_QUEUE_BYTES);
    rt_le_put(p + 4, 4, tail);
    rt_le_put(p + 8, 4, cap);
    rt_le_put(p + 16, 8, base);
}

static void run_mesh(const char *name, bool tri_buf)
{
    size_t n;
    tri9 *t = bvh_procedural(name, 2500, &n);
    assert_non_null(t);
    bvh_blob b;
    char err[256];
    assert_true(bvh_build((const tri9 *)t, n, false, &b, err, sizeof err));
    bvh_header h;
    bvh_header_decode(b.data, &h);

    /* memory: blob | ray queue, hit queue, miss queue descriptors | rays | hits | misses */
    size_t q = (b.size + 63) & ~(size_t)63;
    size_t rays = q + 3 * RT_QUEUE_BYTES + 8, hits = rays + 32u * (NRAYS + 1);
    size_t misses = hits + RT_HIT_BYTES * (NRAYS + 1);
    fake f = {calloc(1, misses + 4u * (NRAYS + 1)), misses + 4u * (NRAYS + 1)};
    assert_non_null(f.ram);
    memcpy(f.ram, b.data, b.size);
    uint64_t base_off = bvh_relocate(f.ram, LOAD_ADDR);
    assert_true(bvh_check(f.ram, b.size, LOAD_ADDR, NULL, err, sizeof err));
    queue(f.ram + q, NRAYS, NRAYS + 1, LOAD_ADDR + rays);
    queue(f.ram + q + RT_QUEUE_BYTES, 0, NRAYS + 1, LOAD_ADDR + hits);
    queue(f.ram + q + 2 * RT_QUEUE_BYTES, 0, NRAYS + 1, LOAD_ADDR + misses);

    rt_ray rr[NRAYS];
    for (unsigned i = 0; i < NRAYS; i++) {
        rt_ray *r = &rr[i];
        for (int k = 0; k < 3; k++)
            r->org[k] = 2.0f * runit() * (h.bounds_hi[k] - h.bounds_lo[k] + 1.0f);
        const float *tt = t[rnext() % n];
        for (int k = 0; k < 3; k++)
            r->dir[k] = i % 2 ? runit() : (tt[k] + tt[3 + k] + tt[6 + k]) / 3.0f - r->org[k];
        r->tmin = 0.0f;
        r->tmax = i % 3 ? INFINITY : 1.0f;
        float v[8] = {r->org[0], r->org[1], r->org[2], r->dir[0],
                      r->dir[1], r->dir[2], r->tmin,   r->tmax};
        memcpy(f.ram + rays + 32u * i, v, sizeof v);
    }

    rt_job_desc jd;
    memset(&jd, 0, sizeof jd);
    jd.bvh_base = LOAD_ADDR + base_off;
    jd.rayq = LOAD_ADDR + q;
    jd.hitq = LOAD_ADDR + q + RT_QUEUE_BYTES;
    jd.missq = LOAD_ADDR + q + 2 * RT_QUEUE_BYTES;
    if (tri_buf) { /* a non-zero tri_buf replaces TriRange.base: spoil the bases */
        jd.tri_buf = LOAD_ADDR + h.tris_off;
        bvh_relocate(f.ram, 0x7000000000ull);
    }
    cap_state cs;
    cap_snap s;
    cap_reset(&cs, NULL);
    cap_snapshot(&cs, &s);
    s.pet = CAP_T_FP32;
    s.pol.q = false;
    rt_job_result res;
    rt_job_mem mem = {&f, f_load, f_store, NULL};
    rt_job_run(&jd, &s, &mem, &res);
    assert_int_equal(res.status, RT_JOB_OK);
    assert_int_equal(res.rays, NRAYS);
    assert_int_equal(res.hits + res.misses, NRAYS);

    unsigned hi = 0, mi = 0;
    for (unsigned i = 0; i < NRAYS; i++) {
        bool hit = false;
        float bt = 0;
        uint32_t bp = 0;
        for (uint32_t k = 0; k < h.tri_count; k++) {
            float v[3][3], tt, u, vv;
            rt_tri_decode(b.data + h.tris_off + 36u * k, RT_ELEM_FP32, v);
            if (!rt_tri_test(&rr[i], v, false, 0, &tt, &u, &vv)) continue;
            if (!hit || tt < bt) {
                hit = true;
                bt = tt;
                bp = k;
            }
        }
        if (hit) {
            const uint8_t *e = f.ram + hits + RT_HIT_BYTES * hi++;
            uint32_t tb;
            memcpy(&tb, &bt, 4);
            assert_int_equal(rt_le_get(e, 4), i);
            assert_int_equal(rt_le_get(e + 4, 4), bp);
            assert_int_equal(rt_le_get(e + 8, 4), tb);
        } else {
            assert_int_equal(rt_le_get(f.ram + misses + 4u * mi++, 4), i);
        }
    }
    assert_int_equal(hi, res.hits);
    assert_int_equal(mi, res.misses);
    assert_true(res.hits > NRAYS / 4);
    free(f.ram);
    bvh_blob_free(&b);
    free(t);
}

/* Every procedural mesh, tri_buf 0 and tri_buf set. */
static void test_job_matches_brute_force(void **state)
{
    (void)state;
    for (const char *const *p = bvh_procedural_names; *p; p++) {
        run_mesh(*p, false);
        run_mesh(*p, true);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_matches_brute_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
