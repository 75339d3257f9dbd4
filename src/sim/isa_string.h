/* isa_string.h — ISA strings in Spike's --isa syntax -> the misa a hart has. */
#ifndef XPHMG_SIM_ISA_STRING_H
#define XPHMG_SIM_ISA_STRING_H

#include <stddef.h>
#include <stdint.h>

/* Parses "rv64" + single-letter extensions (i, m, a, f, d, c, g = imafd, s; u is always
 * present, I must be) + "_"-separated multi-letter ones (zicsr, zifencei, zicntr,
 * zihpm, zicclsm, zihintpause: always present here, accepted; xphmg: the XPHMG units and
 * misa.X), case-insensitive. 0 with *misa set (MXL = 64), or -1 with a message in err. */
int isa_string_parse(const char *s, uint64_t *misa, char *err, size_t errlen);

#endif
