/* print — stdout through picolibc's printf and the HTIF write syscall; stderr too. */
#include <stdio.h>

int main(void)
{
    printf("int %d unsigned %u hex %#x\n", -42, 42u, 255);
    printf("long %ld str '%s' char %c\n", -1234567890123L, "xphmg", 'R');
    printf("double %.3f %g %.2e\n", 3.14159, 0.5, 12345.0);
    puts("puts line");
    fputs("no newline yet", stdout);
    fflush(stdout);
    putchar('\n');
    fprintf(stderr, "this goes to stderr\n");
    for (int i = 0; i < 300; i++)
        putchar('a' + i % 26); /* longer than the line buffer */
    putchar('\n');
    return 0;
}
