/* crt0.S — entry of picolibc guest programs on xphmg-sim (machine mode, one hart).
 *
 * Start-up contract (docs/target.md):
 *   sp == 0 at entry: no arguments; the stack starts at __stack (link.ld). This is what
 *     qemu's and Spike's reset code leave.
 *   sp != 0 at entry: the simulator placed the arguments at the top of RAM in the
 *     System V layout: sp -> argc (8 bytes), argv[0..argc-1], NULL, envp NULL, strings.
 *     The stack grows down from there.
 * Then: gp, tp (TLS), mtvec, FPU on (mstatus.FS), bss/tbss cleared, the heap limit,
 * constructors, exit(main(argc, argv, envp)). */

#define MSTATUS_FS_INITIAL 0x2000

    /* CSR instructions are Zicsr, which -march=rv64imac does not imply. */
    .option arch, +zicsr

    .section .text.init, "ax", @progbits
    .globl _start
    .type _start, @function
_start:
    .option push
    .option norelax
    la gp, __global_pointer$
    .option pop

    la t0, __xphmg_trap
    csrw mtvec, t0
#ifdef __riscv_flen
    li t0, MSTATUS_FS_INITIAL
    csrs mstatus, t0
    csrwi fcsr, 0
#endif

    /* s0 = argument block or 0 */
    mv s0, sp
    bnez sp, 1f
    la sp, __stack
1:  andi sp, sp, -16
    la tp, __tls_base

    /* Clear .tbss and .bss (contiguous, both 8-byte aligned by link.ld). */
    la t0, __tbss_start
    la t1, __bss_end
    j 3f
2:  sd zero, 0(t0)
    addi t0, t0, 8
3:  bltu t0, t1, 2b

    /* Heap limit for sbrk (syscalls.c): __stack_size below the stack the simulator
     * handed over, so the heap grows with --ram; link.ld's __heap_end without one. */
    la t2, __xphmg_heap_limit
    beqz s0, 4f
    lui t0, %hi(__stack_size)
    addi t0, t0, %lo(__stack_size)
    sub t1, sp, t0
    sd t1, 0(t2)
    ld s1, 0(s0)            /* argc */
    addi s2, s0, 8          /* argv */
    j 5f
4:  la t1, __heap_end
    sd t1, 0(t2)
    li s1, 0
    la s2, __xphmg_empty_argv
5:
    call __libc_init_array
    mv a0, s1
    mv a1, s2
    slli a2, s1, 3
    add a2, a2, s2
    addi a2, a2, 8          /* envp = argv + argc + 1 */
    call main
    call exit
6:  j 6b
    .size _start, . - _start

/* Unexpected trap: nothing can be trusted any more, so report through tohost directly:
 * exit status 128 + (mcause & 63) (e.g. 130 for an illegal instruction). Programs that
 * expect traps install their own mtvec. */
    .text
    .align 2
    .weak __xphmg_trap
    .type __xphmg_trap, @function
__xphmg_trap:
    csrr t0, mcause
    andi t0, t0, 63
    addi t0, t0, 128
    slli t0, t0, 1
    ori t0, t0, 1
    la t1, tohost
1:  sd t0, 0(t1)
    j 1b
    .size __xphmg_trap, . - __xphmg_trap

    .bss
    .align 3
    .globl __xphmg_heap_limit
__xphmg_heap_limit:
    .dword 0
__xphmg_empty_argv:
    .dword 0, 0             /* argv[0] = NULL, envp[0] = NULL */

/* HTIF mailboxes (Spike/qemu find them by symbol name). */
    .section .tohost, "aw", @progbits
    .align 6
    .globl tohost
    .type tohost, @object
tohost:
    .dword 0
    .size tohost, 8
    .align 6
    .globl fromhost
    .type fromhost, @object
fromhost:
    .dword 0
    .size fromhost, 8
