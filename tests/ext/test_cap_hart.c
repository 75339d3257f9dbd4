/* test_cap_hart.c — the CAP and PMASK units attached to a real hart (xphmg_ext), driven
 * by instruction words encoded here by hand from the RISC-V base formats (I-type: imm
 * 31:20, rs1 19:15, funct3 14:12, rd 11:7, opcode 6:0) and errata Q-83 (`xcvt`: CUSTOM-0
 * 0x0B, funct3 010). Runs without the guest toolchain. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "cap_rt_profile.h"
#include "hart_rig.h"
#include "heap_in_use.h"
#include "mem.h"
#include "xphmg_ext.h"

/* Linked with -Wl,--wrap=calloc: every calloc of the units comes here, and fails once
 * when fail_next_calloc is set. */
void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size);
static bool fail_next_calloc;

void *__wrap_calloc(size_t n, size_t size)
{
    if (fail_next_calloc) {
        fail_next_calloc = false;
        return NULL;
    }
    return __real_calloc(n, size);
}

static uint32_t itype(uint32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
    return (imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}
#define CSRRS(rd, csr, rs1) itype(csr, rs1, 2, rd, 0x73)
#define CSRRW(rd, csr, rs1) itype(csr, rs1, 1, rd, 0x73)
#define CSRRC(rd, csr, rs1) itype(csr, rs1, 3, rd, 0x73)
#define CSRRWI(rd, csr, ui) itype(csr, ui, 5, rd, 0x73)
#define XCVT(rd, rs1, sel)  itype(sel, rs1, 2, rd, 0x0B)
enum { T0 = 5, A0 = 10, A1, A2, A3, A4, A5, A6, A7, S2, S3, S4 };

static void load(rig *r, const uint32_t *w, unsigned n)
{
    uint8_t *p = mem_ptr(r->m, RAM, 4 * n);
    assert_non_null(p);
    for (unsigned i = 0; i < n; i++)
        memcpy(p + 4 * i, &w[i], 4);
}

/* Attaching the units to a hart and freeing them gives back every byte (the units'
 * state, LDS backing, RT engine), and so does an attach refused because the hart's
 * CSRs are already owned: after a few warm-up rounds (the first three grow some one-time
 * state to its steady size; valgrind finds nothing left at exit) 32 more rounds leave the
 * heap as they found it. */
static void round_trip(const void *unused)
{
    (void)unused;
    rig r;
    char err[128];
    up(&r, NULL);
    assert_null(xphmg_ext_attach(r.h, NULL, err, sizeof err));
    down(&r);
}

/* Out of memory while attaching: no units, a message that says so. */
static void test_attach_oom(void **state)
{
    (void)state;
    sim_mem *m = mem_new(RAM, 1 << 20);
    assert_non_null(m);
    hart *h = hart_new(m, RAM);
    assert_non_null(h);
    char err[128] = "";
    fail_next_calloc = true;
    assert_null(xphmg_ext_attach(h, NULL, err, sizeof err));
    assert_false(fail_next_calloc);
    assert_string_equal(err, "out of memory");
    hart_free(h);
    mem_free(m);
}

/* Out of memory while reading a profile: no profile, a message that says so. */
static void test_profile_oom(void **state)
{
    (void)state;
    static const char yaml[] = "xphmg-profile: 1\nname: p\ncsrs:\n  cap_feat0: 0x8\n";
    char err[128] = "";
    fail_next_calloc = true;
    assert_null(cap_profile_parse(yaml, strlen(yaml), "p.yaml", err, sizeof err));
    assert_false(fail_next_calloc);
    assert_string_equal(err, "p.yaml: out of memory");
}

static void test_attach_frees(void **state)
{
    (void)state;
    assert_heap_balanced(round_trip, NULL, 8, 32, "attach/free");
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

/* Privilege and ownership: CAP M-mode only, PMASK user, absent banks illegal,
 * unassigned CAP addresses and the unimplemented RSV block read 0 (errata Q-12).
 * REQ: CAP-034 CAP-036 CAP-028 */
static void test_access(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    uint64_t v;
    assert_true(hart_csr_read(r.h, 0x7D6, &v));
    assert_int_equal(v, 0);
    assert_true(hart_csr_write(r.h, 0x7FF, ~UINT64_C(0)));
    assert_true(hart_csr_read(r.h, 0x7FF, &v));
    assert_int_equal(v, 0);
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
    /* two units cannot own the same resources twice, and the refusal says why */
    char err[128] = "";
    assert_null(xphmg_ext_attach(r.h, NULL, err, sizeof err));
    assert_non_null(strstr(err, "already owned"));
    down(&r);
}

/* cap_prof_sel (0xBC0) on the hart: the instruction after the write sees the new PROF.CUR
 * and the new advisory values; the written value follows Zicsr (csrs/csrc/csrwi).
 * REQ: CAP-068 CAP-069 CAP-074 CAP-067 */
static void test_prof_sel_boundary(void **state)
{
    (void)state;
    rig r;
    up(&r, rt_yaml);
    const uint32_t prog[] = {
        CSRRS(S2, 0x7C3, 0),  /* 0: CUR before: 0 */
        CSRRW(T0, 0xBC0, A1), /* 1: old index 0 into t0, select 2 */
        CSRRS(A0, 0x7C3, 0),  /* 2: CUR = 2 at the very next instruction */
        CSRRS(A2, 0x7C5, 0),  /* 3: FEAT0 of index 2: 0x108 */
        CSRRS(A3, 0xBC0, 0),  /* 4: 2 (csrrs with x0 writes nothing) */
        CSRRS(A4, 0xBC0, A5), /* 5: a5 = 1: writes 2 | 1 = 3, not in SUP: ignored */
        CSRRS(A6, 0x7C3, 0),  /* 6: still 2 */
        CSRRC(A7, 0xBC0, A1), /* 7: writes 2 & ~2 = 0: select 0 */
        CSRRS(S3, 0x7C5, 0),  /* 8: FEAT0 back to 0x118 */
        CSRRWI(0, 0xBC0, 1),  /* 9: select 1 */
        CSRRS(S4, 0x7C9, 0),  /* 10: TIER.WAVE of index 1: 3 */
    };
    load(&r, prog, sizeof prog / sizeof prog[0]);
    r.h->x[A1] = 2;
    r.h->x[A5] = 1;
    /* state of the other unit and of the policy, which no switch may touch (CAP 4.3.3) */
    assert_true(hart_csr_write(r.h, 0x801, 0x9));                  /* pmask1 */
    assert_true(hart_csr_write(r.h, 0x7D0, UINT64_C(0x80600000))); /* APPLY, PET INT8, EW 8 */
    hart_run(r.h, sizeof prog / sizeof prog[0]);
    assert_int_equal(r.h->traps, 0);
    assert_int_equal(r.h->pc, RAM + 4 * (sizeof prog / sizeof prog[0]));
    assert_int_equal(r.h->x[S2], 0);
    assert_int_equal(r.h->x[T0], 0);
    assert_int_equal(r.h->x[A0], 2);
    assert_int_equal(r.h->x[A2], 0x108);
    assert_int_equal(r.h->x[A3], 2);
    assert_int_equal(r.h->x[A4], 2);
    assert_int_equal(r.h->x[A6], 2);
    assert_int_equal(r.h->x[A7], 2);
    assert_int_equal(r.h->x[S3], 0x118);
    assert_int_equal(r.h->x[S4], 3);
    uint64_t v;
    assert_true(hart_csr_read(r.h, 0x7C3, &v));
    assert_int_equal(v, 1);
    assert_true(hart_csr_read(r.h, 0x801, &v));
    assert_int_equal(v, 0x9);
    assert_true(hart_csr_read(r.h, 0x7D2, &v));
    assert_int_equal(v, 0x30000000); /* STAT: EFF_PET 3 (31:28), EW 8 */
    /* hart_reset goes back to the profile's CUR (0) */
    hart_reset(r.h, RAM);
    assert_true(hart_csr_read(r.h, 0xBC0, &v));
    assert_int_equal(v, 0);
    assert_true(hart_csr_read(r.h, 0x7C9, &v));
    assert_int_equal(v, 0);
    down(&r);
}

/* 0xBC0 is a machine-mode CSR (csr[9:8] = 11): from U mode any access is an illegal
 * instruction (cause 2) and the profile does not change. REQ: CAP-074 */
static void test_prof_sel_umode(void **state)
{
    (void)state;
    rig r;
    up(&r, rt_yaml);
    uint64_t v;
    const uint32_t prog[] = {CSRRS(A0, 0xBC0, 0), CSRRW(0, 0xBC0, A1), CSRRWI(A0, 0xBC0, 1)};
    load(&r, prog, 3);
    r.h->x[A0] = 0x77;
    r.h->x[A1] = 2;
    for (unsigned i = 0; i < 3; i++) {
        r.h->priv = PRV_U;
        r.h->pc = RAM + 4 * i;
        r.h->mcause = 0;
        hart_run(r.h, 1);
        assert_int_equal(r.h->mcause, 2);
        assert_int_equal(r.h->mepc, RAM + 4 * i);
        assert_int_equal(r.h->pc, RAM + 0x1000);
        assert_int_equal(r.h->x[A0], 0x77);
        assert_int_equal(r.h->priv, PRV_M);
        assert_true(hart_csr_read(r.h, 0x7C3, &v));
        assert_int_equal(v, 0);
    }
    r.h->priv = PRV_U;
    assert_false(hart_csr_read(r.h, 0xBC0, &v));
    assert_false(hart_csr_write(r.h, 0xBC0, 1));
    r.h->priv = PRV_M;
    assert_true(hart_csr_write(r.h, 0xBC0, 1));
    assert_true(hart_csr_read(r.h, 0x7C3, &v));
    assert_int_equal(v, 1);
    down(&r);
}

/* P-180 on the hart: xcvt FMTSEL OSAE 10 traps under SAE_DEF=1, 11 does not under SAE_DEF=0,
 * 01 is illegal. REQ: CAP-123 CAP-012 */
static void test_xcvt_osae_hart(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    assert_true(hart_csr_write(r.h, 0x7D3, 0x4));                       /* EXC.EN = OF */
    assert_true(hart_csr_write(r.h, 0x7D0, UINT64_C(0xA0080000)));      /* APPLY|SAE_DEF|EW16 */
    const uint32_t prog[] = {XCVT(A2, A1, 0x001), XCVT(A2, A1, 0x201)}; /* 1e10 -> FP16 */
    load(&r, prog, 2);
    r.h->x[A1] = 0x501502F9;
    hart_run(r.h, 1); /* SAE_DEF: no trap, +inf */
    assert_int_equal(r.h->x[A2], 0x7C00);
    assert_int_equal(r.h->traps, 0);
    r.h->x[A2] = 0x55;
    hart_run(r.h, 1); /* OSAE 10: SAE 0 for this one, OF enabled: cause 24, mtval OF */
    assert_int_equal(r.h->mcause, 24);
    assert_int_equal(r.h->mtval, 0x4);
    assert_int_equal(r.h->mepc, RAM + 4);
    assert_int_equal(r.h->x[A2], 0x55);
    uint64_t v;
    assert_true(hart_csr_read(r.h, 0x7D0, &v));
    assert_int_equal(v, 0x20080000); /* MODE unchanged: SAE_DEF still 1 */
    down(&r);

    up(&r, NULL);
    assert_true(hart_csr_write(r.h, 0x7D3, 0x4));
    const uint32_t prog2[] = {XCVT(A2, A1, 0x301), XCVT(A3, A1, 0x001), XCVT(A4, A1, 0x101)};
    load(&r, prog2, 3);
    r.h->x[A1] = 0x501502F9;
    r.h->x[A3] = 0x66;
    hart_run(r.h, 1); /* OSAE 11: no trap */
    assert_int_equal(r.h->x[A2], 0x7C00);
    assert_int_equal(r.h->traps, 0);
    hart_run(r.h, 1); /* one-shot: the next plain xcvt traps */
    assert_int_equal(r.h->mcause, 24);
    assert_int_equal(r.h->mepc, RAM + 4);
    assert_int_equal(r.h->x[A3], 0x66);
    r.h->pc = RAM + 8;
    hart_run(r.h, 1); /* OSAE 01: illegal */
    assert_int_equal(r.h->mcause, 2);
    assert_int_equal(r.h->mepc, RAM + 8);
    down(&r);
}

/* The units work as attached, before any hart reset: with the default CAP.PMASK.CAP
 * (0x17: present, four banks, bank 0 all-ones) pmask0 reads all-ones and pmask1 keeps
 * what is written, through Zicsr and without a trap. REQ: CAP-059 */
static void test_pmask_attached(void **state)
{
    (void)state;
    rig r;
    up(&r, NULL);
    const uint32_t prog[] = {CSRRS(A0, 0x800, 0), CSRRW(0, 0x801, A1), CSRRS(A2, 0x801, 0)};
    load(&r, prog, 3);
    r.h->x[A1] = 0x5A5A;
    hart_run(r.h, 3);
    assert_int_equal(r.h->traps, 0);
    assert_int_equal(r.h->x[A0], ~UINT64_C(0));
    assert_int_equal(r.h->x[A2], 0x5A5A);
    down(&r);
}

/* `xmem.dstorec` (raw copy, COMP_CTL reset MODE 0) gives back the host buffers it works
 * in: after a few warm-up executions, 32 more leave the heap as they found it, and each
 * copies its 64 bytes (rd = 64). An `xmem.dstorec a0, a1, a2, a3` and a jump back to it.
 * REQ: XMEM-103 */
static void test_compress_frees(void **state)
{
    (void)state;
    rig r;
    up(&r, "xphmg-profile: 1\nname: c\ncsrs:\n  cap_xmem_cap: {COMPRESS: 1}\n");
    const uint32_t dstorec = (uint32_t)A3 << 27 | (uint32_t)A2 << 20 | (uint32_t)A1 << 15 |
                             5u << 12 | (uint32_t)A0 << 7 | 0x5b;
    const uint32_t prog[] = {dstorec, 0xffdff06fu /* jal x0, -4 */};
    load(&r, prog, 2);
    uint8_t *src = mem_ptr(r.m, RAM + 0x3000, 64), *dst = mem_ptr(r.m, RAM + 0x2000, 64);
    assert_non_null(src);
    assert_non_null(dst);
    for (unsigned i = 0; i < 64; i++)
        src[i] = (uint8_t)(0x40 + i);
    r.h->x[A1] = RAM + 0x2000;
    r.h->x[A2] = RAM + 0x3000;
    r.h->x[A3] = UINT64_C(256) << 32 | 64;
    hart_run(r.h, 8);
    assert_int_equal(r.h->traps, 0);
    assert_int_equal(r.h->x[A0], 64);
    assert_memory_equal(dst, src, 64);
    size_t before = heap_in_use();
    hart_run(r.h, 64);
    assert_int_equal(r.h->traps, 0);
    if (heap_in_use() != before)
        fail_msg("%zu bytes in use before, %zu after 32 xmem.dstorec", before, heap_in_use());
    down(&r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csr_and_xcvt),
        cmocka_unit_test(test_trap),
        cmocka_unit_test(test_access),
        cmocka_unit_test(test_reset),
        cmocka_unit_test(test_attach_frees),
        cmocka_unit_test(test_attach_oom),
        cmocka_unit_test(test_profile_oom),
        cmocka_unit_test(test_profile),
        cmocka_unit_test(test_prof_sel_boundary),
        cmocka_unit_test(test_prof_sel_umode),
        cmocka_unit_test(test_xcvt_osae_hart),
        cmocka_unit_test(test_pmask_attached),
        cmocka_unit_test(test_compress_frees),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
