/* replay_xelf.c — runs fuzz_xelf.c's entry point over (1) every file named on the command
 * line (directories: every file inside; the seed corpus and a real gcc-built ELF) and
 * (2) a deterministic sweep over the hand-built ELF of elfgen.h with every byte replaced
 * by 0x00, 0xff, 0x80, 0x7f and itself ^ 1 and every prefix length. Under ASan/UBSan
 * any out-of-bounds read fails the test; in any build a crash does. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "elfgen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    uint8_t *b = malloc(1 << 22);
    size_t n = b ? fread(b, 1, 1 << 22, f) : 0;
    fclose(f);
    if (!b) return 1;
    /* An exact-size copy so that ASan catches a read one past the end. */
    uint8_t *exact = malloc(n ? n : 1);
    memcpy(exact, b, n);
    LLVMFuzzerTestOneInput(exact, n);
    free(exact);
    free(b);
    return 0;
}

static int run_path(const char *path, unsigned *count)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        fprintf(stderr, "missing %s\n", path);
        return 1;
    }
    if (!S_ISDIR(st.st_mode)) {
        (*count)++;
        return run_file(path);
    }
    DIR *d = opendir(path);
    if (!d) return 1;
    struct dirent *de;
    int rc = 0;
    while ((de = readdir(d)) != NULL) {
        if (de->d_name[0] == '.') continue;
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", path, de->d_name);
        rc |= run_path(p, count);
    }
    closedir(d);
    return rc;
}

int main(int argc, char **argv)
{
    int rc = 0;
    unsigned files = 0, variants = 0;
    for (int i = 1; i < argc; i++)
        rc |= run_path(argv[i], &files);

    uint8_t base[EG_LEN];
    eg_build(base);
    static const int vals[] = {0x00, 0xff, 0x80, 0x7f, -1};
    for (size_t off = 0; off < EG_LEN; off++) {
        for (size_t k = 0; k < sizeof vals / sizeof vals[0]; k++) {
            uint8_t *b = malloc(EG_LEN);
            memcpy(b, base, EG_LEN);
            b[off] = vals[k] < 0 ? (uint8_t)(base[off] ^ 1) : (uint8_t)vals[k];
            LLVMFuzzerTestOneInput(b, EG_LEN);
            free(b);
            variants++;
        }
    }
    for (size_t n = 0; n <= EG_LEN; n++) {
        uint8_t *b = malloc(n ? n : 1);
        memcpy(b, base, n);
        LLVMFuzzerTestOneInput(b, n);
        free(b);
        variants++;
    }
    printf("replayed %u files and %u variants\n", files, variants);
    return rc;
}
