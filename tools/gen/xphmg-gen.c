/* xphmg-gen — build-time generator: ISA XML in, simulator decoder and guest
 * header out. No opcode table lives here; see gen_model.h.
 *
 *   xphmg-gen -x SPEC [-x SPEC...] [--ops FILE] [--dec FILE] [--header FILE]
 *             [--guest-test FILE --manifest FILE] [--csr-table FILE] [--csr-header FILE]
 *
 * Several -x files are read in order (the base ISA and the XPHMG extension file
 * before the lead merges them); an instruction name already seen is skipped.
 * Exit: 0 ok, 1 output error, 2 usage, 3 spec error. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_csr.h"
#include "gen_dec.h"
#include "gen_guest.h"
#include "gen_model.h"

static void usage(void)
{
    fputs("usage: xphmg-gen -x SPEC [-x SPEC...] [--ops FILE] [--dec FILE] [--header FILE]\n"
          "                 [--guest-test FILE --manifest FILE] [--csr-table FILE]\n"
          "                 [--csr-header FILE]\n",
          stderr);
}

/* Writes through a temporary file and renames, so a failed run never leaves a
 * half-written source for make to pick up. */
typedef bool (*emit_fn)(FILE *, const gen_model *);

static bool write_file(const char *path, emit_fn fn, const gen_model *m)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s.tmp", path);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "xphmg-gen: cannot write %s: %s\n", tmp, strerror(errno));
        return false;
    }
    bool ok = fn(f, m);
    if (fclose(f) != 0) ok = false;
    if (ok && rename(tmp, path) != 0) {
        perror(path);
        ok = false;
    }
    if (!ok) {
        fprintf(stderr, "xphmg-gen: cannot write %s\n", path);
        remove(tmp);
    }
    return ok;
}

int main(int argc, char **argv)
{
    const char *specs[GEN_MAX_SPECS];
    unsigned nspecs = 0;
    const char *ops = NULL, *dec = NULL, *hdr = NULL, *gt = NULL, *man = NULL;
    const char *csr_tab = NULL, *csr_hdr = NULL;
    for (int i = 1; i < argc; i++) {
        const char **dst = NULL;
        if (!strcmp(argv[i], "-x")) {
            if (nspecs == GEN_MAX_SPECS) {
                fprintf(stderr, "xphmg-gen: at most %d spec files\n", GEN_MAX_SPECS);
                return 2;
            }
            dst = &specs[nspecs++];
        } else if (!strcmp(argv[i], "--ops"))
            dst = &ops;
        else if (!strcmp(argv[i], "--dec"))
            dst = &dec;
        else if (!strcmp(argv[i], "--header"))
            dst = &hdr;
        else if (!strcmp(argv[i], "--csr-table"))
            dst = &csr_tab;
        else if (!strcmp(argv[i], "--csr-header"))
            dst = &csr_hdr;
        else if (!strcmp(argv[i], "--guest-test"))
            dst = &gt;
        else if (!strcmp(argv[i], "--manifest"))
            dst = &man;
        else if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
            usage();
            return 0;
        } else {
            fprintf(stderr, "xphmg-gen: unknown argument '%s'\n", argv[i]);
            usage();
            return 2;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "xphmg-gen: %s needs an argument\n", argv[i]);
            return 2;
        }
        *dst = argv[++i];
    }
    if (nspecs == 0 || (!gt != !man)) {
        usage();
        return 2;
    }
    gen_model m;
    if (!gen_model_load(&m, specs, nspecs)) return 3;
    bool ok = true;
    if (ops) ok = ok && write_file(ops, gen_dec_ops, &m);
    if (dec) ok = ok && write_file(dec, gen_dec_c, &m);
    if (hdr) ok = ok && write_file(hdr, gen_guest_header, &m);
    if (csr_tab) ok = ok && write_file(csr_tab, gen_csr_table, &m);
    if (csr_hdr) ok = ok && write_file(csr_hdr, gen_csr_macros, &m);
    if (gt) {
        FILE *c = fopen(gt, "w"), *mf = fopen(man, "w");
        if (!c || !mf || !gen_guest_test(c, mf, &m)) ok = false;
        if (c && fclose(c) != 0) ok = false;
        if (mf && fclose(mf) != 0) ok = false;
        if (!ok) fprintf(stderr, "xphmg-gen: cannot write %s / %s\n", gt, man);
    }
    gen_model_free(&m);
    return ok ? 0 : 1;
}
