#!/usr/bin/env bash
# bench/sim/run.sh [BUILD_DIR] — xphmg-sim (interpreter and --jit) next to
# qemu-system-riscv64 (-M spike) on the same bare-metal ELFs (integer, memory and
# floating-point kernels), side by side in one run. Not a CTest test. REPS=n: best of n
# runs (default 3); SCALE=n: kernels n times longer (default 1).
#
# For each kernel: both simulators must exit with the same status (the kernels return a
# checksum); the instruction count is xphmg-sim's retired count (the same ELF executes
# the same instructions on both); time is CPU time (user + sys), best of REPS runs, minus
# the best time of an empty program (start-up, ELF load, exit), so that on a shared
# machine neighbours and start-up costs do not count. MIPS = instructions / time.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
build=${1:-$root/build}
sim=$build/tools/xphmg-sim
reps=${REPS:-3}
scale=${SCALE:-1} # BENCH_SCALE of the kernels: longer runs
[ -x "$sim" ] || { echo "run.sh: $sim not built (cmake --build $build)" >&2; exit 1; }
command -v qemu-system-riscv64 >/dev/null || { echo "run.sh: qemu-system-riscv64 missing (scripts/setup-deps.sh)" >&2; exit 1; }
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT

# target/link.ld gives the HTIF mailboxes a page of their own: qemu's spike machine maps
# that page as I/O, and data sharing it would make qemu ~40x slower on these kernels.
cc="riscv64-unknown-elf-gcc -march=rv64gc -mabi=lp64d -mcmodel=medany -O2 \
  --specs=picolibc.specs -nostartfiles -I$root/target/include -T$root/target/link.ld \
  $root/target/crt0.S $root/target/syscalls.c"
for k in empty int mem fp; do
  $cc -DBENCH_SCALE="$scale" "$here/$k.c" -lm -o "$out/$k.elf"
done

# cpu_time CMD... -> prints "status seconds": CPU time (user + sys), best of $reps runs
cpu_time() {
  local best="" st t
  for _ in $(seq "$reps"); do
    set +e
    /usr/bin/time -f "%U %S" -o "$out/time" "$@" >/dev/null 2>&1
    st=$?
    set -e
    t=$(tail -1 "$out/time" | awk '{print $1 + $2}')
    if [ -z "$best" ] || awk "BEGIN{exit !($t < $best)}"; then best=$t; fi
  done
  echo "$st $best"
}

qemu=(timeout 600 qemu-system-riscv64 -M spike -nographic -bios none -kernel)

read -r _ sim0 < <(cpu_time "$sim" --no-jit "$out/empty.elf")
read -r _ jit0 < <(cpu_time "$sim" --jit "$out/empty.elf")
read -r _ qemu0 < <(cpu_time "${qemu[@]}" "$out/empty.elf")
printf "start-up (empty program): xphmg-sim %.3f s, --jit %.3f s, qemu %.3f s (subtracted below)\n\n" \
  "$sim0" "$jit0" "$qemu0"
printf "| kernel | instructions | interp s | interp MIPS | --jit s | --jit MIPS | qemu s | qemu MIPS | interp/qemu | jit/qemu |\n"
printf "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n"
for k in int mem fp; do
  n=$("$sim" --stats "$out/$k.elf" 2>&1 >/dev/null | sed -n 's/.*: \([0-9]*\) instructions retired.*/\1/p' || true)
  # interleaved, so that the load of the shared machine falls on all three alike
  read -r s_st s_t < <(cpu_time "$sim" --no-jit "$out/$k.elf")
  read -r j_st j_t < <(cpu_time "$sim" --jit "$out/$k.elf")
  read -r q_st q_t < <(cpu_time "${qemu[@]}" "$out/$k.elf")
  if [ "$s_st" != "$q_st" ] || [ "$j_st" != "$q_st" ]; then
    echo "run.sh: $k: exit status differs: xphmg-sim $s_st, --jit $j_st, qemu $q_st" >&2
    exit 1
  fi
  awk -v k="$k" -v n="$n" -v st="$s_t" -v s0="$sim0" -v jt="$j_t" -v j0="$jit0" -v qt="$q_t" -v q0="$qemu0" 'BEGIN {
    s = st - s0; j = jt - j0; q = qt - q0; if (s < 0.001) s = 0.001; if (j < 0.001) j = 0.001; if (q < 0.001) q = 0.001;
    printf "| %s | %d | %.3f | %.0f | %.3f | %.0f | %.3f | %.0f | %.2f | %.2f |\n", k, n, s, n / s / 1e6, j, n / j / 1e6, q, n / q / 1e6, q / s, q / j
  }'
done
