/* guest.c — a guest program built against the installed target kit: picolibc stdio,
 * the kit's crt0/syscalls, and the generated CAP CSR header. */
#include <stdio.h>

#include "xphmg_cap.h"
#include "xphmg_csr.h"

int main(void)
{
    unsigned long id;
    __asm__ volatile("csrr %0, %1" : "=r"(id) : "i"(XPHMG_CSR_CAP_ID));
    printf("guest: hello from the installed kit, CAP.ID %s\n", id ? "present" : "zero");
    return 7;
}
