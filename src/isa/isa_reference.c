/* isa_reference.c — the reference disassembler's view (spec/README.md X-21):
 * reading ISA/ReferenceDisassembly and answering how that disassembler prints a decoded
 * instruction. Decoding and execution never consult it: it only lets a tool print what
 * the reference prints (xphmg-objdump against binutils 2.40, errata P-284). */
#include <string.h>

#include "isa_xml.h"

static bool load_match(ld *c, const xmlNode *mn, isa_reference_match *m)
{
    const char *en = xml_req_txt(c, mn, "EncodingName", NULL);
    if (!en) return false;
    if (!(m->enc = isa_find_encoding(c->s, en)))
        return xml_fail(c, ISA_ERR_REF, xml_kid(mn, "EncodingName", NULL), "no encoding \"%s\"",
                        en);
    if (!xml_req_num(c, mn, "Mask", 16, true, &m->mask) ||
        !xml_req_num(c, mn, "Match", 16, true, &m->match))
        return false;
    /* narrower than the encoding: every word it accepts is one the encoding decodes */
    const isa_enc_impl *e = (const isa_enc_impl *)m->enc;
    bool id = false;
    for (unsigned k = 0; k < e->pub.identifier_count; k++)
        id = id || (m->match & e->pub.mask) == e->ids_masked[k];
    if ((m->match & ~m->mask) || (m->mask & e->pub.mask) != e->pub.mask || !id)
        return xml_fail(c, ISA_ERR_SCHEMA, mn,
                        "Mask/Match of \"%s\" must include the encoding's own mask and identifier",
                        en);
    return true;
}

static bool load_unnamed(ld *c, const xmlNode *un)
{
    const char *tn = xml_req_txt(c, un, "OperandTypeName", NULL);
    const char *text = tn ? xml_req_txt(c, un, "Text", NULL) : NULL;
    if (!text) return false;
    isa_type_impl *t = (isa_type_impl *)isa_find_operand_type(c->s, tn);
    if (!t)
        return xml_fail(c, ISA_ERR_REF, xml_kid(un, "OperandTypeName", NULL),
                        "no operand type \"%s\"", tn);
    t->reference_unnamed = text;
    return true;
}

bool isa_load_reference(ld *c, const xmlNode *isa)
{
    xmlNode *sec = xml_kid(isa, "ReferenceDisassembly", NULL);
    unsigned n = xml_count(sec, "ReferenceMatch", NULL);
    c->s->refmatch = xml_alloc_array(c, n, sizeof *c->s->refmatch);
    if (!c->s->refmatch) return false;
    unsigned i = 0;
    FOR_KIDS(mn, sec, "ReferenceMatch", NULL)
    {
        if (!load_match(c, mn, &c->s->refmatch[i++])) return false;
    }
    c->s->nrefmatch = n;
    FOR_KIDS(un, sec, "UnnamedValue", NULL)
    {
        if (!load_unnamed(c, un)) return false;
    }
    return true;
}

bool isa_reference_prints_data(const isa_spec *s, const isa_decoded *d)
{
    if (!s || !d || !d->ienc) return false;
    for (unsigned i = 0; i < s->nrefmatch; i++) {
        const isa_reference_match *m = &s->refmatch[i];
        if (m->enc == d->ienc->encoding && (d->word & m->mask) != m->match) return true;
    }
    return false;
}

int isa_format_reference(const isa_spec *s, const isa_decoded *d, bool aliases, char *buf,
                         size_t len)
{
    return aliases ? isa_format_alias_insn(s, d, true, buf, len)
                   : isa_format_insn(s, d, true, buf, len);
}
