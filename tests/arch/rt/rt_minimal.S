/* RT under profiles/minimal.yaml (rtcap: 0, a 2-bank PMASK): RTCAP reads 0, the RT CSRs
 * still read and write, rt.bbox and rt.tri raise illegal instruction with RTSTAT.LAST_EC
 * = 2 (unsupported feature, errata Q-66); a PB_IN bank the profile lacks (bank 2) is an
 * illegal encoding (LAST_EC = 1, Q-36) even there. Nothing is read or written.
 * REQ: RT-016 RT-024 RT-026 RT-027 RT-028 */
#include "rt_test.h"
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    TEST_CASE(2, a0, 0, csrr a0, RTCAP)
    TEST_CASE(3, a0, 0, csrr a0, RTSTAT)
    TEST_CASE(4, a0, 0x1234, li t0, 0x1234; csrw RTBASE, t0; csrr a0, RTBASE)
    li a0, UNMAPPED
    li a1, 0x55
    CAP_EXPECT_TRAP(5, 2, rt_bbox(a1, a0, 0))
    TEST_CASE(6, a2, 0xA, csrr a2, RTSTAT) /* LAST_EC 2 << 2 | ERR */
    CAP_EXPECT_TRAP(7, 2, rt_tri(a1, a0, 0))
    TEST_CASE(8, a2, 0xA, csrr a2, RTSTAT)
    CAP_EXPECT_TRAP(9, 2, rt_tri(a1, a0, PB_IN(2)))
    TEST_CASE(10, a2, 0x6, csrr a2, RTSTAT)
    TEST_CASE(11, a1, 0x55, nop)
    TEST_CASE(12, a2, 0, csrr a2, XMEM_EVENTS)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
