/* fuzz_xbvh.c — arbitrary bytes as an XBVH blob (docs/bvh.md): the validator accepts or
 * refuses with a reason, reading nothing outside the blob (ASan); an accepted blob,
 * relocated to 0x80000000 (TriRange.base rewritten), passes as relocated there. */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "xphmg/bvh.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[256];
    bvh_info info;
    if (!bvh_check(data, size, 0, &info, err, sizeof err)) {
        if (!err[0]) abort(); /* a refusal always says why */
        return 0;
    }
    uint8_t *copy = malloc(size ? size : 1);
    if (!copy) return 0;
    memcpy(copy, data, size);
    bvh_relocate(copy, UINT64_C(0x80000000));
    if (!bvh_check(copy, size, UINT64_C(0x80000000), &info, err, sizeof err)) abort();
    free(copy);
    return 0;
}
