/* xmem_swz.c — XSWZ relayout copies (errata Q-56); see xmem_swz.h. */
#include "xmem_swz.h"

#include "xmem_xdl.h"

/* REQ: XMEM-102 */
static unsigned log2u(uint32_t v)
{
    unsigned n = 0;
    while (v > 1) {
        v >>= 1;
        n++;
    }
    return n;
}

/* REQ: XMEM-102 */
static bool pow2_or_zero(uint32_t v)
{
    return (v & (v - 1)) == 0;
}

/* REQ: XMEM-102 */
uint64_t xmem_swz_morton(uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
    unsigned lw = log2u(w), lh = log2u(h), m = lw < lh ? lw : lh;
    uint64_t i = 0;
    for (unsigned k = 0; k < m; k++)
        i |= (uint64_t)((x >> k) & 1) << (2 * k) | (uint64_t)((y >> k) & 1) << (2 * k + 1);
    /* the longer side's remaining bits, from bit 2m up */
    uint64_t rest = lw > lh ? (uint64_t)x >> m : (uint64_t)y >> m;
    return i | rest << (2 * m);
}

/* REQ: XMEM-102 */
bool xmem_swz_range_ok(const xmem_swz_mem *m, uint64_t a, uint64_t n, bool store, uint64_t *bad)
{
    uint64_t i = 0;
    while (i < n) {
        uint64_t p = a + i;
        if (n - i >= 8 && m->ok(m->ctx, p, 8, store) && m->ok(m->ctx, p, 1, store)) {
            i += 8;
        } else if (m->ok(m->ctx, p, 1, store)) {
            i += 1;
        } else {
            *bad = p;
            return false;
        }
    }
    return true;
}

/* Moves one element of n bytes; where the whole element is not one access on either side
 * (it straddles two memories), byte by byte. Both ranges were checked. */
/* REQ: XMEM-102 */
static void move_elem(const xmem_swz_mem *m, uint64_t dst, uint64_t src, unsigned n)
{
    uint64_t v;
    if (n > 1 && !(m->ok(m->ctx, src, n, false) && m->ok(m->ctx, dst, n, true))) {
        for (unsigned k = 0; k < n; k++)
            move_elem(m, dst + k, src + k, 1);
        return;
    }
    if (m->load(m->ctx, src, n, &v)) m->store(m->ctx, dst, n, v);
}

/* REQ: XMEM-102 */
static uint64_t tex_index(unsigned layout, uint32_t x, uint32_t y, uint32_t w, uint32_t h)
{
    if (layout & XMEM_SWZ_TEX_MORTON) return xmem_swz_morton(x, y, w, h);
    return (uint64_t)y * w + x;
}

/* REQ: XMEM-102 XMEM-156 XMEM-152 */
static uint64_t ten_index(unsigned layout, uint32_t x, uint32_t y, uint32_t w)
{
    if (layout & XMEM_SWZ_TEN_LINEAR) return (uint64_t)y * w + x;
    return xmem_xdl_tile_index(x, y, w);
}

/* REQ: XMEM-102 */
bool xmem_swz_legal(unsigned layout, uint64_t extent)
{
    uint32_t w = (uint32_t)extent, h = (uint32_t)(extent >> 32);
    return !((!(layout & XMEM_SWZ_TEN_LINEAR) && (w % 4 || h % 4)) ||
             ((layout & XMEM_SWZ_TEX_MORTON) && !(pow2_or_zero(w) && pow2_or_zero(h))));
}

/* REQ: XMEM-102 */
uint64_t xmem_swz_bytes(uint64_t extent, unsigned esize)
{
    /* W*H < 2^64; times E (<= 8) saturates at 2^64 - 1, a range no memory holds. */
    uint64_t elems = (uint64_t)(uint32_t)extent * (uint32_t)(extent >> 32);
    return elems > UINT64_MAX / esize ? UINT64_MAX : elems * esize;
}

/* REQ: XMEM-102 */
void xmem_swz_exec(const xmem_swz_mem *m, bool ten2tex, unsigned layout, unsigned esize,
                   uint64_t dst, uint64_t src, uint64_t extent, xmem_swz_result *r)
{
    uint32_t w = (uint32_t)extent, h = (uint32_t)(extent >> 32);
    *r = (xmem_swz_result){XMEM_SWZ_DONE, 0, false, 0};
    if (!xmem_swz_legal(layout, extent)) {
        r->status = XMEM_SWZ_ILLEGAL;
        return;
    }
    uint64_t n = xmem_swz_bytes(extent, esize);
    /* An empty extent moves nothing; without this, W = 0 with H up to 2^32 - 1 walks
     * empty rows for seconds inside one instruction (found by fuzz_program). */
    if (n == 0) return;
    uint64_t bad;
    if (!xmem_swz_range_ok(m, src, n, false, &bad)) {
        r->status = XMEM_SWZ_TRAP;
        r->tval = bad;
        return;
    }
    if (!xmem_swz_range_ok(m, dst, n, true, &bad)) {
        r->status = XMEM_SWZ_TRAP;
        r->fault_store = true;
        r->tval = bad;
        return;
    }
    for (uint32_t y = 0; y < h; y++)
        for (uint32_t x = 0; x < w; x++) {
            uint64_t t = tex_index(layout, x, y, w, h) * esize;
            uint64_t n2 = ten_index(layout, x, y, w) * esize;
            if (ten2tex)
                move_elem(m, dst + t, src + n2, esize);
            else
                move_elem(m, dst + n2, src + t, esize);
        }
    r->rd = n;
}
