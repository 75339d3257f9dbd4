/* CSR access and system instructions for the objdump differential test: every
 * Zicsr form with named and numbered CSRs (including the XPHMG range 0x7C0-0x7FF),
 * the counters, fence.i, ecall/ebreak/wfi as inline asm. */
#include <stdint.h>

#define CSRR(name)                                                                                 \
    ({                                                                                             \
        uint64_t v;                                                                                \
        __asm__ volatile("csrr %0, " #name : "=r"(v));                                             \
        v;                                                                                         \
    })

uint64_t counters(void)
{
    return CSRR(cycle) + CSRR(time) + CSRR(instret) + CSRR(mhartid) + CSRR(misa);
}

uint64_t machine(uint64_t x)
{
    uint64_t old;
    __asm__ volatile("csrrw %0, mscratch, %1" : "=r"(old) : "r"(x));
    __asm__ volatile("csrrs %0, mstatus, %1" : "=r"(old) : "r"(x & 8));
    __asm__ volatile("csrrc %0, mie, %1" : "=r"(old) : "r"(x));
    __asm__ volatile("csrrwi %0, fcsr, 5" : "=r"(old));
    __asm__ volatile("csrrsi %0, frm, 3" : "=r"(old));
    __asm__ volatile("csrrci %0, fflags, 1" : "=r"(old));
    __asm__ volatile("csrw mtvec, %0" : : "r"(x));
    __asm__ volatile("csrs 0x7c2, %0" : : "r"(x));
    __asm__ volatile("csrc 0x7d0, %0" : : "r"(x));
    __asm__ volatile("csrr %0, 0x7c0" : "=r"(old));
    __asm__ volatile("csrrw %0, 0x7e1, %1" : "=r"(old) : "r"(old));
    return old;
}

void system_ops(void)
{
    __asm__ volatile("fence.i");
    __asm__ volatile("fence iorw, iorw");
    __asm__ volatile("fence r, rw");
    __asm__ volatile("wfi");
    __asm__ volatile("ebreak");
    __asm__ volatile("ecall");
}

int main(void)
{
    uint64_t a = counters();
    a += machine(a);
    if (a == 12345) system_ops();
    return (int)(a & 1);
}
