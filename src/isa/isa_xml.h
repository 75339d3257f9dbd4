/* isa_xml.h — small helpers the loader uses to read AMD-schema XML with libxml2:
 * child lookup by name (X-01: order free, unknown children ignored), trimmed text,
 * numbers with Radix, booleans, bit layouts, and the
 * one-error-per-load "FILE:LINE: <Element>: message" reporting. Internal. */
#ifndef XPHMG_ISA_XML_H
#define XPHMG_ISA_XML_H

#include <libxml/tree.h>

#include "isa_impl.h"

/* Loader state: the spec being built and the first error. */
typedef struct {
    isa_spec *s;
    const char *file;
    char *err;
    size_t errlen;
    isa_status st;
} ld;

#define FOR_KIDS(var, parent, a, b)                                                                \
    for (xmlNode *var = (parent) ? (parent)->children : NULL; var; var = var->next)                \
        if (xml_is(var, a) || ((b) && xml_is(var, (b))))

/* Records the first error only; always returns false. */
bool xml_fail(ld *c, isa_status st, const xmlNode *n, const char *fmt, ...);
bool xml_nomem(ld *c, const xmlNode *n);
void *xml_alloc(ld *c, size_t n); /* arena memory; records out-of-memory */
/* Arena memory for n elements of elem bytes; room for one even when n = 0, so that an
 * empty list still has a valid pointer (NULL only when out of memory). */
void *xml_alloc_array(ld *c, size_t n, size_t elem);
bool xml_is(const xmlNode *n, const char *name);
/* Index of s in names[0..n), -1 when it is none of them (an attribute's or element's
 * closed set of spellings). */
int xml_pick(const char *s, const char *const *names, size_t n);
/* First element child named a (or b, another accepted spelling; may be NULL). */
xmlNode *xml_kid(const xmlNode *p, const char *a, const char *b);
unsigned xml_count(const xmlNode *p, const char *a, const char *b);
/* Trimmed text of n, copied into the arena (NULL only when out of memory). */
const char *xml_txt(ld *c, const xmlNode *n);
/* Text of child a|b, or "" when absent. */
const char *xml_opt_txt(ld *c, const xmlNode *p, const char *a, const char *b);
/* Text of a required, non-empty child; NULL with an error otherwise. */
const char *xml_req_txt(ld *c, const xmlNode *p, const char *a, const char *b);
bool xml_parse_num(ld *c, const xmlNode *n, const char *s, int radix, uint64_t *v);
int xml_radix(ld *c, const xmlNode *n, int def);
bool xml_num(ld *c, const xmlNode *n, int def_radix, bool radix_attr, uint64_t *v);
bool xml_req_num(ld *c, const xmlNode *p, const char *name, int def_radix, bool radix_attr,
                 uint64_t *v);
bool xml_opt_num(ld *c, const xmlNode *p, const char *name, int def_radix, bool radix_attr,
                 uint64_t def, uint64_t *v);
bool xml_req_small(ld *c, const xmlNode *p, const char *name, uint64_t max, unsigned *v);
bool xml_parse_bool(ld *c, const xmlNode *n, const char *s, bool *out);
bool xml_flag(ld *c, const xmlNode *p, const char *name, bool *out);
bool xml_attr_bool(ld *c, const xmlNode *n, const char *name, bool def, bool *out, bool *present);
bool xml_attr_num(ld *c, const xmlNode *n, const char *name, uint64_t *out, bool *present);
/* BitLayout of owner into r[]; limit is the container's bit count (0: 64). */
bool xml_layout(ld *c, const xmlNode *owner, unsigned limit, isa_range *r, unsigned *count,
                unsigned *width);

/* Loader steps shared across the library's modules. */
/* X-14 check of template s over ie's operands (isa_load.c). */
bool isa_check_asm_format(ld *c, const xmlNode *n, const isa_insn_encoding *ie, const char *s);
/* reads ISA/Aliases once the instructions are loaded (isa_alias.c). */
bool isa_load_aliases(ld *c, const xmlNode *isa);
/* Compiles the alias templates and builds the per-encoding and name indexes once the
 * instruction templates exist (isa_alias.c); false when out of memory. */
bool isa_index_aliases(isa_spec *s);
/* reads ISA/ReferenceDisassembly once the encodings and operand types are loaded
 * (isa_reference.c). */
bool isa_load_reference(ld *c, const xmlNode *isa);

#endif
