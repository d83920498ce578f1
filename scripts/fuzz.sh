#!/usr/bin/env bash
# scripts/fuzz.sh [SECONDS] [TARGET...]: long libFuzzer runs (600 s each by
# default) of fuzz_graph, fuzz_sharding, fuzz_npy, fuzz_partition, fuzz_mlir
# and fuzz_cache_entry (or the TARGETs named), one after another, one process
# each. Builds them first (scripts/build-fuzz.sh: clang-19 in build-fuzz).
# The corpus grows in build-fuzz/test/fuzz/corpus/TARGET; the log is
# build-fuzz/TARGET.log; a crash, leak, timeout or out-of-memory input lands
# in build-fuzz/test/fuzz/corpus/TARGET.artifacts/ and fails the script.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-600}
shift || true
targets=("$@")
if ((${#targets[@]} == 0)); then
  targets=(fuzz_graph fuzz_sharding fuzz_npy fuzz_partition fuzz_mlir fuzz_cache_entry)
fi
"$root/scripts/build-fuzz.sh" "${targets[@]}"
cd "$root/build-fuzz"
status=0
for target in "${targets[@]}"; do
  echo "== $target: $seconds s (log: build-fuzz/$target.log)"
  if SHARDGEN_FUZZ_SECONDS=$seconds ctest -R "^$target\$" -V --timeout $((seconds + 300)) \
      >"$target.log" 2>&1; then
    echo "   passed"
  else
    echo "   FAILED: see build-fuzz/$target.log and build-fuzz/test/fuzz/corpus/$target.artifacts/"
    status=1
  fi
  grep -E "stat::(number_of_executed_units|peak_rss_mb)|Done [0-9]+ runs|cov: [0-9]+ ft: [0-9]+ corp" \
    "$target.log" | tail -4 || true
done
exit $status
