#!/usr/bin/env bash
# scripts/time-test-command.sh [COMMIT] [WORK_DIR]: times the README's two
# commands as a newcomer meets them, for the figures in the README: a fresh
# clone of COMMIT (default HEAD) in WORK_DIR (default a new folder in /tmp),
# an empty ccache (its own CCACHE_DIR) or none, the packages already
# installed.
#   1. ./scripts/demo.sh: the wall time until its first sample runs, and to
#      its end;
#   2. the build trees and the cache removed again, ./scripts/test.sh: its
#      per-step wall and CPU times (test.sh prints them) and the total.
# Run it on a quiet machine: the wall figures are what the README states.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
commit=${1:-HEAD}
work=${2:-$(mktemp -d /tmp/shardgen-time.XXXXXX)}
commit=$(git -C "$root" rev-parse "$commit")
clone=$work/shardgen
rm -rf "$clone" "$work/ccache"
git clone -q --no-local "$root" "$clone"
git -C "$clone" checkout -q --detach "$commit"
echo "time-test-command: $commit in $clone ($(nproc) cores, load $(cut -d' ' -f1-3 /proc/loadavg))"

# Packages first, untimed (both commands install what is missing).
"$clone/scripts/install-deps.sh" libclang-rt-19-dev mlir-19-tools llvm-19-tools clang-format-19 \
  clang-tidy-19 python3-dev pybind11-dev libdlpack-dev python3-numpy python3-pytest \
  python3-setuptools python3-wheel python3-venv python3-pip
"$clone/scripts/install-deps.sh" chromium || true

# stamp: prefixes each line with the seconds since $start.
stamp() { while IFS= read -r line; do printf '%7.1f %s\n' "$(($(date +%s%N) / 1000000 - start))e-3" "$line"; done; }
cold() { rm -rf "$clone"/build* "$work/ccache"; export CCACHE_DIR=$work/ccache; }

cold
start=$(($(date +%s%N) / 1000000))
(cd "$clone" && ./scripts/demo.sh 2>&1) | stamp >"$work/demo.log"
first=$(awk '/== shardgen check/ { print $1; exit }' "$work/demo.log")
demo_end=$(tail -n 1 "$work/demo.log" | awk '{ print $1 }')

cold
start=$(($(date +%s%N) / 1000000))
status=0
(cd "$clone" && ./scripts/test.sh 2>&1) | stamp >"$work/test.log" || status=$?
test_end=$(tail -n 1 "$work/test.log" | awk '{ print $1 }')

echo "demo.sh: first sample after ${first:-?} s wall, done after $demo_end s (log: $work/demo.log)"
echo "test.sh: done after $test_end s wall, exit $status (log: $work/test.log)"
sed -n '/test.sh: wall and CPU/,$p' "$work/test.log" | cut -c9-
exit $status
