/* htif.h — Spike-compatible host-target interface: the guest writes a command to its
 * `tohost` word, the host answers in `fromhost` (protocol and syscall ABI in
 * target/include/xphmg_htif.h). Supported: exit, the syscall proxy (read, write,
 * openat/open, close, lseek, fstat, fstatat, pread, pwrite, unlinkat, mkdirat, exit) and
 * the console device (putchar/getchar).
 *
 * File syscalls are confined to one host directory (`--dir`): relative paths resolve
 * beneath it, absolute paths and escapes ('..', symlinks leading out) get -EACCES, and
 * without a directory every path syscall gets -EACCES. Guest fds 0/1/2 are the host's
 * stdin/stdout/stderr (or the fds given to htif_set_stdio). Every guest pointer is
 * checked against RAM; a bad one gets -EFAULT and the host never touches memory
 * outside RAM. */
#ifndef XPHMG_SIM_HTIF_H
#define XPHMG_SIM_HTIF_H

#include <stddef.h>
#include <stdint.h>

#include "mem.h"

typedef struct htif htif;

/* tohost == 0: no HTIF (the program has no `tohost` symbol); htif_poll then never
 * reports anything. fromhost == 0: answers are not delivered (exit still works).
 * dir: host directory for file syscalls, or NULL. NULL with a message in err when dir
 * cannot be opened as a directory, or tohost/fromhost are not 8 aligned bytes of RAM. */
htif *htif_new(sim_mem *mem, uint64_t tohost, uint64_t fromhost, const char *dir, char *err,
               size_t errlen);
void htif_free(htif *h);

/* Host file descriptors behind guest fds 0, 1, 2 and the console device (default 0, 1,
 * 2; not closed by htif_free). */
void htif_set_stdio(htif *h, int in_fd, int out_fd, int err_fd);

/* stat/fstat give the guest the host's inode numbers, owners and times (1) instead of
 * values derived from the run (0, the default: errata P-303). */
void htif_set_host_stat(htif *h, int host_stat);

/* Handles a pending command, if any. Call after every store to tohost (or at least every
 * few thousand instructions). Returns 0: keep running; 1: the guest asked to exit with
 * status *exit_code; -1: protocol error the guest cannot be told about (e.g. its syscall
 * block is outside RAM): *exit_code is set to 1 and htif_error() says why. */
int htif_poll(htif *h, int *exit_code);
const char *htif_error(const htif *h);

/* The syscall proxy behind device 0 (syscall.c); htif.c owns one. Exposed for tests. */
typedef struct xsys xsys;
xsys *xsys_new(sim_mem *mem, const char *dir, char *err, size_t errlen);
void xsys_free(xsys *s);
void xsys_set_stdio(xsys *s, int in_fd, int out_fd, int err_fd);
/* stat/fstat: host values (1) or the virtual ones (0, the default; syscall.c, P-303). */
void xsys_set_host_stat(xsys *s, int host_stat);
/* a[0] = syscall number, a[1..7] = arguments. Returns the result (>= 0 or -errno, Linux
 * numbering). SYS_exit sets *exit_req = 1 and *exit_code. */
int64_t xsys_call(xsys *s, const uint64_t a[8], int *exit_req, int *exit_code);

#endif
