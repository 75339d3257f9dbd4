/* precision — programs CAP.PREC by the sequences of CAP section 6 and runs a buffer of
 * FP32 values through the numeric engine with `xcvt` in three modes:
 *   1. FP16 compute with FP32 accumulation (6.1),
 *   2. FP8 E4M3 through ALT with FP16 accumulation, mixed, ALT saturation (6.2),
 *   3. a quantized INT8 mode (Q=1, per-tensor zero point -3, scale 2^4, SAT=1),
 * printing the effective state (6.3) and the stickies each mode raised. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "xphmg_cap.h"

static const float input[] = {1.0f, -2.5f, 0.1f, 1000.0f, 1e-8f, 0.0f /* NaN below */};
#define N (sizeof input / sizeof input[0])

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static const char *type_name(unsigned code)
{
    static const char *const n[16] = {"fp16",  "fp32", "bf16", "int8", "int16", "int32",
                                      "?6",    "?7",   "e4m3", "e5m2", "int4",  "int2",
                                      "bf16l", "?13",  "?14",  "?15"};
    return n[code & 15];
}

static void show_stat(void)
{
    static const char *const accw[4] = {"fp32", "fp16", "int32", "int16"};
    static const char *const rm[8] = {"rne", "rtz", "rdn", "rup", "?", "?", "?", "?"};
    uint64_t s = xphmg_prec_stat();
    printf("  STAT 0x%09llx: pet=%s ew=%u accw=%s alt=%u sat=%u rm=%s q=%u pack=%u mixed=%u"
           " zp=%d unsup=%u\n",
           (unsigned long long)s, type_name(XPHMG_FIELD_GET(CAP_PREC_STAT_EFF_PET, s)),
           8u << XPHMG_FIELD_GET(CAP_PREC_STAT_EFF_EW, s),
           accw[XPHMG_FIELD_GET(CAP_PREC_STAT_EFF_ACCW, s)],
           XPHMG_FIELD_GET(CAP_PREC_STAT_EFF_ALT_EN, s), XPHMG_FIELD_GET(CAP_PREC_STAT_EFF_SAT, s),
           rm[XPHMG_FIELD_GET(CAP_PREC_STAT_EFF_FP_RMODE, s)],
           XPHMG_FIELD_GET(CAP_PREC_STAT_EFF_Q, s), XPHMG_FIELD_GET(CAP_PREC_STAT_EFF_PACK, s),
           XPHMG_FIELD_GET(CAP_PREC_STAT_EFF_MIXED, s),
           (int)(int8_t)XPHMG_FIELD_GET(CAP_PREC_STAT_EFF_ZP, s),
           XPHMG_FIELD_GET(CAP_PREC_STAT_UNSUP_FMT, s));
}

static void show_stickies(void)
{
    uint64_t s = xphmg_prec_stat();
    uint32_t st = xphmg_prec_take_stickies();
    printf("  stickies: EXC.ST=0x%02x [%s%s%s%s%s%s%s] STAT:%s%s%s\n", (unsigned)st,
           st & XPHMG_EXC_NV ? " NV" : "", st & XPHMG_EXC_DZ ? " DZ" : "",
           st & XPHMG_EXC_OF ? " OF" : "", st & XPHMG_EXC_UF ? " UF" : "",
           st & XPHMG_EXC_NX ? " NX" : "", st & XPHMG_EXC_QNAN_SEEN ? " QNAN_SEEN" : "",
           st & XPHMG_EXC_SNAN_SEEN ? " SNAN_SEEN" : "",
           XPHMG_FIELD_GET(CAP_PREC_STAT_SAT_HIT, s) ? " SAT_HIT" : "",
           XPHMG_FIELD_GET(CAP_PREC_STAT_FTZ_HIT, s) ? " FTZ_HIT" : "",
           XPHMG_FIELD_GET(CAP_PREC_STAT_DOWNCAST_TAKEN, s) ? " DOWNCAST_TAKEN" : "");
}

/* Every input through xcvt FP32 -> the effective PET. */
static void convert(uint64_t out[N])
{
    for (unsigned i = 0; i < N; i++) {
        uint32_t x = i == N - 1 ? 0x7fc00000u /* quiet NaN */ : bits_of(input[i]);
        out[i] = XPHMG_XCVT(x, XPHMG_T_FP32, XPHMG_T_EFF);
    }
}

static void print_row(const char *what, const uint64_t v[N], int is_int)
{
    printf("  %-6s", what);
    for (unsigned i = 0; i < N; i++) {
        if (is_int)
            printf(" %6lld", (long long)v[i]);
        else
            printf(" 0x%04llx", (unsigned long long)v[i]);
    }
    printf("\n");
}

int main(void)
{
    uint64_t out[N], back[N];
    printf("CAP.ID 0x%08llx VERS 0x%08llx PREC.CAP 0x%08llx\n",
           (unsigned long long)xphmg_csr_read(XPHMG_CSR_CAP_ID),
           (unsigned long long)xphmg_csr_read(XPHMG_CSR_CAP_VERS),
           (unsigned long long)xphmg_csr_read(XPHMG_CSR_CAP_PREC_CAP));
    printf("input: 1.0 -2.5 0.1 1000.0 1e-8 NaN\n");
    xphmg_prec_take_stickies();

    /* 1. 6.1: FP16 compute, FP32 accumulation, RNE, merge masking. Staged, then applied. */
    printf("mode 1: FP16 compute, FP32 accumulation (6.1)\n");
    xphmg_prec_stage_mode(
        xphmg_prec_mode(XPHMG_T_FP16, XPHMG_EW_16, XPHMG_ACCW_FP32, XPHMG_RM_RNE));
    xphmg_prec_apply_staged_mode();
    show_stat();
    convert(out);
    print_row("fp16", out, 0);
    show_stickies();

    /* 2. 6.2: FP8 E4M3 through ALT, FP16 accumulation, mixed, ALT saturation. */
    printf("mode 2: FP8 E4M3 via ALT, FP16 accumulation, ALT_SAT (6.2)\n");
    xphmg_prec_apply_alt(xphmg_prec_alt(XPHMG_ALT_FP8_E4M3, XPHMG_ACCW_FP16, 1, 1));
    show_stat();
    convert(out);
    print_row("e4m3", out, 0);
    show_stickies();

    /* 3. Quantized INT8: q = sat(round(x * 2^4) + (-3)), INT32 accumulation. */
    printf("mode 3: quantized INT8, zero point -3, scale 2^-4, SAT\n");
    xphmg_prec_disable_alt();
    xphmg_prec_apply_mode(
        xphmg_prec_mode(XPHMG_T_INT8, XPHMG_EW_8, XPHMG_ACCW_INT32, XPHMG_RM_RNE) |
        CAP_PREC_MODE_SAT_MASK | CAP_PREC_MODE_Q_MASK |
        XPHMG_FIELD(CAP_PREC_MODE_ZP_EN, XPHMG_ZP_TENSOR) |
        XPHMG_FIELD(CAP_PREC_MODE_ZP, (uint8_t)-3) |
        XPHMG_FIELD(CAP_PREC_MODE_SCALE_SH, (uint8_t)-4));
    show_stat();
    convert(out);
    print_row("int8", out, 1);
    for (unsigned i = 0; i < N; i++)
        back[i] = XPHMG_XCVT(out[i], XPHMG_T_EFF, XPHMG_T_FP16);
    print_row("->fp16", back, 0);
    show_stickies();
    return 0;
}
