#!/usr/bin/env python3
"""compare_log.py SIM TEST SPIKE_LOG: runs SIM --isa rv64gcs_zicntr_zicclsm --log-file on
TEST (Spike's rv64gc_zicntr_zicclsm with its default --priv=MSU: S mode, no XPHMG, so
misa is Spike's bit for bit) and checks that its
commit log equals Spike's (SPIKE_LOG, made as ../shared/riscv-tests/README.md says) line
for line, from the first instruction at 0x80000000 up to and including the first store
to tohost (the address of TEST's `tohost` symbol). Exit 0 when equal; otherwise prints
the first difference and exits 1.

Normalisations, each applied to both logs and argued (docs/sim.md lists them too):
- Lines that are not commit or exception lines are dropped: Spike's ">>>>  SYMBOL"
  annotations and its instruction-trace lines ("core 0: 0xPC (0xINSN) disassembly", no
  privilege field), which the README's filter let through in rv64mi-p-illegal; neither
  is an architectural event.
- The value a Zicsr instruction reads from marchid is cleared: it names the
  implementation (Spike has its registered id 5, this hart 0, docs/sim.md).
- The " c777_mvip ..." field is dropped: Spike logs its AIA mvip storage on every mip/sip
  write although Smaia is not in its ISA string; the CSR does not exist on either hart.
- mip bit 7 (MTIP) is cleared in logged mip values: mtimecmp's reset value is the
  platform's choice; Spike's CLINT resets it to 0 (timer pending from reset), this
  hart's to all ones (docs/sim.md), and no test enables the timer interrupt.
"""
import re
import struct
import subprocess
import sys
import tempfile

MIP_FIELD = re.compile(r"(c836_mip 0x)([0-9a-f]{16})")
MVIP_FIELD = re.compile(r" c777_mvip 0x[0-9a-f]{16}")
COMMIT = re.compile(r"^core   0: [0-3] 0x[0-9a-f]{16} \(0x([0-9a-f]+)\)")
EXCEPTION = re.compile(r"^core   0: (exception |          tval )")
RD_FIELD = re.compile(r"(\) x[0-9 ]{2} 0x)([0-9a-f]{16})")


def tohost_address(path):
    """The value of the ELF64 symbol `tohost` (little-endian ELF64 only)."""
    with open(path, "rb") as f:
        elf = f.read()
    if elf[:4] != b"\x7fELF" or elf[4] != 2 or elf[5] != 1:
        raise SystemExit("%s: not a little-endian ELF64 file" % path)
    shoff, = struct.unpack_from("<Q", elf, 0x28)
    shentsize, shnum = struct.unpack_from("<HH", elf, 0x3A)
    sections = [struct.unpack_from("<IIQQQQIIQQ", elf, shoff + i * shentsize)
                for i in range(shnum)]
    for sh in sections:
        if sh[1] != 2:  # SHT_SYMTAB
            continue
        strtab = sections[sh[6]]
        for off in range(sh[4], sh[4] + sh[5], sh[9]):
            name, _, _, _, value, _ = struct.unpack_from("<IBBHQQ", elf, off)
            start = strtab[4] + name
            if elf[start:elf.index(b"\0", start)] == b"tohost":
                return value
    raise SystemExit("%s: no tohost symbol" % path)


def clear_bit(bit):
    return lambda m: m.group(1) + "%016x" % (int(m.group(2), 16) & ~(1 << bit))


def normalise(ln):
    ln = MIP_FIELD.sub(clear_bit(7), ln)
    ln = MVIP_FIELD.sub("", ln)
    m = COMMIT.match(ln)
    if m:
        insn = int(m.group(1), 16)
        # a Zicsr instruction (opcode SYSTEM, funct3 != 0) reading marchid
        if insn & 0x7F == 0x73 and (insn >> 12) & 7 and insn >> 20 == 0xF12:
            ln = RD_FIELD.sub(lambda m: m.group(1) + "0" * 16, ln)
    return ln


def window(lines, tohost):
    store = re.compile(r"\) .*mem 0x%016x 0x" % tohost)
    out, started = [], False
    for ln in lines:
        ln = ln.rstrip("\n")
        if not COMMIT.match(ln) and not EXCEPTION.match(ln):
            continue
        if not started:
            if not ln.startswith("core   0: 3 0x0000000080000000 "):
                continue
            started = True
        out.append(normalise(ln))
        if store.search(ln):
            break
    return out


def main():
    sim, test, spike_log = sys.argv[1:4]
    tohost = tohost_address(test)
    with tempfile.NamedTemporaryFile(mode="r", suffix=".log") as tmp:
        subprocess.run([sim, "--isa", "rv64gcs_zicntr_zicclsm", "--max-insns", "1000000",
                        "--log-file", tmp.name, test],
                       check=False, stdout=subprocess.DEVNULL)
        ours = window(tmp.readlines(), tohost)
    with open(spike_log) as f:
        spike = window(f.readlines(), tohost)
    if not spike:
        print("%s: empty Spike log window" % spike_log)
        return 1
    for i in range(max(len(ours), len(spike))):
        a = ours[i] if i < len(ours) else "<end of log>"
        b = spike[i] if i < len(spike) else "<end of log>"
        if a != b:
            print("%s: line %d of the window differs\n  xphmg: %s\n  spike: %s"
                  % (test, i + 1, a, b))
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
