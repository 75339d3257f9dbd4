/* test_bvh_job — built XBVH blobs run through the RT offload job (src/ext/rt/rt_job.c,
 * the engine behind `xsubmit.rt`): the blob is placed in a fake memory at a load address,
 * relocated there, and bvh_base = load address + nodes_off goes into the job descriptor.
 * For every procedural mesh, 2,000 queued rays must give the hit records (triangle, t bit
 * for bit) and miss records of a brute-force closest-hit test of every triangle, in ray
 * order, with tri_buf = 0 (TriRange.base) and with tri_buf = the triangle array; on one
 * thread without a direct map of the memory, and with an rt_job_engine of 1 and 2 threads
 * reading through map (the same records). The node cache of an engine (a per-job
 * snapshot): a node rewritten between two jobs is read again, and a job whose hit queue
 * overwrites node tiles gives the bytes of one job per ray. */
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
#include "rt_result_eq.h"
#include "xphmg/bvh.h"

typedef float tri9[9];

#define LOAD_ADDR 0x40000000ull
#define NRAYS     2000u

/* A store as the job made it (the split job test compares the sequences). */
typedef struct {
    uint64_t a, v;
    unsigned n;
} store_rec;

typedef struct {
    uint8_t *ram;
    size_t size;
    store_rec *log; /* when set: every store, in order (log_cap entries at most) */
    size_t nlog, log_cap;
    uint64_t hole_lo, hole_hi; /* map() serves nothing in [hole_lo, hole_hi) (loads do) */
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
    if (f->log && f->nlog < f->log_cap) f->log[f->nlog++] = (store_rec){a, v, n};
    return true;
}

static const uint8_t *f_map(void *ctx, uint64_t a, unsigned n)
{
    fake *f = ctx;
    if (a < LOAD_ADDR || a - LOAD_ADDR > f->size - n) return NULL;
    if (a < f->hole_hi && f->hole_lo < a + n) return NULL;
    return f->ram + (a - LOAD_ADDR);
}

/* Direct writes (rt_job_mem.map_w): the whole fake memory is plain. */
static uint8_t *f_map_w(void *ctx, uint64_t a, uint64_t n)
{
    fake *f = ctx;
    if (a < LOAD_ADDR || n > f->size || a - LOAD_ADDR > f->size - n) return NULL;
    return f->ram + (a - LOAD_ADDR);
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

/* threads: 0 = rt_job_run without map, else an engine of that many threads with map. */
static void run_mesh(const char *name, bool tri_buf, unsigned threads)
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
    fake f = {.ram = calloc(1, misses + 4u * (NRAYS + 1)), .size = misses + 4u * (NRAYS + 1)};
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
    rt_job_mem mem = {
        &f, f_load, f_store, threads ? f_map : NULL, NULL, threads == 2 ? f_map_w : NULL};
    if (threads) {
        rt_job_engine *e = rt_job_engine_new(threads);
        assert_non_null(e);
        assert_int_equal(rt_job_engine_threads(e), threads);
        rt_job_run_ex(&jd, &s, &mem, e, &res);
        rt_job_engine_free(e);
    } else {
        rt_job_run(&jd, &s, &mem, &res);
    }
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
    for (const char *const *p = bvh_procedural_names; *p; p++)
        for (unsigned threads = 0; threads <= 2; threads++) {
            run_mesh(*p, false, threads);
            run_mesh(*p, true, threads);
        }
}

/* A scene in fake memory with its queues: blob | 3 queue descriptors | rays | hits |
 * misses; rays aimed at triangle centroids from outside the scene. */
typedef struct {
    fake f;
    bvh_blob b;
    size_t q, rays, hits, misses;
    rt_job_desc jd;
    cap_snap s;
    uint64_t root;
} scene;

static void scene_make(scene *sc, unsigned nrays)
{
    memset(&sc->f, 0, sizeof sc->f);
    size_t n;
    tri9 *t = bvh_procedural("sphere", 800, &n);
    assert_non_null(t);
    char err[256];
    assert_true(bvh_build((const tri9 *)t, n, false, &sc->b, err, sizeof err));
    size_t q = (sc->b.size + 63) & ~(size_t)63;
    sc->q = q;
    sc->rays = q + 3 * RT_QUEUE_BYTES + 8;
    sc->hits = sc->rays + 32u * (nrays + 1);
    sc->misses = sc->hits + RT_HIT_BYTES * (nrays + 1);
    sc->f.size = sc->misses + 4u * (nrays + 1);
    sc->f.ram = calloc(1, sc->f.size);
    assert_non_null(sc->f.ram);
    memcpy(sc->f.ram, sc->b.data, sc->b.size);
    uint64_t base_off = bvh_relocate(sc->f.ram, LOAD_ADDR);
    sc->root = LOAD_ADDR + base_off;
    for (unsigned i = 0; i < nrays; i++) {
        const float *tt = t[(7u * i) % n];
        float v[8] = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, 0.0f, INFINITY};
        for (int k = 0; k < 3; k++) {
            v[k] = k == 2 ? 5.0f : 0.25f;
            v[3 + k] = (tt[k] + tt[3 + k] + tt[6 + k]) / 3.0f - v[k];
        }
        memcpy(sc->f.ram + sc->rays + 32u * i, v, sizeof v);
    }
    queue(sc->f.ram + q, nrays, nrays + 1, LOAD_ADDR + sc->rays);
    queue(sc->f.ram + q + RT_QUEUE_BYTES, 0, nrays + 1, LOAD_ADDR + sc->hits);
    queue(sc->f.ram + q + 2 * RT_QUEUE_BYTES, 0, nrays + 1, LOAD_ADDR + sc->misses);
    memset(&sc->jd, 0, sizeof sc->jd);
    sc->jd.bvh_base = sc->root;
    sc->jd.rayq = LOAD_ADDR + q;
    sc->jd.hitq = LOAD_ADDR + q + RT_QUEUE_BYTES;
    sc->jd.missq = LOAD_ADDR + q + 2 * RT_QUEUE_BYTES;
    cap_state cs;
    cap_reset(&cs, NULL);
    cap_snapshot(&cs, &sc->s);
    sc->s.pet = CAP_T_FP32;
    sc->s.pol.q = false;
    free(t);
}

static void scene_free(scene *sc)
{
    free(sc->f.ram);
    bvh_blob_free(&sc->b);
}

/* A node rewritten between two jobs of one engine: the second job sees the new node.
 * The root's four children are made empty (kinds byte 60 = 0), so every ray misses. */
static void test_cache_between_jobs(void **state)
{
    (void)state;
    for (unsigned threads = 1; threads <= 2; threads++) {
        scene sc;
        scene_make(&sc, 256);
        rt_job_mem mem = {&sc.f, f_load, f_store, f_map, NULL, f_map_w};
        rt_job_engine *e = rt_job_engine_new(threads);
        assert_non_null(e);
        rt_job_result r;
        rt_job_run_ex(&sc.jd, &sc.s, &mem, e, &r);
        assert_int_equal(r.status, RT_JOB_OK);
        assert_int_equal(r.hits, 256);
        /* the guest rewrites the root node, then queues the same rays again */
        sc.f.ram[sc.root - LOAD_ADDR + 60] = 0;
        queue(sc.f.ram + sc.q, 256, 257, LOAD_ADDR + sc.rays);
        queue(sc.f.ram + sc.q + RT_QUEUE_BYTES, 0, 257, LOAD_ADDR + sc.hits);
        queue(sc.f.ram + sc.q + 2 * RT_QUEUE_BYTES, 0, 257, LOAD_ADDR + sc.misses);
        rt_job_run_ex(&sc.jd, &sc.s, &mem, e, &r);
        assert_int_equal(r.status, RT_JOB_OK);
        assert_int_equal(r.hits, 0);
        assert_int_equal(r.misses, 256);
        rt_job_engine_free(e);
        scene_free(&sc);
    }
}

/* A job whose hit queue lies over records it reads (node tiles, or the triangles of the
 * leaves the engine keeps): each ray must see the entries of the rays before it. The
 * reference is the same rays as one job per ray (stores between jobs), from the same
 * initial memory; both end with the same bytes, on one and on two host threads: neither
 * the engine's caches nor a split job gives RT a memory model of its own (a job's reads
 * see its own earlier stores). over_tris: the queue starts at the triangle array, else at
 * the second node tile (the root's children). REQ: RT-097 */
static void job_overwrites(bool over_tris)
{
    for (unsigned threads = 1; threads <= 2; threads++) {
        scene a, b;
        scene_make(&a, 200);
        scene_make(&b, 200);
        for (scene *sc = &a; sc; sc = sc == &a ? &b : NULL) {
            bvh_header h;
            bvh_header_decode(sc->b.data, &h);
            uint64_t over = over_tris ? LOAD_ADDR + h.tris_off : sc->root + 64;
            queue(sc->f.ram + sc->q + RT_QUEUE_BYTES, 0, 201, over);
        }
        /* job a writes directly (map_w), the reference b through store */
        rt_job_mem ma = {&a.f, f_load, f_store, f_map, NULL, f_map_w},
                   mb = {&b.f, f_load, f_store, f_map, NULL, NULL};
        rt_job_engine *e = rt_job_engine_new(threads);
        assert_non_null(e);
        rt_job_result r;
        rt_job_run_ex(&a.jd, &a.s, &ma, e, &r);
        rt_job_status st = r.status;
        uint32_t rays = r.rays;
        /* one ray per job: TAIL of the ray queue = HEAD + 1 */
        for (uint32_t i = 0; i < 200; i++) {
            rt_le_put(b.f.ram + b.q + 4, 4, i + 1);
            rt_job_run_ex(&b.jd, &b.s, &mb, e, &r);
            if (r.status != RT_JOB_OK) break;
        }
        assert_int_equal(r.status, st);
        rt_le_put(b.f.ram + b.q + 4, 4, 200); /* the ray queue's TAIL as job a left it */
        assert_true(rays > 1);
        assert_memory_equal(a.f.ram, b.f.ram, a.f.size);
        rt_job_engine_free(e);
        scene_free(&a);
        scene_free(&b);
    }
}

static void test_cache_job_overwrites_nodes(void **state)
{
    (void)state;
    job_overwrites(false);
}

static void test_cache_job_overwrites_triangles(void **state)
{
    (void)state;
    job_overwrites(true);
}

/* A job split across threads makes the very stores of one thread, in the same order, and
 * ends the same way (errata P-341): 3,000 rays with masked-off lanes, on engines of 1
 * (the reference), 2 and 3 threads. Case 0: every ray traced in parallel. Case 1: map()
 * cannot serve the ray slots from ray 1,700 on (the loads can), so the tracers give up
 * in the middle of the job and one thread goes on from there. Case 2: the hit queue holds
 * 900 entries, so the job ends with a full queue while other threads trace ahead. Then
 * the same jobs writing directly (map_w, 1 to 3 threads): no store calls, and the memory
 * the stores of the reference left. */
#define SPLIT_RAYS 3000u
static void test_split_same_stores(void **state)
{
    (void)state;
    for (unsigned c = 0; c < 3; c++) {
        store_rec *ref = NULL;
        size_t nref = 0;
        rt_job_result rref = {0};
        uint8_t *mref = NULL;
        for (unsigned run = 0; run < 6; run++) {
            unsigned threads = 1 + run % 3;
            bool direct = run >= 3;
            scene sc;
            scene_make(&sc, SPLIT_RAYS);
            sc.jd.lanes_off = UINT64_C(0x8000000100010020);
            if (c == 1) {
                sc.f.hole_lo = LOAD_ADDR + sc.rays + 32u * 1700;
                sc.f.hole_hi = LOAD_ADDR + sc.hits;
            }
            if (c == 2) rt_le_put(sc.f.ram + sc.q + RT_QUEUE_BYTES + 8, 4, 900);
            sc.f.log_cap = 4 * SPLIT_RAYS + 8;
            sc.f.log = calloc(sc.f.log_cap, sizeof *sc.f.log);
            assert_non_null(sc.f.log);
            rt_job_mem mem = {&sc.f, f_load, f_store, f_map, NULL, direct ? f_map_w : NULL};
            rt_job_engine *e = rt_job_engine_new(threads);
            assert_non_null(e);
            assert_int_equal(rt_job_engine_threads(e), threads);
            rt_job_result r;
            rt_job_run_ex(&sc.jd, &sc.s, &mem, e, &r);
            rt_job_engine_free(e);
            assert_int_equal(r.status, c == 2 ? RT_JOB_QUEUE_FULL : RT_JOB_OK);
            assert_true(r.hits > SPLIT_RAYS / 4);
            if (run == 0) {
                ref = sc.f.log;
                nref = sc.f.nlog;
                rref = r;
                mref = sc.f.ram;
                sc.f.ram = NULL;
            } else {
                assert_int_equal(sc.f.nlog, direct ? 0 : nref);
                for (size_t k = 0; k < sc.f.nlog; k++) {
                    assert_int_equal(sc.f.log[k].a, ref[k].a);
                    assert_int_equal(sc.f.log[k].n, ref[k].n);
                    assert_int_equal(sc.f.log[k].v, ref[k].v);
                }
                assert_memory_equal(sc.f.ram, mref, sc.f.size);
                assert_rt_result_equal(&r, &rref);
                free(sc.f.log);
            }
            scene_free(&sc);
        }
        free(ref);
        free(mref);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_matches_brute_force),
        cmocka_unit_test(test_cache_between_jobs),
        cmocka_unit_test(test_cache_job_overwrites_nodes),
        cmocka_unit_test(test_cache_job_overwrites_triangles),
        cmocka_unit_test(test_split_same_stores),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
