/* test_rt_accuracy — the triangle kernel (rt_tri_test, the one used by rt.tri, the offload
 * engine and the benches; errata P-340) against a long double reference, and
 * watertightness through the whole offload engine.
 *
 *  1. Accuracy: random triangles of three kinds (ordinary ones near the origin; slivers,
 *     one edge 1e-3..1e-5 of the others; distant ones with coordinates around 300-600 and
 *     5-10 units across, some folded pairs), rays aimed at random points of them from
 *     random directions. Reference: Moller-Trumbore in long double (64-bit significand)
 *     on the same binary32 inputs. Every ray whose exact hit point lies farther than 1e-6
 *     of the triangle's longest edge from all three edges must hit, and the hit distance
 *     must be within 1e-6 relative of the reference on at least 99.99% of the hits.
 *  2. Watertightness: closed UV spheres (built by bvh_procedural, placed at several
 *     scales and offsets) with rays from outside aimed at shared vertices and at points
 *     of shared edges, towards the sphere's inside: every ray must hit (through
 *     rt_job_run, the engine of xsubmit.rt, with its BVH and node cache). A leak is a
 *     miss. This is a volume check of the whole engine; the kernel mutations tried so far
 *     (vertex coordinates rounded per triangle) are caught by ext_rt_kernels'
 *     watertight_grid and watertight_closed, which aim exactly at shared grid and
 *     octahedron features, and not by these random spheres.
 * Default run: 200,000 accuracy rays and 100,000 watertightness rays; `--long` (target
 * rt-accuracy-long, label long): 4,000,000 and 2,000,000. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap.h"
#include "rt_job.h"
#include "rt_kernels.h"
#include "xphmg/bvh.h"

static uint64_t rs = 0x853C49E6748FEA9Bull;
static double urand(void)
{
    rs ^= rs << 13;
    rs ^= rs >> 7;
    rs ^= rs << 17;
    return (double)(rs >> 11) * 0x1p-53;
}

static int fails;
#define CHECK(c, ...)                                                                              \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            fails++;                                                                               \
            if (fails < 10) printf(__VA_ARGS__);                                                   \
        }                                                                                          \
    } while (0)

typedef long double ld;

/* Moller-Trumbore in long double: t and barycentrics (b1 weights v1, b2 weights v2). */
static int ref_hit(const rt_ray *r, const float v[3][3], ld *t, ld *b1, ld *b2)
{
    ld e1[3], e2[3], p[3], q[3], s[3];
    for (int i = 0; i < 3; i++) {
        e1[i] = (ld)v[1][i] - v[0][i];
        e2[i] = (ld)v[2][i] - v[0][i];
        s[i] = (ld)r->org[i] - v[0][i];
    }
    const float *d = r->dir;
    p[0] = d[1] * e2[2] - d[2] * e2[1];
    p[1] = d[2] * e2[0] - d[0] * e2[2];
    p[2] = d[0] * e2[1] - d[1] * e2[0];
    ld det = e1[0] * p[0] + e1[1] * p[1] + e1[2] * p[2];
    if (det == 0) return 0;
    *b1 = (s[0] * p[0] + s[1] * p[1] + s[2] * p[2]) / det;
    q[0] = s[1] * e1[2] - s[2] * e1[1];
    q[1] = s[2] * e1[0] - s[0] * e1[2];
    q[2] = s[0] * e1[1] - s[1] * e1[0];
    *b2 = (d[0] * q[0] + d[1] * q[1] + d[2] * q[2]) / det;
    *t = (e2[0] * q[0] + e2[1] * q[1] + e2[2] * q[2]) / det;
    return 1;
}

static ld dist(const ld a[3], const ld b[3])
{
    ld s = 0;
    for (int i = 0; i < 3; i++)
        s += (a[i] - b[i]) * (a[i] - b[i]);
    return sqrtl(s);
}

/* Distance from p to segment ab. */
static ld seg_dist(const ld p[3], const ld a[3], const ld b[3])
{
    ld ab[3], ap[3], l2 = 0, d = 0;
    for (int i = 0; i < 3; i++) {
        ab[i] = b[i] - a[i];
        ap[i] = p[i] - a[i];
        l2 += ab[i] * ab[i];
        d += ab[i] * ap[i];
    }
    ld s = l2 > 0 ? d / l2 : 0;
    if (s < 0) s = 0;
    if (s > 1) s = 1;
    ld q[3];
    for (int i = 0; i < 3; i++)
        q[i] = a[i] + s * ab[i];
    return dist(p, q);
}

static void make_triangle(int kind, float v[3][3])
{
    double c[3], size = 1.0;
    for (int i = 0; i < 3; i++)
        c[i] = kind == 2 ? 300.0 + 300.0 * urand() : 2.0 * urand() - 1.0;
    if (kind == 2) size = 5.0 + 5.0 * urand();
    for (int k = 0; k < 3; k++)
        for (int i = 0; i < 3; i++)
            v[k][i] = (float)(c[i] + size * (urand() - 0.5));
    if (kind == 1) { /* sliver: v2 close to the line v0-v1 */
        double s = urand(), off = pow(10.0, -3.0 - 2.0 * urand());
        for (int i = 0; i < 3; i++)
            v[2][i] = (float)((1 - s) * v[0][i] + s * v[1][i] + off * (urand() - 0.5));
    }
}

static void accuracy(long nrays)
{
    long hits = 0, close = 0, must = 0, missed = 0;
    double worst = 0;
    for (long it = 0; it < nrays; it++) {
        float v[3][3];
        make_triangle((int)(it % 3), v);
        /* aim at a random point of the triangle (barycentrics in the closed triangle) */
        double b1 = urand(), b2 = urand();
        if (b1 + b2 > 1) {
            b1 = 1 - b1;
            b2 = 1 - b2;
        }
        double tgt[3], dir[3], dl = 0;
        for (int i = 0; i < 3; i++) {
            tgt[i] = (1 - b1 - b2) * v[0][i] + b1 * v[1][i] + b2 * v[2][i];
            dir[i] = urand() - 0.5;
            dl += dir[i] * dir[i];
        }
        dl = sqrt(dl);
        double back = (it % 7 == 0 ? 1000.0 : 3.0 + 10.0 * urand());
        rt_ray r;
        for (int i = 0; i < 3; i++) {
            r.dir[i] = (float)(dir[i] / dl);
            r.org[i] = (float)(tgt[i] - back * dir[i] / dl);
        }
        r.tmin = 0;
        r.tmax = INFINITY;
        ld t, u, w;
        if (!ref_hit(&r, v, &t, &u, &w) || !(t > 0)) continue;
        ld p[3], vv[3][3];
        for (int k = 0; k < 3; k++)
            for (int i = 0; i < 3; i++)
                vv[k][i] = v[k][i];
        for (int i = 0; i < 3; i++)
            p[i] = r.org[i] + t * r.dir[i];
        ld size = fmaxl(dist(vv[0], vv[1]), fmaxl(dist(vv[1], vv[2]), dist(vv[2], vv[0])));
        ld margin = fminl(seg_dist(p, vv[0], vv[1]),
                          fminl(seg_dist(p, vv[1], vv[2]), seg_dist(p, vv[2], vv[0])));
        int inside = u >= 0 && w >= 0 && u + w <= 1;
        float kt, ku, kv;
        int got = rt_tri_test(&r, v, false, 0, &kt, &ku, &kv);
        if (inside && margin > 1e-6L * size) {
            must++;
            if (!got) missed++;
            CHECK(got, "miss: margin %Lg of size %Lg, t %Lg\n", margin, size, t);
        }
        if (got && inside) {
            hits++;
            double rel = (double)fabsl(((ld)kt - t) / t);
            if (rel <= 1e-6) close++;
            if (rel > worst) worst = rel;
        }
    }
    printf("accuracy: %ld rays, %ld hits, %.5f%% within 1e-6 (worst %.3g); %ld must-hit rays, %ld "
           "missed\n",
           nrays, hits, 100.0 * (double)close / (double)hits, worst, must, missed);
    CHECK(hits > nrays / 2, "too few hits\n");
    CHECK((double)close >= 0.9999 * (double)hits, "t within 1e-6 on only %ld of %ld hits\n", close,
          hits);
}

/* ---- watertightness through the offload engine ---- */

typedef struct {
    uint8_t *mem;
    size_t size;
} flat;

static bool f_load(void *ctx, uint64_t a, unsigned n, uint64_t *v)
{
    flat *f = ctx;
    if (a < (uintptr_t)f->mem || a + n > (uintptr_t)f->mem + f->size) return false;
    *v = rt_le_get((const uint8_t *)(uintptr_t)a, n);
    return true;
}

static bool f_store(void *ctx, uint64_t a, unsigned n, uint64_t v)
{
    flat *f = ctx;
    if (a < (uintptr_t)f->mem || a + n > (uintptr_t)f->mem + f->size) return false;
    rt_le_put((uint8_t *)(uintptr_t)a, n, v);
    return true;
}

static void queue_put(uint8_t *p, uint32_t tail, uint32_t cap, uint64_t base)
{
    memset(p, 0, RT_QUEUE_BYTES);
    rt_le_put(p + 4, 4, tail);
    rt_le_put(p + 8, 4, cap);
    rt_le_put(p + 16, 8, base);
}

#define BATCH 50000u

static void watertight(long nrays)
{
    static const double place[4][4] = {
        {0, 0, 0, 1}, {400, 350, 500, 7}, {0.3, -0.2, 0.1, 0.01}, {-20, 5, 60, 250}};
    long shot = 0, leaks = 0;
    for (int pl = 0; shot < nrays; pl = (pl + 1) % 4) {
        size_t n;
        float(*t)[9] = bvh_procedural("sphere", 2000 + 3000 * (size_t)pl, &n);
        for (size_t k = 0; k < n; k++)
            for (int i = 0; i < 9; i++)
                t[k][i] = (float)(place[pl][i % 3] + place[pl][3] * t[k][i]);
        bvh_blob b;
        char err[256];
        if (!bvh_build((const float(*)[9])t, n, false, &b, err, sizeof err)) {
            printf("bvh_build: %s\n", err);
            fails++;
            return;
        }
        size_t q = (b.size + 63) & ~(size_t)63, rays = q + 3 * RT_QUEUE_BYTES + 8;
        size_t hits = rays + 32u * (BATCH + 1), misses = hits + RT_HIT_BYTES * (BATCH + 1);
        size_t total = misses + 4u * (BATCH + 1);
        flat f = {aligned_alloc(64, (total + 63) & ~(size_t)63), total};
        memcpy(f.mem, b.data, b.size);
        uint64_t base = bvh_relocate(f.mem, (uintptr_t)f.mem) + (uintptr_t)f.mem;
        const double *c = place[pl];
        for (unsigned k = 0; k < BATCH; k++) {
            /* a vertex of a random triangle, or a point of one of its edges */
            const float *tr = t[(size_t)(urand() * (double)n) % n];
            int a = (int)(urand() * 3) % 3;
            double s = k % 2 ? 0.0 : urand();
            double tgt[3], o[3];
            for (int i = 0; i < 3; i++)
                tgt[i] = (float)((1 - s) * tr[3 * a + i] + s * tr[3 * ((a + 1) % 3) + i]);
            /* from outside, through the target, towards a point near the centre */
            float rec[8];
            for (int i = 0; i < 3; i++) {
                double in = c[i] + c[3] * 0.3 * (urand() - 0.5);
                o[i] = tgt[i] + 2.0 * (tgt[i] - in);
                rec[i] = (float)o[i];
                rec[3 + i] = (float)(tgt[i] - o[i]);
            }
            rec[6] = 0;
            rec[7] = INFINITY;
            memcpy(f.mem + rays + 32u * k, rec, sizeof rec);
        }
        queue_put(f.mem + q, BATCH, BATCH + 1, (uintptr_t)(f.mem + rays));
        queue_put(f.mem + q + RT_QUEUE_BYTES, 0, BATCH + 1, (uintptr_t)(f.mem + hits));
        queue_put(f.mem + q + 2 * RT_QUEUE_BYTES, 0, BATCH + 1, (uintptr_t)(f.mem + misses));
        rt_job_desc jd;
        memset(&jd, 0, sizeof jd);
        jd.bvh_base = base;
        jd.rayq = (uintptr_t)(f.mem + q);
        jd.hitq = jd.rayq + RT_QUEUE_BYTES;
        jd.missq = jd.rayq + 2 * RT_QUEUE_BYTES;
        cap_state cs;
        cap_snap snap;
        cap_reset(&cs, NULL);
        cap_snapshot(&cs, &snap);
        snap.pet = CAP_T_FP32;
        snap.pol.q = false;
        rt_job_mem mem = {&f, f_load, f_store, NULL, NULL, NULL, NULL, NULL};
        rt_job_result res;
        rt_job_run(&jd, &snap, &mem, &res);
        CHECK(res.status == RT_JOB_OK && res.rays == BATCH, "job failed: %d\n", (int)res.status);
        leaks += res.misses;
        CHECK(res.misses == 0, "%u leaks in placement %d\n", res.misses, pl);
        shot += BATCH;
        free(f.mem);
        bvh_blob_free(&b);
        free(t);
    }
    printf("watertight: %ld rays at shared vertices and edges of closed spheres, %ld leaks\n", shot,
           leaks);
}

int main(int argc, char **argv)
{
    int full = argc > 1 && strcmp(argv[1], "--long") == 0;
    int m = rt_rne_enter(); /* nothing here depends on it; the kernels set RNE themselves */
    rt_rne_leave(m);
    accuracy(full ? 4000000 : 200000);
    watertight(full ? 2000000 : 100000);
    printf("%s\n", fails ? "FAIL" : "PASS");
    return fails != 0;
}
