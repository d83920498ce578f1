#!/usr/bin/env bash
# The AOT differential test: every sample graph (but those with a
# custom_call, which need a user library; samples/mlir's imported) and N random graphs
# (test/support/RandomGraphGenerator, seeds FIRST..FIRST+N-1) are compiled
# with `shardgen compile`, linked together into one application
# (test/aot/app) per compiler and flags below, run on the same .npy inputs,
# and each output compared elementwise with `shardgen eval`'s
# (test/aot/OutputComparison.cpp); test/aot/app/AliasProbe.cpp checks the
# kernels' aliasing contract directly. UBSan must stay silent and every build
# free of warnings at -Wall -Wextra. GCC and clang at the same flags (and the
# UBSan build) must give bit-identical outputs.
#
#   scripts/aot-differential.sh [N] [--first SEED] [--builds LABEL,...] [--shardgen BIN]
#                               [--tool BIN] [--work DIR]
#
# N defaults to 50; --builds keeps only the builds named (default: all five
# below; a pair is compared when both of its builds ran). Without --shardgen/--tool the script builds them in
# build/ (configure it first, see README.md). Exit 0 when everything
# matches, 1 on any mismatch or failed build. ctest runs a bounded slice
# (aot_differential in test/CMakeLists.txt).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
count=50 first=0 shardgen="" tool="" work="" only=""
while [ $# -gt 0 ]; do
  case "$1" in
    --first) first=$2; shift 2 ;;
    --builds) only=$2; shift 2 ;;
    --shardgen) shardgen=$2; shift 2 ;;
    --tool) tool=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    [0-9]*) count=$1; shift ;;
    *) echo "usage: $0 [N] [--first SEED] [--builds LABEL,...] [--shardgen BIN] [--tool BIN]" \
            "[--work DIR]" >&2; exit 2 ;;
  esac
done
if [ -z "$shardgen" ] || [ -z "$tool" ]; then
  cmake --build "$root/build" --target shardgen shardgen_aot_tool >/dev/null
  shardgen=$root/build/shardgen tool=$root/build/test/shardgen_aot_tool
fi
work=${work:-$(mktemp -d /tmp/aot-differential.XXXXXX)}
rm -rf "$work" && mkdir -p "$work/graphs"
start=$SECONDS
jobs=$(nproc)
launcher=$(command -v ccache || true) # the runtime's sources are the same every build

# Compiler and flags of each build: name, C++ compiler, flags.
builds=(
  "gcc-O2-native g++ -O2 -march=native"
  "gcc-O3 g++ -O3"
  "clang-O2-native clang++-19 -O2 -march=native"
  "clang-O3 clang++-19 -O3"
  "gcc-ubsan g++ -O2 -march=native -fsanitize=undefined -fno-sanitize-recover=all"
)
if [ -n "$only" ]; then
  kept=()
  for build in "${builds[@]}"; do
    [[ ",$only," == *",${build%% *},"* ]] && kept+=("$build")
  done
  if [ ${#kept[@]} -ne $(($(tr -cd , <<<"$only" | wc -c) + 1)) ]; then
    echo "aot-differential: --builds $only names a build that is not one of: ${builds[*]%% *}" >&2
    exit 2
  fi
  builds=("${kept[@]}")
fi

# ---- the graphs, their inputs and the interpreter's outputs ----------------
for sample in "$root"/samples/*.json; do
  grep -q '"custom_call"' "$sample" || cp "$sample" "$work/graphs/"
done
cp "$root"/test/aot/graphs/*.json "$work/graphs/" # what the samples and random graphs lack
for sample in "$root"/samples/mlir/*.mlir; do # JAX's programs: the window, indexing and bit ops
  "$shardgen" import "$sample" -o "$work/graphs/mlir_$(basename "$sample" .mlir).json" >/dev/null
done
for ((seed = first; seed < first + count; ++seed)); do
  "$tool" graph "$seed" "$work/graphs/random_$seed.json"
done
names=()
for graph in "$work"/graphs/*.json; do
  name=$(basename "$graph" .json)
  case=$work/cases/$name
  mkdir -p "$case"
  "$tool" inputs "$graph" 7 "$case/in"
  inputs=$(ls "$case"/in/in*.npy 2>/dev/null | sort -V | tr '\n' ' ')
  "$shardgen" eval "$graph" ${inputs:+--inputs $inputs} -o "$case/expected" >/dev/null
  "$shardgen" compile "$graph" -o "$work/gen/$name" --name "$name" >/dev/null 2>&1
  names+=("$name")
done
echo "${#names[@]} programs generated ($((SECONDS - start)) s)"

# ---- one application per build, every program run and compared ------------
failures=0
for build in "${builds[@]}"; do
  read -r label cxx flags <<<"$build"
  dir=$work/build-$label
  if ! { cmake -S "$root/test/aot/app" -B "$dir" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" \
           -DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" \
           -DCMAKE_BUILD_TYPE= -DCMAKE_CXX_FLAGS="$flags -Wall -Wextra" -DSHARDGEN_PROGRAM_OPTIONS= \
           -DSHARDGEN_AOT_GENERATED="$work/gen" -DSHARDGEN_AOT_PROGRAMS="$(IFS=';'; echo "${names[*]}")" &&
         cmake --build "$dir" -j"$jobs"; } >"$dir.log" 2>&1; then
    echo "$label: build FAILED (see $dir.log)"
    failures=$((failures + 1))
    continue
  fi
  warnings=$(grep -c 'warning:' "$dir.log" || true)
  if [ "$warnings" -gt 0 ]; then # the generated code builds warning-free at -Wall -Wextra
    grep -m5 'warning:' "$dir.log" | sed 's/^/    /'
    failures=$((failures + 1))
  fi
  bad=()
  "$dir/alias_probe" >"$dir/alias_probe.log" 2>&1 || { bad+=(alias_probe); sed 's/^/    /' "$dir/alias_probe.log"; }
  for name in "${names[@]}"; do
    out=$work/cases/$name/$label
    mkdir -p "$out"
    if ! UBSAN_OPTIONS=print_stacktrace=1 "$dir/aot_driver" "$name" "$work/cases/$name/in" "$out" \
           >"$out/log" 2>&1 ||
       ! "$tool" compare "$work/cases/$name/expected" "$out" >>"$out/log" 2>&1; then
      bad+=("$name")
      sed 's/^/    /' "$out/log" | head -5
    fi
  done
  echo "$label: ${#names[@]} programs, ${#bad[@]} failed${bad:+: ${bad[*]}}," \
       "$warnings compiler warnings ($((SECONDS - start)) s)"
  failures=$((failures + ${#bad[@]}))
done
# ---- GCC and clang at the same flags: the same bits ------------------------
# The tolerance above admits another summation order; two compilers building
# the same code for the same target must not differ at all (a compiler-
# dependent result is undefined behaviour or an unstated FP contraction).
for pair in "gcc-O2-native clang-O2-native" "gcc-O3 clang-O3" "gcc-O2-native gcc-ubsan"; do
  read -r one other <<<"$pair"
  [ -d "$work/build-$one" ] && [ -d "$work/build-$other" ] || continue
  differ=()
  for name in "${names[@]}"; do
    for file in "$work/cases/$name/$one"/out*.npy; do
      [ -e "$file" ] || continue
      cmp -s "$file" "$work/cases/$name/$other/$(basename "$file")" || differ+=("$name/$(basename "$file")")
    done
  done
  echo "$one vs $other: ${#differ[@]} outputs differ in their bits${differ:+: ${differ[*]}}"
  failures=$((failures + ${#differ[@]}))
done

echo "aot-differential: $failures failures, ${#names[@]} programs x ${#builds[@]} builds," \
     "$((SECONDS - start)) s (work dir $work)"
[ "$failures" -eq 0 ]
