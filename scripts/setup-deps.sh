#!/usr/bin/env bash
# Installs every Debian package xphmg needs to build, test and benchmark.
# Safe to run repeatedly; does nothing when everything is already present.
set -euo pipefail

PKGS=(
  build-essential cmake pkg-config python3
  libxml2-dev libxml2-utils        # ISA spec loader, xmllint --schema
  libelf-dev                       # ELF reader for the simulator and objdump
  libcmocka-dev                    # unit tests
  libyaml-dev                      # implementation profiles
  libzstd-dev                      # xmem.dloadc/dstorec compression (errata Q-55)
  gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf picolibc-riscv64-unknown-elf
  clang libclang-rt-14-dev         # libFuzzer + sanitizers
  qemu-system-misc                 # benchmark peer (qemu-system-riscv64 -M spike)
  hyperfine                        # bench/sim/run.sh times the simulators side by side
  clang-format
  libassimp-dev                    # mesh import of xphmg-bvh (OBJ, PLY, STL, glTF, ...)
  libembree-dev                    # bench/rt peer (Embree 3)
  glmark2-data                     # real meshes for bench/rt and the demo (bunny.obj, asteroid-high.3ds)
  libpng-dev                       # the demo picture (examples/render: PPM to PNG)
  gdb-multiarch                    # debugging guests through xphmg-sim --gdb (test sim_gdb)
)

missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "setup-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
