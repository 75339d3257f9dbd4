/* gen_csr.h — emit the CSR map of ISA/Registers as data (xcsr_tab.c, the
 * table declared in src/sim/xcsr.h) and as macros (xphmg_csr.h, usable by host
 * and guest code alike). */
#ifndef XPHMG_GEN_CSR_H
#define XPHMG_GEN_CSR_H

#include <stdbool.h>
#include <stdio.h>

#include "gen_model.h"

bool gen_csr_table(FILE *out, const gen_model *m);
bool gen_csr_macros(FILE *out, const gen_model *m);

#endif
