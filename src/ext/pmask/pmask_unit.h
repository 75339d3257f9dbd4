/* pmask_unit.h — PMASK banks attached to the hart as CSRs pmask0..pmask3 (0x800-0x803,
 * user read/write range, errata Q-36). */
#ifndef XPHMG_EXT_PMASK_UNIT_H
#define XPHMG_EXT_PMASK_UNIT_H

#include "hart.h"
#include "pmask.h"

typedef struct {
    pmask_state pm;
    uint64_t cap_pmask_cap; /* the CAP.PMASK.CAP discovery value it resets from */
} pmask_unit;

int pmask_unit_attach(hart *h, pmask_unit *u, uint64_t cap_pmask_cap);

#endif
