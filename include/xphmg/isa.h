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
    ISA_ERR_IO,          /* file cannot be read */
    ISA_ERR_XML,         /* not well-formed XML */
    ISA_ERR_SCHEMA,      /* missing/invalid element or attribute */
    ISA_ERR_REF,         /* dangling reference (encoding, field, format, type, group) */
    ISA_ERR_TRUNCATED,   /* buffer too short for any matching encoding */
    ISA_ERR_UNKNOWN,     /* no encoding/instruction matches the bits or the text */
    ISA_ERR_SYNTAX,      /* assembly text does not parse */
    ISA_ERR_RANGE,       /* operand value does not fit its field */
    ISA_ERR_ARG,         /* bad argument (NULL, unknown architecture, ...) */
    ISA_ERR_NOMEM,
} isa_status;

const char *isa_status_str(isa_status s);

/* ---- The loaded model (read-only after load). ---------------------------- */

typedef struct isa_spec isa_spec;

#define ISA_MAX_RANGES 8
#define ISA_MAX_OPERANDS 8
#define ISA_MAX_FIELDS 16

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
} isa_encoding;

typedef struct {
    const char *name;  /* assembly name */
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
    unsigned order;            /* assembly position, from 1 */
    const isa_field *field;    /* NULL when not encoded */
    const isa_data_format *format;
    const isa_operand_type *type;
    unsigned size;             /* OperandSize, bits */
    bool input, output, implicit, binary_required;
    bool has_default;
    uint64_t default_value;    /* Operand/@DefaultValue */
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

/* Load a spec file. On failure returns NULL and writes "FILE:LINE: message" to err. */
isa_spec *isa_load(const char *path, char *err, size_t errlen);
/* Load from memory (fuzzing, embedded specs); name is used in messages. */
isa_spec *isa_load_memory(const char *xml, size_t len, const char *name, char *err,
                          size_t errlen);
void isa_free(isa_spec *spec);

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

/* Value of a field in an instruction word (concatenation and padding, X-05),
 * not sign-extended. */
uint64_t isa_field_extract(const isa_field *f, uint64_t word);
/* Inverse: place value into word; ISA_ERR_RANGE if it does not fit or padding
 * bits disagree. */
isa_status isa_field_insert(const isa_field *f, uint64_t value, uint64_t *word);

/* ---- Decoded instructions. --------------------------------------------- */

typedef struct {
    const isa_operand *operand;
    uint64_t raw;      /* field value as encoded (or the implicit value) */
    int64_t value;     /* after sign extension */
    const char *name;  /* predefined name, or NULL */
} isa_operand_value;

typedef struct {
    const isa_instruction *insn;
    const isa_insn_encoding *ienc;
    uint64_t word;     /* the instruction bits */
    unsigned length;   /* bytes */
    uint64_t address;  /* as given by the caller */
    unsigned operand_count;
    isa_operand_value operands[ISA_MAX_OPERANDS];
    bool has_target;   /* direct branch/jump with a pcrel operand */
    uint64_t target;
} isa_decoded;

/* Decode the first instruction in buf (little-endian parcels). */
isa_status isa_decode(const isa_spec *spec, const uint8_t *buf, size_t len, uint64_t address,
                      isa_decoded *out);
/* Decode a machine word of the given size (bits, or 0 to let the encodings decide). */
isa_status isa_decode_word(const isa_spec *spec, uint64_t word, unsigned bits,
                           uint64_t address, isa_decoded *out);

/* Assembly text of a decoded instruction: "mnemonic ops". Returns chars written
 * (like snprintf). With sym (may be NULL), pcrel targets get " <label>" appended by
 * the caller-supplied resolver. */
typedef const char *(*isa_symbolizer)(void *ctx, uint64_t address, uint64_t *offset);
int isa_format(const isa_spec *spec, const isa_decoded *d, char *buf, size_t len);

/* Parse one line of assembly into a decoded instruction (including its bits);
 * address is used for pcrel operands given as absolute addresses. */
isa_status isa_assemble(const isa_spec *spec, const char *text, uint64_t address,
                        isa_decoded *out, char *err, size_t errlen);

/* Encode an instruction from explicit operand raw values in assembly order. */
isa_status isa_encode(const isa_spec *spec, const isa_instruction *insn,
                      const isa_insn_encoding *ienc, const uint64_t *raw_values,
                      unsigned nvalues, uint64_t *word);

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
