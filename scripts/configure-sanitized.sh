#!/usr/bin/env bash
# Configures a sanitizer tree: clang-19 with AddressSanitizer + UBSan and the
# libFuzzer targets of test/fuzz (SHARDGEN_FUZZ):
#   scripts/configure-sanitized.sh DIR [extra cmake args]
# A DIR configured with another compiler before is made again from scratch
# (CMake cannot switch compilers in place). Uses ccache when the machine has
# it, as scripts/build.sh does.
set -euo pipefail
dir=$1; shift
root=$(cd "$(dirname "$0")/.." && pwd)
cache=$root/$dir/CMakeCache.txt
if [ -f "$cache" ] && ! grep -q '^CMAKE_CXX_COMPILER:[A-Z]*=.*clang++-19$' "$cache"; then
  rm -rf "${root:?}/$dir"
fi
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
cmake -S "$root" -B "$root/$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_COMPILER=clang++-19 -DCMAKE_C_COMPILER=clang-19 -DSHARDGEN_SANITIZE=ON \
  -DSHARDGEN_FUZZ=ON "${launcher[@]}" "$@" >/dev/null
