/* clint.c — the CLINT block at CLINT_BASE (SiFive/Spike layout): msip at +0x0,
 * mtimecmp at +0x4000, mtime at +0xbff8, for one hart. Accesses of 4 or 8 bytes that
 * stay inside one register are supported (RV32-style halves included); anything else
 * in the block is an access fault. */
#include "hart_int.h"

static bool reg_of(uint64_t off, unsigned n, uint64_t *base)
{
    static const uint64_t regs[] = {CLINT_MSIP, CLINT_MTIMECMP, CLINT_MTIME};
    static const unsigned size[] = {4, 8, 8};
    if (n != 4 && n != 8) return false;
    for (unsigned i = 0; i < 3; i++)
        if (off >= regs[i] && off + n <= regs[i] + size[i] && (off & (n - 1)) == 0) {
            *base = regs[i];
            return true;
        }
    return false;
}

bool clint_load(hart *h, uint64_t off, unsigned n, uint64_t *v)
{
    uint64_t r;
    if (!reg_of(off, n, &r)) return false;
    uint64_t val = r == CLINT_MSIP       ? (h->msip & 1)
                   : r == CLINT_MTIMECMP ? h->mtimecmp
                                         : hart_mtime(h);
    unsigned shift = (unsigned)(off - r) * 8;
    val >>= shift;
    *v = n == 8 ? val : (val & 0xffffffff);
    return true;
}

bool clint_store(hart *h, uint64_t off, unsigned n, uint64_t v)
{
    uint64_t r;
    if (!reg_of(off, n, &r)) return false;
    unsigned shift = (unsigned)(off - r) * 8;
    uint64_t mask = (n == 8 ? UINT64_MAX : UINT64_C(0xffffffff)) << shift;
    if (r == CLINT_MSIP) {
        h->msip = v & 1;
    } else if (r == CLINT_MTIMECMP) {
        h->mtimecmp = (h->mtimecmp & ~mask) | ((v << shift) & mask);
    } else {
        uint64_t now = hart_mtime(h);
        uint64_t nv = (now & ~mask) | ((v << shift) & mask);
        h->mtime_adj += (int64_t)(nv - now);
    }
    h->stop = true; /* interrupt state may have changed */
    return true;
}
