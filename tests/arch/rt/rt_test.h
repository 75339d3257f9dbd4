/* rt_test.h — shared pieces of the RT guest tests (the .S files of tests/arch/rt).
 *
 * Uses the CAP tests' trap handler (../cap/cap_test.h: mcause -> s10, mtval -> s11,
 * resume after the 4-byte trapping instruction; an ecall from U continues in M at s9).
 * rt_bbox / rt_tri emit `rt.bbox rd, rs1, flags` / `rt.tri rd, rs1, flags` (CUSTOM-0
 * 0x0B, funct3 110 / 111, flags = imm[11:0], errata Q-78) through GNU as's .insn; .insn i
 * takes the immediate signed, so flag bit 11 is written -2048. */
/* Assembler macros: clang-format would split assembler directives. */
/* clang-format off */
#ifndef RT_TEST_H
#define RT_TEST_H

#include "../cap/cap_test.h"

#define rt_bbox(rd, rs1, flags) .insn i 0x0b, 6, rd, rs1, flags
#define rt_tri(rd, rs1, flags)  .insn i 0x0b, 7, rd, rs1, flags

/* RT CSRs (errata) and the CAP/PMASK CSRs the tests use. */
#define RTCFG    0x810
#define RTSTAT   0x811
#define RTCAP    0x812
#define RTBASE   0x813
#define RTCONF2  0x817
#define RTCLSDEF 0x818
#define RTSPROF  0x819
#define RTNODE   0x81A
#define RTTRI    0x81B
#define RTUV     0x81C
#define PMASK1   0x801
#define PMASK2   0x802
#define PMASK3   0x803
#define XMEM_EVENTS 0x7EE

/* CAP.PREC.MODE images (errata Q-14): APPLY0 31, PET 23:21, EW 20:19, ZMODE 3, SAE 2. */
#define PREC_FP16      0x80080000 /* the reset value: PET FP16, EW16 */
#define PREC_FP16_ZERO 0x80080008 /* ... with ZMODE = 1 */
#define PREC_FP32      0x80300000 /* PET FP32, EW32 */
#define PREC_INT8      0x80600000 /* PET INT8, EW8 */
#define STAT_DOWNCAST  0x4000     /* CAP.PREC.STAT bit 14 */
#define STAT_UNSUP     0x8000     /* bit 15 */

#define UNMAPPED 0x1000

/* flags: bbox T_CLAMP 0 / tri CULL_BACK 0, PRED_ONLY 1, PACK_HINT 2, W_GUARD / EPS_CTL 3,
 * PB_IN 6:4, PB_OUT 9:7, NODE8 10 (bbox). */
#define F_CLAMP 0x1
#define F_CULL  0x1
#define F_PRED  0x2
#define F_PACK  0x4
#define F_EPS   0x8
#define F_NODE8 0x400
#define PB_IN(b)  ((b) << 4)
#define PB_OUT(b) ((b) << 7)

/* clang-format on */
#endif
