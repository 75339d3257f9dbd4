#!/usr/bin/env bash
# bvh_import_limits — hostile meshes cannot take xphmg-bvh down (errata P-308): the assimp
# import runs in a child process under CPU-time, memory and wall-clock limits, and each of
# these ends with exit 3 and one line naming the file and what happened, in bounded time:
#   truncated-header.ply  binary PLY cut inside its header (assimp loops forever)
#   flipped-segv.ply      binary PLY with 4 flipped bits (assimp segfaults)
#   flipped-abort.ply     binary PLY with 4 flipped bits (assimp asserts)
#   out-of-memory.off     OFF header promising 10^8 faces (assimp allocates gigabytes,
#                         like its own test model invalid/OutOfMemory.off)
# The unmodified binary-ok.ply still imports (exit 0).
#   bvh_import_limits.sh XPHMG_BVH HOSTILE_DIR WORK_DIR
set -u
bvh=$1 src=$2 work=$3
mkdir -p "$work"
fails=0
expect() { # expect CODE ERE MAX_SECONDS -- command...
    local code=$1 pat=$2 max=$3
    shift 4
    local t0=$SECONDS
    "$@" >"$work/out" 2>"$work/err"
    local rc=$? dt=$((SECONDS - t0))
    if [ "$rc" -ne "$code" ] || { [ -n "$pat" ] && ! grep -qE -- "$pat" "$work/err"; } || [ "$dt" -gt "$max" ]; then
        echo "FAIL: $* -> exit $rc in ${dt}s (want $code, '$pat', <= ${max}s), stderr:"
        cat "$work/err"
        fails=$((fails + 1))
    fi
}
expect 0 "" 30 -- "$bvh" "$src/binary-ok.ply" "$work/ok.xbvh"
# A spinning importer meets its CPU limit first, unless the machine is so busy that the
# wall-clock limit (2 x 2 + 10 s) comes first: either way it is reported as a hang.
expect 3 "truncated-header.ply: the importer (ran out of its CPU time \(2 s\)|hung \(wall-clock limit 14 s\))" 60 -- \
    "$bvh" --import-cpu 2 "$src/truncated-header.ply" "$work/t.xbvh"
expect 3 "flipped-segv.ply: the importer crashed \(signal 11" 60 -- \
    "$bvh" "$src/flipped-segv.ply" "$work/s.xbvh"
expect 3 "flipped-abort.ply: the importer crashed \(signal 6" 60 -- \
    "$bvh" "$src/flipped-abort.ply" "$work/a.xbvh"
expect 3 "out-of-memory.off: the importer ran over its memory limit \(256 MiB\)" 60 -- \
    "$bvh" --import-mem 256 "$src/out-of-memory.off" "$work/o.xbvh"
expect 2 "not a number" 5 -- "$bvh" --import-cpu 0 "$src/binary-ok.ply" "$work/x.xbvh"
for f in t s a o x; do
    [ -e "$work/$f.xbvh" ] && { echo "FAIL: $f.xbvh written after a failed import"; fails=$((fails + 1)); }
done
[ "$fails" -eq 0 ] && echo "bvh_import_limits: all ok"
exit $((fails > 0))
