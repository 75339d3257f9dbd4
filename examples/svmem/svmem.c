/* svmem — SVMEM gather and scatter (XMEM 5.1, `xmem.svm`, errata Q-46..Q-48) from a guest
 * program: a 16-entry table of i*i + 1 is gathered through an index array, scattered
 * back into an empty table, gathered under a predicate (PMASK bank 1, merge), and
 * gathered with fault-only-first over an index that points outside memory. */
#include <stdint.h>
#include <stdio.h>

#include "xphmg_insn.h"

#define SCL_SCALE4  2u        /* SVMSCL.SCALE_LOG2 = 2: index * 4 */
#define SCL_SCATTER (1u << 4) /* SVMSCL.GS */
#define SCL_FOF     (1u << 5) /* SVMSCL.FOF */

static uint32_t table[16], back[16], out[8];
static const int32_t idx[8] = {15, 3, 8, 0, 11, 5, 2, 9};
/* element 2 lies 4 GiB past the table: no memory there */
static const int32_t idx_fault[4] = {1, 2, 0x40000000, 4};

/* One xmem.svm of n 4-byte elements between buf and base[ix[i]] with the given SVMSCL,
 * predicated by PMASK bank 1 when bank1 (else the all-ones bank 0). */
static uint64_t svm(uint32_t *base, uint32_t *buf, const int32_t *ix, uint64_t n, uint64_t scl,
                    int bank1)
{
    xphmg_csr_write(XPHMG_CSR_CAP_XMEM_SVMBASE, (uint64_t)(uintptr_t)base);
    xphmg_csr_write(XPHMG_CSR_CAP_XMEM_SVMIDX, (uint64_t)(uintptr_t)ix);
    xphmg_csr_write(XPHMG_CSR_CAP_XMEM_SVMSCL, scl);
    xphmg_csr_write(XPHMG_CSR_CAP_XMEM_SVMLEN, 4);
    return bank1 ? xphmg_xmem_svm((uintptr_t)buf, n, 1) : xphmg_xmem_svm((uintptr_t)buf, n, 0);
}

static void show(const char *what, const uint32_t *v, unsigned n)
{
    printf("%-9s", what);
    for (unsigned i = 0; i < n; i++)
        printf(" %u", (unsigned)v[i]);
    printf("\n");
}

int main(void)
{
    for (unsigned i = 0; i < 16; i++)
        table[i] = i * i + 1;
    uint64_t rd = svm(table, out, idx, 8, SCL_SCALE4, 0);
    printf("gather: rd=%u\n", (unsigned)rd);
    show("out", out, 8);
    rd = svm(back, out, idx, 8, SCL_SCALE4 | SCL_SCATTER, 0);
    printf("scatter: rd=%u\n", (unsigned)rd);
    show("back", back, 16);
    for (unsigned i = 0; i < 8; i++)
        out[i] = 7;
    xphmg_csr_write(XPHMG_CSR_PMASK1, 0x55); /* lanes 0, 2, 4, 6 */
    rd = svm(table, out, idx, 8, SCL_SCALE4, 1);
    printf("predicated gather (bank 1 = 0x55, merge): rd=%u\n", (unsigned)rd);
    show("out", out, 8);
    rd = svm(table, out, idx_fault, 4, SCL_SCALE4 | SCL_FOF, 0);
    printf("fault-only-first: rd=%u SVFAULTI=%u\n", (unsigned)rd,
           (unsigned)xphmg_csr_read(XPHMG_CSR_SVFAULTI));
    show("out", out, 4);
    return 0;
}
