/* gdbstub.h — the GDB remote serial protocol for xphmg-sim (`--gdb PORT`,
 * `--gdb-wait PORT`), on 127.0.0.1 only.
 *
 * The stub runs the hart itself: free-running in batches while nothing is set, one
 * instruction at a time while breakpoints or watchpoints exist. What GDB sees:
 *   - registers x0..x31, pc, f0..f31 and every CSR of the spec's map (XPHMG ones
 *     included), named by a target description generated from spec/xphmg.xml
 *     (tools/tdesc); register numbers are GDB's RISC-V ones (CSR = 65 + address);
 *   - memory as the hart sees it (virtual addresses, no faults raised);
 *   - Z0/Z1 breakpoints (checked against pc before each instruction, no ebreak written
 *     into guest memory), Z2/Z3/Z4 watchpoints (the hart reports every data access it
 *     performs, hart_set_access_watch: base, RVC, FP, atomics and the XPHMG units' SVMEM,
 *     LDS, xmem.ldg/stg, compression and RT accesses; reported after the instruction),
 *     single-step, continue, Ctrl-C;
 *   - `monitor help|cap|pmask|csr NAME`: the CAP CSRs with their fields (the effective
 *     state CAP.PREC.STAT among them), the PMASK banks, any CSR by name.
 * The Sdtrig triggers of the hart stay the guest's: a debugger-side check is used
 * because a breakpoint-exception trigger does not fire in M mode while mstatus.MIE = 0
 * (Sdtrig), which is how guest programs run. */
#ifndef XPHMG_SIM_GDBSTUB_H
#define XPHMG_SIM_GDBSTUB_H

#include <stdbool.h>
#include <stdint.h>

#include "hart.h"

typedef struct {
    int port;           /* 0: any free port; the port is printed on stderr either way */
    bool wait;          /* wait for the debugger before the first instruction */
    uint64_t max_insns; /* 0: no limit */
} gdbstub_opts;

/* Runs h with the debugger attached (or attachable) until the guest halts, the limit is
 * reached, or the debugger kills it (exit code 122). Returns 0 and *res, or -1 after a
 * socket error (message on stderr). */
int gdbstub_run(hart *h, const gdbstub_opts *o, hart_run_result *res);

#endif
