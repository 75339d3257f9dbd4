/* isa_load.c — reads a spec in AMD's XML ISA schema into the in-memory model.
 *
 * Children are looked up by name, so element order is free and unknown elements are
 * ignored. Every problem is reported once, as "FILE:LINE: <Element>: what",
 * and loading stops there: a half-read model is never returned.
 */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/parser.h>
#include <libxml/tree.h>

#include "isa_xml.h"
#include "read_file.h"

/* ---- name indexes ------------------------------------------------------ */

typedef struct {
    const char *name;
    unsigned idx;
} name_ix;

static int name_ix_cmp(const void *a, const void *b)
{
    const name_ix *x = a, *y = b;
    int r = strcmp(x->name, y->name);
    if (r) return r;
    return (x->idx > y->idx) - (x->idx < y->idx);
}

static const name_ix *name_find(const name_ix *ix, unsigned n, const char *name)
{
    unsigned lo = 0, hi = n;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (strcmp(ix[mid].name, name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && !strcmp(ix[lo].name, name) ? &ix[lo] : NULL;
}

/* Builds a sorted index; with unique, a duplicate name is an error at its node. */
static name_ix *name_index(ld *c, unsigned n, const char *(*get)(const void *, unsigned),
                           const void *arr)
{
    name_ix *ix = xml_alloc_array(c, n, sizeof(*ix));
    if (!ix) return NULL;
    for (unsigned i = 0; i < n; i++)
        ix[i] = (name_ix){get(arr, i), i};
    qsort(ix, n, sizeof(*ix), name_ix_cmp);
    return ix;
}

static const char *get_enc_name(const void *a, unsigned i)
{
    return ((const isa_enc_impl *)a)[i].pub.name;
}
static const char *get_type_name(const void *a, unsigned i)
{
    return ((const isa_type_impl *)a)[i].pub.name;
}
static const char *get_fmt_name(const void *a, unsigned i)
{
    return ((const isa_data_format *)a)[i].name;
}
static const char *get_group_name(const void *a, unsigned i)
{
    return ((const isa_group *)a)[i].name;
}
static const char *get_insn_name(const void *a, unsigned i)
{
    return ((const isa_instruction *)a)[i].name;
}

/* ---- sections ------------------------------------------------------------ */

static const char *const data_types[] = {"integer", "float", "bits", "descriptor", "unknown"};
static const char *const signedness[] = {"Unknown", "DoesNotApply", "Unsigned", "Signed",
                                         "SignedByModifier"};
static const char *const displays[] = {[ISA_DISP_DEC] = "dec",
                                       [ISA_DISP_UDEC] = "udec",
                                       [ISA_DISP_HEX] = "hex",
                                       [ISA_DISP_PCREL] = "pcrel"};
#define COUNT(a) (sizeof(a) / sizeof *(a))

static bool load_formats(ld *c, const xmlNode *isa)
{
    xmlNode *sec = xml_kid(isa, "DataFormats", NULL);
    unsigned n = xml_count(sec, "DataFormat", NULL);
    c->s->fmts = xml_alloc_array(c, n, sizeof(isa_data_format));
    if (!c->s->fmts) return false;
    unsigned i = 0;
    FOR_KIDS(df, sec, "DataFormat", NULL)
    {
        isa_data_format *f = &c->s->fmts[i++];
        uint64_t cc;
        if (!(f->name = xml_req_txt(c, df, "DataFormatName", NULL))) return false;
        if (!(f->description = xml_opt_txt(c, df, "Description", NULL))) return false;
        if (!(f->data_type = xml_opt_txt(c, df, "DataType", NULL))) return false;
        if (!*f->data_type) f->data_type = "unknown";
        if (xml_pick(f->data_type, data_types, COUNT(data_types)) < 0)
            return xml_fail(c, ISA_ERR_SCHEMA, xml_kid(df, "DataType", NULL),
                            "\"%s\" is not integer, float, bits, descriptor or unknown",
                            f->data_type);
        if (!xml_req_small(c, df, "BitCount", 1u << 20, &f->bit_count)) return false;
        if (!xml_opt_num(c, df, "ComponentCount", 10, false, 1, &cc)) return false;
        f->component_count = (unsigned)cc;
        /* The first component of the lowest-Order BitMap decides signedness. */
        xmlNode *attrs = xml_kid(df, "DataAttributes", NULL);
        xmlNode *first_map = NULL;
        uint64_t best = UINT64_MAX;
        FOR_KIDS(bm, attrs, "BitMap", NULL)
        {
            uint64_t o;
            bool has;
            if (!xml_attr_num(c, bm, "Order", &o, &has)) return false;
            if (!has) o = 0;
            if (!first_map || o < best) first_map = bm, best = o;
            FOR_KIDS(fl, bm, "Field", NULL)
            {
                xmlChar *sg = xmlGetProp(fl, (const xmlChar *)"Signedness");
                if (sg && xml_pick((char *)sg, signedness, COUNT(signedness)) < 0) {
                    xml_fail(c, ISA_ERR_SCHEMA, fl,
                             "Signedness=\"%s\" is not one of Unknown, "
                             "DoesNotApply, Unsigned, Signed, SignedByModifier",
                             (char *)sg);
                    xmlFree(sg);
                    return false;
                }
                xmlFree(sg);
            }
        }
        xmlNode *first = xml_kid(first_map, "Field", NULL);
        if (first) {
            xmlChar *sg = xmlGetProp(first, (const xmlChar *)"Signedness");
            f->is_signed = sg && !strcmp((char *)sg, "Signed");
            xmlFree(sg);
        }
    }
    c->s->nfmt = n;
    return true;
}

static bool load_types(ld *c, const xmlNode *isa)
{
    xmlNode *sec = xml_kid(isa, "OperandTypes", NULL);
    unsigned n = xml_count(sec, "OperandType", NULL);
    c->s->types = xml_alloc_array(c, n, sizeof(isa_type_impl));
    if (!c->s->types) return false;
    unsigned i = 0;
    FOR_KIDS(ot, sec, "OperandType", NULL)
    {
        isa_type_impl *ti = &c->s->types[i++];
        isa_operand_type *t = &ti->pub;
        if (!(t->name = xml_req_txt(c, ot, "OperandTypeName", NULL))) return false;
        if (!(t->description = xml_opt_txt(c, ot, "Description", NULL))) return false;
        xmlChar *d = xmlGetProp(ot, (const xmlChar *)"Display");
        t->display = ISA_DISP_DEC;
        if (d) {
            int k = xml_pick((const char *)d, displays, COUNT(displays));
            if (k < 0) {
                xml_fail(c, ISA_ERR_SCHEMA, ot, "Display=\"%s\" is not dec, udec, hex or pcrel",
                         (const char *)d);
                xmlFree(d);
                return false;
            }
            t->display = (isa_display)k;
            xmlFree(d);
        }
        xmlNode *pv = xml_kid(ot, "OperandPredefinedValues", NULL);
        unsigned np = xml_count(pv, "PredefinedValue", "OperandPredefinedValue");
        isa_predef *p = xml_alloc_array(c, np, sizeof(*p));
        if (!p) return false;
        unsigned j = 0;
        uint64_t maxv = 0;
        FOR_KIDS(v, pv, "PredefinedValue", "OperandPredefinedValue")
        {
            if (!(p[j].name = xml_req_txt(c, v, "Name", NULL))) return false;
            if (!(p[j].description = xml_opt_txt(c, v, "Description", NULL))) return false;
            if (!xml_req_num(c, v, "Value", 10, false, &p[j].value)) return false;
            if (p[j].value > maxv) maxv = p[j].value;
            j++;
        }
        t->predef_count = np;
        t->predefs = p;
        /* direct value->name table for the decoder's hot path (no string work there) */
        if (np && np < 0xffff && maxv < 65536) {
            ti->direct_n = (uint32_t)maxv + 1;
            if (!(ti->direct = xml_alloc(c, sizeof(uint16_t) * ti->direct_n))) return false;
            for (unsigned k = np; k-- > 0;) /* first in document order wins */
                ti->direct[p[k].value] = (uint16_t)(k + 1);
        }
    }
    c->s->ntype = n;
    return true;
}

static bool load_groups(ld *c, const xmlNode *isa)
{
    xmlNode *sec = xml_kid(isa, "FunctionalGroups", NULL);
    unsigned n = xml_count(sec, "FunctionalGroup", NULL);
    c->s->groups = xml_alloc_array(c, n, sizeof(isa_group));
    if (!c->s->groups) return false;
    unsigned i = 0;
    FOR_KIDS(fg, sec, "FunctionalGroup", NULL)
    {
        isa_group *g = &c->s->groups[i++];
        if (!(g->name = xml_req_txt(c, fg, "Name", NULL))) return false;
        if (!(g->description = xml_opt_txt(c, fg, "Description", NULL))) return false;
        xmlNode *wrap = xml_kid(fg, "FunctionalSubgroups", NULL);
        unsigned ns = xml_count(fg, "Subgroup", NULL) + xml_count(wrap, "Subgroup", NULL);
        g->subgroups = xml_alloc_array(c, ns, sizeof(char *));
        if (!g->subgroups) return false;
        FOR_KIDS(sg, fg, "Subgroup", NULL)
        {
            if (!(g->subgroups[g->subgroup_count++] = xml_txt(c, sg))) return false;
        }
        FOR_KIDS(sg, wrap, "Subgroup", NULL)
        {
            if (!(g->subgroups[g->subgroup_count++] = xml_txt(c, sg))) return false;
        }
    }
    c->s->ngroup = n;
    return true;
}

static int enc_order_cmp(const void *a, const void *b)
{
    const isa_enc_impl *x = a, *y = b;
    return (x->pub.order > y->pub.order) - (x->pub.order < y->pub.order);
}

static bool load_encodings(ld *c, const xmlNode *isa)
{
    xmlNode *sec = xml_kid(isa, "Encodings", NULL);
    if (!sec) return xml_fail(c, ISA_ERR_SCHEMA, isa, "missing <Encodings>");
    unsigned n = xml_count(sec, "Encoding", NULL);
    if (n == 0) return xml_fail(c, ISA_ERR_SCHEMA, sec, "no <Encoding>");
    if (n > 65535) return xml_fail(c, ISA_ERR_SCHEMA, sec, "too many encodings");
    isa_enc_impl *encs = xml_alloc(c, sizeof(*encs) * n);
    if (!encs) return false;
    unsigned i = 0;
    FOR_KIDS(en, sec, "Encoding", NULL)
    {
        isa_enc_impl *ei = &encs[i];
        isa_encoding *e = &ei->pub;
        uint64_t ord;
        bool has_ord;
        if (!xml_attr_num(c, en, "Order", &ord, &has_ord)) return false;
        if (!has_ord) return xml_fail(c, ISA_ERR_SCHEMA, en, "missing Order attribute");
        if (ord > UINT32_MAX) return xml_fail(c, ISA_ERR_SCHEMA, en, "Order too large");
        e->order = (unsigned)ord;
        if (!(e->name = xml_req_txt(c, en, "EncodingName", NULL))) return false;
        if (!(e->description = xml_opt_txt(c, en, "Description", NULL))) return false;
        if (!xml_req_small(c, en, "BitCount", 64, &e->bit_count)) return false;
        if (e->bit_count == 0 || e->bit_count % 8)
            return xml_fail(c, ISA_ERR_SCHEMA, xml_kid(en, "BitCount", NULL),
                            "%u is not a multiple of 8 in 8..64", e->bit_count);
        uint64_t lim = e->bit_count == 64 ? UINT64_MAX : (UINT64_C(1) << e->bit_count) - 1;
        if (!xml_req_num(c, en, "EncodingIdentifierMask", 2, true, &e->mask)) return false;
        if (e->mask & ~lim)
            return xml_fail(c, ISA_ERR_SCHEMA, xml_kid(en, "EncodingIdentifierMask", NULL),
                            "mask does not fit %u bits", e->bit_count);
        xmlNode *ids = xml_kid(en, "EncodingIdentifiers", NULL);
        unsigned nid = xml_count(ids, "EncodingIdentifier", NULL);
        if (nid == 0) return xml_fail(c, ISA_ERR_SCHEMA, ids ? ids : en, "no <EncodingIdentifier>");
        uint64_t *idv = xml_alloc(c, sizeof(uint64_t) * nid);
        ei->ids_masked = xml_alloc(c, sizeof(uint64_t) * nid);
        if (!idv || !ei->ids_masked) return false;
        unsigned j = 0;
        FOR_KIDS(id, ids, "EncodingIdentifier", NULL)
        {
            if (!xml_num(c, id, 2, true, &idv[j])) return false;
            if (idv[j] & ~lim)
                return xml_fail(c, ISA_ERR_SCHEMA, id, "identifier does not fit %u bits",
                                e->bit_count);
            ei->ids_masked[j] = idv[j] & e->mask;
            j++;
        }
        e->identifiers = idv;
        e->identifier_count = nid;

        xmlNode *conds = xml_kid(en, "EncodingConditions", NULL);
        unsigned nc = xml_count(conds, "EncodingCondition", NULL);
        isa_condition *cv = xml_alloc_array(c, nc, sizeof(*cv));
        if (!cv) return false;
        j = 0;
        FOR_KIDS(cd, conds, "EncodingCondition", NULL)
        {
            if (!(cv[j].name = xml_req_txt(c, cd, "ConditionName", NULL))) return false;
            if (!(cv[j].expression =
                      xml_opt_txt(c, cd, "ConditionExpression", "CondtionExpression")))
                return false;
            j++;
        }
        e->conditions = cv;
        e->condition_count = nc;

        xmlNode *mf = xml_kid(en, "MicrocodeFormat", NULL);
        if (!mf) return xml_fail(c, ISA_ERR_SCHEMA, en, "missing <MicrocodeFormat>");
        xmlNode *bm = xml_kid(mf, "BitMap", NULL);
        if (!bm) return xml_fail(c, ISA_ERR_SCHEMA, mf, "missing <BitMap>");
        unsigned nf = xml_count(bm, "Field", NULL);
        if (nf > ISA_MAX_FIELDS)
            return xml_fail(c, ISA_ERR_SCHEMA, bm, "too many fields (%u, at most %d)", nf,
                            ISA_MAX_FIELDS);
        isa_field *fv = xml_alloc_array(c, nf, sizeof(*fv));
        if (!fv) return false;
        e->op_field = -1;
        j = 0;
        FOR_KIDS(fl, bm, "Field", NULL)
        {
            isa_field *f = &fv[j];
            if (!(f->name = xml_req_txt(c, fl, "FieldName", NULL))) return false;
            if (!(f->description = xml_opt_txt(c, fl, "Description", NULL))) return false;
            for (unsigned k = 0; k < j; k++)
                if (!strcmp(fv[k].name, f->name))
                    return xml_fail(c, ISA_ERR_SCHEMA, fl, "duplicate field \"%s\"", f->name);
            if (!xml_layout(c, fl, e->bit_count, f->ranges, &f->range_count, &f->width))
                return false;
            if (!strcmp(f->name, "OP")) e->op_field = (int)j;
            j++;
        }
        e->fields = fv;
        e->field_count = nf;
        ei->xml_node = en;
        i++;
    }
    /* ascending Order; ties are an error. */
    qsort(encs, n, sizeof(*encs), enc_order_cmp);
    for (unsigned a = 1; a < n; a++)
        if (encs[a].pub.order == encs[a - 1].pub.order) {
            unsigned late = xmlGetLineNo((xmlNode *)encs[a].xml_node) >
                                    xmlGetLineNo((xmlNode *)encs[a - 1].xml_node)
                                ? a
                                : a - 1; /* report the later element */
            return xml_fail(c, ISA_ERR_SCHEMA, encs[late].xml_node,
                            "Order=%u tie between encodings \"%s\" and \"%s\"", encs[a].pub.order,
                            encs[a - 1].pub.name, encs[a].pub.name);
        }
    c->s->encs = encs;
    c->s->nenc = n;
    return true;
}

static bool load_registers(ld *c, const xmlNode *isa)
{
    xmlNode *sec = xml_kid(isa, "Registers", NULL);
    unsigned n = xml_count(sec, "Register", NULL);
    c->s->regs = xml_alloc_array(c, n, sizeof(isa_register));
    if (!c->s->regs) return false;
    unsigned i = 0;
    FOR_KIDS(rn, sec, "Register", NULL)
    {
        isa_register *r = &c->s->regs[i++];
        uint64_t addr;
        if (!(r->name = xml_req_txt(c, rn, "Name", NULL))) return false;
        if (!xml_req_num(c, rn, "Address", 10, true, &addr)) return false;
        if (addr > UINT32_MAX)
            return xml_fail(c, ISA_ERR_SCHEMA, xml_kid(rn, "Address", NULL), "too large");
        r->address = (uint32_t)addr;
        if (!(r->access = xml_opt_txt(c, rn, "Access", NULL))) return false;
        if (!xml_opt_num(c, rn, "ResetValue", 10, true, 0, &r->reset_value)) return false;
        if (!(r->unit = xml_opt_txt(c, rn, "Unit", NULL))) return false;
        if (!(r->description = xml_opt_txt(c, rn, "Description", NULL))) return false;
        xmlNode *fs = xml_kid(rn, "Fields", NULL);
        unsigned nf = xml_count(fs, "Field", NULL);
        isa_reg_field *fv = xml_alloc_array(c, nf, sizeof(*fv));
        if (!fv) return false;
        unsigned j = 0;
        FOR_KIDS(fl, fs, "Field", NULL)
        {
            isa_reg_field *f = &fv[j++];
            if (!(f->name = xml_req_txt(c, fl, "FieldName", NULL))) return false;
            if (!xml_layout(c, fl, 64, f->ranges, &f->range_count, &f->bit_count)) return false;
            if (!(f->access = xml_opt_txt(c, fl, "Access", NULL))) return false;
            if (!xml_opt_num(c, fl, "ResetValue", 10, true, 0, &f->reset_value)) return false;
            if (!(f->description = xml_opt_txt(c, fl, "Description", NULL))) return false;
        }
        r->fields = fv;
        r->field_count = nf;
    }
    c->s->nreg = n;
    return true;
}

/* Shared lookups while reading instructions. */
typedef struct {
    name_ix *enc, *type, *fmt, *group;
} refs;

static int field_index(const isa_encoding *e, const char *name)
{
    for (unsigned k = 0; k < e->field_count; k++)
        if (!strcmp(e->fields[k].name, name)) return (int)k;
    return -1;
}

static int operand_order_cmp(const void *a, const void *b)
{
    const isa_operand *x = a, *y = b;
    return (x->order > y->order) - (x->order < y->order);
}

/* placeholders must name an operand, brackets must balance and not nest. */
bool isa_check_asm_format(ld *c, const xmlNode *n, const isa_insn_encoding *ie, const char *s)
{
    int depth = 0;
    for (const char *p = s; *p; p++) {
        if (*p == '[') {
            if (depth++) return xml_fail(c, ISA_ERR_SCHEMA, n, "nested '[' in \"%s\"", s);
        } else if (*p == ']') {
            if (!depth--) return xml_fail(c, ISA_ERR_SCHEMA, n, "unbalanced ']' in \"%s\"", s);
        } else if (*p == '{') {
            const char *e = strchr(p, '}');
            if (!e) return xml_fail(c, ISA_ERR_SCHEMA, n, "unterminated '{' in \"%s\"", s);
            size_t len = (size_t)(e - p - 1);
            bool found = false;
            for (unsigned k = 0; k < ie->operand_count && !found; k++) {
                const isa_operand *o = &ie->operands[k];
                const char *nm = o->field ? o->field->name : o->type->name;
                found = strlen(nm) == len && !strncmp(nm, p + 1, len);
            }
            if (!found)
                return xml_fail(c, ISA_ERR_REF, n, "placeholder {%.*s} names no operand", (int)len,
                                p + 1);
            p = e;
        }
    }
    if (depth) return xml_fail(c, ISA_ERR_SCHEMA, n, "unbalanced '[' in \"%s\"", s);
    return true;
}

static bool load_operands(ld *c, refs *rf, const xmlNode *ien, const isa_encoding *e,
                          isa_insn_encoding *ie)
{
    xmlNode *ops = xml_kid(ien, "Operands", NULL);
    unsigned n = xml_count(ops, "Operand", NULL);
    if (n > ISA_MAX_OPERANDS)
        return xml_fail(c, ISA_ERR_SCHEMA, ops, "too many operands (%u, at most %d)", n,
                        ISA_MAX_OPERANDS);
    isa_operand *ov = xml_alloc_array(c, n, sizeof(*ov));
    xmlNode *onodes[ISA_MAX_OPERANDS];
    if (!ov) return false;
    unsigned i = 0;
    FOR_KIDS(on, ops, "Operand", NULL)
    {
        isa_operand *o = &ov[i];
        onodes[i] = on;
        bool has_bin;
        uint64_t ord;
        bool has_ord;
        if (!xml_attr_bool(c, on, "Input", false, &o->input, NULL) ||
            !xml_attr_bool(c, on, "Output", false, &o->output, NULL) ||
            !xml_attr_bool(c, on, "IsImplicit", false, &o->implicit, NULL) ||
            !xml_attr_bool(c, on, "IsBinaryMicrocodeRequired", false, &o->binary_required,
                           &has_bin) ||
            !xml_attr_num(c, on, "Order", &ord, &has_ord) ||
            !xml_attr_num(c, on, "DefaultValue", &o->default_value, &o->has_default))
            return false;
        o->order = has_ord ? (unsigned)ord : i + 1;
        xmlNode *fn = xml_kid(on, "FieldName", NULL);
        /* X-10, AMD usage: bits in the instruction iff explicit and binary-required; a file
         * that leaves the attribute out but names a field means an encoded operand. */
        if (!has_bin) o->binary_required = fn != NULL && !o->implicit;
        bool encoded = !o->implicit && o->binary_required;
        if (encoded) {
            if (!fn) return xml_fail(c, ISA_ERR_SCHEMA, on, "encoded operand without <FieldName>");
            const char *nm = xml_txt(c, fn);
            if (!nm) return false;
            int fi = field_index(e, nm);
            if (fi < 0)
                return xml_fail(c, ISA_ERR_REF, fn, "no field \"%s\" in encoding \"%s\"", nm,
                                e->name);
            o->field = &e->fields[fi];
        }
        const char *df = xml_req_txt(c, on, "DataFormatName", NULL);
        if (!df) return false;
        const name_ix *x = name_find(rf->fmt, c->s->nfmt, df);
        if (!x)
            return xml_fail(c, ISA_ERR_REF, xml_kid(on, "DataFormatName", NULL),
                            "no data format \"%s\"", df);
        o->format = &c->s->fmts[x->idx];
        const char *tn = xml_req_txt(c, on, "OperandType", "OperantType");
        if (!tn) return false;
        x = name_find(rf->type, c->s->ntype, tn);
        if (!x)
            return xml_fail(c, ISA_ERR_REF, xml_kid(on, "OperandType", "OperantType"),
                            "no operand type \"%s\"", tn);
        o->type = &c->s->types[x->idx].pub;
        uint64_t sz;
        if (!xml_opt_num(c, on, "OperandSize", 10, false, 0, &sz)) return false;
        o->size = (unsigned)sz;
        i++;
    }
    for (unsigned a = 0; a < n; a++)
        for (unsigned b = a + 1; b < n; b++)
            if (ov[a].order == ov[b].order)
                return xml_fail(c, ISA_ERR_SCHEMA, onodes[b], "Order=%u tie", ov[b].order);
    qsort(ov, n, sizeof(*ov), operand_order_cmp);
    ie->operands = ov;
    ie->operand_count = n;
    return true;
}

static bool load_insn_encoding(ld *c, refs *rf, const xmlNode *ien, isa_insn_encoding *ie)
{
    const char *en = xml_req_txt(c, ien, "EncodingName", NULL);
    if (!en) return false;
    const name_ix *x = name_find(rf->enc, c->s->nenc, en);
    if (!x)
        return xml_fail(c, ISA_ERR_REF, xml_kid(ien, "EncodingName", NULL), "no encoding \"%s\"",
                        en);
    const isa_encoding *e = &c->s->encs[x->idx].pub;
    ie->encoding = e;
    if (!(ie->condition = xml_opt_txt(c, ien, "EncodingCondition", "ConditionName"))) return false;
    if (!*ie->condition) ie->condition = "default";
    xmlNode *opn = xml_kid(ien, "Opcode", NULL);
    if (!opn) return xml_fail(c, ISA_ERR_SCHEMA, ien, "missing <Opcode>");
    if (!xml_num(c, opn, 10, true, &ie->opcode)) return false;
    if (e->op_field >= 0) {
        unsigned w = e->fields[e->op_field].width;
        if (w < 64 && (ie->opcode >> w))
            return xml_fail(c, ISA_ERR_SCHEMA, opn, "opcode %llu does not fit the %u-bit OP field",
                            (unsigned long long)ie->opcode, w);
    } else if (ie->opcode != 0) {
        return xml_fail(c, ISA_ERR_SCHEMA, opn,
                        "encoding \"%s\" has no OP field, so Opcode must be 0", e->name);
    }
    if (!load_operands(c, rf, ien, e, ie)) return false;

    xmlNode *cs = xml_kid(ien, "Constraints", NULL);
    unsigned nc = xml_count(cs, "Constraint", NULL);
    isa_constraint *cv = xml_alloc_array(c, nc, sizeof(*cv));
    if (!cv) return false;
    unsigned j = 0;
    FOR_KIDS(cn, cs, "Constraint", NULL)
    {
        const char *fn = xml_req_txt(c, cn, "FieldName", NULL);
        if (!fn) return false;
        int fi = field_index(e, fn);
        if (fi < 0)
            return xml_fail(c, ISA_ERR_REF, xml_kid(cn, "FieldName", NULL),
                            "no field \"%s\" in encoding \"%s\"", fn, e->name);
        cv[j].field = e->fields[fi].name;
        if (!xml_req_num(c, cn, "NotValue", 10, true, &cv[j].not_value)) return false;
        j++;
    }
    ie->constraints = cv;
    ie->constraint_count = nc;

    xmlNode *af = xml_kid(ien, "AsmFormat", NULL);
    if (af) {
        if (!(ie->asm_format = xml_txt(c, af))) return false;
        if (!isa_check_asm_format(c, af, ie, ie->asm_format)) return false;
    }
    return true;
}

static bool load_instructions(ld *c, refs *rf, const xmlNode *isa)
{
    xmlNode *sec = xml_kid(isa, "Instructions", NULL);
    if (!sec) return xml_fail(c, ISA_ERR_SCHEMA, isa, "missing <Instructions>");
    unsigned n = xml_count(sec, "Instruction", NULL);
    c->s->insns = xml_alloc_array(c, n, sizeof(isa_instruction));
    if (!c->s->insns) return false;
    /* all instruction encodings in one array, so per-encoding side tables (compiled
     * AsmFormat templates) can be indexed by position */
    unsigned total = 0;
    FOR_KIDS(in, sec, "Instruction", NULL)
    {
        total += xml_count(xml_kid(in, "InstructionEncodings", NULL), "InstructionEncoding", NULL);
    }
    c->s->iencs = xml_alloc_array(c, total, sizeof(isa_insn_encoding));
    if (!c->s->iencs) return false;
    c->s->nienc = total;
    unsigned at = 0;
    unsigned i = 0;
    FOR_KIDS(in, sec, "Instruction", NULL)
    {
        isa_instruction *I = &c->s->insns[i++];
        if (!(I->name = xml_req_txt(c, in, "InstructionName", NULL))) return false;
        if (!(I->description = xml_opt_txt(c, in, "Description", NULL))) return false;
        xmlNode *fl = xml_kid(in, "InstructionFlags", NULL);
        if (!xml_flag(c, fl, "IsBranch", &I->is_branch) ||
            !xml_flag(c, fl, "IsConditionalBranch", &I->is_conditional_branch) ||
            !xml_flag(c, fl, "IsIndirectBranch", &I->is_indirect_branch) ||
            !xml_flag(c, fl, "IsProgramTerminator", &I->is_program_terminator) ||
            !xml_flag(c, fl, "IsImmediatelyExecuted", &I->is_immediately_executed))
            return false;
        xmlNode *fg = xml_kid(in, "FunctionalGroup", NULL);
        if (fg) {
            const char *gn = xml_req_txt(c, fg, "Name", NULL);
            if (!gn) return false;
            const name_ix *x = name_find(rf->group, c->s->ngroup, gn);
            if (!x)
                return xml_fail(c, ISA_ERR_REF, xml_kid(fg, "Name", NULL),
                                "no functional group \"%s\"", gn);
            I->group = c->s->groups[x->idx].name;
            xmlNode *sg = xml_kid(fg, "Subgroup", NULL);
            if (!sg) sg = xml_kid(xml_kid(fg, "FunctionalSubgroups", NULL), "Subgroup", NULL);
            if (sg && !(I->subgroup = xml_txt(c, sg))) return false;
        }
        xmlNode *encs = xml_kid(in, "InstructionEncodings", NULL);
        unsigned ne = xml_count(encs, "InstructionEncoding", NULL);
        if (ne == 0)
            return xml_fail(c, ISA_ERR_SCHEMA, encs ? encs : in, "no <InstructionEncoding>");
        isa_insn_encoding *iev = c->s->iencs + at;
        at += ne;
        unsigned j = 0;
        FOR_KIDS(ien, encs, "InstructionEncoding", NULL)
        {
            if (!load_insn_encoding(c, rf, ien, &iev[j++])) return false;
        }
        I->encodings = iev;
        I->encoding_count = ne;
    }
    c->s->ninsn = n;
    return true;
}

static int opmap_cmp(const void *a, const void *b)
{
    const isa_opmap *x = a, *y = b;
    if (x->opcode != y->opcode) return x->opcode < y->opcode ? -1 : 1;
    if (x->ienc != y->ienc) return x->ienc < y->ienc ? -1 : 1; /* document order */
    return 0;
}

/* Per encoding: which instruction encodings use it, sorted by opcode. */
static bool build_opmaps(ld *c)
{
    isa_spec *s = c->s;
    for (unsigned i = 0; i < s->ninsn; i++)
        for (unsigned j = 0; j < s->insns[i].encoding_count; j++)
            ((isa_enc_impl *)s->insns[i].encodings[j].encoding)->nmap++;
    for (unsigned e = 0; e < s->nenc; e++) {
        isa_enc_impl *ei = &s->encs[e];
        if (ei->pub.op_field < 0 && ei->nmap > 1)
            return xml_fail(c, ISA_ERR_SCHEMA, ei->xml_node,
                            "encoding \"%s\" has no OP field but %u instruction encodings use it",
                            ei->pub.name, ei->nmap);
        if (!(ei->map = xml_alloc(c, sizeof(isa_opmap) * (ei->nmap ? ei->nmap : 1)))) return false;
        ei->nmap = 0;
    }
    for (unsigned i = 0; i < s->ninsn; i++)
        for (unsigned j = 0; j < s->insns[i].encoding_count; j++) {
            const isa_insn_encoding *ie = &s->insns[i].encodings[j];
            isa_enc_impl *ei = (isa_enc_impl *)ie->encoding;
            ei->map[ei->nmap++] = (isa_opmap){ie->opcode, &s->insns[i], ie};
        }
    for (unsigned e = 0; e < s->nenc; e++)
        qsort(s->encs[e].map, s->encs[e].nmap, sizeof(isa_opmap), opmap_cmp);
    return true;
}

static bool load_doc(ld *c, xmlDoc *doc)
{
    isa_spec *s = c->s;
    xmlNode *root = xmlDocGetRootElement(doc);
    if (!root) return xml_fail(c, ISA_ERR_XML, NULL, "no root element");
    if (!xml_is(root, "Spec"))
        return xml_fail(c, ISA_ERR_SCHEMA, root, "root element is <%s>, expected <Spec>",
                        (const char *)root->name);
    xmlNode *docn = xml_kid(root, "Document", NULL);
    if (!(s->schema_version = xml_opt_txt(c, docn, "SchemaVersion", NULL))) return false;
    xmlNode *isa = xml_kid(root, "ISA", NULL);
    if (!isa) return xml_fail(c, ISA_ERR_SCHEMA, root, "missing <ISA>");
    xmlNode *arch = xml_kid(isa, "Architecture", NULL);
    if (!arch) return xml_fail(c, ISA_ERR_SCHEMA, isa, "missing <Architecture>");
    if (!(s->arch_name = xml_req_txt(c, arch, "ArchitectureName", NULL))) return false;
    uint64_t aid;
    if (!xml_opt_num(c, arch, "ArchitectureId", 10, false, 0, &aid)) return false;
    s->arch_id = (unsigned)aid;

    if (!load_formats(c, isa) || !load_types(c, isa) || !load_groups(c, isa) ||
        !load_encodings(c, isa) || !load_registers(c, isa))
        return false;

    refs rf;
    if (!(rf.fmt = name_index(c, s->nfmt, get_fmt_name, s->fmts))) return false;
    if (!(rf.type = name_index(c, s->ntype, get_type_name, s->types))) return false;
    if (!(rf.group = name_index(c, s->ngroup, get_group_name, s->groups))) return false;
    if (!(rf.enc = name_index(c, s->nenc, get_enc_name, s->encs))) return false;
    for (unsigned i = 1; i < s->nenc; i++)
        if (!strcmp(rf.enc[i].name, rf.enc[i - 1].name))
            return xml_fail(c, ISA_ERR_SCHEMA, s->encs[rf.enc[i].idx].xml_node,
                            "duplicate encoding name \"%s\"", rf.enc[i].name);
    for (unsigned i = 1; i < s->nfmt; i++)
        if (!strcmp(rf.fmt[i].name, rf.fmt[i - 1].name))
            return xml_fail(c, ISA_ERR_SCHEMA, NULL, "duplicate data format name \"%s\"",
                            rf.fmt[i].name);
    for (unsigned i = 1; i < s->ntype; i++)
        if (!strcmp(rf.type[i].name, rf.type[i - 1].name))
            return xml_fail(c, ISA_ERR_SCHEMA, NULL, "duplicate operand type name \"%s\"",
                            rf.type[i].name);

    if (!load_instructions(c, &rf, isa)) return false;
    if (!build_opmaps(c)) return false;

    name_ix *ix = name_index(c, s->ninsn, get_insn_name, s->insns);
    if (!ix) return false;
    s->insn_by_name = xml_alloc(c, sizeof(*s->insn_by_name) * (s->ninsn ? s->ninsn : 1));
    if (!s->insn_by_name) return false;
    for (unsigned i = 0; i < s->ninsn; i++)
        s->insn_by_name[i] = &s->insns[ix[i].idx];
    if (!isa_load_aliases(c, isa) || !isa_load_reference(c, isa)) return false;
    if (!isa_build_decoder(s) || !isa_compile_templates(s) || !isa_index_aliases(s))
        return xml_nomem(c, NULL);
    return true;
}

/* libxml2 reports through a global handler by default; keep it quiet and take the
 * message from the parser context instead. */
static void quiet(void *ctx, const char *msg, ...)
{
    (void)ctx;
    (void)msg;
}

isa_status isa_open_memory(const char *xml, size_t len, const char *name, isa_spec **out, char *err,
                           size_t errlen)
{
    if (err && errlen) err[0] = 0;
    if (!out) return ISA_ERR_ARG;
    *out = NULL;
    if (!name) name = "<memory>";
    if (!xml || len > INT32_MAX) {
        if (err && errlen) snprintf(err, errlen, "%s:0: bad buffer", name);
        return ISA_ERR_ARG;
    }
    isa_spec *s = calloc(1, sizeof(*s));
    if (!s) return ISA_ERR_NOMEM;
    ld c = {s, name, err, errlen, ISA_OK};
    if (!(s->file = isa_arena_strdup(&s->arena, name))) {
        free(s);
        return ISA_ERR_NOMEM;
    }
    c.file = s->file;

    xmlSetGenericErrorFunc(NULL, quiet);
    xmlParserCtxtPtr px = xmlNewParserCtxt();
    if (!px) {
        isa_free(s);
        return ISA_ERR_NOMEM;
    }
    /* No network, no entity substitution, no DTD loading: the file is data only. */
    xmlDoc *doc = xmlCtxtReadMemory(px, xml, (int)len, name, NULL,
                                    XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING |
                                        XML_PARSE_BIG_LINES | XML_PARSE_NOCDATA |
                                        XML_PARSE_NOBLANKS | XML_PARSE_COMPACT);
    if (!doc || !px->wellFormed) {
        const xmlError *e = xmlCtxtGetLastError(px);
        char msg[256] = "not well-formed XML";
        if (e && e->message) {
            snprintf(msg, sizeof msg, "not well-formed XML: %s", e->message);
            size_t k = strlen(msg);
            while (k && (msg[k - 1] == '\n' || msg[k - 1] == ' '))
                msg[--k] = 0;
        }
        if (err && errlen) snprintf(err, errlen, "%s:%d: %s", name, e ? e->line : 0, msg);
        if (doc) xmlFreeDoc(doc);
        xmlFreeParserCtxt(px);
        isa_free(s);
        return ISA_ERR_XML;
    }
    xmlFreeParserCtxt(px);
    bool ok = load_doc(&c, doc);
    xmlFreeDoc(doc);
    if (!ok) {
        isa_free(s);
        return c.st == ISA_OK ? ISA_ERR_SCHEMA : c.st;
    }
    *out = s;
    return ISA_OK;
}

isa_status isa_open(const char *path, isa_spec **out, char *err, size_t errlen)
{
    if (err && errlen) err[0] = 0;
    if (!out) return ISA_ERR_ARG;
    *out = NULL;
    if (!path) return ISA_ERR_ARG;
    char *buf;
    size_t len;
    /* libxml2 takes the size as an int: well under INT32_MAX. */
    read_file_status rd = read_file_bounded(path, (size_t)INT32_MAX / 2, &buf, &len);
    if (rd == READ_FILE_NOMEM) return ISA_ERR_NOMEM;
    if (rd != READ_FILE_OK) {
        if (err && errlen) {
            if (rd == READ_FILE_OPEN)
                snprintf(err, errlen, "%s:0: cannot open: %s", path, strerror(errno));
            else
                snprintf(err, errlen, "%s:0: cannot read%s", path,
                         rd == READ_FILE_TOO_BIG ? " (file too large)" : "");
        }
        return ISA_ERR_IO;
    }
    isa_status st = isa_open_memory(buf, len, path, out, err, errlen);
    free(buf);
    return st;
}

isa_spec *isa_load(const char *path, char *err, size_t errlen)
{
    isa_spec *s = NULL;
    isa_open(path, &s, err, errlen);
    return s;
}

isa_spec *isa_load_memory(const char *xml, size_t len, const char *name, char *err, size_t errlen)
{
    isa_spec *s = NULL;
    isa_open_memory(xml, len, name, &s, err, errlen);
    return s;
}

void isa_free(isa_spec *spec)
{
    if (!spec) return;
    isa_arena_free(&spec->arena);
    free(spec);
}
