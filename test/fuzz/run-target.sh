#!/usr/bin/env bash
# run-target.sh FUZZER SECONDS WORK_CORPUS SEED_DIR...: one bounded libFuzzer
# run (one process, memory and per-input time limits) that starts from the
# seeds and keeps what it finds in WORK_CORPUS. Fails on any crash, leak,
# timeout or out-of-memory (libFuzzer exits non-zero and writes the input).
# SHARDGEN_FUZZ_SECONDS overrides SECONDS (scripts/fuzz.sh's long runs).
set -euo pipefail
fuzzer=$1 seconds=${SHARDGEN_FUZZ_SECONDS:-$2} work=$3
shift 3
mkdir -p "$work" "$work.artifacts"
# SHARDGEN_FUZZ_ARGS: more libFuzzer flags (the target's -dict=FILE).
# shellcheck disable=SC2086
exec "$fuzzer" -max_total_time="$seconds" -rss_limit_mb=2048 -malloc_limit_mb=1024 \
  -timeout=10 -max_len=65536 -print_final_stats=1 ${SHARDGEN_FUZZ_ARGS:-} \
  -artifact_prefix="$work.artifacts/" "$work" "$@"
