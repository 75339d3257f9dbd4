/* jit.h — the translator: RV64GC basic blocks to x86-64 machine code (docs/sim.md,
 * "Translator"). Internal to the hart (hart.c runs it in place of the fast loop when it
 * is on); units and tools use hart_set_jit() in hart.h. */
#ifndef XPHMG_SIM_JIT_H
#define XPHMG_SIM_JIT_H

#include <stdbool.h>
#include <stdint.h>

#include "hart.h"

typedef struct jit jit;

/* Whether this host can run translated code (x86-64 only). */
bool jit_supported(void);
/* NULL when the host is not supported or cannot map the code cache. */
jit *jit_new(hart *h);
void jit_free(jit *j);

/* Runs up to n instructions (n >= 1) of a batch like the fast loop does: same count,
 * same stops (h->stop), the interpreter for whatever is not translated. Not called with
 * the commit log or while h->xlate_careful (triggers, IALIGN=32, a debugger's access
 * watch); under address translation and PMP its blocks are keyed by virtual pc and
 * perform loads and stores through the handlers. */
void jit_run(hart *h, int64_t n);

/* Guest memory [a, a + n) was written (stores into code pages, host writes): translated
 * code over it is dropped before anything runs again, and the running block exits. */
void jit_code_written(hart *h, uint64_t a, uint64_t n);
/* Drop every translation before the next block runs (fence.i, sfence.vma, satp, unit
 * registration, reset); the running block exits after the current instruction. */
void jit_flush_request(hart *h);

typedef struct {
    uint64_t blocks;  /* blocks translated */
    uint64_t flushes; /* whole-cache flushes */
    uint64_t entries; /* entries into translated code from the dispatcher */
} jit_stats;
void jit_get_stats(const jit *j, jit_stats *s);

#endif
