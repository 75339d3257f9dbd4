/* alloc — the heap (picolibc malloc over sbrk, bounded by link.ld's __heap_end). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
    enum { N = 64 };
    unsigned char *blk[N];
    for (int i = 0; i < N; i++) {
        size_t sz = 16 + (size_t)i * 200;
        blk[i] = malloc(sz);
        if (!blk[i]) return 1;
        memset(blk[i], i, sz);
    }
    for (int i = 0; i < N; i += 2)
        free(blk[i]);
    for (int i = 1; i < N; i += 2) {
        size_t sz = 16 + (size_t)i * 200;
        for (size_t k = 0; k < sz; k++)
            if (blk[i][k] != (unsigned char)i) return 2;
        blk[i] = realloc(blk[i], sz * 2);
        if (!blk[i] || blk[i][sz - 1] != (unsigned char)i) return 3;
    }
    /* 8 MiB in one piece fits the 63 MiB heap; 1 GiB does not and must fail cleanly. */
    void *big = malloc(8u << 20);
    void *huge = malloc(1u << 30);
    printf("big %s, huge %s\n", big ? "ok" : "NULL", huge ? "ok" : "NULL");
    free(big);
    for (int i = 1; i < N; i += 2)
        free(blk[i]);
    int *z = calloc(1000, sizeof *z);
    for (int i = 0; i < 1000; i++)
        if (z[i]) return 4;
    free(z);
    puts("alloc ok");
    return 0;
}
