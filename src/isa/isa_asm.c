/* isa_asm.c — assembly text: printing decoded instructions, parsing
 * a line back into bits, and encoding from operand values.
 *
 * Number styles follow GNU objdump so that output can be compared text-for-text:
 * no spaces after commas, signed decimal, 0x-hex, and branch targets as bare hex
 * addresses (objdump prints addresses without 0x).
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "isa_impl.h"

static inline uint64_t lowmask(unsigned bits)
{
    return bits >= 64 ? UINT64_MAX : (UINT64_C(1) << bits) - 1;
}

/* Name under which an operand appears in AsmFormat placeholders. */
static const char *op_name(const isa_operand *o)
{
    return o->field ? o->field->name : o->type->name;
}

/* ---- output ---------------------------------------------------------------- */

typedef struct {
    char *b;
    size_t cap, n;
    bool reference; /* unnamed values as the reference disassembler prints them */
} wr;

static void put(wr *w, const char *s, size_t k)
{
    if (!w->b) {
        w->n += k;
        return;
    }
    if (w->n + k < w->cap) {
        memcpy(w->b + w->n, s, k);
    } else {
        for (size_t i = 0; i < k; i++)
            if (w->n + i + 1 < w->cap) w->b[w->n + i] = s[i];
    }
    w->n += k;
}

static void puts_(wr *w, const char *s)
{
    put(w, s, strlen(s));
}

/* Unsigned number in base 10 or 16 (lowercase), without printf: this is the hot path
 * of the disassembler. */
static void put_u(wr *w, uint64_t x, unsigned base)
{
    char tmp[24];
    size_t i = sizeof tmp;
    do {
        tmp[--i] = "0123456789abcdef"[x % base];
        x /= base;
    } while (x);
    put(w, tmp + i, sizeof tmp - i);
}

static void put_value(wr *w, const isa_decoded *d, const isa_operand_value *v)
{
    const isa_operand *o = v->operand;
    if (v->name) {
        puts_(w, v->name);
        return;
    }
    if (w->reference && o->type && ((const isa_type_impl *)o->type)->reference_unnamed) {
        puts_(w, ((const isa_type_impl *)o->type)->reference_unnamed);
        return;
    }
    switch (o->type->display) {
    case ISA_DISP_DEC:
        if (v->value < 0) {
            put(w, "-", 1);
            put_u(w, 0 - (uint64_t)v->value, 10);
        } else {
            put_u(w, (uint64_t)v->value, 10);
        }
        break;
    case ISA_DISP_UDEC:
        put_u(w, (uint64_t)v->value, 10);
        break;
    case ISA_DISP_HEX: {
        /* modulo 2^BitCount of the data format, so a sign-extended immediate
         * prints the way objdump shows it (c.lui a0,0xfffff) */
        uint64_t x = (uint64_t)v->value;
        unsigned fb = o->format ? o->format->bit_count : 64;
        if (fb > 0 && fb < 64) x &= lowmask(fb);
        put(w, "0x", 2);
        put_u(w, x, 16);
        break;
    }
    case ISA_DISP_PCREL:
        put_u(w, d->address + (uint64_t)v->value, 16);
        break;
    }
}

static const isa_operand_value *find_value(const isa_decoded *d, const char *name, size_t len)
{
    for (unsigned i = 0; i < d->operand_count; i++) {
        const char *nm = op_name(d->operands[i].operand);
        if (strlen(nm) == len && !memcmp(nm, name, len)) return &d->operands[i];
    }
    return NULL;
}

/* a group is left out when every operand in it holds its default. */
static bool group_is_default(const isa_decoded *d, const char *p, const char *end)
{
    bool any = false;
    for (; p < end; p++) {
        if (*p != '{') continue;
        const char *e = memchr(p, '}', (size_t)(end - p));
        if (!e) break;
        const isa_operand_value *v = find_value(d, p + 1, (size_t)(e - p - 1));
        if (!v || !v->operand->has_default || v->raw != v->operand->default_value) return false;
        any = true;
        p = e;
    }
    return any;
}

/* ---- compiled templates (the fast path of isa_format) ------------------------ */

static int operand_index(const isa_insn_encoding *ie, const char *name, size_t len)
{
    for (unsigned k = 0; k < ie->operand_count; k++) {
        const char *nm = op_name(&ie->operands[k]);
        if (!strncmp(nm, name, len) && nm[len] == 0) return (int)k;
    }
    return -1;
}

bool isa_compile_tpl(isa_spec *s, const isa_insn_encoding *ie, const char *t, isa_tpl *tp)
{
    unsigned cap = 2 * ISA_MAX_OPERANDS + 1;
    if (t) { /* every character may start a token: a safe upper bound */
        cap = 1;
        for (const char *p = t; *p; p++)
            cap++;
    }
    tp->tok = isa_arena_alloc(&s->arena, sizeof(isa_tok) * cap);
    if (!tp->tok) return false;
    unsigned n = 0, group = 0;
    if (!t) {
        for (unsigned k = 0; k < ie->operand_count; k++) {
            if (ie->operands[k].implicit) continue;
            if (n) tp->tok[n++] = (isa_tok){ISA_TK_LIT, 0, 1, ","};
            tp->tok[n++] = (isa_tok){ISA_TK_OP, (uint8_t)k, 0, NULL};
        }
        tp->space = n > 0;
        tp->n = n;
        return true;
    }
    tp->space = *t != 0;
    for (const char *p = t; *p;) {
        if (*p == '[') {
            group = n;
            tp->tok[n++] = (isa_tok){ISA_TK_GROUP, 0, 0, NULL};
            p++;
        } else if (*p == ']') {
            tp->tok[group].len = (uint16_t)(n - group - 1);
            p++;
        } else if (*p == '{') {
            const char *e = strchr(p, '}');
            int k = e ? operand_index(ie, p + 1, (size_t)(e - p - 1)) : -1;
            if (k < 0) return true; /* cannot happen after the loader's check; stop here */
            tp->tok[n++] = (isa_tok){ISA_TK_OP, (uint8_t)k, 0, NULL};
            p = e + 1;
        } else {
            const char *q = p;
            while (*q && *q != '[' && *q != ']' && *q != '{')
                q++;
            tp->tok[n++] = (isa_tok){ISA_TK_LIT, 0, (uint16_t)(q - p), p};
            p = q;
        }
        tp->n = n;
    }
    return true;
}

bool isa_compile_templates(isa_spec *s)
{
    s->tpls = isa_arena_alloc(&s->arena, sizeof(isa_tpl) * (s->nienc ? s->nienc : 1));
    if (!s->tpls) return false;
    for (unsigned i = 0; i < s->nienc; i++)
        if (!isa_compile_tpl(s, &s->iencs[i], s->iencs[i].asm_format, &s->tpls[i])) return false;
    return true;
}

/* a group is left out when every operand in it holds its default. */
static bool tgroup_is_default(const isa_decoded *d, const isa_tok *t, unsigned n)
{
    bool any = false;
    for (unsigned i = 0; i < n; i++) {
        if (t[i].kind != ISA_TK_OP) continue;
        const isa_operand_value *v = &d->operands[t[i].op];
        if (!v->operand->has_default || v->raw != v->operand->default_value) return false;
        any = true;
    }
    return any;
}

int isa_format_tpl(const isa_decoded *d, const char *mnemonic, const isa_tpl *tp, bool reference,
                   char *buf, size_t len)
{
    wr w = {buf, len, 0, reference};
    if (buf && len) buf[0] = 0;
    puts_(&w, mnemonic);
    if (tp->space) put(&w, " ", 1);
    for (unsigned i = 0; i < tp->n; i++) {
        const isa_tok *t = &tp->tok[i];
        if (t->kind == ISA_TK_LIT)
            put(&w, t->lit, t->len);
        else if (t->kind == ISA_TK_OP)
            put_value(&w, d, &d->operands[t->op]);
        else if (tgroup_is_default(d, t + 1, t->len))
            i += t->len;
    }
    if (buf && len) buf[w.n < len ? w.n : len - 1] = 0;
    return (int)w.n;
}

int isa_format_insn(const isa_spec *spec, const isa_decoded *d, bool reference, char *buf,
                    size_t len)
{
    wr w = {buf, len, 0, reference};
    if (buf && len) buf[0] = 0;
    if (!d || !d->insn || !d->ienc) return 0;
    if (spec && d->ienc >= spec->iencs && d->ienc < spec->iencs + spec->nienc)
        return isa_format_tpl(d, d->insn->name, &spec->tpls[d->ienc - spec->iencs], reference, buf,
                              len);
    puts_(&w, d->insn->name);
    /* a decoded instruction of another spec: interpret the template */
    const char *t = d->ienc->asm_format;
    if (t) {
        if (*t) put(&w, " ", 1);
        for (const char *p = t; *p; p++) {
            if (*p == '[') {
                const char *e = strchr(p, ']');
                if (!e) break;
                if (group_is_default(d, p + 1, e)) p = e;
            } else if (*p == ']') {
                continue;
            } else if (*p == '{') {
                const char *e = strchr(p, '}');
                if (!e) break;
                const isa_operand_value *v = find_value(d, p + 1, (size_t)(e - p - 1));
                if (v) put_value(&w, d, v);
                p = e;
            } else {
                put(&w, p, 1);
            }
        }
    } else {
        bool first = true;
        for (unsigned i = 0; i < d->operand_count; i++) {
            if (d->operands[i].operand->implicit) continue;
            put(&w, first ? " " : ",", 1);
            first = false;
            put_value(&w, d, &d->operands[i]);
        }
    }
    if (buf && len) buf[w.n < len ? w.n : len - 1] = 0;
    return (int)w.n;
}

int isa_format(const isa_spec *spec, const isa_decoded *d, char *buf, size_t len)
{
    return isa_format_insn(spec, d, false, buf, len);
}

/* ---- encoding -------------------------------------------------------------- */

isa_status isa_encode_checked(const isa_insn_encoding *ie, const uint64_t *raw, unsigned n,
                              uint64_t *word, const char **why)
{
    const isa_enc_impl *e = (const isa_enc_impl *)ie->encoding;
    uint64_t w = e->ids_masked[0];
    *why = NULL;
    if (e->pub.op_field >= 0 &&
        isa_field_insert(&e->pub.fields[e->pub.op_field], ie->opcode, &w) != ISA_OK) {
        *why = "opcode does not fit its field";
        return ISA_ERR_RANGE;
    }
    for (unsigned i = 0; i < ie->operand_count; i++) {
        const isa_operand *o = &ie->operands[i];
        if (!o->field) continue;
        uint64_t v = i < n ? raw[i] : o->has_default ? o->default_value : 0;
        /* two operands on one field (rd = rs1 forms) must agree */
        for (unsigned j = 0; j < i; j++)
            if (ie->operands[j].field == o->field) {
                uint64_t u = j < n                         ? raw[j]
                             : ie->operands[j].has_default ? ie->operands[j].default_value
                                                           : 0;
                if (u != v) {
                    *why = "operands sharing a field differ";
                    return ISA_ERR_RANGE;
                }
            }
        if (isa_field_insert(o->field, v, &w) != ISA_OK) {
            *why = "value does not fit its field";
            return ISA_ERR_RANGE;
        }
    }
    if ((w & e->pub.mask) != e->ids_masked[0]) {
        *why = "value overlaps the encoding's fixed bits";
        return ISA_ERR_RANGE;
    }
    for (unsigned i = 0; i < ie->constraint_count; i++)
        for (unsigned f = 0; f < e->pub.field_count; f++)
            if (e->pub.fields[f].name == ie->constraints[i].field &&
                isa_field_extract(&e->pub.fields[f], w) == ie->constraints[i].not_value) {
                *why = "value is reserved for this instruction (constraint)";
                return ISA_ERR_RANGE;
            }
    *word = w;
    return ISA_OK;
}

isa_status isa_encode(const isa_spec *spec, const isa_instruction *insn,
                      const isa_insn_encoding *ienc, const uint64_t *raw_values, unsigned nvalues,
                      uint64_t *word)
{
    if (!spec || !insn || !word || (nvalues && !raw_values)) return ISA_ERR_ARG;
    if (!ienc) ienc = &insn->encodings[0];
    if (ienc < insn->encodings || ienc >= insn->encodings + insn->encoding_count)
        return ISA_ERR_ARG;
    const char *why;
    return isa_encode_checked(ienc, raw_values, nvalues, word, &why);
}

/* ---- parsing --------------------------------------------------------------- */

typedef struct {
    char *err;
    size_t errlen;
    bool has_err;
    /* First pass: a named value (a register) written as a bare number is refused, so that
     * GNU's "add a0,a1,3" (its text for addi) is not read as add a0,a1,gp; numbered was
     * set when that refusal happened, and a second pass then accepts numbers. */
    bool strict, numbered;
} perr;

static isa_status pfail(perr *p, isa_status st, const char *fmt, ...)
{
    if (p->has_err || !p->err || !p->errlen) return st;
    p->has_err = true;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err, p->errlen, fmt, ap);
    va_end(ap);
    return st;
}

/* Signed or unsigned number: [+-](0x hex | 0b bin | decimal). */

/* Value of a hexadecimal digit (either case), -1 for anything else. */
static int digit_value(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

static bool parse_int(const char *s, size_t len, int64_t *out)
{
    size_t i = 0;
    bool neg = false;
    if (i < len && (s[i] == '-' || s[i] == '+')) neg = s[i++] == '-';
    int base = 10;
    if (i + 1 < len && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X'))
        base = 16, i += 2;
    else if (i + 1 < len && s[i] == '0' && (s[i + 1] == 'b' || s[i + 1] == 'B'))
        base = 2, i += 2;
    if (i >= len) return false;
    uint64_t acc = 0;
    for (; i < len; i++) {
        int dv = digit_value(s[i]);
        if (dv < 0 || dv >= base) return false;
        if (acc > (UINT64_MAX - (uint64_t)dv) / (uint64_t)base) return false;
        acc = acc * (uint64_t)base + (uint64_t)dv;
    }
    if (neg && acc > (UINT64_C(1) << 63)) return false;
    *out = neg ? (int64_t)(0 - acc) : (int64_t)acc;
    return true;
}

static bool parse_hex(const char *s, size_t len, uint64_t *out)
{
    if (len > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2, len -= 2;
    if (!len || len > 16) return false;
    uint64_t acc = 0;
    for (size_t i = 0; i < len; i++) {
        int dv = digit_value(s[i]);
        if (dv < 0) return false;
        acc = acc << 4 | (uint64_t)dv;
    }
    *out = acc;
    return true;
}

/* Operand text -> raw field value (the inverse of put_value). */
static isa_status parse_operand(const isa_operand *o, const char *s, size_t len, uint64_t address,
                                uint64_t *raw, perr *pe)
{
    const isa_operand_type *t = o->type;
    const isa_predef *p = t->predef_count ? isa_type_find_name(t, s, len) : NULL;
    int64_t v;
    const char *digits = len && (s[0] == '-' || s[0] == '+') ? s + 1 : s;
    bool is_hex =
        digits + 1 < s + len && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
    /* (hex types such as CSRs are numbers first: objdump prints vendor CSRs by number) */
    if (!p && t->predef_count && t->display != ISA_DISP_HEX && pe->strict &&
        parse_int(s, len, &v) && isa_type_lookup(t, (uint64_t)v)) {
        pe->numbered = true; /* no message: the lenient pass decides */
        return ISA_ERR_SYNTAX;
    }
    if (p) {
        v = (int64_t)p->value;
    } else if (t->display == ISA_DISP_PCREL) {
        uint64_t a;
        if (len >= 2 && s[0] == '.' && (s[1] == '+' || s[1] == '-')) {
            if (!parse_int(s + 1, len - 1, &v))
                return pfail(pe, ISA_ERR_SYNTAX, "bad offset \"%.*s\"", (int)len, s);
        } else if (parse_hex(s, len, &a)) {
            v = (int64_t)(a - address); /* objdump style: absolute hex address */
        } else {
            return pfail(pe, ISA_ERR_SYNTAX, "bad target \"%.*s\" for %s (hex address or .+N)",
                         (int)len, s, op_name(o));
        }
    } else if (!parse_int(s, len, &v)) {
        return pfail(pe, ISA_ERR_SYNTAX, "bad operand \"%.*s\" for %s", (int)len, s, op_name(o));
    }
    if (!o->field) { /* not encoded, must be the implied value */
        uint64_t want = t->predef_count ? t->predefs[0].value : 0;
        if ((uint64_t)v != want)
            return pfail(pe, ISA_ERR_RANGE, "operand %s must be %s", op_name(o),
                         t->predef_count ? t->predefs[0].name : "0");
        *raw = want;
        return ISA_OK;
    }
    unsigned w = o->field->width;
    /* registers and other named values are field values, never sign-extended */
    bool sgn = t->predef_count == 0 && o->format && o->format->is_signed;
    unsigned fb = o->format ? o->format->bit_count : 64;
    if (sgn && is_hex && fb > 0 && fb < 64 && v >= 0 && (uint64_t)v <= lowmask(fb) &&
        ((uint64_t)v >> (fb - 1)) & 1)
        v = (int64_t)((uint64_t)v | ~lowmask(fb)); /* a BitCount-bit two's complement */
    if (w >= 64) {
        *raw = (uint64_t)v;
        return ISA_OK;
    }
    if (sgn) {
        int64_t lo = -(int64_t)(UINT64_C(1) << (w - 1)), hi = (int64_t)(UINT64_C(1) << (w - 1)) - 1;
        if (v < lo || v > hi)
            return pfail(pe, ISA_ERR_RANGE, "%s: %" PRId64 " is outside %" PRId64 "..%" PRId64,
                         op_name(o), v, lo, hi);
        *raw = (uint64_t)v & lowmask(w);
    } else {
        if (v < 0 || (uint64_t)v > lowmask(w))
            return pfail(pe, ISA_ERR_RANGE, "%s: %" PRId64 " is outside 0..%" PRIu64, op_name(o), v,
                         lowmask(w));
        *raw = (uint64_t)v;
    }
    /* padding bits, e.g. an odd branch offset */
    uint64_t tmp = 0;
    if (isa_field_insert(o->field, *raw, &tmp) != ISA_OK)
        return pfail(pe, ISA_ERR_RANGE, "%s: %" PRId64 " is not a multiple of the field's step",
                     op_name(o), v);
    return ISA_OK;
}

#define MAX_GROUPS 6

/* Matches input against template variant `keep` (bit g set: group g present). */
static isa_status match_variant(const isa_insn_encoding *ie, const char *tpl, unsigned keep,
                                const char *in, uint64_t address, uint64_t *raw, bool *set,
                                perr *pe)
{
    unsigned g = 0;
    bool skipping = false;
    const char *i = in;
    for (const char *t = tpl; *t; t++) {
        if (*t == '[') {
            skipping = !((keep >> g) & 1);
            g++;
            continue;
        }
        if (*t == ']') {
            skipping = false;
            continue;
        }
        if (skipping) continue;
        if (isspace((unsigned char)*t)) continue; /* template blanks are optional */
        while (isspace((unsigned char)*i))
            i++;
        if (*t != '{') {
            if (*i != *t)
                return pfail(pe, ISA_ERR_SYNTAX, "expected '%c' at \"%s\"", *t, *i ? i : "end");
            i++;
            continue;
        }
        const char *e = strchr(t, '}');
        const char *name = t + 1;
        size_t nlen = (size_t)(e - name);
        t = e;
        /* the token ends at the next literal of the (active) template, else at a blank,
         * a comma or the end */
        char stop = 0;
        {
            unsigned gg = g;
            bool sk = skipping;
            for (const char *q = t + 1; *q && !stop; q++) {
                if (*q == '[') {
                    sk = !((keep >> gg) & 1);
                    gg++;
                } else if (*q == ']') {
                    sk = false;
                } else if (!sk && *q == '{') {
                    break;
                } else if (!sk && !isspace((unsigned char)*q)) {
                    stop = *q;
                }
            }
        }
        const char *s = i;
        while (*i && (stop ? *i != stop : (*i != ',' && !isspace((unsigned char)*i))))
            i++;
        size_t len = (size_t)(i - s);
        while (len && isspace((unsigned char)s[len - 1]))
            len--;
        if (!len) return pfail(pe, ISA_ERR_SYNTAX, "missing operand %.*s", (int)nlen, name);
        int first = -1;
        for (unsigned k = 0; k < ie->operand_count; k++) {
            const char *on = op_name(&ie->operands[k]);
            if (strlen(on) == nlen && !memcmp(on, name, nlen)) {
                if (first < 0) {
                    isa_status st = parse_operand(&ie->operands[k], s, len, address, &raw[k], pe);
                    if (st != ISA_OK) return st;
                    first = (int)k;
                } else {
                    raw[k] = raw[first];
                }
                set[k] = true;
            }
        }
    }
    while (isspace((unsigned char)*i))
        i++;
    if (*i) return pfail(pe, ISA_ERR_SYNTAX, "unexpected \"%s\"", i);
    return ISA_OK;
}

/* Parses the operand text for one instruction encoding into raw values, by template tpl
 * (NULL: the default syntax); given[k] says whether the text gave operand k. */
static isa_status parse_operands(const isa_insn_encoding *ie, const char *tpl, const char *ops,
                                 uint64_t address, uint64_t *raw, bool *given, perr *pe)
{
    char deftpl[ISA_MAX_OPERANDS * 80];
    if (!tpl) { /* X-14 default syntax: explicit operands in Order, comma separated */
        size_t n = 0;
        deftpl[0] = 0;
        for (unsigned k = 0; k < ie->operand_count; k++) {
            if (ie->operands[k].implicit) continue;
            int m = snprintf(deftpl + n, sizeof deftpl - n, "%s{%s}", n ? "," : "",
                             op_name(&ie->operands[k]));
            if (m < 0 || (size_t)m >= sizeof deftpl - n)
                return pfail(pe, ISA_ERR_SYNTAX, "operand names too long");
            n += (size_t)m;
        }
        tpl = deftpl;
    }
    unsigned ng = 0;
    for (const char *t = tpl; *t; t++)
        ng += *t == '[';
    if (ng > MAX_GROUPS) ng = MAX_GROUPS;
    isa_status st = ISA_ERR_SYNTAX;
    /* prefer the variant with the most groups present; its error is the one reported */
    for (int keep = (1 << ng) - 1; keep >= 0; keep--) {
        bool set[ISA_MAX_OPERANDS] = {false};
        perr tmp = {(!pe->has_err && keep == (1 << ng) - 1) ? pe->err : NULL, pe->errlen, false,
                    pe->strict, false};
        st = match_variant(ie, tpl, (unsigned)keep, ops, address, raw, set, &tmp);
        if (tmp.has_err) pe->has_err = true;
        if (tmp.numbered) pe->numbered = true;
        if (st != ISA_OK) continue;
        for (unsigned k = 0; k < ie->operand_count; k++) {
            const isa_operand *o = &ie->operands[k];
            given[k] = set[k];
            if (set[k]) continue;
            if (!o->field)
                raw[k] = o->type->predef_count ? o->type->predefs[0].value : 0;
            else
                raw[k] = o->has_default ? o->default_value : 0;
        }
        return ISA_OK;
    }
    return st;
}

/* Operand values an alias's conditions fix: operands on an EQ field take its value,
 * operands on a SAME field the value of the operand on the other field. A value the text
 * gave that disagrees is an error. */
static isa_status alias_fix_operands(const isa_alias *a, uint64_t *raw, const bool *given, perr *pe)
{
    const isa_insn_encoding *ie = a->ienc;
    for (unsigned pass = 0; pass < 2; pass++) /* EQ first, so SAME can copy a fixed value */
        for (unsigned c = 0; c < a->condition_count; c++) {
            const isa_alias_cond *cd = &a->conditions[c];
            if (cd->test != (pass ? ISA_ALIAS_SAME : ISA_ALIAS_EQ)) continue;
            bool have = pass == 0;
            uint64_t v = cd->value;
            for (unsigned k = 0; pass && k < ie->operand_count && !have; k++)
                if (ie->operands[k].field == cd->other) v = raw[k], have = true;
            if (!have) continue;
            for (unsigned k = 0; k < ie->operand_count; k++) {
                if (ie->operands[k].field != cd->field) continue;
                if (given[k] && raw[k] != v)
                    return pfail(pe, ISA_ERR_RANGE, "%s: operand %s must be %s here", a->name,
                                 op_name(&ie->operands[k]), pass ? cd->other->name : "fixed");
                raw[k] = v;
            }
        }
    return ISA_OK;
}

/* One alias: its template, its conditions, then the same checks as an instruction. */
static isa_status assemble_alias(const isa_spec *spec, const isa_alias *a, const char *ops,
                                 uint64_t address, isa_decoded *out, perr *pe)
{
    const isa_insn_encoding *ie = a->ienc;
    uint64_t raw[ISA_MAX_OPERANDS] = {0}, w;
    bool given[ISA_MAX_OPERANDS];
    const char *why;
    isa_status st = parse_operands(ie, a->asm_format, ops, address, raw, given, pe);
    if (st == ISA_OK) st = alias_fix_operands(a, raw, given, pe);
    if (st != ISA_OK) return st;
    if ((st = isa_encode_checked(ie, raw, ie->operand_count, &w, &why)) != ISA_OK)
        return pfail(pe, st, "%s: %s", a->name, why);
    /* fields no operand covers (a funct or a fixed register field) */
    for (unsigned c = 0; c < a->condition_count; c++) {
        const isa_alias_cond *cd = &a->conditions[c];
        if (cd->test == ISA_ALIAS_EQ) isa_field_insert(cd->field, cd->value, &w);
        if (cd->test == ISA_ALIAS_SAME)
            isa_field_insert(cd->field, isa_field_extract(cd->other, w), &w);
    }
    if (!isa_alias_applies(a, w))
        return pfail(pe, ISA_ERR_RANGE, "%s: operands outside what the alias allows", a->name);
    st = isa_decode_word(spec, w, ie->encoding->bit_count, address, out);
    if (st == ISA_OK && out->ienc == ie) return ISA_OK;
    return pfail(pe, ISA_ERR_RANGE, "%s: these operands encode %s instead", a->name,
                 st == ISA_OK ? out->insn->name : "nothing");
}

/* the aliases named mn, in document order; the first that assembles wins. prior is
 * the status of the instructions of that name (ISA_ERR_UNKNOWN when there are none). */
static isa_status assemble_aliases(const isa_spec *spec, const char *mn, const char *ops,
                                   uint64_t address, isa_decoded *out, perr *pe, isa_status prior)
{
    unsigned lo = 0, hi = spec->nalias;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (strcmp(spec->alias_by_name[mid]->pub.name, mn) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    isa_status best = prior;
    for (unsigned k = lo; k < spec->nalias && !strcmp(spec->alias_by_name[k]->pub.name, mn); k++) {
        isa_status st = assemble_alias(spec, &spec->alias_by_name[k]->pub, ops, address, out, pe);
        if (st == ISA_OK) return ISA_OK;
        if (best == ISA_ERR_UNKNOWN || best == ISA_ERR_SYNTAX) best = st;
    }
    if (best == ISA_ERR_UNKNOWN) return pfail(pe, ISA_ERR_UNKNOWN, "unknown mnemonic \"%s\"", mn);
    return best;
}

/* Drops "# comment" and an objdump-style " <symbol+0x10>" after the operands. */
static size_t clean_len(const char *s)
{
    size_t n = strlen(s);
    const char *h = strchr(s, '#');
    if (h) n = (size_t)(h - s);
    while (n && isspace((unsigned char)s[n - 1]))
        n--;
    if (n && s[n - 1] == '>') {
        size_t k = n;
        while (k && s[k - 1] != '<')
            k--;
        if (k && k > 1 && isspace((unsigned char)s[k - 2])) {
            n = k - 1;
            while (n && isspace((unsigned char)s[n - 1]))
                n--;
        }
    }
    return n;
}

/* Every instruction named mn, then every alias named mn; the first that
 * assembles wins. */
static isa_status assemble_mnemonic(const isa_spec *spec, const char *mn, const char *p,
                                    uint64_t address, isa_decoded *out, perr *pe)
{
    const isa_instruction *I = isa_find_instruction(spec, mn);
    isa_status best = ISA_ERR_SYNTAX;
    if (!I) return assemble_aliases(spec, mn, p, address, out, pe, ISA_ERR_UNKNOWN);
    /* instructions sharing the mnemonic sit next to each other in the name index */
    unsigned first_ix = 0;
    while (spec->insn_by_name[first_ix] != I)
        first_ix++;
    for (unsigned k = first_ix; k < spec->ninsn && !strcmp(spec->insn_by_name[k]->name, mn); k++) {
        const isa_instruction *J = spec->insn_by_name[k];
        for (unsigned e = 0; e < J->encoding_count; e++) {
            const isa_insn_encoding *ie = &J->encodings[e];
            uint64_t raw[ISA_MAX_OPERANDS] = {0};
            bool given[ISA_MAX_OPERANDS];
            isa_status st = parse_operands(ie, ie->asm_format, p, address, raw, given, pe);
            if (st == ISA_OK) {
                uint64_t w;
                const char *why;
                st = isa_encode_checked(ie, raw, ie->operand_count, &w, &why);
                if (st != ISA_OK) {
                    pfail(pe, st, "%s: %s", mn, why);
                } else {
                    st = isa_decode_word(spec, w, ie->encoding->bit_count, address, out);
                    if (st == ISA_OK && out->insn == J && out->ienc == ie) return ISA_OK;
                    if (st == ISA_OK)
                        st = pfail(pe, ISA_ERR_RANGE, "%s: these operands encode %s instead", mn,
                                   out->insn->name);
                    else
                        st = pfail(pe, ISA_ERR_RANGE, "%s: encoded bits do not decode back", mn);
                }
            }
            if (best == ISA_ERR_SYNTAX) best = st;
        }
    }
    return assemble_aliases(spec, mn, p, address, out, pe, best);
}
isa_status isa_assemble(const isa_spec *spec, const char *text, uint64_t address, isa_decoded *out,
                        char *err, size_t errlen)
{
    perr pe = {err, errlen, false, false, false};
    if (err && errlen) err[0] = 0;
    if (!spec || !text || !out) return ISA_ERR_ARG;
    char line[512];
    size_t n = clean_len(text);
    if (n >= sizeof line) return pfail(&pe, ISA_ERR_SYNTAX, "line too long");
    memcpy(line, text, n);
    line[n] = 0;
    char *p = line;
    while (isspace((unsigned char)*p))
        p++;
    char *m = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    size_t mlen = (size_t)(p - m);
    if (!mlen) return pfail(&pe, ISA_ERR_SYNTAX, "empty line");
    char mn[128];
    if (mlen >= sizeof mn) return pfail(&pe, ISA_ERR_UNKNOWN, "unknown mnemonic");
    memcpy(mn, m, mlen);
    mn[mlen] = 0;
    isa_status st = ISA_ERR_SYNTAX;
    for (int pass = 0; pass < 2; pass++) {
        pe.strict = pass == 0;
        pe.numbered = false;
        st = assemble_mnemonic(spec, mn, p, address, out, &pe);
        if (st == ISA_OK || !pe.numbered) break;
    }
    return st;
}
