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
mutation-checked", never as covered. A tagged requirement that no code mutant can stand
for (a layout that is data in spec/xphmg.xml, a rule on software) is listed in
docs/verified-without-mutants.tsv (id TAB how its tags were checked) and reported apart,
never as covered.

The text about which modules ran and the mutation scores are computed from the reports:
per module and over the modules of src/ext and src/num, score = killed / (killed +
survived + untested), i.e. the mutants run less the equivalent and stillborn ones.

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
WITHOUT_MUTANTS = os.path.join(ROOT, "docs", "verified-without-mutants.tsv")
MUTATION_DIR = os.path.join(ROOT, "docs", "mutation")
from reqtags import ID, scan_tags  # scripts/reqtags.py
from mutate import MODULES as MUTATE_MODULES  # scripts/mutate.py: module -> (files, ...)

MODULES = tuple(MUTATE_MODULES)
# The score target is over these trees (issue 9: src/ext and src/num).
SCORED_TREES = ("src/ext/", "src/num/")


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


def load_id_text(path):
    """Maps requirement id -> text from an `ID<TAB>text` file (docs/uncovered.tsv,
    docs/verified-without-mutants.tsv)."""
    out = {}
    if not os.path.exists(path):
        return out
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 2 or not ID.fullmatch(cols[0]) or not cols[1].strip():
                raise SystemExit(f"{path}:{n}: expected 'ID<TAB>text'")
            if cols[0] in out:
                raise SystemExit(f"{path}:{n}: {cols[0]} given twice")
            out[cols[0]] = cols[1].strip()
    return out


def load_reasons():
    """Maps requirement id -> why no test covers it yet (docs/uncovered.tsv)."""
    return load_id_text(REASONS)


def load_mutation():
    """(modules with a report, modules without, per-module summaries,
    {id: [mapped, killed_for_id, survived, equivalent]},
    {module: {status: count, "total": mutants}}, {mutant id: status} over the scored modules)
    from docs/mutation/<module>.tsv. A mutant listed by two modules (xmem_ext mutates
    functions of cap and rt) counts once per requirement and once in the score: its most
    informative row (killed for the id, else run, else argued)."""
    run, per, summaries, counts = [], {}, [], {}
    rank = {"killed_for": 3, "killed": 2, "survived": 2, "untested": 2, "equivalent": 1}
    best = {}  # (requirement, mutant id) -> (rank, status, killed for the requirement)
    order = ("killed", "survived", "untested", "equivalent", "stillborn", "pending")
    scored_status = {}  # mutant id -> its most informative status in a scored module
    for mod in MODULES:
        path = os.path.join(MUTATION_DIR, f"{mod}.tsv")
        if not os.path.exists(path):
            continue
        run.append(mod)
        n = counts.setdefault(mod, {"total": 0})
        with open(path, encoding="utf-8") as f:
            for line in f:
                line = line.rstrip("\n")
                if line.startswith("# module "):
                    summaries.append(line[len("# module "):])
                    head = line[len("# module "):].split(":", 2)
                    if len(head) > 1 and head[1].split()[0].isdigit():
                        n["total"] = int(head[1].split()[0])
                    continue
                if not line or line.startswith("#"):
                    continue
                cols = line.split("\t")
                if len(cols) < 8:
                    raise SystemExit(f"{path}: malformed row: {line[:80]}")
                ids, status, killed_for = cols[5].split(), cols[6], cols[7].split()
                n[status] = n.get(status, 0) + 1
                if scored(mod) and status in order:
                    old = scored_status.get(cols[0])
                    if old is None or order.index(status) < order.index(old):
                        scored_status[cols[0]] = status
                for rid in ids:
                    if rid == "-":
                        continue
                    per.setdefault(rid, [0, 0, 0, 0])
                    if status in ("stillborn", "pending"):
                        continue
                    r = rank["killed_for"] if rid in killed_for else rank.get(status, 0)
                    if r > best.get((rid, cols[0]), (0,))[0]:
                        best[(rid, cols[0])] = (r, status, rid in killed_for)
    for (rid, _), (_, status, killed) in best.items():
        e = per[rid]
        if status == "equivalent":
            e[3] += 1
            continue
        e[0] += 1
        if killed:
            e[1] += 1
        elif status == "survived":
            e[2] += 1
    return run, [m for m in MODULES if m not in run], summaries, per, counts, scored_status


def scored(mod):
    """Whether every file of the module lies in the trees the score target is over."""
    return all(f.startswith(SCORED_TREES) for f in MUTATE_MODULES[mod][0])


def score_row(name, n):
    """A row of the score table from status counts."""
    k, sv, ut = n.get("killed", 0), n.get("survived", 0), n.get("untested", 0)
    sampled = sum(v for key, v in n.items() if key != "total")
    den = k + sv + ut
    score = f"{100 * k / den:.1f}%" if den else "-"
    cols = [n.get("total", 0), sampled, n.get("pending", 0), k, sv + ut,
            n.get("equivalent", 0), n.get("stillborn", 0)]
    return f"| {name} | " + " | ".join(str(c) for c in cols) + f" | {score} |"


def score_table(run, counts, scored_status):
    lines = ["Mutation score = killed / (run - equivalent - stillborn), from the reports "
             "(`pending`: sampled, not run yet; a survivor is a mutant no test killed):", "",
             "| module | mutants | sampled | pending | killed | survived | equivalent "
             "| stillborn | score |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    # The total counts each mutant once (a module such as xmem_ext re-runs functions of
    # files that other modules own), and the mutants of each file once.
    total, files = {"total": 0}, set()
    for mod in run:
        lines.append(score_row(mod, counts[mod]))
        own = set(MUTATE_MODULES[mod][0])
        if scored(mod) and not own <= files:
            total["total"] += counts[mod].get("total", 0)
        if scored(mod):
            files |= own
    for status in scored_status.values():
        total[status] = total.get(status, 0) + 1
    mods = [m for m in run if scored(m)]
    lines.append(score_row("**src/ext + src/num** (" + ", ".join(mods) + ")", total))
    den = total.get("killed", 0) + total.get("survived", 0) + total.get("untested", 0)
    if den:
        lines += ["", f"Mutation score over src/ext and src/num: "
                  f"{100 * total.get('killed', 0) / den:.1f}% (issue 9's target: at least 90%), "
                  f"{total.get('survived', 0) + total.get('untested', 0)} survivor(s), "
                  f"{total.get('pending', 0)} sampled mutant(s) not run yet."]
    return lines


def without_mutants_lines(vwm, cover):
    if not vwm:
        return []
    lines = ["Tagged requirements that no code mutant stands for (a layout that is data in "
             "`spec/xphmg.xml`, a rule on software): how their tags were checked "
             "(`docs/verified-without-mutants.tsv`, `docs/mutation.md`). They do not count "
             "as covered.", "", "| id | how its tags were checked |", "|---|---|"]
    for rid in sorted(vwm):
        lines.append(f"| {rid} | {vwm[rid]} |")
    return lines + [""]


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


def status_of(rid, cover, per, vwm):
    if rid not in cover:
        return "uncovered"
    e = per.get(rid)
    if not e or e[0] == 0:
        return "nomutant" if rid in vwm else "unchecked"
    return "covered" if e[1] else "unkilled"


def render(reqs, cover, reasons, mutation, vwm):
    run, not_run, summaries, per, counts, scored_status = mutation
    pending = [m for m in run if counts[m].get("pending")]
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
             "the tests that name it. **tagged, verified without mutants**: no code mutant "
             "can stand for it (listed below with how its tags were checked). "
             "**uncovered**: no test names it (reason in `docs/uncovered.tsv`).", "",
             "Mutation-run modules (a seeded sample of each, `docs/mutation/<module>.tsv`): "
             + (", ".join(run) if run else "none") + ". "
             + ("Modules with sampled mutants not run yet: " + ", ".join(pending) + ". "
                if pending else "Every sampled mutant has run. ")
             + ("Not yet mutation-run: " + ", ".join(not_run) + ". " if not_run else "")
             + "How to run: `cmake --build build --target mutation`, `docs/mutation.md`.",
             ""]
    if run:
        lines += score_table(run, counts, scored_status) + [""]
    lines.append("| spec | MUST | covered (mutant killed) | tagged, not yet mutation-checked "
                 "| tagged, no mutant killed | tagged, verified without mutants | uncovered |")
    lines.append("|---|---|---|---|---|---|---|")
    kinds = ("covered", "unchecked", "unkilled", "nomutant", "uncovered")
    total = dict.fromkeys(kinds, 0)
    for spec in ("CAP", "XMEM", "RT"):
        rs = [r for r in must if r["spec"] == spec]
        n = dict.fromkeys(kinds, 0)
        for r in rs:
            n[status_of(r["id"], cover, per, vwm)] += 1
        for k in kinds:
            total[k] += n[k]
        lines.append(f"| {spec} | {len(rs)} | " + " | ".join(str(n[k]) for k in kinds) + " |")
    lines.append(f"| all | {len(must)} | " + " | ".join(str(total[k]) for k in kinds) + " |")
    lines.append("")
    lines += without_mutants_lines(vwm, cover)
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
            if cell == "not yet mutation-checked" and r["id"] in vwm:
                cell = "verified without mutants (see above)"
            lines.append(f"| {r['id']} | {r['section']} | {cell} | {tests} |")
        lines.append("")
    return "\n".join(lines)


def main():
    reqs, cover, reasons = load_requirements(), scan_tests(), load_reasons()
    vwm = load_id_text(WITHOUT_MUTANTS)
    known = {r["id"] for r in reqs if r["level"] == "MUST"}
    for rid in vwm:
        if rid not in known:
            raise SystemExit(f"{WITHOUT_MUTANTS}: {rid} is not a MUST requirement")
        if rid not in cover:
            raise SystemExit(f"{WITHOUT_MUTANTS}: no test names {rid}: give it a reason in "
                             "docs/uncovered.tsv instead")
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
    text = render(reqs, cover, reasons, load_mutation(), vwm)
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
