/* bvh_err.c — error messages of the BVH modules (bvh_err.h). */
#include "bvh_err.h"

#include <stdio.h>

void bvh_verr(char *err, size_t len, const char *fmt, va_list ap)
{
    if (err && len) vsnprintf(err, len, fmt, ap);
}

bool bvh_fail(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bvh_verr(err, len, fmt, ap);
    va_end(ap);
    return false;
}

void *bvh_fail_null(char *err, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    bvh_verr(err, len, fmt, ap);
    va_end(ap);
    return NULL;
}
