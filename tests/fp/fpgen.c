/* fpgen.c — biased random F/D inputs (see fpgen.h). */
#include "fpgen.h"

#include <string.h>

static uint64_t rng_state;

void fpgen_seed(uint64_t seed)
{
    rng_state = seed;
}

uint64_t fpgen_rnd(void)
{
    /* splitmix64 */
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
#define rnd fpgen_rnd

static const int P[2] = {24, 53}, EB[2] = {8, 11};
#define BIAS(f) (((1 << EB[f]) - 1) / 2)

static uint64_t mk(int f, int neg, int bexp, uint64_t frac)
{
    int p = P[f];
    return ((uint64_t)neg << (p + EB[f] - 1)) | ((uint64_t)bexp << (p - 1)) |
           (frac & ((1ull << (p - 1)) - 1));
}

int fpgen_bexp(int f, uint64_t x)
{
    return (int)((x >> (P[f] - 1)) & ((1u << EB[f]) - 1));
}

uint64_t fpgen_operand(int f, int near, int spread)
{
    int emaxb = (1 << EB[f]) - 1; /* all-ones biased exponent */
    int bias = emaxb / 2, p = P[f];
    uint64_t r = rnd(), frac = rnd();
    int neg = (int)(r & 1);
    int sel = (int)((r >> 1) % 32);
    if (sel < 4) return f ? rnd() : (uint32_t)rnd();
    if (sel < 6) {
        static const uint64_t sp[2][12] = {
            {0, 0x7f800000, 0x7fc00000, 0x7f800001, 0x00000001, 0x007fffff, 0x00800000, 0x7f7fffff,
             0x3f800000, 0x7fbfffff, 0x7fc00001, 0x00400000},
            {0, 0x7ff0000000000000, 0x7ff8000000000000, 0x7ff0000000000001, 1, 0x000fffffffffffff,
             0x0010000000000000, 0x7fefffffffffffff, 0x3ff0000000000000, 0x7ff7ffffffffffff,
             0x7ff8000000000001, 0x0008000000000000}};
        uint64_t v = sp[f][(r >> 8) % 12];
        return v | (neg ? (1ull << (p + EB[f] - 1)) : 0);
    }
    if (sel < 8) return mk(f, neg, 0, frac); /* subnormal */
    if (sel < 10) return mk(f, neg, emaxb - 1 - (int)((r >> 8) % 3), frac);
    if (sel < 11) return mk(f, neg, 1 + (int)((r >> 8) % 3), frac);
    if (sel < 16) { /* few significant bits: exact ties become common */
        int keep = 1 + (int)((r >> 8) % 4);
        frac &= ~((1ull << (p - 1 - keep)) - 1);
    }
    if (sel < 18) frac = ~(rnd() % 8); /* just below a power of two */
    int e;
    if (near >= 0 && sel < 28)
        e = near + (int)((r >> 16) % (unsigned)(2 * spread + 1)) - spread;
    else
        e = bias + (int)((r >> 16) % 81) - 40;
    if (sel >= 28 && near < 0) e = 1 + (int)((r >> 24) % (unsigned)(emaxb - 1));
    if (e < 0) e = 0;
    if (e > emaxb - 1) e = emaxb - 1;
    return mk(f, neg, e, frac);
}

static uint64_t gen(int f, int near)
{
    return fpgen_operand(f, near, 30);
}

/* fma addend: usually near the product's magnitude, sometimes a few ulps from -(a*b)
 * so that the sum cancels (placing it needs only a rough product: host RNE is fine). */
static uint64_t gen_addend(int f, uint64_t a, uint64_t b)
{
    uint64_t r = rnd();
    if (r % 4 != 0) return gen(f, fpgen_bexp(f, a) + fpgen_bexp(f, b) - BIAS(f));
    uint64_t prod;
    if (f) {
        double x, y, z;
        memcpy(&x, &a, 8);
        memcpy(&y, &b, 8);
        z = x * y;
        memcpy(&prod, &z, 8);
    } else {
        uint32_t ua = (uint32_t)a, ub = (uint32_t)b, uz;
        float x, y, z;
        memcpy(&x, &ua, 4);
        memcpy(&y, &ub, 4);
        z = x * y;
        memcpy(&uz, &z, 4);
        prod = uz;
    }
    uint64_t sgn = 1ull << (P[f] + EB[f] - 1);
    uint64_t c = (prod ^ sgn) + (r >> 8) % 5 - 2; /* a few ulps off */
    return f ? c : (uint32_t)c;
}

static uint64_t gen_int(int bits)
{
    uint64_t r = rnd();
    int shift = (int)(rnd() % 64);
    uint64_t v;
    switch (r % 4) {
    case 0:
        v = rnd();
        break;
    case 1:
        v = rnd() >> shift;
        break;
    case 2:
        v = (uint64_t)0 - (rnd() >> shift);
        break;
    default:
        v = (1ull << shift) + (rnd() % 5) - 2;
        break;
    }
    return bits == 32 ? (uint64_t)(int64_t)(int32_t)v : v;
}

/* Inputs for float->int: values near the integer range edges and halves. */
static uint64_t gen_toint(int f, int bits)
{
    uint64_t r = rnd();
    if (r % 3 == 0) return gen(f, -1);
    int e = BIAS(f) + (int)((r >> 8) % (unsigned)(bits + 3)) - 2;
    if (r % 3 == 1) return gen(f, e);
    uint64_t frac = rnd();
    int keep = (int)((r >> 20) % 8);
    if (keep < P[f] - 1) frac &= ~((1ull << (P[f] - 1 - keep)) - 1);
    if ((r >> 30) & 1) frac = ~frac; /* just below a power of two */
    return mk(f, (int)((r >> 40) & 1), e, frac);
}

void fpgen_inputs(int kind, int f, int nargs, int bits, uint64_t *a, uint64_t *b, uint64_t *c)
{
    *a = *b = *c = 0;
    switch (kind) {
    case FPGEN_ARITH:
        *a = gen(f, -1);
        switch (rnd() % 8) { /* aim results at the subnormal and overflow edges */
        case 0:
            *b = fpgen_operand(f, 1 + BIAS(f) - fpgen_bexp(f, *a), 2);
            break;
        case 1:
            *b = fpgen_operand(f, fpgen_bexp(f, *a) + BIAS(f) - 1, 2);
            break;
        case 2:
            *b = fpgen_operand(f, 3 * BIAS(f) - fpgen_bexp(f, *a), 2);
            break;
        default:
            *b = gen(f, (rnd() & 1) ? fpgen_bexp(f, *a) : -1);
            break;
        }
        if (nargs == 3) *c = gen_addend(f, *a, *b);
        break;
    case FPGEN_FF:
        if (f == 0) { /* binary64 source: aim at binary32's underflow and overflow edges */
            uint64_t r = rnd() % 3;
            *a = gen(1, r == 0 ? 1023 - 127 + 2 : r == 1 ? 1023 + 127 : -1);
        } else {
            *a = gen(0, -1);
        }
        break;
    case FPGEN_TOINT:
        *a = gen_toint(f, bits);
        break;
    default:
        *a = gen_int(bits);
        break;
    }
}
