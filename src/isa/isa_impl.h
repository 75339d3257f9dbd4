/* isa_impl.h — internals of the ISA library shared by its modules (not installed).
 *
 * The public structs in xphmg/isa.h are embedded as the first member of the
 * *_impl structs below, so a public pointer handed out by the library can be
 * turned back into its impl with a cast. All memory of a spec lives in one arena
 * freed at once by isa_free.
 */
#ifndef XPHMG_ISA_IMPL_H
#define XPHMG_ISA_IMPL_H

#include "xphmg/isa.h"

/* ---- arena ------------------------------------------------------------ */

typedef struct isa_arena_block isa_arena_block;
typedef struct {
    isa_arena_block *head;
} isa_arena;

void *isa_arena_alloc(isa_arena *a, size_t n); /* zeroed; NULL when out of memory */
char *isa_arena_strdup(isa_arena *a, const char *s);
void isa_arena_free(isa_arena *a);

/* ---- model ------------------------------------------------------------ */

/* One (opcode -> instruction encoding) entry of an encoding's opcode map. */
typedef struct {
    uint64_t opcode;
    const isa_instruction *insn;
    const isa_insn_encoding *ienc;
} isa_opmap;

typedef struct {
    isa_encoding pub;     /* first: public pointers cast back to this */
    uint64_t *ids_masked; /* identifier & mask, precomputed for matching */
    unsigned nmap;
    isa_opmap *map;       /* sorted by opcode (stable: document order among equals) */
    const void *xml_node; /* its element, valid only while loading (error messages) */
} isa_enc_impl;

typedef struct {
    isa_operand_type pub;          /* first */
    uint32_t direct_n;             /* values below direct_n are looked up in direct[] */
    uint16_t *direct;              /* value -> predef index + 1, 0 = no name */
    const char *reference_unnamed; /* the reference's text for a value without a name */
} isa_type_impl;

/* the reference disassembler decodes encoding enc only for words with
 * (word & mask) == match and prints the others as data. */
typedef struct {
    const isa_encoding *enc;
    uint64_t mask, match;
} isa_reference_match;

typedef struct {
    const char *name;
    const char *description;
    unsigned subgroup_count;
    const char **subgroups;
} isa_group;

/* AsmFormat (or the default syntax) compiled at load time, so printing does no string
 * scanning: literals, operand references, and optional groups. */
enum { ISA_TK_LIT, ISA_TK_OP, ISA_TK_GROUP };
typedef struct {
    uint8_t kind;
    uint8_t op;      /* ISA_TK_OP: operand index */
    uint16_t len;    /* ISA_TK_LIT: bytes of lit; ISA_TK_GROUP: tokens inside the group */
    const char *lit; /* ISA_TK_LIT */
} isa_tok;

typedef struct {
    bool space; /* a blank after the mnemonic */
    unsigned n;
    isa_tok *tok;
} isa_tpl;

/* An alias with its compiled template. */
typedef struct {
    isa_alias pub; /* first */
    isa_tpl tpl;
} isa_alias_impl;

/* One (encoding, identifier) pair in a decode bucket: what the scan needs, contiguous. */
typedef struct {
    uint64_t mask;
    uint64_t id;  /* identifier & mask */
    uint16_t enc; /* index into encs */
    uint8_t bits; /* the encoding's BitCount */
} isa_bucket_ent;

struct isa_spec {
    isa_arena arena;
    const char *file;
    const char *arch_name;
    unsigned arch_id;
    const char *schema_version;

    unsigned nenc;
    isa_enc_impl *encs; /* ascending Order */
    unsigned ninsn;
    isa_instruction *insns; /* document order */
    unsigned nienc;
    isa_insn_encoding *iencs; /* every instruction's encodings, in one array */
    isa_tpl *tpls;            /* compiled syntax, parallel to iencs */
    unsigned ntype;
    isa_type_impl *types;
    unsigned nfmt;
    isa_data_format *fmts;
    unsigned nreg;
    isa_register *regs;
    unsigned ngroup;
    isa_group *groups;

    unsigned nalias;
    isa_alias_impl *aliases;              /* document order */
    const isa_alias_impl **alias_by_ienc; /* grouped by instruction encoding, document order */
    unsigned *alias_off;                  /* nienc + 1 offsets into alias_by_ienc */

    unsigned nrefmatch;
    isa_reference_match *refmatch; /* X-21, document order */

    /* name indexes, sorted by name (stable) */
    const isa_instruction **insn_by_name;
    const isa_alias_impl **alias_by_name;

    /* decoder: encodings bucketed by up to 16 key bits taken from the low
     * min(min_bits, 16) bits of the word (see isa_decode.c) */
    unsigned min_bits;
    unsigned max_bits;
    uint32_t key_lo[256], key_hi[256];
    uint32_t *bucket_off;       /* (1 << key_count) + 1 offsets into bucket_ent */
    isa_bucket_ent *bucket_ent; /* ascending Order per bucket */
};

/* Builds the decode buckets (isa_decode.c); false when out of memory. */
bool isa_build_decoder(isa_spec *s);
/* Compiles every instruction encoding's syntax (isa_asm.c); false when out of memory. */
bool isa_compile_templates(isa_spec *s);

/* Compiles template fmt (an AsmFormat over ie's operands; NULL: the default syntax)
 * into tp, in the spec's arena (isa_asm.c); false when out of memory. */
bool isa_compile_tpl(isa_spec *s, const isa_insn_encoding *ie, const char *fmt, isa_tpl *tp);
/* Prints mnemonic and the operands of d through tp, like isa_format (isa_asm.c);
 * reference: values without a name as the reference disassembler prints them. */
int isa_format_tpl(const isa_decoded *d, const char *mnemonic, const isa_tpl *tp, bool reference,
                   char *buf, size_t len);
/* isa_format, optionally in the reference disassembler's text (X-21) (isa_asm.c). */
int isa_format_insn(const isa_spec *spec, const isa_decoded *d, bool reference, char *buf,
                    size_t len);
/* isa_format_alias, optionally in the reference disassembler's text (isa_alias.c). */
int isa_format_alias_insn(const isa_spec *s, const isa_decoded *d, bool reference, char *buf,
                          size_t len);

/* Predefined name of value v in type t, or NULL. */
const isa_predef *isa_type_lookup(const isa_operand_type *t, uint64_t v);
/* Predefined value named name (case-sensitive), or NULL. */
const isa_predef *isa_type_find_name(const isa_operand_type *t, const char *name, size_t len);

/* Operand value from its raw field bits. */
int64_t isa_operand_extend(const isa_operand *op, uint64_t raw);

/* Range checks and the OP field for an instruction encoding; shared by isa_encode and
 * isa_assemble. */
isa_status isa_encode_checked(const isa_insn_encoding *ie, const uint64_t *raw, unsigned n,
                              uint64_t *word, const char **why);

#endif
