/* int.c — integer kernel (dhrystone-like mix): string copy/compare, struct assignment,
 * small function calls, table lookups, branches, multiply/divide. Exit status is the low
 * byte of a checksum so two simulators can be cross-checked on the same ELF. */
#include <stdint.h>
#include <string.h>

/* BENCH_SCALE (run.sh's SCALE) multiplies the outer repetitions: longer runs for timing
 * resolution; the checksum changes with it, both simulators still agree. */
#ifndef BENCH_SCALE
#define BENCH_SCALE 1
#endif

typedef struct rec {
    struct rec *next;
    int kind, val;
    char name[32];
} rec;

static rec pool[64];
static char buf1[64], buf2[64];
static const char *const words[] = {
    "DHRYSTONE PROGRAM, SOME STRING", "DHRYSTONE PROGRAM, 1'ST STRING",
    "DHRYSTONE PROGRAM, 2'ND STRING", "DHRYSTONE PROGRAM, 3'RD STRING"};

__attribute__((noinline)) static int proc_a(int a, int b)
{
    return (a * 7 + b) % 13 + (a ^ b);
}
__attribute__((noinline)) static int proc_b(rec *r, int x)
{
    rec tmp = *r;
    tmp.val += x;
    tmp.kind = (tmp.kind + 1) & 3;
    *r = tmp;
    return tmp.val;
}

int main(void)
{
    uint32_t sum = 0;
    for (int i = 0; i < 64; i++) {
        pool[i].next = &pool[(i * 17 + 5) & 63];
        pool[i].kind = i & 3;
        pool[i].val = i;
        strcpy(pool[i].name, words[i & 3]);
    }
    rec *p = pool;
    for (int iter = 0; iter < 400000 * BENCH_SCALE; iter++) {
        strcpy(buf1, words[iter & 3]);
        strcpy(buf2, p->name);
        if (strcmp(buf1, buf2) > 0) sum += 3;
        sum += (uint32_t)proc_a(iter, p->val);
        sum += (uint32_t)proc_b(p, iter & 15);
        switch (p->kind) {
        case 0:
            sum ^= sum << 3;
            break;
        case 1:
            sum += sum >> 5;
            break;
        case 2:
            sum -= (uint32_t)iter;
            break;
        default:
            sum = sum * 2654435761u;
            break;
        }
        sum += (uint32_t)(iter / (p->kind + 1));
        p = p->next;
    }
    return (int)(sum & 0xff);
}
