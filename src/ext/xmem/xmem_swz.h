/* xmem_swz.h — XSWZ relayout copies, the semantics of `xswz.tex2ten` / `xswz.ten2tex rd,
 * rs1, rs2, rs3[, layout]` (project encoding, errata; XMEM 6.3, 13.4, 13.5).
 *
 * Pure module: no hart. The copy runs over a three-callback memory interface
 * (xmem_swz_mem): a side-effect-free probe plus load/store, backed on the hart by
 * hart_mem_ok + hart_load/hart_store (xmem_unit.c) and in host tests by a fake memory.
 *
 * The image: W x H elements (W = rs3 bits 31:0, H = rs3 bits 63:32) of E = EFF_EW / 8
 * bytes (snapshot, 1 << EW code), raw bits, never converted. Element (x, y), 0 <= x < W,
 * 0 <= y < H, has an index in each layout; its address is buffer + index * E:
 *   - texture linear (LAYOUT bit 0 = 0):   y * W + x;
 *   - texture Morton (LAYOUT bit 0 = 1):   xmem_swz_morton(x, y, W, H): W and H must be
 *     powers of two; with m = min(log2 W, log2 H), bit k of x goes to index bit 2k and
 *     bit k of y to bit 2k + 1 for k < m; the remaining high bits of the longer side (x
 *     bits m.. when W > H, y bits m.. when H > W) follow from bit 2m up, in order. So a
 *     square image is plain Z-order and a 2^a x 2^b image is a row (W > H) or column
 *     (H > W) of square Z-order blocks; the index is a permutation of 0 .. W*H-1;
 *   - tensor tiled (LAYOUT bit 1 = 0):     XDL_TILE4x4_ROWMAJOR composite tiles in
 *     row-major tile order (XMEM 13.5): ((y / 4) * (W / 4) + x / 4) * 16 + (y % 4) * 4 +
 *     x % 4; W and H must be multiples of 4;
 *   - tensor linear (LAYOUT bit 1 = 1):    y * W + x.
 * Every layout occupies exactly W*H*E contiguous bytes. tex2ten moves element (x, y) from
 * its texture address in the source (rs2) to its tensor address in the destination (rs1);
 * ten2tex from its tensor address in the source to its texture address in the
 * destination (the inverse, same LAYOUT bits). Elements are moved in row-major (y, then
 * x) order; rd = W*H*E (bytes written). W = 0 or H = 0: nothing is accessed, rd = 0 (legal
 * in every layout: 0 counts as a multiple of 4 and as a power of two here).
 *
 * Illegal instruction (nothing accessed): tensor tiled with W or H not a multiple of 4;
 * texture Morton with W or H not a power of two (and not 0).
 * Faults (as `xlds.cpy`, Q-50): before anything is written, the source range [rs2, rs2 +
 * W*H*E) is checked byte by byte, then the destination range [rs1, ...): load access
 * fault (5) at the first unreadable source byte, else store access fault (7) at the first
 * unwritable destination byte; mtval = that address (ranges wrap modulo 2^64), INV_MISS
 * . W*H*E >= 2^64 is taken as 2^64 - 1 bytes, which always faults. The check stops at
 * the first inaccessible byte, so the work is bounded by the accessible range.
 * Overlapping source and destination: the result is undefined (the elements are moved in
 * the order above, one by one; nothing else happens). */
#ifndef XPHMG_EXT_XMEM_SWZ_H
#define XPHMG_EXT_XMEM_SWZ_H

#include <stdbool.h>
#include <stdint.h>

/* LAYOUT (funct2) bits, errata Q-56. */
#define XMEM_SWZ_TEX_MORTON 1u /* bit 0: texture side 0 linear, 1 Morton */
#define XMEM_SWZ_TEN_LINEAR 2u /* bit 1: tensor side 0 XDL_TILE4x4_ROWMAJOR tiles, 1 linear */

/* Memory as the copy sees it. ok(): would load (store = false) / store of size bytes at
 * addr succeed; no side effect. load/store are only called where ok() said yes. */
typedef struct {
    void *ctx;
    bool (*ok)(void *ctx, uint64_t addr, unsigned size, bool store);
    bool (*load)(void *ctx, uint64_t addr, unsigned size, uint64_t *val);
    bool (*store)(void *ctx, uint64_t addr, unsigned size, uint64_t val);
} xmem_swz_mem;

typedef enum {
    XMEM_SWZ_DONE,    /* rd = bytes written */
    XMEM_SWZ_ILLEGAL, /* illegal instruction: nothing accessed */
    XMEM_SWZ_TRAP,    /* access fault before anything was written */
} xmem_swz_status;

typedef struct {
    xmem_swz_status status;
    uint64_t rd;      /* DONE: W * H * E */
    bool fault_store; /* TRAP: store access fault (7), else load access fault (5) */
    uint64_t tval;    /* TRAP: the first inaccessible byte */
} xmem_swz_result;

/* The Morton index of (x, y) in a w x h image (w, h powers of two), as above. */
uint64_t xmem_swz_morton(uint32_t x, uint32_t y, uint32_t w, uint32_t h);

/* Whether every byte of [a, a + n) passes m->ok (one byte at a time, 8 at a time where an
 * 8-byte probe and the 1-byte probe of its first byte pass); else *bad = the first byte
 * that does not. Bounded by the accessible range, not by n. */
bool xmem_swz_range_ok(const xmem_swz_mem *m, uint64_t a, uint64_t n, bool store, uint64_t *bad);

/* Whether layout and extent are legal (not an illegal instruction, see above). */
bool xmem_swz_legal(unsigned layout, uint64_t extent);
/* W * H * esize bytes, saturated at 2^64 - 1. */
uint64_t xmem_swz_bytes(uint64_t extent, unsigned esize);

/* One `xswz.tex2ten` (ten2tex = false) or `xswz.ten2tex` (true): destination dst (rs1),
 * source src (rs2), extent (rs3), layout = funct2, esize = element bytes (1, 2, 4, 8). */
void xmem_swz_exec(const xmem_swz_mem *m, bool ten2tex, unsigned layout, unsigned esize,
                   uint64_t dst, uint64_t src, uint64_t extent, xmem_swz_result *r);

#endif
