/* test_num_exhaustive.c — checks every narrowing conversion from FP32 against an
 * independent reference written here.
 *
 * The reference shares no code or algorithm with src/num: for an FP destination it
 * enumerates every bit pattern of the destination, decodes it with its own formula into
 * an exact double, sorts the finite magnitudes, and rounds an input by locating it
 * between two neighbours with a binary search and comparing 2|x| with the neighbours'
 * sum (all of it exact in binary64, so the host rounding mode never matters). Integer
 * destinations use floor() and an exact fraction compare. Flags are derived from the
 * IEEE 754 definitions (tininess after rounding, as RISC-V).
 *
 * Default run (ctest): every 4099th FP32 input, all FP32 specials, and the
 * neighbourhoods (+-3 ulp) of every destination value and midpoint, for every
 * destination, rounding mode and several policies (SAT, SAT_MODE, FTZ, NAN_POL,
 * quantization); plus every FP16/BF16/FP8 and <= 16-bit integer pattern (strided 32-bit
 * integers) to every format, same-format included.
 * `test_num_exhaustive --full [dst] [--rm N] [--all-policies]` (target num-exhaustive,
 * CTest label "long" with -DXPHMG_LONG_TESTS=ON): all 2^32 inputs per destination and
 * rounding mode, with pthreads (NUM_THREADS overrides the count). About 6 CPU-minutes
 * per destination and mode; the whole default-policy run is a few CPU-hours.
 */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "xphmg/num.h"

/* ---- Reference ------------------------------------------------------------------ */

typedef struct {
    num_fmt fmt;
    const char *name;
    int is_fp;
    /* FP: width, exponent bits, fraction bits, bias, has infinity */
    int w, eb, mb, bias, has_inf;
    /* integer: range */
    double lo, hi;
} ref_fmt;

/* Destinations first (indices 0..13 are the sample tests), FP32 last (source only). */
static const ref_fmt REF_FMTS[] = {
    {NUM_FP16, "fp16", 1, 16, 5, 10, 15, 1, 0, 0},
    {NUM_BF16, "bf16", 1, 16, 8, 7, 127, 1, 0, 0},
    {NUM_E4M3, "e4m3", 1, 8, 4, 3, 7, 0, 0, 0},
    {NUM_E5M2, "e5m2", 1, 8, 5, 2, 15, 1, 0, 0},
    {NUM_I32, "i32", 0, 32, 0, 0, 0, 0, -2147483648.0, 2147483647.0},
    {NUM_U32, "u32", 0, 32, 0, 0, 0, 0, 0, 4294967295.0},
    {NUM_I16, "i16", 0, 16, 0, 0, 0, 0, -32768, 32767},
    {NUM_U16, "u16", 0, 16, 0, 0, 0, 0, 0, 65535},
    {NUM_I8, "i8", 0, 8, 0, 0, 0, 0, -128, 127},
    {NUM_U8, "u8", 0, 8, 0, 0, 0, 0, 0, 255},
    {NUM_I4, "i4", 0, 4, 0, 0, 0, 0, -8, 7},
    {NUM_U4, "u4", 0, 4, 0, 0, 0, 0, 0, 15},
    {NUM_I2, "i2", 0, 2, 0, 0, 0, 0, -2, 1},
    {NUM_U2, "u2", 0, 2, 0, 0, 0, 0, 0, 3},
    {NUM_FP32, "fp32", 1, 32, 8, 23, 127, 1, 0, 0},
};
#define N_REF_FMTS (sizeof REF_FMTS / sizeof REF_FMTS[0])
#define N_DST      14
#define FP32_IDX   14

typedef struct {
    double v;     /* magnitude */
    uint32_t pat; /* positive bit pattern */
} entry;

typedef struct {
    const ref_fmt *f;
    entry *tab; /* finite magnitudes, ascending, tab[0] = 0 */
    size_t n;
    double vmax;     /* largest finite */
    double virt;     /* the next value above vmax with an unbounded exponent */
    double min_norm; /* 2^emin */
    int p;
} ref_table;

static ref_table TABLES[N_DST];

static int cmp_entry(const void *a, const void *b)
{
    double x = ((const entry *)a)->v, y = ((const entry *)b)->v;
    return (x > y) - (x < y);
}

/* Decode a positive pattern by the format's definition; returns -1 for inf/NaN. */
static double ref_decode(const ref_fmt *f, uint32_t pat)
{
    uint32_t e = pat >> f->mb, m = pat & ((1u << f->mb) - 1), eall = (1u << f->eb) - 1;
    if (e == eall && f->has_inf) return -1;
    if (e == eall && !f->has_inf && m == (1u << f->mb) - 1) return -1; /* E4M3 NaN */
    if (e == 0) return ldexp((double)m, 1 - f->bias - f->mb);
    return ldexp(1.0 + ldexp((double)m, -f->mb), (int)e - f->bias);
}

static void build_table(ref_table *t, const ref_fmt *f)
{
    t->f = f;
    t->p = f->mb + 1;
    t->min_norm = ldexp(1.0, 1 - f->bias);
    size_t npos = (size_t)1 << (f->w - 1);
    t->tab = calloc(npos, sizeof(entry));
    t->n = 0;
    for (uint32_t pat = 0; pat < npos; pat++) {
        double v = ref_decode(f, pat);
        if (v < 0) continue;
        t->tab[t->n].v = v;
        t->tab[t->n].pat = pat;
        t->n++;
    }
    qsort(t->tab, t->n, sizeof(entry), cmp_entry);
    t->vmax = t->tab[t->n - 1].v;
    double ulp = t->vmax - t->tab[t->n - 2].v;
    t->virt = t->vmax + ulp;
}

/* Index of the largest table entry <= a (a <= vmax). */
static size_t floor_index(const ref_table *t, double a)
{
    size_t lo = 0, hi = t->n - 1;
    if (t->tab[hi].v <= a) return hi;
    while (hi - lo > 1) {
        size_t mid = (lo + hi) / 2;
        if (t->tab[mid].v <= a)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* A decoded input. */
typedef struct {
    int cls; /* 0 zero, 1 finite, 2 inf, 3 NaN */
    int neg, sub, snan;
    double a;      /* magnitude */
    uint32_t frac; /* NaN fraction field, mb bits */
    int mb;
} ref_in;

static ref_in ref_input(const ref_fmt *s, uint32_t bits)
{
    ref_in in;
    memset(&in, 0, sizeof in);
    if (s->w < 32) bits &= (1u << s->w) - 1;
    if (!s->is_fp) {
        int64_t v = bits;
        if (s->lo < 0 && (bits >> (s->w - 1))) v -= (int64_t)1 << s->w;
        in.neg = v < 0;
        in.a = fabs((double)v);
        in.cls = in.a != 0;
        return in;
    }
    in.neg = bits >> (s->w - 1);
    uint32_t pat = bits & ~(1u << (s->w - 1));
    uint32_t e = pat >> s->mb, m = pat & ((1u << s->mb) - 1);
    double v = ref_decode(s, pat);
    if (v < 0) {
        if (s->has_inf && m == 0) {
            in.cls = 2;
            in.a = INFINITY;
        } else {
            in.cls = 3;
            in.mb = s->mb;
            /* E4M3's single NaN carries no payload: it reads as "quiet bit only". */
            in.frac = s->has_inf ? m : 1u << (s->mb - 1);
            in.snan = !(in.frac >> (s->mb - 1));
        }
        return in;
    }
    in.a = v;
    in.cls = v != 0;
    in.sub = e == 0 && m != 0;
    return in;
}

typedef struct {
    uint32_t bits;
    num_flags flags;
} result;

/* Round magnitude a (lo <= a <= hi) to lo or hi. Returns 1 to choose hi. */
static int choose_hi(double a, double lo, double hi, int lo_odd, num_rm rm, int neg)
{
    if (a == lo) return 0;
    if (a == hi) return 1;
    int up = (rm == NUM_RUP && !neg) || (rm == NUM_RDN && neg);
    int dn = rm == NUM_RTZ || (rm == NUM_RUP && neg) || (rm == NUM_RDN && !neg);
    if (up) return 1;
    if (dn) return 0;
    double twice = 2 * a, sum = lo + hi; /* exact */
    if (twice < sum) return 0;
    if (twice > sum) return 1;
    return rm == NUM_RMM ? 1 : lo_odd;
}

/* NaN result; in == NULL for a NaN made from nothing (E4M3 overflow, inf). */
static uint32_t ref_nan(const ref_table *t, int neg, const ref_in *in, const num_policy *pol)
{
    const ref_fmt *f = t->f;
    uint32_t sign = (uint32_t)neg << (f->w - 1), eall = (1u << f->eb) - 1;
    if (pol->nan_pol == NUM_NAN_ZERO) return 0;
    int prop = pol->nan_pol == NUM_NAN_PROPAGATE;
    /* A created NaN (in == NULL) is canonical, positive, even under propagate. */
    if (!f->has_inf) return (prop && in ? sign : 0) | (eall << f->mb) | ((1u << f->mb) - 1);
    if (!prop) return (eall << f->mb) | (1u << (f->mb - 1));
    uint32_t frac = 0;
    if (in) frac = in->mb >= f->mb ? in->frac >> (in->mb - f->mb) : in->frac << (f->mb - in->mb);
    return sign | (eall << f->mb) | frac | (1u << (f->mb - 1));
}

static num_flags nan_seen(const ref_in *in)
{
    return in->snan ? (NUM_SNAN_SEEN | NUM_NV) : NUM_QNAN_SEEN;
}

static result ref_fp(const ref_table *t, const ref_in *in, const num_policy *pol)
{
    const ref_fmt *f = t->f;
    result r = {0, 0};
    int neg = in->neg;
    uint32_t sign = (uint32_t)neg << (f->w - 1), eall = (1u << f->eb) - 1;
    uint32_t maxpat = t->tab[t->n - 1].pat;
    if (in->cls == 3) {
        r.flags |= nan_seen(in);
        r.bits = ref_nan(t, neg, in, pol);
        return r;
    }
    if (in->cls == 2) {
        if (f->has_inf) {
            r.bits = sign | (eall << f->mb);
        } else if (pol->sat) {
            r.bits = sign | maxpat;
            r.flags |= NUM_SAT_HIT | NUM_NX;
        } else {
            r.bits = ref_nan(t, neg, NULL, pol);
            r.flags |= NUM_NV;
        }
        return r;
    }
    double a = in->a;
    if (in->sub && pol->ftz) {
        r.flags |= NUM_FTZ_HIT;
        a = 0;
    }
    if (a == 0) {
        r.bits = sign;
        return r;
    }
    int overflow;
    size_t idx = 0; /* chosen entry when not overflowing */
    if (a >= t->virt) {
        overflow = 1;
    } else if (a > t->vmax) {
        overflow = choose_hi(a, t->vmax, t->virt, (int)(maxpat & 1), pol->rm, neg);
        idx = t->n - 1;
    } else {
        size_t lo = floor_index(t, a), hi = t->tab[lo].v == a ? lo : lo + 1;
        idx = choose_hi(a, t->tab[lo].v, t->tab[hi].v, (int)(t->tab[lo].pat & 1), pol->rm, neg)
                  ? hi
                  : lo;
        overflow = 0;
    }
    if (overflow) {
        if (pol->sat) {
            r.bits = sign | maxpat;
            r.flags |= NUM_SAT_HIT | NUM_NX;
            return r;
        }
        r.flags |= NUM_OF | NUM_NX;
        int to_inf = pol->rm == NUM_RNE || pol->rm == NUM_RMM || (pol->rm == NUM_RUP && !neg) ||
                     (pol->rm == NUM_RDN && neg);
        if (!to_inf)
            r.bits = sign | maxpat;
        else if (f->has_inf)
            r.bits = sign | (eall << f->mb);
        else
            r.bits = ref_nan(t, neg, NULL, pol);
        return r;
    }
    double v = t->tab[idx].v;
    r.bits = sign | t->tab[idx].pat;
    if (v != a) {
        r.flags |= NUM_NX;
        /* Tiny after rounding: a < 2^emin, unless rounding to p bits reaches 2^emin.
         * Just below 2^emin the p-bit grid step is 2^(emin-p). */
        if (a < t->min_norm) {
            double step = ldexp(t->min_norm, -t->p);
            double below = t->min_norm - step;
            int tiny = 1;
            if (a > below) /* between below (odd significand) and 2^emin */
                tiny = !choose_hi(a, below, t->min_norm, 1, pol->rm, neg);
            if (tiny) r.flags |= NUM_UF;
        }
    }
    if (pol->ftz && v != 0 && v < t->min_norm) {
        r.bits = sign;
        r.flags |= NUM_FTZ_HIT | NUM_UF | NUM_NX;
    }
    return r;
}

/* x: exact signed value (an integer or an FP input already scaled). */
static result ref_int(const ref_fmt *f, const ref_in *in, double x, int src_int,
                      const num_policy *pol)
{
    result r = {0, 0};
    uint32_t mask = f->w == 32 ? 0xffffffffu : (1u << f->w) - 1;
    double lo = f->lo, hi = f->hi;
    if (pol->sat && pol->sat_mode == NUM_SAT_SYMMETRIC && lo < 0) lo = -hi;
    int neg = in->neg;
    if (in->cls == 3) {
        r.flags |= nan_seen(in) | NUM_NV;
        r.bits = pol->sat ? 0 : ((uint32_t)(int64_t)f->hi & mask);
        return r;
    }
    if (in->sub && pol->ftz) {
        r.flags |= NUM_FTZ_HIT;
        x = 0;
    }
    double zp = (!src_int && pol->q && pol->zp_en != NUM_ZP_OFF) ? pol->zp : 0;
    if (!src_int && pol->q) x = ldexp(x, -pol->scale_sh);
    double v;
    int inexact = 0;
    if (isinf(x) || fabs(x) >= 0x1p62) {
        v = x; /* out of range whatever the mode */
        inexact = 1;
    } else {
        double a = fabs(x), fl = floor(a), fr = a - fl; /* exact */
        int up;
        if (fr == 0)
            up = 0;
        else if (pol->rm == NUM_RTZ || (pol->rm == NUM_RUP && neg) || (pol->rm == NUM_RDN && !neg))
            up = 0;
        else if ((pol->rm == NUM_RUP && !neg) || (pol->rm == NUM_RDN && neg))
            up = 1;
        else if (fr != 0.5)
            up = fr > 0.5;
        else
            up = pol->rm == NUM_RMM ? 1 : fmod(fl, 2.0) != 0;
        inexact = fr != 0;
        v = (neg ? -1 : 1) * (fl + up) + zp;
    }
    if (v < lo || v > hi) {
        if (pol->sat) {
            r.flags |= NUM_SAT_HIT | NUM_NX;
            r.bits = (uint32_t)(int64_t)(v < 0 ? lo : hi) & mask;
        } else {
            r.flags |= NUM_NV;
            r.bits = (uint32_t)(int64_t)(v < 0 ? f->lo : f->hi) & mask;
        }
        return r;
    }
    if (inexact) r.flags |= NUM_NX;
    r.bits = (uint32_t)(int64_t)v & mask;
    return r;
}

/* Narrowing by counting/enumeration: does dst hold every value of src? */
static int NARROWS[N_REF_FMTS][N_DST];

static int holds(size_t di, double v)
{
    const ref_fmt *d = &REF_FMTS[di];
    if (!d->is_fp) return v == floor(v) && v >= d->lo && v <= d->hi;
    double a = fabs(v);
    const ref_table *t = &TABLES[di];
    return a <= t->vmax && t->tab[floor_index(t, a)].v == a;
}

static void build_narrows(void)
{
    for (size_t si = 0; si < N_REF_FMTS; si++)
        for (size_t di = 0; di < N_DST; di++) {
            const ref_fmt *s = &REF_FMTS[si], *d = &REF_FMTS[di];
            int n = 0;
            if (s->w == 32 && d->is_fp) {
                n = 1; /* 2^32 source values cannot fit in <= 2^16 patterns */
            } else if (s->is_fp && !d->is_fp) {
                n = 1; /* 0.5 */
            } else if (!s->is_fp && !d->is_fp) {
                n = s->lo < d->lo || s->hi > d->hi;
            } else {
                for (uint32_t b = 0; b < (1u << s->w) && !n; b++) {
                    ref_in in = ref_input(s, b);
                    if (in.cls == 1) n = !holds(di, in.neg ? -in.a : in.a);
                    if (in.cls == 2) n = !d->has_inf;
                }
            }
            NARROWS[si][di] = n;
        }
}

static result ref_convert(size_t si, size_t di, uint32_t bits, const num_policy *pol)
{
    const ref_fmt *s = &REF_FMTS[si], *d = &REF_FMTS[di];
    ref_in in = ref_input(s, bits);
    result r;
    if (d->is_fp && !s->is_fp && pol->q) {
        /* Dequantize: (q - zp) * 2^sh, exact in binary64. */
        double zp = pol->zp_en != NUM_ZP_OFF ? pol->zp : 0;
        double v = (in.neg ? -in.a : in.a) - zp;
        in.neg = v < 0;
        in.a = ldexp(fabs(v), pol->scale_sh);
        in.cls = v != 0;
    }
    if (d->is_fp)
        r = ref_fp(&TABLES[di], &in, pol);
    else
        r = ref_int(d, &in, in.neg ? -in.a : in.a, !s->is_fp, pol);
    if (NARROWS[si][di]) r.flags |= NUM_DOWNCAST_TAKEN;
    return r;
}

/* ---- Driver --------------------------------------------------------------------- */

static const num_rm RMS[5] = {NUM_RNE, NUM_RTZ, NUM_RDN, NUM_RUP, NUM_RMM};

typedef struct {
    unsigned long long checked, failed;
} tally;

static void check_one(size_t si, size_t di, uint32_t in, const num_policy *pol, tally *t)
{
    result want = ref_convert(si, di, in, pol);
    num_flags got_flags = 0;
    uint32_t got = num_convert(REF_FMTS[di].fmt, REF_FMTS[si].fmt, in, pol, &got_flags);
    t->checked++;
    if (got != want.bits || got_flags != want.flags) {
        if (t->failed < 10)
            fprintf(stderr,
                    "MISMATCH %s<-%s rm=%d sat=%d/%d ftz=%d nan=%d q=%d in=0x%08x: got 0x%x/0x%x "
                    "want 0x%x/0x%x\n",
                    REF_FMTS[di].name, REF_FMTS[si].name, pol->rm, pol->sat, pol->sat_mode,
                    pol->ftz, pol->nan_pol, pol->q, in, got, got_flags, want.bits, want.flags);
        t->failed++;
    }
}

static uint32_t f32_bits(double d)
{
    float f = (float)d; /* picks an input near d; exactness does not matter */
    uint32_t b;
    memcpy(&b, &f, 4);
    return b;
}

/* FP32 inputs within +-3 ulp of x (both signs). */
static void check_around(size_t di, double x, const num_policy *pol, tally *t)
{
    uint32_t b = f32_bits(x) & 0x7fffffffu;
    for (int d = -3; d <= 3; d++) {
        uint32_t v = b + (uint32_t)d;
        if ((int64_t)b + d < 0 || v > 0x7f800000u) continue;
        check_one(FP32_IDX, di, v, pol, t);
        check_one(FP32_IDX, di, v | 0x80000000u, pol, t);
    }
}

static const uint32_t SPECIALS[] = {
    0x00000000, 0x80000000, 0x00000001, 0x80000001, 0x007fffff, 0x00800000, 0x7f7fffff,
    0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00000, 0x7f800001, 0xff800001,
    0x7fbfffff, 0x7fffffff, 0x7fd55555, 0x7faaaaaa, 0x3f800000, 0xbf800000, 0x3f000000,
    0xbf000000, 0x3fc00000, 0x40200000, 0x3f7fffff, 0x4f000000, 0xcf000000, 0x4f800000,
};

/* FP32 -> dst: strided inputs, specials and the neighbourhoods of every value and
 * midpoint of dst (FP) or of the interesting points of the range (integer). */
static void check_sample(size_t di, const num_policy *pol, uint32_t stride, tally *t)
{
    for (uint64_t x = 0; x <= 0xffffffffu; x += stride)
        check_one(FP32_IDX, di, (uint32_t)x, pol, t);
    for (size_t i = 0; i < sizeof SPECIALS / sizeof SPECIALS[0]; i++)
        check_one(FP32_IDX, di, SPECIALS[i], pol, t);
    const ref_fmt *f = &REF_FMTS[di];
    /* The neighbourhoods under every policy but only two modes (one nearest, one
     * directed); the default policy gets all five. */
    if (!(pol->rm == NUM_RNE || pol->rm == NUM_RUP ||
          (pol->nan_pol == NUM_NAN_PROPAGATE && !pol->sat && !pol->ftz && !pol->q)))
        return;
    if (f->is_fp) {
        const ref_table *tb = &TABLES[di];
        for (size_t i = 0; i < tb->n; i++) {
            check_around(di, tb->tab[i].v, pol, t);
            double next = i + 1 < tb->n ? tb->tab[i + 1].v : tb->virt;
            check_around(di, (tb->tab[i].v + next) / 2, pol, t);
        }
        check_around(di, tb->virt, pol, t);
        check_around(di, tb->virt * 2, pol, t);
    } else {
        double pts[] = {0.5,         1,           1.5,         2.5,       3.5,       f->lo,
                        f->hi,       f->lo - 0.5, f->hi + 0.5, f->lo - 1, f->hi + 1, f->lo + 0.5,
                        f->hi - 0.5, 0x1p31,      0x1p32,      0x1p62,    0x1p63,    0x1p64};
        for (size_t i = 0; i < sizeof pts / sizeof pts[0]; i++)
            check_around(di, pts[i], pol, t);
        for (int k = -300; k <= 300; k++)
            check_around(di, k * 0.25, pol, t);
    }
}

static num_policy mkpol(num_rm rm, int variant)
{
    num_policy p = num_policy_default();
    p.rm = rm;
    switch (variant) {
    case 0:
        break;
    case 1:
        p.sat = true;
        p.nan_pol = NUM_NAN_CANONICAL;
        break;
    case 2:
        p.ftz = true;
        p.nan_pol = NUM_NAN_ZERO;
        break;
    case 3:
        p.sat = true;
        p.sat_mode = NUM_SAT_SYMMETRIC;
        p.ftz = true;
        break;
    case 4: /* quantization: only FP <-> integer conversions use it */
        p.q = true;
        p.zp_en = NUM_ZP_TENSOR;
        p.zp = -3;
        p.scale_sh = -4;
        p.sat = true;
        break;
    case 5:
        p.q = true;
        p.zp_en = NUM_ZP_TENSOR;
        p.zp = 5;
        p.scale_sh = 3;
        break;
    }
    return p;
}
#define N_VARIANTS 6

/* Quantization variants only where they change something. */
static int variant_applies(size_t si, size_t di, int v)
{
    return v < 4 || REF_FMTS[si].is_fp != REF_FMTS[di].is_fp;
}

static void build_tables(void)
{
    static int built;
    if (built) return;
    for (size_t i = 0; i < N_DST; i++)
        if (REF_FMTS[i].is_fp) build_table(&TABLES[i], &REF_FMTS[i]);
    build_narrows();
    built = 1;
}

/* Reference self-check against values from the formats' definitions. */
static void test_reference_tables(void **state)
{
    (void)state;
    build_tables();
    assert_true(TABLES[0].vmax == 65504.0);             /* FP16 max */
    assert_true(TABLES[0].tab[1].v == ldexp(1.0, -24)); /* FP16 min subnormal */
    assert_true(TABLES[2].vmax == 448.0);               /* E4M3 max */
    assert_true(TABLES[2].tab[1].v == ldexp(1.0, -9));  /* E4M3 min subnormal */
    assert_true(TABLES[2].virt == 480.0);
    assert_true(TABLES[3].vmax == 57344.0); /* E5M2 max */
    assert_true(TABLES[3].tab[1].v == ldexp(1.0, -16));
    assert_true(TABLES[1].vmax == ldexp(255.0, 120)); /* BF16 max (2-2^-7)*2^127 */
    assert_int_equal(TABLES[2].n, 127);               /* 126 non-zero magnitudes + 0 */
    /* Narrowing by enumeration agrees with the obvious cases. */
    assert_false(NARROWS[2][0]);  /* e4m3 -> fp16 */
    assert_true(NARROWS[0][1]);   /* fp16 -> bf16 */
    assert_false(NARROWS[8][1]);  /* i8 -> bf16 */
    assert_true(NARROWS[6][0]);   /* i16 -> fp16 */
    assert_false(NARROWS[10][2]); /* i4 -> e4m3 */
}

static void run_fp32_to(size_t di, uint32_t stride)
{
    build_tables();
    tally t = {0, 0};
    for (int r = 0; r < 5; r++)
        for (int v = 0; v < N_VARIANTS; v++) {
            if (!variant_applies(FP32_IDX, di, v)) continue;
            num_policy pol = mkpol(RMS[r], v);
            check_sample(di, &pol, v == 0 ? stride : stride * 7 + 2, &t);
        }
    if (t.failed)
        fprintf(stderr, "%s: %llu of %llu mismatched\n", REF_FMTS[di].name, t.failed, t.checked);
    assert_int_equal(t.failed, 0);
}

/* REQ: CAP-085 CAP-087 CAP-092 CAP-112 CAP-121 */
#define SAMPLE_TEST(idx)                                                                           \
    static void test_fp32_to_##idx(void **state)                                                   \
    {                                                                                              \
        (void)state;                                                                               \
        run_fp32_to(idx, 4099);                                                                    \
    }
SAMPLE_TEST(0)
SAMPLE_TEST(1)
SAMPLE_TEST(2)
SAMPLE_TEST(3)
SAMPLE_TEST(4)
SAMPLE_TEST(5)
SAMPLE_TEST(6)
SAMPLE_TEST(7)
SAMPLE_TEST(8)
SAMPLE_TEST(9)
SAMPLE_TEST(10)
SAMPLE_TEST(11)
SAMPLE_TEST(12)
SAMPLE_TEST(13)

/* Every pattern of the 16/8-bit FP formats and of the <= 16-bit integers, and strided
 * 32-bit integers, to every destination (same-format included: FTZ and NaN policy). */
/* REQ: CAP-087 CAP-094 CAP-112 CAP-121 */
static void test_other_sources(void **state)
{
    (void)state;
    build_tables();
    tally t = {0, 0};
    for (size_t si = 0; si < N_DST; si++) {
        const ref_fmt *s = &REF_FMTS[si];
        uint64_t n = (uint64_t)1 << s->w;
        uint64_t stride0 = s->w == 32 ? 65521 : 1;
        for (size_t di = 0; di < N_DST; di++)
            for (int r = 0; r < 5; r++)
                for (int v = 0; v < N_VARIANTS; v++) {
                    if (!variant_applies(si, di, v)) continue;
                    /* Keep the default run short: all policies only in RNE and RDN. */
                    if (v > 0 && r != 0 && r != 2) continue;
                    num_policy pol = mkpol(RMS[r], v);
                    /* Other policies: every 7th 16-bit pattern is enough. */
                    uint64_t stride = (v > 0 && s->w == 16) ? 7 : stride0;
                    for (uint64_t b = 0; b < n; b += stride)
                        check_one(si, di, (uint32_t)b, &pol, &t);
                    if (s->w == 32) {
                        const uint32_t ex[] = {0x80000000u, 0x7fffffffu, 0xffffffffu, 1,
                                               0x01000001u, 0xff000001u, 0x00fff001u, 0x80000001u,
                                               65504,       65520};
                        for (size_t i = 0; i < sizeof ex / sizeof ex[0]; i++)
                            check_one(si, di, ex[i], &pol, &t);
                    }
                }
    }
    if (t.failed) fprintf(stderr, "other sources: %llu of %llu mismatched\n", t.failed, t.checked);
    assert_int_equal(t.failed, 0);
}

/* ---- Full run ------------------------------------------------------------------- */

typedef struct {
    size_t di;
    num_policy pol;
    uint64_t begin, end;
    tally t;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    /* Work on private copies: the jobs share cache lines, and a tally written on every
     * input there made the threads fight over them (several times slower). */
    const num_policy pol = j->pol;
    tally t = {0, 0};
    for (uint64_t x = j->begin; x < j->end; x++)
        check_one(FP32_IDX, j->di, (uint32_t)x, &pol, &t);
    j->t = t;
    return NULL;
}

static int run_full(const char *only, int only_rm, int variants)
{
    build_tables();
    long nth = sysconf(_SC_NPROCESSORS_ONLN);
    const char *env = getenv("NUM_THREADS");
    if (env && atoi(env) > 0) nth = atoi(env);
    if (nth < 1) nth = 1;
    if (nth > 64) nth = 64;
    unsigned long long total_fail = 0;
    for (size_t di = 0; di < N_DST; di++) {
        if (only && strcmp(only, REF_FMTS[di].name) != 0) continue;
        for (int r = 0; r < 5; r++)
            for (int v = 0; v < variants; v++) {
                if (!variant_applies(FP32_IDX, di, v)) continue;
                if (only_rm >= 0 && (int)RMS[r] != only_rm) continue;
                pthread_t th[64];
                job jobs[64];
                uint64_t chunk = (UINT64_C(1) << 32) / (uint64_t)nth + 1;
                for (long k = 0; k < nth; k++) {
                    jobs[k].di = di;
                    jobs[k].pol = mkpol(RMS[r], v);
                    jobs[k].begin = chunk * (uint64_t)k;
                    uint64_t end = chunk * (uint64_t)(k + 1);
                    jobs[k].end = end > (UINT64_C(1) << 32) ? (UINT64_C(1) << 32) : end;
                    jobs[k].t = (tally){0, 0};
                    pthread_create(&th[k], NULL, worker, &jobs[k]);
                }
                tally sum = {0, 0};
                for (long k = 0; k < nth; k++) {
                    pthread_join(th[k], NULL);
                    sum.checked += jobs[k].t.checked;
                    sum.failed += jobs[k].t.failed;
                }
                printf("fp32 -> %-4s rm=%d policy=%d: %llu inputs, %llu mismatches\n",
                       REF_FMTS[di].name, (int)RMS[r], v, sum.checked, sum.failed);
                fflush(stdout);
                total_fail += sum.failed;
            }
    }
    printf("%s\n", total_fail ? "FAILED" : "all inputs agree");
    return total_fail ? 1 : 0;
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--full") == 0) {
        /* --full [dst] [--rm N] [--all-policies]: default policy unless asked. */
        const char *only = NULL;
        int variants = 1, only_rm = -1;
        for (int i = 2; i < argc; i++) {
            if (strcmp(argv[i], "--all-policies") == 0)
                variants = N_VARIANTS;
            else if (strcmp(argv[i], "--rm") == 0 && i + 1 < argc)
                only_rm = atoi(argv[++i]);
            else
                only = argv[i];
        }
        return run_full(only, only_rm, variants);
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_tables), cmocka_unit_test(test_fp32_to_0),
        cmocka_unit_test(test_fp32_to_1),        cmocka_unit_test(test_fp32_to_2),
        cmocka_unit_test(test_fp32_to_3),        cmocka_unit_test(test_fp32_to_4),
        cmocka_unit_test(test_fp32_to_5),        cmocka_unit_test(test_fp32_to_6),
        cmocka_unit_test(test_fp32_to_7),        cmocka_unit_test(test_fp32_to_8),
        cmocka_unit_test(test_fp32_to_9),        cmocka_unit_test(test_fp32_to_10),
        cmocka_unit_test(test_fp32_to_11),       cmocka_unit_test(test_fp32_to_12),
        cmocka_unit_test(test_fp32_to_13),       cmocka_unit_test(test_other_sources),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
