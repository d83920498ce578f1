#!/usr/bin/env bash
# Installs what is missing, builds shardgen and runs it on a sample: the
# Megatron-style MLP is verified, its shardings propagated and explained, then
# it is partitioned over 4 devices, JIT-compiled, run and checked against the
# unsharded reference interpreter.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh" build -DSHARDGEN_BUILD_TESTS=OFF
shardgen="$root/build/shardgen"
mlp="$root/samples/mlp.json"

step() { printf '\n== %s\n' "$*"; }

step "shardgen check samples/mlp.json"
"$shardgen" check "$mlp"

step "shardgen show samples/mlp.json x y    (which device holds which block)"
"$shardgen" show "$mlp" x y

step "shardgen explain samples/mlp.json h    (why the hidden layer is sharded as it is)"
"$shardgen" explain "$mlp" h

step "shardgen run samples/mlp.json --check --report    (4 devices, JIT, compared with the reference)"
"$shardgen" run "$mlp" --check --report

step "shardgen run samples/nx_sharding.json --check    (the Nx sharding example: 4 output shards)"
"$shardgen" run "$root/samples/nx_sharding.json" --check \
  --inputs "$root/samples/nx_sharding.inputs/arg0.npy" "$root/samples/nx_sharding.inputs/arg1.npy"
