/* xdec.h — the simulator's instruction decoder, generated at build time from
 * spec/xphmg.xml by tools/gen (no hand-written opcode table exists anywhere).
 *
 * The generator writes, into the build tree:
 *   xdec_ops.h  — enum xop: XOP_ILLEGAL = 0, then one XOP_<NAME> per instruction of the
 *                 XML, NAME being InstructionName upper-cased with '.' -> '_'
 *                 (addi -> XOP_ADDI, c.addi16sp -> XOP_C_ADDI16SP, fcvt.w.s ->
 *                 XOP_FCVT_W_S, lr.w.aqrl -> XOP_LR_W_AQRL), and XOP__COUNT.
 *   xdec_gen.c  — xdec_decode() and xop_names[].
 *
 * Slot filling (the generator's only knowledge of RISC-V operand roles, by XML field
 * name, spec/README.md X-10..X-12):
 *   RD, RS1, RS2, RS3 -> rd, rs1, rs2, rs3;  RD_RS1 -> rd and rs1;
 *   RDP, RS1P, RS2P, RD_RS1P (RVC 3-bit registers) -> the same slots, value + 8;
 *   RM -> rm;  CSR -> csr;
 *   any other field used by an operand (immediates, shift amounts, zimm) -> imm,
 *   sign-extended by its data format, padding applied;
 *   not-encoded register operands (X-10, e.g. sp in c.addi16sp, ra in c.jal) ->
 *   Output: rd; Input and Output: rd and rs1; Input only: the first of rs1, rs2
 *   not already filled.
 *   Fence pred/succ/fm and other fields not listed above are not decoded.
 * Slots not filled are 0.
 */
#ifndef XPHMG_SIM_XDEC_H
#define XPHMG_SIM_XDEC_H

#include <stdint.h>

#include "xdec_ops.h"

typedef struct xdec {
    int64_t imm;
    uint16_t op; /* enum xop */
    uint16_t csr;
    uint8_t len; /* 2 or 4; 0 when illegal */
    uint8_t rd, rs1, rs2, rs3;
    uint8_t rm;
} xdec;

/* Decodes the instruction whose low bits are in `bits` (a 16-bit instruction only
 * uses the low half). Returns the length in bytes, or 0 with d->op = XOP_ILLEGAL. */
unsigned xdec_decode(uint32_t bits, xdec *d);

extern const char *const xop_names[XOP__COUNT];

#endif
