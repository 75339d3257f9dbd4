#!/usr/bin/env bash
# render_caps.sh SIM RENDER_ELF XPHMG_BVH PROFILES_DIR WORKDIR — the test arch.rt.render_caps
# (defined in examples/render/CMakeLists.txt): the project's RT guest program,
# examples/render, reads RTCAP and uses only what it advertises (RT 5.2, errata P-328).
# REQ: RT-023
#   - profiles/minimal.yaml (RTCAP = 0, no RT): the offload and hart modes are skipped
#     with a message, the software mode renders, the run exits 0 (an RT instruction
#     would trap as an illegal instruction and end the run);
#   - the default profile without DESCQ (RTCAP = 0x1F): only the offload mode is skipped;
#   - the images rendered are those of the default profile.
set -euo pipefail
sim=$1 elf=$2 bvh=$3 profiles=$4 dir=$5
rm -rf "$dir" && mkdir -p "$dir"
"$bvh" --tris 600 --procedural scene "$dir/scene.xbvh" >/dev/null
sed 's/^\(  rtcap:\) *0x3F/\1 0x1F/' "$profiles/default.yaml" >"$dir/nodescq.yaml"
grep -q '^  rtcap: 0x1F' "$dir/nodescq.yaml" || { echo "FAIL: could not derive the profile"; exit 1; }
"$sim" --dir "$dir" "$elf" scene.xbvh 24 16 ohs ref >/dev/null

run() { # PROFILE PREFIX -> the guest's output; the run must exit 0
  local out
  out=$("$sim" --dir "$dir" --profile "$1" "$elf" scene.xbvh 24 16 ohs "$2") ||
    { echo "$out" >&2; echo "FAIL: render under $1 did not exit 0" >&2; exit 1; }
  echo "$out"
}
out=$(run "$profiles/minimal.yaml" min)
echo "$out"
echo "$out" | grep -q '^  offload  skipped: needs RTCAP 0x25, this hart has 0x0$' ||
  { echo "FAIL: offload mode not skipped without RT"; exit 1; }
echo "$out" | grep -q '^  hart     skipped: needs RTCAP 0x5, this hart has 0x0$' ||
  { echo "FAIL: hart mode not skipped without RT"; exit 1; }
[ ! -e "$dir/min-o.ppm" ] && [ ! -e "$dir/min-h.ppm" ] || { echo "FAIL: skipped mode wrote an image"; exit 1; }
cmp "$dir/min-s.ppm" "$dir/ref-s.ppm" || { echo "FAIL: software image differs"; exit 1; }

out=$(run "$dir/nodescq.yaml" nq)
echo "$out"
echo "$out" | grep -q '^  offload  skipped: needs RTCAP 0x25, this hart has 0x1f$' ||
  { echo "FAIL: offload mode not skipped without DESCQ"; exit 1; }
echo "$out" | grep -q '^  hart .* per ray$' || { echo "FAIL: hart mode did not run"; exit 1; }
[ ! -e "$dir/nq-o.ppm" ] || { echo "FAIL: skipped offload mode wrote an image"; exit 1; }
cmp "$dir/nq-h.ppm" "$dir/ref-o.ppm" || { echo "FAIL: hart image differs"; exit 1; }
cmp "$dir/nq-s.ppm" "$dir/ref-s.ppm" || { echo "FAIL: software image differs"; exit 1; }
echo "PASS"
