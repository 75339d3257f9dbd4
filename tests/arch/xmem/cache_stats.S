/* The L1 statistics as `xphmg-sim --stats` prints them (errata P-221), checked by the
 * CTest regular expression of arch.xmem.cache_stats against the values this program
 * also reads from the statistics CSRs: a miss, a hit, a miss with the STREAM hint while
 * STREAM_CTL = 0 (no stream): hits 1, misses 2, fills 2, hint_stream 1, the rest 0. */
#include "lds_test.h"

#define xmem_ldg(rd, rs1, hint) .insn i 0x2b, 5, rd, rs1, hint

RVTEST_CODE_BEGIN
    la s0, buf
    xmem_ldg(a0, s0, 0)
    xmem_ldg(a0, s0, 0)
    addi s1, s0, 64
    xmem_ldg(a0, s1, 0x20)
    TEST_CASE(2, t1, 1, csrr t1, 0xCC0)
    TEST_CASE(3, t1, 2, csrr t1, 0xCC1)
    TEST_CASE(4, t1, 2, csrr t1, 0xCC2)
    TEST_CASE(5, t1, 1, csrr t1, 0xCD1)
    TEST_PASSFAIL
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 6
buf:
    .skip 128
RVTEST_DATA_END
