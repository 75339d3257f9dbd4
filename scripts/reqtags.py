"""Requirement tags: the `REQ: <id> ...` comments in tests/ (and in implementation code
for scripts/mutate.py). One reader for scripts/gen-conformance.py and scripts/mutate.py."""
import os
import re

ID = re.compile(r"\b((?:CAP|XMEM|RT)-\d{3})\b")
TAG = re.compile(r"REQ:([^*\n]*)")


def scan_tags(root):
    """requirement id -> set of files under root/tests (relative to root) tagging it."""
    cover = {}
    for dirpath, _, files in os.walk(os.path.join(root, "tests")):
        for name in files:
            path = os.path.join(dirpath, name)
            try:
                text = open(path, encoding="utf-8", errors="replace").read()
            except OSError:
                continue
            rel = os.path.relpath(path, root)
            for tag in TAG.findall(text):
                for rid in ID.findall(tag):
                    cover.setdefault(rid, set()).add(rel)
    return cover
