#pragma once
// The programs bench_propagation propagates: transformer layer stacks (built
// as IR) and dot/add/multiply/tanh chains (as shardgen JSON and as MLIR in
// the `mesh` dialect, the same program for both tools).

#include <cstdint>
#include <string>

#include "bench/chain_graph.h"
#include "compiler/ir/Graph.h"

namespace shardgen {

constexpr int64_t kTransformerOpsPerLayer = 22;
/// `layers` transformer layers; only the inputs are annotated.
Graph buildTransformerStack(int64_t layers);

constexpr int64_t kChainOpsPerLayer = 4;
/// h = tanh((h . w_i + b_i) * s_i) per layer, weights alternately column- and
/// row-sharded on `model`, the input batch-sharded on `data` (mesh 4x2):
/// bench::chainGraphJson of this spec.
bench::ChainSpec propagationChain(int64_t layers);
/// The same chain in MLIR: tosa.matmul (with a leading batch dim of 1),
/// tosa.add, tosa.mul, tosa.tanh, the annotations as mesh.shard ops.
std::string chainGraphMlir(int64_t layers);

} // namespace shardgen
