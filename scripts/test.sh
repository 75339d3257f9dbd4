#!/usr/bin/env bash
# Sets up, builds and runs every test (the README's test command).
#   scripts/test.sh            normal build in build/
#   scripts/test.sh --sanitize ASan+UBSan build in build-san/, with the libFuzzer
#                              targets run for a bounded time
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-deps.sh
dir=build; extra=()
if [ "${1:-}" = "--sanitize" ]; then
  dir=build-san; extra=(-DXPHMG_SANITIZE=ON -DXPHMG_FUZZ=ON -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_COMPILER=clang)
fi
cmake -S . -B "$dir" "${extra[@]}" >/dev/null
cmake --build "$dir" -j"$(nproc)"
cd "$dir" && ctest --output-on-failure -j"$(nproc)"
