/* mem.h — guest physical memory: one RAM region. Devices (CLINT, HTIF) are
 * handled by the hart before RAM is consulted. */
#ifndef XPHMG_SIM_MEM_H
#define XPHMG_SIM_MEM_H

#include <stdint.h>

typedef struct sim_mem sim_mem;

sim_mem *mem_new(uint64_t base, uint64_t size); /* NULL if the host cannot allocate */
void mem_free(sim_mem *m);
uint64_t mem_base(const sim_mem *m);
uint64_t mem_size(const sim_mem *m);

/* Host pointer to guest [addr, addr+n) if it lies entirely in RAM, else NULL.
 * Never wraps: addr+n overflowing is NULL. */
uint8_t *mem_ptr(sim_mem *m, uint64_t addr, uint64_t n);

/* Writers other than the hart's own stores (loader, HTIF syscalls) call this so
 * decoded-instruction caches over [addr, addr+n) are dropped. */
void mem_note_write(sim_mem *m, uint64_t addr, uint64_t n);

#endif
