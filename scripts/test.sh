#!/usr/bin/env bash
# Installs what is missing, checks the format, builds shardgen and its tests
# with warnings as errors (GCC), runs clang-tidy and the whole suite; then
# builds the libraries, their suites, the tool and the libFuzzer targets of
# test/fuzz again with clang under AddressSanitizer + UBSan and runs them
# (each fuzz target for a bounded time). Ends with each step's wall and CPU
# time.
#
# clang-tidy runs beside the plain suite at the lowest priority (nice 19): it
# takes the cores the suite leaves idle (tests waiting on processes, mpirun,
# timeouts, a last long test) and slows it down hardly at all. (Builds beside
# builds do not pay: both cores are busy, and the caches thrash.)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
jobs=$(nproc)

# step NAME COMMAND...: runs COMMAND and records its wall time and the CPU
# time (user + system) of the processes it ran, for the summary at the end.
records=$(mktemp -d)
cpu_seconds() { # the children this shell waited for, from `times` in $1
  awk 'NR == 2 { for (i = 1; i <= 2; i++) { split($i, t, /[ms]/); s += t[1] * 60 + t[2] } }
       END { print s }' "$1"
}
step() {
  local name=$1 start before times=$records/times.$BASHPID
  shift
  start=$(date +%s.%N)
  times >"$times"
  before=$(cpu_seconds "$times")
  "$@"
  times >"$times"
  awk -v n="$name" -v w="$(date +%s.%N)" -v s="$start" -v c="$(cpu_seconds "$times")" -v b="$before" \
    'BEGIN { printf "%-34s %6.0f s wall %6.0f s CPU\n", n, w - s, c - b }' >>"$records/steps"
}

# beside NAME LOG COMMAND...: a step at nice 19 in the background, its output
# in LOG; `finish NAME` waits for it and, if it failed, prints the log's
# tail and stops the script.
declare -A pids logs
beside() {
  local name=$1 log=$2
  shift 2
  logs[$name]=$log
  (step "$name (beside)" nice -n 19 "$@" >"$log" 2>&1) &
  pids[$name]=$!
}
finish() { # NAME: its log is printed after it
  local status=0
  wait "${pids[$1]}" || status=$?
  unset "pids[$1]"
  if ((status)); then
    tail -n 80 "${logs[$1]}" >&2
    echo "test.sh: $1 failed (its whole output: ${logs[$1]})" >&2
    exit 1
  fi
  cat "${logs[$1]}"
}
# quietly LOG COMMAND...: COMMAND's output in LOG, shown (its tail) only if
# it fails.
quietly() {
  local log=$1
  shift
  "$@" >"$log" 2>&1 || {
    tail -n 80 "$log" >&2
    echo "test.sh: $* failed (its whole output: $log)" >&2
    return 1
  }
}
at_exit() {
  local pid
  for pid in "${pids[@]}"; do pkill -P "$pid" 2>/dev/null || true; done
  if [ -s "$records/steps" ]; then
    echo "test.sh: wall and CPU (user + system) time per step"
    sed 's/^/  /' "$records/steps"
  fi
  rm -rf "$records"
}
trap at_exit EXIT

# libclang-rt-19-dev: libFuzzer for test/fuzz; mlir-19-tools: mlir-opt-19, which
# test_mlir runs on the generic MLIR export; llvm-19-tools: FileCheck-19, which
# lit_mlir (test/lit) checks shardgen's MLIR output with (tests only, shardgen
# never needs them). clang-format-19, clang-tidy-19: the style checks below
# (tests only too).
step packages "$root/scripts/install-deps.sh" libclang-rt-19-dev mlir-19-tools llvm-19-tools \
  clang-format-19 clang-tidy-19
# The Python module (python/, built when these are there) and its tests:
# Debian's python3 with numpy and pytest; setuptools, wheel and venv for the
# pip install test. python3-torch (577 MB installed) is not installed: the
# tests taking PyTorch tensors are skipped without it.
step "packages (Python)" "$root/scripts/install-deps.sh" python3-dev pybind11-dev libdlpack-dev \
  python3-numpy python3-pytest python3-setuptools python3-wheel python3-venv python3-pip
# Test-only: the browser test_show_browser opens `show --html` pages in (it is
# skipped, not failed, when chromium cannot be installed).
"$root/scripts/install-deps.sh" chromium ||
  echo "shardgen: chromium could not be installed: test_show_browser will be skipped"

# Style first: it fails in seconds.
step format "$root/scripts/check-format.sh"

suite() { (cd "$root/$1" && ctest --output-on-failure --no-tests=error -j"$jobs"); }

# Tests on explicitly: demo.sh configures the same tree without them.
step "build (GCC, -Werror)" "$root/scripts/build.sh" build -DSHARDGEN_BUILD_TESTS=ON \
  -DSHARDGEN_WERROR=ON
beside clang-tidy "$root/build/check-tidy.out" "$root/scripts/check-tidy.sh" build
step suite suite build
finish clang-tidy

# The sanitizer tree (clang-19, AddressSanitizer + UBSan) builds only what
# it instruments and runs (the AOT applications, the MPI launcher and the
# browser test the plain binary: test/CMakeLists.txt), and the libFuzzer
# targets of test/fuzz from the same objects. The front stages and the
# runtime at -O1, as sanitizer builds usually are (the suites spend their
# time there); the rest at -O0 (compiled once, run little). About half the
# CPU time of GCC's sanitizer build at -O1 and the fuzz targets' own build.
# Its output goes to a log (no -Werror there: the plain build has it).
sanitizer_tree() {
  "$root/scripts/configure-sanitized.sh" build-asan -DSHARDGEN_BUILD_TESTS=ON \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O0 -g1 -DNDEBUG" -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O0 -g1 -DNDEBUG" \
    -DSHARDGEN_FRONT_CXX_FLAGS=-O1
  cmake --build "$root/build-asan" -j"$jobs"
}
step "build (clang, ASan+UBSan, fuzz)" quietly "$root/build/sanitizer-build.log" sanitizer_tree
# The suites, and each fuzz target for 15 s from its seeds. Allocation
# stacks of 8 frames and no fake stacks for use-after-return (GCC's runtime
# did not check it either): a fifth less time.
export ASAN_OPTIONS=detect_leaks=1:detect_stack_use_after_return=0:malloc_context_size=8 \
  LSAN_OPTIONS="suppressions=$root/test/lsan.supp:print_suppressions=0"
step "suite (ASan+UBSan), fuzz" suite build-asan
