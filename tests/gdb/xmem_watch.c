/* xmem_watch.c — the program gdb_xmem_watch.sh debugs: every guest-visible memory
 * access path of the XMEM unit writes or reads one variable of its own, so a GDB
 * watchpoint on that variable can only be hit by that XPHMG instruction. */
#include <stdint.h>

#include "xphmg_insn.h"

volatile uint64_t stg_target;            /* written by xmem.stg */
volatile uint64_t ldg_source = 0x1234;   /* read by xmem.ldg */
volatile uint64_t cpy_source = 0xabcdef; /* copied by xlds.cpy ... */
volatile uint64_t cpy_target;            /* ... into this */
volatile uint64_t svm_table[4];          /* written by an SVMEM scatter */
static uint64_t svm_buffer[4] = {11, 22, 33, 44};
static uint32_t svm_index[4] = {3, 2, 1, 0}; /* element 3 (44) goes to svm_table[0] */
uint64_t seen;

int main(void)
{
    xphmg_xmem_stg(0x5a5a, (uint64_t)&stg_target, 0);
    seen = xphmg_xmem_ldg((uint64_t)&ldg_source, 0);
    (void)xphmg_xlds_cpy((uint64_t)&cpy_target, (uint64_t)&cpy_source, 8, 0);
    /* scatter (GS = 1) of 8-byte elements, 32-bit indices scaled by 8 */
    xphmg_csr_write(XPHMG_CSR_CAP_XMEM_SVMBASE, (uint64_t)svm_table);
    xphmg_csr_write(XPHMG_CSR_CAP_XMEM_SVMIDX, (uint64_t)svm_index);
    xphmg_csr_write(XPHMG_CSR_CAP_XMEM_SVMSCL,
                    (3u << CAP_XMEM_SVMSCL_SCALE_LOG2_SHIFT) | (1u << CAP_XMEM_SVMSCL_GS_SHIFT));
    xphmg_csr_write(XPHMG_CSR_CAP_XMEM_SVMLEN, 8);
    uint64_t done = xphmg_xmem_svm((uint64_t)svm_buffer, 4, 0);
    /* 0 when every path did its work */
    return !(seen == 0x1234 && cpy_target == 0xabcdef && done == 4 && svm_table[0] == 44 &&
             svm_table[3] == 11);
}
