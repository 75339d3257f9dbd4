/* gen_guest.h — emit the guest header xphmg_insn.h (CSR numbers, CSR field
 * macros, `.insn` intrinsics for the XPHMG instructions) and a guest C file that
 * calls every intrinsic, with a manifest the host test checks it against. */
#ifndef XPHMG_GEN_GUEST_H
#define XPHMG_GEN_GUEST_H

#include <stdbool.h>
#include <stdio.h>

#include "gen_model.h"

bool gen_guest_header(FILE *out, const gen_model *m);
/* A C file including xphmg_insn.h with one function t_<name> per intrinsic, and
 * a manifest: one line per function, "t_<name> <mnemonic> [FIELD=0xRAW ...]",
 * giving the raw field value every immediate operand must encode. */
bool gen_guest_test(FILE *c_out, FILE *manifest, const gen_model *m);

#endif
