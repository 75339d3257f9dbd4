/* xphmg_rt.h — the records a guest exchanges with the RT offload engine (`xsubmit.rt`,
 * spec/xphmg.xml Unit RT, docs/rt.md "Offload"): rays in, hits out, and the ring
 * descriptors of the ray, hit and miss queues (errata Q-70). A miss queue holds 32-bit
 * ray indices. */
#ifndef XPHMG_RT_GUEST_H
#define XPHMG_RT_GUEST_H

#include <stdint.h>

/* FMT_RAY, FP32 */
typedef struct {
    float org[3], dir[3], tmin, tmax;
} xphmg_ray;

/* FMT_QUEUE: entries base[head..tail) of a ring of cap entries (8-byte aligned) */
typedef struct {
    uint32_t head, tail, cap, rsv;
    uint64_t base;
} xphmg_rt_queue;

/* FMT_RT_HIT: t, u, v are FP32 bit patterns */
typedef struct {
    uint32_t ray, prim, t, u, v, rsv;
} xphmg_rt_hit;

_Static_assert(sizeof(xphmg_ray) == 32, "FMT_RAY is 32 bytes");
_Static_assert(sizeof(xphmg_rt_queue) == 24, "FMT_QUEUE is 24 bytes");
_Static_assert(sizeof(xphmg_rt_hit) == 24, "FMT_RT_HIT is 24 bytes");

#endif
