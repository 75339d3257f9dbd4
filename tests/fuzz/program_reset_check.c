/* program_reset_check.c — the driver of fuzz_program_reset: fuzz_program built with
 * XPHMG_FUZZ_RESET_CHECK runs every input on its long-lived, reset harts and on harts
 * made for that input alone, and aborts unless both give the same commit log and the same
 * final state (fuzz_program.c, check_fresh). This feeds it the committed seeds under every
 * profile and mode, twice (each seed also after every other), then random programs built
 * to leave behind what a reset must undo: writes of random values to every CSR the hart
 * has (the CAP, XMEM, RT and PMASK windows among them), stores, code that rewrites itself,
 * xmem.ldg/stg (the L1 tag model), mixed with runs of the seeds' code and random words.
 *
 * Usage: fuzz_program_reset SEED_DIR [RANDOM_INPUTS] (default 300, fixed PRNG seed). */
#include <dirent.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "hart.h"
#include "mem.h"
#include "xphmg_ext.h"

#define MAX_SEEDS   64
#define INPUT_BYTES 4097u
#define NCONFIG     8u /* the first byte's profile x mode choices (fuzz_program.c) */

static uint8_t *seed[MAX_SEEDS];
static size_t seed_len[MAX_SEEDS];
static unsigned nseeds;
static uint32_t csr_list[4096];
static unsigned ncsrs;
static uint64_t rng = 0x9e3779b97f4a7c15u;

static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static void load_seeds(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d) {
        perror(dir);
        exit(1);
    }
    struct dirent *e;
    while ((e = readdir(d)) != NULL && nseeds < MAX_SEEDS) {
        if (e->d_name[0] == '.') continue;
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        uint8_t *buf = malloc(INPUT_BYTES);
        if (!f || !buf) {
            perror(path);
            exit(1);
        }
        seed_len[nseeds] = fread(buf, 1, INPUT_BYTES, f);
        seed[nseeds++] = buf;
        fclose(f);
    }
    closedir(d);
    /* directory order is the file system's: sort by length then bytes, for a fixed run */
    for (unsigned i = 1; i < nseeds; i++)
        for (unsigned k = i; k > 0; k--) {
            size_t la = seed_len[k - 1], lb = seed_len[k];
            int c = memcmp(seed[k - 1], seed[k], la < lb ? la : lb);
            if (la < lb || (la == lb && c <= 0)) break;
            uint8_t *t = seed[k];
            seed[k] = seed[k - 1];
            seed[k - 1] = t;
            seed_len[k] = la;
            seed_len[k - 1] = lb;
        }
}

/* Every CSR a hart with the default units lets machine mode write (its own value back). */
static void list_csrs(void)
{
    char err[256];
    sim_mem *m = mem_new(UINT64_C(0x80000000), 4096);
    hart *h = m ? hart_new(m, UINT64_C(0x80000000)) : NULL;
    xphmg_ext *x = h ? xphmg_ext_attach(h, NULL, err, sizeof err) : NULL;
    if (!x) abort();
    for (uint32_t c = 0; c <= 0xfff; c++) {
        uint64_t v;
        if (hart_csr_read(h, c, &v) && hart_csr_write(h, c, v)) csr_list[ncsrs++] = c;
    }
    xphmg_ext_free(x);
    hart_free(h);
    mem_free(m);
}

static size_t put(uint8_t *buf, size_t n, uint32_t w)
{
    if (n + 4 > INPUT_BYTES) return n;
    memcpy(buf + n, &w, 4);
    return n + 4;
}

static uint32_t i_type(uint32_t imm12, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
    return (imm12 & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

/* One piece of a program: mostly what leaves state behind for the next input, each
 * piece trap-free where it can be (a trap restarts the program at its start). */
static size_t random_piece(uint8_t *buf, size_t n)
{
    uint64_t r = next(), v = next();
    unsigned rx = 1 + (unsigned)(r >> 8) % 31, ry = (unsigned)(r >> 13) & 31;
    unsigned rd = (unsigned)(r >> 18) & 31, f3 = 1 + (unsigned)(r >> 23) % 3;
    uint32_t csr = csr_list[(r >> 32) % ncsrs];
    switch (r % 8) {
    case 0:
    case 1:
    case 2: /* a random value into a CSR: lui, addi, maybe slli, csrrw/s/c */
        n = put(buf, n, ((uint32_t)v & 0xfffff000u) | rx << 7 | 0x37);
        n = put(buf, n, i_type((uint32_t)(v >> 32), rx, 0, rx, 0x13));
        if (v >> 63) n = put(buf, n, i_type((uint32_t)(v >> 44) & 63, rx, 1, rx, 0x13));
        return put(buf, n, i_type(csr, rx, f3, rd, 0x73));
    case 3: /* csrrwi/si/ci */
        return put(buf, n, i_type(csr, (unsigned)v & 31, f3 + 4, rd, 0x73));
    case 4: { /* a store near the program (its code or RAM after it): auipc, s[bhwd] */
        unsigned size = (unsigned)v & 3;
        uint32_t off = (uint32_t)(v >> 8) & 0x7ff & ~((1u << size) - 1);
        n = put(buf, n, rx << 7 | 0x17);
        return put(buf, n,
                   (off >> 5) << 25 | ry << 20 | rx << 15 | size << 12 | (off & 31) << 7 | 0x23);
    }
    case 5: /* xmem.ldg or xmem.stg near the program (hint random): the L1 tag model's state */
        n = put(buf, n, rx << 7 | 0x17);
        if (v & 1) return put(buf, n, i_type((uint32_t)(v >> 8), rx, 5, rd, 0x2b));
        return put(buf, n,
                   ((uint32_t)(v >> 8) & 0xfe000f80u) | ry << 20 | rx << 15 | 6u << 12 | 0x2b);
    case 6: { /* a run of a seed's code, XPHMG instructions among them */
        unsigned s = (unsigned)(v % nseeds);
        if (seed_len[s] < 5) return n;
        size_t at = 1 + (size_t)((v >> 8) % (seed_len[s] - 1)) / 4 * 4,
               len = 4 * (1 + (v >> 40) % 8);
        if (at + len > seed_len[s]) len = seed_len[s] - at;
        if (n + len > INPUT_BYTES) len = INPUT_BYTES - n;
        memcpy(buf + n, seed[s] + at, len);
        return n + len;
    }
    default:
        return put(buf, n, (uint32_t)v);
    }
}

/* A trap restarts the program at its start (fuzz_program.c): a program would run only
 * as far as its first trap. This prologue makes every trap after the first entry return
 * past the trapping instruction, in the mode's own trap CSRs, so the pieces after it run
 * too (x31 is its scratch register). */
static size_t skip_traps_prologue(uint8_t *buf, size_t n, bool sv39)
{
    uint32_t cause = sv39 ? 0x142 : 0x342, epc = sv39 ? 0x141 : 0x341;
    n = put(buf, n, i_type(cause, 0, 2, 31, 0x73));     /* csrr x31, cause */
    n = put(buf, n, 31u << 15 | 0xa00 | 0x63);          /* beqz x31, +20: the first entry */
    n = put(buf, n, i_type(epc, 0, 2, 31, 0x73));       /* csrr x31, epc */
    n = put(buf, n, i_type(4, 31, 0, 31, 0x13));        /* addi x31, x31, 4 */
    n = put(buf, n, i_type(epc, 31, 1, 0, 0x73));       /* csrw epc, x31 */
    return put(buf, n, sv39 ? 0x10200073 : 0x30200073); /* sret / mret */
}

/* A program: the first byte (profile, mode), the prologue, then 4-100 pieces. */
static size_t random_input(uint8_t *buf)
{
    buf[0] = (uint8_t)next();
    size_t n = skip_traps_prologue(buf, 1, (buf[0] / 4) & 1), pieces = 4 + next() % 97;
    for (size_t i = 0; i < pieces; i++)
        n = random_piece(buf, n);
    return n;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: fuzz_program_reset SEED_DIR [RANDOM_INPUTS]\n");
        return 2;
    }
    unsigned nrandom = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : 300;
    load_seeds(argv[1]);
    if (nseeds == 0) {
        fprintf(stderr, "fuzz_program_reset: no seeds in %s\n", argv[1]);
        return 1;
    }
    list_csrs();
    static uint8_t buf[INPUT_BYTES];
    for (int pass = 0; pass < 2; pass++)
        for (unsigned s = 0; s < nseeds; s++)
            for (unsigned c = 0; c < NCONFIG; c++) {
                memcpy(buf, seed[s], seed_len[s]);
                buf[0] = (uint8_t)c;
                LLVMFuzzerTestOneInput(buf, seed_len[s] ? seed_len[s] : 1);
            }
    for (unsigned i = 0; i < nrandom; i++) {
        size_t n = random_input(buf);
        LLVMFuzzerTestOneInput(buf, n);
    }
    printf("fuzz_program_reset: %u seeds x %u configurations x 2, %u random inputs: reset harts "
           "as fresh ones\n",
           nseeds, NCONFIG, nrandom);
    for (unsigned s = 0; s < nseeds; s++)
        free(seed[s]);
    return 0;
}
