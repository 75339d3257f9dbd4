/* x86emit.h — a minimal x86-64 machine-code emitter for the translator (jit.c): the
 * few instruction forms it generates, encoded by hand (Intel SDM vol. 2), into a
 * bounded buffer. Registers are the hardware numbers (RAX = 0 ... R15 = 15). An emit
 * past the end sets `full` and writes nothing, so a translation that runs out of room
 * is detected once at its end instead of after every byte. */
#ifndef XPHMG_SIM_X86EMIT_H
#define XPHMG_SIM_X86EMIT_H

#include <stdbool.h>
#include <stdint.h>

enum {
    X_RAX,
    X_RCX,
    X_RDX,
    X_RBX,
    X_RSP,
    X_RBP,
    X_RSI,
    X_RDI,
    X_R8,
    X_R9,
    X_R10,
    X_R11,
    X_R12,
    X_R13,
    X_R14,
    X_R15,
    X_NONE = -1
};

/* Two-operand integer ops in their "op reg, r/m" opcode (the "op r/m, reg" form is the
 * opcode - 2) and the /digit of their immediate form (opcode 0x81). */
typedef enum { XA_ADD, XA_OR, XA_AND, XA_SUB, XA_XOR, XA_CMP } x86_alu;
/* Shifts: the /digit of C1 (by immediate) and D3 (by CL). */
typedef enum { XS_SHL = 4, XS_SHR = 5, XS_SAR = 7 } x86_shift;
/* Condition codes (the low nibble of Jcc / SETcc). */
typedef enum { XC_B = 2, XC_AE = 3, XC_E = 4, XC_NE = 5, XC_A = 7, XC_L = 0xc, XC_GE = 0xd } x86_cc;
/* Loads from [base + index]: sign- or zero-extended into a 64-bit register. */
typedef enum { XL_S8, XL_U8, XL_S16, XL_U16, XL_S32, XL_U32, XL_64 } x86_load;

typedef struct {
    uint8_t *p, *end;
    bool full;
} x86buf;

void x86_bytes(x86buf *b, const void *src, unsigned n);
void x86_u8(x86buf *b, uint8_t v);
void x86_u32(x86buf *b, uint32_t v);

/* reg <- [base + disp] (64 bits) and [base + disp] <- reg. */
void x86_load_m(x86buf *b, int reg, int base, int32_t disp);
void x86_store_m(x86buf *b, int base, int32_t disp, int reg);
void x86_mov_imm(x86buf *b, int reg, uint64_t v); /* shortest form for the value */
void x86_mov_rr(x86buf *b, int dst, int src);     /* 64-bit */
void x86_zero(x86buf *b, int reg);                /* xor reg32, reg32 */
void x86_alu_rr(x86buf *b, x86_alu op, int dst, int src, bool w64);
void x86_alu_ri(x86buf *b, x86_alu op, int dst, int32_t imm, bool w64);
void x86_alu_mr(x86buf *b, x86_alu op, int reg, int base, int32_t disp);     /* reg op= [m] */
void x86_alu_mi(x86buf *b, x86_alu op, int base, int32_t disp, int32_t imm); /* [m] op= imm */
void x86_shift_ri(x86buf *b, x86_shift op, int dst, uint8_t n, bool w64);
void x86_shift_rcl(x86buf *b, x86_shift op, int dst, bool w64);
void x86_imul_rr(x86buf *b, int dst, int src, bool w64);
void x86_movsxd(x86buf *b, int dst, int src);         /* dst = sign-extend(src32) */
void x86_setcc_zx(x86buf *b, x86_cc cc, int reg);     /* reg = cc ? 1 : 0 (reg < 4) */
void x86_cmp_m8_0(x86buf *b, int base, int32_t disp); /* cmp byte [base + disp], 0 */
void x86_test_m8_idx(x86buf *b, int base, int index); /* test byte [base + index], 0xff */
void x86_load_idx(x86buf *b, x86_load k, int dst, int base, int index);
void x86_store_idx(x86buf *b, unsigned size, int base, int index, int src);
void x86_lea(x86buf *b, int dst, int base, int32_t disp);
void x86_push(x86buf *b, int reg);
void x86_pop(x86buf *b, int reg);
void x86_call_r(x86buf *b, int reg);
void x86_jmp_r(x86buf *b, int reg);
void x86_jmp_m(x86buf *b, int base, int32_t disp);
void x86_ret(x86buf *b);
/* 32-bit memory operands (zero-extending loads). */
void x86_load_m32(x86buf *b, int reg, int base, int32_t disp);
void x86_store_m32(x86buf *b, int base, int32_t disp, int reg);
void x86_cmp_r_m32(x86buf *b, int reg, int base, int32_t disp); /* cmp reg32, [m] */
void x86_cmp_m32_imm(x86buf *b, int base, int32_t disp, int32_t imm);
void x86_or_m32_r(x86buf *b, int base, int32_t disp, int reg); /* or [m], reg32 */
void x86_mov_m32_imm(x86buf *b, int base, int32_t disp, uint32_t imm);

/* SSE scalar: `prefix 0F op xmm, [base + disp]` (prefix 0xF2 double, 0xF3 single): movs*
 * (0x10), adds* (0x58), muls* (0x59), subs* (0x5C), divs* (0x5E), sqrts* (0x51). */
void x86_sse_m(x86buf *b, uint8_t prefix, uint8_t op, int xmm, int base, int32_t disp);
/* vfmadd231s[d|s] xmm, xmm2, [base + disp]: xmm = xmm2 * [m] + xmm (FMA3, VEX). */
void x86_vfmadd231_m(x86buf *b, bool dbl, int xmm, int xmm2, int base, int32_t disp);
void x86_movq_r_x(x86buf *b, int reg, int xmm, bool w64);      /* movq/movd gpr, xmm */
void x86_mxcsr(x86buf *b, bool store, int base, int32_t disp); /* stmxcsr / ldmxcsr [m] */
void x86_call_rel(x86buf *b, const uint8_t *target);

/* Jumps with a 32-bit displacement: return the address of the displacement (NULL when
 * the buffer is full) for x86_patch. */
uint8_t *x86_jmp(x86buf *b);
uint8_t *x86_jcc(x86buf *b, x86_cc cc);
/* Points the displacement at `at` (from x86_jmp/x86_jcc) to `target`. */
void x86_patch(uint8_t *at, const uint8_t *target);

#endif
