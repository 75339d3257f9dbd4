#!/bin/sh
# xphmg-isa on the toy fixture: verbs, output lines and exit codes (docs/tools.md).
# Expected words are the hand-computed ones of test_isa_toy.c.
set -u
cli=$1
toy=$2
tmp=${TMPDIR:-/tmp}/isa_cli.$$
trap 'rm -f "$tmp".*' EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$cli" --help > "$tmp.help" || fail "--help exit"
grep -q "exit status" "$tmp.help" || fail "--help text"

"$cli" -x "$toy" -d 17FD FFF88354 > "$tmp.d"; rc=$?
[ $rc -eq 0 ] || fail "-d exit $rc"
grep -q '^00000000: 17fd  addi r3, -6$' "$tmp.d" || fail "-d addi line"
grep -q '^00000002: fff88354  ld r2,-8(r5)$' "$tmp.d" || fail "-d ld line (address advances by 2)"
grep -q 'IMM16=65528 \[31:16\]' "$tmp.d" || fail "-d field line"
grep -q 'group     MEM / LOAD' "$tmp.d" || fail "-d group line"

"$cli" -x "$toy" -A 100 -d 020A > "$tmp.b"; rc=$?
[ $rc -eq 0 ] || fail "-A exit $rc"
grep -q 'bnz r1,114' "$tmp.b" || fail "branch text"
grep -q 'conditional, target 0x114' "$tmp.b" || fail "branch info"

"$cli" -x "$toy" -d 2000 > /dev/null; rc=$?
[ $rc -eq 1 ] || fail "unknown word exit $rc"

out=$("$cli" -x "$toy" -a "ld r2,-8(r5)"); rc=$?
[ $rc -eq 0 ] && [ "$out" = "fff88354" ] || fail "-a gave '$out' exit $rc"
"$cli" -x "$toy" -a "addi r3,-7" 2> /dev/null; rc=$?
[ $rc -eq 1 ] || fail "-a bad exit $rc"

# two specs: the toy one does not know rt.bbox, the second (if given) does:
# rd = a1 (11) << 7, rs1 = t6 (31) << 15, funct3 6 << 12, opcode 0x0B -> 0x000fe58b
if [ $# -ge 3 ] && [ -f "$3" ]; then
  out=$("$cli" -x "$toy" -x "$3" -a "rt.bbox a1,t6"); rc=$?
  [ $rc -eq 0 ] && [ "$out" = "000fe58b" ] || fail "two specs: '$out' exit $rc"
  XPHMG_SPEC="$toy:$3" "$cli" -a "halt" > "$tmp.env"; rc=$?
  [ $rc -eq 0 ] && [ "$(cat "$tmp.env")" = "0000bf00" ] || fail "XPHMG_SPEC list: exit $rc"
fi

"$cli" -x "$toy" -i fop > "$tmp.i"; rc=$?
[ $rc -eq 0 ] || fail "-i exit $rc"
grep -q 'syntax: fop {RD},{RS}\[,{RM}\]' "$tmp.i" || fail "-i syntax"
grep -q 'default 7' "$tmp.i" || fail "-i default"
"$cli" -x "$toy" -i nosuch 2> /dev/null; rc=$?
[ $rc -eq 1 ] || fail "-i unknown exit $rc"

printf '# words and text\n17FD\nli r1,0x1234\n\nhalt\n' > "$tmp.s"
"$cli" -x "$toy" -s "$tmp.s" > "$tmp.so"; rc=$?
[ $rc -eq 0 ] || fail "-s exit $rc"
grep -q '^00000002: 12348520  li r1,0x1234$' "$tmp.so" || fail "-s assembled line"
grep -q '^00000006: 0000bf00  halt$' "$tmp.so" || fail "-s halt line"

"$cli" -x "$toy" > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "no verb exit $rc"
"$cli" -x "$toy" -q > /dev/null 2>&1; rc=$?
[ $rc -eq 2 ] || fail "bad option exit $rc"
"$cli" -x /nonexistent.xml -d 00 > /dev/null 2>&1; rc=$?
[ $rc -eq 3 ] || fail "missing spec exit $rc"
echo "hello" > "$tmp.bad"
"$cli" -x "$tmp.bad" -d 00 2> "$tmp.err"; rc=$?
[ $rc -eq 3 ] || fail "bad spec exit $rc"
grep -q "$tmp.bad:1: " "$tmp.err" || fail "bad spec message"
echo "ok"
