#!/usr/bin/env bash
# check.sh SIM RENDER_ELF XPHMG_BVH RENDER_PNG WORKDIR — the test example_render: renders
# a small procedural scene three ways and checks that
#   - the offload, hart (rt.bbox/rt.tri) and software images are byte-identical,
#   - the scene is actually in the picture (a quarter of the pixels hit, some in shadow),
#   - the hart traversal takes at least 5x fewer guest instructions per ray than the
#     plain software traversal,
#   - the PNG converter accepts the image (a PNG signature).
set -euo pipefail
sim=$1 elf=$2 bvh=$3 png=$4 dir=$5
rm -rf "$dir" && mkdir -p "$dir"
"$bvh" --tris 3000 --procedural scene "$dir/scene.xbvh" >/dev/null
out=$("$sim" --dir "$dir" --rt-threads 2 "$elf" scene.xbvh 80 60 ohs img)
echo "$out"
for m in h s; do
  cmp "$dir/img-o.ppm" "$dir/img-$m.ppm" || { echo "FAIL: image $m differs from offload"; exit 1; }
done
per() { echo "$out" | sed -n "s/^  $1 .* \([0-9]*\) per ray$/\1/p"; }
hits=$(echo "$out" | sed -n 's/^  offload .*(\([0-9]*\) primary hits, \([0-9]*\) in shadow).*/\1 \2/p')
read -r nhit nshadow <<<"$hits"
[ "$nhit" -gt 1200 ] || { echo "FAIL: only $nhit of 4800 pixels hit the scene"; exit 1; }
[ "$nshadow" -gt 50 ] || { echo "FAIL: only $nshadow shadowed pixels"; exit 1; }
h=$(per hart) s=$(per software)
echo "instructions per ray: hart $h, software $s"
[ $((h * 5)) -le "$s" ] || { echo "FAIL: hart $h per ray is not 5x fewer than software $s"; exit 1; }
"$png" "$dir/img-o.ppm" "$dir/img.png"
[ "$(head -c 8 "$dir/img.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || { echo "FAIL: not a PNG"; exit 1; }
echo "PASS"
