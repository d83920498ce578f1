#!/usr/bin/env bash
# Configures and builds the libFuzzer targets of test/fuzz with clang-19 in
# build-fuzz (needs libclang-rt-19-dev, which scripts/test.sh installs):
# scripts/build-fuzz.sh [TARGET...] (default: all). Uses ccache when the
# machine has it, as scripts/build.sh does.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
launcher=()
if command -v ccache >/dev/null 2>&1; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
targets=()
if (($#)); then targets=(--target "$@"); fi
# -O1 and line tables only, as the sanitizer tree: a quarter less CPU time.
cmake -S "$root/test/fuzz" -B "$root/build-fuzz" -G Ninja -DCMAKE_CXX_COMPILER=clang++-19 \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" \
  "${launcher[@]}" >/dev/null
cmake --build "$root/build-fuzz" -j"$(nproc)" "${targets[@]}"
