/* isa_xml.c — reading helpers for the loader (see isa_xml.h). */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <libxml/tree.h>

#include "isa_xml.h"

/* Records the first error only; always returns false so callers can `return xml_fail(...)`. */
bool xml_fail(ld *c, isa_status st, const xmlNode *n, const char *fmt, ...)
{
    if (c->st != ISA_OK) return false;
    c->st = st;
    if (!c->err || c->errlen == 0) return false;
    int k;
    if (n)
        k = snprintf(c->err, c->errlen, "%s:%ld: <%s>: ", c->file, xmlGetLineNo((xmlNode *)n),
                     (const char *)n->name);
    else
        k = snprintf(c->err, c->errlen, "%s:0: ", c->file);
    if (k < 0 || (size_t)k >= c->errlen) return false;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->err + k, c->errlen - (size_t)k, fmt, ap);
    va_end(ap);
    return false;
}

bool xml_nomem(ld *c, const xmlNode *n)
{
    return xml_fail(c, ISA_ERR_NOMEM, n, "out of memory");
}

void *xml_alloc(ld *c, size_t n)
{
    void *p = isa_arena_alloc(&c->s->arena, n);
    if (!p) xml_nomem(c, NULL);
    return p;
}

void *xml_alloc_array(ld *c, size_t n, size_t elem)
{
    return xml_alloc(c, elem * (n ? n : 1));
}

bool xml_is(const xmlNode *n, const char *name)
{
    return n && n->type == XML_ELEMENT_NODE && strcmp((const char *)n->name, name) == 0;
}

/* First element child named a (or b, the other accepted spelling). */
xmlNode *xml_kid(const xmlNode *p, const char *a, const char *b)
{
    if (!p) return NULL;
    for (xmlNode *n = p->children; n; n = n->next)
        if (xml_is(n, a) || (b && xml_is(n, b))) return n;
    return NULL;
}

unsigned xml_count(const xmlNode *p, const char *a, const char *b)
{
    unsigned k = 0;
    if (!p) return 0;
    for (xmlNode *n = p->children; n; n = n->next)
        if (xml_is(n, a) || (b && xml_is(n, b))) k++;
    return k;
}

/* Trimmed text content of n, copied into the arena. */
const char *xml_txt(ld *c, const xmlNode *n)
{
    /* the common case, one text child, needs no temporary copy from libxml2 */
    const xmlNode *k = n->children;
    bool simple = k && !k->next && k->type == XML_TEXT_NODE;
    xmlChar *raw = simple ? NULL : xmlNodeGetContent(n);
    const char *s = simple ? (const char *)k->content : raw ? (const char *)raw : "";
    if (!s) s = "";
    while (isspace((unsigned char)*s))
        s++;
    size_t len = strlen(s);
    while (len && isspace((unsigned char)s[len - 1]))
        len--;
    char *out = isa_arena_alloc(&c->s->arena, len + 1);
    if (out) memcpy(out, s, len);
    xmlFree(raw);
    if (!out) xml_nomem(c, n);
    return out;
}

/* Text of child a|b, or "" when absent. NULL only on out-of-memory. */
const char *xml_opt_txt(ld *c, const xmlNode *p, const char *a, const char *b)
{
    xmlNode *n = xml_kid(p, a, b);
    return n ? xml_txt(c, n) : "";
}

/* Text of a required, non-empty child. */
const char *xml_req_txt(ld *c, const xmlNode *p, const char *a, const char *b)
{
    xmlNode *n = xml_kid(p, a, b);
    if (!n) {
        xml_fail(c, ISA_ERR_SCHEMA, p, "missing <%s>", a);
        return NULL;
    }
    const char *t = xml_txt(c, n);
    if (t && !*t) {
        xml_fail(c, ISA_ERR_SCHEMA, n, "empty");
        return NULL;
    }
    return t;
}

static int digit_val(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return 99;
}

/* Parses s in radix (2, 10, 16) into *v; no prefixes, no signs. */
bool xml_parse_num(ld *c, const xmlNode *n, const char *s, int radix, uint64_t *v)
{
    if (!*s) return xml_fail(c, ISA_ERR_SCHEMA, n, "empty number");
    uint64_t acc = 0;
    for (const char *p = s; *p; p++) {
        int d = digit_val(*p);
        if (d >= radix)
            return xml_fail(c, ISA_ERR_SCHEMA, n, "bad digit '%c' in \"%s\" (radix %d)", *p, s,
                            radix);
        if (acc > (UINT64_MAX - (uint64_t)d) / (uint64_t)radix)
            return xml_fail(c, ISA_ERR_SCHEMA, n, "number \"%s\" does not fit 64 bits", s);
        acc = acc * (uint64_t)radix + (uint64_t)d;
    }
    *v = acc;
    return true;
}

int xml_pick(const char *s, const char *const *names, size_t n)
{
    for (size_t k = 0; k < n; k++)
        if (!strcmp(s, names[k])) return (int)k;
    return -1;
}

/* The Radix attribute of n, or def when absent. 0 on error. */
int xml_radix(ld *c, const xmlNode *n, int def)
{
    static const char *const names[] = {"2", "10", "16"};
    static const int radix[] = {2, 10, 16};
    xmlChar *a = xmlGetProp(n, (const xmlChar *)"Radix");
    if (!a) return def;
    int k = xml_pick((char *)a, names, sizeof names / sizeof *names);
    if (k < 0) xml_fail(c, ISA_ERR_SCHEMA, n, "Radix=\"%s\" is not 2, 10 or 16", (char *)a);
    xmlFree(a);
    return k < 0 ? 0 : radix[k];
}

/* Number held by element n, honouring its Radix attribute when allowed. */
bool xml_num(ld *c, const xmlNode *n, int def_radix, bool radix_attr, uint64_t *v)
{
    int r = radix_attr ? xml_radix(c, n, def_radix) : def_radix;
    if (!r) return false;
    const char *t = xml_txt(c, n);
    return t && xml_parse_num(c, n, t, r, v);
}

bool xml_req_num(ld *c, const xmlNode *p, const char *name, int def_radix, bool radix_attr,
                 uint64_t *v)
{
    xmlNode *n = xml_kid(p, name, NULL);
    if (!n) return xml_fail(c, ISA_ERR_SCHEMA, p, "missing <%s>", name);
    return xml_num(c, n, def_radix, radix_attr, v);
}

bool xml_opt_num(ld *c, const xmlNode *p, const char *name, int def_radix, bool radix_attr,
                 uint64_t def, uint64_t *v)
{
    xmlNode *n = xml_kid(p, name, NULL);
    if (!n) {
        *v = def;
        return true;
    }
    return xml_num(c, n, def_radix, radix_attr, v);
}

bool xml_req_small(ld *c, const xmlNode *p, const char *name, uint64_t max, unsigned *v)
{
    uint64_t x = 0;
    if (!xml_req_num(c, p, name, 10, false, &x)) return false;
    if (x > max)
        return xml_fail(c, ISA_ERR_SCHEMA, xml_kid(p, name, NULL), "%llu is larger than %llu",
                        (unsigned long long)x, (unsigned long long)max);
    *v = (unsigned)x;
    return true;
}

/* TRUE/True/true/1 and FALSE/False/false/0. */
bool xml_parse_bool(ld *c, const xmlNode *n, const char *s, bool *out)
{
    if (!strcasecmp(s, "true") || !strcmp(s, "1"))
        *out = true;
    else if (!strcasecmp(s, "false") || !strcmp(s, "0"))
        *out = false;
    else
        return xml_fail(c, ISA_ERR_SCHEMA, n, "\"%s\" is not a boolean", s);
    return true;
}

bool xml_flag(ld *c, const xmlNode *p, const char *name, bool *out)
{
    *out = false;
    xmlNode *n = xml_kid(p, name, NULL);
    if (!n) return true;
    const char *t = xml_txt(c, n);
    return t && xml_parse_bool(c, n, t, out);
}

/* Attribute boolean; *present says whether it was there. */
bool xml_attr_bool(ld *c, const xmlNode *n, const char *name, bool def, bool *out, bool *present)
{
    xmlChar *a = xmlGetProp(n, (const xmlChar *)name);
    if (present) *present = a != NULL;
    if (!a) {
        *out = def;
        return true;
    }
    bool ok = xml_parse_bool(c, n, (const char *)a, out);
    if (!ok && c->st == ISA_ERR_SCHEMA && c->err) {
        /* name the attribute in the message */
        size_t k = strlen(c->err);
        snprintf(c->err + k, c->errlen - k, " (attribute %s)", name);
    }
    xmlFree(a);
    return ok;
}

/* Decimal attribute; *present says whether it was there. */
bool xml_attr_num(ld *c, const xmlNode *n, const char *name, uint64_t *out, bool *present)
{
    xmlChar *a = xmlGetProp(n, (const xmlChar *)name);
    *present = a != NULL;
    if (!a) return true;
    bool ok = xml_parse_num(c, n, (const char *)a, 10, out); /* plain decimal */
    if (!ok && c->st == ISA_ERR_SCHEMA && c->err) {
        size_t k = strlen(c->err);
        snprintf(c->err + k, c->errlen - k, " (attribute %s)", name);
    }
    xmlFree(a);
    return ok;
}

/* ---- bit layouts (X-04, X-05) -------------------------------------------- */

/* Reads BitLayout into r[]; limit is the container's bit count (0: 64). */
bool xml_layout(ld *c, const xmlNode *owner, unsigned limit, isa_range *r, unsigned *count,
                unsigned *width)
{
    xmlNode *lay = xml_kid(owner, "BitLayout", NULL);
    if (!lay) return xml_fail(c, ISA_ERR_SCHEMA, owner, "missing <BitLayout>");
    unsigned n = xml_count(lay, "Range", NULL);
    if (n == 0) return xml_fail(c, ISA_ERR_SCHEMA, lay, "no <Range>");
    if (n > ISA_MAX_RANGES)
        return xml_fail(c, ISA_ERR_SCHEMA, lay, "too many ranges (%u, at most %d)", n,
                        ISA_MAX_RANGES);
    uint64_t rc;
    bool has_rc;
    if (!xml_attr_num(c, lay, "RangeCount", &rc, &has_rc)) return false;
    if (has_rc && rc != n)
        return xml_fail(c, ISA_ERR_SCHEMA, lay, "RangeCount=%llu but %u <Range> elements",
                        (unsigned long long)rc, n);
    if (limit == 0) limit = 64;
    bool seen[ISA_MAX_RANGES] = {false};
    unsigned pos = 0, w = 0;
    FOR_KIDS(rg, lay, "Range", NULL)
    {
        uint64_t ord;
        bool has_ord;
        if (!xml_attr_num(c, rg, "Order", &ord, &has_ord)) return false;
        if (!has_ord) ord = pos;
        if (ord >= n)
            return xml_fail(c, ISA_ERR_SCHEMA, rg, "Order=%llu out of 0..%u",
                            (unsigned long long)ord, n - 1);
        if (seen[ord])
            return xml_fail(c, ISA_ERR_SCHEMA, rg, "Order=%llu tie", (unsigned long long)ord);
        seen[ord] = true;
        unsigned bc, bo;
        if (!xml_req_small(c, rg, "BitCount", 64, &bc) ||
            !xml_req_small(c, rg, "BitOffset", 63, &bo))
            return false;
        if (bc == 0) return xml_fail(c, ISA_ERR_SCHEMA, xml_kid(rg, "BitCount", NULL), "zero bits");
        if (bo + bc > limit)
            return xml_fail(c, ISA_ERR_SCHEMA, rg, "bits %u..%u outside the %u-bit container", bo,
                            bo + bc - 1, limit);
        isa_range *x = &r[ord];
        x->bit_count = (uint8_t)bc;
        x->bit_offset = (uint8_t)bo;
        xmlNode *pad = xml_kid(rg, "Padding", NULL);
        if (pad) {
            unsigned pc;
            if (!xml_req_small(c, pad, "BitCount", 63, &pc)) return false;
            uint64_t pv;
            if (!xml_opt_num(c, pad, "Value", 2, true, 0, &pv)) return false;
            if (pc < 64 && (pv >> pc) != 0)
                return xml_fail(c, ISA_ERR_SCHEMA, pad, "Value does not fit %u bits", pc);
            x->pad_count = (uint8_t)pc;
            x->pad_value = pv;
        }
        w += bc + x->pad_count;
        pos++;
    }
    if (w > 64) return xml_fail(c, ISA_ERR_SCHEMA, lay, "field is %u bits wide (at most 64)", w);
    *count = n;
    *width = w;
    return true;
}
