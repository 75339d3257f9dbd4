/* xphmg/num.h — the XPHMG numeric engine: number formats and the CAP numeric policy.
 *
 * Pure functions over raw bit patterns; no CSR or hart state. CAP's CSR file maps the
 * effective PREC state (EFF, latched at the instruction boundary) to a `num_policy` and
 * accrues the returned flags into CAP.PREC.EXC.ST / CAP.PREC.STAT. Every consumer (CAP,
 * XMEM conversions, RT outputs) calls this module, so the numeric semantics exist once
 * (CAP 5.1.2). The decisions behind each rule are in docs/errata.md, section "## CAP",
 * "### Numeric engine".
 *
 * Everything is bit-exact and independent of the host FPU and its rounding mode:
 * rounding is done in integer arithmetic on the significand.
 *
 * Conventions
 *   - A value in format F is held in the low num_fmt_bits(F) bits of a uint32_t; higher
 *     bits of inputs are ignored, higher bits of results are zero (INT8 -1 is 0xFF).
 *   - Functions OR flags into *flags and never clear bits (sticky accrual); flags may
 *     be NULL.
 *   - Bad arguments (unknown format, NULL policy) give result 0 and NUM_NV, never a crash.
 */
#ifndef XPHMG_NUM_H
#define XPHMG_NUM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Formats ------------------------------------------------------------------- */

typedef enum {
    NUM_FP32 = 0, /* IEEE binary32 */
    NUM_FP16,     /* IEEE binary16 */
    NUM_BF16,     /* bfloat16: binary32 with 7 fraction bits */
    NUM_E4M3,     /* OCP OFP8 E4M3: bias 7, no infinities, NaN = S.1111.111, max 448 */
    NUM_E5M2,     /* OCP OFP8 E5M2: bias 15, IEEE-like (inf, NaNs), max 57344 */
    NUM_I32,
    NUM_U32,
    NUM_I16,
    NUM_U16,
    NUM_I8,
    NUM_U8,
    NUM_I4, /* two per byte when packed */
    NUM_U4,
    NUM_I2, /* four per byte when packed */
    NUM_U2,
    NUM_FMT_COUNT
} num_fmt;

bool num_fmt_valid(num_fmt f);
unsigned num_fmt_bits(num_fmt f); /* storage width: 32, 16, 8, 4 or 2 (0 if invalid) */
bool num_fmt_is_float(num_fmt f);
bool num_fmt_is_signed(num_fmt f);   /* true for FP formats and I* */
const char *num_fmt_name(num_fmt f); /* "fp32", "fp16", "bf16", "e4m3", "e5m2", "i32", ... */
/* Parses a name as printed by num_fmt_name, or fp8_e4m3/fp8_e5m2/int8/uint8/... (any
 * case); -1 if unknown. */
int num_fmt_from_name(const char *name);
/* Integer format of `bits` (32/16/8/4/2) with the given signedness; -1 if none. */
int num_fmt_int(unsigned bits, bool is_unsigned);
/* True when `dst` cannot represent every value of `src` (a narrowing conversion). This
 * is the definition of DOWNCAST_TAKEN: see num_convert. */
bool num_fmt_narrows(num_fmt dst, num_fmt src);

/* ---- Policy -------------------------------------------------------------------- */

/* Rounding modes: the RISC-V rm encoding (Q-18 option 1), shared with rvfp.h. */
typedef enum {
    NUM_RNE = 0, /* nearest, ties to even */
    NUM_RTZ = 1, /* toward zero (the spec's "RZ"/"RTZ") */
    NUM_RDN = 2, /* toward -inf */
    NUM_RUP = 3, /* toward +inf */
    NUM_RMM = 4, /* nearest, ties away from zero */
} num_rm;

/* NAN_POL: what a NaN result becomes. Codes are the CSR field values. */
typedef enum {
    NUM_NAN_PROPAGATE = 0, /* quiet the first NaN operand, keep sign and high payload */
    NUM_NAN_CANONICAL = 1, /* positive canonical quiet NaN (RISC-V style) */
    NUM_NAN_ZERO = 2,      /* squash NaN results to +0 */
} num_nan_pol;

/* SAT_MODE: 0 clamp to [min, max]; 1 symmetric clamp to [-max, max] (signed
 * integer destinations never produce the most negative value). FP is symmetric anyway. */
typedef enum { NUM_SAT_CLAMP = 0, NUM_SAT_SYMMETRIC = 1 } num_sat_mode;

/* ZP_EN. Per-channel: the engine has no channel table; the caller passes each
 * channel's zero point in `zp` (CAP reports per-channel as UNSUP_FMT, see errata). */
typedef enum { NUM_ZP_OFF = 0, NUM_ZP_TENSOR = 1, NUM_ZP_CHANNEL = 2 } num_zp_mode;

typedef struct {
    num_rm rm;             /* EFF_FP_RMODE; values > 4 are treated as RNE */
    bool sat;              /* EFF_SAT: clamp on overflow instead of IEEE overflow */
    num_sat_mode sat_mode; /* SAT_MODE, used only when sat */
    bool ftz;              /* DENORM_FTZ: subnormal inputs and results become signed 0 */
    num_nan_pol nan_pol;   /* EFF_NAN_POL; other values are treated as canonical */
    /* Quantization (used only when q, and only between FP and integer formats):
     *   FP -> INT:  q = clamp(round(x * 2^-scale_sh) + zp)
     *   INT -> FP:  x = round((q - zp) * 2^scale_sh)
     * One rounding; 2^scale_sh scaling is exact. zp is used only when zp_en != OFF. */
    bool q;
    bool uns; /* UNS: the caller picks U* formats (num_policy_int_fmt) */
    num_zp_mode zp_en;
    int32_t zp;       /* zero point (CAP: MODE.ZP as int8 if signed, uint8 if UNS) */
    int32_t scale_sh; /* SCALE_SH: power-of-two scale exponent, -64..63 */
} num_policy;

/* Reset policy (CAP 5.2.7, Q-32): RNE, SAT=0, clamp, no FTZ, NAN_POL=propagate, Q=0. */
num_policy num_policy_default(void);
/* The integer format of `bits` with the policy's signedness (UNS); -1 if none. */
int num_policy_int_fmt(const num_policy *pol, unsigned bits);

/* ---- Flags --------------------------------------------------------------------- */

/* Bits 6:0 are CAP.PREC.EXC.ST (4:0 = fflags order, Q-27 option 1 for the NaN-seen
 * bits); bits 10:8 go to CAP.PREC.STAT (SAT_HIT, FTZ_HIT, DOWNCAST_TAKEN). */
typedef uint32_t num_flags;
#define NUM_NX             (1u << 0)
#define NUM_UF             (1u << 1)
#define NUM_OF             (1u << 2)
#define NUM_DZ             (1u << 3)
#define NUM_NV             (1u << 4)
#define NUM_QNAN_SEEN      (1u << 5)  /* a quiet NaN operand was consumed */
#define NUM_SNAN_SEEN      (1u << 6)  /* a signalling NaN operand was consumed (+NV) */
#define NUM_SAT_HIT        (1u << 8)  /* a result was clamped (SAT=1) */
#define NUM_FTZ_HIT        (1u << 9)  /* a subnormal input or result was flushed */
#define NUM_DOWNCAST_TAKEN (1u << 10) /* a narrowing conversion was performed */
#define NUM_FFLAGS_MASK    0x1fu
#define NUM_EXC_ST_MASK    0x7fu
#define NUM_STAT_MASK      (NUM_SAT_HIT | NUM_FTZ_HIT | NUM_DOWNCAST_TAKEN)

/* The exceptions that trap (CAP 4.4.2.5): the raised IEEE flags that are enabled in
 * EXC.EN (bits 4:0, fflags order) when the effective SAE is 0; 0 = no trap. */
num_flags num_trap_pending(num_flags flags, uint32_t exc_en, bool sae);

/* ---- Conversions --------------------------------------------------------------- */

/* Converts `bits` in format `src` to format `dst` under `pol`.
 * FP -> FP: one IEEE rounding (rm); tininess after rounding; UF only if inexact.
 *   Overflow: SAT=0 gives the IEEE result (inf or max finite by rm) with OF|NX; an
 *   infinite result in E4M3 (no inf) is its NaN. SAT=1 gives +-max finite with
 *   SAT_HIT|NX (no OF). Infinite inputs stay infinite where dst has inf; to E4M3 they
 *   give NaN|NV (SAT=0) or +-448 with SAT_HIT (SAT=1).
 * FP -> INT: round to integer by rm, then range check. Out of range or NaN: SAT=0
 *   follows RISC-V fcvt (clamp, NaN -> max, NV only); SAT=1 clamps with SAT_HIT|NX
 *   (NaN -> 0 with NV). In-range inexact: NX.
 * INT -> INT: out of range as FP -> INT. INT -> FP: rounding/overflow as FP -> FP.
 * NaN operands: sNaN raises NV|SNAN_SEEN, qNaN raises QNAN_SEEN; the NaN result follows
 *   NAN_POL. FTZ: subnormal inputs read as signed zero (FTZ_HIT); subnormal results are
 *   flushed to signed zero (FTZ_HIT|UF|NX).
 * DOWNCAST_TAKEN: set whenever num_fmt_narrows(dst, src), whatever the value.
 * Quantization: see num_policy. */
uint32_t num_convert(num_fmt dst, num_fmt src, uint32_t bits, const num_policy *pol,
                     num_flags *flags);

/* ---- Arithmetic ---------------------------------------------------------------- */

/* a*b + c with a single rounding into `dst` (the accumulator format, ACCW): a and b are
 * in `src` (the element format, PET), c and the result in `dst`. Works for any pair of
 * formats (an FP16 x FP16 + FP32 MAC, an INT8 x INT8 + INT32 MAC, ...): the exact
 * value is computed first, then rounded and range-checked as num_convert does
 * (quantization is not applied here). NaN/inf rules are IEEE 754 (inf*0, inf-inf: NV
 * and a new NaN). No DOWNCAST_TAKEN. */
uint32_t num_fma(num_fmt dst, num_fmt src, uint32_t a, uint32_t b, uint32_t c,
                 const num_policy *pol, num_flags *flags);
/* a*b rounded into dst (a, b in src). */
uint32_t num_mul(num_fmt dst, num_fmt src, uint32_t a, uint32_t b, const num_policy *pol,
                 num_flags *flags);
/* a+b, all in fmt. */
uint32_t num_add(num_fmt fmt, uint32_t a, uint32_t b, const num_policy *pol, num_flags *flags);

/* ---- Helpers ------------------------------------------------------------------- */

/* The exact value of `bits` in `f` as a double (all formats fit exactly); NaN inputs
 * give a quiet NaN. For tools and traces; never used for rounding. */
double num_to_double(num_fmt f, uint32_t bits);
/* Sign-extends an integer-format value to int64 (zero-extends U*; FP formats: bits). */
int64_t num_int_value(num_fmt f, uint32_t bits);
bool num_is_nan(num_fmt f, uint32_t bits);

/* Packed sub-byte elements: element i of a packed buffer lives in byte i / (8/w) at bit
 * offset (i % (8/w)) * w — element 0 in the least-significant nibble/crumb
 * (little-endian, like the byte order). For w >= 8 the element is w/8 little-endian
 * bytes. buf_len bounds the buffer; out-of-range access returns false. */
bool num_pack_get(const uint8_t *buf, size_t buf_len, num_fmt f, size_t index, uint32_t *bits);
bool num_pack_put(uint8_t *buf, size_t buf_len, num_fmt f, size_t index, uint32_t bits);

#ifdef __cplusplus
}
#endif

#endif
