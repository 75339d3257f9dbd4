#!/usr/bin/env python3
"""Writes docs/conformance.md: every MUST requirement of ../shared/spec/requirements.tsv
with the tests that name it (a `REQ:` tag listing the id, anywhere under tests/), the
mutation score of those tests from the committed docs/mutation/<module>.tsv
(scripts/mutate.py), and the requirements no test names, each with the reason given in
docs/uncovered.tsv (id TAB reason). A reason for a requirement that a test names is an
error (the file must not go stale).

A requirement counts as covered only when a mutant of its implementation (code annotated
with its id, see scripts/mutate.py) was killed by a test that names it. A tagged
requirement whose implementation has not been mutation-run yet is reported as "not yet
mutation-checked", never as covered.

Usage: scripts/gen-conformance.py [--check] [--check-reasons]
  --check          exit 1 if docs/conformance.md is stale
  --check-reasons  exit 1 if a MUST requirement that no test names has no reason
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REQS = os.environ.get("XPHMG_REQUIREMENTS",
                      os.path.join(ROOT, "..", "shared", "spec", "requirements.tsv"))
OUT = os.path.join(ROOT, "docs", "conformance.md")
REASONS = os.path.join(ROOT, "docs", "uncovered.tsv")
MUTATION_DIR = os.path.join(ROOT, "docs", "mutation")
MODULES = ("cap", "pmask", "num", "rvfp", "xmem", "rt", "ext", "csr", "trap")  # scripts/mutate.py
from reqtags import ID, scan_tags  # scripts/reqtags.py


def load_requirements():
    reqs = []
    with open(REQS, encoding="utf-8") as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) < len(header):
                continue
            reqs.append(dict(zip(header, cols)))
    return reqs


def scan_tests():
    """Maps requirement id -> sorted list of test files (relative paths) tagging it."""
    return {k: sorted(v) for k, v in scan_tags(ROOT).items()}


def load_reasons():
    """Maps requirement id -> why no test covers it yet (docs/uncovered.tsv)."""
    reasons = {}
    if not os.path.exists(REASONS):
        return reasons
    with open(REASONS, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 2 or not ID.fullmatch(cols[0]) or not cols[1].strip():
                raise SystemExit(f"{REASONS}:{n}: expected 'ID<TAB>reason'")
            if cols[0] in reasons:
                raise SystemExit(f"{REASONS}:{n}: {cols[0]} given twice")
            reasons[cols[0]] = cols[1].strip()
    return reasons


def load_mutation():
    """(modules run, modules not run, per-module summaries,
    {id: [mapped, killed_for_id, survived, equivalent]}) from docs/mutation/<module>.tsv.
    A mutant sampled by two modules (code one module's requirements share with another's,
    such as the profile loader's check of RT's dependencies) counts once, with the
    report that has run it."""
    run, per, summaries, rows = [], {}, [], {}
    for mod in MODULES:
        path = os.path.join(MUTATION_DIR, f"{mod}.tsv")
        if not os.path.exists(path):
            continue
        run.append(mod)
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if line.startswith("# module "):
                    summaries.append(line[len("# module "):])
                    continue
                if not line or line.startswith("#"):
                    continue
                cols = line.split("\t")
                if len(cols) < 8:
                    raise SystemExit(f"{path}: malformed row: {line[:80]}")
                if cols[0] not in rows or rows[cols[0]][6] == "pending":
                    rows[cols[0]] = cols
    for cols in rows.values():
        ids, status, killed_for = cols[5].split(), cols[6], cols[7].split()
        for rid in ids:
            if rid == "-":
                continue
            e = per.setdefault(rid, [0, 0, 0, 0])
            if status in ("stillborn", "pending"):
                continue
            if status == "equivalent":
                e[3] += 1
                continue
            e[0] += 1
            if rid in killed_for:
                e[1] += 1
            elif status == "survived":
                e[2] += 1
    return run, [m for m in MODULES if m not in run], summaries, per


def mutation_cell(rid, tagged, per):
    e = per.get(rid)
    if not tagged:
        return "-"
    if not e or e[0] == 0:
        return "not yet mutation-checked"
    cell = f"{e[1]}/{e[0]} killed ({100 * e[1] // e[0]}%)"
    if e[3]:
        cell += f", {e[3]} equivalent"
    return cell


def status_of(rid, cover, per):
    if rid not in cover:
        return "uncovered"
    e = per.get(rid)
    if not e or e[0] == 0:
        return "unchecked"
    return "covered" if e[1] else "unkilled"


def render(reqs, cover, reasons, mutation):
    run, not_run, summaries, per = mutation
    must = [r for r in reqs if r["level"] == "MUST"]
    lines = ["# Conformance: MUST requirements and the tests that cover them", "",
             "Generated by `scripts/gen-conformance.py` from "
             "`../shared/spec/requirements.tsv`, the `REQ:` tags under `tests/`, "
             "`docs/mutation/<module>.tsv` and `docs/uncovered.tsv`. Do not edit by hand.", "",
             "A requirement is **covered** only when a mutant of its implementation (code "
             "annotated `REQ: <id>`, see `scripts/mutate.py`) was killed by a test that names "
             "it. **tagged, not yet mutation-checked**: tests name it, but no mutant of its "
             "implementation has been run (its module has not been mutation-run, or its "
             "implementation is not annotated), so the tags are unverified. **tagged, no "
             "mutant killed**: mutants of its implementation were run and every one survived "
             "the tests that name it. **uncovered**: no test names it (reason in "
             "`docs/uncovered.tsv`).", "",
             "Mutation-run modules (a seeded sample of each; pending = sampled, not run yet): "
             + (", ".join(run) if run else "none") + ". Not yet mutation-run: "
             + (", ".join(not_run) if not_run else "all of src/ext, src/num and the hart "
                "CSR/trap code") + " (`cmake --build build --target mutation`, "
             "`docs/mutation.md`).", ""]
    for line in summaries:
        lines.append(f"- {line}")
    if summaries:
        lines.append("")
    lines.append("| spec | MUST | covered (mutant killed) | tagged, not yet mutation-checked "
                 "| tagged, no mutant killed | uncovered |")
    lines.append("|---|---|---|---|---|---|")
    kinds = ("covered", "unchecked", "unkilled", "uncovered")
    total = dict.fromkeys(kinds, 0)
    for spec in ("CAP", "XMEM", "RT"):
        rs = [r for r in must if r["spec"] == spec]
        n = dict.fromkeys(kinds, 0)
        for r in rs:
            n[status_of(r["id"], cover, per)] += 1
        for k in kinds:
            total[k] += n[k]
        lines.append(f"| {spec} | {len(rs)} | " + " | ".join(str(n[k]) for k in kinds) + " |")
    lines.append(f"| all | {len(must)} | " + " | ".join(str(total[k]) for k in kinds) + " |")
    lines.append("")
    for spec in ("CAP", "XMEM", "RT"):
        lines.append(f"## {spec}")
        lines.append("")
        lines.append("| id | section | mutation score of its tests | tests |")
        lines.append("|---|---|---|---|")
        for r in must:
            if r["spec"] != spec:
                continue
            tests = ", ".join(f"`{t}`" for t in cover.get(r["id"], []))
            if not tests:
                why = reasons.get(r["id"])
                tests = "**uncovered**" + (f": {why}" if why else "")
            cell = mutation_cell(r["id"], r["id"] in cover, per)
            lines.append(f"| {r['id']} | {r['section']} | {cell} | {tests} |")
        lines.append("")
    return "\n".join(lines)


def main():
    reqs, cover, reasons = load_requirements(), scan_tests(), load_reasons()
    known = {r["id"] for r in reqs if r["level"] == "MUST"}
    for rid in reasons:
        if rid not in known:
            raise SystemExit(f"{REASONS}: {rid} is not a MUST requirement")
        if rid in cover:
            raise SystemExit(f"{REASONS}: {rid} is covered by {', '.join(cover[rid])}: "
                             "remove its reason")
    if "--check-reasons" in sys.argv:
        missing = [r["id"] for r in reqs
                   if r["level"] == "MUST" and r["id"] not in cover and r["id"] not in reasons]
        if missing:
            print(f"{REASONS}: no reason for the uncovered MUST requirement(s) "
                  + ", ".join(missing), file=sys.stderr)
            return 1
        return 0
    text = render(reqs, cover, reasons, load_mutation())
    if "--check" in sys.argv:
        old = open(OUT, encoding="utf-8").read() if os.path.exists(OUT) else ""
        if old != text:
            print("docs/conformance.md is stale: run scripts/gen-conformance.py", file=sys.stderr)
            return 1
        return 0
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
