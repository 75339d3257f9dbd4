/* bvh_proc.c — built-in test meshes (include/xphmg/bvh.h bvh_procedural). Only IEEE basic
 * operations in double (sine and cosine are a local Taylor series, built with
 * -ffp-contract=off), so a mesh has the same bits on every host, whatever its libm. */
#include "xphmg/bvh.h"

#include <stdlib.h>
#include <string.h>

const char *const bvh_procedural_names[] = {"sphere", "terrain", "soup", "grid", "scene", NULL};

#define PI 3.14159265358979323846

/* sin x for |x| <= 8 pi: reduced to [-pi, pi], then 13 Taylor terms (error < 1e-12). */
static double psin(double x)
{
    while (x > PI)
        x -= 2.0 * PI;
    while (x < -PI)
        x += 2.0 * PI;
    double term = x, sum = x, x2 = x * x;
    for (int k = 1; k < 14; k++) {
        term = -term * x2 / (double)((2 * k) * (2 * k + 1));
        sum += term;
    }
    return sum;
}
static double pcos(double x)
{
    return psin(x + PI / 2.0);
}

static unsigned isqrt(size_t n)
{
    unsigned r = 1;
    while ((size_t)(r + 1) * (r + 1) <= n)
        r++;
    return r;
}

static void put(float *t, double ax, double ay, double az, double bx, double by, double bz,
                double cx, double cy, double cz)
{
    t[0] = (float)ax;
    t[1] = (float)ay;
    t[2] = (float)az;
    t[3] = (float)bx;
    t[4] = (float)by;
    t[5] = (float)bz;
    t[6] = (float)cx;
    t[7] = (float)cy;
    t[8] = (float)cz;
}

static double height(double x, double y)
{
    return 0.25 * psin(3.0 * x) * pcos(2.0 * y) + 0.1 * psin(7.0 * x + 5.0 * y) +
           0.03 * pcos(17.0 * x - 11.0 * y);
}

static uint64_t rng_next(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    *s = x;
    return x;
}
/* uniform in [-1, 1) with 24 bits */
static double rng_unit(uint64_t *s)
{
    return (double)(rng_next(s) >> 40) / 8388608.0 - 1.0;
}

/* Stacks of a UV sphere of about n triangles (2s slices, ~4 s^2 triangles). */
static unsigned sphere_stacks(size_t n)
{
    unsigned s = isqrt(n / 4);
    return s < 3 ? 3 : s;
}

/* c + v, keeping a -0 of v at c = 0 (the unit sphere's bytes do not change). */
static double shift(double c, double v)
{
    return c == 0.0 ? v : c + v;
}

/* A UV sphere of s stacks, 2s slices, centre c, radius r, counter-clockwise seen from
 * outside, appended at t[*k]. */
static void put_sphere(float (*t)[9], size_t *k, unsigned s, double cx, double cy, double cz,
                       double r)
{
    unsigned sl = 2 * s;
    for (unsigned i = 0; i < s; i++) {
        double th0 = PI * i / s, th1 = PI * (i + 1) / s;
        for (unsigned j = 0; j < sl; j++) {
            double ph0 = 2.0 * PI * j / sl, ph1 = 2.0 * PI * (j + 1) / sl;
            double p[4][3];
            double th[4] = {th0, th1, th1, th0}, ph[4] = {ph0, ph0, ph1, ph1};
            for (int q = 0; q < 4; q++) {
                p[q][0] = shift(cx, r * (psin(th[q]) * pcos(ph[q])));
                p[q][1] = shift(cy, r * (psin(th[q]) * psin(ph[q])));
                p[q][2] = shift(cz, r * pcos(th[q]));
            }
            if (i != 0)
                put(t[(*k)++], p[0][0], p[0][1], p[0][2], p[1][0], p[1][1], p[1][2], p[3][0],
                    p[3][1], p[3][2]);
            if (i != s - 1)
                put(t[(*k)++], p[1][0], p[1][1], p[1][2], p[2][0], p[2][1], p[2][2], p[3][0],
                    p[3][1], p[3][2]);
        }
    }
}

/* A g x g height field over [-1, 1]^2 (z = height), or with flat the integer grid of
 * the same size at z = 0 (box faces exactly on binary16 values), appended at t[*k]. */
static void put_terrain(float (*t)[9], size_t *k, unsigned g, bool flat)
{
    for (unsigned i = 0; i < g; i++)
        for (unsigned j = 0; j < g; j++) {
            double x0, x1, y0, y1;
            if (flat) {
                x0 = (double)i - g / 2;
                x1 = x0 + 1.0;
                y0 = (double)j - g / 2;
                y1 = y0 + 1.0;
            } else {
                x0 = -1.0 + 2.0 * i / g;
                x1 = -1.0 + 2.0 * (i + 1) / g;
                y0 = -1.0 + 2.0 * j / g;
                y1 = -1.0 + 2.0 * (j + 1) / g;
            }
            double h00 = flat ? 0 : height(x0, y0), h10 = flat ? 0 : height(x1, y0);
            double h01 = flat ? 0 : height(x0, y1), h11 = flat ? 0 : height(x1, y1);
            put(t[(*k)++], x0, y0, h00, x1, y0, h10, x1, y1, h11);
            put(t[(*k)++], x0, y0, h00, x1, y1, h11, x0, y1, h01);
        }
}

float (*bvh_procedural(const char *name, size_t ntris, size_t *n))[9]
{
    if (!name || ntris > BVH_MAX_TRIS) return NULL;
    if (ntris < 2) ntris = 2;
    float(*t)[9] = NULL;
    size_t k = 0;
    if (strcmp(name, "sphere") == 0) {
        unsigned s = sphere_stacks(ntris);
        t = malloc(sizeof *t * 2 * 2 * s * s);
        if (!t) return NULL;
        put_sphere(t, &k, s, 0.0, 0.0, 0.0, 1.0);
    } else if (strcmp(name, "terrain") == 0 || strcmp(name, "grid") == 0) {
        unsigned g = isqrt(ntris / 2);
        t = malloc(sizeof *t * 2 * g * g);
        if (!t) return NULL;
        put_terrain(t, &k, g, strcmp(name, "grid") == 0);
    } else if (strcmp(name, "scene") == 0) {
        /* The picture of scripts/demo.sh: the terrain (z up) with three spheres above
         * it, about 3/5 of the triangles in the terrain. */
        static const double ball[3][4] = {
            {-0.35, 0.15, 0.62, 0.26}, {0.32, -0.32, 0.42, 0.19}, {0.5, 0.45, 0.5, 0.15}};
        unsigned g = isqrt(ntris * 3 / 10), s = sphere_stacks(ntris / 7);
        if (g < 2) g = 2;
        t = malloc(sizeof *t * (2 * g * g + 3 * 4 * s * s));
        if (!t) return NULL;
        put_terrain(t, &k, g, false);
        for (int b = 0; b < 3; b++)
            put_sphere(t, &k, s, ball[b][0], ball[b][1], ball[b][2], ball[b][3]);
    } else if (strcmp(name, "soup") == 0) {
        /* edge ~ 2 / cbrt(ntris) * 0.75 */
        double e = 2.0;
        while (e * e * e * (double)ntris > 8.0)
            e *= 0.5;
        e *= 1.5;
        if (e > 0.5) e = 0.5;
        t = malloc(sizeof *t * ntris);
        if (!t) return NULL;
        uint64_t seed = 0x9E3779B97F4A7C15ull;
        for (; k < ntris; k++) {
            double c[3], v[9];
            for (int a = 0; a < 3; a++)
                c[a] = rng_unit(&seed) * (1.0 - e);
            for (int a = 0; a < 9; a++)
                v[a] = c[a % 3] + rng_unit(&seed) * e;
            put(t[k], v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]);
        }
    } else {
        return NULL;
    }
    *n = k;
    return t;
}
