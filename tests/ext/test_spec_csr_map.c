/* test_spec_csr_map.c — the CSR map of spec/xphmg.xml (ISA/Registers, X-19) against the
 * CAP specification and docs/errata.md, written out here by hand: every CAP, XMEM and
 * PMASK CSR at its address with its access type and reset value (CAP 3, 4, errata Q-02,
 * ..Q-39, Q-43, Q-36), the PREC field layouts (Q-14..Q-22, Q-27),
 * the privilege implied by the addresses, nothing else in 0x7C0-0x7FF (Q-03,
 * Q-12), and OPR_CSR listing the same names and addresses (P-73).
 *
 * Usage: test_spec_csr_map SPEC.xml... (the files xphmg-gen reads). The generated table
 * (xcsr.h) is checked too, so the simulator's view and the XML agree. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "xcsr.h"
#include "xphmg/isa.h"

typedef struct {
    const char *name;
    uint32_t addr;
    const char *access;
    uint64_t reset;
} exp_reg;

/* CAP 4.1-4.6 tables; reset values from errata, XMEM Q-38,
 * PMASK Q-36. */
static const exp_reg regs[] = {
    {"cap_id", 0x7C0, "RO", 0x50484D47},
    {"cap_vers", 0x7C1, "RO", 0x00010100},
    {"cap_flags", 0x7C2, "RO", 0},
    {"cap_prof_cur", 0x7C3, "RO", 0},
    {"cap_prof_sup", 0x7C4, "RO", 0},
    {"cap_feat0", 0x7C5, "RO", 0x118},
    {"cap_feat1", 0x7C6, "RO", 0x7},
    {"cap_pmask_cap", 0x7C7, "RO", 0x17},
    {"cap_tier_reg", 0x7C8, "RO", 0},
    {"cap_tier_wave", 0x7C9, "RO", 0},
    {"cap_tier_lds", 0x7CA, "RO", 0x0010007C},
    {"cap_tier_samp", 0x7CB, "RO", 0},
    {"cap_tier_rt", 0x7CC, "RO", 0},
    {"cap_hint_align", 0x7CD, "RO", 0x4},
    {"cap_hint_bvhgr", 0x7CE, "RO", 0},
    {"cap_hint_ldsbk", 0x7CF, "RO", 0x2},
    {"cap_prec_mode", 0x7D0, "RW", 0x80000},
    {"cap_prec_alt", 0x7D1, "RW", 0},
    {"cap_prec_stat", 0x7D2, "RO", 0x04000000},
    {"cap_prec_exc_en", 0x7D3, "RW", 0},
    {"cap_prec_exc_st", 0x7D4, "W1C", 0},
    {"cap_prec_rsv0", 0x7D5, "RO", 0},
    {"cap_prec_alu", 0x7D8, "RO", 0x1F3F}, /* P-179: BF16_LITE (bit 12) */
    {"cap_prec_tex", 0x7D9, "RO", 0},
    {"cap_prec_img", 0x7DA, "RO", 0},
    {"cap_prec_rt", 0x7DB, "RO", 0x3F},
    {"cap_prec_cap", 0x7DC, "RO", 0x003E7F3F}, /* ALT_SUP 1-5 */
    {"cap_prec_fp8", 0x7DD, "RO", 0x7},
    {"cap_prec_intq", 0x7DE, "RO", 0x7},
    {"cap_prec_hyb", 0x7DF, "RO", 0},
    {"cap_xmem_cap", 0x7E0, "RO", 0x677},
    {"cap_xmem_params", 0x7E1, "RO", 0x30860040},
    {"cap_xmem_l1cfg", 0x7E2, "RW", 0},
    {"cap_xmem_clsmap", 0x7E3, "RW", 0xFF},
    {"cap_xmem_lds_budget", 0x7E4, "RW", 0},
    {"cap_xmem_l2cfg", 0x7E5, "RW", 0},
    {"cap_xmem_dom", 0x7E6, "RW", 0},
    {"cap_xmem_stream_ctl", 0x7E7, "RW", 0},
    {"cap_xmem_sprof0", 0x7E8, "RW", 0},
    {"cap_xmem_sprof1", 0x7E9, "RW", 0},
    {"cap_xmem_sprof2", 0x7EA, "RW", 0},
    {"cap_xmem_sprof3", 0x7EB, "RW", 0},
    {"cap_xmem_comp_ctl", 0x7EC, "RW", 0},
    {"cap_xmem_descpol", 0x7ED, "RW", 0x4},
    {"cap_xmem_events", 0x7EE, "W1C", 0},
    {"cap_xmem_svmbase", 0x7F0, "RW", 0},
    {"cap_xmem_svmidx", 0x7F1, "RW", 0},
    {"cap_xmem_svmscl", 0x7F2, "RW", 0},
    {"cap_xmem_svmlen", 0x7F3, "RW", 0},
    {"cap_xmem_svmmode", 0x7F4, "RW", 0},
    {"pmask0", 0x800, "RO", 0xFFFFFFFFFFFFFFFF},
    {"pmask1", 0x801, "RW", 0},
    {"pmask2", 0x802, "RW", 0},
    {"pmask3", 0x803, "RW", 0},
    {"cap_prof_sel", 0xBC0, "RW", 0}, /* P-177: machine custom read/write */
};
#define NREGS (sizeof regs / sizeof regs[0])

typedef struct {
    const char *reg, *field;
    unsigned lo, width;
} exp_field;

/* Errata Q-14/Q-15/Q-20 (MODE), Q-16 (ALT), Q-21/Q-22 (STAT), Q-27 (EXC), Q-34 (PMASK),
 * Q-37 (PREC.CAP), CAP 4.1.2 (FLAGS), 4.2.1.1 (PMASK.CAP), 4.6.1 (PARAMS), 4.6.2. */
static const exp_field fields[] = {
    {"cap_flags", "RUNTIME_MUTABLE", 0, 1},
    {"cap_flags", "HAS_PROFILES", 1, 1},
    {"cap_prof_sel", "IDX", 0, 5},
    {"cap_vers", "MAJOR", 24, 8},
    {"cap_vers", "MINOR", 16, 8},
    {"cap_vers", "PATCH", 8, 8},
    {"cap_pmask_cap", "PMASK_PRESENT", 0, 1},
    {"cap_pmask_cap", "PMASK_BANKS_M1", 1, 3},
    {"cap_pmask_cap", "BANK0_ALLONES", 4, 1},
    {"cap_feat0", "BINDLESS", 0, 1},
    {"cap_feat0", "RT_PRESENT", 3, 1},
    {"cap_feat0", "PMU_PRESENT", 9, 1},
    {"cap_prec_mode", "NAN_POL", 0, 2},
    {"cap_prec_mode", "SAE", 2, 1},
    {"cap_prec_mode", "ZMODE", 3, 1},
    {"cap_prec_mode", "UNS", 4, 1},
    {"cap_prec_mode", "Q", 5, 1},
    {"cap_prec_mode", "ZP", 6, 8},
    {"cap_prec_mode", "ZP_EN", 14, 2},
    {"cap_prec_mode", "SAT_MODE", 16, 1},
    {"cap_prec_mode", "PACK", 17, 2},
    {"cap_prec_mode", "EW", 19, 2},
    {"cap_prec_mode", "PET", 21, 3},
    {"cap_prec_mode", "ACCW", 24, 2},
    {"cap_prec_mode", "FP_RMODE", 27, 2},
    {"cap_prec_mode", "SAE_DEF", 29, 1},
    {"cap_prec_mode", "SAT", 30, 1},
    {"cap_prec_mode", "APPLY0", 31, 1},
    {"cap_prec_mode", "DENORM_FTZ", 26, 1},
    {"cap_prec_mode", "SCALE_SH", 33, 7},
    {"cap_prec_alt", "VER", 0, 3},
    {"cap_prec_alt", "PACK", 3, 3},
    {"cap_prec_alt", "ZP_OFFS", 6, 8},
    {"cap_prec_alt", "ZP", 14, 8},
    {"cap_prec_alt", "ALT_SAT", 22, 1},
    {"cap_prec_alt", "MIXED", 23, 1},
    {"cap_prec_alt", "ALT_ACCW", 24, 2},
    {"cap_prec_alt", "ALT_FMT", 26, 4},
    {"cap_prec_alt", "ALT_EN", 30, 1},
    {"cap_prec_alt", "APPLY1", 31, 1},
    {"cap_prec_stat", "IE_MASK", 0, 5},
    {"cap_prec_stat", "EFF_NAN_POL", 8, 2},
    {"cap_prec_stat", "EFF_SAE", 10, 1},
    {"cap_prec_stat", "EFF_ZMODE", 11, 1},
    {"cap_prec_stat", "FTZ_HIT", 12, 1},
    {"cap_prec_stat", "SAT_HIT", 13, 1},
    {"cap_prec_stat", "DOWNCAST_TAKEN", 14, 1},
    {"cap_prec_stat", "UNSUP_FMT", 15, 1},
    {"cap_prec_stat", "EFF_PACK", 16, 2},
    {"cap_prec_stat", "EFF_Q", 18, 1},
    {"cap_prec_stat", "EFF_FP_RMODE", 19, 3},
    {"cap_prec_stat", "EFF_SAT", 22, 1},
    {"cap_prec_stat", "EFF_ALT_EN", 23, 1},
    {"cap_prec_stat", "EFF_ACCW", 24, 2},
    {"cap_prec_stat", "EFF_EW", 26, 2},
    {"cap_prec_stat", "EFF_PET", 28, 4},
    {"cap_prec_stat", "EFF_UNS", 32, 1},
    {"cap_prec_stat", "EFF_SAT_MODE", 33, 1},
    {"cap_prec_stat", "EFF_DENORM_FTZ", 34, 1},
    {"cap_prec_stat", "EFF_MIXED", 35, 1},
    {"cap_prec_stat", "EFF_ZP_EN", 36, 2},
    {"cap_prec_stat", "EFF_ZP", 38, 8},
    {"cap_prec_stat", "EFF_SCALE_SH", 46, 7},
    {"cap_prec_exc_en", "NX", 0, 1},
    {"cap_prec_exc_en", "UF", 1, 1},
    {"cap_prec_exc_en", "OF", 2, 1},
    {"cap_prec_exc_en", "DZ", 3, 1},
    {"cap_prec_exc_en", "NV", 4, 1},
    {"cap_prec_exc_st", "NX", 0, 1},
    {"cap_prec_exc_st", "NV", 4, 1},
    {"cap_prec_exc_st", "QNAN_SEEN", 5, 1},
    {"cap_prec_exc_st", "SNAN_SEEN", 6, 1},
    {"cap_prec_cap", "PET_SUP", 0, 8},
    {"cap_prec_cap", "ACCW_SUP", 8, 4},
    {"cap_prec_cap", "EW_SUP", 12, 4},
    {"cap_prec_cap", "ALT_SUP", 16, 16},
    {"cap_xmem_params", "LDS_KIB", 0, 16},
    {"cap_xmem_params", "L1_LINE_LOG2", 16, 4},
    {"cap_xmem_params", "L1_WAYS", 20, 8},
    {"cap_xmem_params", "MAX_SPROF", 28, 4},
    {"cap_xmem_l1cfg", "WAYS_HINT", 0, 8},
    {"cap_xmem_l1cfg", "LINE_SZ", 8, 8},
    {"cap_xmem_l1cfg", "REPL", 16, 4},
    {"cap_xmem_l1cfg", "LOCK_EN", 20, 1},
    {"cap_xmem_l1cfg", "ACTIVE_CLASS", 24, 8},
    {"cap_xmem_l2cfg", "VICT", 0, 4},
    {"cap_xmem_l2cfg", "QOS", 4, 4},
    {"cap_xmem_l2cfg", "SNC", 8, 1},
    {"cap_xmem_l2cfg", "COMP_THR", 9, 7},
    {"cap_xmem_dom", "DOM", 0, 4},
    {"pmask1", "LANES", 0, 64},
};

static const char *const *spec_files;
static int spec_count;

static const char *acc_name(uint8_t a)
{
    static const char *const n[] = {"RW", "RO", "WARL", "W1C", "WO"};
    return a < 5 ? n[a] : "?";
}

/* REQ: CAP-033 CAP-038 CAP-039 CAP-046 CAP-055 CAP-076 CAP-129 CAP-135 CAP-138 CAP-145
 * REQ: CAP-047 CAP-048 CAP-122 CAP-159 CAP-160 CAP-161 CAP-007 CAP-040
 * REQ: CAP-118 (as resolved by errata) CAP-060 CAP-063 CAP-051 */
static void test_generated_table(void **state)
{
    (void)state;
    for (size_t i = 0; i < NREGS; i++) {
        const xcsr_reg *r = xcsr_find(regs[i].addr);
        if (!r) fail_msg("0x%x (%s) missing", regs[i].addr, regs[i].name);
        if (strcmp(r->name, regs[i].name) || strcmp(acc_name(r->access), regs[i].access) ||
            r->reset != regs[i].reset)
            fail_msg("0x%x: got %s %s 0x%llx, want %s %s 0x%llx", regs[i].addr, r->name,
                     acc_name(r->access), (unsigned long long)r->reset, regs[i].name,
                     regs[i].access, (unsigned long long)regs[i].reset);
        assert_ptr_equal(xcsr_find_name(regs[i].name), r);
    }
    /* nothing else in 0x7C0-0x7FF: unassigned addresses and RSV */
    for (uint32_t a = 0x7C0; a <= 0x7FF; a++) {
        bool listed = false;
        for (size_t i = 0; i < NREGS; i++)
            listed |= regs[i].addr == a;
        if (!listed && xcsr_find(a))
            fail_msg("0x%x (%s) is not in the CAP map", a, xcsr_find(a)->name);
    }
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        const xcsr_reg *r = xcsr_find_name(fields[i].reg);
        assert_non_null(r);
        const xcsr_field *f = xcsr_find_field(r, fields[i].field);
        if (!f || f->lo != fields[i].lo || f->width != fields[i].width)
            fail_msg("%s.%s: want %u+%u", fields[i].reg, fields[i].field, fields[i].lo,
                     fields[i].width);
    }
}

/* the CAP window is M-mode only (csr[9:8] = 3) and read/write (csr[11:10] != 3);
 * the PMASK banks are in the user read/write custom range; the profile select (P-177) is
 * in the machine custom read/write range 0xBC0-0xBFF. Block ownership of Table 3.1.
 * REQ: CAP-037 CAP-038 CAP-035 */
static void test_privilege_and_blocks(void **state)
{
    (void)state;
    for (size_t i = 0; i < NREGS; i++) {
        uint32_t a = regs[i].addr;
        const xcsr_reg *r = xcsr_find(a);
        if (a < 0x800) {
            assert_int_equal((a >> 8) & 3, 3);
            assert_int_not_equal((a >> 10) & 3, 3);
            const char *unit = a >= 0x7E0 ? "XMEM" : "CAP";
            if (strcmp(r->unit, unit))
                fail_msg("%s: unit %s, block of 0x%x is %s", r->name, r->unit, a, unit);
        } else if (a >= 0xBC0 && a <= 0xBFF) {
            assert_int_equal((a >> 8) & 3, 3);
            assert_int_equal((a >> 10) & 3, 2);
            assert_string_equal(r->unit, "CAP");
        } else {
            assert_int_equal((a >> 8) & 3, 0);
            assert_int_equal((a >> 10) & 3, 2);
            assert_string_equal(r->unit, "PMASK");
        }
    }
}

/* P-73: OPR_CSR lists every ISA/Registers name and address, and the XML loads with the
 * same map as the generated table. */
static void test_xml_and_opr_csr(void **state)
{
    (void)state;
    unsigned most = 0;
    assert_true(spec_count > 0);
    for (int k = 0; k < spec_count; k++) {
        char err[512];
        isa_spec *s = isa_load(spec_files[k], err, sizeof err);
        if (!s) fail_msg("%s", err);
        const isa_operand_type *t = isa_find_operand_type(s, "OPR_CSR");
        unsigned n = isa_register_count(s);
        most = n > most ? n : most;
        for (unsigned i = 0; i < n; i++) {
            const isa_register *r = isa_register_at(s, i);
            const isa_predef *p = t ? isa_predef_by_value(t, r->address) : NULL;
            if (!p || strcmp(p->name, r->name))
                fail_msg("%s: register %s 0x%x has no OPR_CSR entry of that name", spec_files[k],
                         r->name, r->address);
            const xcsr_reg *x = xcsr_find(r->address);
            if (!x || strcmp(x->name, r->name) || x->reset != r->reset_value)
                fail_msg("%s: %s differs from the generated table", spec_files[k], r->name);
        }
        for (size_t i = 0; n && i < NREGS; i++)
            if (!isa_find_register(s, regs[i].name))
                fail_msg("%s: %s missing", spec_files[k], regs[i].name);
        isa_free(s);
    }
    assert_true(most >= NREGS); /* the map was really read */
}

int main(int argc, char **argv)
{
    spec_files = (const char *const *)argv + 1;
    spec_count = argc - 1;
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_generated_table),
        cmocka_unit_test(test_privilege_and_blocks),
        cmocka_unit_test(test_xml_and_opr_csr),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
