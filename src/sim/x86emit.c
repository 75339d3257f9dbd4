/* x86emit.c — encodings of the x86-64 instruction forms the translator uses (REX
 * prefix, ModRM/SIB, displacement, immediate; Intel SDM vol. 2, chapter 2). */
#include "x86emit.h"

#include <string.h>

/* Whether n more bytes fit; if not, the buffer is `full` and the emit writes nothing. */
static inline bool fits(x86buf *b, unsigned n)
{
    if (b->full || (size_t)(b->end - b->p) < n) b->full = true;
    return !b->full;
}

/* The n (1, 4 or 8) low bytes of v (or nothing, see fits). The translator runs on
 * x86-64 hosts only, little-endian like its output: a fixed-size copy of v's first n
 * bytes is one store, where a call per 1-8 byte piece (the sanitizers' checked memcpy in
 * the fuzz build) cost more than the rest of the translation. */
static void put_le(x86buf *b, uint64_t v, unsigned n)
{
    if (!fits(b, n)) return;
    if (n == 8) {
        memcpy(b->p, &v, 8);
    } else if (n == 4) {
        uint32_t w = (uint32_t)v;
        memcpy(b->p, &w, 4);
    } else {
        *b->p = (uint8_t)v;
    }
    b->p += n;
}

/* Opcode bytes (1-3 of them): a byte at a time, for the same reason. */
void x86_bytes(x86buf *b, const void *src, unsigned n)
{
    if (!fits(b, n)) return;
    const uint8_t *s = src;
    for (unsigned i = 0; i < n; i++)
        b->p[i] = s[i];
    b->p += n;
}

void x86_u8(x86buf *b, uint8_t v)
{
    put_le(b, v, 1);
}

void x86_u32(x86buf *b, uint32_t v)
{
    put_le(b, v, 4); /* little-endian, like the guest */
}

static int hi(int reg)
{
    return reg < 0 ? 0 : (reg >> 3) & 1;
}

/* REX.W/R/X/B; `force` emits an empty REX (byte access to SPL..DIL). */
static void rex(x86buf *b, bool w, int reg, int index, int base, bool force)
{
    uint8_t r = (uint8_t)(0x40 | (w ? 8 : 0) | hi(reg) << 2 | hi(index) << 1 | hi(base));
    if (r != 0x40 || force) x86_u8(b, r);
}

/* ModRM (+ SIB) + displacement for [base + disp]. RSP/R12 as base need a SIB byte,
 * RBP/R13 a displacement even when it is 0. */
static void modrm_mem(x86buf *b, int reg, int base, int32_t disp)
{
    int mod = (disp == 0 && (base & 7) != 5) ? 0 : (disp >= -128 && disp <= 127) ? 1 : 2;
    x86_u8(b, (uint8_t)(mod << 6 | (reg & 7) << 3 | (base & 7)));
    if ((base & 7) == 4) x86_u8(b, 0x24);
    if (mod == 1)
        x86_u8(b, (uint8_t)disp);
    else if (mod == 2)
        x86_u32(b, (uint32_t)disp);
}

/* ModRM + SIB for [base + index] (scale 1; index is never RSP). */
static void modrm_idx(x86buf *b, int reg, int base, int index)
{
    int mod = (base & 7) == 5 ? 1 : 0;
    x86_u8(b, (uint8_t)(mod << 6 | (reg & 7) << 3 | 4));
    x86_u8(b, (uint8_t)((index & 7) << 3 | (base & 7)));
    if (mod) x86_u8(b, 0);
}

static void modrm_rr(x86buf *b, int reg, int rm)
{
    x86_u8(b, (uint8_t)(0xc0 | (reg & 7) << 3 | (rm & 7)));
}

static void op_m(x86buf *b, bool w, const char *op, unsigned n, int reg, int base, int32_t disp)
{
    rex(b, w, reg, X_NONE, base, false);
    x86_bytes(b, op, n);
    modrm_mem(b, reg, base, disp);
}

static void op_rr(x86buf *b, bool w, const char *op, unsigned n, int reg, int rm)
{
    rex(b, w, reg, X_NONE, rm, false);
    x86_bytes(b, op, n);
    modrm_rr(b, reg, rm);
}

void x86_load_m(x86buf *b, int reg, int base, int32_t disp)
{
    op_m(b, true, "\x8b", 1, reg, base, disp);
}

void x86_store_m(x86buf *b, int base, int32_t disp, int reg)
{
    op_m(b, true, "\x89", 1, reg, base, disp);
}

void x86_mov_imm(x86buf *b, int reg, uint64_t v)
{
    if (v <= UINT32_MAX) { /* mov r32, imm32 zero-extends */
        rex(b, false, X_NONE, X_NONE, reg, false);
        x86_u8(b, (uint8_t)(0xb8 + (reg & 7)));
        x86_u32(b, (uint32_t)v);
    } else if ((int64_t)v == (int32_t)v) { /* mov r/m64, simm32 */
        op_rr(b, true, "\xc7", 1, 0, reg);
        x86_u32(b, (uint32_t)v);
    } else {
        rex(b, true, X_NONE, X_NONE, reg, false);
        x86_u8(b, (uint8_t)(0xb8 + (reg & 7)));
        put_le(b, v, 8);
    }
}

void x86_mov_rr(x86buf *b, int dst, int src)
{
    op_rr(b, true, "\x89", 1, src, dst);
}

void x86_zero(x86buf *b, int reg)
{
    op_rr(b, false, "\x31", 1, reg, reg);
}

static const char alu_rm_op[6] = {0x01, 0x09, 0x21, 0x29, 0x31, 0x39}; /* op r/m, reg */
static const uint8_t alu_digit[6] = {0, 1, 4, 5, 6, 7};

void x86_alu_rr(x86buf *b, x86_alu op, int dst, int src, bool w64)
{
    op_rr(b, w64, &alu_rm_op[op], 1, src, dst);
}

void x86_alu_ri(x86buf *b, x86_alu op, int dst, int32_t imm, bool w64)
{
    bool small = imm >= -128 && imm <= 127;
    op_rr(b, w64, small ? "\x83" : "\x81", 1, alu_digit[op], dst);
    if (small)
        x86_u8(b, (uint8_t)imm);
    else
        x86_u32(b, (uint32_t)imm);
}

void x86_alu_mr(x86buf *b, x86_alu op, int reg, int base, int32_t disp)
{
    char opc = (char)(alu_rm_op[op] + 2); /* op reg, r/m */
    op_m(b, true, &opc, 1, reg, base, disp);
}

void x86_alu_mi(x86buf *b, x86_alu op, int base, int32_t disp, int32_t imm)
{
    bool small = imm >= -128 && imm <= 127;
    op_m(b, true, small ? "\x83" : "\x81", 1, alu_digit[op], base, disp);
    if (small)
        x86_u8(b, (uint8_t)imm);
    else
        x86_u32(b, (uint32_t)imm);
}

void x86_shift_ri(x86buf *b, x86_shift op, int dst, uint8_t n, bool w64)
{
    op_rr(b, w64, "\xc1", 1, (int)op, dst);
    x86_u8(b, n);
}

void x86_shift_rcl(x86buf *b, x86_shift op, int dst, bool w64)
{
    op_rr(b, w64, "\xd3", 1, (int)op, dst);
}

void x86_imul_rr(x86buf *b, int dst, int src, bool w64)
{
    op_rr(b, w64, "\x0f\xaf", 2, dst, src);
}

void x86_movsxd(x86buf *b, int dst, int src)
{
    op_rr(b, true, "\x63", 1, dst, src);
}

void x86_setcc_zx(x86buf *b, x86_cc cc, int reg)
{
    char set[2] = {0x0f, (char)(0x90 + cc)};
    op_rr(b, false, set, 2, 0, reg);
    op_rr(b, false, "\x0f\xb6", 2, reg, reg); /* movzx r32, r8 */
}

void x86_cmp_m8_0(x86buf *b, int base, int32_t disp)
{
    op_m(b, false, "\x80", 1, 7, base, disp);
    x86_u8(b, 0);
}

void x86_test_m8_idx(x86buf *b, int base, int index)
{
    rex(b, false, X_NONE, index, base, false);
    x86_u8(b, 0xf6);
    modrm_idx(b, 0, base, index);
    x86_u8(b, 0xff);
}

void x86_load_idx(x86buf *b, x86_load k, int dst, int base, int index)
{
    static const struct {
        bool w;
        char op[2];
        unsigned n;
    } f[] = {
        [XL_S8] = {true, {0x0f, (char)0xbe}, 2},
        [XL_U8] = {false, {0x0f, (char)0xb6}, 2},
        [XL_S16] = {true, {0x0f, (char)0xbf}, 2},
        [XL_U16] = {false, {0x0f, (char)0xb7}, 2},
        [XL_S32] = {true, {0x63}, 1},
        [XL_U32] = {false, {(char)0x8b}, 1},
        [XL_64] = {true, {(char)0x8b}, 1},
    };
    rex(b, f[k].w, dst, index, base, false);
    x86_bytes(b, f[k].op, f[k].n);
    modrm_idx(b, dst, base, index);
}

void x86_store_idx(x86buf *b, unsigned size, int base, int index, int src)
{
    if (size == 2) x86_u8(b, 0x66);
    rex(b, size == 8, src, index, base, size == 1 && src >= 4 && src < 8);
    x86_u8(b, size == 1 ? 0x88 : 0x89);
    modrm_idx(b, src, base, index);
}

void x86_lea(x86buf *b, int dst, int base, int32_t disp)
{
    op_m(b, true, "\x8d", 1, dst, base, disp);
}

void x86_push(x86buf *b, int reg)
{
    rex(b, false, X_NONE, X_NONE, reg, false);
    x86_u8(b, (uint8_t)(0x50 + (reg & 7)));
}

void x86_pop(x86buf *b, int reg)
{
    rex(b, false, X_NONE, X_NONE, reg, false);
    x86_u8(b, (uint8_t)(0x58 + (reg & 7)));
}

void x86_call_r(x86buf *b, int reg)
{
    op_rr(b, false, "\xff", 1, 2, reg);
}

void x86_jmp_r(x86buf *b, int reg)
{
    op_rr(b, false, "\xff", 1, 4, reg);
}

void x86_jmp_m(x86buf *b, int base, int32_t disp)
{
    op_m(b, false, "\xff", 1, 4, base, disp);
}

void x86_ret(x86buf *b)
{
    x86_u8(b, 0xc3);
}

void x86_load_m32(x86buf *b, int reg, int base, int32_t disp)
{
    op_m(b, false, "\x8b", 1, reg, base, disp);
}

void x86_store_m32(x86buf *b, int base, int32_t disp, int reg)
{
    op_m(b, false, "\x89", 1, reg, base, disp);
}

void x86_cmp_r_m32(x86buf *b, int reg, int base, int32_t disp)
{
    op_m(b, false, "\x3b", 1, reg, base, disp);
}

void x86_cmp_m32_imm(x86buf *b, int base, int32_t disp, int32_t imm)
{
    op_m(b, false, "\x81", 1, 7, base, disp);
    x86_u32(b, (uint32_t)imm);
}

void x86_or_m32_r(x86buf *b, int base, int32_t disp, int reg)
{
    op_m(b, false, "\x09", 1, reg, base, disp);
}

void x86_mov_m32_imm(x86buf *b, int base, int32_t disp, uint32_t imm)
{
    op_m(b, false, "\xc7", 1, 0, base, disp);
    x86_u32(b, imm);
}

void x86_sse_m(x86buf *b, uint8_t prefix, uint8_t op, int xmm, int base, int32_t disp)
{
    char opc[2] = {0x0f, (char)op};
    x86_u8(b, prefix);
    op_m(b, false, opc, 2, xmm, base, disp);
}

void x86_vfmadd231_m(x86buf *b, bool dbl, int xmm, int xmm2, int base, int32_t disp)
{
    /* VEX3: C4, ~R ~X ~B mmmmm=0F38, W ~vvvv L=0 pp=66, opcode B9 */
    x86_u8(b, 0xc4);
    x86_u8(b, (uint8_t)((hi(xmm) ? 0 : 0x80) | 0x40 | (hi(base) ? 0 : 0x20) | 0x02));
    x86_u8(b, (uint8_t)((dbl ? 0x80 : 0) | ((~xmm2 & 15) << 3) | 0x01));
    x86_u8(b, 0xb9);
    modrm_mem(b, xmm, base, disp);
}

void x86_movq_r_x(x86buf *b, int reg, int xmm, bool w64)
{
    x86_u8(b, 0x66);
    rex(b, w64, xmm, X_NONE, reg, false);
    x86_bytes(b, "\x0f\x7e", 2);
    modrm_rr(b, xmm, reg);
}

void x86_mxcsr(x86buf *b, bool store, int base, int32_t disp)
{
    op_m(b, false, "\x0f\xae", 2, store ? 3 : 2, base, disp);
}

void x86_call_rel(x86buf *b, const uint8_t *target)
{
    x86_u8(b, 0xe8);
    uint8_t *at = b->p;
    x86_u32(b, 0);
    if (!b->full) x86_patch(at, target);
}

static uint8_t *rel32(x86buf *b)
{
    uint8_t *at = b->p;
    x86_u32(b, 0);
    return b->full ? NULL : at;
}

uint8_t *x86_jmp(x86buf *b)
{
    x86_u8(b, 0xe9);
    return rel32(b);
}

uint8_t *x86_jcc(x86buf *b, x86_cc cc)
{
    char op[2] = {0x0f, (char)(0x80 + cc)};
    x86_bytes(b, op, 2);
    return rel32(b);
}

void x86_patch(uint8_t *at, const uint8_t *target)
{
    int32_t rel = (int32_t)(target - (at + 4));
    memcpy(at, &rel, 4);
}
