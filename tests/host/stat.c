/* stat — a guest that looks at file metadata: creates a file, writes it, and prints the
 * inode numbers and modification times stat/fstat report. Run several times by
 * stat_determinism.cmake, whose commit logs must be identical (errata P-303). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int main(void)
{
    int fd = open("s.txt", O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        printf("open: errno %d\n", errno);
        return 1;
    }
    struct stat a, b, d;
    fstat(fd, &a);
    if (write(fd, "xphmg\n", 6) != 6) return 2;
    fstat(fd, &b);
    close(fd);
    if (stat(".", &d) != 0) return 3;
    printf("file ino %llu mtime %lld -> %lld size %lld, dir ino %llu\n",
           (unsigned long long)a.st_ino, (long long)a.st_mtime, (long long)b.st_mtime,
           (long long)b.st_size, (unsigned long long)d.st_ino);
    return 0;
}
