#!/usr/bin/env bash
# Sets up, builds and runs the main job (the README's first command): the picture.
#   1. the host builds the BVH of a procedural mesh (xphmg-bvh --procedural scene: a
#      terrain and three spheres, ~200K triangles) into an XBVH blob;
#   2. the guest program examples/render (riscv64-unknown-elf-gcc + picolibc) loads it on
#      xphmg-sim and renders 640x480 with shading and shadow rays through xsubmit.rt
#      offload jobs (a progress bar while it renders);
#   3. the host writes the PNG with libpng (render_png): build/demo/render.png;
#   4. the same guest renders a 160x120 image three ways (offload, a hart traversal with
#      rt.bbox/rt.tri, a plain RV64GC software traversal) and the images are compared
#      byte for byte; it prints the guest instructions per ray of each;
#   5. a real mesh (the Stanford bunny of Debian's glmark2-data, imported by assimp) rendered
#      the same way at 640x480, the camera framed from its bounds (render's `fit`):
#      build/demo/bunny.png; and three ways at 160x120, compared.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
cmake -S . -B build >/dev/null
cmake --build build -j"$(nproc)"
out=build/demo
mkdir -p "$out"
threads=$(nproc)
[ "$threads" -gt 64 ] && threads=64
elf=build/examples/render/render.elf
echo "== xphmg-bvh --tris 200000 --procedural scene $out/scene.xbvh"
build/tools/xphmg-bvh --tris 200000 --procedural scene "$out/scene.xbvh"
build/tools/xphmg-bvh --info "$out/scene.xbvh" | grep -E "^(triangles|nodes|sah_cost)"
echo
echo "== xphmg-sim --rt-threads $threads $elf: 640x480, offload (xsubmit.rt)"
build/tools/xphmg-sim --stats --rt-threads "$threads" --dir "$out" "$elf" scene.xbvh 640 480 o render
build/examples/render/render_png "$out/render-o.ppm" "$out/render.png"
echo "wrote $out/render.png"
echo
echo "== the same guest at 160x120, three ways"
build/tools/xphmg-sim --rt-threads "$threads" --dir "$out" "$elf" scene.xbvh 160 120 ohs small
for m in h s; do
  cmp -s "$out/small-o.ppm" "$out/small-$m.ppm" || { echo "images differ (offload vs $m)"; exit 1; }
done
echo "offload, hart and software images are identical"
# A real mesh: the Stanford bunny as Debian's glmark2-data ships it (69,666 triangles,
# modelled +y up), imported by assimp, rendered by the same guest.
bunny=/usr/share/glmark2/models/bunny.obj
if [ -r "$bunny" ]; then
  echo
  echo "== xphmg-bvh --y-up $bunny $out/bunny.xbvh; xphmg-sim: 640x480, offload"
  build/tools/xphmg-bvh --y-up "$bunny" "$out/bunny.xbvh"
  build/tools/xphmg-sim --rt-threads "$threads" --dir "$out" "$elf" bunny.xbvh 640 480 o bunny fit
  build/examples/render/render_png "$out/bunny-o.ppm" "$out/bunny.png"
  echo "wrote $out/bunny.png"
  build/tools/xphmg-sim --rt-threads "$threads" --dir "$out" "$elf" bunny.xbvh 160 120 ohs bsmall fit
  for m in h s; do
    cmp -s "$out/bsmall-o.ppm" "$out/bsmall-$m.ppm" || { echo "bunny images differ (offload vs $m)"; exit 1; }
  done
  echo "offload, hart and software images of the bunny are identical"
fi
