/* hello — the first program to run on xphmg-sim: prints its arguments, uses the heap,
 * and writes then reads back a file in the host directory given with --dir.
 *   xphmg-sim --dir /tmp/out build/examples/hello/hello.elf world */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    const char *who = argc > 1 ? argv[1] : "RISC-V";
    printf("Hello, %s! (argc=%d)\n", who, argc);

    /* The heap: picolibc's malloc over sbrk between __heap_start and __heap_end. */
    size_t n = 1000;
    unsigned *squares = malloc(n * sizeof *squares);
    if (!squares) {
        fprintf(stderr, "malloc failed\n");
        return 1;
    }
    unsigned long sum = 0;
    for (size_t i = 0; i < n; i++) {
        squares[i] = (unsigned)(i * i);
        sum += squares[i];
    }
    printf("sum of the first %zu squares: %lu\n", n, sum);
    free(squares);

    /* A file in the --dir directory: paths are relative to it. */
    FILE *f = fopen("hello.txt", "w");
    if (!f) {
        perror("fopen hello.txt (run with --dir DIR)");
        return 2;
    }
    fputs("written by the guest\n", f);
    fclose(f);

    char line[64] = {0};
    f = fopen("hello.txt", "r");
    if (!f || !fgets(line, sizeof line, f)) {
        perror("read back hello.txt");
        return 3;
    }
    fclose(f);
    line[strcspn(line, "\n")] = '\0';
    printf("read back: '%s'\n", line);
    return 0;
}
