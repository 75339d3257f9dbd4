/* xdec-bench — decode speed of the generated decoder against the ISA library.
 *
 *   xdec-bench CODE.bin SPEC.xml
 *
 * CODE.bin is raw code (riscv64-unknown-elf-objcopy -O binary -j .text prog.elf);
 * its words are split by RISC-V's length rule and decoded in sequence by
 * xdec_decode and by isa_decode, best of 5 passes each. Not built by default
 * (`make xdec-bench`); the numbers are quoted in tools/gen/README.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "xdec.h"
#include "xphmg/isa.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fputs("usage: xdec-bench CODE.bin SPEC.xml\n", stderr);
        return 2;
    }
    FILE *f = fopen(argv[1], "rb");
    if (!f) {
        perror(argv[1]);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *b = calloc((size_t)n + 4, 1);
    uint32_t *w = malloc(sizeof *w * ((size_t)n / 2 + 1));
    if (!b || !w || n < 4 || fread(b, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "%s: cannot read\n", argv[1]);
        return 1;
    }
    fclose(f);
    long k = 0;
    for (long o = 0; o + 4 <= n;) {
        uint32_t x = b[o] | b[o + 1] << 8 | b[o + 2] << 16 | (uint32_t)b[o + 3] << 24;
        w[k++] = x;
        o += (x & 3) == 3 ? 4 : 2;
    }
    char err[512];
    isa_spec *s = isa_load(argv[2], err, sizeof err);
    if (!s) {
        fprintf(stderr, "%s\n", err);
        return 3;
    }
    xdec d;
    isa_decoded dd;
    unsigned long sink = 0, legal = 0;
    double b1 = 1e9, b2 = 1e9;
    for (int r = 0; r < 5; r++) {
        double t0 = now();
        for (long i = 0; i < k; i++)
            sink += xdec_decode(w[i], &d) + d.op;
        double t = now() - t0;
        if (t < b1) b1 = t;
        t0 = now();
        legal = 0;
        for (long i = 0; i < k; i++) {
            uint8_t bb[4] = {(uint8_t)w[i], (uint8_t)(w[i] >> 8), (uint8_t)(w[i] >> 16),
                             (uint8_t)(w[i] >> 24)};
            legal += isa_decode(s, bb, 4, 0, &dd) == ISA_OK;
        }
        t = now() - t0;
        if (t < b2) b2 = t;
    }
    printf("%ld words (%lu legal): xdec_decode %.1f ns/word, isa_decode %.1f ns/word "
           "(best of 5)%s\n",
           k, legal, b1 / (double)k * 1e9, b2 / (double)k * 1e9, sink == 1 ? " " : "");
    isa_free(s);
    free(b);
    free(w);
    return 0;
}
