#!/usr/bin/env python3
"""compare_log.py SIM TEST SPIKE_LOG: runs SIM --log-file on TEST and checks that its
commit log equals Spike's (SPIKE_LOG, made as ../shared/riscv-tests/README.md says) line
for line, from the first instruction at 0x80000000 up to and including the first store
to tohost. Exit 0 when equal; otherwise prints the first difference and exits 1.

Normalisations, each applied to both logs and argued:
- Spike's own ">>>>  SYMBOL" lines are dropped: Spike prints them (with -l) when the pc
  reaches an ELF symbol; they are annotations of the log, not architectural events.
- misa bit 23 (X, non-standard extensions present) is cleared in logged misa values:
  this hart implements the XPHMG vendor extensions and must set it (privileged spec,
  misa); Spike with rv64gc has none, so it cannot agree there.
"""
import re
import subprocess
import sys
import tempfile

TOHOST_STORE = re.compile(r"\) .*mem 0x0000000080001000 0x")
MISA = re.compile(r"(c769_misa 0x)([0-9a-f]{16})")


def clear_x(m):
    return m.group(1) + "%016x" % (int(m.group(2), 16) & ~(1 << 23))


def window(lines):
    out, started = [], False
    for ln in lines:
        ln = ln.rstrip("\n")
        if ">>>>" in ln:
            continue
        if not started:
            if not ln.startswith("core   0: 3 0x0000000080000000 "):
                continue
            started = True
        out.append(MISA.sub(clear_x, ln))
        if TOHOST_STORE.search(ln):
            break
    return out


def main():
    sim, test, spike_log = sys.argv[1:4]
    with tempfile.NamedTemporaryFile(mode="r", suffix=".log") as tmp:
        subprocess.run([sim, "--max-insns", "1000000", "--log-file", tmp.name, test],
                       check=False, stdout=subprocess.DEVNULL)
        ours = window(tmp.readlines())
    with open(spike_log) as f:
        spike = window(f.readlines())
    for i in range(max(len(ours), len(spike))):
        a = ours[i] if i < len(ours) else "<end of log>"
        b = spike[i] if i < len(spike) else "<end of log>"
        if a != b:
            print("%s: line %d of the window differs\n  xphmg: %s\n  spike: %s"
                  % (test, i + 1, a, b))
            return 1
    if not spike:
        print("%s: empty Spike log window" % spike_log)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
