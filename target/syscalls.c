/* syscalls.c — picolibc's POSIX layer for xphmg-sim, over the HTIF syscall proxy
 * (protocol in xphmg_htif.h). picolibc's tinystdio needs stdin/stdout/stderr defined by
 * the application and builds fopen() on open/read/write/lseek/close; sbrk is here too
 * (bounded by the RAM the simulator really has). Flags, errno values and struct
 * stat are translated here between picolibc's numbering and the Linux numbering the
 * host speaks. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include "xphmg_htif.h"

extern volatile uint64_t tohost;
extern volatile uint64_t fromhost;

static volatile uint64_t magic_mem[8] __attribute__((aligned(64)));

/* A host without a syscall proxy (qemu's spike machine) never answers: after this many
 * polls of fromhost the proxy is taken to be absent and console output falls back to the
 * HTIF console device, which qemu does implement. xphmg-sim answers before the guest's
 * next instruction and Spike within a few thousand instructions, so the limit only ever
 * expires where no answer is coming. */
#define HTIF_SPIN_LIMIT 1000000UL
static int no_proxy;

static int wait_fromhost(void)
{
    for (unsigned long i = 0; fromhost == 0; i++)
        if (i == HTIF_SPIN_LIMIT) return -1;
    fromhost = 0;
    __sync_synchronize(); /* also makes the compiler reload what the host wrote */
    return 0;
}

static long htif_syscall(long n, long a0, long a1, long a2, long a3, long a4)
{
    if (no_proxy) return -XE_NOSYS;
    magic_mem[0] = (uint64_t)n;
    magic_mem[1] = (uint64_t)a0;
    magic_mem[2] = (uint64_t)a1;
    magic_mem[3] = (uint64_t)a2;
    magic_mem[4] = (uint64_t)a3;
    magic_mem[5] = (uint64_t)a4;
    magic_mem[6] = 0;
    magic_mem[7] = 0;
    __sync_synchronize();
    tohost = (uint64_t)(uintptr_t)magic_mem;
    if (wait_fromhost() != 0) {
        no_proxy = 1;
        return -XE_NOSYS;
    }
    return (long)magic_mem[0];
}

/* HTIF console device: one byte to the host's console. */
static void console_putc(unsigned char c)
{
    __sync_synchronize();
    tohost = ((uint64_t)XHTIF_DEV_CONSOLE << 56) | (1ULL << 48) | c;
    (void)wait_fromhost();
}

/* Linux errno -> picolibc errno. 1..34 are the same in both. */
static int to_errno(long e)
{
    if (e >= 1 && e <= 34) return (int)e;
    switch (e) {
    case XE_NAMETOOLONG:
        return ENAMETOOLONG;
    case XE_NOSYS:
        return ENOSYS;
    case XE_NOTEMPTY:
        return ENOTEMPTY;
    case XE_LOOP:
        return ELOOP;
    default:
        return EIO;
    }
}

static long ret(long r)
{
    if (r < 0 && r > -4096) {
        errno = to_errno(-r);
        return -1;
    }
    return r;
}

static long to_xflags(int flags)
{
    long x = 0;
    switch (flags & O_ACCMODE) {
    case O_WRONLY:
        x = XO_WRONLY;
        break;
    case O_RDWR:
        x = XO_RDWR;
        break;
    default:
        x = XO_RDONLY;
        break;
    }
    if (flags & O_CREAT) x |= XO_CREAT;
    if (flags & O_EXCL) x |= XO_EXCL;
    if (flags & O_TRUNC) x |= XO_TRUNC;
    if (flags & O_APPEND) x |= XO_APPEND;
    if (flags & O_DIRECTORY) x |= XO_DIRECTORY;
    return x;
}

static void from_xstat(const xhtif_stat *k, struct stat *st)
{
    memset(st, 0, sizeof *st);
    st->st_dev = (dev_t)k->st_dev;
    st->st_ino = (ino_t)k->st_ino;
    st->st_mode = (mode_t)k->st_mode; /* S_IF* and permission bits agree with Linux */
    st->st_nlink = (nlink_t)k->st_nlink;
    st->st_uid = (uid_t)k->st_uid;
    st->st_gid = (gid_t)k->st_gid;
    st->st_rdev = (dev_t)k->st_rdev;
    st->st_size = (off_t)k->st_size;
    st->st_blksize = (blksize_t)k->st_blksize;
    st->st_blocks = (blkcnt_t)k->st_blocks;
    st->st_atim.tv_sec = k->st_atime_sec;
    st->st_atim.tv_nsec = (long)k->st_atime_nsec;
    st->st_mtim.tv_sec = k->st_mtime_sec;
    st->st_mtim.tv_nsec = (long)k->st_mtime_nsec;
    st->st_ctim.tv_sec = k->st_ctime_sec;
    st->st_ctim.tv_nsec = (long)k->st_ctime_nsec;
}

/* ---- stdio: line-buffered console streams over write(1/2) ---- */

typedef struct {
    int fd, n;
    char buf[256];
} linebuf;

static linebuf out_buf = {1, 0, {0}}, err_buf = {2, 0, {0}};

static void lb_flush(linebuf *b)
{
    if (b->n > 0 && write(b->fd, b->buf, (size_t)b->n) < 0 && no_proxy)
        for (int i = 0; i < b->n; i++)
            console_putc((unsigned char)b->buf[i]);
    b->n = 0;
}

static int lb_put(linebuf *b, char c)
{
    b->buf[b->n++] = c;
    if (c == '\n' || b->n == (int)sizeof b->buf) lb_flush(b);
    return (unsigned char)c;
}

static int out_put(char c, FILE *f)
{
    (void)f;
    return lb_put(&out_buf, c);
}

static int err_put(char c, FILE *f)
{
    (void)f;
    return lb_put(&err_buf, c);
}

static int out_flush(FILE *f)
{
    (void)f;
    lb_flush(&out_buf);
    return 0;
}

static int err_flush(FILE *f)
{
    (void)f;
    lb_flush(&err_buf);
    return 0;
}

static int in_get(FILE *f)
{
    (void)f;
    unsigned char c = 0;
    lb_flush(&out_buf); /* a prompt shows before the program waits for input */
    return read(0, &c, 1) == 1 ? c : EOF;
}

static FILE stdin_file = FDEV_SETUP_STREAM(NULL, in_get, NULL, _FDEV_SETUP_READ);
static FILE stdout_file = FDEV_SETUP_STREAM(out_put, NULL, out_flush, _FDEV_SETUP_WRITE);
static FILE stderr_file = FDEV_SETUP_STREAM(err_put, NULL, err_flush, _FDEV_SETUP_WRITE);
FILE *const stdin = &stdin_file;
FILE *const stdout = &stdout_file;
FILE *const stderr = &stderr_file;

/* ---- POSIX calls ---- */

ssize_t read(int fd, void *buf, size_t n)
{
    return ret(htif_syscall(XSYS_read, fd, (long)(uintptr_t)buf, (long)n, 0, 0));
}

ssize_t write(int fd, const void *buf, size_t n)
{
    return ret(htif_syscall(XSYS_write, fd, (long)(uintptr_t)buf, (long)n, 0, 0));
}

int open(const char *path, int flags, ...)
{
    int mode = 0;
    if (flags & O_CREAT) {
        va_list ap;
        va_start(ap, flags);
        mode = va_arg(ap, int);
        va_end(ap);
    }
    return (int)ret(htif_syscall(XSYS_openat, XAT_FDCWD, (long)(uintptr_t)path,
                                 (long)strlen(path) + 1, to_xflags(flags), mode));
}

int close(int fd)
{
    if (fd == 1) lb_flush(&out_buf);
    if (fd == 2) lb_flush(&err_buf);
    return (int)ret(htif_syscall(XSYS_close, fd, 0, 0, 0, 0));
}

off_t lseek(int fd, off_t off, int whence)
{
    /* SEEK_SET/CUR/END are 0/1/2 on both sides. */
    return (off_t)ret(htif_syscall(XSYS_lseek, fd, (long)off, whence, 0, 0));
}

int fstat(int fd, struct stat *st)
{
    xhtif_stat k = {0};
    long r = ret(htif_syscall(XSYS_fstat, fd, (long)(uintptr_t)&k, 0, 0, 0));
    if (r == 0) from_xstat(&k, st);
    return (int)r;
}

int stat(const char *path, struct stat *st)
{
    xhtif_stat k = {0};
    long r = ret(htif_syscall(XSYS_fstatat, XAT_FDCWD, (long)(uintptr_t)path,
                              (long)strlen(path) + 1, (long)(uintptr_t)&k, 0));
    if (r == 0) from_xstat(&k, st);
    return (int)r;
}

int unlink(const char *path)
{
    return (int)ret(htif_syscall(XSYS_unlinkat, XAT_FDCWD, (long)(uintptr_t)path,
                                 (long)strlen(path) + 1, 0, 0));
}

int mkdir(const char *path, mode_t mode)
{
    return (int)ret(htif_syscall(XSYS_mkdirat, XAT_FDCWD, (long)(uintptr_t)path,
                                 (long)strlen(path) + 1, (long)mode, 0));
}

int isatty(int fd)
{
    return fd >= 0 && fd <= 2;
}

/* ---- heap: picolibc's malloc grows the heap with sbrk ----
 * The heap runs from link.ld's __heap_start to the limit crt0 computed: __stack_size
 * below the stack the simulator set up at the top of its RAM (so the heap follows
 * --ram), or link.ld's __heap_end when started with sp = 0 (qemu, Spike). Running out
 * is a NULL from malloc, never a fault. */
extern char __heap_start[];
extern char *__xphmg_heap_limit;
static char *heap_brk;

void *sbrk(ptrdiff_t incr)
{
    if (!heap_brk) heap_brk = __heap_start;
    char *limit = __xphmg_heap_limit;
    if (limit < __heap_start) limit = __heap_start;
    if (incr < 0 ? -incr > heap_brk - __heap_start : incr > limit - heap_brk) {
        errno = ENOMEM;
        return (void *)-1;
    }
    char *old = heap_brk;
    heap_brk += incr;
    return old;
}

/* ---- time: the CLINT's mtime (0x0200bff8), counting at 10 MHz ----
 * Simulated time, not the host's clock: xphmg-sim advances mtime every 100 retired
 * instructions, so runs are reproducible; on qemu's spike machine mtime is real time. */
#define CLINT_MTIME_ADDR 0x0200bff8UL
#define MTIME_HZ         10000000ULL

static uint64_t mtime(void)
{
    return *(volatile uint64_t *)CLINT_MTIME_ADDR;
}

int gettimeofday(struct timeval *restrict tv, void *restrict tz)
{
    (void)tz;
    uint64_t t = mtime();
    if (tv) {
        tv->tv_sec = (time_t)(t / MTIME_HZ);
        tv->tv_usec = (suseconds_t)(t % MTIME_HZ / (MTIME_HZ / 1000000));
    }
    return 0;
}

clock_t times(struct tms *buf)
{
    uint64_t t = mtime();
    clock_t c = (clock_t)(t / (MTIME_HZ / CLOCKS_PER_SEC));
    if (buf) {
        buf->tms_utime = c;
        buf->tms_stime = buf->tms_cutime = buf->tms_cstime = 0;
    }
    return c;
}

/* ---- process: one program, pid 1; a signal (abort, assert) ends it with 128 + sig ---- */

pid_t getpid(void)
{
    return 1;
}

int kill(pid_t pid, int sig)
{
    if (pid != 1) {
        errno = ESRCH;
        return -1;
    }
    _exit(128 + sig);
}

void _exit(int status)
{
    lb_flush(&out_buf);
    lb_flush(&err_buf);
    /* Exit request: payload = status << 1 | 1, status kept within the 47-bit payload. */
    uint64_t v = (((uint64_t)(uint32_t)status & 0x7fffffffffffULL) << 1) | 1;
    __sync_synchronize();
    for (;;)
        tohost = v;
}
