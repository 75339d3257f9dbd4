/* le_bytes.h — the little-endian value of n bytes (n <= 8), and its bytes, for the tests'
 * fake memories. Written byte by byte here, independent of the code under test (rt_le_get,
 * the hart's loads and stores). */
#ifndef XPHMG_TEST_LE_BYTES_H
#define XPHMG_TEST_LE_BYTES_H

#include <stdint.h>

static inline uint64_t le_bytes_get(const uint8_t *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[i] << (8 * i);
    return v;
}

static inline void le_bytes_put(uint8_t *p, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

#endif
