/* Integer-heavy program for the objdump differential test: shifts, multiply and
 * divide (M), 32-bit "w" forms, branches of every kind, a jump table, calls. */
#include <stdint.h>

volatile int64_t sink;

static uint64_t mix(uint64_t x, unsigned s)
{
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x << (s & 63);
    return x ^ (x >> 29);
}

int32_t w_ops(int32_t a, int32_t b)
{
    int32_t r = a * b + (a >> 3) - (int32_t)((uint32_t)b >> 5);
    if (b != 0) r += a / b + a % b;
    return r ^ (a << 7);
}

int64_t divs(int64_t a, int64_t b, uint64_t c)
{
    if (b == 0 || c == 0) return -1;
    return a / b + a % b + (int64_t)(c / 7u) + (int64_t)(c % 13u) +
           (int64_t)((__int128)a * b >> 64);
}

int classify(int k)
{
    switch (k) {
    case 0:
        return 11;
    case 1:
        return 23;
    case 2:
        return 37;
    case 3:
        return 41;
    case 4:
        return 53;
    case 5:
        return 67;
    case 6:
        return 79;
    default:
        return -k;
    }
}

unsigned cmp_chain(int64_t a, int64_t b, uint64_t ua, uint64_t ub)
{
    unsigned r = 0;
    if (a < b) r |= 1;
    if (a >= b) r |= 2;
    if (ua < ub) r |= 4;
    if (ua >= ub) r |= 8;
    if (a == 0) r |= 16;
    if (b != 0) r |= 32;
    return r + (a < 5) + (ua < 9u);
}

int main(void)
{
    uint64_t acc = 1;
    for (int i = 0; i < 100; i++) {
        acc = mix(acc + (uint64_t)i, (unsigned)i);
        acc += (uint64_t)classify(i & 7) + cmp_chain((int64_t)acc, i, acc, (uint64_t)i);
        acc += (uint64_t)w_ops((int32_t)acc, i + 1) + (uint64_t)divs((int64_t)acc, i + 3, acc);
    }
    sink = (int64_t)acc;
    return 0;
}
