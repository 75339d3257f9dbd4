/* xphmg/isa.h — read an ISA described in AMD's XML ISA schema, then decode,
 * disassemble, look up and encode its instructions.
 *
 * The C counterpart of AMD's IsaDecoder. Schema-generic: the rules are in
 * spec/README.md (X-01 ... X-19); nothing here knows about RISC-V.
 *
 * Every function that can fail returns an isa_status and, where an error
 * buffer is given, writes a one-line message ("FILE:LINE: what is wrong").
 */
#ifndef XPHMG_ISA_H
#define XPHMG_ISA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    ISA_OK = 0,
    ISA_ERR_IO,        /* file cannot be read */
    ISA_ERR_XML,       /* not well-formed XML */
    ISA_ERR_SCHEMA,    /* missing/invalid element or attribute */
    ISA_ERR_REF,       /* dangling reference (encoding, field, format, type, group) */
    ISA_ERR_TRUNCATED, /* buffer too short for any matching encoding */
    ISA_ERR_UNKNOWN,   /* no encoding/instruction matches the bits or the text */
    ISA_ERR_SYNTAX,    /* assembly text does not parse */
    ISA_ERR_RANGE,     /* operand value does not fit its field */
    ISA_ERR_ARG,       /* bad argument (NULL, unknown architecture, ...) */
    ISA_ERR_NOMEM,
} isa_status;

const char *isa_status_str(isa_status s);

/* ---- The loaded model (read-only after load). ---------------------------- */

typedef struct isa_spec isa_spec;

#define ISA_MAX_RANGES   8
#define ISA_MAX_OPERANDS 8
#define ISA_MAX_FIELDS   16

typedef struct {
    uint8_t bit_count;
    uint8_t bit_offset;
    uint8_t pad_count; /* constant bits below this range */
    uint64_t pad_value;
} isa_range;

typedef struct {
    const char *name;
    const char *description;
    unsigned range_count;
    isa_range ranges[ISA_MAX_RANGES]; /* [0] least significant */
    unsigned width;                   /* sum of bit counts and padding */
} isa_field;

/* EncodingCondition of an encoding: kept as text, never evaluated. */
typedef struct {
    const char *name;
    const char *expression; /* text content of (Condtion|Condition)Expression, may be "" */
} isa_condition;

typedef struct {
    const char *name;
    const char *description;
    unsigned order;
    unsigned bit_count; /* 16, 32, ... */
    uint64_t mask;
    unsigned identifier_count;
    const uint64_t *identifiers;
    unsigned field_count;
    const isa_field *fields;
    int op_field; /* index of the OP field, -1 if none */
    unsigned condition_count;
    const isa_condition *conditions;
} isa_encoding;

typedef struct {
    const char *name; /* assembly name */
    const char *description;
    uint64_t value;
} isa_predef;

typedef enum { ISA_DISP_DEC, ISA_DISP_UDEC, ISA_DISP_HEX, ISA_DISP_PCREL } isa_display;

typedef struct {
    const char *name;
    const char *description;
    isa_display display;
    unsigned predef_count;
    const isa_predef *predefs;
} isa_operand_type;

typedef struct {
    const char *name;
    const char *description;
    const char *data_type; /* integer, float, bits, descriptor, unknown */
    unsigned bit_count;
    unsigned component_count;
    bool is_signed; /* first component Signedness == Signed */
} isa_data_format;

typedef struct {
    unsigned order;         /* assembly position, from 1 */
    const isa_field *field; /* NULL when not encoded */
    const isa_data_format *format;
    const isa_operand_type *type;
    unsigned size; /* OperandSize, bits */
    bool input, output, implicit, binary_required;
    bool has_default;
    uint64_t default_value; /* Operand/@DefaultValue */
} isa_operand;

typedef struct {
    const char *field;
    uint64_t not_value;
} isa_constraint;

typedef struct {
    const isa_encoding *encoding;
    const char *condition;
    uint64_t opcode;
    unsigned operand_count;
    const isa_operand *operands; /* sorted by order */
    unsigned constraint_count;
    const isa_constraint *constraints;
    const char *asm_format; /* NULL: default syntax */
} isa_insn_encoding;

typedef struct {
    const char *name;
    const char *description;
    bool is_branch, is_conditional_branch, is_indirect_branch;
    bool is_program_terminator, is_immediately_executed;
    const char *group;    /* functional group name, may be NULL */
    const char *subgroup; /* may be NULL */
    unsigned encoding_count;
    const isa_insn_encoding *encodings;
} isa_instruction;

typedef struct {
    const char *name;
    unsigned bit_count;
    unsigned range_count;
    isa_range ranges[ISA_MAX_RANGES];
    const char *access;
    uint64_t reset_value;
    const char *description;
} isa_reg_field;

typedef struct {
    const char *name;
    uint32_t address;
    const char *access;
    uint64_t reset_value;
    const char *unit;
    const char *description;
    unsigned field_count;
    const isa_reg_field *fields;
} isa_register;

/* Load a spec file. On failure returns NULL and writes "FILE:LINE: message" to err.
 * A loaded spec is read-only: decoding, formatting and assembling may run from several
 * threads at once. Loading itself installs a silent libxml2 generic error handler. */
isa_spec *isa_load(const char *path, char *err, size_t errlen);
/* Load from memory (fuzzing, embedded specs); name is used in messages. */
isa_spec *isa_load_memory(const char *xml, size_t len, const char *name, char *err, size_t errlen);
/* Same as isa_load / isa_load_memory, but also say which kind of error it was
 * (ISA_ERR_IO, _XML, _SCHEMA, _REF, _NOMEM); *out is NULL on failure. */
isa_status isa_open(const char *path, isa_spec **out, char *err, size_t errlen);
isa_status isa_open_memory(const char *xml, size_t len, const char *name, isa_spec **out, char *err,
                           size_t errlen);
void isa_free(isa_spec *spec);
/* Name of the file (or memory name) the spec was loaded from. */
const char *isa_spec_file(const isa_spec *spec);

const char *isa_arch_name(const isa_spec *spec);
unsigned isa_arch_id(const isa_spec *spec);
const char *isa_schema_version(const isa_spec *spec);

unsigned isa_instruction_count(const isa_spec *spec);
const isa_instruction *isa_instruction_at(const isa_spec *spec, unsigned i);
const isa_instruction *isa_find_instruction(const isa_spec *spec, const char *name);
unsigned isa_encoding_count(const isa_spec *spec);
const isa_encoding *isa_encoding_at(const isa_spec *spec, unsigned i); /* in Order */
const isa_encoding *isa_find_encoding(const isa_spec *spec, const char *name);
const isa_operand_type *isa_find_operand_type(const isa_spec *spec, const char *name);
const isa_data_format *isa_find_data_format(const isa_spec *spec, const char *name);
unsigned isa_data_format_count(const isa_spec *spec);
const isa_data_format *isa_data_format_at(const isa_spec *spec, unsigned i);
unsigned isa_register_count(const isa_spec *spec);
const isa_register *isa_register_at(const isa_spec *spec, unsigned i);
const isa_register *isa_find_register(const isa_spec *spec, const char *name);
const isa_register *isa_find_register_addr(const isa_spec *spec, uint32_t address);
/* Functional groups catalogue. */
unsigned isa_group_count(const isa_spec *spec);
const char *isa_group_name(const isa_spec *spec, unsigned i);
const char *isa_group_description(const isa_spec *spec, unsigned i);
/* Predefined value of an operand type by value (first in document order) or NULL. */
const isa_predef *isa_predef_by_value(const isa_operand_type *t, uint64_t value);

/* Value of a field in an instruction word (concatenation and padding, X-05),
 * not sign-extended. */
uint64_t isa_field_extract(const isa_field *f, uint64_t word);
/* Inverse: place value into word; ISA_ERR_RANGE if it does not fit or padding
 * bits disagree. */
isa_status isa_field_insert(const isa_field *f, uint64_t value, uint64_t *word);

/* ---- Decoded instructions. --------------------------------------------- */

typedef struct {
    const isa_operand *operand;
    uint64_t raw;     /* field value as encoded (or the implicit value) */
    int64_t value;    /* raw, sign-extended for immediates of a signed format;
                         operands with predefined values (registers) are never extended */
    const char *name; /* predefined name, or NULL */
} isa_operand_value;

typedef struct {
    const isa_instruction *insn;
    const isa_insn_encoding *ienc;
    uint64_t word;    /* the instruction bits */
    unsigned length;  /* bytes */
    uint64_t address; /* as given by the caller */
    unsigned operand_count;
    isa_operand_value operands[ISA_MAX_OPERANDS];
    bool has_target; /* direct branch/jump with a pcrel operand */
    uint64_t target;
} isa_decoded;

/* Decode the first instruction in buf (little-endian parcels, X-04). Encodings are tried
 * in Order. ISA_ERR_TRUNCATED: an encoding would match but needs more bytes
 * than len; ISA_ERR_UNKNOWN: nothing matches. Never allocates. */
isa_status isa_decode(const isa_spec *spec, const uint8_t *buf, size_t len, uint64_t address,
                      isa_decoded *out);
/* Decode a machine word of which the low `bits` bits are valid (0: all 64); an encoding
 * of BitCount n needs n <= bits. Same results as isa_decode. */
isa_status isa_decode_word(const isa_spec *spec, uint64_t word, unsigned bits, uint64_t address,
                           isa_decoded *out);

/* Assembly text of a decoded instruction: the mnemonic, one blank, the operands per
 * AsmFormat. Numbers as objdump prints them; a pcrel operand is the target
 * address in hex without "0x" (a caller such as xphmg-objdump appends " <symbol>").
 * Returns the length of the full text (like snprintf); buf may be NULL when len is 0.
 * (isa_symbolizer is reserved for a future isa_format variant; unused.) */
typedef const char *(*isa_symbolizer)(void *ctx, uint64_t address, uint64_t *offset);
int isa_format(const isa_spec *spec, const isa_decoded *d, char *buf, size_t len);

/* Parse one line of assembly into a decoded instruction (including its bits);
 * address is used for pcrel operands given as absolute addresses. Accepts what
 * isa_format prints (plus an objdump " <symbol>" suffix and a "# comment"), registers by
 * any predefined name or by number, numbers in decimal / 0x hex / 0b binary with a sign,
 * pcrel as .+N / .-N, and every alias of the spec: a mnemonic that names an
 * instruction is tried as that instruction first, then as the aliases of that name in
 * document order (out->insn is the aliased instruction). ISA_ERR_UNKNOWN (mnemonic), _SYNTAX,
 * _RANGE (value does not fit, hits a constraint, or the bits would decode as another instruction);
 * err says why. */
isa_status isa_assemble(const isa_spec *spec, const char *text, uint64_t address, isa_decoded *out,
                        char *err, size_t errlen);

/* Encode an instruction from explicit operand raw values: raw_values[i] is the field
 * value (as isa_operand_value.raw) of ienc->operands[i] (assembly order). Values of
 * not-encoded operands are ignored; operands past nvalues take their DefaultValue or 0.
 * ienc NULL: the instruction's first encoding. ISA_ERR_RANGE when a value does not fit
 * its field, two operands on one field differ, a value overlaps the encoding's fixed
 * bits or hits a constraint. Does not check that the word decodes back to insn
 * (isa_assemble does). */
isa_status isa_encode(const isa_spec *spec, const isa_instruction *insn,
                      const isa_insn_encoding *ienc, const uint64_t *raw_values, unsigned nvalues,
                      uint64_t *word);

/* ---- Aliases (spec/README.md X-20, extension). -------------------------------
 * An alias is another way of writing one instruction encoding when some of its fields
 * hold given values: GNU's pseudo-instructions (li, mv, ret, csrr, fmv.d ...) and the
 * compressed instructions written as their base forms (c.li a0,0 is li a0,0). They are
 * data in the spec (ISA/Aliases); the library prints the first applicable alias of an
 * encoding in document order, and the assembler accepts every alias. */

typedef enum {
    ISA_ALIAS_EQ,   /* field == value */
    ISA_ALIAS_NE,   /* field != value */
    ISA_ALIAS_SAME, /* field == other field */
} isa_alias_test;

typedef struct {
    const isa_field *field; /* a field of the encoding */
    isa_alias_test test;
    uint64_t value;         /* EQ, NE: raw field value (as isa_field_extract gives it) */
    const isa_field *other; /* SAME */
} isa_alias_cond;

typedef struct {
    const char *name; /* the alias mnemonic */
    const char *description;
    const isa_instruction *insn;
    const isa_insn_encoding *ienc;
    unsigned condition_count;
    const isa_alias_cond *conditions;
    const char *asm_format; /* X-14 template over ienc's operands; "" = no operands */
    bool disassemble;       /* false: accepted by the assembler, never printed */
} isa_alias;

unsigned isa_alias_count(const isa_spec *spec);
const isa_alias *isa_alias_at(const isa_spec *spec, unsigned i); /* document order */
/* Whether every condition of a holds for the instruction bits word. */
bool isa_alias_applies(const isa_alias *a, uint64_t word);
/* The alias d prints as (the first alias of d's encoding, in document order, that
 * disassembles and whose conditions hold), or NULL. Allocates nothing. */
const isa_alias *isa_alias_of(const isa_spec *spec, const isa_decoded *d);
/* isa_format, but with the alias of d when there is one (GNU objdump's default style;
 * isa_format is its -M no-aliases style). */
int isa_format_alias(const isa_spec *spec, const isa_decoded *d, char *buf, size_t len);

/* ---- Reference disassembly (spec/README.md X-21, extension). ----------------------
 * How the disassembler a spec names as its reference (binutils 2.40's objdump for
 * spec/xphmg.xml) prints instructions the ISA defines: some encodings it decodes only
 * for a narrower mask/match (it prints other words of them as data, `.4byte 0x...`), and
 * operand values without a predefined name print as a fixed text (`unknown`). Decoding,
 * assembling and execution never consult it (errata P-284). */

/* Whether the reference disassembler prints d as data rather than as an instruction. */
bool isa_reference_prints_data(const isa_spec *spec, const isa_decoded *d);
/* isa_format (aliases false) or isa_format_alias (aliases true) with the reference's
 * text for operand values without a predefined name. */
int isa_format_reference(const isa_spec *spec, const isa_decoded *d, bool aliases, char *buf,
                         size_t len);

/* ---- Several specs at once (the multi-architecture manager). ------------ */

typedef struct isa_manager isa_manager;
isa_manager *isa_manager_new(void);
void isa_manager_free(isa_manager *m); /* frees the specs it owns */
/* Loads path and registers it under its ArchitectureName; returns the spec. */
const isa_spec *isa_manager_load(isa_manager *m, const char *path, char *err, size_t errlen);
const isa_spec *isa_manager_get(const isa_manager *m, const char *arch_name);
unsigned isa_manager_count(const isa_manager *m);

#ifdef __cplusplus
}
#endif
#endif
