/* mem_hook.h — simulator-internal extension of mem.h: the hart registers a callback so
 * that mem_note_write() (loader, HTIF syscalls) drops its decoded-instruction cache. */
#ifndef XPHMG_SIM_MEM_HOOK_H
#define XPHMG_SIM_MEM_HOOK_H

#include "mem.h"

typedef void (*mem_write_hook)(void *ctx, uint64_t addr, uint64_t n);
/* One hook per memory (the last registration wins); fn NULL removes it. */
void mem_set_write_hook(sim_mem *m, mem_write_hook fn, void *ctx);

#endif
