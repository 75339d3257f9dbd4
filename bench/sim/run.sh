#!/usr/bin/env bash
# bench/sim/run.sh [BUILD_DIR] — xphmg-sim (interpreter and translator) next to
# qemu-system-riscv64 (-M spike) and a native host build of the same C code, on the same
# bare-metal ELFs, timed with hyperfine in one run (bench/README.md). Not a CTest test.
#
# Kernels: mix (the CPU-bound mix of issue 14; mix-sv39 the same in S mode under Sv39),
# int, mem, fp (this directory), each made
# long enough that the translator runs it for about half a second or more (the scale
# factors below; SCALE=n multiplies them all). Environment:
#   ROUNDS=n   rounds (default 3): every round times every program of a kernel once more,
#              one after the other, so each round gives its own ratios under the load of
#              that moment; the report gives the median and the spread of the rounds
#   RUNS=n     hyperfine runs per program and round (default 1), after one warm-up run
#   INTERP=0   leave out the interpreter column (its runs are the longest; never timed
#              on mix-sv39, where it would take ~30 s a run)
#   EXTRA="name=GUEST.elf:NATIVE ..."  more kernels built elsewhere (e.g. Dhrystone,
#              built by hand as bench/README.md describes; NATIVE may be empty)
# Before timing, each kernel runs once on every program: the printed checksums and the
# exit status must agree (the guest against qemu and the native build), else exit 1.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
sim=$build/tools/xphmg-sim
rounds=${ROUNDS:-3}
runs=${RUNS:-1}
scale=${SCALE:-1}
interp=${INTERP:-1}
[ -x "$sim" ] || { echo "run.sh: $sim not built (cmake --build $build)" >&2; exit 1; }
for t in qemu-system-riscv64 hyperfine gcc python3; do
  command -v $t >/dev/null || { echo "run.sh: $t missing (scripts/setup-deps.sh)" >&2; exit 1; }
done
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# target/link.ld gives the HTIF mailboxes a page of their own: qemu's spike machine maps
# that page as I/O, and data sharing it would make qemu ~40x slower on these kernels.
# The mix is built without FP contraction on both targets (the host has no fmadd in its
# baseline ISA) so that its n-body checksum is the same everywhere; fp.c keeps RISC-V's
# fmadd, and its native build uses FMA3 when the host has it, which gives the same
# results.
cc="riscv64-unknown-elf-gcc -march=rv64gc -mabi=lp64d -mcmodel=medany -O2 \
  --specs=picolibc.specs -nostartfiles -I$root/target/include -T$root/target/link.ld \
  $root/target/crt0.S $root/target/syscalls.c"
hostfma=""
grep -qw fma /proc/cpuinfo && hostfma=-mfma
kernels=()
# name:source:scale:extra flags (mix-sv39: the mix in S mode under Sv39, mix.c)
for spec in "mix:mix:1:-ffp-contract=off" "mix-sv39:mix:1:-ffp-contract=off -DBENCH_SV39" \
  "int:int:8:" "mem:mem:12:" "fp:fp:14:"; do
  IFS=: read -r k src s fl <<<"$spec"
  s=$((s * scale))
  $cc $fl -DBENCH_SCALE="$s" "$here/$src.c" -lm -o "$out/$k.elf"
  gcc -O2 $fl $hostfma -DBENCH_SCALE="$s" "$here/$src.c" -lm -o "$out/$k.native"
  kernels+=("$k=$out/$k.elf:$out/$k.native")
done
$cc "$here/empty.c" -o "$out/empty.elf"
for e in ${EXTRA:-}; do kernels+=("$e"); done

qemu="qemu-system-riscv64 -M spike -nographic -bios none -kernel"
load() { cut -d' ' -f1-3 /proc/loadavg; }

# every program of a kernel prints the same thing and exits with the same status
check() {
  local name=$1 elf=$2 native=$3 ref st
  set +e
  "$sim" --no-jit "$elf" >"$out/ref" 2>/dev/null
  ref=$?
  set -e
  local cmds=("$sim --jit $elf" "$qemu $elf")
  [ -n "$native" ] && cmds+=("$native")
  for c in "${cmds[@]}"; do
    set +e
    timeout 600 $c >"$out/got" 2>/dev/null </dev/null
    st=$?
    set -e
    if [ "$st" != "$ref" ] || ! cmp -s "$out/ref" "$out/got"; then
      echo "run.sh: $name: '$c' gives status $st and output $(head -c 200 "$out/got" | tr '\n' ' ')," \
        "the interpreter $ref and $(head -c 200 "$out/ref" | tr '\n' ' ')" >&2
      exit 1
    fi
  done
}

# time NAME ROUND CMD... : one hyperfine invocation, its JSON kept for the report
time_cmds() {
  local name=$1 r=$2
  shift 2
  hyperfine -N -i --style none --warmup 1 --runs "$runs" \
    --export-json "$out/$name.$r.json" "$@" >/dev/null 2>&1 </dev/null
  echo "$name $r $(load)" >>"$out/loads"
}

echo "load average (1, 5, 15 min) at the start: $(load); $(nproc) CPUs; $(date -u +%FT%TZ)"
for r in $(seq "$rounds"); do
  time_cmds startup "$r" "$sim --no-jit $out/empty.elf" "$sim --jit $out/empty.elf" \
    "$qemu $out/empty.elf"
done
for kv in "${kernels[@]}"; do
  name=${kv%%=*}
  rest=${kv#*=}
  elf=${rest%%:*}
  native=${rest#*:}
  [ "$native" = "$rest" ] && native=""
  check "$name" "$elf" "$native"
  "$sim" --stats "$elf" 2>&1 >/dev/null | sed -n 's/.*: \([0-9]*\) instructions retired.*/\1/p' \
    >"$out/$name.insns" || true
  for r in $(seq "$rounds"); do
    cmds=()
    # the careful loop would take ~30 s a run on mix-sv39: bench/README.md has its figure
    [ "$interp" != 0 ] && [ "$name" != mix-sv39 ] && cmds+=("$sim --no-jit $elf")
    cmds+=("$sim --jit $elf" "$qemu $elf")
    [ -n "$native" ] && cmds+=("$native")
    time_cmds "$name" "$r" "${cmds[@]}"
  done
done
echo "load average at the end: $(load)"
echo
python3 "$here/report.py" "$out"
