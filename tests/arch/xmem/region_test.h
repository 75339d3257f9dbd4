/* region_test.h — shared pieces of the XMEM region tests (tests/arch/xmem/region_*.S,
 * errata P-200..P-207): `xmem.region` (CUSTOM-1 funct3 001 funct7 0000010), the
 * attribute word it returns, XPHMG_MEMCTL descriptors in data, and the CSRs. Builds on
 * lds_test.h (xlds.*, the trap handler: mcause -> s10, mtval -> s11). */
/* clang-format off */
#ifndef REGION_TEST_H
#define REGION_TEST_H

#include "lds_test.h"

#define xmem_region(rd, rs1, rs2)     .insn r 0x2b, 1, 2, rd, rs1, rs2
#define xmem_svm(rd, rs1, rs2, pbank) .insn r 0x5b, 1, pbank, rd, rs1, rs2

#define XMEM_CAP     0x7E0
#define XMEM_CLSMAP  0x7E3
#define XMEM_DOM     0x7E6
#define XMEM_DESCPOL 0x7ED
#define SVMBASE      0x7F0
#define SVMIDX       0x7F1
#define SVMSCL       0x7F2
#define SVMLEN       0x7F3
#define SVMMODE      0x7F4

/* Trap causes. */
#define CAUSE_MISALIGNED_LOAD    4
#define CAUSE_LOAD_ACCESS_FAULT  5
#define CAUSE_STORE_ACCESS_FAULT 7

#define EV_DMA_ERR    0x08
#define EV_SEC_VIOL   0x40
#define EV_HYB_FALLBK 0x80

/* Domains (errata Q-40) and the attribute word (FMT_XMEM_RGN, errata P-201). */
#define D_CPU 1
#define D_RT  2
#define D_MTX 3
#define D_ALL 15
#define RGN(tier, cls, sec, sprof, dom, hyb)                                               \
    (0x8000000000000000 | (tier) | ((cls) << 2) | ((sec) << 4) | ((sprof) << 6) |          \
     ((dom) << 8) | ((hyb) << 12))

/* An XPHMG_MEMCTL (XMEM 4.3, FMT_MEMCTL): 24 bytes, 8-byte aligned; TIER = rsv0 1:0. */
#define MEMCTL(label, dom, l1, l2, lds, line, qos, pin, mclass, sprof, hyb, sec, rsv0)    \
    .align 3;                                                                              \
    label:                                                                                 \
    .byte dom, l1, l2, lds;                                                                \
    .half line, qos;                                                                       \
    .dword pin;                                                                            \
    .byte mclass, sprof, hyb, sec;                                                         \
    .word rsv0;

/* rd = xmem.region(base, memctl label) (clobbers t0). */
#define APPLY(rd, base, label)                                                             \
    la t0, label;                                                                          \
    xmem_region(rd, base, t0)

/* clang-format on */
#endif
