/* xmem_xdl.h — XDL layout metadata (XMEM 3.2.10, 13; errata Q-60, P-223): the canonical
 * XDL_TILE4x4_ROWMAJOR tile and its composite tiles, and which regions declare them.
 * Pure (no hart): host-testable.
 *
 * Layout ids (XMEM 13.6 leaves the encoding to the implementation): XMEM_XDL_NONE = no
 * declared layout (bytes as software put them), XMEM_XDL_TILE4X4 = XDL_TILE4x4_ROWMAJOR
 * tiles, a W x H tensor being the composite tile XDL_TILE(H, W) of (H/4) x (W/4) canonical
 * tiles in row-major tile order (13.5).
 *
 * The metadata is implicit (13.6 "implicitly via ..."), a property of the region's tier:
 * a Tier-0 region (the hot cross-engine handoff area, 3.2.10, 13.4 "All cross-engine
 * handoffs in Tier-0 MUST use this layout") declares XMEM_XDL_TILE4X4; every other region
 * and memory outside regions declares nothing (13.7: Tier-1 is where layouts are built).
 * MEMCTL has no layout field, so nothing else can change it, and it follows the region
 * through a handoff (a domain change keeps the tier, 13.7 "layout metadata must remain
 * consistent").
 *
 * The engine that interprets layouts is XSWZ (the tensor side of `xswz.tex2ten` /
 * `xswz.ten2tex`). On a tensor buffer that starts in a region declaring XDL tiles it must
 * use the tiled layout, start at a 16-byte boundary (13.4 "stride-aligned (>= 16 bytes)")
 * and stay inside the region (13.3: a tile is never split across address spaces);
 * otherwise the access is refused (xmem_xdl_check). */
#ifndef XPHMG_EXT_XMEM_XDL_H
#define XPHMG_EXT_XMEM_XDL_H

#include <stdbool.h>
#include <stdint.h>

#include "xmem_lds.h"

enum { XMEM_XDL_NONE = 0, XMEM_XDL_TILE4X4 = 1 };

/* The minimum alignment of an XDL tile and of every XMEM region (13.3, 13.4): the LDS
 * granule, so every region can hold a tile. */
#define XMEM_XDL_ALIGN 16u

/* The layout region b declares (NULL: memory outside regions, none). */
unsigned xmem_xdl_layout(const xmem_lds_blk *b);

/* Element (x, y) of a W-wide composite tile (W and H multiples of 4): its element index,
 * ((y / 4) * (W / 4) + x / 4) * 16 + (y % 4) * 4 + x % 4. */
uint64_t xmem_xdl_tile_index(uint32_t x, uint32_t y, uint32_t w);

typedef enum {
    XMEM_XDL_OK,         /* no declared layout, or the access follows it */
    XMEM_XDL_MISALIGNED, /* a tile buffer not on a 16-byte boundary */
    XMEM_XDL_REFUSED,    /* a non-XDL interpretation, or a tile leaving its region */
} xmem_xdl_status;

/* Whether an engine may interpret the n bytes at a (n > 0) with the tiled layout (tiled)
 * or another one (!tiled), under the regions of l. *bad = the address to report: a, or
 * the first byte past the region. */
xmem_xdl_status xmem_xdl_check(const xmem_lds *l, uint64_t a, uint64_t n, bool tiled,
                               uint64_t *bad);

#endif
