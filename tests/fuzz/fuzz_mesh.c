/* fuzz_mesh.c — arbitrary bytes as a mesh file through xphmg-bvh's import path: the
 * isolated importer (bvh_isolate.h: assimp in a child process under CPU, memory and
 * wall-clock limits) and the BVH builder. The first byte picks the format (OBJ, PLY,
 * STL, OFF). Property: the caller always gets triangles with finite coordinates or an
 * error naming a cause, never a crash or a hang of its own, whatever assimp does. */
#include <math.h>
#include <stdlib.h>

#include "bvh_isolate.h"
#include "fuzz.h"
#include "xphmg/bvh.h"

/* The importer's child is a fork of this ASan process: a huge allocation there (assimp
 * sizing a buffer from a corrupt header, over the child's memory limit) must fail the
 * way it does in xphmg-bvh's child, with a null from malloc (std::bad_alloc in assimp),
 * not with ASan's out-of-memory abort, which also runs libFuzzer's inherited crash
 * handler in the child and leaves a crash-* file for an input the parent handled. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
    return "allocator_may_return_null=1";
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const hints[] = {"obj", "ply", "stl", "off"};
    if (size < 2) return 0;
    const char *hint = hints[data[0] & 3];
    /* Far inside libFuzzer's -timeout=10 even on a loaded machine (a hanging import
     * costs at most these), and each a way for the child to end (P-308). */
    bvh_import_limits lim = {1, (size_t)512 << 20, 3};
    bvh_import_failure why = 0;
    size_t n = 0;
    char err[512] = "";
    float(*t)[9] = bvh_mesh_load_memory_isolated(data + 1, size - 1, hint, 1.0f, &lim, &n, &why,
                                                 err, sizeof err);
    if (!t) {
        if ((why != BVH_IMPORT_BAD_INPUT && why != BVH_IMPORT_LIMIT) || !err[0]) abort();
        return 0;
    }
    if (n == 0) abort();
    for (size_t i = 0; i < n; i++)
        for (int k = 0; k < 9; k++)
            if (!isfinite(t[i][k])) abort();
    bvh_blob b;
    if (bvh_build((const float(*)[9])t, n, false, &b, err, sizeof err)) {
        if (!bvh_check(b.data, b.size, 0, NULL, err, sizeof err)) abort();
        bvh_blob_free(&b);
    }
    free(t);
    return 0;
}
