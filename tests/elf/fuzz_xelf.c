/* fuzz_xelf.c — libFuzzer target for xelf_open_memory: any input must be either refused
 * with a message or fully walkable (every section, segment and symbol read back).
 * Built with -DXPHMG_FUZZ=ON (clang -fsanitize=fuzzer); replay_xelf.c replays a corpus
 * and a deterministic mutation sweep through the same function in the normal build. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "xelf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    err[0] = '\0';
    xelf *e = xelf_open_memory(data, size, "fuzz", err, sizeof err);
    if (!e) {
        /* Refusals always explain themselves. */
        if (err[0] == '\0') __builtin_trap();
        return 0;
    }
    unsigned sum = 0;
    for (unsigned i = 0; i < xelf_section_count(e); i++) {
        const xelf_section *s = xelf_section_at(e, i);
        sum += (unsigned)strlen(s->name);
        if (s->data && s->size) sum += s->data[0] + s->data[s->size - 1];
    }
    for (unsigned i = 0; i < xelf_segment_count(e); i++) {
        const xelf_segment *s = xelf_segment_at(e, i);
        if (s->filesz) sum += s->data[0] + s->data[s->filesz - 1];
    }
    for (unsigned i = 0; i < xelf_symbol_count(e); i++) {
        const xelf_symbol *s = xelf_symbol_at(e, i);
        sum += (unsigned)strlen(s->name);
        if (i && xelf_symbol_at(e, i - 1)->value > s->value) __builtin_trap();
    }
    (void)xelf_find_symbol(e, "tohost");
    /* Keep the reads: the sum escapes through an empty asm. */
    __asm__ volatile("" : : "r"(sum));
    (void)xelf_entry(e);
    xelf_close(e);
    return 0;
}
