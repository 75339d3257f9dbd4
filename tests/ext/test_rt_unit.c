/* test_rt_unit.c — the RT unit (src/ext/rt/rt_unit.c) on a real hart: the RT CSRs
 * 0x810-0x81C and `rt.bbox` / `rt.tri`, driven by instruction words encoded here by hand
 * (I-type: imm 31:20, rs1 19:15, funct3 14:12, rd 11:7, opcode 6:0; rt.bbox = CUSTOM-0
 * 0x0B funct3 110, rt.tri funct3 111, errata Q-78). Records are written byte by byte:
 * binary16 values are encoded by hand (listed below), binary32 values are exact float
 * constants. Every expected result is worked out in the comment next to it from the
 * geometry (slab distances, barycentrics of axis-aligned right triangles) and the
 * layouts of errata, Q-72 (FMT_BVHNODE4, FMT_TRIRANGE, FMT_RT_BBOX_RES,
 * FMT_RT_TRI_RES), never by calling the kernels. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <math.h>
#include <string.h>

#include <cmocka.h>

#include "hart_rig.h"
#include "heap_in_use.h"
#include "mem.h"
#include "xphmg_csr.h"
#include "xphmg_ext.h"

#define UNMAPPED 0x1000u

/* Data placement (inside RAM). */
#define NODE  (RAM + 0x2000u) /* Node4 / first tile of a Node8: 128-byte aligned */
#define NODE2 (RAM + 0x2040u) /* second tile of the Node8 at NODE */
#define RAY   (RAM + 0x3000u)
#define TRR   (RAM + 0x3100u) /* TriRange */
#define TRIS  (RAM + 0x3200u) /* triangle buffer */

/* CSRs (errata) and CAP CSRs used here. */
enum {
    RTCFG = 0x810,
    RTSTAT,
    RTCAP,
    RTBASE,
    RTQ_RAY,
    RTQ_HIT,
    RTQ_MISS,
    RTCONF2,
    RTCLSDEF,
    RTSPROF,
    RTNODE,
    RTTRI,
    RTUV
};
#define PREC_MODE 0x7D0u
#define PREC_STAT 0x7D2u
#define EXC_EN    0x7D3u
#define EXC_ST    0x7D4u
#define DESCPOL   0x7EDu
#define EVENTS    0x7EEu
#define PMASK1    0x801u
#define PMASK2    0x802u
/* CAP.PREC.MODE images (errata Q-14): APPLY0 31, PET 23:21, EW 20:19, ZMODE 3, SAE 2. */
#define MODE_FP16      0x80080000u /* reset: PET FP16 (0), EW16 */
#define MODE_FP32      0x80300000u /* PET FP32 (1), EW32 (2) */
#define MODE_INT8      0x80600000u /* PET INT8 (3), EW8 */
#define MODE_ZMODE     0x8u
#define MODE_SAE       0x4u
#define STAT_DOWNCAST  (1u << 14)
#define STAT_UNSUP_FMT (1u << 15)

/* binary16 encodings (sign 15, exponent 14:10 bias 15, fraction 9:0). */
#define H_0     0x0000u /* 0 */
#define H_HALF  0x3800u /* 0.5   = 2^-1: exp 14 */
#define H_1     0x3C00u /* 1     = 2^0:  exp 15 */
#define H_2     0x4000u /* 2     = 2^1:  exp 16 */
#define H_3     0x4200u /* 3     = 1.5 * 2^1 */
#define H_4     0x4400u /* 4     = 2^2 */
#define H_5     0x4500u /* 5     = 1.25 * 2^2 */
#define H_M1    0xBC00u /* -1 */
#define H_M2    0xC000u /* -2 */
#define H_100   0x5640u /* 100   = 1.5625 * 2^6: exp 21, fraction 0.5625*1024 = 576 */
#define H_INF   0x7C00u
#define H_TINY  0x0001u /* 2^-24, the smallest subnormal */
#define H_6     0x4600u /* 6 = 1.5 * 2^2 */
#define H_QUART 0x3400u /* 0.25 = 2^-2 */
#define H_EIGHT 0x3000u /* 0.125 = 2^-3 */

/* I-type words. */
static uint32_t itype(uint32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
    return (imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
#define RT_BBOX(rd, rs1, f) itype(f, rs1, 6, rd, 0x0B)
#define RT_TRI(rd, rs1, f)  itype(f, rs1, 7, rd, 0x0B)
enum { A0 = 10, A1 };

/* rt.bbox FLAGS: T_CLAMP 0, PRED_ONLY 1, PACK_HINT 2, W_GUARD 3, PB_IN 6:4, PB_OUT 9:7,
 * NODE8 10. rt.tri: CULL_BACK 0, PRED_ONLY 1, PACK_HINT 2, EPS_CTL 3, banks as bbox. */
#define F_CLAMP  0x1u
#define F_PRED   0x2u
#define F_PACK   0x4u
#define F_EPS    0x8u
#define F_CULL   0x1u
#define PBIN(b)  ((unsigned)(b) << 4)
#define PBOUT(b) ((unsigned)(b) << 7)
#define F_NODE8  0x400u

/* Runs one instruction at a fresh address; returns the number of traps it took (0/1). */
static uint64_t exec1(rig *r, uint32_t w)
{
    uint64_t pc = RAM + 4u * r->next++;
    assert_true(pc < RAM + 0x1000);
    uint8_t *p = mem_ptr(r->m, pc, 4);
    memcpy(p, &w, 4);
    r->h->pc = pc;
    uint64_t before = r->h->traps;
    hart_run(r->h, 1);
    return r->h->traps - before;
}

static void put16(rig *r, uint64_t a, uint16_t v)
{
    uint8_t *p = mem_ptr(r->m, a, 2);
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}
static void put32(rig *r, uint64_t a, uint32_t v)
{
    uint8_t *p = mem_ptr(r->m, a, 4);
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}
static void put64(rig *r, uint64_t a, uint64_t v)
{
    put32(r, a, (uint32_t)v);
    put32(r, a + 4, (uint32_t)(v >> 32));
}
static void putf(rig *r, uint64_t a, float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    put32(r, a, u);
}

static uint64_t csr(rig *r, uint32_t a)
{
    uint64_t v = 0;
    assert_true(hart_csr_read(r->h, a, &v));
    return v;
}
static void wcsr(rig *r, uint32_t a, uint64_t v)
{
    assert_true(hart_csr_write(r->h, a, v));
}

/* A FP32 ray record at a: org, dir, tmin, tmax. */
static void ray32(rig *r, uint64_t a, float ox, float oy, float oz, float dx, float dy, float dz,
                  float tmin, float tmax)
{
    const float f[8] = {ox, oy, oz, dx, dy, dz, tmin, tmax};
    for (int i = 0; i < 8; i++)
        putf(r, a + 4u * i, f[i]);
}
static void ray16(rig *r, uint64_t a, const uint16_t h[8])
{
    for (int i = 0; i < 8; i++)
        put16(r, a + 2u * i, h[i]);
}
/* A 16-bit ray record at RAY, its address in a0. */
static void ray16_a0(rig *r, const uint16_t h[8])
{
    ray16(r, RAY, h);
    r->h->x[A0] = RAY;
}

/* One child of a Node4 tile at t: box at byte 12i (binary16 min.xyz, max.xyz),
 * 24-bit index at bit 24i of bytes 48-59; the flags word (bytes 60-63) is written by
 * the caller. */
static void child(rig *r, uint64_t t, unsigned i, const uint16_t box[6], uint32_t idx)
{
    for (int k = 0; k < 6; k++)
        put16(r, t + 12u * i + 2u * k, box[k]);
    uint8_t *p = mem_ptr(r->m, t + 48 + 3u * i, 3);
    p[0] = (uint8_t)idx;
    p[1] = (uint8_t)(idx >> 8);
    p[2] = (uint8_t)(idx >> 16);
}

/* The node used by the rt.bbox tests, hit by the ray org (0, 0.5, 0.5) dir (1, 0, 0):
 *   child 0: x [3, 4],  y, z [0, 1]  node  -> slab x: tnear 3,   tfar 4
 *   child 1: x [1, 2],  y, z [0, 1]  node  -> tnear 1,   tfar 2
 *   child 2: x [-2,-1], y, z [0, 1]  node  -> tfar -1 < tmin = 0: miss
 *   child 3: x [0.5,5], y, z [0, 1]  leaf  -> tnear 0.5, tfar 5
 * (y and z: dir 0, origin strictly inside the slab: (-inf, +inf).)
 * flags: c0 01, c1 01, c2 01, c3 10 -> 0b10010101 = 0x95.
 * All hit (tmin 0, tmax 100): HITMASK 0b1011 = 0xB; by tnear: child 3 (0.5), 1 (1),
 * 0 (3) -> ORDER = 3 | 1 << 3 | 0 << 6 = 0xB at bit 8 -> 0xB00. */
static void node_a(rig *r, uint64_t t)
{
    const uint16_t c0[6] = {H_3, H_0, H_0, H_4, H_1, H_1};
    const uint16_t c1[6] = {H_1, H_0, H_0, H_2, H_1, H_1};
    const uint16_t c2[6] = {H_M2, H_0, H_0, H_M1, H_1, H_1};
    const uint16_t c3[6] = {H_HALF, H_0, H_0, H_5, H_1, H_1};
    child(r, t, 0, c0, 4);
    child(r, t, 1, c1, 8);
    child(r, t, 2, c2, 12);
    child(r, t, 3, c3, 16);
    put32(r, t + 60, 0x95);
}

/* The set-up the rt.bbox tests share: node_a at NODE in RTNODE, under CAP.PREC.MODE
 * mode (0 keeps the reset state: PET FP16). */
static void up_bbox(rig *r, uint32_t mode)
{
    up(r, NULL);
    if (mode) wcsr(r, PREC_MODE, mode);
    node_a(r, NODE);
    wcsr(r, RTNODE, NODE);
}

/* The FP32 ray of the rt.bbox tests at RAY, in a0: org (0, 0.5, 0.5), dir +x, t [0, 100]. */
static void bbox_ray32(rig *r)
{
    ray32(r, RAY, 0, 0.5f, 0.5f, 1, 0, 0, 0, 100);
    r->h->x[A0] = RAY;
}

/* The RT CSR map (errata: RT CSR n at 0x810 + n; RTCLSDEF and RTSPROF
 * read-only mirrors, Q-64): reset values, writable bits and read-only CSRs.
 * REQ: RT-005 RT-007 RT-008 RT-009 RT-010 RT-016 RT-019 RT-021 */
static void test_csrs(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    /* reset: all 0 except RTCAP = 0x3F (default profile) and RTCLSDEF = DESCPOL = 0x4 */
    for (uint32_t a = RTCFG; a <= RTUV; a++) {
        uint64_t want = a == RTCAP ? 0x3F : a == RTCLSDEF ? 0x4 : 0;
        assert_int_equal(csr(&r, a), want);
    }
    for (uint32_t a = RTCFG; a <= RTUV; a++)
        wcsr(&r, a, ~UINT64_C(0));
    assert_int_equal(csr(&r, RTCFG), 0xFF07);        /* EN, LMEM_ONLY, PACK_HINT_DFLT, EPS 15:8 */
    assert_int_equal(csr(&r, RTSTAT), 0);            /* RO */
    assert_int_equal(csr(&r, RTCAP), 0x3F);          /* RO */
    assert_int_equal(csr(&r, RTCAP), 0x3F);          /* no read-to-clear */
    assert_int_equal(csr(&r, RTBASE), ~UINT64_C(0)); /* 64-bit address */
    assert_int_equal(csr(&r, RTQ_RAY), ~UINT64_C(0));
    assert_int_equal(csr(&r, RTQ_HIT), ~UINT64_C(0));
    assert_int_equal(csr(&r, RTQ_MISS), ~UINT64_C(0));
    assert_int_equal(csr(&r, RTCONF2), 0x3FF);          /* EPS_SCALE 7:0, IMPL_HINT 9:8 */
    assert_int_equal(csr(&r, RTCLSDEF), 0x4);           /* RO mirror */
    assert_int_equal(csr(&r, RTSPROF), 0);              /* reads 0 */
    assert_int_equal(csr(&r, RTNODE), ~UINT64_C(0x3F)); /* 64-byte aligned */
    assert_int_equal(csr(&r, RTTRI), ~UINT64_C(0xF));   /* 16-byte aligned */
    assert_int_equal(csr(&r, RTUV), 0);                 /* RO */
    /* RTCLSDEF follows CAP.XMEM.DESCPOL[5:0]: DEF_CLASS 3, HYB_ENABLE 0, QOS 5 = 0x2B */
    wcsr(&r, DESCPOL, 0x2B);
    assert_int_equal(csr(&r, RTCLSDEF), 0x2B);
    assert_int_equal(csr(&r, RTCLSDEF), 0x2B); /* reads have no side effect */
    /* past RTUV nothing is assigned; the RT CSRs are user-accessible (user RW range) */
    uint64_t v;
    assert_false(hart_csr_read(r.h, 0x81D, &v));
    r.h->priv = PRV_U;
    assert_int_equal(csr(&r, RTCAP), 0x3F);
    wcsr(&r, RTBASE, 0x1234);
    assert_int_equal(csr(&r, RTBASE), 0x1234);
    r.h->priv = PRV_M;
    hart_reset(r.h, RAM);
    assert_int_equal(csr(&r, RTCFG), 0);
    for (uint32_t a = RTCFG; a <= RTUV; a++) { /* every RW RT CSR back to its reset value */
        uint64_t want = a == RTCAP ? 0x3F : a == RTCLSDEF ? 0x4 : 0;
        assert_int_equal(csr(&r, a), want);
    }
    down(&r);
}

/* T_CLAMP leaves a TNEAR equal to tmin as it is, zero's sign included: the ray from
 * x = 5 going -x starts on child 3's hi plane (x = 5), so its slab entry is
 * (5 - 5) * (1 / -1) = -0 under RNE, nearest of the four; with tmin +0 the clamp must
 * report -0 (0x80000000), not tmin's +0. REQ: RT-055 RT-056 */
static void test_bbox_clamp_zero_sign(void **state)
{
    (void)state;
    rig r;
    up_bbox(&r, MODE_FP32);
    bbox_ray32(&r);
    ray32(&r, RAY, 5, 0.5f, 0.5f, -1, 0, 0, 0, 100);
    for (unsigned clamp = 0; clamp < 2; clamp++) {
        assert_int_equal(exec1(&r, RT_BBOX(A1, A0, clamp ? F_CLAMP : 0)), 0);
        assert_int_equal(r.h->x[A1] & 0xF, 0xF);        /* all four children hit */
        assert_int_equal((r.h->x[A1] >> 8) & 7, 3);     /* child 3 nearest */
        assert_int_equal(r.h->x[A1] >> 32, 0x80000000); /* TNEAR -0 */
    }
    down(&r);
}

/* rt.bbox with FP32 records: hit mask, near-to-far order, TNEAR; T_CLAMP; tmax; a miss
 * gives rd = 0; the counter BBOX_ISSUED. REQ: RT-049 RT-050 RT-055 RT-056 RT-033 RT-035
 * REQ: RT-015 RT-079 RT-009 */
static void test_bbox_fp32(void **state)
{
    (void)state;
    rig r;
    up_bbox(&r, MODE_FP32);
    bbox_ray32(&r);
    /* TNEAR = 0.5f = 0x3F000000 */
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x3F00000000000B0BULL);
    assert_int_equal(csr(&r, PREC_STAT) & STAT_DOWNCAST, 0); /* FP32 -> FP32: no downcast */
    /* T_CLAMP with tmin 0.75: child 3 still hit (max(0.5, 0.75) <= min(5, 100)), its
     * reported tnear clamps to 0.75f = 0x3F400000 */
    ray32(&r, RAY, 0, 0.5f, 0.5f, 1, 0, 0, 0.75f, 100);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, F_CLAMP)), 0);
    assert_int_equal(r.h->x[A1], 0x3F40000000000B0BULL);
    /* without T_CLAMP the raw tnear 0.5 is reported */
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x3F00000000000B0BULL);
    /* tmax 2.5: child 0 (tnear 3) is out; HITMASK 0b1010, ORDER 3, 1 */
    ray32(&r, RAY, 0, 0.5f, 0.5f, 1, 0, 0, 0, 2.5f);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x3F00000000000B0AULL);
    /* the ray passes above every box (y = 1.5): rd = 0 */
    ray32(&r, RAY, 0, 1.5f, 0.5f, 1, 0, 0, 0, 100);
    r.h->x[A1] = 0x55;
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0);
    /* reversed ray from x = 10 going -x: child 3 tnear 5 (x = 5), child 0 tnear 6 (x = 4),
     * child 1 tnear 8 (x = 2), child 2 tnear 11 (x = -1): all four hit, HITMASK 0xF,
     * ORDER 3, 0, 1, 2 = 3 | 0 << 3 | 1 << 6 | 2 << 9 = 0x443 -> bits 8+: 0x44300;
     * TNEAR 5.0f = 0x40A00000 */
    ray32(&r, RAY, 10, 0.5f, 0.5f, -1, 0, 0, 0, 100);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x40A000000004430FULL);
    /* Node8 (NODE8 = bit 10): children 4-7 from the second tile. Tile 2 = node_a again:
     * children 4..7 = 0..3 of it. Ray from x = 0: hits 0, 1, 3, 4, 5, 7; by tnear 0.5:
     * child 3 then 7 (tie: lower first), 1: 1, 5; 3: 0, 4 -> ORDER 3 7 1 5 0 4 =
     * 3 | 7<<3 | 1<<6 | 5<<9 | 0<<12 | 4<<15 = 3 + 56 + 64 + 2560 + 0 + 131072 = 0x20A7B */
    node_a(&r, NODE2);
    ray32(&r, RAY, 0, 0.5f, 0.5f, 1, 0, 0, 0, 100);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, F_NODE8)), 0);
    assert_int_equal(r.h->x[A1], 0x3F00000000000000ULL | 0x20A7BULL << 8 | 0xBB);
    /* 7 rt.bbox retired: BBOX_ISSUED (35:8) = 7, TRI_ISSUED 0, no error; reading the
     * counters changes nothing, writing them neither (RO) */
    assert_int_equal(csr(&r, RTSTAT), 7u << 8);
    assert_int_equal(csr(&r, RTSTAT), 7u << 8);
    wcsr(&r, RTSTAT, 0);
    assert_int_equal(csr(&r, RTSTAT), 7u << 8);
    down(&r);
}

/* FP16 records (reset PET FP16): TNEAR in binary16, DOWNCAST_TAKEN; PACK_HINT puts tfar
 * in TNEAR[31:16]; no hit, no conversion, no DOWNCAST. The spec example RT 11.1 as
 * rewritten by Q-73 (flags 0x84: PACK_HINT, PB_OUT = bank 1).
 * FP16 and BF16 records are each read and written in their own format.
 * REQ: RT-040 RT-042 RT-052 RT-105 RT-029 RT-093 RT-048 RT-075 */
static void test_bbox_fp16(void **state)
{
    (void)state;
    rig r;
    up_bbox(&r, 0);
    const uint16_t ray[8] = {H_0, H_HALF, H_HALF, H_1, H_0, H_0, H_0, H_100};
    ray16(&r, RAY + 2, ray); /* 2-byte alignment is enough for FP16 */
    r.h->x[A0] = RAY + 2;
    wcsr(&r, PREC_MODE, MODE_FP16); /* APPLY clears the STAT stickies */
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x0000380000000B0BULL); /* tnear 0.5 = 0x3800 */
    assert_true(csr(&r, PREC_STAT) & STAT_DOWNCAST);
    assert_int_equal(csr(&r, EXC_ST), 0); /* exact: no NX */
    /* RT 11.1: tnear 0x3800 in [15:0], tfar of child 3 = 5 = 0x4500 in [31:16];
     * the predicate (a hit) goes to bank 1 lane 0 */
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0x84)), 0);
    assert_int_equal(r.h->x[A1], 0x4500380000000B0BULL);
    assert_int_equal(csr(&r, PMASK1), 1);
    /* tmax 4: child 0 ([3, 4]) still hit (3 <= min(4, 4)); T_CLAMP with PACK_HINT clamps
     * both reported values: tnear 0.5 stays, tfar 5 becomes 4 (0x4400) */
    const uint16_t ray4[8] = {H_0, H_HALF, H_HALF, H_1, H_0, H_0, H_0, H_4};
    ray16(&r, RAY + 2, ray4);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, F_PACK | F_CLAMP)), 0);
    assert_int_equal(r.h->x[A1], 0x4400380000000B0BULL);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, F_PACK)), 0);
    assert_int_equal(r.h->x[A1], 0x4500380000000B0BULL);
    /* a miss: rd = 0, no conversion, so no DOWNCAST_TAKEN after the APPLY cleared it;
     * bank 1 lane 0 cleared */
    const uint16_t up_ray[8] = {H_0, H_2, H_HALF, H_1, H_0, H_0, H_0, H_100};
    ray16(&r, RAY + 2, up_ray);
    wcsr(&r, PREC_MODE, MODE_FP16);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0x84)), 0);
    assert_int_equal(r.h->x[A1], 0);
    assert_int_equal(csr(&r, PREC_STAT) & STAT_DOWNCAST, 0);
    assert_int_equal(csr(&r, PMASK1), 0);
    /* BF16 effective (PET 2, EW16: MODE 0x80480000): 16-bit records in bfloat16 (the
     * top half of binary32: 0.5 0x3F00, 1 0x3F80, 100 0x42C8); TNEAR 0.5 = 0x3F00 and
     * with PACK_HINT tfar 5 (0x40A0) in [31:16] */
    const uint16_t bray[8] = {0, 0x3F00, 0x3F00, 0x3F80, 0, 0, 0, 0x42C8};
    ray16(&r, RAY + 2, bray);
    wcsr(&r, PREC_MODE, 0x80480000u);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x00003F0000000B0BULL);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, F_PACK)), 0);
    assert_int_equal(r.h->x[A1], 0x40A03F0000000B0BULL);
    assert_true(csr(&r, PREC_STAT) & STAT_DOWNCAST);
    /* FP32 effective: PACK_HINT has no effect */
    wcsr(&r, PREC_MODE, MODE_FP32);
    bbox_ray32(&r);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, F_PACK)), 0);
    assert_int_equal(r.h->x[A1], 0x3F00000000000B0BULL);
    down(&r);
}

/* An overflowing FP16 result: the ray direction 2^-24 gives tnear = 0.5 * 2^24 = 2^23 for
 * child 3 (and more for the others), beyond binary16's 65504 -> +inf with OF|NX. With
 * EXC.EN.OF: trap cause 24, mtval = OF = 0x4, rd kept, stickies OF|NX and DOWNCAST set;
 * with SAE the trap is suppressed and rd = {TNEAR inf = 0x7C00, HITMASK 0xB, ORDER 3 1 0}.
 * REQ: RT-094 RT-095 RT-093 RT-092 */
static void test_bbox_trap(void **state)
{
    (void)state;
    rig r;
    up_bbox(&r, 0);
    const uint16_t ray[8] = {H_0, H_HALF, H_HALF, H_TINY, H_0, H_0, H_0, H_INF};
    ray16_a0(&r, ray);
    r.h->x[A1] = 0x55;
    wcsr(&r, EXC_EN, 0x4);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, PBOUT(1))), 1);
    assert_int_equal(r.h->mcause, 24);
    assert_int_equal(r.h->mtval, 0x4);
    assert_int_equal(r.h->x[A1], 0x55);
    assert_int_equal(csr(&r, EXC_ST), 0x5);
    assert_true(csr(&r, PREC_STAT) & STAT_DOWNCAST);
    assert_int_equal(csr(&r, PMASK1), 0);      /* predicate not written */
    assert_int_equal(csr(&r, RTSTAT) >> 8, 0); /* not counted: it did not retire */
    wcsr(&r, PREC_MODE, MODE_FP16 | MODE_SAE);
    wcsr(&r, EXC_ST, 0x7F);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, PBOUT(1))), 0);
    assert_int_equal(r.h->x[A1], 0x00007C0000000B0BULL);
    assert_int_equal(csr(&r, EXC_ST), 0x5);
    assert_int_equal(csr(&r, PMASK1), 1);
    down(&r);
}

/* Triangles used by the rt.tri tests. With the ray org (0.25, 0.125, 0) dir (0, 0, 1):
 *   tri 0: z = 1, (0,0)(1,0)(0,1) front-facing variant; outside the TriRange (first 1)
 *   tri 1: v0 (0,0,2) v1 (1,0,2) v2 (0,1,2): normal (v1-v0)x(v2-v0) = (0,0,1), same
 *          direction as the ray -> clockwise seen from the origin (back face); hit at
 *          t = 2, point (0.25, 0.125) = (1-u-v) v0 + u v1 + v v2 -> u = 0.25, v = 0.125
 *   tri 2: v0 (0,0,3) v1 (0,1,3) v2 (1,0,3): normal (0,0,-1) -> front face; t = 3,
 *          u = y = 0.125, v = x = 0.25
 *   tri 3: a copy of tri 2 (same t: the tie goes to the lower index 2)
 *   tri 4: tri 0 at z 0.5, just past the range: never tested (it would be the closest) */
static void tri32(rig *r, unsigned i, const float v[9])
{
    for (int k = 0; k < 9; k++)
        putf(r, TRIS + 36u * i + 4u * k, v[k]);
}
static void tris(rig *r)
{
    const float t0[9] = {0, 0, 1, 0, 1, 1, 1, 0, 1};
    const float t1[9] = {0, 0, 2, 1, 0, 2, 0, 1, 2};
    const float t2[9] = {0, 0, 3, 0, 1, 3, 1, 0, 3};
    tri32(r, 0, t0);
    tri32(r, 1, t1);
    tri32(r, 2, t2);
    tri32(r, 3, t2);
    const float t4[9] = {0, 0, 0.5f, 0, 1, 0.5f, 1, 0, 0.5f};
    tri32(r, 4, t4);
    put32(r, TRR, 1);     /* first */
    put32(r, TRR + 4, 3); /* count */
    put64(r, TRR + 8, TRIS);
}

/* The FP32 ray of the rt.tri tests at RAY, in a0: org (0.25, 0.125, 0), dir +z, t [0, 100]. */
static void tri_ray32(rig *r)
{
    ray32(r, RAY, 0.25f, 0.125f, 0, 0, 0, 1, 0, 100);
    r->h->x[A0] = RAY;
}

/* The set-up the rt.tri tests share: PET FP32, the triangles of tris() in RTTRI, the ray
 * of tri_ray32. */
static void up_tri(rig *r)
{
    up(r, NULL);
    wcsr(r, PREC_MODE, MODE_FP32);
    tris(r);
    wcsr(r, RTTRI, TRR);
    tri_ray32(r);
}

/* rt.tri: closest hit in the range, culling, ties, RTUV, epsilon (EPS_CTL and the
 * default), PRED_ONLY, count 0; RTUV and RTSTAT back to 0 at reset (RT-007).
 * REQ: RT-058 RT-059 RT-060 RT-062 RT-014 RT-064 RT-065
 * REQ: RT-036 RT-106 RT-007 */
static void test_tri(void **state)
{
    (void)state;
    rig r;
    up_tri(&r);
    /* closest = tri 1 (t 2): rd = HIT | PRIM 1 << 32 | 2.0f (0x40000000);
     * RTUV = u 0.25f (0x3E800000) | v 0.125f (0x3E000000) << 32 */
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x8000000140000000ULL);
    assert_int_equal(csr(&r, RTUV), 0x3E0000003E800000ULL);
    /* CULL_BACK drops tri 1; tri 2 and 3 tie at t 3 -> PRIM 2; 3.0f = 0x40400000;
     * u 0.125, v 0.25 */
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, F_CULL)), 0);
    assert_int_equal(r.h->x[A1], 0x8000000240400000ULL);
    assert_int_equal(csr(&r, RTUV), 0x3E8000003E000000ULL);
    /* tmax 1.75: nothing in range -> rd 0, RTUV keeps the last hit */
    ray32(&r, RAY, 0.25f, 0.125f, 0, 0, 0, 1, 0, 1.75f);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0);
    assert_int_equal(csr(&r, RTUV), 0x3E8000003E000000ULL);
    /* EPS_CTL with RTCONF2.EPS_SCALE 1: tolerance 2^-1, t range up to 2.25 -> tri 1 */
    wcsr(&r, RTCONF2, 1);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, F_EPS)), 0);
    assert_int_equal(r.h->x[A1], 0x8000000140000000ULL);
    /* without EPS_CTL the default RTCFG.EPS_DFLT (0 = none) applies: miss */
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0);
    /* EPS_DFLT = 2 (15:8): tolerance 0.25, up to 2.0 -> tri 1 again (inclusive) */
    wcsr(&r, RTCFG, 0x200);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x8000000140000000ULL);
    wcsr(&r, RTCFG, 0);
    /* PRED_ONLY: rd kept, RTUV and the predicate (bank 2 lane 0, other lanes kept) set */
    ray32(&r, RAY, 0.25f, 0.125f, 0, 0, 0, 1, 0, 100);
    wcsr(&r, PMASK2, 0xF0);
    r.h->x[A1] = 0x77;
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, F_PRED | F_CULL | PBOUT(2))), 0);
    assert_int_equal(r.h->x[A1], 0x77);
    assert_int_equal(csr(&r, PMASK2), 0xF1);
    assert_int_equal(csr(&r, RTUV), 0x3E8000003E000000ULL);
    /* count 0: a miss, the predicate lane cleared */
    put32(&r, TRR + 4, 0);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, PBOUT(2))), 0);
    assert_int_equal(r.h->x[A1], 0);
    assert_int_equal(csr(&r, PMASK2), 0xF0);
    /* 8 rt.tri retired: TRI_ISSUED (63:36) = 8 */
    assert_int_equal(csr(&r, RTSTAT), UINT64_C(8) << 36);
    /* a reset clears what the hits left: RTUV (set by hardware only) and the counters */
    assert_int_equal(csr(&r, RTUV), 0x3E8000003E000000ULL);
    hart_reset(r.h, RAM);
    assert_int_equal(csr(&r, RTUV), 0);
    assert_int_equal(csr(&r, RTSTAT), 0);
    down(&r);
}

/* FP16 triangles (stride 18) and a FP16 ray: the same geometry as tri 2 at index 1 of a
 * 16-bit buffer. t = 3 (0x4200), u = 0.125 (0x3000), v = 0.25 (0x3400). REQ: RT-040 RT-106 */
static void test_tri_fp16(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    const uint16_t t2[9] = {H_0, H_0, H_3, H_0, H_1, H_3, H_1, H_0, H_3};
    const uint16_t far[9] = {H_0, H_0, H_6, H_0, H_1, H_6, H_1, H_0, H_6};
    for (int k = 0; k < 9; k++) {
        put16(&r, TRIS + 2u * k, far[k]);     /* index 0 at t 6 */
        put16(&r, TRIS + 18 + 2u * k, t2[k]); /* index 1 at t 3 */
    }
    put32(&r, TRR, 0);
    put32(&r, TRR + 4, 2);
    put64(&r, TRR + 8, TRIS);
    wcsr(&r, RTTRI, TRR);
    const uint16_t ray[8] = {H_QUART, H_EIGHT, H_0, H_0, H_0, H_1, H_0, H_100};
    ray16_a0(&r, ray);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x8000000100004200ULL);
    assert_int_equal(csr(&r, RTUV), 0x0000340000003000ULL);
    assert_true(csr(&r, PREC_STAT) & STAT_DOWNCAST);
    down(&r);
}

/* Predicates: PB_IN false = no memory access (the ray address is
 * unmapped and nothing traps), no flags, rd kept (ZMODE 0) or zeroed (ZMODE 1), PB_OUT
 * bank unchanged; PRED_ONLY with ZMODE 1 keeps rd. PB_IN true runs normally.
 * REQ: RT-080 RT-082 RT-083 RT-084 RT-085 RT-086 RT-090 RT-051 RT-088 RT-048 */
static void test_predicates(void **state)
{
    (void)state;
    rig r;
    up_bbox(&r, 0);
    wcsr(&r, PMASK1, 0xFE); /* lane 0 false */
    wcsr(&r, PMASK2, 0xAA);
    r.h->x[A0] = UNMAPPED;
    r.h->x[A1] = 0x55;
    wcsr(&r, PREC_MODE, MODE_FP16);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, PBIN(1) | PBOUT(2))), 0);
    assert_int_equal(r.h->x[A1], 0x55);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, PBIN(1) | PBOUT(2))), 0);
    assert_int_equal(r.h->x[A1], 0x55);
    assert_int_equal(csr(&r, PMASK2), 0xAA);
    assert_int_equal(csr(&r, EVENTS), 0);
    assert_int_equal(csr(&r, PREC_STAT) & (STAT_DOWNCAST | STAT_UNSUP_FMT), 0);
    wcsr(&r, PREC_MODE, MODE_FP16 | MODE_ZMODE);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, PBIN(1) | F_PRED)), 0);
    assert_int_equal(r.h->x[A1], 0x55); /* PRED_ONLY: rd is no destination */
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, PBIN(1))), 0);
    assert_int_equal(r.h->x[A1], 0);
    r.h->x[A1] = 0x55;
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, PBIN(1))), 0);
    assert_int_equal(r.h->x[A1], 0);
    /* lane 0 true: the instruction runs (and faults on the unmapped ray) */
    wcsr(&r, PMASK1, 0x1);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, PBIN(1))), 1);
    assert_int_equal(r.h->mcause, 5);
    /* the predicate-false instructions retired and are counted: 3 bbox, 2 tri */
    assert_int_equal(csr(&r, RTSTAT), (UINT64_C(2) << 36) | (3u << 8));
    down(&r);
}

/* Triangle indices are 32-bit (errata P-342): TriRange first = 0xFFFFFFFF, count 2 tests
 * index 0xFFFFFFFF, then index 0 (not 2^32). The base is chosen so that index 0xFFFFFFFF
 * lies on tri 1 of the buffer (t 2, a hit) while index 0, the base itself, is not
 * memory: the second triangle faults at the base (without the wrap it would be read at
 * TRIS + 72, a valid triangle). With count 1 the hit reports PRIM 0x7FFFFFFF (the 31 bits
 * of 0xFFFFFFFF in rd). REQ: RT-064 */
static void test_tri_index_wrap(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    wcsr(&r, PREC_MODE, MODE_FP32);
    tris(&r);
    uint64_t base = TRIS + 36u - UINT64_C(0xFFFFFFFF) * 36u;
    put32(&r, TRR, 0xFFFFFFFFu);
    put32(&r, TRR + 4, 1);
    put64(&r, TRR + 8, base);
    wcsr(&r, RTTRI, TRR);
    ray32(&r, RAY, 0.25f, 0.125f, 0, 0, 0, 1, 0, 100);
    r.h->x[A0] = RAY;
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0xFFFFFFFF40000000ULL);
    put32(&r, TRR + 4, 2);
    r.h->x[A1] = 0x55;
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 1);
    assert_int_equal(r.h->mcause, 5);
    assert_int_equal(r.h->mtval, base);
    assert_int_equal(r.h->x[A1], 0x55);
    down(&r);
}

/* Memory faults: misaligned -> cause 4, inaccessible -> cause 5, mtval =
 * the first faulting address in field order, nothing written, INV_MISS set.
 * REQ: RT-041 */
static void test_faults(void **state)
{
    (void)state;
    rig r;
    up_bbox(&r, MODE_FP32);
    tris(&r);
    wcsr(&r, RTTRI, TRR);
    r.h->x[A1] = 0x55;
    /* FP32 ray at an address that is only 2-byte aligned */
    r.h->x[A0] = RAY + 2;
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 1);
    assert_int_equal(r.h->mcause, 4);
    assert_int_equal(r.h->mtval, RAY + 2);
    assert_int_equal(csr(&r, EVENTS), 1);
    wcsr(&r, EVENTS, 1);
    /* the ray's last four elements lie past the end of RAM: first faulting = RAM end */
    r.h->x[A0] = RAM + RAM_SIZE - 16;
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 1);
    assert_int_equal(r.h->mcause, 5);
    assert_int_equal(r.h->mtval, RAM + RAM_SIZE);
    assert_int_equal(csr(&r, EVENTS), 1);
    /* Node8 needs 128-byte alignment: RTNODE = NODE + 64 */
    bbox_ray32(&r);
    wcsr(&r, RTNODE, NODE2);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, F_NODE8)), 1);
    assert_int_equal(r.h->mcause, 4);
    assert_int_equal(r.h->mtval, NODE2);
    /* an unmapped node tile */
    wcsr(&r, RTNODE, UNMAPPED);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 1);
    assert_int_equal(r.h->mcause, 5);
    assert_int_equal(r.h->mtval, UNMAPPED);
    /* a triangle buffer base that is 2-byte aligned: triangle first = 1 at base + 36 */
    put64(&r, TRR + 8, TRIS + 2);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 1);
    assert_int_equal(r.h->mcause, 4);
    assert_int_equal(r.h->mtval, TRIS + 2 + 36);
    /* the third triangle of the range (index 3) starts at the end of RAM: its first
     * element faults after indices 1 and 2 were read; nothing is written */
    put64(&r, TRR + 8, RAM + RAM_SIZE - 3 * 36);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 1);
    assert_int_equal(r.h->mcause, 5);
    assert_int_equal(r.h->mtval, RAM + RAM_SIZE);
    assert_int_equal(r.h->x[A1], 0x55);
    assert_int_equal(csr(&r, RTUV), 0);
    assert_int_equal(csr(&r, RTSTAT), 0); /* nothing retired, no RT error code */
    down(&r);
}

/* Illegal encodings (LAST_EC 1) and unsupported features (LAST_EC 2): mcause 2, mtval =
 * the instruction; LAST_EC stays until reset. REQ: RT-024 RT-026 RT-027 RT-028 RT-030 */
static void test_illegal(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    r.h->x[A1] = 0x55;
    /* RSV's svon.fpctl (CUSTOM-0 funct3 101, rc=RTZ sae z) is not implemented (errata
     * P-344): an illegal instruction that is not RT's leaves RTSTAT alone */
    assert_int_equal(exec1(&r, 0x0070500Bu), 1);
    assert_int_equal(r.h->mcause, 2);
    assert_int_equal(r.h->mtval, 0x0070500Bu);
    assert_int_equal(csr(&r, RTSTAT), 0);
    const uint32_t bad[] = {RT_BBOX(A1, A0, 0x800), RT_TRI(A1, A0, 0x400), RT_TRI(A1, A0, 0x800),
                            RT_BBOX(A1, A0, PBIN(4)), RT_TRI(A1, A0, PBOUT(7))};
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(exec1(&r, bad[i]), 1);
        assert_int_equal(r.h->mcause, 2);
        assert_int_equal(r.h->mtval, bad[i]);
        assert_int_equal(csr(&r, RTSTAT), 0x6); /* LAST_EC 1 << 2 | ERR */
    }
    assert_int_equal(r.h->x[A1], 0x55);
    /* a successful instruction does not clear LAST_EC */
    wcsr(&r, PREC_MODE, MODE_FP32);
    node_a(&r, NODE);
    wcsr(&r, RTNODE, NODE);
    bbox_ray32(&r);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(csr(&r, RTSTAT), 0x106);
    hart_reset(r.h, RAM);
    assert_int_equal(csr(&r, RTSTAT), 0);
    down(&r);

    /* RTCAP = NODE4 | WATERTIGHT (0x5): NODE8, PACK_HINT, EPS_CTL are unsupported */
    up(&r, "xphmg-profile: 1\nname: p\ncsrs:\n  rtcap: 0x5\n");
    assert_int_equal(csr(&r, RTCAP), 0x5);
    const uint32_t unsup[] = {RT_BBOX(A1, A0, F_NODE8), RT_BBOX(A1, A0, F_PACK),
                              RT_TRI(A1, A0, F_PACK), RT_TRI(A1, A0, F_EPS)};
    for (unsigned i = 0; i < sizeof unsup / sizeof unsup[0]; i++) {
        assert_int_equal(exec1(&r, unsup[i]), 1);
        assert_int_equal(r.h->mcause, 2);
        assert_int_equal(csr(&r, RTSTAT), 0xA); /* LAST_EC 2 << 2 | ERR */
    }
    /* a reserved bit is reported as illegal (1) even with an unsupported feature */
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, F_NODE8 | 0x800)), 1);
    assert_int_equal(csr(&r, RTSTAT), 0x6);
    down(&r);

    /* Each feature by its own RTCAP bit: without PACK_HINT (0x37) rt.tri's PACK_HINT is
     * unsupported and EPS_CTL is not; without EPS_CTL (0x2F) the other way round. A
     * TriRange of 0 triangles keeps the supported cases to a plain miss. */
    const char *pf[2] = {"xphmg-profile: 1\nname: p\ncsrs:\n  rtcap: 0x37\n",
                         "xphmg-profile: 1\nname: p\ncsrs:\n  rtcap: 0x2F\n"};
    for (int k = 0; k < 2; k++) {
        up(&r, pf[k]);
        wcsr(&r, RTTRI, TRR);
        r.h->x[A0] = RAY;
        assert_int_equal(exec1(&r, RT_TRI(A1, A0, F_PACK)), k == 0);
        assert_int_equal(exec1(&r, RT_TRI(A1, A0, F_EPS)), k == 1);
        assert_int_equal(csr(&r, RTSTAT) & 0xFE, 0xA); /* LAST_EC 2, ERR */
        down(&r);
    }

    /* RTCAP = 0 (no RT): both instructions are unsupported; a 2-bank PMASK makes bank 2
     * illegal */
    up(&r, "xphmg-profile: 1\nname: p\ncsrs:\n  rtcap: 0\n  cap_pmask_cap: 0x13\n");
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 1);
    assert_int_equal(csr(&r, RTSTAT), 0xA);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 1);
    assert_int_equal(csr(&r, RTSTAT), 0xA);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, PBIN(2))), 1);
    assert_int_equal(csr(&r, RTSTAT), 0x6);
    down(&r);

    /* RT with a PMASK of bank 0 alone (PMASK_BANKS_M1 = 0): bank 1 does not exist for
     * either instruction's PB_IN (illegal, as bank 2 above, before any memory is read) */
    up(&r, "xphmg-profile: 1\nname: p\ncsrs:\n  cap_pmask_cap: 0x11\n");
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, PBIN(1))), 1);
    assert_int_equal(csr(&r, RTSTAT), 0x6);
    wcsr(&r, RTSTAT, 0);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, PBIN(1))), 1);
    assert_int_equal(csr(&r, RTSTAT), 0x6);
    down(&r);
}

/* A non-float effective PET (INT8): the instruction reads FP32 records, writes FP32
 * results and sets UNSUP_FMT. So does a quantized FP16 state (MODE.Q = 1, EFF_Q):
 * RT has no quantized records of its own. REQ: RT-069 RT-076 */
static void test_unsup_fmt(void **state)
{
    (void)state;
    rig r;
    up_bbox(&r, 0);
    bbox_ray32(&r);
    wcsr(&r, PREC_MODE, MODE_INT8);
    assert_int_equal(csr(&r, PREC_STAT) & STAT_UNSUP_FMT, 0);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x3F00000000000B0BULL);
    assert_true(csr(&r, PREC_STAT) & STAT_UNSUP_FMT);
    /* FP16 with Q = 1 (MODE bit 5): FP32 records again, UNSUP_FMT */
    wcsr(&r, PREC_MODE, MODE_FP16 | 0x20u);
    assert_true(csr(&r, PREC_STAT) & CAP_PREC_STAT_EFF_Q_MASK);
    assert_int_equal(csr(&r, PREC_STAT) & STAT_UNSUP_FMT, 0);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x3F00000000000B0BULL);
    assert_true(csr(&r, PREC_STAT) & STAT_UNSUP_FMT);
    down(&r);
}

/* ---- errata P-320..P-325 ---- */

#define F_WGUARD 0x8u /* rt.bbox W_GUARD */
#define SVMSCL   0x7F2u
#define SVMMODE  0x7F4u
#define SVFAULTI 0x808u
#define SVM_FOF  0x20u /* SVMSCL.FOF */
#define SVM_OOB0 0x3u  /* SVMMODE.BOUND_CHECK | ALLOW_OOB_ZERO */

/* W_GUARD (P-323): the ninth ray element w (after tmax) = +-0 forces a miss without
 * reading the node tile; without W_GUARD w is not read at all (an unmapped w does not
 * fault). The hit result of node_a is 0x3F00000000000B0B (test_bbox_fp32).
 * REQ: RT-053 RT-039 RT-087 */
static void test_w_guard(void **state)
{
    (void)state;
    rig r;
    up_bbox(&r, MODE_FP32);
    bbox_ray32(&r);
    putf(&r, RAY + 32, 1.0f);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, F_WGUARD | PBOUT(2))), 0);
    assert_int_equal(r.h->x[A1], 0x3F00000000000B0BULL);
    assert_int_equal(csr(&r, PMASK2), 1);
    /* w = 0 and -0: forced miss, predicate lane cleared, the (unmapped) tile not read */
    wcsr(&r, RTNODE, UNMAPPED);
    const uint32_t zeros[2] = {0x00000000u, 0x80000000u};
    for (int i = 0; i < 2; i++) {
        put32(&r, RAY + 32, zeros[i]);
        wcsr(&r, PMASK2, 1);
        r.h->x[A1] = 0x55;
        assert_int_equal(exec1(&r, RT_BBOX(A1, A0, F_WGUARD | PBOUT(2))), 0);
        assert_int_equal(r.h->x[A1], 0);
        assert_int_equal(csr(&r, PMASK2), 0);
    }
    assert_int_equal(csr(&r, EVENTS), 0);
    /* the same w = 0 without W_GUARD: an ordinary hit */
    wcsr(&r, RTNODE, NODE);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x3F00000000000B0BULL);
    /* a ray whose ninth element lies past the end of RAM: read only under W_GUARD */
    ray32(&r, RAM + RAM_SIZE - 32, 0, 0.5f, 0.5f, 1, 0, 0, 0, 100);
    r.h->x[A0] = RAM + RAM_SIZE - 32;
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x3F00000000000B0BULL);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, F_WGUARD)), 1);
    assert_int_equal(r.h->mcause, 5);
    assert_int_equal(r.h->mtval, RAM + RAM_SIZE);
    /* FP16 records: w is the ninth 16-bit element (byte 16) */
    wcsr(&r, PREC_MODE, MODE_FP16);
    const uint16_t ray[8] = {H_0, H_HALF, H_HALF, H_1, H_0, H_0, H_0, H_100};
    ray16_a0(&r, ray);
    put16(&r, RAY + 16, H_0);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, F_WGUARD)), 0);
    assert_int_equal(r.h->x[A1], 0);
    put16(&r, RAY + 16, H_1);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, F_WGUARD)), 0);
    assert_int_equal(r.h->x[A1], 0x0000380000000B0BULL);
    down(&r);
}

/* The FP16 scene of test_tri_fp16: hit prim 1 at t 3 (0x4200), u 0.125 (0x3000),
 * v 0.25 (0x3400). */
static void tris_fp16(rig *r)
{
    const uint16_t t2[9] = {H_0, H_0, H_3, H_0, H_1, H_3, H_1, H_0, H_3};
    const uint16_t far[9] = {H_0, H_0, H_6, H_0, H_1, H_6, H_1, H_0, H_6};
    for (int k = 0; k < 9; k++) {
        put16(r, TRIS + 2u * k, far[k]);
        put16(r, TRIS + 18 + 2u * k, t2[k]);
    }
    put32(r, TRR, 0);
    put32(r, TRR + 4, 2);
    put64(r, TRR + 8, TRIS);
    wcsr(r, RTTRI, TRR);
    const uint16_t ray[8] = {H_QUART, H_EIGHT, H_0, H_0, H_0, H_1, H_0, H_100};
    ray16(r, RAY, ray);
    r->h->x[A0] = RAY;
}

/* rt.tri PACK_HINT (P-324) with a 16-bit format: rd = FMT_RT_TRI_PACKED {T 15:0, U 31:16,
 * V 47:32, PRIM 62:48 (15 bits), HIT 63}; RTUV keeps its layout. RTCFG.PACK_HINT_DFLT
 * packs when the flag is clear (rt.tri and rt.bbox); FP32 has nothing to pack. Without
 * RTCAP.PACK_HINT the default is read-as-zero and never packs.
 * REQ: RT-061 RT-013 RT-052 RT-098 */
static void test_pack_hint(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    tris_fp16(&r);
    const uint64_t packed = 0x4200u | 0x3000ull << 16 | 0x3400ull << 32 | 1ull << 48 | 1ull << 63;
    const uint64_t plain = 0x8000000100004200ULL;
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, F_PACK)), 0);
    assert_int_equal(r.h->x[A1], packed);
    assert_int_equal(csr(&r, RTUV), 0x0000340000003000ULL);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], plain);
    wcsr(&r, RTCFG, 0x4); /* PACK_HINT_DFLT */
    assert_int_equal(csr(&r, RTCFG), 0x4);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], packed);
    /* rt.bbox under the default: tfar 5 (0x4500) joins tnear 0.5 (0x3800) */
    node_a(&r, NODE);
    wcsr(&r, RTNODE, NODE);
    const uint16_t bray[8] = {H_0, H_HALF, H_HALF, H_1, H_0, H_0, H_0, H_100};
    ray16(&r, RAY + 64, bray);
    r.h->x[A0] = RAY + 64;
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x4500380000000B0BULL);
    wcsr(&r, RTCFG, 0);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x0000380000000B0BULL);
    /* FP32: PACK_HINT has no effect on rt.tri (tris: prim 1 at t 2.0f) */
    wcsr(&r, PREC_MODE, MODE_FP32);
    tris(&r);
    tri_ray32(&r);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, F_PACK)), 0);
    assert_int_equal(r.h->x[A1], 0x8000000140000000ULL);
    down(&r);
    /* RTCAP without PACK_HINT (0x37): PACK_HINT_DFLT reads 0 and packs nothing */
    up(&r, "xphmg-profile: 1\nname: nopack\ncsrs:\n  rtcap: 0x37\n");
    tris_fp16(&r);
    wcsr(&r, RTCFG, 0xFF07);
    assert_int_equal(csr(&r, RTCFG), 0xFF03);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], plain);
    down(&r);
}

/* A false predicate with ZMODE = 1 zeroes rd, the instruction's register destination,
 * but leaves RTUV (written only by a hit, store-like) and the PB_OUT bank alone.
 * REQ: RT-083 RT-091 RT-090 */
static void test_rtuv_false_predicate(void **state)
{
    (void)state;
    rig r;
    up_tri(&r);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 0);
    assert_int_equal(csr(&r, RTUV), 0x3E0000003E800000ULL);
    wcsr(&r, PREC_MODE, MODE_FP32 | MODE_ZMODE);
    wcsr(&r, PMASK1, 0xFE);
    wcsr(&r, PMASK2, 0x3);
    r.h->x[A1] = 0x55;
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, PBIN(1) | PBOUT(2))), 0);
    assert_int_equal(r.h->x[A1], 0);
    assert_int_equal(csr(&r, RTUV), 0x3E0000003E800000ULL);
    assert_int_equal(csr(&r, PMASK2), 0x3);
    down(&r);
}

/* RTCLSDEF mirrors DESCPOL[5:0] only: STRICT_DOM (bit 6) and anything above never show
 * through, and a write to RTCLSDEF changes neither RTCLSDEF nor DESCPOL. RTSPROF
 * reads 0 (RT has no streaming profile of its own), whatever the variable the value is
 * read into held (the commit log and the debugger read CSRs into uninitialized ones).
 * REQ: RT-021 RT-103 */
static void test_rtclsdef_mirror(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    uint64_t v = 0x55;
    assert_true(hart_csr_read(r.h, RTSPROF, &v));
    assert_int_equal(v, 0);
    wcsr(&r, DESCPOL, 0x40); /* STRICT_DOM only */
    assert_int_equal(csr(&r, DESCPOL), 0x40);
    assert_int_equal(csr(&r, RTCLSDEF), 0);
    wcsr(&r, DESCPOL, 0x7F);
    assert_int_equal(csr(&r, DESCPOL), 0x7F);
    assert_int_equal(csr(&r, RTCLSDEF), 0x3F);
    wcsr(&r, RTCLSDEF, 0x5);
    assert_int_equal(csr(&r, RTCLSDEF), 0x3F);
    assert_int_equal(csr(&r, DESCPOL), 0x7F);
    down(&r);
}

/* ---- offload jobs on the hart ---- */

static uint32_t rtype(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | 0x0B;
}
#define XSUBMIT(rd, rs1) rtype(0, 0, rs1, 0, rd)
#define XWAIT(rs1)       rtype(1, 0, rs1, 0, 0)
#define XSIGNAL(rd)      rtype(2, 0, 0, 0, rd)
enum { T0 = 5, T1, T2 };

/* Offload scene: the root at OBVH has one leaf (box [0,4]^3, TriRange at OBVH + 64 =
 * index 4) with one FP32 triangle at z = 1, v0 (0,0,1) v1 (4,0,1) v2 (0,4,1): a ray from
 * (1, 1, -j) along +z hits it at t = 1 + j. Hit queue OHQ and miss queue OMQ (cap 8). */
#define OBVH  (RAM + 0x4000u)
#define OTRI  (RAM + 0x4100u)
#define OHQ   (RAM + 0x4300u)
#define OMQ   (RAM + 0x4320u)
#define OHITS (RAM + 0x4600u)
#define OMISS (RAM + 0x4700u)
#define ODESC (RAM + 0x4800u) /* descriptor j at ODESC + 128 j */
#define ORQ   (RAM + 0x4200u) /* ray queue j at ORQ + 32 j */
#define ORAYS (RAM + 0x4400u) /* rays of queue j at ORAYS + 128 j */

static void oqueue(rig *r, uint64_t a, uint32_t head, uint32_t tail, uint32_t cap, uint64_t base)
{
    put32(r, a, head);
    put32(r, a + 4, tail);
    put32(r, a + 8, cap);
    put32(r, a + 12, 0);
    put64(r, a + 16, base);
}

static void offload_scene(rig *r)
{
    const uint16_t box[6] = {H_0, H_0, H_0, H_4, H_4, H_4};
    child(r, OBVH, 0, box, 4);
    put32(r, OBVH + 60, 0x2); /* child 0 leaf */
    put32(r, OBVH + 64, 0);   /* TriRange: first 0, count 1, base OTRI */
    put32(r, OBVH + 68, 1);
    put64(r, OBVH + 72, OTRI);
    const float tri[9] = {0, 0, 1, 4, 0, 1, 0, 4, 1};
    for (int k = 0; k < 9; k++)
        putf(r, OTRI + 4u * k, tri[k]);
    oqueue(r, OHQ, 0, 0, 8, OHITS);
    oqueue(r, OMQ, 0, 0, 8, OMISS);
    wcsr(r, PREC_MODE, MODE_FP32);
}

/* Descriptor j: ray queue j (rays at base, n of them, ray i from (1, 1, -z0[i])), the
 * shared hit and miss queues, opts. */
static uint64_t odesc(rig *r, unsigned j, uint64_t base, unsigned n, const float *z0, uint32_t opts)
{
    uint64_t d = ODESC + 128u * j, q = ORQ + 32u * j;
    for (unsigned i = 0; i < n; i++)
        ray32(r, base + 32u * i, 1, 1, -z0[i], 0, 0, 1, 0, 100);
    oqueue(r, q, 0, n, n + 1, base);
    for (unsigned i = 0; i < 72; i += 8)
        put64(r, d + i, 0);
    put64(r, d, OBVH);
    put64(r, d + 8, q);
    put64(r, d + 16, OHQ);
    put64(r, d + 24, OMQ);
    put32(r, d + 40, opts);
    return d;
}

static uint32_t rd32(rig *r, uint64_t a)
{
    const uint8_t *p = mem_ptr(r->m, a, 4);
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/* FIFO (RT 9): three jobs append to one hit queue; their hits (t = 1, 2, 3 for jobs 1,
 * 2, 3) land in submission order, and waiting for ticket 2 completes jobs 1 and 2 but
 * not job 3. A queue served newest first puts t = 3 first.
 * REQ: RT-121 RT-123 RT-122 RT-015 */
static void test_offload_fifo(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    offload_scene(&r);
    uint64_t tk[3];
    for (unsigned j = 0; j < 3; j++) {
        const float z0 = (float)j;
        r.h->x[A0] = odesc(&r, j, ORAYS + 128u * j, 1, &z0, 0);
        assert_int_equal(exec1(&r, XSUBMIT(T0 + j, A0)), 0);
        tk[j] = r.h->x[T0 + j];
    }
    assert_true(tk[0] < tk[1] && tk[1] < tk[2]);
    assert_int_equal(csr(&r, RTSTAT) & 1, 1); /* BUSY */
    assert_int_equal(rd32(&r, OHQ + 4), 0);   /* nothing ran yet */
    assert_int_equal(exec1(&r, XWAIT(T1)), 0);
    assert_int_equal(rd32(&r, OHQ + 4), 2);
    assert_int_equal(rd32(&r, OHITS + 8), 0x3F800000u);      /* job 1: t 1 */
    assert_int_equal(rd32(&r, OHITS + 24 + 8), 0x40000000u); /* job 2: t 2 */
    assert_int_equal(csr(&r, RTSTAT) & 1, 1);                /* job 3 still queued */
    assert_int_equal(exec1(&r, XWAIT(0)), 0);
    assert_int_equal(rd32(&r, OHQ + 4), 3);
    assert_int_equal(rd32(&r, OHITS + 48 + 8), 0x40400000u); /* job 3: t 3 */
    assert_int_equal(csr(&r, RTSTAT) & 1, 0);
    down(&r);
}

/* xsubmit.rt checks each feature a job requests against its own RTCAP bit: without
 * PACK_HINT (RTCAP 0x37) opts.PACK_HINT is an unsupported feature and opts.EPS_CTL and
 * opts.NODE8 are not; without EPS_CTL (0x2F) or NODE8 (0x3D) likewise for theirs. A job
 * that requests nothing is accepted everywhere. The accepted requests get tickets 1, 2, 3.
 * REQ: RT-024 RT-027 */
static void test_offload_feature_bits(void **state)
{
    (void)state;
    const char *pf[3] = {"xphmg-profile: 1\nname: p\ncsrs:\n  rtcap: 0x37\n",
                         "xphmg-profile: 1\nname: p\ncsrs:\n  rtcap: 0x2F\n",
                         "xphmg-profile: 1\nname: p\ncsrs:\n  rtcap: 0x3D\n"};
    const uint32_t opt[4] = {1u << 2, 1u << 3, 1u << 8, 0}; /* PACK_HINT, EPS_CTL, NODE8 */
    for (unsigned k = 0; k < 3; k++) {
        rig r;
        up(&r, pf[k]);
        offload_scene(&r);
        const float z0 = 0;
        uint64_t ticket = 1;
        for (unsigned o = 0; o < 4; o++) {
            r.h->x[A0] = odesc(&r, 0, ORAYS, 1, &z0, opt[o]);
            r.h->x[T0] = 0x55;
            assert_int_equal(exec1(&r, XSUBMIT(T0, A0)), o == k);
            if (o == k) {
                assert_int_equal(r.h->mcause, 2);
                assert_int_equal(csr(&r, RTSTAT) & 0xFE, 0xA); /* LAST_EC 2, ERR */
                assert_int_equal(r.h->x[T0], 0x55);
            } else {
                assert_int_equal(r.h->x[T0], ticket++);
            }
        }
        down(&r);
    }
}

/* A queue pointer of 0 in the descriptor takes RTQ_RAY/RTQ_HIT/RTQ_MISS at xsubmit.rt
 * (errata ), each pointer on its own: descriptors with one pointer 0 and the
 * others given (their low bytes 0x20 and 0x00 next to the zero one), the CSR naming the
 * queue for the zero one. Ray 0 hits (t 1): the hit lands in the hit queue either way,
 * the ray queue's HEAD moves to 1. REQ: RT-018 */
static void test_offload_default_queues(void **state)
{
    (void)state;
    static const unsigned csr_of[3] = {RTQ_RAY, RTQ_HIT, RTQ_MISS};
    for (unsigned q = 0; q < 3; q++) {
        rig r;
        up(&r, NULL);
        offload_scene(&r);
        const float z0 = 0;
        uint64_t d = odesc(&r, 0, ORAYS, 1, &z0, 0);
        const uint64_t named[3] = {ORQ, OHQ, OMQ};
        put64(&r, d + 8 + 8 * q, 0);
        wcsr(&r, csr_of[q], named[q]);
        r.h->x[A0] = d;
        assert_int_equal(exec1(&r, XSUBMIT(T0, A0)), 0);
        assert_int_equal(exec1(&r, XWAIT(0)), 0);
        assert_int_equal(csr(&r, RTSTAT) & 0xFE, 0); /* no job fault */
        assert_int_equal(rd32(&r, ORQ), 1);          /* HEAD */
        assert_int_equal(rd32(&r, OHQ + 4), 1);
        assert_int_equal(rd32(&r, OHITS + 8), 0x3F800000u); /* t 1 */
        down(&r);
    }
}

/* A descriptor that ends exactly at the end of RAM (its 72 bytes at RAM + RAM_SIZE - 72)
 * is read whole: xsubmit.rt takes it (ticket 1) and the job runs (ray 0 hits). Only the
 * descriptor's own nine doublewords are accessed (errata Q-61). REQ: RT-118 */
static void test_offload_desc_at_ram_end(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    offload_scene(&r);
    const float z0 = 0;
    uint64_t d = odesc(&r, 0, ORAYS, 1, &z0, 0), e = RAM + RAM_SIZE - 72;
    for (unsigned i = 0; i < 72; i += 4)
        put32(&r, e + i, rd32(&r, d + i));
    r.h->x[A0] = e;
    assert_int_equal(exec1(&r, XSUBMIT(T0, A0)), 0);
    assert_int_equal(r.h->x[T0], 1);
    assert_int_equal(exec1(&r, XWAIT(0)), 0);
    assert_int_equal(rd32(&r, OHQ + 4), 1);
    assert_int_equal(rd32(&r, OHITS + 8), 0x3F800000u); /* t 1 */
    down(&r);
}

/* A job's stores into a page that holds decoded instructions reach the hart as its own
 * stores do (the hart then decodes the word again, without a fence.i; rt_offload.c
 * ram_map_w): `addi a1, zero, 7` is executed at P, then a job's hit entry {ray 0, ...}
 * lands on P, so P holds 0x00000000, an illegal instruction, when it is executed again.
 * An engine that wrote the page directly would leave the hart running the old addi. */
static void test_offload_store_to_code(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    offload_scene(&r);
    uint64_t p = RAM + 4u * r.next;
    assert_int_equal(exec1(&r, itype(7, 0, 0, A1, 0x13)), 0); /* addi a1, zero, 7 */
    assert_int_equal(r.h->x[A1], 7);
    oqueue(&r, OHQ, 0, 0, 8, p);
    const float z0 = 0;
    r.h->x[A0] = odesc(&r, 0, ORAYS, 1, &z0, 0);
    assert_int_equal(exec1(&r, XSUBMIT(T0, A0)), 0);
    assert_int_equal(exec1(&r, XWAIT(0)), 0);
    assert_int_equal(rd32(&r, OHQ + 4), 1);
    assert_int_equal(rd32(&r, p), 0); /* the entry's ray index */
    r.h->x[A1] = 0;
    r.h->pc = p;
    uint64_t before = r.h->traps;
    hart_run(r.h, 1);
    assert_int_equal(r.h->traps - before, 1);
    assert_int_equal(r.h->mcause, 2);
    assert_int_equal(r.h->x[A1], 0);
    down(&r);
}

/* A unit that ran an offload job (and so built its job engine) gives back every byte
 * when freed: after warm-up rounds (one-time state grows to its steady size) 16 more
 * rounds of attach, one job, wait, free leave the heap as they found it. */
static void offload_round(const void *unused)
{
    (void)unused;
    rig r;
    up(&r, NULL);
    offload_scene(&r);
    const float z0 = 0;
    r.h->x[A0] = odesc(&r, 0, ORAYS, 1, &z0, 0);
    assert_int_equal(exec1(&r, XSUBMIT(T0, A0)), 0);
    assert_int_equal(exec1(&r, XWAIT(0)), 0);
    assert_int_equal(rd32(&r, OHQ + 4), 1);
    down(&r);
}

static void test_offload_frees(void **state)
{
    (void)state;
    assert_heap_balanced(offload_round, NULL, 8, 16, "offload");
}

/* A ray queue of two rays at the end of RAM: ray 0 in the last 32 bytes, ray 1 past the
 * end (unmapped). Descriptor 1, opts as given. */
#define OEND (RAM + RAM_SIZE - 32u)
static uint64_t odesc_at_end(rig *r, uint32_t opts)
{
    const float z0 = 0;
    uint64_t d = odesc(r, 1, OEND, 1, &z0, opts);
    oqueue(r, ORQ + 32, 0, 2, 3, OEND);
    return d;
}

/* Job predication (P-321): opts.PB = bank 1 as it was at xsubmit.rt; ray k is lane k.
 * A masked-off ray gets no entry, its record is never read (ray 1 of odesc_at_end is
 * unmapped: no fault) and HEAD passes it. A bad bank is illegal at submission (LAST_EC
 * 1). REQ: RT-120 RT-082 RT-083 RT-085 RT-088 RT-112 RT-114 RT-080 */
static void test_offload_predicated(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    offload_scene(&r);
    const float z0[3] = {0, 1, 2};
    r.h->x[A0] = odesc(&r, 0, ORAYS, 3, z0, 1u << 4);
    wcsr(&r, PMASK1, 0x5); /* lanes 0 and 2 */
    assert_int_equal(exec1(&r, XSUBMIT(T0, A0)), 0);
    wcsr(&r, PMASK1, 0x7); /* too late for the queued job */
    assert_int_equal(exec1(&r, XWAIT(0)), 0);
    assert_int_equal(rd32(&r, OHQ + 4), 2);
    assert_int_equal(rd32(&r, OHITS), 0); /* ray 0: t 1 */
    assert_int_equal(rd32(&r, OHITS + 8), 0x3F800000u);
    assert_int_equal(rd32(&r, OHITS + 24), 2); /* ray 2: t 3 */
    assert_int_equal(rd32(&r, OHITS + 24 + 8), 0x40400000u);
    assert_int_equal(rd32(&r, OMQ + 4), 0); /* no miss entry for ray 1 either */
    assert_int_equal(rd32(&r, ORQ), 3);     /* HEAD = TAIL */
    assert_int_equal(csr(&r, SVFAULTI), ~UINT64_C(0));
    /* lane 1 off: the unmapped ray 1 is not read, the job completes */
    wcsr(&r, PMASK1, 0x1);
    r.h->x[A0] = odesc_at_end(&r, 1u << 4);
    assert_int_equal(exec1(&r, XSUBMIT(T0, A0)), 0);
    assert_int_equal(exec1(&r, XWAIT(0)), 0);
    assert_int_equal(rd32(&r, ORQ + 32), 2);
    assert_int_equal(rd32(&r, OHQ + 4), 3);
    assert_int_equal(csr(&r, RTSTAT) & 0xFC, 0); /* no LAST_EC */
    assert_int_equal(csr(&r, EVENTS), 0);
    /* bank 5 does not exist: illegal instruction, LAST_EC 1 */
    r.h->x[A0] = odesc(&r, 2, ORAYS + 256, 1, z0, 5u << 4);
    assert_int_equal(exec1(&r, XSUBMIT(T0, A0)), 1);
    assert_int_equal(r.h->mcause, 2);
    assert_int_equal((csr(&r, RTSTAT) >> 2) & 0x3F, 1);
    down(&r);
}

/* OOB-zero of an instruction's fetches (XMEM SVMEM, P-320) needs both SVMMODE.BOUND_CHECK
 * and ALLOW_OOB_ZERO: rt.bbox over an unmapped node tile traps with a load access fault at
 * the tile under SVMMODE 0, 1 (BOUND_CHECK) and 2 (ALLOW_OOB_ZERO); under 3 the tile reads
 * as zeros (every child empty): a miss, rd = 0, INV_MISS, no trap. REQ: RT-089 RT-101 */
static void test_bbox_oob_zero(void **state)
{
    (void)state;
    for (uint64_t mode = 0; mode < 4; mode++) {
        rig r;
        up_bbox(&r, MODE_FP32);
        bbox_ray32(&r);
        wcsr(&r, RTNODE, UNMAPPED);
        wcsr(&r, SVMMODE, mode);
        wcsr(&r, EVENTS, ~UINT64_C(0)); /* W1C: clear */
        r.h->x[A1] = 0x55;
        assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), mode != 3);
        if (mode != 3) {
            assert_int_equal(r.h->mcause, 5);
            assert_int_equal(r.h->mtval, UNMAPPED);
            assert_int_equal(r.h->x[A1], 0x55);
        } else {
            assert_int_equal(r.h->x[A1], 0);
        }
        assert_int_equal(csr(&r, EVENTS) & 1, 1); /* INV_MISS */
        down(&r);
    }
}

/* SVMEM rules of job fetches (P-320, P-322) with ray 1 unmapped (odesc_at_end):
 *   FOF = 0: the job faults at ray 1: LAST_EC 3, SVFAULTI 1, HEAD 1, INV_MISS;
 *   FOF = 1: fault-only-first stop at ray 1: no LAST_EC, SVFAULTI 1, HEAD 1;
 *   FOF = 1 with the fault at ray 0 (queue starting at ray 1): a job fault;
 *   BOUND_CHECK + ALLOW_OOB_ZERO: ray 1 reads as zeros, a miss, the job completes.
 * REQ: RT-089 RT-096 RT-097 RT-099 RT-101 RT-102 RT-084 */
static void test_offload_fof(void **state)
{
    (void)state;
    static const struct {
        uint64_t svmscl, svmmode;
        uint32_t head;
        unsigned last_ec;
        uint64_t svfaulti;
        uint32_t ray_head, hits, misses;
    } cases[] = {
        {0, 0, 0, 3, 1, 1, 1, 0},
        {SVM_FOF, 0, 0, 0, 1, 1, 1, 0},
        {SVM_FOF, 0, 1, 3, 0, 1, 0, 0},
        {0, SVM_OOB0, 0, 0, ~UINT64_C(0), 2, 1, 1},
    };
    for (unsigned c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        rig r;
        up(&r, NULL);
        offload_scene(&r);
        wcsr(&r, SVMSCL, cases[c].svmscl);
        wcsr(&r, SVMMODE, cases[c].svmmode);
        r.h->x[A0] = odesc_at_end(&r, 0);
        put32(&r, ORQ + 32, cases[c].head);
        assert_int_equal(exec1(&r, XSUBMIT(T0, A0)), 0);
        assert_int_equal(exec1(&r, XWAIT(0)), 0); /* a job never traps */
        assert_int_equal((csr(&r, RTSTAT) >> 2) & 0x3F, cases[c].last_ec);
        assert_int_equal(csr(&r, SVFAULTI), cases[c].svfaulti);
        assert_int_equal(rd32(&r, ORQ + 32), cases[c].ray_head);
        assert_int_equal(rd32(&r, OHQ + 4), cases[c].hits);
        assert_int_equal(rd32(&r, OMQ + 4), cases[c].misses);
        assert_int_equal(csr(&r, EVENTS) & 1, 1); /* INV_MISS */
        down(&r);
    }
}

/* A ray queue whose array is larger than RAM (CAP 2^20 slots, 32 MiB) with its two rays at
 * the end of RAM, ray 1 past it: the array cannot be read in one piece, so the rays are
 * read one by one and ray 1's access fault ends the job there (LAST_EC 3, SVFAULTI 1,
 * HEAD 1), as with a small CAP (test_offload_fof). REQ: RT-089 */
static void test_offload_rays_past_ram(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    offload_scene(&r);
    const float z0 = 0;
    uint64_t d = odesc(&r, 1, OEND, 1, &z0, 0);
    oqueue(&r, ORQ + 32, 0, 2, 1u << 20, OEND);
    r.h->x[A0] = d;
    assert_int_equal(exec1(&r, XSUBMIT(T0, A0)), 0);
    assert_int_equal(exec1(&r, XWAIT(0)), 0);
    assert_int_equal((csr(&r, RTSTAT) >> 2) & 0x3F, 3);
    assert_int_equal(csr(&r, SVFAULTI), 1);
    assert_int_equal(rd32(&r, ORQ + 32), 1);
    assert_int_equal(rd32(&r, OHQ + 4), 1); /* ray 0 hits */
    down(&r);
}

/* RT CSR hints are no controls: with every hint bit set — RTCFG.EN (0 or 1), LMEM_ONLY,
 * RTCONF2.IMPL_HINT — and RTBASE holding an arbitrary unaligned value, rt.bbox gives the
 * same rd, rounding and stickies, ZMODE still zeroes rd for a false predicate and the
 * predicate still comes only from the PB_IN bank; RT CSRs carry no numeric policy: the
 * effective format follows CAP.PREC.MODE alone. REQ: RT-006 RT-012 RT-017 RT-020 RT-081 */
static void test_hints(void **state)
{
    (void)state;
    static const struct {
        uint64_t rtcfg, rtconf2, rtbase;
    } cfgs[] = {{0, 0, 0}, {0x3, 0x300, 0x1235}, {0x2, 0x100, ~UINT64_C(0)}, {0x1, 0x200, 7}};
    const uint16_t ray[8] = {H_0, H_HALF, H_HALF, H_1, H_0, H_0, H_0, H_100};
    for (unsigned i = 0; i < sizeof cfgs / sizeof cfgs[0]; i++) {
        rig r;
        up_bbox(&r, 0);
        ray16_a0(&r, ray);
        wcsr(&r, RTCFG, cfgs[i].rtcfg);
        wcsr(&r, RTCONF2, cfgs[i].rtconf2);
        wcsr(&r, RTBASE, cfgs[i].rtbase);
        /* the hints are held as written (RW), they only do nothing */
        assert_int_equal(csr(&r, RTCFG), cfgs[i].rtcfg);
        assert_int_equal(csr(&r, RTCONF2), cfgs[i].rtconf2);
        assert_int_equal(csr(&r, RTBASE), cfgs[i].rtbase);
        wcsr(&r, PREC_MODE, MODE_FP16);
        assert_int_equal(exec1(&r, RT_BBOX(A1, A0, PBOUT(2))), 0);
        assert_int_equal(r.h->x[A1], 0x0000380000000B0BULL);
        assert_int_equal(csr(&r, PREC_STAT) & (STAT_DOWNCAST | STAT_UNSUP_FMT), STAT_DOWNCAST);
        assert_int_equal(csr(&r, PMASK2), 1);
        /* false predicate with ZMODE 1: rd zeroed, bank 2 kept */
        wcsr(&r, PREC_MODE, MODE_FP16 | MODE_ZMODE);
        wcsr(&r, PMASK1, 0x2);
        r.h->x[A1] = 0x55;
        assert_int_equal(exec1(&r, RT_BBOX(A1, A0, PBIN(1) | PBOUT(2))), 0);
        assert_int_equal(r.h->x[A1], 0);
        assert_int_equal(csr(&r, PMASK2), 1);
        /* and the true lane runs whatever the hints */
        wcsr(&r, PMASK1, 0x1);
        assert_int_equal(exec1(&r, RT_BBOX(A1, A0, PBIN(1))), 0);
        assert_int_equal(r.h->x[A1], 0x0000380000000B0BULL);
        /* the format is CAP's: FP32 records give an FP32 TNEAR */
        wcsr(&r, PREC_MODE, MODE_FP32);
        ray32(&r, RAY, 0, 0.5f, 0.5f, 1, 0, 0, 0, 100);
        assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
        assert_int_equal(r.h->x[A1], 0x3F00000000000B0BULL);
        down(&r);
    }
}

/* CAP policy reaches RT results (RT 8.1): FP_RMODE rounds the FP16 TNEAR 0.5 * fl32(1/3)
 * = 0.16666667 (binary16 fraction 341.33 at exponent -3): RNE and RTZ 0x3155, RUP
 * 0x3156; DENORM_FTZ flushes the subnormal FP16 tnear 0.5 * fl32(1/65504) (~128.002 *
 * 2^-24: RNE 0x0080 with UF|NX) to 0 with FTZ_HIT; SAT saturates an overflow.
 * REQ: RT-071 RT-070 RT-077 RT-074 RT-093 */
static void test_numeric_policy(void **state)
{
    (void)state;
    rig r;
    up_bbox(&r, 0);
    const uint16_t ray3[8] = {H_0, H_HALF, H_HALF, H_3, H_0, H_0, H_0, H_100};
    ray16_a0(&r, ray3);
    static const struct {
        uint64_t rmode;
        uint64_t tnear;
    } rm[] = {{0, 0x3155}, {1, 0x3155}, {3, 0x3156}};
    for (unsigned i = 0; i < 3; i++) {
        wcsr(&r, PREC_MODE, MODE_FP16 | rm[i].rmode << CAP_PREC_MODE_FP_RMODE_SHIFT);
        assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
        assert_int_equal(r.h->x[A1], rm[i].tnear << 32 | 0xB0B);
    }
    const uint16_t rayd[8] = {H_0, H_HALF, H_HALF, 0x7BFF, H_0, H_0, H_0, H_100};
    ray16(&r, RAY, rayd);
    wcsr(&r, PREC_MODE, MODE_FP16);
    wcsr(&r, EXC_ST, 0);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x0000008000000B0BULL);
    assert_int_equal(csr(&r, EXC_ST) & 0x3, 0x3); /* NX (bit 0) | UF (bit 1) */
    wcsr(&r, PREC_MODE, MODE_FP16 | CAP_PREC_MODE_DENORM_FTZ_MASK);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x0000000000000B0BULL);
    assert_true(csr(&r, PREC_STAT) & CAP_PREC_STAT_FTZ_HIT_MASK);
    /* SAT: the overflowing tnear 2^23 of a direction 2^-24 (test_bbox_trap) saturates to
     * 65504 (0x7BFF) with SAT_HIT instead of +inf */
    const uint16_t rayt[8] = {H_0, H_HALF, H_HALF, H_TINY, H_0, H_0, H_0, H_INF};
    ray16(&r, RAY, rayt);
    wcsr(&r, PREC_MODE, MODE_FP16 | CAP_PREC_MODE_SAT_MASK);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x00007BFF00000B0BULL);
    assert_true(csr(&r, PREC_STAT) & CAP_PREC_STAT_SAT_HIT_MASK);
    down(&r);
}

/* The inline instruction and the descriptor-driven job follow the same rules (RT 8):
 * the triangle of offload_scene hit from (1, 1, -0.3) gives the same t, u, v bits through
 * rt.tri and through a job, the job's t written in the format of the CAP state at its
 * xsubmit.rt (FP32) although the mode changes to FP16 before the wait.
 * REQ: RT-067 RT-068 RT-072 RT-112 */
static void test_inline_matches_offload(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    offload_scene(&r);
    const float z0 = 0.3f;
    r.h->x[A0] = odesc(&r, 0, ORAYS, 1, &z0, 0);
    assert_int_equal(exec1(&r, XSUBMIT(T0, A0)), 0);
    wcsr(&r, PREC_MODE, MODE_FP16);
    assert_int_equal(exec1(&r, XWAIT(0)), 0);
    wcsr(&r, PREC_MODE, MODE_FP32);
    wcsr(&r, RTTRI, OBVH + 64);
    r.h->x[A0] = ORAYS;
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 0);
    uint64_t uv = csr(&r, RTUV);
    assert_int_equal(r.h->x[A1] >> 32, 0x80000000u); /* HIT, PRIM 0 */
    assert_int_equal(rd32(&r, OHITS + 8), (uint32_t)r.h->x[A1]);
    assert_int_equal(rd32(&r, OHITS + 12), (uint32_t)uv);
    assert_int_equal(rd32(&r, OHITS + 16), (uint32_t)(uv >> 32));
    /* t = 1 - (-0.3) rounded in binary32, not a binary16 value */
    float t;
    uint32_t tb = rd32(&r, OHITS + 8);
    memcpy(&t, &tb, 4);
    assert_true(t > 1.29f && t < 1.31f);
    down(&r);
}

/* The instructions' and the offload engine's only tolerance is the epsilon code, and it
 * only widens the t-range (errata P-327, Q-74, Q-75): with RTCFG.EPS_DFLT and
 * RTCONF2.EPS_SCALE at their widest code (1: 0.5), a ray one ulp outside the triangles'
 * edge x + y = 1 still misses (rt.tri, with and without EPS_CTL), a ray one ulp outside
 * a box misses (rt.bbox), and the t-range grows by exactly 0.5; an offload job with
 * EPS_CTL misses a triangle one ulp outside its edge x + y = 4. With both codes 0 there is
 * no tolerance at all. REQ: RT-073 */
static void test_no_custom_epsilon(void **state)
{
    (void)state;
    rig r;
    up_tri(&r);
    /* codes 0 (reset): tmax one ulp short of t = 2 misses tri 1 (tri 2 is at t = 3) */
    ray32(&r, RAY, 0.25f, 0.125f, 0, 0, 0, 1, 0, nextafterf(2.0f, 0.0f));
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0);
    assert_int_equal(exec1(&r, RT_TRI(A1, A0, F_EPS)), 0);
    assert_int_equal(r.h->x[A1], 0);
    wcsr(&r, RTCFG, 0x100); /* EPS_DFLT 1 */
    wcsr(&r, RTCONF2, 1);   /* EPS_SCALE 1 */
    const unsigned fl[2] = {0, F_EPS};
    for (int k = 0; k < 2; k++) {
        /* on the edge: tri 1 (t 2) */
        ray32(&r, RAY, 0.5f, 0.5f, 0, 0, 0, 1, 0, 100);
        assert_int_equal(exec1(&r, RT_TRI(A1, A0, fl[k])), 0);
        assert_int_equal(r.h->x[A1], 0x8000000140000000ULL);
        /* one ulp outside it: every triangle of the range misses */
        ray32(&r, RAY, 0.5f, nextafterf(0.5f, 1.0f), 0, 0, 0, 1, 0, 100);
        assert_int_equal(exec1(&r, RT_TRI(A1, A0, fl[k])), 0);
        assert_int_equal(r.h->x[A1], 0);
        /* tmax 1.5 + 0.5 reaches t = 2; one ulp less does not */
        ray32(&r, RAY, 0.25f, 0.125f, 0, 0, 0, 1, 0, 1.5f);
        assert_int_equal(exec1(&r, RT_TRI(A1, A0, fl[k])), 0);
        assert_int_equal(r.h->x[A1], 0x8000000140000000ULL);
        ray32(&r, RAY, 0.25f, 0.125f, 0, 0, 0, 1, 0, nextafterf(1.5f, 0.0f));
        assert_int_equal(exec1(&r, RT_TRI(A1, A0, fl[k])), 0);
        assert_int_equal(r.h->x[A1], 0);
    }
    /* rt.bbox (node_a: every child spans y, z in [0, 1]): y = 1 is on the faces, one ulp
     * above misses every child; tmax one ulp short of child 3's tnear 0.5 misses all. */
    node_a(&r, NODE);
    wcsr(&r, RTNODE, NODE);
    ray32(&r, RAY, 0, 1.0f, 0.5f, 1, 0, 0, 0, 100);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0x3F00000000000B0BULL);
    ray32(&r, RAY, 0, nextafterf(1.0f, 2.0f), 0.5f, 1, 0, 0, 0, 100);
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0);
    ray32(&r, RAY, 0, 0.5f, 0.5f, 1, 0, 0, 0, nextafterf(0.5f, 0.0f));
    assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 0);
    assert_int_equal(r.h->x[A1], 0);
    /* Offload with EPS_CTL: ray 0 on the edge (2, 2) hits, ray 1 one ulp outside misses. */
    offload_scene(&r);
    const float z0[2] = {0, 0};
    r.h->x[A0] = odesc(&r, 0, ORAYS, 2, z0, 0x8);
    ray32(&r, ORAYS, 2, 2, 0, 0, 0, 1, 0, 100);
    ray32(&r, ORAYS + 32, 2, nextafterf(2.0f, 3.0f), 0, 0, 0, 1, 0, 100);
    assert_int_equal(exec1(&r, XSUBMIT(T0, A0)), 0);
    assert_int_equal(exec1(&r, XWAIT(T0)), 0);
    assert_int_equal(rd32(&r, OHQ + 4), 1);
    assert_int_equal(rd32(&r, OHITS), 0);               /* ray 0 */
    assert_int_equal(rd32(&r, OHITS + 8), 0x3F800000u); /* t 1 */
    assert_int_equal(rd32(&r, OMQ + 4), 1);
    assert_int_equal(rd32(&r, OMISS), 1); /* ray 1 */
    down(&r);
}

/* A reset discards queued offload jobs and restarts tickets at 1 (errata Q-80): two jobs
 * (tickets 1, 2) queued, the hart reset: RTSTAT.BUSY clears and the hit queue stays
 * empty; the next submission gets ticket 1 again and waiting for it runs it. A descriptor
 * that cannot be read, wholly or in its last doubleword, raises a load access fault at the
 * first failing address with CAP.XMEM.EVENTS.INV_MISS.
 * REQ: RT-122 RT-123 RT-015 RT-089 RT-118 */
static void test_offload_reset(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    offload_scene(&r);
    const float z0 = 0;
    for (unsigned j = 0; j < 2; j++) {
        r.h->x[A0] = odesc(&r, j, ORAYS + 128u * j, 1, &z0, 0);
        assert_int_equal(exec1(&r, XSUBMIT(T0 + j, A0)), 0);
        assert_int_equal(r.h->x[T0 + j], j + 1);
    }
    assert_int_equal(csr(&r, RTSTAT) & 1, 1);
    hart_reset(r.h, RAM);
    assert_int_equal(csr(&r, RTSTAT) & 1, 0);
    assert_int_equal(exec1(&r, XWAIT(0)), 0); /* nothing left to run */
    assert_int_equal(rd32(&r, OHQ + 4), 0);
    offload_scene(&r); /* CAP.PREC back to FP32 after the reset */
    r.h->x[A0] = odesc(&r, 0, ORAYS, 1, &z0, 0);
    assert_int_equal(exec1(&r, XSUBMIT(T0, A0)), 0);
    assert_int_equal(r.h->x[T0], 1);
    assert_int_equal(exec1(&r, XWAIT(T0)), 0);
    assert_int_equal(rd32(&r, OHQ + 4), 1);
    assert_int_equal(rd32(&r, OHITS + 8), 0x3F800000u); /* t 1 */
    /* an unreadable descriptor */
    wcsr(&r, EVENTS, ~UINT64_C(0)); /* W1C: clear */
    r.h->x[A0] = UNMAPPED;
    assert_int_equal(exec1(&r, XSUBMIT(T1, A0)), 1);
    assert_int_equal(r.h->mcause, 5);
    assert_int_equal(r.h->mtval, UNMAPPED);
    assert_int_equal(csr(&r, EVENTS), 1); /* INV_MISS only */
    /* A descriptor whose last doubleword (bytes 64-71) lies past the end of RAM: the fault
     * is at the first failing address, RAM's end, and nothing is queued. */
    wcsr(&r, EVENTS, ~UINT64_C(0));
    for (unsigned i = 0; i < 64; i += 8)
        put64(&r, RAM + RAM_SIZE - 64 + i, 0);
    r.h->x[T1] = 0x55;
    r.h->x[A0] = RAM + RAM_SIZE - 64;
    assert_int_equal(exec1(&r, XSUBMIT(T1, A0)), 1);
    assert_int_equal(r.h->mcause, 5);
    assert_int_equal(r.h->mtval, RAM + RAM_SIZE);
    assert_int_equal(r.h->x[T1], 0x55);
    assert_int_equal(csr(&r, RTSTAT) & 1, 0); /* not BUSY: no job */
    assert_int_equal(csr(&r, EVENTS), 1);
    down(&r);
}

/* Tickets are never 0 (errata Q-80: 0 means "none", `xfence.wait 0` waits for everything):
 * with the count set to its last value (2^64 - 1, what 2^64 - 2 earlier tickets would leave;
 * set directly, no run gets there), `xfence.signal` returns 2^64 - 1, then 1, then 2; a job
 * submitted next gets ticket 3 and waiting for it runs it. REQ: RT-118 */
static void test_ticket_wrap(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    offload_scene(&r);
    r.e->rt.next_ticket = UINT64_MAX;
    assert_int_equal(exec1(&r, XSIGNAL(T0)), 0);
    assert_int_equal(r.h->x[T0], UINT64_MAX);
    assert_int_equal(exec1(&r, XSIGNAL(T0)), 0);
    assert_int_equal(r.h->x[T0], 1);
    assert_int_equal(exec1(&r, XSIGNAL(T0)), 0);
    assert_int_equal(r.h->x[T0], 2);
    const float z0 = 0;
    r.h->x[A0] = odesc(&r, 0, ORAYS, 1, &z0, 0);
    assert_int_equal(exec1(&r, XSUBMIT(T1, A0)), 0);
    assert_int_equal(r.h->x[T1], 3);
    assert_int_equal(exec1(&r, XWAIT(T1)), 0);
    assert_int_equal(rd32(&r, OHQ + 4), 1);
    down(&r);
}

/* rt.tri charges one unit of work per triangle of its TriRange (errata P-300, in chunks
 * of 4096 charged before testing them), counted in the hart's charged work whether or not
 * a budget is set: TriRanges of 1, 3, 5 and 4099 triangles (those past tri 4 are zeros:
 * misses). A work-charging rule (hardening), not an RT requirement. */
static void test_tri_charge(void **state)
{
    (void)state;
    rig r;
    up_tri(&r);
    const uint32_t counts[4] = {1, 3, 5, 4099};
    for (int k = 0; k < 4; k++) {
        put32(&r, TRR + 4, counts[k]);
        uint64_t before = r.h->charged;
        assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 0);
        assert_int_equal(r.h->charged - before, counts[k]);
    }
    down(&r);
}

/* RT's dependencies in the profile loader (P-325): RTCAP != 0 needs CAP.VERS >= 0.1.1 and
 * PMASK; the same profiles with rtcap: 0 load, and RT is then unsupported: rt.bbox,
 * rt.tri and xsubmit.rt trap with LAST_EC 2. A profile without the XMEM LDS keeps RT
 * (a recommended dependency, RT-004). REQ: RT-001 RT-002 RT-115 */
static void test_profile_dependencies(void **state)
{
    (void)state;
    static const struct {
        const char *csrs, *why;
    } bad[] = {
        {"  cap_vers: 0x10000\n", "CAP.VERS"},
        {"  cap_pmask_cap: 0\n", "PMASK"},
    };
    char err[256], y[256];
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        snprintf(y, sizeof y, "xphmg-profile: 1\nname: d\ncsrs:\n%s", bad[i].csrs);
        cap_profile *p = cap_profile_parse(y, strlen(y), "t", err, sizeof err);
        assert_null(p);
        assert_non_null(strstr(err, "rtcap"));
        assert_non_null(strstr(err, bad[i].why));
        snprintf(y, sizeof y, "xphmg-profile: 1\nname: d\ncsrs:\n%s  rtcap: 0\n", bad[i].csrs);
        rig r;
        up(&r, y);
        assert_int_equal(csr(&r, RTCAP), 0);
        r.h->x[A0] = RAY;
        assert_int_equal(exec1(&r, RT_BBOX(A1, A0, 0)), 1);
        assert_int_equal(r.h->mcause, 2);
        assert_int_equal(exec1(&r, RT_TRI(A1, A0, 0)), 1);
        assert_int_equal(r.h->mcause, 2);
        assert_int_equal(exec1(&r, XSUBMIT(T0, A0)), 1);
        assert_int_equal(r.h->mcause, 2);
        assert_int_equal((csr(&r, RTSTAT) >> 2) & 0x3F, 2);
        down(&r);
    }
    /* CAP 0.1.1 itself and a later major version satisfy RT */
    static const char *const good[] = {"  cap_vers: 0x10100\n", "  cap_vers: 0x1000000\n",
                                       "  cap_xmem_cap: {LDS: 0}\n"};
    for (unsigned i = 0; i < 3; i++) {
        snprintf(y, sizeof y, "xphmg-profile: 1\nname: d\ncsrs:\n%s", good[i]);
        cap_profile *p = cap_profile_parse(y, strlen(y), "t", err, sizeof err);
        assert_non_null(p);
        cap_profile_free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csrs),
        cmocka_unit_test(test_bbox_fp32),
        cmocka_unit_test(test_bbox_clamp_zero_sign),
        cmocka_unit_test(test_bbox_fp16),
        cmocka_unit_test(test_bbox_trap),
        cmocka_unit_test(test_tri),
        cmocka_unit_test(test_tri_index_wrap),
        cmocka_unit_test(test_tri_fp16),
        cmocka_unit_test(test_predicates),
        cmocka_unit_test(test_faults),
        cmocka_unit_test(test_illegal),
        cmocka_unit_test(test_unsup_fmt),
        cmocka_unit_test(test_w_guard),
        cmocka_unit_test(test_bbox_oob_zero),
        cmocka_unit_test(test_pack_hint),
        cmocka_unit_test(test_rtuv_false_predicate),
        cmocka_unit_test(test_rtclsdef_mirror),
        cmocka_unit_test(test_offload_fifo),
        cmocka_unit_test(test_offload_feature_bits),
        cmocka_unit_test(test_offload_frees),
        cmocka_unit_test(test_offload_desc_at_ram_end),
        cmocka_unit_test(test_offload_default_queues),
        cmocka_unit_test(test_offload_store_to_code),
        cmocka_unit_test(test_offload_predicated),
        cmocka_unit_test(test_offload_fof),
        cmocka_unit_test(test_offload_rays_past_ram),
        cmocka_unit_test(test_profile_dependencies),
        cmocka_unit_test(test_hints),
        cmocka_unit_test(test_numeric_policy),
        cmocka_unit_test(test_inline_matches_offload),
        cmocka_unit_test(test_no_custom_epsilon),
        cmocka_unit_test(test_offload_reset),
        cmocka_unit_test(test_ticket_wrap),
        cmocka_unit_test(test_tri_charge),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
