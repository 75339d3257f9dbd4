/* bench_rt — the RT offload engine and our BVH builder against Embree 3, in one process.
 *
 * For each scene (a mesh file assimp reads, or a procedural mesh of bvh_procedural) it
 *   - builds: bvh_build (binned SAH, FMT_BVHNODE4 tiles with binary16 boxes: the XBVH
 *     blob) against Embree scenes of one triangle geometry at RTC_BUILD_QUALITY_MEDIUM
 *     (Embree's default) and HIGH, one thread each, interleaved rep by rep; prints our BVH's
 *     SAH cost (bvh_check: node and triangle tests per ray relative to the scene box), so
 *     that a faster build that traverses slower shows, and the one Embree reports for its
 *     MEDIUM build (its own cost model);
 *   - traces two ray sets, closest hit: primary rays of a W x H pinhole camera looking at
 *     the scene, and random rays (origins uniform in the scene box, directions uniform on
 *     the sphere). Ours: one `xsubmit.rt` job over a flat memory holding the blob and the
 *     queues (rt_job_run_ex, the offload engine of xphmg-sim: node cache, 4-wide slab
 *     test, results written to the hit and miss queues) with 1 and 2 host threads.
 *     Embree: rtcIntersect1 per ray on 1 and 2 threads (a device per thread count);
 *   - compares the hits: same triangle (through the builder's permutation) and, for those,
 *     the same t within 1e-5 relative.
 * Times are best of REPS runs (CLOCK_MONOTONIC), both sides under the same load; builds
 * also print their CPU time (CLOCK_PROCESS_CPUTIME_ID), the steadier figure on a loaded
 * machine.
 *
 *   bench_rt [--reps N] [--tris N] [--size WxH] [--random N] [--threads 1|2] [--build-only]
 *            [--dump FILE] [SCENE|MESHFILE...]
 *   (default: sphere terrain soup scene, 100,000 triangles) */
#include <embree3/rtcore.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bvh_mesh.h"
#include "cap.h"
#include "rt_job.h"
#include "rt_kernels.h"
#include "xphmg/bvh.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* CPU time of the whole process (every thread), seconds: the work a run did, which a loaded
 * host does not inflate as it does the wall-clock time. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static uint64_t rng = 0x2545F4914F6CDD1Dull;
static double urand(void) /* [0, 1) */
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (double)(rng >> 11) * 0x1p-53;
}

/* Pinhole camera at (0.6, 0.9, 1.7) x extent from the centre, looking at the centre. */
static void primary_rays(const float lo[3], const float hi[3], int w, int h, rt_ray *rays)
{
    float c[3], ext = 0.0f;
    for (int i = 0; i < 3; i++) {
        c[i] = 0.5f * (lo[i] + hi[i]);
        ext = fmaxf(ext, hi[i] - lo[i]);
    }
    float eye[3] = {c[0] + 0.613f * ext, c[1] + 0.871f * ext, c[2] + 1.737f * ext};
    float f[3] = {c[0] - eye[0], c[1] - eye[1], c[2] - eye[2]};
    float fl = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int i = 0; i < 3; i++)
        f[i] /= fl;
    float r[3] = {-f[2], 0.0f, f[0]};
    float rl = sqrtf(r[0] * r[0] + r[2] * r[2]);
    r[0] /= rl;
    r[2] /= rl;
    float u[3] = {r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]};
    float s = 0.55f / (0.5f * (float)w);
    for (int py = 0; py < h; py++)
        for (int px = 0; px < w; px++) {
            rt_ray *ry = &rays[py * w + px];
            float a = ((float)px + 0.5f - 0.5f * (float)w) * s;
            float b = (0.5f * (float)h - (float)py - 0.5f) * s;
            for (int i = 0; i < 3; i++) {
                ry->org[i] = eye[i];
                ry->dir[i] = f[i] + a * r[i] + b * u[i];
            }
            ry->tmin = 0.0f;
            ry->tmax = INFINITY;
        }
}

static void random_rays(const float lo[3], const float hi[3], size_t n, rt_ray *rays)
{
    for (size_t k = 0; k < n; k++) {
        double z = 2.0 * urand() - 1.0, ph = 2.0 * M_PI * urand(), s = sqrt(1.0 - z * z);
        double d[3] = {s * cos(ph), s * sin(ph), z};
        for (int i = 0; i < 3; i++) {
            rays[k].org[i] = (float)(lo[i] + (hi[i] - lo[i]) * urand());
            rays[k].dir[i] = (float)d[i];
        }
        rays[k].tmin = 0.0f;
        rays[k].tmax = INFINITY;
    }
}

/* ---- ours: one offload job over a flat memory (addresses = host pointers) ---- */

typedef struct {
    uint8_t *lo, *hi;
    uint64_t epoch;       /* rt_job_mem.epoch */
    uintptr_t w_lo, w_hi; /* the watched range (empty: none) */
} flat;

/* Epochs are drawn from one counter, so that a flat memory at a reused address (the next
 * scene's) never repeats an epoch an engine recorded for the last one. */
static uint64_t flat_epochs;

/* Anything written over the watched range (or any change, n = 0: a new BVH) gives a new
 * epoch and forgets the watch. */
static void flat_wrote(flat *f, uintptr_t a, size_t n)
{
    if (n && !(a < f->w_hi && f->w_lo < a + n)) return;
    f->epoch = ++flat_epochs;
    f->w_lo = f->w_hi = 0;
}

static uint64_t f_epoch(void *ctx)
{
    return ((flat *)ctx)->epoch;
}

static bool f_watch(void *ctx, uint64_t a, uint64_t n)
{
    flat *f = ctx;
    if (a < (uintptr_t)f->lo || a > (uintptr_t)f->hi || n > (uintptr_t)f->hi - a) return false;
    if (f->w_lo >= f->w_hi || a < f->w_lo) f->w_lo = (uintptr_t)a;
    if (a + n > f->w_hi) f->w_hi = (uintptr_t)(a + n);
    return true;
}

static bool f_load(void *ctx, uint64_t a, unsigned n, uint64_t *v)
{
    flat *f = ctx;
    if (a < (uintptr_t)f->lo || a + n > (uintptr_t)f->hi) return false;
    *v = rt_le_get((const uint8_t *)(uintptr_t)a, n);
    return true;
}

static bool f_store(void *ctx, uint64_t a, unsigned n, uint64_t v)
{
    flat *f = ctx;
    if (a < (uintptr_t)f->lo || a + n > (uintptr_t)f->hi) return false;
    rt_le_put((uint8_t *)(uintptr_t)a, n, v);
    flat_wrote(f, (uintptr_t)a, n);
    return true;
}

static const uint8_t *f_map(void *ctx, uint64_t a, unsigned n)
{
    flat *f = ctx;
    if (a < (uintptr_t)f->lo || a + n > (uintptr_t)f->hi) return NULL;
    return (const uint8_t *)(uintptr_t)a;
}

static uint8_t *f_map_w(void *ctx, uint64_t a, uint64_t n)
{
    flat *f = ctx;
    if (a < (uintptr_t)f->lo || n > (uintptr_t)(f->hi - f->lo) ||
        a - (uintptr_t)f->lo > (uintptr_t)(f->hi - f->lo) - n)
        return NULL;
    return (uint8_t *)(uintptr_t)a;
}

/* --dump FILE: every job's hit and miss queue entries, appended in job order (to compare two
 * builds of the engine bit for bit with cmp). */
static FILE *dump;

typedef struct {
    uint8_t *mem; /* blob | 3 queue descriptors | rays | hits | misses */
    size_t size, q, rays, hits, misses;
    uint64_t bvh_base;
    flat f;      /* its rt_job_mem (epoch and watch) */
    bool loaded; /* the blob is in place, relocated */
} job_mem;

static void queue_put(uint8_t *p, uint32_t tail, uint32_t cap, uint64_t base)
{
    memset(p, 0, RT_QUEUE_BYTES);
    rt_le_put(p + 4, 4, tail);
    rt_le_put(p + 8, 4, cap);
    rt_le_put(p + 16, 8, base);
}

/* Traces rays[0..n-1] as one job on `threads` host threads; hit prim (stored order) or -1
 * and t into prim/t. Returns the seconds of rt_job_run_ex, and its CPU seconds (all
 * threads) in *cpu. */
static double trace_ours(job_mem *jm, const bvh_blob *b, const rt_ray *rays, size_t n,
                         rt_job_engine *eng, long *prim, float *t, double *cpu)
{
    uint8_t *m = jm->mem;
    /* The BVH is written once (as a renderer's guest would), the rays and queues per job. */
    if (!jm->loaded) {
        memcpy(m, b->data, b->size);
        jm->bvh_base = bvh_relocate(m, (uintptr_t)m) + (uintptr_t)m;
        jm->f = (flat){m, m + jm->size, 0, 0, 0};
        flat_wrote(&jm->f, (uintptr_t)m, 0);
        jm->loaded = true;
    }
    for (size_t i = 0; i < n; i++) {
        float v[8] = {rays[i].org[0], rays[i].org[1], rays[i].org[2], rays[i].dir[0],
                      rays[i].dir[1], rays[i].dir[2], rays[i].tmin,   rays[i].tmax};
        memcpy(m + jm->rays + 32 * i, v, sizeof v);
    }
    flat_wrote(&jm->f, (uintptr_t)(m + jm->rays), 32 * n);
    uint32_t cap = (uint32_t)n + 1;
    queue_put(m + jm->q, (uint32_t)n, cap, (uintptr_t)(m + jm->rays));
    queue_put(m + jm->q + RT_QUEUE_BYTES, 0, cap, (uintptr_t)(m + jm->hits));
    queue_put(m + jm->q + 2 * RT_QUEUE_BYTES, 0, cap, (uintptr_t)(m + jm->misses));
    flat_wrote(&jm->f, (uintptr_t)(m + jm->q), 3 * RT_QUEUE_BYTES);
    rt_job_desc jd;
    memset(&jd, 0, sizeof jd);
    jd.bvh_base = jm->bvh_base;
    jd.rayq = (uintptr_t)(m + jm->q);
    jd.hitq = jd.rayq + RT_QUEUE_BYTES;
    jd.missq = jd.rayq + 2 * RT_QUEUE_BYTES;
    cap_state cs;
    cap_snap s;
    cap_reset(&cs, NULL);
    cap_snapshot(&cs, &s);
    s.pet = CAP_T_FP32;
    s.pol.q = false;
    rt_job_mem mem = {&jm->f, f_load, f_store, f_map, NULL, f_map_w, f_epoch, f_watch};
    rt_job_result r;
    double c0 = cpu_now(), t0 = now();
    rt_job_run_ex(&jd, &s, &mem, eng, &r);
    double dt = now() - t0;
    *cpu = cpu_now() - c0;
    if (r.status != RT_JOB_OK || r.rays != n) {
        fprintf(stderr, "bench_rt: the job failed (status %d)\n", (int)r.status);
        exit(1);
    }
    if (dump) {
        fwrite(m + jm->hits, RT_HIT_BYTES, r.hits, dump);
        fwrite(m + jm->misses, RT_MISS_BYTES, r.misses, dump);
    }
    for (size_t i = 0; i < n; i++)
        prim[i] = -1;
    for (uint32_t k = 0; k < r.hits; k++) {
        const uint8_t *e = m + jm->hits + RT_HIT_BYTES * k;
        uint32_t ray = (uint32_t)rt_le_get(e, 4), tb = (uint32_t)rt_le_get(e + 8, 4);
        prim[ray] = (long)rt_le_get(e + 4, 4);
        memcpy(&t[ray], &tb, 4);
    }
    return dt;
}

/* ---- Embree ---- */

static RTCScene embree_build(RTCDevice dev, const float (*tris)[9], size_t n,
                             enum RTCBuildQuality q)
{
    RTCScene scene = rtcNewScene(dev);
    rtcSetSceneBuildQuality(scene, q);
    RTCGeometry g = rtcNewGeometry(dev, RTC_GEOMETRY_TYPE_TRIANGLE);
    rtcSetGeometryBuildQuality(g, q);
    float *vb = rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                        3 * sizeof(float), 3 * n);
    unsigned *ib = rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                           3 * sizeof(unsigned), n);
    memcpy(vb, tris, n * 9 * sizeof(float));
    for (size_t i = 0; i < 3 * n; i++)
        ib[i] = (unsigned)i;
    rtcCommitGeometry(g);
    rtcAttachGeometry(scene, g);
    rtcReleaseGeometry(g);
    rtcCommitScene(scene);
    return scene;
}

/* ---- Builds (ours against Embree MEDIUM and HIGH) ---- */

/* One function per quality, kept out of line, so that callgrind's inclusive counts give
 * each build's instructions apart (bench/README.md: `--reps 1 --build-only` under
 * callgrind, embree_build_medium against bvh_build). */
static __attribute__((noinline)) RTCScene embree_build_medium(RTCDevice dev, const float (*tris)[9],
                                                              size_t n)
{
    return embree_build(dev, tris, n, RTC_BUILD_QUALITY_MEDIUM);
}

static __attribute__((noinline)) RTCScene embree_build_high(RTCDevice dev, const float (*tris)[9],
                                                            size_t n)
{
    return embree_build(dev, tris, n, RTC_BUILD_QUALITY_HIGH);
}

/* Best of reps, wall and CPU time, of a build: ours, Embree MEDIUM, Embree HIGH. */
typedef struct {
    double wall[3], cpu[3];
} build_times;

/* Best-of-reps build times, ours and Embree's interleaved rep by rep so that both see the
 * same load. Embree's device must be the only one alive: Embree runs every device's builds
 * with the largest thread count of all live devices (a threads=2 device alongside makes the
 * threads=1 device build on two threads; measured: bunny MEDIUM 12.7 ms with one alive,
 * 23 ms without). *blob keeps our last build. */
static bool time_builds(RTCDevice dev1, const float (*tris)[9], size_t n, int reps, bvh_blob *blob,
                        build_times *bt)
{
    char err[256];
    for (int k = 0; k < 3; k++)
        bt->wall[k] = bt->cpu[k] = INFINITY;
    for (int r = 0; r < reps; r++) {
        for (int k = 0; k < 3; k++) {
            double t0 = now(), c0 = cpu_now();
            RTCScene s = NULL;
            if (k == 0) {
                bvh_blob_free(blob);
                if (!bvh_build(tris, n, true, blob, err, sizeof err)) {
                    fprintf(stderr, "bench_rt: bvh_build: %s\n", err);
                    return false;
                }
            } else {
                s = k == 1 ? embree_build_medium(dev1, tris, n) : embree_build_high(dev1, tris, n);
            }
            bt->cpu[k] = fmin(bt->cpu[k], cpu_now() - c0);
            bt->wall[k] = fmin(bt->wall[k], now() - t0);
            if (s) rtcReleaseScene(s);
        }
    }
    return true;
}

/* The SAH cost Embree reports for its MEDIUM build of the mesh (a device with verbose=2
 * prints its BVH statistics, "total : sah = X", on stdout; Embree 3 has no API that returns
 * it), or -1 when the line is not found. Its cost model is not ours: its BVH is 8-wide on
 * AVX hosts and a leaf block of 4 triangles is one intersection unit, so it is lower than our
 * count of node and triangle tests for the same tree quality. */
static double embree_sah(const float (*tris)[9], size_t n)
{
    FILE *cap = tmpfile();
    if (!cap) return -1.0;
    fflush(stdout);
    int saved = dup(1);
    if (saved < 0 || dup2(fileno(cap), 1) < 0) {
        fclose(cap);
        return -1.0;
    }
    RTCDevice dev = rtcNewDevice("threads=1,verbose=2");
    if (dev) {
        rtcReleaseScene(embree_build(dev, tris, n, RTC_BUILD_QUALITY_MEDIUM));
        rtcReleaseDevice(dev);
    }
    fflush(stdout);
    dup2(saved, 1);
    close(saved);
    rewind(cap);
    char line[512];
    double sah = -1.0;
    while (fgets(line, sizeof line, cap)) {
        const char *p = strstr(line, "sah =");
        if (strncmp(line + strspn(line, " "), "total", 5) == 0 && p) {
            sah = strtod(p + 5, NULL);
            break;
        }
    }
    fclose(cap);
    return sah;
}

typedef struct {
    RTCScene scene;
    const rt_ray *rays;
    size_t lo, hi;
    long *prim;
    float *t;
} emb_part;

static void *embree_part(void *arg)
{
    emb_part *p = arg;
    struct RTCIntersectContext ctx;
    rtcInitIntersectContext(&ctx);
    for (size_t i = p->lo; i < p->hi; i++) {
        const rt_ray *ray = &p->rays[i];
        struct RTCRayHit rh;
        rh.ray.org_x = ray->org[0];
        rh.ray.org_y = ray->org[1];
        rh.ray.org_z = ray->org[2];
        rh.ray.dir_x = ray->dir[0];
        rh.ray.dir_y = ray->dir[1];
        rh.ray.dir_z = ray->dir[2];
        rh.ray.tnear = ray->tmin;
        rh.ray.tfar = ray->tmax;
        rh.ray.time = 0.0f;
        rh.ray.mask = 0xffffffffu;
        rh.ray.id = 0;
        rh.ray.flags = 0;
        rh.hit.geomID = RTC_INVALID_GEOMETRY_ID;
        rh.hit.instID[0] = RTC_INVALID_GEOMETRY_ID;
        rtcIntersect1(p->scene, &ctx, &rh);
        p->prim[i] = rh.hit.geomID == RTC_INVALID_GEOMETRY_ID ? -1 : (long)rh.hit.primID;
        p->t[i] = rh.ray.tfar;
    }
    return NULL;
}

/* rays split in `threads` contiguous parts, one thread each; CPU seconds in *cpu. */
static double trace_embree(RTCScene scene, const rt_ray *rays, size_t n, unsigned threads,
                           long *prim, float *t, double *cpu)
{
    emb_part part[2];
    pthread_t tid;
    double c0 = cpu_now(), t0 = now();
    for (unsigned k = 0; k < threads; k++)
        part[k] = (emb_part){scene, rays, n * k / threads, n * (k + 1) / threads, prim, t};
    if (threads == 2) pthread_create(&tid, NULL, embree_part, &part[1]);
    embree_part(&part[0]);
    if (threads == 2) pthread_join(tid, NULL);
    double dt = now() - t0;
    *cpu = cpu_now() - c0;
    return dt;
}

int main(int argc, char **argv)
{
    int reps = 3, w = 512, h = 384;
    unsigned only_thr = 0;   /* --threads N: that thread count only (default 1 and 2) */
    bool build_only = false; /* --build-only: the build rows, no traversal */
    size_t ntris = 100000, nrandom = 200000;
    const char *scenes[16];
    int nscenes = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--build-only"))
            build_only = true;
        else if (!strcmp(argv[i], "--threads") && i + 1 < argc)
            only_thr = (unsigned)atoi(argv[++i]);
        else if (!strcmp(argv[i], "--tris") && i + 1 < argc)
            ntris = (size_t)strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--dump") && i + 1 < argc) {
            if (!(dump = fopen(argv[++i], "wb"))) {
                perror(argv[i]);
                return 2;
            }
        } else if (!strcmp(argv[i], "--random") && i + 1 < argc)
            nrandom = (size_t)strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &w, &h) != 2 || w <= 0 || h <= 0) {
                fprintf(stderr, "bench_rt: bad --size\n");
                return 2;
            }
        } else if (argv[i][0] != '-' && nscenes < 16)
            scenes[nscenes++] = argv[i];
        else {
            fprintf(stderr, "usage: bench_rt [--reps N] [--tris N] [--size WxH] [--random N] "
                            "[--threads 1|2] [--build-only] [--dump FILE] [SCENE|MESHFILE...]\n");
            return 2;
        }
    }
    if (nscenes == 0) {
        scenes[nscenes++] = "sphere";
        scenes[nscenes++] = "terrain";
        scenes[nscenes++] = "soup";
        scenes[nscenes++] = "scene";
    }
    if (reps < 1) reps = 1;
    if (nrandom < 1) nrandom = 1;

    /* dev2 lives only during each scene's traversal (see time_builds). */
    RTCDevice dev1 = rtcNewDevice("threads=1"), dev2 = NULL;
    if (!dev1) {
        fprintf(stderr, "bench_rt: rtcNewDevice failed\n");
        return 1;
    }
    rt_job_engine *eng1 = rt_job_engine_new(1), *eng2 = rt_job_engine_new(2);
    long ver = (long)rtcGetDeviceProperty(dev1, RTC_DEVICE_PROPERTY_VERSION);
    size_t nprim = (size_t)w * (size_t)h, nmax = nprim > nrandom ? nprim : nrandom;
    printf("bench_rt: Embree %ld.%ld.%ld rtcIntersect1 vs the RT offload engine (rt_job_run_ex); "
           "%dx%d primary and %zu random rays, closest hit, best of %d\n",
           ver / 10000, ver / 100 % 100, ver % 100, w, h, nrandom, reps);
    printf("threads: builds on 1 (ours; Embree device threads=1, MEDIUM and HIGH, the only "
           "Embree device alive while they are timed); traversal "
           "rows thr 1 = Embree device threads=1 / our engine of 1 thread, thr 2 = Embree device "
           "threads=2 with the rays in two halves on 2 threads / our engine of %u threads\n",
           rt_job_engine_threads(eng2));
    rt_ray *rays = malloc(nmax * sizeof *rays);
    long *po = malloc(nmax * sizeof *po), *pe = malloc(nmax * sizeof *pe);
    float *to = malloc(nmax * sizeof *to), *te = malloc(nmax * sizeof *te);
    if (!rays || !po || !pe || !to || !te || !eng1 || !eng2) return 1;
    int status = 0;
    for (int sc = 0; sc < nscenes; sc++) {
        size_t n;
        char err[256];
        float(*tris)[9] = bvh_procedural(scenes[sc], ntris, &n);
        if (!tris) tris = bvh_mesh_load_file(scenes[sc], 1.0f, &n, err, sizeof err);
        if (!tris) {
            fprintf(stderr, "bench_rt: %s: not a procedural mesh, and %s\n", scenes[sc], err);
            return 2;
        }
        build_times bt;
        bvh_blob blob = {0};
        if (!time_builds(dev1, (const float(*)[9])tris, n, reps, &blob, &bt)) return 1;
        double esah = embree_sah((const float(*)[9])tris, n);
        bvh_info info;
        if (!bvh_check(blob.data, blob.size, 0, &info, err, sizeof err)) {
            fprintf(stderr, "bench_rt: bvh_check: %s\n", err);
            return 1;
        }
        bvh_header hd;
        bvh_header_decode(blob.data, &hd);
        printf("\n%s: %zu triangles; build ms wall (CPU): ours %.1f (%.1f), Embree MEDIUM %.1f "
               "(%.1f), ratio %.2f (%.2f), HIGH %.1f (%.1f); our SAH cost %.2f",
               scenes[sc], n, 1e3 * bt.wall[0], 1e3 * bt.cpu[0], 1e3 * bt.wall[1], 1e3 * bt.cpu[1],
               bt.wall[0] / bt.wall[1], bt.cpu[0] / bt.cpu[1], 1e3 * bt.wall[2], 1e3 * bt.cpu[2],
               info.sah_cost);
        if (esah >= 0.0)
            printf(", Embree MEDIUM's %.2f (its model: BVH8, a 4-triangle block = 1)\n", esah);
        else
            printf(", Embree's not reported\n");
        if (build_only) {
            bvh_blob_free(&blob);
            free(tris);
            continue;
        }
        RTCScene s1 = embree_build(dev1, (const float(*)[9])tris, n, RTC_BUILD_QUALITY_MEDIUM);
        dev2 = rtcNewDevice("threads=2");
        if (!dev2) {
            fprintf(stderr, "bench_rt: rtcNewDevice failed\n");
            return 1;
        }
        RTCScene s2 = embree_build(dev2, (const float(*)[9])tris, n, RTC_BUILD_QUALITY_MEDIUM);
        printf("  %-8s %3s | %10s %10s %10s %6s | %7s %7s %11s | %s\n", "rays", "thr", "ours Mr/s",
               "(cold)", "Embree", "ratio", "cpu ns", "Embree", "work/thr1",
               "hits agree (same triangle; t within 1e-5 of those)");
        job_mem jm;
        jm.q = (blob.size + 63) & ~(size_t)63;
        jm.rays = jm.q + 3 * RT_QUEUE_BYTES + 8;
        jm.hits = jm.rays + 32 * (nmax + 1);
        jm.misses = jm.hits + RT_HIT_BYTES * (nmax + 1);
        jm.size = jm.misses + 4 * (nmax + 1);
        jm.mem = aligned_alloc(64, (jm.size + 63) & ~(size_t)63);
        if (!jm.mem) return 1;
        jm.loaded = false;
        for (int set = 0; set < 2; set++) {
            size_t nr = set == 0 ? nprim : nrandom;
            if (set == 0)
                primary_rays(hd.bounds_lo, hd.bounds_hi, w, h, rays);
            else
                random_rays(hd.bounds_lo, hd.bounds_hi, nr, rays);
            double cpu1_ours = 0.0, cpu1_emb = 0.0; /* CPU s per ray of the thr 1 row */
            for (unsigned thr = 1; thr <= 2; thr++) {
                if (only_thr && thr != only_thr) continue;
                double tours = INFINITY, temb = INFINITY, cours = INFINITY, cemb = INFINITY;
                double tcold = 0.0;
                rt_job_split_stats split = {0}; /* of the fastest of our jobs */
                for (int r = 0; r < reps; r++) {
                    double c;
                    /* The first job of a row starts cold, as after a new BVH was written;
                     * the later ones may keep the engine's cache (its epoch). */
                    if (r == 0 && jm.loaded) flat_wrote(&jm.f, 0, 0);
                    double t = trace_ours(&jm, &blob, rays, nr, thr == 1 ? eng1 : eng2, po, to, &c);
                    if (r == 0) tcold = t;
                    if (t < tours) rt_job_engine_split_stats(thr == 1 ? eng1 : eng2, &split);
                    tours = fmin(tours, t);
                    cours = fmin(cours, c);
                    temb = fmin(temb, trace_embree(thr == 1 ? s1 : s2, rays, nr, thr, pe, te, &c));
                    cemb = fmin(cemb, c);
                }
                cours /= (double)nr;
                cemb /= (double)nr;
                if (thr == 1) {
                    cpu1_ours = cours;
                    cpu1_emb = cemb;
                }
                size_t same = 0, hits = 0, tclose = 0;
                for (size_t i = 0; i < nr; i++) {
                    long p = po[i] < 0 ? -1 : (long)blob.perm[po[i]];
                    hits += p >= 0;
                    if (p != pe[i]) continue;
                    same++;
                    if (p >= 0 && fabsf(to[i] - te[i]) <= 1e-5f * fabsf(te[i])) tclose++;
                }
                double agree = 100.0 * (double)same / (double)nr;
                char work[32] = "";
                if (thr == 2 && cpu1_ours > 0.0)
                    snprintf(work, sizeof work, "%5.3f %5.3f", cours / cpu1_ours, cemb / cpu1_emb);
                printf("  %-8s %3u | %10.3f %10.3f %10.3f %6.3f | %7.1f %7.1f %11s | %.3f%% of %zu "
                       "rays (%zu hits; t %.3f%%)\n",
                       set == 0 ? "primary" : "random", thr, 1e-6 * (double)nr / tours,
                       1e-6 * (double)nr / tcold, 1e-6 * (double)nr / temb, temb / tours,
                       1e9 * cours, 1e9 * cemb, work, agree, nr, hits,
                       hits ? 100.0 * (double)tclose / (double)hits : 100.0);
                if (split.blocks)
                    printf("  %-8s     | split: rays %.1f%% caller / %.1f%% workers, %" PRIu64
                           " blocks of %" PRIu64 ": %" PRIu64 " through the ring, %" PRIu64
                           " kept in ring slots; caller waited %.1f us, %.1f us at the end\n",
                           "", 100.0 * (double)split.rays_caller / (double)nr,
                           100.0 * (double)split.rays_workers / (double)nr, split.blocks,
                           split.block_rays, split.ring_blocks, split.kept_in_ring,
                           1e-3 * (double)split.wait_ns, 1e-3 * (double)split.end_ns);
                /* Rays grazing an edge may legitimately differ (different triangle
                 * tests); more than 1% means one of the two traversals is wrong. */
                if (agree < 99.0) status = 1;
            }
        }
        free(jm.mem);
        rtcReleaseScene(s1);
        rtcReleaseScene(s2);
        rtcReleaseDevice(dev2);
        bvh_blob_free(&blob);
        free(tris);
    }
    printf(
        "\nours Mr/s = the best of the reps (a job after the first keeps the engine's decoded "
        "nodes: the BVH is written once, as Embree's is built once); (cold) = the first rep, "
        "whose cache starts empty as after a new BVH; "
        "ratio = our rays/s / Embree's at the same thread count (higher is better for us); "
        "build ratio = our time / Embree MEDIUM's; cpu ns = CPU time of all threads per ray "
        "(least of the reps), ours and Embree's; work/thr1 = that CPU time on 2 threads / on "
        "1 thread, ours and Embree's (1.000: no work added by splitting; the best 2-thread "
        "speed-up is 2 / it); split = how the fastest 2-thread job of ours was shared: rays traced "
        "by "
        "the calling thread and the worker, blocks appended (of 32 to 128 rays), those appended "
        "ray by ray "
        "from the ring (rather than placed and written by their tracer) and those whose "
        "tracer, ahead of the append by more than its buffer holds (512 rays), kept them in their "
        "ring slot, and "
        "the calling thread's waits for a block traced elsewhere and for the worker at the "
        "end\n");
    free(rays);
    free(po);
    free(pe);
    free(to);
    free(te);
    rt_job_engine_free(eng1);
    rt_job_engine_free(eng2);
    if (dump) fclose(dump);
    rtcReleaseDevice(dev1);
    return status;
}
