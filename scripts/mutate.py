#!/usr/bin/env python3
"""Mutation testing of the XPHMG units (src/ext), the numeric engine (src/num) and the
hart's CSR/trap code, against the tests that name the mutated code's requirements.

A mutant is one small change to one line of a function body:
  cmp    flip a comparison (== !=, < >=, > <=)      bnd   move a boundary (< <=, > >=)
  logic  swap && and ||                              cond  negate an if/while condition
  drop   drop an assignment or call statement        const change an integer constant
  field  use the neighbouring field of the same CSR register (generated xphmg_csr.h)

Mapping mutants to requirements (docs/mutation.md): a `REQ:` comment in the source names
the requirement ids a function implements. One in the comment block just above a
function applies to the whole function; one inside a function body (or a run of them on
consecutive lines) names the ids of the lines that follow, in place of the function's,
until the next such comment. A mutant is run against the CTest tests built from the
test files whose `REQ:` tags name one of its ids; a mutant in code without any `REQ:`
annotation is run against its module's own tests (MODULES below; the whole default
suite for modules without such a list) and counts for no requirement.

A mutant is killed for requirement X when a test file that names X fails; it survives
when every test it ran passes; `stillborn` when it does not compile; `equivalent` when
docs/mutation-equivalent.tsv lists it with an argument.

Deterministic: the mutants of a module are enumerated in source order and sampled with
random.Random(seed). Resumable: every result is appended to WORK/state.jsonl keyed by the
mutant id and a hash of its function's text, so a rerun skips what is done and redoes a
mutant whose function changed, or whose requirement ids changed (its tests are chosen by
them). The source tree
is never modified: mutants are applied to a copy under WORK/src, built in WORK/build.

Usage: scripts/mutate.py [--modules cap,pmask,num] [--max-per-module N] [--seed S]
                         [--per-req N] [--work DIR] [--report-dir DIR] [--time-limit SECONDS]
                         [--seed-from-reports] [--only ID,...] [--rerun-survivors] [--list]
                         [--report-only]
"""
import argparse
import datetime
import hashlib
import json
import os
import random
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
from reqtags import ID, TAG, scan_tags  # noqa: E402  (scripts/reqtags.py)

# Module -> (files, functions to restrict to or None for every function, the module's own
# tests: a regular expression over CTest names that runs a mutant in code without a `REQ:`
# annotation). These are the tests that exercise the module's code directly, not the
# whole suite: the unit tests of its functions and the guest programs of its area
# (commit-log comparisons only where the module writes the commit log).
MODULES = {
    "cap": (["src/ext/cap/cap.c", "src/ext/cap/cap_unit.c", "src/ext/cap/cap_profile.c"], None,
            r"^(ext_cap.*|ext_profile|arch\.cap\..*|example_precision)$"),
    "pmask": (["src/ext/pmask/pmask.c", "src/ext/pmask/pmask_unit.c"], None,
              r"^(ext_pmask|arch\.cap\.cap_pmask)$"),
    # Unannotated num code (arithmetic, packing, names) is called only by these two.
    "num": (["src/num/num_cvt.c", "src/num/num_fmt.c"], None, r"^num_(vectors|arith)$"),
    # RISC-V F/D: the exact-reference unit tests (both host paths) and F/D guest programs;
    # not arch.fp.qemu.* (those run under QEMU, not this code).
    "rvfp": (["src/num/rvfp.c"], None,
             r"^(fp_rvfp(_portable)?|arch\.fp\.(fp_env|fp_exact_rm|vectors)|arch\.rv\.rv64[fd]"
             r"|riscv-tests\.rv64u[fd]-p-[\w-]+)$"),
    "xmem": (["src/ext/xmem/xmem_cache.c", "src/ext/xmem/xmem_comp.c", "src/ext/xmem/xmem_lds.c",
              "src/ext/xmem/xmem_region.c", "src/ext/xmem/xmem_svm.c", "src/ext/xmem/xmem_swz.c",
              "src/ext/xmem/xmem_unit.c", "src/ext/xmem/xmem_xdl.c"], None,
             # (ext_cap_hart: attach/free round trips of every unit, whose heap balance
             # sees a leak of the LDS window)
             r"^(ext_xmem_.*|ext_cap_hart|arch\.xmem\..*|example_(svmem|handoff)"
             r"|host_budget_(cpy|svm|swz)\w*)$"),
    "rt": (["src/ext/rt/rt_encode.c", "src/ext/rt/rt_fetch.c", "src/ext/rt/rt_job.c",
            "src/ext/rt/rt_kernels.c", "src/ext/rt/rt_leaf.c", "src/ext/rt/rt_offload.c",
            "src/ext/rt/rt_unit.c"],
           None,
           # the RT unit, kernel, job and guest tests, the BVH tests that run jobs, the
           # accuracy sample and the examples whose images or hits the kernels decide
           # (render compiles rt_kernels.c for the guest: its non-SSE slab test runs there)
           r"^(ext_rt_.*|arch\.rt\..*|arch\.xmem\.region_rt|bvh_build|bvh_job|rt_accuracy"
           r"|host_budget_rt.*|example_render|example_raytrace)$"),
    # XMEM rules whose code lies outside src/ext/xmem: absent features read zero and the
    # reset values (CAP's CSR file), the events every engine raises and their W1C, the
    # fences and the latched state of the offload engine (RT's offload path), and RT's
    # record reads through the XMEM L1 model (RT-022). Only these functions; their other
    # ids belong to the cap, rt and ext modules, so this module is run with
    # --per-req-only XMEM-,RT-022 (docs/mutation.md).
    "xmem_ext": (["src/ext/cap/cap.c", "src/ext/rt/rt_offload.c", "src/ext/rt/rt_fetch.c",
                  "src/ext/rt/rt_unit.c", "src/ext/xphmg_ext.c"],
                 {"xmem_gated", "cap_reset", "cap_csr_read", "cap_csr_write", "cap_xmem_event",
                  "complete_oldest", "rt_exec_xfence_wait", "rt_exec_xfence_signal",
                  "rt_exec_xfence_pipe", "fetched_from", "fetch_begin", "xphmg_ext_attach"},
                 r"^(ext_cap|ext_xmem_.*|arch\.xmem\..*|arch\.rt\.offload_\w+)$"),
    # The wiring of the units to a hart: every program that attaches them.
    "ext": (["src/ext/xphmg_ext.c"], None,
            r"^(ext_cap_hart|ext_rt_unit|ext_xmem_lds|arch\.(cap|xmem|rt)\.\w+"
            r"|example_(precision|svmem|handoff))$"),
    # The hart's CSR file: Zicsr and privileged guest programs, the privileged riscv-tests
    # and their commit-log comparisons (the CSR write log is written here, the F/D ones'
    # fcsr/fflags/frm entries included), and the translator's PMP test (a PMP write drops
    # translated code: hart_csr_write asks for the flush).
    "csr": (["src/sim/csr.c"], None,
            r"^(sim\.hart|arch\.rv\.(zicsr|priv_\w+|isa_\w+|commit_log|jit_pmp\.(jit|lockstep))"
            r"|arch\.fp\.fp_env"
            r"|riscv-tests\.(commit-log\.)?rv64[ms]i-p-[\w-]+"
            r"|riscv-tests\.commit-log\.rv64u[fd]-p-[\w-]+)$"),
    "trap": (["src/sim/hart.c"],
             {"enter_trap", "hart_raise", "hart_illegal", "hart_exec_illegal", "take_interrupt"},
             r"^(sim\.hart|arch\.rv\.(priv_\w+|unexpected_trap|trap_loop|isa_\w+)|host_trap_\w+"
             r"|riscv-tests\.(commit-log\.)?rv64[ms]i-p-[\w-]+)$"),
    # RAM's epoch for the RT offload engine (errata P-402): the stores' notification, the
    # host-write hook, the watch and the translation/PMP change that start a new epoch.
    "sim": (["src/sim/hart.c", "src/sim/vm.c"],
            {"mem_hook", "hart_rt_written", "hart_ram_epoch", "hart_ram_watch",
             "hart_store_notify", "hart_update_xlate"},
            r"^(sim\.hart|sim_htif|htif_abi|arch\.rt\.offload_\w+"
            r"|arch\.rt\.offload_keep\.(jit|traced)|arch\.rv\.(priv_\w+|jit_\w+)(\.jit|\.traced)?"
            r"|riscv-tests\.rv64mi-p-\w+)$"),
}
# Module -> [(file, functions)] outside the module's files whose code implements the
# module's requirements; only --per-req draws their mutants, so the module's random sample
# stays that of its own files. rt: the profile loader's check of RT's dependencies
# (RT-001/002; the function is in the cap module's files too) and the render guest's RTCAP
# check (RT-023, software's side of RT 5.2).
EXTRA = {
    "rt": [("src/ext/cap/cap_profile.c", {"check_rt_dependencies"}),
           ("examples/render/render.c", {"rtcap_needed", "mode_supported"})],
}
DEFAULT_MODULES = "cap,pmask,num"
EQUIVALENT = os.path.join(ROOT, "docs", "mutation-equivalent.tsv")
REPORT_DIR = os.path.join(ROOT, "docs", "mutation")


# ---------------------------------------------------------------- source scanning

def strip_comments(lines):
    """Yields (line, code) with comments blanked, tracking /* */ across lines."""
    out, in_block = [], False
    for line in lines:
        code, i = [], 0
        while i < len(line):
            if in_block:
                j = line.find("*/", i)
                if j < 0:
                    i = len(line)
                else:
                    in_block, i = False, j + 2
                continue
            if line.startswith("/*", i):
                in_block, i = True, i + 2
                continue
            if line.startswith("//", i):
                break
            if line[i] == '"':  # keep string literals opaque
                j = i + 1
                while j < len(line) and line[j] != '"':
                    j += 2 if line[j] == "\\" else 1
                code.append('"' + " " * max(0, j - i - 1) + '"')
                i = j + 1
                continue
            code.append(line[i])
            i += 1
        out.append("".join(code))
    return out


FUNC_HEAD = re.compile(r"^[A-Za-z_][\w \*]*?\b([A-Za-z_]\w*)\s*\(")
# GCC attributes before or inside a function's head (`__attribute__((always_inline)) static
# inline bool`): not the function's name, so they are taken out before FUNC_HEAD looks.
ATTRIBUTE = re.compile(r"__attribute__\s*\(\((?:[^()]|\([^()]*\))*\)\)\s*")
NAME_HEAD = re.compile(r"^([A-Za-z_]\w*)\s*\(")
TYPE_LINE = re.compile(r"[A-Za-z_][\w \*]*")


def functions(lines, code):
    """[(name, first_body_line, last_line, ids_from_comment_above)] (0-based)."""
    res, i, last_end = [], 0, -1
    while i < len(lines):
        head = ATTRIBUTE.sub("", code[i])
        m = FUNC_HEAD.match(head)
        if not m and i > 0 and TYPE_LINE.fullmatch(ATTRIBUTE.sub("", code[i - 1]).strip()):
            m = NAME_HEAD.match(head)  # the type on the line above (GNU style)
        if m and not code[i].rstrip().endswith(";") and not code[i].startswith(("typedef", "#")):
            # header may span lines until a line that is exactly "{"
            j = i
            while j < len(lines) and code[j].strip() != "{" and not code[j].rstrip().endswith(";"):
                if code[j].rstrip().endswith("{") and j > i:
                    break
                j += 1
            if j < len(lines) and code[j].strip() == "{":
                k = j + 1
                while k < len(lines) and not code[k].startswith("}"):
                    k += 1
                above = "\n".join(lines[last_end + 1:i])
                ids = set()
                for tag in TAG.findall(above):
                    ids.update(ID.findall(tag))
                res.append((m.group(1), j + 1, k, ids))
                last_end, i = k, k + 1
                continue
        i += 1
    return res


CMP = [("==", "!="), ("!=", "=="), ("<=", ">"), (">=", "<"), ("<", ">="), (">", "<=")]
BND = {"<": "<=", "<=": "<", ">": ">=", ">=": ">"}
CMP_RE = re.compile(r"(?<![<>=!\-])(==|!=|<=|>=|<|>)(?![<>=])")
LOGIC_RE = re.compile(r"&&|\|\|")
CONST_RE = re.compile(r"(?<![\w.])(0[xX][0-9a-fA-F]+|\d+)([uU]?[lL]{0,2})(?![\w.])")
COND_RE = re.compile(r"^(\s*(?:\}\s*else\s+)?(?:if|while)\s*)\((.*)\)(\s*(?:\{|[^;{]*;)?\s*)$")
DECL_RE = re.compile(r"^\s*(?:const\s+|static\s+|struct\s+|unsigned\s+|signed\s+)*"
                     r"[A-Za-z_]\w*(?:\s*\*)*\s+\**[A-Za-z_]\w*\s*(?:=|;|\[|,)")
STMT_RE = re.compile(r"^\s*(?:\*?\s*[A-Za-z_][\w\.\->\[\]\(\) \*]*?\s*(?:[|&^+\-*/]?=|\+\+|--)"
                     r"|[A-Za-z_]\w*\s*\().*;\s*$")
KEYWORD_START = re.compile(r"^\s*(?:return|break|continue|goto|case|default|else|if|for|while|"
                           r"do|switch)\b")


def load_fields(header):
    """register base name -> ordered list of field names, from the generated header."""
    regs, order = {}, []
    if not header or not os.path.exists(header):
        return {}
    text = open(header, encoding="utf-8").read()
    for m in re.finditer(r"#define XPHMG_CSR_(\w+)\s", text):
        regs.setdefault(m.group(1), [])
    names = sorted(regs, key=len, reverse=True)
    for m in re.finditer(r"#define (\w+)_MASK\s", text):
        full = m.group(1)
        for r in names:
            if full.startswith(r + "_") and full != r:
                regs[r].append(full[len(r) + 1:])
                break
    return {r: f for r, f in regs.items() if len(f) >= 2}


def field_swaps(code_line, fields):
    """[(start, end, replacement)] for each CSR field macro token in the line."""
    out = []
    for m in re.finditer(r"\b([A-Z][A-Z0-9_]*?)(_MASK|_SHIFT|_WIDTH)?\b", code_line):
        tok, suffix = m.group(1), m.group(2) or ""
        for reg, fl in fields.items():
            if tok.startswith(reg + "_") and tok[len(reg) + 1:] in fl:
                f = tok[len(reg) + 1:]
                nxt = fl[(fl.index(f) + 1) % len(fl)]
                out.append((m.start(), m.end(), f"{reg}_{nxt}{suffix}"))
                break
    return out


def mutants_of_file(rel, src_root, funcs_only, fields, text=None):
    """The mutants of file rel under src_root (or of text, a version of that file)."""
    if text is None:
        text = open(os.path.join(src_root, rel), encoding="utf-8").read()
    lines = text.split("\n")
    code = strip_comments(lines)
    res = []
    for name, first, last, fids in functions(lines, code):
        if funcs_only is not None and name not in funcs_only:
            continue
        body_ids, prev_tagged = set(), False
        fhash = hashlib.sha1("\n".join(lines[first - 2:last + 1]).encode()).hexdigest()[:12]
        seen = {}
        for ln in range(first, last):
            raw, c = lines[ln], code[ln]
            tags = TAG.findall(raw)
            if tags:
                ids = {rid for tag in tags for rid in ID.findall(tag)}
                body_ids = (body_ids | ids) if prev_tagged else ids
            prev_tagged = bool(tags)
            if not c.strip() or c.lstrip().startswith("#"):
                continue
            cands = []
            for m in CMP_RE.finditer(c):
                op = m.group(1)
                if op in ("<", ">") and re.search(r"#include|\w+\s*<\s*\w+\s*>", c):
                    pass
                neg = dict(CMP)[op]
                cands.append(("cmp", m.start(), m.end(), neg))
                if op in BND:
                    cands.append(("bnd", m.start(), m.end(), BND[op]))
            for m in LOGIC_RE.finditer(c):
                cands.append(("logic", m.start(), m.end(), "||" if m.group() == "&&" else "&&"))
            for m in CONST_RE.finditer(c):
                lit, suf = m.group(1), m.group(2)
                v = int(lit, 0)
                nv = 1 if v == 0 else (0 if v == 1 else v + 1)
                nlit = hex(nv) if lit.lower().startswith("0x") else str(nv)
                cands.append(("const", m.start(), m.end(), nlit + suf))
            for s, e, rep in field_swaps(c, fields):
                cands.append(("field", s, e, rep))
            m = COND_RE.match(c)
            if m and c.count("(") == c.count(")"):
                # The condition ends at the parenthesis matching the one after if/while,
                # not at the line's last one: `if (p) f(x);` negates `p`, not `p) f(x`.
                s = len(m.group(1))
                depth, e = 0, s
                for e in range(s, len(c)):
                    depth += {"(": 1, ")": -1}.get(c[e], 0)
                    if depth == 0:
                        break
                cands.append(("cond", s, e + 1, "(!(" + c[s + 1:e] + "))"))
            if (STMT_RE.match(c) and not DECL_RE.match(c) and not KEYWORD_START.match(c)
                    and c.count("(") == c.count(")")):
                ind = len(c) - len(c.lstrip())
                cands.append(("drop", ind, len(c.rstrip()), "{ /* dropped */ }"))
            for op, s, e, rep in cands:
                new = raw[:s] + rep + raw[e:]
                if new == raw:
                    continue
                key = f"{op}|{raw.strip()}|{new.strip()}"
                n = seen.get(key, 0)
                seen[key] = n + 1
                h = hashlib.sha1(f"{key}|{n}".encode()).hexdigest()[:10]
                res.append({"id": f"{rel}:{name}:{op}:{h}", "file": rel, "line": ln + 1,
                            "func": name, "op": op, "orig": raw, "new": new,
                            "ids": sorted(body_ids or fids), "fhash": fhash})
    return res


# ---------------------------------------------------------------- tests

def ctest_tests(build):
    out = subprocess.run(["ctest", "--show-only=json-v1"], cwd=build, check=True,
                         capture_output=True, text=True).stdout
    tests = []
    for t in json.loads(out)["tests"]:
        labels = []
        for p in t.get("properties", []):
            if p.get("name") == "LABELS":
                labels = p.get("value", [])
        tests.append({"name": t["name"], "command": t.get("command", []), "labels": labels})
    return tests


def tests_of_file(rel, tests):
    """CTest names built from test file rel: a test named after it (arch.cap.cap_xcvt for
    cap_xcvt.S) or one whose program is built from it (test_cap for test_cap.c, and its
    portable build test_cap_portable, the same file compiled for the code paths of hosts
    without x86-64 extensions)."""
    stem = os.path.splitext(os.path.basename(rel))[0]
    names = []
    for t in tests:
        parts = t["name"].split(".")
        prog = os.path.basename(t["command"][0]) if t["command"] else ""
        if stem in parts or prog in (stem, stem + "_portable"):
            names.append(t["name"])
    return names


def build_target_names(bdir):
    """The names of the build's targets (`cmake --build --target help`)."""
    out = subprocess.run(["cmake", "--build", bdir, "--target", "help"], capture_output=True,
                         text=True).stdout
    return {line[4:].split()[0] for line in out.splitlines() if line.startswith("... ")}


def test_targets(cmd, bdir, known):
    """The targets a test runs: its program, and every build-tree file among its arguments
    (also as -DNAME=path) whose name or stem is a target, such as a guest program
    render.elf that a script runs (target render, which may compile mutated sources)."""
    out = set()
    for i, arg in enumerate(cmd):
        if arg.startswith("-D") and "=" in arg:
            arg = arg.split("=", 1)[1]
        if not arg.startswith(bdir):
            continue
        base = os.path.basename(arg)
        if i == 0:
            out.add(base)
        for cand in (base, os.path.splitext(base)[0]):
            if cand in known:
                out.add(cand)
    return out


# ---------------------------------------------------------------- running

def sync_tree(src, dst):
    """Mirrors the source tree into dst, touching only files whose content differs."""
    skip = {".git", "build", "Testing"}
    for dirpath, dirs, files in os.walk(src):
        dirs[:] = [d for d in dirs if d not in skip and not d.startswith("build")]
        rel = os.path.relpath(dirpath, src)
        os.makedirs(os.path.join(dst, rel), exist_ok=True)
        for f in files:
            a, b = os.path.join(dirpath, f), os.path.join(dst, rel, f)
            data = open(a, "rb").read()
            if not os.path.exists(b) or open(b, "rb").read() != data:
                with open(b, "wb") as o:
                    o.write(data)
                shutil.copymode(a, b)


def run(cmd, cwd, timeout=None, log=None):
    p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if log:
        with open(log, "a", encoding="utf-8") as f:
            f.write("$ " + " ".join(cmd) + "\n" + p.stdout[-4000:] + p.stderr[-4000:] + "\n")
    return p


def build_targets(bdir, targets, log):
    cmd = ["cmake", "--build", bdir, "-j2"]
    if targets:
        cmd += ["--target"] + sorted(targets)
    return run(cmd, ROOT, log=log).returncode == 0


def run_tests(bdir, names, timeout, stop_on_failure=False):
    """Failing test names. stop_on_failure: start no test after the first failure (for
    mutants that count for no requirement, where one failing test is all that matters)."""
    if not names:
        return []
    regex = "^(" + "|".join(re.escape(n) for n in sorted(names)) + ")$"
    failed_log = os.path.join(bdir, "Testing", "Temporary", "LastTestsFailed.log")
    if os.path.exists(failed_log):
        os.remove(failed_log)
    # --timeout applies to tests without a TIMEOUT property of their own; --stop-time also
    # cuts those (example_render's 300 s), so a mutant that hangs a test ends in `timeout`
    # seconds whatever the test's own limit.
    stop = time.strftime("%H:%M:%S", time.localtime(time.time() + timeout))
    run(["ctest", "-j2", "-R", regex, "--timeout", str(timeout), "--stop-time", stop, "-LE", "long"]
        + (["--stop-on-failure"] if stop_on_failure else []), bdir)
    failed = []
    if os.path.exists(failed_log):
        for line in open(failed_log, encoding="utf-8"):
            if ":" in line:
                failed.append(line.strip().split(":", 1)[1])
    return sorted(failed)


SLOW_FILE_SECONDS = 8.0


def test_costs(bdir):
    """CTest's measured average run time of each test (Testing/Temporary/CTestCostData.txt)."""
    cost = {}
    path = os.path.join(bdir, "Testing", "Temporary", "CTestCostData.txt")
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            parts = line.split()
            if len(parts) == 3:
                try:
                    cost[parts[0]] = float(parts[2])
                except ValueError:
                    pass
    return cost


def run_tagged(bdir, ids, cover, file_tests, timeout):
    """Runs the tests of the test files naming the mutant's requirement ids; returns
    (failed tests, ids killed for). The files are run cheapest first; a slow file (its
    tests take SLOW_FILE_SECONDS or more) is skipped when every id it names is already
    killed for, since it could add nothing. So killed_for is exactly what running every
    file gives; only the list of failing tests may be shorter."""
    files = sorted({f for rid in ids for f in cover.get(rid, ())})
    credit = {f: {rid for rid in ids if f in cover.get(rid, ())} for f in files}
    cost = test_costs(bdir)
    fcost = {f: sum(cost.get(n, 1.0) for n in file_tests[f]) for f in files}
    cheap = [f for f in files if fcost[f] < SLOW_FILE_SECONDS]
    slow = sorted((f for f in files if fcost[f] >= SLOW_FILE_SECONDS), key=lambda f: fcost[f])
    ran, failed, killed = set(), set(), set()
    for group in [cheap] + [[f] for f in slow]:
        if group is not cheap and credit[group[0]] <= killed:
            continue
        names = {n for f in group for n in file_tests[f]} - ran
        failed |= set(run_tests(bdir, names, timeout))
        ran |= names
        killed |= {rid for f in group if set(file_tests[f]) & failed for rid in credit[f]}
    return sorted(failed), sorted(killed)


def load_equivalent():
    eq = {}
    if os.path.exists(EQUIVALENT):
        for n, line in enumerate(open(EQUIVALENT, encoding="utf-8"), 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 2 or not cols[1].strip():
                raise SystemExit(f"{EQUIVALENT}:{n}: expected 'MUTANT-ID<TAB>argument'")
            eq[cols[0]] = cols[1].strip()
    return eq


def load_state(path):
    state = {}
    if os.path.exists(path):
        for line in open(path, encoding="utf-8"):
            try:
                r = json.loads(line)
            except ValueError:
                continue  # a line cut by an interrupted run
            state[(r["id"], r["srchash"])] = r
    return state


def current(state, m):
    """m's record, unless it ran for other requirement ids than m names now (an annotation
    changed while the function did not): its tests were chosen by those ids, so it is
    redone."""
    r = state.get((m["id"], m["fhash"]))
    return r if r and r.get("ids", m["ids"]) == m["ids"] else None


def ran(state, m):
    """Whether m has a current result of a run (killed, survived or untested)."""
    r = current(state, m)
    return bool(r) and r["status"] in ("killed", "survived", "untested")


def git(*args):
    p = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return p.stdout if p.returncode == 0 else None


def seed_from_reports(report_dir, modules, mutants, fields, state, state_path,
                      skip_partial=False):
    """Imports the results of the committed reports docs/mutation/<module>.tsv into a state
    file that lacks them (a fresh checkout, a new --work). Every commit that wrote a report
    is read, newest first, so a result an earlier report held and a later one dropped (its
    sample was redrawn after other code of the module changed) is still found. A row is
    taken only when the mutant's function at that commit (its hash recomputed from the
    files of that commit) is the function of today and the row names the same requirement
    ids as the mutant does now; anything else stays to be run. Survivors are not imported,
    so they run again against today's tests. A kill is imported for the ids it was credited
    to that the mutant still names (marked partial when that is not all of them).
    With skip_partial (--rerun-partial) partial kills are not imported: they are to run
    again. `mutants` is every mutant of the modules, sampled or not. Returns the number
    of rows imported."""
    by_id = {m["id"]: m for m in mutants}
    imported = 0
    for mod in modules:
        path = os.path.join(report_dir, f"{mod}.tsv")
        rel_report = os.path.relpath(path, ROOT)
        commits = (git("log", "--format=%H", "--", rel_report) or "").split()
        files, funcs, _ = MODULES[mod]
        for commit in commits:
            report = git("show", f"{commit}:{rel_report}")
            if report is None:
                continue
            old_hash = {}
            for rel in files + [rel for rel, _ in EXTRA.get(mod, ())]:
                text = git("show", f"{commit}:{rel}")
                if text is None:
                    continue
                only = dict(EXTRA.get(mod, ())).get(rel, funcs) if rel not in files else funcs
                for m in mutants_of_file(rel, ROOT, only, fields, text=text):
                    old_hash[m["id"]] = m["fhash"]
            rows = [ln.split("\t") for ln in report.split("\n")
                    if ln and not ln.startswith("#")]
            with open(state_path, "a", encoding="utf-8") as out:
                for cols in rows:
                    if len(cols) < 9:
                        cols += [""] * (9 - len(cols))
                    mid, ids, status = cols[0], cols[5], cols[6]
                    m = by_id.get(mid)
                    if (not m or status not in ("killed", "stillborn", "untested")
                            or current(state, m) or old_hash.get(mid) != m["fhash"]):
                        continue
                    # A kill stays true for the ids it was credited to, whatever other ids
                    # the code names today; it is kept as a partial result, which
                    # --rerun-partial runs again for the ids it has no kill for.
                    killed_for = sorted(set(cols[7].split()) & set(m["ids"]))
                    same_ids = (ids.split() if ids != "-" else []) == m["ids"]
                    # An unannotated mutant (no ids then, none now) was killed by its
                    # module's own tests and is credited to no id: the kill holds as it is.
                    if status == "killed" and not killed_for and not (same_ids and not m["ids"]):
                        continue
                    if status == "untested" and not same_ids:
                        continue
                    rec = {"status": status, "failed": cols[8].split(),
                           "killed_for": killed_for, "id": mid, "srchash": m["fhash"],
                           "ids": m["ids"], "secs": 0,
                           "partial": status == "killed" and killed_for != m["ids"],
                           "seeded_from": f"{rel_report}@{commit[:12]}"}
                    if skip_partial and rec["partial"]:
                        continue
                    state[(mid, m["fhash"])] = rec
                    out.write(json.dumps(rec) + "\n")
                    imported += 1
    return imported


def write_report(report_dir, selected, state, eq, modules, args, total_by_module):
    """One file per module run, docs/mutation/<module>.tsv, so campaigns over different
    modules (on different branches) never touch the same report."""
    os.makedirs(report_dir, exist_ok=True)
    for mod in modules:
        write_module_report(os.path.join(report_dir, f"{mod}.tsv"),
                            [m for m in selected if m["module"] == mod], state, eq, mod, args,
                            total_by_module.get(mod, 0))


def write_module_report(path, selected, state, eq, mod, args, total):
    rows, summary = [], {}
    selected = sorted(selected, key=lambda m: (m["file"], m["line"], m["id"]))
    for m in selected:
        r = current(state, m)
        status = "equivalent" if m["id"] in eq else (r["status"] if r else "pending")
        summary[status] = summary.get(status, 0) + 1
        rows.append("\t".join([
            m["id"], m["module"], f'{m["file"]}:{m["line"]}', m["op"],
            m["orig"].strip().replace("\t", " ") + "  =>  " + m["new"].strip().replace("\t", " "),
            " ".join(m["ids"]) or "-", status,
            " ".join(r.get("killed_for", [])) if r else "",
            " ".join(r.get("failed", [])) if r else ""]))
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# Mutation report of module {mod}, written by scripts/mutate.py "
                "(docs/mutation.md).\n")
        f.write(f"# seed {args.seed}, at most {args.max_per_module} mutants per module"
                + (f", at least {args.per_req} per requirement (--per-req)" if args.per_req else "")
                + "\n")
        f.write(f"# module {mod}: {total} mutants, sampled or run earlier {sum(summary.values())}: "
                + ", ".join(f"{k} {v}" for k, v in sorted(summary.items())) + "\n")
        f.write("# id\tmodule\tlocation\toperator\tchange\trequirements\tstatus\tkilled_for"
                "\tfailed_tests\n")
        for row in rows:
            f.write(row + "\n")
        # Per requirement: how many of its implementation's mutants the tests naming it
        # killed, and which survived them.
        per = {}
        for m in selected:
            r = current(state, m)
            if m["id"] in eq or not r or r["status"] in ("stillborn", "pending"):
                continue
            for rid in m["ids"]:
                e = per.setdefault(rid, [0, 0, []])
                e[0] += 1
                if rid in r.get("killed_for", []):
                    e[1] += 1
                elif r["status"] == "survived":
                    e[2].append(m["id"])
        for rid in sorted(per):
            n, k, surv = per[rid]
            f.write(f"# req {rid}: killed {k} of {n}"
                    + (f"; survived: {' '.join(surv)}" if surv else "") + "\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--modules", default=DEFAULT_MODULES)
    ap.add_argument("--max-per-module", type=int, default=40)
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--per-req", type=int, default=0,
                    help="add mutants until every requirement id has at least this many")
    ap.add_argument("--per-req-only", default="",
                    help="top up only the ids starting with one of these comma-separated "
                         "prefixes (e.g. XMEM-,RT-022)")
    ap.add_argument("--work", default=os.path.join(ROOT, "build-mutation"))
    ap.add_argument("--shared", default=os.path.join(ROOT, "..", "shared"))
    ap.add_argument("--report-dir", default=REPORT_DIR,
                    help="where docs/mutation/<module>.tsv go")
    ap.add_argument("--list", action="store_true", help="list the sampled mutants and stop")
    ap.add_argument("--report-only", action="store_true", help="rewrite the report from state")
    ap.add_argument("--time-limit", type=int, default=0, help="stop after this many seconds")
    ap.add_argument("--seed-from-reports", action="store_true",
                    help="import the committed reports' results for mutants whose function "
                    "is unchanged since (a fresh --work resumes where the report left off)")
    ap.add_argument("--only", default="",
                    help="run only the sampled mutants named here (comma-separated ids, or "
                    "regular expressions matched against the whole id); the reports still "
                    "cover the whole sample")
    ap.add_argument("--rerun-survivors", action="store_true",
                    help="run surviving mutants again (after adding tests that should kill them)")
    ap.add_argument("--rerun-partial", action="store_true",
                    help="run again the mutants killed for only some of their ids (a test "
                    "naming another id may have been written since)")
    args = ap.parse_args()
    named_ids = [p for p in args.only.split(",") if p]

    def named(m):
        return any(m["id"] == p or re.fullmatch(p, m["id"]) for p in named_ids)

    modules = [m for m in args.modules.split(",") if m]
    for m in modules:
        if m not in MODULES:
            raise SystemExit(f"unknown module {m}; known: {', '.join(MODULES)}")

    work = os.path.abspath(args.work)
    src, bdir = os.path.join(work, "src"), os.path.join(work, "build")
    os.makedirs(work, exist_ok=True)
    log = os.path.join(work, "build.log")
    # --list and --report-only build nothing and leave the work tree alone (a campaign may
    # be running in it); they need the generated header of some earlier build.
    if not (args.list or args.report_only):
        sync_tree(ROOT, src)
        if not os.path.exists(os.path.join(bdir, "CMakeCache.txt")):
            env_cc = ["-DCMAKE_C_COMPILER_LAUNCHER=ccache"] if shutil.which("ccache") else []
            p = run(["cmake", "-S", src, "-B", bdir,
                     f"-DXPHMG_SHARED={os.path.abspath(args.shared)}"] + env_cc, ROOT, log=log)
            if p.returncode:
                raise SystemExit(f"configure failed: see {log}")
        if not build_targets(bdir, None, log):
            raise SystemExit(f"the unmutated tree does not build: see {log}")
    header = os.path.join(bdir, "target", "include", "xphmg_csr.h")
    if not os.path.exists(header):
        header = os.path.join(ROOT, "build", "target", "include", "xphmg_csr.h")
    if not os.path.exists(header):
        raise SystemExit("no generated xphmg_csr.h: build the project (or run without --list)")
    fields = load_fields(header)

    eq = load_equivalent()
    state_path = os.path.join(work, "state.jsonl")
    state = load_state(state_path)
    if args.rerun_survivors:
        state = {k: v for k, v in state.items() if v["status"] != "survived"}
    if args.rerun_partial:
        state = {k: v for k, v in state.items()
                 if not (v["status"] == "killed" and sorted(v.get("killed_for", [])) != v["ids"])}

    # Enumerate every mutant first: the committed reports are imported per mutant, over
    # the whole module, so a result outside today's sample (drawn before the module's
    # code changed) is kept when its function is unchanged instead of dropped.
    everything, total_by_module = {}, {}
    for mod in modules:
        files, funcs, _ = MODULES[mod]
        allm, extra = [], []
        for rel in files:
            for m in mutants_of_file(rel, ROOT, funcs, fields):
                m["module"] = mod
                allm.append(m)
        for rel, only in EXTRA.get(mod, ()):
            for m in mutants_of_file(rel, ROOT, only, fields):
                m["module"] = mod
                extra.append(m)
        everything[mod] = (allm, extra)
        total_by_module[mod] = len(allm) + len(extra)
    if args.seed_from_reports and not args.list:
        n = seed_from_reports(args.report_dir, modules,
                              [m for a, e in everything.values() for m in a + e], fields,
                              state, state_path, skip_partial=args.rerun_partial)
        print(f"imported {n} results from the committed reports", file=sys.stderr)

    # Sample. Mutants outside the sample whose current result is in the state (an earlier
    # sample, before the module's code changed) stay in the report.
    selected, picks, earlier = [], [], []
    for mod in modules:
        allm, extra = everything[mod]
        rng = random.Random(f"{args.seed}:{mod}")
        # Run in the sampled (random) order, so the part of a sample that a run cut short
        # by --time-limit covers is itself a random sample of the module, not its first
        # files.
        if len(allm) <= args.max_per_module:
            pick = list(allm)
            rng.shuffle(pick)
        else:
            pick = rng.sample(allm, args.max_per_module)
        # Stratify by requirement: a random sample of a large module leaves many ids with no
        # mutant, so they could never count as covered; top each id up to --per-req mutants
        # of its own code, drawn in a seeded order and run after the random part.
        if args.per_req:
            # A requirement's mutants that already ran (current results) count too.
            have = {}
            for m in pick + [m for m in allm if m not in pick and ran(state, m)]:
                for rid in m["ids"]:
                    have[rid] = have.get(rid, 0) + 1
            rest = [m for m in allm if m not in pick] + extra
            random.Random(f"{args.seed}:{mod}:per-req").shuffle(rest)
            for m in rest:
                if any(have.get(rid, 0) < args.per_req for rid in m["ids"]
                       if rid.startswith(tuple(args.per_req_only.split(",")))):
                    pick.append(m)
                    for rid in m["ids"]:
                        have[rid] = have.get(rid, 0) + 1
        # A mutant named by --only runs even where the sample did not draw it (a survivor
        # of an earlier sample, before the module's code changed).
        pick += [m for m in allm + extra if m not in pick and named(m)]
        picks.append(pick)
        earlier += [m for m in allm + extra if m not in pick and ran(state, m)]
    # Round-robin over the modules, so a run cut short by --time-limit covers each of them.
    for i in range(max((len(p) for p in picks), default=0)):
        selected += [p[i] for p in picks if i < len(p)]
    if args.list:
        for m in selected:
            print(f'{m["id"]}\t{m["file"]}:{m["line"]}\t{" ".join(m["ids"]) or "-"}\t'
                  f'{m["new"].strip()}')
        return 0

    if args.report_only:
        write_report(args.report_dir, selected + earlier, state, eq, modules, args,
                     total_by_module)
        return 0

    tests = ctest_tests(bdir)
    known = build_target_names(bdir)
    all_tests = [t["name"] for t in tests if "long" not in t["labels"]]
    cover = scan_tags(ROOT)
    file_tests = {}
    for files in cover.values():
        for f in files:
            if f not in file_tests:
                file_tests[f] = tests_of_file(f, tests)
    by_name = {t["name"]: t for t in tests}

    unknown = [p for p in named_ids
               if not any(m["id"] == p or re.fullmatch(p, m["id"]) for m in selected)]
    if unknown:
        raise SystemExit("--only: not in the sample: " + ", ".join(unknown))

    def to_run(m):
        return m["id"] not in eq and not current(state, m) and (not named_ids or named(m))

    # Baseline: every test a mutant will run passes on the unmutated tree.
    needed = set()
    for m in selected:
        if not to_run(m):
            continue
        if not m["ids"]:
            fb = MODULES[m["module"]][2]
            needed.update(n for n in all_tests if not fb or re.match(fb, n))
        for rid in m["ids"]:
            for f in cover.get(rid, ()):
                needed.update(file_tests[f])
    t0 = time.time()
    base_failed = run_tests(bdir, needed, 600)
    if base_failed:
        raise SystemExit("tests fail without a mutant: " + ", ".join(base_failed))
    timeout = max(30, int(3 * (time.time() - t0)) + 10)

    start = time.time()
    done = 0
    for m in selected:
        key = (m["id"], m["fhash"])
        if not to_run(m):
            continue
        if args.time_limit and time.time() - start > args.time_limit:
            print("time limit reached; rerun to resume", file=sys.stderr)
            break
        if m["ids"]:
            tfiles = {f for rid in m["ids"] for f in cover.get(rid, ())}
            names = {n for f in tfiles for n in file_tests[f]}
        else:
            fb = MODULES[m["module"]][2]
            tfiles = set()
            names = {n for n in all_tests if re.match(fb, n)} if fb else set(all_tests)
        targets = {"xphmg-sim"}
        for n in names:
            targets |= test_targets(by_name[n]["command"], bdir, known)
        t_mut = time.time()
        path = os.path.join(src, m["file"])
        orig = open(path, encoding="utf-8").read()
        lines = orig.split("\n")
        assert lines[m["line"] - 1] == m["orig"], f"stale mutant {m['id']}"
        lines[m["line"] - 1] = m["new"]
        try:
            with open(path, "w", encoding="utf-8") as f:
                f.write("\n".join(lines))
            if not build_targets(bdir, targets, log):
                rec = {"status": "stillborn", "failed": [], "killed_for": []}
            else:
                if m["ids"]:
                    failed, killed_for = run_tagged(bdir, m["ids"], cover, file_tests, timeout)
                else:
                    failed, killed_for = run_tests(bdir, names, timeout, True), []
                rec = {"status": "killed" if failed else ("survived" if names else "untested"),
                       "failed": failed, "killed_for": killed_for}
        finally:
            with open(path, "w", encoding="utf-8") as f:
                f.write(orig)
        rec.update({"id": m["id"], "srchash": m["fhash"], "ids": m["ids"], "secs": round(time.time() - t_mut, 1)})
        state[key] = rec
        with open(state_path, "a", encoding="utf-8") as f:
            f.write(json.dumps(rec) + "\n")
        done += 1
        print(f'[{done}] {rec["status"]:9} {rec["secs"]:6.1f}s {m["id"]} '
              f'{" ".join(rec["failed"][:4])}', flush=True)
        write_report(args.report_dir, selected + earlier, state, eq, modules, args,
                     total_by_module)
    build_targets(bdir, None, log)  # leave the work tree built unmutated
    write_report(args.report_dir, selected + earlier, state, eq, modules, args, total_by_module)
    return 0


if __name__ == "__main__":
    sys.exit(main())
