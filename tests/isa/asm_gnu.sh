#!/usr/bin/env bash
# asm_gnu — the assembler's aliases (X-20) against GNU binutils, the independent oracle:
#
#   asm_gnu.sh XPHMG_ISA ALLINSN GNU_GCC GNU_OBJDUMP PSEUDO_FILE WORK -x SPEC
#
#   A. Every 32-bit non-XPHMG word of ALLINSN (the objdump_diff word list: every encoding,
#      with fields set to the values alias conditions test) is disassembled by GNU objdump
#      in its default style (li, mv, ret, csrr, fmv.d, blez ...); each text, pasted into
#      `xphmg-isa -s` at its address, must assemble to GNU's word. (16-bit words are left
#      out: their alias text names the 32-bit instruction, which is what xphmg-isa
#      assembles, as GNU as does without RVC.)
#   B. PSEUDO_FILE: pseudo-instructions GNU objdump never prints (ble, bgt, sgt, csrwi,
#      fsrmi IMM ...), assembled by GNU as (-march=rv64g) and by xphmg-isa: same words.
#
# Exit: 0 pass, 1 mismatch, 77 skipped (no riscv64-unknown-elf-gcc).
set -u
isa=$1 allinsn=$2 gcc=$3 god=$4 pseudo=$5 work=$6
shift 6
if [ ! -x "$gcc" ] || [ ! -x "$god" ]; then
    echo "SKIP: riscv64-unknown-elf-gcc/objdump not found"
    exit 77
fi
mkdir -p "$work"
bad=0
# compare NAME GNU_WORDS XPHMG_WORDS TEXTS: line-by-line word lists
compare() {
    local n
    n=$(paste "$2" "$3" "$4" | awk -F'\t' '$1 != $2 { if (++b <= 20) print "  " $3 ": GNU " $1 ", xphmg " $2 } END { print b + 0 > "/dev/stderr" }' 2>"$work/$1.bad")
    [ -n "$n" ] && echo "$n"
    local b
    b=$(cat "$work/$1.bad")
    [ "$(wc -l <"$2")" -eq "$(wc -l <"$3")" ] || { echo "$1: line counts differ"; b=$((b + 1)); }
    echo "asm_gnu $1: $(wc -l <"$2") lines, $b mismatches"
    bad=$((bad + b))
}
# xphmg-isa -s output: the word of every assembled line, in order
words_of() { grep -E '^[0-9a-f]{8,16}: [0-9a-f]+  ' | awk '{print $2}'; }

# A
"$allinsn" "$@" | grep -E '^\s\.insn\s0x[0-9a-f]{8}$' >"$work/a32.all.s" || exit 1
"$gcc" -march=rv64gc_zihintpause -mabi=lp64d -c "$work/a32.all.s" -o "$work/a32.all.o" || exit 1
# leave out the words GNU does not decode (fcvt.d.s with rm != 0, errata P-90) and those
# it prints with an "unknown" operand (reserved rm, empty fence set: no assembler takes
# that text, P-284): the others keep consecutive addresses, so branch targets stay right
"$god" -d "$work/a32.all.o" | grep -P '^\s+[0-9a-f]+:\t' |
    awk -F'\t' '$3 == ".4byte" || $4 ~ /(^|,)unknown(,|$)/ {print $2}' |
    tr -d ' ' | sed 's/^/0x/' >"$work/a32.undecoded"
grep -vwF -f "$work/a32.undecoded" "$work/a32.all.s" >"$work/a32.s"
"$gcc" -march=rv64gc_zihintpause -mabi=lp64d -c "$work/a32.s" -o "$work/a32.o" || exit 1
"$god" -d "$work/a32.o" | grep -P '^\s+[0-9a-f]+:\t' >"$work/a32.dis"
awk -F'\t' '{print $2}' "$work/a32.dis" | tr -d ' ' >"$work/a32.gnu"
awk -F'\t' '{t = $3; if ($4 != "") t = t " " $4; print t}' "$work/a32.dis" >"$work/a32.txt"
"$isa" "$@" -A 0 -s "$work/a32.txt" 2>"$work/a32.err" | words_of >"$work/a32.xphmg"
compare A "$work/a32.gnu" "$work/a32.xphmg" "$work/a32.txt"
grep -v '^#' "$pseudo" | grep . >"$work/b.txt"
"$gcc" -march=rv64g_zicsr -mabi=lp64d -c -x assembler "$work/b.txt" -o "$work/b.o" || exit 1
"$god" -d -M no-aliases "$work/b.o" | grep -P '^\s+[0-9a-f]+:\t' | awk -F'\t' '{print $2}' |
    tr -d ' ' >"$work/b.gnu"
"$isa" "$@" -A 0 -s "$work/b.txt" 2>"$work/b.err" | words_of >"$work/b.xphmg"
compare B "$work/b.gnu" "$work/b.xphmg" "$work/b.txt"
[ "$bad" -eq 0 ] || { head -5 "$work/a32.err" "$work/b.err"; exit 1; }
exit 0
