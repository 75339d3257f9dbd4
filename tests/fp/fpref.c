/* fpref.c — exact big-integer reference for RISC-V F/D arithmetic (see fpref.h).
 * Deliberately simple and slow: correctness by construction, no host floating point. */
#include "fpref.h"

#include <assert.h>
#include <string.h>

typedef unsigned __int128 u128;
typedef __int128 i128;

/* ---------------------------------------------------------------- big unsigned integers */

#define NL 80 /* 5120 bits: a binary64 fma spans at most ~3200 bits */

typedef struct big {
    int n; /* limbs in use; w[n-1] != 0 unless n == 0 */
    uint64_t w[NL];
} big;

static void big_trim(big *x)
{
    while (x->n > 0 && x->w[x->n - 1] == 0)
        x->n--;
}

/* x = v * 2^sh */
static void big_set_shl(big *x, u128 v, int sh)
{
    assert(sh >= 0);
    int limb = sh / 64, bit = sh % 64;
    assert(limb + 3 <= NL);
    for (int i = 0; i < limb; i++)
        x->w[i] = 0;
    uint64_t lo = (uint64_t)v, hi = (uint64_t)(v >> 64);
    x->w[limb] = lo << bit;
    x->w[limb + 1] = bit ? (hi << bit) | (lo >> (64 - bit)) : hi;
    x->w[limb + 2] = bit ? hi >> (64 - bit) : 0;
    x->n = limb + 3;
    big_trim(x);
}

static int big_cmp(const big *a, const big *b)
{
    if (a->n != b->n) return a->n < b->n ? -1 : 1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->w[i] != b->w[i]) return a->w[i] < b->w[i] ? -1 : 1;
    return 0;
}

static void big_add(big *r, const big *a, const big *b)
{
    int n = a->n > b->n ? a->n : b->n;
    unsigned carry = 0;
    for (int i = 0; i < n; i++) {
        uint64_t x = i < a->n ? a->w[i] : 0, y = i < b->n ? b->w[i] : 0;
        u128 s = (u128)x + y + carry;
        r->w[i] = (uint64_t)s;
        carry = (unsigned)(s >> 64);
    }
    assert(n < NL);
    r->w[n] = carry;
    r->n = n + 1;
    big_trim(r);
}

/* r = a - b, a >= b */
static void big_sub(big *r, const big *a, const big *b)
{
    unsigned borrow = 0;
    for (int i = 0; i < a->n; i++) {
        uint64_t x = a->w[i], y = i < b->n ? b->w[i] : 0;
        uint64_t d = x - y - borrow;
        borrow = (x < y) || (x - y < borrow);
        r->w[i] = d;
    }
    assert(!borrow);
    r->n = a->n;
    big_trim(r);
}

static int big_bitlen(const big *a)
{
    if (a->n == 0) return 0;
    return (a->n - 1) * 64 + 64 - __builtin_clzll(a->w[a->n - 1]);
}

static int big_bit(const big *a, int i)
{
    if (i < 0 || i / 64 >= a->n) return 0;
    return (int)((a->w[i / 64] >> (i % 64)) & 1);
}

/* Any bit set at a position below i? */
static int big_any_below(const big *a, int i)
{
    for (int k = 0; k < a->n && k * 64 < i; k++) {
        int top = i - k * 64; /* bits of this limb that count */
        uint64_t mask = top >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << top) - 1;
        if (a->w[k] & mask) return 1;
    }
    return 0;
}

/* Bits [pos, pos+64) of a, pos >= 0. */
static uint64_t big_bits64(const big *a, int pos)
{
    uint64_t r = 0;
    for (int j = 0; j < 64; j++)
        r |= (uint64_t)big_bit(a, pos + j) << j;
    return r;
}

/* ---------------------------------------------------------------- formats */

typedef struct fi {
    int p, emin, emax, ebits;
} fi;
static const fi FI[2] = {{24, -126, 127, 8}, {53, -1022, 1023, 11}};

enum { C_ZERO, C_FIN, C_INF, C_QNAN, C_SNAN };

typedef struct num {
    int cls, neg;
    uint64_t m; /* value = m * 2^e for C_FIN (m > 0); m = 0 for C_ZERO */
    int e;
} num;

static num decode(int f, uint64_t x)
{
    const fi *t = &FI[f];
    num r = {0, 0, 0, 0};
    int width = t->p + t->ebits;
    uint64_t frac = x & ((UINT64_C(1) << (t->p - 1)) - 1);
    int bexp = (int)((x >> (t->p - 1)) & ((UINT64_C(1) << t->ebits) - 1));
    r.neg = (int)((x >> (width - 1)) & 1);
    if (bexp == (1 << t->ebits) - 1) {
        if (frac == 0)
            r.cls = C_INF;
        else
            r.cls = ((frac >> (t->p - 2)) & 1) ? C_QNAN : C_SNAN;
    } else if (bexp == 0) {
        r.cls = frac ? C_FIN : C_ZERO;
        r.m = frac;
        r.e = t->emin - (t->p - 1);
    } else {
        r.cls = C_FIN;
        r.m = frac | (UINT64_C(1) << (t->p - 1));
        r.e = bexp - t->emax - (t->p - 1);
    }
    return r;
}

static uint64_t encode(int f, int neg, int bexp, uint64_t frac)
{
    const fi *t = &FI[f];
    return ((uint64_t)neg << (t->p + t->ebits - 1)) | ((uint64_t)bexp << (t->p - 1)) | frac;
}
static uint64_t canon_nan(int f)
{
    return f ? UINT64_C(0x7ff8000000000000) : 0x7fc00000u;
}
static uint64_t inf_of(int f, int neg)
{
    return encode(f, neg, (1 << FI[f].ebits) - 1, 0);
}
static uint64_t zero_of(int f, int neg)
{
    return encode(f, neg, 0, 0);
}
static uint64_t maxfin_of(int f, int neg)
{
    return encode(f, neg, (1 << FI[f].ebits) - 2, (UINT64_C(1) << (FI[f].p - 1)) - 1);
}

/* ---------------------------------------------------------------- rounding */

/* Rounds (-1)^neg * (M + s) * 2^E, with 0 <= s < 1 and s > 0 iff sticky, to an integer
 * multiple R of 2^q. Sets *inexact. */
static uint64_t rnd_grid(const big *M, int E, int sticky, int q, int neg, unsigned rm, int *inexact)
{
    int cut = q - E;
    if (cut <= 0) {
        assert(!sticky && big_bitlen(M) - cut <= 64);
        *inexact = 0;
        return big_bits64(M, 0) << -cut;
    }
    assert(big_bitlen(M) - cut <= 63);
    uint64_t R = big_bits64(M, cut);
    int guard = big_bit(M, cut - 1);
    int rest = sticky || big_any_below(M, cut - 1);
    int up = 0;
    switch (rm) {
    case 0:
        up = guard && (rest || (R & 1));
        break; /* RNE */
    case 1:
        up = 0;
        break; /* RTZ */
    case 2:
        up = neg && (guard || rest);
        break; /* RDN */
    case 3:
        up = !neg && (guard || rest);
        break; /* RUP */
    case 4:
        up = guard;
        break; /* RMM */
    default:
        assert(0);
    }
    *inexact = guard || rest;
    return R + (uint64_t)up;
}

static int bitlen64(uint64_t v)
{
    return v ? 64 - __builtin_clzll(v) : 0;
}

/* Rounds the nonzero value (-1)^neg * (M + s) * 2^E once into format f. */
static uint64_t ref_round(int f, int neg, const big *M, int E, int sticky, unsigned rm,
                          unsigned *fl)
{
    const fi *t = &FI[f];
    int L = big_bitlen(M);
    assert(L > 0);
    int e = E + L - 1; /* exponent of the leading bit */
    int inex;
    /* tininess after rounding: round to p bits with an unbounded exponent range */
    int q = e - (t->p - 1);
    uint64_t R1 = rnd_grid(M, E, sticky, q, neg, rm, &inex);
    int e1 = bitlen64(R1) - 1 + q;
    int tiny = e1 < t->emin;
    /* the real rounding: the grid never gets finer than the subnormal spacing */
    int qb = q < t->emin - (t->p - 1) ? t->emin - (t->p - 1) : q;
    uint64_t R = rnd_grid(M, E, sticky, qb, neg, rm, &inex);
    if (R != 0 && bitlen64(R) - 1 + qb > t->emax) {
        *fl |= 0x04 | 0x01; /* OF NX */
        int to_inf = rm == 0 || rm == 4 || (rm == 2 && neg) || (rm == 3 && !neg);
        return to_inf ? inf_of(f, neg) : maxfin_of(f, neg);
    }
    if (inex) *fl |= tiny ? 0x03 : 0x01;
    if (R == 0) return zero_of(f, neg);
    int lead = bitlen64(R) - 1 + qb; /* exponent of the leading bit of the result */
    if (lead < t->emin) {            /* subnormal: the grid is the subnormal spacing */
        assert(qb == t->emin - (t->p - 1));
        return encode(f, neg, 0, R);
    }
    /* normal: express R with exactly p bits */
    int shift = bitlen64(R) - t->p;
    uint64_t m = shift >= 0 ? R >> shift : R << -shift;
    assert(shift <= 0 || (R & ((UINT64_C(1) << shift) - 1)) == 0);
    return encode(f, neg, lead + t->emax, m & ((UINT64_C(1) << (t->p - 1)) - 1));
}

/* ---------------------------------------------------------------- exact operations */

/* (-1)^na * A * 2^ea + (-1)^nb * B * 2^eb, rounded once; A or B may be 0. */
static uint64_t sum_round(int f, int na, u128 A, int ea, int nb, u128 B, int eb, unsigned rm,
                          unsigned *fl)
{
    if (A == 0) ea = eb;
    if (B == 0) eb = ea;
    int e = ea < eb ? ea : eb;
    big X, Y, S;
    big_set_shl(&X, A, ea - e);
    big_set_shl(&Y, B, eb - e);
    int neg;
    if (na == nb) {
        big_add(&S, &X, &Y);
        neg = na;
    } else if (big_cmp(&X, &Y) >= 0) {
        big_sub(&S, &X, &Y);
        neg = na;
    } else {
        big_sub(&S, &Y, &X);
        neg = nb;
    }
    if (S.n == 0) /* exact zero: x + x keeps its sign, otherwise +0 except in RDN */
        return zero_of(f, na == nb ? na : rm == 2);
    return ref_round(f, neg, &S, e, 0, rm, fl);
}

static int is_nan(const num *x)
{
    return x->cls >= C_QNAN;
}

static uint64_t r_fma(int f, num x, num y, num z, int negp, int negc, unsigned rm, unsigned *fl)
{
    int inf_zero = (x.cls == C_INF && y.cls == C_ZERO) || (x.cls == C_ZERO && y.cls == C_INF);
    if (is_nan(&x) || is_nan(&y) || is_nan(&z)) {
        /* RISC-V: inf*0 is invalid even when the addend is a quiet NaN */
        if (x.cls == C_SNAN || y.cls == C_SNAN || z.cls == C_SNAN || inf_zero) *fl |= 0x10;
        return canon_nan(f);
    }
    int ps = x.neg ^ y.neg ^ negp, zs = z.neg ^ negc;
    if (inf_zero) {
        *fl |= 0x10;
        return canon_nan(f);
    }
    if (x.cls == C_INF || y.cls == C_INF) {
        if (z.cls == C_INF && zs != ps) {
            *fl |= 0x10;
            return canon_nan(f);
        }
        return inf_of(f, ps);
    }
    if (z.cls == C_INF) return inf_of(f, zs);
    return sum_round(f, ps, (u128)x.m * y.m, x.e + y.e, zs, z.m, z.e, rm, fl);
}

static uint64_t r_add(int f, num x, num y, unsigned rm, unsigned *fl)
{
    if (is_nan(&x) || is_nan(&y)) {
        if (x.cls == C_SNAN || y.cls == C_SNAN) *fl |= 0x10;
        return canon_nan(f);
    }
    if (x.cls == C_INF && y.cls == C_INF && x.neg != y.neg) {
        *fl |= 0x10;
        return canon_nan(f);
    }
    if (x.cls == C_INF) return inf_of(f, x.neg);
    if (y.cls == C_INF) return inf_of(f, y.neg);
    return sum_round(f, x.neg, x.m, x.e, y.neg, y.m, y.e, rm, fl);
}

static uint64_t r_mul(int f, num x, num y, unsigned rm, unsigned *fl)
{
    int inf_zero = (x.cls == C_INF && y.cls == C_ZERO) || (x.cls == C_ZERO && y.cls == C_INF);
    int s = x.neg ^ y.neg;
    if (is_nan(&x) || is_nan(&y) || inf_zero) {
        if (x.cls == C_SNAN || y.cls == C_SNAN || inf_zero) *fl |= 0x10;
        return canon_nan(f);
    }
    if (x.cls == C_INF || y.cls == C_INF) return inf_of(f, s);
    if (x.cls == C_ZERO || y.cls == C_ZERO) return zero_of(f, s);
    big P;
    big_set_shl(&P, (u128)x.m * y.m, 0);
    return ref_round(f, s, &P, x.e + y.e, 0, rm, fl);
}

static uint64_t r_div(int f, num x, num y, unsigned rm, unsigned *fl)
{
    int s = x.neg ^ y.neg;
    if (is_nan(&x) || is_nan(&y)) {
        if (x.cls == C_SNAN || y.cls == C_SNAN) *fl |= 0x10;
        return canon_nan(f);
    }
    if ((x.cls == C_INF && y.cls == C_INF) || (x.cls == C_ZERO && y.cls == C_ZERO)) {
        *fl |= 0x10;
        return canon_nan(f);
    }
    if (x.cls == C_INF) return inf_of(f, s);
    if (y.cls == C_INF) return zero_of(f, s);
    if (y.cls == C_ZERO) {
        *fl |= 0x08; /* DZ */
        return inf_of(f, s);
    }
    if (x.cls == C_ZERO) return zero_of(f, s);
    int sa = __builtin_clzll(x.m), sb = __builtin_clzll(y.m);
    u128 na = (u128)(x.m << sa) << 64, nb = y.m << sb;
    u128 Q = na / nb, rem = na % nb; /* Q >= 2^63: plenty of bits below the cut */
    big B;
    big_set_shl(&B, Q, 0);
    return ref_round(f, s, &B, (x.e - sa) - (y.e - sb) - 64, rem != 0, rm, fl);
}

static uint64_t r_sqrt(int f, num x, unsigned rm, unsigned *fl)
{
    if (is_nan(&x)) {
        if (x.cls == C_SNAN) *fl |= 0x10;
        return canon_nan(f);
    }
    if (x.cls == C_ZERO) return zero_of(f, x.neg);
    if (x.neg) {
        *fl |= 0x10;
        return canon_nan(f);
    }
    if (x.cls == C_INF) return inf_of(f, 0);
    int s = 120 - bitlen64(x.m);
    if ((x.e - s) & 1) s++;
    u128 X = (u128)x.m << s, r = 0;
    for (int i = 63; i >= 0; i--) {
        u128 t = r | ((u128)1 << i);
        if (t * t <= X) r = t;
    }
    big B;
    big_set_shl(&B, r, 0);
    return ref_round(f, 0, &B, (x.e - s) / 2, r * r != X, rm, fl);
}

uint64_t ref_arith(int f, enum refop op, uint64_t a, uint64_t b, uint64_t c, unsigned rm,
                   unsigned *fl)
{
    num x = decode(f, a), y = decode(f, b), z = decode(f, c);
    switch (op) {
    case REF_ADD:
        return r_add(f, x, y, rm, fl);
    case REF_SUB:
        y.neg ^= 1;
        return r_add(f, x, y, rm, fl);
    case REF_MUL:
        return r_mul(f, x, y, rm, fl);
    case REF_DIV:
        return r_div(f, x, y, rm, fl);
    case REF_SQRT:
        return r_sqrt(f, x, rm, fl);
    case REF_FMADD:
        return r_fma(f, x, y, z, 0, 0, rm, fl);
    case REF_FMSUB:
        return r_fma(f, x, y, z, 0, 1, rm, fl);
    case REF_FNMSUB:
        return r_fma(f, x, y, z, 1, 0, rm, fl);
    case REF_FNMADD:
        return r_fma(f, x, y, z, 1, 1, rm, fl);
    }
    assert(0);
    return 0;
}

uint64_t ref_cvt_f_f(int to, uint64_t a, unsigned rm, unsigned *fl)
{
    num x = decode(1 - to, a);
    switch (x.cls) {
    case C_SNAN:
        *fl |= 0x10; /* fall through */
    case C_QNAN:
        return canon_nan(to);
    case C_INF:
        return inf_of(to, x.neg);
    case C_ZERO:
        return zero_of(to, x.neg);
    default:
        break;
    }
    big M;
    big_set_shl(&M, x.m, 0);
    return ref_round(to, x.neg, &M, x.e, 0, rm, fl);
}

uint64_t ref_cvt_to_int(int f, uint64_t a, int bits, int is_signed, unsigned rm, unsigned *fl)
{
    i128 lo = is_signed ? -((i128)1 << (bits - 1)) : 0;
    i128 hi = is_signed ? ((i128)1 << (bits - 1)) - 1 : ((i128)1 << bits) - 1;
    num x = decode(f, a);
    i128 v = 0;
    int inex = 0, out = 0;
    switch (x.cls) {
    case C_SNAN:
    case C_QNAN:
        v = hi, out = 1;
        break;
    case C_INF:
        v = x.neg ? lo : hi, out = 1;
        break;
    case C_ZERO:
        v = 0;
        break;
    default:
        if (x.e >= 0) {
            if (bitlen64(x.m) + x.e > 80) {
                v = x.neg ? lo : hi, out = 1;
                break;
            }
            v = (i128)((u128)x.m << x.e);
        } else {
            big M;
            big_set_shl(&M, x.m, 0);
            v = (i128)rnd_grid(&M, x.e, 0, 0, x.neg, rm, &inex);
        }
        if (x.neg) v = -v;
        if (v < lo || v > hi) v = v < lo ? lo : hi, out = 1;
    }
    if (out)
        *fl |= 0x10; /* saturated: NV only */
    else if (inex)
        *fl |= 0x01;
    if (bits == 32) return (uint64_t)(int64_t)(int32_t)(uint32_t)(uint64_t)v;
    return (uint64_t)v;
}

uint64_t ref_cvt_from_int(int f, uint64_t v, int bits, int is_signed, unsigned rm, unsigned *fl)
{
    i128 x;
    if (bits == 32)
        x = is_signed ? (i128)(int32_t)(uint32_t)v : (i128)(uint32_t)v;
    else
        x = is_signed ? (i128)(int64_t)v : (i128)v;
    if (x == 0) return zero_of(f, 0);
    int neg = x < 0;
    big M;
    big_set_shl(&M, (u128)(neg ? -x : x), 0);
    return ref_round(f, neg, &M, 0, 0, rm, fl);
}
