/* test_cap.c — host tests of the XPHMG_CAP CSR file (src/ext/cap/cap.h): every CSR
 * rule of CAP 3-5 and the decisions of docs/errata.md "## CAP". Expected values are
 * written out by hand from the spec tables and the errata layouts (never taken from the
 * generated header or the code under test). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "cap.h"
#include "cap_fields.h"
#include "cap_profile.h"
#include "cap_rt_profile.h"
#include "cap_unit.h"

/* CSR numbers (CAP 4 tables). */
enum {
    ID = 0x7C0,
    VERS = 0x7C1,
    FLAGS = 0x7C2,
    PROF_CUR = 0x7C3,
    PROF_SUP = 0x7C4,
    FEAT0 = 0x7C5,
    FEAT1 = 0x7C6,
    PMASK_CAP = 0x7C7,
    TIER_LDS = 0x7CA,
    HINT_LDSBK = 0x7CF,
    MODE = 0x7D0,
    ALT = 0x7D1,
    STAT = 0x7D2,
    EXC_EN = 0x7D3,
    EXC_ST = 0x7D4,
    RSV0 = 0x7D5,
    PREC_ALU = 0x7D8,
    PREC_CAP = 0x7DC,
    PREC_HYB = 0x7DF,
    XMEM_CAP = 0x7E0,
    XMEM_PARAMS = 0x7E1,
    L1CFG = 0x7E2,
    CLSMAP = 0x7E3,
    LDS_BUDGET = 0x7E4,
    L2CFG = 0x7E5,
    DOM = 0x7E6,
    STREAM_CTL = 0x7E7,
    SPROF0 = 0x7E8,
    SPROF3 = 0x7EB,
    COMP_CTL = 0x7EC,
    DESCPOL = 0x7ED,
    EVENTS = 0x7EE,
    SVMSCL = 0x7F2,
    SVMLEN = 0x7F3,
    SVMMODE = 0x7F4,
};
/* EXC bits, fflags order (CAP 4.4.1 #4, errata Q-27). */
#define NX        0x01u
#define UF        0x02u
#define OF        0x04u
#define DZ        0x08u
#define NV        0x10u
#define QNAN_SEEN 0x20u
#define SNAN_SEEN 0x40u

static cap_state C;

static uint64_t r(uint32_t a)
{
    uint64_t v = 0xdeadbeef;
    assert_true(cap_csr_read(&C, a, &v));
    return v;
}
static void w(uint32_t a, uint64_t v)
{
    assert_true(cap_csr_write(&C, a, v));
}

static int setup(void **state)
{
    (void)state;
    cap_reset(&C, NULL);
    return 0;
}

/* REQ: CAP-047 CAP-048 CAP-122 CAP-159 CAP-160 CAP-161 CAP-163 CAP-051 CAP-049
 * REQ: CAP-018 (CAP.TIER.LDS: exactly its fields, undefined bits zero) */
static void test_reset_values(void **state)
{
    (void)state;
    assert_int_equal(r(ID), 0x50484D47);
    assert_int_equal(r(VERS), 0x00010100); /* 0.1.1: Major 31:24, Minor 23:16, Patch 15:8 */
    assert_int_equal(r(FLAGS), 0);
    assert_int_equal(r(PROF_CUR), 0);
    assert_int_equal(r(PROF_SUP), 0);
    assert_int_equal(r(FEAT0), 0x118);
    assert_int_equal(r(FEAT1), 0x7);
    assert_int_equal(r(PMASK_CAP), 0x17);
    assert_int_equal(r(TIER_LDS), 0x0010007C);
    /* MODE: PET FP16 (0), EW 16 (01 at 20:19), ACCW FP32 (0), RNE, ZMODE merge, SAE_DEF 0,
     * NAN_POL propagate: 0x80000 (errata Q-32). */
    assert_int_equal(r(MODE), 0x80000);
    assert_int_equal(r(ALT), 0);
    assert_int_equal(r(STAT), 0x04000000); /* EFF_EW = 16 at 27:26, all else 0 */
    assert_int_equal(r(EXC_EN), 0);
    assert_int_equal(r(EXC_ST), 0);
    assert_int_equal(r(RSV0), 0);
    assert_int_equal(r(CLSMAP), 0xFF); /* CL0 = all ways (errata Q-43) */
    assert_int_equal(r(DESCPOL), 0x4);
    assert_int_equal(r(L1CFG), 0); /* ACTIVE_CLASS 0 */
    assert_int_equal(r(XMEM_CAP), 0x677);
    assert_int_equal(r(XMEM_PARAMS), 0x30860040);
}

/* Every RO CSR ignores writes, without a trap. REQ: CAP-041 CAP-046 CAP-055 CAP-073
 * REQ: CAP-082 CAP-129 CAP-009 CAP-002 CAP-130 CAP-063 */
static void test_ro_ignore_writes(void **state)
{
    (void)state;
    static const uint32_t ro[] = {0x7C0, 0x7C1, 0x7C2, 0x7C3, 0x7C4, 0x7C5, 0x7C6,
                                  0x7C7, 0x7C8, 0x7C9, 0x7CA, 0x7CB, 0x7CC, 0x7CD,
                                  0x7CE, 0x7CF, 0x7D2, 0x7D5, 0x7D8, 0x7D9, 0x7DA,
                                  0x7DB, 0x7DC, 0x7DD, 0x7DE, 0x7DF, 0x7E0, 0x7E1};
    for (size_t i = 0; i < sizeof ro / sizeof ro[0]; i++) {
        uint64_t before = r(ro[i]);
        w(ro[i], ~UINT64_C(0));
        assert_int_equal(r(ro[i]), before);
        w(ro[i], 0);
        assert_int_equal(r(ro[i]), before);
    }
    /* The capability descriptors do not alter the policy: STAT is unchanged. */
    assert_int_equal(r(STAT), 0x04000000);
    /* The discovery image holds CAP's descriptors only: nothing outside 0x7C0-0x7F7. */
    assert_int_equal(cap_discovery(&C, 0x7C0), 0x50484D47);
    assert_int_equal(cap_discovery(&C, 0x7BF), 0);
    assert_int_equal(cap_discovery(&C, 0x7F8), 0);
    assert_int_equal(cap_discovery(&C, 0xBC0), 0);
}

/* Unassigned addresses in the window read zero and ignore writes, and so does the whole
 * unimplemented RSV block 0x7F8-0x7FF (errata Q-12), which holds no CAP state.
 * REQ: CAP-034 CAP-076 CAP-138 CAP-145 CAP-036 CAP-033 CAP-038 CAP-035 */
static void test_unassigned_addresses(void **state)
{
    (void)state;
    static const uint32_t un[] = {0x7D6, 0x7D7, 0x7EF, 0x7F5, 0x7F6, 0x7F7};
    for (size_t i = 0; i < sizeof un / sizeof un[0]; i++) {
        w(un[i], ~UINT64_C(0));
        assert_int_equal(r(un[i]), 0);
    }
    uint64_t v;
    for (uint32_t a = 0x7F8; a <= 0x7FF; a++) {
        assert_true(cap_csr_write(&C, a, ~UINT64_C(0)));
        v = 1;
        assert_true(cap_csr_read(&C, a, &v));
        assert_int_equal(v, 0);
    }
    assert_false(cap_csr_read(&C, 0x7BF, &v));
}

/* Bits outside the fields read zero and ignore writes. REQ: CAP-010 CAP-077 CAP-164
 * REQ: CAP-132 CAP-040 CAP-083 CAP-097 CAP-056 */
static void test_reserved_bits(void **state)
{
    (void)state;
    /* MODE fields: 30:0 (DENORM_FTZ at 26, errata Q-20), SCALE_SH 39:33; APPLY0 reads
     * 0. Bit 63 clear: every field is written (staged only). */
    w(MODE, ~UINT64_C(0) >> 1 & ~APPLY);
    assert_int_equal(r(MODE), UINT64_C(0xFE7FFFFFFF));
    /* bit 63 set (a sign-extended value): SCALE_SH is written as 0 (errata) */
    w(MODE, ~UINT64_C(0) & ~APPLY);
    assert_int_equal(r(MODE), UINT64_C(0x7FFFFFFF));
    w(ALT, ~UINT64_C(0) & ~APPLY);
    assert_int_equal(r(ALT), 0x7FFFFFFF);
    w(EXC_EN, ~UINT64_C(0));
    assert_int_equal(r(EXC_EN), 0x1F);
    w(L1CFG, ~UINT64_C(0)); /* RSV 23:21 reads 0; ACTIVE_CLASS WARL 0-3 */
    assert_int_equal(r(L1CFG), 0x031FFFFF);
    w(DOM, ~UINT64_C(0));
    assert_int_equal(r(DOM), 0xF);
    w(SVMMODE, ~UINT64_C(0)); /* COMPRESS_EN/EXPAND_EN gated off: only 1:0 */
    assert_int_equal(r(SVMMODE), 0x3);
}

/* MODE/ALT writes without APPLY are staged: read back, but EFF/STAT and the policy do
 * not change. REQ: CAP-045 CAP-044 CAP-156 CAP-043 */
static void test_staging_invisible(void **state)
{
    (void)state;
    cap_snap s0, s1;
    cap_snapshot(&C, &s0);
    w(MODE, M_PET(1) | M_EW(2) | M_RM(1) | M_SAT);
    w(ALT, A_EN | A_FMT(2));
    assert_int_equal(r(MODE), M_PET(1) | M_EW(2) | M_RM(1) | M_SAT); /* staged image */
    assert_int_equal(r(STAT), 0x04000000);
    cap_snapshot(&C, &s1);
    /* field by field: the struct has padding */
    assert_int_equal(s0.pol.rm, s1.pol.rm);
    assert_int_equal(s0.pol.sat, s1.pol.sat);
    assert_int_equal(s0.stat, s1.stat);
    assert_int_equal(s1.pet, 0);
}

/* APPLY0 latches the whole MODE atomically, APPLY0 reads 0; a csrs of APPLY after
 * staging applies the staged image (errata Q-23). REQ: CAP-084 CAP-098 CAP-116 CAP-119 */
static void test_apply(void **state)
{
    (void)state;
    w(MODE, APPLY | M_PET(1) | M_EW(2) | M_RM(1) | M_SAT);
    assert_int_equal(r(MODE), M_PET(1) | M_EW(2) | M_RM(1) | M_SAT);
    uint64_t s = r(STAT);
    assert_int_equal(S_PET(s), 1);
    assert_int_equal(S_EW(s), 2);
    assert_int_equal(S_RM(s), 1);
    assert_int_equal(S_SAT(s), 1);
    /* stage, then set APPLY with a read-modify-write (csrs) */
    w(MODE, M_PET(3) | M_EW(0));
    assert_int_equal(S_PET(r(STAT)), 1);
    w(MODE, r(MODE) | APPLY);
    assert_int_equal(S_PET(r(STAT)), 3);
    assert_int_equal(S_EW(r(STAT)), 0);
    assert_int_equal(r(MODE), M_PET(3));
    /* ALT: APPLY1 reads 0 and applies */
    w(ALT, APPLY | A_EN | A_FMT(3));
    assert_int_equal(r(ALT), A_EN | A_FMT(3));
    assert_int_equal(S_PET(r(STAT)), 9);
}

/* Example 6.1 as rewritten by errata Q-14 (0x80080000) and 6.2 (Q-16: 0xC9C00000) do
 * what their comments say. REQ: CAP-104 CAP-101 CAP-109 CAP-090
 * REQ: CAP-089 */
static void test_examples_6_1_6_2(void **state)
{
    (void)state;
    w(MODE, APPLY | M_PET(5) | M_ACCW(2)); /* something else first */
    /* The spec's literal 6.1 / RT 11.1 value (0x809A0000) under the table layout selects
     * PET INT16, EW 64 and PACK 2-way: EW 64 is unsupported, so UNSUP_FMT tells software
     * (6.3) and EW keeps its previous value (errata Q-14 rewrites the example). */
    w(MODE, 0x809A0000);
    assert_int_equal(r(STAT), 0x40000000 | 0x10000 | 0x8000); /* EW stays 8 (00) */
    w(MODE, 0x80080000); /* 6.1: FP16, EW16, FP32 acc, RNE, merge */
    assert_int_equal(r(STAT), 0x04000000);
    w(ALT, 0xC9C00000); /* 6.2: FP8 E4M3, FP16 acc, MIXED, ALT_SAT, APPLY1 */
    uint64_t s = r(STAT);
    /* EFF_PET 8 (E4M3), EW 8 (00), ACCW FP16 (01), ALT_EN, SAT, MIXED (bit 35) */
    assert_int_equal(s, UINT64_C(0x881C00000));
}

/* PET's unified type codes (errata Q-17) name the engine's formats, integers signed or
 * unsigned by UNS; the reserved codes 6, 7, 13, 14 and 15 (xcvt's "effective PET") name
 * none. REQ: CAP-089 */
static void test_type_codes(void **state)
{
    (void)state;
    assert_int_equal(cap_type_fmt(0, false), NUM_FP16);
    assert_int_equal(cap_type_fmt(1, false), NUM_FP32);
    assert_int_equal(cap_type_fmt(2, false), NUM_BF16);
    assert_int_equal(cap_type_fmt(3, false), NUM_I8);
    assert_int_equal(cap_type_fmt(3, true), NUM_U8);
    assert_int_equal(cap_type_fmt(5, false), NUM_I32);
    assert_int_equal(cap_type_fmt(8, false), NUM_E4M3);
    assert_int_equal(cap_type_fmt(11, true), NUM_U2);
    const unsigned reserved[] = {6, 7, 13, 14, 15, 16};
    for (unsigned i = 0; i < sizeof reserved / sizeof reserved[0]; i++) {
        assert_int_equal(cap_type_fmt(reserved[i], false), -1);
        assert_int_equal(cap_type_fmt(reserved[i], true), -1);
    }
}

/* ALT mapping table and the forced packing. REQ: CAP-105 */
static void test_alt_mapping(void **state)
{
    (void)state;
    w(ALT, APPLY | A_EN | A_FMT(3)); /* FP8_E5M2 */
    assert_int_equal(S_PET(r(STAT)), 9);
    assert_int_equal(S_EW(r(STAT)), 0);
    w(ALT, APPLY | A_EN | A_FMT(4)); /* INT4: PACK forced to 1 */
    assert_int_equal(S_PET(r(STAT)), 10);
    assert_int_equal(S_EW(r(STAT)), 0);
    assert_int_equal(S_PACK(r(STAT)), 1);
    w(ALT, APPLY | A_EN | A_FMT(5)); /* INT2: PACK forced to 2 */
    assert_int_equal(S_PET(r(STAT)), 11);
    assert_int_equal(S_PACK(r(STAT)), 2);
    /* PACK inherits MODE.PACK when larger; ALT.PACK is a minimum */
    w(MODE, APPLY | M_EW(1) | M_PACK(2));
    w(ALT, APPLY | A_EN | A_FMT(4));
    assert_int_equal(S_PACK(r(STAT)), 2);
    w(MODE, APPLY | M_EW(1));
    w(ALT, APPLY | A_EN | A_FMT(2) | A_PACK(2));
    assert_int_equal(S_PACK(r(STAT)), 2);
    w(ALT, APPLY | A_EN | A_FMT(2));
    assert_int_equal(S_PACK(r(STAT)), 0);
    assert_int_equal(r(STAT) & S_UNSUP, 0);
}

/* Inheritance from MODE under ALT. REQ: CAP-101 CAP-110 CAP-108 */
static void test_alt_inherit(void **state)
{
    (void)state;
    w(MODE, APPLY | M_EW(1) | M_ACCW(2) | M_SAT | M_Q | M_UNS | M_RM(3) | M_FTZ);
    w(ALT, APPLY | A_EN | A_FMT(2)); /* ALT_ACCW 0, ALT_SAT 0: inherit */
    uint64_t s = r(STAT);
    assert_int_equal(S_ACCW(s), 2);
    assert_int_equal(S_SAT(s), 1);
    assert_int_equal(S_Q(s), 1);
    assert_int_equal(S_UNS(s), 1);
    assert_int_equal(S_RM(s), 3);
    assert_int_equal(S_FTZ(s), 1);
    assert_int_equal(S_ALTEN(s), 1);
    w(ALT, APPLY | A_EN | A_FMT(2) | A_ACCW(3)); /* ALT_ACCW overrides */
    assert_int_equal(S_ACCW(r(STAT)), 3);
    w(MODE, APPLY | M_EW(1)); /* SAT 0 in MODE, ALT_SAT 1 wins */
    w(ALT, APPLY | A_EN | A_FMT(2) | A_SAT);
    assert_int_equal(S_SAT(r(STAT)), 1);
    /* ALT_EN = 0: EFF = MODE */
    w(MODE, APPLY | M_PET(4) | M_EW(1) | M_ACCW(3));
    w(ALT, APPLY | A_FMT(2) | A_SAT | A_ACCW(1));
    s = r(STAT);
    assert_int_equal(S_PET(s), 4);
    assert_int_equal(S_ACCW(s), 3);
    assert_int_equal(S_SAT(s), 0);
    assert_int_equal(S_ALTEN(s), 0);
}

/* ZP_EN, ZP, SCALE_SH only with Q=1; ALT.ZP (+ZP_OFFS) replaces MODE.ZP. REQ: CAP-112
 * REQ: CAP-093 CAP-094 */
static void test_zero_point(void **state)
{
    (void)state;
    w(MODE, APPLY | M_EW(1) | M_ZPEN(1) | M_ZP(5) | M_SCALE(3));
    uint64_t s = r(STAT);
    assert_int_equal(S_ZPEN(s), 0);
    assert_int_equal(S_ZP(s), 0);
    assert_int_equal(S_SCALE(s), 0);
    w(MODE, APPLY | M_EW(1) | M_Q | M_ZPEN(1) | M_ZP(5) | M_SCALE(-3));
    s = r(STAT);
    assert_int_equal(S_Q(s), 1);
    assert_int_equal(S_ZPEN(s), 1);
    assert_int_equal(S_ZP(s), 5);
    assert_int_equal(S_SCALE(s), 0x7D); /* -3 in 7 bits */
    w(ALT, APPLY | A_EN | A_FMT(4) | A_ZP(10) | A_ZPOFFS(2));
    assert_int_equal(S_ZP(r(STAT)), 12);
}

/* Unsupported selections: stored as written, EFF keeps the previous value, UNSUP_FMT.
 * XMEM absences never use UNSUP_FMT. REQ: CAP-011 CAP-114 CAP-115 CAP-154 CAP-155 */
static void test_unsupported(void **state)
{
    (void)state;
    w(MODE, APPLY | M_PET(3) | M_EW(0)); /* INT8, supported */
    assert_int_equal(r(STAT) & S_UNSUP, 0);
    w(MODE, APPLY | M_PET(6) | M_EW(0)); /* reserved PET */
    assert_int_equal(r(MODE), M_PET(6));
    assert_int_equal(S_PET(r(STAT)), 3);
    assert_true(r(STAT) & S_UNSUP);
    w(MODE, APPLY | M_PET(3) | M_EW(3)); /* EW 64 unsupported (EW_SUP) */
    assert_int_equal(S_EW(r(STAT)), 0);
    assert_true(r(STAT) & S_UNSUP);
    w(MODE, APPLY | M_PET(3) | M_PACK(3)); /* PACK 3 undefined */
    assert_int_equal(S_PACK(r(STAT)), 0);
    assert_true(r(STAT) & S_UNSUP);
    w(MODE, APPLY | M_PET(3) | M_Q | M_ZPEN(2) | M_ZP(7)); /* per-channel -> per-tensor */
    assert_int_equal(S_ZPEN(r(STAT)), 1);
    assert_int_equal(S_ZP(r(STAT)), 7);
    assert_true(r(STAT) & S_UNSUP);
    w(MODE, APPLY | M_PET(3));
    assert_int_equal(r(STAT) & S_UNSUP, 0);
    /* reserved ALT_FMT 0, 6 and 15, VER != 0, PACK 3: EFF = MODE, EFF_ALT_EN = 0 (BF16_LITE,
     * code 1, is supported by the default profile since P-179: test_bf16_lite) */
    static const uint64_t bad[] = {A_FMT(0), A_FMT(6), A_FMT(15), A_FMT(2) | A_VER(1),
                                   A_FMT(2) | A_PACK(3)};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        w(ALT, APPLY | A_EN | bad[i]);
        uint64_t s = r(STAT);
        assert_true(s & S_UNSUP);
        assert_int_equal(S_ALTEN(s), 0);
        assert_int_equal(S_PET(s), 3);
    }
    w(ALT, APPLY);
    assert_int_equal(r(STAT) & S_UNSUP, 0);
    /* An XMEM write to an absent feature (COMPRESS) is ignored, not UNSUP_FMT. */
    w(COMP_CTL, 0xFFFF);
    assert_int_equal(r(COMP_CTL), 0);
    assert_int_equal(r(STAT) & S_UNSUP, 0);
    /* Nor is a memory event (every EVENTS bit, of present and absent features alike):
     * events go to EVENTS only. */
    cap_xmem_event(&C, 0xFF);
    assert_int_equal(r(STAT) & S_UNSUP, 0);
    assert_int_not_equal(r(EVENTS), 0);
}

/* Stickies: STAT's until the next APPLY, EXC.ST until W1C; W1C clears only ones.
 * REQ: CAP-120 CAP-126 CAP-081 CAP-042 CAP-080 CAP-078 CAP-121 CAP-127 */
static void test_stickies(void **state)
{
    (void)state;
    cap_accrue(&C, NUM_SAT_HIT | NUM_FTZ_HIT | NUM_DOWNCAST_TAKEN | NUM_OF | NUM_NX |
                       NUM_QNAN_SEEN | NUM_SNAN_SEEN | NUM_NV);
    uint64_t s = r(STAT);
    assert_true(s & S_SATHIT);
    assert_true(s & S_FTZHIT);
    assert_true(s & S_DOWNCAST);
    assert_int_equal(r(EXC_ST), OF | NX | NV | QNAN_SEEN | SNAN_SEEN);
    w(MODE, M_PET(1)); /* a staging write is no APPLY */
    assert_true(r(STAT) & S_SATHIT);
    w(ALT, APPLY); /* any APPLY clears STAT's stickies ... */
    assert_int_equal(r(STAT) & (S_SATHIT | S_FTZHIT | S_DOWNCAST), 0);
    assert_int_equal(r(EXC_ST), OF | NX | NV | QNAN_SEEN | SNAN_SEEN); /* ... not EXC.ST */
    w(EXC_ST, 0);                                                      /* zeros change nothing */
    assert_int_equal(r(EXC_ST), OF | NX | NV | QNAN_SEEN | SNAN_SEEN);
    w(EXC_ST, OF | SNAN_SEEN);
    assert_int_equal(r(EXC_ST), NX | NV | QNAN_SEEN);
    /* csrs form (errata Q-84): the written value is old | mask, so all set bits clear */
    w(EXC_ST, r(EXC_ST) | NX);
    assert_int_equal(r(EXC_ST), 0);
    /* software cannot set a sticky */
    w(EXC_ST, 0x7F);
    assert_int_equal(r(EXC_ST), 0);
}

/* IE_MASK latches EXC.EN & ~SAE at APPLY; example 6.4. REQ: CAP-117 CAP-148 CAP-079 */
static void test_ie_mask(void **state)
{
    (void)state;
    w(EXC_EN, (1 << 2) | (1 << 4));     /* 6.4: OF and NV */
    assert_int_equal(S_IE(r(STAT)), 0); /* not latched without APPLY */
    w(MODE, r(MODE) | APPLY);
    assert_int_equal(S_IE(r(STAT)), OF | NV);
    w(MODE, APPLY | M_EW(1) | M_SAEDEF);
    assert_int_equal(S_IE(r(STAT)), 0);
    w(MODE, APPLY | M_EW(1) | M_SAE);
    assert_int_equal(S_IE(r(STAT)), 0);
    w(MODE, APPLY | M_EW(1));
    w(EXC_EN, 0x1F);
    w(ALT, APPLY); /* APPLY1 latches too */
    assert_int_equal(S_IE(r(STAT)), 0x1F);
}

/* Traps only when enabled and SAE is 0; gating uses the live EXC.EN (errata Q-25).
 * REQ: CAP-124 CAP-128 CAP-086 CAP-125 */
static void test_trap_gating(void **state)
{
    (void)state;
    cap_snap s;
    w(EXC_EN, OF | NV); /* example 6.4: no APPLY needed */
    cap_snapshot(&C, &s);
    assert_int_equal(cap_trap_flags(&s, NUM_OF | NUM_NX), NUM_OF);
    assert_int_equal(cap_trap_flags(&s, NUM_NX | NUM_UF), 0);
    assert_int_equal(cap_trap_flags(&s, NUM_QNAN_SEEN | NUM_SNAN_SEEN | NUM_SAT_HIT), 0);
    w(MODE, APPLY | M_EW(1) | M_SAEDEF);
    cap_snapshot(&C, &s);
    assert_int_equal(cap_trap_flags(&s, NUM_OF | NUM_NV), 0);
    w(MODE, APPLY | M_EW(1) | M_SAE);
    cap_snapshot(&C, &s);
    assert_true(s.sae);
    assert_int_equal(cap_trap_flags(&s, NUM_OF | NUM_NV), 0);
}

/* EFF mirrors of ZMODE, SAE and NAN_POL. REQ: CAP-113 CAP-095 */
static void test_mirrors(void **state)
{
    (void)state;
    w(MODE, APPLY | M_EW(1) | M_ZMODE | M_NAN(2) | M_SAEDEF);
    uint64_t s = r(STAT);
    assert_int_equal(S_ZMODE(s), 1);
    assert_int_equal(S_NAN(s), 2);
    assert_int_equal(S_SAE(s), 1);
    cap_snap sn;
    cap_snapshot(&C, &sn);
    assert_true(sn.zmode);
}

/* EFF -> num_policy. REQ: CAP-087 CAP-092 CAP-085 CAP-147 */
static void test_policy_mapping(void **state)
{
    (void)state;
    cap_snap s;
    w(MODE, APPLY | M_PET(3) | M_RM(2) | M_SAT | M_SATMODE | M_FTZ | M_NAN(1) | M_Q | M_ZPEN(1) |
                M_ZP(0xFD) | M_SCALE(-5));
    cap_snapshot(&C, &s);
    assert_int_equal(s.pol.rm, NUM_RDN);
    assert_true(s.pol.sat);
    assert_int_equal(s.pol.sat_mode, NUM_SAT_SYMMETRIC);
    assert_true(s.pol.ftz);
    assert_int_equal(s.pol.nan_pol, NUM_NAN_CANONICAL);
    assert_true(s.pol.q);
    assert_int_equal(s.pol.zp_en, NUM_ZP_TENSOR);
    assert_int_equal(s.pol.zp, -3); /* int8 0xFD */
    assert_int_equal(s.pol.scale_sh, -5);
    w(MODE, APPLY | M_PET(3) | M_Q | M_UNS | M_ZPEN(1) | M_ZP(0xFD));
    cap_snapshot(&C, &s);
    assert_int_equal(s.pol.zp, 253); /* uint8 with UNS */
    assert_true(s.uns);
}

/* The snapshot is what an in-flight operation uses: a later CAP write (even with APPLY)
 * does not change it. REQ: CAP-006 CAP-008 */
static void test_snapshot_isolation(void **state)
{
    (void)state;
    cap_snap s;
    cap_snapshot(&C, &s); /* latched at "decode": RNE, SAT=0 */
    w(MODE, APPLY | M_EW(1) | M_RM(1) | M_SAT);
    num_flags f = 0;
    /* 2.75 -> INT8: 3 under RNE, 2 under RTZ */
    uint32_t v = num_convert(NUM_I8, NUM_FP32, 0x40300000 /* 2.75 */, &s.pol, &f);
    assert_int_equal(v, 3); /* RNE, as latched */
    cap_snap now;
    cap_snapshot(&C, &now);
    assert_int_equal(num_convert(NUM_I8, NUM_FP32, 0x40300000, &now.pol, &f), 2); /* RTZ */
    /* 300.0 under the latched SAT=0 is RISC-V's clamp with NV, not SAT_HIT */
    f = 0;
    assert_int_equal(num_convert(NUM_I8, NUM_FP32, 0x43960000, &s.pol, &f), 127);
    assert_true(f & NUM_NV);
    assert_false(f & NUM_SAT_HIT);
    /* An offloaded job: latched at submission, it converts a buffer element by element
     * while software keeps re-programming CAP between its steps; every element uses the
     * submission-time policy (RNE, SAT=0), none the new ones. */
    w(MODE, APPLY | M_EW(1)); /* RNE, SAT=0 */
    cap_snap job;
    cap_snapshot(&C, &job);
    static const uint32_t in[4] = {0x40300000 /* 2.75 */, 0x40300000, 0xC0300000, 0x43960000};
    static const uint32_t want[4] = {3, 3, 0xFD /* -3 */, 127};
    for (int i = 0; i < 4; i++) {
        w(MODE, APPLY | M_EW(1) | M_RM((unsigned)(i % 3) + 1) | M_SAT | M_UNS);
        f = 0;
        assert_int_equal(num_convert(NUM_I8, NUM_FP32, in[i], &job.pol, &f), want[i]);
        cap_accrue(&C, f); /* results flow back into the live stickies */
    }
    assert_true(r(EXC_ST) & NV); /* 300.0 under the job's SAT=0 */
}

/* Memory policy is latched too: XMEM/SVMEM writes reach only later snapshots (no APPLY,
 * next instruction boundary). REQ: CAP-006 CAP-134 CAP-008 */
static void test_snapshot_xmem(void **state)
{
    (void)state;
    w(DOM, 2);
    w(0x7F0, 0x1000); /* SVMBASE */
    cap_snap s;
    cap_snapshot(&C, &s);
    w(DOM, 15);
    w(0x7F0, 0x2000);
    assert_int_equal(cap_snap_xmem(&s, DOM), 2);
    assert_int_equal(cap_snap_xmem(&s, 0x7F0), 0x1000);
    assert_int_equal(cap_snap_xmem(&s, CLSMAP), 0xFF);
    assert_int_equal(cap_snap_xmem(&s, COMP_CTL), 0); /* gated, reads 0 */
    assert_int_equal(cap_snap_xmem(&s, MODE), 0);     /* not XMEM */
    cap_snapshot(&C, &s);
    assert_int_equal(cap_snap_xmem(&s, DOM), 15);
    assert_int_equal(cap_snap_xmem(&s, 0x7F0), 0x2000);
}

/* XMEM: feature-gated fields, WARL legal sets, no APPLY, EVENTS. REQ: CAP-133 CAP-134
 * REQ: CAP-132 CAP-146 CAP-140 CAP-141 CAP-142
 * REQ: CAP-135 (which CAP.XMEM.CAP feature bit gates which fields) */
static void test_xmem(void **state)
{
    (void)state;
    w(L2CFG, 0xFFFF); /* COMP_THR 15:9 gated (no COMPRESS) */
    assert_int_equal(r(L2CFG), 0x1FF);
    w(DOM, 15);
    assert_int_equal(r(DOM), 15); /* visible at once: no APPLY */
    w(L1CFG, (uint64_t)7 << 24);
    assert_int_equal(r(L1CFG), (uint64_t)3 << 24);
    w(SVMSCL, 6);
    assert_int_equal(r(SVMSCL), 4);
    w(SVMSCL, 5); /* SCALE_LOG2 legal set 0-4 (scale 1..16): 5 is the first clamped */
    assert_int_equal(r(SVMSCL), 4);
    w(SVMSCL, 4);
    assert_int_equal(r(SVMSCL), 4);
    w(SVMLEN, 3);
    assert_int_equal(r(SVMLEN), 0);
    w(SVMLEN, 8);
    assert_int_equal(r(SVMLEN), 8);
    w(EVENTS, 0xFF); /* W1C: nothing set, nothing to clear */
    assert_int_equal(r(EVENTS), 0);
    /* events set by hardware; COMP_ERR (4), DMA_ERR (3), SEC_VIOL (6) belong to absent
     * features and never appear; W1C clears only the ones written */
    cap_xmem_event(&C, 0xFF);
    assert_int_equal(r(EVENTS), 0xA7); /* INV_MISS LOCK_OVF LDS_OOM BUDGET_OVF HYB_FALLBK */
    w(EVENTS, 0x05);
    assert_int_equal(r(EVENTS), 0xA2);
    w(EVENTS, 0);
    assert_int_equal(r(EVENTS), 0xA2);
    assert_int_equal(r(STAT), 0x04000000);
}

/* Profile-driven discovery and the gating that follows it. REQ: CAP-049 CAP-058 CAP-163
 * REQ: CAP-065 */
static void test_profile_discovery(void **state)
{
    (void)state;
    static const char y[] =
        "xphmg-profile: 1\nname: t\ncsrs:\n"
        "  cap_flags: {HAS_PROFILES: 1}\n  cap_prof_cur: 2\n  cap_prof_sup: 0x5\n"
        "  cap_xmem_cap: {COMPRESS: 1, WAY_PART: 0}\n"
        "  cap_prec_cap: {ALT_SUP: 0x04, PET_SUP: 0x37}\n";
    char err[256];
    cap_profile *p = cap_profile_parse(y, sizeof y - 1, "t.yaml", err, sizeof err);
    assert_non_null(p);
    cap_reset(&C, p);
    assert_int_equal(r(FLAGS), 2);
    assert_int_equal(r(PROF_CUR), 2);
    assert_int_equal(r(PROF_SUP), 5);
    assert_int_equal(r(CLSMAP), 0); /* WAY_PART absent: way masks RAZ, even the reset 0xFF */
    w(COMP_CTL, 0x1234);
    assert_int_equal(r(COMP_CTL), 0x1234);
    w(ALT, APPLY | A_EN | A_FMT(3)); /* E5M2 not in this profile's ALT_SUP */
    assert_true(r(STAT) & S_UNSUP);
    assert_int_equal(S_ALTEN(r(STAT)), 0);
    w(MODE, APPLY | M_PET(3) | M_EW(0)); /* INT8 (PET code 3) not in PET_SUP 0x37 */
    assert_true(r(STAT) & S_UNSUP);
    assert_int_equal(S_PET(r(STAT)), 0);
    assert_int_equal(S_EW(r(STAT)), 0);
    cap_profile_free(p);
}

/* Architectural state changes only by software writes: operations, snapshots, stickies
 * and reads leave MODE, ALT, EXC.EN and the XMEM policy as programmed. REQ: CAP-053 */
static void test_state_stable(void **state)
{
    (void)state;
    w(MODE, APPLY | M_PET(3) | M_RM(2) | M_SAT);
    w(ALT, APPLY | A_EN | A_FMT(4));
    w(EXC_EN, NX);
    w(DOM, 3);
    uint64_t before[4] = {r(MODE), r(ALT), r(EXC_EN), r(DOM)};
    for (int i = 0; i < 100; i++) {
        cap_snap s;
        cap_snapshot(&C, &s);
        num_flags f = 0;
        num_convert(NUM_I8, NUM_FP32, 0x43960000u + (uint32_t)i, &s.pol, &f);
        cap_accrue(&C, f);
        cap_xmem_event(&C, 1);
    }
    uint64_t after[4] = {r(MODE), r(ALT), r(EXC_EN), r(DOM)};
    assert_memory_equal(before, after, sizeof before);
}

/* ---- xcvt (errata Q-83) on a snapshot ---- */

static uint64_t xcvt_ok(unsigned src, unsigned dst, uint64_t in)
{
    cap_snap s;
    cap_snapshot(&C, &s);
    uint64_t out = 0xdead, trap;
    bool ill;
    assert_true(cap_xcvt(&C, &s, src | dst << 4, in, &out, &ill, &trap));
    return out;
}

/* Values hand-computed from the format definitions. REQ: CAP-104 CAP-105 CAP-121 */
static void test_xcvt_formats(void **state)
{
    (void)state;
    assert_int_equal(xcvt_ok(1, 0, 0x3F800000), 0x3C00);       /* 1.0 FP32 -> FP16 */
    assert_int_equal(xcvt_ok(1, 2, 0x3F800000), 0x3F80);       /* -> BF16 */
    assert_int_equal(xcvt_ok(1, 8, 0x3F800000), 0x38);         /* -> E4M3: exp 7 = bias */
    assert_int_equal(xcvt_ok(1, 9, 0x3F800000), 0x3C);         /* -> E5M2: exp 15 = bias */
    assert_int_equal(xcvt_ok(1, 8, 0x43E00000), 0x7E);         /* 448 = E4M3 max */
    assert_int_equal(xcvt_ok(0, 1, 0xC000), 0xC0000000);       /* FP16 -2.0 -> FP32, zero-ext */
    assert_int_equal(xcvt_ok(1, 3, 0xC0400000), (uint64_t)-3); /* -3.0 -> INT8 sign-ext */
    assert_true(r(STAT) & S_DOWNCAST);
    assert_int_equal(xcvt_ok(3, 1, 0xFD), 0xC0400000);          /* INT8 -3 -> FP32 */
    assert_int_equal(xcvt_ok(1, 10, 0xC0E00000), (uint64_t)-7); /* -7.0 -> INT4 */
    assert_int_equal(xcvt_ok(1, 11, 0x3F800000), 1);            /* 1.0 -> INT2 */
    /* code 15 = EFF_PET: FP16 at reset, E4M3 after example 6.2 */
    assert_int_equal(xcvt_ok(1, 15, 0x3F800000), 0x3C00);
    w(ALT, 0xC9C00000);
    assert_int_equal(xcvt_ok(1, 15, 0x3F800000), 0x38);
}

/* Bad FMTSEL: OSAE 01 (bits 9:8), reserved bits 11:10, reserved codes; BF16_LITE (12)
 * only where CAP.PREC.ALU bit 12 is clear (P-179). REQ: CAP-011 */
static void test_xcvt_illegal(void **state)
{
    (void)state;
    cap_snap s;
    cap_snapshot(&C, &s);
    uint64_t out = 0x1234, trap;
    bool ill;
    static const unsigned bad[] = {0x110, 0x801, 0x61, 0x16, 0x71, 0xD1, 0x1D, 0xE1, 0x1E};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_false(cap_xcvt(&C, &s, bad[i], 0, &out, &ill, &trap));
        assert_true(ill);
    }
    assert_int_equal(out, 0x1234);
    /* a profile without BF16_LITE in CAP.PREC.ALU (0xF3F: codes 0-5, 8-11) */
    static const char y[] = "xphmg-profile: 1\nname: t\ncsrs:\n  cap_prec_alu: 0xF3F\n"
                            "  cap_prec_fp8: 0x3\n  cap_prec_cap: {ALT_SUP: 0x3C}\n";
    char err[256];
    cap_profile *p = cap_profile_parse(y, sizeof y - 1, "t.yaml", err, sizeof err);
    if (!p) fail_msg("%s", err);
    cap_reset(&C, p);
    cap_snapshot(&C, &s);
    static const unsigned lite[] = {0xC1, 0x1C, 0xCC, 0xC2};
    for (size_t i = 0; i < sizeof lite / sizeof lite[0]; i++) {
        assert_false(cap_xcvt(&C, &s, lite[i], 0x3F80, &out, &ill, &trap));
        assert_true(ill);
    }
    assert_true(cap_xcvt(&C, &s, 0x21, 0x3F800000, &out, &ill, &trap));
    assert_int_equal(out, 0x3F80);
    cap_profile_free(p);
    cap_reset(&C, NULL);
}

/* SAT, SAT_MODE, unsigned, FTZ, NaN policy, quantization through xcvt. REQ: CAP-085
 * REQ: CAP-092 CAP-094 CAP-093 CAP-121 CAP-127 */
static void test_xcvt_policy(void **state)
{
    (void)state;
    /* 300.0 -> INT8 */
    assert_int_equal(xcvt_ok(1, 3, 0x43960000), 127); /* SAT=0: RISC-V clamp, NV */
    assert_int_equal(r(EXC_ST), NV);
    assert_int_equal(r(STAT) & S_SATHIT, 0);
    w(EXC_ST, 0x7F);
    w(MODE, APPLY | M_EW(1) | M_SAT);
    assert_int_equal(xcvt_ok(1, 3, 0x43960000), 127); /* SAT=1: SAT_HIT|NX */
    assert_int_equal(r(EXC_ST), NX);
    assert_true(r(STAT) & S_SATHIT);
    assert_int_equal(xcvt_ok(1, 3, 0xC3960000), (uint64_t)-128); /* -300 clamp */
    w(MODE, APPLY | M_EW(1) | M_SAT | M_SATMODE);
    assert_int_equal(xcvt_ok(1, 3, 0xC3960000), (uint64_t)-127); /* symmetric */
    w(MODE, APPLY | M_EW(1) | M_SAT | M_UNS);
    assert_int_equal(xcvt_ok(1, 3, 0x43960000), 255);        /* UINT8, zero-extended */
    assert_int_equal(xcvt_ok(1, 5, 0x4F800000), 0xFFFFFFFF); /* 2^32 -> UINT32 max */
    /* FTZ: the smallest FP32 subnormal -> FP16 flushes to +0 with FTZ_HIT */
    w(MODE, APPLY | M_EW(1) | M_FTZ);
    assert_int_equal(xcvt_ok(1, 0, 0x00000001), 0);
    assert_true(r(STAT) & S_FTZHIT);
    /* NaN policy: sNaN 0x7FA00000 -> FP16: propagate keeps the high payload (0x7F00),
     * canonical 0x7E00, squash +0; NV|SNAN_SEEN each time */
    w(EXC_ST, 0x7F);
    w(MODE, APPLY | M_EW(1) | M_NAN(0));
    assert_int_equal(xcvt_ok(1, 0, 0x7FA00000), 0x7F00);
    assert_int_equal(r(EXC_ST), NV | SNAN_SEEN);
    w(MODE, APPLY | M_EW(1) | M_NAN(1));
    assert_int_equal(xcvt_ok(1, 0, 0x7FA00000), 0x7E00);
    w(MODE, APPLY | M_EW(1) | M_NAN(2));
    assert_int_equal(xcvt_ok(1, 0, 0x7FA00000), 0);
    w(EXC_ST, 0x7F);
    assert_int_equal(xcvt_ok(1, 0, 0x7FC00000), 0); /* quiet NaN: QNAN_SEEN only */
    assert_int_equal(r(EXC_ST), QNAN_SEEN);
    /* Quantization: Q=1, SCALE_SH=-2 (x * 4), ZP=3 per tensor: 1.5 -> 6 + 3 = 9; and back:
     * (9 - 3) * 2^-2 = 1.5 */
    w(MODE, APPLY | M_EW(1) | M_Q | M_ZPEN(1) | M_ZP(3) | M_SCALE(-2));
    assert_int_equal(xcvt_ok(1, 3, 0x3FC00000), 9);
    assert_int_equal(xcvt_ok(3, 1, 9), 0x3FC00000);
    /* ZP_EN off: no zero point */
    w(MODE, APPLY | M_EW(1) | M_Q | M_ZP(3) | M_SCALE(-2));
    assert_int_equal(xcvt_ok(1, 3, 0x3FC00000), 6);
}

/* An enabled exception traps with mtval = the enabled raised flags; the stickies are
 * set anyway, rd is not written; SAE suppresses. REQ: CAP-124 CAP-125 CAP-128 */
static void test_xcvt_trap(void **state)
{
    (void)state;
    w(EXC_EN, OF | NV);
    cap_snap s;
    cap_snapshot(&C, &s);
    uint64_t out = 0x55, trap;
    bool ill;
    /* 1e10 (0x501502F9) -> FP16 overflows: OF|NX|DOWNCAST; OF enabled */
    assert_false(cap_xcvt(&C, &s, 0x01, 0x501502F9, &out, &ill, &trap));
    assert_false(ill);
    assert_int_equal(trap, OF);
    assert_int_equal(out, 0x55);
    assert_int_equal(r(EXC_ST), OF | NX);
    /* NX not enabled: no trap */
    assert_true(cap_xcvt(&C, &s, 0x01, 0x3F800001, &out, &ill, &trap));
    /* SAE_DEF=1: sticky only */
    w(MODE, APPLY | M_EW(1) | M_SAEDEF);
    cap_snapshot(&C, &s);
    assert_true(cap_xcvt(&C, &s, 0x01, 0x501502F9, &out, &ill, &trap));
    assert_int_equal(out, 0x7C00); /* +inf under RNE */
}

static cap_profile *use_profile(const char *csrs);

/* With every CAP.XMEM.CAP feature present nothing is gated: each RW field takes the
 * value written. Expected masks from the field tables of CAP 4.6.2/4.6.3 (errata Q-39,
 * L1CFG 31:24 ACTIVE_CLASS (WARL 0-3) | 20:0, CLSMAP 47:0, LDS_BUDGET 63:0,
 * L2CFG 15:0, STREAM_CTL 24:0, SPROFn 27:0, COMP_CTL 15:0, SVMMODE 3:0, EVENTS 7:0.
 * REQ: CAP-133 CAP-132 */
static void test_xmem_all_present(void **state)
{
    (void)state;
    cap_profile *p = use_profile("  cap_xmem_cap: 0x1FFF\n");
    static const struct {
        uint32_t a;
        uint64_t v;
    } want[] = {
        {L1CFG, 0x031FFFFF},     {CLSMAP, 0xFFFFFFFFFFFF}, {LDS_BUDGET, ~UINT64_C(0)},
        {L2CFG, 0xFFFF},         {STREAM_CTL, 0x1FFFFFF},  {SPROF0, 0xFFFFFFF},
        {SPROF0 + 1, 0xFFFFFFF}, {SPROF0 + 2, 0xFFFFFFF},  {SPROF3, 0xFFFFFFF},
        {COMP_CTL, 0xFFFF},      {SVMMODE, 0xF},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        w(want[i].a, ~UINT64_C(0));
        if (r(want[i].a) != want[i].v)
            fail_msg("CSR 0x%x reads 0x%llx, want 0x%llx", want[i].a,
                     (unsigned long long)r(want[i].a), (unsigned long long)want[i].v);
    }
    cap_xmem_event(&C, 0xFF);
    assert_int_equal(r(EVENTS), 0xFF);
    cap_profile_free(p);
}

/* A reserved ZP_EN (3) keeps the previous effective ZP_EN and sets UNSUP_FMT, and only
 * ZP_EN: SAT_MODE written with it takes effect (errata ).
 * REQ: CAP-011 CAP-154 */
static void test_reserved_zp_en(void **state)
{
    (void)state;
    w(MODE, APPLY | M_EW(1) | M_Q | M_ZPEN(1));
    assert_int_equal(S_ZPEN(r(STAT)), 1);
    assert_int_equal(S_SATMODE(r(STAT)), 0);
    w(MODE, APPLY | M_EW(1) | M_Q | M_ZPEN(3) | M_SATMODE);
    uint64_t s = r(STAT);
    assert_true(s & S_UNSUP);
    assert_int_equal(S_ZPEN(s), 1);
    assert_int_equal(S_SATMODE(s), 1);
}

/* SCALE_SH is a signed 7-bit field: 1 scales by 2^-1 when quantizing (3.0 -> 1.5 -> 2
 * under RNE), 0x7F is -1 (3.0 -> 6) (errata ). REQ: CAP-112 CAP-094 */
static void test_scale_sign(void **state)
{
    (void)state;
    cap_snap s;
    uint64_t out, trap;
    bool ill;
    w(MODE, APPLY | M_PET(3) | M_Q | M_SCALE(1));
    cap_snapshot(&C, &s);
    assert_true(cap_xcvt(&C, &s, 0x31, 0x40400000, &out, &ill, &trap));
    assert_int_equal(out, 2);
    w(MODE, APPLY | M_PET(3) | M_Q | M_SCALE(-1));
    cap_snapshot(&C, &s);
    assert_true(cap_xcvt(&C, &s, 0x31, 0x40400000, &out, &ill, &trap));
    assert_int_equal(out, 6);
}

/* Errata Q-24: MODE.SAE is persistent, not one-shot. Operations never modify CAP.PREC
 * (CAP 4.1.2, 5.2.6); one-shot suppression is xcvt's OSAE override. After two
 * suppressed overflowing conversions SAE is still set in MODE and in STAT.EFF_SAE, and
 * a third one is still suppressed. REQ: CAP-053 CAP-128 */
static void test_sae_persistent(void **state)
{
    (void)state;
    w(EXC_EN, OF | NV);
    w(MODE, APPLY | M_EW(1) | M_SAE);
    uint64_t mode = r(MODE), stat = r(STAT);
    cap_snap s;
    uint64_t out, trap;
    bool ill;
    for (int i = 0; i < 3; i++) {
        cap_snapshot(&C, &s);
        assert_true(cap_xcvt(&C, &s, 0x01, 0x501502F9, &out, &ill, &trap));
        assert_int_equal(out, 0x7C00);
        assert_int_equal(r(MODE), mode);
        assert_true(r(MODE) & M_SAE);
        assert_int_equal(S_SAE(r(STAT)), 1);
    }
    assert_int_equal(S_SAE(stat), 1);
    /* only software clears it, with an APPLY */
    w(MODE, APPLY | M_EW(1));
    cap_snapshot(&C, &s);
    assert_false(cap_xcvt(&C, &s, 0x01, 0x501502F9, &out, &ill, &trap));
    assert_int_equal(trap, OF);
}

/* ---- P-178: absent precision fields read zero (CAP 5.2.3) ---- */

static cap_profile *use_profile(const char *csrs)
{
    char y[1024], err[256];
    snprintf(y, sizeof y, "xphmg-profile: 1\nname: t\ncsrs:\n%s", csrs);
    cap_profile *p = cap_profile_parse(y, strlen(y), "t.yaml", err, sizeof err);
    if (!p) fail_msg("%s", err);
    cap_reset(&C, p);
    return p;
}

/* MODE bits of the quantized-integer fields: Q (5), ZP (13:6), ZP_EN (15:14), SCALE_SH
 * (39:33) = 0x20 | 0x3FC0 | 0xC000 | 0xFE00000000 = 0xFE0000FFE0 */
#define M_QFIELDS UINT64_C(0xFE0000FFE0)

/* No quantized integers (INTQ INT8 = INT4 = INT2 = 0) and no ALT formats: MODE's Q group
 * and the whole ALT read zero and ignore writes in both images; asking for them is an
 * omission that every APPLY reports until a clean write replaces it. REQ: CAP-153
 * REQ: CAP-154 CAP-010 CAP-011 CAP-120 */
static void test_absent_fields(void **state)
{
    (void)state;
    cap_profile *p = use_profile("  cap_prec_cap: {ALT_SUP: 0}\n  cap_prec_intq: 0\n");
    assert_int_equal(r(MODE), 0x80000);
    assert_int_equal(r(ALT), 0);
    assert_int_equal(r(STAT), 0x04000000);
    /* every writable MODE bit: the default 0xFE7FFFFFFF without the Q group:
     * 0xFE7FFFFFFF & ~0xFE0000FFE0 = 0x7FFF001F; staged only, STAT unchanged */
    w(MODE, ~UINT64_C(0) >> 1 & ~APPLY);
    assert_int_equal(r(MODE), UINT64_C(0x7FFF001F));
    assert_int_equal(r(STAT), 0x04000000);
    w(ALT, ~UINT64_C(0) & ~APPLY);
    assert_int_equal(r(ALT), 0);
    assert_int_equal(r(STAT), 0x04000000);

    /* errata P-178: a write asking for an absent field leaves a request pending in its
     * group; the group's next APPLY consumes it (UNSUP_FMT) even if a clean write came in
     * between (the staged-then-csrs-APPLY idiom must not lose the omission). ALT first:
     * the staged ~0 above is pending. */
    w(ALT, APPLY);
    assert_int_equal(r(STAT), 0x04008000);
    w(ALT, APPLY); /* consumed: the next APPLY1 without a request is clean */
    assert_int_equal(r(STAT), 0x04000000);
    /* MODE: the staged ~0 and a staged Q group are pending; a clean staged value (UNS is not
     * gated) and then csrs APPLY: EFF_EW 16 | EFF_UNS (bit 32) | UNSUP_FMT (15) */
    w(MODE, M_EW(1) | M_Q | M_ZPEN(1) | M_ZP(5) | M_SCALE(3) | M_UNS);
    assert_int_equal(r(MODE), M_EW(1) | M_UNS);
    w(MODE, M_EW(1) | M_UNS);
    assert_int_equal(r(STAT), 0x04000000); /* no APPLY yet */
    w(MODE, r(MODE) | APPLY);
    assert_int_equal(r(STAT), UINT64_C(0x104008000));
    w(ALT, APPLY); /* MODE's applied request is reported by every APPLY */
    assert_int_equal(r(STAT), UINT64_C(0x104008000));
    w(MODE, r(MODE) | APPLY); /* MODE applied again without a request */
    assert_int_equal(r(STAT), UINT64_C(0x104000000));

    /* each absent MODE field with APPLY: reads 0, EFF keeps it 0, UNSUP_FMT (bit 15) */
    static const uint64_t fld[] = {M_Q, M_ZPEN(1), M_ZP(0x80), M_SCALE(0x40), M_Q | M_ZP(3)};
    for (size_t i = 0; i < sizeof fld / sizeof fld[0]; i++) {
        w(MODE, APPLY | M_EW(1) | fld[i]);
        assert_int_equal(r(MODE), M_EW(1));
        assert_int_equal(r(STAT), 0x04008000);
        w(MODE, APPLY | M_EW(1));
        assert_int_equal(r(STAT), 0x04000000);
    }
    /* the applied mark is reported again by an APPLY of the other group, and by a staged
     * clean MODE write followed by APPLY1 (the mark reaches MODE's applied state only at
     * APPLY0) */
    w(MODE, APPLY | M_EW(1) | M_Q);
    assert_int_equal(r(STAT), 0x04008000);
    w(ALT, APPLY);
    assert_int_equal(r(STAT), 0x04008000);
    w(MODE, M_EW(1));
    w(ALT, APPLY);
    assert_int_equal(r(STAT), 0x04008000);
    w(MODE, r(MODE) | APPLY);
    assert_int_equal(r(STAT), 0x04000000);
    /* a staged request is not reported before its group's APPLY (APPLY1 does not take
     * MODE's pending request), then the next APPLY0 reports it */
    w(MODE, M_EW(1) | M_SCALE(1));
    w(ALT, APPLY);
    assert_int_equal(r(STAT), 0x04000000);
    w(MODE, M_EW(1));
    w(MODE, r(MODE) | APPLY);
    assert_int_equal(r(STAT), 0x04008000);
    w(MODE, APPLY | M_EW(1));
    assert_int_equal(r(STAT), 0x04000000);

    /* applied images are not affected: EFF_Q (bit 18), ZP_EN, ZP, SCALE_SH stay 0; the
     * policy does not quantize: 1.5 -> INT8 is 2 under RNE (with Q, SCALE_SH -2 and ZP 5 it
     * would be 1.5 * 4 + 5 = 11) */
    w(MODE, APPLY | M_EW(1) | M_Q | M_ZPEN(1) | M_ZP(5) | M_SCALE(-2));
    uint64_t st = r(STAT);
    assert_int_equal(st, 0x04008000);
    assert_int_equal(S_Q(st), 0);
    cap_snap sn;
    cap_snapshot(&C, &sn);
    assert_false(sn.pol.q);
    assert_int_equal(sn.pol.zp_en, NUM_ZP_OFF);
    assert_int_equal(sn.pol.zp, 0);
    assert_int_equal(sn.pol.scale_sh, 0);
    uint64_t out, trap;
    bool ill;
    assert_true(cap_xcvt(&C, &sn, 0x31, 0x3FC00000, &out, &ill, &trap));
    assert_int_equal(out, 2);

    /* ALT with ALT_SUP = 0: ALT_EN or any non-zero field bit is an omission; ALT reads 0
     * and EFF = MODE (EFF_ALT_EN 0, EFF_PET FP16) */
    w(MODE, APPLY | M_EW(1));
    static const uint64_t alt[] = {A_EN | A_FMT(2), A_EN,        A_FMT(3),       A_SAT,
                                   A_MIXED,         A_VER(1),    A_PACK(1),      A_ACCW(1),
                                   A_ZP(1),         A_ZPOFFS(1), A_EN | A_FMT(1)};
    for (size_t i = 0; i < sizeof alt / sizeof alt[0]; i++) {
        w(ALT, APPLY | alt[i]);
        assert_int_equal(r(ALT), 0);
        assert_int_equal(r(STAT), 0x04008000);
        w(MODE, APPLY | M_EW(1)); /* re-reported by the other group's APPLY */
        assert_int_equal(r(STAT), 0x04008000);
        w(ALT, APPLY);
        assert_int_equal(r(STAT), 0x04000000);
    }
    cap_profile_free(p);

    /* INTQ with only DOTPROD8 (3) and PER_CHANNEL (4): still no quantized formats */
    p = use_profile("  cap_prec_intq: 0x18\n");
    w(MODE, ~UINT64_C(0) >> 1 & ~APPLY);
    assert_int_equal(r(MODE), UINT64_C(0x7FFF001F));
    cap_profile_free(p);
    /* INT4 alone (bit 0) is a quantized format too: the Q fields are writable */
    p = use_profile("  cap_prec_intq: 0x1\n");
    w(MODE, ~UINT64_C(0) >> 1 & ~APPLY);
    assert_int_equal(r(MODE), UINT64_C(0xFE7FFFFFFF));
    cap_profile_free(p);
    /* INT8 alone (bit 2) is enough for Q: nothing absent in MODE */
    p = use_profile("  cap_prec_intq: 0x4\n  cap_prec_cap: {ALT_SUP: 0}\n");
    w(MODE, ~UINT64_C(0) >> 1 & ~APPLY);
    assert_int_equal(r(MODE), UINT64_C(0xFE7FFFFFFF));
    w(MODE, APPLY | M_EW(1) | M_Q | M_ZPEN(1) | M_ZP(3));
    st = r(STAT);
    assert_int_equal(st & S_UNSUP, 0);
    assert_int_equal(S_Q(st), 1);
    assert_int_equal(S_ZP(st), 3);
    assert_int_equal(r(ALT), 0); /* ALT_SUP 0 still gates ALT */
    w(ALT, A_SAT);
    assert_int_equal(r(ALT), 0);
    cap_profile_free(p);
}

/* ALT formats present (E4M3, E5M2) but no quantized integers: only ALT.ZP and ALT.ZP_OFFS
 * are absent; an ALT request with them zeroed is still effective. REQ: CAP-153 CAP-154
 * REQ: CAP-104 */
static void test_absent_alt_zp(void **state)
{
    (void)state;
    cap_profile *p = use_profile("  cap_prec_cap: {ALT_SUP: 0x0C}\n  cap_prec_intq: 0\n");
    /* ALT fields 30:0 = 0x7FFFFFFF without ZP 21:14 and ZP_OFFS 13:6 (0x3FFFC0):
     * 0x7FC0003F */
    w(ALT, ~UINT64_C(0) & ~APPLY);
    assert_int_equal(r(ALT), 0x7FC0003F);
    w(ALT, 0);
    /* E4M3 with ALT.ZP 10 and ZP_OFFS 2: ALT reads A_EN | A_FMT(2) = 0x48000000; EFF_PET 8
     * (31:28), EFF_EW 8 (00), EFF_ALT_EN (23), UNSUP_FMT (15): 0x80808000 */
    w(ALT, APPLY | A_EN | A_FMT(2) | A_ZP(10) | A_ZPOFFS(2));
    assert_int_equal(r(ALT), 0x48000000);
    assert_int_equal(r(STAT), 0x80808000);
    w(ALT, APPLY | A_EN | A_FMT(2));
    assert_int_equal(r(STAT), 0x80800000);
    /* E5M2 is supported and clean */
    w(ALT, APPLY | A_EN | A_FMT(3) | A_SAT);
    assert_int_equal(r(STAT), 0x90C00000); /* PET 9, ALT_EN, EFF_SAT (22) */
    cap_profile_free(p);
}

/* P-179: BF16_LITE through ALT is effective PET BF16 (2, not 12), EW 16, EFF_ALT_EN 1; xcvt
 * type code 12 converts exactly like code 2. REQ: CAP-103 */
static void test_bf16_lite(void **state)
{
    (void)state;
    w(ALT, APPLY | A_EN | A_FMT(1));
    /* EFF_PET 2 << 28 | EFF_EW 1 << 26 | EFF_ACCW FP32 (0) | EFF_ALT_EN 1 << 23 */
    assert_int_equal(r(STAT), 0x24800000);
    assert_int_equal(r(ALT), A_EN | A_FMT(1));
    cap_snap s;
    cap_snapshot(&C, &s);
    assert_int_equal(s.pet, 2);
    assert_int_equal(s.ew, 1);
    /* code 15 (EFF_PET) is BF16 now: 1.0 FP32 -> 0x3F80 */
    assert_int_equal(xcvt_ok(1, 15, 0x3F800000), 0x3F80);
    /* ALT_ACCW / ALT_SAT still apply: ACCW FP16 (1) at 25:24, SAT (22) */
    w(ALT, APPLY | A_EN | A_FMT(1) | A_ACCW(1) | A_SAT);
    assert_int_equal(r(STAT), 0x25C00000);
    w(ALT, APPLY);

    /* code 12 vs code 2, values by hand (BF16 = the upper half of binary32, RNE):
     *  1.0 0x3F800000 -> 0x3F80; 0x3F808000 tie, even 0x3F80 kept; 0x3F818000 tie, odd
     *  0x3F81 -> 0x3F82; 0x3F80C000 above half -> 0x3F81; FP32 max 0x7F7FFFFF -> +inf 0x7F80
     *  (OF|NX); sNaN 0x7FA00000 -> quieted 0x7FE0 (NV|SNAN_SEEN) */
    static const struct {
        uint32_t in, out, flags;
    } v[] = {
        {0x3F800000, 0x3F80, 0},       {0x3F808000, 0x3F80, NX},
        {0x3F818000, 0x3F82, NX},      {0x3F80C000, 0x3F81, NX},
        {0x7F7FFFFF, 0x7F80, OF | NX}, {0x7FA00000, 0x7FE0, NV | SNAN_SEEN},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        for (unsigned code = 2; code <= 12; code += 10) {
            w(EXC_ST, 0x7F);
            assert_int_equal(xcvt_ok(1, code, v[i].in), v[i].out);
            assert_int_equal(r(EXC_ST), v[i].flags);
        }
    }
    /* BF16_LITE -> FP32 (exact, zero-extended), -> FP16, -> BF16_LITE, -> INT8 */
    assert_int_equal(xcvt_ok(12, 1, 0xC2F7), 0xC2F70000);
    assert_int_equal(xcvt_ok(12, 0, 0x3F80), 0x3C00);
    assert_int_equal(xcvt_ok(12, 12, 0x3F81), 0x3F81);
    assert_int_equal(xcvt_ok(2, 12, 0x3F81), 0x3F81);
    assert_int_equal(xcvt_ok(12, 3, 0xC0B0), (uint64_t)-6);   /* -5.5 -> RNE -6 */
    assert_int_equal(xcvt_ok(12, 1, 0x1234C0B0), 0xC0B00000); /* upper bits ignored */

    /* a profile whose ALT_SUP lacks code 1: the ALT is unsupported (P-171) */
    cap_profile *p = use_profile("  cap_prec_cap: {ALT_SUP: 0x3C}\n");
    w(ALT, APPLY | A_EN | A_FMT(1));
    assert_int_equal(r(STAT), 0x04008000);
    cap_profile_free(p);
}

/* Every CAP CSR read (0x7C0-0x7F7). */
static void read_all(uint64_t v[CAP_CSR_COUNT])
{
    for (uint32_t a = CAP_CSR_LO; a <= CAP_CSR_HI; a++)
        v[a - CAP_CSR_LO] = r(a);
}

/* Two snapshots hold the same state (field by field: the struct has padding). */
static void assert_snap_equal(const cap_snap *a, const cap_snap *b, uint64_t stat_ignore)
{
    assert_int_equal(a->pol.rm, b->pol.rm);
    assert_int_equal(a->pol.sat, b->pol.sat);
    assert_int_equal(a->pol.sat_mode, b->pol.sat_mode);
    assert_int_equal(a->pol.ftz, b->pol.ftz);
    assert_int_equal(a->pol.nan_pol, b->pol.nan_pol);
    assert_int_equal(a->pol.q, b->pol.q);
    assert_int_equal(a->pol.uns, b->pol.uns);
    assert_int_equal(a->pol.zp_en, b->pol.zp_en);
    assert_int_equal(a->pol.zp, b->pol.zp);
    assert_int_equal(a->pol.scale_sh, b->pol.scale_sh);
    assert_int_equal(a->stat & ~stat_ignore, b->stat & ~stat_ignore);
    assert_int_equal(a->pet, b->pet);
    assert_int_equal(a->ew, b->ew);
    assert_int_equal(a->accw, b->accw);
    assert_int_equal(a->pack, b->pack);
    assert_int_equal(a->uns, b->uns);
    assert_int_equal(a->mixed, b->mixed);
    assert_int_equal(a->zmode, b->zmode);
    assert_int_equal(a->sae, b->sae);
    assert_int_equal(a->exc_en, b->exc_en);
    assert_int_equal(a->alu_sup, b->alu_sup);
    assert_memory_equal(a->xmem, b->xmem, sizeof a->xmem);
}

/* STAT stickies (UNSUP_FMT 15, DOWNCAST 14, SAT_HIT 13, FTZ_HIT 12) */
#define S_STICKIES UINT64_C(0xF000)

/* One xcvt FP32 1e10 -> FP16 (OF|NX, +inf 0x7C00 under RNE) with OSAE; checks the trap
 * decision, that the stickies accrue, and that nothing else in CAP changes. */
static void osae_case(unsigned osae, bool want_trap, uint64_t want_mtval)
{
    uint64_t before[CAP_CSR_COUNT], after[CAP_CSR_COUNT];
    cap_snap s0, s1;
    w(EXC_ST, 0x7F);
    read_all(before);
    cap_snapshot(&C, &s0);
    uint64_t out = 0x55, trap = 0;
    bool ill = true;
    bool ok = cap_xcvt(&C, &s0, 0x01 | osae << 8, 0x501502F9, &out, &ill, &trap);
    assert_false(ill);
    if (want_trap) {
        assert_false(ok);
        assert_int_equal(trap, want_mtval);
        assert_int_equal(out, 0x55);
    } else {
        assert_true(ok);
        assert_int_equal(out, 0x7C00);
    }
    assert_int_equal(r(EXC_ST), OF | NX); /* stickies accrue, trap or not */
    assert_true(r(STAT) & S_DOWNCAST);
    read_all(after);
    for (uint32_t a = CAP_CSR_LO; a <= CAP_CSR_HI; a++) {
        uint64_t ign = a == EXC_ST ? ~UINT64_C(0) : a == STAT ? S_STICKIES : 0;
        if ((before[a - CAP_CSR_LO] & ~ign) != (after[a - CAP_CSR_LO] & ~ign))
            fail_msg("OSAE %u changed CSR 0x%x: 0x%llx -> 0x%llx", osae, a,
                     (unsigned long long)before[a - CAP_CSR_LO],
                     (unsigned long long)after[a - CAP_CSR_LO]);
    }
    cap_snapshot(&C, &s1);
    assert_snap_equal(&s0, &s1, S_STICKIES);
}

/* P-180: FMTSEL bits 9:8 = OSAE, a one-shot SAE override: 00 the snapshot's EFF_SAE, 10 SAE
 * 0 (traps even with SAE_DEF or SAE), 11 SAE 1 (no trap, stickies set); 01 and bits 11:10
 * illegal. It changes no CAP state. REQ: CAP-012 CAP-123 CAP-005 CAP-124 CAP-125 CAP-128 */
static void test_xcvt_osae(void **state)
{
    (void)state;
    w(EXC_EN, OF);
    /* SAE_DEF 0, SAE 0 */
    osae_case(0, true, OF);
    osae_case(2, true, OF);
    osae_case(3, false, 0);
    /* SAE_DEF 1 */
    w(MODE, APPLY | M_EW(1) | M_SAEDEF);
    osae_case(0, false, 0);
    osae_case(2, true, OF);
    osae_case(3, false, 0);
    /* MODE.SAE 1 */
    w(MODE, APPLY | M_EW(1) | M_SAE);
    osae_case(0, false, 0);
    osae_case(2, true, OF);
    osae_case(3, false, 0);
    /* both; two enabled flags: mtval OF|NX = 0x5 */
    w(MODE, APPLY | M_EW(1) | M_SAE | M_SAEDEF);
    w(EXC_EN, OF | NX);
    osae_case(2, true, OF | NX);
    osae_case(0, false, 0);
    /* SAE 0 for the instruction does not enable anything: EXC.EN 0 (or only UF) never traps */
    w(EXC_EN, 0);
    osae_case(2, false, 0);
    w(EXC_EN, UF | DZ);
    osae_case(2, false, 0);
    /* the override is one-shot: the next plain xcvt uses the snapshot's SAE again */
    w(EXC_EN, OF);
    w(MODE, APPLY | M_EW(1));
    osae_case(3, false, 0);
    osae_case(0, true, OF);
    /* combined with other source/destination codes and code 15 */
    cap_snap s;
    cap_snapshot(&C, &s);
    uint64_t out = 0, trap = 0;
    bool ill;
    assert_true(cap_xcvt(&C, &s, 0x3F1, 0x501502F9, &out, &ill, &trap)); /* -> EFF_PET FP16 */
    assert_int_equal(out, 0x7C00);
    assert_false(cap_xcvt(&C, &s, 0x2F1, 0x501502F9, &out, &ill, &trap));
    assert_false(ill);
    assert_int_equal(trap, OF);

    /* illegal: OSAE 01, any of bits 11:10 (alone or with a legal OSAE); nothing accrues,
     * nothing changes, rd is not written */
    w(EXC_ST, 0x7F);
    uint64_t before[CAP_CSR_COUNT], after[CAP_CSR_COUNT];
    read_all(before);
    static const unsigned bad[] = {0x101, 0x401, 0x801, 0xC01, 0x501, 0x601, 0x701, 0xB01, 0x1F1};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        out = 0x1234;
        ill = false;
        if (cap_xcvt(&C, &s, bad[i], 0x501502F9, &out, &ill, &trap))
            fail_msg("FMTSEL 0x%x accepted", bad[i]);
        assert_true(ill);
        assert_int_equal(out, 0x1234);
    }
    read_all(after);
    assert_memory_equal(before, after, sizeof before);
}

/* ---- Replay (CAP 5.1.8) ---- */

#define REPLAY_N 6

/* Runs the replay workload: xcvt of fixed inputs under the live state; results and the
 * EXC.ST/STAT stickies after each. */
static void replay_run(uint64_t out[REPLAY_N], uint64_t st[REPLAY_N], uint64_t stat[REPLAY_N])
{
    static const struct {
        unsigned sel;
        uint32_t in;
    } op[REPLAY_N] = {
        {0xF1, 0x3F800000}, /* 1.0 -> EFF_PET */
        {0xF1, 0x43FA0000}, /* 500.0 -> EFF_PET */
        {0xF1, 0x3E99999A}, /* 0.3 -> EFF_PET */
        {0x31, 0x3FE00000}, /* 1.75 -> INT8 (quantized) */
        {0x01, 0x7FA00000}, /* sNaN -> FP16 */
        {0x1F, 0x000000C4}, /* EFF_PET -> FP32 */
    };
    for (int i = 0; i < REPLAY_N; i++) {
        w(EXC_ST, 0x7F);
        cap_snap s;
        cap_snapshot(&C, &s);
        uint64_t trap = 0;
        bool ill;
        out[i] = 0xdead;
        assert_true(cap_xcvt(&C, &s, op[i].sel, op[i].in, &out[i], &ill, &trap));
        st[i] = r(EXC_ST);
        stat[i] = r(STAT);
    }
}

/* Replay: software reads back MODE, ALT (the applied values, written with APPLY) and
 * EXC.EN, and later re-writes them with APPLY0/APPLY1 in the same order: STAT, every result
 * and every sticky are the same, on a changed state and after a reset. REQ: CAP-152
 * REQ: CAP-006 CAP-053 */
static void test_replay(void **state)
{
    (void)state;
    /* EXC.EN first (IE_MASK latches at APPLY); DZ never arises in a conversion */
    w(EXC_EN, DZ);
    w(MODE, APPLY | M_PET(3) | M_EW(0) | M_RM(1) | M_SATMODE | M_Q | M_ZPEN(1) | M_ZP(0xFE) |
                M_SCALE(-1) | M_NAN(1));
    w(ALT, APPLY | A_EN | A_FMT(2) | A_ACCW(1) | A_MIXED | A_SAT);
    const uint64_t mode = r(MODE), alt = r(ALT), en = r(EXC_EN), stat = r(STAT);
    /* STAT by fields: EFF_PET 8 (E4M3) 0x80000000 | ACCW FP16 1 << 24 | ALT_EN 1 << 23 |
     * SAT 1 << 22 | RTZ 1 << 19 | Q 1 << 18 | NAN_POL canonical 1 << 8 | IE_MASK DZ 0x8 =
     * 0x81CC0108; SAT_MODE (33) | MIXED (35) | ZP_EN 1 (37:36) | EFF_ZP = ALT.ZP 0 |
     * SCALE_SH -1 = 0x7F (52:46) */
    assert_int_equal(stat, UINT64_C(0x81CC0108) | UINT64_C(1) << 33 | UINT64_C(1) << 35 |
                               UINT64_C(1) << 36 | UINT64_C(0x7F) << 46);
    uint64_t out1[REPLAY_N], st1[REPLAY_N], stat1[REPLAY_N];
    replay_run(out1, st1, stat1);
    /* a few by hand: 1.0 -> E4M3 0x38; 500 > 448 with SAT -> 0x7E, SAT_HIT|NX; 1.75 * 2^1
     * = 3.5 -> RTZ 3 (+ ZP 0); sNaN canonical FP16 0x7E00, NV|SNAN_SEEN; E4M3 0xC4 =
     * -(1 + 4/8) * 2^(8-7) = -3.0 -> FP32 0xC0400000 */
    assert_int_equal(out1[0], 0x38);
    assert_int_equal(out1[1], 0x7E);
    assert_int_equal(st1[1], NX);
    assert_true(stat1[1] & S_SATHIT);
    assert_int_equal(out1[3], 3);
    assert_int_equal(out1[4], 0x7E00);
    assert_int_equal(st1[4], NV | SNAN_SEEN);
    assert_int_equal(out1[5], 0xC0400000);

    for (int round = 0; round < 2; round++) {
        if (round == 0) { /* software changes everything in between */
            w(MODE, APPLY | M_PET(1) | M_EW(2) | M_RM(3) | M_SAEDEF);
            w(ALT, APPLY | A_EN | A_FMT(5));
            w(EXC_EN, 0x1F);
            cap_accrue(&C, NUM_OF | NUM_FTZ_HIT);
        } else { /* a fresh hart */
            cap_reset(&C, NULL);
        }
        w(EXC_EN, en);
        w(MODE, mode | APPLY);
        w(ALT, alt | APPLY);
        assert_int_equal(r(STAT), stat);
        uint64_t out2[REPLAY_N], st2[REPLAY_N], stat2[REPLAY_N];
        replay_run(out2, st2, stat2);
        assert_memory_equal(out1, out2, sizeof out1);
        assert_memory_equal(st1, st2, sizeof st1);
        assert_memory_equal(stat1, stat2, sizeof stat1);
    }
}

/* ---- P-177: runtime profiles and cap_prof_sel (0xBC0) ---- */

#define PROF_SEL 0xBC0u /* cap_prof_sel (design P-177), written out by hand */

/* The advisory CSRs (design P-177) and their values under indices 0, 1, 2, by hand:
 * FEAT0 0x118 / 2: 0x108; TIER.REG 0 / 2: VGPR 2 | SGPR 1 << 2 = 0x6; TIER.WAVE 0 / 1: 3;
 * HINT.ALIGN 0x4 (A64) / 1: A128 = 0x8; HINT.LDSBK 2 / 2: 3; the rest keep the defaults
 * (FEAT1 0x7, TIER.LDS 0x0010007C, TIER.SAMP/RT 0, HINT.BVHGR 0). */
static const struct {
    uint32_t addr;
    uint64_t v[3];
} adv[] = {
    {0x7C5, {0x118, 0x118, 0x108}},
    {0x7C6, {0x7, 0x7, 0x7}},
    {0x7C8, {0, 0, 0x6}},
    {0x7C9, {0, 3, 0}},
    {0x7CA, {0x0010007C, 0x0010007C, 0x0010007C}},
    {0x7CB, {0, 0, 0}},
    {0x7CC, {0, 0, 0}},
    {0x7CD, {0x4, 0x8, 0x4}},
    {0x7CE, {0, 0, 0}},
    {0x7CF, {0x2, 0x2, 0x3}},
};

static bool is_advisory(uint32_t a)
{
    for (size_t i = 0; i < sizeof adv / sizeof adv[0]; i++)
        if (adv[i].addr == a) return true;
    return false;
}

static void assert_profile(unsigned idx)
{
    assert_int_equal(r(PROF_CUR), idx);
    assert_int_equal(r(PROF_SEL), idx);
    for (size_t i = 0; i < sizeof adv / sizeof adv[0]; i++)
        if (r(adv[i].addr) != adv[i].v[idx])
            fail_msg("index %u: CSR 0x%x reads 0x%llx, want 0x%llx", idx, adv[i].addr,
                     (unsigned long long)r(adv[i].addr), (unsigned long long)adv[i].v[idx]);
}

/* Everything that is not advisory (and not PROF.CUR) is as in `before`. */
static void assert_non_advisory(const uint64_t before[CAP_CSR_COUNT])
{
    for (uint32_t a = CAP_CSR_LO; a <= CAP_CSR_HI; a++) {
        if (a == PROF_CUR || is_advisory(a)) continue;
        if (r(a) != before[a - CAP_CSR_LO])
            fail_msg("CSR 0x%x changed: 0x%llx -> 0x%llx", a,
                     (unsigned long long)before[a - CAP_CSR_LO], (unsigned long long)r(a));
    }
}

/* A profile switch through cap_prof_select / 0xBC0: PROF.CUR and the advisory CSRs of the
 * new index change together; PREC (staged and applied), STAT with its stickies, EXC.*,
 * XMEM/SVMEM and every descriptor do not; a snapshot is the same before and after.
 * REQ: CAP-068 CAP-069 CAP-070 CAP-074 CAP-073 CAP-065 CAP-066 CAP-067 CAP-009 CAP-075 */
static void test_prof_select(void **state)
{
    (void)state;
    char err[256];
    cap_profile *p = cap_profile_parse(rt_yaml, sizeof rt_yaml - 1, "rt.yaml", err, sizeof err);
    if (!p) fail_msg("%s", err);
    cap_reset(&C, p);
    assert_int_equal(r(FLAGS), 3);
    assert_int_equal(r(PROF_SUP), 7);
    assert_profile(0);
    /* non-advisory state that a switch must leave alone: applied and staged MODE/ALT that
     * differ, EXC.EN, EXC.ST and STAT stickies, XMEM/SVMEM */
    w(MODE, APPLY | M_PET(3) | M_EW(0) | M_RM(2) | M_SAT | M_Q | M_ZP(4));
    w(MODE, M_PET(1) | M_EW(2));
    w(ALT, APPLY | A_EN | A_FMT(2) | A_MIXED);
    w(ALT, A_EN | A_FMT(3));
    w(EXC_EN, OF | NV);
    cap_accrue(&C, NUM_NX | NUM_SAT_HIT | NUM_QNAN_SEEN | NUM_DOWNCAST_TAKEN);
    w(DOM, 5);
    w(0x7F0, 0x1000); /* SVMBASE */
    w(L1CFG, (uint64_t)2 << 24);
    cap_xmem_event(&C, 1);
    uint64_t before[CAP_CSR_COUNT];
    read_all(before);
    cap_snap s0, s1;
    cap_snapshot(&C, &s0);

    assert_true(cap_prof_select(&C, 2));
    assert_profile(2);
    assert_non_advisory(before);
    cap_snapshot(&C, &s1);
    assert_snap_equal(&s0, &s1, 0);
    /* 2 -> 1: what 2 changed goes back to the base values */
    assert_true(cap_prof_select(&C, 1));
    assert_profile(1);
    assert_non_advisory(before);
    /* the same index again: accepted, nothing changes */
    assert_true(cap_prof_select(&C, 1));
    assert_profile(1);
    /* indices outside SUP are ignored (WARL): CUR stays in SUP */
    static const unsigned out[] = {3, 4, 7, 8, 16, 31};
    for (size_t i = 0; i < sizeof out / sizeof out[0]; i++) {
        assert_false(cap_prof_select(&C, out[i]));
        assert_profile(1);
    }
    assert_non_advisory(before);
    /* through the CSR: bits 4:0 are the index, the rest is ignored */
    w(PROF_SEL, 2);
    assert_profile(2);
    w(PROF_SEL, 0x20 | 0);
    assert_profile(0);
    w(PROF_SEL, UINT64_C(0xFFFFFFFF00000001));
    assert_profile(1);
    w(PROF_SEL, ~UINT64_C(0)); /* index 31: not in SUP */
    assert_profile(1);
    w(PROF_SEL, 0x1F & ~0x18u); /* index 7 */
    assert_profile(1);
    w(PROF_SEL, 0);
    assert_profile(0);
    assert_non_advisory(before);
    /* PROF.CUR and PROF.SUP still ignore writes */
    w(PROF_CUR, 2);
    w(PROF_SUP, 0xFF);
    assert_profile(0);
    assert_int_equal(r(PROF_SUP), 7);
    /* the snapshot after all of this is the one from before */
    cap_snapshot(&C, &s1);
    assert_snap_equal(&s0, &s1, 0);
    /* the staged images are still the ones written before the switches: applying them
     * (MODE PET FP32 (1), EW 32 (2); then ALT E5M2 (3)) gives EFF_PET 9 and EW 8 (0) */
    w(MODE, r(MODE) | APPLY);
    w(ALT, r(ALT) | APPLY);
    assert_int_equal(S_PET(r(STAT)), 9);
    assert_int_equal(S_EW(r(STAT)), 0);
    /* only 0x7C0-0x7F7 and 0xBC0 belong to the unit */
    uint64_t v;
    assert_true(cap_csr_read(&C, 0xBC0, &v));
    assert_false(cap_csr_read(&C, 0xBBF, &v));
    assert_false(cap_csr_read(&C, 0xBC1, &v));
    assert_false(cap_csr_write(&C, 0xBC1, 0));
    /* reset: back to the profile's CUR (0) and its values */
    assert_true(cap_prof_select(&C, 2));
    cap_reset(&C, p);
    assert_profile(0);
    assert_int_equal(r(MODE), 0x80000);
    cap_profile_free(p);
}

/* HAS_PROFILES without RUNTIME_MUTABLE: the switch changes only PROF.CUR; without
 * HAS_PROFILES (the default) 0xBC0 reads 0 and ignores writes. REQ: CAP-009 CAP-067
 * REQ: CAP-073 CAP-074 CAP-065 */
static void test_prof_select_static(void **state)
{
    (void)state;
    uint64_t before[CAP_CSR_COUNT];
    cap_profile *p = use_profile("  cap_flags: {HAS_PROFILES: 1}\n  cap_prof_sup: 0x6\n"
                                 "  cap_prof_cur: 2\n  cap_feat0: 0x8\n");
    assert_int_equal(r(PROF_CUR), 2);
    assert_int_equal(r(PROF_SEL), 2);
    read_all(before);
    assert_true(cap_prof_select(&C, 1));
    assert_int_equal(r(PROF_CUR), 1);
    assert_int_equal(r(PROF_SEL), 1);
    assert_false(cap_prof_select(&C, 0)); /* SUP 0b110 */
    assert_int_equal(r(PROF_CUR), 1);
    for (uint32_t a = CAP_CSR_LO; a <= CAP_CSR_HI; a++)
        if (a != PROF_CUR && r(a) != before[a - CAP_CSR_LO])
            fail_msg("CSR 0x%x changed without RUNTIME_MUTABLE", a);
    assert_int_equal(r(FEAT0), 0x8);
    cap_profile_free(p);

    cap_reset(&C, NULL);
    read_all(before);
    assert_int_equal(r(PROF_SEL), 0);
    assert_false(cap_prof_select(&C, 0));
    assert_false(cap_prof_select(&C, 1));
    w(PROF_SEL, 1);
    w(PROF_SEL, 0);
    assert_int_equal(r(PROF_SEL), 0);
    uint64_t after[CAP_CSR_COUNT];
    read_all(after);
    assert_memory_equal(before, after, sizeof before);
}

/* CAP.FLAGS reports the global flags of CAP 4.1.2 as the implementation (its profile)
 * sets them: RUNTIME_MUTABLE bit 0, HAS_PROFILES bit 1, nothing else; a write changes
 * nothing. Each combination by hand. REQ: CAP-050 */
static void test_flags(void **state)
{
    (void)state;
    static const struct {
        const char *csrs;
        uint64_t flags;
    } v[] = {
        {"  cap_feat0: 0x118\n", 0},
        {"  cap_flags: {RUNTIME_MUTABLE: 1}\n", 1},
        {"  cap_flags: {HAS_PROFILES: 1}\n  cap_prof_sup: 0x1\n", 2},
        {"  cap_flags: {RUNTIME_MUTABLE: 1, HAS_PROFILES: 1}\n  cap_prof_sup: 0x3\n", 3},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        cap_profile *p = use_profile(v[i].csrs);
        assert_int_equal(r(FLAGS), v[i].flags);
        w(FLAGS, ~v[i].flags);
        assert_int_equal(r(FLAGS), v[i].flags);
        cap_profile_free(p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup(test_reset_values, setup),
        cmocka_unit_test_setup(test_ro_ignore_writes, setup),
        cmocka_unit_test_setup(test_unassigned_addresses, setup),
        cmocka_unit_test_setup(test_sae_persistent, setup),
        cmocka_unit_test_setup(test_scale_sign, setup),
        cmocka_unit_test_setup(test_xmem_all_present, setup),
        cmocka_unit_test_setup(test_reserved_zp_en, setup),
        cmocka_unit_test_setup(test_reserved_bits, setup),
        cmocka_unit_test_setup(test_staging_invisible, setup),
        cmocka_unit_test_setup(test_apply, setup),
        cmocka_unit_test_setup(test_examples_6_1_6_2, setup),
        cmocka_unit_test_setup(test_alt_mapping, setup),
        cmocka_unit_test(test_type_codes),
        cmocka_unit_test_setup(test_alt_inherit, setup),
        cmocka_unit_test_setup(test_zero_point, setup),
        cmocka_unit_test_setup(test_unsupported, setup),
        cmocka_unit_test_setup(test_stickies, setup),
        cmocka_unit_test_setup(test_ie_mask, setup),
        cmocka_unit_test_setup(test_trap_gating, setup),
        cmocka_unit_test_setup(test_mirrors, setup),
        cmocka_unit_test_setup(test_policy_mapping, setup),
        cmocka_unit_test_setup(test_snapshot_isolation, setup),
        cmocka_unit_test_setup(test_snapshot_xmem, setup),
        cmocka_unit_test_setup(test_xmem, setup),
        cmocka_unit_test_setup(test_profile_discovery, setup),
        cmocka_unit_test_setup(test_state_stable, setup),
        cmocka_unit_test_setup(test_xcvt_formats, setup),
        cmocka_unit_test_setup(test_xcvt_illegal, setup),
        cmocka_unit_test_setup(test_xcvt_policy, setup),
        cmocka_unit_test_setup(test_xcvt_trap, setup),
        cmocka_unit_test_setup(test_absent_fields, setup),
        cmocka_unit_test_setup(test_absent_alt_zp, setup),
        cmocka_unit_test_setup(test_bf16_lite, setup),
        cmocka_unit_test_setup(test_xcvt_osae, setup),
        cmocka_unit_test_setup(test_replay, setup),
        cmocka_unit_test_setup(test_prof_select, setup),
        cmocka_unit_test_setup(test_prof_select_static, setup),
        cmocka_unit_test_setup(test_flags, setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
