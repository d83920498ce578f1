#!/usr/bin/env bash
# Start-up of the shardgen tool: wall time and CPU time (each the best of
# ROUNDS, rounds interleaved) and peak resident memory of the commands a
# user types most, against a baseline binary in the same run (e.g. main's,
# which loads LLVM and clang at start) and an empty C++ program (the floor
# of any binary: process creation, libc and libstdc++).
#
#   bench/startup.sh [SHARDGEN] [BASELINE_SHARDGEN] [ROUNDS]
#
# SHARDGEN defaults to build/shardgen, ROUNDS to 20. `run` is timed with a
# warm compile cache (a private XDG_CACHE_HOME filled by the first round).
# CPU time (user + system, `perf stat`'s task-clock; "-" without perf) is
# what a busy machine cannot inflate: on a shared machine read it beside
# the wall time.
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
binaries=("$work/empty" "$tool")
[ -n "$baseline" ] && binaries+=("$baseline")
have_perf=$(command -v perf >/dev/null && perf stat -x, -e task-clock true 2>/dev/null && echo 1 || echo 0)

declare -A wall cpu
# One round of `binary command`: keeps the best wall and CPU milliseconds.
measure() {
  local binary=$1 command=$2 key="$1|$2" start end ms used=""
  start=$(date +%s%N)
  if [ "$have_perf" = 1 ]; then
    # shellcheck disable=SC2086
    perf stat -x, -e task-clock -o "$work/stat" "$binary" $command >/dev/null 2>&1 || true
    used=$(awk -F, '/task-clock/ { print $1 }' "$work/stat")
  else
    # shellcheck disable=SC2086
    "$binary" $command >/dev/null 2>&1 || true
  fi
  end=$(date +%s%N)
  ms=$(bc -l <<<"($end - $start) / 1000000")
  if [ -z "${wall[$key]:-}" ] || (($(bc -l <<<"$ms < ${wall[$key]}"))); then wall[$key]=$ms; fi
  if [ -n "$used" ] && { [ -z "${cpu[$key]:-}" ] || (($(bc -l <<<"$used < ${cpu[$key]}"))); }; then
    cpu[$key]=$used
  fi
}
rss_mb() { # peak resident set of one run
  # shellcheck disable=SC2086
  /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -1 | awk '{ printf "%.1f", $1 / 1024 }'
}
show() { [ -n "${1:-}" ] && printf '%.1f' "$1" || printf -- '-'; }

for binary in "${binaries[@]}"; do # the page cache and the compile cache warm
  for command in "${commands[@]}"; do measure "$binary" "$command"; done
done
wall=() cpu=()
for ((r = 0; r < rounds; ++r)); do
  for command in "${commands[@]}"; do
    for binary in "${binaries[@]}"; do measure "$binary" "$command"; done
  done
done

echo "load average $(cut -d' ' -f1-3 /proc/loadavg); best of $rounds; ms and MB"
printf '%-10s | %9s %9s %9s | %9s %9s' command "empty" "wall" "CPU" "RSS" "+RSS"
[ -n "$baseline" ] && printf ' | %9s %9s %9s %7s' "base wall" "base CPU" "base RSS" "ratio"
printf '\n'
empty_rss=$(rss_mb "$work/empty")
for command in "${commands[@]}"; do
  # shellcheck disable=SC2086
  rss=$(rss_mb "$tool" $command)
  printf '%-10s | %9s %9s %9s | %9s %9s' "${command%% *}" "$(show "${wall["$work/empty|$command"]}")" \
    "$(show "${wall["$tool|$command"]}")" "$(show "${cpu["$tool|$command"]:-}")" "$rss" \
    "$(bc -l <<<"$rss - $empty_rss" | xargs printf '%.1f')"
  if [ -n "$baseline" ]; then
    # shellcheck disable=SC2086
    base_rss=$(rss_mb "$baseline" $command)
    printf ' | %9s %9s %9s %6.1fx' "$(show "${wall["$baseline|$command"]}")" \
      "$(show "${cpu["$baseline|$command"]:-}")" "$base_rss" \
      "$(bc -l <<<"${wall["$baseline|$command"]} / ${wall["$tool|$command"]}")"
  fi
  printf '\n'
done
