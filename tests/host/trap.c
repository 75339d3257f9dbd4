/* trap — an unexpected trap in a C program ends it with status 128 + mcause through
 * crt0's default handler (docs/target.md): never a hang, never a silent success. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 2) return 1;
    printf("%s\n", argv[1]);
    fflush(stdout);
    if (strcmp(argv[1], "illegal") == 0) __asm__ volatile(".4byte 0"); /* mcause 2 */
    if (strcmp(argv[1], "ebreak") == 0) __asm__ volatile("ebreak");    /* mcause 3 */
    if (strcmp(argv[1], "load") == 0) {                                /* mcause 5 */
        volatile uintptr_t addr = 0x10; /* volatile: no compile-time bounds warning */
        volatile uint64_t *p = (volatile uint64_t *)addr;
        return (int)*p;
    }
    if (strcmp(argv[1], "ecall") == 0) __asm__ volatile("ecall"); /* mcause 11 */
    return 2;
}
