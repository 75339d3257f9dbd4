#!/usr/bin/env bash
# Sets up, builds and runs the main job (the README's first command).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
cmake -S . -B build >/dev/null
cmake --build build -j"$(nproc)"
exec build/tools/xphmg-isa -x spec/xphmg.xml -d 0x00b50533 0x0005450b 0x4505
