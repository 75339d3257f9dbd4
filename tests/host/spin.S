/* spin — a bare program without a tohost symbol that never ends: the simulator's
 * --max-insns, --timeout and --dir checks for programs that cannot exit. */
    .section .text.init, "ax"
    .globl _start
_start:
    j _start
