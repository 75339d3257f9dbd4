/* stdin — reads host stdin through the read syscall and echoes it upper-cased. */
#include <ctype.h>
#include <stdio.h>

int main(void)
{
    int c, n = 0;
    while ((c = getchar()) != EOF) {
        putchar(toupper(c));
        n++;
    }
    printf("%d bytes\n", n);
    return 0;
}
