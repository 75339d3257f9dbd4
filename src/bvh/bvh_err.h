/* bvh_err.h — the error message convention of the BVH modules: a failing call formats
 * its reason into the caller's err buffer (err may be NULL or len 0: no message) and
 * returns its failure value. */
#ifndef XPHMG_BVH_ERR_H
#define XPHMG_BVH_ERR_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>

/* Formats the message into err[len] when there is room for one. */
void bvh_verr(char *err, size_t len, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
/* The same from arguments; returns false (for bool results). */
bool bvh_fail(char *err, size_t len, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* The same; returns NULL (for pointer results). */
void *bvh_fail_null(char *err, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#endif
