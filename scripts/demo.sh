#!/usr/bin/env bash
# Sets up, builds and runs the main job (the README's first command): the
# examples/precision guest program, built with riscv64-unknown-elf-gcc + picolibc,
# programs XPHMG_CAP's numeric policy by the spec's section 6 sequences and converts a
# buffer through the numeric engine on xphmg-sim; then the XPHMG instructions it uses
# are shown by xphmg-objdump.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
cmake -S . -B build >/dev/null
cmake --build build -j"$(nproc)"
elf=build/examples/precision/precision.elf
echo "== xphmg-sim --stats $elf"
build/tools/xphmg-sim --stats "$elf"
echo
echo "== XPHMG instructions in $elf (xphmg-objdump -d)"
build/tools/xphmg-objdump -d "$elf" | grep -E $'\t(xcvt|rt\\.|xmem\\.|xlds\\.|xfence\\.|xsubmit\\.|xswz\\.)' | head -8
