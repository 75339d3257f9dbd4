/* files — file syscalls inside --dir: create, write, read back, append, seek, stat,
 * unlink, errors for missing files. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define CHECK(c)                                                                                   \
    do {                                                                                           \
        if (!(c)) {                                                                                \
            printf("FAILED line %d: %s (errno %d)\n", __LINE__, #c, errno);                        \
            return 1;                                                                              \
        }                                                                                          \
    } while (0)

int main(void)
{
    FILE *f = fopen("data.txt", "w");
    CHECK(f);
    for (int i = 0; i < 100; i++)
        fprintf(f, "line %d\n", i);
    CHECK(fclose(f) == 0);

    f = fopen("data.txt", "a");
    CHECK(f);
    fputs("appended\n", f);
    fclose(f);

    f = fopen("data.txt", "r");
    CHECK(f);
    char buf[64];
    int lines = 0;
    char last[64] = "";
    while (fgets(buf, sizeof buf, f)) {
        lines++;
        strcpy(last, buf);
    }
    fclose(f);
    printf("lines %d last %s", lines, last);

    int fd = open("data.txt", O_RDONLY);
    CHECK(fd >= 3);
    struct stat st;
    CHECK(fstat(fd, &st) == 0);
    CHECK(S_ISREG(st.st_mode));
    printf("size %ld\n", (long)st.st_size);
    CHECK(lseek(fd, 8, SEEK_SET) == 8);
    char two[3] = {0};
    CHECK(read(fd, two, 2) == 2);
    printf("at 8: '%s'\n", two);
    CHECK(lseek(fd, -9, SEEK_END) == st.st_size - 9);
    CHECK(close(fd) == 0);
    CHECK(close(fd) == -1 && errno == EBADF);

    errno = 0;
    CHECK(open("missing.txt", O_RDONLY) == -1);
    printf("missing: %s\n", errno == ENOENT ? "ENOENT" : "other");
    CHECK(mkdir("sub", 0755) == 0);
    f = fopen("sub/nested.txt", "w");
    CHECK(f);
    fputs("x", f);
    fclose(f);
    CHECK(stat("sub/nested.txt", &st) == 0 && st.st_size == 1);
    CHECK(unlink("sub/nested.txt") == 0);
    CHECK(stat("sub/nested.txt", &st) == -1 && errno == ENOENT);
    puts("files ok");
    return 0;
}
