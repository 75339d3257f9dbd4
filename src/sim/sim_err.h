/* sim_err.h — the one-line error messages of the simulator's host side (loader,
 * HTIF, syscalls): printf-style into a caller's buffer, which may be NULL. */
#ifndef XPHMG_SIM_ERR_H
#define XPHMG_SIM_ERR_H

#include <stddef.h>

void sim_errf(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#endif
