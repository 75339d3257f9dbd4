/* The bounded whole-file read (src/util/read_file.h) at its edges: a file of exactly
 * max_bytes is read whole and NUL-terminated, one byte more is TOO_BIG, files across the
 * 64 KiB growth steps keep every byte, a missing file is OPEN with errno, a directory is
 * a read error. */
#define _POSIX_C_SOURCE 200809L /* mkstemp */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmocka.h>

#include "read_file.h"

static char path[] = "/tmp/xphmg_read_file_XXXXXX";

static void write_file(size_t size)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    for (size_t i = 0; i < size; i++)
        fputc((int)((i * 7 + 3) & 0xff), f);
    assert_int_equal(fclose(f), 0);
}

static void bound_and_growth(void **state)
{
    (void)state;
    const size_t sizes[] = {0, 1, 65535, 65536, 65537, 200003};
    for (unsigned k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        size_t sz = sizes[k];
        write_file(sz);
        char *buf;
        size_t len;
        assert_int_equal(read_file_bounded(path, sz, &buf, &len), READ_FILE_OK);
        assert_int_equal(len, sz);
        assert_int_equal(buf[len], 0);
        for (size_t i = 0; i < sz; i++)
            assert_int_equal((unsigned char)buf[i], (i * 7 + 3) & 0xff);
        free(buf);
        if (sz == 0) continue;
        assert_int_equal(read_file_bounded(path, sz - 1, &buf, &len), READ_FILE_TOO_BIG);
        assert_null(buf);
    }
}

static void open_and_read_errors(void **state)
{
    (void)state;
    char *buf;
    size_t len;
    errno = 0;
    assert_int_equal(read_file_bounded("/nonexistent/xphmg", 16, &buf, &len), READ_FILE_OPEN);
    assert_int_equal(errno, ENOENT);
    assert_null(buf);
    assert_int_equal(read_file_bounded("/", 16, &buf, &len), READ_FILE_IO);
    assert_null(buf);
}

int main(void)
{
    int fd = mkstemp(path);
    if (fd < 0) return 1;
    close(fd);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bound_and_growth),
        cmocka_unit_test(open_and_read_errors),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    remove(path);
    return rc;
}
