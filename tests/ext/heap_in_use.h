/* heap_in_use.h — bytes the C library's allocator has handed out and not got back
 * (glibc mallinfo2: arena blocks plus mmapped ones), for tests that repeat an
 * allocate/free cycle and check nothing stays behind in a normal (non-sanitizer) build.
 * Under ASan the allocator is ASan's and this stays constant; LSan checks leaks there.
 * glibc counts a chunk held in a thread cache as in use, so the tests using this run
 * with the cache off (GLIBC_TUNABLES in tests/ext/CMakeLists.txt). */
#ifndef XPHMG_TEST_HEAP_IN_USE_H
#define XPHMG_TEST_HEAP_IN_USE_H

#include <malloc.h>
#include <stddef.h>

static inline size_t heap_in_use(void)
{
    struct mallinfo2 mi = mallinfo2();
    return mi.uordblks + mi.hblkhd;
}

#endif
