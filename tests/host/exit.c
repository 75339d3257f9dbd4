/* exit — the exit status reaches the host: `exit N` calls exit(N), `return N` returns N
 * from main, `abort` calls abort(). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    if (argc < 3) return 100;
    int n = atoi(argv[2]);
    printf("%s %d\n", argv[1], n);
    if (strcmp(argv[1], "exit") == 0) exit(n);
    if (strcmp(argv[1], "return") == 0) return n;
    return 101;
}
