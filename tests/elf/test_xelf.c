/* test_xelf.c — the ELF reader on a hand-built executable (elfgen.h), on a real
 * riscv64-unknown-elf-gcc executable (sample.S: values derived from target/link.ld), and
 * on malformed variants of both: every one must give a clear message, never a crash
 * (this test also runs in the ASan/UBSan build). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "elfgen.h"
#include "xelf.h"

static char err[256];

static xelf *open_buf(const uint8_t *b, size_t len)
{
    err[0] = '\0';
    return xelf_open_memory(b, len, "t.elf", err, sizeof err);
}

/* The variant must be refused with a message containing `want`. */
static void expect_refused(const uint8_t *b, size_t len, const char *want)
{
    xelf *e = open_buf(b, len);
    if (e) {
        xelf_close(e);
        fail_msg("accepted a bad file (expected \"%s\")", want);
    }
    if (!strstr(err, want)) fail_msg("message \"%s\" lacks \"%s\"", err, want);
    assert_non_null(strstr(err, "t.elf: ")); /* names the file */
}

static void expect_patches_refused(const eg_patch *p, size_t n)
{
    uint8_t b[EG_LEN];
    for (size_t k = 0; k < n; k++) {
        eg_build_patched(b, &p[k]);
        expect_refused(b, EG_LEN, p[k].why);
    }
}

static void test_synthetic_ok(void **state)
{
    (void)state;
    uint8_t b[EG_LEN];
    size_t n = eg_build(b);
    xelf *e = open_buf(b, n);
    if (!e) fail_msg("%s", err);
    assert_int_equal(xelf_entry(e), EG_TEXT_ADDR);
    assert_int_equal(xelf_type(e), ET_EXEC);
    assert_int_equal(xelf_flags(e), 5);

    assert_int_equal(xelf_section_count(e), 7);
    const xelf_section *t = xelf_section_at(e, 1);
    assert_string_equal(t->name, ".text");
    assert_int_equal(t->addr, EG_TEXT_ADDR);
    assert_int_equal(t->size, 16);
    assert_int_equal(t->type, SHT_PROGBITS);
    assert_memory_equal(t->data, eg_text, 16);
    const xelf_section *bss = xelf_section_at(e, 3);
    assert_string_equal(bss->name, ".bss");
    assert_null(bss->data);
    assert_string_equal(xelf_section_at(e, 6)->name, ".shstrtab");
    assert_null(xelf_section_at(e, 7));

    assert_int_equal(xelf_segment_count(e), 2);
    const xelf_segment *d = xelf_segment_at(e, 1);
    assert_int_equal(d->type, PT_LOAD);
    assert_int_equal(d->flags, PF_R | PF_W);
    assert_int_equal(d->vaddr, EG_DATA_ADDR);
    assert_int_equal(d->filesz, 8);
    assert_int_equal(d->memsz, 0x108);
    assert_memory_equal(d->data, eg_data, 8);
    assert_null(xelf_segment_at(e, 2));

    /* Sorted by value then name; the section symbol is left out. */
    static const char *names[] = {"_start", "loop", "alpha", "beta", "tohost"};
    static const uint64_t values[] = {EG_TEXT_ADDR, EG_TEXT_ADDR + 8, EG_DATA_ADDR, EG_DATA_ADDR,
                                      EG_DATA_ADDR + 8};
    assert_int_equal(xelf_symbol_count(e), 5);
    for (unsigned i = 0; i < 5; i++) {
        const xelf_symbol *s = xelf_symbol_at(e, i);
        assert_string_equal(s->name, names[i]);
        assert_int_equal(s->value, values[i]);
    }
    const xelf_symbol *th = xelf_find_symbol(e, "tohost");
    assert_non_null(th);
    assert_int_equal(th->value, EG_DATA_ADDR + 8);
    assert_int_equal(th->size, 8);
    assert_int_equal(th->type, STT_OBJECT);
    assert_int_equal(th->bind, STB_GLOBAL);
    assert_int_equal(th->shndx, 3);
    assert_int_equal(xelf_find_symbol(e, "loop")->bind, STB_LOCAL);
    assert_null(xelf_find_symbol(e, "fromhost"));
    xelf_close(e);
}

static void test_not_elf(void **state)
{
    (void)state;
    static const uint8_t txt[] = "hello, world: not an ELF file at all........................"
                                 ".........";
    expect_refused(txt, sizeof txt, "not an ELF file");
    expect_refused(txt, 0, "not an ELF file");
    expect_refused((const uint8_t *)"\177EL", 3, "not an ELF file");
}

static void test_wrong_class_data_machine(void **state)
{
    (void)state;
    uint8_t b[EG_LEN];
    eg_build(b);
    b[EI_CLASS] = ELFCLASS32;
    expect_refused(b, EG_LEN, "not ELF64");
    eg_build(b);
    b[EI_DATA] = ELFDATA2MSB;
    expect_refused(b, EG_LEN, "not little-endian");
    eg_build(b);
    eg_put16(b, offsetof(Elf64_Ehdr, e_machine), 62); /* EM_X86_64 */
    expect_refused(b, EG_LEN, "not a RISC-V file");
    eg_build(b);
    b[EI_VERSION] = 7;
    expect_refused(b, EG_LEN, "unknown ELF version");
}

static void test_truncated(void **state)
{
    (void)state;
    uint8_t b[EG_LEN];
    eg_build(b);
    /* The section header table is last, so every proper prefix is refused. */
    for (size_t n = 0; n < EG_LEN; n++) {
        xelf *e = open_buf(b, n);
        if (e) fail_msg("prefix of %zu bytes accepted", n);
        assert_true(err[0] != '\0');
    }
    expect_refused(b, 40, "truncated ELF header");
    expect_refused(b, 63, "truncated ELF header");
    expect_refused(b, 100, "program header table outside the file");
    expect_refused(b, EG_SHOFF + 10, "section header table outside the file");
}

static void test_bad_tables(void **state)
{
    (void)state;
    static const eg_patch bad[] = {
        {EG_EHDR(e_phoff), 0x100000, "program header table outside the file"},
        {EG_EHDR(e_phoff), 0xffffffffffffffc0ULL, "program header table outside the file"},
        {EG_EHDR(e_shoff), EG_LEN - 10, "section header table outside the file"},
        {EG_EHDR(e_shnum), 0xff00, "section header table outside the file"},
        {EG_EHDR(e_shstrndx), 99, "section name table index 99 out of range"},
        {EG_EHDR(e_phentsize), 32, "bad e_phentsize"},
        {EG_EHDR(e_shentsize), 40, "bad e_shentsize"},
    };
    expect_patches_refused(bad, sizeof bad / sizeof *bad);
}

static void test_bad_sections_and_strings(void **state)
{
    (void)state;
    static const eg_patch bad[] = {
        {EG_SHDR(1, sh_offset), 0x10000, "outside the file"}, /* .text past the end */
        {EG_SHDR(2, sh_size), ~0ULL, "outside the file"},     /* .data's size wrapping */
        /* section name index outside .shstrtab */
        {EG_SHDR(2, sh_name), 5000, "name index 5000 out of range"},
        /* the name table not NUL-terminated: shrink it to cut ".shstrtab" */
        {EG_SHDR(6, sh_size), 40, "name index 34 out of range"},
        /* symbol name outside .strtab */
        {EG_SYM(3, st_name), 31, "symbol 3: name index 31 out of range"},
        /* symtab linked to a non-string table, or to none */
        {EG_SHDR(4, sh_link), 1, "string table index 1 invalid"},
        {EG_SHDR(4, sh_link), 77, "string table index 77 invalid"},
        {EG_SHDR(4, sh_entsize), 16, "bad entry size"}, /* symtab entry size */
        /* segment bytes outside the file */
        {EG_PHDR(0, p_filesz), EG_LEN, "segment 0 outside the file"},
    };
    expect_patches_refused(bad, sizeof bad / sizeof *bad);
}

static void test_open_file_errors(void **state)
{
    (void)state;
    xelf *e = xelf_open("/nonexistent/dir/x.elf", err, sizeof err);
    assert_null(e);
    assert_non_null(strstr(err, "/nonexistent/dir/x.elf: "));
    e = xelf_open("/", err, sizeof err); /* a directory */
    assert_null(e);
    assert_non_null(strstr(err, "/: not a regular file"));
    e = xelf_open("/dev/zero", err, sizeof err); /* would never end */
    assert_null(e);
    assert_non_null(strstr(err, "not a regular file"));
    /* an empty file */
    char tmp[] = "/tmp/xphmg-xelf-empty-XXXXXX";
    int fd = mkstemp(tmp);
    assert_true(fd >= 0);
    close(fd);
    e = xelf_open(tmp, err, sizeof err);
    unlink(tmp);
    assert_null(e);
    assert_non_null(strstr(err, "not an ELF file"));
    /* NULL err buffer is allowed */
    assert_null(xelf_open_memory("x", 1, "t", NULL, 0));
}

#ifdef XELF_SAMPLE
static uint8_t *read_all(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc((size_t)n);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = (size_t)n;
    return b;
}

/* sample.S linked with target/link.ld: _start at the RAM base (first in .text.init),
 * tohost at the next 4 KiB page (the .tohost section is page aligned, the code is
 * smaller than a page), fromhost 64 bytes after it. */
static void test_real_gcc_elf(void **state)
{
    (void)state;
    xelf *e = xelf_open(XELF_SAMPLE, err, sizeof err);
    if (!e) fail_msg("%s", err);
    assert_int_equal(xelf_entry(e), 0x80000000ULL);
    assert_int_equal(xelf_type(e), ET_EXEC);
    assert_int_equal(xelf_find_symbol(e, "_start")->value, 0x80000000ULL);
    assert_int_equal(xelf_find_symbol(e, "tohost")->value, 0x80001000ULL);
    assert_int_equal(xelf_find_symbol(e, "fromhost")->value, 0x80001040ULL);
    for (unsigned i = 1; i < xelf_symbol_count(e); i++) {
        const xelf_symbol *a = xelf_symbol_at(e, i - 1), *b = xelf_symbol_at(e, i);
        assert_true(a->value < b->value || (a->value == b->value && strcmp(a->name, b->name) <= 0));
    }
    /* First instruction: li a0, 42 = addi a0, x0, 42. */
    int found = 0;
    for (unsigned i = 0; i < xelf_section_count(e); i++) {
        const xelf_section *s = xelf_section_at(e, i);
        if (strcmp(s->name, ".text") == 0) {
            uint32_t w;
            memcpy(&w, s->data, 4);
            assert_int_equal(w, 0x02a00513);
            found = 1;
        }
    }
    assert_true(found);
    xelf_close(e);

    size_t len;
    uint8_t *b = read_all(XELF_SAMPLE, &len);
    assert_non_null(b);
    size_t cuts[] = {0, 4, 16, 63, 64, 100, len / 3, len / 2, len - 64, len - 1};
    for (size_t i = 0; i < sizeof cuts / sizeof cuts[0]; i++) {
        xelf *t = open_buf(b, cuts[i]);
        if (t) fail_msg("real ELF cut at %zu accepted", cuts[i]);
    }
    uint8_t *c = malloc(len);
    memcpy(c, b, len);
    c[EI_CLASS] = ELFCLASS32;
    expect_refused(c, len, "not ELF64");
    memcpy(c, b, len);
    eg_put16(c, offsetof(Elf64_Ehdr, e_machine), 40); /* EM_ARM */
    expect_refused(c, len, "not a RISC-V file");
    memcpy(c, b, len);
    eg_put64(c, offsetof(Elf64_Ehdr, e_shoff), len);
    expect_refused(c, len, "section header table outside the file");
    memcpy(c, b, len);
    eg_put64(c, offsetof(Elf64_Ehdr, e_phoff), len - 8);
    expect_refused(c, len, "program header table outside the file");
    free(c);
    free(b);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_synthetic_ok),
        cmocka_unit_test(test_not_elf),
        cmocka_unit_test(test_wrong_class_data_machine),
        cmocka_unit_test(test_truncated),
        cmocka_unit_test(test_bad_tables),
        cmocka_unit_test(test_bad_sections_and_strings),
        cmocka_unit_test(test_open_file_errors),
#ifdef XELF_SAMPLE
        cmocka_unit_test(test_real_gcc_elf),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
