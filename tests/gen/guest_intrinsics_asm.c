/* guest_intrinsics_asm — the generated guest header's intrinsics assemble to the
 * instructions they name.
 *
 * xphmg-gen writes a guest C file calling every intrinsic once (function t_<name>)
 * and a manifest of the immediates it passed; riscv64-unknown-elf-gcc compiles it
 * (-march=rv64gc -mabi=lp64d -c, at -O0 and -O2); then, for every function:
 *   - the ISA library decodes its code and finds the named XPHMG instruction with
 *     the manifest's immediate field values;
 *   - the library's assembler, given that instruction's text, produces the same
 *     word (the .insn bits agree with isa_assemble);
 *   - xphmg-objdump -d shows the mnemonic inside the function's label.
 * Every XPHMG instruction of the spec (custom-0..3 major opcode or XPHMG_ group)
 * must have an intrinsic. Skipped (exit 77) only when riscv64-unknown-elf-gcc is
 * absent. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "xelf.h"
#include "xphmg/isa.h"

#if !defined(GEN_EXE) || !defined(OBJDUMP_EXE) || !defined(GUEST_GCC) || !defined(WORK_DIR) ||     \
    !defined(GEN_SPECS)
#error "GEN_EXE, OBJDUMP_EXE, GUEST_GCC, WORK_DIR, GEN_SPECS must be defined"
#endif

#define MAXS 8
static isa_spec *specs[MAXS];
static unsigned nspecs;
static char spec_args[4096]; /* " -x a -x b" */

static int run(const char *cmd)
{
    int rc = system(cmd);
    if (rc != 0) fprintf(stderr, "command failed (%d): %s\n", rc, cmd);
    return rc;
}

static int setup(void **state)
{
    (void)state;
    char *list = strdup(GEN_SPECS), *p = list, *tok;
    while ((tok = strsep(&p, ":")) && nspecs < MAXS) {
        if (!*tok) continue;
        char err[512];
        if (!(specs[nspecs] = isa_load(tok, err, sizeof err))) {
            fprintf(stderr, "%s\n", err);
            free(list);
            return -1;
        }
        size_t n = strlen(spec_args);
        snprintf(spec_args + n, sizeof spec_args - n, " -x '%s'", tok);
        nspecs++;
    }
    free(list);
    char cmd[8192];
    snprintf(cmd, sizeof cmd,
             "mkdir -p '%s' && '%s'%s --header '%s/xphmg_insn.h' --guest-test '%s/guest.c' "
             "--manifest '%s/manifest.txt'",
             WORK_DIR, GEN_EXE, spec_args, WORK_DIR, WORK_DIR, WORK_DIR);
    return run(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (unsigned i = 0; i < nspecs; i++)
        isa_free(specs[i]);
    return 0;
}

static const isa_instruction *decode(const uint8_t *b, size_t n, uint64_t addr, isa_decoded *d,
                                     const isa_spec **hit)
{
    for (unsigned i = 0; i < nspecs; i++)
        if (isa_decode(specs[i], b, n, addr, d) == ISA_OK) {
            *hit = specs[i];
            return d->insn;
        }
    return NULL;
}

static bool custom_opcode(uint64_t op)
{
    return op == 0x0B || op == 0x2B || op == 0x5B || op == 0x7B;
}

/* The XPHMG instructions, by the task's definition, independently of xphmg-gen. */
static unsigned count_xphmg(char names[][64], unsigned max)
{
    unsigned n = 0;
    for (unsigned s = 0; s < nspecs; s++)
        for (unsigned i = 0; i < isa_instruction_count(specs[s]); i++) {
            const isa_instruction *in = isa_instruction_at(specs[s], i);
            bool x = in->group && !strncmp(in->group, "XPHMG_", 6);
            for (unsigned k = 0; k < in->encoding_count; k++)
                if (in->encodings[k].encoding->op_field >= 0 &&
                    custom_opcode(in->encodings[k].opcode))
                    x = true;
            if (!x) continue;
            bool dup = false;
            for (unsigned j = 0; j < n; j++)
                dup |= !strcmp(names[j], in->name);
            if (!dup && n < max) snprintf(names[n++], 64, "%s", in->name);
        }
    return n;
}

typedef struct {
    char func[96], mnem[64];
    unsigned nimm;
    char field[4][32];
    uint64_t raw[4];
} mline;

static unsigned read_manifest(mline *m, unsigned max)
{
    char path[512], line[512];
    snprintf(path, sizeof path, "%s/manifest.txt", WORK_DIR);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    unsigned n = 0;
    while (n < max && fgets(line, sizeof line, f)) {
        mline *l = &m[n];
        memset(l, 0, sizeof *l);
        char *save = NULL, *tok = strtok_r(line, " \n", &save);
        if (!tok) continue;
        snprintf(l->func, sizeof l->func, "%s", tok);
        tok = strtok_r(NULL, " \n", &save);
        assert_non_null(tok);
        snprintf(l->mnem, sizeof l->mnem, "%s", tok);
        while ((tok = strtok_r(NULL, " \n", &save)) && l->nimm < 4) {
            char *eq = strchr(tok, '=');
            assert_non_null(eq);
            *eq = '\0';
            snprintf(l->field[l->nimm], sizeof l->field[0], "%s", tok);
            l->raw[l->nimm++] = strtoull(eq + 1, NULL, 0);
        }
        n++;
    }
    fclose(f);
    return n;
}

/* One compiled object: decode each t_ function, then the objdump listing. */
static void check_object(const char *opt)
{
    char obj[512], cmd[16384], dump[512];
    snprintf(obj, sizeof obj, "%s/guest%s.o", WORK_DIR, opt);
    snprintf(cmd, sizeof cmd,
             "'%s' -march=rv64gc -mabi=lp64d --specs=picolibc.specs %s -Wall -Wextra -Werror -c -I "
             "'%s' '%s/guest.c' "
             "-o '%s'",
             GUEST_GCC, opt, WORK_DIR, WORK_DIR, obj);
    assert_int_equal(run(cmd), 0);

    static mline m[512];
    unsigned nm = read_manifest(m, 512);
    static char want[512][64];
    unsigned nx = count_xphmg(want, 512);
    printf("%s: %u XPHMG instructions in the spec, %u intrinsics\n", opt, nx, nm);
    assert_true(nx > 0);
    for (unsigned i = 0; i < nx; i++) {
        bool found = false;
        for (unsigned k = 0; k < nm; k++)
            found |= !strcmp(m[k].mnem, want[i]);
        if (!found) fail_msg("no intrinsic for XPHMG instruction %s", want[i]);
    }

    char err[512];
    xelf *e = xelf_open(obj, err, sizeof err);
    if (!e) fail_msg("%s", err);
    for (unsigned k = 0; k < nm; k++) {
        const xelf_symbol *s = xelf_find_symbol(e, m[k].func);
        if (!s) fail_msg("%s: no symbol %s", obj, m[k].func);
        const xelf_section *sec = xelf_section_at(e, s->shndx);
        assert_non_null(sec);
        assert_non_null(sec->data);
        uint64_t size = s->size ? s->size : sec->size - s->value;
        assert_true(s->value + size <= sec->size);
        bool hit = false;
        for (uint64_t off = 0; off < size;) {
            isa_decoded d;
            const isa_spec *sp = NULL;
            const uint8_t *b = sec->data + s->value + off;
            if (!decode(b, size - off, s->value + off, &d, &sp)) {
                off += (b[0] & 3) == 3 ? 4 : 2;
                continue;
            }
            off += d.length;
            if (strcmp(d.insn->name, m[k].mnem) != 0) continue;
            hit = true;
            /* the immediates the generated call passed */
            for (unsigned j = 0; j < m[k].nimm; j++) {
                bool seen = false;
                for (unsigned o = 0; o < d.operand_count; o++) {
                    const isa_field *f = d.operands[o].operand->field;
                    if (!f || strcmp(f->name, m[k].field[j]) != 0) continue;
                    seen = true;
                    if (d.operands[o].raw != m[k].raw[j])
                        fail_msg("%s %s: field %s = 0x%llx, passed 0x%llx", opt, m[k].mnem, f->name,
                                 (unsigned long long)d.operands[o].raw,
                                 (unsigned long long)m[k].raw[j]);
                }
                if (!seen) fail_msg("%s: no operand field %s", m[k].mnem, m[k].field[j]);
            }
            /* the .insn bits are what the library's assembler makes of the text */
            char text[256];
            isa_format(sp, &d, text, sizeof text);
            isa_decoded a;
            if (isa_assemble(sp, text, d.address, &a, err, sizeof err) != ISA_OK)
                fail_msg("isa_assemble(\"%s\"): %s", text, err);
            if (a.word != d.word)
                fail_msg("%s: .insn gave 0x%llx, isa_assemble(\"%s\") 0x%llx", m[k].mnem,
                         (unsigned long long)d.word, text, (unsigned long long)a.word);
        }
        if (!hit) fail_msg("%s %s: no %s instruction in the function", opt, m[k].func, m[k].mnem);
    }
    xelf_close(e);

    /* xphmg-objdump shows each mnemonic under the function's label */
    snprintf(dump, sizeof dump, "%s/guest%s.dis", WORK_DIR, opt);
    snprintf(cmd, sizeof cmd, "'%s'%s -d '%s' > '%s'", OBJDUMP_EXE, spec_args, obj, dump);
    assert_int_equal(run(cmd), 0);
    FILE *f = fopen(dump, "r");
    assert_non_null(f);
    static char label[512][96];
    static bool shown[512];
    memset(shown, 0, sizeof shown);
    char line[1024], cur[96] = "";
    while (fgets(line, sizeof line, f)) {
        char *lt = strchr(line, '<');
        if (line[0] != ' ' && lt && strstr(line, ">:")) {
            snprintf(cur, sizeof cur, "%.*s", (int)(strstr(line, ">:") - lt - 1), lt + 1);
            continue;
        }
        /* "   addr:\traw   \tmnemonic\toperands" */
        char *t1 = strchr(line, '\t'), *t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
        if (!t2) continue;
        char mn[64];
        snprintf(mn, sizeof mn, "%.*s", (int)strcspn(t2 + 1, "\t\n"), t2 + 1);
        for (unsigned k = 0; k < nm; k++)
            if (!strcmp(cur, m[k].func) && !strcmp(mn, m[k].mnem)) shown[k] = true;
    }
    fclose(f);
    (void)label;
    for (unsigned k = 0; k < nm; k++)
        if (!shown[k])
            fail_msg("xphmg-objdump: %s not shown in <%s> (%s)", m[k].mnem, m[k].func, dump);
}

static void test_o0(void **state)
{
    (void)state;
    check_object("-O0");
}

static void test_o2(void **state)
{
    (void)state;
    check_object("-O2");
}

int main(void)
{
    if (access(GUEST_GCC, X_OK) != 0) {
        printf("SKIP: riscv64-unknown-elf-gcc not found (%s); run scripts/setup-deps.sh\n",
               GUEST_GCC);
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_o0),
        cmocka_unit_test(test_o2),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
