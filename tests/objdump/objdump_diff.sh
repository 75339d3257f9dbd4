#!/usr/bin/env bash
# objdump_diff — differential test of xphmg-objdump against GNU objdump.
#
#   objdump_diff.sh XPHMG_OBJDUMP GNU_GCC GNU_OBJDUMP PROGS_DIR WORK_DIR [-x SPEC]...
#
# Builds every tests/objdump/progs/*.c at -O0 and -O2 for -march=rv64gc and
# -march=rv64g (lp64d, picolibc: --specs=picolibc.specs and its own link script),
# both linked (ET_EXEC) and as relocatable objects (-c -ffunction-sections), then
# disassembles each file in both styles, `GNU_OBJDUMP -d` against `XPHMG_OBJDUMP -d`
# (aliases, errata P-280) and `GNU_OBJDUMP -d -M no-aliases` against
# `XPHMG_OBJDUMP -d -M no-aliases`, and compares the whole outputs line by line: file header,
# section headers, symbol labels, "..." zero runs, data-object hex dumps and every
# instruction line (address, raw word, mnemonic, operands, "<sym+0xoff>" target
# annotation). Zero mismatches allowed.
#
# Normalisations applied to both outputs before comparing (and nothing else):
#   1. GNU's trailing address hints " # 20000000 <g>" (computed from a preceding
#      auipc/lui, not part of the instruction) are removed; xphmg-objdump prints none.
#   2. Trailing whitespace is removed.
#   3. A CSR operand xphmg-objdump prints by its XPHMG name (cap_id) where GNU, which
#      does not know vendor CSRs, prints the number (0x7c0): on lines that differ,
#      the name is replaced by its number (the list comes from the spec through
#      `allinsn_words --vendor-csrs`) and the lines are compared again.
#
# No difference is accepted (tests/objdump/known-differences.txt is gone): where GNU
# prints a word the ISA defines differently from its architectural text (the exact
# fcvt.d.* with rm != 0 and non-canonical fence/fence.i as .4byte, reserved rounding modes
# and empty fence sets as "unknown"), the spec's ISA/ReferenceDisassembly (X-21, errata
# P-284) says so and xphmg-objdump prints what GNU prints. Mismatches are counted per
# corpus (progs, allinsn, riscv-tests) and per style, and printed at the end.
#
# With ALLINSN set (the tests/objdump/allinsn_words tool), one more object holds every
# 16/32-bit non-XPHMG encoding of the spec with random field values and with each
# field set to the values alias conditions test (reserved values such as rm=5 and
# the words GNU prints as .4byte included, and checked to be present), assembled with -march=rv64gc_zihintpause, so every
# instruction and every alias of the spec is compared. With RISCV_TESTS set (a
# directory), every ELF in it is compared too (../shared/riscv-tests/isa). With GUEST_ELFS
# set (a file listing one ELF per line: every guest program the build compiles, examples
# and arch tests included), each of those is compared too. Their XPHMG instructions,
# which GNU does not know and prints as .4byte, are the one more normalisation: a line
# where GNU prints `.4byte 0xWORD` and xphmg-objdump an XPHMG mnemonic (the list comes
# from the spec through `allinsn_words --vendor-insns`) with the same address and word
# is counted apart, not as a mismatch.
#
# Exit: 0 pass, 1 mismatch or failure, 77 skipped (no riscv64-unknown-elf-gcc).
set -u
xod=$1 gcc=$2 god=$3 progs=$4 work=$5
shift 5
if [ ! -x "$gcc" ] || [ ! -x "$god" ]; then
    echo "SKIP: riscv64-unknown-elf-gcc/objdump not found ($gcc, $god); run scripts/setup-deps.sh"
    exit 77
fi
mkdir -p "$work"
norm() {
    sed -E 's/ # [0-9a-f]+ <[^>]*>$//; s/[[:space:]]+$//'
}
total=0 bad=0 nelf=0 corpus=progs
declare -A nbad ninsn nxphmg
specargs=("$@")
: >"$work/csrs.tsv"
: >"$work/xinsns.txt"
if [ -n "${ALLINSN:-}" ]; then
    "$ALLINSN" --vendor-csrs "${specargs[@]}" >"$work/csrs.tsv" || exit 1
    "$ALLINSN" --vendor-insns "${specargs[@]}" >"$work/xinsns.txt" || exit 1
fi
compare() { # compare FILE: both disassemblies of one ELF file, in both styles
    compare_style "$1" "$1.na" -M no-aliases
    compare_style "$1" "$1.al"
    nelf=$((nelf + 1))
}
compare_style() { # compare_style ELF OUT [-M no-aliases]
    local elf=$1 out=$2 n m key
    shift 2
    key="$corpus ${*:-(aliases)}"
    "$god" -d "$@" "$elf" | norm >"$out.gnu"
    if ! "$xod" "${specargs[@]}" -d "$@" "$elf" >"$out.raw" 2>"$out.err"; then
        echo "FAIL: xphmg-objdump failed on $elf:"
        cat "$out.err"
        exit 1
    fi
    norm <"$out.raw" >"$out.xphmg"
    n=$(grep -c $'^ *[0-9a-f]*:\t' "$out.gnu")
    total=$((total + n))
    ninsn[$key]=$((${ninsn[$key]:-0} + n))
    nbad[$key]=${nbad[$key]:-0}
    nxphmg[$key]=${nxphmg[$key]:-0}
    if ! cmp -s "$out.gnu" "$out.xphmg"; then
        # pair the lines (same count unless the structure differs)
        r=$(awk -v csrmap="$work/csrs.tsv" -v xinsns="$work/xinsns.txt" '
            BEGIN { FS = "\t"
                    while ((getline l < csrmap) > 0) { split(l, c, "\t"); csr[c[1]] = c[2] }
                    while ((getline l < xinsns) > 0) xi[l] = 1 }
            NR == FNR { g[FNR] = $0; ng = FNR; next }
            { nx = FNR
              if ($0 == g[FNR]) next
              split(g[FNR], a, "\t")
              w = a[2]; sub(/^0+/, "", w); sub(/ +$/, "", w)
              if (a[1] == $1 && a[2] == $2 && a[3] == ".4byte" && ($3 in xi) &&
                  a[4] == "0x" (w == "" ? "0" : w)) { xp++; next }
              if (a[1] == $1 && a[2] == $2 && a[3] == $3 && $4 != "") {
                  n = split($4, ops, ","); t = ""
                  for (i = 1; i <= n; i++) t = t (i > 1 ? "," : "") ((ops[i] in csr) ? csr[ops[i]] : ops[i])
                  if (t == a[4]) next }
              bad++
              if (bad <= 20) print "  - " g[FNR] "\n  + " $0 > "/dev/stderr" }
            END { if (ng != nx) { print "  line counts differ: GNU " ng ", xphmg " nx > "/dev/stderr"; bad++ }
                  print bad + 0, xp + 0 }' "$out.gnu" "$out.xphmg" 2>"$out.report")
        m=${r% *}
        nxphmg[$key]=$((${nxphmg[$key]} + ${r#* }))
        bad=$((bad + m))
        nbad[$key]=$((${nbad[$key]} + m))
        if [ "$m" -ne 0 ]; then
            echo "MISMATCH in $elf ${*:-(aliases)} ($m lines; - GNU + xphmg):"
            cat "$out.report"
        fi
    fi
}

for src in "$progs"/*.c; do
    name=$(basename "$src" .c)
    for opt in O0 O2; do
        for march in rv64gc rv64g; do
          for kind in elf o; do
            elf=$work/$name-$opt-$march.$kind
            if [ $kind = elf ]; then
                flags=(-lm)
            else
                flags=(-c -ffunction-sections)
            fi
            if ! "$gcc" -march=$march -mabi=lp64d -$opt -g --specs=picolibc.specs "$src" \
                "${flags[@]}" -o "$elf" 2>"$work/cc.err"; then
                echo "FAIL: cannot build $elf:"
                cat "$work/cc.err"
                exit 1
            fi
            compare "$elf"
          done
        done
    done
done

# Every 16/32-bit encoding of the spec (not the custom-opcode XPHMG ones GNU does not
# know), from random field values, written as raw `.insn` words by ALLINSN (the
# allinsn_words tool) and assembled by GNU as.
if [ -n "${ALLINSN:-}" ]; then
    corpus=allinsn
    a=$work/allinsn
    if ! "$ALLINSN" "${specargs[@]}" >"$a.s" || ! "$gcc" -march=rv64gc_zihintpause -mabi=lp64d -c "$a.s" \
        -o "$a.o" 2>"$work/cc.err"; then
        echo "FAIL: cannot build $a.o:"
        cat "$work/cc.err"
        exit 1
    fi
    compare "$a.o"
    # the reference's own renderings must be exercised, not merely absent (REQ-free
    # guard: a corpus without them would pass whatever X-21 says)
    for pat in $'\t\.4byte\t0x' $'\tfence\tunknown,' $',unknown$'; do
        c=$(grep -c -- "$pat" "$a.o.na.gnu")
        if [ "$c" -lt 1 ]; then
            echo "FAIL: the allinsn corpus has only $c GNU lines matching '$pat'"
            exit 1
        fi
        echo "allinsn: $c GNU lines matching '$pat'"
    done
fi
# The riscv-tests ISA suite built once with Debian's GCC (../shared/riscv-tests/isa).
if [ -n "${RISCV_TESTS:-}" ]; then
    if [ ! -d "$RISCV_TESTS" ]; then
        echo "FAIL: RISCV_TESTS=$RISCV_TESTS is not a directory"
        exit 1
    fi
    corpus=riscv-tests
    mkdir -p "$work/riscv-tests"
    for t in "$RISCV_TESTS"/*; do
        cp "$t" "$work/riscv-tests/" && compare "$work/riscv-tests/$(basename "$t")"
    done
fi
# Every guest program the build compiled (tests and examples).
if [ -n "${GUEST_ELFS:-}" ]; then
    corpus=test-elfs
    [ -f "$GUEST_ELFS" ] || { echo "FAIL: GUEST_ELFS=$GUEST_ELFS is not a file"; exit 1; }
    mkdir -p "$work/test-elfs"
    while IFS= read -r t; do
        [ -n "$t" ] || continue
        [ -f "$t" ] || { echo "FAIL: guest program $t was not built"; exit 1; }
        # a private copy: the outputs are written beside it, not into the build tree
        c=$work/test-elfs/$(basename "$(dirname "$t")")-$(basename "$t")
        cp "$t" "$c" && compare "$c"
    done <"$GUEST_ELFS"
fi
for key in "${!ninsn[@]}"; do
    echo "objdump_diff: $key: ${ninsn[$key]} instructions, ${nbad[$key]} mismatching lines," \
        "${nxphmg[$key]} XPHMG instructions (GNU: .4byte)"
done | sort
echo "objdump_diff: $nelf ELF files, $total instructions compared, $bad mismatching lines"
[ "$bad" -eq 0 ] || exit 1
exit 0
