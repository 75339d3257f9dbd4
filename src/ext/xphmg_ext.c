/* xphmg_ext.c — one place that wires the XPHMG units to a hart. */
#include "xphmg_ext.h"

#include <stdio.h>
#include <stdlib.h>

#include "xphmg_csr.h"

xphmg_ext *xphmg_ext_attach(hart *h, const cap_profile *prof, char *err, size_t errlen)
{
    xphmg_ext *e = calloc(1, sizeof *e);
    if (!e) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    if (cap_unit_attach(h, &e->cap, prof) ||
        pmask_unit_attach(h, &e->pmask, cap_discovery(&e->cap.cap, XPHMG_CSR_CAP_PMASK_CAP)) ||
        xmem_unit_attach(h, &e->xmem, &e->cap, &e->pmask)) {
        snprintf(err, errlen, "cannot attach the XPHMG units (CSR or opcode already owned)");
        free(e);
        return NULL;
    }
    return e;
}

void xphmg_ext_free(xphmg_ext *e)
{
    free(e);
}
