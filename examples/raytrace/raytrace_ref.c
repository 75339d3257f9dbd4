/* raytrace_ref — the expected output of the guest program examples/raytrace, derived
 * independently of the RT unit: every primary ray (raytrace_camera.h, the same FP32 rays
 * as the guest) is intersected with every triangle of the XBVH file in double precision
 * (Moller-Trumbore, no BVH, nothing from src/ext/rt), closest hit, ties to the lower
 * triangle index, both faces. Prints what the guest prints on stdout.
 *
 * Tolerance rule (README.md): FP32 (the guest) and double (here) may decide differently
 * only for a ray that passes within a tiny window of a triangle edge, of another hit at
 * the same depth, or of a shading boundary. The window is delta = 2^-18 * L in world units
 * (L = the largest coordinate magnitude of the eye and the scene bounds, at least the
 * scene extent), measured perpendicular to the ray; 2^-18 is 64 FP32 ulps, well above the
 * error of the watertight test. A pixel is ambiguous when
 *   - a triangle whose edge lies within delta of the ray (hit or missed) is hit no farther
 *     than the closest hit plus delta, or
 *   - another triangle is hit within delta of the closest hit's depth, or
 *   - the shade value 9 cos^2 lies within 2^-16 of a character boundary.
 * The camera is chosen so that no pixel is ambiguous; the program lists ambiguous pixels
 * on stderr and exits 1 if there is any (then the guest's output is not a defined
 * expectation and the test fails rather than guess). */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "raytrace_camera.h"
#include "xphmg_bvh.h"

typedef struct {
    double v[3][3];
} tri_d;

static void sub(const double a[3], const double b[3], double o[3])
{
    for (int i = 0; i < 3; i++)
        o[i] = a[i] - b[i];
}
static void cross(const double a[3], const double b[3], double o[3])
{
    o[0] = a[1] * b[2] - a[2] * b[1];
    o[1] = a[2] * b[0] - a[0] * b[2];
    o[2] = a[0] * b[1] - a[1] * b[0];
}
static double dot(const double a[3], const double b[3])
{
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
static double len(const double a[3])
{
    return sqrt(dot(a, a));
}

/* Intersection of the ray's line with the triangle's plane: t, and the signed distances of
 * the crossing point to the three edges, projected perpendicular to the ray (positive
 * inside). false when the ray is parallel to the plane. */
static int plane_hit(const double o[3], const double d[3], const tri_d *tr, double *t,
                     double dist[3])
{
    double e1[3], e2[3], p[3], s[3], q[3], n[3];
    sub(tr->v[1], tr->v[0], e1);
    sub(tr->v[2], tr->v[0], e2);
    cross(d, e2, p);
    double det = dot(e1, p);
    if (det == 0.0) return 0;
    sub(o, tr->v[0], s);
    double u = dot(s, p) / det;
    cross(s, e1, q);
    double v = dot(d, q) / det;
    *t = dot(e2, q) / det;
    cross(e1, e2, n);
    double a2 = len(n); /* twice the area */
    double cosv = fabs(dot(n, d)) / (a2 * len(d));
    double e3[3];
    sub(tr->v[2], tr->v[1], e3);
    /* weight u belongs to v1 (0 on edge v0v2), v to v2 (edge v0v1), 1-u-v to v0 */
    dist[0] = u * a2 / len(e2) * cosv;
    dist[1] = v * a2 / len(e1) * cosv;
    dist[2] = (1.0 - u - v) * a2 / len(e3) * cosv;
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: raytrace_ref SCENE.xbvh\n");
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *blob = malloc((size_t)size);
    if (!blob || fread(blob, 1, (size_t)size, f) != (size_t)size) {
        fprintf(stderr, "raytrace_ref: cannot read %s\n", argv[1]);
        return 2;
    }
    fclose(f);
    xphmg_bvh_header hdr;
    memcpy(&hdr, blob, sizeof hdr);
    if (memcmp(hdr.magic, "XBVH", 4) != 0 ||
        hdr.tris_off + 36ull * hdr.tri_count > (unsigned long long)size) {
        fprintf(stderr, "raytrace_ref: %s is not an XBVH file\n", argv[1]);
        return 2;
    }
    unsigned nt = hdr.tri_count;
    tri_d *tris = malloc(sizeof *tris * (nt ? nt : 1));
    for (unsigned k = 0; k < nt; k++)
        for (int i = 0; i < 9; i++) {
            float x;
            memcpy(&x, blob + hdr.tris_off + 36ull * k + 4 * i, 4);
            tris[k].v[i / 3][i % 3] = x;
        }

    float eyef[3], dirf[3];
    camera_ray(hdr.bounds_lo, hdr.bounds_hi, 0, 0, eyef, dirf);
    double L = 0.0;
    for (int i = 0; i < 3; i++) {
        L = fmax(L, fabs(eyef[i]));
        L = fmax(L, fabs(hdr.bounds_lo[i]));
        L = fmax(L, fabs(hdr.bounds_hi[i]));
        L = fmax(L, (double)hdr.bounds_hi[i] - hdr.bounds_lo[i]);
    }
    const double delta = ldexp(L, -18);

    static char img[RT_H][RT_W + 1];
    unsigned hits = 0, ambiguous = 0;
    uint32_t sum = RT_FNV_OFFSET;
    for (int py = 0; py < RT_H; py++)
        for (int px = 0; px < RT_W; px++) {
            float of[3], df[3];
            camera_ray(hdr.bounds_lo, hdr.bounds_hi, px, py, of, df);
            double o[3] = {of[0], of[1], of[2]}, d[3] = {df[0], df[1], df[2]};
            double dl = len(d), best_t = INFINITY;
            long best = -1;
            for (unsigned k = 0; k < nt; k++) {
                double t, dist[3];
                if (!plane_hit(o, d, &tris[k], &t, dist)) continue;
                if (dist[0] >= 0 && dist[1] >= 0 && dist[2] >= 0 && t >= 0.0 && t <= 1e30 &&
                    t < best_t) {
                    best_t = t;
                    best = k;
                }
            }
            /* the ambiguity rule, against the closest hit */
            int amb = 0;
            double tw = delta / dl; /* delta in units of t */
            for (unsigned k = 0; k < nt && best >= 0; k++) {
                double t, dist[3];
                if ((long)k == best || !plane_hit(o, d, &tris[k], &t, dist)) continue;
                double m = fmin(dist[0], fmin(dist[1], dist[2]));
                if (t < -tw || t > best_t + tw) continue;
                if (fabs(m) < delta)
                    amb |= 1; /* an edge of another triangle */
                else if (m >= 0 && fabs(t - best_t) <= tw)
                    amb |= 2; /* another hit at the same depth */
            }
            if (best >= 0) {
                double t, dist[3];
                plane_hit(o, d, &tris[best], &t, dist);
                if (fmin(dist[0], fmin(dist[1], dist[2])) < delta)
                    amb |= 1; /* an edge of the closest triangle */
            }
            uint32_t word = (uint32_t)(best + 1);
            char c = ' ';
            if (best >= 0) {
                hits++;
                const tri_d *tr = &tris[best];
                double e1[3], e2[3], n[3], l[3] = {RT_LIGHT_X, RT_LIGHT_Y, RT_LIGHT_Z};
                sub(tr->v[1], tr->v[0], e1);
                sub(tr->v[2], tr->v[0], e2);
                cross(e1, e2, n);
                double s = dot(n, l) * dot(n, l) / (dot(n, n) * dot(l, l)) * 9.0;
                double r = nearbyint(s);
                if (r >= 1.0 && r <= 8.0 && fabs(s - r) < ldexp(1.0, -16))
                    amb |= 4; /* a shading boundary */
                int si = (int)s;
                c = RT_RAMP[si > 8 ? 8 : si];
            }
            img[py][px] = c;
            if (amb) {
                ambiguous++;
                fprintf(stderr, "raytrace_ref: ambiguous pixel (%d, %d):%s%s%s\n", px, py,
                        amb & 1 ? " edge" : "", amb & 2 ? " depth" : "", amb & 4 ? " shade" : "");
            }
            for (int b = 0; b < 4; b++)
                sum = (sum ^ ((word >> (8 * b)) & 0xff)) * RT_FNV_PRIME;
        }

    printf("scene: %u triangles, %u nodes, %u leaves\n", nt, (unsigned)hdr.node_count,
           (unsigned)hdr.range_count);
    printf("rays: %d (%dx%d), hits %u, misses %u\n", RT_W * RT_H, RT_W, RT_H, hits,
           RT_W * RT_H - hits);
    printf("checksum: 0x%08lx\n", (unsigned long)sum);
    for (int py = 0; py < RT_H; py++) {
        img[py][RT_W] = 0;
        printf("|%s|\n", img[py]);
    }
    printf("offload: %u hits, %u misses, 0 disagreements\n", hits, RT_W * RT_H - hits);
    free(tris);
    free(blob);
    if (ambiguous) {
        fprintf(stderr, "raytrace_ref: %u ambiguous pixels (see the tolerance rule)\n", ambiguous);
        return 1;
    }
    return 0;
}
