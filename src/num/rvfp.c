/* rvfp.c — RISC-V F and D arithmetic, exact.
 *
 * Strategy. The host FPU computes what it computes exactly as RISC-V does: add, sub, mul,
 * div, sqrt, fma and the S<->D narrowing in RNE/RTZ/RDN/RUP. On x86-64 that is SSE driven
 * through MXCSR in one asm block per operation (set mode and clear flags, operate, read
 * flags, restore the default MXCSR), so the compiler cannot move the operation across the
 * mode switch and the host program always sees RNE with clear flags afterwards. SSE
 * detects tininess after rounding, as RISC-V does, and its sticky flags map 1:1 onto
 * fflags. Other hosts (and -DRVFP_PORTABLE, which the tests also build) use <fenv.h>.
 *
 * What the host does differently is done here explicitly:
 *  - NaN results: SSE propagates payloads and makes a negative default NaN; RISC-V always
 *    returns the canonical NaN, so every NaN result is replaced.
 *  - RMM: no host mode rounds ties away. A software path (exact integer arithmetic with a
 *    sticky bit, one rounding: round_pack) computes add/sub/mul/div/fma/fcvt.s.d in RMM.
 *    sqrt needs none: a square root of a p-bit float is never exactly halfway between two
 *    p-bit floats (the square of a (p+1)-bit odd significand has 2p+1 bits), and it is
 *    never tiny, so RMM and RNE give the same result and flags.
 *  - fma: SSE FMA3 when the CPU has it, otherwise the same software path.
 *  - fma inf*0 + qNaN: RISC-V raises NV; x86 leaves that implementation-defined.
 *  - min/max, compares, classify, sign injection and integer conversions: integer code
 *    (RISC-V saturates float->int, SSE returns the 'integer indefinite' value).
 */
#include "rvfp.h"

#include <fenv.h>
#include <math.h>
#include <string.h>

#if defined(__x86_64__) && !defined(RVFP_PORTABLE)
#define RVFP_X86 1
#else
#define RVFP_X86 0
#endif

typedef unsigned __int128 u128;

/* ---------------------------------------------------------------- formats and bits */

typedef struct fmt {
    int p;          /* precision including the hidden bit */
    int emin, emax; /* normal exponent range; the bias equals emax */
    uint64_t sign, expm, fracm, quiet, qnan, one;
} fmt;

static const fmt FS = {24,          -126,        127,         0x80000000u, 0x7f800000u,
                       0x007fffffu, 0x00400000u, RVFP_QNAN_S, 0x3f800000u};
static const fmt FD = {53,
                       -1022,
                       1023,
                       UINT64_C(0x8000000000000000),
                       UINT64_C(0x7ff0000000000000),
                       UINT64_C(0x000fffffffffffff),
                       UINT64_C(0x0008000000000000),
                       RVFP_QNAN_D,
                       UINT64_C(0x3ff0000000000000)};

enum { K_ZERO, K_FIN, K_INF, K_QNAN, K_SNAN };

static inline int kind(const fmt *f, uint64_t x)
{
    uint64_t m = x & ~f->sign;
    if (m == 0) return K_ZERO;
    if (m < f->expm) return K_FIN;
    if (m == f->expm) return K_INF;
    return (x & f->quiet) ? K_QNAN : K_SNAN;
}

static inline int isnan_s(uint32_t a)
{
    return (a & 0x7fffffffu) > 0x7f800000u;
}
static inline int isnan_d(uint64_t a)
{
    return (a & ~FD.sign) > FD.expm;
}
static inline int issnan_s(uint32_t a)
{
    return isnan_s(a) && !(a & 0x00400000u);
}

static inline float f_of(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}
static inline uint32_t u_of_f(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}
static inline double d_of(uint64_t u)
{
    double d;
    memcpy(&d, &u, sizeof d);
    return d;
}
static inline uint64_t u_of_d(double d)
{
    uint64_t u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static inline int clz128(u128 x)
{
    uint64_t hi = (uint64_t)(x >> 64);
    return hi ? __builtin_clzll(hi) : 64 + __builtin_clzll((uint64_t)x);
}

/* ---------------------------------------------------------------- software rounding */

/* Whether to add one unit at the cut, given the bits below it:
 * st 0 = exact, 1 = below half, 2 = exactly half, 3 = above half. */
static inline int round_inc(unsigned rm, int neg, int odd, int st)
{
    switch (rm) {
    case RVFP_RTZ:
        return 0;
    case RVFP_RDN:
        return neg && st;
    case RVFP_RUP:
        return !neg && st;
    case RVFP_RMM:
        return st >= 2;
    default:
        return st == 3 || (st == 2 && odd);
    }
}

/* State of the low `sh` (>= 1) bits of sig relative to half a unit at the cut. */
static inline int cut_state(uint64_t sig, int sh)
{
    if (sh > 64) return sig ? 1 : 0; /* sig < 2^64 <= half */
    uint64_t rem = sh == 64 ? sig : sig & ((UINT64_C(1) << sh) - 1);
    uint64_t half = UINT64_C(1) << (sh - 1);
    return rem == 0 ? 0 : rem < half ? 1 : rem == half ? 2 : 3;
}

static uint64_t overflow(const fmt *f, int neg, unsigned rm, unsigned *fl)
{
    *fl |= RVFP_OF | RVFP_NX;
    int to_max = rm == RVFP_RTZ || (rm == RVFP_RDN && !neg) || (rm == RVFP_RUP && neg);
    return (neg ? f->sign : 0) | (to_max ? f->expm - 1 : f->expm);
}

/* Rounds (-1)^neg * sig * 2^exp once to format f. sig has its MSB at bit 63; its bit 0
 * may hold the OR of any lower bits (sticky), which is exact because at least 11 bits lie
 * below the cut. */
static uint64_t round_pack(const fmt *f, int neg, int exp, uint64_t sig, unsigned rm, unsigned *fl)
{
    int e = exp + 63; /* the value lies in [2^e, 2^(e+1)) */
    int sh = 64 - f->p;
    uint64_t s = neg ? f->sign : 0;
    if (e > f->emax) return overflow(f, neg, rm, fl);
    if (e >= f->emin) {
        int st = cut_state(sig, sh);
        uint64_t m = sig >> sh;
        m += (uint64_t)round_inc(rm, neg, (int)(m & 1), st);
        if (m >> f->p) { /* carried into a new binade */
            m >>= 1;
            if (++e > f->emax) return overflow(f, neg, rm, fl);
        }
        if (st) *fl |= RVFP_NX;
        return s | ((uint64_t)(e + f->emax) << (f->p - 1)) | (m & f->fracm);
    }
    /* Below the normal range. Tininess is judged after rounding to p bits with an
     * unbounded exponent: only a value just under 2^emin can round up out of it. */
    int tiny = 1;
    if (e == f->emin - 1) {
        int st = cut_state(sig, sh);
        uint64_t m = sig >> sh;
        m += (uint64_t)round_inc(rm, neg, (int)(m & 1), st);
        if (m >> f->p) tiny = 0;
    }
    int dsh = sh + (f->emin - e);
    int st = cut_state(sig, dsh);
    uint64_t m = dsh >= 64 ? 0 : sig >> dsh;
    m += (uint64_t)round_inc(rm, neg, (int)(m & 1), st);
    if (st) *fl |= tiny ? RVFP_NX | RVFP_UF : RVFP_NX;
    return s | m; /* m == 2^(p-1) is the smallest normal: it carries into the exponent */
}

/* Rounds (-1)^neg * S * 2^e (S != 0, 128 bits) to format f. */
static uint64_t round_pack128(const fmt *f, int neg, int e, u128 S, unsigned rm, unsigned *fl)
{
    int lz = clz128(S);
    S <<= lz;
    uint64_t hi = (uint64_t)(S >> 64), lo = (uint64_t)S;
    return round_pack(f, neg, e - lz + 64, hi | (lo != 0), rm, fl);
}

/* Finite nonzero x as sig * 2^exp with sig's MSB at bit 63. */
static inline uint64_t unpack(const fmt *f, uint64_t x, int *exp)
{
    uint64_t be = (x & f->expm) >> (f->p - 1);
    uint64_t sig = x & f->fracm;
    int ex;
    if (be == 0) {
        ex = f->emin - (f->p - 1);
    } else {
        sig |= f->fracm + 1;
        ex = (int)be - f->emax - (f->p - 1);
    }
    int lz = __builtin_clzll(sig);
    *exp = ex - lz;
    return sig << lz;
}

static inline u128 shift_jam128(u128 x, int n)
{
    if (n == 0) return x;
    if (n >= 128) return x != 0;
    return (x >> n) | (u128)((x & (((u128)1 << n) - 1)) != 0);
}

/* ---------------------------------------------------------------- software operations */

/* a*b+c with one rounding. */
static uint64_t soft_fma(const fmt *f, uint64_t a, uint64_t b, uint64_t c, unsigned rm,
                         unsigned *fl)
{
    int ka = kind(f, a), kb = kind(f, b), kc = kind(f, c);
    int ps = ((a ^ b) & f->sign) != 0, cs = (c & f->sign) != 0;
    int inf_zero = (ka == K_INF && kb == K_ZERO) || (ka == K_ZERO && kb == K_INF);
    if (ka >= K_QNAN || kb >= K_QNAN || kc >= K_QNAN) {
        if (ka == K_SNAN || kb == K_SNAN || kc == K_SNAN || inf_zero) *fl |= RVFP_NV;
        return f->qnan;
    }
    if (inf_zero || ((ka == K_INF || kb == K_INF) && kc == K_INF && ps != cs)) {
        *fl |= RVFP_NV;
        return f->qnan;
    }
    if (ka == K_INF || kb == K_INF) return (ps ? f->sign : 0) | f->expm;
    if (kc == K_INF) return c;
    if (ka == K_ZERO || kb == K_ZERO) {
        if (kc != K_ZERO || ps == cs) return c;
        return rm == RVFP_RDN ? f->sign : 0; /* +0 + -0 */
    }
    int ea, eb, ec;
    uint64_t ma = unpack(f, a, &ea), mb = unpack(f, b, &eb);
    /* Both significands have >= 11 trailing zeros, so the product has >= 22: shifting it
     * down by 2 is exact and leaves headroom for the sum. */
    u128 P = ((u128)ma * mb) >> 2;
    int ep = ea + eb + 2;
    if (kc == K_ZERO) return round_pack128(f, ps, ep, P, rm, fl);
    if (!(P >> 125)) {
        P <<= 1;
        ep--;
    }
    /* Both operands now have their MSB at bit 125 and many trailing zeros, so when the
     * smaller one is shifted with a sticky bit the difference is odd and the sticky
     * reaches the rounding exactly. */
    uint64_t mc = unpack(f, c, &ec);
    u128 C = (u128)mc << 62;
    ec -= 62;
    int e;
    if (ep >= ec) {
        C = shift_jam128(C, ep - ec);
        e = ep;
    } else {
        P = shift_jam128(P, ec - ep);
        e = ec;
    }
    u128 S;
    int neg;
    if (ps == cs) {
        S = P + C;
        neg = ps;
    } else if (P >= C) {
        S = P - C;
        neg = ps;
    } else {
        S = C - P;
        neg = cs;
    }
    if (S == 0) return rm == RVFP_RDN ? f->sign : 0; /* exact cancellation */
    return round_pack128(f, neg, e, S, rm, fl);
}

static uint64_t soft_mul(const fmt *f, uint64_t a, uint64_t b, unsigned rm, unsigned *fl)
{
    int ka = kind(f, a), kb = kind(f, b);
    uint64_t s = (a ^ b) & f->sign;
    int inf_zero = (ka == K_INF && kb == K_ZERO) || (ka == K_ZERO && kb == K_INF);
    if (ka >= K_QNAN || kb >= K_QNAN || inf_zero) {
        if (ka == K_SNAN || kb == K_SNAN || inf_zero) *fl |= RVFP_NV;
        return f->qnan;
    }
    if (ka == K_INF || kb == K_INF) return s | f->expm;
    if (ka == K_ZERO || kb == K_ZERO) return s;
    int ea, eb;
    uint64_t ma = unpack(f, a, &ea), mb = unpack(f, b, &eb);
    return round_pack128(f, s != 0, ea + eb, (u128)ma * mb, rm, fl);
}

static uint64_t soft_div(const fmt *f, uint64_t a, uint64_t b, unsigned rm, unsigned *fl)
{
    int ka = kind(f, a), kb = kind(f, b);
    uint64_t s = (a ^ b) & f->sign;
    if (ka >= K_QNAN || kb >= K_QNAN) {
        if (ka == K_SNAN || kb == K_SNAN) *fl |= RVFP_NV;
        return f->qnan;
    }
    if ((ka == K_INF && kb == K_INF) || (ka == K_ZERO && kb == K_ZERO)) {
        *fl |= RVFP_NV;
        return f->qnan;
    }
    if (ka == K_INF) return s | f->expm;
    if (kb == K_INF || ka == K_ZERO) return s;
    if (kb == K_ZERO) {
        *fl |= RVFP_DZ;
        return s | f->expm;
    }
    int ea, eb;
    uint64_t ma = unpack(f, a, &ea), mb = unpack(f, b, &eb);
    /* ma, mb in [2^63, 2^64): the quotient of ma*2^62 by mb lies in (2^61, 2^63), at
     * least 62 bits, and a nonzero remainder is the sticky bit. */
    u128 n = (u128)ma << 62;
    uint64_t q = (uint64_t)(n / mb), r = (uint64_t)(n % mb);
    int lz = __builtin_clzll(q);
    return round_pack(f, s != 0, ea - eb - 62 - lz, (q << lz) | (r != 0), rm, fl);
}

/* Re-rounds a binary64 value into binary32 (fcvt.s.d). */
static uint32_t soft_cvt_s_d(uint64_t a, unsigned rm, unsigned *fl)
{
    uint32_t s = (uint32_t)(a >> 32) & 0x80000000u;
    switch (kind(&FD, a)) {
    case K_SNAN:
        *fl |= RVFP_NV; /* fall through */
    case K_QNAN:
        return RVFP_QNAN_S;
    case K_INF:
        return s | 0x7f800000u;
    case K_ZERO:
        return s;
    default:
        break;
    }
    int e;
    uint64_t m = unpack(&FD, a, &e);
    return (uint32_t)round_pack(&FS, s != 0, e, m, rm, fl);
}

/* ---------------------------------------------------------------- host FPU */

enum { OP_ADD, OP_SUB, OP_MUL, OP_DIV };

#if RVFP_X86

/* MXCSR: all exceptions masked (0x1f80), no DAZ/FTZ, RC from the RISC-V mode. */
static const unsigned mx_def = 0x1f80u;
static const unsigned mx_rm[5] = {0x1f80u, 0x7f80u, 0x3f80u, 0x5f80u, 0x1f80u};

/* MXCSR flags IE DE ZE OE UE PE (bits 0..5) -> fflags; DE has no RISC-V meaning. */
#define MXF(m)                                                                                     \
    (((m)&1 ? RVFP_NV : 0) | ((m)&4 ? RVFP_DZ : 0) | ((m)&8 ? RVFP_OF : 0) |                       \
     ((m)&16 ? RVFP_UF : 0) | ((m)&32 ? RVFP_NX : 0))
#define MXF4(m)  MXF(m), MXF(m + 1), MXF(m + 2), MXF(m + 3)
#define MXF16(m) MXF4(m), MXF4(m + 4), MXF4(m + 8), MXF4(m + 12)
static const unsigned char mx_flags[64] = {MXF16(0), MXF16(16), MXF16(32), MXF16(48)};

#define HOST_BIN(insn, x, y, rm, st)                                                               \
    __asm__ volatile("ldmxcsr %[c]\n\t" insn " %[y], %[x]\n\tstmxcsr %[s]\n\tldmxcsr %[d]"         \
                     : [x] "+x"(x), [s] "=m"(st)                                                   \
                     : [y] "x"(y), [c] "m"(mx_rm[rm]), [d] "m"(mx_def))
#define HOST_FMA(insn, x, y, z, rm, st)                                                            \
    __asm__ volatile("ldmxcsr %[m]\n\t" insn " %[b], %[a], %[c]\n\tstmxcsr %[s]\n\t"               \
                     "ldmxcsr %[d]"                                                                \
                     : [c] "+x"(z), [s] "=m"(st)                                                   \
                     : [a] "x"(x), [b] "x"(y), [m] "m"(mx_rm[rm]), [d] "m"(mx_def))

/* x op= y for OP_ADD..OP_DIV; SFX "ss" (binary32) or "sd" (binary64). */
#define HOST_BIN_OP(op, SFX, x, y, rm, st)                                                         \
    do {                                                                                           \
        switch (op) {                                                                              \
        case OP_ADD:                                                                               \
            HOST_BIN("add" SFX, x, y, rm, st);                                                     \
            break;                                                                                 \
        case OP_SUB:                                                                               \
            HOST_BIN("sub" SFX, x, y, rm, st);                                                     \
            break;                                                                                 \
        case OP_MUL:                                                                               \
            HOST_BIN("mul" SFX, x, y, rm, st);                                                     \
            break;                                                                                 \
        default:                                                                                   \
            HOST_BIN("div" SFX, x, y, rm, st);                                                     \
            break;                                                                                 \
        }                                                                                          \
    } while (0)

static inline int have_fma(void)
{
    return __builtin_cpu_supports("fma");
}

static inline uint32_t host_bin_s(int op, uint32_t a, uint32_t b, unsigned rm, unsigned *fl)
{
    float x = f_of(a), y = f_of(b);
    unsigned st;
    HOST_BIN_OP(op, "ss", x, y, rm, st);
    *fl |= mx_flags[st & 63];
    return u_of_f(x);
}

static inline uint64_t host_bin_d(int op, uint64_t a, uint64_t b, unsigned rm, unsigned *fl)
{
    double x = d_of(a), y = d_of(b);
    unsigned st;
    HOST_BIN_OP(op, "sd", x, y, rm, st);
    *fl |= mx_flags[st & 63];
    return u_of_d(x);
}

static inline uint32_t host_sqrt_s(uint32_t a, unsigned rm, unsigned *fl)
{
    float x = f_of(a), y = x;
    unsigned st;
    HOST_BIN("sqrtss", x, y, rm, st);
    *fl |= mx_flags[st & 63];
    return u_of_f(x);
}

static inline uint64_t host_sqrt_d(uint64_t a, unsigned rm, unsigned *fl)
{
    double x = d_of(a), y = x;
    unsigned st;
    HOST_BIN("sqrtsd", x, y, rm, st);
    *fl |= mx_flags[st & 63];
    return u_of_d(x);
}

static inline uint32_t host_cvt_s_d(uint64_t a, unsigned rm, unsigned *fl)
{
    double y = d_of(a);
    float x = 0;
    unsigned st;
    __asm__ volatile("ldmxcsr %[c]\n\tcvtsd2ss %[y], %[x]\n\tstmxcsr %[s]\n\tldmxcsr %[d]"
                     : [x] "+x"(x), [s] "=m"(st)
                     : [y] "x"(y), [c] "m"(mx_rm[rm]), [d] "m"(mx_def));
    *fl |= mx_flags[st & 63];
    return u_of_f(x);
}

static inline uint32_t host_fma_s(uint32_t a, uint32_t b, uint32_t c, unsigned rm, unsigned *fl)
{
    if (!have_fma()) return (uint32_t)soft_fma(&FS, a, b, c, rm, fl);
    float x = f_of(a), y = f_of(b), z = f_of(c);
    unsigned st;
    HOST_FMA("vfmadd231ss", x, y, z, rm, st);
    *fl |= mx_flags[st & 63];
    return u_of_f(z);
}

static inline uint64_t host_fma_d(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl)
{
    if (!have_fma()) return soft_fma(&FD, a, b, c, rm, fl);
    double x = d_of(a), y = d_of(b), z = d_of(c);
    unsigned st;
    HOST_FMA("vfmadd231sd", x, y, z, rm, st);
    *fl |= mx_flags[st & 63];
    return u_of_d(z);
}

#else /* portable <fenv.h> host */

static const int fe_rm[5] = {FE_TONEAREST, FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD, FE_TONEAREST};

/* Opens a host operation: mode set, flags cleared. Volatile operands keep the arithmetic
 * between host_begin and host_end. */
static inline void host_begin(unsigned rm)
{
    if (fe_rm[rm] != FE_TONEAREST) fesetround(fe_rm[rm]);
    feclearexcept(FE_ALL_EXCEPT);
}

static inline void host_end(unsigned rm, unsigned *fl)
{
    int e = fetestexcept(FE_ALL_EXCEPT);
    if (fe_rm[rm] != FE_TONEAREST) fesetround(FE_TONEAREST);
    *fl |= (e & FE_INVALID ? RVFP_NV : 0u) | (e & FE_DIVBYZERO ? RVFP_DZ : 0u) |
           (e & FE_OVERFLOW ? RVFP_OF : 0u) | (e & FE_UNDERFLOW ? RVFP_UF : 0u) |
           (e & FE_INEXACT ? RVFP_NX : 0u);
}

/* x op y for OP_ADD..OP_DIV, in the operands' own format. */
#define HOST_ARITH(op, x, y)                                                                       \
    ((op) == OP_ADD   ? (x) + (y)                                                                  \
     : (op) == OP_SUB ? (x) - (y)                                                                  \
     : (op) == OP_MUL ? (x) * (y)                                                                  \
                      : (x) / (y))

static uint32_t host_bin_s(int op, uint32_t a, uint32_t b, unsigned rm, unsigned *fl)
{
    volatile float x = f_of(a), y = f_of(b), r;
    host_begin(rm);
    r = HOST_ARITH(op, x, y);
    host_end(rm, fl);
    return u_of_f(r);
}

static uint64_t host_bin_d(int op, uint64_t a, uint64_t b, unsigned rm, unsigned *fl)
{
    volatile double x = d_of(a), y = d_of(b), r;
    host_begin(rm);
    r = HOST_ARITH(op, x, y);
    host_end(rm, fl);
    return u_of_d(r);
}

static uint32_t host_sqrt_s(uint32_t a, unsigned rm, unsigned *fl)
{
    volatile float x = f_of(a), r;
    host_begin(rm);
    r = sqrtf(x);
    host_end(rm, fl);
    return u_of_f(r);
}

static uint64_t host_sqrt_d(uint64_t a, unsigned rm, unsigned *fl)
{
    volatile double x = d_of(a), r;
    host_begin(rm);
    r = sqrt(x);
    host_end(rm, fl);
    return u_of_d(r);
}

static uint32_t host_cvt_s_d(uint64_t a, unsigned rm, unsigned *fl)
{
    volatile double x = d_of(a);
    volatile float r;
    host_begin(rm);
    r = (float)x;
    host_end(rm, fl);
    return u_of_f(r);
}

/* libm's fma is only trusted where the target has a fused instruction. */
static uint32_t host_fma_s(uint32_t a, uint32_t b, uint32_t c, unsigned rm, unsigned *fl)
{
#ifdef FP_FAST_FMAF
    volatile float x = f_of(a), y = f_of(b), z = f_of(c), r;
    host_begin(rm);
    r = fmaf(x, y, z);
    host_end(rm, fl);
    return u_of_f(r);
#else
    return (uint32_t)soft_fma(&FS, a, b, c, rm, fl);
#endif
}

static uint64_t host_fma_d(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl)
{
#ifdef FP_FAST_FMA
    volatile double x = d_of(a), y = d_of(b), z = d_of(c), r;
    host_begin(rm);
    r = fma(x, y, z);
    host_end(rm, fl);
    return u_of_d(r);
#else
    return soft_fma(&FD, a, b, c, rm, fl);
#endif
}

#endif

/* ---------------------------------------------------------------- arithmetic API */

/* Reserved modes are the caller's bug; they compute as RNE rather than index past a
 * table. */
static inline unsigned fix_rm(unsigned rm)
{
    return rm <= RVFP_RMM ? rm : RVFP_RNE;
}

static inline uint32_t canon_s(uint32_t r)
{
    return isnan_s(r) ? RVFP_QNAN_S : r;
}
static inline uint64_t canon_d(uint64_t r)
{
    return isnan_d(r) ? RVFP_QNAN_D : r;
}

uint32_t rvfp_add_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fl)
{
    rm = fix_rm(rm);
    if (rm == RVFP_RMM) return (uint32_t)soft_fma(&FS, a, FS.one, b, rm, fl);
    return canon_s(host_bin_s(OP_ADD, a, b, rm, fl));
}
uint32_t rvfp_sub_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fl)
{
    rm = fix_rm(rm);
    if (rm == RVFP_RMM) return (uint32_t)soft_fma(&FS, a, FS.one, b ^ FS.sign, rm, fl);
    return canon_s(host_bin_s(OP_SUB, a, b, rm, fl));
}
uint32_t rvfp_mul_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fl)
{
    rm = fix_rm(rm);
    if (rm == RVFP_RMM) return (uint32_t)soft_mul(&FS, a, b, rm, fl);
    return canon_s(host_bin_s(OP_MUL, a, b, rm, fl));
}
uint32_t rvfp_div_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fl)
{
    rm = fix_rm(rm);
    if (rm == RVFP_RMM) return (uint32_t)soft_div(&FS, a, b, rm, fl);
    return canon_s(host_bin_s(OP_DIV, a, b, rm, fl));
}
uint32_t rvfp_sqrt_s(uint32_t a, unsigned rm, unsigned *fl)
{
    rm = fix_rm(rm);
    return canon_s(host_sqrt_s(a, rm == RVFP_RMM ? RVFP_RNE : rm, fl)); /* see top */
}

uint64_t rvfp_add_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fl)
{
    rm = fix_rm(rm);
    if (rm == RVFP_RMM) return soft_fma(&FD, a, FD.one, b, rm, fl);
    return canon_d(host_bin_d(OP_ADD, a, b, rm, fl));
}
uint64_t rvfp_sub_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fl)
{
    rm = fix_rm(rm);
    if (rm == RVFP_RMM) return soft_fma(&FD, a, FD.one, b ^ FD.sign, rm, fl);
    return canon_d(host_bin_d(OP_SUB, a, b, rm, fl));
}
uint64_t rvfp_mul_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fl)
{
    rm = fix_rm(rm);
    if (rm == RVFP_RMM) return soft_mul(&FD, a, b, rm, fl);
    return canon_d(host_bin_d(OP_MUL, a, b, rm, fl));
}
uint64_t rvfp_div_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fl)
{
    rm = fix_rm(rm);
    if (rm == RVFP_RMM) return soft_div(&FD, a, b, rm, fl);
    return canon_d(host_bin_d(OP_DIV, a, b, rm, fl));
}
uint64_t rvfp_sqrt_d(uint64_t a, unsigned rm, unsigned *fl)
{
    rm = fix_rm(rm);
    return canon_d(host_sqrt_d(a, rm == RVFP_RMM ? RVFP_RNE : rm, fl));
}

/* Fused ops: the sign flips are exact, so all four are one fma. A NaN result needs the
 * RISC-V rule that inf*0 raises NV even when the addend is a quiet NaN: fma_nan gives
 * the canonical NaN with that flag. */
static uint64_t fma_nan(const fmt *f, uint64_t a, uint64_t b, unsigned *fl)
{
    int ka = kind(f, a), kb = kind(f, b);
    if ((ka == K_INF && kb == K_ZERO) || (ka == K_ZERO && kb == K_INF)) *fl |= RVFP_NV;
    return f->qnan;
}
static inline uint32_t fma_s(uint32_t a, uint32_t b, uint32_t c, unsigned rm, unsigned *fl)
{
    rm = fix_rm(rm);
    if (rm == RVFP_RMM) return (uint32_t)soft_fma(&FS, a, b, c, rm, fl);
    uint32_t r = host_fma_s(a, b, c, rm, fl);
    return isnan_s(r) ? (uint32_t)fma_nan(&FS, a, b, fl) : r;
}
static inline uint64_t fma_d(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl)
{
    rm = fix_rm(rm);
    if (rm == RVFP_RMM) return soft_fma(&FD, a, b, c, rm, fl);
    uint64_t r = host_fma_d(a, b, c, rm, fl);
    return isnan_d(r) ? fma_nan(&FD, a, b, fl) : r;
}

uint32_t rvfp_fmadd_s(uint32_t a, uint32_t b, uint32_t c, unsigned rm, unsigned *fl)
{
    return fma_s(a, b, c, rm, fl);
}
uint32_t rvfp_fmsub_s(uint32_t a, uint32_t b, uint32_t c, unsigned rm, unsigned *fl)
{
    return fma_s(a, b, c ^ 0x80000000u, rm, fl);
}
uint32_t rvfp_fnmsub_s(uint32_t a, uint32_t b, uint32_t c, unsigned rm, unsigned *fl)
{
    return fma_s(a ^ 0x80000000u, b, c, rm, fl);
}
uint32_t rvfp_fnmadd_s(uint32_t a, uint32_t b, uint32_t c, unsigned rm, unsigned *fl)
{
    return fma_s(a ^ 0x80000000u, b, c ^ 0x80000000u, rm, fl);
}
uint64_t rvfp_fmadd_d(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl)
{
    return fma_d(a, b, c, rm, fl);
}
uint64_t rvfp_fmsub_d(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl)
{
    return fma_d(a, b, c ^ FD.sign, rm, fl);
}
uint64_t rvfp_fnmsub_d(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl)
{
    return fma_d(a ^ FD.sign, b, c, rm, fl);
}
uint64_t rvfp_fnmadd_d(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fl)
{
    return fma_d(a ^ FD.sign, b, c ^ FD.sign, rm, fl);
}

/* ---------------------------------------------------------------- min/max, compares */

/* Maps a non-NaN encoding to an unsigned key in numeric order, -0 just below +0. */
static inline uint64_t order_key(const fmt *f, uint64_t x)
{
    return (x & f->sign) ? ~x & (f->sign | (f->sign - 1)) : x | f->sign;
}

static uint64_t minmax(const fmt *f, uint64_t a, uint64_t b, int want_max, unsigned *fl)
{
    int ka = kind(f, a), kb = kind(f, b);
    if (ka == K_SNAN || kb == K_SNAN) *fl |= RVFP_NV;
    if (ka >= K_QNAN) return kb >= K_QNAN ? f->qnan : b;
    if (kb >= K_QNAN) return a;
    int a_lt_b = order_key(f, a) < order_key(f, b);
    return (a_lt_b != want_max) ? a : b;
}

/* Returns -1 when unordered (NV per `signalling`), else 1 for a<b, 2 for a==b, 0 for a>b;
 * +0 and -0 compare equal. */
static int compare(const fmt *f, uint64_t a, uint64_t b, int signalling, unsigned *fl)
{
    int ka = kind(f, a), kb = kind(f, b);
    if (ka >= K_QNAN || kb >= K_QNAN) {
        if (signalling || ka == K_SNAN || kb == K_SNAN) *fl |= RVFP_NV;
        return -1;
    }
    if (a == b || (ka == K_ZERO && kb == K_ZERO)) return 2;
    return order_key(f, a) < order_key(f, b) ? 1 : 0;
}

uint32_t rvfp_min_s(uint32_t a, uint32_t b, unsigned *fl)
{
    return (uint32_t)minmax(&FS, a, b, 0, fl);
}
uint32_t rvfp_max_s(uint32_t a, uint32_t b, unsigned *fl)
{
    return (uint32_t)minmax(&FS, a, b, 1, fl);
}
uint64_t rvfp_min_d(uint64_t a, uint64_t b, unsigned *fl)
{
    return minmax(&FD, a, b, 0, fl);
}
uint64_t rvfp_max_d(uint64_t a, uint64_t b, unsigned *fl)
{
    return minmax(&FD, a, b, 1, fl);
}

int rvfp_eq_s(uint32_t a, uint32_t b, unsigned *fl)
{
    return compare(&FS, a, b, 0, fl) == 2;
}
int rvfp_lt_s(uint32_t a, uint32_t b, unsigned *fl)
{
    return compare(&FS, a, b, 1, fl) == 1;
}
int rvfp_le_s(uint32_t a, uint32_t b, unsigned *fl)
{
    int c = compare(&FS, a, b, 1, fl);
    return c == 1 || c == 2;
}
int rvfp_eq_d(uint64_t a, uint64_t b, unsigned *fl)
{
    return compare(&FD, a, b, 0, fl) == 2;
}
int rvfp_lt_d(uint64_t a, uint64_t b, unsigned *fl)
{
    return compare(&FD, a, b, 1, fl) == 1;
}
int rvfp_le_d(uint64_t a, uint64_t b, unsigned *fl)
{
    int c = compare(&FD, a, b, 1, fl);
    return c == 1 || c == 2;
}

/* ---------------------------------------------------------------- classify, sign injection */

static unsigned classify(const fmt *f, uint64_t x)
{
    int neg = (x & f->sign) != 0;
    switch (kind(f, x)) {
    case K_ZERO:
        return neg ? RVFP_CLASS_NZERO : RVFP_CLASS_PZERO;
    case K_INF:
        return neg ? RVFP_CLASS_NINF : RVFP_CLASS_PINF;
    case K_QNAN:
        return RVFP_CLASS_QNAN;
    case K_SNAN:
        return RVFP_CLASS_SNAN;
    default:
        if (x & f->expm) return neg ? RVFP_CLASS_NNORM : RVFP_CLASS_PNORM;
        return neg ? RVFP_CLASS_NSUB : RVFP_CLASS_PSUB;
    }
}

unsigned rvfp_classify_s(uint32_t a)
{
    return classify(&FS, a);
}
unsigned rvfp_classify_d(uint64_t a)
{
    return classify(&FD, a);
}

uint32_t rvfp_sgnj_s(uint32_t a, uint32_t b)
{
    return (a & 0x7fffffffu) | (b & 0x80000000u);
}
uint32_t rvfp_sgnjn_s(uint32_t a, uint32_t b)
{
    return (a & 0x7fffffffu) | (~b & 0x80000000u);
}
uint32_t rvfp_sgnjx_s(uint32_t a, uint32_t b)
{
    return a ^ (b & 0x80000000u);
}
uint64_t rvfp_sgnj_d(uint64_t a, uint64_t b)
{
    return (a & ~FD.sign) | (b & FD.sign);
}
uint64_t rvfp_sgnjn_d(uint64_t a, uint64_t b)
{
    return (a & ~FD.sign) | (~b & FD.sign);
}
uint64_t rvfp_sgnjx_d(uint64_t a, uint64_t b)
{
    return a ^ (b & FD.sign);
}

/* ---------------------------------------------------------------- float <-> float */

uint32_t rvfp_cvt_s_d(uint64_t a, unsigned rm, unsigned *fl)
{
    rm = fix_rm(rm);
    if (rm == RVFP_RMM) return soft_cvt_s_d(a, rm, fl);
    return canon_s(host_cvt_s_d(a, rm, fl));
}

uint64_t rvfp_cvt_d_s(uint32_t a, unsigned rm, unsigned *fl)
{
    (void)rm; /* widening is exact */
    if (isnan_s(a)) {
        if (issnan_s(a)) *fl |= RVFP_NV;
        return RVFP_QNAN_D;
    }
    return u_of_d((double)f_of(a));
}

/* ---------------------------------------------------------------- float -> integer */

/* Converts to an integer in [lo, hi] (as magnitudes: -lo_mag .. hi) with RISC-V
 * saturation. Returns the result as the 64-bit two's complement pattern. */
static uint64_t to_int(const fmt *f, uint64_t x, unsigned rm, uint64_t hi, uint64_t lo_mag,
                       uint64_t sat_hi, uint64_t sat_lo, unsigned *fl)
{
    rm = fix_rm(rm);
    int neg = (x & f->sign) != 0;
    switch (kind(f, x)) {
    case K_ZERO:
        return 0;
    case K_QNAN:
    case K_SNAN:
        *fl |= RVFP_NV;
        return sat_hi;
    case K_INF:
        *fl |= RVFP_NV;
        return neg ? sat_lo : sat_hi;
    default:
        break;
    }
    int e;
    uint64_t sig = unpack(f, x, &e); /* value = sig * 2^e, sig's MSB at 63 */
    u128 mag;
    int st = 0;
    if (e >= 0) {
        mag = e > 1 ? (u128)hi + 1 + lo_mag : (u128)sig << e; /* e > 1: >= 2^65, out */
    } else if (e <= -65) {
        mag = 0;
        st = 1; /* value < 2^63 * 2^-65 < 1/2 */
    } else {
        int sh = -e;
        st = cut_state(sig, sh);
        mag = sh == 64 ? 0 : sig >> sh;
    }
    mag += (u128)round_inc(rm, neg, (int)(mag & 1), st);
    if (neg ? mag > lo_mag : mag > hi) {
        *fl |= RVFP_NV; /* out of range: NV alone, never NX */
        return neg ? sat_lo : sat_hi;
    }
    if (st) *fl |= RVFP_NX;
    return neg ? (uint64_t)0 - (uint64_t)mag : (uint64_t)mag;
}

#define I32MAX  UINT64_C(0x7fffffff)
#define SX32(v) ((uint64_t)(int64_t)(int32_t)(uint32_t)(v))

int64_t rvfp_cvt_w_s(uint32_t a, unsigned rm, unsigned *fl)
{
    return (int64_t)to_int(&FS, a, rm, I32MAX, I32MAX + 1, I32MAX, SX32(0x80000000u), fl);
}
int64_t rvfp_cvt_wu_s(uint32_t a, unsigned rm, unsigned *fl)
{
    return (int64_t)SX32(to_int(&FS, a, rm, 0xffffffffu, 0, 0xffffffffu, 0, fl));
}
int64_t rvfp_cvt_l_s(uint32_t a, unsigned rm, unsigned *fl)
{
    return (int64_t)to_int(&FS, a, rm, INT64_MAX, (uint64_t)INT64_MAX + 1, INT64_MAX,
                           (uint64_t)INT64_MAX + 1, fl);
}
uint64_t rvfp_cvt_lu_s(uint32_t a, unsigned rm, unsigned *fl)
{
    return to_int(&FS, a, rm, UINT64_MAX, 0, UINT64_MAX, 0, fl);
}
int64_t rvfp_cvt_w_d(uint64_t a, unsigned rm, unsigned *fl)
{
    return (int64_t)to_int(&FD, a, rm, I32MAX, I32MAX + 1, I32MAX, SX32(0x80000000u), fl);
}
int64_t rvfp_cvt_wu_d(uint64_t a, unsigned rm, unsigned *fl)
{
    return (int64_t)SX32(to_int(&FD, a, rm, 0xffffffffu, 0, 0xffffffffu, 0, fl));
}
int64_t rvfp_cvt_l_d(uint64_t a, unsigned rm, unsigned *fl)
{
    return (int64_t)to_int(&FD, a, rm, INT64_MAX, (uint64_t)INT64_MAX + 1, INT64_MAX,
                           (uint64_t)INT64_MAX + 1, fl);
}
uint64_t rvfp_cvt_lu_d(uint64_t a, unsigned rm, unsigned *fl)
{
    return to_int(&FD, a, rm, UINT64_MAX, 0, UINT64_MAX, 0, fl);
}

/* ---------------------------------------------------------------- integer -> float */

static uint64_t from_int(const fmt *f, int neg, uint64_t mag, unsigned rm, unsigned *fl)
{
    if (mag == 0) return 0; /* +0 in every mode */
    int lz = __builtin_clzll(mag);
    return round_pack(f, neg, -lz, mag << lz, fix_rm(rm), fl);
}

static inline uint64_t abs64(int64_t v)
{
    return v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
}

uint32_t rvfp_cvt_s_w(int32_t a, unsigned rm, unsigned *fl)
{
    return (uint32_t)from_int(&FS, a < 0, abs64(a), rm, fl);
}
uint32_t rvfp_cvt_s_wu(uint32_t a, unsigned rm, unsigned *fl)
{
    return (uint32_t)from_int(&FS, 0, a, rm, fl);
}
uint32_t rvfp_cvt_s_l(int64_t a, unsigned rm, unsigned *fl)
{
    return (uint32_t)from_int(&FS, a < 0, abs64(a), rm, fl);
}
uint32_t rvfp_cvt_s_lu(uint64_t a, unsigned rm, unsigned *fl)
{
    return (uint32_t)from_int(&FS, 0, a, rm, fl);
}
uint64_t rvfp_cvt_d_w(int32_t a, unsigned rm, unsigned *fl)
{
    return from_int(&FD, a < 0, abs64(a), rm, fl);
}
uint64_t rvfp_cvt_d_wu(uint32_t a, unsigned rm, unsigned *fl)
{
    return from_int(&FD, 0, a, rm, fl);
}
uint64_t rvfp_cvt_d_l(int64_t a, unsigned rm, unsigned *fl)
{
    return from_int(&FD, a < 0, abs64(a), rm, fl);
}
uint64_t rvfp_cvt_d_lu(uint64_t a, unsigned rm, unsigned *fl)
{
    return from_int(&FD, 0, a, rm, fl);
}
