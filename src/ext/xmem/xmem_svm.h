/* xmem_svm.h — SVMEM indexed gather/scatter, the semantics of `xmem.svm rd, rs1, rs2[,
 * pbank]` (project extension, errata; XMEM 5.1, CAP 2.3, 4.6.3).
 *
 * Pure module: no hart. The operation runs over a small memory interface (xmem_svm_mem)
 * whose accesses report an access fault by returning false WITHOUT side effects, so the
 * module itself decides between trapping, fault-only-first and OOB-zero. The hart adapter
 * (xmem_unit.h) backs it with hart_mem_ok + hart_load/hart_store; host tests back it with
 * a fake memory that records every access.
 *
 * Per element i (0 <= i < count), in order, under the instruction-boundary snapshot:
 *   - predicate = bit (i mod 64) of the selected PMASK bank (bank 0 = all ones, Q-62);
 *   - predicate false: NO memory access at all (not the index, not the element, CAP 2.3
 *     #5); a gather with ZMODE = 1 writes an all-zero element to the buffer (a
 *     destination write, not an element access), ZMODE = 0 keeps it; a scatter does
 *     nothing. The element counts as completed;
 *   - predicate true: idx = the IDX_W-wide entry i of the array at SVMIDX, sign- or
 *     zero-extended per SIGNED; addr = SVMBASE + idx * SCALE (mod 2^64); gather: load
 *     SIZE bytes at addr, store them at buf + i * SIZE; scatter: load SIZE bytes at
 *     buf + i * SIZE, store them at addr. Raw bits, never converted (Q-87 option 1).
 * SIZE = SVMLEN (1, 2, 4, 8) or, when SVMLEN = 0, EFF_EW of the snapshot in bytes.
 *
 * Faults: an element address that is not accessible, with SVMMODE
 * BOUND_CHECK = 1 and ALLOW_OOB_ZERO = 1, reads 0 (gather) or is dropped (scatter) and
 * the element completes. Any other fault of element i — the element address otherwise,
 * the index entry, the buffer slot — makes i the faulting element: SVFAULTI = i; with
 * FOF = 1 and i > 0 the operation stops without a trap (rd = i, elements >= i not
 * issued); otherwise it traps with the load or store access fault of the failing access
 * (mtval = its address). INV_MISS is reported for every OOB-zeroed element and every
 * fault. A completed operation sets SVFAULTI to all ones and rd = count. */
#ifndef XPHMG_EXT_XMEM_SVM_H
#define XPHMG_EXT_XMEM_SVM_H

#include <stdbool.h>
#include <stdint.h>

#include "cap.h"

/* SVFAULTI (project CSR, errata Q-47): user custom read/write, 64-bit, reset 0. */
#define XMEM_CSR_SVFAULTI   0x808u
#define XMEM_SVFAULTI_RESET 0u
#define XMEM_SVFAULTI_DONE  (~UINT64_C(0))

/* Memory as the operation sees it. A call that returns false is an access fault and
 * must have had no effect (nothing written, nothing recorded as a performed access). */
typedef struct {
    void *ctx;
    bool (*load)(void *ctx, uint64_t addr, unsigned size, uint64_t *val);
    bool (*store)(void *ctx, uint64_t addr, unsigned size, uint64_t val);
} xmem_svm_mem;

/* The decoded SVMEM configuration of one operation. */
typedef struct {
    uint64_t base;     /* SVMBASE */
    uint64_t idx_ptr;  /* SVMIDX: address of the index array */
    unsigned scale;    /* 1, 2, 4, 8, 16 */
    unsigned idx_size; /* index bytes: 4, 8, 2, 1 for IDX_W 0-3 */
    bool idx_signed;   /* SIGNED */
    bool scatter;      /* GS */
    bool fof;          /* FOF */
    unsigned size;     /* element bytes: SVMLEN or EFF_EW */
    bool oob_zero;     /* BOUND_CHECK && ALLOW_OOB_ZERO */
    /* With BOUND_CHECK: element addresses must lie in [bound_lo, bound_lo + bound_size)
     * (the region SVMBASE lies in, errata Q-48/P-205); bound_size 0 = no bound beyond
     * accessibility. xmem_svm_config sets no bound; the hart adapter supplies it. */
    bool bound_check;
    uint64_t bound_lo, bound_size;
    bool zmode;    /* EFF_ZMODE: 0 merge, 1 zero */
    uint64_t pred; /* the selected bank's 64 lanes */
} xmem_svm_cfg;

/* The configuration from a snapshot (SVM CSRs via cap_snap_xmem, EFF_EW, EFF_ZMODE) and
 * the lanes of the selected bank. */
void xmem_svm_config(const cap_snap *s, uint64_t pred, xmem_svm_cfg *cfg);

typedef enum {
    XMEM_SVM_DONE,     /* all elements completed */
    XMEM_SVM_FOF_STOP, /* fault-only-first stop at element rd > 0, no trap */
    XMEM_SVM_TRAP,     /* an access fault traps: fault_store selects the cause */
} xmem_svm_status;

typedef struct {
    xmem_svm_status status;
    uint64_t rd;        /* elements completed (DONE, FOF_STOP); the faulting index (TRAP) */
    uint64_t svfaulti;  /* the new SVFAULTI value (always written) */
    bool fault_store;   /* TRAP: store access fault (else load access fault) */
    uint64_t tval;      /* TRAP: the faulting address (mtval) */
    uint64_t events;    /* CAP.XMEM.EVENTS bits to set (INV_MISS), 0 when none */
    uint64_t performed; /* elements looked at (masked-off ones skipped are not): the work */
} xmem_svm_result;

/* Runs one `xmem.svm` with data buffer buf (rs1) and count elements (rs2). */
void xmem_svm_exec(const xmem_svm_cfg *cfg, const xmem_svm_mem *m, uint64_t buf, uint64_t count,
                   xmem_svm_result *r);

#endif
