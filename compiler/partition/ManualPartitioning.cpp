// Manual computations and the collectives of their bodies.
//
// A body value is the manual-axes-local tensor, laid out over the free axes
// only: a device's piece depends on its free coordinates, never on its
// manual ones, so the members of a collective's group (devices differing
// only in manual coordinates) hold the same box of their local values and a
// collective on pieces is the spec's collective on local values, provided
// the dims it gathers, scatters or splits are whole (they are made so).

#include <algorithm>

#include "compiler/ir/Diagnostic.h"

#include "compiler/partition/RegionPartitioner.h"
#include "compiler/partition/Reshard.h"

namespace shardgen {
namespace {

bool isManual(const std::vector<std::string> &manualAxes, const AxisRef &axis) {
  return std::find(manualAxes.begin(), manualAxes.end(), axis.name) != manualAxes.end();
}

/// A manual computation's in/out sharding split into the manual axes of each
/// dim (which come first) and the free axes after them.
struct SplitSharding {
  DimAxes manual, free;
};

/// Free axes sharding a dim that the manual axes also shard must divide the
/// local dim: otherwise GSPMD's chunking of the global dim puts other
/// elements on a device than chunking its local piece, so such free axes are
/// gathered before entering (and after leaving) the body.
SplitSharding splitSharding(const Mesh &mesh, const TensorSharding &sharding,
                            const std::vector<std::string> &manualAxes, const Shape &localShape) {
  SplitSharding split;
  for (size_t d = 0; d < sharding.dims.size(); ++d) {
    std::vector<AxisRef> manual, free;
    for (const auto &axis : sharding.dims[d].axes)
      (isManual(manualAxes, axis) ? manual : free).push_back(axis);
    if (!manual.empty() && d < localShape.size() && localShape[d] % axesSize(mesh, free) != 0)
      free.clear();
    split.manual.push_back(std::move(manual));
    split.free.push_back(std::move(free));
  }
  return split;
}

DimAxes concatenated(const SplitSharding &split) {
  DimAxes dims = split.manual;
  for (size_t d = 0; d < dims.size(); ++d)
    dims[d].insert(dims[d].end(), split.free[d].begin(), split.free[d].end());
  return dims;
}

std::vector<AxisRef> fullAxes(const std::vector<std::string> &names) {
  std::vector<AxisRef> axes;
  for (const auto &name : names)
    axes.push_back(AxisRef::full(name));
  return axes;
}

} // namespace

void RegionPartitioner::partitionManualComputation(const Op &op) {
  const auto &attrs = op.attr<ManualComputationAttrs>();
  const Region &body = *op.body();

  for (size_t i = 0; i < op.operands.size(); ++i) {
    const TensorType &localType = graph_.type(body.args[i].value);
    wantedLayout(graph_.type(op.operands[i]), attrs.inShardings[i],
                 joinPointer(joinPointer(op.pointer, "in_shardings"), i)); // checks it
    SplitSharding split =
        splitSharding(mesh_, attrs.inShardings[i], attrs.manualAxes, localType.shape);
    ShardLayout entering = makeShardLayout(mesh_, graph_.type(op.operands[i]), concatenated(split));
    SpmdValueId outer = reshard(held_[op.operands[i]], entering, &op, op.pointer);
    SpmdStep alias;
    alias.kind = StepKind::Alias;
    alias.op = &op;
    alias.pointer = op.pointer;
    alias.inputs = {outer};
    SpmdValueId inner = addStep(std::move(alias), makeShardLayout(mesh_, localType, split.free),
                                body.args[i].value);
    held_[body.args[i].value] = reshard(inner,
                                        wantedLayout(localType, body.args[i].sharding,
                                                     joinPointer(body.args[i].pointer, "sharding")),
                                        &op, body.args[i].pointer);
  }

  partitionRegion(body);

  for (size_t i = 0; i < op.results.size(); ++i) {
    const TensorSharding &out = attrs.outShardings[i];
    const TensorType &localType = graph_.type(body.results[i].value);
    SplitSharding split = splitSharding(mesh_, out, attrs.manualAxes, localType.shape);
    SpmdValueId inner = reshard(held_[body.results[i].value],
                                makeShardLayout(mesh_, localType, split.free), &op, op.pointer);

    // Manual axes that neither shard a dim nor stay unreduced: the spec
    // takes the value of the device at coordinate 0 on them.
    std::vector<AxisRef> unreduced, broadcast;
    for (const auto &axis : fullAxes(attrs.manualAxes)) {
      bool shardsDim = std::any_of(split.manual.begin(), split.manual.end(), [&](const auto &dim) {
        return std::find(dim.begin(), dim.end(), axis) != dim.end();
      });
      bool isUnreduced =
          std::find(out.unreduced.begin(), out.unreduced.end(), axis) != out.unreduced.end();
      if (isUnreduced)
        unreduced.push_back(axis);
      else if (!shardsDim)
        broadcast.push_back(axis);
    }
    if (!broadcast.empty()) {
      SpmdStep step;
      step.kind = StepKind::Broadcast;
      step.op = &op;
      step.pointer = op.pointer;
      step.axes = broadcast;
      step.inputs = {inner};
      inner = addStep(std::move(step), program_.layout(inner), body.results[i].value);
    }
    SpmdStep alias;
    alias.kind = StepKind::Alias;
    alias.op = &op;
    alias.pointer = op.pointer;
    alias.inputs = {inner};
    const TensorType &outerType = graph_.type(op.results[i]);
    SpmdValueId outer =
        addStep(std::move(alias), makeShardLayout(mesh_, outerType, concatenated(split), unreduced),
                op.results[i]);
    std::optional<TensorSharding> wanted =
        i < op.shardings.size() && op.shardings[i] ? op.shardings[i] : out;
    held_[op.results[i]] = reshard(
        outer,
        wantedLayout(outerType, wanted, joinPointer(joinPointer(op.pointer, "out_shardings"), i)),
        &op, op.pointer);
  }
}

namespace {

/// What a collective's attributes make of its step (kind, dims, reducer),
/// the mesh axes it runs over, and the dims it gathers, scatters or splits,
/// which must be whole locally: one overload per collective's attributes.
struct CollectiveStep {
  SpmdStep &step;
  std::vector<int64_t> wholeDims;
  std::vector<std::string> axisNames;
};

void describe(const AllReduceAttrs &attrs, CollectiveStep &c) {
  c.step.kind = StepKind::AllReduce;
  c.step.reducer = attrs.reducer;
  c.axisNames = attrs.axes;
}

void describe(const AllGatherAttrs &attrs, CollectiveStep &c) {
  c.step.kind = StepKind::AllGather;
  c.step.dimension = attrs.dimension;
  c.wholeDims = {attrs.dimension};
  c.axisNames = attrs.axes;
}

void describe(const ReduceScatterAttrs &attrs, CollectiveStep &c) {
  c.step.kind = StepKind::ReduceScatter;
  c.step.dimension = attrs.dimension;
  c.step.reducer = attrs.reducer;
  c.wholeDims = {attrs.dimension};
  c.axisNames = attrs.axes;
}

void describe(const AllToAllAttrs &attrs, CollectiveStep &c) {
  c.step.kind = StepKind::AllToAll;
  c.step.dimension = attrs.splitDimension;
  c.step.concatDimension = attrs.concatDimension;
  c.wholeDims = {attrs.splitDimension, attrs.concatDimension};
  c.axisNames = attrs.axes;
}

void describe(const CollectivePermuteAttrs &attrs, CollectiveStep &c) {
  c.step.kind = StepKind::CollectivePermute;
  c.axisNames = attrs.axes;
}

} // namespace

void RegionPartitioner::partitionCollective(const Op &op) {
  SpmdStep step;
  step.op = &op;
  step.pointer = op.pointer;
  step.bodyCollective = true;
  CollectiveStep collective{step, {}, {}};
  // Only the collectives' rows name this hook.
  std::visit(
      [&](const auto &attrs) {
        if constexpr (requires { describe(attrs, collective); })
          describe(attrs, collective);
        else
          fail(op.pointer, "not a collective: " + std::string(op.name()));
      },
      op.attrs.get());
  const std::vector<int64_t> &wholeDims = collective.wholeDims;
  const std::vector<std::string> &axisNames = collective.axisNames;
  step.axes = fullAxes(axisNames);
  if (op.kind == OpKind::CollectivePermute) {
    int64_t shift = op.attr<CollectivePermuteAttrs>().shift;
    int64_t groupSize = axesSize(mesh_, step.axes);
    for (int64_t device = 0; device < mesh_.numDevices(); ++device) {
      int64_t position = indexOverAxes(mesh_, step.axes, device);
      int64_t source = ((position - shift) % groupSize + groupSize) % groupSize;
      step.pairs.push_back({groupMember(mesh_, step.axes, device, source), device});
    }
  }

  const ShardLayout &current = program_.layout(held_[op.operands[0]]);
  DimAxes dims = dimAxesOf(current);
  for (int64_t d : wholeDims)
    dims[d].clear();
  ShardLayout operandLayout = makeShardLayout(mesh_, graph_.type(op.operands[0]), dims);
  step.inputs = {reshard(held_[op.operands[0]], operandLayout, &op, op.pointer)};
  ShardLayout resultLayout = makeShardLayout(mesh_, graph_.type(op.results[0]), dims);
  SpmdValueId result = addStep(std::move(step), std::move(resultLayout), op.results[0]);
  held_[op.results[0]] = reshard(result, this->resultLayout(op, 0), &op, op.pointer);
}

} // namespace shardgen
