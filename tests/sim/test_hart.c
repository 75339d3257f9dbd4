/* test_hart.c — host-side tests of the hart: programs hand-assembled into memory (the
 * encodings are derived by hand from the base-ISA formats and were cross-checked with
 * GNU as), traps, the CLINT, the decoded-instruction cache, the commit-log format, the
 * unit registration interface, and mem's bounds checks. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hart.h"
#include "hart_int.h"
#include "jit.h"
#include "mem.h"

#define BASE UINT64_C(0x80000000)
#define SIZE (UINT64_C(1) << 20)

/* Hand-assembled instructions. */
#define ADDI_X1_X0_5    0x00500093u /* addi x1, x0, 5 */
#define ADDI_X2_X1_7    0x00708113u /* addi x2, x1, 7 */
#define ADD_X3_X1_X2    0x002081b3u /* add x3, x1, x2 */
#define CSRRW_X5_7C0_X1 0x7c0092f3u /* csrrw x5, 0x7c0, x1 */
#define CSRRS_X6_7C0_X0 0x7c002373u /* csrrs x6, 0x7c0, x0 */
#define LD_X7_0_X0      0x00003383u /* ld x7, 0(x0) */
#define C_ADDI_X1_1     0x0085u     /* c.addi x1, 1 */
#define XFENCE_WAIT     0x0205000bu /* xfence.wait a0: an RT op, unbound without its unit */

typedef struct {
    sim_mem *m;
    hart *h;
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    f->m = mem_new(BASE, SIZE);
    f->h = f->m ? hart_new(f->m, BASE) : NULL;
    if (!f->h) return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    hart_free(f->h);
    mem_free(f->m);
    free(f);
    return 0;
}

static void put32(fixture *f, uint64_t addr, uint32_t w)
{
    uint8_t *p = mem_ptr(f->m, addr, 4);
    assert_non_null(p);
    memcpy(p, &w, 4);
    mem_note_write(f->m, addr, 4);
}

static void put16(fixture *f, uint64_t addr, uint16_t w)
{
    uint8_t *p = mem_ptr(f->m, addr, 2);
    assert_non_null(p);
    memcpy(p, &w, 2);
    mem_note_write(f->m, addr, 2);
}

/* ---- mem ---- */

static void mem_bounds(void **state)
{
    (void)state;
    sim_mem *m = mem_new(0x1000, 0x1000);
    assert_non_null(m);
    assert_int_equal(mem_base(m), 0x1000);
    assert_int_equal(mem_size(m), 0x1000);
    assert_non_null(mem_ptr(m, 0x1000, 0x1000));
    assert_non_null(mem_ptr(m, 0x1ff8, 8));
    assert_null(mem_ptr(m, 0x1ff9, 8));     /* straddles the end */
    assert_null(mem_ptr(m, 0xfff, 1));      /* below */
    assert_null(mem_ptr(m, 0x2000, 1));     /* one past */
    assert_null(mem_ptr(m, UINT64_MAX, 2)); /* would wrap */
    assert_null(mem_ptr(m, 0x1000, UINT64_MAX));
    mem_free(m);
    assert_null(mem_new(UINT64_MAX - 10, 0x1000)); /* region wraps */
    assert_null(mem_new(0, 4));                    /* smaller than one doubleword */
}

/* ---- reset state: the contract of docs/errata.md P-94 ---- */

static void reset_values(void **state)
{
    fixture *f = *state;
    uint64_t v;
    /* mstatus: SXL=UXL=64, FS=Initial, MPP=U */
    assert_true(hart_csr_read(f->h, 0x300, &v));
    assert_int_equal(v, UINT64_C(0x0000000a00002000));
    assert_true(hart_csr_read(f->h, 0x301, &v)); /* misa: RV64 ACDFIMSU + X */
    assert_int_equal(v, UINT64_C(0x800000000094112D));
    const uint32_t zero[] = {0x302, 0x303, 0x304, 0x305, 0x340, 0x341, 0x342, 0x343,
                             0x344, 0xb00, 0xb02, 0x180, 0xf14, 0x3a0, 0x3b0};
    for (unsigned i = 0; i < sizeof zero / sizeof zero[0]; i++) {
        assert_true(hart_csr_read(f->h, zero[i], &v));
        assert_int_equal(v, 0);
    }
    assert_int_equal(f->h->priv, PRV_M);
    assert_int_equal(f->h->pc, BASE);
}

/* ---- execution ---- */

static void runs_hand_assembled_program(void **state)
{
    fixture *f = *state;
    put32(f, BASE, ADDI_X1_X0_5);
    put32(f, BASE + 4, ADDI_X2_X1_7);
    put32(f, BASE + 8, ADD_X3_X1_X2);
    put16(f, BASE + 12, C_ADDI_X1_1);
    assert_int_equal(hart_run(f->h, 4), HART_RUN_LIMIT);
    assert_int_equal(hart_x(f->h, 1), 6);
    assert_int_equal(hart_x(f->h, 2), 12);
    assert_int_equal(hart_x(f->h, 3), 17);
    assert_int_equal(f->h->pc, BASE + 14);
    assert_int_equal(f->h->instret, 4);
}

static void illegal_instruction_traps(void **state)
{
    fixture *f = *state;
    f->h->mtvec = BASE + 0x100;
    put32(f, BASE, 0xffffffffu);
    assert_int_equal(hart_run(f->h, 1), HART_RUN_LIMIT);
    assert_int_equal(f->h->mcause, CAUSE_ILLEGAL_INSN);
    assert_int_equal(f->h->mtval, 0xffffffffu);
    assert_int_equal(f->h->mepc, BASE);
    assert_int_equal(f->h->pc, BASE + 0x100);
    assert_int_equal(f->h->instret, 0); /* a trapping instruction does not retire */
}

static void wild_load_faults_in_guest(void **state)
{
    fixture *f = *state;
    f->h->mtvec = BASE + 0x100;
    f->h->x[7] = 0x1234;
    put32(f, BASE, LD_X7_0_X0);
    hart_run(f->h, 1);
    assert_int_equal(f->h->mcause, CAUSE_LOAD_ACCESS);
    assert_int_equal(f->h->mtval, 0);
    assert_int_equal(hart_x(f->h, 7), 0x1234); /* destination untouched */
}

static void fetch_outside_ram_faults(void **state)
{
    fixture *f = *state;
    hart_reset(f->h, 0x1000);
    f->h->mtvec = BASE;
    put32(f, BASE, ADDI_X1_X0_5);
    hart_run(f->h, 2);
    assert_int_equal(f->h->mcause, CAUSE_FETCH_ACCESS);
    assert_int_equal(f->h->mepc, 0x1000);
    assert_int_equal(f->h->mtval, 0x1000);
    assert_int_equal(hart_x(f->h, 1), 5); /* the handler's first instruction ran */
}

static void store_invalidates_decoded_code(void **state)
{
    fixture *f = *state;
    put32(f, BASE, ADDI_X1_X0_5);
    hart_run(f->h, 1);
    assert_int_equal(hart_x(f->h, 1), 5);
    put32(f, BASE, ADDI_X2_X1_7); /* a host-side write (loader/HTIF path) */
    f->h->pc = BASE;
    hart_run(f->h, 1);
    assert_int_equal(hart_x(f->h, 2), 12);
}

/* A large host write (an HTIF read into a buffer) over decoded code. */
static void host_block_write_invalidates_code(void **state)
{
    fixture *f = *state;
    put32(f, BASE, ADDI_X1_X0_5);
    hart_run(f->h, 1);
    uint8_t *p = mem_ptr(f->m, BASE, 256);
    for (unsigned i = 0; i < 256; i += 4) {
        uint32_t w = ADDI_X2_X1_7;
        memcpy(p + i, &w, 4);
    }
    mem_note_write(f->m, BASE, 256);
    f->h->pc = BASE;
    hart_run(f->h, 1);
    assert_int_equal(hart_x(f->h, 2), 12);
}

/* Code on `pages` consecutive pages (addi x1, x1, `inc`; jal to the next page), run,
 * then the increments rewritten behind the hart's back (no write notice): after
 * `forget` (a reset or a fence.i) the new code runs, from every page, both when the
 * flush can clear the pages it remembers and when there were more pages than it lists
 * (HART_CODE_PAGES). */
#define ADDI_X1_X1(i) (0x00008093u | (uint32_t)(i) << 20)
#define J_NEXT_PAGE   0x7fd0006fu /* jal x0, .+4092 */
#define FENCE_I       0x0000100fu

static uint64_t run_pages(fixture *f, unsigned pages, unsigned inc, bool notice)
{
    uint8_t *ram = mem_ptr(f->m, BASE, SIZE);
    for (unsigned k = 0; k < pages; k++) {
        uint32_t w[2] = {ADDI_X1_X1(inc), J_NEXT_PAGE};
        memcpy(ram + 4096 * k, w, sizeof w);
        if (notice) mem_note_write(f->m, BASE + 4096 * k, sizeof w);
    }
    f->h->pc = BASE;
    f->h->x[1] = 0;
    hart_run(f->h, 2 * pages);
    return hart_x(f->h, 1);
}

static void flush_forgets_every_page(fixture *f, unsigned pages, bool by_fence)
{
    assert_int_equal(run_pages(f, pages, 1, true), pages);
    if (by_fence) {
        put32(f, BASE + 4096 * pages, FENCE_I);
        f->h->pc = BASE + 4096 * pages;
        hart_run(f->h, 1);
    } else {
        hart_reset(f->h, BASE);
    }
    assert_int_equal(run_pages(f, pages, 2, false), 2 * pages);
}

static void reset_forgets_decoded_code(void **state)
{
    fixture *f = *state;
    flush_forgets_every_page(f, 3, false);
    flush_forgets_every_page(f, HART_CODE_PAGES + 3, false);
    flush_forgets_every_page(f, 3, false); /* after the full flush, listed again */
}

static void fence_i_forgets_decoded_code(void **state)
{
    fixture *f = *state;
    flush_forgets_every_page(f, 3, true);
    flush_forgets_every_page(f, HART_CODE_PAGES + 3, true);
    flush_forgets_every_page(f, 3, true);
}

/* ---- CLINT ---- */

static void clint_time_follows_instructions(void **state)
{
    fixture *f = *state;
    /* 250 nops (addi x0, x0, 0 = 0x00000013) */
    for (unsigned i = 0; i < 250; i++)
        put32(f, BASE + 4 * i, 0x00000013u);
    hart_run(f->h, 250);
    uint64_t t;
    assert_true(hart_load(f->h, CLINT_BASE + CLINT_MTIME, 8, &t));
    assert_int_equal(t, 250 / HART_TICK_INSNS);
    assert_true(hart_store(f->h, CLINT_BASE + CLINT_MTIMECMP, 8, 77));
    assert_true(hart_load(f->h, CLINT_BASE + CLINT_MTIMECMP + 4, 4, &t));
    assert_int_equal(t, 0); /* upper half */
    assert_true(hart_load(f->h, CLINT_BASE + CLINT_MTIMECMP, 4, &t));
    assert_int_equal(t, 77);
    /* an access that is not a CLINT register is an access fault, not host memory */
    f->h->mtvec = BASE;
    assert_false(hart_load(f->h, CLINT_BASE + 0x100, 4, &t));
    assert_int_equal(f->h->mcause, CAUSE_LOAD_ACCESS);
}

/* ---- commit log ---- */

static void commit_log_line_format(void **state)
{
    fixture *f = *state;
    char *buf = NULL;
    size_t len = 0;
    FILE *log = open_memstream(&buf, &len);
    assert_non_null(log);
    hart_set_log(f->h, log);
    put32(f, BASE, ADDI_X1_X0_5);
    put16(f, BASE + 4, C_ADDI_X1_1);
    put32(f, BASE + 6, 0x00113023u);  /* sd x1, 0(x2) */
    put32(f, BASE + 10, 0x00012183u); /* lw x3, 0(x2) */
    f->h->x[2] = BASE + 0x800;
    hart_run(f->h, 4);
    hart_set_log(f->h, NULL);
    fclose(log);
    assert_string_equal(buf, "core   0: 3 0x0000000080000000 (0x00500093) x1  0x0000000000000005\n"
                             "core   0: 3 0x0000000080000004 (0x0085) x1  0x0000000000000006\n"
                             "core   0: 3 0x0000000080000006 (0x00113023) mem 0x0000000080000800 "
                             "0x0000000000000006\n"
                             "core   0: 3 0x000000008000000a (0x00012183) x3  0x0000000000000006 "
                             "mem 0x0000000080000800\n");
    free(buf);
}

/* ---- units ---- */

typedef struct {
    uint64_t csr[2];
    unsigned resets, execs;
} toy;

static bool toy_read(hart *h, void *ctx, uint32_t a, uint64_t *v)
{
    (void)h;
    *v = ((toy *)ctx)->csr[a - 0x7c0];
    return true;
}
static bool toy_write(hart *h, void *ctx, uint32_t a, uint64_t v)
{
    (void)h;
    if (a == 0x7c1) return false; /* read-only in this toy: the write is an illegal instruction */
    ((toy *)ctx)->csr[a - 0x7c0] = v;
    return true;
}
static void toy_reset(hart *h, void *ctx)
{
    (void)h;
    ((toy *)ctx)->resets++;
}
static void toy_exec(hart *h, void *ctx, const hart_insn *d)
{
    ((toy *)ctx)->execs++;
    hart_set_x(h, 9, d->bits);
}

static const hart_unit_csrs toy_csrs[] = {{0x7c0, 0x7c1, toy_read, toy_write}};
static const hart_unit_insn toy_insns[] = {{XOP_XFENCE_WAIT, toy_exec, HART_WR_X}};
static const hart_unit toy_unit = {"toy", toy_reset, 1, toy_insns, 1, toy_csrs};

static void unit_registration(void **state)
{
    fixture *f = *state;
    toy t = {{0, 0}, 0, 0};
    assert_int_equal(hart_register_unit(f->h, &toy_unit, &t), 0);
    assert_int_equal(t.resets, 1);
    /* a second unit claiming an owned CSR, a base CSR or a base op is refused */
    assert_int_equal(hart_register_unit(f->h, &toy_unit, &t), -1);
    static const hart_unit_csrs base_csr[] = {{0x300, 0x300, toy_read, toy_write}};
    static const hart_unit grab_csr = {"bad", NULL, 0, NULL, 1, base_csr};
    assert_int_equal(hart_register_unit(f->h, &grab_csr, &t), -1);
    static const hart_unit_insn base_op[] = {{XOP_ADD, toy_exec, HART_WR_X}};
    static const hart_unit grab_op = {"bad", NULL, 1, base_op, 0, NULL};
    assert_int_equal(hart_register_unit(f->h, &grab_op, &t), -1);
    /* the hart's numbered CSR families end where the privileged spec ends them:
     * mhpmcounter31 (0xb1f) is the hart's, 0xb20 is free for a unit */
    static const hart_unit_csrs hpm_last[] = {{0xb1f, 0xb1f, toy_read, toy_write}};
    static const hart_unit grab_hpm = {"bad", NULL, 0, NULL, 1, hpm_last};
    assert_int_equal(hart_register_unit(f->h, &grab_hpm, &t), -1);
    static const hart_unit_csrs past_hpm[] = {{0xb20, 0xb20, toy_read, toy_write}};
    static const hart_unit free_csr = {"ok", NULL, 0, NULL, 1, past_hpm};
    assert_int_equal(hart_register_unit(f->h, &free_csr, &t), 0);
    /* on RV64 only the even pmpcfg numbers are the hart's: pmpcfg2 (0x3a2) is refused,
     * 0x3a1 (pmpcfg1 exists on RV32 only) is free for a unit */
    static const hart_unit_csrs pmpcfg2[] = {{0x3a2, 0x3a2, toy_read, toy_write}};
    static const hart_unit grab_pmp = {"bad", NULL, 0, NULL, 1, pmpcfg2};
    assert_int_equal(hart_register_unit(f->h, &grab_pmp, &t), -1);
    static const hart_unit_csrs pmpcfg1[] = {{0x3a1, 0x3a1, toy_read, toy_write}};
    static const hart_unit odd_pmp = {"ok", NULL, 0, NULL, 1, pmpcfg1};
    assert_int_equal(hart_register_unit(f->h, &odd_pmp, &t), 0);

    f->h->mtvec = BASE + 0x100;
    put32(f, BASE, ADDI_X1_X0_5);
    put32(f, BASE + 4, CSRRW_X5_7C0_X1);
    put32(f, BASE + 8, CSRRS_X6_7C0_X0);
    put32(f, BASE + 12, XFENCE_WAIT);
    t.csr[0] = 42;
    hart_run(f->h, 4);
    assert_int_equal(hart_x(f->h, 5), 42); /* old value */
    assert_int_equal(t.csr[0], 5);
    assert_int_equal(hart_x(f->h, 6), 5);
    assert_int_equal(t.execs, 1);
    assert_int_equal(hart_x(f->h, 9), XFENCE_WAIT);
    hart_reset(f->h, BASE);
    assert_int_equal(t.resets, 2);
    /* U mode cannot reach a 0x7cx CSR: csr[9:8] = 3 */
    assert_true(hart_csr_read(f->h, 0x7c0, &(uint64_t){0}));
    f->h->priv = PRV_U;
    assert_false(hart_csr_read(f->h, 0x7c0, &(uint64_t){0}));
    f->h->priv = PRV_M;
    assert_false(hart_csr_write(f->h, 0x7c1, 1));
}

static void unbound_op_is_illegal_without_unit(void **state)
{
    fixture *f = *state;
    f->h->mtvec = BASE + 0x100;
    put32(f, BASE, XFENCE_WAIT);
    hart_run(f->h, 1);
    assert_int_equal(f->h->mcause, CAUSE_ILLEGAL_INSN);
    assert_int_equal(f->h->mtval, XFENCE_WAIT);
}

/* ---- the hart's own CSRs, read and written from the host ---- */

static bool ro_read(hart *h, void *ctx, uint32_t a, uint64_t *v)
{
    (void)h, (void)a;
    *v = *(uint64_t *)ctx;
    return true;
}
static bool ro_write(hart *h, void *ctx, uint32_t a, uint64_t v)
{
    (void)h, (void)a;
    *(uint64_t *)ctx = v;
    return true;
}

/* Values a guest program rarely looks at, each as the privileged and debug specs (and
 * this hart's choices) make it. */
static void csr_values(void **state)
{
    fixture *f = *state;
    uint64_t v;
    /* tinfo (0x7a4): trigger types 2 (mcontrol) and 15 (disabled) */
    assert_true(hart_csr_read(f->h, 0x7a4, &v));
    assert_int_equal(v, 0x8004);
    /* senvcfg (0x10a): FIOM (bit 0) is the one writable bit */
    assert_true(hart_csr_write(f->h, 0x10a, ~UINT64_C(0)));
    assert_true(hart_csr_read(f->h, 0x10a, &v));
    assert_int_equal(v, 1);
    /* mcycle (0xb00) counts as minstret (0xb02) does here: equal after a few instructions;
     * cycle (0xc00) and instret (0xc02) read the same */
    put32(f, BASE, ADDI_X1_X0_5);
    put32(f, BASE + 4, ADDI_X2_X1_7);
    put32(f, BASE + 8, ADD_X3_X1_X2);
    hart_run(f->h, 3);
    uint64_t cyc = 0xdead, ret = 0xbeef;
    assert_true(hart_csr_read(f->h, 0xb00, &cyc));
    assert_true(hart_csr_read(f->h, 0xb02, &ret));
    assert_int_equal(ret, 3);
    assert_int_equal(cyc, ret);
    cyc = 0xdead, ret = 0xbeef;
    assert_true(hart_csr_read(f->h, 0xc00, &cyc));
    assert_true(hart_csr_read(f->h, 0xc02, &ret));
    assert_int_equal(ret, 3);
    assert_int_equal(cyc, 3);
    /* pmpaddr0..63 are 0x3b0..0x3ef: 0x3f0 is no CSR */
    assert_true(hart_csr_read(f->h, 0x3ef, &v));
    assert_false(hart_csr_read(f->h, 0x3f0, &v));
    assert_false(hart_csr_write(f->h, 0x3f0, 0));
    /* medeleg: the misaligned fetch (bit 0) is delegable only without C; ecall from M
     * (bit 11) never */
    assert_true(hart_csr_write(f->h, 0x302, ~UINT64_C(0)));
    assert_true(hart_csr_read(f->h, 0x302, &v));
    assert_int_equal(v, 0xb3fe);
    assert_true(hart_csr_read(f->h, 0x301, &v));
    assert_true(hart_csr_write(f->h, 0x301, v & ~(UINT64_C(1) << 2))); /* misa.C off */
    assert_true(hart_csr_write(f->h, 0x302, ~UINT64_C(0)));
    assert_true(hart_csr_read(f->h, 0x302, &v));
    assert_int_equal(v, 0xb3ff);
    /* the numbered families' names for the commit log */
    assert_string_equal(hart_csr_name(0x323), "mhpmevent3");
    assert_string_equal(hart_csr_name(0x33f), "mhpmevent31");
    assert_string_equal(hart_csr_name(0xb03), "mhpmcounter3");
    assert_string_equal(hart_csr_name(0x3ef), "pmpaddr63");
}

/* csr[11:10] = 3 is read-only whoever implements the CSR: a unit's CSR numbered there
 * reads through the unit, and a write is refused before the unit's write hook runs. */
static void read_only_range_for_units(void **state)
{
    fixture *f = *state;
    uint64_t val = 7, v = 0;
    static const hart_unit_csrs ro_csr[] = {{0xcc0, 0xcc0, ro_read, ro_write}};
    static const hart_unit ro_unit = {"ro", NULL, 0, NULL, 1, ro_csr};
    assert_int_equal(hart_register_unit(f->h, &ro_unit, &val), 0);
    assert_true(hart_csr_read(f->h, 0xcc0, &v));
    assert_int_equal(v, 7);
    assert_false(hart_csr_write(f->h, 0xcc0, 9));
    assert_int_equal(val, 7);
}

/* ---- the platform poll (hart_set_poll: HTIF's tohost window) ---- */

typedef struct {
    fixture *f;
    uint64_t window;
    unsigned calls, early; /* calls; calls before the window held the guest's 1 */
    uint64_t first_instret;
} poll_rec;

/* Like xphmg-sim's HTIF poll, it acts on what the guest wrote into the window: here it
 * makes a machine software interrupt pending (a device answering). */
static void record_poll(hart *h, void *ctx)
{
    poll_rec *p = ctx;
    uint64_t v = 0;
    memcpy(&v, mem_ptr(p->f->m, p->window, 8), 8);
    if (v != 1) {
        p->early++;
        return;
    }
    if (p->calls++ == 0) p->first_instret = h->instret;
    h->msip = 1;
}

static void no_access(void *ctx, uint64_t va, unsigned n, unsigned kind)
{
    (void)ctx, (void)va, (void)n, (void)kind;
}

/* The poll runs right after a store that touches [watch_lo, watch_hi) and not after one
 * that only borders it, and what it does is seen before the next instruction (the
 * interrupt it makes pending is taken with mepc at the instruction after the store): on
 * the fast loop and on the careful one (a debugger's access observer). */
static void poll_right_after_window_store(void **state)
{
    fixture *f = *state;
    const uint64_t w = BASE + 0x3010, handler = BASE + 0x100; /* the window inside a page */
    for (int careful = 0; careful < 2; careful++) {
        hart_reset(f->h, BASE);
        memset(mem_ptr(f->m, w - 8, 24), 0, 24);
        mem_note_write(f->m, w - 8, 24);
        put32(f, BASE + 0, 0x0000b423u); /* sd x0, 8(x1): the 8 bytes after the window */
        put32(f, BASE + 4, 0xfe00bc23u); /* sd x0, -8(x1): the 8 bytes before it */
        put32(f, BASE + 8, 0x0020b023u); /* sd x2, 0(x1): the window */
        for (unsigned i = 0; i < 8; i++)
            put32(f, BASE + 12 + 4 * i, 0x00118193u); /* addi x3, x3, 1 */
        put32(f, BASE + 44, 0x0000006fu);             /* j . */
        put32(f, handler, 0x0000006fu);               /* j . */
        poll_rec p = {.f = f, .window = w};
        hart_set_poll(f->h, record_poll, &p, w, w + 8);
        hart_set_access_watch(f->h, careful ? no_access : NULL, NULL);
        f->h->x[1] = w;
        f->h->x[2] = 1;
        f->h->mtvec = handler;
        f->h->mie |= UINT64_C(1) << IRQ_MSI;
        f->h->mstatus |= MSTATUS_MIE;
        hart_run(f->h, 100);
        assert_int_equal(p.early, 0);
        assert_true(p.calls >= 1);
        assert_int_equal(p.first_instret, 2); /* during the third instruction */
        assert_int_equal(f->h->mcause, (UINT64_C(1) << 63) | IRQ_MSI);
        assert_int_equal(f->h->mepc, BASE + 12);
        assert_int_equal(f->h->x[3], 0);
        hart_set_poll(f->h, NULL, NULL, 0, 0);
        hart_set_access_watch(f->h, NULL, NULL);
        f->h->msip = 0;
    }
}

/* A PMP write takes effect for the very next access, even one the host makes before the
 * hart runs again (a debugger's memory read): a locked entry without permissions on a
 * word denies M mode's load of it. */
static void pmp_write_applies_at_once(void **state)
{
    fixture *f = *state;
    const uint64_t a = BASE + 0x2000;
    uint64_t v;
    f->h->mtvec = BASE;
    assert_true(hart_load(f->h, a, 4, &v));
    assert_true(hart_csr_write(f->h, 0x3b0, a >> 2)); /* pmpaddr0: NA4 on a */
    assert_true(hart_csr_write(f->h, 0x3a0, 0x90));   /* pmpcfg0: L | NA4, no R W X */
    assert_false(hart_load(f->h, a, 4, &v));
    assert_int_equal(f->h->mcause, CAUSE_LOAD_ACCESS);
    assert_true(hart_load(f->h, a + 4, 4, &v)); /* the next word: no entry matches */
}

/* ---- the debugger's trigger API (hart_trigger_set/clear, errata P-265) ---- */

static void host_triggers(void **state)
{
    fixture *f = *state;
    f->h->mtvec = BASE + 0x100;
    put32(f, BASE, ADDI_X1_X0_5);
    put32(f, BASE + 4, ADDI_X2_X1_7);
    put32(f, BASE + 8, LD_X7_0_X0);
    assert_int_equal(hart_trigger_set(f->h, HART_NTRIG, BASE, HART_TRIG_EXEC), -1);
    assert_int_equal(hart_trigger_set(f->h, 0, BASE, 0), -1);
    /* an execute trigger stops the instruction before it runs (mepc = mtval = its pc);
     * in M mode a trigger fires only with MIE = 1 */
    f->h->mstatus |= 8;
    assert_int_equal(hart_trigger_set(f->h, 1, BASE + 4, HART_TRIG_EXEC), 0);
    hart_run(f->h, 2);
    assert_int_equal(f->h->mcause, CAUSE_BREAKPOINT);
    assert_int_equal(f->h->mepc, BASE + 4);
    assert_int_equal(f->h->mtval, BASE + 4);
    assert_int_equal(hart_x(f->h, 2), 0);
    /* cleared: runs on; a load watchpoint at address 0 stops the ld with mtval = 0 */
    hart_trigger_clear(f->h, 1);
    hart_reset(f->h, BASE);
    f->h->mstatus |= 8;
    assert_int_equal(hart_trigger_set(f->h, 0, 0, HART_TRIG_LOAD | HART_TRIG_STORE), 0);
    hart_run(f->h, 3);
    assert_int_equal(hart_x(f->h, 2), 12);
    assert_int_equal(f->h->mcause, CAUSE_BREAKPOINT);
    assert_int_equal(f->h->mepc, BASE + 8);
    assert_int_equal(f->h->mtval, 0);
}

/* ---- bad input: random code ---- */

/* 64 KiB of random words run as code, with random registers and mtvec pointing into
 * the same random code: wild jumps, loads, stores, atomics, CSR accesses and traps of
 * every kind. The only expectations: the run ends at the limit or by halting, the host
 * never touches memory outside RAM (checked by the ASan/UBSan build), and x0 stays 0. */
static void random_code_never_escapes(void **state)
{
    fixture *f = *state;
    uint64_t seed = 0x9e3779b97f4a7c15u;
    for (unsigned round = 0; round < 8; round++) {
        uint8_t *p = mem_ptr(f->m, BASE, 0x10000);
        for (unsigned i = 0; i < 0x10000; i += 8) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            memcpy(p + i, &seed, 8);
        }
        mem_note_write(f->m, BASE, 0x10000);
        hart_reset(f->h, BASE + (seed & 0xfffe));
        for (unsigned r = 1; r < 32; r++) {
            seed ^= seed << 13, seed ^= seed >> 7, seed ^= seed << 17;
            /* half the registers point into RAM so that memory operations hit */
            f->h->x[r] = (r & 1) ? BASE + (seed & 0xffff8) : seed;
        }
        f->h->mtvec = BASE + 0x100 * round;
        hart_run_result r = hart_run(f->h, 200000);
        assert_true(r == HART_RUN_LIMIT || r == HART_RUN_HALTED);
        assert_int_equal(hart_x(f->h, 0), 0);
    }
}

/* ---- RAM's epoch for the RT offload engine (hart_ram_epoch, hart_ram_watch) ---- */

#define RT_DATA  (BASE + 0x10000) /* a page nobody watches */
#define RT_WATCH (BASE + 0x20000) /* the watched page */

/* bne x5, x0, off (B-type: imm[12|10:5] rs2 rs1 funct3 imm[4:1|11] opcode). */
static uint32_t bne_x5_x0(int32_t off)
{
    uint32_t i = (uint32_t)off;
    return ((i >> 12) & 1) << 31 | ((i >> 5) & 0x3f) << 25 | 5u << 15 | 1u << 12 |
           ((i >> 1) & 0xf) << 8 | ((i >> 11) & 1) << 7 | 0x63;
}

/* Each store path of the hart, as a loop body (x1 = the address, x2 = the value). */
static const struct {
    const char *name;
    uint32_t insn[2];
    unsigned n, bytes;
} rt_store_paths[] = {
    {"sd", {0x0020b023u}, 1, 8},                /* sd x2, 0(x1) */
    {"sw", {0x0020a023u}, 1, 4},                /* sw x2, 0(x1) */
    {"sb", {0x00208023u}, 1, 1},                /* sb x2, 0(x1) */
    {"amoswap.w", {0x0820a1afu}, 1, 4},         /* amoswap.w x3, x2, (x1) */
    {"sc.d", {0x1000b1afu, 0x1820b22fu}, 2, 8}, /* lr.d x3, (x1); sc.d x4, x2, (x1) */
    {"fsd", {0x0000b027u}, 1, 8},               /* fsd f0, 0(x1) */
    {"fsw", {0x0000a027u}, 1, 4},               /* fsw f0, 0(x1) */
};

/* Runs the loop at BASE (x5 iterations of the store path) to its final `j .`. */
static void rt_run_loop(fixture *f, uint64_t addr, uint64_t iters, unsigned n)
{
    f->h->pc = BASE;
    f->h->x[1] = addr;
    f->h->x[2] = 0x1122334455667788u;
    f->h->x[5] = iters;
    f->h->f[0] = 0x8877665544332211u;
    hart_run(f->h, (int64_t)(iters * (n + 2) + 1));
    assert_int_equal(f->h->pc, BASE + 4 * (n + 2));
    assert_int_equal(f->h->x[5], 0);
}

/* Every store path of the hart, run by the interpreter's fast loop, the commit-log loop
 * (every instruction by its handler) and translated code, changes the epoch when it
 * writes watched bytes, and only then (not other bytes of their page); the change forgets the watch
 * (a second store leaves the new epoch). */
static void rt_epoch_store_paths(void **state)
{
    fixture *f = *state;
    assert_int_equal(bne_x5_x0(-8), 0xfe029ce3u); /* GNU as: bne t0, zero, .-8 */
    FILE *null = fopen("/dev/null", "w");
    assert_non_null(null);
    for (unsigned p = 0; p < sizeof rt_store_paths / sizeof rt_store_paths[0]; p++)
        for (int eng = 0; eng < 3; eng++) { /* fast loop, commit log, translator */
            unsigned n = rt_store_paths[p].n;
            hart_reset(f->h, BASE);
            assert_int_equal(hart_set_jit(f->h, eng == 2), 0);
            hart_set_log(f->h, eng == 1 ? null : NULL);
            for (unsigned k = 0; k < n; k++)
                put32(f, BASE + 4 * k, rt_store_paths[p].insn[k]);
            put32(f, BASE + 4 * n, 0xfff28293u); /* addi x5, x5, -1 */
            put32(f, BASE + 4 * n + 4, bne_x5_x0(-4 * (int32_t)(n + 1)));
            put32(f, BASE + 4 * n + 8, 0x0000006fu); /* j . */
            rt_run_loop(f, RT_DATA, 200, n);         /* hot: translated */
            assert_true(hart_ram_watch(f->h, RT_WATCH + 8, 8));
            uint64_t e0 = hart_ram_epoch(f->h);
            assert_int_equal(hart_ram_epoch(f->h), e0);
            rt_run_loop(f, RT_DATA + 0x1000, 50, n); /* another page: no change */
            assert_int_equal(hart_ram_epoch(f->h), e0);
            rt_run_loop(f, RT_WATCH + 64, 3, n); /* the page, not the bytes: no change */
            rt_run_loop(f, RT_WATCH + 16, 1, n); /* the bytes right after and before */
            rt_run_loop(f, RT_WATCH + 8 - rt_store_paths[p].bytes, 1, n);
            assert_int_equal(hart_ram_epoch(f->h), e0);
            rt_run_loop(f, RT_WATCH + 8, 1, n);
            uint8_t *w = mem_ptr(f->m, RT_WATCH + 8, 1);
            assert_int_equal(*w, p == 5 ? 0x11 : p == 6 ? 0x11 : 0x88);
            uint64_t e1 = hart_ram_epoch(f->h);
            assert_true(e1 != e0);
            rt_run_loop(f, RT_WATCH + 8, 1, n);
            assert_int_equal(hart_ram_epoch(f->h), e1);
            if (eng == 2) {
                jit_stats st;
                jit_get_stats(f->h->jit, &st);
                assert_true(st.entries > 0);
            }
        }
    hart_set_log(f->h, NULL);
    hart_set_jit(f->h, false);
    fclose(null);
}

/* A new epoch clears PAGE_RT on every page that carried it, whichever order the watches
 * came in (a flag left behind would send that page's stores to the slow paths for good). */
static void rt_epoch_clears_flags(void **state)
{
    fixture *f = *state;
    const uint64_t pages[3] = {RT_WATCH, RT_DATA, RT_WATCH + 0x3000};
    for (unsigned k = 0; k < 3; k++) {
        assert_true(hart_ram_watch(f->h, pages[k] + 100, 8));
        assert_true(f->h->page_flags[(pages[k] - BASE) >> 12] & PAGE_RT);
    }
    assert_true(hart_ram_watch(f->h, RT_WATCH + 0x1ff8, 16)); /* across two pages */
    assert_true(hart_ram_watch(f->h, RT_WATCH + 0x5ff8, 8));  /* to a page's end */
    /* exactly the pages holding watched bytes: 0x10, 0x20-0x23, 0x25 */
    unsigned flagged = 0;
    for (uint64_t p = 0; p < SIZE >> 12; p++)
        if (f->h->page_flags[p] & PAGE_RT) {
            assert_true(p == 0x10 || (p >= 0x20 && p <= 0x23) || p == 0x25);
            flagged++;
        }
    assert_int_equal(flagged, 6);
    put32(f, RT_DATA + 100, 1);
    for (uint64_t p = 0; p < SIZE >> 12; p++)
        assert_int_equal(f->h->page_flags[p] & PAGE_RT, 0);
}

/* RAM at address 0: after a new epoch nothing is watched, so a host write at address 0
 * (below any hull) leaves the epoch. */
static void rt_epoch_ram_at_zero(void **state)
{
    (void)state;
    sim_mem *m = mem_new(0, SIZE);
    assert_non_null(m);
    hart *h = hart_new(m, 0);
    assert_non_null(h);
    assert_true(hart_ram_watch(h, 0x2000, 8));
    mem_note_write(m, 0x2000, 8);
    uint64_t e = hart_ram_epoch(h);
    mem_note_write(m, 0, 8);
    assert_int_equal(hart_ram_epoch(h), e);
    hart_free(h);
    mem_free(m);
}

/* Host writes (loader, HTIF, syscalls: mem_note_write) change the epoch when they touch a
 * watched byte (the hull of the watches) or lie outside RAM; a reset and a change of translation or
 * PMP change it; while translation is on every call gives a new epoch and nothing can be watched; a
 * watch must lie in RAM. */
static void rt_epoch_other_writes(void **state)
{
    fixture *f = *state;
    assert_true(hart_ram_watch(f->h, RT_WATCH + 8, 8));
    assert_true(hart_ram_watch(f->h, RT_WATCH + 256, 3840)); /* the hull: 8 .. 4096 */
    uint64_t e = hart_ram_epoch(f->h);
    put32(f, RT_DATA, 1);
    put32(f, RT_WATCH + 4, 1);
    assert_int_equal(hart_ram_epoch(f->h), e);
    put32(f, RT_WATCH + 128, 1);
    assert_true(hart_ram_epoch(f->h) != e);
    assert_true(hart_ram_watch(f->h, RT_WATCH, 4096));
    e = hart_ram_epoch(f->h);
    put32(f, RT_WATCH + 4092, 1);
    assert_true(hart_ram_epoch(f->h) != e);
    e = hart_ram_epoch(f->h);
    put32(f, RT_WATCH + 4092, 1); /* the watch is gone */
    assert_int_equal(hart_ram_epoch(f->h), e);
    mem_note_write(f->m, BASE + SIZE, 8); /* outside RAM: counts */
    assert_true(hart_ram_epoch(f->h) != e);
    e = hart_ram_epoch(f->h);
    mem_note_write(f->m, BASE + SIZE - 4, 8); /* partly outside: counts */
    assert_true(hart_ram_epoch(f->h) != e);
    e = hart_ram_epoch(f->h);
    put32(f, BASE + SIZE - 4, 1); /* RAM's last bytes, unwatched */
    assert_int_equal(hart_ram_epoch(f->h), e);
    assert_true(hart_ram_watch(f->h, RT_WATCH + 8, 8));
    e = hart_ram_epoch(f->h);
    put32(f, RT_WATCH + 16, 1); /* right after the watched bytes */
    put32(f, RT_WATCH + 4, 1);  /* right before */
    assert_int_equal(hart_ram_epoch(f->h), e);
    /* stores across a page boundary: watched bytes in the second page, then in the first */
    assert_true(hart_ram_watch(f->h, RT_WATCH, 8));
    e = hart_ram_epoch(f->h);
    assert_true(hart_store(f->h, RT_WATCH - 4, 8, 0));
    assert_true(hart_ram_epoch(f->h) != e);
    assert_true(hart_ram_watch(f->h, RT_WATCH + 4092, 4));
    e = hart_ram_epoch(f->h);
    assert_true(hart_store(f->h, RT_WATCH + 4092, 8, 0));
    assert_true(hart_ram_epoch(f->h) != e);
    /* the units' and the debugger's stores (hart_store, hart_quiet_store) */
    for (int quiet = 0; quiet < 2; quiet++) {
        assert_true(hart_ram_watch(f->h, RT_WATCH, 4096));
        e = hart_ram_epoch(f->h);
        assert_true(quiet ? hart_quiet_store(f->h, RT_WATCH + 4095, 1, 7)
                          : hart_store(f->h, RT_WATCH + 4095, 1, 7));
        assert_true(hart_ram_epoch(f->h) != e);
    }

    assert_true(hart_ram_watch(f->h, RT_WATCH, 8));
    e = hart_ram_epoch(f->h);
    hart_reset(f->h, BASE);
    assert_true(hart_ram_epoch(f->h) != e);

    e = hart_ram_epoch(f->h);
    assert_true(hart_csr_write(f->h, 0x3a0, 0x1f)); /* pmpcfg0: NAPOT RWX */
    assert_true(hart_ram_epoch(f->h) != e);
    e = hart_ram_epoch(f->h);
    assert_true(hart_csr_write(f->h, 0x180, UINT64_C(8) << 60)); /* satp Sv39: M mode */
    assert_int_equal(hart_ram_epoch(f->h), e);                   /* ... not translated */
    f->h->mstatus |= UINT64_C(1) << 17;                          /* MPRV, MPP = U */
    f->h->mstatus &= ~(UINT64_C(3) << 11);
    assert_true(hart_csr_write(f->h, 0x300, f->h->mstatus));
    assert_true(f->h->xlate);
    uint64_t e1 = hart_ram_epoch(f->h);
    assert_true(e1 != e);
    assert_true(hart_ram_epoch(f->h) != e1);
    assert_false(hart_ram_watch(f->h, RT_WATCH, 8));
    hart_reset(f->h, BASE);
    assert_false(f->h->xlate);
    assert_false(hart_ram_watch(f->h, BASE + SIZE - 4, 8)); /* past the end of RAM */
    assert_false(hart_ram_watch(f->h, BASE - 8, 8));
    assert_false(hart_ram_watch(f->h, RT_WATCH, 0));
    assert_true(hart_ram_watch(f->h, BASE + SIZE - 8, 8));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(mem_bounds),
        cmocka_unit_test_setup_teardown(reset_values, setup, teardown),
        cmocka_unit_test_setup_teardown(runs_hand_assembled_program, setup, teardown),
        cmocka_unit_test_setup_teardown(rt_epoch_store_paths, setup, teardown),
        cmocka_unit_test_setup_teardown(rt_epoch_other_writes, setup, teardown),
        cmocka_unit_test_setup_teardown(rt_epoch_clears_flags, setup, teardown),
        cmocka_unit_test(rt_epoch_ram_at_zero),
        cmocka_unit_test_setup_teardown(illegal_instruction_traps, setup, teardown),
        cmocka_unit_test_setup_teardown(wild_load_faults_in_guest, setup, teardown),
        cmocka_unit_test_setup_teardown(fetch_outside_ram_faults, setup, teardown),
        cmocka_unit_test_setup_teardown(store_invalidates_decoded_code, setup, teardown),
        cmocka_unit_test_setup_teardown(host_block_write_invalidates_code, setup, teardown),
        cmocka_unit_test_setup_teardown(reset_forgets_decoded_code, setup, teardown),
        cmocka_unit_test_setup_teardown(fence_i_forgets_decoded_code, setup, teardown),
        cmocka_unit_test_setup_teardown(clint_time_follows_instructions, setup, teardown),
        cmocka_unit_test_setup_teardown(commit_log_line_format, setup, teardown),
        cmocka_unit_test_setup_teardown(unit_registration, setup, teardown),
        cmocka_unit_test_setup_teardown(unbound_op_is_illegal_without_unit, setup, teardown),
        cmocka_unit_test_setup_teardown(csr_values, setup, teardown),
        cmocka_unit_test_setup_teardown(read_only_range_for_units, setup, teardown),
        cmocka_unit_test_setup_teardown(random_code_never_escapes, setup, teardown),
        cmocka_unit_test_setup_teardown(poll_right_after_window_store, setup, teardown),
        cmocka_unit_test_setup_teardown(pmp_write_applies_at_once, setup, teardown),
        cmocka_unit_test_setup_teardown(host_triggers, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
