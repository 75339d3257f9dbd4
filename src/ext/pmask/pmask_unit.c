/* pmask_unit.c — the hart adapter of PMASK. */
#include "pmask_unit.h"

/* REQ: CAP-028 CAP-058 */
static bool csr_read(hart *h, void *ctx, uint32_t a, uint64_t *v)
{
    (void)h;
    return pmask_csr_read(&((pmask_unit *)ctx)->pm, a, v);
}

/* REQ: CAP-029 CAP-058 */
static bool csr_write(hart *h, void *ctx, uint32_t a, uint64_t v)
{
    (void)h;
    return pmask_csr_write(&((pmask_unit *)ctx)->pm, a, v);
}

/* REQ: CAP-059 */
static void reset(hart *h, void *ctx)
{
    (void)h;
    pmask_unit *u = ctx;
    pmask_reset(&u->pm, u->cap_pmask_cap);
}

static const hart_unit_csrs csrs[] = {{PMASK_CSR_LO, PMASK_CSR_HI, csr_read, csr_write}};
static const hart_unit unit = {"pmask", reset, 0, NULL, 1, csrs};

/* REQ: CAP-058 CAP-059 */
int pmask_unit_attach(hart *h, pmask_unit *u, uint64_t cap_pmask_cap)
{
    u->cap_pmask_cap = cap_pmask_cap;
    pmask_reset(&u->pm, cap_pmask_cap);
    return hart_register_unit(h, &unit, u);
}
