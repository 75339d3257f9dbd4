#!/usr/bin/env python3
"""Check the RV64GC part of spec/xphmg.xml against GNU binutils (the independent source).

  A. every 16-bit parcel and B. random 32-bit words in every base major opcode (and a
     csrrs of every base CSR) are decoded
     and printed from the XML (spec_model.py, X-05..X-14) and compared with
     `objdump -d -M no-aliases`: same mnemonic and operand text, or both illegal;
  C. every base instruction is printed from a sample word, assembled by GNU as, and must
     give back the same bits.
The only differences accepted are the documented ones (docs/errata.md P-90).
Instructions outside the RV_* functional groups (XPHMG) are skipped.

Usage: gnu_crosscheck.py spec.xml riscv64-unknown-elf-as riscv64-unknown-elf-objdump workdir
"""
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from spec_model import Spec  # noqa: E402

spec_path, AS, OD, work = sys.argv[1:5]
os.makedirs(work, exist_ok=True)
spec = Spec(spec_path)
MARCH = '-march=rv64gc_zihintpause'
REG_UNIT = {name: unit for name, _, unit in spec.regs}
failures = []


def run_as(src, obj):
    r = subprocess.run([AS, MARCH, '-mno-relax', src, '-o', obj], capture_output=True, text=True)
    if r.returncode:
        sys.exit('gnu_crosscheck: assembler failed:\n' + r.stderr[:4000])


def objdump(words, tag):
    src, obj = os.path.join(work, tag + '.s'), os.path.join(work, tag + '.o')
    with open(src, 'w') as f:
        for v, n in words:
            f.write('.insn 0x%0*x\n' % (n // 4, v))
    run_as(src, obj)
    out = subprocess.run([OD, '-d', '-M', 'no-aliases', obj], check=True, capture_output=True,
                         text=True).stdout
    res = []
    for line in out.splitlines():
        m = re.match(r'\s*([0-9a-f]+):\t([0-9a-f ]+?)\s*\t(.*)$', line)
        if not m:
            continue
        t = re.sub(r'\s*#.*$', '', m.group(3))
        t = re.sub(r'\s*<[^>]*>', '', t)
        t = re.sub(r'\s+', ' ', t).strip()
        b = re.match(r'\.(\d)byte\s+(0x[0-9a-f]+)$', t)
        if b:
            t = '.%sbyte 0x%x' % (b.group(1), int(b.group(2), 16))
        res.append((int(m.group(1), 16), t))
    return res


# Where binutils 2.40 decodes an encoding only for a narrower mask than the ISA (the exact
# fcvt.d.s/.d.w/.d.wu keep their rm field, FENCE and FENCE.I ignore their unused fields:
# errata P-90), it prints the other words as .4byte. The spec records those narrower
# matches as data (ISA/ReferenceDisassembly, X-21, P-284): they are read from there, so
# this test also checks that data against objdump on every word below.


def accepted(od, ours, word, ins):
    """The documented differences (errata P-90, P-91, P-284)."""
    if (od, ours) == ('c.addi16sp sp,0', '.2byte 0x6101'):
        return True
    if ins is not None and spec.reference_data(ins, word):
        return od == '.4byte 0x%x' % word  # objdump must print it as data
    a, b = re.split(r'[ ,()]', od), re.split(r'[ ,()]', ours)
    if len(a) != len(b) or a[0] != b[0]:
        return False
    for x, y in zip(a, b):
        if x == y:
            continue
        if x == 'unknown' and re.fullmatch(r'\d+', y):
            continue  # fence set 0, rounding modes 5 and 6
        if a[0].startswith('csrr') and x.startswith('0x') and REG_UNIT.get(y, 'base') != 'base':
            continue  # an XPHMG CSR, unknown to objdump
        return False
    return True


def compare(words, tag):
    od = objdump(words, tag)
    if len(od) != len(words):
        sys.exit('gnu_crosscheck: objdump returned %d lines for %d words' % (len(od), len(words)))
    bad = 0
    for (v, n), (pc, t) in zip(words, od):
        ins = spec.decode(v, n)
        if ins is not None and not ins['group'].startswith('RV_'):
            continue
        ours = spec.format(ins, v, pc) if ins else '.%dbyte 0x%x' % (n // 8, v)
        if (ours != t or (ins and spec.reference_data(ins, v))) and not accepted(t, ours, v, ins):
            bad += 1
            if bad <= 20:
                failures.append('%s: word 0x%x: objdump "%s", spec "%s"' % (tag, v, t, ours))
    print('gnu_crosscheck %s: %d words, %d unexplained differences' % (tag, len(words), bad))
    return bad


base = [i for i in spec.insns if i['group'].startswith('RV_')]
rnd = random.Random(20261121)

# A: all 16-bit parcels
compare([(v, 16) for v in range(65536) if v & 3 != 3], 'A16')

# B: random 32-bit words per major opcode, and per instruction with its fixed bits
words = []
for opc in sorted({i['enc']['ids'][0] & 0x7f for i in base if i['enc']['bits'] == 32}):
    words += [((rnd.getrandbits(32) & ~0x7f) | opc, 32) for _ in range(400)]
for i in base:
    e = i['enc']
    if e['bits'] == 32:
        words += [((rnd.getrandbits(32) & ~e['mask']) | e['ids'][0], 32) for _ in range(12)]
# every base CSR of ISA/Registers in a csrrs: objdump must print the same name
words += [((addr << 20) | (2 << 12) | (10 << 7) | 0x73, 32)
          for _, addr, unit in spec.regs if unit == 'base']
compare(words, 'B32')

# C: text -> GNU as -> bits
lines, expect = [], []
for ins in base:
    e, n = ins['enc'], ins['enc']['bits']
    for _ in range(50):
        # the form GNU as writes (X-21: rm=000 of the exact conversions, ignored fence
        # fields 0)
        word = spec.reference_canonical(ins, (rnd.getrandbits(n) & ~e['mask']) | e['ids'][0])
        if spec.decode(word, n) is ins and not ('RM' in e['fields'] and (word >> 12) & 7 in (5, 6)):
            break
    else:
        failures.append('C: no legal sample word for %s' % ins['name'])
        continue
    pc = 4 * len(expect)
    text = spec.format(ins, word, pc)
    for op in ins['ops']:
        if spec.types[op['type']]['display'] == 'pcrel':  # gas wants '.+offset'
            v = spec.value(op, e, word)
            text = re.sub(r'(^|[ ,])%x$' % ((pc + v) & (2**64 - 1)), r'\1.%+d' % v, text)
    lines.append('.option %s\n%s\n%s' % ('rvc' if n == 16 else 'norvc', text,
                                          '.2byte 0' if n == 16 else ''))
    expect.append((word, n, ins['name'], text))
src, obj, binf = (os.path.join(work, 'C' + x) for x in ('.s', '.o', '.bin'))
with open(src, 'w') as f:
    f.write('\n'.join(lines) + '\n')
run_as(src, obj)
subprocess.run([re.sub(r'objdump$', 'objcopy', OD), '-O', 'binary', '-j', '.text', obj, binf],
               check=True)
blob = open(binf, 'rb').read()
bad = 0
for k, (word, n, name, text) in enumerate(expect):
    got = int.from_bytes(blob[4 * k:4 * k + n // 8], 'little')
    if got != word:
        bad += 1
        failures.append('C: "%s" assembles to 0x%x, spec decodes it from 0x%x' % (text, got, word))
print('gnu_crosscheck C: %d instructions assembled, %d differ' % (len(expect), bad))

for f in failures:
    print('gnu_crosscheck FAIL ' + f)
sys.exit(1 if failures else 0)
