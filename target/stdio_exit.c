/* stdio_exit.c — exit() flushes the files the program left open, as C requires
 * (7.22.4.4); picolibc's tinystdio does not keep a list of open FILEs, so this file keeps
 * one. Link with -Wl,--wrap=fdopen,--wrap=fclose (cmake/guest.cmake does): fopen() opens
 * through fdopen(), so every stream passes through __wrap_fdopen, and __wrap_fclose drops
 * it again before it is freed. Without this file nothing changes except that unclosed
 * files lose their buffered tail. */
#include <stdio.h>
#include <stdlib.h>

#define MAX_OPEN 64 /* the simulator gives a guest at most 61 file descriptors */

FILE *__real_fdopen(int fd, const char *mode);
int __real_fclose(FILE *f);
FILE *__wrap_fdopen(int fd, const char *mode);
int __wrap_fclose(FILE *f);

static FILE *open_files[MAX_OPEN];

static void flush_open_files(void)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_files[i]) fflush(open_files[i]);
}

/* Registered first, so it runs after the program's own atexit handlers. */
__attribute__((constructor)) static void register_flush(void)
{
    atexit(flush_open_files);
}

FILE *__wrap_fdopen(int fd, const char *mode)
{
    FILE *f = __real_fdopen(fd, mode);
    if (f)
        for (int i = 0; i < MAX_OPEN; i++)
            if (!open_files[i]) {
                open_files[i] = f;
                break;
            }
    return f;
}

int __wrap_fclose(FILE *f)
{
    for (int i = 0; i < MAX_OPEN; i++)
        if (open_files[i] == f) open_files[i] = NULL;
    return __real_fclose(f);
}
