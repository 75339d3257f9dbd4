/* test_htif_abi.c — the HTIF syscall ABI of xphmg_htif.h (struct stat, syscall numbers,
 * open flags, errno values) against an independent definition: the Linux UAPI
 * asm-generic headers, which are what riscv64 Linux uses (struct stat in its 64-bit
 * form, the same on this 64-bit host). Checked at compile time. */
#include <stddef.h>
#include <stdio.h>

/* riscv64's asm/unistd.h sets this before including the generic table. */
#define __ARCH_WANT_NEW_STAT
#include <asm-generic/errno.h>
#include <asm-generic/fcntl.h>
#include <asm-generic/stat.h>
#include <asm-generic/unistd.h>

#include "xphmg_htif.h"

#define SAME(k, x)                                                                                 \
    _Static_assert(offsetof(struct stat, k) == offsetof(xhtif_stat, x) &&                          \
                       sizeof(((struct stat *)0)->k) == sizeof(((xhtif_stat *)0)->x),              \
                   "struct stat field " #k " differs")

SAME(st_dev, st_dev);
SAME(st_ino, st_ino);
SAME(st_mode, st_mode);
SAME(st_nlink, st_nlink);
SAME(st_uid, st_uid);
SAME(st_gid, st_gid);
SAME(st_rdev, st_rdev);
SAME(st_size, st_size);
SAME(st_blksize, st_blksize);
SAME(st_blocks, st_blocks);
SAME(st_atime, st_atime_sec);
SAME(st_atime_nsec, st_atime_nsec);
SAME(st_mtime, st_mtime_sec);
SAME(st_mtime_nsec, st_mtime_nsec);
SAME(st_ctime, st_ctime_sec);
SAME(st_ctime_nsec, st_ctime_nsec);
_Static_assert(sizeof(struct stat) == sizeof(xhtif_stat) && sizeof(xhtif_stat) == 128,
               "struct stat size");

#define EQ(a, b) _Static_assert((a) == (b), #a " != " #b)
EQ(XSYS_mkdirat, __NR_mkdirat);
EQ(XSYS_unlinkat, __NR_unlinkat);
EQ(XSYS_openat, __NR_openat);
EQ(XSYS_close, __NR_close);
EQ(XSYS_lseek, __NR3264_lseek);
EQ(XSYS_read, __NR_read);
EQ(XSYS_write, __NR_write);
EQ(XSYS_pread, __NR_pread64);
EQ(XSYS_pwrite, __NR_pwrite64);
EQ(XSYS_fstatat, __NR3264_fstatat);
EQ(XSYS_fstat, __NR3264_fstat);
EQ(XSYS_exit, __NR_exit);
EQ(XAT_REMOVEDIR, 0x200); /* linux/fcntl.h */
EQ(XO_WRONLY, O_WRONLY);
EQ(XO_RDWR, O_RDWR);
EQ(XO_ACCMODE, O_ACCMODE);
EQ(XO_CREAT, O_CREAT);
EQ(XO_EXCL, O_EXCL);
EQ(XO_TRUNC, O_TRUNC);
EQ(XO_APPEND, O_APPEND);
EQ(XO_DIRECTORY, O_DIRECTORY);
EQ(XE_PERM, EPERM);
EQ(XE_NOENT, ENOENT);
EQ(XE_IO, EIO);
EQ(XE_BADF, EBADF);
EQ(XE_NOMEM, ENOMEM);
EQ(XE_ACCES, EACCES);
EQ(XE_FAULT, EFAULT);
EQ(XE_EXIST, EEXIST);
EQ(XE_XDEV, EXDEV);
EQ(XE_NOTDIR, ENOTDIR);
EQ(XE_ISDIR, EISDIR);
EQ(XE_INVAL, EINVAL);
EQ(XE_MFILE, EMFILE);
EQ(XE_NOSPC, ENOSPC);
EQ(XE_SPIPE, ESPIPE);
EQ(XE_NAMETOOLONG, ENAMETOOLONG);
EQ(XE_NOSYS, ENOSYS);
EQ(XE_NOTEMPTY, ENOTEMPTY);
EQ(XE_LOOP, ELOOP);

int main(void)
{
    puts("xphmg_htif.h matches the Linux asm-generic ABI");
    return 0;
}
