/* confine — paths outside --dir are refused with EACCES (absolute paths, '..'), and
 * with no --dir at all every path is refused; stdout keeps working. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>

static void try(const char *path, int flags)
{
    errno = 0;
    int fd = open(path, flags, 0644);
    printf("%s: %s\n", path, fd >= 0 ? "OPENED" : errno == EACCES ? "EACCES" : strerror(errno));
}

int main(void)
{
    try("/etc/passwd", O_RDONLY);
    try("../escape.txt", O_WRONLY | O_CREAT);
    try("a/../../escape.txt", O_WRONLY | O_CREAT);
    try("inside.txt", O_WRONLY | O_CREAT);
    return 0;
}
