/* misc — the rest of the C runtime glue: time from the CLINT's mtime (simulated, so it
 * advances with executed instructions), abort() and assert() ending the program with
 * 128 + SIGABRT, getpid, the heap limit (sbrk). */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 2) return 1;
    if (strcmp(argv[1], "time") == 0) {
        struct timeval a, b;
        gettimeofday(&a, NULL);
        clock_t c0 = clock();
        volatile unsigned long x = 0;
        for (unsigned long i = 0; i < 200000; i++)
            x += i; /* > 1M instructions */
        gettimeofday(&b, NULL);
        clock_t c1 = clock();
        long us = (b.tv_sec - a.tv_sec) * 1000000L + (b.tv_usec - a.tv_usec);
        printf("time advances: %s, clock advances: %s, pid %d\n", us > 0 ? "yes" : "no",
               c1 > c0 ? "yes" : "no", (int)getpid());
        return 0;
    }
    if (strcmp(argv[1], "heap") == 0 && argc > 2) {
        /* malloc N MiB and touch all of it: the heap follows the simulator's RAM. */
        size_t n = (size_t)atoi(argv[2]) << 20;
        char *p = malloc(n);
        if (p) memset(p, 1, n);
        printf("%s MiB: %s\n", argv[2], p ? "ok" : "NULL");
        return 0;
    }
    if (strcmp(argv[1], "abort") == 0) abort();
    if (strcmp(argv[1], "assert") == 0) assert(argc == 99);
    return 2;
}
