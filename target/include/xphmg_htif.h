/* xphmg_htif.h — the HTIF host interface as both sides see it: the guest's syscall glue
 * (target/syscalls.c) and the simulator (src/sim/htif.c) include this one file.
 *
 * tohost/fromhost are 64-bit mailboxes: device (63:56), command (55:48), payload (47:0).
 *   device 0, cmd 0, payload odd:  exit with status payload >> 1.
 *   device 0, cmd 0, payload even: payload is the guest address of a 64-byte aligned
 *     block of 8 uint64 words {syscall number, arg0..arg6}; the host writes the result
 *     (>= 0, or -errno with Linux errno values) into word 0, then sets fromhost = 1.
 *   device 1, cmd 1: write the payload's low byte to the console (host stdout);
 *     the host acknowledges with fromhost = (1 << 56) | (1 << 48).
 *   device 1, cmd 0: read one console byte; the host answers
 *     fromhost = (1 << 56) | byte, or payload all ones (0xffff...) at end of input.
 * The guest clears fromhost after reading it. Numbers, flags, errno values and struct
 * stat are those of Linux riscv64 (asm-generic), as Spike's front-end server uses, and
 * path arguments carry their length including the NUL (as riscv-pk passes them). */
#ifndef XPHMG_HTIF_H
#define XPHMG_HTIF_H

#include <stdint.h>

#define XHTIF_DEV_SYSCALL 0
#define XHTIF_DEV_CONSOLE 1

/* Syscall numbers (Linux asm-generic; 1024+ are the legacy ones riscv-pk forwards). */
#define XSYS_mkdirat  34   /* dirfd, path, pathlen, mode */
#define XSYS_unlinkat 35   /* dirfd, path, pathlen, flags */
#define XSYS_openat   56   /* dirfd, path, pathlen, flags, mode */
#define XSYS_close    57   /* fd */
#define XSYS_lseek    62   /* fd, offset, whence */
#define XSYS_read     63   /* fd, buf, len */
#define XSYS_write    64   /* fd, buf, len */
#define XSYS_pread    67   /* fd, buf, len, offset */
#define XSYS_pwrite   68   /* fd, buf, len, offset */
#define XSYS_fstatat  79   /* dirfd, path, pathlen, statbuf, flags */
#define XSYS_fstat    80   /* fd, statbuf */
#define XSYS_exit     93   /* status */
#define XSYS_open     1024 /* path, pathlen, flags, mode (= openat(AT_FDCWD, ...)) */
#define XSYS_unlink   1026 /* path, pathlen */

#define XAT_FDCWD     (-100)
#define XAT_REMOVEDIR 0x200

/* open flags (Linux asm-generic values) */
#define XO_RDONLY    0x0
#define XO_WRONLY    0x1
#define XO_RDWR      0x2
#define XO_ACCMODE   0x3
#define XO_CREAT     0x40
#define XO_EXCL      0x80
#define XO_TRUNC     0x200
#define XO_APPEND    0x400
#define XO_DIRECTORY 0x10000

/* errno values the host returns (Linux) */
#define XE_PERM        1
#define XE_NOENT       2
#define XE_IO          5
#define XE_BADF        9
#define XE_NOMEM       12
#define XE_ACCES       13
#define XE_FAULT       14
#define XE_EXIST       17
#define XE_NOTDIR      20
#define XE_ISDIR       21
#define XE_INVAL       22
#define XE_MFILE       24
#define XE_NOSPC       28
#define XE_SPIPE       29
#define XE_NAMETOOLONG 36
#define XE_NOSYS       38
#define XE_NOTEMPTY    39
#define XE_LOOP        40
#define XE_XDEV        18

/* struct stat of Linux riscv64 (asm-generic/stat.h), 128 bytes, little-endian. */
typedef struct {
    uint64_t st_dev;
    uint64_t st_ino;
    uint32_t st_mode;
    uint32_t st_nlink;
    uint32_t st_uid;
    uint32_t st_gid;
    uint64_t st_rdev;
    uint64_t pad1;
    int64_t st_size;
    int32_t st_blksize;
    int32_t pad2;
    int64_t st_blocks;
    int64_t st_atime_sec;
    uint64_t st_atime_nsec;
    int64_t st_mtime_sec;
    uint64_t st_mtime_nsec;
    int64_t st_ctime_sec;
    uint64_t st_ctime_nsec;
    uint32_t unused4;
    uint32_t unused5;
} xhtif_stat;

#define XHTIF_STAT_SIZE 128

#endif
