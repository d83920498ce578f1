#!/usr/bin/env bash
# Configures build-fuzz (clang-19, ASan + UBSan, libFuzzer coverage, -O1)
# and builds the libFuzzer targets of test/fuzz in it, for long runs
# (scripts/fuzz.sh): scripts/build-fuzz.sh [TARGET...] (default: all). Needs
# libclang-rt-19-dev, which scripts/test.sh installs. (scripts/test.sh
# builds the same targets in its sanitizer tree, build-asan, and runs each
# for 15 s.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(fuzz_graph fuzz_sharding fuzz_npy fuzz_partition fuzz_mlir fuzz_cache_entry)
fi
"$root/scripts/configure-sanitized.sh" build-fuzz -DSHARDGEN_BUILD_TESTS=OFF -DSHARDGEN_FRONT_CXX_FLAGS= \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG"
cmake --build "$root/build-fuzz" -j"$(nproc)" --target "${targets[@]}"
