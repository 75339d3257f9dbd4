/* read_file.h — reads a whole file into memory, refusing one larger than a bound, so that
 * no hostile input makes a loader allocate without limit. Header-only (static inline):
 * the ISA library (static and shared), the CAP library and the tools include it without
 * a library of their own to install or link. Each caller words its own messages. */
#ifndef XPHMG_UTIL_READ_FILE_H
#define XPHMG_UTIL_READ_FILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

typedef enum {
    READ_FILE_OK,
    READ_FILE_OPEN,    /* fopen failed; errno says why */
    READ_FILE_NOMEM,   /* host out of memory */
    READ_FILE_TOO_BIG, /* more than max_bytes */
    READ_FILE_IO,      /* read error */
} read_file_status;

/* Reads the file at path into *out (malloc'd, followed by a NUL not counted in *len;
 * the caller frees it). max_bytes must be below SIZE_MAX / 2. On failure *out = NULL. */
static inline read_file_status read_file_bounded(const char *path, size_t max_bytes, char **out,
                                                 size_t *len)
{
    *out = NULL;
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return READ_FILE_OPEN;
    /* Room for one byte past the bound tells "exactly max_bytes" from "too big". */
    size_t limit = max_bytes + 1, cap = limit < ((size_t)1 << 16) ? limit : (size_t)1 << 16;
    size_t n = 0;
    char *buf = malloc(cap + 1);
    read_file_status st = READ_FILE_OK;
    while (buf) {
        n += fread(buf + n, 1, cap - n, f);
        if (n < cap) break; /* end of file or error */
        if (n == limit) {
            st = READ_FILE_TOO_BIG;
            break;
        }
        size_t ncap = cap > limit / 2 ? limit : cap * 2;
        char *nb = realloc(buf, ncap + 1);
        if (!nb) {
            free(buf);
            buf = NULL;
            break;
        }
        buf = nb;
        cap = ncap;
    }
    if (!buf)
        st = READ_FILE_NOMEM;
    else if (st == READ_FILE_OK && ferror(f))
        st = READ_FILE_IO;
    fclose(f);
    if (st != READ_FILE_OK) {
        free(buf);
        return st;
    }
    buf[n] = 0;
    *out = buf;
    *len = n;
    return READ_FILE_OK;
}

#endif
