/* xphmg-isa — command-line front end of the ISA library (the counterpart of AMD's
 * isa_spec_cli): decode machine words, show instruction information, assemble a line.
 * Exit codes: 0 ok, 1 some input did not decode/assemble, 2 usage error, 3 spec load error.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_paths.h"
#include "xphmg/isa.h"

#ifndef XPHMG_DEFAULT_SPEC
#define XPHMG_DEFAULT_SPEC "spec/xphmg.xml"
#endif

enum { EXIT_DECODE = 1, EXIT_USAGE = 2, EXIT_SPEC = 3 };

/* The specs given with -x (or $XPHMG_SPEC), tried in order: an instruction is decoded
 * or assembled by the first spec that knows it. */
#define MAX_SPECS 8
typedef struct {
    unsigned n;
    isa_spec *s[MAX_SPECS];
} specset;

static void usage(FILE *f)
{
    fprintf(f, "usage: xphmg-isa [-x SPEC] [-A ADDR] VERB\n"
               "  -x SPEC       ISA spec in AMD's XML schema (default: $XPHMG_SPEC or\n"
               "                the installed share/xphmg/xphmg.xml, else\n"
               "                " XPHMG_DEFAULT_SPEC ")\n"
               "  -A ADDR       address of the first instruction (hex; default 0), used for\n"
               "                branch targets\n"
               "verbs:\n"
               "  -d HEX...     decode machine words (little-endian value, e.g. 00a50533 or\n"
               "                1141; the number of digits gives the available bits)\n"
               "  -i NAME       instruction information (description, encodings, operands, flags)\n"
               "  -s FILE       decode each line of FILE: a hex word, or a line of assembly\n"
               "                that is assembled and then decoded ('#' starts a comment)\n"
               "  -a \"TEXT\"     assemble one line and print the instruction word in hex\n"
               "  --help        this text\n"
               "exit status: 0 ok, 1 some input did not decode or assemble, 2 usage error,\n"
               "             3 the spec could not be loaded\n");
}

/* Bits of a field as "[hi:lo,...]" from most to least significant, padding as "(n'v)". */
static void print_field_bits(const isa_field *f)
{
    putchar('[');
    for (unsigned i = f->range_count; i-- > 0;) {
        const isa_range *r = &f->ranges[i];
        unsigned lo = r->bit_offset, hi = r->bit_offset + r->bit_count - 1;
        if (hi == lo)
            printf("%u", lo);
        else
            printf("%u:%u", hi, lo);
        if (r->pad_count) printf(",(%u'%" PRIu64 ")", r->pad_count, r->pad_value);
        if (i) putchar(',');
    }
    putchar(']');
}

static const char *dir_str(const isa_operand *o)
{
    if (o->input && o->output) return "in/out";
    if (o->output) return "out";
    if (o->input) return "in";
    return "-";
}

static void print_decoded(const isa_spec *spec, const isa_decoded *d)
{
    char text[256];
    isa_format(spec, d, text, sizeof text);
    const isa_encoding *e = d->ienc->encoding;
    printf("%08" PRIx64 ": %0*" PRIx64 "  %s\n", d->address, (int)(e->bit_count / 4), d->word,
           text);
    printf("    encoding  %s (%u bits, Order %u), opcode %" PRIu64 ", condition %s\n", e->name,
           e->bit_count, e->order, d->ienc->opcode, d->ienc->condition);
    printf("    fields   ");
    for (unsigned i = 0; i < e->field_count; i++) {
        printf(" %s=%" PRIu64 " ", e->fields[i].name, isa_field_extract(&e->fields[i], d->word));
        print_field_bits(&e->fields[i]);
    }
    putchar('\n');
    for (unsigned i = 0; i < d->operand_count; i++) {
        const isa_operand_value *v = &d->operands[i];
        const isa_operand *o = v->operand;
        printf("    operand %u %s = ", o->order, o->field ? o->field->name : o->type->name);
        if (v->name)
            printf("%s (%" PRIu64 ")", v->name, v->raw);
        else
            printf("%" PRId64, v->value);
        printf(", %s, %u bits, %s/%s%s%s\n", dir_str(o), o->size, o->type->name, o->format->name,
               o->implicit ? ", implicit" : "", o->field ? "" : ", not encoded");
    }
    if (d->insn->group)
        printf("    group     %s%s%s\n", d->insn->group, d->insn->subgroup ? " / " : "",
               d->insn->subgroup ? d->insn->subgroup : "");
    if (d->insn->is_branch || d->insn->is_program_terminator) {
        printf("    branch   ");
        if (d->insn->is_branch)
            printf(" %s%s", d->insn->is_conditional_branch ? "conditional" : "unconditional",
                   d->insn->is_indirect_branch ? ", indirect" : "");
        if (d->has_target) printf(", target 0x%" PRIx64, d->target);
        if (d->insn->is_program_terminator) printf(" program terminator");
        putchar('\n');
    }
}

/* Hex word text -> value and available bits; false if not hex. */
static bool parse_hex_word(const char *s, uint64_t *v, unsigned *bits)
{
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s += 2;
    size_t n = strlen(s);
    if (n == 0 || n > 16) return false;
    uint64_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        if (!isxdigit((unsigned char)s[i])) return false;
        int c = tolower((unsigned char)s[i]);
        acc = acc << 4 | (uint64_t)(c <= '9' ? c - '0' : c - 'a' + 10);
    }
    *v = acc;
    *bits = (unsigned)((n * 4 + 7) / 8 * 8);
    return true;
}

static int decode_one(const specset *ss, const char *hex, uint64_t *addr)
{
    uint64_t w;
    unsigned bits;
    if (!parse_hex_word(hex, &w, &bits)) {
        fprintf(stderr, "xphmg-isa: \"%s\" is not a hex word\n", hex);
        return EXIT_DECODE;
    }
    isa_decoded d;
    isa_status first = ISA_ERR_UNKNOWN;
    for (unsigned k = 0; k < ss->n; k++) {
        isa_status st = isa_decode_word(ss->s[k], w, bits, *addr, &d);
        if (st == ISA_OK) {
            print_decoded(ss->s[k], &d);
            *addr += d.length;
            return 0;
        }
        if (st == ISA_ERR_TRUNCATED) first = st;
    }
    printf("%08" PRIx64 ": %s  <%s>\n", *addr, hex, isa_status_str(first));
    *addr += bits / 8;
    return EXIT_DECODE;
}

static int assemble_one(const specset *ss, const char *text, uint64_t *addr, bool detail)
{
    isa_decoded d;
    char err[256], first_err[256] = "";
    isa_status first = ISA_ERR_UNKNOWN;
    for (unsigned k = 0; k < ss->n; k++) {
        isa_status st = isa_assemble(ss->s[k], text, *addr, &d, err, sizeof err);
        if (st == ISA_OK) {
            if (detail)
                print_decoded(ss->s[k], &d);
            else
                printf("%0*" PRIx64 "\n", (int)(d.ienc->encoding->bit_count / 4), d.word);
            *addr += d.length;
            return 0;
        }
        /* report the spec that knows the mnemonic, else the first */
        if (!first_err[0] || (first == ISA_ERR_UNKNOWN && st != ISA_ERR_UNKNOWN)) {
            first = st;
            snprintf(first_err, sizeof first_err, "%s", err);
        }
    }
    fprintf(stderr, "xphmg-isa: %s: %s\n", isa_status_str(first), first_err);
    return EXIT_DECODE;
}

static bool known_mnemonic(const specset *ss, const char *name)
{
    for (unsigned k = 0; k < ss->n; k++)
        if (isa_find_instruction(ss->s[k], name)) return true;
    return false;
}

static int do_file(const specset *ss, const char *path, uint64_t addr)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        perror(path);
        return EXIT_USAGE;
    }
    char line[1024];
    int rc = 0;
    while (fgets(line, sizeof line, f)) {
        char *p = line;
        while (isspace((unsigned char)*p))
            p++;
        char *h = strchr(p, '#');
        if (h) *h = 0;
        size_t n = strlen(p);
        while (n && isspace((unsigned char)p[n - 1]))
            p[--n] = 0;
        if (!n) continue;
        uint64_t w;
        unsigned bits;
        /* a bare hex word, unless it is also a mnemonic (e.g. "add" in some ISA) */
        if (parse_hex_word(p, &w, &bits) && !known_mnemonic(ss, p)) {
            if (decode_one(ss, p, &addr)) rc = EXIT_DECODE;
        } else if (assemble_one(ss, p, &addr, true)) {
            rc = EXIT_DECODE;
        }
    }
    fclose(f);
    return rc;
}

static void print_info(const isa_spec *spec, const isa_instruction *I)
{
    printf("%s — %s  [%s]\n", I->name, I->description, isa_arch_name(spec));
    printf("  flags: branch=%s conditional=%s indirect=%s terminator=%s immediate=%s\n",
           I->is_branch ? "yes" : "no", I->is_conditional_branch ? "yes" : "no",
           I->is_indirect_branch ? "yes" : "no", I->is_program_terminator ? "yes" : "no",
           I->is_immediately_executed ? "yes" : "no");
    if (I->group)
        printf("  group: %s%s%s\n", I->group, I->subgroup ? " / " : "",
               I->subgroup ? I->subgroup : "");
    for (unsigned k = 0; k < I->encoding_count; k++) {
        const isa_insn_encoding *ie = &I->encodings[k];
        const isa_encoding *e = ie->encoding;
        printf("  encoding %s (%u bits), opcode %" PRIu64 ", condition %s\n", e->name, e->bit_count,
               ie->opcode, ie->condition);
        printf("    mask 0x%0*" PRIx64 " identifier 0x%0*" PRIx64 "\n", (int)(e->bit_count / 4),
               e->mask, (int)(e->bit_count / 4), e->identifiers[0]);
        printf("    syntax: %s", I->name);
        if (ie->asm_format) {
            printf("%s%s\n", *ie->asm_format ? " " : "", ie->asm_format);
        } else {
            bool first = true;
            for (unsigned i = 0; i < ie->operand_count; i++) {
                const isa_operand *o = &ie->operands[i];
                if (o->implicit) continue;
                printf("%s{%s}", first ? " " : ",", o->field ? o->field->name : o->type->name);
                first = false;
            }
            putchar('\n');
        }
        for (unsigned i = 0; i < ie->operand_count; i++) {
            const isa_operand *o = &ie->operands[i];
            printf("    operand %u %s: %s, %s/%s, %u bits%s", o->order,
                   o->field ? o->field->name : o->type->name, dir_str(o), o->type->name,
                   o->format->name, o->size,
                   o->implicit ? ", implicit"
                   : o->field  ? ""
                               : ", not encoded");
            if (o->field) {
                printf(", bits ");
                print_field_bits(o->field);
            }
            if (o->has_default) printf(", default %" PRIu64, o->default_value);
            putchar('\n');
        }
        for (unsigned i = 0; i < ie->constraint_count; i++)
            printf("    constraint %s != %" PRIu64 "\n", ie->constraints[i].field,
                   ie->constraints[i].not_value);
    }
}

static void free_specs(specset *ss)
{
    for (unsigned k = 0; k < ss->n; k++)
        isa_free(ss->s[k]);
    ss->n = 0;
}

/* Loads one spec into ss; prints the loader's message on failure. */
static bool add_spec(specset *ss, const char *path)
{
    if (ss->n == MAX_SPECS) {
        fprintf(stderr, "xphmg-isa: at most %d specs\n", MAX_SPECS);
        return false;
    }
    char err[512];
    isa_status st = isa_open(path, &ss->s[ss->n], err, sizeof err);
    if (st != ISA_OK) {
        fprintf(stderr, "xphmg-isa: %s\n", err[0] ? err : isa_status_str(st));
        return false;
    }
    ss->n++;
    return true;
}

int main(int argc, char **argv)
{
    const char *paths[MAX_SPECS + 1];
    unsigned npaths = 0;
    uint64_t addr = 0;
    char verb = 0;
    int first_arg = 0, nargs = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(stdout);
            return 0;
        } else if (!strcmp(a, "-x") && i + 1 < argc) {
            if (npaths == MAX_SPECS) {
                fprintf(stderr, "xphmg-isa: at most %d specs\n", MAX_SPECS);
                return EXIT_USAGE;
            }
            paths[npaths++] = argv[++i];
        } else if (!strcmp(a, "-A") && i + 1 < argc) {
            unsigned bits;
            if (!parse_hex_word(argv[++i], &addr, &bits)) {
                fprintf(stderr, "xphmg-isa: bad address \"%s\"\n", argv[i]);
                return EXIT_USAGE;
            }
        } else if ((!strcmp(a, "-d") || !strcmp(a, "-i") || !strcmp(a, "-s") || !strcmp(a, "-a")) &&
                   !verb) {
            verb = a[1];
            first_arg = i + 1;
            if (verb == 'd') {
                while (i + 1 < argc && argv[i + 1][0] != '-')
                    i++, nargs++;
            } else if (i + 1 < argc) {
                i++, nargs = 1;
            }
        } else {
            fprintf(stderr, "xphmg-isa: unexpected argument \"%s\"\n", a);
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (!verb || nargs == 0) {
        usage(stderr);
        return EXIT_USAGE;
    }
    specset ss = {0};
    if (npaths) {
        for (unsigned k = 0; k < npaths; k++)
            if (!add_spec(&ss, paths[k])) {
                free_specs(&ss);
                return EXIT_SPEC;
            }
    } else {
        const char *env = getenv("XPHMG_SPEC");
        char list[4096], installed[4096];
        snprintf(list, sizeof list, "%s",
                 env && *env ? env
                             : tool_installed_path(TOOL_INSTALLED_SPEC, XPHMG_DEFAULT_SPEC,
                                                   installed, sizeof installed));
        for (char *p = strtok(list, ":"); p; p = strtok(NULL, ":"))
            if (!add_spec(&ss, p)) {
                free_specs(&ss);
                return EXIT_SPEC;
            }
        if (!ss.n) {
            fprintf(stderr, "xphmg-isa: no spec\n");
            return EXIT_SPEC;
        }
    }
    int rc = 0;
    switch (verb) {
    case 'd':
        for (int k = 0; k < nargs; k++)
            if (decode_one(&ss, argv[first_arg + k], &addr)) rc = EXIT_DECODE;
        break;
    case 'i': {
        bool found = false;
        for (unsigned k = 0; k < ss.n; k++) /* every instruction of that name, every spec */
            for (unsigned j = 0; j < isa_instruction_count(ss.s[k]); j++)
                if (!strcmp(isa_instruction_at(ss.s[k], j)->name, argv[first_arg])) {
                    print_info(ss.s[k], isa_instruction_at(ss.s[k], j));
                    found = true;
                }
        if (!found) {
            fprintf(stderr, "xphmg-isa: no instruction \"%s\"\n", argv[first_arg]);
            rc = EXIT_DECODE;
        }
        break;
    }
    case 's':
        rc = do_file(&ss, argv[first_arg], addr);
        break;
    case 'a':
        rc = assemble_one(&ss, argv[first_arg], &addr, false);
        break;
    }
    free_specs(&ss);
    return rc;
}
