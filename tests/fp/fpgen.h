/* fpgen.h — random F/D test inputs biased towards the places where rounding goes wrong:
 * subnormals, ties (few significant bits), values just below a power of two, results
 * aimed at the underflow and overflow edges, fma addends that cancel the product,
 * integer range edges and NaNs with payloads. Deterministic (splitmix64) for a seed.
 * Shared by the host tests and the generator of guest-level vectors. No host floating
 * point beyond the plain multiplication used to place fma addends. */
#ifndef XPHMG_TESTS_FPGEN_H
#define XPHMG_TESTS_FPGEN_H

#include <stdint.h>

enum { FPGEN_ARITH, FPGEN_FF, FPGEN_TOINT, FPGEN_FROMINT };

void fpgen_seed(uint64_t seed);
uint64_t fpgen_rnd(void);
/* One operand of format fmt (0 = binary32, 1 = binary64); near >= 0 asks for a biased
 * exponent within +-spread of it. */
uint64_t fpgen_operand(int fmt, int near, int spread);
/* The biased exponent field of x. */
int fpgen_bexp(int fmt, uint64_t x);
/* Inputs for one operation: kind FPGEN_*, fmt = the operation's format (FF: the result
 * format; TOINT: the source; FROMINT: the result), nargs (ARITH), bits (32/64 integers).
 * Unused inputs are 0. */
void fpgen_inputs(int kind, int fmt, int nargs, int bits, uint64_t *a, uint64_t *b, uint64_t *c);

#endif
