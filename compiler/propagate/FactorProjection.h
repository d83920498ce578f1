#pragma once
// Projection of tensor shardings onto an op's factors and back (Shardy's
// ShardingProjection). A dim's axes go to its factors major to minor: a
// factor takes axes (splitting an axis into sub-axes by gcd when needed)
// until it is fully sharded; the minor-most factor takes all that is left,
// even if its size is not divisible (uneven shards are padded). Axes that
// cannot be split onto a non-minor-most factor become its overflow axes, and
// the dim's later factors are then closed.

#include "compiler/ir/OpShardingRule.h"
#include "compiler/propagate/ShardingState.h"

namespace shardgen::propagation {

struct FactorSharding {
  bool present = false; // the tensor maps this factor
  AxisList axes;
  AxisList overflow;
  bool closed = false;
  bool minorMost = false;
};

struct TensorProjection {
  std::vector<FactorSharding> factors; // indexed by factor
  /// Axes this tensor may not use: replicated, unreduced and forbidden ones,
  /// and those of dims that map to no factor (they keep their axes).
  AxisList excluded;
};

TensorProjection projectTensor(const ShardingState &state,
                               const OpShardingRule::TensorFactors &mapping,
                               const std::vector<int64_t> &factorSizes);
/// The same into `projection`, reusing its storage (no allocation once it
/// has held a projection as large).
void projectTensor(const ShardingState &state, const OpShardingRule::TensorFactors &mapping,
                   const std::vector<int64_t> &factorSizes, TensorProjection &projection);

/// The tensor sharding that the factor shardings describe. Dims without
/// factors keep `old`'s dim; replicated/unreduced/forbidden come from `old`.
ShardingState unprojectTensor(const TensorProjection &projection,
                              const OpShardingRule::TensorFactors &mapping,
                              const std::vector<int64_t> &factorSizes, const ShardingState &old,
                              int32_t mesh);

} // namespace shardgen::propagation
