#!/usr/bin/env python3
"""report.py DIR — the tables of bench/sim/run.sh from hyperfine's JSON exports.

Each DIR/NAME.ROUND.json holds one round of one kernel (NAME 'startup' is the empty
program). A program's time in a round is its CPU time (user + system, hyperfine's means
over RUNS), minus the same program's start-up CPU time of that round for the simulators;
speed ratios are taken round by round (qemu time / translator time: above 1 the
translator is faster) and reported as the median with the smallest and largest round,
so that a burst of load in one round shows as spread instead of moving the figure.
"""
import json
import os
import statistics
import sys


def role(cmd):
    if "--no-jit" in cmd:
        return "interp"
    if "--jit" in cmd:
        return "jit"
    if "qemu-system" in cmd:
        return "qemu"
    return "native"


def load_rounds(d, name):
    rounds = {}
    for f in os.listdir(d):
        parts = f.split(".")
        if len(parts) == 3 and parts[0] == name and parts[2] == "json":
            with open(os.path.join(d, f)) as fh:
                res = json.load(fh)["results"]
            rounds[int(parts[1])] = {
                role(r["command"]): {"cpu": r["user"] + r["system"], "wall": r["median"]}
                for r in res
            }
    return [rounds[k] for k in sorted(rounds)]


def spread(vals, fmt):
    vals = sorted(vals)
    med = statistics.median(vals)
    if len(vals) == 1:
        return fmt % med
    return (fmt + " [" + fmt + "-" + fmt + "]") % (med, vals[0], vals[-1])


def main():
    d = sys.argv[1]
    loads = {}
    with open(os.path.join(d, "loads")) as fh:
        for line in fh:
            name, r, l1, _, _ = line.split()
            loads.setdefault(name, []).append(float(l1))
    start = load_rounds(d, "startup")
    print("start-up, the empty program (wall time, median of the rounds):", ", ".join(
        "%s %.1f ms" % (k, 1e3 * statistics.median(s[k]["wall"] for s in start))
        for k in ("interp", "jit", "qemu")))
    print()
    names = sorted({f.split(".")[0] for f in os.listdir(d) if f.endswith(".json")} - {"startup"},
                   key=lambda n: ({"mix": 0, "mix-sv39": 1, "int": 2, "mem": 3, "fp": 4}.get(n, 5), n))
    print("| kernel | guest insns | interp s | jit s | qemu s | native s | jit MIPS "
          "| jit/qemu | jit/qemu wall | jit/interp | native/jit | load (1 min) |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for n in names:
        rounds = load_rounds(d, n)
        with open(os.path.join(d, n + ".insns")) as fh:
            insns = int(fh.read().strip() or 0)

        def cpu(r, i, k):
            t = r[k]["cpu"]
            if k != "native":
                t -= start[min(i, len(start) - 1)][k]["cpu"]
            return max(t, 1e-4)

        cols = {}
        for k in ("interp", "jit", "qemu", "native"):
            if all(k in r for r in rounds):
                cols[k] = [cpu(r, i, k) for i, r in enumerate(rounds)]

        def med(k):
            return "%.3f" % statistics.median(cols[k]) if k in cols else "-"

        def ratio(a, b, fmt="%.2f"):
            if a not in cols or b not in cols:
                return "-"
            return spread([x / y for x, y in zip(cols[a], cols[b])], fmt)

        wall = spread([r["qemu"]["wall"] / r["jit"]["wall"] for r in rounds], "%.2f")
        mips = insns / statistics.median(cols["jit"]) / 1e6
        ld = loads.get(n, [])
        ldtxt = "%.1f-%.1f" % (min(ld), max(ld)) if ld else "-"
        print("| %s | %s | %s | %s | %s | %s | %.0f | %s | %s | %s | %s | %s |" % (
            n, format(insns, ","), med("interp"), med("jit"), med("qemu"), med("native"), mips,
            ratio("qemu", "jit"), wall, ratio("interp", "jit"), ratio("native", "jit", "%.3f"),
            ldtxt))
    print()
    print("times: CPU s per run (user + sys), median of %d rounds, simulators' start-up "
          "subtracted; ratios per round, median [min-max]: jit/qemu = qemu time / translator "
          "time (above 1: faster than qemu), jit/qemu wall = the same on raw wall time, "
          "native/jit = the fraction of native speed" % len(start))


if __name__ == "__main__":
    main()
