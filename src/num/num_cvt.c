/* num_cvt.c — rounding, conversion and fused multiply-add of the numeric engine.
 *
 * Every operation follows one path: unpack the operands into exact values
 * (sign, integer significand, power-of-two exponent), compute the exact result (or a
 * result whose discarded bits are only "jammed" into a sticky bit far below any rounding
 * position), then round and pack once into the destination. Rounding is integer
 * arithmetic on the significand, so the host FPU and its mode never matter. */
#include "num_fmtinfo.h"

typedef enum { C_ZERO, C_FIN, C_INF, C_NAN } num_class;

typedef struct {
    num_class cls;
    bool neg;
    uint64_t sig; /* C_FIN: value = sig * 2^exp, sig != 0 */
    int exp;
    uint64_t payload; /* C_NAN: fraction left-justified at bit 63 (quiet bit = bit 63) */
} unp;

/* REQ: CAP-121 CAP-127 */
static inline void add_flags(num_flags *flags, num_flags f)
{
    if (flags) *flags |= f;
}

/* REQ: CAP-087 */
static inline int msb64(uint64_t x)
{
    return 63 - __builtin_clzll(x);
}

/* REQ: CAP-087 */
static num_rm eff_rm(const num_policy *pol)
{
    return (unsigned)pol->rm <= (unsigned)NUM_RMM ? pol->rm : NUM_RNE;
}

/* Decodes `bits`. NaN operands raise their "seen" flags (and NV for sNaN); with FTZ,
 * subnormal FP operands read as signed zero and raise FTZ_HIT. */
/* REQ: CAP-104 CAP-105 CAP-110 CAP-113 CAP-121 CAP-127 */
static unp unpack(const num_fmtinfo *fi, uint32_t bits, const num_policy *pol, num_flags *flags)
{
    unp u = {C_ZERO, false, 0, 0, 0};
    if (fi->bits < 32) bits &= (UINT32_C(1) << fi->bits) - 1;
    if (!fi->fp) {
        int64_t v = (int64_t)bits;
        if (fi->sgn && (bits >> (fi->bits - 1))) v -= (int64_t)1 << fi->bits;
        u.neg = v < 0;
        u.sig = (uint64_t)(v < 0 ? -v : v);
        u.cls = u.sig ? C_FIN : C_ZERO;
        return u;
    }
    uint32_t eall = (1u << fi->ebits) - 1;
    uint32_t e = (bits >> fi->mbits) & eall;
    uint32_t m = bits & ((1u << fi->mbits) - 1);
    u.neg = (bits >> (fi->bits - 1)) & 1;
    if (e == eall && fi->has_inf) {
        if (m == 0) {
            u.cls = C_INF;
            return u;
        }
        u.cls = C_NAN;
        u.payload = (uint64_t)m << (64 - fi->mbits);
        bool quiet = u.payload >> 63;
        add_flags(flags, quiet ? NUM_QNAN_SEEN : (NUM_SNAN_SEEN | NUM_NV));
        return u;
    }
    if (e == eall && !fi->has_inf && m == (1u << fi->mbits) - 1) {
        /* E4M3's only NaN: quiet, no payload. */
        u.cls = C_NAN;
        u.payload = UINT64_C(1) << 63;
        add_flags(flags, NUM_QNAN_SEEN);
        return u;
    }
    if (e == 0) {
        if (m == 0) return u;
        if (pol->ftz) {
            add_flags(flags, NUM_FTZ_HIT);
            return u;
        }
        u.cls = C_FIN;
        u.sig = m;
        u.exp = num_fi_emin(fi) - fi->mbits;
        return u;
    }
    u.cls = C_FIN;
    u.sig = m | (UINT64_C(1) << fi->mbits);
    u.exp = (int)e - fi->bias - fi->mbits;
    return u;
}

/* REQ: CAP-085 CAP-087 CAP-104 CAP-105 */
static uint32_t pack_fp(const num_fmtinfo *fi, bool neg, uint32_t e, uint32_t m)
{
    return ((uint32_t)neg << (fi->bits - 1)) | (e << fi->mbits) | m;
}

/* REQ: CAP-085 CAP-104 CAP-105 */
static uint32_t fp_maxfinite(const num_fmtinfo *fi, bool neg)
{
    uint32_t eall = (1u << fi->ebits) - 1;
    uint32_t m = (uint32_t)num_fi_maxsig(fi) & ((1u << fi->mbits) - 1);
    return pack_fp(fi, neg, fi->has_inf ? eall - 1 : eall, m);
}

/* A NaN result. `src` is the NaN to propagate, or NULL for a NaN created by an invalid
 * operation (which is always the canonical NaN). */
/* REQ: CAP-113 CAP-127 */
static uint32_t nan_result(const num_fmtinfo *fi, const unp *src, const num_policy *pol)
{
    uint32_t eall = (1u << fi->ebits) - 1;
    uint32_t qbit = 1u << (fi->mbits - 1);
    if (pol->nan_pol == NUM_NAN_ZERO) return 0;
    if (pol->nan_pol != NUM_NAN_PROPAGATE || !src) {
        /* Canonical: positive; E4M3 has a single NaN pattern. */
        return pack_fp(fi, false, eall, fi->has_inf ? qbit : (1u << fi->mbits) - 1);
    }
    if (!fi->has_inf) return pack_fp(fi, src->neg, eall, (1u << fi->mbits) - 1);
    uint32_t m = (uint32_t)(src->payload >> (64 - fi->mbits)) | qbit;
    return pack_fp(fi, src->neg, eall, m);
}

/* Integer results: clamp or report. `v` is the rounded value (plus zero point); `big`
 * says it is beyond any int64 (then `v` only carries the sign). */
/* REQ: CAP-085 CAP-092 CAP-094 */
static uint32_t int_result(const num_fmtinfo *fi, int64_t v, bool big, bool inexact,
                           const num_policy *pol, num_flags *flags)
{
    int64_t lo = fi->imin, hi = fi->imax;
    if (pol->sat && pol->sat_mode == NUM_SAT_SYMMETRIC && fi->sgn) lo = -hi;
    uint32_t mask = fi->bits < 32 ? (UINT32_C(1) << fi->bits) - 1 : UINT32_MAX;
    if (big || v < lo || v > hi) {
        /* SAT=0 is RISC-V fcvt: clamp with NV only. SAT=1 saturates quietly. */
        add_flags(flags, pol->sat ? (NUM_SAT_HIT | NUM_NX) : NUM_NV);
        return (uint32_t)(v < 0 ? (pol->sat ? lo : fi->imin) : hi) & mask;
    }
    if (inexact) add_flags(flags, NUM_NX);
    return (uint32_t)v & mask;
}

/* NaN into an integer destination. */
/* REQ: CAP-085 */
static uint32_t int_nan(const num_fmtinfo *fi, const num_policy *pol, num_flags *flags)
{
    add_flags(flags, NUM_NV);
    return pol->sat ? 0 : (uint32_t)fi->imax;
}

/* An infinite value into `fi`. */
/* REQ: CAP-085 CAP-104 CAP-113 */
static uint32_t inf_result(const num_fmtinfo *fi, bool neg, const num_policy *pol, num_flags *flags)
{
    if (!fi->fp) return int_result(fi, neg ? -1 : 1, true, true, pol, flags);
    if (fi->has_inf) return pack_fp(fi, neg, (1u << fi->ebits) - 1, 0);
    /* E4M3 has no infinity. */
    if (pol->sat) {
        add_flags(flags, NUM_SAT_HIT | NUM_NX);
        return fp_maxfinite(fi, neg);
    }
    /* An invalid operation: the NaN is created, so it is canonical (errata Q-20). */
    add_flags(flags, NUM_NV);
    return nan_result(fi, NULL, pol);
}

/* Rounds sig * 2^exp (+ sticky below sig's LSB) to an integer by rm. Returns the
 * magnitude; *big is set when it cannot fit in 62 bits. */
/* REQ: CAP-087 */
static uint64_t round_int(bool neg, uint64_t sig, int exp, bool sticky, num_rm rm, bool *inexact,
                          bool *big)
{
    *big = false;
    if (sig == 0) {
        *inexact = sticky;
        return 0;
    }
    if (exp >= 0) {
        *inexact = sticky;
        if (msb64(sig) + exp >= 62) {
            *big = true;
            return 0;
        }
        return sig << exp;
    }
    int d = -exp;
    uint64_t kept;
    bool rbit, st = sticky;
    if (d < 64) {
        kept = sig >> d;
        rbit = (sig >> (d - 1)) & 1;
        st |= (sig & ((UINT64_C(1) << (d - 1)) - 1)) != 0;
    } else {
        kept = 0;
        rbit = d == 64 ? (sig >> 63) & 1 : 0;
        st |= d == 64 ? (sig & ~(UINT64_C(1) << 63)) != 0 : true;
    }
    bool inx = rbit || st, up = false;
    switch (rm) {
    case NUM_RNE:
        up = rbit && (st || (kept & 1));
        break;
    case NUM_RMM:
        up = rbit;
        break;
    case NUM_RTZ:
        up = false;
        break;
    case NUM_RDN:
        up = inx && neg;
        break;
    case NUM_RUP:
        up = inx && !neg;
        break;
    }
    *inexact = inx;
    kept += up;
    if (kept >> 62) *big = true;
    return kept;
}

/* Rounds the exact value (-1)^neg * sig * 2^exp (+ sticky) into FP format fi. */
/* REQ: CAP-085 CAP-087 CAP-110 CAP-121 */
static uint32_t round_fp(const num_fmtinfo *fi, bool neg, uint64_t sig, int exp, bool sticky,
                         const num_policy *pol, num_flags *flags)
{
    num_rm rm = eff_rm(pol);
    if (sig == 0) return pack_fp(fi, neg, 0, 0);
    const int p = num_fi_p(fi), emin = num_fi_emin(fi), emax = num_fi_emax(fi);
    int e = exp + msb64(sig); /* value in [2^e, 2^(e+1)) */
    int lsb = (e < emin ? emin : e) - (p - 1);
    bool inexact, big;
    /* Rounding at `lsb` is integer rounding of sig * 2^(exp - lsb). */
    uint64_t kept = round_int(neg, sig, exp - lsb, sticky, rm, &inexact, &big);
    if (kept >> p) { /* carry out of the significand */
        kept >>= 1;
        lsb++;
    }
    uint64_t hid = UINT64_C(1) << (p - 1);
    int re = lsb + (p - 1); /* exponent of the result if normal */
    if (kept >= hid && (re > emax || (re == emax && kept > num_fi_maxsig(fi)))) {
        if (pol->sat) {
            add_flags(flags, NUM_SAT_HIT | NUM_NX);
            return fp_maxfinite(fi, neg);
        }
        add_flags(flags, NUM_OF | NUM_NX);
        bool to_inf =
            rm == NUM_RNE || rm == NUM_RMM || (rm == NUM_RUP && !neg) || (rm == NUM_RDN && neg);
        if (!to_inf) return fp_maxfinite(fi, neg);
        if (fi->has_inf) return pack_fp(fi, neg, (1u << fi->ebits) - 1, 0);
        /* E4M3 overflow creates a NaN: canonical, or +0 under NaN-to-zero. */
        return nan_result(fi, NULL, pol);
    }
    if (inexact) {
        add_flags(flags, NUM_NX);
        /* Tininess after rounding: the value rounded to p bits with an unbounded
         * exponent is below 2^emin. Only e == emin-1 can round up to 2^emin. */
        bool tiny = e < emin - 1;
        if (e == emin - 1) {
            bool i2, b2;
            uint64_t k2 = round_int(neg, sig, exp - (e - (p - 1)), sticky, rm, &i2, &b2);
            tiny = (k2 >> p) == 0;
        }
        if (tiny) add_flags(flags, NUM_UF);
    }
    if (kept == 0) return pack_fp(fi, neg, 0, 0);
    if (kept < hid) {
        if (pol->ftz) { /* subnormal result flushed */
            add_flags(flags, NUM_FTZ_HIT | NUM_UF | NUM_NX);
            return pack_fp(fi, neg, 0, 0);
        }
        return pack_fp(fi, neg, 0, (uint32_t)kept);
    }
    return pack_fp(fi, neg, (uint32_t)(re + fi->bias), (uint32_t)(kept - hid));
}

/* Rounds an exact finite-or-zero value into any destination. zp is added to integer
 * results after rounding. */
/* REQ: CAP-087 CAP-094 CAP-112 */
static uint32_t round_any(const num_fmtinfo *fi, bool neg, uint64_t sig, int exp, bool sticky,
                          int64_t zp, const num_policy *pol, num_flags *flags)
{
    if (fi->fp) return round_fp(fi, neg, sig, exp, sticky, pol, flags);
    bool inexact, big;
    uint64_t mag = round_int(neg, sig, exp, sticky, eff_rm(pol), &inexact, &big);
    int64_t v = neg ? -(int64_t)mag : (int64_t)mag;
    if (big) v = neg ? -1 : 1;
    return int_result(fi, big ? v : v + zp, big, inexact, pol, flags);
}

/* REQ: CAP-085 CAP-087 CAP-094 CAP-112 CAP-121 */
uint32_t num_convert(num_fmt dst, num_fmt src, uint32_t bits, const num_policy *pol,
                     num_flags *flags)
{
    const num_fmtinfo *d = num_fmtinfo_get(dst), *s = num_fmtinfo_get(src);
    if (!d || !s || !pol) {
        add_flags(flags, NUM_NV);
        return 0;
    }
    if (num_fmt_narrows(dst, src)) add_flags(flags, NUM_DOWNCAST_TAKEN);
    unp u = unpack(s, bits, pol, flags);
    bool quant = pol->q && d->fp != s->fp;
    int64_t zp = (quant && pol->zp_en != NUM_ZP_OFF) ? pol->zp : 0;
    int sh = quant ? pol->scale_sh : 0;
    if (sh < -64) sh = -64;
    if (sh > 63) sh = 63;
    if (quant && d->fp) {
        /* INT -> FP: x = (q - zp) * 2^sh; the integer is exact in int64 (q may be 0). */
        int64_t v = (u.neg ? -(int64_t)u.sig : (int64_t)u.sig) - zp;
        if (v == 0) return pack_fp(d, false, 0, 0);
        return round_fp(d, v < 0, (uint64_t)(v < 0 ? -v : v), sh, false, pol, flags);
    }
    switch (u.cls) {
    case C_NAN:
        return d->fp ? nan_result(d, &u, pol) : int_nan(d, pol, flags);
    case C_INF:
        return inf_result(d, u.neg, pol, flags);
    case C_ZERO:
        if (d->fp) return pack_fp(d, u.neg, 0, 0);
        return int_result(d, zp, false, false, pol, flags);
    case C_FIN:
        break;
    }
    /* Without quantization sh and zp are 0; FP -> INT: q = round(x * 2^-sh) + zp. */
    return round_any(d, u.neg, u.sig, u.exp - sh, false, zp, pol, flags);
}

/* ---- Fused multiply-add --------------------------------------------------------- */

typedef unsigned __int128 u128;

static inline int msb128(u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? 64 + msb64(hi) : msb64((uint64_t)x);
}

/* Shift right, jamming lost bits into bit 0. */
static inline u128 shr_jam(u128 x, int n)
{
    if (n <= 0) return x;
    if (n >= 128) return x != 0;
    return (x >> n) | ((x & (((u128)1 << n) - 1)) != 0);
}

/* Rounds an exact u128 significand into dst. */
static uint32_t round_wide(const num_fmtinfo *fi, bool neg, u128 sig, int exp,
                           const num_policy *pol, num_flags *flags)
{
    if (sig == 0) return fi->fp ? pack_fp(fi, neg, 0, 0) : 0;
    int m = msb128(sig);
    if (m > 62) {
        sig = shr_jam(sig, m - 62);
        exp += m - 62;
    }
    return round_any(fi, neg, (uint64_t)sig, exp, false, 0, pol, flags);
}

/* The sign of an exact zero sum of two non-zero-sum operands (IEEE 754 6.3). */
static bool zero_sum_sign(bool a, bool b, const num_policy *pol)
{
    if (a == b) return a;
    return eff_rm(pol) == NUM_RDN;
}

static uint32_t zero_result(const num_fmtinfo *fi, bool neg)
{
    return fi->fp ? pack_fp(fi, neg, 0, 0) : 0;
}

/* has_b: multiply a by b (else the product is a); has_c: add c. */
static uint32_t arith(const num_fmtinfo *d, unp a, unp b, bool has_b, unp c, bool has_c,
                      const num_policy *pol, num_flags *flags)
{
    /* Invalid products/sums raise NV even when another operand is a quiet NaN. */
    bool inv_mul =
        has_b && ((a.cls == C_INF && b.cls == C_ZERO) || (a.cls == C_ZERO && b.cls == C_INF));
    const unp *nan = a.cls == C_NAN              ? &a
                     : (has_b && b.cls == C_NAN) ? &b
                     : (has_c && c.cls == C_NAN) ? &c
                                                 : NULL;
    if (inv_mul) add_flags(flags, NUM_NV);
    if (nan) return d->fp ? nan_result(d, nan, pol) : int_nan(d, pol, flags);
    if (inv_mul) return d->fp ? nan_result(d, NULL, pol) : int_nan(d, pol, flags);

    /* Product P. */
    unp p = a;
    u128 psig = a.sig;
    if (has_b) {
        p.neg = a.neg ^ b.neg;
        if (a.cls == C_INF || b.cls == C_INF)
            p.cls = C_INF;
        else if (a.cls == C_ZERO || b.cls == C_ZERO)
            p.cls = C_ZERO;
        else {
            p.cls = C_FIN;
            psig = (u128)a.sig * b.sig;
            p.exp = a.exp + b.exp;
        }
    }
    if (!has_c) {
        if (p.cls == C_INF) return inf_result(d, p.neg, pol, flags);
        if (p.cls == C_ZERO) return zero_result(d, p.neg);
        return round_wide(d, p.neg, psig, p.exp, pol, flags);
    }
    if (p.cls == C_INF || c.cls == C_INF) {
        if (p.cls == C_INF && c.cls == C_INF && p.neg != c.neg) {
            add_flags(flags, NUM_NV);
            return d->fp ? nan_result(d, NULL, pol) : int_nan(d, pol, flags);
        }
        return inf_result(d, p.cls == C_INF ? p.neg : c.neg, pol, flags);
    }
    if (p.cls == C_ZERO && c.cls == C_ZERO) return zero_result(d, zero_sum_sign(p.neg, c.neg, pol));
    if (p.cls == C_ZERO) return round_wide(d, c.neg, c.sig, c.exp, pol, flags);
    if (c.cls == C_ZERO) return round_wide(d, p.neg, psig, p.exp, pol, flags);

    /* Both non-zero: align with the MSBs at bit 125 (two bits of carry headroom); the
     * smaller operand loses bits only far below any rounding position. */
    int pm = msb128(psig), cm = msb64(c.sig);
    u128 x = psig << (125 - pm), y = (u128)c.sig << (125 - cm);
    int xe = p.exp - (125 - pm), ye = c.exp - (125 - cm);
    bool xn = p.neg, yn = c.neg;
    if (ye > xe || (ye == xe && y > x)) {
        u128 t = x;
        x = y;
        y = t;
        int te = xe;
        xe = ye;
        ye = te;
        bool tn = xn;
        xn = yn;
        yn = tn;
    }
    y = shr_jam(y, xe - ye);
    if (xn == yn) return round_wide(d, xn, x + y, xe, pol, flags);
    u128 r = x - y;
    if (r == 0) return zero_result(d, zero_sum_sign(xn, yn, pol));
    return round_wide(d, xn, r, xe, pol, flags);
}

uint32_t num_fma(num_fmt dst, num_fmt src, uint32_t a, uint32_t b, uint32_t c,
                 const num_policy *pol, num_flags *flags)
{
    const num_fmtinfo *d = num_fmtinfo_get(dst), *s = num_fmtinfo_get(src);
    if (!d || !s || !pol) {
        add_flags(flags, NUM_NV);
        return 0;
    }
    unp ua = unpack(s, a, pol, flags), ub = unpack(s, b, pol, flags);
    unp uc = unpack(d, c, pol, flags);
    return arith(d, ua, ub, true, uc, true, pol, flags);
}

uint32_t num_mul(num_fmt dst, num_fmt src, uint32_t a, uint32_t b, const num_policy *pol,
                 num_flags *flags)
{
    const num_fmtinfo *d = num_fmtinfo_get(dst), *s = num_fmtinfo_get(src);
    if (!d || !s || !pol) {
        add_flags(flags, NUM_NV);
        return 0;
    }
    unp ua = unpack(s, a, pol, flags), ub = unpack(s, b, pol, flags), none = {0};
    return arith(d, ua, ub, true, none, false, pol, flags);
}

uint32_t num_add(num_fmt fmt, uint32_t a, uint32_t b, const num_policy *pol, num_flags *flags)
{
    const num_fmtinfo *d = num_fmtinfo_get(fmt);
    if (!d || !pol) {
        add_flags(flags, NUM_NV);
        return 0;
    }
    unp ua = unpack(d, a, pol, flags), ub = unpack(d, b, pol, flags), none = {0};
    return arith(d, ua, none, false, ub, true, pol, flags);
}
