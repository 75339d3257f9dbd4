/* isa_alias.c — aliases (spec/README.md X-20): reading ISA/Aliases, indexing them by
 * instruction encoding, and choosing the alias a decoded instruction prints as.
 *
 * Choosing is on the disassembler's hot path: the aliases of each instruction encoding
 * sit in one contiguous run of alias_by_ienc, so a decoded instruction looks at only
 * its own few candidates and compares field values (no strings). */
#include <stdlib.h>
#include <string.h>

#include "isa_xml.h"

static const isa_field *enc_field(const isa_encoding *e, const char *name)
{
    for (unsigned k = 0; k < e->field_count; k++)
        if (!strcmp(e->fields[k].name, name)) return &e->fields[k];
    return NULL;
}

static bool load_condition(ld *c, const xmlNode *cn, const isa_encoding *e, isa_alias_cond *out)
{
    const char *fname = xml_req_txt(c, cn, "FieldName", NULL);
    if (!fname) return false;
    if (!(out->field = enc_field(e, fname)))
        return xml_fail(c, ISA_ERR_REF, xml_kid(cn, "FieldName", NULL),
                        "encoding \"%s\" has no field \"%s\"", e->name, fname);
    xmlNode *v = xml_kid(cn, "Value", NULL), *nv = xml_kid(cn, "NotValue", NULL),
            *same = xml_kid(cn, "SameAs", NULL);
    if ((v != NULL) + (nv != NULL) + (same != NULL) != 1)
        return xml_fail(c, ISA_ERR_SCHEMA, cn,
                        "needs exactly one of <Value>, <NotValue>, <SameAs>");
    if (same) {
        const char *o = xml_txt(c, same);
        if (!o) return false;
        out->test = ISA_ALIAS_SAME;
        if (!(out->other = enc_field(e, o)))
            return xml_fail(c, ISA_ERR_REF, same, "encoding \"%s\" has no field \"%s\"", e->name,
                            o);
        return true;
    }
    out->test = v ? ISA_ALIAS_EQ : ISA_ALIAS_NE;
    if (!xml_num(c, v ? v : nv, 10, true, &out->value)) return false;
    if (out->field->width < 64 && (out->value >> out->field->width))
        return xml_fail(c, ISA_ERR_SCHEMA, v ? v : nv, "value does not fit field \"%s\"", fname);
    return true;
}

static bool load_alias(ld *c, const xmlNode *an, isa_alias_impl *ai)
{
    isa_alias *a = &ai->pub;
    bool present;
    if (!(a->name = xml_req_txt(c, an, "AliasName", NULL))) return false;
    if (!(a->description = xml_opt_txt(c, an, "Description", NULL))) return false;
    if (!xml_attr_bool(c, an, "Disassemble", true, &a->disassemble, &present)) return false;
    const char *in = xml_req_txt(c, an, "InstructionName", NULL);
    if (!in) return false;
    const isa_instruction *I = isa_find_instruction(c->s, in);
    if (!I)
        return xml_fail(c, ISA_ERR_REF, xml_kid(an, "InstructionName", NULL),
                        "no instruction \"%s\"", in);
    a->insn = I;
    a->ienc = &I->encodings[0];
    xmlNode *en = xml_kid(an, "EncodingName", NULL);
    if (en) {
        const char *ename = xml_txt(c, en);
        if (!ename) return false;
        a->ienc = NULL;
        for (unsigned k = 0; k < I->encoding_count && !a->ienc; k++)
            if (!strcmp(I->encodings[k].encoding->name, ename)) a->ienc = &I->encodings[k];
        if (!a->ienc)
            return xml_fail(c, ISA_ERR_REF, en, "instruction \"%s\" has no encoding \"%s\"", in,
                            ename);
    }
    xmlNode *conds = xml_kid(an, "Conditions", NULL);
    unsigned n = xml_count(conds, "Condition", NULL);
    isa_alias_cond *cv = xml_alloc_array(c, n, sizeof(*cv));
    if (!cv) return false;
    unsigned i = 0;
    FOR_KIDS(cn, conds, "Condition", NULL)
    {
        if (!load_condition(c, cn, a->ienc->encoding, &cv[i++])) return false;
    }
    a->conditions = cv;
    a->condition_count = n;
    xmlNode *af = xml_kid(an, "AsmFormat", NULL);
    if (!af) return xml_fail(c, ISA_ERR_SCHEMA, an, "missing <AsmFormat>");
    if (!(a->asm_format = xml_txt(c, af))) return false;
    return isa_check_asm_format(c, af, a->ienc, a->asm_format);
}

bool isa_load_aliases(ld *c, const xmlNode *isa)
{
    xmlNode *sec = xml_kid(isa, "Aliases", NULL);
    unsigned n = xml_count(sec, "Alias", NULL);
    c->s->aliases = xml_alloc_array(c, n, sizeof(isa_alias_impl));
    if (!c->s->aliases) return false;
    unsigned i = 0;
    FOR_KIDS(an, sec, "Alias", NULL)
    {
        if (!load_alias(c, an, &c->s->aliases[i++])) return false;
    }
    c->s->nalias = n;
    return true;
}

static int alias_name_cmp(const void *x, const void *y)
{
    const isa_alias_impl *a = *(const isa_alias_impl *const *)x,
                         *b = *(const isa_alias_impl *const *)y;
    int r = strcmp(a->pub.name, b->pub.name);
    return r ? r : (a > b) - (a < b); /* document order among equal names */
}

bool isa_index_aliases(isa_spec *s)
{
    size_t n = s->nalias ? s->nalias : 1;
    s->alias_off = isa_arena_alloc(&s->arena, sizeof(unsigned) * (s->nienc + 1));
    s->alias_by_ienc = isa_arena_alloc(&s->arena, sizeof(*s->alias_by_ienc) * n);
    s->alias_by_name = isa_arena_alloc(&s->arena, sizeof(*s->alias_by_name) * n);
    if (!s->alias_off || !s->alias_by_ienc || !s->alias_by_name) return false;
    for (unsigned i = 0; i < s->nalias; i++) {
        isa_alias_impl *a = &s->aliases[i];
        if (!isa_compile_tpl(s, a->pub.ienc, a->pub.asm_format, &a->tpl)) return false;
        s->alias_off[a->pub.ienc - s->iencs + 1]++;
        s->alias_by_name[i] = a;
    }
    for (unsigned k = 0; k < s->nienc; k++)
        s->alias_off[k + 1] += s->alias_off[k];
    unsigned *fill = calloc(s->nienc + 1, sizeof *fill);
    if (!fill) return false;
    for (unsigned i = 0; i < s->nalias; i++) {
        size_t k = (size_t)(s->aliases[i].pub.ienc - s->iencs);
        s->alias_by_ienc[s->alias_off[k] + fill[k]++] = &s->aliases[i];
    }
    free(fill);
    qsort(s->alias_by_name, s->nalias, sizeof *s->alias_by_name, alias_name_cmp);
    return true;
}

unsigned isa_alias_count(const isa_spec *s)
{
    return s ? s->nalias : 0;
}

const isa_alias *isa_alias_at(const isa_spec *s, unsigned i)
{
    return s && i < s->nalias ? &s->aliases[i].pub : NULL;
}

bool isa_alias_applies(const isa_alias *a, uint64_t word)
{
    for (unsigned i = 0; i < a->condition_count; i++) {
        const isa_alias_cond *c = &a->conditions[i];
        uint64_t v = isa_field_extract(c->field, word);
        bool ok = c->test == ISA_ALIAS_EQ   ? v == c->value
                  : c->test == ISA_ALIAS_NE ? v != c->value
                                            : v == isa_field_extract(c->other, word);
        if (!ok) return false;
    }
    return true;
}

const isa_alias *isa_alias_of(const isa_spec *s, const isa_decoded *d)
{
    if (!s || !d || !d->ienc || d->ienc < s->iencs || d->ienc >= s->iencs + s->nienc) return NULL;
    size_t k = (size_t)(d->ienc - s->iencs);
    for (unsigned i = s->alias_off[k]; i < s->alias_off[k + 1]; i++) {
        const isa_alias *a = &s->alias_by_ienc[i]->pub;
        if (a->disassemble && isa_alias_applies(a, d->word)) return a;
    }
    return NULL;
}

int isa_format_alias_insn(const isa_spec *s, const isa_decoded *d, bool reference, char *buf,
                          size_t len)
{
    const isa_alias *a = isa_alias_of(s, d);
    if (!a) return isa_format_insn(s, d, reference, buf, len);
    return isa_format_tpl(d, a->name, &((const isa_alias_impl *)a)->tpl, reference, buf, len);
}

int isa_format_alias(const isa_spec *s, const isa_decoded *d, char *buf, size_t len)
{
    return isa_format_alias_insn(s, d, false, buf, len);
}
