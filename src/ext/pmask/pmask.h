/* pmask.h — the PMASK predicate substrate (errata "## PMASK", after the author's
 * XPHMG_PMASK 3.2-3.3): up to 4 banks of 64 lanes (lane i = bit i; a 2-bit pbank selects
 * 0..3), bank 0 a virtual ALL-ONES bank (reads all ones, writes ignored, CAP 2.3 #3),
 * banks as CSRs pmask0..pmask3 at 0x800-0x803 (the profile's CAP.PMASK.CAP says how many
 * exist), and
 * the ZMODE merge/zero rule of CAP 2.3 #4 as the one helper every predicated unit uses.
 * Pure module; the hart adapter is pmask_unit.h. */
#ifndef XPHMG_EXT_PMASK_H
#define XPHMG_EXT_PMASK_H

#include <stdbool.h>
#include <stdint.h>

#define PMASK_CSR_LO    0x800u
#define PMASK_CSR_HI    0x803u
#define PMASK_MAX_BANKS 4u  /* pbank is 2 bits (errata Q-36) */
#define PMASK_LANES     64u /* lane width of a bank (errata Q-62) */

typedef struct {
    bool present;   /* CAP.PMASK.CAP.PMASK_PRESENT */
    unsigned banks; /* PMASK_BANKS_M1 + 1, bank 0 included */
    uint64_t bank[PMASK_MAX_BANKS];
} pmask_state;

/* Reset from the CAP.PMASK.CAP discovery value: banks 1.. clear (errata Q-36). */
void pmask_reset(pmask_state *p, uint64_t cap_pmask_cap);

/* True when bank b exists (an operation selecting another bank is illegal, Q-36). */
bool pmask_bank_valid(const pmask_state *p, unsigned b);
/* Bank contents; bank 0 reads all ones, a missing bank reads 0. */
uint64_t pmask_get(const pmask_state *p, unsigned b);
/* Writes bank b; bank 0 and missing banks ignore writes (CAP 2.3 #3). */
void pmask_set(pmask_state *p, unsigned b, uint64_t v);
/* The predicate of lane i (i mod 64) in bank b; bank 0 is always true. */
bool pmask_lane(const pmask_state *p, unsigned b, unsigned lane);
/* Sets or clears lane i of bank b, other lanes preserved; bank 0 ignored. */
void pmask_set_lane(pmask_state *p, unsigned b, unsigned lane, bool v);

/* CSR access to pmask<n> (0x800 + n): false = no such bank (illegal instruction). */
bool pmask_csr_read(const pmask_state *p, uint32_t addr, uint64_t *val);
bool pmask_csr_write(pmask_state *p, uint32_t addr, uint64_t val);

/* ZMODE (CAP 2.3 #4): the value of one destination element whose result is `result`
 * and whose prior content is `old`: the result when the predicate is true, otherwise
 * `old` (zmode 0, merge) or 0 (zmode 1, zero). */
uint64_t pmask_zmode(bool pred, bool zmode, uint64_t old, uint64_t result);
/* The same for a register of packed elements of `elem_bits` (1..64, dividing 64):
 * element i is governed by bit i of `pred`. */
uint64_t pmask_zmode_packed(uint64_t pred, bool zmode, uint64_t old, uint64_t result,
                            unsigned elem_bits);

#endif
