/* xphmg-bvh — builds XBVH blobs (include/xphmg/bvh.h) from mesh files or built-in meshes,
 * and prints the statistics of a blob. docs/tools.md "xphmg-bvh".
 *
 *   xphmg-bvh [--scale S] [--y-up] [--import-cpu S] [--import-mem MIB] MESH OUT.xbvh
 *   xphmg-bvh [--scale S] [--tris N] --procedural NAME OUT.xbvh
 *   xphmg-bvh --info FILE.xbvh
 *
 * Exit status: 0 ok, 1 bad input (mesh, blob, write error), 2 usage, 3 the mesh importer
 * crashed, hung or ran over its CPU-time or memory limit (it runs in a child process:
 * bvh_isolate.h, errata P-308). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bvh_isolate.h"
#include "read_file.h"
#include "xphmg/bvh.h"

static const char *prog = "xphmg-bvh";

static int usage(const char *msg)
{
    if (msg) fprintf(stderr, "%s: %s\n", prog, msg);
    fprintf(stderr,
            "usage: %s [--scale S] [--y-up] [--import-cpu S] [--import-mem MIB] MESH OUT.xbvh\n"
            "       %s [--scale S] [--tris N] --procedural NAME OUT.xbvh\n"
            "       %s --info FILE.xbvh\n"
            "NAME: sphere terrain soup grid\n"
            "--y-up turns a mesh modelled with +y up to +z up (x, -z, y), as the render\n"
            "example's camera expects.\n"
            "The importer runs in a child process limited to --import-cpu seconds of CPU\n"
            "time (default %u) and --import-mem MiB of memory (default %u); exit 3 when it\n"
            "crashes, hangs or runs over them.\n",
            prog, prog, prog, BVH_IMPORT_DEFAULT_CPU_S, BVH_IMPORT_DEFAULT_MEM_MB);
    return 2;
}

static int print_info(const char *path)
{
    char *buf;
    size_t len;
    read_file_status rd = read_file_bounded(path, ((size_t)1 << 41) - 1, &buf, &len);
    if (rd == READ_FILE_OPEN) {
        fprintf(stderr, "%s: %s: %s\n", prog, path, strerror(errno));
        return 1;
    }
    if (rd != READ_FILE_OK) {
        fprintf(stderr, "%s: %s: read error\n", prog, path);
        return 1;
    }
    char err[256];
    bvh_info in;
    if (!bvh_check((const uint8_t *)buf, len, 0, &in, err, sizeof err)) {
        fprintf(stderr, "%s: %s: invalid XBVH blob: %s\n", prog, path, err);
        free(buf);
        return 1;
    }
    free(buf);
    const bvh_header *h = &in.hdr;
    printf("file        %s (%zu bytes)\n", path, len);
    printf("version     %u\n", h->version);
    printf("triangles   %u (at %llu)\n", h->tri_count, (unsigned long long)h->tris_off);
    printf("nodes       %u (at %llu), depth %u, empty child slots %u\n", h->node_count,
           (unsigned long long)h->nodes_off, in.depth, in.empty_slots);
    printf("leaves      %u TriRanges (at %llu), %.2f triangles per leaf, at most %u\n",
           h->range_count, (unsigned long long)h->ranges_off,
           in.leaves ? (double)h->tri_count / in.leaves : 0.0, in.max_leaf);
    printf("bounds      (%g, %g, %g) - (%g, %g, %g)\n", (double)h->bounds_lo[0],
           (double)h->bounds_lo[1], (double)h->bounds_lo[2], (double)h->bounds_hi[0],
           (double)h->bounds_hi[1], (double)h->bounds_hi[2]);
    printf("sah_cost    %.3f (node and triangle tests per ray, relative to the scene box)\n",
           in.sah_cost);
    return 0;
}

int main(int argc, char **argv)
{
    const char *info = NULL, *proc = NULL, *pos[2] = {NULL, NULL};
    float scale = 1.0f;
    bool y_up = false;
    size_t ntris = 4096;
    unsigned long long import_cpu = BVH_IMPORT_DEFAULT_CPU_S,
                       import_mem = BVH_IMPORT_DEFAULT_MEM_MB;
    int npos = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(NULL);
            return 0;
        }
        bool has_arg = strcmp(a, "--scale") == 0 || strcmp(a, "--info") == 0 ||
                       strcmp(a, "--procedural") == 0 || strcmp(a, "--tris") == 0 ||
                       strcmp(a, "--import-cpu") == 0 || strcmp(a, "--import-mem") == 0;
        if (has_arg && i + 1 >= argc) {
            fprintf(stderr, "%s: %s needs an argument\n", prog, a);
            return usage(NULL);
        }
        if (strcmp(a, "--scale") == 0) {
            char *end;
            double s = strtod(argv[++i], &end);
            if (*end || end == argv[i] || !(s > 0.0) || !isfinite((float)s)) {
                fprintf(stderr, "%s: --scale %s: not a positive finite number\n", prog, argv[i]);
                return usage(NULL);
            }
            scale = (float)s;
        } else if (strcmp(a, "--tris") == 0) {
            char *end;
            unsigned long long v = strtoull(argv[++i], &end, 10);
            if (*end || end == argv[i] || argv[i][0] == '-' || v < 2 || v > BVH_MAX_TRIS) {
                fprintf(stderr, "%s: --tris %s: not a number in 2..%u\n", prog, argv[i],
                        BVH_MAX_TRIS);
                return usage(NULL);
            }
            ntris = (size_t)v;
        } else if (strcmp(a, "--import-cpu") == 0 || strcmp(a, "--import-mem") == 0) {
            char *end;
            unsigned long long v = strtoull(argv[++i], &end, 10);
            if (*end || end == argv[i] || argv[i][0] == '-' || v < 1 || v > 1000000) {
                fprintf(stderr, "%s: %s %s: not a number in 1..1000000\n", prog, a, argv[i]);
                return usage(NULL);
            }
            *(a[9] == 'c' ? &import_cpu : &import_mem) = v;
        } else if (strcmp(a, "--y-up") == 0) {
            y_up = true;
        } else if (strcmp(a, "--info") == 0) {
            info = argv[++i];
        } else if (strcmp(a, "--procedural") == 0) {
            proc = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "%s: unknown option %s\n", prog, a);
            return usage(NULL);
        } else if (npos < 2) {
            pos[npos++] = a;
        } else {
            return usage("too many arguments");
        }
    }
    if (info) {
        if (npos || proc) return usage("--info takes no other arguments");
        return print_info(info);
    }
    if (npos != (proc ? 1 : 2)) return usage("missing arguments");
    const char *out = pos[npos - 1];
    char err[512];
    size_t n = 0;
    float(*tris)[9];
    if (proc) {
        bool known = false;
        for (const char *const *p = bvh_procedural_names; *p; p++)
            known |= strcmp(*p, proc) == 0;
        if (!known) {
            fprintf(stderr, "%s: unknown procedural mesh '%s'\n", prog, proc);
            return usage(NULL);
        }
        tris = bvh_procedural(proc, ntris, &n);
        if (!tris) {
            fprintf(stderr, "%s: %s: out of memory\n", prog, proc);
            return 1;
        }
        for (size_t i = 0; i < n; i++)
            for (int k = 0; k < 9; k++)
                tris[i][k] *= scale;
    } else {
        bvh_import_limits lim = {(unsigned)import_cpu, (size_t)import_mem << 20,
                                 2 * (unsigned)import_cpu + 10};
        bvh_import_failure why;
        tris = bvh_mesh_load_file_isolated(pos[0], scale, &lim, &n, &why, err, sizeof err);
        if (!tris) {
            fprintf(stderr, "%s: %s\n", prog, err);
            return why == BVH_IMPORT_LIMIT ? 3 : 1;
        }
    }
    if (y_up) /* a mesh modelled with +y up (OBJ, glTF) turned to +z up: (x, y, z) -> (x, -z, y) */
        for (size_t i = 0; i < n; i++)
            for (int v = 0; v < 3; v++) {
                float *p = tris[i] + 3 * v, y = p[1];
                p[1] = 0.0f - p[2]; /* 0 - z: a zero stays +0 */
                p[2] = y;
            }
    bvh_blob b;
    bool ok = bvh_build((const float(*)[9])tris, n, false, &b, err, sizeof err);
    free(tris);
    if (!ok) {
        fprintf(stderr, "%s: %s: %s\n", prog, proc ? proc : pos[0], err);
        return 1;
    }
    FILE *f = fopen(out, "wb");
    if (!f) {
        fprintf(stderr, "%s: %s: %s\n", prog, out, strerror(errno));
        bvh_blob_free(&b);
        return 1;
    }
    bool wok = fwrite(b.data, 1, b.size, f) == b.size;
    wok &= fclose(f) == 0;
    bvh_blob_free(&b);
    if (!wok) {
        fprintf(stderr, "%s: %s: write error\n", prog, out);
        return 1;
    }
    return 0;
}
