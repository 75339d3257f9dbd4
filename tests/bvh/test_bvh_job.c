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
#include "xphmg_csr.h"
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
    bool hole_faults;          /* loads fault in the hole too */
    /* rt_job_mem.epoch/watch (fake_write and the job's stores keep the contract) */
    uint64_t epoch, w_lo, w_hi; /* the watched range [w_lo, w_hi) (empty: none) */
    bool watch_refused;         /* watch() answers false */
    unsigned maps;              /* map() calls */
} fake;

/* A write over the watched range changes the epoch and forgets the watch (rt_fetch.h). */
static void fake_touch(fake *f, uint64_t a, uint64_t n)
{
    if (a < f->w_hi && f->w_lo < a + n) {
        f->epoch++;
        f->w_lo = f->w_hi = 0;
    }
}

/* The host (a guest between jobs) writes n bytes at a. */
static void fake_write(fake *f, uint64_t a, const void *src, size_t n)
{
    memcpy(f->ram + (a - LOAD_ADDR), src, n);
    fake_touch(f, a, n);
}

static uint64_t f_epoch(void *ctx)
{
    return ((fake *)ctx)->epoch;
}

static bool f_watch(void *ctx, uint64_t a, uint64_t n)
{
    fake *f = ctx;
    if (f->watch_refused || a < LOAD_ADDR || a - LOAD_ADDR > f->size ||
        n > f->size - (a - LOAD_ADDR))
        return false;
    if (f->w_lo >= f->w_hi || a < f->w_lo) f->w_lo = a;
    if (a + n > f->w_hi) f->w_hi = a + n;
    return true;
}

static bool f_load(void *ctx, uint64_t a, unsigned n, uint64_t *v)
{
    fake *f = ctx;
    if (a < LOAD_ADDR || a - LOAD_ADDR > f->size - n) return false;
    if (f->hole_faults && a < f->hole_hi && f->hole_lo < a + n) return false;
    *v = rt_le_get(f->ram + (a - LOAD_ADDR), n);
    return true;
}

static bool f_store(void *ctx, uint64_t a, unsigned n, uint64_t v)
{
    fake *f = ctx;
    if (a < LOAD_ADDR || a - LOAD_ADDR > f->size - n) return false;
    rt_le_put(f->ram + (a - LOAD_ADDR), n, v);
    fake_touch(f, a, n);
    if (f->log && f->nlog < f->log_cap) f->log[f->nlog++] = (store_rec){a, v, n};
    return true;
}

static const uint8_t *f_map(void *ctx, uint64_t a, unsigned n)
{
    fake *f = ctx;
    if (a < LOAD_ADDR || a - LOAD_ADDR > f->size - n) return NULL;
    if (a < f->hole_hi && f->hole_lo < a + n) return NULL;
    __atomic_fetch_add(&f->maps, 1, __ATOMIC_RELAXED);
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
        &f,   f_load, f_store, threads ? f_map : NULL, NULL, threads == 2 ? f_map_w : NULL,
        NULL, NULL};
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

/* The slab test of the traversal's fast expansion (by the reciprocals' signs: its near and
 * far plane per axis) on the soup's random rays, directions in every octant: it must keep
 * every child the brute-force hit lies in (a wrong plane for one sign of one axis loses
 * hits). REQ: RT-056 */
static void test_job_octants_match_brute_force(void **state)
{
    (void)state;
    run_mesh("soup", false, 0);
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

/* The scene's queues as scene_make left them (nrays rays queued, empty result queues),
 * written as a guest would between two jobs. */
static void requeue(scene *sc, unsigned nrays)
{
    uint8_t d[3][RT_QUEUE_BYTES];
    queue(d[0], nrays, nrays + 1, LOAD_ADDR + sc->rays);
    queue(d[1], 0, nrays + 1, LOAD_ADDR + sc->hits);
    queue(d[2], 0, nrays + 1, LOAD_ADDR + sc->misses);
    fake_write(&sc->f, LOAD_ADDR + sc->q, d, sizeof d);
}

/* A memory with an epoch (keep = true: the engine may keep its cache between jobs) or
 * without. */
static rt_job_mem scene_mem(scene *sc, bool keep)
{
    return (rt_job_mem){&sc->f,
                        f_load,
                        f_store,
                        f_map,
                        NULL,
                        f_map_w,
                        keep ? f_epoch : NULL,
                        keep ? f_watch : NULL};
}

/* The memories a second job may find its engine's cache in. */
enum first_mem {
    MEM_NO_EPOCH,      /* no epoch: nothing is kept */
    MEM_WATCH_REFUSED, /* an epoch, but the memory cannot watch the records */
    MEM_KEPT,          /* epoch and watch: the engine keeps its cache */
};

/* The first of two jobs on a new engine of `threads` host threads: a scene of 256 rays that
 * all hit (checked), over memory *mem of the kind `kind`. */
static rt_job_engine *first_job(scene *sc, rt_job_mem *mem, unsigned threads, enum first_mem kind)
{
    scene_make(sc, 256);
    sc->f.watch_refused = kind == MEM_WATCH_REFUSED;
    *mem = scene_mem(sc, kind != MEM_NO_EPOCH);
    rt_job_engine *e = rt_job_engine_new(threads);
    assert_non_null(e);
    rt_job_result r;
    rt_job_run_ex(&sc->jd, &sc->s, mem, e, &r);
    assert_int_equal(r.status, RT_JOB_OK);
    assert_int_equal(r.hits, 256);
    return e;
}

/* The same rays queued again and traced by engine e: every one misses. */
static void second_job_misses_all(scene *sc, rt_job_mem *mem, rt_job_engine *e)
{
    requeue(sc, 256);
    rt_job_result r;
    rt_job_run_ex(&sc->jd, &sc->s, mem, e, &r);
    assert_int_equal(r.status, RT_JOB_OK);
    assert_int_equal(r.hits, 0);
    assert_int_equal(r.misses, 256);
}

/* A node rewritten between two jobs of one engine: the second job sees the new node.
 * The root's four children are made empty (kinds byte 60 = 0), so every ray misses; with
 * an epoch, through the epoch (the write is over a watched record). */
static void test_cache_between_jobs(void **state)
{
    (void)state;
    for (unsigned threads = 1; threads <= 2; threads++)
        for (int keep = 0; keep < 2; keep++) {
            scene sc;
            rt_job_mem mem;
            rt_job_engine *e = first_job(&sc, &mem, threads, keep ? MEM_KEPT : MEM_NO_EPOCH);
            /* the guest rewrites the root node, then queues the same rays again */
            uint8_t zero = 0;
            fake_write(&sc.f, sc.root + 60, &zero, 1);
            second_job_misses_all(&sc, &mem, e);
            rt_job_engine_free(e);
            scene_free(&sc);
        }
}

/* Two jobs of the same rays over a memory that nothing writes between them: with an
 * epoch the second reads (map) almost nothing again, its decoded nodes and leaves kept;
 * without one, or when the memory cannot watch the records, it reads every record again.
 * Both give the first job's entries. */
static void test_cache_kept_between_jobs(void **state)
{
    (void)state;
    for (unsigned threads = 1; threads <= 2; threads++)
        for (int mode = MEM_NO_EPOCH; mode <= MEM_KEPT; mode++) {
            scene sc;
            rt_job_mem mem;
            rt_job_engine *e = first_job(&sc, &mem, threads, (enum first_mem)mode);
            rt_job_result r;
            unsigned maps1 = sc.f.maps;
            uint8_t *first = malloc(sc.f.size);
            assert_non_null(first);
            memcpy(first, sc.f.ram, sc.f.size);
            requeue(&sc, 256);
            sc.f.maps = 0;
            rt_job_run_ex(&sc.jd, &sc.s, &mem, e, &r);
            assert_int_equal(r.status, RT_JOB_OK);
            assert_int_equal(r.hits, 256);
            assert_memory_equal(first, sc.f.ram, sc.f.size);
            assert_true(maps1 > 100);
            if (mode == MEM_KEPT)
                assert_true(sc.f.maps < 10); /* queue descriptors and the ray array */
            else
                assert_true(sc.f.maps > maps1 / 2); /* two threads may race to a fill */
            free(first);
            rt_job_engine_free(e);
            scene_free(&sc);
        }
}

/* The first of two jobs on one engine of `threads` host threads: a scene of 256 rays that
 * all hit, in a memory offering epoch and watch (*mem), so the engine keeps its cache. */
static rt_job_engine *kept_first_job(scene *sc, rt_job_mem *mem, unsigned threads)
{
    return first_job(sc, mem, threads, MEM_KEPT);
}

/* Every TriRange of the scene's BVH, as loaded in memory f, made empty (count 0). */
static void empty_tri_ranges(const scene *sc, fake *f)
{
    bvh_header h;
    bvh_header_decode(sc->b.data, &h);
    uint32_t zero = 0;
    for (uint32_t i = 0; i < h.range_count; i++)
        fake_write(f, LOAD_ADDR + h.ranges_off + 16u * i + 4, &zero, 4);
}

/* Between two jobs of one engine over a memory with an epoch, the guest rewrites every
 * TriRange (count 0: no triangle): the second job misses every ray. */
static void test_cache_kept_trirange_rewritten(void **state)
{
    (void)state;
    for (unsigned threads = 1; threads <= 2; threads++) {
        scene sc;
        rt_job_mem mem;
        rt_job_engine *e = kept_first_job(&sc, &mem, threads);
        empty_tri_ranges(&sc, &sc.f);
        second_job_misses_all(&sc, &mem, e);
        rt_job_engine_free(e);
        scene_free(&sc);
    }
}

/* Between two jobs of one engine over memory A (with an epoch), a job over another memory
 * B without one, holding the same BVH with every TriRange empty: the engine's cache then
 * holds B's entries, and the third job, over A again, whose epoch has not changed, must
 * not take them for A's (the first job's record is used once). */
static void test_cache_kept_not_across_other_memory(void **state)
{
    (void)state;
    for (unsigned threads = 1; threads <= 2; threads++) {
        scene sc;
        rt_job_mem mem;
        rt_job_engine *e = kept_first_job(&sc, &mem, threads);
        scene other = sc;
        other.f.ram = malloc(sc.f.size);
        assert_non_null(other.f.ram);
        memcpy(other.f.ram, sc.f.ram, sc.f.size);
        empty_tri_ranges(&sc, &other.f);
        requeue(&other, 256);
        rt_job_mem mem_other = scene_mem(&other, false);
        rt_job_result r;
        rt_job_run_ex(&other.jd, &other.s, &mem_other, e, &r);
        assert_int_equal(r.misses, 256);
        requeue(&sc, 256);
        rt_job_run_ex(&sc.jd, &sc.s, &mem, e, &r);
        assert_int_equal(r.status, RT_JOB_OK);
        assert_int_equal(r.hits, 256);
        free(other.f.ram);
        rt_job_engine_free(e);
        scene_free(&sc);
    }
}

/* The result of job b on engine e (warm from earlier jobs) is that of the same job on a
 * fresh engine over the same memory: the whole memory afterwards, status and counts. */
static void same_as_fresh(scene *sc, const rt_job_desc *jd, rt_job_engine *e, unsigned threads)
{
    uint8_t *before = malloc(sc->f.size);
    assert_non_null(before);
    memcpy(before, sc->f.ram, sc->f.size);
    rt_job_mem mem = scene_mem(sc, true);
    rt_job_result r, rf;
    rt_job_run_ex(jd, &sc->s, &mem, e, &r);
    uint8_t *after = malloc(sc->f.size);
    assert_non_null(after);
    memcpy(after, sc->f.ram, sc->f.size);
    memcpy(sc->f.ram, before, sc->f.size);
    rt_job_engine *fresh = rt_job_engine_new(threads);
    assert_non_null(fresh);
    rt_job_run_ex(jd, &sc->s, &mem, fresh, &rf);
    rt_job_engine_free(fresh);
    assert_rt_result_equal(&r, &rf);
    assert_memory_equal(after, sc->f.ram, sc->f.size);
    free(before);
    free(after);
}

/* A kept first job (kept_first_job) on 1 and 2 threads, then `change` (case v) alters the
 * memory, the descriptor or the snapshot, and the second job must give what a fresh engine
 * gives (same_as_fresh). */
static void kept_then_changed(void (*change)(scene *sc, rt_job_desc *jd, int v), int cases)
{
    for (unsigned threads = 1; threads <= 2; threads++)
        for (int v = 0; v < cases; v++) {
            scene sc;
            rt_job_mem mem;
            rt_job_engine *e = kept_first_job(&sc, &mem, threads);
            requeue(&sc, 256);
            rt_job_desc jd = sc.jd;
            change(&sc, &jd, v);
            same_as_fresh(&sc, &jd, e, threads);
            rt_job_engine_free(e);
            scene_free(&sc);
        }
}

/* Another tri_buf (the triangle array one triangle further on): the kept leaves point at
 * other triangles than the second job's. */
static void other_tri_buf(scene *sc, rt_job_desc *jd, int v)
{
    (void)v;
    bvh_header h;
    bvh_header_decode(sc->b.data, &h);
    jd->tri_buf = LOAD_ADDR + h.tris_off + 36;
}

static void test_cache_kept_other_tri_buf(void **state)
{
    (void)state;
    kept_then_changed(other_tri_buf, 1);
}

/* The second job's hit queue lies over node tiles the first one cached (the root's
 * children): each ray sees the entries written before it, on one thread and split. */
static void queue_over_nodes(scene *sc, rt_job_desc *jd, int v)
{
    (void)v;
    uint8_t d[RT_QUEUE_BYTES];
    queue(d, 0, 257, sc->root + 64);
    fake_write(&sc->f, jd->hitq, d, sizeof d);
}

static void test_cache_kept_queue_over_nodes(void **state)
{
    (void)state;
    kept_then_changed(queue_over_nodes, 1);
}

/* Another element format (v 0, FP16: its rays and triangles are read as binary16, no leaf
 * is cached) or the Node8 option (v 1: nodes of two tiles, 128-byte aligned), though the
 * first job cached FP32 leaves and single tiles at 64-byte addresses. */
static void other_format(scene *sc, rt_job_desc *jd, int v)
{
    if (v == 0)
        sc->s.pet = CAP_T_FP16;
    else
        jd->opts |= RT_OPT_NODE8;
}

static void test_cache_kept_other_format(void **state)
{
    (void)state;
    kept_then_changed(other_format, 2);
}

/* After a job, the memory stops serving the BVH (map serves nothing there and loads
 * fault: a guest turned address translation on, say), and its epoch says so: the next
 * job faults at its first ray rather than tracing from the kept cache. */
static void test_cache_kept_map_stops(void **state)
{
    (void)state;
    for (unsigned threads = 1; threads <= 2; threads++) {
        scene sc;
        rt_job_mem mem;
        rt_job_engine *e = kept_first_job(&sc, &mem, threads);
        requeue(&sc, 256);
        sc.f.hole_lo = LOAD_ADDR;
        sc.f.hole_hi = LOAD_ADDR + sc.q;
        sc.f.hole_faults = true;
        sc.f.epoch++;
        rt_job_result r;
        rt_job_run_ex(&sc.jd, &sc.s, &mem, e, &r);
        assert_int_equal(r.status, RT_JOB_MEM_FAULT);
        assert_int_equal(r.rays, 0);
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
        rt_job_mem ma = {&a.f, f_load, f_store, f_map, NULL, f_map_w, NULL, NULL},
                   mb = {&b.f, f_load, f_store, f_map, NULL, NULL, NULL, NULL};
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
            rt_job_mem mem = {&sc.f, f_load, f_store, f_map, NULL, direct ? f_map_w : NULL,
                              NULL,  NULL};
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

/* A split job long enough for blocks of 128 rays (rt_job.c split_block: from 65,536 rays)
 * leaves the bytes and result of one thread: 70,000 rays at the sphere's triangles
 * (546 blocks of 128 and one of 112), lanes 5, 16, 32 and 63 of every 64 off, through
 * memory written directly. Cases: 0 the whole job (2 threads: blocks of 128, none through
 * the ring); 1 the hit queue fills at its 20,000th hit, in mid-block; 2 the record of ray
 * 40,000 (in the middle of block 312) and every later one lie in a hole that map() does not
 * serve and loads fault in: the tracer that meets it declines, and the job ends at ray
 * 40,000 with a memory fault, under fault-only-first (case 3) as FOF_STOP at that lane; 4
 * as 0 through memory not written directly (every block through the ring). On engines of
 * 1, 2 and 3 threads. REQ: RT-044 RT-098 */
#define LONG_RAYS 70000u
static void test_split_long_blocks(void **state)
{
    (void)state;
    static const rt_job_status want[5] = {RT_JOB_OK, RT_JOB_QUEUE_FULL, RT_JOB_MEM_FAULT,
                                          RT_JOB_FOF_STOP, RT_JOB_OK};
    for (unsigned c = 0; c < 5; c++) {
        rt_job_result rref = {0};
        uint8_t *mref = NULL;
        for (unsigned threads = 1; threads <= 3; threads++) {
            scene sc;
            scene_make(&sc, LONG_RAYS);
            sc.jd.lanes_off = UINT64_C(0x8000000100010020);
            if (c == 2 || c == 3) {
                sc.f.hole_lo = LOAD_ADDR + sc.rays + 32u * 40000;
                sc.f.hole_hi = LOAD_ADDR + sc.hits;
                sc.f.hole_faults = true;
            }
            if (c == 1) rt_le_put(sc.f.ram + sc.q + RT_QUEUE_BYTES + 8, 4, 20001);
            if (c == 3) {
                cap_state cs;
                cap_reset(&cs, NULL);
                assert_true(
                    cap_csr_write(&cs, XPHMG_CSR_CAP_XMEM_SVMSCL, CAP_XMEM_SVMSCL_FOF_MASK));
                cap_snapshot(&cs, &sc.s);
                sc.s.pet = CAP_T_FP32;
                sc.s.pol.q = false;
            }
            rt_job_mem mem = {&sc.f, f_load, f_store, f_map, NULL, c == 4 ? NULL : f_map_w,
                              NULL,  NULL};
            rt_job_engine *e = rt_job_engine_new(threads);
            assert_non_null(e);
            assert_int_equal(rt_job_engine_threads(e), threads);
            rt_job_result r;
            rt_job_run_ex(&sc.jd, &sc.s, &mem, e, &r);
            rt_job_split_stats st;
            rt_job_engine_split_stats(e, &st);
            rt_job_engine_free(e);
            assert_int_equal(r.status, want[c]);
            if (c == 1) assert_int_equal(r.hits, 20000);
            if (c == 2 || c == 3) {
                assert_int_equal(r.rays, 40000);
                assert_int_equal(r.svfaulti, 40000);
            }
            if (threads > 1) assert_int_equal(st.block_rays, 128);
            if (threads > 1 && (c == 0 || c == 4)) {
                assert_int_equal(st.blocks, (LONG_RAYS + 127) / 128);
                assert_int_equal(st.ring_blocks, c == 4 ? st.blocks : 0);
                assert_int_equal(st.rays_caller + st.rays_workers, LONG_RAYS);
            }
            if (threads == 1) {
                rref = r;
                mref = sc.f.ram;
                sc.f.ram = NULL;
            } else {
                assert_memory_equal(sc.f.ram, mref, sc.f.size);
                assert_rt_result_equal(&r, &rref);
            }
            scene_free(&sc);
        }
        free(mref);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_job_matches_brute_force),
        cmocka_unit_test(test_job_octants_match_brute_force),
        cmocka_unit_test(test_cache_between_jobs),
        cmocka_unit_test(test_cache_kept_between_jobs),
        cmocka_unit_test(test_cache_kept_trirange_rewritten),
        cmocka_unit_test(test_cache_kept_not_across_other_memory),
        cmocka_unit_test(test_cache_kept_other_tri_buf),
        cmocka_unit_test(test_cache_kept_queue_over_nodes),
        cmocka_unit_test(test_cache_kept_map_stops),
        cmocka_unit_test(test_cache_kept_other_format),
        cmocka_unit_test(test_cache_job_overwrites_nodes),
        cmocka_unit_test(test_cache_job_overwrites_triangles),
        cmocka_unit_test(test_split_same_stores),
        cmocka_unit_test(test_split_long_blocks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
