/* fp.c — floating-point kernel: double matrix multiply, single-precision saxpy, a
 * Newton square root with divides, and an n-body style force loop (sqrt, fma
 * contraction). Exit status: checksum of the results' bits. */
#include <math.h>
#include <stdint.h>
#include <string.h>

/* BENCH_SCALE (run.sh's SCALE) multiplies the outer repetitions: longer runs for timing
 * resolution; the checksum changes with it, both simulators still agree. */
#ifndef BENCH_SCALE
#define BENCH_SCALE 1
#endif

#define M 48
static double A[M][M], B[M][M], C[M][M];
static float x[4096], y[4096];

int main(void)
{
    for (int i = 0; i < M; i++)
        for (int j = 0; j < M; j++) {
            A[i][j] = (double)(i + 1) / (j + 2);
            B[i][j] = (double)(j - i) * 0.25;
        }
    for (int r = 0; r < 20 * BENCH_SCALE; r++)
        for (int i = 0; i < M; i++)
            for (int j = 0; j < M; j++) {
                double s = 0;
                for (int k = 0; k < M; k++)
                    s += A[i][k] * B[k][j];
                C[i][j] = s + r;
            }
    for (int i = 0; i < 4096; i++) {
        x[i] = (float)i * 0.5f;
        y[i] = 1.0f / (float)(i + 1);
    }
    for (int r = 0; r < 300 * BENCH_SCALE; r++)
        for (int i = 0; i < 4096; i++)
            y[i] = 1.0001f * x[i] + y[i];
    double root = 0;
    for (int i = 1; i < 20000; i++) {
        double g = i;
        for (int k = 0; k < 6; k++)
            g = 0.5 * (g + i / g);
        root += g - sqrt((double)i);
    }
    double px[32], py[32], fx = 0, fy = 0;
    for (int i = 0; i < 32; i++)
        px[i] = cos(i * 0.3), py[i] = sin(i * 0.3);
    for (int r = 0; r < 1500 * BENCH_SCALE; r++)
        for (int i = 0; i < 32; i++)
            for (int j = 0; j < 32; j++) {
                if (i == j) continue;
                double dx = px[j] - px[i], dy = py[j] - py[i];
                double d2 = dx * dx + dy * dy + 1e-3;
                double inv = 1.0 / (d2 * sqrt(d2));
                fx += dx * inv, fy += dy * inv;
            }
    uint64_t bits, sum = 0;
    memcpy(&bits, &C[7][9], 8), sum ^= bits;
    uint32_t fb;
    memcpy(&fb, &y[1234], 4), sum ^= fb;
    memcpy(&bits, &root, 8), sum ^= bits;
    memcpy(&bits, &fx, 8), sum ^= bits;
    memcpy(&bits, &fy, 8), sum ^= bits;
    return (int)((sum ^ (sum >> 8) ^ (sum >> 16) ^ (sum >> 24)) & 0xff);
}
