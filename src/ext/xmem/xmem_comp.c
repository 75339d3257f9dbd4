/* xmem_comp.c — the compressed-access codec (errata Q-55; see xmem_comp.h). */
#include "xmem_comp.h"

#include <string.h>
#include <zstd.h>

#include "xphmg_csr.h"

/* REQ: XMEM-103 XMEM-088 XMEM-138 */
xmem_comp_cfg xmem_comp_config(uint64_t comp_ctl, unsigned cmode)
{
    xmem_comp_cfg c;
    unsigned lvl =
        (unsigned)((comp_ctl & CAP_XMEM_COMP_CTL_LEVEL_MASK) >> CAP_XMEM_COMP_CTL_LEVEL_SHIFT);
    c.mode =
        cmode
            ? cmode
            : (unsigned)((comp_ctl & CAP_XMEM_COMP_CTL_MODE_MASK) >> CAP_XMEM_COMP_CTL_MODE_SHIFT);
    c.level = lvl ? (int)lvl : ZSTD_CLEVEL_DEFAULT;
    c.dict =
        (unsigned)((comp_ctl & CAP_XMEM_COMP_CTL_DICT_ID_MASK) >> CAP_XMEM_COMP_CTL_DICT_ID_SHIFT);
    return c;
}

/* What every access checks first: a supported format and sizes within the limit. */
/* REQ: XMEM-103 XMEM-088 XMEM-138 */
static int usable(const xmem_comp_cfg *c, size_t n, size_t cap)
{
    if (n > XMEM_COMP_MAX_BYTES || cap > XMEM_COMP_MAX_BYTES) return 0;
    if (c->mode == XMEM_COMP_RAW) return 1;
    return c->mode == XMEM_COMP_ZSTD && c->dict == 0;
}

/* The raw format: a copy that must fit. */
/* REQ: XMEM-103 XMEM-088 XMEM-138 */
static size_t copy_raw(const void *src, size_t n, void *dst, size_t cap)
{
    if (n > cap) return XMEM_COMP_FAIL;
    if (n) memcpy(dst, src, n);
    return n;
}

/* REQ: XMEM-103 XMEM-088 XMEM-138 */
size_t xmem_comp_decode(const xmem_comp_cfg *c, const void *src, size_t n, void *dst, size_t cap)
{
    if (!usable(c, n, cap)) return XMEM_COMP_FAIL;
    if (c->mode == XMEM_COMP_RAW) return copy_raw(src, n, dst, cap);
    /* A zstd stream holds at least one frame; an empty input is a truncated stream. */
    if (n == 0) return XMEM_COMP_FAIL;
    ZSTD_DCtx *d = ZSTD_createDCtx();
    if (!d) return XMEM_COMP_FAIL;
    /* Single-pass: libzstd decodes straight into dst and refuses to go past cap
     * (dstSize_tooSmall), whatever the frame header claims. */
    size_t r = ZSTD_decompressDCtx(d, dst, cap, src, n);
    ZSTD_freeDCtx(d);
    return ZSTD_isError(r) ? XMEM_COMP_FAIL : r;
}

/* REQ: XMEM-103 XMEM-088 XMEM-138 */
size_t xmem_comp_encode(const xmem_comp_cfg *c, const void *src, size_t n, void *dst, size_t cap)
{
    if (!usable(c, n, cap)) return XMEM_COMP_FAIL;
    if (c->mode == XMEM_COMP_RAW) return copy_raw(src, n, dst, cap);
    ZSTD_CCtx *z = ZSTD_createCCtx();
    if (!z) return XMEM_COMP_FAIL;
    size_t r = ZSTD_CCtx_setParameter(z, ZSTD_c_compressionLevel, c->level);
    /* The checksum lets a later load detect a corrupted payload (COMP_ERR), not only a
     * corrupted structure. */
    if (!ZSTD_isError(r)) r = ZSTD_CCtx_setParameter(z, ZSTD_c_checksumFlag, 1);
    if (!ZSTD_isError(r)) r = ZSTD_compress2(z, dst, cap, src, n);
    ZSTD_freeCCtx(z);
    return ZSTD_isError(r) ? XMEM_COMP_FAIL : r;
}
