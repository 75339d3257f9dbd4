/* xphmg-sim — run a RISC-V ELF program on the simulated RV64GC hart.
 * Usage and exit codes: usage() below and docs/sim.md. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "hart.h"
#include "htif.h"
#include "isa_string.h"
#include "loader.h"
#include "mem.h"
#include "xphmg_csr.h"
#include "xphmg_ext.h"

/* Exit codes of the simulator itself; any other status is the guest's (0..255). */
enum {
    EXIT_LIMIT = 124, /* --max-insns reached */
    EXIT_USAGE = 125, /* bad command line */
    EXIT_LOAD = 126,  /* the program cannot be loaded (not a RISC-V ELF, does not fit) */
    EXIT_HOST = 127,  /* host-side failure: out of memory, HTIF protocol error, I/O */
};

static void usage(FILE *f)
{
    fprintf(f, "usage: xphmg-sim [options] PROG.elf [ARGS...]\n"
               "Runs a RISC-V RV64GC ELF program (machine mode, HTIF console/syscalls/exit).\n"
               "\n"
               "options:\n"
               "  --ram SIZE         guest RAM size (bytes; K, M, G suffixes), default 256M\n"
               "  --ram-base ADDR    guest RAM base address, default 0x80000000 (RAM must not\n"
               "                     overlap the CLINT or the profile's LDS window)\n"
               "  --max-insns N      stop after N instructions (retired or trapped); exit 124\n"
               "  --log-commits      write a Spike-format commit log (one line per retired\n"
               "                     instruction) to stderr\n"
               "  --log-file FILE    write the commit log to FILE instead (implies --log-commits)\n"
               "  --stats            print instructions retired and simulated MIPS on stderr\n"
               "  --dir DIR          host directory the guest's file syscalls are confined to\n"
               "  --isa STRING       extensions in Spike's syntax, e.g. rv64gcs_xphmg\n"
               "                     (default rv64imafdcsu_zicsr_zifencei_xphmg; without\n"
               "                     s: an M/U-only hart; without _xphmg: no XPHMG units)\n"
               "  --profile FILE     XPHMG implementation profile (YAML, docs/cap.md); default\n"
               "                     profiles/default.yaml's values\n"
               "  --help             this text\n"
               "\n"
               "exit status:\n"
               "  0..255  the guest's exit status (HTIF exit / exit())\n"
               "  124     --max-insns reached before the guest exited\n"
               "  125     bad command line\n"
               "  126     PROG cannot be loaded (not a RISC-V ELF64 executable, does not fit RAM)\n"
               "  127     host-side failure (out of memory, HTIF protocol error, I/O error)\n"
               "A guest that exits with status 124..127 is indistinguishable from these; the\n"
               "simulator's own exits always print a one-line reason on stderr.\n");
}

static int parse_u64(const char *s, uint64_t *out, int allow_suffix)
{
    if (!s || !*s || *s == '-') return -1;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (errno || end == s) return -1;
    uint64_t mul = 1;
    if (allow_suffix && *end) {
        switch (*end) {
        case 'k':
        case 'K':
            mul = UINT64_C(1) << 10;
            break;
        case 'm':
        case 'M':
            mul = UINT64_C(1) << 20;
            break;
        case 'g':
        case 'G':
            mul = UINT64_C(1) << 30;
            break;
        default:
            return -1;
        }
        end++;
    }
    if (*end) return -1;
    if (v && mul > UINT64_MAX / v) return -1;
    *out = (uint64_t)v * mul;
    return 0;
}

typedef struct {
    htif *io;
    int host_error;
} poll_ctx;

static void on_poll(hart *h, void *ctx)
{
    poll_ctx *p = ctx;
    int code = 0;
    int r = htif_poll(p->io, &code);
    if (r == 1) {
        hart_halt(h, code);
    } else if (r < 0) {
        fprintf(stderr, "xphmg-sim: %s\n", htif_error(p->io));
        p->host_error = 1;
        hart_halt(h, EXIT_HOST);
    }
}

static double now_s(clockid_t clk)
{
    struct timespec ts;
    clock_gettime(clk, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    uint64_t ram_size = UINT64_C(256) << 20, ram_base = UINT64_C(0x80000000), max_insns = 0;
    int log_commits = 0, stats = 0;
    uint64_t misa = MISA_RESET;
    const char *dir = NULL, *log_file = NULL, *profile_path = NULL;
    int i = 1;
    for (; i < argc && argv[i][0] == '-' && argv[i][1] == '-'; i++) {
        const char *o = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(o, "--")) {
            i++;
            break;
        } else if (!strcmp(o, "--help")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(o, "--ram")) {
            if (parse_u64(val, &ram_size, 1) || ram_size < 4096) {
                fprintf(stderr, "xphmg-sim: --ram needs a size of at least 4K (e.g. 256M)\n");
                return EXIT_USAGE;
            }
            i++;
        } else if (!strcmp(o, "--ram-base")) {
            if (parse_u64(val, &ram_base, 0)) {
                fprintf(stderr, "xphmg-sim: --ram-base needs an address (e.g. 0x80000000)\n");
                return EXIT_USAGE;
            }
            i++;
        } else if (!strcmp(o, "--max-insns")) {
            if (parse_u64(val, &max_insns, 1) || max_insns == 0) {
                fprintf(stderr, "xphmg-sim: --max-insns needs a positive count\n");
                return EXIT_USAGE;
            }
            i++;
        } else if (!strcmp(o, "--log-commits")) {
            log_commits = 1;
        } else if (!strcmp(o, "--log-file")) {
            if (!val) {
                fprintf(stderr, "xphmg-sim: --log-file needs a file name\n");
                return EXIT_USAGE;
            }
            log_file = val;
            log_commits = 1;
            i++;
        } else if (!strcmp(o, "--stats")) {
            stats = 1;
        } else if (!strcmp(o, "--dir")) {
            if (!val) {
                fprintf(stderr, "xphmg-sim: --dir needs a directory\n");
                return EXIT_USAGE;
            }
            dir = val;
            i++;
        } else if (!strcmp(o, "--isa")) {
            char ierr[200];
            if (!val || isa_string_parse(val, &misa, ierr, sizeof ierr)) {
                fprintf(stderr, "xphmg-sim: --isa: %s\n", val ? ierr : "needs an ISA string");
                return EXIT_USAGE;
            }
            i++;
        } else if (!strcmp(o, "--profile")) {
            if (!val) {
                fprintf(stderr, "xphmg-sim: --profile needs a file name\n");
                return EXIT_USAGE;
            }
            profile_path = val;
            i++;
        } else {
            fprintf(stderr, "xphmg-sim: unknown option '%s' (see --help)\n", o);
            return EXIT_USAGE;
        }
    }
    if (i >= argc) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (ram_base + ram_size < ram_base || ram_base + ram_size == 0) {
        fprintf(stderr, "xphmg-sim: RAM [0x%" PRIx64 ", +0x%" PRIx64 ") wraps the address space\n",
                ram_base, ram_size);
        return EXIT_USAGE;
    }
    if (ram_base < CLINT_BASE + CLINT_SIZE && CLINT_BASE < ram_base + ram_size) {
        fprintf(stderr, "xphmg-sim: RAM overlaps the CLINT at 0x%" PRIx64 "\n", CLINT_BASE);
        return EXIT_USAGE;
    }
    const char *prog = argv[i];
    cap_profile *prof = NULL;
    if (profile_path) {
        char perr[512];
        prof = cap_profile_load(profile_path, perr, sizeof perr);
        if (!prof) {
            fprintf(stderr, "xphmg-sim: bad profile: %s\n", perr);
            return EXIT_USAGE;
        }
    }
    uint64_t lds_base, lds_size;
    if (xphmg_ext_lds_window(prof, &lds_base, &lds_size) && ram_base < lds_base + lds_size &&
        lds_base < ram_base + ram_size) {
        fprintf(stderr, "xphmg-sim: RAM overlaps the LDS window [0x%" PRIx64 ", +0x%" PRIx64 ")\n",
                lds_base, lds_size);
        cap_profile_free(prof);
        return EXIT_USAGE;
    }

    sim_mem *mem = mem_new(ram_base, ram_size);
    if (!mem) {
        fprintf(stderr, "xphmg-sim: cannot allocate %" PRIu64 " bytes of guest RAM\n", ram_size);
        return EXIT_HOST;
    }
    char err[512];
    sim_image img;
    memset(&img, 0, sizeof img);
    if (sim_load_elf(prog, mem, &img, err, sizeof err)) {
        fprintf(stderr, "xphmg-sim: %s\n", err);
        mem_free(mem);
        return EXIT_LOAD;
    }
    uint64_t sp = 0;
    if (sim_place_args(mem, &img, argc - i, argv + i, &sp, err, sizeof err)) {
        fprintf(stderr, "xphmg-sim: %s\n", err);
        sim_image_free(&img);
        mem_free(mem);
        return EXIT_LOAD;
    }
    hart *h = hart_new(mem, img.entry);
    htif *io = NULL;
    if (h && img.has_tohost) {
        io = htif_new(mem, img.tohost, img.has_fromhost ? img.fromhost : 0, dir, err, sizeof err);
        if (!io) {
            fprintf(stderr, "xphmg-sim: %s\n", err);
            hart_free(h);
            sim_image_free(&img);
            mem_free(mem);
            return EXIT_USAGE; /* the only failure not caused by the ELF: a bad --dir */
        }
    }
    if (!h) {
        fprintf(stderr, "xphmg-sim: out of memory\n");
        sim_image_free(&img);
        mem_free(mem);
        return EXIT_HOST;
    }
    if (misa != MISA_RESET) hart_set_isa(h, misa, img.entry);
    /* Without xphmg in --isa the XPHMG units stay detached: their instructions trap. */
    xphmg_ext *ext =
        (misa & (UINT64_C(1) << ('X' - 'A'))) ? xphmg_ext_attach(h, prof, err, sizeof err) : NULL;
    if (!ext && (misa & (UINT64_C(1) << ('X' - 'A')))) {
        fprintf(stderr, "xphmg-sim: %s\n", err);
        return EXIT_HOST;
    }
    if (!img.has_tohost)
        fprintf(stderr,
                "xphmg-sim: warning: %s has no 'tohost' symbol: it cannot exit "
                "(stop it with --max-insns)\n",
                prog);
    h->x[2] = sp;
    h->x[10] = (uint64_t)(argc - i);
    h->x[11] = sp + 8;

    poll_ctx pc = {io, 0};
    if (io) hart_set_poll(h, on_poll, &pc, img.tohost, img.tohost + 8);
    FILE *log = NULL;
    if (log_commits) {
        log = log_file ? fopen(log_file, "w") : stderr;
        if (!log) {
            fprintf(stderr, "xphmg-sim: cannot open %s: %s\n", log_file, strerror(errno));
            return EXIT_HOST;
        }
        setvbuf(log, NULL, _IOFBF, 1 << 20);
        hart_set_log(h, log);
    }

    /* CPU time as well as wall time: on a shared machine the wall clock measures the
     * neighbours too. */
    double t0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    hart_run_result r = hart_run(h, max_insns);
    double t1 = now_s(CLOCK_MONOTONIC), c1 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    int status;
    if (r == HART_RUN_LIMIT) {
        fprintf(stderr, "xphmg-sim: --max-insns %" PRIu64 " reached at pc 0x%016" PRIx64 "\n",
                max_insns, h->pc);
        status = EXIT_LIMIT;
    } else {
        status = h->exit_code & 0xff;
    }
    if (stats) {
        double dt = t1 - t0, dc = c1 - c0;
        fprintf(stderr,
                "xphmg-sim: %" PRIu64 " instructions retired, %" PRIu64 " traps, "
                "%.3f s, %.1f MIPS (CPU time %.3f s, %.1f MIPS)\n",
                h->instret, h->traps, dt, dt > 0 ? (double)h->instret / dt / 1e6 : 0.0, dc,
                dc > 0 ? (double)h->instret / dc / 1e6 : 0.0);
    }
    if (log && fflush(log) != 0) {
        fprintf(stderr, "xphmg-sim: error writing the commit log\n");
        status = EXIT_HOST;
    }
    if (log && log != stderr) fclose(log);
    fflush(stdout);
    htif_free(io);
    hart_free(h);
    xphmg_ext_free(ext);
    cap_profile_free(prof);
    sim_image_free(&img);
    mem_free(mem);
    return status;
}
