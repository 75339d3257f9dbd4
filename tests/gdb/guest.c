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

int main(void)
{
    result = compute(5);
    printf("result %ld\n", result);
    return 0;
}
