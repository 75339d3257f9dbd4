/* xphmg_cap.h — guest helpers for XPHMG_CAP numeric policy: the code values of the PREC
 * fields (docs/errata.md Q-17..Q-20) and the programming sequences of CAP section 6
 * (stage, APPLY, inspect STAT, enable traps, clear stickies, convert with `xcvt`).
 * CSR numbers, field positions, CSR accessors and the xcvt intrinsic come from the
 * generated xphmg_insn.h (one source: the XML); this header adds no layout of its own. Machine mode
 * only (CAP CSRs are M-mode, errata Q-01). Values are zero-extended 64-bit (errata Q-15's caveat).
 */
#ifndef XPHMG_CAP_H
#define XPHMG_CAP_H

#include <stdint.h>

#include "xphmg_insn.h"

/* Unified type codes (PET 0-5, EFF_PET and xcvt FMTSEL: errata Q-17). */
enum {
    XPHMG_T_FP16 = 0,
    XPHMG_T_FP32 = 1,
    XPHMG_T_BF16 = 2,
    XPHMG_T_INT8 = 3,
    XPHMG_T_INT16 = 4,
    XPHMG_T_INT32 = 5,
    XPHMG_T_E4M3 = 8,
    XPHMG_T_E5M2 = 9,
    XPHMG_T_INT4 = 10,
    XPHMG_T_INT2 = 11,
    XPHMG_T_BF16_LITE = 12, /* converts exactly as BF16 (errata P-179) */
    XPHMG_T_EFF = 15        /* xcvt: the effective PET */
};
/* ALT_FMT codes, ACCW/ALT_ACCW codes, EW codes, FP_RMODE,
 * NAN_POL, ZP_EN. */
enum {
    XPHMG_ALT_BF16_LITE = 1, /* effective PET BF16, EW 16 (errata P-179) */
    XPHMG_ALT_FP8_E4M3 = 2,
    XPHMG_ALT_FP8_E5M2 = 3,
    XPHMG_ALT_INT4 = 4,
    XPHMG_ALT_INT2 = 5
};
enum { XPHMG_ACCW_FP32 = 0, XPHMG_ACCW_FP16 = 1, XPHMG_ACCW_INT32 = 2, XPHMG_ACCW_INT16 = 3 };
enum { XPHMG_EW_8 = 0, XPHMG_EW_16 = 1, XPHMG_EW_32 = 2 };
enum { XPHMG_RM_RNE = 0, XPHMG_RM_RTZ = 1, XPHMG_RM_RDN = 2, XPHMG_RM_RUP = 3 };
enum { XPHMG_NAN_PROPAGATE = 0, XPHMG_NAN_CANONICAL = 1, XPHMG_NAN_ZERO = 2 };
enum { XPHMG_ZP_OFF = 0, XPHMG_ZP_TENSOR = 1 };
/* EXC.EN / EXC.ST bits (fflags order, Q-27). */
enum {
    XPHMG_EXC_NX = 1,
    XPHMG_EXC_UF = 2,
    XPHMG_EXC_OF = 4,
    XPHMG_EXC_DZ = 8,
    XPHMG_EXC_NV = 16,
    XPHMG_EXC_QNAN_SEEN = 32,
    XPHMG_EXC_SNAN_SEEN = 64
};

/* Field value `v` placed in field F (F = REG_FIELD prefix of xphmg_csr.h). */
#define XPHMG_FIELD(F, v)     ((((uint64_t)(v)) << F##_SHIFT) & F##_MASK)
#define XPHMG_FIELD_GET(F, r) ((unsigned)(((r)&F##_MASK) >> F##_SHIFT))

/* MODE fields; build one with XPHMG_FIELD(CAP_PREC_MODE_<F>, v) terms or this helper. */
static inline uint64_t xphmg_prec_mode(unsigned pet, unsigned ew, unsigned accw, unsigned rm)
{
    return XPHMG_FIELD(CAP_PREC_MODE_PET, pet) | XPHMG_FIELD(CAP_PREC_MODE_EW, ew) |
           XPHMG_FIELD(CAP_PREC_MODE_ACCW, accw) | XPHMG_FIELD(CAP_PREC_MODE_FP_RMODE, rm);
}

/* 6.1: stage MODE without APPLY0 (invisible), then apply the staged value. */
static inline void xphmg_prec_stage_mode(uint64_t mode)
{
    xphmg_csr_write(XPHMG_CSR_CAP_PREC_MODE, mode & ~CAP_PREC_MODE_APPLY0_MASK);
}
static inline void xphmg_prec_apply_staged_mode(void)
{
    xphmg_csr_set(XPHMG_CSR_CAP_PREC_MODE, CAP_PREC_MODE_APPLY0_MASK);
}
/* 6.1 in one write: all fields latch at once with APPLY0. */
static inline void xphmg_prec_apply_mode(uint64_t mode)
{
    xphmg_csr_write(XPHMG_CSR_CAP_PREC_MODE, mode | CAP_PREC_MODE_APPLY0_MASK);
}
/* 6.2: ALT with APPLY1; fmt = XPHMG_ALT_*, accw 0 = inherit MODE.ACCW. */
static inline uint64_t xphmg_prec_alt(unsigned fmt, unsigned accw, int mixed, int sat)
{
    return CAP_PREC_ALT_ALT_EN_MASK | XPHMG_FIELD(CAP_PREC_ALT_ALT_FMT, fmt) |
           XPHMG_FIELD(CAP_PREC_ALT_ALT_ACCW, accw) | XPHMG_FIELD(CAP_PREC_ALT_MIXED, mixed != 0) |
           XPHMG_FIELD(CAP_PREC_ALT_ALT_SAT, sat != 0);
}
static inline void xphmg_prec_apply_alt(uint64_t alt)
{
    xphmg_csr_write(XPHMG_CSR_CAP_PREC_ALT, alt | CAP_PREC_ALT_APPLY1_MASK);
}
static inline void xphmg_prec_disable_alt(void)
{
    xphmg_csr_write(XPHMG_CSR_CAP_PREC_ALT, CAP_PREC_ALT_APPLY1_MASK);
}
/* 6.3: the effective state and STAT stickies. */
static inline uint64_t xphmg_prec_stat(void)
{
    return xphmg_csr_read(XPHMG_CSR_CAP_PREC_STAT);
}
/* 6.4: trap enables (XPHMG_EXC_*; traps also need effective SAE = 0). */
static inline void xphmg_prec_enable_traps(uint32_t en)
{
    xphmg_csr_write(XPHMG_CSR_CAP_PREC_EXC_EN, en);
}
/* Reads EXC.ST and clears exactly what it read (W1C with csrw, errata Q-84). */
static inline uint32_t xphmg_prec_take_stickies(void)
{
    uint64_t st = xphmg_csr_read(XPHMG_CSR_CAP_PREC_EXC_ST);
    xphmg_csr_write(XPHMG_CSR_CAP_PREC_EXC_ST, st);
    return (uint32_t)st;
}

/* xcvt with constant formats: XPHMG_XCVT(x, XPHMG_T_FP32, XPHMG_T_FP16). The encoding
 * is the generated intrinsic's (xphmg_insn.h). */
#define XPHMG_XCVT(x, src, dst) xphmg_xcvt((x), ((src)&15) | (((dst)&15) << 4))
/* One-shot SAE override for one xcvt, ORed into its FMTSEL (errata P-180): SAE0 lets an
 * exception enabled in EXC.EN trap even under SAE_DEF/SAE, SAE1 suppresses the trap
 * (stickies are set either way). No CAP state changes. */
#define XPHMG_FMTSEL_SAE0                0x200
#define XPHMG_FMTSEL_SAE1                0x300
#define XPHMG_XCVT_SAE(x, src, dst, sae) xphmg_xcvt((x), ((src)&15) | (((dst)&15) << 4) | (sae))

/* Runtime profiles (errata P-177; HAS_PROFILES=1): the profile now selected, and a
 * switch (ignored unless CAP.PROF.SUP has idx). Profiles change advisory values only;
 * numeric and memory policy stay as programmed (CAP 4.3.3). */
static inline unsigned xphmg_prof_current(void)
{
    return (unsigned)xphmg_csr_read(XPHMG_CSR_CAP_PROF_CUR);
}
static inline void xphmg_prof_select(unsigned idx)
{
    xphmg_csr_write(XPHMG_CSR_CAP_PROF_SEL, idx);
}

#endif
