/* svm_test.h — shared pieces of the SVMEM guest tests (tests/arch/xmem/svm_*.S).
 *
 * Uses the CAP tests' trap handler (../cap/cap_test.h: mcause -> s10, mtval -> s11,
 * resume after the 4-byte trapping instruction). xmem_svm(rd, rs1, rs2, pbank) emits
 * `xmem.svm rd, rs1, rs2, pbank` (CUSTOM-2 0x5b, funct3 001, PBANK = funct7[2:0],
 * errata Q-46) through GNU as's .insn. The tests use SVMBASE = 0, scale 1 and 64-bit
 * indices, so an index is an absolute address; UNMAPPED (below the CLINT, outside RAM)
 * is an address no access may reach. */
/* Assembler macros: clang-format would split assembler directives. */
/* clang-format off */
#ifndef SVM_TEST_H
#define SVM_TEST_H

#include "../cap/cap_test.h"

#define xmem_svm(rd, rs1, rs2, pbank) .insn r 0x5b, 1, pbank, rd, rs1, rs2

/* CSR numbers (CAP 4.6.3, errata ). */
#define XMEM_EVENTS 0x7EE
#define SVMBASE     0x7F0
#define SVMIDX      0x7F1
#define SVMSCL      0x7F2
#define SVMLEN      0x7F3
#define SVMMODE     0x7F4
#define SVFAULTI    0x808
#define PMASK1      0x801
#define PMASK2      0x802
#define PMASK3      0x803

/* SVMSCL (errata Q-39): SCALE_LOG2 2:0, SIGNED 3, GS 4, FOF 5, IDX_W 7:6 (1 = 64-bit). */
#define SCL_GS   0x10
#define SCL_FOF  0x20
#define SCL_I64  0x40
/* SVMMODE: BOUND_CHECK 0, ALLOW_OOB_ZERO 1. */
#define MODE_OOB_ZERO 3
/* CAP.PREC.MODE values (errata Q-14): reset (EW16, merge) and the same with ZMODE=1. */
#define PREC_MERGE 0x80080000
#define PREC_ZERO  0x80080008

#define UNMAPPED 0x1000

/* Fill the 4 dwords at label with value (clobbers t0, t1). */
#define FILL4(label, value)                                                               \
    la t0, label;                                                                          \
    li t1, value;                                                                          \
    sd t1, 0(t0);                                                                          \
    sd t1, 8(t0);                                                                          \
    sd t1, 16(t0);                                                                         \
    sd t1, 24(t0);

/* Check dword n of label against value (fails with testnum). */
#define CHECK_DW(testnum, label, n, value)                                                \
    TEST_CASE(testnum, a5, value, la t0, label; ld a5, (8 * (n))(t0))

/* clang-format on */
#endif
