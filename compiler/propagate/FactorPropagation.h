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

/// Buffers of one propagation step, kept by the caller across steps so that a
/// step allocates nothing once they have grown.
struct FactorStepScratch {
  struct Source {
    int64_t size = -1;
    int64_t tensor = -1;
  };
  std::vector<char> updated;        // per tensor: whether any of its factors grew
  std::vector<AxisList> candidates; // per factor (aggressive)
  std::vector<Source> sources;      // per factor (aggressive)
  std::vector<int64_t> order;       // factors in claiming order (aggressive)
  AxisList axes;
};

/// Expands the factor shardings in `projection` with `directions[f]` per
/// factor; `scratch.updated` says which tensors grew. Returns whether any did.
bool propagateFactors(OpProjection &projection, const std::vector<int64_t> &factorSizes,
                      const Direction *directions, ConflictResolution resolution, bool elementwise,
                      FactorStepScratch &scratch);

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
void compatibleMajorAxes(const OpProjection &projection, int64_t factor, Direction direction,
                         AxisList &result);

} // namespace shardgen::propagation
