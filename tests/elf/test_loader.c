/* test_loader.c — sim_load_elf on the hand-built executable of elfgen.h (written to a
 * temporary file) and on malformed variants; sim_place_args' memory layout; symbol
 * lookup for traces. Expected bytes and addresses come from elfgen.h's layout. */
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
#include "loader.h"
#include "mem.h"

#define RAM_BASE 0x80000000ULL
#define RAM_SIZE 0x100000ULL

static char err[256];
static char path[64];

static void write_file(const uint8_t *b, size_t n)
{
    snprintf(path, sizeof path, "/tmp/xphmg-loader-XXXXXX");
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, b, n), (ssize_t)n);
    close(fd);
}

static sim_mem *fresh_ram(void)
{
    sim_mem *m = mem_new(RAM_BASE, RAM_SIZE);
    assert_non_null(m);
    memset(mem_ptr(m, RAM_BASE, RAM_SIZE), 0xaa, RAM_SIZE); /* garbage to be overwritten */
    return m;
}

static void test_load_ok(void **state)
{
    (void)state;
    uint8_t b[EG_LEN];
    write_file(b, eg_build(b));
    sim_mem *m = fresh_ram();
    sim_image img;
    int rc = sim_load_elf(path, m, &img, err, sizeof err);
    unlink(path);
    if (rc) fail_msg("%s", err);
    assert_int_equal(img.entry, EG_TEXT_ADDR);
    assert_true(img.has_tohost);
    assert_int_equal(img.tohost, EG_DATA_ADDR + 8);
    assert_false(img.has_fromhost);
    assert_int_equal(img.lo, EG_TEXT_ADDR);
    assert_int_equal(img.hi, EG_DATA_ADDR + 0x108);
    assert_memory_equal(mem_ptr(m, EG_TEXT_ADDR, 16), eg_text, 16);
    assert_memory_equal(mem_ptr(m, EG_DATA_ADDR, 8), eg_data, 8);
    /* memsz - filesz is zero-filled ... */
    const uint8_t *bss = mem_ptr(m, EG_DATA_ADDR + 8, 0x100);
    for (int i = 0; i < 0x100; i++)
        assert_int_equal(bss[i], 0);
    /* ... and nothing past the segments is touched. */
    assert_int_equal(*mem_ptr(m, EG_TEXT_ADDR + 16, 1), 0xaa);
    assert_int_equal(*mem_ptr(m, EG_DATA_ADDR + 0x108, 1), 0xaa);

    uint64_t off = 99;
    assert_string_equal(sim_image_symbol(&img, EG_TEXT_ADDR + 12, &off), "loop");
    assert_int_equal(off, 4);
    assert_string_equal(sim_image_symbol(&img, EG_TEXT_ADDR, &off), "_start");
    assert_int_equal(off, 0);
    assert_null(sim_image_symbol(&img, EG_TEXT_ADDR - 4, &off));
    sim_image_free(&img);
    mem_free(m);
}

/* Loads a variant that must be refused with `want` in the message, RAM untouched. */
static void expect_refused(const uint8_t *b, size_t n, const char *want)
{
    write_file(b, n);
    sim_mem *m = fresh_ram();
    sim_image img;
    int rc = sim_load_elf(path, m, &img, err, sizeof err);
    unlink(path);
    if (rc == 0) fail_msg("accepted (expected \"%s\")", want);
    if (!strstr(err, want)) fail_msg("message \"%s\" lacks \"%s\"", err, want);
    const uint8_t *r = mem_ptr(m, RAM_BASE, RAM_SIZE);
    for (uint64_t i = 0; i < RAM_SIZE; i += 4096)
        assert_int_equal(r[i], 0xaa);
    assert_int_equal(*mem_ptr(m, EG_TEXT_ADDR, 1), 0xaa);
    assert_null(img.elf);
    mem_free(m);
}

static void test_refusals(void **state)
{
    (void)state;
    static const eg_patch bad[] = {
        {EG_EHDR(e_type), ET_DYN, "not an executable"},
        {EG_EHDR(e_type), ET_REL, "not an executable"},
        /* second segment starting inside the first */
        {EG_PHDR(1, p_paddr), EG_TEXT_ADDR + 8, "overlap"},
        /* first segment's bss reaching into the second */
        {EG_PHDR(0, p_memsz), 0x1001, "overlap"},
        {EG_PHDR(1, p_paddr), 0x70000000, "outside RAM"},
        {EG_PHDR(1, p_memsz), RAM_SIZE, "outside RAM"},              /* runs off the end */
        {EG_PHDR(1, p_paddr), ~0ULL - 4, "outside RAM"},             /* wraps */
        {EG_PHDR(1, p_memsz), 4, "file size 0x8 > memory size 0x4"}, /* filesz 8 > memsz 4 */
        {EG_EHDR(e_entry), 0x1000, "entry point 0x1000 outside RAM"},
        {EG_EHDR(e_phnum), 0, "no loadable segment"},
    };
    uint8_t b[EG_LEN];
    for (size_t k = 0; k < sizeof bad / sizeof *bad; k++) {
        eg_build_patched(b, &bad[k]);
        expect_refused(b, EG_LEN, bad[k].why);
    }

    /* the HTIF mailbox must be an aligned 64-bit word in RAM (symbol 6 is tohost) */
    eg_build(b);
    eg_sym(b, 6, 8, STB_GLOBAL, STT_OBJECT, 3, EG_DATA_ADDR + 9, 8);
    expect_refused(b, EG_LEN, "tohost (0x80001009) is not an aligned 64-bit word in RAM");
    eg_build(b);
    eg_sym(b, 6, 8, STB_GLOBAL, STT_OBJECT, 3, RAM_BASE + RAM_SIZE, 8);
    expect_refused(b, EG_LEN, "tohost (0x80100000) is not an aligned 64-bit word in RAM");

    /* reader refusals come through with the file name */
    eg_build(b);
    b[EI_CLASS] = ELFCLASS32;
    expect_refused(b, EG_LEN, "not ELF64");
    expect_refused(b, 10, "not an ELF file");

    sim_mem *m = fresh_ram();
    sim_image img;
    assert_int_equal(sim_load_elf("/nonexistent.elf", m, &img, err, sizeof err), -1);
    assert_non_null(strstr(err, "/nonexistent.elf"));
    mem_free(m);
}

/* Layout for argv {"prog", "world"} in 1 MiB RAM at 0x80000000, by hand:
 * top = 0x80100000; strings "prog\0world\0" = 11 bytes -> 16 reserved at 0x800ffff0;
 * vector = 8 * (2 + 3) = 40 bytes -> 48 reserved at 0x800fffc0 = sp. */
static void test_place_args(void **state)
{
    (void)state;
    sim_mem *m = fresh_ram();
    char *argv[] = {"prog", "world"};
    uint64_t sp = 0;
    assert_int_equal(sim_place_args(m, NULL, 2, argv, &sp, err, sizeof err), 0);
    assert_int_equal(sp, 0x800fffc0ULL);
    const uint8_t *p = mem_ptr(m, sp, 48 + 16);
    uint64_t w[5];
    memcpy(w, p, sizeof w);
    assert_int_equal(w[0], 2);
    assert_int_equal(w[1], 0x800ffff0ULL);
    assert_int_equal(w[2], 0x800ffff5ULL);
    assert_int_equal(w[3], 0); /* argv[argc] */
    assert_int_equal(w[4], 0); /* envp[0] */
    assert_string_equal((const char *)p + 48, "prog");
    assert_string_equal((const char *)p + 53, "world");

    /* no arguments at all: argc 0, then two NULLs */
    assert_int_equal(sim_place_args(m, NULL, 0, NULL, &sp, err, sizeof err), 0);
    assert_int_equal(sp % 16, 0);
    memcpy(w, mem_ptr(m, sp, 24), 24);
    assert_int_equal(w[0], 0);
    assert_int_equal(w[1], 0);
    mem_free(m);

    /* RAM that ends right after the loaded image: the block would overwrite it. */
    uint8_t b[EG_LEN];
    write_file(b, eg_build(b));
    sim_mem *tight = mem_new(RAM_BASE, 0x1200); /* image ends at 0x80001108 */
    sim_image img;
    int rc = sim_load_elf(path, tight, &img, err, sizeof err);
    unlink(path);
    if (rc) fail_msg("%s", err);
    char arg[300];
    memset(arg, 'a', sizeof arg - 1);
    arg[sizeof arg - 1] = '\0';
    char *targv[] = {arg};
    assert_int_equal(sim_place_args(tight, &img, 1, targv, &sp, err, sizeof err), -1);
    assert_non_null(strstr(err, "overlap the program image"));
    assert_int_equal(sim_place_args(tight, &img, 0, NULL, &sp, err, sizeof err), 0);
    sim_image_free(&img);
    mem_free(tight);

    /* too big for a tiny RAM */
    sim_mem *small = mem_new(RAM_BASE, 64);
    char big[100];
    memset(big, 'x', sizeof big - 1);
    big[99] = '\0';
    char *bargv[] = {big};
    assert_int_equal(sim_place_args(small, NULL, 1, bargv, &sp, err, sizeof err), -1);
    assert_non_null(strstr(err, "do not fit"));
    mem_free(small);
}

#ifdef XELF_SAMPLE
/* The gcc-built sample: entry and tohost/fromhost follow from target/link.ld. */
static void test_load_gcc_sample(void **state)
{
    (void)state;
    sim_mem *m = fresh_ram();
    sim_image img;
    if (sim_load_elf(XELF_SAMPLE, m, &img, err, sizeof err)) fail_msg("%s", err);
    assert_int_equal(img.entry, 0x80000000ULL);
    assert_int_equal(img.tohost, 0x80001000ULL);
    assert_int_equal(img.fromhost, 0x80001040ULL);
    uint32_t w;
    memcpy(&w, mem_ptr(m, 0x80000000ULL, 4), 4);
    assert_int_equal(w, 0x02a00513); /* li a0, 42 */
    uint64_t t;
    memcpy(&t, mem_ptr(m, img.tohost, 8), 8);
    assert_int_equal(t, 0);
    sim_image_free(&img);
    mem_free(m);
}
#endif

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_load_ok),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_place_args),
#ifdef XELF_SAMPLE
        cmocka_unit_test(test_load_gcc_sample),
#endif
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
