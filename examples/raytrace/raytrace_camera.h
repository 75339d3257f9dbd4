/* raytrace_camera.h — the primary rays of examples/raytrace, shared by the guest program
 * (raytrace.c) and the host reference (raytrace_ref.c) so both trace bit-identical FP32
 * rays. Only IEEE binary32 +, -, *, / and sqrt are used and both sides are compiled with
 * -ffp-contract=off, so the guest (RISC-V F) and the host (x86-64 SSE) compute the same
 * bits. The camera is derived from the scene bounds of the XBVH header. */
#ifndef RAYTRACE_CAMERA_H
#define RAYTRACE_CAMERA_H

#include <math.h>

#define RT_W 64
#define RT_H 48

/* A pinhole camera above and to the right of the scene, looking at its centre. The odd
 * fractions keep pixel centres off the scene's "round" coordinates (edges of a procedural
 * mesh often lie there). */
static inline void camera_ray(const float lo[3], const float hi[3], int px, int py, float org[3],
                              float dir[3])
{
    float c[3], ext = 0.0f;
    for (int i = 0; i < 3; i++) {
        c[i] = (lo[i] + hi[i]) * 0.5f;
        float e = hi[i] - lo[i];
        if (e > ext) ext = e;
    }
    float eye[3] = {c[0] + 0.419f * ext, c[1] + 0.593f * ext, c[2] + 1.171f * ext};
    float f[3] = {c[0] - eye[0], c[1] - eye[1], c[2] - eye[2]};
    float fl = sqrtf(f[0] * f[0] + f[1] * f[1] + f[2] * f[2]);
    for (int i = 0; i < 3; i++)
        f[i] = f[i] / fl;
    /* right = f x (0,1,0), up = right x f */
    float r[3] = {-f[2], 0.0f, f[0]};
    float rl = sqrtf(r[0] * r[0] + r[2] * r[2]);
    r[0] = r[0] / rl;
    r[2] = r[2] / rl;
    float u[3] = {r[1] * f[2] - r[2] * f[1], r[2] * f[0] - r[0] * f[2], r[0] * f[1] - r[1] * f[0]};
    const float s = 0.55f / (float)(RT_W / 2); /* half-width of the image plane at 1 */
    float a = ((float)px + 0.5f - (float)(RT_W / 2)) * s;
    float b = ((float)(RT_H / 2) - (float)py - 0.5f) * s;
    for (int i = 0; i < 3; i++) {
        org[i] = eye[i];
        dir[i] = f[i] + a * r[i] + b * u[i];
    }
}

/* Shade of a hit: the squared cosine between the triangle's normal n and the light
 * direction (1, 1.7, 2.9) picks one of 9 characters (two-sided: the square). */
#define RT_RAMP    ".,:-=+*#@"
#define RT_LIGHT_X 1.0f
#define RT_LIGHT_Y 1.7f
#define RT_LIGHT_Z 2.9f

/* FNV-1a over the 32-bit little-endian hit words (prim + 1, 0 for a miss), row-major. */
#define RT_FNV_OFFSET 2166136261u
#define RT_FNV_PRIME  16777619u

#endif
