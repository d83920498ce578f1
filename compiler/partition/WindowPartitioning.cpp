// Windowed ops on spatially sharded dims (WindowHalo.h): the partitioner's
// side, RegionPartitioner::shardWindowedDims and exchangeHalos.

#include "compiler/partition/RegionPartitioner.h"

#include <algorithm>

#include "compiler/partition/Redistribution.h"
#include "compiler/partition/Reshard.h"
#include "compiler/partition/WindowHalo.h"

namespace shardgen {
namespace {

/// Every device holds the same box in both layouts.
bool samePieces(const ShardLayout &a, const ShardLayout &b) {
  for (int64_t device = 0; device < a.numDevices(); ++device)
    if (a.offsetsOf(device) != b.offsetsOf(device) || a.extentsOf(device) != b.extentsOf(device))
      return false;
  return true;
}

} // namespace

std::vector<std::optional<ShardLayout>>
RegionPartitioner::shardWindowedDims(const Op &op, const std::vector<ShardLayout> &wanted,
                                     LocalComputation &local) {
  const size_t windowed = numWindowedOperands(op);
  // The halo exchange's plan compares every device's piece with every
  // distinct piece: past a few thousand devices the dims are gathered.
  constexpr int64_t kMaxHaloDevices = 4096;
  if (windowed == 0 || wanted.empty() || mesh_.numDevices() > kMaxHaloDevices)
    return {};
  const ShardLayout &held = program_.layout(held_[op.operands[0]]);
  if (held.isDistributed() || held.hasHalo() || wanted[0].isDistributed())
    return {};
  // Axes the local computation uses already: a windowed dim takes no others.
  std::vector<AxisRef> used;
  std::vector<DimAxes> operandAxes, resultAxes;
  for (const auto *layouts : {&local.operands, &local.results})
    for (const ShardLayout &layout : *layouts) {
      DimAxes axes = dimAxesOf(layout);
      for (const std::vector<AxisRef> &dim : axes)
        used.insert(used.end(), dim.begin(), dim.end());
      used.insert(used.end(), layout.partialAxes.begin(), layout.partialAxes.end());
      (layouts == &local.operands ? operandAxes : resultAxes).push_back(std::move(axes));
    }
  const DimAxes heldAxes = dimAxesOf(held), wantedAxes = dimAxesOf(wanted[0]);
  const Shape &outShape = graph_.type(op.results[0]).shape;
  std::vector<std::pair<WindowedDim, WindowReach>> cut;
  for (const WindowedDim &dim : windowedDims(graph_, op)) {
    const std::vector<AxisRef> &axes = heldAxes[dim.operandDim];
    if (axes.empty() || axes != wantedAxes[dim.resultDim] ||
        !operandAxes[0][dim.operandDim].empty() || !resultAxes[0][dim.resultDim].empty())
      continue;
    const bool free = std::none_of(axes.begin(), axes.end(), [&](const AxisRef &axis) {
      return std::any_of(used.begin(), used.end(),
                         [&](const AxisRef &other) { return axis.overlaps(other, mesh_); });
    });
    std::optional<WindowReach> reach;
    if (free)
      reach = windowReachFor(dim, outShape[dim.resultDim], axesSize(mesh_, axes));
    if (!reach)
      continue;
    for (size_t t = 0; t < windowed; ++t)
      operandAxes[t][dim.operandDim] = axes;
    for (DimAxes &result : resultAxes)
      result[dim.resultDim] = axes;
    used.insert(used.end(), axes.begin(), axes.end());
    cut.emplace_back(dim, *reach);
  }
  if (cut.empty())
    return {};
  std::vector<std::optional<ShardLayout>> haloed(op.operands.size());
  std::vector<ShardLayout> sharded;
  for (size_t t = 0; t < windowed; ++t) {
    sharded.push_back(makeShardLayout(mesh_, graph_.type(op.operands[t]), operandAxes[t]));
    ShardLayout widened = sharded.back();
    for (const auto &[dim, reach] : cut)
      widened.setWindowReach(dim.operandDim, reach);
    // A piece that is exactly its shard needs nothing of its neighbours.
    if (!samePieces(sharded.back(), widened))
      haloed[t] = std::move(widened);
  }
  // The halos against gathering the cut dims (which the rule's layout
  // does), from the operand sharded on them.
  if (haloed[0] && redistributionTraffic(mesh_, sharded[0], *haloed[0]).totalReceived >
                       planReshard(mesh_, sharded[0], local.operands[0]).bytesReceived)
    return {};
  for (size_t t = 0; t < windowed; ++t)
    local.operands[t] = std::move(sharded[t]);
  for (size_t r = 0; r < local.results.size(); ++r)
    local.results[r] =
        makeShardLayout(mesh_, graph_.type(op.results[r]), resultAxes[r],
                        local.results[r].partialAxes, local.results[r].partialReducer);
  return haloed;
}

SpmdValueId RegionPartitioner::exchangeHalos(SpmdValueId value, const ShardLayout &haloed,
                                             const Op &op) {
  SpmdStep step;
  step.kind = StepKind::Redistribute;
  step.op = &op;
  step.pointer = op.pointer;
  step.inputs = {value};
  // The rows move along the axes of the dims with a halo.
  const DimAxes axes = dimAxesOf(haloed);
  for (int64_t d = 0; d < haloed.rank(); ++d)
    if (haloed.windowReach(d))
      step.axes.insert(step.axes.end(), axes[d].begin(), axes[d].end());
  return addStep(std::move(step), haloed, program_.values[value].source);
}

} // namespace shardgen
