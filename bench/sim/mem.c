/* mem.c — memory kernel: strided array walks, a pointer chase through a permutation,
 * block copies and byte histograms over a 1 MiB working set. Exit status: checksum. */
#include <stdint.h>
#include <string.h>

/* BENCH_SCALE (run.sh's SCALE) multiplies the outer repetitions: longer runs for timing
 * resolution; the checksum changes with it, both simulators still agree. */
#ifndef BENCH_SCALE
#define BENCH_SCALE 1
#endif

#define N (1u << 17) /* 128 Ki 64-bit words = 1 MiB */
static uint64_t a[N], b[N];
static uint32_t next[N / 2];
static uint32_t hist[256];

int main(void)
{
    uint64_t s = 0;
    for (uint32_t i = 0; i < N; i++)
        a[i] = i * 0x9e3779b97f4a7c15ull;
    /* a single-cycle permutation for the pointer chase */
    for (uint32_t i = 0; i < N / 2; i++)
        next[i] = (i + 40503u) & (N / 2 - 1);
    for (int r = 0; r < 24 * BENCH_SCALE; r++) {
        memcpy(b, a, sizeof a);
        for (uint32_t i = 0; i < N; i += 8)
            s += b[i] ^ a[(i * 13) & (N - 1)];
        uint32_t k = (uint32_t)r;
        for (uint32_t i = 0; i < N / 2; i++)
            k = next[k], s += k;
        const uint8_t *bytes = (const uint8_t *)b;
        for (uint32_t i = 0; i < sizeof b; i += 3)
            hist[bytes[i]]++;
        memset(a + r % 24, r, 4096);
    }
    for (int i = 0; i < 256; i++)
        s += hist[i] * (uint64_t)i;
    return (int)(s & 0xff);
}
