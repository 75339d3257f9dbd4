/* cap.h — the XPHMG_CAP CSR file (CAP 3, 4, 5.2): state, reset from an implementation
 * profile, CSR read/write with the generic rules of CAP 4 taken from the generated CSR
 * table (xcsr.h), PREC staging and APPLY, EFF composition (CAP 4.4.2.3), stickies, and
 * the snapshot that XPHMG operations execute under (CAP 1.1 #5, 5.1.1).
 *
 * Pure module: no hart. The hart adapter (cap_unit.h) maps Zicsr accesses onto
 * cap_csr_read/cap_csr_write and runs `xcvt`. Decisions (field layouts, unsupported
 * values, sticky lifetimes, trap cause) are in docs/errata.md "## CAP"; docs/cap.md
 * describes the unit. */
#ifndef XPHMG_EXT_CAP_H
#define XPHMG_EXT_CAP_H

#include <stdbool.h>
#include <stdint.h>

#include "xphmg/num.h"

/* The CAP window owned by this unit: 0x7C0-0x7F7 (CAP 3.1). 0x7F8-0x7FF belongs to the
 * absent XPHMG_RSV (errata Q-03): an unimplemented block, which reads zero and ignores
 * writes over its whole range (CAP 3, errata Q-12); this unit answers for it. */
#define CAP_CSR_LO    0x7C0u
#define CAP_CSR_HI    0x7F7u
#define CAP_CSR_COUNT (CAP_CSR_HI - CAP_CSR_LO + 1u)
#define CAP_RSV_LO    0x7F8u
#define CAP_RSV_HI    0x7FFu

/* The profile-select CSR (project extension, errata P-177): the implementation-defined
 * profile-switch mechanism of CAP 4.3.3, in the machine custom read/write range. */
#define CAP_CSR_PROF_SEL 0xBC0u

/* The XMEM/SVMEM part of the window, latched in every snapshot. */
#define CAP_XMEM_LO    0x7E0u
#define CAP_XMEM_COUNT (CAP_CSR_HI - CAP_XMEM_LO + 1u)

/* Trap cause of an enabled, unsuppressed XPHMG FP exception (errata Q-28). */
#define CAP_CAUSE_FP_EXC 24u

/* Unified 4-bit type code (errata Q-17): EFF_PET and `xcvt` FMTSEL. */
enum {
    CAP_T_FP16 = 0,
    CAP_T_FP32 = 1,
    CAP_T_BF16 = 2,
    CAP_T_INT8 = 3,
    CAP_T_INT16 = 4,
    CAP_T_INT32 = 5,
    CAP_T_E4M3 = 8,
    CAP_T_E5M2 = 9,
    CAP_T_INT4 = 10,
    CAP_T_INT2 = 11,
    CAP_T_BF16_LITE = 12,
    CAP_T_EFFECTIVE = 15, /* xcvt only: "the effective PET" */
};

typedef struct cap_profile cap_profile; /* cap_profile.h */

/* What an XPHMG operation executes under: latched at decode/issue (CAP 1.1 #5) and never
 * changed by later CSR writes (CAP 1.3 "Snapshot execution"). */
typedef struct {
    num_policy pol;   /* EFF mapped onto the numeric engine */
    uint64_t stat;    /* CAP.PREC.STAT at the boundary (EFF_* fields) */
    uint8_t pet;      /* EFF_PET, unified type code */
    uint8_t ew, accw; /* EFF_EW, EFF_ACCW codes */
    uint8_t pack;     /* EFF_PACK */
    bool uns, mixed;  /* EFF_UNS, EFF_MIXED */
    bool zmode;       /* EFF_ZMODE: 0 merge, 1 zero (CAP 2.3 #4) */
    bool sae;         /* EFF_SAE = SAE_DEF | SAE (errata Q-24) */
    uint32_t exc_en;  /* CAP.PREC.EXC.EN at the boundary (errata Q-25) */
    uint32_t alu_sup; /* CAP.PREC.ALU: type code n supported when bit n is set */
    /* CAP.XMEM.* and SVMEM (0x7E0-0x7F7) as read at the boundary: the memory policy a
     * unit (XMEM, RT offload) uses for the whole operation (CAP 4.6 #4). */
    uint64_t xmem[CAP_XMEM_COUNT];
} cap_snap;

typedef struct {
    uint64_t reg[CAP_CSR_COUNT];  /* what a read returns (MODE/ALT: the staged image) */
    uint64_t mode_applied;        /* MODE as latched by the last APPLY0 (errata Q-23) */
    uint64_t alt_applied;         /* ALT as latched by the last APPLY1 */
    uint64_t base_eff;            /* MODE with unsupported selections kept from before
                                     (errata ): the base EFF */
    uint64_t disc[CAP_CSR_COUNT]; /* discovery values of the current runtime profile */
    /* A write that asks for an absent precision field (errata P-178) is a request the
     * next APPLY of that group consumes; that APPLY and every APPLY until the group is
     * applied again without one report UNSUP_FMT. */
    bool mode_asked_absent, alt_asked_absent;     /* pending since the last APPLY */
    bool mode_applied_absent, alt_applied_absent; /* latched by APPLY0 / APPLY1 */
    const cap_profile *prof; /* where runtime profile values come from (P-177) */
} cap_state;

/* Resets every CAP CSR (CAP 5.2.7): RW/W1C state to the XML reset values, discovery
 * CSRs to the profile's values (NULL = the built-in default profile = the XML reset
 * values), PREC reset applied (errata Q-32). */
void cap_reset(cap_state *c, const cap_profile *prof);

/* True when addr lies in the CAP window 0x7C0-0x7F7. Every address there reads and
 * writes (unassigned ones read 0 and ignore writes, CAP 3.1 #3). */
bool cap_csr_in_window(uint32_t addr);
/* CSR read of the window, of the unimplemented RSV block (reads 0) or of
 * CAP_CSR_PROF_SEL; false for any other address. */
bool cap_csr_read(const cap_state *c, uint32_t addr, uint64_t *val);
/* CSR write with the value the Zicsr instruction writes (errata Q-84), to the window or
 * CAP_CSR_PROF_SEL (writes to the RSV block are ignored); false for any other address.
 * Never traps otherwise (CAP 4.3.4,
 * 5.2.8). */
bool cap_csr_write(cap_state *c, uint32_t addr, uint64_t val);

/* Switches to runtime profile idx when CAP.PROF.SUP has it (a write of idx to
 * CAP_CSR_PROF_SEL): CAP.PROF.CUR and, with RUNTIME_MUTABLE=1, the advisory FEAT/TIER/
 * HINT CSRs take the profile's values together; nothing else changes (CAP 4.3.2-4.3.3).
 * False (and no change) for an index outside SUP. */
bool cap_prof_select(cap_state *c, unsigned idx);

/* The instruction-boundary snapshot (CAP 5.1.1). */
void cap_snapshot(const cap_state *c, cap_snap *s);

/* A CAP.XMEM/SVMEM CSR (0x7E0-0x7F7) as latched in s; 0 for other addresses. */
uint64_t cap_snap_xmem(const cap_snap *s, uint32_t addr);

/* Accrues flags (num_flags) of an operation: bits 6:0 into EXC.ST, SAT_HIT/FTZ_HIT/
 * DOWNCAST_TAKEN into STAT (CAP 4.4.2.5: stickies are set whether or not it traps). */
void cap_accrue(cap_state *c, num_flags flags);
/* The flags that trap (mtval, errata Q-28), 0 = no trap: raised NV..NX enabled in the
 * snapshot's EXC.EN while the effective SAE is 0 (CAP 4.4.2.5). */
num_flags cap_trap_flags(const cap_snap *s, num_flags flags);

/* Sets STAT.UNSUP_FMT for an operation that had to fall back from an effective format
 * it cannot use (errata Q-69: RT records under a non-float PET). */
void cap_note_unsupported(cap_state *c);

/* Sets CAP.XMEM.EVENTS sticky bits (for the XMEM/RT units); bits of absent features
 * (errata XMEM Q-38) are not set. */
void cap_xmem_event(cap_state *c, uint64_t events);

/* Unified type code -> engine format (integers signed or unsigned by `uns`);
 * -1 for a reserved code or CAP_T_EFFECTIVE. */
int cap_type_fmt(unsigned code, bool uns);

/* A discovery value (reset value of an RO CSR) as configured; 0 outside the window. */
uint64_t cap_discovery(const cap_state *c, uint32_t addr);

#endif
