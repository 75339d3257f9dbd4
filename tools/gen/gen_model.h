/* gen_model.h — the generator's view of one or more ISA spec files: the list of
 * instructions (deduplicated by name across files) and the list of decode
 * candidates (encoding x identifier x instruction), in decode order.
 *
 * Everything here is driven by the XML through include/xphmg/isa.h; the only
 * RISC-V knowledge of the generator lives in gen_dec.c (field name -> slot, the
 * contract of src/sim/xdec.h) and gen_guest.c (the GNU `.insn` forms). */
#ifndef XPHMG_GEN_MODEL_H
#define XPHMG_GEN_MODEL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "xphmg/isa.h"

#define GEN_MAX_SPECS 8

typedef struct {
    const isa_spec *spec;
    const isa_instruction *insn;
    char *ident;   /* C identifier part: "c.addi16sp" -> "C_ADDI16SP" */
    bool is_xphmg; /* custom major opcode or XPHMG_ functional group */
} gen_insn;

typedef struct {
    unsigned insn; /* index into gen_model.insns */
    const isa_insn_encoding *ienc;
    const isa_encoding *enc;
    unsigned bits;  /* encoding width: 16 or 32 */
    uint64_t mask;  /* encoding mask plus the OP field */
    uint64_t match; /* identifier & mask, plus the opcode in the OP field */
} gen_cand;

typedef struct {
    unsigned nspecs;
    isa_spec *specs[GEN_MAX_SPECS];
    const char *paths[GEN_MAX_SPECS];
    unsigned ninsns;
    gen_insn *insns;
    unsigned ncands;
    gen_cand *cands; /* decode order: spec, then encoding Order, then identifier */
} gen_model;

/* Loads the files and builds the lists. On failure prints a message naming the
 * file to stderr and returns false. */
bool gen_model_load(gen_model *m, const char *const *paths, unsigned npaths);
void gen_model_free(gen_model *m);

/* Upper-case C identifier for an instruction or register name: letters and digits
 * kept, everything else becomes '_'. Caller frees. */
char *gen_ident_upper(const char *name);
char *gen_ident_lower(const char *name);

/* Writes a C expression (type uint64_t) that extracts field f from the variable
 * `var` as isa_field_extract does (ranges, padding; not sign-extended). */
void gen_emit_field_expr(FILE *out, const isa_field *f, const char *var);
/* Same, sign-extended from the field width to int64_t when is_signed. */
void gen_emit_value_expr(FILE *out, const isa_field *f, const char *var, bool is_signed);

#endif
