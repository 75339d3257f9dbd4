/* mem.c — guest RAM: one host allocation, bounds-checked address translation, and the
 * hook that lets the hart drop decoded instructions when someone else writes memory. */
#include "mem.h"
#include "mem_hook.h"

#include <stdlib.h>

struct sim_mem {
    uint64_t base, size;
    uint8_t *ram;
    mem_write_hook hook;
    void *hook_ctx;
};

sim_mem *mem_new(uint64_t base, uint64_t size)
{
    /* A region that wraps the address space, or is too small for the widest access the
     * hart's fast path assumes (8 bytes), is refused rather than half-supported. */
    if (size < 8 || base + size < base || size > (uint64_t)SIZE_MAX) return NULL;
    sim_mem *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    m->ram = calloc(1, (size_t)size); /* zeroed like a freshly reset RAM; lazily mapped */
    if (!m->ram) {
        free(m);
        return NULL;
    }
    m->base = base;
    m->size = size;
    return m;
}

void mem_free(sim_mem *m)
{
    if (!m) return;
    free(m->ram);
    free(m);
}

uint64_t mem_base(const sim_mem *m)
{
    return m->base;
}
uint64_t mem_size(const sim_mem *m)
{
    return m->size;
}

uint8_t *mem_ptr(sim_mem *m, uint64_t addr, uint64_t n)
{
    /* Written so that no intermediate sum can wrap: off <= size and n <= size - off. */
    if (addr < m->base) return NULL;
    uint64_t off = addr - m->base;
    if (off > m->size || n > m->size - off) return NULL;
    return m->ram + off;
}

void mem_note_write(sim_mem *m, uint64_t addr, uint64_t n)
{
    if (m->hook && n) m->hook(m->hook_ctx, addr, n);
}

void mem_set_write_hook(sim_mem *m, mem_write_hook fn, void *ctx)
{
    m->hook = fn;
    m->hook_ctx = ctx;
}
