/* xphmg-sim — run a RISC-V ELF program on the simulated RV64GC hart.
 * Usage and exit codes: usage() below and docs/sim.md. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gdbstub.h"
#include "hart.h"
#include "htif.h"
#include "isa_string.h"
#include "jit.h"

/* Without --jit/--no-jit/--jit-lockstep: 0 interpret, 1 translate, 2 translate in
 * lockstep with the interpreter where lockstep goes with the other options (a test build
 * that checks every guest test; docs/sim.md, "Translator"). */
#ifndef XPHMG_JIT_DEFAULT
#define XPHMG_JIT_DEFAULT 1
#endif
#include "loader.h"
#include "mem.h"
#include "xphmg_csr.h"
#include "xphmg_ext.h"

/* Exit codes of the simulator itself; any other status is the guest's (0..255). */
enum {
    /* 122: killed from the debugger (gdbstub.c) */
    EXIT_TIMEOUT = 123, /* --timeout reached */
    EXIT_LIMIT = 124,   /* --max-insns reached */
    EXIT_USAGE = 125,   /* bad command line */
    EXIT_LOAD = 126,    /* the program cannot be loaded (not a RISC-V ELF, does not fit) */
    EXIT_HOST = 127,    /* host-side failure: out of memory, HTIF protocol error, I/O */
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: xphmg-sim [options] PROG.elf [ARGS...]\n"
            "Runs a RISC-V RV64GC ELF program (machine mode, HTIF console/syscalls/exit).\n"
            "\n"
            "options:\n"
            "  --ram SIZE         guest RAM size (bytes; K, M, G suffixes), default 256M\n"
            "  --ram-base ADDR    guest RAM base address, default 0x80000000 (RAM must not\n"
            "                     overlap the CLINT or the profile's LDS window)\n"
            "  --max-insns N      stop after N instructions (retired or trapped) plus work\n"
            "                     units charged by offload jobs and multi-element\n"
            "                     instructions (docs/sim.md, Limits); exit 124\n"
            "  --timeout SECONDS  stop after SECONDS of wall-clock time; exit 123\n"
            "  --log-commits      write a Spike-format commit log (one line per retired\n"
            "                     instruction) to stderr\n"
            "  --log-file FILE    write the commit log to FILE instead (implies --log-commits)\n"
            "  --stats            print instructions retired, simulated MIPS and the XMEM L1\n"
            "                     statistics on stderr\n"
            "  --rt-threads N     host threads an RT offload job is split over (1-64, default 1;\n"
            "                     results do not depend on it)\n"
            "  --dir DIR          host directory the guest's file syscalls are confined to\n"
            "  --host-stat        stat/fstat show the host's inode numbers, owners and times\n"
            "                     (default: values derived from the run, reproducible)\n"
            "  --isa STRING       extensions in Spike's syntax, e.g. rv64gcs_xphmg\n"
            "                     (default rv64imafdcsu_zicsr_zifencei_xphmg; without\n"
            "                     s: an M/U-only hart; without _xphmg: no XPHMG units)\n"
            "  --profile FILE     XPHMG implementation profile (YAML, docs/cap.md); default\n"
            "                     profiles/default.yaml's values\n"
            "  --gdb PORT         serve the GDB remote protocol on 127.0.0.1:PORT (0: any\n"
            "                     free port, printed on stderr) while the guest runs\n"
            "  --gdb-wait PORT    the same, waiting for the debugger before the first\n"
            "                     instruction\n"
            "  --jit              translate guest code to host code (x86-64 hosts; default\n"
            "                     %s); other hosts interpret\n"
            "  --no-jit           interpret every instruction\n"
            "  --jit-lockstep     run the program twice side by side, translated and\n"
            "                     interpreted, comparing their state (exit 127 on the\n"
            "                     first difference)\n"
            "  --help             this text\n"
            "\n"
            "exit status:\n"
            "  0..255  the guest's exit status (HTIF exit / exit())\n"
            "  122     killed from the debugger (--gdb)\n"
            "  123     --timeout reached before the guest exited\n"
            "  124     --max-insns reached before the guest exited\n"
            "  125     bad command line\n"
            "  126     PROG cannot be loaded (not a RISC-V ELF64 executable, does not fit RAM)\n"
            "  127     host-side failure (out of memory, HTIF protocol error, I/O error)\n"
            "A guest that exits with status 122..127 is indistinguishable from these; the\n"
            "simulator's own exits always print a one-line reason on stderr.\n",
            XPHMG_JIT_DEFAULT ? "on" : "off");
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
    int timeout;
} poll_ctx;

/* --timeout: SIGALRM sets timed_out, seen by on_poll after the current batch (at most a
 * few thousand instructions). Should the hart not get there (a host call that blocks, a
 * single very long instruction without --max-insns), a second alarm TIMEOUT_GRACE_S
 * later ends the process from the handler itself. */
#define TIMEOUT_GRACE_S 2
static volatile sig_atomic_t timed_out;

static void on_alarm(int sig)
{
    (void)sig;
    if (!timed_out) {
        timed_out = 1;
        alarm(TIMEOUT_GRACE_S);
        return;
    }
    static const char msg[] = "xphmg-sim: --timeout reached inside a host call or "
                              "instruction; the commit log may be cut short\n";
    if (write(2, msg, sizeof msg - 1) < 0) _exit(EXIT_TIMEOUT);
    _exit(EXIT_TIMEOUT);
}

static void on_poll(hart *h, void *ctx)
{
    poll_ctx *p = ctx;
    if (timed_out) {
        hart_halt(h, EXIT_TIMEOUT);
        p->timeout = 1;
        return;
    }
    if (!p->io) return;
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

/* Everything main() acquires, released by finish() on every path (errata P-304: no
 * exit code comes with a leak). */
typedef struct sim_run {
    cap_profile *prof;
    sim_mem *mem;
    sim_image img;
    hart *h;
    htif *io;
    xphmg_ext *ext;
    FILE *log;
    struct sim_run *shadow; /* --jit-lockstep: the interpreter's machine */
    int null_fd;            /* --jit-lockstep: the shadow's stdout/stderr (/dev/null) */
    int in_fd[2];           /* --jit-lockstep: the two machines' copies of stdin */
} sim_run;

static int finish(sim_run *r, int status)
{
    if (r->shadow) {
        finish(r->shadow, 0);
        free(r->shadow);
    }
    if (r->null_fd > 0) close(r->null_fd);
    for (int k = 0; k < 2; k++)
        if (r->in_fd[k] > 0) close(r->in_fd[k]);
    if (r->log && r->log != stderr) fclose(r->log);
    htif_free(r->io);
    hart_free(r->h);
    xphmg_ext_free(r->ext);
    cap_profile_free(r->prof);
    sim_image_free(&r->img);
    mem_free(r->mem);
    return status;
}

/* What a machine is built from (the options that shape it). */
typedef struct {
    uint64_t ram_base, ram_size, misa, rt_threads;
    const char *dir, *profile_path;
    int host_stat;
} machine_opts;

/* Builds the machine running gargv[0] with arguments gargv[1..gargc-1] into *run: 0, or
 * the exit status after a message on stderr (what was acquired stays in *run for
 * finish()). quiet: no warnings (the --jit-lockstep shadow). */
static int machine_new(sim_run *run, const machine_opts *o, int gargc, char **gargv, bool quiet)
{
    if (o->profile_path) {
        char perr[512];
        run->prof = cap_profile_load(o->profile_path, perr, sizeof perr);
        if (!run->prof) {
            fprintf(stderr, "xphmg-sim: bad profile: %s\n", perr);
            return EXIT_USAGE;
        }
    }
    uint64_t lds_base, lds_size;
    if (xphmg_ext_lds_window(run->prof, &lds_base, &lds_size) &&
        o->ram_base < lds_base + lds_size && lds_base < o->ram_base + o->ram_size) {
        fprintf(stderr, "xphmg-sim: RAM overlaps the LDS window [0x%" PRIx64 ", +0x%" PRIx64 ")\n",
                lds_base, lds_size);
        return EXIT_USAGE;
    }

    run->mem = mem_new(o->ram_base, o->ram_size);
    if (!run->mem) {
        fprintf(stderr, "xphmg-sim: cannot allocate %" PRIu64 " bytes of guest RAM\n", o->ram_size);
        return EXIT_HOST;
    }
    char err[512];
    if (sim_load_elf(gargv[0], run->mem, &run->img, err, sizeof err)) {
        fprintf(stderr, "xphmg-sim: %s\n", err);
        return EXIT_LOAD;
    }
    uint64_t sp = 0;
    if (sim_place_args(run->mem, &run->img, gargc, gargv, &sp, err, sizeof err)) {
        fprintf(stderr, "xphmg-sim: %s\n", err);
        return EXIT_LOAD;
    }
    if (o->dir && !run->img.has_tohost) {
        /* No HTIF: --dir could never be used; still refuse a directory that is not one
         * (errata P-305), as a program with tohost would. */
        xsys *probe = xsys_new(run->mem, o->dir, err, sizeof err);
        if (!probe) {
            fprintf(stderr, "xphmg-sim: %s\n", err);
            return EXIT_USAGE;
        }
        xsys_free(probe);
    }
    run->h = hart_new(run->mem, run->img.entry);
    if (!run->h) {
        fprintf(stderr, "xphmg-sim: out of memory\n");
        return EXIT_HOST;
    }
    if (run->img.has_tohost) {
        run->io = htif_new(run->mem, run->img.tohost, run->img.has_fromhost ? run->img.fromhost : 0,
                           o->dir, err, sizeof err);
        if (!run->io) {
            fprintf(stderr, "xphmg-sim: %s\n", err);
            return EXIT_USAGE; /* the only failure not caused by the ELF: a bad --dir */
        }
        htif_set_host_stat(run->io, o->host_stat);
    }
    if (o->misa != MISA_RESET) hart_set_isa(run->h, o->misa, run->img.entry);
    /* Without xphmg in --isa the XPHMG units stay detached: their instructions trap. */
    bool xphmg = (o->misa & (UINT64_C(1) << ('X' - 'A'))) != 0;
    run->ext = xphmg ? xphmg_ext_attach(run->h, run->prof, err, sizeof err) : NULL;
    if (!run->ext && xphmg) {
        fprintf(stderr, "xphmg-sim: %s\n", err);
        return EXIT_HOST;
    }
    if (run->ext) run->ext->rt.threads = (unsigned)o->rt_threads;
    if (!run->img.has_tohost && !quiet)
        fprintf(stderr,
                "xphmg-sim: warning: %s has no 'tohost' symbol: it cannot exit "
                "(stop it with --max-insns)\n",
                gargv[0]);
    hart *h = run->h;
    hart_set_charging(h, true);
    h->x[2] = sp;
    h->x[10] = (uint64_t)gargc;
    h->x[11] = sp + 8;
    return 0;
}

/* ---- --jit-lockstep ---- */

/* Two independent readers (fd[0], fd[1]) of everything on stdin, for the two machines:
 * 0, or -1 (nothing opened) when stdin cannot be read or copied. */
static int copy_stdin(int fd[2])
{
    FILE *t = tmpfile();
    if (!t) return -1;
    char buf[65536];
    ssize_t n;
    int ok = 1;
    while (ok && (n = read(0, buf, sizeof buf)) != 0) {
        if (n < 0) {
            ok = errno == EINTR;
            continue;
        }
        ok = fwrite(buf, 1, (size_t)n, t) == (size_t)n;
    }
    ok = ok && fflush(t) == 0;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fileno(t));
    fd[0] = ok ? open(path, O_RDONLY) : -1;
    fd[1] = ok ? open(path, O_RDONLY) : -1;
    fclose(t);
    if (fd[0] >= 0 && fd[1] >= 0) return 0;
    if (fd[0] >= 0) close(fd[0]);
    if (fd[1] >= 0) close(fd[1]);
    fd[0] = fd[1] = 0;
    return -1;
}

/* The first architectural difference between the translated hart a and the interpreted
 * hart b, written into msg; false when there is none. */
static bool lockstep_differs(const hart *a, const hart *b, char *msg, size_t len)
{
#define CMP(name, field)                                                                           \
    if (a->field != b->field) {                                                                    \
        snprintf(msg, len, "%s: translator 0x%" PRIx64 ", interpreter 0x%" PRIx64, name,           \
                 (uint64_t)a->field, (uint64_t)b->field);                                          \
        return true;                                                                               \
    }
    CMP("pc", pc)
    CMP("privilege", priv)
    CMP("instret", instret)
    CMP("traps", traps)
    CMP("work units", charged)
    CMP("halted", halted)
    CMP("exit status", exit_code)
    for (unsigned r = 0; r < 32; r++) {
        char n[8];
        snprintf(n, sizeof n, "x%u", r);
        CMP(n, x[r])
        snprintf(n, sizeof n, "f%u", r);
        CMP(n, f[r])
    }
    CMP("fflags", fflags)
    CMP("frm", frm)
    CMP("mstatus", mstatus)
    CMP("mepc", mepc)
    CMP("mcause", mcause)
    CMP("mtval", mtval)
    CMP("mtvec", mtvec)
    CMP("mie", mie)
    CMP("mip", mip)
    CMP("mscratch", mscratch)
    CMP("sepc", sepc)
    CMP("scause", scause)
    CMP("stval", stval)
    CMP("satp", satp)
    CMP("mtimecmp", mtimecmp)
    CMP("reservation", resv_valid)
#undef CMP
    return false;
}

/* Runs a (translator) and b (interpreter) in chunks of varying length (hart_run_for: the
 * work units charged still count against the whole run's --max-insns), comparing their
 * state after each chunk and their RAM at the end. Chunk ends fall between and inside
 * translated blocks (a block that does not fit the rest of a chunk is interpreted), and
 * both harts see the same hart_run calls, so their interrupts and polls coincide. */
static hart_run_result run_lockstep(hart *a, hart *b, sim_mem *ma, sim_mem *mb, uint64_t max_insns,
                                    bool *diverged)
{
    static const uint64_t chunk[] = {4096, 1, 1000, 3, 4096, 64, 777, 2, 2048, 17, 4096, 300};
    const unsigned nchunk = sizeof chunk / sizeof chunk[0];
    uint64_t done = 0;
    char msg[200];
    hart_run_result r = HART_RUN_LIMIT;
    for (unsigned k = 0;; k++) {
        uint64_t n = chunk[k % nchunk], left = max_insns ? max_insns - done : 0;
        uint64_t before = a->instret + a->traps + a->charged;
        r = hart_run_for(a, left, n);
        hart_run_for(b, left, n);
        /* wall-clock time has no instruction boundary to compare at: a ends alone (its
         * poll halts it after its current batch) */
        if (timed_out) return a->halted ? r : hart_run(a, left);
        if (lockstep_differs(a, b, msg, sizeof msg)) {
            fprintf(stderr,
                    "xphmg-sim: --jit-lockstep: %s, in chunk %u (%" PRIu64
                    " instructions from instruction %" PRIu64 ")\n",
                    msg, k, n, before);
            *diverged = true;
            return r;
        }
        done += a->instret + a->traps + a->charged - before;
        if (r == HART_RUN_HALTED || (max_insns && done >= max_insns)) break;
    }
    uint64_t size = mem_size(ma);
    const uint8_t *pa = mem_ptr(ma, mem_base(ma), size), *pb = mem_ptr(mb, mem_base(mb), size);
    if (memcmp(pa, pb, (size_t)size)) {
        uint64_t at = 0;
        while (pa[at] == pb[at])
            at++;
        fprintf(stderr, "xphmg-sim: --jit-lockstep: RAM differs at 0x%" PRIx64 " at the end\n",
                mem_base(ma) + at);
        *diverged = true;
    }
    return r;
}

int main(int argc, char **argv)
{
    uint64_t ram_size = UINT64_C(256) << 20, ram_base = UINT64_C(0x80000000), max_insns = 0;
    uint64_t timeout_s = 0;
    int log_commits = 0, stats = 0, host_stat = 0, gdb = 0; /* gdb: 1 --gdb, 2 --gdb-wait */
    int use_jit = XPHMG_JIT_DEFAULT != 0, lockstep = 0;
    int default_lockstep = XPHMG_JIT_DEFAULT == 2;
    uint64_t rt_threads = 1;
    uint64_t misa = MISA_RESET;
    uint64_t gdb_port = 0;
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
        } else if (!strcmp(o, "--timeout")) {
            if (parse_u64(val, &timeout_s, 0) || timeout_s == 0 || timeout_s > 100000000) {
                fprintf(stderr, "xphmg-sim: --timeout needs a number of seconds (1-100000000)\n");
                return EXIT_USAGE;
            }
            i++;
        } else if (!strcmp(o, "--host-stat")) {
            host_stat = 1;
        } else if (!strcmp(o, "--jit")) {
            use_jit = 1;
            default_lockstep = 0;
        } else if (!strcmp(o, "--no-jit")) {
            use_jit = default_lockstep = 0;
        } else if (!strcmp(o, "--jit-lockstep")) {
            lockstep = 1;
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
        } else if (!strcmp(o, "--rt-threads")) {
            if (!val || parse_u64(val, &rt_threads, 0) || rt_threads < 1 || rt_threads > 64) {
                fprintf(stderr, "xphmg-sim: --rt-threads needs a number from 1 to 64\n");
                return EXIT_USAGE;
            }
            i++;
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
        } else if (!strcmp(o, "--gdb") || !strcmp(o, "--gdb-wait")) {
            if (parse_u64(val, &gdb_port, 0) || gdb_port > 65535) {
                fprintf(stderr, "xphmg-sim: %s needs a TCP port (0: any free port)\n", o);
                return EXIT_USAGE;
            }
            gdb = o[5] ? 2 : 1;
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
    if (default_lockstep && !gdb && !log_commits && !log_file && !dir) lockstep = 1;
    sim_run run;
    memset(&run, 0, sizeof run);
    machine_opts mo = {ram_base, ram_size, misa, rt_threads, dir, profile_path, host_stat};
    int st = machine_new(&run, &mo, argc - i, argv + i, false);
    if (st) return finish(&run, st);
    hart *h = run.h;
    if ((use_jit || lockstep) && jit_supported() && hart_set_jit(h, true) != 0) {
        fprintf(stderr, "xphmg-sim: out of memory (--jit code cache)\n");
        return finish(&run, EXIT_HOST);
    }

    poll_ctx pc = {run.io, 0, 0};
    if (run.io || timeout_s)
        hart_set_poll(h, on_poll, &pc, run.io ? run.img.tohost : 0,
                      run.io ? run.img.tohost + 8 : 0);
    poll_ctx shadow_pc = {NULL, 0, 0};
    if (lockstep) {
        if (gdb || log_commits || dir) {
            fprintf(stderr, "xphmg-sim: --jit-lockstep does not go with --gdb, --log-commits or "
                            "--dir\n");
            return finish(&run, EXIT_USAGE);
        }
        run.shadow = calloc(1, sizeof *run.shadow);
        run.null_fd = open("/dev/null", O_RDWR);
        if (!run.shadow || run.null_fd < 0) {
            fprintf(stderr, "xphmg-sim: --jit-lockstep: out of memory or no /dev/null\n");
            return finish(&run, EXIT_HOST);
        }
        st = machine_new(run.shadow, &mo, argc - i, argv + i, true);
        if (st) return finish(&run, st);
        shadow_pc.io = run.shadow->io;
        if (run.shadow->io) {
            /* both machines read the same input (stdin copied, unless it is a terminal:
             * the twin then reads /dev/null); the twin's output goes nowhere */
            int in = run.null_fd;
            if (!isatty(0) && copy_stdin(run.in_fd) == 0) {
                htif_set_stdio(run.io, run.in_fd[0], 1, 2);
                in = run.in_fd[1];
            }
            htif_set_stdio(run.shadow->io, in, run.null_fd, run.null_fd);
            hart_set_poll(run.shadow->h, on_poll, &shadow_pc, run.shadow->img.tohost,
                          run.shadow->img.tohost + 8);
        }
    }
    if (log_commits) {
        run.log = log_file ? fopen(log_file, "w") : stderr;
        if (!run.log) {
            fprintf(stderr, "xphmg-sim: cannot open %s: %s\n", log_file, strerror(errno));
            return finish(&run, EXIT_HOST);
        }
        setvbuf(run.log, NULL, _IOFBF, 1 << 20);
        hart_set_log(h, run.log);
    }
    if (timeout_s) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_alarm;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGALRM, &sa, NULL);
        alarm((unsigned)timeout_s);
    }

    /* CPU time as well as wall time: on a shared machine the wall clock measures the
     * neighbours too. */
    double t0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    hart_run_result r;
    if (gdb) {
        gdbstub_opts go = {(int)gdb_port, gdb == 2, max_insns};
        if (gdbstub_run(h, &go, &r) != 0) return finish(&run, EXIT_HOST);
    } else if (lockstep) {
        bool diverged = false;
        r = run_lockstep(h, run.shadow->h, run.mem, run.shadow->mem, max_insns, &diverged);
        if (diverged) return finish(&run, EXIT_HOST);
    } else {
        r = hart_run(h, max_insns);
    }
    double t1 = now_s(CLOCK_MONOTONIC), c1 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    if (timeout_s) alarm(0);
    int status;
    if (r == HART_RUN_LIMIT) {
        fprintf(stderr,
                "xphmg-sim: --max-insns %" PRIu64 " reached at pc 0x%016" PRIx64 " (%" PRIu64
                " instructions, %" PRIu64 " traps, %" PRIu64 " work units charged)\n",
                max_insns, h->pc, h->instret, h->traps, h->charged);
        status = EXIT_LIMIT;
    } else if (pc.timeout) {
        fprintf(stderr, "xphmg-sim: --timeout %" PRIu64 " s reached at pc 0x%016" PRIx64 "\n",
                timeout_s, h->pc);
        status = EXIT_TIMEOUT;
    } else {
        status = h->exit_code & 0xff;
    }
    if (stats) {
        double dt = t1 - t0, dc = c1 - c0;
        fprintf(stderr,
                "xphmg-sim: %" PRIu64 " instructions retired, %" PRIu64 " traps, "
                "%" PRIu64 " work units charged, "
                "%.3f s, %.1f MIPS (CPU time %.3f s, %.1f MIPS)\n",
                h->instret, h->traps, h->charged, dt, dt > 0 ? (double)h->instret / dt / 1e6 : 0.0,
                dc, dc > 0 ? (double)h->instret / dc / 1e6 : 0.0);
        if (h->jit) {
            jit_stats js;
            jit_get_stats(h->jit, &js);
            fprintf(stderr,
                    "xphmg-sim: jit: %" PRIu64 " blocks translated, %" PRIu64
                    " cache flushes, %" PRIu64 " entries from the dispatcher\n",
                    js.blocks, js.flushes, js.entries);
        }
        if (run.ext)
            xmem_unit_print_stats(&run.ext->xmem, stderr); /* the L1 model (errata P-221) */
    }
    /* The commit log's last line says what the budget was charged besides instructions
     * (Spike's format has no such line; it appears only when something was charged). */
    if (run.log && h->charged)
        fprintf(run.log, "# xphmg-sim: %" PRIu64 " work units charged to --max-insns\n",
                h->charged);
    if (run.log && fflush(run.log) != 0) {
        fprintf(stderr, "xphmg-sim: error writing the commit log\n");
        status = EXIT_HOST;
    }
    fflush(stdout);
    return finish(&run, status);
}
