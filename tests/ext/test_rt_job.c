/* test_rt_job.c — the RT offload job (src/ext/rt/rt_job.h) over a fake memory that
 * records every access. Scenes are hand-built byte by byte from the layouts of errata
 * Q-67 (BVHNode4: binary16 boxes, 24-bit indices in 16-byte units, 2-bit kinds), Q-68
 * (TriRange, FMT_TRIANGLE), Q-70 (FMT_QUEUE, FMT_RT_HIT, FMT_RT_MISS) and Q-81
 * (descriptor): no encoder of the code under test builds the input. Expected hits are
 * computed by hand (plane z = c hit by a ray along +z: t = c - z0; barycentrics from
 * the hit point = (1-u-v) v0 + u v1 + v v2, written out per triangle below).
 *
 * The two triangles (FP32 and FP16 buffers alike):
 *   prim 0 "A": v0 (0,0,5) v1 (4,0,5) v2 (0,4,5): point (4u, 4v, 5), so u = x/4, v = y/4.
 *     Normal (v1-v0) x (v2-v0) = (0,0,16) points along +z: a ray going +z sees it
 *     clockwise (a back face, Q-74).
 *   prim 1 "B": v0 (0,0,3) v1 (0,4,3) v2 (4,0,3): point (4v, 4u, 3), so u = y/4, v = x/4.
 *     Normal (0,0,-16): counter-clockwise seen from below (a front face). */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include <cmocka.h>

#include "cap.h"
#include "cap_profile.h"
#include "heap_in_use.h"
#include "le_bytes.h"
#include "rt_job.h"
#include "rt_result_eq.h"
#include "xphmg_csr.h"

/* ---- fake memory: RAM_SIZE bytes at RAM_BASE, everything else faults ---- */
#define RAM_BASE 0x10000u
#define RAM_SIZE 0x10000u
#define HOLE     0x90000u
#define RAYS     0x10800u /* the ray buffer of the queue tests */

typedef struct {
    uint8_t ram[RAM_SIZE];
    unsigned loads, stores;
    unsigned ray_loads; /* loads of the ray buffer (RAYS, 8 slots of up to 32 bytes) */
    uint64_t watch_lo, watch_hi;
    unsigned watch_loads; /* loads in [watch_lo, watch_hi) */
    atomic_uint maps;     /* map calls: reads through the mapped read path (atomic: a split
                             job's threads call map at once) */
    uint64_t deny;        /* nonzero: the 4-byte word at deny faults (a PMP of 4-byte grain) */
} fake;

static fake F;

static bool mapped(uint64_t a, unsigned n)
{
    return a >= RAM_BASE && a - RAM_BASE <= RAM_SIZE - n;
}

static bool f_load(void *ctx, uint64_t a, unsigned n, uint64_t *v)
{
    fake *f = ctx;
    if (!mapped(a, n) || (f->deny && a < f->deny + 4 && a + n > f->deny)) return false;
    *v = le_bytes_get(&f->ram[a - RAM_BASE], n);
    f->loads++;
    if (a >= RAYS && a < RAYS + 8 * 32) f->ray_loads++;
    if (a >= f->watch_lo && a < f->watch_hi) f->watch_loads++;
    return true;
}

static bool f_store(void *ctx, uint64_t a, unsigned n, uint64_t v)
{
    fake *f = ctx;
    if (!mapped(a, n)) return false;
    le_bytes_put(&f->ram[a - RAM_BASE], n, v);
    f->stores++;
    return true;
}

static const rt_job_mem MEM = {&F, f_load, f_store, NULL, NULL, NULL, NULL, NULL};

/* The same memory with a map (the engine's read fast path, required for split jobs):
 * mapped bytes only; every call counts (the caches' test), loads are counted apart. */
static const uint8_t *f_map(void *ctx, uint64_t a, unsigned n)
{
    fake *f = ctx;
    f->maps++;
    return mapped(a, n) ? &f->ram[a - RAM_BASE] : NULL;
}
static const rt_job_mem MEM_MAPPED = {&F, f_load, f_store, f_map, NULL, NULL, NULL, NULL};

static void w(uint64_t a, unsigned n, uint64_t v)
{
    le_bytes_put(&F.ram[a - RAM_BASE], n, v);
}

static uint64_t r(uint64_t a, unsigned n)
{
    return le_bytes_get(&F.ram[a - RAM_BASE], n);
}

static uint32_t f32(float x)
{
    uint32_t b;
    memcpy(&b, &x, 4);
    return b;
}

/* binary16 bits of the few exact values the scenes use (sign, exponent bias 15,
 * 10-bit fraction), written out by hand. */
static uint16_t h16(float x)
{
    if (x == 0.0f) return 0x0000;
    if (x == 0.25f) return 0x3400; /* 2^-2: exp 13 */
    if (x == 0.5f) return 0x3800;  /* 2^-1: exp 14 */
    if (x == 1.0f) return 0x3C00;
    if (x == 2.0f) return 0x4000;
    if (x == 3.0f) return 0x4200; /* 1.5 * 2 */
    if (x == 4.0f) return 0x4400;
    if (x == 5.0f) return 0x4500;   /* 1.25 * 4 */
    if (x == 100.0f) return 0x5640; /* 1.5625 * 64: exp 21, fraction 0x240 */
    fail_msg("h16: no hand encoding for %g", (double)x);
    return 0;
}
#define H16_INF  0x7C00u
#define H16_2M15 0x0200u /* 2^-15: subnormal, fraction 2^9 (2^-24 * 2^9) */

/* ---- scene builders (errata Q-67, Q-68) ---- */
typedef struct {
    float lo[3], hi[3];
    uint32_t index;
    unsigned kind; /* 0 empty, 1 node, 2 leaf */
} child;

/* A BVHNode4 tile at a: up to 4 children (missing ones empty with zero boxes). */
static void node4(uint64_t a, const child *c, unsigned n)
{
    uint32_t flags = 0;
    uint8_t idx[12] = {0};
    for (unsigned i = 0; i < 64; i++)
        F.ram[a - RAM_BASE + i] = 0;
    for (unsigned i = 0; i < n; i++) {
        for (unsigned k = 0; k < 3; k++) {
            w(a + 12 * i + 2 * k, 2, h16(c[i].lo[k]));
            w(a + 12 * i + 6 + 2 * k, 2, h16(c[i].hi[k]));
        }
        /* child i's index at bits 24i..24i+23 of the 96-bit field at byte 48 */
        for (unsigned b = 0; b < 3; b++)
            idx[3 * i + b] = (uint8_t)(c[i].index >> (8 * b));
        flags |= (uint32_t)c[i].kind << (2 * i);
    }
    memcpy(&F.ram[a - RAM_BASE + 48], idx, 12);
    w(a + 60, 4, flags);
}

static void trirange(uint64_t a, uint32_t first, uint32_t count, uint64_t base)
{
    w(a, 4, first);
    w(a + 4, 4, count);
    w(a + 8, 8, base);
}

static const float TRI_A[9] = {0, 0, 5, 4, 0, 5, 0, 4, 5};
static const float TRI_B[9] = {0, 0, 3, 0, 4, 3, 4, 0, 3};

static void tri32(uint64_t a, const float v[9], float dz)
{
    for (unsigned i = 0; i < 9; i++)
        w(a + 4 * i, 4, f32(i % 3 == 2 ? v[i] + dz : v[i]));
}

static void tri16(uint64_t a, const float v[9])
{
    for (unsigned i = 0; i < 9; i++)
        w(a + 2 * i, 2, h16(v[i]));
}

/* Memory map of the scenes. */
#define BVH    0x10000u /* root node (index 0) */
#define N1     0x10040u /* index 4 */
#define TR_A   0x10080u /* index 8 */
#define TR_B   0x10090u /* index 9 */
#define TR_AB  0x100A0u /* index 10 */
#define TRIS   0x10100u /* prim 0 = A, prim 1 = B */
#define TRIS2  0x10200u /* the tri_buf copy */
#define QRAY   0x10400u
#define QHIT   0x10420u
#define QMISS  0x10440u
#define HITS   0x10A00u
#define MISSES 0x10B00u
#define BVH8   0x10C00u /* a Node8 (128-byte aligned) */

/* Scene 1: root { child 0 leaf A (box z 5..5), child 1 node N1 (box z 3..3) };
 * N1 { child 0 leaf B }. Node children are visited near to far. */
static void scene_two_levels(void)
{
    child root[2] = {{{0, 0, 5}, {4, 4, 5}, 8, 2}, {{0, 0, 3}, {4, 4, 3}, 4, 1}};
    node4(BVH, root, 2);
    child n1[1] = {{{0, 0, 3}, {4, 4, 3}, 9, 2}};
    node4(N1, n1, 1);
    trirange(TR_A, 0, 1, TRIS);
    trirange(TR_B, 1, 1, TRIS);
}

/* Scene 2: root { child 0 leaf TriRange {first 0, count 2}: A then B, box z 3..5 }. */
static void scene_one_leaf(void)
{
    child root[1] = {{{0, 0, 3}, {4, 4, 5}, 10, 2}};
    node4(BVH, root, 1);
    trirange(TR_AB, 0, 2, TRIS);
}

static void queue(uint64_t a, uint32_t head, uint32_t tail, uint32_t cap, uint64_t base)
{
    w(a, 4, head);
    w(a + 4, 4, tail);
    w(a + 8, 4, cap);
    w(a + 12, 4, 0);
    w(a + 16, 8, base);
}

/* An FP32 ray record (FMT_RAY) in slot i of the ray buffer. */
static void ray32(unsigned i, float ox, float oy, float oz, float dz, float tmin, float tmax)
{
    float v[8] = {ox, oy, oz, 0, 0, dz, tmin, tmax};
    for (unsigned k = 0; k < 8; k++)
        w(RAYS + 32 * i + 4 * k, 4, f32(v[k]));
}

/* An FP32 ray record from o along d, t in [0, 100], in slot i of the ray buffer. */
static void ray32_dir(unsigned i, const float o[3], const float d[3])
{
    float v[8] = {o[0], o[1], o[2], d[0], d[1], d[2], 0, 100};
    for (unsigned k = 0; k < 8; k++)
        w(RAYS + 32 * i + 4 * k, 4, f32(v[k]));
}

/* One ray queued (TAIL 1): from (1, 2, 0) along +z, t in [0, 100]; it
 * hits B at t 3 (scene_two_levels). */
static void one_ray(void)
{
    ray32(0, 1, 2, 0, 1, 0, 100);
    w(QRAY + 4, 4, 1);
}

static void setup(unsigned ncap)
{
    memset(&F, 0, sizeof F);
    tri32(TRIS, TRI_A, 0);
    tri32(TRIS + 36, TRI_B, 0);
    queue(QRAY, 0, 0, ncap, RAYS);
    queue(QHIT, 0, 0, ncap, HITS);
    queue(QMISS, 0, 0, ncap, MISSES);
}

static void desc(rt_job_desc *jd, uint32_t opts)
{
    memset(jd, 0, sizeof *jd);
    jd->bvh_base = BVH;
    jd->rayq = QRAY;
    jd->hitq = QHIT;
    jd->missq = QMISS;
    jd->opts = opts;
}

/* A snapshot of the reset CAP state with EFF_PET forced (the only field the job reads
 * from PREC besides the policy, EXC.EN and EFF_SAE). */
static cap_state CS;
static void snap(cap_snap *s, unsigned pet)
{
    cap_reset(&CS, NULL);
    cap_snapshot(&CS, s);
    s->pet = (uint8_t)pet;
    s->pol.q = false;
}

/* Runs the job jd over the queues as written, with the snapshot of snap(pet), through m. */
static rt_job_result run_job(const rt_job_desc *jd, unsigned pet, const rt_job_mem *m)
{
    cap_snap s;
    snap(&s, pet);
    rt_job_result res;
    rt_job_run(jd, &s, m, &res);
    return res;
}

/* The job jd under snapshot s through m, which must complete (RT_JOB_OK). */
static rt_job_result run_snap_ok(const rt_job_desc *jd, const cap_snap *s, const rt_job_mem *m)
{
    rt_job_result res;
    rt_job_run(jd, s, m, &res);
    assert_int_equal(res.status, RT_JOB_OK);
    return res;
}

/* Runs jd through MEM with snapshot s: the job must end with status st at address addr. */
static rt_job_result run_fault(const rt_job_desc *jd, const cap_snap *s, rt_job_status st,
                               uint64_t addr)
{
    rt_job_result res;
    rt_job_run(jd, s, &MEM, &res);
    assert_int_equal(res.status, st);
    assert_int_equal(res.fault_addr, addr);
    return res;
}

/* run_job, and the job must complete. */
static rt_job_result run_ok(const rt_job_desc *jd, unsigned pet, const rt_job_mem *m)
{
    cap_snap s;
    snap(&s, pet);
    return run_snap_ok(jd, &s, m);
}

/* The usual job: nrays rays queued (ray queue TAIL = nrays), the descriptor of desc(opts),
 * FP32 records, plain loads. */
static rt_job_result run_rays(uint32_t nrays, uint32_t opts)
{
    w(QRAY + 4, 4, nrays);
    rt_job_desc jd;
    desc(&jd, opts);
    return run_job(&jd, CAP_T_FP32, &MEM);
}

/* run_rays, and the job must complete. */
static rt_job_result run_rays_ok(uint32_t nrays, uint32_t opts)
{
    rt_job_result res = run_rays(nrays, opts);
    assert_int_equal(res.status, RT_JOB_OK);
    return res;
}

static void check_hit(unsigned slot, uint32_t ray, uint32_t prim, uint32_t t, uint32_t u,
                      uint32_t v)
{
    uint64_t a = HITS + 24u * slot;
    assert_int_equal(r(a, 4), ray);
    assert_int_equal(r(a + 4, 4), prim);
    assert_int_equal(r(a + 8, 4), t);
    assert_int_equal(r(a + 12, 4), u);
    assert_int_equal(r(a + 16, 4), v);
    assert_int_equal(r(a + 20, 4), 0);
}

/* REQ: RT-117 RT-043. Closest hit across two leaves, a miss, a hit behind the origin
 * excluded; queue indices advance; FP32 results are exact (no flags). */
static void test_closest_hit(void **st)
{
    (void)st;
    setup(8);
    scene_two_levels();
    ray32(0, 1, 2, 0, 1, 0, 100);   /* B at t 3 (A at 5 is farther): u = 2/4, v = 1/4 */
    ray32(1, 10, 10, 0, 1, 0, 100); /* outside every box: miss */
    ray32(2, 1, 2, 4, 1, 0, 100);   /* B is behind (t = -1); A at t 1: u = 1/4, v = 2/4 */
    ray32(3, 1, 2, 0, 1, 0, 2);     /* both beyond tmax 2: miss */
    ray32(4, 1, 2, 0, 1, 4, 100);   /* tmin 4 excludes B: A at t 5 */
    rt_job_result res = run_rays_ok(5, 0);
    assert_int_equal(res.rays, 5);
    assert_int_equal(res.hits, 3);
    assert_int_equal(res.misses, 2);
    assert_int_equal(res.flags, 0);
    check_hit(0, 0, 1, f32(3.0f), f32(0.5f), f32(0.25f));
    check_hit(1, 2, 0, f32(1.0f), f32(0.25f), f32(0.5f));
    check_hit(2, 4, 0, f32(5.0f), f32(0.25f), f32(0.5f));
    assert_int_equal(r(MISSES, 4), 1);
    assert_int_equal(r(MISSES + 4, 4), 3);
    assert_int_equal(r(QRAY, 4), 5);      /* HEAD = TAIL */
    assert_int_equal(r(QHIT + 4, 4), 3);  /* hit TAIL */
    assert_int_equal(r(QMISS + 4, 4), 2); /* miss TAIL */
    assert_int_equal(r(QHIT, 4), 0);      /* consumer indices untouched */
    assert_int_equal(r(QMISS, 4), 0);
}

/* REQ: RT-056. Rays with exactly one zero direction component (x or y, +0 or -0): the job
 * tests that axis by the origin lying between the planes (the reciprocal is not used), the
 * other two by their slabs, so B is hit where y and z (x and z) say, and a ray whose
 * origin lies beside the boxes on the zero axis misses. Such rays are not traverse_fast's
 * (its slab test by the reciprocals' signs would read a zero reciprocal as a plane at
 * t = 0 and miss B). */
static void test_one_zero_direction(void **st)
{
    (void)st;
    setup(8);
    scene_two_levels();
    static const float o[4][3] = {{1, 0.5f, 0}, {1, 0.5f, 0}, {0.5f, 1, 0}, {5, 0.5f, 0}};
    static const float d[4][3] = {{0, 0.25f, 1}, {-0.0f, 0.25f, 1}, {0.25f, 0, 1}, {0, 0.25f, 1}};
    for (unsigned i = 0; i < 4; i++)
        ray32_dir(i, o[i], d[i]);
    rt_job_result res = run_rays_ok(4, 0);
    assert_int_equal(res.hits, 3);
    assert_int_equal(res.misses, 1);
    /* B at z 3 (t 3): (1, 1.25) and (1.25, 1); B's u is y / 4, v is x / 4 */
    check_hit(0, 0, 1, f32(3.0f), f32(0.3125f), f32(0.25f));
    check_hit(1, 1, 1, f32(3.0f), f32(0.3125f), f32(0.25f));
    check_hit(2, 2, 1, f32(3.0f), f32(0.25f), f32(0.3125f));
    assert_int_equal(r(MISSES, 4), 3); /* x = 5, beside every box */
}

/* Ray records read in place: over plain memory the job also writes directly (map_w), with
 * the ray slots apart from everything it writes, the job maps its whole ray array once
 * instead of reading ray by ray (rt_job.c rays_in_place), and writes the entries of
 * test_closest_hit's five rays as with plain loads. Ray slots that overlap the miss
 * entries are read ray by ray (five maps). */
static unsigned ray_maps;
static uint64_t rays_lo = RAYS, rays_hi = RAYS + 8 * 32; /* the maps counted */
static const uint8_t *f_map_rays(void *ctx, uint64_t a, unsigned n)
{
    if (a >= rays_lo && a < rays_hi) ray_maps++;
    return f_map(ctx, a, n);
}
static uint8_t *f_map_w(void *ctx, uint64_t a, uint64_t n)
{
    (void)ctx;
    return n <= RAM_SIZE && mapped(a, (unsigned)n) ? &F.ram[a - RAM_BASE] : NULL;
}
static void test_rays_in_place(void **st)
{
    (void)st;
    const rt_job_mem m = {&F, f_load, f_store, f_map_rays, NULL, f_map_w, NULL, NULL};
    for (unsigned apart = 0; apart < 2; apart++) {
        setup(8);
        scene_two_levels();
        ray32(0, 1, 2, 0, 1, 0, 100);
        ray32(1, 10, 10, 0, 1, 0, 100);
        ray32(2, 1, 2, 4, 1, 0, 100);
        ray32(3, 1, 2, 0, 1, 0, 2);
        ray32(4, 1, 2, 0, 1, 4, 100);
        w(QRAY + 4, 4, 5);
        if (!apart) queue(QMISS, 0, 0, 8, RAYS + 7 * 32); /* over ray slot 7 */
        rt_job_desc jd;
        desc(&jd, 0);
        ray_maps = 0;
        rt_job_result res = run_ok(&jd, CAP_T_FP32, &m);
        assert_int_equal(ray_maps, apart ? 1 : 5);
        assert_int_equal(res.hits, 3);
        assert_int_equal(res.misses, 2);
        check_hit(0, 0, 1, f32(3.0f), f32(0.5f), f32(0.25f));
        check_hit(1, 2, 0, f32(1.0f), f32(0.25f), f32(0.5f));
        check_hit(2, 4, 0, f32(5.0f), f32(0.25f), f32(0.5f));
        uint64_t miss = apart ? MISSES : RAYS + 7 * 32;
        assert_int_equal(r(miss, 4), 1);
        assert_int_equal(r(miss + 4, 4), 3);
        assert_int_equal(r(QRAY, 4), 5);
    }
    /* A ray array that starts right after the HEAD and TAIL words of a queue descriptor
     * (the only part of it the job writes) is apart: the ray, hit or miss queue's
     * descriptor at D, the two rays of a 3-slot ray queue at D + 8, so ray 0 is made of the
     * descriptor's CAP, rsv and base followed by dir.y 0, dir.z 1, tmin 0, tmax 100, and
     * ray 1 hits B. One map for the rays. */
    static const uint64_t qd[3] = {0x11000u, 0x11100u, 0x11200u};
    for (unsigned q = 0; q < 3; q++) {
        setup(8);
        scene_two_levels();
        uint64_t d = qd[q], base = d + 8;
        queue(qd[0], 0, 2, 3, base);
        queue(qd[1], 0, 0, 8, HITS);
        queue(qd[2], 0, 0, 8, MISSES);
        w(base + 16, 4, f32(0.0f));
        w(base + 20, 4, f32(1.0f));
        w(base + 24, 4, f32(0.0f));
        w(base + 28, 4, f32(100.0f));
        const float ray1[8] = {1, 2, 0, 0, 0, 1, 0, 100};
        for (unsigned k = 0; k < 8; k++)
            w(base + 32 + 4 * k, 4, f32(ray1[k]));
        rt_job_desc jd;
        desc(&jd, 0);
        jd.rayq = qd[0];
        jd.hitq = qd[1];
        jd.missq = qd[2];
        rays_lo = base;
        rays_hi = base + 3 * 32;
        ray_maps = 0;
        rt_job_result res = run_ok(&jd, CAP_T_FP32, &m);
        rays_lo = RAYS;
        rays_hi = RAYS + 8 * 32;
        assert_int_equal(ray_maps, 1);
        assert_int_equal(res.rays, 2);
        assert_int_equal(r(qd[0], 4), 2);
    }
    /* A ray array at an address that is not 4-byte aligned is not read in place: ray 0's
     * fetch faults there (Q-61). */
    setup(8);
    scene_two_levels();
    queue(QRAY, 0, 1, 8, RAYS + 1);
    rt_job_desc jd;
    desc(&jd, 0);
    cap_snap s;
    snap(&s, CAP_T_FP32);
    rt_job_result res;
    rt_job_run(&jd, &s, &m, &res);
    assert_int_equal(res.status, RT_JOB_MISALIGNED);
    assert_int_equal(res.fault_addr, RAYS + 1);
    assert_int_equal(r(QRAY, 4), 0);
}

/* The job's traversal (docs/rt.md, job step 5): children near to far, a pushed child
 * tested again when popped against [tmin, closest hit so far]. A ray along +z at (1, 2)
 * visits node N1 (z 3) before leaf A (z 5), which waits on the stack:
 *   - case 0: B is hit at t 3, so A is skipped when popped: its triangle, placed in
 *     unmapped memory, is never read and the job completes with B;
 *   - case 1 (the control): from z 4, B behind, the ray reaches A, and the job ends with
 *     a memory fault at A's triangle;
 *   - case 2: N1's leaf is empty (count 0), so A, popped after it, gives the hit (t 5).
 * REQ: RT-056 */
static void test_traversal_order(void **st)
{
    (void)st;
    for (unsigned c = 0; c < 3; c++) {
        setup(8);
        scene_two_levels();
        if (c < 2)
            trirange(TR_A, 0, 1, HOLE);
        else
            trirange(TR_B, 1, 0, TRIS);
        ray32(0, 1, 2, c == 1 ? 4.0f : 0.0f, 1, 0, 100);
        rt_job_result res = run_rays(1, 0);
        if (c == 1) {
            assert_int_equal(res.status, RT_JOB_MEM_FAULT);
            assert_int_equal(res.fault_addr, HOLE);
            assert_int_equal(res.hits, 0);
        } else {
            assert_int_equal(res.status, RT_JOB_OK);
            assert_int_equal(res.hits, 1);
            if (c == 0)
                check_hit(0, 0, 1, f32(3.0f), f32(0.5f), f32(0.25f));
            else
                check_hit(0, 0, 0, f32(5.0f), f32(0.25f), f32(0.5f));
        }
    }
}

/* REQ: RT-036. A TriRange selects exactly triangles first..first+count-1 of its buffer:
 * in one leaf (box z 3..5), TriRange {0, 1} gives A at t 5 to a ray along +z although B,
 * the next triangle in the buffer, lies in front at t 3; TriRange {1, 1} gives B at t 7
 * to a ray along -z although A, the triangle before it, lies in front at t 5; TriRange
 * {0, 2} gives B at t 3, the closest hit of the leaf although A is tested (and hit) first.
 * Each case has a second ray, which on the mapped read path takes the leaf's triangles in
 * place from the engine's leaf cache (docs/rt.md "Offload engine"): at triangle `first`
 * of the buffer, not at its start. */
static void test_trirange_bounds(void **st)
{
    (void)st;
    rt_job_desc jd;
    desc(&jd, 0);
    rt_job_result res;
    for (unsigned k = 0; k < 2; k++) {
        for (unsigned mapped = 0; mapped < 2; mapped++) {
            setup(8);
            scene_one_leaf();
            trirange(TR_AB, k, 1, TRIS);
            for (unsigned i = 0; i < 2; i++)
                ray32(i, 1, 2, k ? 10.0f : 0.0f, k ? -1.0f : 1.0f, 0, 100);
            w(QRAY + 4, 4, 2);
            res = run_ok(&jd, CAP_T_FP32, mapped ? &MEM_MAPPED : &MEM);
            assert_int_equal(res.hits, 2);
            for (unsigned i = 0; i < 2; i++)
                if (k)
                    check_hit(i, i, 1, f32(7.0f), f32(0.5f), f32(0.25f));
                else
                    check_hit(i, i, 0, f32(5.0f), f32(0.25f), f32(0.5f));
        }
    }
    setup(8);
    scene_one_leaf();
    ray32(0, 1, 2, 0, 1, 0, 100);
    ray32(1, 1, 2, 0, 1, 0, 100);
    w(QRAY + 4, 4, 2);
    res = run_job(&jd, CAP_T_FP32, &MEM_MAPPED);
    assert_int_equal(res.hits, 2);
    check_hit(0, 0, 1, f32(3.0f), f32(0.5f), f32(0.25f));
    check_hit(1, 1, 1, f32(3.0f), f32(0.5f), f32(0.25f));
}

/* REQ: RT-117. ANY_HIT takes the first hit found (A, tested first in its leaf),
 * closest hit takes B; CULL_BACK drops the back face A but keeps the front face B. */
static void test_any_hit_and_cull(void **st)
{
    (void)st;
    static const struct {
        uint32_t opts;
        float oz;
        bool hit;
        uint32_t prim;
        float t;
    } cases[] = {
        {0, 0, true, 1, 3.0f},                /* closest: B */
        {RT_OPT_ANY_HIT, 0, true, 0, 5.0f},   /* first found: A */
        {RT_OPT_CULL_BACK, 0, true, 1, 3.0f}, /* B is a front face */
        {0, 4, true, 0, 1.0f},                /* only A ahead */
        {RT_OPT_CULL_BACK, 4, false, 0, 0},   /* A culled: miss */
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        setup(8);
        scene_one_leaf();
        ray32(0, 1, 2, cases[i].oz, 1, 0, 100);
        rt_job_result res = run_rays_ok(1, cases[i].opts);
        assert_int_equal(res.hits, cases[i].hit ? 1 : 0);
        assert_int_equal(res.misses, cases[i].hit ? 0 : 1);
        if (cases[i].hit) {
            assert_int_equal(r(HITS + 4, 4), cases[i].prim);
            assert_int_equal(r(HITS + 8, 4), f32(cases[i].t));
        }
    }
}

/* REQ: RT-117. A non-zero tri_buf replaces TriRange.base: the copy has B at z 2. */
static void test_tri_buf(void **st)
{
    (void)st;
    setup(8);
    scene_one_leaf();
    /* The leaf box must contain z = 2 now: box z 2..5 (2.0 is exact in binary16). */
    child root[1] = {{{0, 0, 2}, {4, 4, 5}, 10, 2}};
    node4(BVH, root, 1);
    tri32(TRIS2, TRI_A, 0);
    tri32(TRIS2 + 36, TRI_B, -1.0f);
    one_ray();
    rt_job_desc jd;
    desc(&jd, 0);
    jd.tri_buf = TRIS2;
    run_ok(&jd, CAP_T_FP32, &MEM);
    check_hit(0, 0, 1, f32(2.0f), f32(0.5f), f32(0.25f));
}

/* REQ: RT-043 RT-044. Queues wrap: rays in slots 3 and 0 of a 4-entry ring, hits written
 * at slots 2, 3 and 0 of the hit ring, TAILs and HEAD wrap modulo CAP (Q-70). A job whose
 * last ray is in the ring's last slot leaves HEAD at 0. */
static void test_wraparound(void **st)
{
    (void)st;
    setup(4);
    scene_two_levels();
    queue(QRAY, 3, 1, 4, RAYS);
    queue(QHIT, 2, 2, 4, HITS);
    ray32(3, 1, 2, 0, 1, 0, 100);          /* B t 3 */
    ray32(0, 1, 2, 4, 1, 0, 100);          /* A t 1 */
    rt_job_result res = run_rays_ok(1, 0); /* TAIL 1 after HEAD 3 of 4: two rays */
    assert_int_equal(res.rays, 2);
    check_hit(2, 3, 1, f32(3.0f), f32(0.5f), f32(0.25f));
    check_hit(3, 0, 0, f32(1.0f), f32(0.25f), f32(0.5f));
    assert_int_equal(r(QHIT + 4, 4), 0); /* (2 + 2) mod 4 */
    assert_int_equal(r(QRAY, 4), 1);     /* HEAD = TAIL */

    setup(4);
    scene_two_levels();
    queue(QRAY, 3, 0, 4, RAYS);
    ray32(3, 1, 2, 0, 1, 0, 100);
    res = run_rays_ok(0, 0);
    assert_int_equal(res.rays, 1);
    check_hit(0, 3, 1, f32(3.0f), f32(0.5f), f32(0.25f));
    assert_int_equal(r(QRAY, 4), 0); /* (3 + 1) mod 4 */
}

/* Errata Q-70/Q-81. A full hit queue ends the job (job fault) at the ray that does not
 * fit: earlier rays keep their entries and HEAD stops at that ray; same for misses: the
 * job never overflows a queue, a one-slot queue included. REQ: RT-044 */
static void test_full_queues(void **st)
{
    (void)st;
    setup(8);
    scene_two_levels();
    queue(QHIT, 0, 1, 3, HITS); /* CAP 3: slots 1 free, then (2+1) mod 3 == HEAD: full */
    ray32(0, 1, 2, 0, 1, 0, 100);
    ray32(1, 1, 2, 4, 1, 0, 100);
    rt_job_result res = run_rays(2, 0);
    assert_int_equal(res.status, RT_JOB_QUEUE_FULL);
    assert_int_equal(res.rays, 1);
    check_hit(1, 0, 1, f32(3.0f), f32(0.5f), f32(0.25f));
    assert_int_equal(r(QHIT + 4, 4), 2);
    assert_int_equal(r(QRAY, 4), 1);
    assert_int_equal(r(HITS + 48, 4), 0); /* slot 2 never written */

    setup(8);
    scene_two_levels();
    queue(QMISS, 1, 0, 2, MISSES); /* (0+1) mod 2 == HEAD: full from the start */
    ray32(0, 10, 10, 0, 1, 0, 100);
    res = run_rays(1, 0);
    assert_int_equal(res.status, RT_JOB_QUEUE_FULL);
    assert_int_equal(res.rays, 0);
    assert_int_equal(r(QRAY, 4), 0);
    assert_int_equal(r(QMISS + 4, 4), 0);

    /* CAP 1: a well-formed queue (HEAD = TAIL = 0) with no room at all: the first hit
     * finds it full, as above, rather than a malformed descriptor (CAP 0) */
    setup(8);
    scene_two_levels();
    queue(QHIT, 0, 0, 1, HITS);
    ray32(0, 1, 2, 0, 1, 0, 100);
    res = run_rays(1, 0);
    assert_int_equal(res.status, RT_JOB_QUEUE_FULL);
    assert_int_equal(res.rays, 0);
    assert_int_equal(r(QHIT + 4, 4), 0);
}

/* FP16 ray of slot i (FMT_RAY16, 16 bytes). */
static void ray16(unsigned i, float ox, float oy, float oz, uint16_t dz, uint16_t tmax)
{
    uint16_t v[8] = {h16(ox), h16(oy), h16(oz), 0, 0, dz, 0, tmax};
    for (unsigned k = 0; k < 8; k++)
        w(RAYS + 16 * i + 2 * k, 2, v[k]);
}

/* REQ: RT-093 RT-094 RT-095 RT-106. Effective PET FP16 (Q-69): 16-byte rays, 18-byte triangles,
 * results binary16 zero-extended (3.0 = 0x4200, 0.5 = 0x3800, 0.25 = 0x3400) with DOWNCAST_TAKEN
 * (Q-76). A hit at t = 3 / 2^-15 = 98304 > 65504 overflows binary16: +inf 0x7C00 with OF|NX; with
 * OF enabled in EXC.EN and SAE 0 the job ends (Q-29) without writing that ray's entry, the flags
 * still reported; with SAE 1 it completes. */
static void test_fp16(void **st)
{
    (void)st;
    for (unsigned mode = 0; mode < 3; mode++) {
        setup(8);
        scene_two_levels();
        tri16(TRIS, TRI_A);
        tri16(TRIS + 18, TRI_B);
        ray16(0, 1, 2, 0, h16(1.0f), h16(100.0f));
        ray16(1, 1, 2, 0, H16_2M15, H16_INF);
        w(QRAY + 4, 4, 2);
        rt_job_desc jd;
        desc(&jd, 0);
        cap_snap s;
        snap(&s, CAP_T_FP16);
        if (mode >= 1) s.exc_en = 1u << 2; /* OF (errata Q-27) */
        if (mode == 2) s.sae = true;
        rt_job_result res;
        rt_job_run(&jd, &s, &MEM, &res);
        check_hit(0, 0, 1, 0x4200, 0x3800, 0x3400);
        assert_true(res.flags & NUM_DOWNCAST_TAKEN);
        assert_int_equal(res.flags & (NUM_OF | NUM_NX), NUM_OF | NUM_NX);
        if (mode == 1) {
            assert_int_equal(res.status, RT_JOB_FP_EXC);
            assert_int_equal(res.rays, 1);
            assert_int_equal(r(QRAY, 4), 1);     /* HEAD at the ray that raised */
            assert_int_equal(r(QHIT + 4, 4), 1); /* its entry not appended */
            assert_int_equal(r(HITS + 24, 4), 0);
        } else {
            assert_int_equal(res.status, RT_JOB_OK);
            assert_int_equal(res.rays, 2);
            assert_int_equal(r(HITS + 24, 4), 1);       /* ray 1 */
            assert_int_equal(r(HITS + 32, 4), H16_INF); /* t overflowed */
        }
    }
}

/* REQ: RT-104 RT-100. Memory policy (Q-51, Q-52, Q-41): STRICT_DOM rejects a job whose
 * effective dom (memctl.dom, 0 = CAP.XMEM.DOM, 0 there = CPU) is neither RT nor ALL,
 * before any access; memctl.mclass 0 takes DESCPOL.DEF_CLASS. */
static void test_strict_dom(void **st)
{
    (void)st;
    static const struct {
        bool strict;
        uint8_t memdom;
        uint64_t capdom;
        bool ok;
        unsigned dom;
    } cases[] = {
        {true, 2, 0, true, 2},   {true, 15, 0, true, 15}, {true, 1, 2, false, 1},
        {true, 0, 2, true, 2},   {true, 0, 0, false, 1},  {true, 0, 1, false, 1},
        {true, 4, 15, false, 4}, {false, 1, 0, true, 1},  {false, 0, 0, true, 1},
    };
    for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        setup(8);
        scene_two_levels();
        one_ray();
        rt_job_desc jd;
        desc(&jd, 0);
        jd.memctl[0] = cases[i].memdom;
        cap_reset(&CS, NULL);
        /* DESCPOL: HYB_ENABLE 2 (reset), DEF_CLASS 1:0 = 3, STRICT_DOM 6 (errata Q-39) */
        cap_csr_write(&CS, 0x7ED, 0x4 | 0x3 | (cases[i].strict ? 0x40 : 0));
        cap_csr_write(&CS, 0x7E6, cases[i].capdom); /* CAP.XMEM.DOM */
        cap_snap s;
        cap_snapshot(&CS, &s);
        s.pet = CAP_T_FP32;
        F.loads = F.stores = 0;
        rt_job_result res;
        rt_job_run(&jd, &s, &MEM, &res);
        assert_int_equal(res.dom, cases[i].dom);
        assert_int_equal(res.mclass, 3); /* CLASS_PART = 1 in the default CAP.XMEM.CAP 0x677 */
        if (cases[i].ok) {
            assert_int_equal(res.status, RT_JOB_OK);
            assert_int_equal(res.hits, 1);
        } else {
            assert_int_equal(res.status, RT_JOB_DOM_REJECT);
            assert_int_equal(F.loads + F.stores, 0);
            assert_int_equal(r(QRAY, 4), 0);
        }
    }
    /* memctl.mclass 1 overrides DEF_CLASS; hyb = 1 with HYB_ENABLE = 0 reports
     * HYB_FALLBK (CAP.XMEM.EVENTS bit 7, Q-58). */
    setup(8);
    scene_two_levels();
    rt_job_desc jd;
    desc(&jd, 0);
    jd.memctl[16] = 1;
    jd.memctl[18] = 1;
    cap_reset(&CS, NULL);
    cap_csr_write(&CS, 0x7ED, 0x3);
    cap_snap s;
    cap_snapshot(&CS, &s);
    rt_job_result res = run_snap_ok(&jd, &s, &MEM);
    assert_int_equal(res.mclass, 1);
    assert_int_equal(res.events, 0x80);
}

/* Triangle indices are 32-bit (errata P-342), as in rt.tri: a TriRange {first 0xFFFFFFFF,
 * count 2} tests index 0xFFFFFFFF, then index 0. The base puts index 0xFFFFFFFF on B (the
 * ray hits it, t 3) and index 0 at the base itself, which is not memory: the job faults
 * there (without the wrap it would read TRIS + 72, plain memory). With count 1 the hit
 * record reports PRIM 0xFFFFFFFF. REQ: RT-064 */
static void test_tri_index_wrap(void **st)
{
    (void)st;
    rt_job_desc jd;
    cap_snap s;
    rt_job_result res;
    snap(&s, CAP_T_FP32);
    uint64_t base = TRIS + 36u - UINT64_C(0xFFFFFFFF) * 36u;
    for (uint32_t count = 1; count <= 2; count++) {
        setup(8);
        scene_one_leaf();
        trirange(TR_AB, 0xFFFFFFFFu, count, base);
        one_ray();
        desc(&jd, 0);
        rt_job_run(&jd, &s, &MEM, &res);
        if (count == 1) {
            assert_int_equal(res.status, RT_JOB_OK);
            assert_int_equal(res.hits, 1);
            assert_int_equal(r(HITS + 4, 4), 0xFFFFFFFFu);
            assert_int_equal(r(HITS + 8, 4), f32(3.0f));
        } else {
            assert_int_equal(res.status, RT_JOB_MEM_FAULT);
            assert_int_equal(res.fault_addr, base);
            assert_int_equal(res.hits, 0);
        }
    }
}

/* A queue descriptor is read as 8-byte words (without a map: loads), so a word that is
 * only half accessible (a PMP region of 4-byte grain ending inside it) faults at the word's
 * address, as one 8-byte load of the hart would, not at the inaccessible half. Each of the
 * descriptor's three words in turn; then the word just past the descriptor inaccessible,
 * which the job must not read. REQ: RT-088 RT-097 */
static void test_desc_word_fault(void **st)
{
    (void)st;
    rt_job_desc jd;
    cap_snap s;
    rt_job_result res;
    snap(&s, CAP_T_FP32);
    for (unsigned word = 0; word < 3; word++) {
        setup(8);
        scene_two_levels();
        F.deny = QHIT + 8u * word + 4u;
        desc(&jd, 0);
        res = run_fault(&jd, &s, RT_JOB_MEM_FAULT, QHIT + 8u * word);
    }
    setup(8);
    scene_two_levels();
    F.deny = QHIT + RT_QUEUE_BYTES;
    desc(&jd, 0);
    rt_job_run(&jd, &s, &MEM, &res);
    assert_int_equal(res.status, RT_JOB_OK);
}

/* Errata Q-61/Q-58/Q-81. Faults end the job without side effects at the failing ray: an
 * inaccessible ray buffer, a TriRange in a hole on the second ray (the first ray's
 * results stay), a hit queue whose entries lie in a hole (the store of the first hit
 * faults), a misaligned root node, a queue with CAP 0 (reported at its descriptor),
 * a misaligned hit or miss queue base, reserved opts bits, no engine. Memory faults, loads and
 * stores alike, report INV_MISS (Q-58). REQ: RT-089 RT-043 */
static void test_faults(void **st)
{
    (void)st;
    rt_job_desc jd;
    cap_snap s;
    rt_job_result res;
    snap(&s, CAP_T_FP32);

    setup(8);
    scene_two_levels();
    queue(QRAY, 0, 1, 8, HOLE);
    desc(&jd, 0);
    res = run_fault(&jd, &s, RT_JOB_MEM_FAULT, HOLE);
    assert_int_equal(res.events, 1);
    assert_int_equal(r(QRAY, 4), 0);
    assert_int_equal(res.rays, 0);

    setup(8);
    scene_two_levels();
    trirange(TR_A, 0, 1, HOLE); /* A's triangles unreachable */
    /* Ray 0: N1 (tnear 3) is visited before leaf A (tnear 5); after B's hit at t 3,
     * A's box no longer overlaps [0, 3] and its TriRange is never read. */
    ray32(0, 1, 2, 0, 1, 0, 100);
    ray32(1, 1, 2, 4, 1, 0, 100); /* reaches A's TriRange -> fault */
    w(QRAY + 4, 4, 2);
    res = run_fault(&jd, &s, RT_JOB_MEM_FAULT, HOLE);
    assert_int_equal(res.rays, 1);
    assert_int_equal(r(QRAY, 4), 1);
    assert_int_equal(r(QHIT + 4, 4), 1);
    check_hit(0, 0, 1, f32(3.0f), f32(0.5f), f32(0.25f));

    setup(8);
    scene_two_levels();
    ray32(0, 1, 2, 0, 1, 0, 100); /* hits B */
    w(QRAY + 4, 4, 1);
    queue(QHIT, 0, 0, 8, HOLE);
    desc(&jd, 0);
    res = run_fault(&jd, &s, RT_JOB_MEM_FAULT, HOLE);
    assert_int_equal(res.events, 1);
    assert_int_equal(r(QHIT + 4, 4), 0);

    setup(8);
    scene_two_levels();
    one_ray();
    desc(&jd, 0);
    jd.bvh_base = BVH + 16;
    res = run_fault(&jd, &s, RT_JOB_MISALIGNED, BVH + 16);

    setup(8);
    queue(QMISS, 0, 0, 0, MISSES);
    desc(&jd, 0);
    res = run_fault(&jd, &s, RT_JOB_BAD_QUEUE, QMISS);

    /* a hit or a miss queue base that is not 4-byte aligned, the other one aligned: a job
     * fault at that base before any ray is read (Q-61) */
    for (unsigned k = 0; k < 2; k++) {
        setup(8);
        scene_two_levels();
        one_ray();
        queue(k ? QMISS : QHIT, 0, 0, 8, (k ? MISSES : HITS) + 2);
        desc(&jd, 0);
        F.ray_loads = 0;
        res = run_fault(&jd, &s, RT_JOB_MISALIGNED, (k ? MISSES : HITS) + 2);
        assert_int_equal(F.ray_loads, 0);
        assert_int_equal(r(QRAY, 4), 0);
    }

    setup(8);
    F.loads = 0;
    desc(&jd, 1u << 1); /* bit 1 is not defined (Q-81) */
    rt_job_run(&jd, &s, &MEM, &res);
    assert_int_equal(res.status, RT_JOB_BAD_OPTS);
    assert_int_equal(F.loads, 0);

    /* no engine (the host out of memory): a job fault before any access */
    setup(8);
    scene_two_levels();
    one_ray();
    desc(&jd, 0);
    F.loads = F.stores = 0;
    rt_job_run_ex(&jd, &s, &MEM, NULL, &res);
    assert_int_equal(res.status, RT_JOB_MEM_FAULT);
    assert_int_equal(F.loads + F.stores, 0);
    assert_int_equal(res.rays, 0);
}

/* The work a job charges to a bounded run (errata P-300, docs/sim.md "Work units"): 1 per
 * node or leaf entry the traversal visits or pops, 1 per triangle of each TriRange a ray
 * reaches, before it is tested. The ray at (1, 2) of scene 1 visits the root, N1 and leaf
 * B (1 triangle, the hit at t 3) and pops leaf A, which no longer overlaps [0, 3]: 5
 * units. A budget of 4 units ends the job at that ray with RT_JOB_BUDGET. A work-charging
 * rule (hardening), not an RT requirement. */
static uint64_t charged_units, charge_limit;
static bool f_charge(void *ctx, uint64_t units)
{
    (void)ctx;
    charged_units += units;
    return charged_units > charge_limit; /* true: the budget ran out */
}
static const rt_job_mem MEM_CHARGED = {&F, f_load, f_store, NULL, f_charge, NULL, NULL, NULL};
static void test_job_charge(void **st)
{
    (void)st;
    for (unsigned limited = 0; limited < 2; limited++) {
        setup(8);
        scene_two_levels();
        one_ray();
        rt_job_desc jd;
        desc(&jd, 0);
        charged_units = 0;
        charge_limit = limited ? 4 : UINT64_MAX;
        rt_job_result res = run_job(&jd, CAP_T_FP32, &MEM_CHARGED);
        if (limited) {
            assert_int_equal(res.status, RT_JOB_BUDGET);
            assert_int_equal(res.rays, 0);
            assert_int_equal(r(QRAY, 4), 0);
            assert_int_equal(r(QHIT + 4, 4), 0);
        } else {
            assert_int_equal(res.status, RT_JOB_OK);
            assert_int_equal(charged_units, 5);
            check_hit(0, 0, 1, f32(3.0f), f32(0.5f), f32(0.25f));
        }
    }
}

/* The charge of a node entered after a hit: its children are tested against the closest
 * hit so far. Root { N1 (box z 3, leaf B), N2 (box z 3..5, leaf A at z 5) }: the ray at
 * (1, 2) visits the root, N1 (the tie goes to child 0) and leaf B (1 triangle, the hit at
 * t 3), then pops N2, whose box still starts at 3 and is entered; leaf A (t 5, beyond the
 * hit) is neither visited nor tested: 5 units. */
#define N2 0x10340u /* index 0x34 */
static void test_charge_after_hit(void **st)
{
    (void)st;
    setup(8);
    scene_two_levels();
    child root[2] = {{{0, 0, 3}, {4, 4, 3}, 4, 1}, {{0, 0, 3}, {4, 4, 5}, (N2 - BVH) / 16, 1}};
    node4(BVH, root, 2);
    child n2[1] = {{{0, 0, 5}, {4, 4, 5}, 8, 2}};
    node4(N2, n2, 1);
    one_ray();
    rt_job_desc jd;
    desc(&jd, 0);
    charged_units = 0;
    charge_limit = UINT64_MAX;
    rt_job_result res = run_job(&jd, CAP_T_FP32, &MEM_CHARGED);
    assert_int_equal(res.status, RT_JOB_OK);
    assert_int_equal(charged_units, 5);
    check_hit(0, 0, 1, f32(3.0f), f32(0.5f), f32(0.25f));
}

/* REQ: RT-038. NODE8: the root is two tiles; the only child is child 4 (slot 0 of
 * the second tile), a leaf with B. Without NODE8 only the first (empty) tile is read:
 * a miss. */
static void scene_node8(void)
{
    node4(BVH8, NULL, 0);
    child c[1] = {{{0, 0, 3}, {4, 4, 3}, 9, 2}};
    node4(BVH8 + 64, c, 1);
    /* index 9 counts from BVH8: TriRange at BVH8 + 0x90 */
    trirange(BVH8 + 0x90, 1, 1, TRIS);
}

static void test_node8(void **st)
{
    (void)st;
    for (unsigned n8 = 0; n8 < 2; n8++) {
        setup(8);
        scene_node8();
        one_ray();
        rt_job_desc jd;
        desc(&jd, n8 ? RT_OPT_NODE8 : 0);
        jd.bvh_base = BVH8;
        rt_job_result res = run_ok(&jd, CAP_T_FP32, &MEM);
        assert_int_equal(res.hits, n8);
        if (n8) check_hit(0, 0, 1, f32(3.0f), f32(0.5f), f32(0.25f));
    }
}

/* Node8 tiles from the cache (RT_OPT_NODE8): a root Node8 with node N (a Node8, box z 3)
 * and leaf A (box z 5) in its first tile, N with leaf B in its first tile. Ray 0, at (1, 2)
 * from z 0, reads the root and N and hits B at t 3; ray 1, from z 4, finds both tiles of
 * the root in the cache, leaves N (behind it) and hits A at t 1. REQ: RT-038 RT-033 */
static void test_node8_cached(void **st)
{
    (void)st;
    setup(8);
    child root[2] = {{{0, 0, 3}, {4, 4, 3}, 0x10, 1}, {{0, 0, 5}, {4, 4, 5}, 0x20, 2}};
    node4(BVH8, root, 2);
    node4(BVH8 + 64, NULL, 0);
    child n[1] = {{{0, 0, 3}, {4, 4, 3}, 0x21, 2}};
    node4(BVH8 + 0x100, n, 1);
    node4(BVH8 + 0x140, NULL, 0);
    trirange(BVH8 + 0x200, 0, 1, TRIS); /* A */
    trirange(BVH8 + 0x210, 1, 1, TRIS); /* B */
    ray32(0, 1, 2, 0, 1, 0, 100);
    ray32(1, 1, 2, 4, 1, 0, 100);
    w(QRAY + 4, 4, 2);
    rt_job_desc jd;
    desc(&jd, RT_OPT_NODE8);
    jd.bvh_base = BVH8;
    for (unsigned mapped = 0; mapped < 2; mapped++) {
        w(QRAY, 4, 0);
        w(QHIT + 4, 4, 0);
        rt_job_result res = run_ok(&jd, CAP_T_FP32, mapped ? &MEM_MAPPED : &MEM);
        assert_int_equal(res.hits, 2);
        check_hit(0, 0, 1, f32(3.0f), f32(0.5f), f32(0.25f));
        check_hit(1, 1, 0, f32(1.0f), f32(0.25f), f32(0.5f));
    }
}

/* A ray whose tmin or tmax is NaN misses: no box and no triangle accepts a NaN range
 * (rt.bbox's rule, errata Q-73). The ray at (1, 2) along +z, which hits B with [0, 100],
 * with tmin NaN, tmax NaN, or both, through plain loads and through the map. REQ: RT-056 */
static void test_nan_range(void **st)
{
    (void)st;
    static const float range[3][2] = {{NAN, 100}, {0, NAN}, {NAN, NAN}};
    for (unsigned mapped = 0; mapped < 2; mapped++) {
        for (unsigned k = 0; k < 3; k++) {
            setup(8);
            scene_two_levels();
            ray32(0, 1, 2, 0, 1, range[k][0], range[k][1]);
            w(QRAY + 4, 4, 1);
            rt_job_desc jd;
            desc(&jd, 0);
            rt_job_result res = run_ok(&jd, CAP_T_FP32, mapped ? &MEM_MAPPED : &MEM);
            assert_int_equal(res.hits, 0);
            assert_int_equal(res.misses, 1);
        }
    }
}

/* Errata Q-74. The tolerance code widens the accepted range (Q-74): tmax 2.75 misses
 * B at t 3 without tolerance; code 1 (2^-1 = 0.5) accepts it (boxes use the same range).
 * Through plain loads and through the map (the leaf's triangles tested in place, four at
 * a time where the host has AVX). */
static void test_eps(void **st)
{
    (void)st;
    for (unsigned mapped = 0; mapped < 2; mapped++) {
        for (unsigned e = 0; e < 2; e++) {
            setup(8);
            scene_two_levels();
            ray32(0, 1, 2, 0, 1, 0, 2.75f);
            w(QRAY + 4, 4, 1);
            rt_job_desc jd;
            desc(&jd, 0);
            jd.eps_code = e;
            rt_job_result res = run_ok(&jd, CAP_T_FP32, mapped ? &MEM_MAPPED : &MEM);
            assert_int_equal(res.hits, e);
        }
    }
}

/* REQ: RT-117. The 72 descriptor bytes decode at the offsets of Q-81. */
static void test_decode(void **st)
{
    (void)st;
    uint8_t d[72];
    for (unsigned i = 0; i < 72; i++)
        d[i] = (uint8_t)(i + 1);
    rt_job_desc jd;
    rt_job_decode(d, &jd);
    assert_int_equal(jd.bvh_base, 0x0807060504030201ull);
    assert_int_equal(jd.rayq, 0x100F0E0D0C0B0A09ull);
    assert_int_equal(jd.hitq, 0x1817161514131211ull);
    assert_int_equal(jd.missq, 0x201F1E1D1C1B1A19ull);
    assert_int_equal(jd.tri_buf, 0x2827262524232221ull);
    assert_int_equal(jd.opts, 0x2C2B2A29u);
    assert_int_equal(jd.memctl[0], 49);
    assert_int_equal(jd.memctl[23], 72);
}

/* Errata Q-69. A non-float effective PET (INT8, code 3) reads and writes FP32 records and
 * reports UNSUP_FMT: the FP32 scene gives B at t 3.0 = 0x40400000. */
static void test_unsup_fmt(void **st)
{
    (void)st;
    setup(8);
    scene_two_levels();
    one_ray();
    rt_job_desc jd;
    desc(&jd, 0);
    rt_job_result res = run_ok(&jd, CAP_T_INT8, &MEM);
    assert_true(res.unsup_fmt);
    check_hit(0, 0, 1, f32(3.0f), f32(0.5f), f32(0.25f));
    setup(8);
    res = run_job(&jd, CAP_T_FP32, &MEM);
    assert_false(res.unsup_fmt);
}

/* The snapshot of snap() with CAP.XMEM.SVMSCL / SVMMODE set (errata P-320). */
static void snap_svm(cap_snap *s, unsigned pet, uint64_t svmscl, uint64_t svmmode)
{
    cap_reset(&CS, NULL);
    assert_true(cap_csr_write(&CS, XPHMG_CSR_CAP_XMEM_SVMSCL, svmscl));
    assert_true(cap_csr_write(&CS, XPHMG_CSR_CAP_XMEM_SVMMODE, svmmode));
    cap_snapshot(&CS, s);
    s->pet = (uint8_t)pet;
    s->pol.q = false;
}

/* Triangle indices of a job are 32 bits, those of its hit record (docs/rt.md, job step
 * 5): TriRange {first 2^32 - 1, count 2} tests index 2^32 - 1 and then index 0, at
 * TriRange.base, not index 2^32. base is chosen so that index 2^32 - 1 is A (at TRIS):
 * index 0 lies at base, unmapped, and index 2^32 would be B (TRIS + 36, in front of A).
 * Case 0: the job ends with a memory fault at base. Case 1 (SVMEM OOB-zero): index 0 reads
 * as a zero (degenerate) triangle with INV_MISS, and the hit is A, prim 2^32 - 1.
 * REQ: RT-036 */
static void test_trirange_index_wrap(void **st)
{
    (void)st;
    const uint64_t base = TRIS - UINT64_C(0xFFFFFFFF) * 36u;
    for (unsigned c = 0; c < 2; c++) {
        setup(8);
        scene_one_leaf();
        trirange(TR_AB, 0xFFFFFFFFu, 2, base);
        one_ray();
        rt_job_desc jd;
        desc(&jd, 0);
        cap_snap s;
        snap_svm(&s, CAP_T_FP32, 0, c == 1 ? 0x3 : 0);
        rt_job_result res;
        rt_job_run(&jd, &s, &MEM, &res);
        assert_int_equal(res.events & 1, 1); /* INV_MISS */
        if (c == 0) {
            assert_int_equal(res.status, RT_JOB_MEM_FAULT);
            assert_int_equal(res.fault_addr, base);
            assert_int_equal(res.hits, 0);
        } else {
            assert_int_equal(res.status, RT_JOB_OK);
            assert_int_equal(res.hits, 1);
            check_hit(0, 0, 0xFFFFFFFFu, f32(5.0f), f32(0.25f), f32(0.5f));
        }
    }
}

/* Predication of a job (P-321): ray k is lane k mod 64 of the bank; lanes_off = the
 * complement. Four identical rays that all hit B; rays 1 and 3 masked off: no entries
 * (hit or miss), HEAD passes every ray, and a masked ray is not even read (the loads
 * of the ray buffer halve; the BVH reads depend on the engine's node cache).
 * REQ: RT-120 RT-082 RT-088 */
static void test_predicated(void **st)
{
    (void)st;
    unsigned loads[2];
    for (unsigned pass = 0; pass < 2; pass++) {
        setup(8);
        scene_two_levels();
        for (unsigned i = 0; i < 4; i++)
            ray32(i, 1, 2, 0, 1, 0, 100); /* every ray hits B at t 3 */
        w(QRAY + 4, 4, 4);
        rt_job_desc jd;
        desc(&jd, 0);
        jd.lanes_off = pass ? 0xAu : 0; /* lanes 1 and 3 off */
        F.ray_loads = 0;
        rt_job_result res = run_ok(&jd, CAP_T_FP32, &MEM);
        loads[pass] = F.ray_loads;
        assert_int_equal(res.rays, 4);
        assert_int_equal(r(QRAY, 4), 4);
        assert_int_equal(res.misses, 0);
        assert_int_equal(res.hits, pass ? 2 : 4);
        if (pass) {
            check_hit(0, 0, 1, f32(3.0f), f32(0.5f), f32(0.25f));
            check_hit(1, 2, 1, f32(3.0f), f32(0.5f), f32(0.25f));
        }
    }
    /* a masked ray is not read: two of four rays masked halve the ray-buffer loads */
    assert_true(loads[0] > 0);
    assert_int_equal(loads[1] * 2, loads[0]);
}

/* SVMEM rules of the BVH fetches (P-320): a root whose child 1 (node N1) lies in a hole
 * and a TriRange whose triangles lie in a hole. Without OOB-zero the ray reaching them
 * faults; with BOUND_CHECK + ALLOW_OOB_ZERO the node reads as four empty children and
 * the triangles as degenerate ones: misses, INV_MISS reported. With FOF the fault of ray
 * 1 stops the job after ray 0 without a job fault; SVFAULTI-to-be = the ray.
 * REQ: RT-102 RT-101 RT-089 RT-096 RT-097 */
static void test_svmem_fetches(void **st)
{
    (void)st;
    for (unsigned c = 0; c < 4; c++) {
        setup(8);
        scene_two_levels();
        trirange(TR_A, 0, 1, HOLE);            /* A's triangle unreachable */
        w(BVH + 48 + 3, 3, (HOLE - BVH) / 16); /* child 1 (N1) in the hole */
        ray32(0, 10, 10, 0, 1, 0, 100);        /* outside every box: a miss */
        ray32(1, 1, 2, 0, 1, 0, 100);          /* reaches N1 and A */
        w(QRAY + 4, 4, 2);
        rt_job_desc jd;
        desc(&jd, 0);
        cap_snap s;
        snap_svm(&s, CAP_T_FP32, c == 1 ? 0x20 : 0, c >= 2 ? 0x3 : 0);
        rt_job_result res;
        rt_job_run(&jd, &s, &MEM, &res);
        assert_int_equal(res.events & 1, 1); /* INV_MISS */
        if (c < 2) {
            assert_int_equal(res.status, c == 1 ? RT_JOB_FOF_STOP : RT_JOB_MEM_FAULT);
            assert_int_equal(res.svfaulti, 1);
            assert_int_equal(res.rays, 1);
            assert_int_equal(r(QRAY, 4), 1);
        } else {
            assert_int_equal(res.status, RT_JOB_OK);
            assert_int_equal(res.svfaulti, ~UINT64_C(0));
            assert_int_equal(res.misses, 2);
            assert_int_equal(res.hits, 0);
        }
    }
}

/* A node tile fetched after an earlier read of the job was zero-filled (SVMEM OOB-zero:
 * INV_MISS stays set for the rest of the job) is kept in the cache all the same: only a
 * tile that itself read as zero is not. Ray 0 (from z 4) reaches leaf A, whose triangle
 * lies in the hole (read as zero: INV_MISS, a miss); rays 1 and 2 (from z 0) go through
 * node N1 to B. N1's tile is read by ray 1 only: a job of rays 0 and 1 and a job of rays
 * 0, 1 and 2 load it alike. REQ: RT-038 RT-102 */
static void test_node_kept_after_zero_fill(void **st)
{
    (void)st;
    unsigned n1_loads[2];
    for (unsigned k = 0; k < 2; k++) {
        setup(8);
        scene_two_levels();
        trirange(TR_A, 0, 1, HOLE);
        ray32(0, 1, 2, 4, 1, 0, 100);
        ray32(1, 1, 2, 0, 1, 0, 100);
        ray32(2, 1, 2, 0, 1, 0, 100);
        w(QRAY + 4, 4, 2 + k);
        rt_job_desc jd;
        desc(&jd, 0);
        cap_snap s;
        snap_svm(&s, CAP_T_FP32, 0, 0x3); /* BOUND_CHECK + ALLOW_OOB_ZERO */
        F.watch_lo = N1;
        F.watch_hi = N1 + 64;
        rt_job_result res;
        rt_job_run(&jd, &s, &MEM, &res);
        n1_loads[k] = F.watch_loads;
        assert_int_equal(res.status, RT_JOB_OK);
        assert_int_equal(res.events & 1, 1); /* INV_MISS */
        assert_int_equal(res.hits, 1 + k);
        assert_int_equal(res.misses, 1);
    }
    assert_true(n1_loads[0] > 0);
    assert_int_equal(n1_loads[1], n1_loads[0]);
}

/* Fault-only-first (P-320) turns a memory fault of lane j > 0 into a stop, misaligned
 * fetches included, and nothing else: ray 1 reaches leaf A, whose triangle base is
 * misaligned (TRIS + 2: FP32 elements are 4-byte aligned), so ray 1's fetch ends the job
 * with MISALIGNED, or with FOF a stop after ray 0 (SVFAULTI-to-be = 1); a hit queue that
 * fills at ray 1 (capacity 2: one entry) ends the job with QUEUE_FULL with or without FOF,
 * a queue condition rather than a memory fault of the lane. REQ: RT-089 RT-096 */
static void test_fof_stop_kinds(void **st)
{
    (void)st;
    for (unsigned fof = 0; fof < 2; fof++) {
        setup(8);
        scene_two_levels();
        trirange(TR_A, 0, 1, TRIS + 2); /* A's triangle misaligned */
        ray32(0, 1, 2, 0, 1, 0, 100);   /* B at t 3: a hit, A skipped */
        ray32(1, 1, 2, 4, 1, 0, 100);   /* B behind: reaches A */
        w(QRAY + 4, 4, 2);
        rt_job_desc jd;
        desc(&jd, 0);
        cap_snap s;
        snap_svm(&s, CAP_T_FP32, fof ? 0x20 : 0, 0);
        rt_job_result res;
        rt_job_run(&jd, &s, &MEM, &res);
        assert_int_equal(res.status, fof ? RT_JOB_FOF_STOP : RT_JOB_MISALIGNED);
        assert_int_equal(res.svfaulti, 1);
        assert_int_equal(res.rays, 1);
        assert_int_equal(res.hits, 1);

        setup(8);
        scene_two_levels();
        queue(QHIT, 0, 0, 2, HITS);
        ray32(0, 1, 2, 0, 1, 0, 100); /* B at t 3 */
        ray32(1, 1, 2, 0, 1, 0, 100);
        w(QRAY + 4, 4, 2);
        rt_job_run(&jd, &s, &MEM, &res);
        assert_int_equal(res.status, RT_JOB_QUEUE_FULL);
        assert_int_equal(res.svfaulti, 1);
        assert_int_equal(res.rays, 1);
    }
}

/* A CAP.XMEM.CAP feature that is absent disables its behaviour for RT jobs too (RT 8.6):
 * hyb = 1 under HYB_ENABLE with no CL2 ways in CLSMAP falls back (HYB_FALLBK) only when
 * WAY_PART exists; with WAY_PART = 0 the way partition (and CLSMAP) plays no part.
 * REQ: RT-098 */
static void test_absent_xmem_feature(void **st)
{
    (void)st;
    for (unsigned way_part = 0; way_part < 2; way_part++) {
        char err[256];
        const char *y = way_part
                            ? "xphmg-profile: 1\nname: w\n"
                            : "xphmg-profile: 1\nname: w\ncsrs:\n  cap_xmem_cap: {WAY_PART: 0}\n";
        cap_profile *p = cap_profile_parse(y, strlen(y), "t", err, sizeof err);
        assert_non_null(p);
        setup(8);
        scene_two_levels();
        rt_job_desc jd;
        desc(&jd, 0);
        jd.memctl[18] = 1; /* hyb */
        cap_reset(&CS, p);
        assert_true(cap_csr_write(&CS, XPHMG_CSR_CAP_XMEM_DESCPOL, 0x4)); /* HYB_ENABLE */
        assert_true(cap_csr_write(&CS, XPHMG_CSR_CAP_XMEM_CLSMAP, 0));    /* no CL2 ways */
        cap_snap s;
        cap_snapshot(&CS, &s);
        rt_job_result res = run_snap_ok(&jd, &s, &MEM);
        assert_int_equal(res.events & CAP_XMEM_EVENTS_HYB_FALLBK_MASK,
                         way_part ? CAP_XMEM_EVENTS_HYB_FALLBK_MASK : 0);
        cap_profile_free(p);
    }
}

/* Predication, OOB-zero and fault-only-first do not depend on how the engine runs a job
 * (errata P-320, P-321): 130 rays (enough for the engine to split a job, 4 blocks of 32;
 * lanes 2, 5, 7 off, so rays 2, 5, 7, 66, 69, 71 are masked; rays 9 and 10 reach a node
 * and triangles in a hole) through the mapped fast path on one and on two host threads
 * give the entries, HEAD, status and SVFAULTI of the per-ray rules. Cases: OOB-zero (rays
 * 9 and 10 miss), FOF (stop at ray 9), neither (job fault at ray 9), and no hole at all
 * (rays 9 and 10 hit B; the only case traced in parallel, as the others read unmapped
 * memory and fall back to one thread). The engine takes at most 64 threads
 * (RT_JOB_MAX_THREADS): asked for 1000 it runs the job on 64, with the same
 * results. REQ: RT-120 RT-101 RT-089 RT-096 */
#define BIG_N    130u
#define BIG_RAYS 0x14000u
#define BIG_HITS 0x16000u
#define BIG_MISS 0x17000u
#define BIG_MASK (UINT64_C(1) << 2 | UINT64_C(1) << 5 | UINT64_C(1) << 7)
static bool big_masked(uint32_t j)
{
    return (BIG_MASK >> (j % 64)) & 1;
}

/* Ray i of a big job: from (x, y, 0) along +z, t in [0, 100]. */
static void big_ray(uint32_t i, float x, float y)
{
    float v[8] = {x, y, 0, 0, 0, 1, 0, 100};
    for (unsigned k = 0; k < 8; k++)
        w(BIG_RAYS + 32 * i + 4 * k, 4, f32(v[k]));
}

/* The queues of a big job of n rays (each of capacity n + 1), hit entries at hits. */
static void big_queues(uint32_t n, uint64_t hits)
{
    queue(QRAY, 0, n, n + 1, BIG_RAYS);
    queue(QHIT, 0, 0, n + 1, hits);
    queue(QMISS, 0, 0, n + 1, BIG_MISS);
}

/* Scene 1 and BIG_N rays, all from (x, y, 0) along +z, their hit entries at hits. */
static void big_job(float x, float y, uint64_t hits)
{
    setup(8);
    scene_two_levels();
    for (uint32_t i = 0; i < BIG_N; i++)
        big_ray(i, x, y);
    big_queues(BIG_N, hits);
}

/* Runs jd on an engine of `threads` host threads (it takes at most 64) through m. */
static rt_job_result run_engine_mem(const rt_job_desc *jd, const cap_snap *s, unsigned threads,
                                    const rt_job_mem *m)
{
    rt_job_engine *e = rt_job_engine_new(threads);
    assert_non_null(e);
    assert_int_equal(rt_job_engine_threads(e), threads > 64 ? 64 : threads);
    rt_job_result res;
    rt_job_run_ex(jd, s, m, e, &res);
    rt_job_engine_free(e);
    return res;
}

static rt_job_result run_engine(const rt_job_desc *jd, const cap_snap *s, unsigned threads)
{
    return run_engine_mem(jd, s, threads, &MEM_MAPPED);
}

/* The job of the queues as set up (desc(&jd, 0)) under FP32 on `threads` threads through m. */
static rt_job_result run_default(unsigned threads, const rt_job_mem *m)
{
    rt_job_desc jd;
    desc(&jd, 0);
    cap_snap s;
    snap(&s, CAP_T_FP32);
    return run_engine_mem(&jd, &s, threads, m);
}
static void test_split_engine_rules(void **st)
{
    (void)st;
    static const unsigned nthreads[] = {1, 2, 1000};
    for (unsigned t = 0; t < sizeof nthreads / sizeof nthreads[0]; t++) {
        unsigned threads = nthreads[t];
        for (unsigned c = 0; c < 4; c++) {
            setup(8);
            scene_two_levels();
            if (c < 3) {
                trirange(TR_A, 0, 1, HOLE);
                w(BVH + 48 + 3, 3, (HOLE - BVH) / 16); /* child 1 (N1) in the hole */
            }
            for (uint32_t i = 0; i < BIG_N; i++) {
                bool deep = i == 9 || i == 10; /* hits B (or reaches the hole) */
                big_ray(i, deep ? 1.0f : 10.0f, deep ? 2.0f : 10.0f);
            }
            big_queues(BIG_N, BIG_HITS);
            rt_job_desc jd;
            desc(&jd, 0);
            jd.lanes_off = BIG_MASK;
            cap_snap s;
            snap_svm(&s, CAP_T_FP32, c == 1 ? 0x20 : 0, c == 0 ? 0x3 : 0);
            rt_job_result res = run_engine(&jd, &s, threads);
            /* the rays the job completed: all, or those before ray 9 */
            uint32_t end = c == 1 || c == 2 ? 9 : BIG_N, live = 0;
            for (uint32_t j = 0; j < end; j++)
                live += !big_masked(j);
            assert_int_equal(res.status, c == 1   ? RT_JOB_FOF_STOP
                                         : c == 2 ? RT_JOB_MEM_FAULT
                                                  : RT_JOB_OK);
            assert_int_equal(res.svfaulti, end == BIG_N ? ~UINT64_C(0) : 9);
            assert_int_equal(r(QRAY, 4), end);
            assert_int_equal(res.hits, c == 3 ? 2 : 0);
            assert_int_equal(res.misses, live - res.hits);
            /* entries in ray order, masked rays absent */
            uint32_t nh = 0, nm = 0;
            for (uint32_t j = 0; j < end; j++) {
                if (big_masked(j)) continue;
                if (c == 3 && (j == 9 || j == 10))
                    assert_int_equal(r(BIG_HITS + 24 * nh++, 4), j);
                else
                    assert_int_equal(r(BIG_MISS + 4 * nm++, 4), j);
            }
            assert_int_equal(res.events & 1, c == 3 ? 0 : 1); /* INV_MISS */
        }
    }
}

/* A job split across threads gives the one-thread results (errata P-341) when only one
 * thread's rays read what the job writes, and reports a fault's address from whichever
 * thread traced the faulting ray. 128 rays (4 blocks of 32: blocks 0 and 2 on thread 0,
 * 1 and 3 on thread 1): rays of blocks 0 and 2 go through node N2 (a copy of N1 at
 * SPLIT_N2, root child 1) and hit B, the others miss the root. Case 0: the hit queue's
 * entry 10 (ray 10's hit) lands on N2 and empties its child's box, so from ray 11 on
 * those rays hit A (t 5) instead;
 * only thread 0 read N2, and the job must fall back to one thread. Case 1: hit queue
 * elsewhere, root child 1 is N1 again (every read below the queues, so the job stays
 * split) and root child 2 is a node at a misaligned address that ray 100 (thread 1)
 * reaches: the job ends there with that address. REQ: RT-089 RT-097 */
#define SPLIT_N2 0x18000u
#define SPLIT_HQ (SPLIT_N2 - 24u * 10u)
static void test_split_matches_one_thread(void **st)
{
    (void)st;
    for (unsigned threads = 1; threads <= 2; threads++) {
        for (unsigned c = 0; c < 2; c++) {
            setup(8);
            scene_two_levels();
            child n2[1] = {{{0, 0, 3}, {4, 4, 3}, 9, 2}};
            node4(SPLIT_N2, n2, 1);
            w(BVH + 48 + 3, 3, (SPLIT_N2 - BVH) / 16);
            if (c == 1) { /* root child 2: a node at BVH + 16 * 0x801 (not 64-aligned) */
                child root[3] = {{{0, 0, 5}, {4, 4, 5}, 8, 2},
                                 {{0, 0, 3}, {4, 4, 3}, 4, 1},
                                 {{4, 4, 3}, {5, 5, 3}, 0x801, 1}};
                node4(BVH, root, 3);
            }
            for (uint32_t i = 0; i < 128; i++) {
                bool deep = (i / 32) % 2 == 0;
                float xy = deep ? 1.0f : c == 1 && i == 100 ? 5.0f : 10.0f;
                big_ray(i, xy, deep ? 2.0f : xy);
            }
            big_queues(128, c == 0 ? SPLIT_HQ : BIG_HITS);
            rt_job_result res = run_default(threads, &MEM_MAPPED);
            uint64_t hb = c == 0 ? SPLIT_HQ : BIG_HITS;
            if (c == 0) {
                assert_int_equal(res.status, RT_JOB_OK);
                assert_int_equal(res.hits, 64);
                assert_int_equal(res.misses, 64);
                /* hit entries in ray order: rays 0-10 hit B, 11-31 and 64-95 hit A */
                for (uint32_t k = 0; k < 64; k++) {
                    uint32_t ray = k < 32 ? k : k + 32;
                    uint64_t a = hb + 24u * k;
                    assert_int_equal(r(a, 4), ray);
                    assert_int_equal(r(a + 4, 4), k <= 10 ? 1 : 0);
                    assert_int_equal(r(a + 8, 4), f32(k <= 10 ? 3.0f : 5.0f));
                }
            } else {
                assert_int_equal(res.status, RT_JOB_MISALIGNED);
                assert_int_equal(res.fault_addr, BVH + 16u * 0x801);
                assert_int_equal(res.rays, 100);
                assert_int_equal(r(QRAY, 4), 100);
                assert_int_equal(res.hits, 64);
                assert_int_equal(res.misses, 36);
            }
        }
    }
}

/* Both threads of a 2-thread engine trace rays of a job that can be split (rt_job.c "split
 * jobs": at least 4 blocks of 32 rays, mapped memory, ray slots apart from what the job
 * writes), the calling thread included: it traces a later block while the one it is to
 * append next is traced elsewhere. The map of this memory holds each thread at its first
 * ray record until the other thread has read one too (at most 10 s); a job traced by one
 * thread alone keeps it waiting the whole time. 130 rays that miss. */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t caller;
    bool caller_read, other_read, waited_out;
} P = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static const uint8_t *pair_map(void *ctx, uint64_t a, unsigned n)
{
    if (a >= BIG_RAYS && a < BIG_RAYS + 32u * BIG_N) {
        pthread_mutex_lock(&P.mu);
        bool caller = pthread_equal(pthread_self(), P.caller);
        *(caller ? &P.caller_read : &P.other_read) = true;
        pthread_cond_broadcast(&P.cv);
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += 10;
        while (!(caller ? P.other_read : P.caller_read) && !P.waited_out)
            if (pthread_cond_timedwait(&P.cv, &P.mu, &until) == ETIMEDOUT) P.waited_out = true;
        pthread_mutex_unlock(&P.mu);
    }
    return f_map(ctx, a, n);
}

static void test_split_both_threads_trace(void **st)
{
    (void)st;
    big_job(10.0f, 10.0f, BIG_HITS);
    P.caller = pthread_self();
    P.caller_read = P.other_read = P.waited_out = false;
    const rt_job_mem m = {&F, f_load, f_store, pair_map, NULL, NULL, NULL, NULL};
    rt_job_result res = run_default(2, &m);
    assert_int_equal(res.status, RT_JOB_OK);
    assert_int_equal(res.misses, BIG_N);
    assert_true(P.caller_read);
    assert_true(P.other_read);
    assert_false(P.waited_out);
}

/* A job whose hit entries land on its own ray slots (errata P-341: how a job runs never
 * changes what it writes): 130 rays at (1, 2), each hitting B, with the hit queue's entries
 * starting at ray slot 1, so ray k's entry overwrites the record of a later ray before
 * that ray is read in ray order (ray 0's entry turns ray 1 into a ray along (0.5, 0.25, 0),
 * which misses). On two threads the job writes the same bytes and reports the same result
 * as on one: a split job must not trace rays from slots the job writes. */
static void test_split_rays_overwritten(void **st)
{
    (void)st;
    static uint8_t ram1[RAM_SIZE];
    rt_job_result res[2];
    for (unsigned threads = 1; threads <= 2; threads++) {
        big_job(1.0f, 2.0f, BIG_RAYS + 32);
        res[threads - 1] = run_default(threads, &MEM_MAPPED);
        if (threads == 1) memcpy(ram1, F.ram, RAM_SIZE);
    }
    assert_int_equal(res[0].status, RT_JOB_OK);
    assert_true(res[0].misses > 0); /* the overwritten rays did change */
    assert_rt_result_equal(&res[1], &res[0]);
    assert_memory_equal(F.ram, ram1, RAM_SIZE);
}

/* A split job's threads share one node cache (docs/rt.md "Offload engine"): a node tile
 * one thread decoded is there for the other, so the 130 rays of a 2-thread job through
 * scene 1 (each visits the root and N1 and hits B) read the two node tiles a few times
 * (once, or once more by the other thread for each ray it traces while the first has not
 * published the tile yet), not twice per ray: fewer than 130 reads, where one read per
 * visit would make 260. */
static atomic_uint node_maps;
static const uint8_t *f_map_nodes(void *ctx, uint64_t a, unsigned n)
{
    if ((a == BVH || a == N1) && n == 64) node_maps++;
    return f_map(ctx, a, n);
}
static void test_split_shared_cache(void **st)
{
    (void)st;
    big_job(1.0f, 2.0f, BIG_HITS);
    const rt_job_mem m = {&F, f_load, f_store, f_map_nodes, NULL, NULL, NULL, NULL};
    node_maps = 0;
    rt_job_result res = run_default(2, &m);
    assert_int_equal(res.status, RT_JOB_OK);
    assert_int_equal(res.hits, BIG_N);
    assert_true(node_maps >= 2);
    if (node_maps >= BIG_N)
        fail_msg("%u reads of the two node tiles for %u rays", (unsigned)node_maps, BIG_N);
}

/* A ray ring that wraps inside a block of a split job (Q-70: slots modulo CAP): 130 rays
 * from HEAD 100 of a 131-slot ring, so ray 31 of the job, the last of its first block of
 * 32, is in slot 0 and ray 32 in slot 1. Only slot 0's ray hits (B at t 3), on one thread
 * and on two: one hit entry {ray 0}, 129 misses in ring order, HEAD = TAIL = 99.
 * REQ: RT-043 RT-044 */
static void test_split_ring_wrap(void **st)
{
    (void)st;
    for (unsigned threads = 1; threads <= 2; threads++) {
        setup(8);
        scene_two_levels();
        for (uint32_t slot = 0; slot < BIG_N + 1; slot++)
            big_ray(slot, slot == 0 ? 1.0f : 10.0f, slot == 0 ? 2.0f : 10.0f);
        big_queues(BIG_N, BIG_HITS);
        queue(QRAY, 100, 99, BIG_N + 1, BIG_RAYS);
        rt_job_result res = run_default(threads, &MEM_MAPPED);
        assert_int_equal(res.status, RT_JOB_OK);
        assert_int_equal(res.hits, 1);
        assert_int_equal(res.misses, BIG_N - 1);
        assert_int_equal(r(BIG_HITS, 4), 0);
        assert_int_equal(r(BIG_HITS + 8, 4), f32(3.0f));
        for (uint32_t j = 0, nm = 0; j < BIG_N; j++)
            if (j != 31) assert_int_equal(r(BIG_MISS + 4 * nm++, 4), (100 + j) % (BIG_N + 1));
        assert_int_equal(r(QRAY, 4), 99);
    }
}

/* Split jobs over plain memory the job writes directly (map_w): a tracer keeps the results
 * of the blocks it traced and writes their entries where the appending thread places
 * them (rt_job.c "split jobs"). Jobs of 640 FP16 rays (20 blocks of 32; lanes 2, 5, 7 of
 * every 64 off), two in five of them at (1, 2) hitting B, the others at (100, 100)
 * missing, each run on one thread and on two with map_w (tracers keep blocks) and without
 * it (every block through the ring), must write the same bytes and report the same result
 * (errata P-341). Cases: 0 the queues wrap (hit TAIL starts 7 slots before the end of its
 * array, miss TAIL 5 slots before the end of its; the rays fill ray slots 1 to 640 of 641,
 * so HEAD ends at 0); 1 the hit queue fills (at its
 * 100th hit), 2 the miss queue fills (at its 200th miss), both in mid-block; 3 ray 300 hits at t =
 * 3 / 2^-15, which overflows binary16, with OF enabled: the job ends there (FP_EXC); 4 ray 400
 * reaches a node at a misaligned address; 5 the last miss entry lands on the ray queue's HEAD
 * (queue descriptors at DJ_Q: one thread stores HEAD after it, so no block may be kept); 6 ray 350
 * reaches node N2, which the hit queue's entry 10 overwrites (the tracer declines, the caller goes
 * on alone from there); 7 as 3 with OF not enabled (the flags of the blocks placed are reported); 8
 * the hit queue fills at the last hit of block 5 (its hits are one more than the room left). Cases
 * 9 and 10 hold the thread that traces ray 0 at the node ray 0 reaches (root child 2) until the
 * other thread has reached the node of ray 576 (block 18) or 1 s has passed: the other thread keeps
 * 16 blocks in its buffer and two more in their ring slots before block 0 is done. In case 9 that
 * node is N1's copy and the job completes; in case 10 it lies in the hole: ray 0 faults (the tracer
 * declines, the caller goes on alone and ends the job at ray 0), and none of the blocks kept is
 * written. Case 11: the hit queue fills at its 5th hit, in block 0 (a kept block that must go
 * to the ring). Case 12: rays 32 to 63 (block 1, no lane off) all reach the misaligned node,
 * so the job ends at ray 32. Case 13: the rays start at ray slot 625 of 641, so the ray
 * ring wraps inside block 0. REQ: RT-043 RT-044 RT-082 RT-088 */
#define DJ_N    640u
#define DJ_RAYS 0x12000u
#define DJ_HITS 0x15000u
#define DJ_MISS 0x19000u
#define DJ_N2   0x1A000u
#define DJ_N3   0x1A040u
#define DJ_Q    0x1B000u /* case 5: the queue descriptors */
#define DJ_HELD 576u     /* case 9, 10: the ray the held thread waits for */

static bool dj_hit(uint32_t i)
{
    return (i * 7) % 5 < 2;
}

static void direct_job(unsigned c, rt_job_desc *jd, cap_snap *s)
{
    setup(8);
    tri16(TRIS, TRI_A);
    tri16(TRIS + 18, TRI_B);
    bool held = c == 9 || c == 10;
    /* root { A, N1, child 2 at (4, 4)-(5, 5): N2, a misaligned node or the held node;
     * child 3 at (2, 2)-(3, 3): N1's copy at DJ_N3 } */
    uint32_t c2 = c == 4 || c == 12 ? 0x801u : c == 10 ? (HOLE - BVH) / 16 : (DJ_N2 - BVH) / 16;
    child root[4] = {{{0, 0, 5}, {4, 4, 5}, 8, 2},
                     {{0, 0, 3}, {4, 4, 3}, 4, 1},
                     {{4, 4, 3}, {5, 5, 3}, c2, 1},
                     {{2, 2, 3}, {3, 3, 3}, (DJ_N3 - BVH) / 16, 1}};
    node4(BVH, root, held ? 4 : c == 4 || c == 6 || c == 12 ? 3 : 2);
    child n1[1] = {{{0, 0, 3}, {4, 4, 3}, 9, 2}};
    node4(N1, n1, 1);
    node4(DJ_N2, n1, 1);
    node4(DJ_N3, n1, 1);
    trirange(TR_A, 0, 1, TRIS);
    trirange(TR_B, 1, 1, TRIS);
    uint32_t block5_hits = 0, misses = 0, rhead = c == 0 ? 1 : c == 13 ? 625 : 0;
    for (uint32_t i = 0; i < DJ_N; i++) {
        bool far = (c == 4 && i == 400) || (c == 6 && i == 350) || (held && i == 0) ||
                   (c == 12 && i >= 32 && i < 64);
        bool big = (c == 3 || c == 7) && i == 300;
        float x = far ? 5.0f : held && i == DJ_HELD ? 3.0f : dj_hit(i) ? 1.0f : 100.0f;
        float y = x == 1.0f ? 2.0f : x;
        uint16_t v[8] = {
            h16(x), h16(y), 0, 0, 0, big ? H16_2M15 : h16(1.0f), 0, big ? H16_INF : h16(100.0f)};
        uint32_t slot = (rhead + i) % (DJ_N + 1);
        for (unsigned k = 0; k < 8; k++)
            w(DJ_RAYS + 16 * slot + 2 * k, 2, v[k]);
        block5_hits += i < 6 * 32 && !big_masked(i) && dj_hit(i);
        misses += !big_masked(i) && !dj_hit(i);
    }
    uint64_t hits = c == 6 ? DJ_N2 - 24u * 10 : DJ_HITS;
    uint32_t hcap = c == 1 ? 100 : c == 8 ? block5_hits : c == 11 ? 5 : DJ_N + 1;
    uint32_t mcap = c == 2 ? 200 : DJ_N + 1;
    uint64_t q = c == 5 ? DJ_Q : QRAY;
    queue(q, rhead, (rhead + DJ_N) % (DJ_N + 1), DJ_N + 1, DJ_RAYS);
    queue(q + 32, c == 0 ? hcap - 7 : 0, c == 0 ? hcap - 7 : 0, hcap, hits);
    queue(q + 64, c == 0 ? mcap - 5 : 0, c == 0 ? mcap - 5 : 0, mcap,
          c == 5 ? DJ_Q - 4u * (misses - 1) : DJ_MISS);
    desc(jd, 0);
    jd->rayq = q;
    jd->hitq = q + 32;
    jd->missq = q + 64;
    jd->lanes_off = BIG_MASK;
    snap(s, CAP_T_FP16);
    if (c == 3) s->exc_en = 1u << 2; /* OF */
}

/* Cases 9 and 10: map of the held node (root child 2) waits for one of DJ_N3. */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t node; /* the held node */
    bool ahead;
} DJ = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static const uint8_t *held_map(void *ctx, uint64_t a, unsigned n)
{
    if (a == DJ_N3 || a == DJ.node) {
        pthread_mutex_lock(&DJ.mu);
        if (a == DJ_N3) {
            DJ.ahead = true;
            pthread_cond_broadcast(&DJ.cv);
        } else {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_sec += 1;
            while (!DJ.ahead)
                if (pthread_cond_timedwait(&DJ.cv, &DJ.mu, &until) == ETIMEDOUT) break;
        }
        pthread_mutex_unlock(&DJ.mu);
    }
    return f_map(ctx, a, n);
}

static void test_split_direct(void **st)
{
    (void)st;
    static uint8_t ram1[RAM_SIZE];
    const rt_job_mem direct = {&F, f_load, f_store, f_map, NULL, f_map_w, NULL, NULL};
    const rt_job_mem held[2] = {{&F, f_load, f_store, held_map, NULL, NULL, NULL, NULL},
                                {&F, f_load, f_store, held_map, NULL, f_map_w, NULL, NULL}};
    static const rt_job_status want[14] = {RT_JOB_OK,         RT_JOB_QUEUE_FULL, RT_JOB_QUEUE_FULL,
                                           RT_JOB_FP_EXC,     RT_JOB_MISALIGNED, RT_JOB_OK,
                                           RT_JOB_OK,         RT_JOB_OK,         RT_JOB_QUEUE_FULL,
                                           RT_JOB_OK,         RT_JOB_MEM_FAULT,  RT_JOB_QUEUE_FULL,
                                           RT_JOB_MISALIGNED, RT_JOB_OK};
    /* the rays completed (MID: in mid-block, after block 4) */
    const uint32_t MID = UINT32_MAX;
    uint32_t last5 = 0, hit5 = 0, nhit = 0; /* block 5's last hit, the 5th hit */
    for (uint32_t i = 0; i < 6 * 32; i++)
        if (!big_masked(i) && dj_hit(i)) {
            last5 = i;
            if (++nhit == 5) hit5 = i;
        }
    const uint32_t want_rays[14] = {DJ_N, MID,   MID,  300, 400,  DJ_N, DJ_N,
                                    DJ_N, last5, DJ_N, 0,   hit5, 32,   DJ_N};
    for (unsigned c = 0; c < 14; c++) {
        rt_job_desc jd;
        cap_snap s;
        direct_job(c, &jd, &s);
        rt_job_result one = run_engine_mem(&jd, &s, 1, &direct);
        memcpy(ram1, F.ram, RAM_SIZE);
        if (one.status != want[c]) fail_msg("case %u: status %d on one thread", c, (int)one.status);
        if (want_rays[c] != MID ? one.rays != want_rays[c]
                                : one.rays < 5 * 32 || one.rays % 32 == 0)
            fail_msg("case %u: the job ended at ray %u", c, (unsigned)one.rays);
        if (c == 0 && r(QRAY, 4) != 0) fail_msg("case 0: HEAD %u", (unsigned)r(QRAY, 4));
        for (unsigned kept = 2; kept-- > 0;) { /* direct first: its ring is not the last job's */
            direct_job(c, &jd, &s);
            DJ.node = c == 10 ? HOLE : DJ_N2;
            DJ.ahead = false;
            bool hold = c == 9 || c == 10;
            rt_job_result two = run_engine_mem(&jd, &s, 2,
                                               hold   ? &held[kept]
                                               : kept ? &direct
                                                      : &MEM_MAPPED);
            if (hold && !DJ.ahead) fail_msg("case %u: no thread reached ray %u", c, DJ_HELD);
            assert_rt_result_equal(&two, &one);
            for (uint32_t a = 0; a < RAM_SIZE; a++)
                if (F.ram[a] != ram1[a])
                    fail_msg("case %u (%s): byte 0x%x is 0x%02x on two threads, 0x%02x on one", c,
                             kept ? "direct" : "ring", (unsigned)(RAM_BASE + a), F.ram[a], ram1[a]);
        }
    }
}

/* A job is complete when rt_job_run_ex returns, on any number of host threads: the
 * engine's workers are back before it returns, and the next job on the same engine starts
 * from there (RT 9: completion of a submission is that of all its work). Three jobs of
 * 130 rays each (split: 5 blocks of 32) one after another on one 2-thread engine, every
 * entry area filled with 0xFF before each: job k's ray i hits B (t 3) when i % 3 == k,
 * else misses; right after each job returns its entries are all there in ray order and
 * HEAD = TAIL. (A worker that never comes back hangs the job: ext_rt_job has a short
 * CTest TIMEOUT.) REQ: RT-123 */
static void test_split_jobs_complete(void **st)
{
    (void)st;
    rt_job_engine *e = rt_job_engine_new(2);
    assert_non_null(e);
    assert_int_equal(rt_job_engine_threads(e), 2);
    for (uint32_t k = 0; k < 3; k++) {
        setup(8);
        scene_two_levels();
        for (uint32_t i = 0; i < BIG_N; i++)
            big_ray(i, i % 3 == k ? 1.0f : 10.0f, i % 3 == k ? 2.0f : 10.0f);
        big_queues(BIG_N, BIG_HITS);
        memset(&F.ram[BIG_HITS - RAM_BASE], 0xFF, 24u * (BIG_N + 1));
        memset(&F.ram[BIG_MISS - RAM_BASE], 0xFF, 4u * (BIG_N + 1));
        rt_job_desc jd;
        desc(&jd, 0);
        cap_snap s;
        snap(&s, CAP_T_FP32);
        rt_job_result res;
        rt_job_run_ex(&jd, &s, &MEM_MAPPED, e, &res);
        assert_int_equal(res.status, RT_JOB_OK);
        uint32_t nh = 0, nm = 0;
        for (uint32_t i = 0; i < BIG_N; i++) {
            if (i % 3 == k) {
                assert_int_equal(r(BIG_HITS + 24 * nh, 4), i);
                assert_int_equal(r(BIG_HITS + 24 * nh + 8, 4), f32(3.0f));
                nh++;
            } else {
                assert_int_equal(r(BIG_MISS + 4 * nm++, 4), i);
            }
        }
        assert_int_equal(res.hits, nh);
        assert_int_equal(res.misses, nm);
        assert_int_equal(r(QRAY, 4), BIG_N);
        assert_int_equal(r(QHIT + 4, 4), nh);
        assert_int_equal(r(QMISS + 4, 4), nm);
    }
    rt_job_engine_free(e);
}

/* Linked with -Wl,--wrap=aligned_alloc: every aligned_alloc of the engine comes here, and
 * one whose size is in [fail_lo, fail_hi] fails. */
void *__real_aligned_alloc(size_t align, size_t n);
void *__wrap_aligned_alloc(size_t align, size_t n);
static size_t fail_lo = SIZE_MAX, fail_hi = 0;
void *__wrap_aligned_alloc(size_t align, size_t n)
{
    return n >= fail_lo && n <= fail_hi ? NULL : __real_aligned_alloc(align, n);
}

/* A split job whose ray count outgrows the engine's block ring (64 blocks of 32 rays at
 * first) makes the engine grow the ring; every byte comes back when the engine is freed:
 * after warm-up rounds (one-time state of the C library's threads), 8 more rounds of
 * engine, job of 4000 rays (125 blocks), free leave the heap as they found them. Every
 * lane is masked off (lanes_off all ones), so no ray record is read and no entry written:
 * the ray slots may lie outside memory, and only HEAD moves. One round: during the job
 * (not while the engine is made) a malloc of a size in [lo, hi] = ctx[0..1] fails. */
static void ring_round(const void *ctx)
{
    size_t lo = ((const size_t *)ctx)[0], hi = ((const size_t *)ctx)[1];
    setup(8);
    queue(QRAY, 0, 4000, 4001, 0x100000u);
    rt_job_desc jd;
    desc(&jd, 0);
    jd.lanes_off = ~UINT64_C(0);
    cap_snap s;
    snap(&s, CAP_T_FP32);
    rt_job_engine *e = rt_job_engine_new(2);
    assert_non_null(e);
    assert_int_equal(rt_job_engine_threads(e), 2);
    rt_job_result res;
    fail_lo = lo;
    fail_hi = hi;
    rt_job_run_ex(&jd, &s, &MEM_MAPPED, e, &res);
    fail_lo = SIZE_MAX;
    fail_hi = 0;
    rt_job_engine_free(e);
    assert_int_equal(res.status, RT_JOB_OK);
    assert_int_equal(res.rays, 4000);
    assert_int_equal(res.hits + res.misses, 0);
    assert_int_equal(r(QRAY, 4), 4000);
}

/* The same rounds when the larger ring cannot be allocated: its result array (125 blocks
 * of 32 results of 24 bytes, 96000 bytes) or its 125 ready words (each on a cache line of
 * its own, 8000 bytes) fail (the job allocates nothing else: every lane is off, so no node
 * is read and the node cache does not grow); the engine keeps its ring of 64 blocks, the
 * job completes on it, and the part that was allocated is given back. */
static void test_split_ring_frees(void **st)
{
    (void)st;
    static const size_t fail[3][2] = {{SIZE_MAX, 0}, {65536, 200000}, {4000, 16000}};
    static const char *const what[3] = {"no malloc fails", "the ring fails",
                                        "the ready words fail"};
    for (unsigned f = 0; f < 3; f++)
        assert_heap_balanced(ring_round, fail[f], 4, 8, what[f]);
}

/* A split job with more blocks than its ring (the ring cannot grow: its result array is
 * made to fail, so it keeps 64 blocks; the job has 66): a block's ring slot is not traced
 * into again before the block has been appended. 2112 FP16 rays that miss; the map holds
 * the calling thread at its first ray record (its first block) until the other thread reads
 * a ray of block 64, the first to reuse a slot, or 1 s has passed: that thread must not get
 * there first, and every miss entry is written, in ray order. (When the other thread has
 * traced all of the first 64 blocks before the calling thread reads a ray, which a slow
 * host can make happen, the calling thread is not held and the job runs again, at most 5
 * times.) */
#define OVR_N    2112u
#define OVR_RAYS 0x11000u
#define OVR_MISS 0x19800u
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    pthread_t caller;
    bool ahead, waited, early; /* early: block 64 was read while the caller waited */
    bool late;                 /* the caller's first ray read was of block 64 or later */
} O = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER};

static const uint8_t *ahead_map(void *ctx, uint64_t a, unsigned n)
{
    if (a >= OVR_RAYS && a < OVR_RAYS + 16u * OVR_N) {
        pthread_mutex_lock(&O.mu);
        bool caller = pthread_equal(pthread_self(), O.caller);
        if ((a - OVR_RAYS) / 16 >= 64u * 32u) {
            if (caller && !O.waited) O.late = true;
            O.ahead = true;
            pthread_cond_broadcast(&O.cv);
        }
        if (caller && !O.waited && !O.late) {
            struct timespec until;
            clock_gettime(CLOCK_REALTIME, &until);
            until.tv_sec += 1;
            while (!O.ahead)
                if (pthread_cond_timedwait(&O.cv, &O.mu, &until) == ETIMEDOUT) break;
            O.waited = true;
            O.early = O.ahead;
        }
        pthread_mutex_unlock(&O.mu);
    }
    return f_map(ctx, a, n);
}

static void test_split_ring_reuse(void **st)
{
    (void)st;
    setup(8);
    scene_two_levels();
    for (uint32_t i = 0; i < OVR_N; i++) {
        const uint16_t ray[8] = {h16(5), h16(5), h16(0), h16(0), h16(0), h16(1), h16(0), h16(100)};
        for (unsigned k = 0; k < 8; k++)
            w(OVR_RAYS + 16 * i + 2 * k, 2, ray[k]);
    }
    queue(QRAY, 0, OVR_N, OVR_N + 1, OVR_RAYS);
    queue(QMISS, 0, 0, OVR_N + 1, OVR_MISS);
    rt_job_desc jd;
    desc(&jd, 0);
    cap_snap s;
    snap(&s, CAP_T_FP16);
    const rt_job_mem m = {&F, f_load, f_store, ahead_map, NULL, NULL, NULL, NULL};
    rt_job_result res;
    O.late = true;
    for (unsigned k = 0; k < 5 && O.late; k++) {
        rt_job_engine *e = rt_job_engine_new(2);
        assert_non_null(e);
        assert_int_equal(rt_job_engine_threads(e), 2);
        O.caller = pthread_self();
        O.ahead = O.waited = O.early = O.late = false;
        w(QRAY, 4, 0);
        w(QMISS + 4, 4, 0);
        fail_lo = 40000; /* the 66-block result array (50688 bytes) */
        fail_hi = 60000;
        rt_job_run_ex(&jd, &s, &m, e, &res);
        fail_lo = SIZE_MAX;
        fail_hi = 0;
        rt_job_engine_free(e);
    }
    assert_true(O.waited);
    assert_false(O.early);
    assert_int_equal(res.status, RT_JOB_OK);
    assert_int_equal(res.misses, OVR_N);
    for (uint32_t i = 0; i < OVR_N; i++)
        assert_int_equal(r(OVR_MISS + 4 * i, 4), i);
    assert_int_equal(r(QRAY, 4), OVR_N);
}

/* The engine's node and leaf caches (docs/rt.md "Offload engine"): within a job, a ray
 * through nodes and leaves that an earlier ray read takes them from the caches and reads
 * nothing of the BVH again, only its own ray record. Counted on the mapped read path
 * (every record read is one map call): a job of two identical rays makes exactly one
 * read more than the job of the first ray alone. Scenes: two nodes and two leaves, all
 * visited (the ray at (3.5, 3.5) passes through both leaf boxes and misses both
 * triangles), and a Node8 root, both of whose tiles are cached. A store inside the address
 * span of the records cached so far starts a new cache generation (rt_job.c), so the queues
 * the job writes lie outside that span. */
static void test_engine_caches(void **st)
{
    (void)st;
    for (unsigned n8 = 0; n8 < 2; n8++) {
        unsigned reads[3];
        for (uint32_t n = 1; n <= 2; n++) {
            setup(8);
            if (n8) { /* B and the hit queue above the Node8 (see above) */
                scene_node8();
                tri32(BVH8 + 0x100, TRI_B, 0);
                trirange(BVH8 + 0x90, 0, 1, BVH8 + 0x100);
                queue(QHIT, 0, 0, 8, BIG_HITS);
            } else {
                scene_two_levels();
            }
            for (uint32_t i = 0; i < n; i++)
                ray32(i, n8 ? 1.0f : 3.5f, n8 ? 2.0f : 3.5f, 0, 1, 0, 100);
            w(QRAY + 4, 4, n);
            rt_job_desc jd;
            desc(&jd, n8 ? RT_OPT_NODE8 : 0);
            if (n8) jd.bvh_base = BVH8;
            F.maps = 0;
            rt_job_result res = run_ok(&jd, CAP_T_FP32, &MEM_MAPPED);
            assert_int_equal(res.hits, n8 ? n : 0);
            assert_int_equal(res.misses, n8 ? 0 : n);
            reads[n] = F.maps;
        }
        /* the first ray: its record, the nodes, TriRanges and triangles it visits */
        assert_true(reads[1] >= (n8 ? 4u : 7u));
        assert_int_equal(reads[2] - reads[1], 1);
    }
}

/* ---- a chain of node tiles larger than the engine's first node cache ----
 * CHAIN_N nodes at CHAIN_BASE, node k's only child (box [0,4]^3) is node k + 1, the last
 * node's a leaf with no triangle; then the queues and CHAIN_RAYS identical rays from
 * (1, 1, -1) along +z, which visit every node and miss. A memory of its own (the scene
 * is 384 KiB); its map counts the node tiles each ray reads (ray k's reads follow the
 * read of its record). */
#define CHAIN_BASE 0x1000000u
#define CHAIN_N    6144u
#define CHAIN_RAYS 8u
#define CHAIN_TR   (CHAIN_BASE + 64u * CHAIN_N)
#define CHAIN_QRAY (CHAIN_TR + 0x100u)
#define CHAIN_QHIT (CHAIN_TR + 0x120u)
#define CHAIN_QMIS (CHAIN_TR + 0x140u)
#define CHAIN_RAY0 (CHAIN_TR + 0x200u)
#define CHAIN_MISS (CHAIN_TR + 0x400u)
#define CHAIN_HITS (CHAIN_TR + 0x500u)
#define CHAIN_END  (CHAIN_TR + 0x1000u)
static struct {
    uint8_t ram[CHAIN_END - CHAIN_BASE];
    unsigned ray, node_reads[CHAIN_RAYS];
} C;

static const uint8_t *chain_map(void *ctx, uint64_t a, unsigned n)
{
    (void)ctx;
    if (a < CHAIN_BASE || a + n > CHAIN_END) return NULL;
    if (a >= CHAIN_RAY0 && a < CHAIN_RAY0 + 32u * CHAIN_RAYS)
        C.ray = (unsigned)(a - CHAIN_RAY0) / 32;
    if (a < CHAIN_TR) C.node_reads[C.ray]++;
    return &C.ram[a - CHAIN_BASE];
}
static bool chain_load(void *ctx, uint64_t a, unsigned n, uint64_t *v)
{
    const uint8_t *p = chain_map(ctx, a, n);
    if (!p) return false;
    *v = le_bytes_get(p, n);
    return true;
}
static bool chain_store(void *ctx, uint64_t a, unsigned n, uint64_t v)
{
    (void)ctx;
    if (a < CHAIN_BASE || a + n > CHAIN_END) return false;
    le_bytes_put(&C.ram[a - CHAIN_BASE], n, v);
    return true;
}
static void cw(uint64_t a, unsigned n, uint64_t v)
{
    assert_true(chain_store(NULL, a, n, v));
}

/* The node cache grows to hold a BVH larger than it (docs/rt.md "Offload engine", errata
 * P-341): rays through the chain read no more node tiles than the ray before them, none at
 * all from some ray on, and the first ray reads each tile once. A cache that did not grow
 * would read thousands of tiles per ray; one that lost or misplaced its entries when it
 * grew would read more tiles after the growth than before it. */
static void test_cache_grows(void **st)
{
    (void)st;
    memset(&C, 0, sizeof C);
    for (uint32_t k = 0; k < CHAIN_N; k++) {
        uint64_t a = CHAIN_BASE + 64u * k;
        cw(a + 6, 2, 0x4400); /* child 0: lo (0, 0, 0), hi (4, 4, 4) */
        cw(a + 8, 2, 0x4400);
        cw(a + 10, 2, 0x4400);
        cw(a + 48, 3, 4u * (k + 1)); /* node k + 1 or the TriRange, 16-byte units */
        cw(a + 60, 4, k + 1 < CHAIN_N ? 1 : 2);
    }
    cw(CHAIN_TR + 8, 8, CHAIN_BASE); /* TriRange {first 0, count 0} */
    for (unsigned i = 0; i < CHAIN_RAYS; i++) {
        const float v[8] = {1, 1, -1, 0, 0, 1, 0, 100};
        for (unsigned k = 0; k < 8; k++)
            cw(CHAIN_RAY0 + 32 * i + 4 * k, 4, f32(v[k]));
    }
    cw(CHAIN_QRAY + 4, 4, CHAIN_RAYS); /* HEAD 0, TAIL 8, CAP 16 */
    cw(CHAIN_QRAY + 8, 4, 16);
    cw(CHAIN_QRAY + 16, 8, CHAIN_RAY0);
    cw(CHAIN_QHIT + 8, 4, 16);
    cw(CHAIN_QHIT + 16, 8, CHAIN_HITS);
    cw(CHAIN_QMIS + 8, 4, 16);
    cw(CHAIN_QMIS + 16, 8, CHAIN_MISS);
    rt_job_desc jd;
    memset(&jd, 0, sizeof jd);
    jd.bvh_base = CHAIN_BASE;
    jd.rayq = CHAIN_QRAY;
    jd.hitq = CHAIN_QHIT;
    jd.missq = CHAIN_QMIS;
    const rt_job_mem m = {NULL, chain_load, chain_store, chain_map, NULL, NULL, NULL, NULL};
    rt_job_result res = run_ok(&jd, CAP_T_FP32, &m);
    assert_int_equal(res.misses, CHAIN_RAYS);
    assert_int_equal(C.node_reads[0], CHAIN_N);
    for (unsigned i = 1; i < CHAIN_RAYS; i++)
        if (C.node_reads[i] > C.node_reads[i - 1])
            fail_msg("ray %u read %u node tiles, ray %u %u", i, C.node_reads[i], i - 1,
                     C.node_reads[i - 1]);
    assert_int_equal(C.node_reads[CHAIN_RAYS - 1], 0);
}

/* The span of cached records ends where the last one ends: a job store right after it does
 * not start a new cache generation (rt_job.c store_bytes). Rays at (10, 10) miss the root's
 * children, so only the root tile (64 bytes at BVH) is read and cached, and the miss
 * entries go right after it (at N1, unused here). A job of two such rays maps the root
 * once and each ray record once: one map more than the job of one ray. */
static void test_cache_span_end(void **st)
{
    (void)st;
    unsigned reads[3];
    for (uint32_t n = 1; n <= 2; n++) {
        setup(8);
        scene_two_levels();
        queue(QMISS, 0, 0, 8, BVH + 64);
        for (uint32_t i = 0; i < n; i++)
            ray32(i, 10, 10, 0, 1, 0, 100);
        w(QRAY + 4, 4, n);
        rt_job_desc jd;
        desc(&jd, 0);
        F.maps = 0;
        rt_job_result res = run_ok(&jd, CAP_T_FP32, &MEM_MAPPED);
        assert_int_equal(res.misses, n);
        assert_int_equal(r(BVH + 64 + 4 * (n - 1), 4), n - 1);
        reads[n] = F.maps;
    }
    assert_int_equal(reads[2] - reads[1], 1);
}

/* Two hits at the same t with the same index (errata P-343): two leaves whose TriRanges
 * both name triangle 0, at different bases, hit at t 5. The closest-hit rule (ties to the
 * lower index) does not separate them; the first found in traversal order is kept. The
 * two leaf boxes are equal, so child 0 is visited first (ties to the lower child). At
 * TRIS triangle A: u = x/4, v = y/4; at TRIS2 A with v1 and v2 swapped: u = y/4, v = x/4.
 * The ray at (1, 2) gets (1/4, 2/4) from A and (2/4, 1/4) from the other: whichever base
 * child 0 names gives the result. Through plain loads and through the leaf cache.
 * REQ: RT-036 RT-065 */
static void test_tie_same_index(void **st)
{
    (void)st;
    static const float TRI_A_SWAPPED[9] = {0, 0, 5, 0, 4, 5, 4, 0, 5};
    for (unsigned first_swapped = 0; first_swapped < 2; first_swapped++) {
        for (unsigned mapped = 0; mapped < 2; mapped++) {
            setup(8);
            tri32(TRIS2, TRI_A_SWAPPED, 0);
            child root[2] = {{{0, 0, 5}, {4, 4, 5}, 8, 2}, {{0, 0, 5}, {4, 4, 5}, 9, 2}};
            node4(BVH, root, 2);
            trirange(TR_A, 0, 1, first_swapped ? TRIS2 : TRIS);
            trirange(TR_B, 0, 1, first_swapped ? TRIS : TRIS2);
            one_ray();
            rt_job_desc jd;
            desc(&jd, 0);
            rt_job_result res = run_ok(&jd, CAP_T_FP32, mapped ? &MEM_MAPPED : &MEM);
            assert_int_equal(res.hits, 1);
            if (first_swapped)
                check_hit(0, 0, 0, f32(5.0f), f32(0.5f), f32(0.25f));
            else
                check_hit(0, 0, 0, f32(5.0f), f32(0.25f), f32(0.5f));
        }
    }
}

/* Equal t, lower index found later (docs/errata.md Q-74: ties go to the lower triangle
 * index): two leaves with equal boxes at z 5, child 0 naming B moved up to z 5 (index 1),
 * child 1 naming A (index 0). Child 0 is visited first (ties to the lower child) and hits
 * at t 5; child 1 waits on the stack with its box starting at t 5, the closest hit so far,
 * so the pop must still visit it (a box is culled only when it starts beyond the hit), and
 * A wins. Ray 0 has no zero direction component (the traversal's fast path), ray 1 runs
 * along +z (the general path). Through plain loads and through the leaf cache.
 * REQ: RT-117 RT-036 */
static void test_tie_lower_index_popped(void **st)
{
    (void)st;
    static const float o[3] = {1, 2, 0}, d0[3] = {0.125f, 0.0625f, 1}, d1[3] = {0, 0, 1};
    for (unsigned mapped = 0; mapped < 2; mapped++) {
        setup(8);
        tri32(TRIS + 36, TRI_B, 2); /* B at z 5 */
        child root[2] = {{{0, 0, 5}, {4, 4, 5}, 9, 2}, {{0, 0, 5}, {4, 4, 5}, 8, 2}};
        node4(BVH, root, 2);
        trirange(TR_A, 0, 1, TRIS);
        trirange(TR_B, 1, 1, TRIS);
        ray32_dir(0, o, d0);
        ray32_dir(1, o, d1);
        w(QRAY + 4, 4, 2);
        rt_job_desc jd;
        desc(&jd, 0);
        rt_job_result res = run_ok(&jd, CAP_T_FP32, mapped ? &MEM_MAPPED : &MEM);
        assert_int_equal(res.hits, 2);
        /* A: u = x / 4, v = y / 4 at (1.625, 2.3125) and at (1, 2) */
        check_hit(0, 0, 0, f32(5.0f), f32(0.40625f), f32(0.578125f));
        check_hit(1, 1, 0, f32(5.0f), f32(0.25f), f32(0.5f));
    }
}

/* The traversal stack (RT_JOB_STACK_DEPTH entries, docs/rt.md job step 5): a chain of n
 * nodes, each with k hit children: the next node (box from z 0, nearer: visited next) and
 * k - 1 empty leaves (boxes at z 5: pushed), so node i is reached with (k - 1) * i entries
 * on the stack. A node's hit children must all fit, the visited one counted too: the first
 * node i with (k - 1) * i + k > 256 faults with RT_JOB_STACK at its address (k = 2: node
 * 255; k = 3: node 127; k = 4: node 85, where node 84 fills the stack exactly); a chain one
 * node shorter (its last node ending in another empty leaf) completes with a miss.
 * REQ: RT-117 RT-035 */
#define CHAIN 0x14000u /* 256 node tiles, then the empty TriRange */
static void test_stack_depth(void **st)
{
    (void)st;
    const uint32_t empty = (CHAIN + 64 * 256 - BVH) / 16;
    for (unsigned k = 2; k <= 4; k++) {
        const unsigned faulting = (RT_JOB_STACK_DEPTH - k) / (k - 1) + 1;
        for (unsigned n = faulting; n <= faulting + 1; n++) {
            setup(8);
            child root[1] = {{{0, 0, 0}, {4, 4, 100}, (CHAIN - BVH) / 16, 1}};
            node4(BVH, root, 1);
            for (unsigned i = 0; i < n; i++) {
                bool last = i + 1 == n;
                uint32_t next = last ? empty : (CHAIN + 64 * (i + 1) - BVH) / 16;
                child c[4] = {{{0, 0, 5}, {4, 4, 5}, empty, 2},
                              {{0, 0, 0}, {4, 4, 100}, next, last ? 2u : 1u},
                              {{0, 0, 5}, {4, 4, 5}, empty, 2},
                              {{0, 0, 5}, {4, 4, 5}, empty, 2}};
                node4(CHAIN + 64 * i, c, k);
            }
            trirange(CHAIN + 64 * 256, 0, 0, TRIS);
            one_ray();
            rt_job_desc jd;
            desc(&jd, 0);
            for (unsigned mapped = 0; mapped < 2; mapped++) {
                w(QRAY, 4, 0);
                w(QMISS + 4, 4, 0);
                rt_job_result res = run_job(&jd, CAP_T_FP32, mapped ? &MEM_MAPPED : &MEM);
                if (n == faulting) {
                    assert_int_equal(res.status, RT_JOB_OK);
                    assert_int_equal(res.misses, 1);
                } else {
                    assert_int_equal(res.status, RT_JOB_STACK);
                    assert_int_equal(res.fault_addr, CHAIN + 64 * faulting);
                }
            }
        }
    }
}

/* The visit limit (RT_JOB_MAX_VISITS, 65536 visits per ray, docs/rt.md job step 5): a
 * chain of 15 nodes, each with two hit children that are both the next node (the last
 * one's: an empty leaf), under a root whose one child is the chain's first node, makes a ray
 * visit 1 + (1 + 2 + ... + 2^15) = 65536 entries and complete with a miss; a second root
 * child, an empty leaf farther along the ray (pushed, so popped last), is visit 65537 and
 * faults with RT_JOB_STACK at its TriRange: visited, or (when the chain's leaves hold
 * triangle B, hit at t 3, before it) culled at its pop, which counts as a visit too. Case
 * 3: the root's first two children both start at the chain's second node (2 x 32767
 * entries), so that the culled far leaf is visit 65536 exactly, within the limit: the ray
 * completes with its hit. For a ray along +z (the general expansion of the traversal) and
 * a slanted one (the fast expansion), loads and map.
 * REQ: RT-117 RT-035 */
static void test_visit_limit(void **st)
{
    (void)st;
    const uint64_t empty = CHAIN + 64 * 256, last_leaf = empty + 16;
    const uint32_t far_leaf = (uint32_t)((last_leaf - BVH) / 16);
    for (unsigned extra = 0; extra < 4; extra++)
        for (unsigned slanted = 0; slanted < 2; slanted++) {
            setup(8);
            child root[3] = {{{0, 0, 0}, {4, 4, 100}, (CHAIN - BVH) / 16, 1},
                             {{0, 0, 5}, {4, 4, 5}, far_leaf, 2}};
            if (extra == 3) {
                root[0].index = (CHAIN + 64 - BVH) / 16;
                root[2] = root[1];
                root[1] = root[0];
            }
            node4(BVH, root, extra == 3 ? 3 : extra ? 2 : 1);
            for (unsigned i = 0; i < 15; i++) {
                bool last = i == 14;
                uint32_t next = (uint32_t)(((last ? empty : CHAIN + 64 * (i + 1))) - BVH) / 16;
                child c[2] = {{{0, 0, 0}, {4, 4, 100}, next, last ? 2u : 1u},
                              {{0, 0, 0}, {4, 4, 100}, next, last ? 2u : 1u}};
                node4(CHAIN + 64 * i, c, 2);
            }
            trirange(empty, 1, extra >= 2, TRIS);
            trirange(last_leaf, 0, 0, TRIS);
            const float o[3] = {1, 2, 0}, d[3] = {slanted ? 0.01f : 0, slanted ? 0.01f : 0, 1};
            ray32_dir(0, o, d);
            rt_job_desc jd;
            desc(&jd, 0);
            for (unsigned mapped = 0; mapped < 2; mapped++) {
                w(QRAY, 4, 0);
                w(QRAY + 4, 4, 1);
                w(QHIT + 4, 4, 0);
                w(QMISS + 4, 4, 0);
                rt_job_result res = run_job(&jd, CAP_T_FP32, mapped ? &MEM_MAPPED : &MEM);
                if (!extra) {
                    assert_int_equal(res.status, RT_JOB_OK);
                    assert_int_equal(res.misses, 1);
                } else if (extra == 3) {
                    assert_int_equal(res.status, RT_JOB_OK);
                    assert_int_equal(res.hits, 1);
                } else {
                    assert_int_equal(res.status, RT_JOB_STACK);
                    assert_int_equal(res.fault_addr, last_leaf);
                }
            }
        }
}

/* A job's store over a TriRange record it has read (and cached) is seen by its later rays,
 * as in a job without caches (errata P-341). The leaf's TriRange lies above the node and
 * the triangles, where the hit queue's first entry lands: ray 0 hits A (t 5, u 1/4, v 2/4)
 * and its entry {ray 0, prim 0, ...} rewrites the record's first and count to 0, so ray 1,
 * the same ray, reads an empty leaf and misses. Through the plain loads (no leaf cache)
 * and through the map (cached leaf) alike. REQ: RT-036 */
#define TR_HIGH 0x10300u /* index 0x30 */
static void test_cache_trirange_overwritten(void **st)
{
    (void)st;
    for (unsigned mapped = 0; mapped < 2; mapped++) {
        setup(8);
        child root[1] = {{{0, 0, 5}, {4, 4, 5}, (TR_HIGH - BVH) / 16, 2}};
        node4(BVH, root, 1);
        trirange(TR_HIGH, 0, 1, TRIS);
        queue(QHIT, 0, 0, 8, TR_HIGH);
        for (unsigned i = 0; i < 2; i++)
            ray32(i, 1, 2, 0, 1, 0, 100);
        w(QRAY + 4, 4, 2);
        rt_job_desc jd;
        desc(&jd, 0);
        rt_job_result res = run_ok(&jd, CAP_T_FP32, mapped ? &MEM_MAPPED : &MEM);
        assert_int_equal(res.hits, 1);
        assert_int_equal(res.misses, 1);
        assert_int_equal(r(TR_HIGH, 4), 0);     /* ray 0 = first */
        assert_int_equal(r(TR_HIGH + 4, 4), 0); /* prim 0 = count */
        assert_int_equal(r(TR_HIGH + 8, 4), f32(5.0f));
        assert_int_equal(r(TR_HIGH + 12, 4), f32(0.25f));
        assert_int_equal(r(TR_HIGH + 16, 4), f32(0.5f));
        assert_int_equal(r(MISSES, 4), 1);
    }
}

/* A tracer far ahead of the append keeps every block it traces: past the 16 whose results
 * it holds in its own buffer, the others' wait in their ring slots (rt_job.c "split
 * jobs"). test_split_direct's case 9 (the thread that traces ray 0 held until the other
 * has reached block 18, so that blocks 17 and 18 are kept in their ring slots) with the
 * hit queue made to fill at the first hit of block 17 after ray 560: that block, kept in
 * its ring slot, must go through the ring (its tracer flags it there without a copy) and
 * the job end at that ray, with the bytes and result of one thread. REQ: RT-044 */
static void test_split_kept_in_ring(void **st)
{
    (void)st;
    static uint8_t ram1[RAM_SIZE];
    const rt_job_mem direct = {&F, f_load, f_store, f_map, NULL, f_map_w, NULL, NULL};
    const rt_job_mem held = {&F, f_load, f_store, held_map, NULL, f_map_w, NULL, NULL};
    /* The hits before ray 560 on one thread (the hit queue never full). */
    rt_job_desc jd;
    cap_snap s;
    direct_job(9, &jd, &s);
    rt_job_result all = run_engine_mem(&jd, &s, 1, &direct);
    assert_int_equal(all.status, RT_JOB_OK);
    uint32_t before = 0, stop = UINT32_MAX;
    for (uint32_t k = 0; k < all.hits; k++) {
        uint32_t ray = (uint32_t)r(DJ_HITS + 24 * k, 4);
        if (ray < 560)
            before++;
        else if (stop == UINT32_MAX)
            stop = ray;
    }
    assert_true(stop >= 560 && stop < 18 * 32); /* in block 17 */
    direct_job(9, &jd, &s);
    queue(QRAY + 32, 0, 0, before + 1, DJ_HITS); /* room for `before` hits */
    rt_job_result one = run_engine_mem(&jd, &s, 1, &direct);
    assert_int_equal(one.status, RT_JOB_QUEUE_FULL);
    assert_int_equal(one.rays, stop);
    assert_int_equal(one.hits, before);
    memcpy(ram1, F.ram, RAM_SIZE);
    direct_job(9, &jd, &s);
    queue(QRAY + 32, 0, 0, before + 1, DJ_HITS);
    DJ.node = DJ_N2;
    DJ.ahead = false;
    rt_job_result two = run_engine_mem(&jd, &s, 2, &held);
    assert_true(DJ.ahead);
    assert_rt_result_equal(&two, &one);
    for (uint32_t a = 0; a < RAM_SIZE; a++)
        if (F.ram[a] != ram1[a])
            fail_msg("byte 0x%x is 0x%02x on two threads, 0x%02x on one", (unsigned)(RAM_BASE + a),
                     F.ram[a], ram1[a]);
}

/* rt_job_engine_split_stats: how the last job was shared. test_split_direct's jobs of 640
 * rays (20 blocks) on a 2-thread engine: case 0 over memory written directly, every block
 * placed (none through the ring), at least the first a tracer traced kept in its buffer,
 * the rays of the two threads summing to 640; the same
 * without map_w, every block through the ring; case 9 (a thread held at ray 0 until the
 * other reached block 18), at least blocks 17 and 18 kept in their ring slots; then a job
 * too short to split (100 rays, fewer than 4 blocks) leaves every count at zero. */
static void split_stats_of(unsigned c, const rt_job_mem *m, rt_job_engine *e,
                           rt_job_split_stats *st)
{
    rt_job_desc jd;
    cap_snap s;
    direct_job(c, &jd, &s);
    DJ.node = DJ_N2;
    DJ.ahead = false;
    rt_job_result res;
    rt_job_run_ex(&jd, &s, m, e, &res);
    assert_int_equal(res.status, RT_JOB_OK);
    assert_int_equal(res.rays, DJ_N);
    rt_job_engine_split_stats(e, st);
    assert_int_equal(st->blocks, DJ_N / 32);
    assert_int_equal(st->rays_caller + st->rays_workers, DJ_N);
    assert_true(st->wait_ns < UINT64_C(10000000000) && st->end_ns < UINT64_C(10000000000));
}

static void test_split_stats(void **st)
{
    (void)st;
    const rt_job_mem direct = {&F, f_load, f_store, f_map, NULL, f_map_w, NULL, NULL};
    const rt_job_mem held = {&F, f_load, f_store, held_map, NULL, f_map_w, NULL, NULL};
    rt_job_engine *e = rt_job_engine_new(2);
    assert_non_null(e);
    rt_job_split_stats sp;
    split_stats_of(0, &direct, e, &sp);
    assert_int_equal(sp.ring_blocks, 0);
    assert_true(sp.kept_in_ring < sp.blocks); /* a tracer's first block goes to its buffer */
    split_stats_of(0, &MEM_MAPPED, e, &sp);
    assert_int_equal(sp.ring_blocks, DJ_N / 32);
    assert_int_equal(sp.kept_in_ring, 0);
    split_stats_of(9, &held, e, &sp);
    assert_true(DJ.ahead);
    assert_true(sp.kept_in_ring >= 2);
    assert_int_equal(sp.ring_blocks, 0);
    setup(8);
    scene_two_levels();
    for (uint32_t i = 0; i < 100; i++)
        big_ray(i, 10.0f, 10.0f);
    big_queues(100, BIG_HITS);
    rt_job_desc jd;
    desc(&jd, 0);
    cap_snap s;
    snap(&s, CAP_T_FP32);
    rt_job_result res;
    rt_job_run_ex(&jd, &s, &MEM_MAPPED, e, &res);
    assert_int_equal(res.rays, 100);
    rt_job_engine_split_stats(e, &sp);
    const rt_job_split_stats zero = {0};
    assert_memory_equal(&sp, &zero, sizeof sp);
    rt_job_engine_free(e);
}

/* The charge of a leaf found in the engine's leaf cache (rt-soup: the cached leaf's visit
 * charges only where a charge callback exists, as spend does): two copies of
 * test_job_charge's ray in one job over mapped memory, so the second finds leaf B cached;
 * each ray charges its 5 units and hits B. A work-charging rule (hardening), not an RT
 * requirement. */
static void test_charge_cached_leaf(void **st)
{
    (void)st;
    setup(8);
    scene_two_levels();
    ray32(0, 1, 2, 0, 1, 0, 100);
    ray32(1, 1, 2, 0, 1, 0, 100);
    w(QRAY + 4, 4, 2);
    rt_job_desc jd;
    desc(&jd, 0);
    charged_units = 0;
    charge_limit = UINT64_MAX;
    const rt_job_mem m = {&F, f_load, f_store, f_map, f_charge, NULL, NULL, NULL};
    rt_job_result res = run_job(&jd, CAP_T_FP32, &m);
    assert_int_equal(res.status, RT_JOB_OK);
    assert_int_equal(res.rays, 2);
    assert_int_equal(charged_units, 10);
    check_hit(0, 0, 1, f32(3.0f), f32(0.5f), f32(0.25f));
    check_hit(1, 1, 1, f32(3.0f), f32(0.5f), f32(0.25f));
}

/* rt_job_engine_split_stats over a job of two rounds: test_split_ring_reuse's 2112 rays
 * (66 blocks of 32) with the ring kept at 64 blocks (its growth made to fail), over memory
 * written directly: the counts of the second round add to the first's, each counted
 * once (the rays of both threads sum to 2112, the blocks to 66), and every miss entry is
 * there in ray order. */
static void test_split_stats_rounds(void **st)
{
    (void)st;
    setup(8);
    scene_two_levels();
    for (uint32_t i = 0; i < OVR_N; i++) {
        const uint16_t ray[8] = {h16(5), h16(5), h16(0), h16(0), h16(0), h16(1), h16(0), h16(100)};
        for (unsigned k = 0; k < 8; k++)
            w(OVR_RAYS + 16 * i + 2 * k, 2, ray[k]);
    }
    queue(QRAY, 0, OVR_N, OVR_N + 1, OVR_RAYS);
    queue(QMISS, 0, 0, OVR_N + 1, OVR_MISS);
    rt_job_desc jd;
    desc(&jd, 0);
    cap_snap s;
    snap(&s, CAP_T_FP16);
    const rt_job_mem direct = {&F, f_load, f_store, f_map, NULL, f_map_w, NULL, NULL};
    rt_job_engine *e = rt_job_engine_new(2);
    assert_non_null(e);
    rt_job_result res;
    fail_lo = 40000; /* the 66-block result array and lists */
    fail_hi = 60000;
    rt_job_run_ex(&jd, &s, &direct, e, &res);
    fail_lo = SIZE_MAX;
    fail_hi = 0;
    rt_job_split_stats sp;
    rt_job_engine_split_stats(e, &sp);
    rt_job_engine_free(e);
    assert_int_equal(res.status, RT_JOB_OK);
    assert_int_equal(res.misses, OVR_N);
    for (uint32_t i = 0; i < OVR_N; i++)
        assert_int_equal(r(OVR_MISS + 4 * i, 4), i);
    assert_int_equal(sp.block_rays, 32);
    assert_int_equal(sp.blocks, OVR_N / 32);
    assert_int_equal(sp.rays_caller + sp.rays_workers, OVR_N);
    assert_int_equal(sp.ring_blocks, 0);
    assert_true(sp.kept_in_ring <= sp.blocks);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_closest_hit),
        cmocka_unit_test(test_one_zero_direction),
        cmocka_unit_test(test_rays_in_place),
        cmocka_unit_test(test_traversal_order),
        cmocka_unit_test(test_trirange_bounds),
        cmocka_unit_test(test_trirange_index_wrap),
        cmocka_unit_test(test_any_hit_and_cull),
        cmocka_unit_test(test_tri_buf),
        cmocka_unit_test(test_wraparound),
        cmocka_unit_test(test_full_queues),
        cmocka_unit_test(test_fp16),
        cmocka_unit_test(test_strict_dom),
        cmocka_unit_test(test_desc_word_fault),
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_tri_index_wrap),
        cmocka_unit_test(test_node8),
        cmocka_unit_test(test_node8_cached),
        cmocka_unit_test(test_engine_caches),
        cmocka_unit_test(test_cache_span_end),
        cmocka_unit_test(test_split_ring_frees),
        cmocka_unit_test(test_split_ring_reuse),
        cmocka_unit_test(test_cache_trirange_overwritten),
        cmocka_unit_test(test_tie_same_index),
        cmocka_unit_test(test_tie_lower_index_popped),
        cmocka_unit_test(test_stack_depth),
        cmocka_unit_test(test_visit_limit),
        cmocka_unit_test(test_fof_stop_kinds),
        cmocka_unit_test(test_eps),
        cmocka_unit_test(test_nan_range),
        cmocka_unit_test(test_decode),
        cmocka_unit_test(test_unsup_fmt),
        cmocka_unit_test(test_predicated),
        cmocka_unit_test(test_svmem_fetches),
        cmocka_unit_test(test_node_kept_after_zero_fill),
        cmocka_unit_test(test_absent_xmem_feature),
        cmocka_unit_test(test_split_engine_rules),
        cmocka_unit_test(test_split_matches_one_thread),
        cmocka_unit_test(test_split_jobs_complete),
        cmocka_unit_test(test_split_rays_overwritten),
        cmocka_unit_test(test_split_both_threads_trace),
        cmocka_unit_test(test_split_shared_cache),
        cmocka_unit_test(test_cache_grows),
        cmocka_unit_test(test_split_ring_wrap),
        cmocka_unit_test(test_split_direct),
        cmocka_unit_test(test_split_kept_in_ring),
        cmocka_unit_test(test_split_stats),
        cmocka_unit_test(test_split_stats_rounds),
        cmocka_unit_test(test_job_charge),
        cmocka_unit_test(test_charge_after_hit),
        cmocka_unit_test(test_charge_cached_leaf),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
