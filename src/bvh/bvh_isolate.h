/* bvh_isolate.h — mesh import in a child process under CPU-time, memory and wall-clock
 * limits (errata P-308), so that a crash, a hang or a memory blow-up inside assimp (a
 * third-party parser fed untrusted files) becomes one error of the calling tool instead
 * of taking it down. */
#ifndef XPHMG_BVH_ISOLATE_H
#define XPHMG_BVH_ISOLATE_H

#include <stddef.h>

typedef struct {
    unsigned cpu_seconds;  /* CPU time of the importer (RLIMIT_CPU) */
    size_t mem_bytes;      /* its address space (RLIMIT_AS) and, watched, its resident size */
    unsigned wall_seconds; /* wall clock, for an importer that blocks without using CPU */
} bvh_import_limits;

#define BVH_IMPORT_DEFAULT_CPU_S  60u
#define BVH_IMPORT_DEFAULT_MEM_MB 2048u

/* What happened to an import that returned NULL. */
typedef enum {
    BVH_IMPORT_BAD_INPUT = 1, /* the importer refused the file (err says why) */
    BVH_IMPORT_LIMIT = 2,     /* it crashed, ran out of its CPU time, memory or wall time */
} bvh_import_failure;

/* bvh_mesh_load_file (bvh_mesh.h) run in a forked child under lim; the triangles come
 * back through a pipe. NULL with *failure and a one-line reason in err on failure. */
float (*bvh_mesh_load_file_isolated(const char *path, float scale, const bvh_import_limits *lim,
                                    size_t *n, bvh_import_failure *failure, char *err,
                                    size_t errlen))[9];
/* The same for an in-memory file (hint: the extension, e.g. "ply"): fuzzing. */
float (*bvh_mesh_load_memory_isolated(const void *buf, size_t len, const char *hint, float scale,
                                      const bvh_import_limits *lim, size_t *n,
                                      bvh_import_failure *failure, char *err, size_t errlen))[9];

#endif
