/* tool_paths.c — see tool_paths.h. */
#include "tool_paths.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

const char *tool_installed_path(const char *relative, const char *fallback, char *buf, size_t len)
{
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (n <= 0) return fallback;
    exe[n] = 0;
    char *slash = strrchr(exe, '/');
    if (!slash) return fallback;
    *slash = 0;
    int m = snprintf(buf, len, "%s/%s", exe, relative);
    if (m < 0 || (size_t)m >= len || access(buf, R_OK) != 0) return fallback;
    return buf;
}
