/* rt_encode.c — the RT record encoders that go through the numeric engine (contract:
 * rt_kernels.h): binary16 node boxes rounded outward, results rounded to the element
 * format, the element format of a PET. Apart from rt_kernels.c so that the geometry
 * kernels need no numeric engine (the guest program examples/render compiles
 * rt_kernels.c for its plain software traversal). */
#include "rt_kernels.h"

#include <math.h>
#include <string.h>

static uint32_t f2u(float x)
{
    uint32_t u;
    memcpy(&u, &x, sizeof u);
    return u;
}

static void st16(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
/* binary32 -> binary16 by the host's F16C instruction with a directed rounding given in the
 * instruction (vcvtps2ph imm 1 = toward -inf, 2 = toward +inf; MXCSR not used): the IEEE
 * conversion, as the numeric engine's for the values enc16 lets through (no NaN, no
 * overflow). The BVH builder encodes 24 coordinates per node. */
__attribute__((target("f16c"))) static uint32_t narrow_f16c(float x, bool up)
{
    __m128 v = _mm_set_ss(x);
    __m128i h = up ? _mm_cvtps_ph(v, 2) : _mm_cvtps_ph(v, 1);
    return (uint32_t)_mm_extract_epi16(h, 0);
}
#endif

/* A coordinate to binary16 rounded by rm (NUM_RDN or NUM_RUP); false for NaN and finite
 * |x| > 65504. */
/* REQ: RT-032 RT-034 */
static bool enc16(float x, num_rm rm, uint32_t *h)
{
    if ((f2u(x) & 0x7fffffffu) > 0x7f800000u) return false; /* NaN */
    if (fabsf(x) != INFINITY && fabsf(x) > 65504.0f) return false;
#if defined(__x86_64__) && defined(__GNUC__)
    if (rt_host_f16c() && (rm == NUM_RDN || rm == NUM_RUP)) {
        *h = narrow_f16c(x, rm == NUM_RUP);
        return true;
    }
#endif
    num_policy pol = num_policy_default();
    pol.rm = rm;
    *h = num_convert(NUM_FP16, NUM_FP32, f2u(x), &pol, NULL);
    return true;
}

/* REQ: RT-032 RT-034 RT-035 */
bool rt_node4_encode(const rt_node4 *n, uint8_t bytes[64])
{
    uint8_t out[64] = {0};
    for (unsigned c = 0; c < 4; c++) {
        if (n->index[c] > 0xffffffu || n->kind[c] > 3u) return false;
        uint8_t *p = out + 12 * c;
        for (unsigned i = 0; i < 3; i++) {
            uint32_t lo, hi;
            if (!enc16(n->box[c].lo[i], NUM_RDN, &lo) || !enc16(n->box[c].hi[i], NUM_RUP, &hi))
                return false;
            st16(p + 2 * i, lo);
            st16(p + 6 + 2 * i, hi);
        }
        uint8_t *q = out + 48 + 3 * c;
        q[0] = (uint8_t)n->index[c];
        q[1] = (uint8_t)(n->index[c] >> 8);
        q[2] = (uint8_t)(n->index[c] >> 16);
        out[60] |= (uint8_t)(n->kind[c] << (2 * c));
    }
    memcpy(bytes, out, 64);
    return true;
}

/* ---- Formats ------------------------------------------------------------------------ */

/* REQ: RT-040 RT-069 RT-071 RT-075 RT-076 */
bool rt_elem_from_pet(unsigned eff_pet, bool q, rt_elem *e)
{
    *e = RT_ELEM_FP32;
    if (q) return false;
    switch (eff_pet) {
    case 0:
        *e = RT_ELEM_FP16;
        return true;
    case 1:
        return true;
    case 2:
        *e = RT_ELEM_BF16;
        return true;
    default:
        return false;
    }
}

/* REQ: RT-070 RT-071 RT-074 RT-077 RT-079 RT-093 RT-105 RT-106 RT-107 */
uint32_t rt_result_convert(float x, rt_elem e, const num_policy *pol, num_flags *f)
{
    num_fmt dst = e == RT_ELEM_FP16 ? NUM_FP16 : e == RT_ELEM_BF16 ? NUM_BF16 : NUM_FP32;
    return num_convert(dst, NUM_FP32, f2u(x), pol, f);
}
