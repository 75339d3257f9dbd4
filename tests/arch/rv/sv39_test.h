/* sv39_test.h — what the S-mode translation tests (priv_sv39.S, jit_sv39.S) share: PTE
 * flags and encoding, writing a PTE into the tables at PT (each test defines PT), a case
 * that must trap to M, and the way into S mode. Each test has its own M-mode `handler`,
 * which resumes S at the address in sscratch. */
#ifndef SV39_TEST_H
#define SV39_TEST_H

/* Assembler macros: clang-format would reflow them. */
/* clang-format off */

#define V           0x01
#define R           0x02
#define W           0x04
#define X           0x08
#define U           0x10
#define A           0x40
#define D           0x80
#define PTE(pa, fl) ((((pa) >> 12) << 10) | (fl))

#define SET_PTE(off, val) li t0, val; li t1, PT + (off); sd t0, 0(t1)

/* Runs `code` in S mode; it must trap to M with mcause = cause (the handler puts it in
 * s2 and resumes at 1f). */
#define IN_S_TRAP(n, cause, code...) \
    TEST_CASE(n, s2, cause, la t0, 1f; csrw sscratch, t0; li s2, -1; code; 1:)

/* Traps to `handler`, PMP entry 0 gives S everything (RWX), and the `npages` table pages
 * from PT are zero. */
#define SV_SETUP(npages) \
    la t0, handler; csrw mtvec, t0; \
    li t0, -1; csrw pmpaddr0, t0; li t0, 0x1f; csrw pmpcfg0, t0; \
    li t0, PT; li t1, PT + (npages) * 4096; \
    2: sd zero, 0(t0); addi t0, t0, 8; bltu t0, t1, 2b

/* Sv39 with the root at PT, then mret into S mode at s_body. */
#define SV_ENTER_S \
    li t0, (8 << 60) | (PT >> 12); csrw satp, t0; \
    li t0, 0x1800; csrc mstatus, t0; li t0, 0x0800; csrs mstatus, t0; \
    la t0, s_body; csrw mepc, t0; mret

/* clang-format on */
#endif
