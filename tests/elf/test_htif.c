/* test_htif.c — the HTIF mailbox protocol and the syscall proxy, driven the way a guest
 * drives them: write a command word to tohost, poll, read fromhost and the syscall
 * block. Expected values: the protocol in xphmg_htif.h and the Linux riscv64 ABI
 * (errno numbers, struct stat offsets: st_mode at 16, st_size at 48). */
#define _GNU_SOURCE 1
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "htif.h"
#include "mem.h"
#include "xphmg_htif.h"

#define BASE     0x80000000ULL
#define SIZE     0x10000ULL
#define TOHOST   (BASE + 0x1000)
#define FROMHOST (BASE + 0x1040)
#define BLOCK    (BASE + 0x2000) /* the syscall block */
#define STR      (BASE + 0x3000) /* guest strings */
#define BUF      (BASE + 0x4000) /* guest buffers */

typedef struct {
    sim_mem *m;
    htif *h;
    int out[2], in[2]; /* pipes standing in for the host's stdout and stdin */
    char dir[64];
} fx;

static uint64_t rd(fx *f, uint64_t a)
{
    uint64_t v;
    memcpy(&v, mem_ptr(f->m, a, 8), 8);
    return v;
}

static void wr(fx *f, uint64_t a, uint64_t v)
{
    memcpy(mem_ptr(f->m, a, 8), &v, 8);
}

static uint64_t put_str(fx *f, uint64_t a, const char *s)
{
    memcpy(mem_ptr(f->m, a, strlen(s) + 1), s, strlen(s) + 1);
    return a;
}

static int setup_dir(void **state, int with_dir)
{
    fx *f = calloc(1, sizeof *f);
    f->m = mem_new(BASE, SIZE);
    assert_int_equal(pipe(f->out), 0);
    assert_int_equal(pipe(f->in), 0);
    const char *dir = NULL;
    if (with_dir) {
        snprintf(f->dir, sizeof f->dir, "/tmp/xphmg-htif-XXXXXX");
        assert_non_null(mkdtemp(f->dir));
        dir = f->dir;
    }
    char err[200];
    f->h = htif_new(f->m, TOHOST, FROMHOST, dir, err, sizeof err);
    if (!f->h) fail_msg("%s", err);
    htif_set_stdio(f->h, f->in[0], f->out[1], f->out[1]);
    *state = f;
    return 0;
}
static int setup(void **state)
{
    return setup_dir(state, 1);
}
/* The same checks through the component-walk resolver (no openat2). */
static int setup_walk(void **state)
{
    setenv("XPHMG_HTIF_NO_OPENAT2", "1", 1);
    int r = setup_dir(state, 1);
    unsetenv("XPHMG_HTIF_NO_OPENAT2");
    return r;
}
static int setup_nodir(void **state)
{
    return setup_dir(state, 0);
}

static int teardown(void **state)
{
    fx *f = *state;
    htif_free(f->h);
    mem_free(f->m);
    close(f->out[0]);
    close(f->out[1]);
    close(f->in[0]);
    close(f->in[1]);
    if (f->dir[0]) {
        char cmd[128];
        snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
        assert_int_equal(system(cmd), 0);
    }
    free(f);
    return 0;
}

/* One proxied syscall: returns the value the guest would read from the block; checks
 * the acknowledgement protocol (tohost cleared, fromhost = 1). */
static int64_t sc(fx *f, uint64_t n, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3,
                  uint64_t a4)
{
    uint64_t blk[8] = {n, a0, a1, a2, a3, a4, 0, 0};
    memcpy(mem_ptr(f->m, BLOCK, 64), blk, 64);
    wr(f, FROMHOST, 0);
    wr(f, TOHOST, BLOCK);
    int code = -5;
    assert_int_equal(htif_poll(f->h, &code), 0);
    assert_int_equal(rd(f, TOHOST), 0);
    assert_int_equal(rd(f, FROMHOST), 1);
    return (int64_t)rd(f, BLOCK);
}

static int64_t sc_open(fx *f, const char *p, uint64_t flags, uint64_t mode)
{
    put_str(f, STR, p);
    return sc(f, XSYS_openat, (uint64_t)(int64_t)XAT_FDCWD, STR, strlen(p) + 1, flags, mode);
}

static void test_idle_and_exit(void **state)
{
    fx *f = *state;
    int code = -1;
    assert_int_equal(htif_poll(f->h, &code), 0); /* tohost 0: nothing to do */
    wr(f, TOHOST, (3 << 1) | 1);
    assert_int_equal(htif_poll(f->h, &code), 1);
    assert_int_equal(code, 3);
    wr(f, TOHOST, (255 << 1) | 1);
    assert_int_equal(htif_poll(f->h, &code), 1);
    assert_int_equal(code, 255);
    wr(f, TOHOST, 1); /* riscv-tests pass */
    assert_int_equal(htif_poll(f->h, &code), 1);
    assert_int_equal(code, 0);
    /* exit through the syscall proxy */
    uint64_t blk[8] = {XSYS_exit, 7};
    memcpy(mem_ptr(f->m, BLOCK, 64), blk, 64);
    wr(f, TOHOST, BLOCK);
    assert_int_equal(htif_poll(f->h, &code), 1);
    assert_int_equal(code, 7);
}

static void test_console(void **state)
{
    fx *f = *state;
    int code;
    wr(f, TOHOST, (1ULL << 56) | (1ULL << 48) | 'Z');
    assert_int_equal(htif_poll(f->h, &code), 0);
    char c = 0;
    assert_int_equal(read(f->out[0], &c, 1), 1);
    assert_int_equal(c, 'Z');
    assert_int_equal(rd(f, FROMHOST), 0x0101000000000000ULL);
    assert_int_equal(rd(f, TOHOST), 0);

    assert_int_equal(write(f->in[1], "q", 1), 1);
    wr(f, TOHOST, 1ULL << 56); /* getchar */
    assert_int_equal(htif_poll(f->h, &code), 0);
    assert_int_equal(rd(f, FROMHOST), 0x0100000000000000ULL | 'q');
    close(f->in[1]);
    f->in[1] = open("/dev/null", O_RDONLY);
    wr(f, TOHOST, 1ULL << 56);
    assert_int_equal(htif_poll(f->h, &code), 0);
    assert_int_equal(rd(f, FROMHOST), 0x0100ffffffffffffULL); /* end of input */
}

static void test_protocol_errors(void **state)
{
    fx *f = *state;
    int code = 0;
    wr(f, TOHOST, 0x10000); /* syscall block below RAM */
    assert_int_equal(htif_poll(f->h, &code), -1);
    assert_int_equal(code, 1);
    assert_non_null(strstr(htif_error(f->h), "outside RAM"));
    wr(f, TOHOST, BASE + SIZE - 32); /* block straddles the end of RAM */
    assert_int_equal(htif_poll(f->h, &code), -1);
    wr(f, TOHOST, (7ULL << 56) | 4);
    assert_int_equal(htif_poll(f->h, &code), -1);
    assert_non_null(strstr(htif_error(f->h), "unsupported"));

    char err[100];
    assert_null(htif_new(f->m, BASE + 3, FROMHOST, NULL, err, sizeof err));
    assert_null(htif_new(f->m, BASE + SIZE, FROMHOST, NULL, err, sizeof err));
    assert_null(htif_new(f->m, TOHOST, FROMHOST, "/nonexistent-dir", err, sizeof err));
    assert_non_null(strstr(err, "/nonexistent-dir"));
    htif *none = htif_new(f->m, 0, 0, NULL, err, sizeof err);
    assert_non_null(none);
    assert_int_equal(htif_poll(none, &code), 0);
    htif_free(none);
}

static void test_write_read_stdio(void **state)
{
    fx *f = *state;
    put_str(f, BUF, "hello\n");
    assert_int_equal(sc(f, XSYS_write, 1, BUF, 6, 0, 0), 6);
    char got[8] = {0};
    assert_int_equal(read(f->out[0], got, 6), 6);
    assert_string_equal(got, "hello\n");
    assert_int_equal(sc(f, XSYS_write, 2, BUF, 0, 0, 0), 0);

    assert_int_equal(write(f->in[1], "abc", 3), 3);
    assert_int_equal(sc(f, XSYS_read, 0, BUF + 100, 3, 0, 0), 3);
    assert_memory_equal(mem_ptr(f->m, BUF + 100, 3), "abc", 3);

    /* Guest pointers outside RAM: -EFAULT, nothing touched. */
    assert_int_equal(sc(f, XSYS_write, 1, BASE + SIZE - 2, 3, 0, 0), -XE_FAULT);
    assert_int_equal(sc(f, XSYS_write, 1, ~0ULL - 1, 4, 0, 0), -XE_FAULT);
    assert_int_equal(sc(f, XSYS_read, 0, 0x1000, 1, 0, 0), -XE_FAULT);
    assert_int_equal(sc(f, XSYS_write, 9, BUF, 1, 0, 0), -XE_BADF);
    assert_int_equal(sc(f, XSYS_write, 1000, BUF, 1, 0, 0), -XE_BADF);
    assert_int_equal(sc(f, 4242, 0, 0, 0, 0, 0), -XE_NOSYS);
    /* closing stdout hides it from the guest only */
    assert_int_equal(sc(f, XSYS_close, 1, 0, 0, 0, 0), 0);
    assert_int_equal(sc(f, XSYS_write, 1, BUF, 1, 0, 0), -XE_BADF);
    assert_int_equal(sc(f, XSYS_close, 1, 0, 0, 0, 0), -XE_BADF);
}

static void test_files(void **state)
{
    fx *f = *state;
    int64_t fd = sc_open(f, "a.txt", XO_WRONLY | XO_CREAT | XO_TRUNC, 0644);
    assert_int_equal(fd, 3);
    put_str(f, BUF, "0123456789");
    assert_int_equal(sc(f, XSYS_write, (uint64_t)fd, BUF, 10, 0, 0), 10);
    assert_int_equal(sc(f, XSYS_close, (uint64_t)fd, 0, 0, 0, 0), 0);

    /* The host sees the file inside --dir. */
    char hp[128];
    snprintf(hp, sizeof hp, "%s/a.txt", f->dir);
    struct stat hst;
    assert_int_equal(stat(hp, &hst), 0);
    assert_int_equal(hst.st_size, 10);

    fd = sc_open(f, "a.txt", XO_RDONLY, 0);
    assert_int_equal(fd, 3);
    assert_int_equal(sc(f, XSYS_lseek, (uint64_t)fd, 4, 0 /* SEEK_SET */, 0, 0), 4);
    assert_int_equal(sc(f, XSYS_read, (uint64_t)fd, BUF + 200, 100, 0, 0), 6);
    assert_memory_equal(mem_ptr(f->m, BUF + 200, 6), "456789", 6);
    assert_int_equal(sc(f, XSYS_read, (uint64_t)fd, BUF + 200, 100, 0, 0), 0); /* EOF */
    assert_int_equal(sc(f, XSYS_pread, (uint64_t)fd, BUF + 300, 2, 8, 0), 2);
    assert_memory_equal(mem_ptr(f->m, BUF + 300, 2), "89", 2);
    assert_int_equal(sc(f, XSYS_lseek, (uint64_t)fd, -3, 2 /* SEEK_END */, 0, 0), 7);
    assert_int_equal(sc(f, XSYS_lseek, (uint64_t)fd, 0, 9, 0, 0), -XE_INVAL);

    /* fstat: Linux riscv64 struct stat, st_mode at 16, st_size at 48. */
    memset(mem_ptr(f->m, BUF + 512, 128), 0xee, 128);
    assert_int_equal(sc(f, XSYS_fstat, (uint64_t)fd, BUF + 512, 0, 0, 0), 0);
    uint32_t mode;
    int64_t size;
    memcpy(&mode, mem_ptr(f->m, BUF + 512 + 16, 4), 4);
    memcpy(&size, mem_ptr(f->m, BUF + 512 + 48, 8), 8);
    assert_int_equal(mode & 0170000, 0100000);         /* S_IFREG */
    assert_int_equal(mode & 0777, hst.st_mode & 0777); /* as the host's stat(2) says */
    assert_int_equal(size, 10);
    assert_int_equal(sc(f, XSYS_fstat, (uint64_t)fd, BASE + SIZE - 64, 0, 0, 0), -XE_FAULT);
    assert_int_equal(sc(f, XSYS_close, (uint64_t)fd, 0, 0, 0, 0), 0);
    assert_int_equal(sc(f, XSYS_close, (uint64_t)fd, 0, 0, 0, 0), -XE_BADF);

    /* fstatat by path, legacy open (1024), mkdir, nested file, unlink */
    put_str(f, STR, "a.txt");
    assert_int_equal(sc(f, XSYS_fstatat, (uint64_t)(int64_t)XAT_FDCWD, STR, 6, BUF + 512, 0), 0);
    memcpy(&size, mem_ptr(f->m, BUF + 512 + 48, 8), 8);
    assert_int_equal(size, 10);
    fd = sc(f, XSYS_open, STR, 6, XO_RDONLY, 0, 0);
    assert_int_equal(fd, 3);
    assert_int_equal(sc(f, XSYS_close, (uint64_t)fd, 0, 0, 0, 0), 0);
    put_str(f, STR, "sub");
    assert_int_equal(sc(f, XSYS_mkdirat, (uint64_t)(int64_t)XAT_FDCWD, STR, 4, 0755, 0), 0);
    fd = sc_open(f, "sub/b.txt", XO_RDWR | XO_CREAT | XO_EXCL, 0600);
    assert_int_equal(fd, 3);
    assert_int_equal(sc_open(f, "sub/b.txt", XO_RDWR | XO_CREAT | XO_EXCL, 0600), -XE_EXIST);
    assert_int_equal(sc(f, XSYS_close, (uint64_t)fd, 0, 0, 0, 0), 0);
    put_str(f, STR, "sub/b.txt");
    assert_int_equal(sc(f, XSYS_unlinkat, (uint64_t)(int64_t)XAT_FDCWD, STR, 10, 0, 0), 0);
    assert_int_equal(sc(f, XSYS_unlinkat, (uint64_t)(int64_t)XAT_FDCWD, STR, 10, 0, 0), -XE_NOENT);
    assert_int_equal(sc_open(f, "missing.txt", XO_RDONLY, 0), -XE_NOENT);
    /* openat relative to a directory the guest opened */
    int64_t dfd = sc_open(f, "sub", XO_RDONLY | XO_DIRECTORY, 0);
    assert_int_equal(dfd, 3);
    put_str(f, STR, "c.txt");
    int64_t cfd = sc(f, XSYS_openat, (uint64_t)dfd, STR, 6, XO_WRONLY | XO_CREAT, 0644);
    assert_int_equal(cfd, 4);
    snprintf(hp, sizeof hp, "%s/sub/c.txt", f->dir);
    assert_int_equal(access(hp, F_OK), 0);
    put_str(f, STR, "../a.txt");
    assert_int_equal(sc(f, XSYS_openat, (uint64_t)dfd, STR, 9, XO_RDONLY, 0), -XE_ACCES);
}

static void test_confinement(void **state)
{
    fx *f = *state;
    /* absolute paths and '..' escapes */
    assert_int_equal(sc_open(f, "/etc/passwd", XO_RDONLY, 0), -XE_ACCES);
    assert_int_equal(sc_open(f, "../escape.txt", XO_WRONLY | XO_CREAT, 0644), -XE_ACCES);
    assert_int_equal(sc_open(f, "a/../../x", XO_RDONLY, 0), -XE_ACCES);
    assert_int_equal(sc_open(f, "..", XO_RDONLY, 0), -XE_ACCES);
    /* a symlink inside --dir leading out of it */
    char lp[128];
    snprintf(lp, sizeof lp, "%s/out", f->dir);
    assert_int_equal(symlink("/etc", lp), 0);
    assert_int_equal(sc_open(f, "out/passwd", XO_RDONLY, 0), -XE_ACCES);
    snprintf(lp, sizeof lp, "%s/pw", f->dir);
    assert_int_equal(symlink("/etc/passwd", lp), 0);
    assert_int_equal(sc_open(f, "pw", XO_RDONLY, 0), -XE_ACCES);
    put_str(f, STR, "/etc/passwd");
    assert_int_equal(sc(f, XSYS_fstatat, (uint64_t)(int64_t)XAT_FDCWD, STR, 12, BUF, 0), -XE_ACCES);
    assert_int_equal(sc(f, XSYS_unlinkat, (uint64_t)(int64_t)XAT_FDCWD, STR, 12, 0, 0), -XE_ACCES);
    /* bad path arguments */
    put_str(f, STR, "abc");
    assert_int_equal(sc(f, XSYS_openat, (uint64_t)(int64_t)XAT_FDCWD, STR, 2, 0, 0),
                     -XE_INVAL); /* length does not end at the NUL */
    assert_int_equal(sc(f, XSYS_openat, (uint64_t)(int64_t)XAT_FDCWD, STR, 0, 0, 0), -XE_INVAL);
    assert_int_equal(sc(f, XSYS_openat, (uint64_t)(int64_t)XAT_FDCWD, BASE + SIZE - 2, 4, 0, 0),
                     -XE_FAULT);
    assert_int_equal(sc(f, XSYS_openat, (uint64_t)(int64_t)XAT_FDCWD, STR, 100000, 0, 0),
                     -XE_NAMETOOLONG);
    assert_int_equal(sc(f, XSYS_openat, 1, STR, 4, 0, 0), -XE_BADF); /* dirfd = stdout */
    assert_int_equal(sc(f, XSYS_openat, 55, STR, 4, 0, 0), -XE_BADF);
}

static void test_no_dir(void **state)
{
    fx *f = *state;
    assert_int_equal(sc_open(f, "a.txt", XO_WRONLY | XO_CREAT, 0644), -XE_ACCES);
    assert_int_equal(sc_open(f, "/etc/passwd", XO_RDONLY, 0), -XE_ACCES);
    put_str(f, STR, "x");
    assert_int_equal(sc(f, XSYS_mkdirat, (uint64_t)(int64_t)XAT_FDCWD, STR, 2, 0755, 0), -XE_ACCES);
    /* stdio still works */
    put_str(f, BUF, "ok");
    assert_int_equal(sc(f, XSYS_write, 1, BUF, 2, 0, 0), 2);
}

static void test_fd_table_full(void **state)
{
    fx *f = *state;
    int64_t fd = sc_open(f, "f", XO_WRONLY | XO_CREAT, 0644);
    assert_int_equal(fd, 3);
    int n = 1;
    while ((fd = sc_open(f, "f", XO_RDONLY, 0)) >= 0)
        n++;
    assert_int_equal(fd, -XE_MFILE);
    assert_int_equal(n, 64 - 3);
}

/* Created files and directories never get set-uid, set-gid or sticky bits: the mode is
 * masked with 0777 (errata P-301). umask 0 so that the host keeps whatever it is given. */
static void test_create_mode(void **state)
{
    fx *f = *state;
    mode_t old = umask(0);
    int64_t fd = sc_open(f, "suid", XO_WRONLY | XO_CREAT, 06777);
    assert_int_equal(fd, 3);
    put_str(f, STR, "sticky");
    assert_int_equal(sc(f, XSYS_mkdirat, (uint64_t)(int64_t)XAT_FDCWD, STR, 7, 01777, 0), 0);
    umask(old);
    char hp[128];
    struct stat st;
    snprintf(hp, sizeof hp, "%s/suid", f->dir);
    assert_int_equal(stat(hp, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0777);
    snprintf(hp, sizeof hp, "%s/sticky", f->dir);
    assert_int_equal(stat(hp, &st), 0);
    assert_int_equal(st.st_mode & 07777, 0777);
}

/* A FIFO (or any other non-regular, non-directory file) in --dir is refused without
 * blocking: the open is non-blocking and checked with fstat (P-301). The alarm turns a
 * blocking open into a failure instead of a hang. stat still describes it. */
static void test_special_files(void **state)
{
    fx *f = *state;
    char hp[128];
    snprintf(hp, sizeof hp, "%s/fifo", f->dir);
    assert_int_equal(mkfifo(hp, 0644), 0);
    alarm(10);
    assert_int_equal(sc_open(f, "fifo", XO_RDONLY, 0), -XE_ACCES);
    assert_int_equal(sc_open(f, "fifo", XO_WRONLY, 0), -XE_ACCES);
    assert_int_equal(sc_open(f, "fifo", XO_RDWR, 0), -XE_ACCES);
    alarm(0);
    put_str(f, STR, "fifo");
    assert_int_equal(sc(f, XSYS_fstatat, (uint64_t)(int64_t)XAT_FDCWD, STR, 5, BUF, 0), 0);
    uint32_t mode;
    memcpy(&mode, mem_ptr(f->m, BUF + 16, 4), 4);
    assert_int_equal(mode & 0170000, 0010000); /* S_IFIFO */
    /* the fd table has no leftover entry */
    assert_int_equal(sc_open(f, "x", XO_WRONLY | XO_CREAT, 0644), 3);
}

/* Symlinks are refused the same way by both resolvers, wherever they point (P-302):
 * stat of a link leading out, a link leading to a file inside, a link to a directory on
 * a path. Run with openat2 and with the component walk. */
static void test_symlinks(void **state)
{
    fx *f = *state;
    char hp[128];
    assert_int_equal(sc_open(f, "in.txt", XO_WRONLY | XO_CREAT, 0644), 3);
    put_str(f, STR, "d");
    assert_int_equal(sc(f, XSYS_mkdirat, (uint64_t)(int64_t)XAT_FDCWD, STR, 2, 0755, 0), 0);
    static const char *const links[][2] = {
        {"pw", "/etc/passwd"}, {"etc", "/etc"}, {"inl", "in.txt"}, {"dl", "d"}};
    for (unsigned i = 0; i < 4; i++) {
        snprintf(hp, sizeof hp, "%s/%s", f->dir, links[i][0]);
        assert_int_equal(symlink(links[i][1], hp), 0);
    }
    static const char *const paths[] = {"pw", "etc", "etc/passwd", "inl", "dl", "dl/", "dl/x"};
    for (unsigned i = 0; i < sizeof paths / sizeof paths[0]; i++) {
        size_t n = strlen(paths[i]) + 1;
        put_str(f, STR, paths[i]);
        memset(mem_ptr(f->m, BUF, 128), 0xee, 128);
        assert_int_equal(sc(f, XSYS_fstatat, (uint64_t)(int64_t)XAT_FDCWD, STR, n, BUF, 0),
                         -XE_ACCES);
        assert_int_equal(rd(f, BUF), 0xeeeeeeeeeeeeeeeeULL); /* nothing written */
        assert_int_equal(sc_open(f, paths[i], XO_RDONLY, 0), -XE_ACCES);
    }
    /* the links themselves can be removed */
    put_str(f, STR, "pw");
    assert_int_equal(sc(f, XSYS_unlinkat, (uint64_t)(int64_t)XAT_FDCWD, STR, 3, 0, 0), 0);
}

static uint64_t stat_field(fx *f, unsigned off)
{
    return rd(f, BUF + off);
}

/* stat/fstat are virtual (P-303): st_dev 1, inode numbers in first-seen order, uid/gid
 * 0, times = the change counter at the guest's last write; --host-stat passes the
 * host's through. Offsets: Linux riscv64 struct stat (ino 8, uid 28, gid 32, size 48,
 * blksize 56, blocks 64, atime 72, mtime 88, ctime 104). */
static void test_virtual_stat(void **state)
{
    fx *f = *state;
    int64_t fd = sc_open(f, "v.txt", XO_WRONLY | XO_CREAT | XO_TRUNC, 0644);
    assert_int_equal(fd, 3);
    assert_int_equal(sc(f, XSYS_fstat, 3, BUF, 0, 0, 0), 0);
    assert_int_equal(stat_field(f, 0), 1);  /* st_dev */
    assert_int_equal(stat_field(f, 8), 1);  /* first file met */
    assert_int_equal(stat_field(f, 88), 1); /* truncated by the guest: change 1 */
    put_str(f, BUF + 512, "0123456789");
    assert_int_equal(sc(f, XSYS_write, 3, BUF + 512, 10, 0, 0), 10);
    assert_int_equal(sc(f, XSYS_fstat, 3, BUF, 0, 0, 0), 0);
    assert_int_equal(stat_field(f, 8), 1);
    assert_int_equal(stat_field(f, 48), 10);
    assert_int_equal(stat_field(f, 64), 1); /* 512-byte blocks */
    assert_int_equal((uint32_t)stat_field(f, 56), 4096);
    assert_int_equal(stat_field(f, 72), 2);
    assert_int_equal(stat_field(f, 88), 2);
    assert_int_equal(stat_field(f, 104), 2);
    assert_int_equal(stat_field(f, 28), 0); /* uid, gid */
    put_str(f, STR, ".");
    assert_int_equal(sc(f, XSYS_fstatat, (uint64_t)(int64_t)XAT_FDCWD, STR, 2, BUF, 0), 0);
    assert_int_equal(stat_field(f, 8), 2);  /* the directory: second */
    assert_int_equal(stat_field(f, 88), 0); /* not changed by the guest */
    put_str(f, STR, "v.txt");
    assert_int_equal(sc(f, XSYS_fstatat, (uint64_t)(int64_t)XAT_FDCWD, STR, 6, BUF, 0), 0);
    assert_int_equal(stat_field(f, 8), 1); /* the same file again */

    char hp[128];
    struct stat hst;
    snprintf(hp, sizeof hp, "%s/v.txt", f->dir);
    assert_int_equal(stat(hp, &hst), 0);
    htif_set_host_stat(f->h, 1);
    assert_int_equal(sc(f, XSYS_fstat, 3, BUF, 0, 0, 0), 0);
    assert_int_equal(stat_field(f, 8), (uint64_t)hst.st_ino);
    assert_int_equal(stat_field(f, 88), (uint64_t)hst.st_mtim.tv_sec);
}

/* Random commands and syscalls with arguments biased to the edges (RAM bounds, huge
 * lengths, negative fds, unterminated strings): whatever the guest writes, the host
 * answers or refuses, and never touches memory outside RAM (checked by ASan in the
 * sanitizer build). stdio is /dev/null so no call can block. */
static uint64_t rng = 0x9e3779b97f4a7c15ULL;
static uint64_t next(void)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return rng;
}

static uint64_t edge(void)
{
    static const uint64_t pick[] = {0,
                                    1,
                                    3,
                                    8,
                                    64,
                                    4096,
                                    BASE,
                                    BASE + SIZE - 1,
                                    BASE + SIZE,
                                    BASE + SIZE - 8,
                                    STR,
                                    BUF,
                                    ~0ULL,
                                    (uint64_t)-100,
                                    (uint64_t)-1,
                                    1ULL << 40};
    switch (next() % 3) {
    case 0:
        return pick[next() % (sizeof pick / sizeof pick[0])];
    case 1:
        return BASE + next() % SIZE;
    default:
        return next() % 128;
    }
}

/* A plausible argument of the given kind, or (1 in 8) an edge value. */
enum { A_FD, A_DIRFD, A_BUF, A_LEN, A_PATH, A_FLAGS, A_NUM };
static const char *const names[] = {"a",      "b",           "sub",   "sub/c", ".",
                                    "a/../b", "/etc/passwd", "x/y/z", "sub/",  ""};

static uint64_t arg(fx *f, int kind, uint64_t *pathlen)
{
    if (next() % 8 == 0) return edge();
    switch (kind) {
    case A_FD:
        return next() % 8;
    case A_DIRFD:
        return next() % 2 ? (uint64_t)(int64_t)XAT_FDCWD : next() % 8;
    case A_BUF:
        return BUF + next() % 2048;
    case A_LEN:
        return next() % 300;
    case A_PATH: {
        const char *n = names[next() % (sizeof names / sizeof names[0])];
        put_str(f, STR, n);
        *pathlen = strlen(n) + 1;
        if (next() % 6 == 0) *pathlen = edge(); /* a lying length */
        return STR;
    }
    case A_FLAGS: {
        static const uint64_t fl[] = {XO_WRONLY, XO_RDWR,   XO_CREAT,    XO_EXCL,
                                      XO_TRUNC,  XO_APPEND, XO_DIRECTORY};
        uint64_t v = 0;
        for (unsigned k = 0; k < 7; k++)
            if (next() % 3 == 0) v |= fl[k];
        return v;
    }
    default:
        return next() % 4096;
    }
}

static void test_random(void **state)
{
    fx *f = *state;
    int null_in = open("/dev/null", O_RDONLY), null_out = open("/dev/null", O_WRONLY);
    htif_set_stdio(f->h, null_in, null_out, null_out);
    /* argument kinds per syscall, A_LEN right after A_PATH is the path length */
    static const struct {
        uint64_t n;
        int kinds[5];
        int nk;
    } calls[] = {
        {XSYS_read, {A_FD, A_BUF, A_LEN}, 3},
        {XSYS_write, {A_FD, A_BUF, A_LEN}, 3},
        {XSYS_pread, {A_FD, A_BUF, A_LEN, A_NUM}, 4},
        {XSYS_pwrite, {A_FD, A_BUF, A_LEN, A_NUM}, 4},
        {XSYS_openat, {A_DIRFD, A_PATH, A_LEN, A_FLAGS, A_NUM}, 5},
        {XSYS_open, {A_PATH, A_LEN, A_FLAGS, A_NUM}, 4},
        {XSYS_close, {A_FD}, 1},
        {XSYS_lseek, {A_FD, A_NUM, A_FD}, 3},
        {XSYS_fstat, {A_FD, A_BUF}, 2},
        {XSYS_fstatat, {A_DIRFD, A_PATH, A_LEN, A_BUF, A_NUM}, 5},
        {XSYS_unlinkat, {A_DIRFD, A_PATH, A_LEN, A_NUM}, 4},
        {XSYS_unlink, {A_PATH, A_LEN}, 2},
        {XSYS_mkdirat, {A_DIRFD, A_PATH, A_LEN, A_NUM}, 4},
        {9999, {A_NUM}, 1},
    };
    int nok = 0, nerr = 0;
    for (int i = 0; i < 20000; i++) {
        unsigned c = (unsigned)(next() % (sizeof calls / sizeof calls[0]));
        uint64_t blk[8] = {calls[c].n};
        uint64_t pathlen = 0;
        for (int k = 0; k < calls[c].nk; k++) {
            int kind = calls[c].kinds[k];
            if (kind == A_LEN && k > 0 && calls[c].kinds[k - 1] == A_PATH)
                blk[k + 1] = pathlen;
            else
                blk[k + 1] = arg(f, kind, &pathlen);
        }
        memcpy(mem_ptr(f->m, BLOCK, 64), blk, 64);
        uint64_t cmd = BLOCK;
        if (next() % 16 == 0) { /* a random command word instead (never an exit) */
            cmd = next() & 0x0301fffffffffffeULL;
            if (cmd == 0) cmd = BLOCK;
        }
        wr(f, TOHOST, cmd);
        int code;
        int r = htif_poll(f->h, &code);
        assert_true(r == 0 || r == -1);
        if (r < 0)
            nerr++;
        else if (cmd == BLOCK && (int64_t)rd(f, BLOCK) >= 0)
            nok++;
    }
    printf("random: %d calls succeeded, %d protocol errors\n", nok, nerr);
    assert_true(nok > 500); /* the mix reaches real work, not only refusals */
    close(null_in);
    close(null_out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_idle_and_exit, setup, teardown),
        cmocka_unit_test_setup_teardown(test_console, setup, teardown),
        cmocka_unit_test_setup_teardown(test_protocol_errors, setup, teardown),
        cmocka_unit_test_setup_teardown(test_write_read_stdio, setup, teardown),
        cmocka_unit_test_setup_teardown(test_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_confinement, setup, teardown),
        cmocka_unit_test_setup_teardown(test_files, setup_walk, teardown),
        cmocka_unit_test_setup_teardown(test_confinement, setup_walk, teardown),
        cmocka_unit_test_setup_teardown(test_no_dir, setup_nodir, teardown),
        cmocka_unit_test_setup_teardown(test_fd_table_full, setup, teardown),
        cmocka_unit_test_setup_teardown(test_random, setup, teardown),
        cmocka_unit_test_setup_teardown(test_create_mode, setup, teardown),
        cmocka_unit_test_setup_teardown(test_special_files, setup, teardown),
        cmocka_unit_test_setup_teardown(test_special_files, setup_walk, teardown),
        cmocka_unit_test_setup_teardown(test_symlinks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_symlinks, setup_walk, teardown),
        cmocka_unit_test_setup_teardown(test_virtual_stat, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
