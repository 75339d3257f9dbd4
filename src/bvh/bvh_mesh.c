/* bvh_mesh.c — assimp import for xphmg-bvh (bvh_mesh.h). */
#include "bvh_mesh.h"

#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bvh_err.h"
#include "xphmg/bvh.h"

#define FLAGS                                                                                      \
    (aiProcess_Triangulate | aiProcess_PreTransformVertices | aiProcess_ValidateDataStructure)

float (*bvh_mesh_convert(const struct aiScene *sc, const char *what, float scale, size_t *n,
                         char *err, size_t errlen))[9]
{
    size_t total = 0;
    for (unsigned m = 0; m < sc->mNumMeshes; m++) {
        const struct aiMesh *me = sc->mMeshes[m];
        if (!me || !me->mVertices) continue;
        for (unsigned f = 0; f < me->mNumFaces; f++)
            if (me->mFaces[f].mNumIndices == 3) total++;
    }
    if (total == 0) return bvh_fail_null(err, errlen, "%s: no triangles", what);
    if (total > BVH_MAX_TRIS)
        return bvh_fail_null(err, errlen, "%s: too many triangles: %zu (at most %u)", what, total,
                             BVH_MAX_TRIS);
    float(*t)[9] = malloc(sizeof *t * total);
    if (!t) return bvh_fail_null(err, errlen, "%s: out of memory", what);
    size_t k = 0;
    for (unsigned m = 0; m < sc->mNumMeshes; m++) {
        const struct aiMesh *me = sc->mMeshes[m];
        if (!me || !me->mVertices) continue;
        for (unsigned f = 0; f < me->mNumFaces; f++) {
            const struct aiFace *fa = &me->mFaces[f];
            if (fa->mNumIndices != 3) continue;
            for (int v = 0; v < 3; v++) {
                unsigned i = fa->mIndices[v];
                if (i >= me->mNumVertices) {
                    free(t);
                    return bvh_fail_null(err, errlen,
                                         "%s: mesh %u face %u: vertex index %u out of range", what,
                                         m, f, i);
                }
                const struct aiVector3D *p = &me->mVertices[i];
                float c[3] = {p->x, p->y, p->z};
                for (int a = 0; a < 3; a++) {
                    if (!isfinite(c[a])) {
                        free(t);
                        return bvh_fail_null(
                            err, errlen, "%s: mesh %u face %u: non-finite coordinate", what, m, f);
                    }
                    float s = c[a] * scale;
                    if (!isfinite(s)) {
                        free(t);
                        return bvh_fail_null(err, errlen,
                                             "%s: mesh %u face %u: coordinate %g overflows after "
                                             "scaling by %g",
                                             what, m, f, (double)c[a], (double)scale);
                    }
                    t[k][3 * v + a] = s;
                }
            }
            k++;
        }
    }
    *n = k;
    return t;
}

float (*bvh_mesh_load_file(const char *path, float scale, size_t *n, char *err, size_t errlen))[9]
{
    const struct aiScene *sc = aiImportFile(path, FLAGS);
    if (!sc) return bvh_fail_null(err, errlen, "%s: cannot import: %s", path, aiGetErrorString());
    float(*t)[9] = bvh_mesh_convert(sc, path, scale, n, err, errlen);
    aiReleaseImport(sc);
    return t;
}

float (*bvh_mesh_load_memory(const void *buf, size_t len, const char *hint, float scale, size_t *n,
                             char *err, size_t errlen))[9]
{
    if (len == 0 || len > UINT32_MAX)
        return bvh_fail_null(err, errlen, "<memory>: empty or too large");
    const struct aiScene *sc = aiImportFileFromMemory(buf, (unsigned)len, FLAGS, hint);
    if (!sc) return bvh_fail_null(err, errlen, "<memory>: cannot import: %s", aiGetErrorString());
    float(*t)[9] = bvh_mesh_convert(sc, "<memory>", scale, n, err, errlen);
    aiReleaseImport(sc);
    return t;
}
