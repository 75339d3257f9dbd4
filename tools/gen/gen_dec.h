/* gen_dec.h — emit the simulator decoder described by src/sim/xdec.h. */
#ifndef XPHMG_GEN_DEC_H
#define XPHMG_GEN_DEC_H

#include <stdbool.h>
#include <stdio.h>

#include "gen_model.h"

/* xdec_ops.h: enum xop. */
bool gen_dec_ops(FILE *out, const gen_model *m);
/* xdec_gen.c: xdec_decode() as a decision tree of switches, then mask/match
 * tests in encoding Order, and xop_names[]. */
bool gen_dec_c(FILE *out, const gen_model *m);

#endif
