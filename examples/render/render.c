/* render — the picture of scripts/demo.sh: a mesh rendered with shading and shadow rays
 * on xphmg-sim, three ways that must give the same image:
 *   o  offload: each band of rows is one xsubmit.rt job of primary rays (closest hit),
 *      then one ANY_HIT job of shadow rays, each followed by xfence.wait;
 *   h  hart: a stack traversal written with rt.bbox (node tile in RTNODE, children near to
 *      far from FMT_RT_BBOX_RES) and rt.tri (TriRange in RTTRI);
 *   s  software: a plain RV64GC traversal without any XPHMG instruction, running the RT
 *      unit's own geometry kernels (src/ext/rt/rt_kernels.c compiled for the guest), so
 *      it computes the same bits as rt.bbox/rt.tri by construction of the source, not
 *      by a second implementation.
 * Usage: render SCENE.xbvh WIDTH HEIGHT MODES OUT
 * loads the XBVH blob (xphmg-bvh) from the --dir directory, renders once per letter of
 * MODES (a subset of "ohs") and writes OUT-o.ppm, OUT-h.ppm, OUT-s.ppm (binary PPM; the
 * host turns them into PNG with render_png). For each mode it prints the rays traced and
 * the guest instructions per ray (rdinstret over the whole render: ray generation,
 * traversal and shading). */
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rt_kernels.h"
#include "xphmg_bvh.h"
#include "xphmg_cap.h"
#include "xphmg_csr.h"
#include "xphmg_rt.h"

#define BAND 8 /* rows per offload job */

/* The result of a primary ray: prim + 1 (0 = miss) and t. */
typedef struct {
    uint32_t prim;
    float t;
} hit;

static const uint8_t *bvh; /* bvh_base: node 0 */
static const float *tris;  /* the triangle array (FMT_TRIANGLE) */
static float lo[3], hi[3]; /* scene bounds */
static int W, H;

static xphmg_ray *rays, *shadow, *rayq_buf;
static xphmg_rt_hit *hitq_buf;
static uint32_t *missq_buf;
static hit *prim_hits;
static uint8_t *occluded;
static xphmg_rt_queue rayq __attribute__((aligned(8))), hitq __attribute__((aligned(8))),
    missq __attribute__((aligned(8)));
static uint64_t desc[9]; /* FMT_RT_DESC, 72 bytes */

static float f32_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

static uint64_t instret(void)
{
    uint64_t n;
    __asm__ volatile("rdinstret %0" : "=r"(n));
    return n;
}

/* ---- the three traversals: closest hit (ties: lower triangle) or any hit ---- */

static uint32_t le24(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16;
}

/* Whether triangle prim hit at t beats best: the smaller t, on a tie the lower prim. */
static int closer(const hit *best, uint32_t prim, float t)
{
    return best->prim == 0 || t < best->t || (t == best->t && prim + 1 < best->prim);
}

/* rt.bbox / rt.tri. The ray record's tmax shrinks to the closest hit so far, so rt.bbox
 * culls farther boxes and rt.tri farther triangles. */
static hit trace_hart(xphmg_ray r, int any)
{
    uint32_t stack[3 * 64 + 1];
    unsigned sp = 0;
    hit best = {0, 0.0f};
    stack[sp++] = 0;
    while (sp > 0) {
        const uint8_t *node = bvh + 16u * stack[--sp];
        xphmg_csr_write(XPHMG_CSR_RTNODE, (uintptr_t)node);
        uint64_t res = xphmg_rt_bbox((uintptr_t)&r, 0);
        if (res == 0) continue;
        unsigned n = (unsigned)__builtin_popcount((unsigned)(res & 0xff)), kinds = node[60];
        for (unsigned k = 0; k < n; k++) { /* leaves near to far */
            unsigned c = (res >> (8 + 3 * k)) & 7;
            if (((kinds >> (2 * c)) & 3) != 2) continue;
            xphmg_csr_write(XPHMG_CSR_RTTRI, (uintptr_t)(bvh + 16u * le24(node + 48 + 3 * c)));
            uint64_t h = xphmg_rt_tri((uintptr_t)&r, 0);
            if (!(h >> 63)) continue;
            uint32_t prim = (uint32_t)(h >> 32) & 0x7fffffffu;
            float t = f32_of((uint32_t)h);
            if (closer(&best, prim, t)) {
                best.prim = prim + 1;
                best.t = t;
                r.tmax = t;
            }
            if (any) return best;
        }
        for (unsigned k = n; k-- > 0;) { /* inner nodes far first: the nearest pops next */
            unsigned c = (res >> (8 + 3 * k)) & 7;
            if (((kinds >> (2 * c)) & 3) == 1 && sp < sizeof stack / sizeof stack[0])
                stack[sp++] = le24(node + 48 + 3 * c);
        }
    }
    return best;
}

/* The same traversal with the kernels in software (no XPHMG instruction). */
static hit trace_soft(const xphmg_ray *rr, int any)
{
    rt_ray ray;
    memcpy(&ray, rr, sizeof ray);
    rt_ray_pre p;
    rt_ray_prepare(&ray, &p);
    uint32_t stack[3 * 64 + 1];
    unsigned sp = 0;
    hit best = {0, 0.0f};
    stack[sp++] = 0;
    while (sp > 0) {
        const uint8_t *node = bvh + 16u * stack[--sp];
        rt_node4w w;
        rt_node4w_decode(node, &w);
        rt_bbox_res res;
        rt_bbox_children_pre(&p, &w, NULL, p.r.tmin, p.r.tmax, &res);
        for (unsigned k = 0; k < res.nhit; k++) {
            unsigned c = res.order[k];
            if ((w.child[c] & RT_NODE4W_KIND_MASK) != RT_CHILD_LEAF) continue;
            rt_trirange tr;
            rt_trirange_decode(bvh + (w.child[c] & ~RT_NODE4W_KIND_MASK), &tr);
            for (uint32_t i = 0; i < tr.count; i++) {
                float t, u, v;
                const float(*tri)[3] = (const float(*)[3])(tris + 9u * (tr.first + i));
                if (!rt_tri_test_pre(&p, tri, false, 0, &t, &u, &v)) continue;
                uint32_t prim = tr.first + i;
                if (closer(&best, prim, t)) {
                    best.prim = prim + 1;
                    best.t = t;
                    p.r.tmax = t;
                }
                if (any) return best;
            }
        }
        for (unsigned k = res.nhit; k-- > 0;) {
            unsigned c = res.order[k];
            if ((w.child[c] & RT_NODE4W_KIND_MASK) == RT_CHILD_NODE &&
                sp < sizeof stack / sizeof stack[0])
                stack[sp++] = w.child[c] >> 4;
        }
    }
    return best;
}

/* One offload job over rays[0..n-1]: closest hits into out, or (any) occlusion flags. */
static int trace_offload(const xphmg_ray *rs, unsigned n, int any, hit *out, uint8_t *occ)
{
    memcpy(rayq_buf, rs, n * sizeof *rs);
    rayq = (xphmg_rt_queue){0, n, n + 1, 0, (uintptr_t)rayq_buf};
    hitq = (xphmg_rt_queue){0, 0, n + 1, 0, (uintptr_t)hitq_buf};
    missq = (xphmg_rt_queue){0, 0, n + 1, 0, (uintptr_t)missq_buf};
    desc[0] = (uintptr_t)bvh;
    desc[1] = (uintptr_t)&rayq;
    desc[2] = (uintptr_t)&hitq;
    desc[3] = (uintptr_t)&missq;
    desc[5] = any ? 1u << 9 : 0; /* opts: ANY_HIT */
    xphmg_xfence_wait(xphmg_xsubmit_rt((uintptr_t)desc));
    if (xphmg_csr_read(XPHMG_CSR_RTSTAT) & 2u) return -1; /* ERR: the job faulted */
    for (unsigned k = 0; k < hitq.tail; k++) {
        const xphmg_rt_hit *h = &hitq_buf[k];
        if (any)
            occ[h->ray] = 1;
        else
            out[h->ray] = (hit){h->prim + 1, f32_of(h->t)};
    }
    for (unsigned k = 0; k < missq.tail; k++) {
        if (any)
            occ[missq_buf[k]] = 0;
        else
            out[missq_buf[k]] = (hit){0, 0.0f};
    }
    return 0;
}

/* ---- camera and shading (the same code for every mode) ---- */

static float cam_eye[3], cam_f[3], cam_r[3], cam_u[3], light[3] = {-0.62f, -0.2f, 0.5f};

static void normalize(float v[3])
{
    float l = sqrtf(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    for (int i = 0; i < 3; i++)
        v[i] = v[i] / l;
}

/* The camera looks along -y (z up), from a little above. fit = 0: a landscape (the
 * procedural scene), from above and in front of its centre, a little low. fit = 1: one
 * object, from its front (-y), far enough that its bounding sphere fills the frame's
 * height: the whole object in view whatever its shape. */
static void camera_setup(int fit)
{
    float c[3], ext = 0.0f, diag2 = 0.0f;
    for (int i = 0; i < 3; i++) {
        c[i] = (lo[i] + hi[i]) * 0.5f;
        if (hi[i] - lo[i] > ext) ext = hi[i] - lo[i];
        diag2 += (hi[i] - lo[i]) * (hi[i] - lo[i]);
    }
    if (fit) {
        /* the vertical half field of view has tangent 0.7 H / W (primary_ray); the sphere
         * of radius r fits when the eye is r / sin(half angle) away */
        float d[3] = {-0.6f, -1.0f, 0.3f}, tn = 0.7f * (float)H / (float)W;
        float dist = 0.5f * sqrtf(diag2) * sqrtf(1.0f + tn * tn) / tn;
        normalize(d);
        for (int i = 0; i < 3; i++)
            cam_eye[i] = c[i] + dist * d[i];
    } else {
        c[2] = lo[2] + 0.2f * (hi[2] - lo[2]);
        cam_eye[0] = c[0] + 0.15f * ext;
        cam_eye[1] = c[1] - 0.78f * ext;
        cam_eye[2] = c[2] + 0.8f * ext;
    }
    for (int i = 0; i < 3; i++)
        cam_f[i] = c[i] - cam_eye[i];
    normalize(cam_f);
    cam_r[0] = cam_f[1];
    cam_r[1] = -cam_f[0];
    cam_r[2] = 0.0f;
    normalize(cam_r);
    cam_u[0] = cam_r[1] * cam_f[2] - cam_r[2] * cam_f[1];
    cam_u[1] = cam_r[2] * cam_f[0] - cam_r[0] * cam_f[2];
    cam_u[2] = cam_r[0] * cam_f[1] - cam_r[1] * cam_f[0];
    normalize(light);
}

static void primary_ray(int px, int py, xphmg_ray *r)
{
    float s = 0.7f / (float)(W / 2);
    float a = ((float)px + 0.5f - (float)(W / 2)) * s, b = ((float)(H / 2) - (float)py - 0.5f) * s;
    for (int i = 0; i < 3; i++) {
        r->org[i] = cam_eye[i];
        r->dir[i] = cam_f[i] + a * cam_r[i] + b * cam_u[i];
    }
    r->tmin = 0.0f;
    r->tmax = INFINITY;
}

/* The unit normal of a triangle, turned towards the viewer. */
static void face_normal(uint32_t prim, const float d[3], float n[3])
{
    const float *v = tris + 9u * prim;
    float e1[3] = {v[3] - v[0], v[4] - v[1], v[5] - v[2]};
    float e2[3] = {v[6] - v[0], v[7] - v[1], v[8] - v[2]};
    n[0] = e1[1] * e2[2] - e1[2] * e2[1];
    n[1] = e1[2] * e2[0] - e1[0] * e2[2];
    n[2] = e1[0] * e2[1] - e1[1] * e2[0];
    normalize(n);
    if (n[0] * d[0] + n[1] * d[1] + n[2] * d[2] > 0.0f)
        for (int i = 0; i < 3; i++)
            n[i] = -n[i];
}

/* A shadow ray from a primary hit towards the light; 0 when the face is turned away. */
static int shadow_ray(const xphmg_ray *r, const hit *h, xphmg_ray *s)
{
    float n[3];
    face_normal(h->prim - 1, r->dir, n);
    if (n[0] * light[0] + n[1] * light[1] + n[2] * light[2] <= 0.0f) return 0;
    float bias = 1e-4f * (hi[0] - lo[0] + hi[1] - lo[1] + hi[2] - lo[2]);
    for (int i = 0; i < 3; i++) {
        s->org[i] = r->org[i] + h->t * r->dir[i] + bias * n[i];
        s->dir[i] = light[i];
    }
    s->tmin = 0.0f;
    s->tmax = INFINITY;
    return 1;
}

static uint8_t to8(float x)
{
    return x <= 0.0f ? 0 : x >= 1.0f ? 255 : (uint8_t)(x * 255.0f + 0.5f);
}

static void shade(const xphmg_ray *r, const hit *h, int lit, uint8_t rgb[3])
{
    float c[3];
    if (h->prim == 0) { /* sky */
        float d[3] = {r->dir[0], r->dir[1], r->dir[2]};
        normalize(d);
        float k = 0.5f + 0.5f * d[2];
        c[0] = 0.55f + 0.25f * k;
        c[1] = 0.68f + 0.2f * k;
        c[2] = 0.9f + 0.1f * k;
    } else {
        float n[3];
        face_normal(h->prim - 1, r->dir, n);
        float z = (r->org[2] + h->t * r->dir[2] - lo[2]) / (hi[2] - lo[2]);
        /* albedo by height: grass, rock, snow */
        static const float pal[3][3] = {
            {0.25f, 0.5f, 0.2f}, {0.62f, 0.5f, 0.34f}, {0.95f, 0.95f, 0.97f}};
        float a[3];
        int seg = z < 0.5f ? 0 : 1;
        float f = z < 0.5f ? z * 2.0f : (z - 0.5f) * 2.0f;
        if (f > 1.0f) f = 1.0f;
        if (f < 0.0f) f = 0.0f;
        for (int i = 0; i < 3; i++)
            a[i] = pal[seg][i] + (pal[seg + 1][i] - pal[seg][i]) * f;
        float dl = n[0] * light[0] + n[1] * light[1] + n[2] * light[2];
        if (dl < 0.0f || !lit) dl = 0.0f;
        float sky = 0.25f + 0.15f * n[2];
        for (int i = 0; i < 3; i++)
            c[i] = a[i] * (sky + 0.9f * dl);
    }
    for (int i = 0; i < 3; i++)
        rgb[i] = to8(sqrtf(c[i])); /* rough gamma */
}

/* ---- one render ---- */

static void progress(const char *name, int rows)
{
    int n = 40 * rows / H;
    char bar[41];
    for (int i = 0; i < 40; i++)
        bar[i] = i < n ? '#' : '.';
    bar[40] = 0;
    printf("\r  %-8s [%s] %3d%%", name, bar, 100 * rows / H);
    fflush(stdout);
}

/* The RTCAP features a mode uses: Node4 tiles and the triangle test for the hart and
 * offload modes, the offload queue for 'o'; the software traversal uses none. */
/* REQ: RT-023 */
static uint64_t rtcap_needed(char mode)
{
    if (mode == 's') return 0;
    return RTCAP_NODE4_MASK | RTCAP_WATERTIGHT_MASK | (mode == 'o' ? RTCAP_DESCQ_MASK : 0);
}

/* RT 5.2 (errata P-328): software uses only what RTCAP advertises, never assumes it. */
/* REQ: RT-023 */
static int mode_supported(uint64_t need, uint64_t rtcap)
{
    return (rtcap & need) == need;
}

static int render(char mode, uint8_t *img, uint64_t *nrays, uint64_t *nhits, uint64_t *nshadowed)
{
    const char *name = mode == 'o' ? "offload" : mode == 'h' ? "hart" : "software";
    *nrays = *nhits = *nshadowed = 0;
    for (int y0 = 0; y0 < H; y0 += BAND) {
        int rows = H - y0 < BAND ? H - y0 : BAND;
        unsigned n = (unsigned)(rows * W), ns = 0;
        for (unsigned j = 0; j < n; j++)
            primary_ray((int)(j % (unsigned)W), y0 + (int)(j / (unsigned)W), &rays[j]);
        if (mode == 'o') {
            if (trace_offload(rays, n, 0, prim_hits, NULL)) return -1;
        } else {
            for (unsigned j = 0; j < n; j++)
                prim_hits[j] = mode == 'h' ? trace_hart(rays[j], 0) : trace_soft(&rays[j], 0);
        }
        /* shadow rays of the hits whose face looks at the light, packed */
        static uint32_t owner[BAND * 4096];
        for (unsigned j = 0; j < n; j++) {
            occluded[j] = 1;
            if (prim_hits[j].prim && shadow_ray(&rays[j], &prim_hits[j], &shadow[ns]))
                owner[ns++] = j;
        }
        static uint8_t occ[BAND * 4096];
        if (mode == 'o') {
            if (ns && trace_offload(shadow, ns, 1, NULL, occ)) return -1;
        } else {
            for (unsigned k = 0; k < ns; k++)
                occ[k] =
                    (mode == 'h' ? trace_hart(shadow[k], 1) : trace_soft(&shadow[k], 1)).prim != 0;
        }
        for (unsigned k = 0; k < ns; k++) {
            occluded[owner[k]] = occ[k];
            *nshadowed += occ[k];
        }
        for (unsigned j = 0; j < n; j++)
            *nhits += prim_hits[j].prim != 0;
        for (unsigned j = 0; j < n; j++)
            shade(&rays[j], &prim_hits[j], !occluded[j],
                  img + 3u * ((unsigned)y0 * (unsigned)W + j));
        *nrays += n + ns;
        progress(name, y0 + rows);
    }
    printf("\n");
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 6 && !(argc == 7 && !strcmp(argv[6], "fit"))) {
        printf("usage: render SCENE.xbvh WIDTH HEIGHT MODES OUT [fit]\n");
        return 2;
    }
    W = atoi(argv[2]);
    H = atoi(argv[3]);
    if (W < 2 || H < 2 || W > 4096 || H > 4096) {
        printf("render: size out of range\n");
        return 2;
    }
    /* open/read, not stdio: picolibc's FILE reads byte by byte through a small buffer */
    int fd = open(argv[1], O_RDONLY);
    struct stat st;
    if (fd < 0 || fstat(fd, &st) != 0 || st.st_size < 128) {
        printf("render: cannot open %s\n", argv[1]);
        return 1;
    }
    size_t size = (size_t)st.st_size, got = 0;
    uint8_t *blob = aligned_alloc(64, (size + 63) & ~(size_t)63);
    while (blob && got < size) {
        ssize_t r = read(fd, blob + got, size - got);
        if (r <= 0) break;
        got += (size_t)r;
    }
    if (!blob || got != size) {
        printf("render: cannot read %s\n", argv[1]);
        return 1;
    }
    close(fd);
    const xphmg_bvh_header *hdr = (const xphmg_bvh_header *)blob;
    bvh = xphmg_bvh_relocate(blob);
    if (!bvh) {
        printf("render: %s is not an XBVH blob\n", argv[1]);
        return 1;
    }
    tris = xphmg_bvh_triangles(blob);
    memcpy(lo, hdr->bounds_lo, sizeof lo);
    memcpy(hi, hdr->bounds_hi, sizeof hi);
    printf("scene: %u triangles, %u nodes; image %dx%d\n", (unsigned)hdr->tri_count,
           (unsigned)hdr->node_count, W, H);

    /* FP32 ray records and triangles (errata Q-69): CAP.PREC to FP32 (CAP 6.1) */
    xphmg_prec_apply_mode(
        xphmg_prec_mode(XPHMG_T_FP32, XPHMG_EW_32, XPHMG_ACCW_FP32, XPHMG_RM_RNE));
    size_t band = (size_t)BAND * (size_t)W;
    rays = malloc(band * sizeof *rays);
    shadow = malloc(band * sizeof *shadow);
    rayq_buf = malloc((band + 1) * sizeof *rayq_buf);
    hitq_buf = malloc((band + 1) * sizeof *hitq_buf);
    missq_buf = malloc((band + 1) * sizeof *missq_buf);
    prim_hits = malloc(band * sizeof *prim_hits);
    occluded = malloc(band);
    uint8_t *img = malloc((size_t)W * (size_t)H * 3);
    if (!rays || !shadow || !rayq_buf || !hitq_buf || !missq_buf || !prim_hits || !occluded ||
        !img) {
        printf("render: out of memory\n");
        return 1;
    }
    camera_setup(argc == 7);
    /* A mode RTCAP does not advertise is skipped (mode_supported). */
    const uint64_t rtcap = xphmg_csr_read(XPHMG_CSR_RTCAP);
    for (const char *m = argv[4]; *m; m++) {
        if (*m != 'o' && *m != 'h' && *m != 's') {
            printf("render: unknown mode '%c' (o, h, s)\n", *m);
            return 2;
        }
        const char *name = *m == 'o' ? "offload" : *m == 'h' ? "hart" : "software";
        uint64_t need = rtcap_needed(*m);
        if (!mode_supported(need, rtcap)) {
            printf("  %-8s skipped: needs RTCAP 0x%llx, this hart has 0x%llx\n", name,
                   (unsigned long long)need, (unsigned long long)rtcap);
            continue;
        }
        uint64_t rays_traced, hits, shadowed, i0 = instret();
        if (render(*m, img, &rays_traced, &hits, &shadowed)) {
            printf("render: offload job failed (rtstat 0x%llx)\n",
                   (unsigned long long)xphmg_csr_read(XPHMG_CSR_RTSTAT));
            return 1;
        }
        uint64_t insns = instret() - i0;
        printf("  %-8s %llu rays (%llu primary hits, %llu in shadow), %llu guest instructions, "
               "%llu per ray\n",
               name, (unsigned long long)rays_traced, (unsigned long long)hits,
               (unsigned long long)shadowed, (unsigned long long)insns,
               (unsigned long long)(insns / rays_traced));
        char path[256];
        snprintf(path, sizeof path, "%s-%c.ppm", argv[5], *m);
        FILE *o = fopen(path, "wb");
        if (!o || fprintf(o, "P6\n%d %d\n255\n", W, H) < 0 ||
            fwrite(img, 3, (size_t)W * (size_t)H, o) != (size_t)W * (size_t)H || fclose(o)) {
            printf("render: cannot write %s\n", path);
            return 1;
        }
    }
    return 0;
}
