/* `xmem.ldg/stg/pref/cctl/stream` under profiles/minimal.yaml (errata Q-54, Q-38; docs/
 * xmem.md "Caches and streaming"): CAP.XMEM.CAP has L1 but no WAY_PART, LINE_LOCK,
 * CLASS_PART or STREAM_PROF; L1_WAYS 4. The loads/stores and inv/flush/pref work as in
 * the default profile; without LINE_LOCK `cctl lock/unlock` do nothing (no trap, no
 * event: gated RAZ/WI) even after a write of L1CFG.LOCK_EN (which is RAZ/WI too);
 * `cctl partition` is illegal (CLASS_PART = 0); `xmem.stream` 0-4 is a csrw that the
 * gating ignores (SPROF/STREAM_CTL read 0, no trap), selectors above 4 stay illegal;
 * CLSMAP's way masks (no WAY_PART) read 0 after a write of all ones. These are XMEM 3's absent
 * features: their controls are RAZ/WI and requests for them are ignored safely.
 * REQ: XMEM-090 XMEM-101 XMEM-001 */
#include "lds_test.h"

/* clang-format off */
#define xmem_ldg(rd, rs1, hint)     .insn i 0x2b, 5, rd, rs1, hint
#define xmem_stg(rs2, rs1, hint)    .insn s 0x2b, 6, rs2, hint(rs1)
#define xmem_pref(rs1, rs2, hint)   .insn r 0x2b, 7, hint, x0, rs1, rs2
#define xmem_cctl(sel, rs1, rs2)    .insn r 0x5b, 0, sel, x0, rs1, rs2
#define xmem_stream(rs1, rs2)       .insn r 0x2b, 1, 1, x0, rs1, rs2
/* clang-format on */
#define INV 0
#define FLUSH 1
#define LOCK 2
#define UNLOCK 3
#define PARTITION 4
#define XMEM_CLSMAP 0x7E3
#define XMEM_STREAM_CTL 0x7E7
#define XMEM_SPROF0 0x7E8
#define LOCK_EN (1 << 20)

RVTEST_CODE_BEGIN
    LDS_TRAP_SETUP
    CLEAR_EVENTS
    la s1, buf
    li t0, 0x0102030405060708
    TEST_CASE(2, a0, 0x0102030405060708, xmem_stg(t0, s1, 0x8); xmem_ldg(a0, s1, 0x4))
    li t0, -1
    TEST_CASE(3, a0, 0x0102030405060708, xmem_pref(s1, t0, 0x7f); xmem_cctl(INV, s1, t0); xmem_cctl(FLUSH, s1, t0); ld a0, 0(s1))
    /* LOCK_EN is gated: reads 0 */
    li t0, LOCK_EN
    TEST_CASE(4, t1, 0, csrs XMEM_L1CFG, t0; csrr t1, XMEM_L1CFG)
    /* lock/unlock: no trap, no event, over any range */
    li t0, -1
    TEST_CASE(5, s10, -1, xmem_cctl(LOCK, x0, t0); xmem_cctl(LOCK, s1, t0); xmem_cctl(UNLOCK, x0, t0))
    TEST_CASE(6, t1, 0, csrr t1, XMEM_EVENTS)
    /* partition: illegal without CLASS_PART, for every class */
    li t0, 0xF
    LDS_EXPECT_TRAP(7, 2, xmem_cctl(PARTITION, x0, t0))
    li t3, 1
    LDS_EXPECT_TRAP(8, 2, xmem_cctl(PARTITION, t3, t0))
    TEST_CASE(9, t1, 0, csrr t1, XMEM_CLSMAP)
    /* stream: gated write ignored, no trap; unknown selector still illegal */
    li t0, 0x123
    li t3, 4
    TEST_CASE(10, s10, -1, li s10, -1; xmem_stream(x0, t0); xmem_stream(t3, t0))
    TEST_CASE(11, t1, 0, csrr t1, XMEM_SPROF0)
    TEST_CASE(12, t1, 0, csrr t1, XMEM_STREAM_CTL)
    li t3, 5
    LDS_EXPECT_TRAP(13, 2, xmem_stream(t3, t0))
    TEST_CASE(14, t1, 0, csrr t1, XMEM_EVENTS)
    li t0, 0xFFFFFFFF
    TEST_CASE(15, t1, 0, csrw XMEM_CLSMAP, t0; csrr t1, XMEM_CLSMAP)
    TEST_PASSFAIL
    LDS_TRAP_HANDLER
RVTEST_CODE_END
RVTEST_DATA_BEGIN
    .align 3
buf:
    .dword 0
RVTEST_DATA_END
