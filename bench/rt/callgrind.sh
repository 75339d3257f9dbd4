#!/bin/bash
# callgrind.sh — host instructions per ray of the RT offload engine against Embree's
# rtcIntersect1, one thread, counted by valgrind (independent of the machine's load).
#
#   bench/rt/callgrind.sh [BUILD_DIR] [SCENE|MESHFILE...]     (default: build, the six scenes)
#
# For each scene: one job of 256x192 primary and one of 49,152 random rays (bench_rt
# --reps 1 --threads 1); the inclusive count of rt_job_run_ex (the whole job, its cache
# fill included) and of embree_part (the rtcIntersect1 loop), each divided by the rays.
# Under valgrind Embree runs its AVX2 code (valgrind has no AVX-512). bench/README.md
# "Offload engine on one thread, instruction counts".
set -euo pipefail
build=${1:-build}
[ $# -gt 0 ] && shift
scenes=("$@")
[ ${#scenes[@]} -gt 0 ] || scenes=(/usr/share/glmark2/models/bunny.obj
    /usr/share/glmark2/models/asteroid-high.3ds sphere terrain soup scene)
bench=$build/bench/rt/bench_rt
[ -x "$bench" ] || { echo "callgrind.sh: no $bench (build the bench_rt target)" >&2; exit 2; }
rays=49152
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# the inclusive count of function $2 in callgrind dump $1
count() {
    callgrind_annotate --inclusive=yes "$1" 2>/dev/null |
        awk -v f="$2" '!n && $0 ~ (":" f " \\[") { gsub(",", "", $1); print $1; n = 1 }'
}
printf '%-20s %-8s %12s %12s %8s\n' scene rays "ours/ray" "Embree/ray" ratio
for s in "${scenes[@]}"; do
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg" --dump-after=rt_job_run_ex \
        --dump-after=embree_part "$bench" --reps 1 --threads 1 --size 256x192 \
        --random $rays "$s" >"$tmp/out" 2>"$tmp/err" ||
        { cat "$tmp/err" >&2; exit 1; }
    # dumps in order: our primary job, Embree's primary rays, our random job, Embree's
    k=1
    for set in primary random; do
        ours=$(count "$tmp/cg.$k" rt_job_run_ex)
        emb=$(count "$tmp/cg.$((k + 1))" embree_part)
        awk -v s="$(basename "$s")" -v set=$set -v o="$ours" -v e="$emb" -v n=$rays \
            'BEGIN { printf "%-20s %-8s %12.0f %12.0f %8.2f\n", s, set, o / n, e / n, o / e }'
        k=$((k + 2))
    done
    rm -f "$tmp"/cg*
done
