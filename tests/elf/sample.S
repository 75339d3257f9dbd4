/* sample.S — a fixed, tiny guest program for the ELF reader and loader tests; its
 * layout follows from target/link.ld alone (see test_xelf.c). It exits with status 42. */
#include "xphmg_test.h"

    .section .text.init, "ax", @progbits
    .option norvc
    .globl _start
_start:
    li a0, 42               /* 0x02a00513: the first word the tests look for */
    slli a0, a0, 1
    ori a0, a0, 1
    la t0, tohost
1:  sd a0, 0(t0)
    j 1b

RVTEST_DATA_BEGIN
    .dword 0x1122334455667788
RVTEST_DATA_END
