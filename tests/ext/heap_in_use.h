/* heap_in_use.h — bytes the C library's allocator has handed out and not got back
 * (glibc mallinfo2: arena blocks plus mmapped ones), for tests that repeat an
 * allocate/free cycle and check nothing stays behind in a normal (non-sanitizer) build.
 * Under ASan the allocator is ASan's and this stays constant; LSan checks leaks there.
 * glibc counts a chunk held in a thread cache as in use, so a cached chunk would make
 * the balance depend on what ran before: a program including this header runs with the
 * cache off, whether CTest or a shell starts it (heap_balance_env). */
#ifndef XPHMG_TEST_HEAP_IN_USE_H
#define XPHMG_TEST_HEAP_IN_USE_H

#include <malloc.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define HEAP_BALANCE_TUNABLES "glibc.malloc.tcache_count=0"

/* Before main: unless GLIBC_TUNABLES already turns the thread cache off, the program starts
 * again with it off (the dynamic loader reads tunables only at start-up). glibc passes
 * argc, argv and envp to the functions of .init_array. If the program cannot start again
 * it goes on as it is, and a balance check says how many bytes differ. */
__attribute__((constructor)) static void heap_balance_env(int argc, char **argv, char **envp)
{
    (void)argc;
    (void)envp;
    const char *t = getenv("GLIBC_TUNABLES");
    if (t && strstr(t, HEAP_BALANCE_TUNABLES)) return;
    static char v[512]; /* tunables set by the caller are kept */
    size_t n = t ? strlen(t) : 0;
    if (n + sizeof HEAP_BALANCE_TUNABLES + 1 > sizeof v) return;
    if (n) {
        memcpy(v, t, n);
        v[n++] = ':';
    }
    memcpy(v + n, HEAP_BALANCE_TUNABLES, sizeof HEAP_BALANCE_TUNABLES);
    if (setenv("GLIBC_TUNABLES", v, 1) != 0) return;
    execv("/proc/self/exe", argv);
}

static inline size_t heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

/* An allocate/free cycle that leaves nothing behind: round(ctx) `warm` times (caches and
 * one-time allocations settle), then `rounds` times more, after which the heap in use must
 * be what it was before them; else the test fails, naming `what`. (A cmocka test: the
 * includer has included cmocka.h.) */
static inline void assert_heap_balanced(void (*round)(const void *ctx), const void *ctx,
                                        unsigned warm, unsigned rounds, const char *what)
{
    for (unsigned k = 0; k < warm; k++)
        round(ctx);
    size_t before = heap_in_use();
    for (unsigned k = 0; k < rounds; k++)
        round(ctx);
    size_t after = heap_in_use();
    if (after != before)
        fail_msg("%s: %zu bytes in use before, %zu after %u rounds", what, before, after, rounds);
}

#endif
