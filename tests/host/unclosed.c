/* unclosed — a file the program never fcloses still gets its buffered data when the
 * program exits (C 7.22.4.4: exit flushes open streams; target/stdio_exit.c). */
#include <stdio.h>

int main(void)
{
    FILE *f = fopen("unclosed.txt", "w");
    if (!f) return 1;
    fprintf(f, "written %d bytes before exit\n", 28);
    puts("exiting without fclose");
    return 0;
}
