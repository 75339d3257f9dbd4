/* pmask.c — PMASK banks and the ZMODE rule. */
#include "pmask.h"

#include <string.h>

#include "xphmg_csr.h"

/* REQ: CAP-058 CAP-059 CAP-060 */
void pmask_reset(pmask_state *p, uint64_t cap)
{
    memset(p, 0, sizeof *p);
    p->present = (cap & CAP_PMASK_CAP_PMASK_PRESENT_MASK) != 0;
    p->banks = p->present ? (unsigned)((cap & CAP_PMASK_CAP_PMASK_BANKS_M1_MASK) >>
                                       CAP_PMASK_CAP_PMASK_BANKS_M1_SHIFT) +
                                1
                          : 0;
    /* A 2-bit pbank reaches banks 0..3 only (errata Q-36); profiles refuse more. */
    if (p->banks > PMASK_MAX_BANKS) p->banks = PMASK_MAX_BANKS;
}

/* REQ: CAP-027 CAP-058 */
bool pmask_bank_valid(const pmask_state *p, unsigned b)
{
    return p->present && b < p->banks;
}

/* REQ: CAP-027 CAP-028 */
uint64_t pmask_get(const pmask_state *p, unsigned b)
{
    if (!pmask_bank_valid(p, b)) return 0;
    return b == 0 ? ~UINT64_C(0) : p->bank[b];
}

/* REQ: CAP-029 */
void pmask_set(pmask_state *p, unsigned b, uint64_t v)
{
    if (b != 0 && pmask_bank_valid(p, b)) p->bank[b] = v;
}

/* REQ: CAP-026 CAP-027 */
bool pmask_lane(const pmask_state *p, unsigned b, unsigned lane)
{
    return (pmask_get(p, b) >> (lane % PMASK_LANES)) & 1;
}

/* REQ: CAP-026 CAP-029 */
void pmask_set_lane(pmask_state *p, unsigned b, unsigned lane, bool v)
{
    uint64_t bit = UINT64_C(1) << (lane % PMASK_LANES);
    pmask_set(p, b, v ? pmask_get(p, b) | bit : pmask_get(p, b) & ~bit);
}

/* REQ: CAP-027 CAP-058 */
static bool bank_of(const pmask_state *p, uint32_t addr, unsigned *b)
{
    if (addr < PMASK_CSR_LO || addr > PMASK_CSR_HI) return false;
    *b = addr - PMASK_CSR_LO;
    return pmask_bank_valid(p, *b);
}

/* REQ: CAP-028 CAP-058 */
bool pmask_csr_read(const pmask_state *p, uint32_t addr, uint64_t *val)
{
    unsigned b;
    if (!bank_of(p, addr, &b)) return false;
    *val = pmask_get(p, b);
    return true;
}

/* REQ: CAP-029 CAP-058 */
bool pmask_csr_write(pmask_state *p, uint32_t addr, uint64_t val)
{
    unsigned b;
    if (!bank_of(p, addr, &b)) return false;
    pmask_set(p, b, val); /* pmask0: RO, the write is ignored without a trap */
    return true;
}

/* REQ: CAP-030 CAP-031 CAP-095 */
uint64_t pmask_zmode(bool pred, bool zmode, uint64_t old, uint64_t result)
{
    return pred ? result : zmode ? 0 : old;
}

/* No instruction writes packed elements (MODE.PACK has no consumer, docs/uncovered.tsv),
 * so nothing architectural calls this: it names no requirement (docs/mutation.md). */
uint64_t pmask_zmode_packed(uint64_t pred, bool zmode, uint64_t old, uint64_t result,
                            unsigned elem_bits)
{
    if (elem_bits == 0 || elem_bits > 64 || 64 % elem_bits)
        return old; /* a caller bug; never write garbage */
    uint64_t emask = elem_bits == 64 ? ~UINT64_C(0) : (UINT64_C(1) << elem_bits) - 1;
    uint64_t take = 0;
    for (unsigned i = 0; i < 64 / elem_bits; i++)
        if ((pred >> i) & 1) take |= emask << (i * elem_bits);
    return (result & take) | (zmode ? 0 : old & ~take);
}
