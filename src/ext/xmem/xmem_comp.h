/* xmem_comp.h — the codec of `xmem.dloadc` / `xmem.dstorec` (errata Q-55): which format a
 * compressed access uses and the transform itself over host buffers, through Debian's
 * libzstd. Pure (no hart, no guest memory): the unit (xmem_unit.c) checks and copies the
 * guest ranges and turns a failure into CAP.XMEM.EVENTS.COMP_ERR.
 *
 * Modes (CAP.XMEM.COMP_CTL.MODE, or CMODE = funct2 when non-zero):
 *   0  raw: the bytes as they are (COMP_CTL's reset value: compressed accesses are plain
 *      copies until software selects a format);
 *   1  zstd: one or more Zstandard frames (RFC 8878). Stores write one frame with the
 *      content size and a content checksum; loads accept any frames without a dictionary.
 *   2..15 are not supported: COMP_ERR ("unsupported mode", XMEM 9.1).
 * LEVEL (zstd stores only): 0 = zstd's default level (ZSTD_CLEVEL_DEFAULT), 1..15 = that
 * level. DICT_ID: 0 = no dictionary; this platform has no dictionaries, so a non-zero
 * DICT_ID in mode 1 is an unsupported mode (COMP_ERR), and so is a frame that names one.
 *
 * Bounds: the input and the output capacity are each at most XMEM_COMP_MAX_BYTES (larger
 * is COMP_ERR before anything is touched), and libzstd runs single-pass into the caller's
 * buffer of exactly the capacity (no window allocation), so a hostile stream can neither
 * write past the capacity nor make the host allocate more than about twice this limit. */
#ifndef XPHMG_EXT_XMEM_COMP_H
#define XPHMG_EXT_XMEM_COMP_H

#include <stddef.h>
#include <stdint.h>

/* The largest input or output of one compressed access (1 MiB; project limit). */
#define XMEM_COMP_MAX_BYTES (UINT64_C(1) << 20)

enum { XMEM_COMP_RAW = 0, XMEM_COMP_ZSTD = 1 };

typedef struct {
    unsigned mode; /* XMEM_COMP_* or an unsupported code */
    int level;     /* zstd compression level */
    unsigned dict; /* COMP_CTL.DICT_ID */
} xmem_comp_cfg;

/* The effective format of one access: COMP_CTL (as latched at the instruction boundary)
 * and the instruction's CMODE (0 = COMP_CTL.MODE, 1..3 = that mode). */
xmem_comp_cfg xmem_comp_config(uint64_t comp_ctl, unsigned cmode);

/* Output bytes, or XMEM_COMP_FAIL: unsupported mode or dictionary, an input or capacity
 * above XMEM_COMP_MAX_BYTES, a corrupt or truncated stream (decode), or an output that
 * does not fit in cap bytes. Nothing is written past dst + cap; on failure dst holds
 * unspecified bytes (the unit copies nothing to the guest then). */
#define XMEM_COMP_FAIL SIZE_MAX
size_t xmem_comp_decode(const xmem_comp_cfg *c, const void *src, size_t n, void *dst, size_t cap);
size_t xmem_comp_encode(const xmem_comp_cfg *c, const void *src, size_t n, void *dst, size_t cap);

#endif
