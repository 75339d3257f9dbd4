/* XPHMG_CAP CSR map and the generic CSR rules on the simulator, default profile:
 * discovery reset values (errata Q-02, Q-34, Q-35, Q-37, XMEM Q-38/Q-39), RO CSRs
 * ignore writes without trapping, unassigned addresses in 0x7C0-0x7F7 read zero and
 * ignore writes, so does the unimplemented block 0x7F8-0x7FF (RSV, absent), reserved bits
 * read zero.
 * Expected values are hand-computed from the CAP tables and docs/errata.md.
 * REQ: CAP-033 CAP-034 CAP-036 CAP-038 CAP-039 CAP-041 CAP-046 CAP-047 CAP-048 CAP-049
 * REQ: CAP-050 CAP-051 CAP-055 CAP-056 CAP-073 CAP-076 CAP-077 CAP-082 CAP-129 CAP-135
 * REQ: CAP-136 CAP-138 CAP-145 CAP-163 CAP-164 CAP-010 CAP-009 CAP-040 CAP-103
 * REQ: CAP-054 CAP-067 */
#include "cap_test.h"
RVTEST_CODE_BEGIN
    CAP_TRAP_SETUP
    /* identification */
    TEST_CASE(2, a0, 0x50484D47, csrr a0, 0x7C0)
    TEST_CASE(3, a0, 0x00010100, csrr a0, 0x7C1)
    TEST_CASE(4, a0, 0, csrr a0, 0x7C2)
    TEST_CASE(5, a0, 0, csrr a0, 0x7C3; csrr a1, 0x7C4; or a0, a0, a1)
    /* features, PMASK discovery, tiers, hints */
    TEST_CASE(6, a0, 0x118, csrr a0, 0x7C5)
    TEST_CASE(7, a0, 0x7, csrr a0, 0x7C6)
    TEST_CASE(8, a0, 0x17, csrr a0, 0x7C7)
    TEST_CASE(9, a0, 0x0010007C, csrr a0, 0x7CA)
    TEST_CASE(10, a0, 0x4, csrr a0, 0x7CD)
    TEST_CASE(11, a0, 0x2, csrr a0, 0x7CF)
    /* format descriptors; BF16_LITE is supported since errata P-179: ALU bit 12
     * (0xF3F | 0x1000 = 0x1F3F), ALT_SUP codes 1-5 (0x3E << 16 | 0x7F3F = 0x003E7F3F),
     * FP8 E4M3 | E5M2 | BF16_LITE (bits 0-2 = 0x7) */
    TEST_CASE(12, a0, 0x1F3F, csrr a0, 0x7D8)
    TEST_CASE(13, a0, 0x3F, csrr a0, 0x7DB)
    TEST_CASE(14, a0, 0x003E7F3F, csrr a0, 0x7DC)
    TEST_CASE(15, a0, 0x7, csrr a0, 0x7DD)
    TEST_CASE(16, a0, 0x7, csrr a0, 0x7DE)
    TEST_CASE(17, a0, 0, csrr a0, 0x7D9; csrr a1, 0x7DA; or a0, a0, a1; csrr a1, 0x7DF; or a0, a0, a1)
    /* XMEM discovery and policy resets */
    TEST_CASE(18, a0, 0x677, csrr a0, 0x7E0)
    TEST_CASE(19, a0, 0x30860040, csrr a0, 0x7E1)
    TEST_CASE(20, a0, 0xFF, csrr a0, 0x7E3)
    TEST_CASE(21, a0, 0x4, csrr a0, 0x7ED)
    TEST_CASE(22, a0, 0, csrr a0, 0x7E2; csrr a1, 0x7E6; or a0, a0, a1; csrr a1, 0x7F0; or a0, a0, a1)
    /* RO CSRs ignore writes and do not trap: ID, FLAGS, PROF.CUR/SUP, FEAT0, a
     * descriptor, XMEM.CAP, STAT, RSV0 */
    TEST_CASE(23, s10, -1, li t0, -1; csrw 0x7C0, t0; csrw 0x7C2, t0; csrw 0x7C3, t0; csrw 0x7C4, t0; csrw 0x7C5, t0; csrw 0x7DC, t0; csrw 0x7E0, t0; csrw 0x7D2, t0; csrw 0x7D5, t0)
    TEST_CASE(24, a0, 0x50484D47, csrr a0, 0x7C0)
    TEST_CASE(25, a0, 0, csrr a0, 0x7C2; csrr a1, 0x7C3; or a0, a0, a1; csrr a1, 0x7C4; or a0, a0, a1; csrr a1, 0x7D5; or a0, a0, a1)
    TEST_CASE(26, a0, 0x118, csrr a0, 0x7C5)
    TEST_CASE(27, a0, 0x04000000, csrr a0, 0x7D2)
    TEST_CASE(28, a0, 0x677, csrs 0x7E0, t0; csrc 0x7E0, t0; csrr a0, 0x7E0)
    /* unassigned addresses: read zero, ignore writes, no trap */
    TEST_CASE(29, a0, 0, li t0, -1; csrw 0x7D6, t0; csrw 0x7D7, t0; csrw 0x7EF, t0; csrw 0x7F5, t0; csrw 0x7F7, t0; csrr a0, 0x7D6; csrr a1, 0x7D7; or a0, a0, a1; csrr a1, 0x7EF; or a0, a0, a1; csrr a1, 0x7F5; or a0, a0, a1; csrr a1, 0x7F7; or a0, a0, a1)
    TEST_CASE(30, s10, -1, nop)
    /* 0x7F8-0x7FF: the absent XPHMG_RSV is an unimplemented block, so it reads zero and
     * ignores writes over its whole range, without trapping (CAP 3, errata Q-12) */
    TEST_CASE(31, a0, 0, li t0, -1; csrw 0x7F8, t0; csrs 0x7FF, t0; csrr a0, 0x7F8; csrr a1, 0x7FF; or a0, a0, a1)
    TEST_CASE(32, a0, 0, li t0, -1; csrw 0x7FC, t0; csrr a0, 0x7FC)
    /* reserved bits read zero: EXC.EN holds 4:0, DOM 3:0, MODE bit 63 */
    TEST_CASE(33, a0, 0x1F, li t0, -1; csrw 0x7D3, t0; csrr a0, 0x7D3; csrw 0x7D3, x0)
    TEST_CASE(34, a0, 0xF, li t0, -1; csrw 0x7E6, t0; csrr a0, 0x7E6)
    TEST_CASE(35, a0, 0, li t0, 0x8000000000000000; csrw 0x7D0, t0; csrr a0, 0x7D0; and a0, a0, t0)
    TEST_CASE(36, a0, 0x7FFFFFFF, li t0, 0x7FFFFFFF; csrw 0x7D1, t0; csrr a0, 0x7D1; csrw 0x7D1, x0)
    /* XMEM WARL and feature gating: ACTIVE_CLASS 7 -> 3; COMP_CTL gated (no COMPRESS) */
    TEST_CASE(37, a0, 0x03000000, li t0, 0x07000000; csrw 0x7E2, t0; csrr a0, 0x7E2)
    TEST_CASE(38, a0, 0, li t0, 0x1234; csrw 0x7EC, t0; csrr a0, 0x7EC)
    /* SVMBASE is a full XLEN register */
    TEST_CASE(39, a0, 0x8000000000001234, li t0, 0x8000000000001234; csrw 0x7F0, t0; csrr a0, 0x7F0)
    /* the profile-select CSR 0xBC0 (errata P-177) without profiles (HAS_PROFILES=0,
     * PROF.SUP=0): reads 0, every write is ignored without a trap, PROF.CUR stays 0 and
     * the advisory CSRs keep their reset values (TIER.WAVE 0, HINT.ALIGN 0x4, FEAT0 0x118) */
    TEST_CASE(40, a0, 0, csrr a0, 0xBC0)
    TEST_CASE(41, a0, 0, li s10, -1; li t0, 1; csrw 0xBC0, t0; csrr a0, 0xBC0)
    TEST_CASE(42, a0, 0, li t0, -1; csrw 0xBC0, t0; csrsi 0xBC0, 2; csrwi 0xBC0, 31; csrr a0, 0xBC0; csrr a1, 0x7C3; or a0, a0, a1; csrr a1, 0x7C4; or a0, a0, a1)
    TEST_CASE(43, a0, 0x4, csrr a0, 0x7CD; csrr a1, 0x7C9; or a0, a0, a1)
    TEST_CASE(44, a0, 0x118, csrr a0, 0x7C5)
    TEST_CASE(45, s10, -1, nop)
    TEST_PASSFAIL
    CAP_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
RVTEST_DATA_END
