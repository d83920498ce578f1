#!/usr/bin/env bash
# Runs Shardy's own propagation tests (openxla/shardy,
# shardy/dialect/sdy/transforms/propagation/test/*.mlir) as they are, RUN and
# CHECK lines unchanged, through shardgen with the lit runner of test/lit:
# each test function is a case, its sdy_opt passes mapped onto shardgen
# commands. Prints per file how many cases pass, fail and are skipped (with
# the skip reasons and the failing cases). Not part of the test suite: it
# needs a Shardy checkout, and many cases are skipped (ops the graph format
# lacks) or fail on output forms shardgen does not reproduce
# (test/conformance/README.md has the figures and the reasons).
#
#   scripts/shardy-lit.sh [--shardy DIR] [--build DIR] [-v] [FILE.mlir ...]
#
# --shardy DIR: a Shardy checkout (default: a shallow clone into
# BUILD/shardy-src, made on first use, needs git and the network).
# --build DIR: shardgen's build tree with shardgen and shardgen_lit (default:
# build; `cmake --build build --target shardgen shardgen_lit`).
# -v: every case's result, and FileCheck's messages for each failure.
# FILE.mlir: only these files (default: every file of the test folder).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
shardy=
verbose=--summary
files=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --shardy) shardy=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -v) verbose=-v; shift ;;
    -*) echo "usage: $0 [--shardy DIR] [--build DIR] [-v] [FILE.mlir ...]" >&2; exit 2 ;;
    *) files+=("$1"); shift ;;
  esac
done
for tool in shardgen test/shardgen_lit; do
  if [[ ! -x $build/$tool ]]; then
    echo "shardy-lit: $build/$tool is missing: cmake --build $build --target shardgen shardgen_lit" >&2
    exit 2
  fi
done
if [[ -z $shardy ]]; then
  shardy=$build/shardy-src
  if [[ ! -d $shardy/.git ]]; then
    git clone --quiet --depth 1 https://github.com/openxla/shardy "$shardy"
  fi
fi
tests=$shardy/shardy/dialect/sdy/transforms/propagation/test
if [[ ! -d $tests ]]; then
  echo "shardy-lit: $tests is not a folder (is $shardy a Shardy checkout?)" >&2
  exit 2
fi
if [[ ${#files[@]} -eq 0 ]]; then
  files=("$tests"/*.mlir)
fi
filecheck=$(command -v FileCheck-19 || command -v FileCheck || echo /usr/lib/llvm-19/bin/FileCheck)
if [[ -d $shardy/.git ]]; then
  echo "Shardy $(git -C "$shardy" log -1 --format='%h %cs' 2>/dev/null || echo '(unknown commit)')"
fi
# The runner's exit status says whether a case failed; here that is the
# report, not an error.
"$build/test/shardgen_lit" --shardgen "$build/shardgen" --filecheck "$filecheck" $verbose \
  "${files[@]}" || true
