#!/usr/bin/env bash
# Configures and builds one build tree: scripts/build.sh DIR [extra cmake args].
# Uses ccache when the machine has it (rebuilds of a fresh clone then take
# seconds); nothing requires it.
set -euo pipefail
dir=$1; shift
root=$(cd "$(dirname "$0")/.." && pwd)
launcher=()
if command -v ccache >/dev/null 2>&1; then
  launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
fi
# Line tables only (-g1): stack traces and sanitizer reports keep file:line,
# and the build takes about a third less time than with full -g.
cmake -S "$root" -B "$root/$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O2 -g1 -DNDEBUG" \
  "${launcher[@]}" "$@" >/dev/null
cmake --build "$root/$dir" -j"$(nproc)"
