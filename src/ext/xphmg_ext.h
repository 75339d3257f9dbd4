/* xphmg_ext.h — attaches the XPHMG units (CAP with `xcvt`, PMASK, XMEM with `xmem.svm`
 * and the LDS window, RT with `rt.bbox`/`rt.tri` and the offload path) to a hart, configured by one
 * implementation profile. Tools call this once after hart_new(); the units live as long as the
 * returned handle. */
#ifndef XPHMG_EXT_H
#define XPHMG_EXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cap/cap_profile.h"
#include "cap/cap_unit.h"
#include "hart.h"
#include "pmask/pmask_unit.h"
#include "rt/rt_unit.h"
#include "xmem/xmem_unit.h"

typedef struct {
    cap_unit cap;
    pmask_unit pmask;
    xmem_unit xmem;
    rt_unit rt;
} xphmg_ext;

/* prof: NULL = the default profile (not owned; must outlive the handle). NULL with a
 * message in err when a unit cannot be registered; the hart may then hold a unit that
 * is gone and must be freed without running. */
xphmg_ext *xphmg_ext_attach(hart *h, const cap_profile *prof, char *err, size_t errlen);
void xphmg_ext_free(xphmg_ext *e);

/* The LDS window prof gives (errata Q-50: XMEM_LDS_BASE, CAP.XMEM.PARAMS.LDS_KIB KiB):
 * false (size 0) when it has none. For tools that must keep RAM clear of it. */
bool xphmg_ext_lds_window(const cap_profile *prof, uint64_t *base, uint64_t *size);

#endif
