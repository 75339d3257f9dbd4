#!/usr/bin/env python3
# gen_program_seeds.py OUTDIR — the jit_*.bin seeds of corpus/program: random RV64IMFD
# streams (integer ALU, loads/stores around a data area, branches, F/D arithmetic) whose
# registers start from random data and whose ALU results are all folded into x29, so a
# wrong result anywhere shows in the final state fuzz_program compares between the fast
# loop, the commit-log loop and the translator. Fixed random seed: reproducible. Needs
# riscv64-unknown-elf-as/objcopy.
import random, subprocess, sys
R = random.Random(14)
def reg(): return "x%d" % R.randrange(1, 29)
def lo(): return "x%d" % R.randrange(8, 16)
def freg(): return "f%d" % R.randrange(0, 32)
alu_rr = "add sub and or xor sll srl sra slt sltu addw subw sllw srlw sraw mul mulw mulh mulhu mulhsu div divu rem remu divw divuw remw remuw".split()
alu_ri = "addi andi ori xori slti sltiu addiw".split()
sh_i = "slli srli srai".split(); sh_iw = "slliw srliw sraiw".split()
br = "beq bne blt bge bltu bgeu".split()
ld = "lb lbu lh lhu lw lwu ld".split(); st = "sb sh sw sd".split()
fd = "fadd.d fsub.d fmul.d fdiv.d fadd.s fsub.s fmul.s fdiv.s".split()
def prog(kind, n):
    out = [".option norelax", "auipc x31, 0", "addi x31, x31, 2047", "addi x31, x31, 1"]  # x31: the data
    out += ["ld x%d, %d(x31)" % (i, 8 * i) for i in range(1, 31)]
    if kind == "fp":
        out += ["li x5, 0x6000", "csrs mstatus, x5"]
        for i in range(1, 8):
            out += ["fcvt.d.l f%d, x%d" % (i, i), "fcvt.s.l f%d, x%d" % (i + 8, i)]
    for k in range(n):
        r = R.random()
        if kind in ("int", "mix") and r < 0.45:
            out.append("%s %s, %s, %s" % (R.choice(alu_rr), reg(), reg(), reg()))
            out.append("add x29, x29, %s" % out[-1].split()[1].rstrip(","))
        elif kind in ("int", "mix") and r < 0.7:
            op = R.choice(alu_ri + sh_i + sh_iw + ["lui"])
            rd = "x%d" % R.randrange(1, 29)
            if op in sh_i: out.append("%s %s, %s, %d" % (op, rd, reg(), R.randrange(64)))
            elif op in sh_iw: out.append("%s %s, %s, %d" % (op, rd, reg(), R.randrange(32)))
            elif op == "lui": out.append("lui %s, %d" % (rd, R.randrange(1 << 20)))
            else: out.append("%s %s, %s, %d" % (op, rd, reg(), R.randrange(-2048, 2048)))
            out.append("xor x29, x29, %s" % rd)
        elif r < 0.85:
            off = R.randrange(-400, 1000)
            if R.random() < 0.5:
                out.append("%s x%d, %d(x31)" % (R.choice(ld), R.randrange(1, 29), off))
            else:
                out.append("%s %s, %d(x31)" % (R.choice(st), reg(), off))
        elif kind == "fp" or (kind == "mix" and r < 0.92):
            op = R.choice(fd)
            if op.endswith(".d"):
                out.append("%s f%d, f%d, f%d" % (op, R.randrange(1, 8), R.randrange(1, 8), R.randrange(1, 8)))
            else:
                out.append("%s f%d, f%d, f%d" % (op, R.randrange(9, 16), R.randrange(9, 16), R.randrange(9, 16)))
        else:
            out.append("%s %s, %s, .+%d" % (R.choice(br), reg(), reg(), 4 * R.randrange(1, 4)))
    out.append("j .")
    out.append(".balign 2048")
    out += [".dword 0x%016x" % R.choice([R.getrandbits(64), R.getrandbits(8), -R.getrandbits(12) & (2**64 - 1), 1 << 63, 2**64 - 1]) for _ in range(128)]
    return "\n".join(out) + "\n"
for name, kind, prof in (("jit_int", "int", 0), ("jit_mix", "mix", 1), ("jit_fp", "fp", 2)):
    open(name + ".S", "w").write(prog(kind, 160))
    subprocess.check_call(["riscv64-unknown-elf-as", "-march=rv64gc", "-o", name + ".o", name + ".S"])
    subprocess.check_call(["riscv64-unknown-elf-objcopy", "-O", "binary", "-j", ".text", name + ".o", name + ".bin"])
    code = open(name + ".bin", "rb").read()
    open(sys.argv[1] + "/" + name + ".bin", "wb").write(bytes([prof]) + code[:4096])
    print(name, len(code))
