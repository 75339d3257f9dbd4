/* guest.c — the program gdb_session (gdb_session.sh) debugs through xphmg-sim --gdb-wait:
 * a function to break in, a loop to step, a global store to watch. Built at -O0 so
 * every source line and variable is where GDB expects it. */
#include <stdio.h>

volatile long counter; /* watched */
long result;

__attribute__((noinline)) long compute(long n)
{
    long acc = 0;
    for (long i = 1; i <= n; i++)
        acc += i * i;
    counter = acc;
    return acc;
}

/* Two consecutive CAP.XMEM writes (DOM 0x7E6 = a0, DESCPOL 0x7ED = a1): the session steps
 * them one instruction at a time and reads both CSRs at each boundary (XMEM 11.1.10). */
void xmem_two_writes(long dom, long descpol);
__asm__(".globl xmem_two_writes\n"
        "xmem_two_writes:\n"
        "  csrw 0x7E6, a0\n"
        "  csrw 0x7ED, a1\n"
        "  ret\n");

int main(void)
{
    xmem_two_writes(2, 0x44);
    result = compute(5);
    printf("result %ld\n", result);
    return 0;
}
