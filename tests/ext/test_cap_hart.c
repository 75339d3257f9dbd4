/* test_cap_hart.c — the CAP and PMASK units attached to a real hart (xphmg_ext), driven
 * by instruction words encoded here by hand from the RISC-V base formats (I-type: imm
 * 31:20, rs1 19:15, funct3 14:12, rd 11:7, opcode 6:0) and errata Q-83 (`xcvt`: CUSTOM-0
 * 0x0B, funct3 010). Runs without the guest toolchain. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hart.h"
#include "mem.h"
#include "xphmg_ext.h"

#define RAM 0x80000000u

static uint32_t itype(uint32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
    return (imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
#define CSRRS(rd, csr, rs1) itype(csr, rs1, 2, rd, 0x73)
#define CSRRW(rd, csr, rs1) itype(csr, rs1, 1, rd, 0x73)
#define XCVT(rd, rs1, sel)  itype(sel, rs1, 2, rd, 0x0B)
enum { A0 = 10, A1 = 11, A2 = 12 };

typedef struct {
    sim_mem *m;
    hart *h;
    xphmg_ext *e;
    cap_profile *p;
} rig;

static void load(rig *r, const uint32_t *w, unsigned n)
{
    uint8_t *p = mem_ptr(r->m, RAM, 4 * n);
    assert_non_null(p);
    for (unsigned i = 0; i < n; i++)
        memcpy(p + 4 * i, &w[i], 4);
}

static void up(rig *r, const char *profile_yaml)
{
    char err[256];
    memset(r, 0, sizeof *r);
    r->m = mem_new(RAM, 1 << 20);
    assert_non_null(r->m);
    r->h = hart_new(r->m, RAM);
    assert_non_null(r->h);
    if (profile_yaml) {
        r->p = cap_profile_parse(profile_yaml, strlen(profile_yaml), "t", err, sizeof err);
        assert_non_null(r->p);
    }
    r->e = xphmg_ext_attach(r->h, r->p, err, sizeof err);
    assert_non_null(r->e);
    r->h->mtvec = RAM + 0x1000; /* traps land here (an all-zero word: illegal, stops) */
}

static void down(rig *r)
{
    hart_free(r->h);
    xphmg_ext_free(r->e);
    cap_profile_free(r->p);
    mem_free(r->m);
}

/* CSR reads through Zicsr and `xcvt` executed by the hart. REQ: CAP-039 CAP-047 */
static void test_csr_and_xcvt(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    const uint32_t prog[] = {CSRRS(A0, 0x7C0, 0), XCVT(A2, A1, 0x01)};
    load(&r, prog, 2);
    r.h->x[A1] = 0x3F800000;
    hart_run(r.h, 2);
    assert_int_equal(r.h->x[A0], 0x50484D47);
    assert_int_equal(r.h->x[A2], 0x3C00);
    assert_int_equal(r.h->pc, RAM + 8);
    assert_int_equal(r.h->traps, 0);
    down(&r);
}

/* An enabled exception: cause 24, mtval = the enabled raised flags, rd kept, EXC.ST set.
 * REQ: CAP-124 CAP-125 */
static void test_trap(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    assert_true(hart_csr_write(r.h, 0x7D3, 0x4)); /* EXC.EN = OF */
    const uint32_t prog[] = {XCVT(A2, A1, 0x01)};
    load(&r, prog, 1);
    r.h->x[A1] = 0x501502F9; /* 1e10 -> FP16 overflows */
    r.h->x[A2] = 0x55;
    hart_run(r.h, 1);
    assert_int_equal(r.h->mcause, 24);
    assert_int_equal(r.h->mtval, 0x4);
    assert_int_equal(r.h->mepc, RAM);
    assert_int_equal(r.h->pc, RAM + 0x1000);
    assert_int_equal(r.h->x[A2], 0x55);
    uint64_t st;
    assert_true(hart_csr_read(r.h, 0x7D4, &st));
    assert_int_equal(st, 0x5); /* OF|NX */
    down(&r);
}

/* Privilege and ownership: CAP M-mode only, PMASK user, RSV and absent banks illegal,
 * unassigned CAP addresses read 0. REQ: CAP-034 CAP-036 CAP-028 */
static void test_access(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    uint64_t v;
    assert_true(hart_csr_read(r.h, 0x7D6, &v));
    assert_int_equal(v, 0);
    assert_false(hart_csr_read(r.h, 0x7F8, &v));
    assert_false(hart_csr_read(r.h, 0x804, &v));
    assert_true(hart_csr_read(r.h, 0x800, &v));
    assert_int_equal(v, ~UINT64_C(0));
    r.h->priv = PRV_U;
    assert_false(hart_csr_read(r.h, 0x7C0, &v));
    assert_true(hart_csr_write(r.h, 0x801, 0x9));
    assert_true(hart_csr_read(r.h, 0x801, &v));
    assert_int_equal(v, 0x9);
    /* an illegal xcvt from U mode is still cause 2; a legal one runs */
    const uint32_t prog[] = {XCVT(A0, A1, 0x01), XCVT(A0, A1, 0x61)};
    load(&r, prog, 2);
    r.h->x[A1] = 0x3F800000;
    hart_run(r.h, 2);
    assert_int_equal(r.h->x[A0], 0x3C00);
    assert_int_equal(r.h->mcause, 2);
    down(&r);
}

/* hart_reset resets the units: PREC back to reset, stickies clear, banks clear.
 * REQ: CAP-159 CAP-161 */
static void test_reset(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    const uint32_t prog[] = {CSRRW(0, 0x7D0, A1)};
    load(&r, prog, 1);
    r.h->x[A1] = 0x80600000; /* APPLY, PET INT8, EW 8 */
    hart_run(r.h, 1);
    uint64_t v;
    assert_true(hart_csr_read(r.h, 0x7D2, &v));
    assert_int_equal(v, 0x30000000);
    assert_true(hart_csr_write(r.h, 0x802, 7));
    hart_reset(r.h, RAM);
    assert_true(hart_csr_read(r.h, 0x7D2, &v));
    assert_int_equal(v, 0x04000000);
    assert_true(hart_csr_read(r.h, 0x7D0, &v));
    assert_int_equal(v, 0x80000);
    assert_true(hart_csr_read(r.h, 0x802, &v));
    assert_int_equal(v, 0);
    down(&r);
}

/* The profile reaches both units. REQ: CAP-163 */
static void test_profile(void **state)
{
    (void)state;
    rig r;
    up(&r, "xphmg-profile: 1\nname: p\ncsrs:\n  cap_pmask_cap: 0x13\n  cap_feat0: 0x8\n");
    uint64_t v;
    assert_true(hart_csr_read(r.h, 0x7C5, &v));
    assert_int_equal(v, 0x8);
    assert_true(hart_csr_read(r.h, 0x801, &v));
    assert_false(hart_csr_read(r.h, 0x802, &v));
    /* two units cannot own the same resources twice */
    char err[128];
    assert_null(xphmg_ext_attach(r.h, NULL, err, sizeof err));
    down(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csr_and_xcvt), cmocka_unit_test(test_trap),
        cmocka_unit_test(test_access),       cmocka_unit_test(test_reset),
        cmocka_unit_test(test_profile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
