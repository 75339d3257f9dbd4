/* bvh_mesh.h — mesh files to FP32 triangle lists through assimp (OBJ, PLY, STL, glTF, ...),
 * for xphmg-bvh and its tests. */
#ifndef XPHMG_BVH_MESH_H
#define XPHMG_BVH_MESH_H

#include <stdbool.h>
#include <stddef.h>

/* Imports a mesh file (path) or an in-memory file (buf, len; hint = the file extension
 * without the dot, e.g. "obj"): every mesh of the scene with node transforms applied,
 * polygons triangulated, points and lines dropped. Returns a malloc'ed array of *n
 * triangles {v0.xyz, v1.xyz, v2.xyz} multiplied by scale, or NULL with a one-line reason
 * in err (unreadable or unparsable file, no triangles, a non-finite coordinate before or
 * after scaling, too many triangles). */
float (*bvh_mesh_load_file(const char *path, float scale, size_t *n, char *err, size_t errlen))[9];
float (*bvh_mesh_load_memory(const void *buf, size_t len, const char *hint, float scale, size_t *n,
                             char *err, size_t errlen))[9];

/* The second half of both: the triangles of an imported scene (the assimp structures;
 * faces with 3 indices, the other fields unread), checked as described above. Apart so
 * that it can be fuzzed in process (tests/fuzz/fuzz_scene.c). */
struct aiScene;
float (*bvh_mesh_convert(const struct aiScene *sc, const char *what, float scale, size_t *n,
                         char *err, size_t errlen))[9];

#endif
