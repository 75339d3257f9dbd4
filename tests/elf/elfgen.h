/* elfgen.h — builds a small, fully known RISC-V ELF64 executable in memory for the
 * reader and loader tests, so every expected value is written down here by hand rather
 * than read back through the code under test.
 *
 * Layout (file offsets):
 *   0x000 ELF header            0x040 2 program headers
 *   0x100 .text  16 bytes  -> 0x80000000 (PT_LOAD R+X, filesz = memsz = 16)
 *   0x110 .data   8 bytes  -> 0x80001000 (PT_LOAD R+W, filesz 8, memsz 0x108: .bss)
 *   0x118 .symtab 7 entries  0x1c0 .strtab  0x200 .shstrtab  0x280 7 section headers
 * Symbols (after the null one): a section symbol (skipped by xelf), loop (local, NOTYPE,
 * 0x80000008), _start (FUNC 0x80000000), beta and alpha (OBJECT 0x80001000), tohost
 * (OBJECT 0x80001008 in .bss). */
#ifndef XPHMG_TESTS_ELFGEN_H
#define XPHMG_TESTS_ELFGEN_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#define EG_LEN       0x440
#define EG_PHOFF     0x40
#define EG_TEXT_OFF  0x100
#define EG_DATA_OFF  0x110
#define EG_SYM_OFF   0x118
#define EG_STR_OFF   0x1c0
#define EG_SHSTR_OFF 0x200
#define EG_SHOFF     0x280
#define EG_TEXT_ADDR 0x80000000ULL
#define EG_DATA_ADDR 0x80001000ULL

/* li a0, 42 ; li a1, 1 ; j . ; nop — encodings hand-assembled from the RISC-V spec
 * (addi rd, x0, imm = imm << 20 | rd << 7 | 0x13; jal x0, 0 = 0x6f; addi x0,x0,0). */
static const uint32_t eg_text[4]
    __attribute__((unused)) = {0x02a00513, 0x00100593, 0x0000006f, 0x00000013};
static const uint8_t eg_data[8] __attribute__((unused)) = {1, 2, 3, 4, 5, 6, 7, 8};

static const char eg_strtab[] __attribute__((unused)) = "\0_start\0tohost\0alpha\0beta\0loop";
/* offsets:                        1       8       15     21    26 */
static const char eg_shstrtab[] __attribute__((unused)) =
    "\0.text\0.data\0.bss\0.symtab\0.strtab\0.shstrtab";
/* offsets:                          1      7      13    18       26       34 */

static inline void eg_sym(uint8_t *b, int i, uint32_t name, unsigned bind, unsigned type,
                          uint16_t shndx, uint64_t value, uint64_t size)
{
    Elf64_Sym s;
    memset(&s, 0, sizeof s);
    s.st_name = name;
    s.st_info = (unsigned char)ELF64_ST_INFO(bind, type);
    s.st_shndx = shndx;
    s.st_value = value;
    s.st_size = size;
    memcpy(b + EG_SYM_OFF + (size_t)i * sizeof s, &s, sizeof s);
}

static inline void eg_shdr(uint8_t *b, int i, uint32_t name, uint32_t type, uint64_t flags,
                           uint64_t addr, uint64_t off, uint64_t size, uint32_t link, uint32_t info,
                           uint64_t entsize)
{
    Elf64_Shdr s;
    memset(&s, 0, sizeof s);
    s.sh_name = name;
    s.sh_type = type;
    s.sh_flags = flags;
    s.sh_addr = addr;
    s.sh_offset = off;
    s.sh_size = size;
    s.sh_link = link;
    s.sh_info = info;
    s.sh_addralign = 1;
    s.sh_entsize = entsize;
    memcpy(b + EG_SHOFF + (size_t)i * sizeof s, &s, sizeof s);
}

static inline void eg_phdr(uint8_t *b, int i, uint32_t flags, uint64_t off, uint64_t addr,
                           uint64_t filesz, uint64_t memsz)
{
    Elf64_Phdr p;
    memset(&p, 0, sizeof p);
    p.p_type = PT_LOAD;
    p.p_flags = flags;
    p.p_offset = off;
    p.p_vaddr = p.p_paddr = addr;
    p.p_filesz = filesz;
    p.p_memsz = memsz;
    p.p_align = 0x1000;
    memcpy(b + EG_PHOFF + (size_t)i * sizeof p, &p, sizeof p);
}

/* Fills b[EG_LEN]; returns EG_LEN. */
static inline size_t eg_build(uint8_t *b)
{
    memset(b, 0, EG_LEN);
    Elf64_Ehdr h;
    memset(&h, 0, sizeof h);
    memcpy(h.e_ident, ELFMAG, SELFMAG);
    h.e_ident[EI_CLASS] = ELFCLASS64;
    h.e_ident[EI_DATA] = ELFDATA2LSB;
    h.e_ident[EI_VERSION] = EV_CURRENT;
    h.e_type = ET_EXEC;
    h.e_machine = 243; /* EM_RISCV */
    h.e_version = EV_CURRENT;
    h.e_entry = EG_TEXT_ADDR;
    h.e_phoff = EG_PHOFF;
    h.e_shoff = EG_SHOFF;
    h.e_flags = 0x5; /* EF_RISCV_RVC | EF_RISCV_FLOAT_ABI_DOUBLE */
    h.e_ehsize = sizeof(Elf64_Ehdr);
    h.e_phentsize = sizeof(Elf64_Phdr);
    h.e_phnum = 2;
    h.e_shentsize = sizeof(Elf64_Shdr);
    h.e_shnum = 7;
    h.e_shstrndx = 6;
    memcpy(b, &h, sizeof h);

    eg_phdr(b, 0, PF_R | PF_X, EG_TEXT_OFF, EG_TEXT_ADDR, 16, 16);
    eg_phdr(b, 1, PF_R | PF_W, EG_DATA_OFF, EG_DATA_ADDR, 8, 0x108);

    memcpy(b + EG_TEXT_OFF, eg_text, sizeof eg_text);
    memcpy(b + EG_DATA_OFF, eg_data, sizeof eg_data);

    eg_sym(b, 1, 0, STB_LOCAL, STT_SECTION, 1, EG_TEXT_ADDR, 0);
    eg_sym(b, 2, 26, STB_LOCAL, STT_NOTYPE, 1, EG_TEXT_ADDR + 8, 0);
    eg_sym(b, 3, 1, STB_GLOBAL, STT_FUNC, 1, EG_TEXT_ADDR, 16);
    eg_sym(b, 4, 21, STB_GLOBAL, STT_OBJECT, 2, EG_DATA_ADDR, 4);
    eg_sym(b, 5, 15, STB_GLOBAL, STT_OBJECT, 2, EG_DATA_ADDR, 4);
    eg_sym(b, 6, 8, STB_GLOBAL, STT_OBJECT, 3, EG_DATA_ADDR + 8, 8);
    memcpy(b + EG_STR_OFF, eg_strtab, sizeof eg_strtab);
    memcpy(b + EG_SHSTR_OFF, eg_shstrtab, sizeof eg_shstrtab);

    eg_shdr(b, 1, 1, SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR, EG_TEXT_ADDR, EG_TEXT_OFF, 16, 0, 0,
            0);
    eg_shdr(b, 2, 7, SHT_PROGBITS, SHF_ALLOC | SHF_WRITE, EG_DATA_ADDR, EG_DATA_OFF, 8, 0, 0, 0);
    eg_shdr(b, 3, 13, SHT_NOBITS, SHF_ALLOC | SHF_WRITE, EG_DATA_ADDR + 8, EG_DATA_OFF + 8, 0x100,
            0, 0, 0);
    eg_shdr(b, 4, 18, SHT_SYMTAB, 0, 0, EG_SYM_OFF, 7 * sizeof(Elf64_Sym), 5, 3, sizeof(Elf64_Sym));
    eg_shdr(b, 5, 26, SHT_STRTAB, 0, 0, EG_STR_OFF, sizeof eg_strtab, 0, 0, 0);
    eg_shdr(b, 6, 34, SHT_STRTAB, 0, 0, EG_SHSTR_OFF, sizeof eg_shstrtab, 0, 0, 0);
    return EG_LEN;
}

/* Field patching helpers for malformed variants. */
static inline void eg_put64(uint8_t *b, size_t off, uint64_t v)
{
    memcpy(b + off, &v, 8);
}
static inline void eg_put32(uint8_t *b, size_t off, uint32_t v)
{
    memcpy(b + off, &v, 4);
}
static inline void eg_put16(uint8_t *b, size_t off, uint16_t v)
{
    memcpy(b + off, &v, 2);
}

/* One malformed variant: the file eg_build makes with one header field set to v, and the
 * words the refusal must contain. EG_EHDR/PHDR/SHDR/SYM name the field (offset, size) of
 * the ELF header, program header i, section header i or symbol i. */
typedef struct {
    size_t off, size;
    uint64_t v;
    const char *why;
} eg_patch;
#define EG_FIELD(T, base, f) (base) + offsetof(T, f), sizeof(((T *)0)->f)
#define EG_EHDR(f)           EG_FIELD(Elf64_Ehdr, 0, f)
#define EG_PHDR(i, f)        EG_FIELD(Elf64_Phdr, EG_PHOFF + (i) * sizeof(Elf64_Phdr), f)
#define EG_SHDR(i, f)        EG_FIELD(Elf64_Shdr, EG_SHOFF + (i) * sizeof(Elf64_Shdr), f)
#define EG_SYM(i, f)         EG_FIELD(Elf64_Sym, EG_SYM_OFF + (i) * sizeof(Elf64_Sym), f)

static inline void eg_build_patched(uint8_t *b, const eg_patch *p)
{
    eg_build(b);
    if (p->size == 8)
        eg_put64(b, p->off, p->v);
    else if (p->size == 4)
        eg_put32(b, p->off, (uint32_t)p->v);
    else
        eg_put16(b, p->off, (uint16_t)p->v);
}

#endif
