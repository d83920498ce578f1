#pragma once
// Which mesh axes each factor of an op's sharding rule is sharded on when
// the op is partitioned, so that each device's local op computes exactly its
// piece of the result from its pieces of the operands.

#include <vector>

#include "compiler/ir/Mesh.h"
#include "compiler/ir/OpShardingRule.h"
#include "compiler/partition/ShardLayout.h"

namespace shardgen {

using FactorAxes = std::vector<std::vector<AxisRef>>; // per factor, major to minor

struct FactorAxesRequest {
  const OpShardingRule *rule = nullptr;
  std::vector<Shape> operandShapes, resultShapes;
  /// The axes per dim the results are wanted in, and the operands hold now.
  std::vector<DimAxes> resultAxes, operandAxes;
  /// False when a sharded reduction factor would give a wrong result (a
  /// reduce whose init is not the reducer's identity is summed once per shard).
  bool allowShardedReduction = true;
  /// Give reduction factors their operands' axes before the results claim
  /// axes (a result factor whose axes overlap them stays unsharded, to be
  /// reached by a reduce_scatter afterwards). The partitioner tries both
  /// orders and keeps the one moving fewer bytes.
  bool reductionFirst = false;
};

/// Pass-through factors take their axes from the wanted result shardings;
/// reduction factors from the operands, when all operands agree and the
/// axes are not used by another factor; need-replication and permutation
/// factors stay unsharded. A dim's axes are projected onto its factors as
/// Shardy does, splitting an axis into sub-axes where a factor holds only
/// part of it. A dim with several factors carries axes on a minor factor
/// only if every more-major factor is fully sharded, and only axes dividing
/// their factor (so local pieces are contiguous and exact).
FactorAxes assignFactorAxes(const Mesh &mesh, const FactorAxesRequest &request);

/// The axes per dim of a tensor whose dims map to `factors`, consecutive
/// sub-axes merged (a merged dim whose factors hold "x":(1)2 and "x":(2)2
/// is on "x", the layout its operand already has).
DimAxes tensorAxes(const Mesh &mesh, const OpShardingRule::TensorFactors &factors,
                   const FactorAxes &axes);

} // namespace shardgen
