/* fuzz_program.c — random instruction streams on the simulator, under every shipped
 * profile: the fast run loop (threaded dispatch, inline cases), the commit-log loop
 * (every instruction through its handler, the reference semantics) and, on x86-64 hosts,
 * the translator (--jit) must leave the hart and RAM in the same state (docs/sim.md "How
 * it is fast", "Translator").
 *
 * The first input byte picks the profile (every one of them over a campaign) and, with
 * the next bit of its quotient, the mode; the rest is the start of a 16 KiB RAM at
 * 0x80000000, executed from its start in machine mode with mtvec at the start too (a trap
 * restarts the program, so a stream that traps early still runs on), for at most
 * RUN_INSNS instructions (retired or trapped). In the Sv39 mode the program runs in S
 * mode under Sv39 instead (a root table in RAM's last page maps 0x80000000 onto itself
 * with a 1 GiB page, the delegable exceptions go to stvec = the start, so the program
 * restarts in S; a store into the root is seen at once, errata P-400). The replay of the
 * committed seeds (fuzz_replay_program) runs each seed under every profile, both modes.
 *
 * The harts live across inputs (one per engine and profile, made at the first input):
 * an input rewrites the whole RAM (4 pages) and resets the hart, which empties the
 * decoded-instruction slots and translated blocks the last input made and resets the
 * CAP, XMEM, RT and PMASK units (errata P-313). fuzz_program_reset (built with
 * XPHMG_FUZZ_RESET_CHECK, driver program_reset_check.c) checks that such a hart is a
 * fresh one. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cap_profile.h"
#include "fuzz.h"
#include "hart.h"
#include "jit.h"
#include "mem.h"
#include "xphmg_ext.h"

#define RAM_BASE  UINT64_C(0x80000000)
#define RAM_SIZE  (UINT64_C(16) << 10)
#define MAX_CODE  4096u
#define RUN_INSNS 300u

#ifndef XPHMG_PROFILE_DIR
#define XPHMG_PROFILE_DIR "profiles"
#endif

/* NULL = the built-in defaults (no --profile). */
static const char *const profile_files[] = {NULL, "default.yaml", "minimal.yaml", "runtime.yaml"};
#define NPROF (sizeof profile_files / sizeof profile_files[0])

/* The harts of one profile: fast loop, commit-log loop, translator. */
#define NRUN 3
static const char *const run_names[NRUN] = {"fast loop", "commit-log loop", "translator"};
typedef struct {
    const cap_profile *prof;
    sim_mem *mem[NRUN];
    hart *h[NRUN];
    xphmg_ext *ext[NRUN];
} machine;

static machine machines[NPROF];
static FILE *devnull;

/* The commit-log loop formats every instruction (to /dev/null): ASan's printf
 * interceptor parsing each format again was a tenth of an execution. The formats are
 * literals, which -Wformat checks at build time (errata P-312). */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "check_printf=0";
}

/* The three harts of profile prof, each with its own RAM; false after a message. */
static bool machine_init(machine *m, const cap_profile *prof)
{
    char err[512];
    m->prof = prof;
    for (int k = 0; k < NRUN; k++) {
        m->mem[k] = mem_new(RAM_BASE, RAM_SIZE);
        m->h[k] = m->mem[k] ? hart_new(m->mem[k], RAM_BASE) : NULL;
        m->ext[k] = m->h[k] ? xphmg_ext_attach(m->h[k], prof, err, sizeof err) : NULL;
        if (!m->ext[k]) {
            fprintf(stderr, "fuzz_program: setup: %s\n", err);
            return false;
        }
    }
    hart_set_log(m->h[1], devnull);
    if (jit_supported() && hart_set_jit(m->h[2], true) != 0) {
        fprintf(stderr, "fuzz_program: setup: no memory for the translator\n");
        return false;
    }
    return true;
}

static void setup(void)
{
    devnull = fopen("/dev/null", "w");
    if (!devnull) abort();
    for (unsigned p = 0; p < NPROF; p++) {
        cap_profile *prof = NULL;
        if (profile_files[p]) {
            char path[1024], err[512];
            snprintf(path, sizeof path, "%s/%s", XPHMG_PROFILE_DIR, profile_files[p]);
            prof = cap_profile_load(path, err, sizeof err);
            if (!prof) {
                fprintf(stderr, "fuzz_program: %s\n", err);
                abort();
            }
        }
        if (!machine_init(&machines[p], prof)) abort();
    }
}

/* Whether hart b (its RAM, its units' memory regions) is in hart a's state. */
static bool same_state(const hart *a, const hart *b, sim_mem *ma, sim_mem *mb)
{
    int same = a->pc == b->pc && a->priv == b->priv && a->instret == b->instret &&
               a->traps == b->traps && a->halted == b->halted && !memcmp(a->x, b->x, sizeof a->x) &&
               !memcmp(a->f, b->f, sizeof a->f) && a->mstatus == b->mstatus &&
               a->mcause == b->mcause && a->mepc == b->mepc && a->mtval == b->mtval &&
               a->mscratch == b->mscratch && a->mie == b->mie && a->mip == b->mip &&
               a->fflags == b->fflags && a->frm == b->frm && a->mtimecmp == b->mtimecmp &&
               a->satp == b->satp && a->scause == b->scause && a->sepc == b->sepc &&
               a->stval == b->stval && a->sscratch == b->sscratch &&
               a->resv_valid == b->resv_valid &&
               !memcmp(mem_ptr(ma, RAM_BASE, RAM_SIZE), mem_ptr(mb, RAM_BASE, RAM_SIZE), RAM_SIZE);
    for (unsigned r = 0; same && r < a->region_count; r++)
        same = a->region[r].size == b->region[r].size &&
               !memcmp(a->region[r].host, b->region[r].host, a->region[r].size);
    return same;
}

static void check_same(const machine *m, unsigned p, int k)
{
    const hart *a = m->h[0], *b = m->h[k];
    if (!same_state(a, b, m->mem[0], m->mem[k])) {
        fprintf(stderr,
                "fuzz_program: profile %s: fast loop pc 0x%llx instret %llu traps %llu, "
                "%s pc 0x%llx instret %llu traps %llu\n",
                profile_files[p] ? profile_files[p] : "(built-in)", (unsigned long long)a->pc,
                (unsigned long long)a->instret, (unsigned long long)a->traps, run_names[k],
                (unsigned long long)b->pc, (unsigned long long)b->instret,
                (unsigned long long)b->traps);
        abort();
    }
}

/* S mode under Sv39 (see the top). */
static void enter_sv39(hart *h, uint8_t *ram)
{
    uint64_t root = RAM_BASE + RAM_SIZE - 4096;
    uint64_t giga = (RAM_BASE >> 12) << 10 | 0xcf; /* V R W X A D */
    memcpy(ram + (root - RAM_BASE) + 2 * 8, &giga, 8);
    if (!hart_csr_write(h, 0x180, UINT64_C(8) << 60 | root >> 12) || /* satp */
        !hart_csr_write(h, 0x302, 0xffff) ||                         /* medeleg */
        !hart_csr_write(h, 0x105, RAM_BASE))                         /* stvec */
        abort();
    h->priv = PRV_S;
}

/* Engine k of m from reset: the program at RAM's start, the rest of RAM zero. */
static void run_engine(machine *m, int k, bool sv39, const uint8_t *data, size_t size)
{
    uint8_t *ram = mem_ptr(m->mem[k], RAM_BASE, RAM_SIZE);
    memset(ram, 0, RAM_SIZE);
    memcpy(ram, data, size);
    hart_reset(m->h[k], RAM_BASE);
    m->h[k]->mtvec = RAM_BASE;
    if (sv39) enter_sv39(m->h[k], ram);
    hart_run(m->h[k], RUN_INSNS);
}

#ifdef XPHMG_FUZZ_RESET_CHECK
/* fuzz_program_reset: the harts above live across inputs, reset by hart_reset, for speed
 * (errata P-313). That is only sound if a reset hart is a fresh one: here every input
 * also runs on three harts made for it alone, and the commit logs of the two commit-log
 * loops and the final states of each pair (registers, every CSR, RAM, unit memory) must
 * be identical. */
static void log_to(hart *h, char **buf, size_t *len, FILE **f)
{
    *f = open_memstream(buf, len);
    if (!*f) abort();
    hart_set_log(h, *f);
}

/* Every CSR as the hart's own privilege reads it, the units' windows among them: state
 * that is not in same_state's fields (CAP, XMEM, RT, PMASK) and that a reset restores. */
static bool same_csrs(hart *a, hart *b)
{
    for (uint32_t csr = 0; csr <= 0xfff; csr++) {
        uint64_t va = 0, vb = 0;
        if (hart_csr_read(a, csr, &va) != hart_csr_read(b, csr, &vb) || va != vb) {
            fprintf(stderr, "fuzz_program_reset: CSR 0x%03x: 0x%llx after a reset, 0x%llx fresh\n",
                    (unsigned)csr, (unsigned long long)va, (unsigned long long)vb);
            return false;
        }
    }
    return true;
}

static void check_fresh(unsigned p, bool sv39, const uint8_t *data, size_t size)
{
    machine *m = &machines[p], fresh;
    if (!machine_init(&fresh, m->prof)) abort();
    char *logs[2];
    size_t lens[2];
    FILE *files[2];
    log_to(m->h[1], &logs[0], &lens[0], &files[0]);
    log_to(fresh.h[1], &logs[1], &lens[1], &files[1]);
    for (int k = 0; k < NRUN; k++) {
        run_engine(m, k, sv39, data, size);
        run_engine(&fresh, k, sv39, data, size);
        if (!same_state(fresh.h[k], m->h[k], fresh.mem[k], m->mem[k]) ||
            !same_csrs(m->h[k], fresh.h[k])) {
            fprintf(stderr,
                    "fuzz_program_reset: profile %s, %s: reset hart differs from a fresh one\n",
                    profile_files[p] ? profile_files[p] : "(built-in)", run_names[k]);
            abort();
        }
    }
    hart_set_log(m->h[1], devnull);
    fclose(files[0]);
    fclose(files[1]);
    if (lens[0] != lens[1] || memcmp(logs[0], logs[1], lens[0]) || lens[0] == 0) {
        fprintf(stderr, "fuzz_program_reset: profile %s: commit logs differ (%zu, %zu bytes)\n",
                profile_files[p] ? profile_files[p] : "(built-in)", lens[0], lens[1]);
        abort();
    }
    free(logs[0]);
    free(logs[1]);
    for (int k = 0; k < NRUN; k++) {
        xphmg_ext_free(fresh.ext[k]);
        hart_free(fresh.h[k]);
        mem_free(fresh.mem[k]);
    }
}
#endif

static void run_both(unsigned p, bool sv39, const uint8_t *data, size_t size)
{
    machine *m = &machines[p];
#ifdef XPHMG_FUZZ_RESET_CHECK
    check_fresh(p, sv39, data, size);
#endif
    for (int k = 0; k < NRUN; k++)
        run_engine(m, k, sv39, data, size);
    for (int k = 1; k < NRUN; k++)
        check_same(m, p, k);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!devnull) setup();
    if (size < 1) return 0;
    size_t n = size - 1 > MAX_CODE ? MAX_CODE : size - 1;
#ifdef XPHMG_FUZZ_REPLAY_ALL_PROFILES
    for (unsigned p = 0; p < NPROF; p++)
        for (int sv39 = 0; sv39 < 2; sv39++)
            run_both(p, sv39, data + 1, n);
#else
    run_both(data[0] % NPROF, (data[0] / NPROF) & 1, data + 1, n);
#endif
    return 0;
}
