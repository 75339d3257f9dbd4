/* xmem_xdl.c — XDL layout metadata (errata Q-60, P-223; see xmem_xdl.h). */
#include "xmem_xdl.h"

/* REQ: XMEM-030 XMEM-155 XMEM-161 */
unsigned xmem_xdl_layout(const xmem_lds_blk *b)
{
    return b && b->tier == 0 ? XMEM_XDL_TILE4X4 : XMEM_XDL_NONE;
}

/* REQ: XMEM-156 XMEM-152 XMEM-158 */
uint64_t xmem_xdl_tile_index(uint32_t x, uint32_t y, uint32_t w)
{
    return ((uint64_t)(y / 4) * (w / 4) + x / 4) * 16 + (y % 4) * 4 + x % 4;
}

/* REQ: XMEM-031 XMEM-149 XMEM-153 XMEM-030 XMEM-148 */
xmem_xdl_status xmem_xdl_check(const xmem_lds *l, uint64_t a, uint64_t n, bool tiled, uint64_t *bad)
{
    const xmem_lds_blk *b = xmem_lds_find(l, a);
    *bad = a;
    if (n == 0 || xmem_xdl_layout(b) != XMEM_XDL_TILE4X4) return XMEM_XDL_OK;
    if (!tiled) return XMEM_XDL_REFUSED;
    if (a % XMEM_XDL_ALIGN) return XMEM_XDL_MISALIGNED;
    uint64_t end = b->base + b->size; /* a lies in [base, end) */
    if (n > end - a) {
        *bad = end;
        return XMEM_XDL_REFUSED;
    }
    return XMEM_XDL_OK;
}
