#!/usr/bin/env bash
# Start-up of the shardgen tool: wall time (best of ROUNDS, rounds
# interleaved) and peak resident memory of the commands a user types most,
# against a baseline binary in the same run (e.g. main's, which loads LLVM
# and clang at start) and an empty C++ program (the floor of any binary
# without LLVM).
#
#   bench/startup.sh [SHARDGEN] [BASELINE_SHARDGEN] [ROUNDS]
#
# SHARDGEN defaults to build/shardgen, ROUNDS to 20. `run` is timed with a
# warm compile cache (a private XDG_CACHE_HOME filled by one run first).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tool=${1:-$root/build/shardgen}
baseline=${2:-}
rounds=${3:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

printf 'int main() { return 0; }\n' | g++ -O2 -x c++ - -o "$work/empty"
export XDG_CACHE_HOME=$work/cache
mlp=$root/samples/mlp.json
attention=$root/samples/attention.json
commands=(
  "--help"
  "check $mlp"
  "propagate $mlp -o $work/p.json"
  "compile $mlp -o $work/gen"
  "run $attention"
)
binaries=("$tool")
[ -n "$baseline" ] && binaries+=("$baseline")

now() { date +%s%N; }
# Best wall time in ms of `binary command`, one round per call.
declare -A best
measure() {
  local binary=$1 command=$2 start end ms
  start=$(now)
  # shellcheck disable=SC2086
  "$binary" $command >/dev/null 2>&1 || true
  end=$(now)
  ms=$(((end - start) / 1000))
  local key="$binary|$command"
  if [ -z "${best[$key]:-}" ] || [ "$ms" -lt "${best[$key]}" ]; then best[$key]=$ms; fi
}
rss_kb() { # peak resident set of one run, KB
  # shellcheck disable=SC2086
  /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1
}

for binary in "${binaries[@]}"; do # warm the page cache and the compile cache
  for command in "${commands[@]}"; do measure "$binary" "$command"; done
  best=()
done
for ((r = 0; r < rounds; ++r)); do
  for command in "${commands[@]}"; do
    measure "$work/empty" "$command"
    for binary in "${binaries[@]}"; do measure "$binary" "$command"; done
  done
done

floor_rss=$(rss_kb "$work/empty")
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg); best of $rounds; times in ms, RSS in MB"
printf '%-12s %10s %10s' command "empty ms" "ms"
[ -n "$baseline" ] && printf ' %12s %8s' "baseline ms" ratio
printf ' %8s %10s' "RSS" "extra RSS"
[ -n "$baseline" ] && printf ' %12s' "baseline RSS"
printf '\n'
for command in "${commands[@]}"; do
  name=${command%% *}
  empty_ms=${best["$work/empty|$command"]}
  ms=${best["$tool|$command"]}
  # shellcheck disable=SC2086
  rss=$(rss_kb "$tool" $command)
  printf '%-12s %10.1f %10.1f' "$name" "$(bc -l <<<"$empty_ms/1000")" "$(bc -l <<<"$ms/1000")"
  if [ -n "$baseline" ]; then
    base_ms=${best["$baseline|$command"]}
    printf ' %12.1f %7.1fx' "$(bc -l <<<"$base_ms/1000")" "$(bc -l <<<"$base_ms/$ms")"
  fi
  printf ' %8.1f %10.1f' "$(bc -l <<<"$rss/1024")" "$(bc -l <<<"($rss-$floor_rss)/1024")"
  if [ -n "$baseline" ]; then
    # shellcheck disable=SC2086
    base_rss=$(rss_kb "$baseline" $command)
    printf ' %12.1f' "$(bc -l <<<"$base_rss/1024")"
  fi
  printf '\n'
done
