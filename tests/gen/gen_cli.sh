#!/usr/bin/env bash
# gen_cli — xphmg-gen's exit codes and messages on bad input: 2 usage, 3 a spec that
# does not load (the message names the file), 1 an output that cannot be written
# (and no half-written file left behind); never a crash.
#   gen_cli.sh XPHMG_GEN WORK_DIR SPEC
set -u
gen=$1 work=$2 spec=$3
mkdir -p "$work"
. "$(dirname "$0")/../cli_expect.sh"
printf '<ISA><broken>' >"$work/bad.xml"
expect 2 usage -- "$gen"
expect 2 "unknown argument" -- "$gen" -x "$spec" --frob
expect 2 "needs an argument" -- "$gen" -x "$spec" --ops
expect 2 usage -- "$gen" -x "$spec" --guest-test "$work/g.c"
expect 3 "missing.xml" -- "$gen" -x "$work/missing.xml" --ops "$work/o.h"
expect 3 "bad.xml" -- "$gen" -x "$work/bad.xml" --ops "$work/o.h"
expect 1 "cannot write" -- "$gen" -x "$spec" --ops "$work/no/such/dir/o.h"
[ ! -e "$work/no/such/dir/o.h.tmp" ] || { echo "FAIL: temporary file left"; fails=$((fails + 1)); }
# a good run writes all three outputs
"$gen" -x "$spec" --ops "$work/o.h" --dec "$work/d.c" --header "$work/i.h" 2>/dev/null ||
    { echo "FAIL: good run"; fails=$((fails + 1)); }
for f in o.h d.c i.h; do [ -s "$work/$f" ] || { echo "FAIL: $f empty"; fails=$((fails + 1)); }; done
cli_done gen_cli
