/* num_fmtinfo.h — format parameters shared by the numeric engine's modules (internal). */
#ifndef XPHMG_NUM_FMTINFO_H
#define XPHMG_NUM_FMTINFO_H

#include <stdbool.h>
#include <stdint.h>

#include "xphmg/num.h"

typedef struct {
    const char *name;
    uint8_t bits; /* storage width */
    bool fp;
    bool sgn; /* integer formats: signed */
    /* FP formats */
    uint8_t mbits; /* fraction bits (p = mbits + 1) */
    uint8_t ebits;
    int16_t bias;
    bool has_inf; /* false: E4M3 (all-ones exponent holds normals, NaN = S.1111.111) */
    /* integer formats */
    int64_t imin, imax;
} num_fmtinfo;

/* NULL for an invalid format. */
const num_fmtinfo *num_fmtinfo_get(num_fmt f);

/* Derived FP parameters. */
static inline int num_fi_p(const num_fmtinfo *fi)
{
    return fi->mbits + 1;
}
static inline int num_fi_emin(const num_fmtinfo *fi)
{
    return 1 - fi->bias;
}
static inline int num_fi_emax(const num_fmtinfo *fi)
{
    return ((1 << fi->ebits) - (fi->has_inf ? 2 : 1)) - fi->bias;
}
/* Largest significand (with the implicit bit) at emax: E4M3's 1.111 is its NaN. */
static inline uint64_t num_fi_maxsig(const num_fmtinfo *fi)
{
    return (UINT64_C(1) << num_fi_p(fi)) - (fi->has_inf ? 1 : 2);
}

#endif
