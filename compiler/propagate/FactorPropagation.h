#pragma once
// One propagation step through one op, in factor space (Shardy's
// BasicFactorPropagation and AggressiveFactorPropagation). Given every
// tensor's projection, each factor's sharding is merged across tensors by the
// longest compatible prefix of axes; an axis is never added to a tensor that
// already uses it (in another factor, or as replicated/unreduced/forbidden);
// closed factors never grow; factor shardings only ever expand.

#include <functional>
#include <vector>

#include "compiler/propagate/Direction.h"
#include "compiler/propagate/FactorProjection.h"

namespace shardgen::propagation {

struct OpProjection {
  std::vector<TensorProjection> tensors; // operands, then results
  size_t numOperands = 0;
};

enum class ConflictResolution {
  /// Basic: every tensor gets the same axes along a factor, and an axis used by
  /// another factor in any tensor is not propagated.
  Basic,
  /// Aggressive: each tensor takes what it can; between factors competing for
  /// an axis, the factor whose source tensor is larger wins.
  Aggressive,
};

/// Expands the factor shardings in `projection`; returns, per tensor, whether
/// any of its factors grew. `elementwise` (Shardy's isElementwise: elementwise
/// ops, sharding constraints, barriers) changes aggressive resolution: the
/// more sharded factor wins among equal sources, and operands take no more
/// than the results could (no sideways propagation past a closed result).
std::vector<bool> propagateFactors(OpProjection &projection,
                                   const std::vector<int64_t> &factorSizes,
                                   const std::function<Direction(int64_t factor)> &direction,
                                   ConflictResolution resolution, bool elementwise = false);

/// The axes all tensors agree on for `factor` before conflicts with other
/// factors are removed (exposed for `explain`).
AxisList compatibleMajorAxes(const OpProjection &projection, int64_t factor, Direction direction);

} // namespace shardgen::propagation
