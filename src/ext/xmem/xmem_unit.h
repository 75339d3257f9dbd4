/* xmem_unit.h — XPHMG_XMEM attached to the hart: `xmem.svm` (SVMEM gather/scatter,
 * errata Q-46..Q-48) and the project CSR SVFAULTI (0x808, user custom read/write,
 * errata Q-47). The CAP.XMEM CSRs themselves stay in the CAP window (cap_unit.h); this
 * unit reads them through the instruction-boundary snapshot, and predicates through the
 * PMASK unit. */
#ifndef XPHMG_EXT_XMEM_UNIT_H
#define XPHMG_EXT_XMEM_UNIT_H

#include "cap_unit.h"
#include "hart.h"
#include "pmask_unit.h"
#include "xmem_svm.h"

typedef struct {
    cap_unit *cap;     /* snapshot source and CAP.XMEM.EVENTS (not owned) */
    pmask_unit *pmask; /* predicate banks (not owned) */
    uint64_t svfaulti; /* SVFAULTI */
} xmem_unit;

/* Registers the unit with h (cap and pmask must be attached to the same hart and
 * outlive u); -1 when the hart refuses (op or CSR already owned). */
int xmem_unit_attach(hart *h, xmem_unit *u, cap_unit *cap, pmask_unit *pmask);

#endif
