/* mix.c — the CPU-bound mix of issue 14: CRC-32, integer matrix multiply, heapsort, a
 * sieve of Eratosthenes, 64-bit divide/remainder with gcd, and a double-precision n-body
 * step with fdiv and fsqrt. Prints one checksum line per part and the total; run.sh
 * compares that output between xphmg-sim, qemu and a native host build of this file,
 * and the exit status is the total's low byte. Standard C only, so the same source
 * builds for the target kit and for the host. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* BENCH_SV39 (RISC-V only): main first enters S mode under Sv39, one 1 GiB page mapping
 * 0x80000000 onto itself, so that every fetch, load and store is translated. */
#if defined(BENCH_SV39) && defined(__riscv)
static uint64_t sv39_root[512] __attribute__((aligned(4096)));

static void enter_sv39(void)
{
    sv39_root[2] = (UINT64_C(0x80000000) >> 12) << 10 | 0xcf; /* V R W X A D */
    uint64_t satp = UINT64_C(8) << 60 | (uint64_t)(uintptr_t)sv39_root >> 12;
    __asm__ volatile("li t0, -1\n\tcsrw pmpaddr0, t0\n\tli t0, 0x1f\n\tcsrw pmpcfg0, t0\n\t"
                     "csrw satp, %0\n\tsfence.vma\n\t"
                     "li t0, 0x1800\n\tcsrc mstatus, t0\n\tli t0, 0x800\n\tcsrs mstatus, t0\n\t"
                     "lla t0, 1f\n\tcsrw mepc, t0\n\tmret\n1:"
                     :
                     : "r"(satp)
                     : "t0", "memory");
}
#else
static void enter_sv39(void) {}
#endif

/* BENCH_SCALE (run.sh's SCALE) multiplies every part's repetitions. */
#ifndef BENCH_SCALE
#define BENCH_SCALE 1
#endif

static uint32_t lcg_state = 12345;
static uint32_t lcg(void)
{
    lcg_state = lcg_state * 1664525u + 1013904223u;
    return lcg_state;
}

/* ---- CRC-32 (reflected, polynomial 0xEDB88320, table-driven) ---- */
static uint32_t crc_table[256];
static uint8_t crc_buf[16384];

static uint32_t part_crc(void)
{
    for (uint32_t i = 0; i < 256; i++) {
        uint32_t c = i;
        for (int k = 0; k < 8; k++)
            c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
        crc_table[i] = c;
    }
    for (size_t i = 0; i < sizeof crc_buf; i++)
        crc_buf[i] = (uint8_t)(lcg() >> 24);
    uint32_t acc = 0;
    for (int r = 0; r < 160 * BENCH_SCALE; r++) {
        uint32_t c = ~(uint32_t)r;
        for (size_t i = 0; i < sizeof crc_buf; i++)
            c = crc_table[(c ^ crc_buf[i]) & 0xff] ^ (c >> 8);
        acc ^= ~c;
        crc_buf[r & (sizeof crc_buf - 1)] ^= (uint8_t)acc;
    }
    return acc;
}

/* ---- integer matrix multiply ---- */
#define N 64
static int32_t ma[N][N], mb[N][N], mc[N][N];

static uint32_t part_matmul(void)
{
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            ma[i][j] = (int32_t)(lcg() >> 20) - 2048;
            mb[i][j] = (int32_t)(lcg() >> 20) - 2048;
        }
    uint32_t acc = 0;
    for (int r = 0; r < 70 * BENCH_SCALE; r++) {
        for (int i = 0; i < N; i++)
            for (int j = 0; j < N; j++) {
                int32_t s = 0;
                for (int k = 0; k < N; k++)
                    s += ma[i][k] * mb[k][j];
                mc[i][j] = s;
            }
        acc = acc * 31u + (uint32_t)mc[r & (N - 1)][(r * 7) & (N - 1)];
        ma[r & (N - 1)][(r * 3) & (N - 1)] ^= (int32_t)(acc & 0xff);
    }
    return acc;
}

/* ---- heapsort ---- */
#define HEAP_N 20000
static uint32_t heap[HEAP_N];

static void sift_down(uint32_t *a, size_t start, size_t end)
{
    size_t root = start;
    while (2 * root + 1 <= end) {
        size_t child = 2 * root + 1;
        if (child + 1 <= end && a[child] < a[child + 1]) child++;
        if (a[root] >= a[child]) return;
        uint32_t t = a[root];
        a[root] = a[child];
        a[child] = t;
        root = child;
    }
}

static uint32_t part_heapsort(void)
{
    uint32_t acc = 0;
    for (int r = 0; r < 14 * BENCH_SCALE; r++) {
        for (size_t i = 0; i < HEAP_N; i++)
            heap[i] = lcg();
        for (size_t s = HEAP_N / 2; s-- > 0;)
            sift_down(heap, s, HEAP_N - 1);
        for (size_t end = HEAP_N - 1; end > 0; end--) {
            uint32_t t = heap[0];
            heap[0] = heap[end];
            heap[end] = t;
            sift_down(heap, 0, end - 1);
        }
        for (size_t i = 1; i < HEAP_N; i++)
            if (heap[i - 1] > heap[i]) return 0xdeadbeef; /* not sorted */
        acc = acc * 33u + heap[HEAP_N / 3] + heap[r];
    }
    return acc;
}

/* ---- sieve of Eratosthenes ---- */
#define SIEVE_N 1000000
static uint8_t composite[SIEVE_N + 1];

static uint32_t part_sieve(void)
{
    uint32_t acc = 0;
    for (int r = 0; r < 12 * BENCH_SCALE; r++) {
        memset(composite, 0, sizeof composite);
        uint32_t count = 0, last = 0;
        for (uint32_t i = 2; i <= SIEVE_N; i++) {
            if (composite[i]) continue;
            count++;
            last = i;
            for (uint64_t m = (uint64_t)i * i; m <= SIEVE_N; m += i)
                composite[m] = 1;
        }
        acc = acc * 7u + count + last;
    }
    return acc;
}

/* ---- 64-bit divide, remainder and gcd ---- */
static uint64_t gcd64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

static uint32_t part_divide(void)
{
    uint64_t acc = 0, x = 0x9e3779b97f4a7c15u;
    for (int r = 0; r < 400000 * BENCH_SCALE; r++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        uint64_t y = (x >> 11) | 1;
        int64_t s = (int64_t)x;
        acc += gcd64(x, y) + x / y + (uint64_t)(s / (int64_t)(y | 0x100)) + x % (y >> 3 | 1);
    }
    return (uint32_t)(acc ^ (acc >> 32));
}

/* ---- n-body (double, fdiv, fsqrt) ---- */
#define BODIES 5
static double px[BODIES], py[BODIES], pz[BODIES], vx[BODIES], vy[BODIES], vz[BODIES], mass[BODIES];

static uint32_t part_nbody(void)
{
    for (int i = 0; i < BODIES; i++) {
        px[i] = (double)(i * 3 - 5) / 7.0;
        py[i] = (double)(i * i + 1) / 3.0;
        pz[i] = (double)(4 - i) / 5.0;
        vx[i] = vy[i] = vz[i] = 0.0;
        mass[i] = 1.0 + (double)i / 2.0;
    }
    const double dt = 0.001;
    for (int step = 0; step < 400000 * BENCH_SCALE; step++) {
        for (int i = 0; i < BODIES; i++)
            for (int j = i + 1; j < BODIES; j++) {
                double dx = px[i] - px[j], dy = py[i] - py[j], dz = pz[i] - pz[j];
                double d2 = dx * dx + dy * dy + dz * dz + 0.01;
                double d = sqrt(d2);
                double mag = dt / (d2 * d);
                vx[i] -= dx * mass[j] * mag;
                vy[i] -= dy * mass[j] * mag;
                vz[i] -= dz * mass[j] * mag;
                vx[j] += dx * mass[i] * mag;
                vy[j] += dy * mass[i] * mag;
                vz[j] += dz * mass[i] * mag;
            }
        for (int i = 0; i < BODIES; i++) {
            px[i] += dt * vx[i];
            py[i] += dt * vy[i];
            pz[i] += dt * vz[i];
        }
    }
    uint64_t acc = 0, bits;
    for (int i = 0; i < BODIES; i++) {
        memcpy(&bits, &px[i], 8), acc = acc * 3 + bits;
        memcpy(&bits, &vy[i], 8), acc = acc * 3 + bits;
    }
    return (uint32_t)(acc ^ (acc >> 32));
}

int main(void)
{
    static const struct {
        const char *name;
        uint32_t (*run)(void);
    } parts[] = {{"crc32", part_crc},   {"matmul", part_matmul}, {"heapsort", part_heapsort},
                 {"sieve", part_sieve}, {"divide", part_divide}, {"nbody", part_nbody}};
    uint32_t total = 0;
    enter_sv39();
    for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++) {
        uint32_t c = parts[i].run();
        printf("%s %08lx\n", parts[i].name, (unsigned long)c);
        total = total * 0x01000193u ^ c;
    }
    printf("total %08lx\n", (unsigned long)total);
    return (int)(total & 0xff);
}
