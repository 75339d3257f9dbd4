/* exec_fp.c — F and D: the register file side (NaN-boxing, rounding-mode resolution,
 * fflags accrual, mstatus.FS). The arithmetic itself is rvfp (src/num/rvfp.h). */
#include "hart_int.h"
#include "rvfp.h"

/* FP handlers are written as bodies that may trap (returning early); the wrapper returns
 * the fall-through address unless the body raised a trap (hart_raise sets h->trapped
 * and h->npc). Testing a flag rather than passing the pc through h->npc keeps a memory
 * round trip off the pc's dependency chain. */
#define H(name)                                                                                    \
    static inline void name##_body(hart *h, const hart_insn *d);                                   \
    static uint64_t name(hart *h, const hart_insn *d)                                              \
    {                                                                                              \
        h->trapped = false;                                                                        \
        name##_body(h, d);                                                                         \
        return UNLIKELY(h->trapped) ? h->npc : NEXT;                                               \
    }                                                                                              \
    static inline void name##_body(hart *h, const hart_insn *d)
#define BOX_S UINT64_C(0xffffffff00000000)

/* A binary32 operand: a register not holding a properly boxed value reads as the
 * canonical NaN (RISC-V NaN-boxing rule). */
static inline uint32_t fs(const hart *h, unsigned r)
{
    uint64_t v = h->f[r];
    return (v >> 32) == 0xffffffff ? (uint32_t)v : RVFP_QNAN_S;
}
static inline uint64_t fdv(const hart *h, unsigned r)
{
    return h->f[r];
}

static inline void wf_s(hart *h, unsigned r, uint32_t v)
{
    h->f[r] = BOX_S | v;
    fs_dirty(h);
}
static inline void wf_d(hart *h, unsigned r, uint64_t v)
{
    h->f[r] = v;
    fs_dirty(h);
}
static inline void accrue(hart *h, unsigned fl)
{
    if (fl) {
        h->fflags |= fl;
        fs_dirty(h);
        if (UNLIKELY(h->tracing)) hart_trace_csr(h, 0x001); /* Spike logs the fflags write too */
    }
}

/* Every F/D instruction is illegal while mstatus.FS is Off. */
static inline bool fp_ok(hart *h, const hart_insn *d)
{
    if (UNLIKELY((h->mstatus & MSTATUS_FS) == FS_OFF)) {
        hart_illegal(h, d);
        return false;
    }
    return true;
}

/* Resolves the instruction's rm (7 = dynamic: frm); reserved modes 5, 6 and a reserved
 * frm value under DYN are illegal instructions. Returns -1 after raising. */
static inline int rm_of(hart *h, const hart_insn *d)
{
    if (!fp_ok(h, d)) return -1;
    unsigned rm = d->rm == 7 ? h->frm : d->rm;
    if (UNLIKELY(rm > 4)) {
        hart_illegal(h, d);
        return -1;
    }
    return (int)rm;
}

/* ---- loads and stores: bits move unchanged (flw boxes, fsw stores the low word) ---- */
H(f_flw)
{
    uint64_t v;
    if (fp_ok(h, d) && ld(h, h->x[d->rs1] + (uint64_t)d->imm, 4, &v)) wf_s(h, d->rd, (uint32_t)v);
}
H(f_fld)
{
    uint64_t v;
    if (fp_ok(h, d) && ld(h, h->x[d->rs1] + (uint64_t)d->imm, 8, &v)) wf_d(h, d->rd, v);
}
H(f_fsw)
{
    if (fp_ok(h, d)) st(h, h->x[d->rs1] + (uint64_t)d->imm, 4, (uint32_t)h->f[d->rs2]);
}
H(f_fsd)
{
    if (fp_ok(h, d)) st(h, h->x[d->rs1] + (uint64_t)d->imm, 8, h->f[d->rs2]);
}

/* ---- arithmetic and conversions: one rounded operation each ----
 * ROUNDED: the instruction's rm resolved (illegal when reserved), the rvfp operation on
 * the operands, WF writes the result, the flags accrue. ROUNDED1/2/3 read rs1, rs2 and rs3
 * through RD; WF = wx for results in x. */
#define ROUNDED(name, fn, WF, ...)                                                                 \
    H(name)                                                                                        \
    {                                                                                              \
        int rm = rm_of(h, d);                                                                      \
        if (rm < 0) return;                                                                        \
        unsigned fl = 0;                                                                           \
        WF(h, d->rd, fn(__VA_ARGS__, (unsigned)rm, &fl));                                          \
        accrue(h, fl);                                                                             \
    }
#define ROUNDED1(name, fn, RD, WF) ROUNDED(name, fn, WF, RD(h, d->rs1))
#define ROUNDED2(name, fn, RD, WF) ROUNDED(name, fn, WF, RD(h, d->rs1), RD(h, d->rs2))
#define ROUNDED3(name, fn, RD, WF)                                                                 \
    ROUNDED(name, fn, WF, RD(h, d->rs1), RD(h, d->rs2), RD(h, d->rs3))
ROUNDED2(f_fadd_s, rvfp_add_s, fs, wf_s)
ROUNDED2(f_fsub_s, rvfp_sub_s, fs, wf_s)
ROUNDED2(f_fmul_s, rvfp_mul_s, fs, wf_s)
ROUNDED2(f_fdiv_s, rvfp_div_s, fs, wf_s)
ROUNDED2(f_fadd_d, rvfp_add_d, fdv, wf_d)
ROUNDED2(f_fsub_d, rvfp_sub_d, fdv, wf_d)
ROUNDED2(f_fmul_d, rvfp_mul_d, fdv, wf_d)
ROUNDED2(f_fdiv_d, rvfp_div_d, fdv, wf_d)
ROUNDED3(f_fmadd_s, rvfp_fmadd_s, fs, wf_s)
ROUNDED3(f_fmsub_s, rvfp_fmsub_s, fs, wf_s)
ROUNDED3(f_fnmsub_s, rvfp_fnmsub_s, fs, wf_s)
ROUNDED3(f_fnmadd_s, rvfp_fnmadd_s, fs, wf_s)
ROUNDED3(f_fmadd_d, rvfp_fmadd_d, fdv, wf_d)
ROUNDED3(f_fmsub_d, rvfp_fmsub_d, fdv, wf_d)
ROUNDED3(f_fnmsub_d, rvfp_fnmsub_d, fdv, wf_d)
ROUNDED3(f_fnmadd_d, rvfp_fnmadd_d, fdv, wf_d)
ROUNDED1(f_fsqrt_s, rvfp_sqrt_s, fs, wf_s)
ROUNDED1(f_fsqrt_d, rvfp_sqrt_d, fdv, wf_d)

/* ---- no rounding: min/max and compares (flags), sign injection, classify ---- */
#define UNROUNDED2(name, fn, RD, WF)                                                               \
    H(name)                                                                                        \
    {                                                                                              \
        if (!fp_ok(h, d)) return;                                                                  \
        unsigned fl = 0;                                                                           \
        WF(h, d->rd, fn(RD(h, d->rs1), RD(h, d->rs2), &fl));                                       \
        accrue(h, fl);                                                                             \
    }
UNROUNDED2(f_fmin_s, rvfp_min_s, fs, wf_s)
UNROUNDED2(f_fmax_s, rvfp_max_s, fs, wf_s)
UNROUNDED2(f_fmin_d, rvfp_min_d, fdv, wf_d)
UNROUNDED2(f_fmax_d, rvfp_max_d, fdv, wf_d)
UNROUNDED2(f_feq_s, rvfp_eq_s, fs, wx)
UNROUNDED2(f_flt_s, rvfp_lt_s, fs, wx)
UNROUNDED2(f_fle_s, rvfp_le_s, fs, wx)
UNROUNDED2(f_feq_d, rvfp_eq_d, fdv, wx)
UNROUNDED2(f_flt_d, rvfp_lt_d, fdv, wx)
UNROUNDED2(f_fle_d, rvfp_le_d, fdv, wx)
#define SGN(name, fn, RD, WF)                                                                      \
    H(name)                                                                                        \
    {                                                                                              \
        if (fp_ok(h, d)) WF(h, d->rd, fn(RD(h, d->rs1), RD(h, d->rs2)));                           \
    }
SGN(f_fsgnj_s, rvfp_sgnj_s, fs, wf_s)
SGN(f_fsgnjn_s, rvfp_sgnjn_s, fs, wf_s)
SGN(f_fsgnjx_s, rvfp_sgnjx_s, fs, wf_s)
SGN(f_fsgnj_d, rvfp_sgnj_d, fdv, wf_d)
SGN(f_fsgnjn_d, rvfp_sgnjn_d, fdv, wf_d)
SGN(f_fsgnjx_d, rvfp_sgnjx_d, fdv, wf_d)
H(f_fclass_s)
{
    if (fp_ok(h, d)) wx(h, d->rd, rvfp_classify_s(fs(h, d->rs1)));
}
H(f_fclass_d)
{
    if (fp_ok(h, d)) wx(h, d->rd, rvfp_classify_d(fdv(h, d->rs1)));
}

/* ---- moves: raw bits ---- */
H(f_fmv_x_w)
{
    if (fp_ok(h, d)) wx(h, d->rd, (uint64_t)sext32(h->f[d->rs1]));
}
H(f_fmv_w_x)
{
    if (fp_ok(h, d)) wf_s(h, d->rd, (uint32_t)h->x[d->rs1]);
}
H(f_fmv_x_d)
{
    if (fp_ok(h, d)) wx(h, d->rd, h->f[d->rs1]);
}
H(f_fmv_d_x)
{
    if (fp_ok(h, d)) wf_d(h, d->rd, h->x[d->rs1]);
}

/* ---- conversions ---- */
/* An integer operand: the low 32 bits of x[r] (signed or not) for the .w/.wu forms. */
static inline int32_t xw(const hart *h, unsigned r)
{
    return (int32_t)h->x[r];
}
static inline uint32_t xwu(const hart *h, unsigned r)
{
    return (uint32_t)h->x[r];
}
static inline int64_t xl(const hart *h, unsigned r)
{
    return (int64_t)h->x[r];
}
static inline uint64_t xlu(const hart *h, unsigned r)
{
    return h->x[r];
}
ROUNDED1(f_fcvt_w_s, rvfp_cvt_w_s, fs, wx)
ROUNDED1(f_fcvt_wu_s, rvfp_cvt_wu_s, fs, wx)
ROUNDED1(f_fcvt_l_s, rvfp_cvt_l_s, fs, wx)
ROUNDED1(f_fcvt_lu_s, rvfp_cvt_lu_s, fs, wx)
ROUNDED1(f_fcvt_w_d, rvfp_cvt_w_d, fdv, wx)
ROUNDED1(f_fcvt_wu_d, rvfp_cvt_wu_d, fdv, wx)
ROUNDED1(f_fcvt_l_d, rvfp_cvt_l_d, fdv, wx)
ROUNDED1(f_fcvt_lu_d, rvfp_cvt_lu_d, fdv, wx)
ROUNDED1(f_fcvt_s_w, rvfp_cvt_s_w, xw, wf_s)
ROUNDED1(f_fcvt_s_wu, rvfp_cvt_s_wu, xwu, wf_s)
ROUNDED1(f_fcvt_s_l, rvfp_cvt_s_l, xl, wf_s)
ROUNDED1(f_fcvt_s_lu, rvfp_cvt_s_lu, xlu, wf_s)
ROUNDED1(f_fcvt_d_w, rvfp_cvt_d_w, xw, wf_d)
ROUNDED1(f_fcvt_d_wu, rvfp_cvt_d_wu, xwu, wf_d)
ROUNDED1(f_fcvt_d_l, rvfp_cvt_d_l, xl, wf_d)
ROUNDED1(f_fcvt_d_lu, rvfp_cvt_d_lu, xlu, wf_d)
ROUNDED1(f_fcvt_s_d, rvfp_cvt_s_d, fdv, wf_s)
/* exact, but the rm field still exists: a reserved rm is illegal */
ROUNDED1(f_fcvt_d_s, rvfp_cvt_d_s, fs, wf_d)

uint8_t hart_kind_of_fp(hart_exec_fn fn)
{
    static const struct {
        hart_exec_fn fn;
        uint8_t k;
    } map[] = {
        {f_flw, K_FLW},
        {f_fld, K_FLD},
        {f_fsw, K_FSW},
        {f_fsd, K_FSD},
        {f_fmv_x_d, K_FMV_X_D},
        {f_fmv_d_x, K_FMV_D_X},
#if HART_FP_INLINE
        {f_fadd_s, K_FADD_S},
        {f_fsub_s, K_FSUB_S},
        {f_fmul_s, K_FMUL_S},
        {f_fadd_d, K_FADD_D},
        {f_fsub_d, K_FSUB_D},
        {f_fmul_d, K_FMUL_D},
        {f_fmadd_s, K_FMADD_S},
        {f_fmadd_d, K_FMADD_D},
        {f_fdiv_s, K_FDIV_S},
        {f_fdiv_d, K_FDIV_D},
        {f_fsqrt_s, K_FSQRT_S},
        {f_fsqrt_d, K_FSQRT_D},
#endif
    };
    for (unsigned i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].fn == fn) {
#if HART_FP_INLINE
            /* the fused cases use the host's FMA3 instruction */
            if ((map[i].k == K_FMADD_S || map[i].k == K_FMADD_D) && !__builtin_cpu_supports("fma"))
                return K_CALL;
#endif
            return map[i].k;
        }
    return K_CALL;
}

#define B(n, f, w)                                                                                 \
    {                                                                                              \
        n, f, w                                                                                    \
    }
#define XW HART_WR_X
#define FW HART_WR_F
#define NW HART_WR_NONE
const hart_bind hart_bind_fp[] = {
    B("flw", f_flw, FW),
    B("fld", f_fld, FW),
    B("fsw", f_fsw, NW),
    B("fsd", f_fsd, NW),
    B("c.fld", f_fld, FW),
    B("c.fsd", f_fsd, NW),
    B("c.fldsp", f_fld, FW),
    B("c.fsdsp", f_fsd, NW),
    B("fadd.s", f_fadd_s, FW),
    B("fsub.s", f_fsub_s, FW),
    B("fmul.s", f_fmul_s, FW),
    B("fdiv.s", f_fdiv_s, FW),
    B("fsqrt.s", f_fsqrt_s, FW),
    B("fadd.d", f_fadd_d, FW),
    B("fsub.d", f_fsub_d, FW),
    B("fmul.d", f_fmul_d, FW),
    B("fdiv.d", f_fdiv_d, FW),
    B("fsqrt.d", f_fsqrt_d, FW),
    B("fmadd.s", f_fmadd_s, FW),
    B("fmsub.s", f_fmsub_s, FW),
    B("fnmsub.s", f_fnmsub_s, FW),
    B("fnmadd.s", f_fnmadd_s, FW),
    B("fmadd.d", f_fmadd_d, FW),
    B("fmsub.d", f_fmsub_d, FW),
    B("fnmsub.d", f_fnmsub_d, FW),
    B("fnmadd.d", f_fnmadd_d, FW),
    B("fmin.s", f_fmin_s, FW),
    B("fmax.s", f_fmax_s, FW),
    B("fmin.d", f_fmin_d, FW),
    B("fmax.d", f_fmax_d, FW),
    B("fsgnj.s", f_fsgnj_s, FW),
    B("fsgnjn.s", f_fsgnjn_s, FW),
    B("fsgnjx.s", f_fsgnjx_s, FW),
    B("fsgnj.d", f_fsgnj_d, FW),
    B("fsgnjn.d", f_fsgnjn_d, FW),
    B("fsgnjx.d", f_fsgnjx_d, FW),
    B("feq.s", f_feq_s, XW),
    B("flt.s", f_flt_s, XW),
    B("fle.s", f_fle_s, XW),
    B("feq.d", f_feq_d, XW),
    B("flt.d", f_flt_d, XW),
    B("fle.d", f_fle_d, XW),
    B("fclass.s", f_fclass_s, XW),
    B("fclass.d", f_fclass_d, XW),
    B("fmv.x.w", f_fmv_x_w, XW),
    B("fmv.w.x", f_fmv_w_x, FW),
    B("fmv.x.d", f_fmv_x_d, XW),
    B("fmv.d.x", f_fmv_d_x, FW),
    B("fcvt.w.s", f_fcvt_w_s, XW),
    B("fcvt.wu.s", f_fcvt_wu_s, XW),
    B("fcvt.l.s", f_fcvt_l_s, XW),
    B("fcvt.lu.s", f_fcvt_lu_s, XW),
    B("fcvt.w.d", f_fcvt_w_d, XW),
    B("fcvt.wu.d", f_fcvt_wu_d, XW),
    B("fcvt.l.d", f_fcvt_l_d, XW),
    B("fcvt.lu.d", f_fcvt_lu_d, XW),
    B("fcvt.s.w", f_fcvt_s_w, FW),
    B("fcvt.s.wu", f_fcvt_s_wu, FW),
    B("fcvt.s.l", f_fcvt_s_l, FW),
    B("fcvt.s.lu", f_fcvt_s_lu, FW),
    B("fcvt.d.w", f_fcvt_d_w, FW),
    B("fcvt.d.wu", f_fcvt_d_wu, FW),
    B("fcvt.d.l", f_fcvt_d_l, FW),
    B("fcvt.d.lu", f_fcvt_d_lu, FW),
    B("fcvt.s.d", f_fcvt_s_d, FW),
    B("fcvt.d.s", f_fcvt_d_s, FW),
    /* fmv.x.s / fmv.s.x: the pre-2.2 names, should the XML carry them */
    B("fmv.x.s", f_fmv_x_w, XW),
    B("fmv.s.x", f_fmv_w_x, FW),
};
const unsigned hart_bind_fp_count = sizeof hart_bind_fp / sizeof hart_bind_fp[0];
