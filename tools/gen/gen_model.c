/* gen_model.c — load spec files and flatten them into decode candidates. */
#include "gen_model.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

/* RISC-V's custom-0..3 major opcodes: the task's definition of "an XPHMG
 * instruction" when the functional group does not say so. */
static bool is_custom_opcode(uint64_t op)
{
    return op == 0x0B || op == 0x2B || op == 0x5B || op == 0x7B;
}

static char *ident(const char *name, bool upper)
{
    size_t n = strlen(name);
    char *s = malloc(n + 1);
    if (!s) return NULL;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)name[i];
        s[i] = isalnum(c) ? (char)(upper ? toupper(c) : tolower(c)) : '_';
    }
    s[n] = '\0';
    return s;
}

char *gen_ident_upper(const char *name)
{
    return ident(name, true);
}
char *gen_ident_lower(const char *name)
{
    return ident(name, false);
}

static uint64_t low_mask(unsigned n)
{
    return n >= 64 ? ~0ULL : ((1ULL << n) - 1);
}

void gen_emit_field_expr(FILE *out, const isa_field *f, const char *var)
{
    unsigned pos = 0;
    bool any = false;
    fputc('(', out);
    for (unsigned r = 0; r < f->range_count; r++) {
        const isa_range *rg = &f->ranges[r];
        if (rg->pad_count) {
            uint64_t pv = rg->pad_value & low_mask(rg->pad_count);
            if (pv) {
                fprintf(out, "%s0x%llxull", any ? " | " : "", (unsigned long long)(pv << pos));
                any = true;
            }
            pos += rg->pad_count;
        }
        /* one shift and one mask per range: the compiler folds the rest */
        fprintf(out, "%s(((uint64_t)(%s) >> %u) & 0x%llxull)", any ? " | " : "", var,
                rg->bit_offset, (unsigned long long)low_mask(rg->bit_count));
        if (pos) fprintf(out, " << %u", pos);
        any = true;
        pos += rg->bit_count;
    }
    if (!any) fputc('0', out);
    fputc(')', out);
}

void gen_emit_value_expr(FILE *out, const isa_field *f, const char *var, bool is_signed)
{
    if (!is_signed || f->width == 0 || f->width >= 64) {
        fputs("(int64_t)", out);
        gen_emit_field_expr(out, f, var);
        return;
    }
    /* (v ^ s) - s sign-extends without implementation-defined shifts */
    unsigned long long s = 1ULL << (f->width - 1);
    fputs("(int64_t)(", out);
    gen_emit_field_expr(out, f, var);
    fprintf(out, " ^ 0x%llxull) - (int64_t)0x%llxull", s, s);
}

static int find_insn(const gen_model *m, const char *name)
{
    for (unsigned i = 0; i < m->ninsns; i++)
        if (strcmp(m->insns[i].insn->name, name) == 0) return (int)i;
    return -1;
}

static bool add_insns(gen_model *m, unsigned si)
{
    const isa_spec *sp = m->specs[si];
    unsigned n = isa_instruction_count(sp);
    gen_insn *grown = realloc(m->insns, (m->ninsns + n) * sizeof *grown);
    if (!grown && n) return false;
    m->insns = grown;
    for (unsigned i = 0; i < n; i++) {
        const isa_instruction *in = isa_instruction_at(sp, i);
        /* a later file repeating an instruction adds nothing: the first wins */
        if (find_insn(m, in->name) >= 0) continue;
        gen_insn *g = &m->insns[m->ninsns];
        g->spec = sp;
        g->insn = in;
        g->ident = gen_ident_upper(in->name);
        if (!g->ident) return false;
        for (unsigned k = 0; k < m->ninsns; k++)
            if (strcmp(m->insns[k].ident, g->ident) == 0) {
                fprintf(stderr, "%s: instructions '%s' and '%s' map to the same C name %s\n",
                        m->paths[si], m->insns[k].insn->name, in->name, g->ident);
                free(g->ident);
                return false;
            }
        g->is_xphmg = in->group && strncmp(in->group, "XPHMG_", 6) == 0;
        for (unsigned e = 0; e < in->encoding_count; e++) {
            const isa_insn_encoding *ie = &in->encodings[e];
            if (ie->encoding->op_field >= 0 && is_custom_opcode(ie->opcode)) g->is_xphmg = true;
            if (ie->encoding->identifier_count &&
                is_custom_opcode(ie->encoding->identifiers[0] & ie->encoding->mask & 0x7f) &&
                (ie->encoding->mask & 0x7f) == 0x7f && ie->encoding->bit_count == 32)
                g->is_xphmg = true;
        }
        m->ninsns++;
    }
    return true;
}

static bool push_cand(gen_model *m, unsigned *cap, const gen_cand *c)
{
    if (m->ncands == *cap) {
        unsigned nc = *cap ? *cap * 2 : 256;
        gen_cand *g = realloc(m->cands, nc * sizeof *g);
        if (!g) return false;
        m->cands = g;
        *cap = nc;
    }
    m->cands[m->ncands++] = *c;
    return true;
}

static uint64_t field_mask(const isa_field *f)
{
    uint64_t mk = 0;
    for (unsigned r = 0; r < f->range_count; r++)
        mk |= low_mask(f->ranges[r].bit_count) << f->ranges[r].bit_offset;
    return mk;
}

/* Candidates of one spec, in encoding Order (isa_encoding_at's order). */
static bool add_cands(gen_model *m, unsigned si, unsigned *cap)
{
    const isa_spec *sp = m->specs[si];
    unsigned ne = isa_encoding_count(sp);
    for (unsigned e = 0; e < ne; e++) {
        const isa_encoding *enc = isa_encoding_at(sp, e);
        if (enc->bit_count != 16 && enc->bit_count != 32) {
            fprintf(stderr, "%s: note: encoding %s is %u bits; the simulator decodes 16/32\n",
                    m->paths[si], enc->name, enc->bit_count);
            continue;
        }
        for (unsigned id = 0; id < enc->identifier_count; id++) {
            for (unsigned gi = 0; gi < m->ninsns; gi++) {
                const gen_insn *g = &m->insns[gi];
                if (g->spec != sp) continue;
                for (unsigned k = 0; k < g->insn->encoding_count; k++) {
                    const isa_insn_encoding *ie = &g->insn->encodings[k];
                    if (ie->encoding != enc) continue;
                    gen_cand c = {.insn = gi, .ienc = ie, .enc = enc, .bits = enc->bit_count};
                    c.mask = enc->mask & low_mask(enc->bit_count);
                    c.match = enc->identifiers[id] & c.mask;
                    if (enc->op_field >= 0) {
                        const isa_field *op = &enc->fields[enc->op_field];
                        uint64_t w = c.match;
                        if (isa_field_insert(op, ie->opcode, &w) != ISA_OK) {
                            fprintf(stderr, "%s: opcode 0x%llx of %s does not fit field OP\n",
                                    m->paths[si], (unsigned long long)ie->opcode, g->insn->name);
                            return false;
                        }
                        uint64_t om = field_mask(op);
                        /* identifier and opcode must agree where both fix bits */
                        if ((w & om & c.mask) != (c.match & om & c.mask)) continue;
                        c.mask |= om;
                        c.match = (c.match & ~om) | (w & om);
                    }
                    if (!push_cand(m, cap, &c)) return false;
                }
            }
        }
    }
    return true;
}

bool gen_model_load(gen_model *m, const char *const *paths, unsigned npaths)
{
    memset(m, 0, sizeof *m);
    if (npaths == 0 || npaths > GEN_MAX_SPECS) {
        fprintf(stderr, "xphmg-gen: give 1 to %d spec files with -x\n", GEN_MAX_SPECS);
        return false;
    }
    for (unsigned i = 0; i < npaths; i++) {
        char err[512];
        m->paths[i] = paths[i];
        m->specs[i] = isa_load(paths[i], err, sizeof err);
        if (!m->specs[i]) {
            fprintf(stderr, "xphmg-gen: %s\n", err);
            gen_model_free(m);
            return false;
        }
        m->nspecs = i + 1;
    }
    for (unsigned i = 0; i < m->nspecs; i++)
        if (!add_insns(m, i)) {
            gen_model_free(m);
            return false;
        }
    unsigned cap = 0;
    for (unsigned i = 0; i < m->nspecs; i++)
        if (!add_cands(m, i, &cap)) {
            gen_model_free(m);
            return false;
        }
    return true;
}

void gen_model_free(gen_model *m)
{
    for (unsigned i = 0; i < m->ninsns; i++)
        free(m->insns[i].ident);
    free(m->insns);
    free(m->cands);
    for (unsigned i = 0; i < m->nspecs; i++)
        isa_free(m->specs[i]);
    memset(m, 0, sizeof *m);
}
