/* fuzz_comp.c — arbitrary bytes as a compressed stream for `xmem.dloadc` (errata Q-55).
 * Byte 0 picks the destination capacity (byte * 256), the rest is the stream.
 * Properties: the decoder returns a failure or at most the capacity, never writes past
 * the capacity (a guard after it stays intact), and what it accepts stores and loads
 * back unchanged. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "xmem_comp.h"

#define GUARD 256

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1) return 0;
    size_t cap = (size_t)data[0] * 256;
    uint8_t *out = malloc(cap + GUARD), *frame = NULL, *again = NULL;
    if (!out) abort();
    memset(out, 0xEE, cap + GUARD);
    xmem_comp_cfg c = xmem_comp_config(0x11, 0); /* zstd, level 1 */
    size_t n = xmem_comp_decode(&c, data + 1, size - 1, out, cap);
    for (size_t i = 0; i < GUARD; i++)
        if (out[cap + i] != 0xEE) abort();
    if (n != XMEM_COMP_FAIL) {
        if (n > cap) abort();
        size_t fcap = n + n / 64 + 256;
        frame = malloc(fcap);
        again = malloc(n ? n : 1);
        if (!frame || !again) abort();
        size_t f = xmem_comp_encode(&c, out, n, frame, fcap);
        if (f == XMEM_COMP_FAIL || xmem_comp_decode(&c, frame, f, again, n) != n ||
            memcmp(again, out, n) != 0)
            abort();
    }
    free(out);
    free(frame);
    free(again);
    return 0;
}
