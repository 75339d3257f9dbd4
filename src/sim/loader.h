/* loader.h — load a RISC-V ELF64 executable into guest RAM, and lay out its arguments.
 *
 * Only ET_EXEC, EM_RISCV, ELFCLASS64 little-endian files are accepted. Every PT_LOAD
 * segment is copied to its physical address (p_paddr; equal to p_vaddr in bare-metal
 * links) with memsz - filesz zero bytes after the file bytes. Refused: segments that
 * overlap, lie outside RAM, or have filesz > memsz; an entry point outside RAM. */
#ifndef XPHMG_SIM_LOADER_H
#define XPHMG_SIM_LOADER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mem.h"
#include "xelf.h"

typedef struct {
    uint64_t entry;
    bool has_tohost, has_fromhost; /* symbols `tohost` and `fromhost` found */
    uint64_t tohost, fromhost;     /* their addresses (0 when absent) */
    uint64_t lo, hi;               /* loaded range: lowest address, end of the highest */
    xelf *elf;                     /* the open file: symbols for tracing (xelf_symbol_*) */
} sim_image;

/* 0 on success; -1 with a one-line message in err (RAM may be partly written). */
int sim_load_elf(const char *path, sim_mem *mem, sim_image *img, char *err, size_t errlen);
void sim_image_free(sim_image *img);

/* Name of the symbol covering addr (the nearest function/object/notype symbol at or
 * below it), with *off = addr - its value; NULL when none. For traces. */
const char *sim_image_symbol(const sim_image *img, uint64_t addr, uint64_t *off);

/* Writes the program's arguments at the top of RAM in the System V layout that
 * target/crt0.S reads (docs/target.md):
 *     sp -> argc, argv[0] .. argv[argc-1], NULL, NULL (empty envp), then the strings.
 * The hart sets x2 (sp) to *sp (16-byte aligned, below the strings); a0 = argc and
 * a1 = *sp + 8 may be set as well. argv[0] is conventionally the program path.
 * 0 on success, -1 with a message when the block does not fit in RAM or collides with
 * the loaded image (img may be NULL to skip that check). */
int sim_place_args(sim_mem *mem, const sim_image *img, int argc, char *const *argv, uint64_t *sp,
                   char *err, size_t errlen);

#endif
