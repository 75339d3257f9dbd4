/* bvh_isolate.c — assimp in a child process (bvh_isolate.h).
 *
 * The child sets RLIMIT_CPU and RLIMIT_AS, imports, and writes a header {status, n,
 * message} and the n triangles to a pipe, then _exits (no atexit handlers, no leak
 * report for assimp's internals). The parent reads the pipe while watching the wall
 * clock and the child's resident size (/proc/PID/statm: the memory bound that still
 * holds under AddressSanitizer, whose shadow mappings rule out RLIMIT_AS), kills the
 * child when either runs over, and turns every way the child can end into one reason. */
#define _GNU_SOURCE 1
#include "bvh_isolate.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bvh_err.h"
#include "bvh_mesh.h"

#if defined(__SANITIZE_ADDRESS__)
#define UNDER_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define UNDER_ASAN 1
#endif
#endif

enum { CHILD_OK = 0, CHILD_BAD = 1, CHILD_NOMEM = 2 };

typedef struct {
    int32_t status;
    uint32_t pad;
    uint64_t n;
    char msg[256];
} child_header;

static void *fail(bvh_import_failure *failure, bvh_import_failure kind, char *err, size_t len,
                  const char *fmt, ...)
{
    *failure = kind;
    va_list ap;
    va_start(ap, fmt);
    bvh_verr(err, len, fmt, ap);
    va_end(ap);
    return NULL;
}

static int write_all(int fd, const void *p, size_t n)
{
    const char *c = p;
    while (n) {
        ssize_t w = write(fd, c, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return -1;
        c += w;
        n -= (size_t)w;
    }
    return 0;
}

typedef struct {
    const char *path; /* or buf/len/hint */
    const void *buf;
    size_t len;
    const char *hint;
    float scale;
} import_job;

static _Noreturn void child_main(int fd, const import_job *j, const bvh_import_limits *lim)
{
    /* A fault in the importer kills the child with its signal, also where a sanitizer
     * runtime installed handlers that would turn it into a report and exit(1). */
    static const int fatal[] = {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL};
    for (unsigned i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        signal(fatal[i], SIG_DFL);
    struct rlimit cpu = {lim->cpu_seconds, lim->cpu_seconds + 1}; /* SIGXCPU, then SIGKILL */
    setrlimit(RLIMIT_CPU, &cpu);
#ifndef UNDER_ASAN
    struct rlimit as = {lim->mem_bytes, lim->mem_bytes};
    setrlimit(RLIMIT_AS, &as);
#endif
    child_header h;
    memset(&h, 0, sizeof h);
    size_t n = 0;
    float(*t)[9] =
        j->path ? bvh_mesh_load_file(j->path, j->scale, &n, h.msg, sizeof h.msg)
                : bvh_mesh_load_memory(j->buf, j->len, j->hint, j->scale, &n, h.msg, sizeof h.msg);
    if (t) {
        h.status = CHILD_OK;
        h.n = n;
    } else {
        /* assimp turns an allocation failure under RLIMIT_AS into this message */
        h.status =
            strstr(h.msg, "bad_alloc") || strstr(h.msg, "out of memory") ? CHILD_NOMEM : CHILD_BAD;
    }
    int bad = write_all(fd, &h, sizeof h) || (t && write_all(fd, t, n * sizeof *t));
    _exit(bad ? 3 : 0);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static size_t child_rss(pid_t pid)
{
    char p[64];
    snprintf(p, sizeof p, "/proc/%d/statm", (int)pid);
    FILE *f = fopen(p, "r");
    unsigned long size = 0, rss = 0;
    if (!f) return 0;
    if (fscanf(f, "%lu %lu", &size, &rss) != 2) rss = 0;
    fclose(f);
    return (size_t)rss * (size_t)sysconf(_SC_PAGESIZE);
}

static float (*run(const import_job *j, const bvh_import_limits *lim, size_t *n,
                   bvh_import_failure *failure, char *err, size_t errlen))[9]
{
    const char *what = j->path ? j->path : "<memory>";
    int p[2];
    if (pipe(p) != 0)
        return fail(failure, BVH_IMPORT_LIMIT, err, errlen, "%s: pipe: %s", what, strerror(errno));
    fflush(NULL); /* nothing buffered twice */
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return fail(failure, BVH_IMPORT_LIMIT, err, errlen, "%s: fork: %s", what, strerror(errno));
    }
    if (pid == 0) {
        close(p[0]);
        child_main(p[1], j, lim);
    }
    close(p[1]);

    /* Read everything the child sends: the header, then the triangles. */
    child_header h;
    memset(&h, 0, sizeof h);
    uint8_t *data = NULL;
    size_t want = sizeof h, got = 0, cap = 0;
    double deadline = now_s() + lim->wall_seconds;
    const char *killed = NULL; /* why the parent killed the child */
    for (;;) {
        struct pollfd pf = {p[0], POLLIN, 0};
        int r = poll(&pf, 1, 50);
        if (r < 0 && errno != EINTR) break;
        if (now_s() > deadline) {
            killed = "wall";
            break;
        }
        if (child_rss(pid) > lim->mem_bytes) {
            killed = "mem";
            break;
        }
        if (r <= 0) continue;
        uint8_t tmp[65536];
        ssize_t k = read(p[0], tmp, sizeof tmp);
        if (k < 0 && errno == EINTR) continue;
        if (k <= 0) break; /* EOF: the child is done (or dead) */
        for (ssize_t i = 0; i < k;) {
            if (got < sizeof h) {
                size_t c = sizeof h - got < (size_t)(k - i) ? sizeof h - got : (size_t)(k - i);
                memcpy((uint8_t *)&h + got, tmp + i, c);
                got += c;
                i += (ssize_t)c;
                if (got == sizeof h && h.status == CHILD_OK) {
                    if (h.n == 0 || h.n > SIZE_MAX / 36 - 1) break;
                    want = sizeof h + (size_t)h.n * 36;
                    cap = (size_t)h.n * 36;
                    data = malloc(cap);
                    if (!data) break;
                }
                continue;
            }
            size_t c = (size_t)(k - i);
            if (got - sizeof h + c > cap) c = cap - (got - sizeof h);
            if (c == 0) break;
            memcpy(data + got - sizeof h, tmp + i, c);
            got += c;
            i += (ssize_t)c;
        }
    }
    close(p[0]);
    if (killed) kill(pid, SIGKILL);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    h.msg[sizeof h.msg - 1] = '\0';
    if (killed) {
        free(data);
        if (killed[0] == 'w')
            return fail(failure, BVH_IMPORT_LIMIT, err, errlen,
                        "%s: the importer hung (wall-clock limit %u s)", what, lim->wall_seconds);
        return fail(failure, BVH_IMPORT_LIMIT, err, errlen,
                    "%s: the importer ran over its memory limit (%zu MiB)", what,
                    lim->mem_bytes >> 20);
    }
    if (WIFSIGNALED(st)) {
        free(data);
        int sig = WTERMSIG(st);
        if (sig == SIGXCPU || sig == SIGKILL)
            return fail(failure, BVH_IMPORT_LIMIT, err, errlen,
                        "%s: the importer ran out of its CPU time (%u s)", what, lim->cpu_seconds);
        return fail(failure, BVH_IMPORT_LIMIT, err, errlen,
                    "%s: the importer crashed (signal %d, %s)", what, sig, strsignal(sig));
    }
    if (got < sizeof h || (h.status == CHILD_OK && got != want) || !WIFEXITED(st) ||
        WEXITSTATUS(st) != 0) {
        free(data);
        return fail(failure, BVH_IMPORT_LIMIT, err, errlen,
                    "%s: the importer ended without a result (exit %d)", what,
                    WIFEXITED(st) ? WEXITSTATUS(st) : -1);
    }
    if (h.status == CHILD_NOMEM)
        return fail(failure, BVH_IMPORT_LIMIT, err, errlen,
                    "%s: the importer ran over its memory limit (%zu MiB): %s", what,
                    lim->mem_bytes >> 20, h.msg);
    if (h.status != CHILD_OK) return fail(failure, BVH_IMPORT_BAD_INPUT, err, errlen, "%s", h.msg);
    *n = (size_t)h.n;
    return (float(*)[9])data;
}

float (*bvh_mesh_load_file_isolated(const char *path, float scale, const bvh_import_limits *lim,
                                    size_t *n, bvh_import_failure *failure, char *err,
                                    size_t errlen))[9]
{
    import_job j = {path, NULL, 0, NULL, scale};
    return run(&j, lim, n, failure, err, errlen);
}

float (*bvh_mesh_load_memory_isolated(const void *buf, size_t len, const char *hint, float scale,
                                      const bvh_import_limits *lim, size_t *n,
                                      bvh_import_failure *failure, char *err, size_t errlen))[9]
{
    import_job j = {NULL, buf, len, hint, scale};
    return run(&j, lim, n, failure, err, errlen);
}
