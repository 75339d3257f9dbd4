/* fpvec_ops.h — the operations of the guest-level vector test, shared by the host
 * generator (gen_fpvec.c, expected values from tests/fp/fpref.c) and the guest program
 * (fp_vectors.c). X(ID, name, kind, fmt, nargs, bits, signed, refop):
 * kind 0 arith, 1 float->float, 2 float->int, 3 int->float (FPGEN_* order);
 * fmt 0 binary32 / 1 binary64 (arith: operands and result; FF and FROMINT: the result;
 * TOINT: the source). */
#ifndef XPHMG_TESTS_FPVEC_OPS_H
#define XPHMG_TESTS_FPVEC_OPS_H

#define FPVEC_OPS(X)                                                                               \
    X(FADD_S, "fadd.s", 0, 0, 2, 0, 0, REF_ADD)                                                    \
    X(FSUB_S, "fsub.s", 0, 0, 2, 0, 0, REF_SUB)                                                    \
    X(FMUL_S, "fmul.s", 0, 0, 2, 0, 0, REF_MUL)                                                    \
    X(FDIV_S, "fdiv.s", 0, 0, 2, 0, 0, REF_DIV)                                                    \
    X(FSQRT_S, "fsqrt.s", 0, 0, 1, 0, 0, REF_SQRT)                                                 \
    X(FMADD_S, "fmadd.s", 0, 0, 3, 0, 0, REF_FMADD)                                                \
    X(FMSUB_S, "fmsub.s", 0, 0, 3, 0, 0, REF_FMSUB)                                                \
    X(FNMSUB_S, "fnmsub.s", 0, 0, 3, 0, 0, REF_FNMSUB)                                             \
    X(FNMADD_S, "fnmadd.s", 0, 0, 3, 0, 0, REF_FNMADD)                                             \
    X(FADD_D, "fadd.d", 0, 1, 2, 0, 0, REF_ADD)                                                    \
    X(FSUB_D, "fsub.d", 0, 1, 2, 0, 0, REF_SUB)                                                    \
    X(FMUL_D, "fmul.d", 0, 1, 2, 0, 0, REF_MUL)                                                    \
    X(FDIV_D, "fdiv.d", 0, 1, 2, 0, 0, REF_DIV)                                                    \
    X(FSQRT_D, "fsqrt.d", 0, 1, 1, 0, 0, REF_SQRT)                                                 \
    X(FMADD_D, "fmadd.d", 0, 1, 3, 0, 0, REF_FMADD)                                                \
    X(FMSUB_D, "fmsub.d", 0, 1, 3, 0, 0, REF_FMSUB)                                                \
    X(FNMSUB_D, "fnmsub.d", 0, 1, 3, 0, 0, REF_FNMSUB)                                             \
    X(FNMADD_D, "fnmadd.d", 0, 1, 3, 0, 0, REF_FNMADD)                                             \
    X(FCVT_S_D, "fcvt.s.d", 1, 0, 1, 0, 0, 0)                                                      \
    X(FCVT_D_S, "fcvt.d.s", 1, 1, 1, 0, 0, 0)                                                      \
    X(FCVT_W_S, "fcvt.w.s", 2, 0, 1, 32, 1, 0)                                                     \
    X(FCVT_WU_S, "fcvt.wu.s", 2, 0, 1, 32, 0, 0)                                                   \
    X(FCVT_L_S, "fcvt.l.s", 2, 0, 1, 64, 1, 0)                                                     \
    X(FCVT_LU_S, "fcvt.lu.s", 2, 0, 1, 64, 0, 0)                                                   \
    X(FCVT_W_D, "fcvt.w.d", 2, 1, 1, 32, 1, 0)                                                     \
    X(FCVT_WU_D, "fcvt.wu.d", 2, 1, 1, 32, 0, 0)                                                   \
    X(FCVT_L_D, "fcvt.l.d", 2, 1, 1, 64, 1, 0)                                                     \
    X(FCVT_LU_D, "fcvt.lu.d", 2, 1, 1, 64, 0, 0)                                                   \
    X(FCVT_S_W, "fcvt.s.w", 3, 0, 1, 32, 1, 0)                                                     \
    X(FCVT_S_WU, "fcvt.s.wu", 3, 0, 1, 32, 0, 0)                                                   \
    X(FCVT_S_L, "fcvt.s.l", 3, 0, 1, 64, 1, 0)                                                     \
    X(FCVT_S_LU, "fcvt.s.lu", 3, 0, 1, 64, 0, 0)                                                   \
    X(FCVT_D_W, "fcvt.d.w", 3, 1, 1, 32, 1, 0)                                                     \
    X(FCVT_D_WU, "fcvt.d.wu", 3, 1, 1, 32, 0, 0)                                                   \
    X(FCVT_D_L, "fcvt.d.l", 3, 1, 1, 64, 1, 0)                                                     \
    X(FCVT_D_LU, "fcvt.d.lu", 3, 1, 1, 64, 0, 0)

#define FPVEC_ENUM(id, ...) OP_##id,
enum { FPVEC_OPS(FPVEC_ENUM) OP__COUNT };

/* One vector: inputs and expected result as register images (binary32 values NaN-boxed,
 * 32-bit integer results sign-extended), expected fflags. */
struct fpvec {
    unsigned char op, rm, flags;
    unsigned long long a, b, c, want;
};

#endif
