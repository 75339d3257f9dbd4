/* gen_guest.c — the guest header and its self-test source.
 *
 * Intrinsics are written with GNU as's `.insn` directive so that stock
 * riscv64-unknown-elf-gcc/binutils 2.40 can issue XPHMG instructions. Each
 * instruction's encoded operand fields are matched, bit for bit, against the
 * operand slots of the `.insn r`, `.insn i`, `.insn s` and 4-register `.insn r`
 * forms; slots no operand uses are filled with the constant bits of the
 * encoding's identifier. So nothing about an XPHMG instruction is restated here:
 * opcode, funct3, funct7 and fixed registers all come from the XML. */
#include "gen_guest.h"

#include "gen_csr.h"

#include <stdlib.h>
#include <string.h>

/* ---- `.insn` forms (GNU as 2.40, "RISC-V-Formats") ----------------------- */

enum { K_OPC, K_FUNC, K_REG, K_IMM };

typedef struct {
    const char *name;
    int kind;
    unsigned nr;
    unsigned off[2], cnt[2]; /* [0] least significant */
} slot_def;

typedef struct {
    const char *form; /* directive keyword */
    unsigned n;
    slot_def s[7];
    bool s_syntax; /* last two slots printed as imm(rs1) */
} form_def;

#define OPC                                                                                        \
    {                                                                                              \
        "opcode", K_OPC, 1, {0},                                                                   \
        {                                                                                          \
            7                                                                                      \
        }                                                                                          \
    }
#define F3                                                                                         \
    {                                                                                              \
        "func3", K_FUNC, 1, {12},                                                                  \
        {                                                                                          \
            3                                                                                      \
        }                                                                                          \
    }
#define RD                                                                                         \
    {                                                                                              \
        "rd", K_REG, 1, {7},                                                                       \
        {                                                                                          \
            5                                                                                      \
        }                                                                                          \
    }
#define RS1                                                                                        \
    {                                                                                              \
        "rs1", K_REG, 1, {15},                                                                     \
        {                                                                                          \
            5                                                                                      \
        }                                                                                          \
    }
#define RS2                                                                                        \
    {                                                                                              \
        "rs2", K_REG, 1, {20},                                                                     \
        {                                                                                          \
            5                                                                                      \
        }                                                                                          \
    }

static const form_def forms[] = {
    {"r", 6, {OPC, F3, {"func7", K_FUNC, 1, {25}, {7}}, RD, RS1, RS2}, false},
    {"i", 5, {OPC, F3, RD, RS1, {"simm12", K_IMM, 1, {20}, {12}}}, false},
    {"s", 5, {OPC, F3, RS2, {"simm12", K_IMM, 2, {7, 25}, {5, 7}}, RS1}, true},
    {"r",
     7,
     {OPC, F3, {"func2", K_FUNC, 1, {25}, {2}}, RD, RS1, RS2, {"rs3", K_REG, 1, {27}, {5}}},
     false},
};

/* ---- Operands as the C side sees them ------------------------------------ */

typedef struct {
    const isa_operand *op;
    char *name; /* asm operand name: the field name in lower case */
    char *var;  /* C parameter name: name + '_', so a macro argument can never
                 * replace the asm operand name (xphmg_rt_bbox(rs1, 0)) */
    char cls;   /* 'r' integer register, 'f' FP register, 'i' immediate */
} c_operand;

typedef struct {
    const gen_insn *g;
    const isa_insn_encoding *ie;
    uint64_t match;
    const form_def *form;
    int slot_reg[7];         /* register operand in a register slot, or -1 */
    unsigned slot_nimm[7];   /* immediate operands placed in the slot */
    int slot_imm[7][4];      /* their indices into ops */
    unsigned slot_pos[7][4]; /* where each lands in the slot's value */
    unsigned nops;
    c_operand ops[ISA_MAX_OPERANDS];
    int out; /* index of the output register operand, -1 if none */
    bool has_imm;
    char *fname; /* xphmg_<name> */
} intrinsic;

/* Register class from the operand type's assembler names: RISC-V knowledge the
 * `.insn` constraints need ("r" or "f"). */
static char reg_class(const isa_operand *op)
{
    if (!op->type) return 'i';
    for (unsigned i = 0; i < op->type->predef_count; i++) {
        const isa_predef *p = &op->type->predefs[i];
        if (p->value != 1 || !p->name) continue;
        if (!strcmp(p->name, "ra") || !strcmp(p->name, "x1")) return 'r';
        if (!strcmp(p->name, "ft1") || !strcmp(p->name, "f1")) return 'f';
    }
    return 'i';
}

static bool same_layout(const isa_field *f, const slot_def *s)
{
    if (f->range_count != s->nr) return false;
    for (unsigned r = 0; r < s->nr; r++)
        if (f->ranges[r].pad_count || f->ranges[r].bit_offset != s->off[r] ||
            f->ranges[r].bit_count != s->cnt[r])
            return false;
    return true;
}

static uint64_t slot_bits(const slot_def *s)
{
    uint64_t m = 0;
    for (unsigned r = 0; r < s->nr; r++)
        m |= ((1ULL << s->cnt[r]) - 1) << s->off[r];
    return m;
}

static uint64_t slot_value(const slot_def *s, uint64_t w)
{
    uint64_t v = 0;
    unsigned pos = 0;
    for (unsigned r = 0; r < s->nr; r++) {
        v |= ((w >> s->off[r]) & ((1ULL << s->cnt[r]) - 1)) << pos;
        pos += s->cnt[r];
    }
    return v;
}

static void intrinsic_free(intrinsic *in)
{
    for (unsigned i = 0; i < in->nops; i++) {
        free(in->ops[i].name);
        free(in->ops[i].var);
    }
    free(in->fname);
    memset(in, 0, sizeof *in);
}

/* Where field f sits inside slot sd: its bit position in the slot's value, or -1.
 * The field must be one unpadded range inside one of the slot's ranges. */
static int pos_in_slot(const isa_field *f, const slot_def *sd)
{
    if (f->range_count != 1 || f->ranges[0].pad_count) return -1;
    unsigned fo = f->ranges[0].bit_offset, fc = f->ranges[0].bit_count, pos = 0;
    for (unsigned r = 0; r < sd->nr; r++) {
        if (fo >= sd->off[r] && fo + fc <= sd->off[r] + sd->cnt[r])
            return (int)(pos + fo - sd->off[r]);
        pos += sd->cnt[r];
    }
    return -1;
}

static uint64_t field_bits(const isa_field *f)
{
    uint64_t m = 0;
    for (unsigned r = 0; r < f->range_count; r++)
        m |= ((1ULL << f->ranges[r].bit_count) - 1) << f->ranges[r].bit_offset;
    return m;
}

/* Places every encoded operand in a slot of form fd: a register only in a register
 * slot with exactly its layout; an immediate anywhere but the major opcode (a
 * constant func3/func7/func2/simm12 expression, or x<n> in a register slot). Bits
 * of a slot no operand covers must be fixed by the encoding's mask. */
static bool place_operands(intrinsic *in, const form_def *fd, uint64_t mask)
{
    uint64_t covered[7] = {0};
    for (unsigned s = 0; s < fd->n; s++) {
        in->slot_reg[s] = -1;
        in->slot_nimm[s] = 0;
    }
    for (unsigned o = 0; o < in->nops; o++) {
        const c_operand *co = &in->ops[o];
        bool placed = false;
        for (unsigned s = 0; s < fd->n && !placed; s++) {
            const slot_def *sd = &fd->s[s];
            if (sd->kind == K_OPC) continue;
            if (co->cls != 'i') {
                if (sd->kind != K_REG || !same_layout(co->op->field, sd) || in->slot_reg[s] >= 0 ||
                    in->slot_nimm[s])
                    continue;
                in->slot_reg[s] = (int)o;
            } else {
                int pos = same_layout(co->op->field, sd) ? 0 : pos_in_slot(co->op->field, sd);
                if (pos < 0 || in->slot_reg[s] >= 0 || in->slot_nimm[s] == 4) continue;
                in->slot_imm[s][in->slot_nimm[s]] = (int)o;
                in->slot_pos[s][in->slot_nimm[s]++] = (unsigned)pos;
            }
            covered[s] |= field_bits(co->op->field);
            placed = true;
        }
        if (!placed) return false;
    }
    for (unsigned s = 0; s < fd->n; s++)
        if (slot_bits(&fd->s[s]) & ~covered[s] & ~mask) return false;
    return true;
}

/* Fills `in` for instruction g; false (with a note) when no form fits. */
static bool plan_intrinsic(const gen_model *m, const gen_insn *g, intrinsic *in)
{
    memset(in, 0, sizeof *in);
    in->g = g;
    in->out = -1;
    const gen_cand *c = NULL;
    for (unsigned k = 0; k < m->ncands && !c; k++)
        if (m->insns + m->cands[k].insn == g && m->cands[k].bits == 32) c = &m->cands[k];
    if (!c) return false;
    in->ie = c->ienc;
    in->match = c->match;
    for (unsigned i = 0; i < c->ienc->operand_count; i++) {
        const isa_operand *op = &c->ienc->operands[i];
        if (!op->field) continue; /* not encoded: nothing to pass */
        c_operand *co = &in->ops[in->nops++];
        co->op = op;
        co->name = gen_ident_lower(op->field->name);
        co->var = co->name ? malloc(strlen(co->name) + 2) : NULL;
        if (co->var) sprintf(co->var, "%s_", co->name);
        co->cls = reg_class(op);
        if (co->cls == 'i') in->has_imm = true;
        if (co->cls != 'i' && op->output && in->out < 0) in->out = (int)(in->nops - 1);
    }
    for (size_t f = 0; f < sizeof forms / sizeof forms[0] && !in->form; f++)
        if (place_operands(in, &forms[f], c->mask)) in->form = &forms[f];
    char *low = gen_ident_lower(g->insn->name);
    size_t n = strlen(low) + 8;
    in->fname = malloc(n);
    if (in->fname) snprintf(in->fname, n, "xphmg_%s", low);
    free(low);
    if (!in->form) {
        fprintf(stderr,
                "xphmg-gen: note: %s: operand layout fits no .insn r/i/s/r4 form; "
                "no intrinsic\n",
                g->insn->name);
        return false;
    }
    return in->fname != NULL;
}

static const char *c_type(char cls)
{
    return cls == 'f' ? "double" : "uint64_t";
}

/* The asm template, e.g. ".insn i 0x0b, 6, %[rd], %[rs1], %[imm12]". */
static void emit_template(FILE *out, const intrinsic *in)
{
    const form_def *fd = in->form;
    fprintf(out, "\".insn %s ", fd->form);
    for (unsigned s = 0; s < fd->n; s++) {
        const slot_def *sd = &fd->s[s];
        const char *sep = s ? ", " : "";
        if (fd->s_syntax && s == fd->n - 1) sep = "(";
        fputs(sep, out);
        if (in->slot_reg[s] >= 0) {
            fprintf(out, "%%[%s]", in->ops[in->slot_reg[s]].name);
        } else if (in->slot_nimm[s]) {
            fprintf(out, "%s%%[xs%u]", sd->kind == K_REG ? "x" : "", s);
        } else {
            uint64_t v = slot_value(sd, in->match);
            if (sd->kind == K_REG)
                fprintf(out, "x%llu", (unsigned long long)v);
            else if (sd->kind == K_IMM) {
                unsigned w = sd->cnt[0] + (sd->nr > 1 ? sd->cnt[1] : 0);
                int64_t sv = (int64_t)(v ^ (1ULL << (w - 1))) - (int64_t)(1ULL << (w - 1));
                fprintf(out, "%lld", (long long)sv);
            } else
                fprintf(out, "0x%llx", (unsigned long long)v);
        }
    }
    if (fd->s_syntax) fputc(')', out);
    fputc('"', out);
}

/* The "i" operand of a slot holding immediates: the slot's constant bits with each
 * immediate masked and shifted into place. `.insn` immediates (simm12) are signed;
 * an unsigned value's upper half is passed as the negative number with the same
 * bits. */
static void emit_slot_operand(FILE *out, const intrinsic *in, unsigned s)
{
    const slot_def *sd = &in->form->s[s];
    unsigned w = sd->cnt[0] + (sd->nr > 1 ? sd->cnt[1] : 0);
    unsigned long long all = (1ULL << w) - 1;
    fprintf(out, "[xs%u] \"i\"(", s);
    if (sd->kind == K_IMM) fputs("((", out);
    fprintf(out, "(0x%llxL", (unsigned long long)slot_value(sd, in->match));
    for (unsigned k = 0; k < in->slot_nimm[s]; k++) {
        const c_operand *co = &in->ops[in->slot_imm[s][k]];
        unsigned fw = co->op->field->width;
        fprintf(out, " | (((long)(%s) & 0x%llxL) << %u)", co->var, fw >= w ? all : (1ULL << fw) - 1,
                in->slot_pos[s][k]);
    }
    fputc(')', out);
    if (sd->kind == K_IMM)
        fprintf(out, " & 0x%llxL) ^ 0x%llxL) - 0x%llxL", all, 1ULL << (w - 1), 1ULL << (w - 1));
    fputc(')', out);
}

static void emit_asm(FILE *out, const intrinsic *in, const char *result, const char *lead)
{
    fprintf(out, "%s__asm__ __volatile__(", lead);
    emit_template(out, in);
    fputs(" : ", out);
    if (in->out >= 0) {
        const c_operand *co = &in->ops[in->out];
        fprintf(out, "[%s] \"%s%c\"(%s)", co->name, co->op->input ? "+" : "=", co->cls, result);
    }
    fputs(" : ", out);
    bool first = true;
    for (unsigned o = 0; o < in->nops; o++) {
        const c_operand *co = &in->ops[o];
        if ((int)o == in->out || co->cls == 'i') continue;
        fprintf(out, "%s[%s] \"%c\"((%s)(%s))", first ? "" : ", ", co->name, co->cls,
                c_type(co->cls), co->var);
        first = false;
    }
    for (unsigned s = 0; s < in->form->n; s++) {
        if (!in->slot_nimm[s]) continue;
        fputs(first ? "" : ", ", out);
        first = false;
        emit_slot_operand(out, in, s);
    }
    fputs(" : \"memory\");", out);
}

/* XML text inside a C comment: at most max chars, one line, no comment end. */
static void put_comment(FILE *out, const char *t, size_t max)
{
    for (size_t i = 0; t[i] && i < max; i++) {
        if (t[i] == '*' && t[i + 1] == '/')
            fputs("* ", out);
        else
            fputc(t[i] == '\n' || t[i] == '\r' ? ' ' : t[i], out);
    }
}

static void emit_intrinsic(FILE *out, const intrinsic *in)
{
    const isa_instruction *ins = in->g->insn;
    fputs("\n/* ", out);
    put_comment(out, ins->name, 60);
    if (ins->description) {
        fputs(" - ", out);
        put_comment(out, ins->description, 160);
    }
    fputs(" */\n", out);
    const char *rt = in->out >= 0 ? c_type(in->ops[in->out].cls) : "void";
    if (!in->has_imm) {
        fprintf(out, "static inline __attribute__((always_inline)) %s %s(", rt, in->fname);
        bool first = true;
        for (unsigned o = 0; o < in->nops; o++) {
            const c_operand *co = &in->ops[o];
            if ((int)o == in->out && !co->op->input) continue;
            fprintf(out, "%s%s %s", first ? "" : ", ", c_type(co->cls), co->var);
            first = false;
        }
        fprintf(out, "%s)\n{\n", first ? "void" : "");
        if (in->out >= 0 && !in->ops[in->out].op->input)
            fprintf(out, "    %s %s;\n", rt, in->ops[in->out].var);
        emit_asm(out, in, in->out >= 0 ? in->ops[in->out].var : "", "    ");
        fputc('\n', out);
        if (in->out >= 0) fprintf(out, "    return %s;\n", in->ops[in->out].var);
        fputs("}\n", out);
        return;
    }
    /* immediates must be compile-time constants ("i"): a macro, not a function */
    fprintf(out, "#define %s(", in->fname);
    bool first = true;
    for (unsigned o = 0; o < in->nops; o++) {
        const c_operand *co = &in->ops[o];
        if ((int)o == in->out && !co->op->input) continue;
        fprintf(out, "%s%s", first ? "" : ", ", co->var);
        first = false;
    }
    fputs(") \\\n    __extension__({ \\\n", out);
    if (in->out >= 0) {
        const c_operand *co = &in->ops[in->out];
        fprintf(out, "        %s __xr = %s; \\\n", rt, co->op->input ? co->var : "0");
    }
    emit_asm(out, in, "__xr", "        ");
    fprintf(out, " \\\n        %s; \\\n    })\n", in->out >= 0 ? "__xr" : "(void)0");
}

bool gen_guest_header(FILE *out, const gen_model *m)
{
    fputs("/* xphmg_insn.h — generated by xphmg-gen from the ISA XML; do not edit.\n"
          " * CSR numbers and field macros (the contents of xphmg_csr.h, same include\n"
          " * guard), CSR accessors and one intrinsic per XPHMG\n"
          " * instruction (GNU as .insn). Intrinsics with immediate operands are macros:\n"
          " * the immediates must be integer constant expressions. */\n"
          "#ifndef XPHMG_INSN_H\n#define XPHMG_INSN_H\n\n#include <stdint.h>\n",
          out);
    /* The CSR numbers and field macros are gen_csr.c's xphmg_csr.h, embedded with
     * its own include guard: one emitter, and a file including both headers (in
     * either order) sees every macro once. */
    fputs("\n", out);
    if (!gen_csr_macros(out, m)) return false;
    fputs("\n/* ---- CSR access by number (csr: an integer constant expression) ---- */\n"
          "#define xphmg_csr_read(csr) __extension__({ uint64_t __v; \\\n"
          "    __asm__ __volatile__(\"csrr %0, %1\" : \"=r\"(__v) : \"i\"(csr)); __v; })\n"
          "#define xphmg_csr_write(csr, val) \\\n"
          "    __asm__ __volatile__(\"csrw %0, %1\" : : \"i\"(csr), \"r\"((uint64_t)(val)))\n"
          "#define xphmg_csr_set(csr, bits) \\\n"
          "    __asm__ __volatile__(\"csrs %0, %1\" : : \"i\"(csr), \"r\"((uint64_t)(bits)))\n"
          "#define xphmg_csr_clear(csr, bits) \\\n"
          "    __asm__ __volatile__(\"csrc %0, %1\" : : \"i\"(csr), \"r\"((uint64_t)(bits)))\n",
          out);
    fputs("\n/* ---- XPHMG instructions ---- */\n", out);
    for (unsigned i = 0; i < m->ninsns; i++) {
        if (!m->insns[i].is_xphmg) continue;
        intrinsic in;
        if (plan_intrinsic(m, &m->insns[i], &in)) emit_intrinsic(out, &in);
        intrinsic_free(&in);
    }
    fputs("\n#endif\n", out);
    return !ferror(out);
}

/* A distinctive value that fits a field of `width` bits: near the top of the
 * range, so sign and width mistakes show. */
static uint64_t probe_raw(unsigned width)
{
    if (width < 3) return 1;
    if (width > 12) width = 12; /* `.insn` immediates are 12-bit */
    return (1ULL << width) - 3;
}

bool gen_guest_test(FILE *c_out, FILE *manifest, const gen_model *m)
{
    fputs("/* Generated by xphmg-gen --guest-test: calls every intrinsic of\n"
          " * xphmg_insn.h once; tests/gen checks the object against the manifest. */\n"
          "#include \"xphmg_insn.h\"\n",
          c_out);
    for (unsigned i = 0; i < m->ninsns; i++) {
        if (!m->insns[i].is_xphmg) continue;
        intrinsic in;
        if (!plan_intrinsic(m, &m->insns[i], &in)) {
            intrinsic_free(&in);
            continue;
        }
        const char *rt = in.out >= 0 ? c_type(in.ops[in.out].cls) : "void";
        char *low = gen_ident_lower(in.g->insn->name);
        fprintf(c_out, "\n%s t_%s(", rt, low);
        fprintf(manifest, "t_%s %s", low, in.g->insn->name);
        bool first = true;
        for (unsigned o = 0; o < in.nops; o++) {
            const c_operand *co = &in.ops[o];
            if (co->cls == 'i' || ((int)o == in.out && !co->op->input)) continue;
            fprintf(c_out, "%s%s p_%s", first ? "" : ", ", c_type(co->cls), co->name);
            first = false;
        }
        fprintf(c_out, "%s)\n{\n    %s%s(", first ? "void" : "", in.out >= 0 ? "return " : "",
                in.fname);
        first = true;
        for (unsigned o = 0; o < in.nops; o++) {
            const c_operand *co = &in.ops[o];
            if ((int)o == in.out && !co->op->input) continue;
            fputs(first ? "" : ", ", c_out);
            first = false;
            if (co->cls == 'i') {
                uint64_t raw = probe_raw(co->op->field->width);
                fprintf(c_out, "%llu", (unsigned long long)raw);
                fprintf(manifest, " %s=0x%llx", co->op->field->name, (unsigned long long)raw);
            } else
                fprintf(c_out, "p_%s", co->name);
        }
        fputs(");\n}\n", c_out);
        fputc('\n', manifest);
        free(low);
        intrinsic_free(&in);
    }
    return !ferror(c_out) && !ferror(manifest);
}
