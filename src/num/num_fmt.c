/* num_fmt.c — format descriptions, names, the narrowing relation (DOWNCAST_TAKEN),
 * policy defaults, trap gating and packed sub-byte access for the numeric engine. */
#include <math.h>
#include <strings.h>

#include "num_fmtinfo.h"

static const num_fmtinfo fmt_table[NUM_FMT_COUNT] = {
    [NUM_FP32] = {"fp32", 32, true, true, 23, 8, 127, true, 0, 0},
    [NUM_FP16] = {"fp16", 16, true, true, 10, 5, 15, true, 0, 0},
    [NUM_BF16] = {"bf16", 16, true, true, 7, 8, 127, true, 0, 0},
    [NUM_E4M3] = {"e4m3", 8, true, true, 3, 4, 7, false, 0, 0},
    [NUM_E5M2] = {"e5m2", 8, true, true, 2, 5, 15, true, 0, 0},
    [NUM_I32] = {"i32", 32, false, true, 0, 0, 0, false, INT32_MIN, INT32_MAX},
    [NUM_U32] = {"u32", 32, false, false, 0, 0, 0, false, 0, UINT32_MAX},
    [NUM_I16] = {"i16", 16, false, true, 0, 0, 0, false, INT16_MIN, INT16_MAX},
    [NUM_U16] = {"u16", 16, false, false, 0, 0, 0, false, 0, UINT16_MAX},
    [NUM_I8] = {"i8", 8, false, true, 0, 0, 0, false, INT8_MIN, INT8_MAX},
    [NUM_U8] = {"u8", 8, false, false, 0, 0, 0, false, 0, UINT8_MAX},
    [NUM_I4] = {"i4", 4, false, true, 0, 0, 0, false, -8, 7},
    [NUM_U4] = {"u4", 4, false, false, 0, 0, 0, false, 0, 15},
    [NUM_I2] = {"i2", 2, false, true, 0, 0, 0, false, -2, 1},
    [NUM_U2] = {"u2", 2, false, false, 0, 0, 0, false, 0, 3},
};

/* REQ: CAP-089 CAP-104 CAP-105 */
const num_fmtinfo *num_fmtinfo_get(num_fmt f)
{
    /* The enum may hold any int when it comes from a CSR field or a test. */
    if ((int)f < 0 || (int)f >= NUM_FMT_COUNT) return NULL;
    return &fmt_table[f];
}

/* REQ: CAP-089 */
bool num_fmt_valid(num_fmt f)
{
    return num_fmtinfo_get(f) != NULL;
}

/* REQ: CAP-089 CAP-104 CAP-105 */
unsigned num_fmt_bits(num_fmt f)
{
    const num_fmtinfo *fi = num_fmtinfo_get(f);
    return fi ? fi->bits : 0;
}

/* REQ: CAP-089 */
bool num_fmt_is_float(num_fmt f)
{
    const num_fmtinfo *fi = num_fmtinfo_get(f);
    return fi && fi->fp;
}

/* REQ: CAP-094 */
bool num_fmt_is_signed(num_fmt f)
{
    const num_fmtinfo *fi = num_fmtinfo_get(f);
    return fi && (fi->fp || fi->sgn);
}

const char *num_fmt_name(num_fmt f)
{
    const num_fmtinfo *fi = num_fmtinfo_get(f);
    return fi ? fi->name : "?";
}

/* Other spellings met in the specs and the XML data formats. */
static const struct {
    const char *alias;
    num_fmt fmt;
} fmt_aliases[] = {
    {"fp8_e4m3", NUM_E4M3}, {"fp8_e5m2", NUM_E5M2}, {"int32", NUM_I32}, {"uint32", NUM_U32},
    {"int16", NUM_I16},     {"uint16", NUM_U16},    {"int8", NUM_I8},   {"uint8", NUM_U8},
    {"int4", NUM_I4},       {"uint4", NUM_U4},      {"int2", NUM_I2},   {"uint2", NUM_U2},
};

int num_fmt_from_name(const char *name)
{
    if (!name) return -1;
    for (int i = 0; i < NUM_FMT_COUNT; i++)
        if (strcasecmp(name, fmt_table[i].name) == 0) return i;
    for (size_t i = 0; i < sizeof fmt_aliases / sizeof fmt_aliases[0]; i++)
        if (strcasecmp(name, fmt_aliases[i].alias) == 0) return (int)fmt_aliases[i].fmt;
    return -1;
}

/* REQ: CAP-094 CAP-106 CAP-107 */
int num_fmt_int(unsigned bits, bool is_unsigned)
{
    for (int i = 0; i < NUM_FMT_COUNT; i++)
        if (!fmt_table[i].fp && fmt_table[i].bits == bits && fmt_table[i].sgn == !is_unsigned)
            return i;
    return -1;
}

/* Largest finite value of an FP format (exact in a double). */
/* REQ: CAP-121 */
static double fp_max(const num_fmtinfo *fi)
{
    return ldexp((double)num_fi_maxsig(fi), num_fi_emax(fi) - (num_fi_p(fi) - 1));
}

/* REQ: CAP-121 */
bool num_fmt_narrows(num_fmt dst, num_fmt src)
{
    const num_fmtinfo *d = num_fmtinfo_get(dst), *s = num_fmtinfo_get(src);
    if (!d || !s) return false;
    if (!d->fp) {
        /* An integer format never holds fractions; integers nest by range. */
        return s->fp || d->imin > s->imin || d->imax < s->imax;
    }
    if (s->fp) {
        int dsub = num_fi_emin(d) - (num_fi_p(d) - 1), ssub = num_fi_emin(s) - (num_fi_p(s) - 1);
        return num_fi_p(d) < num_fi_p(s) || fp_max(d) < fp_max(s) || dsub > ssub ||
               (s->has_inf && !d->has_inf);
    }
    /* FP destination, integer source: every integer in range must be exact. */
    unsigned need = s->sgn ? s->bits - 1u : s->bits; /* significant bits of imax */
    double lim = s->sgn ? ldexp(1.0, s->bits - 1) : (double)s->imax;
    return (unsigned)num_fi_p(d) < need || fp_max(d) < lim;
}

/* REQ: CAP-159 */
num_policy num_policy_default(void)
{
    num_policy p = {0};
    p.rm = NUM_RNE;
    p.nan_pol = NUM_NAN_PROPAGATE;
    p.sat_mode = NUM_SAT_CLAMP;
    p.zp_en = NUM_ZP_OFF;
    return p;
}

/* REQ: CAP-094 */
int num_policy_int_fmt(const num_policy *pol, unsigned bits)
{
    return num_fmt_int(bits, pol && pol->uns);
}

/* EXC.EN bits 4:0 are the fflags bits NV..NX (CAP-079); EFF_SAE is SAE_DEF | SAE. */
/* REQ: CAP-079 CAP-086 CAP-124 CAP-128 */
num_flags num_trap_pending(num_flags flags, uint32_t exc_en, bool sae)
{
    if (sae) return 0;
    return flags & exc_en & NUM_FFLAGS_MASK;
}

double num_to_double(num_fmt f, uint32_t bits)
{
    const num_fmtinfo *fi = num_fmtinfo_get(f);
    if (!fi) return 0.0;
    if (fi->bits < 32) bits &= (UINT32_C(1) << fi->bits) - 1;
    if (!fi->fp) return (double)num_int_value(f, bits);
    bool neg = (bits >> (fi->bits - 1)) & 1;
    uint32_t e = (bits >> fi->mbits) & ((1u << fi->ebits) - 1);
    uint32_t m = bits & ((1u << fi->mbits) - 1);
    uint32_t eall = (1u << fi->ebits) - 1;
    double v;
    if (e == eall && (fi->has_inf || m == (1u << fi->mbits) - 1)) {
        if (fi->has_inf && m == 0)
            v = INFINITY;
        else
            return NAN;
    } else if (e == 0) {
        v = ldexp((double)m, num_fi_emin(fi) - fi->mbits);
    } else {
        v = ldexp((double)(m | (1u << fi->mbits)), (int)e - fi->bias - fi->mbits);
    }
    return neg ? -v : v;
}

/* REQ: CAP-094 */
int64_t num_int_value(num_fmt f, uint32_t bits)
{
    const num_fmtinfo *fi = num_fmtinfo_get(f);
    if (!fi) return 0;
    uint64_t v = fi->bits < 32 ? bits & ((UINT32_C(1) << fi->bits) - 1) : bits;
    if (fi->fp || !fi->sgn) return (int64_t)v;
    if (v >> (fi->bits - 1)) return (int64_t)v - ((int64_t)1 << fi->bits);
    return (int64_t)v;
}

bool num_is_nan(num_fmt f, uint32_t bits)
{
    const num_fmtinfo *fi = num_fmtinfo_get(f);
    if (!fi || !fi->fp) return false;
    uint32_t e = (bits >> fi->mbits) & ((1u << fi->ebits) - 1);
    uint32_t m = bits & ((1u << fi->mbits) - 1);
    if (e != (1u << fi->ebits) - 1) return false;
    return fi->has_inf ? m != 0 : m == (1u << fi->mbits) - 1;
}

/* Sub-byte elements share a byte; whole-byte elements are little-endian byte groups. */
bool num_pack_get(const uint8_t *buf, size_t buf_len, num_fmt f, size_t index, uint32_t *bits)
{
    const num_fmtinfo *fi = num_fmtinfo_get(f);
    if (!fi || !buf || !bits) return false;
    unsigned w = fi->bits;
    if (w < 8) {
        size_t per = 8 / w;
        if (index / per >= buf_len) return false;
        *bits = (buf[index / per] >> ((index % per) * w)) & ((1u << w) - 1);
        return true;
    }
    size_t nb = w / 8;
    if (index > (SIZE_MAX / nb) - 1 || index * nb + nb > buf_len) return false;
    uint32_t v = 0;
    for (size_t i = 0; i < nb; i++)
        v |= (uint32_t)buf[index * nb + i] << (8 * i);
    *bits = v;
    return true;
}

bool num_pack_put(uint8_t *buf, size_t buf_len, num_fmt f, size_t index, uint32_t bits)
{
    const num_fmtinfo *fi = num_fmtinfo_get(f);
    if (!fi || !buf) return false;
    unsigned w = fi->bits;
    if (w < 8) {
        size_t per = 8 / w;
        if (index / per >= buf_len) return false;
        unsigned sh = (unsigned)(index % per) * w;
        uint8_t mask = (uint8_t)(((1u << w) - 1) << sh);
        buf[index / per] = (uint8_t)((buf[index / per] & ~mask) | ((bits << sh) & mask));
        return true;
    }
    size_t nb = w / 8;
    if (index > (SIZE_MAX / nb) - 1 || index * nb + nb > buf_len) return false;
    for (size_t i = 0; i < nb; i++)
        buf[index * nb + i] = (uint8_t)(bits >> (8 * i));
    return true;
}
