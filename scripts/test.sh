#!/usr/bin/env bash
# Installs what is missing, builds shardgen and its tests, and runs the whole
# suite twice: a normal build, then one under AddressSanitizer + UBSan.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
# Test-only: the browser test_show_browser opens `show --html` pages in (it is
# skipped, not failed, when chromium cannot be installed).
"$root/scripts/install-deps.sh" chromium ||
  echo "shardgen: chromium could not be installed: test_show_browser will be skipped"

"$root/scripts/build.sh" build
(cd "$root/build" && ctest --output-on-failure -j"$(nproc)")

"$root/scripts/build.sh" build-asan -DSHARDGEN_SANITIZE=ON
(cd "$root/build-asan" &&
  ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS="suppressions=$root/test/lsan.supp:print_suppressions=0" \
    ctest --output-on-failure -j"$(nproc)")
