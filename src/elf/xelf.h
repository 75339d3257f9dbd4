/* xelf.h — read RISC-V ELF64 executables and objects through libelf.
 * One reader for the simulator's loader and xphmg-objdump. Every refusal
 * (not ELF, wrong class/endianness/machine, truncated, bad tables) returns NULL
 * with a one-line message; nothing is read past the file's end. */
#ifndef XPHMG_ELF_XELF_H
#define XPHMG_ELF_XELF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct xelf xelf;

typedef struct {
    const char *name;
    uint64_t addr, size, offset;
    uint32_t type;       /* SHT_* */
    uint64_t flags;      /* SHF_* */
    const uint8_t *data; /* NULL for SHT_NOBITS */
} xelf_section;

typedef struct {
    uint32_t type;  /* PT_* */
    uint32_t flags; /* PF_* */
    uint64_t vaddr, paddr, filesz, memsz;
    const uint8_t *data; /* filesz bytes */
} xelf_segment;

typedef struct {
    const char *name;
    uint64_t value, size;
    unsigned char type; /* STT_* */
    unsigned char bind; /* STB_* */
    uint16_t shndx;
} xelf_symbol;

xelf *xelf_open(const char *path, char *err, size_t errlen);
/* The buffer must outlive the xelf. name is used in messages. */
xelf *xelf_open_memory(const void *buf, size_t len, const char *name, char *err, size_t errlen);
void xelf_close(xelf *e);

uint64_t xelf_entry(const xelf *e);
uint16_t xelf_type(const xelf *e);  /* ET_EXEC, ET_DYN, ET_REL */
uint32_t xelf_flags(const xelf *e); /* e_flags: EF_RISCV_RVC etc. */

unsigned xelf_section_count(const xelf *e);
const xelf_section *xelf_section_at(const xelf *e, unsigned i);
unsigned xelf_segment_count(const xelf *e);
const xelf_segment *xelf_segment_at(const xelf *e, unsigned i);
unsigned xelf_symbol_count(const xelf *e); /* sorted by value, then name */
const xelf_symbol *xelf_symbol_at(const xelf *e, unsigned i);
const xelf_symbol *xelf_find_symbol(const xelf *e, const char *name);

#endif
