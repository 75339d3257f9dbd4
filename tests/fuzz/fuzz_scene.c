/* fuzz_scene.c — the in-process half of xphmg-bvh's mesh path at full speed (errata
 * P-310): an imported scene, as assimp hands it over, to triangles (bvh_mesh_convert),
 * to an XBVH blob (bvh_build), through the validator (bvh_check) and relocation. The
 * importer itself runs in a child process per input and is fuzzed by fuzz_mesh.
 *
 * Input: byte 0 picks the scale, byte 1 the number of meshes (0..3); per mesh a flags
 * byte (bit 0: the mesh pointer is NULL, bit 1: no vertex array), the vertex count and
 * the face count (0..63 each), the vertices as raw FP32 bits (NaN, infinities, huge
 * values included), then per face a byte whose value mod 5 is its index count and that
 * many index bytes (indices up to 255: out of range for most meshes). Missing bytes read
 * as zero.
 *
 * Properties, each checked against the harness's own reading of the scene: convert
 * refuses (with a reason) exactly when the scene has no 3-index face, a 3-index face
 * with an index out of range, or a non-finite coordinate before or after scaling;
 * otherwise it returns every 3-index face, in order, scaled. bvh_build refuses exactly
 * when a coordinate lies beyond +-65504; what it builds passes bvh_check with every
 * triangle stored once (perm is a permutation, the stored triangle is the input one),
 * and passes again relocated to 0x80000000. */
#include <assimp/scene.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_mesh.h"
#include "fuzz.h"
#include "xphmg/bvh.h"

#define MAX_MESHES 3

typedef struct {
    const uint8_t *p;
    size_t n;
} cursor;

static uint8_t next_byte(cursor *c)
{
    if (!c->n) return 0;
    c->n--;
    return *c->p++;
}

static float next_float(cursor *c)
{
    uint8_t b[4];
    for (int i = 0; i < 4; i++)
        b[i] = next_byte(c);
    float f;
    memcpy(&f, b, 4);
    return f;
}

typedef struct {
    struct aiScene scene;
    struct aiMesh *mesh_ptr[MAX_MESHES];
    struct aiMesh mesh[MAX_MESHES];
    struct aiVector3D vert[MAX_MESHES][64];
    struct aiFace face[MAX_MESHES][64];
    unsigned idx[MAX_MESHES][64][4];
} scene_buf;

static void build_scene(scene_buf *b, cursor *c)
{
    memset(b, 0, sizeof *b);
    b->scene.mNumMeshes = next_byte(c) % (MAX_MESHES + 1);
    b->scene.mMeshes = b->mesh_ptr;
    for (unsigned m = 0; m < b->scene.mNumMeshes; m++) {
        uint8_t flags = next_byte(c);
        struct aiMesh *me = &b->mesh[m];
        b->mesh_ptr[m] = flags & 1 ? NULL : me;
        me->mNumVertices = next_byte(c) % 64;
        me->mNumFaces = next_byte(c) % 64;
        me->mVertices = flags & 2 ? NULL : b->vert[m];
        me->mFaces = b->face[m];
        for (unsigned v = 0; v < me->mNumVertices; v++) {
            b->vert[m][v].x = next_float(c);
            b->vert[m][v].y = next_float(c);
            b->vert[m][v].z = next_float(c);
        }
        for (unsigned f = 0; f < me->mNumFaces; f++) {
            struct aiFace *fa = &b->face[m][f];
            fa->mNumIndices = next_byte(c) % 5;
            fa->mIndices = b->idx[m][f];
            for (unsigned k = 0; k < fa->mNumIndices; k++)
                b->idx[m][f][k] = next_byte(c);
        }
    }
}

/* The harness's reading: the expected triangles (into t, at most cap), their count, and
 * whether convert must refuse. */
static bool expect(const scene_buf *b, float scale, float (*t)[9], size_t *count)
{
    size_t k = 0;
    bool bad = false;
    for (unsigned m = 0; m < b->scene.mNumMeshes; m++) {
        const struct aiMesh *me = b->mesh_ptr[m];
        if (!me || !me->mVertices) continue;
        for (unsigned f = 0; f < me->mNumFaces; f++) {
            const struct aiFace *fa = &me->mFaces[f];
            if (fa->mNumIndices != 3) continue;
            for (int v = 0; v < 3; v++) {
                unsigned i = fa->mIndices[v];
                if (i >= me->mNumVertices) {
                    bad = true;
                    continue;
                }
                const float c[3] = {me->mVertices[i].x, me->mVertices[i].y, me->mVertices[i].z};
                for (int a = 0; a < 3; a++) {
                    float s = c[a] * scale;
                    if (!isfinite(c[a]) || !isfinite(s)) bad = true;
                    t[k][3 * v + a] = s;
                }
            }
            k++;
        }
    }
    *count = k;
    return !bad && k > 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const float scales[] = {1.0f, 0.5f, 2.0f, -1.0f, 1e30f, 1e-30f, 3.0f, 1e4f};
    static scene_buf b;
    static float want[MAX_MESHES * 64][9];
    cursor c = {data, size};
    float scale = scales[next_byte(&c) % 8];
    build_scene(&b, &c);
    size_t nwant = 0;
    bool ok = expect(&b, scale, want, &nwant);

    char err[256] = "";
    size_t n = 0;
    float(*t)[9] = bvh_mesh_convert(&b.scene, "<fuzz>", scale, &n, err, sizeof err);
    if (!t) {
        if (ok || !err[0]) abort();
        return 0;
    }
    if (!ok || n != nwant || memcmp(t, want, n * sizeof *t) != 0) abort();

    bool in_range = true;
    for (size_t i = 0; i < n; i++)
        for (int a = 0; a < 9; a++)
            if (fabsf(t[i][a]) > BVH_COORD_MAX) in_range = false;
    bvh_blob blob;
    if (!bvh_build((const float(*)[9])t, n, true, &blob, err, sizeof err)) {
        if (in_range || !err[0]) abort();
        free(t);
        return 0;
    }
    if (!in_range) abort();
    bvh_info info;
    if (!bvh_check(blob.data, blob.size, 0, &info, err, sizeof err) || info.hdr.tri_count != n)
        abort();
    /* every input triangle stored exactly once, bit for bit */
    uint8_t *seen = calloc(n, 1);
    if (!seen) abort();
    for (size_t i = 0; i < n; i++) {
        uint32_t src = blob.perm[i];
        if (src >= n || seen[src]) abort();
        seen[src] = 1;
        if (memcmp(blob.data + info.hdr.tris_off + i * BVH_TRI_SIZE, t[src], BVH_TRI_SIZE)) abort();
    }
    free(seen);
    bvh_relocate(blob.data, UINT64_C(0x80000000));
    if (!bvh_check(blob.data, blob.size, UINT64_C(0x80000000), &info, err, sizeof err)) abort();
    bvh_blob_free(&blob);
    free(t);
    return 0;
}
