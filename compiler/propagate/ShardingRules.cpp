#include "compiler/propagate/ShardingRules.h"

#include <algorithm>
#include <numeric>

#include "compiler/ir/Diagnostic.h"

namespace shardgen {

namespace {

/// Builds a rule tensor by tensor: operands are tensors 0..n-1, results n...
class RuleBuilder {
public:
  RuleBuilder(const std::vector<int64_t> &operandRanks, const std::vector<int64_t> &resultRanks) {
    for (int64_t rank : operandRanks)
      rule_.operands.emplace_back(rank);
    for (int64_t rank : resultRanks)
      rule_.results.emplace_back(rank);
  }

  /// A new factor of `size` mapped to each (tensor, dim); size 1 maps nothing.
  void addFactor(int64_t size, FactorKind kind,
                 const std::vector<std::pair<int64_t, int64_t>> &tensorDims) {
    if (size <= 1)
      return;
    int64_t factor = rule_.numFactors();
    rule_.factorSizes.push_back(size);
    rule_.factorKinds.push_back(kind);
    for (auto [tensor, dim] : tensorDims)
      dims(tensor)[dim].push_back(factor);
  }

  void blockAll() {
    for (int64_t f = 0; f < rule_.numFactors(); ++f)
      rule_.blockedFactors.push_back(f);
  }

  OpShardingRule take() { return std::move(rule_); }

private:
  OpShardingRule::TensorFactors &dims(int64_t tensor) {
    auto numOperands = static_cast<int64_t>(rule_.operands.size());
    return tensor < numOperands ? rule_.operands[tensor] : rule_.results[tensor - numOperands];
  }
  OpShardingRule rule_;
};

struct OpShapes {
  std::vector<Shape> operands, results;
  std::vector<int64_t> operandRanks() const { return ranks(operands); }
  std::vector<int64_t> resultRanks() const { return ranks(results); }
  int64_t result(int64_t index) const { return static_cast<int64_t>(operands.size()) + index; }

private:
  static std::vector<int64_t> ranks(const std::vector<Shape> &shapes) {
    std::vector<int64_t> out;
    for (const auto &shape : shapes)
      out.push_back(static_cast<int64_t>(shape.size()));
    return out;
  }
};

OpShapes shapesOf(const Graph &graph, const Op &op) {
  OpShapes shapes;
  for (ValueId v : op.operands)
    shapes.operands.push_back(graph.type(v).shape);
  for (ValueId v : op.results)
    shapes.results.push_back(graph.type(v).shape);
  return shapes;
}

bool contains(const std::vector<int64_t> &list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

/// Every dim of the first result is shared with the same dim of each tensor of
/// equal rank (scalar operands such as select's predicate or clamp's bounds
/// take no part); `specialDim` (if >= 0) gets `specialKind` instead.
OpShardingRule pointwiseRule(const OpShapes &shapes, int64_t specialDim = -1,
                             FactorKind specialKind = FactorKind::PassThrough) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks());
  const Shape &reference =
      shapes.results.empty() ? shapes.operands.front() : shapes.results.front();
  auto numTensors = static_cast<int64_t>(shapes.operands.size() + shapes.results.size());
  for (size_t d = 0; d < reference.size(); ++d) {
    std::vector<std::pair<int64_t, int64_t>> tensorDims;
    for (int64_t t = 0; t < numTensors; ++t) {
      const Shape &shape = t < static_cast<int64_t>(shapes.operands.size())
                               ? shapes.operands[t]
                               : shapes.results[t - shapes.operands.size()];
      if (shape.size() == reference.size())
        tensorDims.push_back({t, static_cast<int64_t>(d)});
    }
    // Dims whose sizes differ between tensors (concatenate, slice, pad) use the
    // largest size: the smaller tensors are seen as padded.
    int64_t size = reference[d];
    for (auto [t, dim] : tensorDims) {
      const Shape &shape = t < static_cast<int64_t>(shapes.operands.size())
                               ? shapes.operands[t]
                               : shapes.results[t - shapes.operands.size()];
      size = std::max(size, shape[dim]);
    }
    FactorKind kind = static_cast<int64_t>(d) == specialDim ? specialKind : FactorKind::PassThrough;
    builder.addFactor(size, kind, tensorDims);
  }
  return builder.take();
}

OpShardingRule dotGeneralRule(const OpShapes &shapes, const DotGeneralAttrs &attrs) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks());
  const Shape &lhs = shapes.operands[0], &rhs = shapes.operands[1];
  int64_t result = shapes.result(0);
  int64_t resultDim = 0;
  for (size_t i = 0; i < attrs.lhsBatchingDimensions.size(); ++i)
    builder.addFactor(lhs[attrs.lhsBatchingDimensions[i]], FactorKind::PassThrough,
                      {{0, attrs.lhsBatchingDimensions[i]},
                       {1, attrs.rhsBatchingDimensions[i]},
                       {result, resultDim++}});
  for (int64_t d = 0; d < static_cast<int64_t>(lhs.size()); ++d)
    if (!contains(attrs.lhsBatchingDimensions, d) && !contains(attrs.lhsContractingDimensions, d))
      builder.addFactor(lhs[d], FactorKind::PassThrough, {{0, d}, {result, resultDim++}});
  for (int64_t d = 0; d < static_cast<int64_t>(rhs.size()); ++d)
    if (!contains(attrs.rhsBatchingDimensions, d) && !contains(attrs.rhsContractingDimensions, d))
      builder.addFactor(rhs[d], FactorKind::PassThrough, {{1, d}, {result, resultDim++}});
  for (size_t i = 0; i < attrs.lhsContractingDimensions.size(); ++i)
    builder.addFactor(
        lhs[attrs.lhsContractingDimensions[i]], FactorKind::Reduction,
        {{0, attrs.lhsContractingDimensions[i]}, {1, attrs.rhsContractingDimensions[i]}});
  return builder.take();
}

OpShardingRule transposeRule(const OpShapes &shapes, const TransposeAttrs &attrs) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks());
  const Shape &result = shapes.results[0];
  for (int64_t d = 0; d < static_cast<int64_t>(result.size()); ++d)
    builder.addFactor(result[d], FactorKind::PassThrough,
                      {{0, attrs.permutation[d]}, {shapes.result(0), d}});
  return builder.take();
}

/// Walks both shapes from the major end, splitting off common factors of size
/// gcd(remaining input dim, remaining output dim): a sharded dim that is split
/// or merged projects onto sub-axes. Once the remaining sizes are coprime the
/// dims no longer line up, and what is left of each dim needs replication.
OpShardingRule reshapeRule(const OpShapes &shapes) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks());
  const Shape &in = shapes.operands[0], &out = shapes.results[0];
  int64_t result = shapes.result(0);
  auto inRank = static_cast<int64_t>(in.size()), outRank = static_cast<int64_t>(out.size());
  int64_t i = 0, j = 0;
  int64_t remainingIn = inRank ? in[0] : 1, remainingOut = outRank ? out[0] : 1;
  // A tensor without elements has nothing to line up (and gcd(0, 0) is no
  // divisor): every dim needs replication, which moves no data.
  bool empty = std::find(in.begin(), in.end(), 0) != in.end() ||
               std::find(out.begin(), out.end(), 0) != out.end();
  while (!empty && i < inRank && j < outRank) {
    if (remainingIn == 1) {
      if (++i < inRank)
        remainingIn = in[i];
      continue;
    }
    if (remainingOut == 1) {
      if (++j < outRank)
        remainingOut = out[j];
      continue;
    }
    int64_t common = std::gcd(remainingIn, remainingOut);
    if (common == 1)
      break;
    builder.addFactor(common, FactorKind::PassThrough, {{0, i}, {result, j}});
    remainingIn /= common;
    remainingOut /= common;
  }
  for (; i < inRank; ++i, remainingIn = i < inRank ? in[i] : 1)
    builder.addFactor(remainingIn, FactorKind::NeedReplication, {{0, i}});
  for (; j < outRank; ++j, remainingOut = j < outRank ? out[j] : 1)
    builder.addFactor(remainingOut, FactorKind::NeedReplication, {{result, j}});
  return builder.take();
}

OpShardingRule broadcastRule(const OpShapes &shapes, const BroadcastInDimAttrs &attrs) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks());
  const Shape &in = shapes.operands[0], &out = shapes.results[0];
  int64_t result = shapes.result(0);
  for (int64_t d = 0; d < static_cast<int64_t>(out.size()); ++d) {
    std::vector<std::pair<int64_t, int64_t>> tensorDims = {{result, d}};
    for (int64_t k = 0; k < static_cast<int64_t>(attrs.broadcastDimensions.size()); ++k)
      if (attrs.broadcastDimensions[k] == d && in[k] == out[d])
        tensorDims.push_back({0, k}); // an expanded size-1 dim takes no part
    builder.addFactor(out[d], FactorKind::PassThrough, tensorDims);
  }
  return builder.take();
}

OpShardingRule reduceRule(const OpShapes &shapes, const ReduceAttrs &attrs) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks());
  const Shape &in = shapes.operands[0];
  int64_t resultDim = 0;
  for (int64_t d = 0; d < static_cast<int64_t>(in.size()); ++d) {
    if (contains(attrs.dimensions, d)) {
      builder.addFactor(in[d], FactorKind::Reduction, {{0, d}});
    } else {
      std::vector<std::pair<int64_t, int64_t>> tensorDims = {{0, d}};
      for (size_t r = 0; r < shapes.results.size(); ++r)
        tensorDims.push_back({shapes.result(static_cast<int64_t>(r)), resultDim});
      builder.addFactor(in[d], FactorKind::PassThrough, tensorDims);
      ++resultDim;
    }
  }
  return builder.take();
}

/// Pass-through on every dim where operand and result sizes agree, else a
/// permutation factor (the elements of that dim move between shards) of the
/// operand's size (Shardy's addPointwiseWithDiffTypeForMismatch).
OpShardingRule permutingRule(const OpShapes &shapes, const std::vector<bool> &permuted) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks());
  const Shape &in = shapes.operands[0];
  for (int64_t d = 0; d < static_cast<int64_t>(in.size()); ++d)
    builder.addFactor(in[d], permuted[d] ? FactorKind::Permutation : FactorKind::PassThrough,
                      {{0, d}, {shapes.result(0), d}});
  return builder.take();
}

OpShardingRule sliceRule(const OpShapes &shapes, const SliceAttrs &attrs) {
  std::vector<bool> permuted;
  for (size_t d = 0; d < shapes.results[0].size(); ++d)
    permuted.push_back(shapes.operands[0][d] != shapes.results[0][d] ||
                       (d < attrs.strides.size() && attrs.strides[d] != 1));
  return permutingRule(shapes, permuted);
}

OpShardingRule padRule(const OpShapes &shapes, const PadAttrs &attrs) {
  std::vector<bool> permuted;
  for (size_t d = 0; d < shapes.results[0].size(); ++d)
    permuted.push_back(attrs.edgePaddingLow[d] != 0 || attrs.edgePaddingHigh[d] != 0 ||
                       attrs.interiorPadding[d] != 0);
  return permutingRule(shapes, permuted);
}

OpShardingRule reverseRule(const OpShapes &shapes, const ReverseAttrs &attrs) {
  std::vector<bool> permuted;
  for (int64_t d = 0; d < static_cast<int64_t>(shapes.results[0].size()); ++d)
    permuted.push_back(contains(attrs.dimensions, d));
  return permutingRule(shapes, permuted);
}

/// Collectives that change the size of some dims: those dims are separate
/// need-replication factors on each side, the other dims pass through.
OpShardingRule resizingCollectiveRule(const OpShapes &shapes, const std::vector<int64_t> &dims) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks());
  const Shape &in = shapes.operands[0], &out = shapes.results[0];
  int64_t result = shapes.result(0);
  for (int64_t d = 0; d < static_cast<int64_t>(out.size()); ++d) {
    if (contains(dims, d)) {
      builder.addFactor(in[d], FactorKind::NeedReplication, {{0, d}});
      builder.addFactor(out[d], FactorKind::NeedReplication, {{result, d}});
    } else {
      builder.addFactor(out[d], FactorKind::PassThrough, {{0, d}, {result, d}});
    }
  }
  return builder.take();
}

/// Without a rule nothing may cross the call: each dim is its own blocked
/// need-replication factor.
OpShardingRule opaqueRule(const OpShapes &shapes) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks());
  auto numOperands = static_cast<int64_t>(shapes.operands.size());
  for (int64_t t = 0; t < numOperands; ++t)
    for (int64_t d = 0; d < static_cast<int64_t>(shapes.operands[t].size()); ++d)
      builder.addFactor(shapes.operands[t][d], FactorKind::NeedReplication, {{t, d}});
  for (int64_t r = 0; r < static_cast<int64_t>(shapes.results.size()); ++r)
    for (int64_t d = 0; d < static_cast<int64_t>(shapes.results[r].size()); ++d)
      builder.addFactor(shapes.results[r][d], FactorKind::NeedReplication, {{shapes.result(r), d}});
  builder.blockAll();
  return builder.take();
}

} // namespace

bool hasShardingRule(const Op &op) {
  if (op.kind == OpKind::ManualComputation)
    return false;
  if (op.kind == OpKind::CustomCall)
    return op.attr<CustomCallAttrs>().shardingRule.has_value();
  return true;
}

OpShardingRule identityShardingRule(const Shape &shape, int64_t numOperands, int64_t numResults) {
  RuleBuilder builder(std::vector<int64_t>(numOperands, static_cast<int64_t>(shape.size())),
                      std::vector<int64_t>(numResults, static_cast<int64_t>(shape.size())));
  for (int64_t d = 0; d < static_cast<int64_t>(shape.size()); ++d) {
    std::vector<std::pair<int64_t, int64_t>> tensorDims;
    for (int64_t t = 0; t < numOperands + numResults; ++t)
      tensorDims.push_back({t, d});
    builder.addFactor(shape[d], FactorKind::PassThrough, tensorDims);
  }
  return builder.take();
}

/// Shardy's kind for concatenate's dim: permutation when the pieces are
/// slices (of one tensor, or all slices), which a partitioner can move
/// around; otherwise the dim needs replication.
static FactorKind concatenatedDimKind(const Graph &graph, const Op &concat) {
  auto slicedFrom = [&](ValueId v) -> const Op * {
    const Op *def = graph.value(v).definingOp;
    return def && def->kind == OpKind::Slice ? def : nullptr;
  };
  auto beforeSlice = [&](ValueId v) {
    const Op *slice = slicedFrom(v);
    return slice ? slice->operands[0] : v;
  };
  const auto &operands = concat.operands;
  bool allSlices = std::all_of(operands.begin(), operands.end(), slicedFrom);
  bool anySlice = std::any_of(operands.begin(), operands.end(), slicedFrom);
  bool oneSource = std::all_of(operands.begin(), operands.end(), [&](ValueId v) {
    return beforeSlice(v) == beforeSlice(operands[0]);
  });
  return allSlices || (anySlice && oneSource) ? FactorKind::Permutation
                                              : FactorKind::NeedReplication;
}

OpShardingRule shardingRuleFor(const Graph &graph, const Op &op) {
  OpShapes shapes = shapesOf(graph, op);
  if (isElementwise(op.kind))
    return pointwiseRule(shapes);
  switch (op.kind) {
  case OpKind::Constant:
  case OpKind::Iota:
  case OpKind::Compare:
  case OpKind::Select:
  case OpKind::Clamp:
  case OpKind::Convert:
  case OpKind::ShardingConstraint:
  case OpKind::Distribute:
  case OpKind::PropagationBarrier:
  case OpKind::ShardingGroup:
  case OpKind::AllReduce:
  case OpKind::CollectivePermute:
  case OpKind::AxisIndex:
    return pointwiseRule(shapes);
  case OpKind::DotGeneral:
    return dotGeneralRule(shapes, op.attr<DotGeneralAttrs>());
  case OpKind::Transpose:
    return transposeRule(shapes, op.attr<TransposeAttrs>());
  case OpKind::Reshape:
    return reshapeRule(shapes);
  case OpKind::BroadcastInDim:
    return broadcastRule(shapes, op.attr<BroadcastInDimAttrs>());
  case OpKind::Reduce:
    return reduceRule(shapes, op.attr<ReduceAttrs>());
  case OpKind::Concatenate:
    return pointwiseRule(shapes, op.attr<ConcatenateAttrs>().dimension,
                         concatenatedDimKind(graph, op));
  case OpKind::Slice:
    return sliceRule(shapes, op.attr<SliceAttrs>());
  case OpKind::Pad:
    return padRule(shapes, op.attr<PadAttrs>());
  case OpKind::Reverse:
    return reverseRule(shapes, op.attr<ReverseAttrs>());
  case OpKind::CustomCall: {
    const auto &attrs = op.attr<CustomCallAttrs>();
    return attrs.shardingRule ? *attrs.shardingRule : opaqueRule(shapes);
  }
  case OpKind::AllGather:
    return resizingCollectiveRule(shapes, {op.attr<AllGatherAttrs>().dimension});
  case OpKind::ReduceScatter:
    return resizingCollectiveRule(shapes, {op.attr<ReduceScatterAttrs>().dimension});
  case OpKind::AllToAll: {
    const auto &attrs = op.attr<AllToAllAttrs>();
    return resizingCollectiveRule(shapes, {attrs.splitDimension, attrs.concatDimension});
  }
  case OpKind::ManualComputation:
    fail(op.pointer, "manual_computation has no sharding rule; its body is propagated through "
                     "its data-flow edges");
  default:
    break;
  }
  fail(op.pointer, "no sharding rule for op \"" + std::string(op.name()) + "\"");
}

} // namespace shardgen
