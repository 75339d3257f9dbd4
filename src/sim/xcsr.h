/* xcsr.h — the CSR map as data, generated at build time from ISA/Registers of
 * spec/xphmg.xml (spec/README.md X-19) by tools/gen (gen_csr.c): xcsr_tab.c fills
 * the table below, xphmg_csr.h gives every CSR number and field position as macros
 * (XPHMG_CSR_<REG>, RV_CSR_<REG>, <REG>_<FIELD>_SHIFT/_WIDTH/_MASK). Units use the
 * table for the generic rules (reserved bits read zero and ignore writes, read-only
 * fields ignore writes, W1C fields clear on 1) and the macros for their own fields,
 * so no CSR layout is written down twice. */
#ifndef XPHMG_SIM_XCSR_H
#define XPHMG_SIM_XCSR_H

#include <stdint.h>

enum { XCSR_RW = 0, XCSR_RO, XCSR_WARL, XCSR_W1C, XCSR_WO };

typedef struct {
    const char *name;
    uint8_t lo, width;
    uint8_t access; /* XCSR_* */
    uint64_t reset; /* field value, not shifted */
} xcsr_field;

typedef struct {
    const char *name; /* as in the XML, e.g. "cap_prec_mode" */
    const char *unit; /* base, CAP, XMEM, RT, PMASK */
    uint32_t addr;
    uint8_t access;    /* register-level XCSR_* */
    uint64_t reset;    /* whole-register reset value */
    uint64_t defined;  /* bits covered by some field (others read 0, ignore writes) */
    uint64_t writable; /* bits a CSR write may change (RW/WARL/WO fields) */
    uint64_t w1c;      /* bits cleared by writing 1 */
    unsigned field_count;
    const xcsr_field *fields;
} xcsr_reg;

extern const xcsr_reg xcsr_regs[]; /* sorted by address */
extern const unsigned xcsr_count;

const xcsr_reg *xcsr_find(uint32_t addr);         /* NULL when not in the map */
const xcsr_reg *xcsr_find_name(const char *name); /* by XML name */
const xcsr_field *xcsr_find_field(const xcsr_reg *r, const char *name);

#endif
