/* xphmg-objdump — disassemble RISC-V ELF files through the XML-driven ISA library,
 * laid out like GNU objdump -d (binutils 2.40) so the two can be diffed.
 *
 *   xphmg-objdump -d [-x SPEC]... [-M no-aliases] FILE...
 *
 * The spec defaults to the compiled-in path(s) of spec/xphmg.xml, overridden by the
 * environment variable XPHMG_SPEC (a ':'-separated list). Several specs are tried in
 * order for each instruction. Exit: 0 ok, 1 bad ELF, 2 usage, 3 spec error.
 *
 * What is copied from GNU objdump's layout (facts of its output format):
 * the address column drops the leading zeros common to the section in groups of four
 * digits; the raw column is the instruction as one little-endian word, padded to the
 * width of 8 bytes; runs of 8 or more zero bytes print as "\t..."; mapping symbols
 * ($x / $d) mark code and data; data prints as .word/.short/.byte; undecodable code as
 * .4byte/.2byte, and so are the words the spec's reference disassembler does not
 * decode; reserved operand values print as it prints them. By default instructions print as their
 * aliases (li, mv, ret, csrr ..., the spec's ISA/Aliases, X-20), as GNU objdump does; -M no-aliases
 * prints every instruction under its own name. */
#include <elf.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tool_paths.h"
#include "xelf.h"
#include "xphmg/isa.h"

#ifndef XPHMG_DEFAULT_SPECS
#define XPHMG_DEFAULT_SPECS "spec/xphmg.xml"
#endif

#define MAX_SPECS 8

typedef struct {
    const char *name;
    uint64_t value;
    unsigned shndx;
    int rank; /* GNU objdump's preference among equal values: lower first */
    uint64_t size;
    bool object; /* STT_OBJECT: objdump -d dumps its bytes as hex, not code */
} dsym;

typedef struct {
    const isa_spec *specs[MAX_SPECS];
    unsigned nspecs;
    dsym *syms; /* label candidates, sorted by value then rank then name */
    unsigned nsyms;
    dsym *maps; /* mapping symbols $x / $d, sorted by value */
    unsigned nmaps;
    const xelf *elf;
    bool rvc;     /* e_flags has EF_RISCV_RVC: decode 16-bit instructions */
    unsigned bpc; /* objdump's bytes_per_chunk, left by the last unit printed */
    bool no_aliases;
} dctx;

static void usage(void)
{
    fputs("usage: xphmg-objdump -d [-x SPEC]... [-M no-aliases] FILE...\n", stderr);
}

/* ---- Symbols ------------------------------------------------------------ */

static bool is_mapping(const char *n)
{
    return n[0] == '$' && (n[1] == 'x' || n[1] == 'd') && (n[2] == '\0' || n[1] == 'x');
}

/* objdump's order among symbols of equal value (it labels an address with the
 * first): file-like names (x.o, x.a) last; functions, then objects, then others;
 * non-local before local; global before weak; larger size first; names starting
 * with '.' last; then by name. */
static int sym_rank(const xelf_symbol *s)
{
    size_t n = strlen(s->name);
    int r = 0;
    if (n > 2 && s->name[n - 2] == '.' && (s->name[n - 1] == 'o' || s->name[n - 1] == 'a')) r += 64;
    if (s->type != STT_FUNC) r += 32;
    if (s->type != STT_OBJECT && s->type != STT_FUNC) r += 16;
    if (s->bind == STB_LOCAL) r += 8;
    if (s->bind != STB_GLOBAL) r += 4;
    return r;
}

static int cmp_sym(const void *a, const void *b)
{
    const dsym *x = a, *y = b;
    if (x->value != y->value) return x->value < y->value ? -1 : 1;
    if (x->rank != y->rank) return x->rank - y->rank;
    if (x->size != y->size) return x->size > y->size ? -1 : 1;
    if ((x->name[0] == '.') != (y->name[0] == '.')) return x->name[0] == '.' ? 1 : -1;
    return strcmp(x->name, y->name);
}

static bool load_symbols(dctx *c, const xelf *e)
{
    unsigned n = xelf_symbol_count(e);
    c->syms = calloc(n ? n : 1, sizeof *c->syms);
    c->maps = calloc(n ? n : 1, sizeof *c->maps);
    if (!c->syms || !c->maps) return false;
    for (unsigned i = 0; i < n; i++) {
        const xelf_symbol *s = xelf_symbol_at(e, i);
        if (!s->name || !s->name[0] || s->shndx == 0 || s->shndx >= 0xff00) continue;
        /* GAS's fake labels for relaxation; objdump never shows them */
        if (!strcmp(s->name, ".L0 ")) continue;
        dsym d = {s->name, s->value, s->shndx, sym_rank(s), s->size, s->type == STT_OBJECT};
        if (is_mapping(s->name))
            c->maps[c->nmaps++] = d;
        else
            c->syms[c->nsyms++] = d;
    }
    qsort(c->syms, c->nsyms, sizeof *c->syms, cmp_sym);
    qsort(c->maps, c->nmaps, sizeof *c->maps, cmp_sym);
    return true;
}

/* Best symbol at or below addr (in section shndx when shndx != 0), or NULL. */
static const dsym *sym_at_or_below(const dctx *c, uint64_t addr, unsigned shndx)
{
    unsigned lo = 0, hi = c->nsyms; /* first index with value > addr */
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (c->syms[mid].value <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (unsigned i = lo; i-- > 0;) {
        if (shndx && c->syms[i].shndx != shndx) continue;
        /* the first (best ranked) of the symbols sharing this value */
        uint64_t v = c->syms[i].value;
        unsigned best = i;
        while (best > 0 && c->syms[best - 1].value == v)
            best--;
        for (unsigned k = best; k <= i; k++)
            if (!shndx || c->syms[k].shndx == shndx) return &c->syms[k];
    }
    return NULL;
}

/* Is addr inside a $d region of section shndx? (binary search: this runs for
 * every instruction) */
static bool in_data(const dctx *c, uint64_t addr, unsigned shndx)
{
    unsigned lo = 0, hi = c->nmaps;
    while (lo < hi) {
        unsigned mid = (lo + hi) / 2;
        if (c->maps[mid].value <= addr)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (unsigned i = lo; i-- > 0;)
        if (c->maps[i].shndx == shndx) return c->maps[i].name[1] == 'd';
    return false;
}

/* Next mapping symbol strictly after addr in section shndx, or `end`. */
static uint64_t next_map(const dctx *c, uint64_t addr, unsigned shndx, uint64_t end)
{
    for (unsigned i = 0; i < c->nmaps; i++)
        if (c->maps[i].shndx == shndx && c->maps[i].value > addr && c->maps[i].value < end)
            return c->maps[i].value;
    return end;
}

/* ---- Output ------------------------------------------------------------- */

/* A symbol name as objdump shows it: control characters as ^X (GAS's local
 * labels contain \002). */
static void print_name(const char *n)
{
    for (; *n; n++) {
        unsigned char ch = (unsigned char)*n;
        if (ch < 0x20 || ch == 0x7f) {
            putchar('^');
            putchar(ch == 0x7f ? '?' : ch + 0x40);
        } else
            putchar(ch);
    }
}

static void print_label(const dctx *c, uint64_t addr, unsigned shndx, const char *secname)
{
    const dsym *s = sym_at_or_below(c, addr, shndx);
    printf("\n%016" PRIx64 " <", addr);
    print_name(s ? s->name : secname);
    if (s && s->value != addr) printf("+0x%" PRIx64, addr - s->value);
    fputs(">:\n", stdout);
}

static void print_addr(uint64_t addr, unsigned skip)
{
    char buf[24];
    snprintf(buf, sizeof buf, "%016" PRIx64, addr);
    char *s = buf + skip;
    char *p = s;
    while (*p == '0' && p[1])
        *p++ = ' ';
    printf("%s:\t", s);
}

/* The raw column: the unit as one hex number, padded to the width of 8 bytes. */
static void print_raw(uint64_t v, unsigned bytes)
{
    static const char pad[] = "                ";
    printf("%0*" PRIx64 " %s\t", (int)(bytes * 2), v, pad + (bytes == 2 ? 1 : bytes == 1 ? 0 : 7));
}

static uint64_t le(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = (v << 8) | p[i];
    return v;
}

/* Splits the library's "mnemonic operands" text into objdump's two columns and
 * appends " <sym+off>" to a resolved branch target. */
static void print_insn(const dctx *c, const isa_spec *sp, const isa_decoded *d, unsigned shndx)
{
    char text[256];
    isa_format_reference(sp, d, !c->no_aliases, text, sizeof text);
    char *ops = text;
    while (*ops && *ops != ' ' && *ops != '\t')
        ops++;
    if (*ops) {
        *ops++ = '\0';
        while (*ops == ' ' || *ops == '\t')
            ops++;
    }
    fputs(text, stdout);
    if (*ops) printf("\t%s", ops);
    if (d->has_target) {
        /* the target's own section first (a call from .init into .text) */
        unsigned tsec = shndx;
        const xelf_section *cur = xelf_section_at(c->elf, shndx);
        bool inside = cur && cur->addr <= d->target && d->target - cur->addr < cur->size;
        for (unsigned i = 0; !inside && i < xelf_section_count(c->elf); i++) {
            const xelf_section *x = xelf_section_at(c->elf, i);
            if (x->addr <= d->target && d->target - x->addr < x->size && (x->flags & SHF_ALLOC)) {
                tsec = i;
                break;
            }
        }
        const dsym *s = sym_at_or_below(c, d->target, tsec);
        if (!s) s = sym_at_or_below(c, d->target, 0);
        if (s) {
            fputs(" <", stdout);
            print_name(s->name);
            if (s->value != d->target) printf("+0x%" PRIx64, d->target - s->value);
            putchar('>');
        }
    }
    putchar('\n');
}

/* One line of objdump's hex dump of a data object: up to 16 bytes in groups of
 * bpc bytes (little-endian), then the printable characters. */
static void print_hex_line(const dctx *c, const uint8_t *p, uint64_t n, uint64_t addr,
                           unsigned skip)
{
    unsigned bpc = c->bpc ? c->bpc : 1;
    print_addr(addr, skip);
    uint64_t j = 0;
    for (; j < n; j += bpc) {
        if (j + bpc <= n)
            for (unsigned k = bpc; k-- > 0;)
                printf("%02x", p[j + k]);
        putchar(' ');
    }
    for (; j < 16; j += bpc)
        printf("%*s ", (int)(2 * bpc), "");
    fputs("    ", stdout);
    for (j = 0; j < n; j++)
        putchar(p[j] >= 0x20 && p[j] < 0x7f ? p[j] : '.');
    putchar('\n');
}

/* One chunk: from a symbol (or the section start) to the next symbol. */
static void disassemble_chunk(dctx *c, const xelf_section *sec, unsigned shndx, uint64_t from,
                              uint64_t stop, bool object, unsigned skip)
{
    uint64_t base = sec->addr, size = sec->size;
    const uint8_t *data = sec->data;
    uint64_t off = from;
    while (off < stop) {
        uint64_t addr = base + off;
        /* zero runs print as "...": 8 bytes or more (skipped in multiples of 4
         * unless they run to the chunk's end), or 1-2 bytes ending the chunk */
        uint64_t z = off;
        while (z < stop && data[z] == 0)
            z++;
        if (z - off >= 8 || (z == stop && z > off && z - off < 3)) {
            if (z != stop) z = off + ((z - off) & ~(uint64_t)3);
            printf("\t...\n");
            off = z;
            continue;
        }
        if (object) {
            uint64_t n = stop - off < 16 ? stop - off : 16;
            print_hex_line(c, data + off, n, addr, skip);
            off += n;
            continue;
        }
        if (in_data(c, addr, shndx)) {
            uint64_t lim = next_map(c, addr, shndx, base + stop) - addr;
            unsigned n = lim >= 4 ? 4 : lim >= 2 ? 2 : 1;
            print_addr(addr, skip);
            uint64_t v = le(data + off, n);
            print_raw(v, n);
            printf("%s\t0x%0*" PRIx64 "\n",
                   n == 4   ? ".word"
                   : n == 2 ? ".short"
                            : ".byte",
                   (int)(n * 2), v);
            c->bpc = n;
            off += n;
            continue;
        }
        isa_decoded d;
        const isa_spec *hit = NULL;
        for (unsigned s = 0; s < c->nspecs && !hit; s++)
            if (isa_decode(c->specs[s], data + off, size - off, addr, &d) == ISA_OK)
                hit = c->specs[s];
        /* without EF_RISCV_RVC, 16-bit encodings are not instructions; words the
         * reference disassembler does not decode print as data, as it prints them */
        if (hit && ((d.length == 2 && !c->rvc) || isa_reference_prints_data(hit, &d))) hit = NULL;
        print_addr(addr, skip);
        if (hit && d.length > 0 && d.length <= size - off) {
            print_raw(d.word, d.length);
            print_insn(c, hit, &d, shndx);
            c->bpc = d.length % 4 == 0 ? 4 : 2;
            off += d.length;
            continue;
        }
        /* RISC-V's length rule for what the spec does not decode */
        unsigned n = (data[off] & 3) == 3 && size - off >= 4 ? 4 : size - off >= 2 ? 2 : 1;
        uint64_t v = le(data + off, n);
        print_raw(v, n);
        printf("%s\t0x%" PRIx64 "\n", n == 4 ? ".4byte" : n == 2 ? ".2byte" : ".byte", v);
        c->bpc = n == 4 ? 4 : 2;
        off += n;
    }
}

static void disassemble_section(dctx *c, const xelf_section *sec, unsigned shndx)
{
    uint64_t base = sec->addr, size = sec->size;
    printf("\nDisassembly of section %s:\n", sec->name);
    /* objdump drops leading zeros common to the section, in groups of 4 digits */
    char buf[24];
    snprintf(buf, sizeof buf, "%016" PRIx64, base + size);
    unsigned skip = 0;
    while (buf[skip] == '0')
        skip++;
    if (buf[skip] == '\0' && base != 0) skip = 0;
    if (skip) skip = (skip - 1) & ~3u;

    /* the symbols of this section above the start, in order */
    unsigned ni = 0;
    while (ni < c->nsyms && c->syms[ni].value <= base)
        ni++;
    uint64_t off = 0;
    while (off < size) {
        uint64_t addr = base + off;
        while (ni < c->nsyms && (c->syms[ni].shndx != shndx || c->syms[ni].value <= addr))
            ni++;
        uint64_t stop = size;
        if (ni < c->nsyms && c->syms[ni].value - base < size) stop = c->syms[ni].value - base;
        const dsym *s = sym_at_or_below(c, addr, shndx);
        print_label(c, addr, shndx, sec->name);
        disassemble_chunk(c, sec, shndx, off, stop, s && s->object, skip);
        off = stop;
    }
}

static int dump_file(const dctx *base, const char *path)
{
    char err[512];
    xelf *e = xelf_open(path, err, sizeof err);
    if (!e) {
        fprintf(stderr, "xphmg-objdump: %s\n", err);
        return 1;
    }
    dctx c = *base;
    c.elf = e;
    c.rvc = (xelf_flags(e) & EF_RISCV_RVC) != 0;
    c.bpc = 0;
    if (!load_symbols(&c, e)) {
        fprintf(stderr, "xphmg-objdump: %s: out of memory\n", path);
        xelf_close(e);
        return 1;
    }
    printf("\n%s:     file format elf64-littleriscv\n\n", path);
    for (unsigned i = 0; i < xelf_section_count(e); i++) {
        const xelf_section *s = xelf_section_at(e, i);
        if (!(s->flags & SHF_EXECINSTR) || s->type == SHT_NOBITS || !s->data || !s->size) continue;
        disassemble_section(&c, s, i);
    }
    free(c.syms);
    free(c.maps);
    xelf_close(e);
    return 0;
}

static bool add_spec(dctx *c, const char *path)
{
    char err[512];
    if (c->nspecs == MAX_SPECS) {
        fprintf(stderr, "xphmg-objdump: at most %d specs\n", MAX_SPECS);
        return false;
    }
    isa_spec *s = isa_load(path, err, sizeof err);
    if (!s) {
        fprintf(stderr, "xphmg-objdump: %s\n", err);
        return false;
    }
    c->specs[c->nspecs++] = s;
    return true;
}

/* A ':'-separated list. */
static bool add_spec_list(dctx *c, const char *list)
{
    char *copy = strdup(list);
    bool ok = copy != NULL;
    for (char *p = copy, *tok; ok && (tok = strsep(&p, ":"));)
        if (*tok) ok = add_spec(c, tok);
    free(copy);
    return ok;
}

int main(int argc, char **argv)
{
    dctx c;
    memset(&c, 0, sizeof c);
    bool disasm = false;
    const char *xs[MAX_SPECS];
    unsigned nx = 0;
    int first_file = argc;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-d"))
            disasm = true;
        else if (!strcmp(a, "-x") || !strcmp(a, "-M")) {
            if (i + 1 >= argc) {
                usage();
                return 2;
            }
            const char *v = argv[++i];
            if (a[1] == 'M' && strcmp(v, "no-aliases") != 0) {
                fprintf(stderr, "xphmg-objdump: unsupported -M %s (only no-aliases)\n", v);
                return 2;
            }
            if (a[1] == 'M') c.no_aliases = true;
            if (a[1] == 'x') {
                if (nx == MAX_SPECS) {
                    usage();
                    return 2;
                }
                xs[nx++] = v;
            }
        } else if (!strcmp(a, "-Mno-aliases")) {
            c.no_aliases = true;
        } else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage();
            return 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "xphmg-objdump: unknown option '%s'\n", a);
            usage();
            return 2;
        } else {
            first_file = i;
            break;
        }
    }
    if (!disasm || first_file >= argc) {
        usage();
        return 2;
    }
    bool ok = true;
    if (nx)
        for (unsigned i = 0; i < nx && ok; i++)
            ok = add_spec(&c, xs[i]);
    else if (getenv("XPHMG_SPEC") && *getenv("XPHMG_SPEC"))
        ok = add_spec_list(&c, getenv("XPHMG_SPEC"));
    else {
        char installed[4096];
        ok = add_spec_list(&c, tool_installed_path(TOOL_INSTALLED_SPEC, XPHMG_DEFAULT_SPECS,
                                                   installed, sizeof installed));
    }
    if (!ok) {
        for (unsigned i = 0; i < c.nspecs; i++)
            isa_free((isa_spec *)c.specs[i]);
        return 3;
    }
    static char obuf[1 << 16];
    setvbuf(stdout, obuf, _IOFBF, sizeof obuf);
    int rc = 0;
    for (int i = first_file; i < argc; i++) {
        if (argv[i][0] == '-') {
            fprintf(stderr, "xphmg-objdump: options must come before files ('%s')\n", argv[i]);
            rc = 2;
            break;
        }
        if (dump_file(&c, argv[i]) != 0) rc = 1;
    }
    fflush(stdout);
    for (unsigned i = 0; i < c.nspecs; i++)
        isa_free((isa_spec *)c.specs[i]);
    return rc;
}
