/* bench_rt — our BVH builder and rt_kernels traversal against Embree, in one run.
 *
 * For each procedural scene (bvh_procedural) it times
 *   - build: bvh_build (binned SAH, FMT_BVHNODE4 tiles with binary16 boxes) against an
 *     Embree 3 scene (one triangle geometry, default build quality, rtcCommitScene);
 *   - traversal: the same primary rays (a W x H pinhole camera looking at the scene) with
 *     a stack traversal over the blob using the RT unit's kernels (rt_node4_decode,
 *     rt_bbox_children, rt_trirange_decode, rt_tri_test: what rt.bbox/rt.tri and the
 *     offload job compute, binary32 RNE) against rtcIntersect1, closest hit;
 * and checks that both find the same triangle for (nearly) every ray. Both sides run on
 * one thread (Embree device "threads=1"). Times are best of REPS runs (CLOCK_MONOTONIC);
 * the ratios ours/Embree are the figures to compare across machines.
 *
 *   bench_rt [--reps N] [--tris N] [--size WxH] [SCENE...]   (default: sphere terrain soup)
 */
#include <embree3/rtcore.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rt_kernels.h"
#include "xphmg/bvh.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Pinhole camera at (0.6, 0.9, 1.7) x extent from the centre, looking at the centre. */
static void make_rays(const float lo[3], const float hi[3], int w, int h, rt_ray *rays)
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

/* Closest hit over the blob with the RT kernels; returns the stored triangle index or -1. */
static long trace_ours(const uint8_t *base, const rt_ray *ray, float *t_out)
{
    rt_ray r = *ray;
    uint32_t stack[3 * BVH_MAX_DEPTH + 8];
    unsigned sp = 0;
    long best = -1;
    stack[sp++] = 0;
    while (sp > 0) {
        rt_node4 n;
        rt_node4_decode(base + 16u * stack[--sp], &n);
        rt_bbox_res res;
        rt_bbox_children(&r, &n, 1, &res);
        for (unsigned k = 0; k < res.nhit; k++) {
            unsigned c = res.order[k];
            if (n.kind[c] != RT_CHILD_LEAF) continue;
            rt_trirange tr;
            rt_trirange_decode(base + 16u * n.index[c], &tr);
            for (uint32_t j = 0; j < tr.count; j++) {
                float v[3][3], t, bu, bv;
                uint32_t prim = tr.first + j;
                rt_tri_decode((const uint8_t *)(uintptr_t)tr.base + 36u * prim, RT_ELEM_FP32, v);
                if (rt_tri_test(&r, v, false, 0, &t, &bu, &bv) &&
                    (best < 0 || t < r.tmax || (t == r.tmax && (long)prim < best))) {
                    best = prim;
                    r.tmax = t;
                }
            }
        }
        for (unsigned k = res.nhit; k-- > 0;) {
            unsigned c = res.order[k];
            if (n.kind[c] == RT_CHILD_NODE && sp < sizeof stack / sizeof stack[0])
                stack[sp++] = n.index[c];
        }
    }
    *t_out = r.tmax;
    return best;
}

typedef struct {
    RTCDevice dev;
    RTCScene scene;
} embree_scene;

static void embree_build(RTCDevice dev, const float (*tris)[9], size_t n, embree_scene *es)
{
    es->dev = dev;
    es->scene = rtcNewScene(dev);
    RTCGeometry g = rtcNewGeometry(dev, RTC_GEOMETRY_TYPE_TRIANGLE);
    float *vb = rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_VERTEX, 0, RTC_FORMAT_FLOAT3,
                                        3 * sizeof(float), 3 * n);
    unsigned *ib = rtcSetNewGeometryBuffer(g, RTC_BUFFER_TYPE_INDEX, 0, RTC_FORMAT_UINT3,
                                           3 * sizeof(unsigned), n);
    memcpy(vb, tris, n * 9 * sizeof(float));
    for (size_t i = 0; i < 3 * n; i++)
        ib[i] = (unsigned)i;
    rtcCommitGeometry(g);
    rtcAttachGeometry(es->scene, g);
    rtcReleaseGeometry(g);
    rtcCommitScene(es->scene);
}

static long trace_embree(RTCScene scene, struct RTCIntersectContext *ctx, const rt_ray *ray,
                         float *t)
{
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
    rtcIntersect1(scene, ctx, &rh);
    *t = rh.ray.tfar;
    return rh.hit.geomID == RTC_INVALID_GEOMETRY_ID ? -1 : (long)rh.hit.primID;
}

int main(int argc, char **argv)
{
    int reps = 3, w = 256, h = 192;
    size_t ntris = 100000;
    const char *scenes[16];
    int nscenes = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--reps") && i + 1 < argc)
            reps = atoi(argv[++i]);
        else if (!strcmp(argv[i], "--tris") && i + 1 < argc)
            ntris = (size_t)strtoull(argv[++i], NULL, 10);
        else if (!strcmp(argv[i], "--size") && i + 1 < argc) {
            if (sscanf(argv[++i], "%dx%d", &w, &h) != 2 || w <= 0 || h <= 0) {
                fprintf(stderr, "bench_rt: bad --size\n");
                return 2;
            }
        } else if (argv[i][0] != '-' && nscenes < 16)
            scenes[nscenes++] = argv[i];
        else {
            fprintf(stderr, "usage: bench_rt [--reps N] [--tris N] [--size WxH] [SCENE...]\n");
            return 2;
        }
    }
    if (nscenes == 0) {
        scenes[nscenes++] = "sphere";
        scenes[nscenes++] = "terrain";
        scenes[nscenes++] = "soup";
    }
    if (reps < 1) reps = 1;

    RTCDevice dev = rtcNewDevice("threads=1");
    if (!dev) {
        fprintf(stderr, "bench_rt: rtcNewDevice failed\n");
        return 1;
    }
    long ver = (long)rtcGetDeviceProperty(dev, RTC_DEVICE_PROPERTY_VERSION);
    printf("bench_rt: Embree %ld.%ld.%ld; %dx%d primary rays, best of %d, one thread each\n",
           ver / 10000, ver / 100 % 100, ver % 100, w, h, reps);
    printf("%-8s %8s | %10s %10s %6s | %12s %12s %6s | %s\n", "scene", "tris", "build ms",
           "embree ms", "ratio", "Mrays/s", "embree", "ratio", "same prim");
    int status = 0;
    size_t nrays = (size_t)w * (size_t)h;
    rt_ray *rays = malloc(nrays * sizeof *rays);
    long *ours = malloc(nrays * sizeof *ours), *theirs = malloc(nrays * sizeof *theirs);
    if (!rays || !ours || !theirs) return 1;
    for (int s = 0; s < nscenes; s++) {
        size_t n;
        float(*tris)[9] = bvh_procedural(scenes[s], ntris, &n);
        if (!tris) {
            fprintf(stderr, "bench_rt: unknown scene %s\n", scenes[s]);
            return 2;
        }
        double tb_ours = INFINITY, tb_emb = INFINITY, tt_ours = INFINITY, tt_emb = INFINITY;
        bvh_blob blob = {0};
        char err[256];
        for (int r = 0; r < reps; r++) {
            bvh_blob_free(&blob);
            double t0 = now();
            if (!bvh_build((const float(*)[9])tris, n, true, &blob, err, sizeof err)) {
                fprintf(stderr, "bench_rt: bvh_build: %s\n", err);
                return 1;
            }
            tb_ours = fmin(tb_ours, now() - t0);
        }
        embree_scene es = {0};
        for (int r = 0; r < reps; r++) {
            if (es.scene) rtcReleaseScene(es.scene);
            double t0 = now();
            embree_build(dev, (const float(*)[9])tris, n, &es);
            tb_emb = fmin(tb_emb, now() - t0);
        }
        uint64_t boff = bvh_relocate(blob.data, (uint64_t)(uintptr_t)blob.data);
        const uint8_t *base = blob.data + boff;
        bvh_header hd;
        bvh_header_decode(blob.data, &hd);
        make_rays(hd.bounds_lo, hd.bounds_hi, w, h, rays);

        for (int r = 0; r < reps; r++) {
            double t0 = now();
            for (size_t i = 0; i < nrays; i++) {
                float t;
                long p = trace_ours(base, &rays[i], &t);
                ours[i] = p < 0 ? -1 : (long)blob.perm[p];
            }
            tt_ours = fmin(tt_ours, now() - t0);
        }
        struct RTCIntersectContext ctx;
        rtcInitIntersectContext(&ctx);
        for (int r = 0; r < reps; r++) {
            double t0 = now();
            for (size_t i = 0; i < nrays; i++) {
                float t;
                theirs[i] = trace_embree(es.scene, &ctx, &rays[i], &t);
            }
            tt_emb = fmin(tt_emb, now() - t0);
        }
        size_t same = 0, hits = 0;
        for (size_t i = 0; i < nrays; i++) {
            same += ours[i] == theirs[i];
            hits += ours[i] >= 0;
        }
        double agree = 100.0 * (double)same / (double)nrays;
        printf("%-8s %8zu | %10.2f %10.2f %6.2f | %12.3f %12.3f %6.3f | %.2f%% (%zu hits)\n",
               scenes[s], n, 1e3 * tb_ours, 1e3 * tb_emb, tb_ours / tb_emb,
               1e-6 * (double)nrays / tt_ours, 1e-6 * (double)nrays / tt_emb, tt_emb / tt_ours,
               agree, hits);
        /* Edge rays may legitimately differ (different triangle tests); anything more
         * than 1% means one of the two traversals is wrong. */
        if (agree < 99.0) status = 1;
        rtcReleaseScene(es.scene);
        bvh_blob_free(&blob);
        free(tris);
    }
    printf("build ratio = our build time / Embree's (lower is better for us); traversal "
           "ratio = our rays/s / Embree's (higher is better for us)\n");
    free(rays);
    free(ours);
    free(theirs);
    rtcReleaseDevice(dev);
    return status;
}
