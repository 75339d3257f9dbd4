/* fp_vectors.c — guest program: runs every F/D rounding instruction on vectors whose
 * expected results and fflags come from the exact host reference (gen_fpvec), under
 * dynamic rounding (frm = each of the five modes). Checks the whole path: decoder, hart
 * (NaN-boxing, rm resolution, flag accrual) and rvfp. Exit 0 = all match; otherwise
 * prints the mismatches and exits 1. */
#include <stdio.h>
#include <stdlib.h>

#include "fpvec_ops.h"

/* the table, generated into an assembly file by gen_fpvec */
extern const struct fpvec fpvecs[];
extern const struct fpvec fpvecs_end[];

typedef unsigned long long u64;

/* fa = ft0, fb = ft1, fc = ft3, result ft2 (or an integer register) */
#define F1(insn)                                                                                   \
    __asm__ volatile("fmv.d.x ft0, %1\n\t" insn " ft2, ft0, dyn\n\tfmv.x.d %0, ft2"                \
                     : "=r"(r)                                                                     \
                     : "r"(v->a)                                                                   \
                     : "ft0", "ft2")
#define F2(insn)                                                                                   \
    __asm__ volatile("fmv.d.x ft0, %1\n\tfmv.d.x ft1, %2\n\t" insn " ft2, ft0, ft1, dyn\n\t"       \
                     "fmv.x.d %0, ft2"                                                             \
                     : "=r"(r)                                                                     \
                     : "r"(v->a), "r"(v->b)                                                        \
                     : "ft0", "ft1", "ft2")
#define F3(insn)                                                                                   \
    __asm__ volatile("fmv.d.x ft0, %1\n\tfmv.d.x ft1, %2\n\tfmv.d.x ft3, %3\n\t" insn              \
                     " ft2, ft0, ft1, ft3, dyn\n\tfmv.x.d %0, ft2"                                 \
                     : "=r"(r)                                                                     \
                     : "r"(v->a), "r"(v->b), "r"(v->c)                                             \
                     : "ft0", "ft1", "ft2", "ft3")
#define TOI(insn)                                                                                  \
    __asm__ volatile("fmv.d.x ft0, %1\n\t" insn " %0, ft0, dyn" : "=r"(r) : "r"(v->a) : "ft0")
#define FROMI(insn)                                                                                \
    __asm__ volatile(insn " ft2, %1, dyn\n\tfmv.x.d %0, ft2" : "=r"(r) : "r"(v->a) : "ft2")
/* exact conversions: the assembler only takes the default rm for these */
#define FROMI_X(insn)                                                                              \
    __asm__ volatile(insn " ft2, %1\n\tfmv.x.d %0, ft2" : "=r"(r) : "r"(v->a) : "ft2")

static const char *const names[] = {
#define FPVEC_NAME(id, name, ...) name,
    FPVEC_OPS(FPVEC_NAME)};

static u64 run(const struct fpvec *v, unsigned *fl)
{
    u64 r = 0;
    __asm__ volatile("csrw frm, %0\n\tcsrw fflags, zero" ::"r"((u64)v->rm));
    switch (v->op) {
    case OP_FADD_S:
        F2("fadd.s");
        break;
    case OP_FSUB_S:
        F2("fsub.s");
        break;
    case OP_FMUL_S:
        F2("fmul.s");
        break;
    case OP_FDIV_S:
        F2("fdiv.s");
        break;
    case OP_FSQRT_S:
        F1("fsqrt.s");
        break;
    case OP_FMADD_S:
        F3("fmadd.s");
        break;
    case OP_FMSUB_S:
        F3("fmsub.s");
        break;
    case OP_FNMSUB_S:
        F3("fnmsub.s");
        break;
    case OP_FNMADD_S:
        F3("fnmadd.s");
        break;
    case OP_FADD_D:
        F2("fadd.d");
        break;
    case OP_FSUB_D:
        F2("fsub.d");
        break;
    case OP_FMUL_D:
        F2("fmul.d");
        break;
    case OP_FDIV_D:
        F2("fdiv.d");
        break;
    case OP_FSQRT_D:
        F1("fsqrt.d");
        break;
    case OP_FMADD_D:
        F3("fmadd.d");
        break;
    case OP_FMSUB_D:
        F3("fmsub.d");
        break;
    case OP_FNMSUB_D:
        F3("fnmsub.d");
        break;
    case OP_FNMADD_D:
        F3("fnmadd.d");
        break;
    case OP_FCVT_S_D:
        F1("fcvt.s.d");
        break;
    case OP_FCVT_D_S:
        __asm__ volatile("fmv.d.x ft0, %1\n\tfcvt.d.s ft2, ft0\n\tfmv.x.d %0, ft2"
                         : "=r"(r)
                         : "r"(v->a)
                         : "ft0", "ft2");
        break;
    case OP_FCVT_W_S:
        TOI("fcvt.w.s");
        break;
    case OP_FCVT_WU_S:
        TOI("fcvt.wu.s");
        break;
    case OP_FCVT_L_S:
        TOI("fcvt.l.s");
        break;
    case OP_FCVT_LU_S:
        TOI("fcvt.lu.s");
        break;
    case OP_FCVT_W_D:
        TOI("fcvt.w.d");
        break;
    case OP_FCVT_WU_D:
        TOI("fcvt.wu.d");
        break;
    case OP_FCVT_L_D:
        TOI("fcvt.l.d");
        break;
    case OP_FCVT_LU_D:
        TOI("fcvt.lu.d");
        break;
    case OP_FCVT_S_W:
        FROMI("fcvt.s.w");
        break;
    case OP_FCVT_S_WU:
        FROMI("fcvt.s.wu");
        break;
    case OP_FCVT_S_L:
        FROMI("fcvt.s.l");
        break;
    case OP_FCVT_S_LU:
        FROMI("fcvt.s.lu");
        break;
    case OP_FCVT_D_W:
        FROMI_X("fcvt.d.w");
        break;
    case OP_FCVT_D_WU:
        FROMI_X("fcvt.d.wu");
        break;
    case OP_FCVT_D_L:
        FROMI("fcvt.d.l");
        break;
    case OP_FCVT_D_LU:
        FROMI("fcvt.d.lu");
        break;
    default:
        break;
    }
    u64 f;
    __asm__ volatile("csrr %0, fflags" : "=r"(f));
    *fl = (unsigned)f;
    return r;
}

int main(void)
{
    static const char *const rmn[5] = {"rne", "rtz", "rdn", "rup", "rmm"};
    unsigned n = (unsigned)(fpvecs_end - fpvecs), fails = 0;
    for (unsigned i = 0; i < n; i++) {
        const struct fpvec *v = &fpvecs[i];
        unsigned fl;
        u64 got = run(v, &fl);
        if (got != v->want || fl != v->flags) {
            if (fails < 20)
                printf("FAIL %s %s a=%llx b=%llx c=%llx: got %llx/%x want %llx/%x\n", names[v->op],
                       rmn[v->rm], v->a, v->b, v->c, got, fl, v->want, v->flags);
            fails++;
        }
    }
    printf("fp_vectors: %u vectors, %u mismatches\n", n, fails);
    return fails ? 1 : 0;
}
