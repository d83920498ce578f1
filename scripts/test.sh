#!/usr/bin/env bash
# Installs what is missing, checks the format, builds shardgen and its tests
# with warnings as errors, runs clang-tidy, and runs the whole suite twice: a
# normal build, then one under AddressSanitizer + UBSan; then the libFuzzer
# targets of test/fuzz for a bounded time each.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# libclang-rt-19-dev: libFuzzer for test/fuzz; mlir-19-tools: mlir-opt-19, which
# test_mlir runs on the generic MLIR export; llvm-19-tools: FileCheck-19, which
# lit_mlir (test/lit) checks shardgen's MLIR output with (tests only, shardgen
# never needs them). clang-format-19, clang-tidy-19: the style checks below
# (tests only too).
"$root/scripts/install-deps.sh" libclang-rt-19-dev mlir-19-tools llvm-19-tools clang-format-19 \
  clang-tidy-19
# The Python module (python/, built when these are there) and its tests:
# Debian's python3 with numpy and pytest; setuptools, wheel and venv for the
# pip install test. python3-torch (577 MB installed) is not installed: the
# tests taking PyTorch tensors are skipped without it.
"$root/scripts/install-deps.sh" python3-dev pybind11-dev libdlpack-dev python3-numpy \
  python3-pytest python3-setuptools python3-wheel python3-venv python3-pip
# Test-only: the browser test_show_browser opens `show --html` pages in (it is
# skipped, not failed, when chromium cannot be installed).
"$root/scripts/install-deps.sh" chromium ||
  echo "shardgen: chromium could not be installed: test_show_browser will be skipped"

# Style first: it fails in seconds.
"$root/scripts/check-format.sh"

# Tests on explicitly: demo.sh configures the same tree without them.
"$root/scripts/build.sh" build -DSHARDGEN_BUILD_TESTS=ON -DSHARDGEN_WERROR=ON
"$root/scripts/check-tidy.sh" build
(cd "$root/build" && ctest --output-on-failure --no-tests=error -j"$(nproc)")

# No -Werror here: GCC 12's instrumentation makes std::function inside
# <regex> look maybe-uninitialized (-Wmaybe-uninitialized false positives).
"$root/scripts/build.sh" build-asan -DSHARDGEN_SANITIZE=ON
(cd "$root/build-asan" &&
  ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$root/test/lsan.supp:print_suppressions=0" \
    ctest --output-on-failure --no-tests=error -j"$(nproc)")

# The fuzz targets build with clang-19 in a project of their own (test/fuzz);
# each runs FUZZ_SECONDS (15) from its seeds.
cmake -S "$root/test/fuzz" -B "$root/build-fuzz" -G Ninja -DCMAKE_CXX_COMPILER=clang++-19 >/dev/null
cmake --build "$root/build-fuzz" -j"$(nproc)"
(cd "$root/build-fuzz" && ctest --output-on-failure --no-tests=error -j"$(nproc)")
