#pragma once
// The checks the spec lists for distributions: a known mesh, one shard size
// per tensor dim, each at least 1, and never a sharding and a distribution on
// the same value; and at most kMaxDistributionChunks chunks. The order's name
// is checked when the file is read.

#include <optional>
#include <string>

#include "compiler/ir/Graph.h"
#include "compiler/verify/ManualScope.h"

namespace shardgen::verify {

/// The most chunks a distribution may cut its tensor into: the generated code
/// copies each chunk by a statement of its own (a 4096x4096 tensor in 32x32
/// tiles has 16,384).
inline constexpr int64_t kMaxDistributionChunks = int64_t(1) << 14;
/// And all of a graph's distributions together.
inline constexpr int64_t kMaxGraphDistributionChunks = int64_t(1) << 15;

/// `pointer` is the distribution object's; `sharding` the same slot's user
/// sharding, if any. `graphChunks` counts the chunks of the graph's
/// distributions verified so far (this one's are added).
void verifyDistribution(const Distribution &distribution, const TensorType &type,
                        const std::optional<TensorSharding> &sharding, const Graph &graph,
                        const std::string &pointer, const ManualScope &scope, int64_t &graphChunks);

/// The pointer of result i's distribution ("distribution" or "distributions/i").
std::string resultDistributionPointer(const Op &op, size_t index);

/// Every result distribution of `op` (results typed already).
void verifyResultDistributions(const Op &op, const Graph &graph, const ManualScope &scope,
                               int64_t &graphChunks);

} // namespace shardgen::verify
