#!/usr/bin/env bash
# bvh_cli — xphmg-bvh's command-line contract (docs/tools.md "xphmg-bvh"):
#   0 ok (OBJ, PLY, STL, procedural meshes, --info), 1 bad input (missing or unparsable
#   mesh, no triangles, NaN, beyond binary16, invalid blob, unwritable output) with a
#   message naming the file, 2 usage; never a crash (>= 128); same bytes on every run.
#   bvh_cli.sh XPHMG_BVH WORK_DIR
set -u
bvh=$1 work=$2
mkdir -p "$work"
rm -f "$work"/*.xbvh
. "$(dirname "$0")/../cli_expect.sh"
expect_in="out err"
printf 'v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1 2 3 4\n' >"$work/quad.obj"
printf 'ply\nformat ascii 1.0\nelement vertex 3\nproperty float x\nproperty float y\nproperty float z\nelement face 1\nproperty list uchar int vertex_indices\nend_header\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2\n' >"$work/tri.ply"
printf 'solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n' >"$work/tri.stl"
printf '# empty\nv 0 0 0\n' >"$work/empty.obj"
printf 'v 0 0 0\nv nan 0 0\nv 0 1 0\nf 1 2 3\n' >"$work/nan.obj"
printf 'v 0 0 0\nv 100000 0 0\nv 0 1 0\nf 1 2 3\n' >"$work/big.obj"
printf 'not a mesh at all \001\002\003' >"$work/junk.obj"
printf 'XBVH garbage' >"$work/junk.xbvh"

expect 2 usage -- "$bvh"
expect 2 usage -- "$bvh" "$work/quad.obj"
expect 2 "unknown option" -- "$bvh" --frobnicate "$work/quad.obj" "$work/q.xbvh"
expect 2 "needs an argument" -- "$bvh" --scale
expect 2 "not a positive" -- "$bvh" --scale -1 "$work/quad.obj" "$work/q.xbvh"
expect 2 "not a positive" -- "$bvh" --scale abc "$work/quad.obj" "$work/q.xbvh"
expect 2 "unknown procedural" -- "$bvh" --procedural teapot "$work/p.xbvh"
expect 2 "--tris" -- "$bvh" --tris 1 --procedural sphere "$work/p.xbvh"
expect 2 usage -- "$bvh" --info "$work/q.xbvh" "$work/quad.obj"
expect 2 usage -- "$bvh" a b c
expect 0 usage -- "$bvh" --help

expect 0 "" -- "$bvh" "$work/quad.obj" "$work/q.xbvh"
expect 0 "triangles   2" -- "$bvh" --info "$work/q.xbvh"
expect 0 "" -- "$bvh" "$work/tri.ply" "$work/ply.xbvh"
expect 0 "triangles   1" -- "$bvh" --info "$work/ply.xbvh"
expect 0 "" -- "$bvh" "$work/tri.stl" "$work/stl.xbvh"
expect 0 "triangles   1" -- "$bvh" --info "$work/stl.xbvh"
for p in sphere terrain soup grid; do
    expect 0 "" -- "$bvh" --procedural "$p" --tris 2000 "$work/$p.xbvh"
    expect 0 "depth" -- "$bvh" --info "$work/$p.xbvh"
done
expect 0 "" -- "$bvh" --procedural sphere --tris 2000 "$work/sphere2.xbvh"
cmp -s "$work/sphere.xbvh" "$work/sphere2.xbvh" || { echo "FAIL: two runs differ"; fails=$((fails + 1)); }
expect 0 "" -- "$bvh" --scale 100 --procedural sphere --tris 200 "$work/s100.xbvh"
"$bvh" --info "$work/s100.xbvh" >"$work/out" 2>&1
grep -q -- "-100) - (.*, 100)" "$work/out" || { echo "FAIL: --scale 100:"; cat "$work/out"; fails=$((fails + 1)); }

# --y-up: (x, y, z) -> (x, -z, y); the quad in z = 0 stands in y = 0 from z = 0 to 1
expect 0 "" -- "$bvh" --y-up "$work/quad.obj" "$work/qy.xbvh"
"$bvh" --info "$work/qy.xbvh" >"$work/out" 2>&1
grep -q -- "bounds      (0, 0, 0) - (1, 0, 1)" "$work/out" || { echo "FAIL: --y-up:"; cat "$work/out"; fails=$((fails + 1)); }

expect 1 "missing.obj" -- "$bvh" "$work/missing.obj" "$work/m.xbvh"
expect 1 "empty.obj" -- "$bvh" "$work/empty.obj" "$work/m.xbvh"
expect 1 "non-finite" -- "$bvh" "$work/nan.obj" "$work/m.xbvh"
expect 1 "binary16" -- "$bvh" "$work/big.obj" "$work/m.xbvh"
expect 0 "" -- "$bvh" --scale 0.5 "$work/big.obj" "$work/big.xbvh"
expect 1 "binary16" -- "$bvh" --scale 1e5 --procedural sphere "$work/m.xbvh"
expect 1 "junk.obj" -- "$bvh" "$work/junk.obj" "$work/m.xbvh"
expect 1 "no-such-dir" -- "$bvh" "$work/quad.obj" "$work/no-such-dir/q.xbvh"
expect 1 "invalid XBVH" -- "$bvh" --info "$work/junk.xbvh"
expect 1 "invalid XBVH" -- "$bvh" --info "$work/quad.obj"
expect 1 "missing.xbvh" -- "$bvh" --info "$work/missing.xbvh"
[ -e "$work/m.xbvh" ] && { echo "FAIL: a refused input left $work/m.xbvh"; fails=$((fails + 1)); }
cli_done bvh_cli
