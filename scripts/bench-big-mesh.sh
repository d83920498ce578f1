#!/bin/sh
# Compile time and peak memory of `shardgen compile` on big meshes (1K, 64K
# and 1M devices, even and uneven shards), and the size of the generated C++.
# Not part of the test suite (the 1M case takes ~30 s and ~2 GB).
#   scripts/bench-big-mesh.sh [path/to/shardgen]
set -eu
shardgen=${1:-build/shardgen}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# An elementwise add, a row sum (an all_reduce over y) on an AxA mesh of
# NxN f32 tensors sharded [{x}, {y}].
graph() { # axis-size tensor-size
  cat <<JSON
{"format": "shardgen-graph", "version": 1, "name": "big",
 "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": $1}, {"name": "y", "size": $1}]}],
 "inputs": [{"name": "a", "type": "tensor<$2x$2xf32>", "sharding": "<@mesh, [{x}, {y}]>"},
            {"name": "b", "type": "tensor<$2x$2xf32>", "sharding": "<@mesh, [{x}, {y}]>"}],
 "ops": [{"op": "add", "operands": ["a", "b"], "result": "c"},
         {"op": "constant", "result": "zero", "type": "tensor<f32>", "value": 0.0},
         {"op": "reduce", "operands": ["c", "zero"], "result": "r", "dimensions": [1],
          "reducer": "add"}],
 "outputs": [{"value": "c"}, {"value": "r", "sharding": "<@mesh, [{x}]>"}]}
JSON
}

printf '%-8s %-7s %10s %12s %14s\n' devices shards seconds "peak RSS" "generated C++"
for case in "32 1024 1000" "256 4096 4000" "1024 4096 3000"; do
  set -- $case
  for shards in even uneven; do
    size=$2
    [ "$shards" = uneven ] && size=$3
    graph "$1" "$size" > "$work/graph.json"
    rm -rf "$work/out"
    /usr/bin/time -f '%e %M' -o "$work/time" "$shardgen" compile "$work/graph.json" \
      -o "$work/out" 2> /dev/null
    read -r seconds kilobytes < "$work/time"
    bytes=$(cat "$work/out"/big*.cpp | wc -c)
    printf '%-8s %-7s %10s %9s MB %11s B\n' $(($1 * $1)) "$shards" "$seconds" \
      $((kilobytes / 1024)) "$bytes"
  done
done
