/* rvfp.h — RISC-V F and D arithmetic over raw bit patterns (IEEE 754-2008 binary32 and
 * binary64 as the RISC-V unprivileged ISA 2019+ specifies them).
 *
 * Pure functions: no hart state. The caller (the hart) does NaN-boxing, resolves the
 * dynamic rounding mode (frm) and rejects reserved modes, and accrues the returned flags
 * into fflags. Every function that can raise an exception takes `unsigned *fflags` and
 * ORs RVFP_NV/DZ/OF/UF/NX into it (it never clears bits).
 *
 *   rm: the RESOLVED rounding mode, RVFP_RNE..RVFP_RMM (0..4); other values are a
 *       caller bug (treated as RNE).
 *   NaN results are always the canonical NaN (RVFP_QNAN_S / RVFP_QNAN_D); payloads are
 *       never propagated, as RISC-V requires.
 *   Tininess is detected after rounding (RISC-V); UF is raised only when the tiny result
 *       is also inexact.
 *
 * Host state: the functions use the host FPU's rounding modes and sticky flags for one
 * operation at a time and put them back to the C default (round to nearest, flags clear
 * on x86-64) before returning, so callers may freely use host floating point around
 * them. Thread-safe (the host FP environment is per thread).
 */
#ifndef XPHMG_NUM_RVFP_H
#define XPHMG_NUM_RVFP_H

#include <stdint.h>

/* fflags bits (fcsr[4:0]). */
enum { RVFP_NX = 0x01, RVFP_UF = 0x02, RVFP_OF = 0x04, RVFP_DZ = 0x08, RVFP_NV = 0x10 };

/* Rounding modes (frm / instruction rm field values 0..4). */
enum { RVFP_RNE = 0, RVFP_RTZ = 1, RVFP_RDN = 2, RVFP_RUP = 3, RVFP_RMM = 4 };

/* fclass result bits. */
enum {
    RVFP_CLASS_NINF = 1u << 0,  /* -infinity */
    RVFP_CLASS_NNORM = 1u << 1, /* negative normal */
    RVFP_CLASS_NSUB = 1u << 2,  /* negative subnormal */
    RVFP_CLASS_NZERO = 1u << 3, /* -0 */
    RVFP_CLASS_PZERO = 1u << 4, /* +0 */
    RVFP_CLASS_PSUB = 1u << 5,  /* positive subnormal */
    RVFP_CLASS_PNORM = 1u << 6, /* positive normal */
    RVFP_CLASS_PINF = 1u << 7,  /* +infinity */
    RVFP_CLASS_SNAN = 1u << 8,  /* signalling NaN */
    RVFP_CLASS_QNAN = 1u << 9,  /* quiet NaN */
};

#define RVFP_QNAN_S UINT32_C(0x7fc00000)
#define RVFP_QNAN_D UINT64_C(0x7ff8000000000000)

/* ---- binary32 (F) ---- */
uint32_t rvfp_add_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags); /* a + b */
uint32_t rvfp_sub_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags); /* a - b */
uint32_t rvfp_mul_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags); /* a * b */
uint32_t rvfp_div_s(uint32_t a, uint32_t b, unsigned rm, unsigned *fflags); /* a / b */
uint32_t rvfp_sqrt_s(uint32_t a, unsigned rm, unsigned *fflags);            /* sqrt(a) */
/* Fused, one rounding: fmadd a*b+c, fmsub a*b-c, fnmsub -(a*b)+c, fnmadd -(a*b)-c.
 * inf*0 raises NV even when c is a quiet NaN (RISC-V). */
uint32_t rvfp_fmadd_s(uint32_t a, uint32_t b, uint32_t c, unsigned rm, unsigned *fflags);
uint32_t rvfp_fmsub_s(uint32_t a, uint32_t b, uint32_t c, unsigned rm, unsigned *fflags);
uint32_t rvfp_fnmsub_s(uint32_t a, uint32_t b, uint32_t c, unsigned rm, unsigned *fflags);
uint32_t rvfp_fnmadd_s(uint32_t a, uint32_t b, uint32_t c, unsigned rm, unsigned *fflags);
/* fmin/fmax (2019 rules): one NaN -> the other operand, both NaN -> canonical NaN,
 * -0 < +0, NV only for a signalling NaN input. */
uint32_t rvfp_min_s(uint32_t a, uint32_t b, unsigned *fflags);
uint32_t rvfp_max_s(uint32_t a, uint32_t b, unsigned *fflags);
/* Compares return 0/1. feq: NV only on sNaN; flt/fle: NV on any NaN. */
int rvfp_eq_s(uint32_t a, uint32_t b, unsigned *fflags);
int rvfp_lt_s(uint32_t a, uint32_t b, unsigned *fflags);
int rvfp_le_s(uint32_t a, uint32_t b, unsigned *fflags);
unsigned rvfp_classify_s(uint32_t a);          /* fclass.s: one RVFP_CLASS_* bit */
uint32_t rvfp_sgnj_s(uint32_t a, uint32_t b);  /* |a| with sign of b */
uint32_t rvfp_sgnjn_s(uint32_t a, uint32_t b); /* |a| with inverted sign of b */
uint32_t rvfp_sgnjx_s(uint32_t a, uint32_t b); /* a with sign a^b */
/* float -> integer: saturating; NaN and +inf -> max, -inf -> min; out of range (after
 * rounding) raises NV only; an in-range inexact result raises NX. The 32-bit forms return
 * the value the RV64 hart writes to rd: the 32-bit result sign-extended (also for wu). */
int64_t rvfp_cvt_w_s(uint32_t a, unsigned rm, unsigned *fflags);
int64_t rvfp_cvt_wu_s(uint32_t a, unsigned rm, unsigned *fflags);
int64_t rvfp_cvt_l_s(uint32_t a, unsigned rm, unsigned *fflags);
uint64_t rvfp_cvt_lu_s(uint32_t a, unsigned rm, unsigned *fflags);
/* integer -> float (NX when rounded). */
uint32_t rvfp_cvt_s_w(int32_t a, unsigned rm, unsigned *fflags);
uint32_t rvfp_cvt_s_wu(uint32_t a, unsigned rm, unsigned *fflags);
uint32_t rvfp_cvt_s_l(int64_t a, unsigned rm, unsigned *fflags);
uint32_t rvfp_cvt_s_lu(uint64_t a, unsigned rm, unsigned *fflags);
/* fcvt.s.d: narrowing with rounding (OF/UF/NX; sNaN -> NV; NaN -> canonical). */
uint32_t rvfp_cvt_s_d(uint64_t a, unsigned rm, unsigned *fflags);

/* ---- binary64 (D) ---- same contracts as the S forms. */
uint64_t rvfp_add_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fflags);
uint64_t rvfp_sub_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fflags);
uint64_t rvfp_mul_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fflags);
uint64_t rvfp_div_d(uint64_t a, uint64_t b, unsigned rm, unsigned *fflags);
uint64_t rvfp_sqrt_d(uint64_t a, unsigned rm, unsigned *fflags);
uint64_t rvfp_fmadd_d(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fflags);
uint64_t rvfp_fmsub_d(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fflags);
uint64_t rvfp_fnmsub_d(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fflags);
uint64_t rvfp_fnmadd_d(uint64_t a, uint64_t b, uint64_t c, unsigned rm, unsigned *fflags);
uint64_t rvfp_min_d(uint64_t a, uint64_t b, unsigned *fflags);
uint64_t rvfp_max_d(uint64_t a, uint64_t b, unsigned *fflags);
int rvfp_eq_d(uint64_t a, uint64_t b, unsigned *fflags);
int rvfp_lt_d(uint64_t a, uint64_t b, unsigned *fflags);
int rvfp_le_d(uint64_t a, uint64_t b, unsigned *fflags);
unsigned rvfp_classify_d(uint64_t a);
uint64_t rvfp_sgnj_d(uint64_t a, uint64_t b);
uint64_t rvfp_sgnjn_d(uint64_t a, uint64_t b);
uint64_t rvfp_sgnjx_d(uint64_t a, uint64_t b);
int64_t rvfp_cvt_w_d(uint64_t a, unsigned rm, unsigned *fflags);
int64_t rvfp_cvt_wu_d(uint64_t a, unsigned rm, unsigned *fflags);
int64_t rvfp_cvt_l_d(uint64_t a, unsigned rm, unsigned *fflags);
uint64_t rvfp_cvt_lu_d(uint64_t a, unsigned rm, unsigned *fflags);
uint64_t rvfp_cvt_d_w(int32_t a, unsigned rm, unsigned *fflags);   /* exact: never flags */
uint64_t rvfp_cvt_d_wu(uint32_t a, unsigned rm, unsigned *fflags); /* exact: never flags */
uint64_t rvfp_cvt_d_l(int64_t a, unsigned rm, unsigned *fflags);
uint64_t rvfp_cvt_d_lu(uint64_t a, unsigned rm, unsigned *fflags);
/* fcvt.d.s: exact widening (rm accepted for a uniform signature, unused); sNaN -> NV;
 * NaN -> canonical. */
uint64_t rvfp_cvt_d_s(uint32_t a, unsigned rm, unsigned *fflags);

#endif
