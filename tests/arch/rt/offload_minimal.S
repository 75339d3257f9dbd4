/* xsubmit.rt without RTCAP.DESCQ (profiles/minimal.yaml: rtcap 0): an unsupported feature
 * (RT 9, errata Q-66/Q-80): illegal instruction (cause 2, mtval = the instruction bits
 * 0x0005000B + (rd 5 << 7) = xsubmit.rt t0, a0 = 0x0005028B), RTSTAT.LAST_EC = 2 with ERR
 * (0x2 << 2 | 0x2 = 0xA), rd unchanged, no ticket used: the tokens of xfence.signal
 * (XMEM 7, Q-53) still start at 1.
 * REQ: RT-115 RT-027 */
#include "offload_test.h"
RVTEST_CODE_BEGIN
    OFF_TRAP_SETUP
    la a0, desc
    li t0, 0x55
    OFF_EXPECT_TRAP(2, 2, xsubmit_rt(t0, a0))
    TEST_CASE(3, s11, 0x0005028B, nop)
    TEST_CASE(4, t0, 0x55, nop)
    TEST_CASE(5, a1, 0xA, csrr a1, RTSTAT)
    TEST_CASE(6, a1, 1, xfence_signal(a1))
    TEST_CASE(7, s10, -1, li s10, -1; xfence_wait(a1); xfence_wait(x0))
    TEST_PASSFAIL
    OFF_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
desc:
    .space 72
RVTEST_DATA_END
