/* exec_base.c — semantics of RV64I, M, A, C, Zicsr, Zifencei and the M/U privileged
 * instructions, and their binding by instruction name.
 *
 * Compressed instructions need no handlers of their own: the generated decoder fills
 * the same slots as the base form (c.addi -> rd = rs1, imm; c.li -> rd, imm, rs1 = 0;
 * c.mv -> rd, rs2, rs1 = 0; c.lwsp -> rs1 = sp ...), so each C name binds to the base
 * handler with the same semantics. */
#include "hart_int.h"
#include "jit.h"

#define X(r)    (h->x[r])
#define H(name) static uint64_t name(hart *h, const hart_insn *d)

uint64_t hart_exec_csrrw(hart *h, const hart_insn *d);
uint64_t hart_exec_csrrs(hart *h, const hart_insn *d);
uint64_t hart_exec_csrrc(hart *h, const hart_insn *d);
uint64_t hart_exec_csrrwi(hart *h, const hart_insn *d);
uint64_t hart_exec_csrrsi(hart *h, const hart_insn *d);
uint64_t hart_exec_csrrci(hart *h, const hart_insn *d);

/* ---- RV64I ---- */
/* The decoder gives the U-type immediate unshifted (imm[31:12], sign-extended from its
 * field: 20 bits for lui/auipc, 6 for c.lui). */
H(i_lui)
{
    wx(h, d->rd, (uint64_t)d->imm << 12);
    return NEXT;
}
H(i_auipc)
{
    wx(h, d->rd, d->pc + ((uint64_t)d->imm << 12));
    return NEXT;
}
H(i_jal)
{
    wx(h, d->rd, NEXT);
    return d->pc + (uint64_t)d->imm;
}
H(i_jalr)
{
    uint64_t t = (X(d->rs1) + (uint64_t)d->imm) & ~UINT64_C(1);
    wx(h, d->rd, NEXT);
    return t;
}
#define BR(name, cond)                                                                             \
    H(name)                                                                                        \
    {                                                                                              \
        return (cond) ? d->pc + (uint64_t)d->imm : NEXT;                                           \
    }
BR(i_beq, X(d->rs1) == X(d->rs2))
BR(i_bne, X(d->rs1) != X(d->rs2))
BR(i_blt, (int64_t)X(d->rs1) < (int64_t)X(d->rs2))
BR(i_bge, (int64_t)X(d->rs1) >= (int64_t)X(d->rs2))
BR(i_bltu, X(d->rs1) < X(d->rs2))
BR(i_bgeu, X(d->rs1) >= X(d->rs2))

#define LOAD(name, n, conv)                                                                        \
    H(name)                                                                                        \
    {                                                                                              \
        uint64_t v;                                                                                \
        if (!ld(h, X(d->rs1) + (uint64_t)d->imm, n, &v)) return h->npc;                            \
        wx(h, d->rd, conv);                                                                        \
        return NEXT;                                                                               \
    }
LOAD(i_lb, 1, (uint64_t)(int64_t)(int8_t)v)
LOAD(i_lh, 2, (uint64_t)(int64_t)(int16_t)v)
LOAD(i_lw, 4, (uint64_t)sext32(v))
LOAD(i_ld, 8, v)
LOAD(i_lbu, 1, v)
LOAD(i_lhu, 2, v)
LOAD(i_lwu, 4, v)

#define STORE(name, n)                                                                             \
    H(name)                                                                                        \
    {                                                                                              \
        uint64_t next = NEXT; /* before the store: it may invalidate this very entry */            \
        return st(h, X(d->rs1) + (uint64_t)d->imm, n, X(d->rs2)) ? next : h->npc;                  \
    }
STORE(i_sb, 1)
STORE(i_sh, 2)
STORE(i_sw, 4)
STORE(i_sd, 8)

#define ALU(name, expr)                                                                            \
    H(name)                                                                                        \
    {                                                                                              \
        uint64_t a = X(d->rs1), b = X(d->rs2);                                                     \
        (void)b;                                                                                   \
        wx(h, d->rd, (expr));                                                                      \
        return NEXT;                                                                               \
    }
#define ALUI(name, expr)                                                                           \
    H(name)                                                                                        \
    {                                                                                              \
        uint64_t a = X(d->rs1), b = (uint64_t)d->imm;                                              \
        wx(h, d->rd, (expr));                                                                      \
        return NEXT;                                                                               \
    }
ALUI(i_addi, a + b)
ALUI(i_slti, (int64_t)a < (int64_t)b)
ALUI(i_sltiu, a < b)
ALUI(i_xori, a ^ b)
ALUI(i_ori, a | b)
ALUI(i_andi, a &b)
ALUI(i_slli, a << (b & 63))
ALUI(i_srli, a >> (b & 63))
ALUI(i_srai, (uint64_t)((int64_t)a >> (b & 63)))
ALUI(i_addiw, (uint64_t)sext32(a + b))
ALUI(i_slliw, (uint64_t)sext32((uint32_t)a << (b & 31)))
ALUI(i_srliw, (uint64_t)sext32((uint32_t)a >> (b & 31)))
ALUI(i_sraiw, (uint64_t)(int64_t)((int32_t)(uint32_t)a >> (b & 31)))
ALU(i_add, a + b)
ALU(i_sub, a - b)
ALU(i_sll, a << (b & 63))
ALU(i_slt, (int64_t)a < (int64_t)b)
ALU(i_sltu, a < b)
ALU(i_xor, a ^ b)
ALU(i_srl, a >> (b & 63))
ALU(i_sra, (uint64_t)((int64_t)a >> (b & 63)))
ALU(i_or, a | b)
ALU(i_and, a &b)
ALU(i_addw, (uint64_t)sext32(a + b))
ALU(i_subw, (uint64_t)sext32(a - b))
ALU(i_sllw, (uint64_t)sext32((uint32_t)a << (b & 31)))
ALU(i_srlw, (uint64_t)sext32((uint32_t)a >> (b & 31)))
ALU(i_sraw, (uint64_t)(int64_t)((int32_t)(uint32_t)a >> (b & 31)))

/* ---- M ---- */
static uint64_t mulh_s(int64_t a, int64_t b)
{
    return (uint64_t)(((__int128)a * b) >> 64);
}
static uint64_t mulh_u(uint64_t a, uint64_t b)
{
    return (uint64_t)(((unsigned __int128)a * b) >> 64);
}
static uint64_t mulh_su(int64_t a, uint64_t b)
{
    return (uint64_t)(((__int128)a * (__int128)(unsigned __int128)b) >> 64);
}
/* Division by zero and overflow follow the M spec's table: no traps. */
static uint64_t div_s(int64_t a, int64_t b)
{
    if (b == 0) return UINT64_MAX;
    if (a == INT64_MIN && b == -1) return (uint64_t)a;
    return (uint64_t)(a / b);
}
static uint64_t rem_s(int64_t a, int64_t b)
{
    if (b == 0) return (uint64_t)a;
    if (a == INT64_MIN && b == -1) return 0;
    return (uint64_t)(a % b);
}
static uint64_t divw_s(int32_t a, int32_t b)
{
    if (b == 0) return UINT64_MAX;
    if (a == INT32_MIN && b == -1) return (uint64_t)(int64_t)a;
    return (uint64_t)(int64_t)(a / b);
}
static uint64_t remw_s(int32_t a, int32_t b)
{
    if (b == 0) return (uint64_t)(int64_t)a;
    if (a == INT32_MIN && b == -1) return 0;
    return (uint64_t)(int64_t)(a % b);
}
ALU(m_mul, a *b)
ALU(m_mulh, mulh_s((int64_t)a, (int64_t)b))
ALU(m_mulhsu, mulh_su((int64_t)a, b))
ALU(m_mulhu, mulh_u(a, b))
ALU(m_div, div_s((int64_t)a, (int64_t)b))
ALU(m_divu, b ? a / b : UINT64_MAX)
ALU(m_rem, rem_s((int64_t)a, (int64_t)b))
ALU(m_remu, b ? a % b : a)
ALU(m_mulw, (uint64_t)sext32((uint32_t)a *(uint32_t)b))
ALU(m_divw, divw_s((int32_t)a, (int32_t)b))
ALU(m_divuw, (uint32_t)b ? (uint64_t)sext32((uint32_t)a / (uint32_t)b) : UINT64_MAX)
ALU(m_remw, remw_s((int32_t)a, (int32_t)b))
ALU(m_remuw, (uint32_t)b ? (uint64_t)sext32((uint32_t)a % (uint32_t)b) : (uint64_t)sext32(a))

/* ---- A ---- Atomics must be naturally aligned (misaligned -> address-misaligned
 * fault: load cause for LR, store/AMO cause for SC and AMOs); they work on RAM and the
 * plain memory regions (a device address is a store/AMO access fault). */
/* kind: the access reported to a debugger (0: the caller reports it) */
static uint8_t *amo_ptr(hart *h, uint64_t a, unsigned n, unsigned kind)
{
    bool is_lr = kind == HART_ACC_LOAD;
    if (a & (n - 1)) {
        hart_raise(h, is_lr ? CAUSE_MISALIGNED_LOAD : CAUSE_MISALIGNED_STORE, a);
        return NULL;
    }
    uint64_t pa = a;
    if (h->xlate && !hart_translate(h, a, n, is_lr ? ACC_LOAD : ACC_STORE, &pa, true)) return NULL;
    uint64_t off = pa - h->ram_base;
    uint8_t *p =
        off <= h->ram_size - n ? h->ram + off : hart_region_ptr(h, pa, n, !is_lr); /* regions */
    if (!p) {
        hart_raise(h, is_lr ? CAUSE_LOAD_ACCESS : CAUSE_STORE_ACCESS, a);
        return NULL;
    }
    if (kind) hart_note_access(h, a, n, kind);
    return p;
}

/* After an atomic store through p (from amo_ptr) for virtual address a: same bookkeeping
 * as st() (trace, code cache, watch window). */
static void amo_stored(hart *h, uint64_t a, const uint8_t *p, unsigned n, uint64_t v)
{
    if (h->tracing) hart_trace_mem(h, a, n, v, true);
    uint64_t off = (uint64_t)((uintptr_t)p - (uintptr_t)h->ram);
    if (off < h->ram_size && h->page_flags[off >> 12]) hart_store_notify(h, h->ram_base + off, n);
}

static uint64_t rd_n(const uint8_t *p, unsigned n)
{
    if (n == 4) {
        uint32_t t;
        memcpy(&t, p, 4);
        return (uint64_t)sext32(t);
    }
    uint64_t t;
    memcpy(&t, p, 8);
    return t;
}

static uint64_t lr(hart *h, const hart_insn *d, unsigned n)
{
    uint64_t a = X(d->rs1);
    uint8_t *p = amo_ptr(h, a, n, HART_ACC_LOAD);
    if (!p) return h->npc;
    uint64_t v = rd_n(p, n);
    if (h->tracing) hart_trace_mem(h, a, n, n == 4 ? (uint32_t)v : v, false);
    h->resv_addr = a;
    h->resv_valid = true;
    h->resv_slice = (h->instret - h->slice_base) / HART_RESV_PERIOD;
    wx(h, d->rd, v);
    return NEXT;
}

static uint64_t sc(hart *h, const hart_insn *d, unsigned n)
{
    uint64_t a = X(d->rs1), next = NEXT;
    uint8_t *p = amo_ptr(h, a, n, 0); /* reported below, only when it stores */
    if (!p) return h->npc;
    bool ok = h->resv_valid && h->resv_addr == a &&
              (h->instret - h->slice_base) / HART_RESV_PERIOD == h->resv_slice;
    h->resv_valid = false; /* SC always ends the reservation, success or not */
    if (ok) {
        uint64_t v = X(d->rs2);
        hart_note_access(h, a, n, HART_ACC_STORE);
        memcpy(p, &v, n);
        amo_stored(h, a, p, n, v);
    }
    wx(h, d->rd, ok ? 0 : 1);
    return next;
}

enum { AMO_SWAP, AMO_ADD, AMO_XOR, AMO_AND, AMO_OR, AMO_MIN, AMO_MAX, AMO_MINU, AMO_MAXU };

/* The read-modify-write of an AMO at a (n = 4 or 8) with operand src; false after
 * raising the fault. *oldp = the old value (sign-extended for n = 4). */
static bool amo_rmw(hart *h, uint64_t a, unsigned n, int kind, uint64_t src, uint64_t *oldp)
{
    uint8_t *p = amo_ptr(h, a, n, HART_ACC_LOAD | HART_ACC_STORE);
    if (!p) return false;
    uint64_t old = rd_n(p, n), nv;
    if (n == 4) src = (uint64_t)sext32(src); /* compare as signed/unsigned 32-bit values */
    uint64_t ua = n == 4 ? (uint32_t)old : old, ub = n == 4 ? (uint32_t)src : src;
    switch (kind) {
    case AMO_SWAP:
        nv = src;
        break;
    case AMO_ADD:
        nv = old + src;
        break;
    case AMO_XOR:
        nv = old ^ src;
        break;
    case AMO_AND:
        nv = old & src;
        break;
    case AMO_OR:
        nv = old | src;
        break;
    case AMO_MIN:
        nv = (int64_t)old < (int64_t)src ? old : src;
        break;
    case AMO_MAX:
        nv = (int64_t)old > (int64_t)src ? old : src;
        break;
    case AMO_MINU:
        nv = ua < ub ? old : src;
        break;
    default:
        nv = ua > ub ? old : src;
        break;
    }
    if (h->tracing) hart_trace_mem(h, a, n, n == 4 ? (uint32_t)old : old, false);
    memcpy(p, &nv, n);
    amo_stored(h, a, p, n, n == 4 ? (uint32_t)nv : nv);
    *oldp = old;
    return true;
}

static uint64_t amo(hart *h, const hart_insn *d, unsigned n, int kind)
{
    uint64_t next = NEXT, old;
    if (!amo_rmw(h, X(d->rs1), n, kind, X(d->rs2), &old)) return h->npc;
    wx(h, d->rd, old);
    return next;
}

bool hart_amo(hart *h, unsigned funct5, uint64_t addr, unsigned size, uint64_t src, uint64_t *old)
{
    static const int kinds[32] = {
        [0x00] = AMO_ADD + 1, [0x01] = AMO_SWAP + 1, [0x04] = AMO_XOR + 1,
        [0x08] = AMO_OR + 1,  [0x0c] = AMO_AND + 1,  [0x10] = AMO_MIN + 1,
        [0x14] = AMO_MAX + 1, [0x18] = AMO_MINU + 1, [0x1c] = AMO_MAXU + 1,
    };
    if (funct5 >= 32 || !kinds[funct5] || (size != 4 && size != 8)) return false;
    return amo_rmw(h, addr, size, kinds[funct5] - 1, src, old);
}

H(a_lr_w)
{
    return lr(h, d, 4);
}
H(a_lr_d)
{
    return lr(h, d, 8);
}
H(a_sc_w)
{
    return sc(h, d, 4);
}
H(a_sc_d)
{
    return sc(h, d, 8);
}
#define AMOH(nm, k)                                                                                \
    H(a_##nm##_w)                                                                                  \
    {                                                                                              \
        return amo(h, d, 4, k);                                                                    \
    }                                                                                              \
    H(a_##nm##_d)                                                                                  \
    {                                                                                              \
        return amo(h, d, 8, k);                                                                    \
    }
AMOH(swap, AMO_SWAP)
AMOH(add, AMO_ADD)
AMOH(xor, AMO_XOR)
AMOH(and, AMO_AND)
AMOH(or, AMO_OR)
AMOH(min, AMO_MIN)
AMOH(max, AMO_MAX)
AMOH(minu, AMO_MINU)
AMOH(maxu, AMO_MAXU)

/* ---- fences, system ---- */
H(s_nop)
{
    (void)h;
    return NEXT;
}
H(s_fence_i)
{
    /* Simplest correct reading of Zifencei: drop every decoded instruction (this entry
     * too: NEXT is its npc, which the flush leaves). Stores already invalidate
     * overlapping entries, so this is belt and braces. */
    hart_icache_flush(h);
    return NEXT;
}
H(s_ecall)
{
    (void)d;
    static const uint64_t cause[4] = {CAUSE_ECALL_U, CAUSE_ECALL_S, 0, CAUSE_ECALL_M};
    hart_raise(h, cause[h->priv], 0);
    return h->npc;
}
H(s_ebreak)
{
    hart_raise(h, CAUSE_BREAKPOINT, d->pc);
    return h->npc;
}
/* The return address of mret/sret: bit 1 reads zero while IALIGN = 32. */
static uint64_t xret_target(const hart *h, uint64_t epc)
{
    return epc & ((h->misa & MISA_C) ? ~UINT64_C(1) : ~UINT64_C(3));
}
/* After mret/sret: the new mode may translate, and Spike logs the mstatus write. */
static void xret_done(hart *h)
{
    h->resv_valid = false;
    hart_update_xlate(h, false);
    h->stop = true;
    hart_trace_csr(h, 0x300);
}
H(s_mret)
{
    if (h->priv != PRV_M) return hart_illegal(h, d);
    uint64_t s = h->mstatus;
    unsigned mpp = (unsigned)((s & MSTATUS_MPP) >> 11);
    s = (s & ~MSTATUS_MIE) | ((s & MSTATUS_MPIE) ? MSTATUS_MIE : 0);
    s |= MSTATUS_MPIE;
    s &= ~MSTATUS_MPP; /* MPP <- U, the least-privileged mode */
    if (mpp != PRV_M) s &= ~MSTATUS_MPRV;
    h->mstatus = s;
    h->priv = mpp;
    xret_done(h);
    return xret_target(h, h->mepc);
}
H(s_sret)
{
    if (h->priv == PRV_U || (h->priv == PRV_S && (h->mstatus & MSTATUS_TSR)))
        return hart_illegal(h, d);
    uint64_t s = h->mstatus;
    unsigned spp = (s & MSTATUS_SPP) ? PRV_S : PRV_U;
    s = (s & ~MSTATUS_SIE) | ((s & MSTATUS_SPIE) ? MSTATUS_SIE : 0);
    s |= MSTATUS_SPIE;
    s &= ~(MSTATUS_SPP | MSTATUS_MPRV); /* the new mode is below M */
    h->mstatus = s;
    h->priv = spp;
    xret_done(h);
    return xret_target(h, h->sepc);
}
/* No TLB: translations are walked on every access, so there is nothing to drop. */
H(s_sfence_vma)
{
    if (h->priv == PRV_U || (h->priv == PRV_S && (h->mstatus & MSTATUS_TVM)))
        return hart_illegal(h, d);
    jit_flush_request(h); /* translations are keyed by physical pc: belt and braces */
    return NEXT;
}
/* WFI is illegal below M with mstatus.TW = 1, and in U mode whenever S mode exists. */
H(s_wfi)
{
    if (h->priv != PRV_M && (h->mstatus & MSTATUS_TW)) return hart_illegal(h, d);
    if (h->priv == PRV_U && (h->misa & MISA_S)) return hart_illegal(h, d);
    h->wfi_pending = true;
    h->stop = true;
    h->resv_valid = false; /* a slice ends at WFI (see hart.h, LR/SC) */
    h->slice_base = h->instret + 1;
    return NEXT;
}

uint8_t hart_kind_of(hart_exec_fn fn)
{
    static const struct {
        hart_exec_fn fn;
        uint8_t k;
    } map[] = {
        {i_addi, K_ADDI},   {i_addiw, K_ADDIW}, {i_andi, K_ANDI},   {i_ori, K_ORI},
        {i_xori, K_XORI},   {i_slli, K_SLLI},   {i_srli, K_SRLI},   {i_srai, K_SRAI},
        {i_slti, K_SLTI},   {i_sltiu, K_SLTIU}, {i_lui, K_LUI},     {i_auipc, K_AUIPC},
        {i_add, K_ADD},     {i_sub, K_SUB},     {i_and, K_AND},     {i_or, K_OR},
        {i_xor, K_XOR},     {i_sll, K_SLL},     {i_srl, K_SRL},     {i_sra, K_SRA},
        {i_slt, K_SLT},     {i_sltu, K_SLTU},   {i_addw, K_ADDW},   {i_subw, K_SUBW},
        {m_mul, K_MUL},     {i_jal, K_JAL},     {i_jalr, K_JALR},   {i_beq, K_BEQ},
        {i_bne, K_BNE},     {i_blt, K_BLT},     {i_bge, K_BGE},     {i_bltu, K_BLTU},
        {i_bgeu, K_BGEU},   {i_lb, K_LB},       {i_lbu, K_LBU},     {i_lh, K_LH},
        {i_lhu, K_LHU},     {i_lw, K_LW},       {i_lwu, K_LWU},     {i_ld, K_LD},
        {i_sb, K_SB},       {i_sh, K_SH},       {i_sw, K_SW},       {i_sd, K_SD},
        {i_slliw, K_SLLIW}, {i_srliw, K_SRLIW}, {i_sraiw, K_SRAIW}, {i_sllw, K_SLLW},
        {i_srlw, K_SRLW},   {i_sraw, K_SRAW},   {m_mulw, K_MULW},
    };
    for (unsigned i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].fn == fn) return map[i].k;
    return K_CALL;
}

#define B(n, f, w)                                                                                 \
    {                                                                                              \
        n, f, w                                                                                    \
    }
#define XW HART_WR_X
#define NW HART_WR_NONE
const hart_bind hart_bind_base[] = {
    B("lui", i_lui, XW), B("auipc", i_auipc, XW), B("jal", i_jal, XW), B("jalr", i_jalr, XW),
    B("beq", i_beq, NW), B("bne", i_bne, NW), B("blt", i_blt, NW), B("bge", i_bge, NW),
    B("bltu", i_bltu, NW), B("bgeu", i_bgeu, NW), B("lb", i_lb, XW), B("lh", i_lh, XW),
    B("lw", i_lw, XW), B("ld", i_ld, XW), B("lbu", i_lbu, XW), B("lhu", i_lhu, XW),
    B("lwu", i_lwu, XW), B("sb", i_sb, NW), B("sh", i_sh, NW), B("sw", i_sw, NW), B("sd", i_sd, NW),
    B("addi", i_addi, XW), B("slti", i_slti, XW), B("sltiu", i_sltiu, XW), B("xori", i_xori, XW),
    B("ori", i_ori, XW), B("andi", i_andi, XW), B("slli", i_slli, XW), B("srli", i_srli, XW),
    B("srai", i_srai, XW), B("addiw", i_addiw, XW), B("slliw", i_slliw, XW),
    B("srliw", i_srliw, XW), B("sraiw", i_sraiw, XW), B("add", i_add, XW), B("sub", i_sub, XW),
    B("sll", i_sll, XW), B("slt", i_slt, XW), B("sltu", i_sltu, XW), B("xor", i_xor, XW),
    B("srl", i_srl, XW), B("sra", i_sra, XW), B("or", i_or, XW), B("and", i_and, XW),
    B("addw", i_addw, XW), B("subw", i_subw, XW), B("sllw", i_sllw, XW), B("srlw", i_srlw, XW),
    B("sraw", i_sraw, XW), B("fence", s_nop, NW), B("fence.tso", s_nop, NW), B("pause", s_nop, NW),
    B("fence.i", s_fence_i, NW), B("ecall", s_ecall, NW), B("ebreak", s_ebreak, NW),
    B("mret", s_mret, NW), B("sret", s_sret, NW), B("sfence.vma", s_sfence_vma, NW),
    B("wfi", s_wfi, NW), B("csrrw", hart_exec_csrrw, XW), B("csrrs", hart_exec_csrrs, XW),
    B("csrrc", hart_exec_csrrc, XW), B("csrrwi", hart_exec_csrrwi, XW),
    B("csrrsi", hart_exec_csrrsi, XW), B("csrrci", hart_exec_csrrci, XW),
    /* M */
    B("mul", m_mul, XW), B("mulh", m_mulh, XW), B("mulhsu", m_mulhsu, XW), B("mulhu", m_mulhu, XW),
    B("div", m_div, XW), B("divu", m_divu, XW), B("rem", m_rem, XW), B("remu", m_remu, XW),
    B("mulw", m_mulw, XW), B("divw", m_divw, XW), B("divuw", m_divuw, XW), B("remw", m_remw, XW),
    B("remuw", m_remuw, XW),
    /* A (suffixes .aq/.rl/.aqrl are stripped before lookup) */
    B("lr.w", a_lr_w, XW), B("lr.d", a_lr_d, XW), B("sc.w", a_sc_w, XW), B("sc.d", a_sc_d, XW),
    B("amoswap.w", a_swap_w, XW), B("amoswap.d", a_swap_d, XW), B("amoadd.w", a_add_w, XW),
    B("amoadd.d", a_add_d, XW), B("amoxor.w", a_xor_w, XW), B("amoxor.d", a_xor_d, XW),
    B("amoand.w", a_and_w, XW), B("amoand.d", a_and_d, XW), B("amoor.w", a_or_w, XW),
    B("amoor.d", a_or_d, XW), B("amomin.w", a_min_w, XW), B("amomin.d", a_min_d, XW),
    B("amomax.w", a_max_w, XW), B("amomax.d", a_max_d, XW), B("amominu.w", a_minu_w, XW),
    B("amominu.d", a_minu_d, XW), B("amomaxu.w", a_maxu_w, XW), B("amomaxu.d", a_maxu_d, XW),
    /* C: same semantics as the base forms given the slots the decoder fills */
    B("c.addi4spn", i_addi, XW), B("c.lw", i_lw, XW), B("c.ld", i_ld, XW), B("c.sw", i_sw, NW),
    B("c.sd", i_sd, NW), B("c.nop", s_nop, NW), B("c.addi", i_addi, XW), B("c.addiw", i_addiw, XW),
    B("c.li", i_addi, XW), B("c.addi16sp", i_addi, XW), B("c.lui", i_lui, XW),
    B("c.srli", i_srli, XW), B("c.srai", i_srai, XW), B("c.andi", i_andi, XW),
    B("c.sub", i_sub, XW), B("c.xor", i_xor, XW), B("c.or", i_or, XW), B("c.and", i_and, XW),
    B("c.subw", i_subw, XW), B("c.addw", i_addw, XW), B("c.j", i_jal, NW), B("c.beqz", i_beq, NW),
    B("c.bnez", i_bne, NW), B("c.slli", i_slli, XW), B("c.lwsp", i_lw, XW), B("c.ldsp", i_ld, XW),
    B("c.jr", i_jalr, NW), B("c.mv", i_add, XW), B("c.ebreak", s_ebreak, NW),
    B("c.jalr", i_jalr, XW), B("c.add", i_add, XW), B("c.swsp", i_sw, NW), B("c.sdsp", i_sd, NW),
    /* shift-by-zero forms: HINTs on RV64, no effect */
    B("c.slli64", s_nop, NW), B("c.srli64", s_nop, NW), B("c.srai64", s_nop, NW),
    /* not bound on purpose, so they stay illegal: unimp, c.unimp */
};
const unsigned hart_bind_base_count = sizeof hart_bind_base / sizeof hart_bind_base[0];
