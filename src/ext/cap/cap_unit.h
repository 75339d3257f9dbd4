/* cap_unit.h — XPHMG_CAP attached to the hart: the CSR window 0x7C0-0x7F7 (Zicsr on
 * cap.h) and the project instruction `xcvt` (errata Q-83). */
#ifndef XPHMG_EXT_CAP_UNIT_H
#define XPHMG_EXT_CAP_UNIT_H

#include "cap.h"
#include "hart.h"

typedef struct {
    cap_state cap;
    const cap_profile *prof; /* not owned; NULL = default profile */
    /* cap_reset(prof) is a function of the (immutable) profile alone: computed once at
     * attach, copied at every hart reset (a reset per input under fuzzing). */
    cap_state reset_state;
} cap_unit;

/* Registers the unit with h and resets it from prof; -1 when the hart refuses. */
int cap_unit_attach(hart *h, cap_unit *u, const cap_profile *prof);

/* The `xcvt` semantics on a snapshot (exposed for host tests): converts `in` from type
 * code src (FMTSEL 3:0) to dst (7:4; 15 = EFF_PET) under s, with FMTSEL 9:8 the
 * per-instruction SAE override (errata P-180), accrues flags into c, and returns false
 * with *illegal for a bad FMTSEL or false with *trap = mtval for an enabled exception;
 * otherwise true with the rd value in *out. */
bool cap_xcvt(cap_state *c, const cap_snap *s, unsigned fmtsel, uint64_t in, uint64_t *out,
              bool *illegal, uint64_t *trap);

#endif
