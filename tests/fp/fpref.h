/* fpref.h — an independent reference for RISC-V F/D arithmetic, used only by the tests.
 *
 * It shares no code with src/num/rvfp.c and uses no host floating point: operands are
 * decoded into exact integers (M * 2^E), the operation is carried out exactly in big
 * integers (division and square root with an explicit remainder), and the exact value is
 * rounded once by ref_round, which follows IEEE 754-2008 as the RISC-V ISA profiles it:
 * tininess after rounding, canonical NaN results, saturating integer conversions.
 * Formats are selected by FP_S / FP_D; bit patterns travel as uint64_t.
 */
#ifndef XPHMG_TESTS_FPREF_H
#define XPHMG_TESTS_FPREF_H

#include <stdint.h>

enum { FP_S = 0, FP_D = 1 };

enum refop {
    REF_ADD,
    REF_SUB,
    REF_MUL,
    REF_DIV,
    REF_SQRT,
    REF_FMADD,
    REF_FMSUB,
    REF_FNMSUB,
    REF_FNMADD,
};

/* Arithmetic of format fmt: result bits, flags ORed into *fl. b, c unused where the op
 * takes fewer operands. */
uint64_t ref_arith(int fmt, enum refop op, uint64_t a, uint64_t b, uint64_t c, unsigned rm,
                   unsigned *fl);
/* fcvt.s.d and fcvt.d.s. */
uint64_t ref_cvt_f_f(int to_fmt, uint64_t a, unsigned rm, unsigned *fl);
/* Float -> integer of `bits` (32 or 64) width, signed or not: the value RV64 writes to rd
 * (32-bit results sign-extended). */
uint64_t ref_cvt_to_int(int fmt, uint64_t a, int bits, int is_signed, unsigned rm, unsigned *fl);
/* Integer (already widened to 64 bits as the instruction reads it) -> float. */
uint64_t ref_cvt_from_int(int fmt, uint64_t v, int bits, int is_signed, unsigned rm, unsigned *fl);

#endif
