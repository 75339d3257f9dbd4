#!/usr/bin/env bash
# bench/objdump/run.sh — xphmg-objdump -d against riscv64-unknown-elf-objdump -d, in
# both styles (default: aliases; -M no-aliases), on one large ELF (all of picolibc's
# libc.a and libm.a linked whole, rv64gc, about 100k instructions).
#
#   bench/objdump/run.sh [BUILD_DIR]      (default: build; needs xphmg-objdump built)
#
# Checks first that both outputs agree, with the normalisations of
# tests/objdump/objdump_diff.sh (GNU's " # addr <sym>" hints and trailing blanks
# removed; everything else compared), then times each tool, best of 3 runs,
# output to /dev/null, and prints instructions per second and the ratio.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
xod=$build/tools/xphmg-objdump
gcc=${RISCV_GCC:-riscv64-unknown-elf-gcc}
god=${RISCV_OBJDUMP:-riscv64-unknown-elf-objdump}
for t in "$xod" "$(command -v "$gcc" || true)" "$(command -v "$god" || true)"; do
    [ -n "$t" ] && [ -x "$t" ] || { echo "missing tool (build xphmg-objdump; run scripts/setup-deps.sh)" >&2; exit 1; }
done
specs=(-x spec/xphmg.xml)

work=$(mktemp -d)
[ -z "${KEEP:-}" ] || echo "work dir: $work"
trap '[ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
echo 'int main(void) { return 0; }' >"$work/main.c"
# Every member of libc.a and libm.a; unresolved references (semihosting, syscalls)
# do not matter for a disassembler, and the flash region is enlarged to fit.
"$gcc" -march=rv64gc -mabi=lp64d -O2 --specs=picolibc.specs "$work/main.c" \
    -Wl,--no-gc-sections -Wl,--defsym=__flash_size=0x1000000 \
    -Wl,--whole-archive -lc -lm -Wl,--no-whole-archive \
    -Wl,--unresolved-symbols=ignore-all -Wl,--allow-multiple-definition \
    -o "$work/big.elf" 2>"$work/ld.err" || { cat "$work/ld.err"; exit 1; }

norm() {
    sed -E 's/ # [0-9a-f]+ <[^>]*>$//; s/[[:space:]]+$//'
}
n=0
for style in default no-aliases; do
    opt=()
    [ $style = default ] || opt=(-M no-aliases)
    "$god" -d "${opt[@]}" "$work/big.elf" | norm >"$work/gnu.txt"
    "$xod" "${specs[@]}" -d "${opt[@]}" "$work/big.elf" | norm >"$work/xphmg.txt"
    n=$(grep -c $'^ *[0-9a-f]*:\t' "$work/gnu.txt")
    if ! diff -q "$work/gnu.txt" "$work/xphmg.txt" >/dev/null; then
        m=$(diff "$work/gnu.txt" "$work/xphmg.txt" | grep -c '^<' || true)
        echo "WARNING ($style): outputs differ on $m of $n lines (first differences, < GNU > xphmg):"
        diff "$work/gnu.txt" "$work/xphmg.txt" | grep '^[<>]' | head -6 || true
    fi
done

best() { # best wall time of 3 runs, seconds
    local b=""
    for _ in 1 2 3; do
        local s e
        s=$(date +%s.%N)
        "$@" >/dev/null
        e=$(date +%s.%N)
        b=$(echo "$s $e ${b:-1e9}" | awk '{t = $2 - $1; print (t < $3 ? t : $3)}')
    done
    echo "$b"
}
echo "instructions: $n"
for style in default no-aliases; do
    opt=()
    [ $style = default ] || opt=(-M no-aliases)
    tg=$(best "$god" -d "${opt[@]}" "$work/big.elf")
    tx=$(best "$xod" "${specs[@]}" -d "${opt[@]}" "$work/big.elf")
    awk -v n="$n" -v tg="$tg" -v tx="$tx" -v st="$style" 'BEGIN {
        printf "%-44s %8.3f s  %10.0f insn/s\n", "riscv64-unknown-elf-objdump -d (" st ")", tg, n / tg
        printf "%-44s %8.3f s  %10.0f insn/s\n", "xphmg-objdump -d (" st ")", tx, n / tx
        printf "ratio xphmg/GNU time (%s): %.2f\n", st, tx / tg
    }'
done
