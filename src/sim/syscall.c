/* syscall.c — the HTIF syscall proxy: guest file I/O performed on the host, confined to
 * one directory.
 *
 * Confinement: the --dir directory is opened once (O_DIRECTORY); every path is resolved
 * relative to it with openat2(RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS), which the kernel
 * enforces for '..' and symlinks alike. Where openat2 is missing (Linux < 5.6, or a
 * seccomp filter), the path is walked one component at a time with O_NOFOLLOW, so no
 * symlink is followed at all. Absolute paths and '..' components are refused up front
 * with -EACCES in both cases, so the guest sees the same answer everywhere.
 *
 * Symlinks are never followed, by either resolver (errata P-302): openat2 adds
 * RESOLVE_NO_SYMLINKS, the walk opens every component with O_NOFOLLOW and refuses a
 * final component that is a link; a symlink anywhere on a path is -EACCES.
 *
 * Only regular files and directories are opened (errata P-301): the open is
 * non-blocking (a FIFO or device in --dir cannot stall the simulator) and anything else
 * is closed again and refused with -EACCES. Created files and directories get at most
 * mode & 0777 (no set-uid/set-gid/sticky bits).
 *
 * Guest fds index a small table of host fds: the guest can reach only the files it
 * opened plus stdin/stdout/stderr, never another host fd of the simulator.
 *
 * stat/fstat are virtual by default (errata P-303), so that a run stays a pure function
 * of its inputs: st_dev 1, st_ino numbered 1, 2, ... in the order the guest first meets
 * a file, uid/gid 0, st_blksize 4096, st_blocks from the size, and all three times equal
 * to the proxy's change counter at the guest's last write/truncation of the file (0 if
 * the guest has not changed it). xsys_set_host_stat() passes the host's values through. */
#define _GNU_SOURCE 1 /* O_PATH, O_TMPFILE */
#include "htif.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <linux/openat2.h>
#include <sys/syscall.h>
#endif

#include "../../target/include/xphmg_htif.h" /* the ABI shared with the guest */
#include "sim_err.h"

#define XSYS_MAX_FD      64
#define XSYS_MAX_IO      (1u << 30) /* one read/write moves at most 1 GiB */
#define XSYS_PATHMAX     4096
#define XSYS_CREATE_MODE 0777u /* no set-uid, set-gid or sticky bit on what the guest creates */

/* One file the guest has met: its host identity and its virtual numbers (P-303). */
typedef struct {
    uint64_t dev, ino; /* host identity; ino == 0 marks a free hash slot */
    uint64_t vino;     /* guest-visible inode number, 1, 2, ... */
    uint64_t vtime;    /* change counter at the guest's last change, 0 = never */
} vnode;

struct xsys {
    sim_mem *mem;
    int root;                         /* the --dir directory, or -1 */
    int fd[XSYS_MAX_FD];              /* host fd per guest fd, -1 = closed */
    unsigned char owned[XSYS_MAX_FD]; /* fd opened by us (closed by us) */
    vnode *fd_node[XSYS_MAX_FD];      /* the file behind an owned fd (stable: see vnode_get) */
    int no_openat2;
    int host_stat;    /* pass the host's stat values through */
    vnode **nodes;    /* open-addressing hash of (dev, ino); entries allocated one by one */
    size_t nodes_cap; /* power of two */
    size_t nodes_n;
    uint64_t change_clock;
};

xsys *xsys_new(sim_mem *mem, const char *dir, char *err, size_t errlen)
{
    xsys *s = calloc(1, sizeof *s);
    if (!s) {
        sim_errf(err, errlen, "htif: out of memory");
        return NULL;
    }
    s->mem = mem;
    s->root = -1;
    for (int i = 0; i < XSYS_MAX_FD; i++)
        s->fd[i] = -1;
    s->fd[0] = 0;
    s->fd[1] = 1;
    s->fd[2] = 2;
    /* Test knob: exercise the component walk on kernels that have openat2. */
    const char *walk = getenv("XPHMG_HTIF_NO_OPENAT2");
    s->no_openat2 = walk && *walk && strcmp(walk, "0") != 0;
    if (dir) {
        s->root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (s->root < 0) {
            sim_errf(err, errlen, "--dir %s: %s", dir, strerror(errno));
            free(s);
            return NULL;
        }
    }
    return s;
}

void xsys_free(xsys *s)
{
    if (!s) return;
    for (int i = 0; i < XSYS_MAX_FD; i++)
        if (s->owned[i]) close(s->fd[i]);
    if (s->root >= 0) close(s->root);
    for (size_t i = 0; i < s->nodes_cap; i++)
        free(s->nodes[i]);
    free(s->nodes);
    free(s);
}

void xsys_set_host_stat(xsys *s, int host_stat)
{
    s->host_stat = host_stat;
}

static size_t node_hash(uint64_t dev, uint64_t ino, size_t cap)
{
    uint64_t h = (ino ^ (dev * UINT64_C(0x9e3779b97f4a7c15))) * UINT64_C(0xff51afd7ed558ccd);
    return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

/* The record of a host file, created (with the next virtual inode number) on first
 * sight. Records are separate allocations, so pointers to them survive rehashing.
 * NULL when out of memory. */
static vnode *vnode_get(xsys *s, const struct stat *st)
{
    uint64_t dev = (uint64_t)st->st_dev, ino = (uint64_t)st->st_ino + 1; /* 0 = free slot */
    if (s->nodes_cap) {
        for (size_t i = node_hash(dev, ino, s->nodes_cap);; i = (i + 1) & (s->nodes_cap - 1)) {
            vnode *n = s->nodes[i];
            if (!n) break;
            if (n->dev == dev && n->ino == ino) return n;
        }
    }
    if (2 * (s->nodes_n + 1) > s->nodes_cap) {
        size_t cap = s->nodes_cap ? 2 * s->nodes_cap : 64;
        vnode **t = calloc(cap, sizeof *t);
        if (!t) return NULL;
        for (size_t i = 0; i < s->nodes_cap; i++) {
            vnode *n = s->nodes[i];
            if (!n) continue;
            size_t j = node_hash(n->dev, n->ino, cap);
            while (t[j])
                j = (j + 1) & (cap - 1);
            t[j] = n;
        }
        free(s->nodes);
        s->nodes = t;
        s->nodes_cap = cap;
    }
    vnode *n = calloc(1, sizeof *n);
    if (!n) return NULL;
    n->dev = dev;
    n->ino = ino;
    n->vino = ++s->nodes_n;
    size_t j = node_hash(dev, ino, s->nodes_cap);
    while (s->nodes[j])
        j = (j + 1) & (s->nodes_cap - 1);
    s->nodes[j] = n;
    return n;
}

static void vnode_touch(xsys *s, vnode *n)
{
    if (n) n->vtime = ++s->change_clock;
}

void xsys_set_stdio(xsys *s, int in_fd, int out_fd, int err_fd)
{
    int v[3] = {in_fd, out_fd, err_fd};
    for (int i = 0; i < 3; i++)
        if (!s->owned[i]) s->fd[i] = v[i];
}

/* Host errno -> Linux errno. The host is Linux (same numbers); elsewhere the common
 * ones would need a table, and anything unknown becomes EIO. */
static int64_t neg_errno(int e)
{
#ifdef __linux__
    return -(int64_t)e;
#else
    switch (e) {
    case ENOENT:
        return -XE_NOENT;
    case EACCES:
        return -XE_ACCES;
    case EEXIST:
        return -XE_EXIST;
    case EBADF:
        return -XE_BADF;
    case EINVAL:
        return -XE_INVAL;
    case ENOTDIR:
        return -XE_NOTDIR;
    case EISDIR:
        return -XE_ISDIR;
    default:
        return -XE_IO;
    }
#endif
}

static int host_fd(xsys *s, uint64_t gfd)
{
    return gfd < XSYS_MAX_FD ? s->fd[gfd] : -1;
}

/* Directory fd for a guest dirfd argument of the *at calls. */
static int dir_fd(xsys *s, uint64_t gdirfd, int64_t *errout)
{
    if ((int64_t)gdirfd == XAT_FDCWD) {
        if (s->root < 0) {
            *errout = -XE_ACCES; /* no --dir: no file system at all */
            return -1;
        }
        return s->root;
    }
    if (gdirfd < 3 || host_fd(s, gdirfd) < 0) {
        *errout = -XE_BADF;
        return -1;
    }
    return s->fd[gdirfd];
}

/* Copies a guest path (length including the NUL given by the guest, as riscv-pk does)
 * into out and checks it: not empty, NUL-terminated at len-1, no absolute path, no '..'
 * component. */
static int64_t get_path(xsys *s, uint64_t addr, uint64_t len, char out[XSYS_PATHMAX])
{
    if (len == 0 || len > XSYS_PATHMAX) return len ? -XE_NAMETOOLONG : -XE_INVAL;
    const uint8_t *p = mem_ptr(s->mem, addr, len);
    if (!p) return -XE_FAULT;
    if (p[len - 1] != '\0' || memchr(p, '\0', len - 1)) return -XE_INVAL;
    memcpy(out, p, len);
    if (out[0] == '\0') return -XE_NOENT;
    if (out[0] == '/') return -XE_ACCES;
    for (const char *c = out; *c;) {
        const char *end = strchr(c, '/');
        size_t n = end ? (size_t)(end - c) : strlen(c);
        if (n == 2 && c[0] == '.' && c[1] == '.') return -XE_ACCES;
        c += n;
        while (*c == '/')
            c++;
    }
    return 0;
}

/* The *at calls' two arguments: the guest path into path (get_path's checks) and the host
 * directory it is relative to (dir_fd), the path checked first. Returns the directory, or
 * -1 with the guest errno in *errout. */
static int path_at(xsys *s, uint64_t gdirfd, uint64_t pathp, uint64_t len, char path[XSYS_PATHMAX],
                   int64_t *errout)
{
    *errout = get_path(s, pathp, len, path);
    if (*errout < 0) return -1;
    return dir_fd(s, gdirfd, errout);
}

/* The component walk follows no symlink: meeting one (ELOOP, or ENOTDIR where a
 * directory was required) is the same refusal openat2 gives for an escape. */
static int64_t walk_error(int dirfd, const char *name, int e)
{
    struct stat st;
    if (e == ELOOP) return -XE_ACCES;
    if (e == ENOTDIR && fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode))
        return -XE_ACCES;
    return neg_errno(e);
}

/* Opens path beneath dirfd. Returns a host fd or -errno (Linux numbering). */
static int64_t open_beneath(xsys *s, int dirfd, const char *path, int flags, mode_t mode)
{
    flags |= O_CLOEXEC;
#if defined(__linux__) && defined(SYS_openat2)
    if (!s->no_openat2) {
        struct open_how how;
        memset(&how, 0, sizeof how);
        how.flags = (uint64_t)flags;
        how.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0;
        how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_SYMLINKS;
        long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof how);
        if (fd >= 0) return fd;
        if (errno == EXDEV || errno == ELOOP) return -XE_ACCES; /* an escape or a symlink */
        if (errno != ENOSYS && errno != EPERM) return neg_errno(errno);
        s->no_openat2 = 1;
    }
#endif
    /* Component walk: every directory on the way opened with O_NOFOLLOW. */
    char buf[XSYS_PATHMAX];
    snprintf(buf, sizeof buf, "%s", path);
    int cur = dirfd;
    char *c = buf;
    for (;;) {
        while (*c == '/')
            c++;
        char *slash = strchr(c, '/');
        char *rest = slash;
        while (rest && *rest == '/')
            rest++;
        if (!slash || *rest == '\0') {
            /* Last component (a trailing slash keeps it a directory). */
            if (slash) *slash = '\0';
            int f = flags | O_NOFOLLOW | (slash ? O_DIRECTORY : 0);
            const char *last = *c ? c : ".";
            int fd = openat(cur, last, f, mode);
            int64_t r = fd >= 0 ? fd : walk_error(cur, last, errno);
            struct stat st;
            if (fd >= 0 && (flags & O_PATH) && fstat(fd, &st) == 0 && S_ISLNK(st.st_mode)) {
                close(fd); /* O_PATH | O_NOFOLLOW opened the link itself */
                r = -XE_ACCES;
            }
            if (cur != dirfd) close(cur);
            return r;
        }
        *slash = '\0';
        int next = openat(cur, c, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        int64_t r = next >= 0 ? 0 : walk_error(cur, c, errno);
        if (cur != dirfd) close(cur);
        if (next < 0) return r;
        cur = next;
        c = rest;
    }
}

/* Splits "a/b/c" into a host fd for "a/b" (beneath dirfd) and the name "c". *pfd must
 * be closed by the caller when it differs from dirfd. */
static int64_t open_parent(xsys *s, int dirfd, char *path, int *pfd, const char **name)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        path[--n] = '\0';
    char *slash = strrchr(path, '/');
    if (!slash) {
        *pfd = dirfd;
        *name = path;
        return 0;
    }
    *slash = '\0';
    *name = slash + 1;
    int64_t fd = open_beneath(s, dirfd, path, O_RDONLY | O_DIRECTORY, 0);
    if (fd < 0) return fd;
    *pfd = (int)fd;
    return 0;
}

static int host_open_flags(uint64_t x)
{
    int f;
    switch (x & XO_ACCMODE) {
    case XO_WRONLY:
        f = O_WRONLY;
        break;
    case XO_RDWR:
        f = O_RDWR;
        break;
    default:
        f = O_RDONLY;
        break;
    }
    if (x & XO_CREAT) f |= O_CREAT;
    if (x & XO_EXCL) f |= O_EXCL;
    if (x & XO_TRUNC) f |= O_TRUNC;
    if (x & XO_APPEND) f |= O_APPEND;
    if (x & XO_DIRECTORY) f |= O_DIRECTORY;
    return f;
}

static int64_t sys_openat(xsys *s, uint64_t gdirfd, uint64_t pathp, uint64_t len, uint64_t flags,
                          uint64_t mode)
{
    char path[XSYS_PATHMAX];
    int64_t r;
    int dfd = path_at(s, gdirfd, pathp, len, path, &r);
    if (dfd < 0) return r;
    int slot = 3;
    while (slot < XSYS_MAX_FD && s->fd[slot] >= 0)
        slot++;
    if (slot == XSYS_MAX_FD) return -XE_MFILE;
    int hflags = host_open_flags(flags);
    r = open_beneath(s, dfd, path, hflags | O_NONBLOCK, (mode_t)(mode & XSYS_CREATE_MODE));
    if (r == neg_errno(ENXIO)) return -XE_ACCES; /* a FIFO without a reader, a device: not a file */
    if (r < 0) return r;
    int fd = (int)r;
    struct stat st;
    if (fstat(fd, &st) != 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) ||
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0) {
        close(fd);
        return -XE_ACCES;
    }
    vnode *n = vnode_get(s, &st);
    if (!n) {
        close(fd);
        return -XE_NOMEM;
    }
    if ((hflags & O_TRUNC) || (hflags & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
        vnode_touch(s, n);
    s->fd[slot] = fd;
    s->owned[slot] = 1;
    s->fd_node[slot] = n;
    return slot;
}

static int64_t sys_close(xsys *s, uint64_t gfd)
{
    int fd = host_fd(s, gfd);
    if (fd < 0) return -XE_BADF;
    if (s->owned[gfd] && close(fd) != 0 && errno != EINTR) {
        int e = errno;
        s->fd[gfd] = -1;
        s->owned[gfd] = 0;
        s->fd_node[gfd] = NULL;
        return neg_errno(e);
    }
    s->fd[gfd] = -1; /* closing 0/1/2 hides them from the guest; the host keeps them */
    s->owned[gfd] = 0;
    s->fd_node[gfd] = NULL;
    return 0;
}

static int64_t sys_rw(xsys *s, int write_, uint64_t gfd, uint64_t buf, uint64_t len, int positional,
                      uint64_t off)
{
    int fd = host_fd(s, gfd);
    if (fd < 0) return -XE_BADF;
    if (len > XSYS_MAX_IO) len = XSYS_MAX_IO;
    uint8_t *p = len ? mem_ptr(s->mem, buf, len) : NULL;
    if (len && !p) return -XE_FAULT;
    ssize_t r;
    do {
        if (write_)
            r = positional ? pwrite(fd, p, len, (off_t)off) : write(fd, p, len);
        else
            r = positional ? pread(fd, p, len, (off_t)off) : read(fd, p, len);
    } while (r < 0 && errno == EINTR);
    if (r < 0) return neg_errno(errno);
    if (!write_ && r > 0) mem_note_write(s->mem, buf, (uint64_t)r);
    if (write_ && r > 0) vnode_touch(s, s->fd_node[gfd]);
    return r;
}

static int64_t put_guest_stat(xsys *s, const xhtif_stat *k, uint8_t *p, uint64_t addr)
{
    _Static_assert(sizeof *k == XHTIF_STAT_SIZE, "guest struct stat is 128 bytes");
    memcpy(p, k, sizeof *k); /* little-endian host, like the guest */
    mem_note_write(s->mem, addr, sizeof *k);
    return 0;
}

static int64_t put_stat(xsys *s, const struct stat *st, uint64_t addr)
{
    uint8_t *p = mem_ptr(s->mem, addr, XHTIF_STAT_SIZE);
    if (!p) return -XE_FAULT;
    xhtif_stat k;
    memset(&k, 0, sizeof k);
    if (!s->host_stat) {
        vnode *n = vnode_get(s, st);
        if (!n) return -XE_NOMEM;
        k.st_dev = 1;
        k.st_ino = n->vino;
        k.st_mode = (uint32_t)st->st_mode;
        k.st_nlink = (uint32_t)st->st_nlink;
        k.st_size = (int64_t)st->st_size;
        k.st_blksize = 4096;
        k.st_blocks = ((int64_t)st->st_size + 511) / 512;
        k.st_atime_sec = k.st_mtime_sec = k.st_ctime_sec = (int64_t)n->vtime;
        return put_guest_stat(s, &k, p, addr);
    }
    k.st_dev = (uint64_t)st->st_dev;
    k.st_ino = (uint64_t)st->st_ino;
    k.st_mode = (uint32_t)st->st_mode; /* S_IF* and permission bits: Linux values */
    k.st_nlink = (uint32_t)st->st_nlink;
    k.st_uid = (uint32_t)st->st_uid;
    k.st_gid = (uint32_t)st->st_gid;
    k.st_rdev = (uint64_t)st->st_rdev;
    k.st_size = (int64_t)st->st_size;
    k.st_blksize = (int32_t)st->st_blksize;
    k.st_blocks = (int64_t)st->st_blocks;
    k.st_atime_sec = (int64_t)st->st_atim.tv_sec;
    k.st_atime_nsec = (uint64_t)st->st_atim.tv_nsec;
    k.st_mtime_sec = (int64_t)st->st_mtim.tv_sec;
    k.st_mtime_nsec = (uint64_t)st->st_mtim.tv_nsec;
    k.st_ctime_sec = (int64_t)st->st_ctim.tv_sec;
    k.st_ctime_nsec = (uint64_t)st->st_ctim.tv_nsec;
    return put_guest_stat(s, &k, p, addr);
}

static int64_t sys_fstat(xsys *s, uint64_t gfd, uint64_t addr)
{
    int fd = host_fd(s, gfd);
    if (fd < 0) return -XE_BADF;
    struct stat st;
    if (fstat(fd, &st) != 0) return neg_errno(errno);
    return put_stat(s, &st, addr);
}

static int64_t sys_fstatat(xsys *s, uint64_t gdirfd, uint64_t pathp, uint64_t len, uint64_t addr)
{
    char path[XSYS_PATHMAX];
    int64_t r;
    int dfd = path_at(s, gdirfd, pathp, len, path, &r);
    if (dfd < 0) return r;
    r = open_beneath(s, dfd, path, O_PATH, 0);
    if (r < 0) return r;
    struct stat st;
    int ok = fstat((int)r, &st);
    int e = errno;
    close((int)r);
    if (ok != 0) return neg_errno(e);
    return put_stat(s, &st, addr);
}

static int64_t sys_unlink_mkdir(xsys *s, int mk, uint64_t gdirfd, uint64_t pathp, uint64_t len,
                                uint64_t arg)
{
    char path[XSYS_PATHMAX];
    int64_t r;
    int dfd = path_at(s, gdirfd, pathp, len, path, &r);
    if (dfd < 0) return r;
    int pfd;
    const char *name;
    r = open_parent(s, dfd, path, &pfd, &name);
    if (r < 0) return r;
    int ok;
    if (strcmp(name, ".") == 0 || name[0] == '\0') {
        errno = EINVAL;
        ok = -1;
    } else if (mk) {
        ok = mkdirat(pfd, name, (mode_t)(arg & XSYS_CREATE_MODE));
    } else {
        ok = unlinkat(pfd, name, (arg & XAT_REMOVEDIR) ? AT_REMOVEDIR : 0);
    }
    int e = errno;
    if (pfd != dfd) close(pfd);
    return ok == 0 ? 0 : neg_errno(e);
}

int64_t xsys_call(xsys *s, const uint64_t a[8], int *exit_req, int *exit_code)
{
    *exit_req = 0;
    switch (a[0]) {
    case XSYS_exit:
        *exit_req = 1;
        *exit_code = (int)(int32_t)a[1];
        return 0;
    case XSYS_read:
        return sys_rw(s, 0, a[1], a[2], a[3], 0, 0);
    case XSYS_write:
        return sys_rw(s, 1, a[1], a[2], a[3], 0, 0);
    case XSYS_pread:
        return sys_rw(s, 0, a[1], a[2], a[3], 1, a[4]);
    case XSYS_pwrite:
        return sys_rw(s, 1, a[1], a[2], a[3], 1, a[4]);
    case XSYS_openat:
        return sys_openat(s, a[1], a[2], a[3], a[4], a[5]);
    case XSYS_open:
        return sys_openat(s, (uint64_t)(int64_t)XAT_FDCWD, a[1], a[2], a[3], a[4]);
    case XSYS_close:
        return sys_close(s, a[1]);
    case XSYS_lseek: {
        int fd = host_fd(s, a[1]);
        if (fd < 0) return -XE_BADF;
        if (a[3] > 2) return -XE_INVAL;
        static const int wh[3] = {SEEK_SET, SEEK_CUR, SEEK_END};
        off_t r = lseek(fd, (off_t)a[2], wh[a[3]]);
        return r < 0 ? neg_errno(errno) : (int64_t)r;
    }
    case XSYS_fstat:
        return sys_fstat(s, a[1], a[2]);
    case XSYS_fstatat:
        return sys_fstatat(s, a[1], a[2], a[3], a[4]);
    case XSYS_unlinkat:
        return sys_unlink_mkdir(s, 0, a[1], a[2], a[3], a[4]);
    case XSYS_unlink:
        return sys_unlink_mkdir(s, 0, (uint64_t)(int64_t)XAT_FDCWD, a[1], a[2], 0);
    case XSYS_mkdirat:
        return sys_unlink_mkdir(s, 1, a[1], a[2], a[3], a[4]);
    default:
        return -XE_NOSYS;
    }
}
