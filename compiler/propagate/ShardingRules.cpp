#include "compiler/propagate/ShardingRules.h"

#include <algorithm>
#include <numeric>

#include "compiler/ir/Diagnostic.h"
#include "compiler/ops/OpTable.h"

namespace shardgen {

namespace {

/// Builds a rule tensor by tensor: operands are tensors 0..n-1, results n...
class RuleBuilder {
public:
  RuleBuilder(const std::vector<int64_t> &operandRanks, const std::vector<int64_t> &resultRanks,
              bool unitFactors = false)
      : unitFactors_(unitFactors) {
    for (int64_t rank : operandRanks)
      rule_.operands.emplace_back(rank);
    for (int64_t rank : resultRanks)
      rule_.results.emplace_back(rank);
  }

  /// A new factor of `size` mapped to each (tensor, dim); size 1 maps nothing
  /// unless the rule is built in Shardy's form (`unitFactors`).
  /// A size-0 dim gets its factor of size 0, as in Shardy: its tensors share
  /// it, so axes cross between them (an empty dim divides by anything).
  /// `blocked`: propagation does not cross it (Shardy's blocked_propagation).
  void addFactor(int64_t size, FactorKind kind,
                 const std::vector<std::pair<int64_t, int64_t>> &tensorDims, bool blocked = false) {
    if (size == 1 && !unitFactors_)
      return;
    int64_t factor = rule_.numFactors();
    rule_.factorSizes.push_back(size);
    rule_.factorKinds.push_back(kind);
    for (auto [tensor, dim] : tensorDims)
      dims(tensor)[dim].push_back(factor);
    if (blocked)
      rule_.blockedFactors.push_back(factor);
  }

  void blockAll() {
    for (int64_t f = 0; f < rule_.numFactors(); ++f)
      rule_.blockedFactors.push_back(f);
  }

  OpShardingRule take() { return std::move(rule_); }

private:
  bool unitFactors_;
  OpShardingRule::TensorFactors &dims(int64_t tensor) {
    auto numOperands = static_cast<int64_t>(rule_.operands.size());
    return tensor < numOperands ? rule_.operands[tensor] : rule_.results[tensor - numOperands];
  }
  OpShardingRule rule_;
};

struct OpShapes {
  std::vector<Shape> operands, results;
  /// Build the rule in Shardy's form: size-1 dims keep a factor of size 1.
  bool unitFactors = false;
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

// The op table's Rule column (compiler/ops/Ops.def): each op's rule over its
// operand and result shapes. A row naming a builder this file does not
// define fails to compile.
#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, Bound, Mlir, Infer,  \
                    Rule, ...)                                                                     \
  OpShardingRule Rule(const Graph &graph, const Op &op, const OpShapes &shapes);
#include "compiler/ops/Ops.def"

bool isEmpty(const Shape &shape) { return std::find(shape.begin(), shape.end(), 0) != shape.end(); }

bool contains(const std::vector<int64_t> &list, int64_t value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

/// Every dim of the first result is shared with the same dim of each tensor of
/// equal rank (scalar operands such as select's predicate or clamp's bounds
/// take no part); `specialDim` (if >= 0) gets `specialKind` instead.
OpShardingRule pointwiseFactors(const OpShapes &shapes, int64_t specialDim = -1,
                                FactorKind specialKind = FactorKind::PassThrough) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
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

OpShardingRule dotGeneralRule(const Graph &, const Op &op, const OpShapes &shapes) {
  const auto &attrs = op.attr<DotGeneralAttrs>();
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
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

OpShardingRule transposeRule(const Graph &, const Op &op, const OpShapes &shapes) {
  const auto &attrs = op.attr<TransposeAttrs>();
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  const Shape &result = shapes.results[0];
  for (int64_t d = 0; d < static_cast<int64_t>(result.size()); ++d)
    builder.addFactor(result[d], FactorKind::PassThrough,
                      {{0, attrs.permutation[d]}, {shapes.result(0), d}});
  return builder.take();
}

/// One side of a reshape as Shardy's rule walks it: the dim being factored,
/// the product of the dims opened so far and of the factors taken so far.
struct ReshapeSide {
  const Shape &shape;
  int64_t tensor;
  int64_t dim = 0, dimProduct = 1, factorProduct = 1;

  bool done() const { return dim >= static_cast<int64_t>(shape.size()); }
  bool atSizeOne() const { return !done() && shape[dim] == 1; }
  /// Opens the current dim once the factors taken cover every opened dim.
  void open() {
    if (!done() && dimProduct == factorProduct)
      dimProduct *= shape[dim];
  }
  /// What is left of the opened dims.
  int64_t rest() const { return dimProduct / factorProduct; }
  /// Moves on once the current dim is fully factored.
  void advance() {
    if (!done() && dimProduct == factorProduct)
      ++dim;
  }
};

/// The factor a side that is behind the other takes (Shardy): the one that
/// brings both sides level if its rest holds it, else its rest over the gcd
/// of both rests (so that gcd can still be shared next), else its whole rest.
int64_t catchUpFactor(int64_t rest, int64_t behind, int64_t ahead, int64_t restsGcd) {
  if (ahead % behind == 0 && rest % (ahead / behind) == 0)
    return ahead / behind;
  return rest > restsGcd ? rest / restsGcd : rest;
}

/// Shardy's reshape rule. Both shapes are walked from the major end. While
/// the factors taken on both sides multiply to the same size, the next factor
/// is the gcd of what is left of the current input and output dims, shared
/// by both; when that gcd is 1 each side takes its whole rest as a factor of
/// its own and the sides diverge, the side behind then catching up factor by
/// factor until the products meet again. So a split or merged dim projects
/// onto sub-axes, and dims swapped around a common divisor still share it
/// (6x4 -> 4x6 shares the major 2 of dim 0). Factors only one side holds are
/// pass-through, as in Shardy (nothing crosses them; the partitioner's view,
/// partitioningRuleFor, makes them need-replication). A reshape without
/// elements has no rule (hasShardingRule).
OpShardingRule reshapeFactors(const OpShapes &shapes) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  ReshapeSide in{shapes.operands[0], 0}, out{shapes.results[0], shapes.result(0)};
  auto take = [&](ReshapeSide &side, int64_t size) {
    builder.addFactor(size, FactorKind::PassThrough, {{side.tensor, side.dim}});
    side.factorProduct *= size;
  };
  while (!in.done() || !out.done()) {
    if (in.atSizeOne() || out.atSizeOne()) {
      ReshapeSide &side = in.atSizeOne() ? in : out; // size-1 dims take a unit factor
      builder.addFactor(1, FactorKind::PassThrough, {{side.tensor, side.dim++}});
      continue;
    }
    // A finished side asked for another factor: the element counts differ
    // (the verifier rejects such a reshape).
    if ((in.done() && in.factorProduct <= out.factorProduct) ||
        (out.done() && out.factorProduct <= in.factorProduct))
      break;
    in.open();
    out.open();
    int64_t restIn = in.rest(), restOut = out.rest();
    int64_t common = std::gcd(restIn, restOut);
    if (in.factorProduct == out.factorProduct && common > 1) {
      builder.addFactor(common, FactorKind::PassThrough, {{0, in.dim}, {out.tensor, out.dim}});
      in.factorProduct *= common;
      out.factorProduct *= common;
    } else if (in.factorProduct == out.factorProduct) {
      take(in, restIn);
      take(out, restOut);
    } else if (in.factorProduct < out.factorProduct) {
      take(in, catchUpFactor(restIn, in.factorProduct, out.factorProduct, common));
    } else {
      take(out, catchUpFactor(restOut, out.factorProduct, in.factorProduct, common));
    }
    in.advance();
    out.advance();
  }
  return builder.take();
}

OpShardingRule broadcastInDimRule(const Graph &, const Op &op, const OpShapes &shapes) {
  const auto &attrs = op.attr<BroadcastInDimAttrs>();
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  const Shape &in = shapes.operands[0], &out = shapes.results[0];
  int64_t result = shapes.result(0);
  for (int64_t d = 0; d < static_cast<int64_t>(out.size()); ++d) {
    std::vector<std::pair<int64_t, int64_t>> tensorDims = {{result, d}};
    for (int64_t k = 0; k < static_cast<int64_t>(attrs.broadcastDimensions.size()); ++k) {
      if (attrs.broadcastDimensions[k] != d)
        continue;
      if (in[k] == out[d])
        tensorDims.push_back({0, k});
      else // an expanded size-1 dim: a unit factor of its own, before the result's
        builder.addFactor(in[k], FactorKind::PassThrough, {{0, k}});
    }
    builder.addFactor(out[d], FactorKind::PassThrough, tensorDims);
  }
  return builder.take();
}

OpShardingRule reduceRule(const Graph &, const Op &op, const OpShapes &shapes) {
  const auto &attrs = op.attr<ReduceAttrs>();
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  // Operands: the inputs (all of one shape), then their scalar inits;
  // Shardy's rule: every input shares each dim's factor.
  const Shape &in = shapes.operands[0];
  const int64_t numInputs = static_cast<int64_t>(shapes.operands.size()) / 2;
  int64_t resultDim = 0;
  for (int64_t d = 0; d < static_cast<int64_t>(in.size()); ++d) {
    std::vector<std::pair<int64_t, int64_t>> tensorDims;
    for (int64_t i = 0; i < numInputs; ++i)
      tensorDims.push_back({i, d});
    if (contains(attrs.dimensions, d)) {
      builder.addFactor(in[d], FactorKind::Reduction, tensorDims);
    } else {
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
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  const Shape &in = shapes.operands[0];
  for (int64_t d = 0; d < static_cast<int64_t>(in.size()); ++d)
    builder.addFactor(in[d], permuted[d] ? FactorKind::Permutation : FactorKind::PassThrough,
                      {{0, d}, {shapes.result(0), d}});
  return builder.take();
}

OpShardingRule sliceRule(const Graph &, const Op &op, const OpShapes &shapes) {
  const auto &attrs = op.attr<SliceAttrs>();
  std::vector<bool> permuted;
  for (size_t d = 0; d < shapes.results[0].size(); ++d)
    permuted.push_back(shapes.operands[0][d] != shapes.results[0][d] ||
                       (d < attrs.strides.size() && attrs.strides[d] != 1));
  return permutingRule(shapes, permuted);
}

OpShardingRule padRule(const Graph &, const Op &op, const OpShapes &shapes) {
  const auto &attrs = op.attr<PadAttrs>();
  std::vector<bool> permuted;
  for (size_t d = 0; d < shapes.results[0].size(); ++d)
    permuted.push_back(attrs.edgePaddingLow[d] != 0 || attrs.edgePaddingHigh[d] != 0 ||
                       attrs.interiorPadding[d] != 0);
  return permutingRule(shapes, permuted);
}

OpShardingRule reverseRule(const Graph &, const Op &op, const OpShapes &shapes) {
  const auto &attrs = op.attr<ReverseAttrs>();
  std::vector<bool> permuted;
  for (int64_t d = 0; d < static_cast<int64_t>(shapes.results[0].size()); ++d)
    permuted.push_back(contains(attrs.dimensions, d));
  return permutingRule(shapes, permuted);
}

/// Shardy's rule: dims taken whole pass through; a sliced dim needs
/// replication and blocks propagation (a sharding of the operand says
/// nothing of where the slice lies). The start indices map no factor.
OpShardingRule dynamicSliceRule(const Graph &, const Op &, const OpShapes &shapes) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  const Shape &in = shapes.operands[0], &out = shapes.results[0];
  for (int64_t d = 0; d < static_cast<int64_t>(in.size()); ++d) {
    const bool sliced = in[d] != out[d];
    builder.addFactor(in[d], sliced ? FactorKind::NeedReplication : FactorKind::PassThrough,
                      {{0, d}, {shapes.result(0), d}}, sliced);
  }
  return builder.take();
}

/// Shardy's rule: dims the update covers whole pass through all three; on
/// a sliced dim the operand and result share a pass-through factor and the
/// update has its own, which needs replication unless every start index is
/// a constant.
OpShardingRule dynamicUpdateSliceRule(const Graph &graph, const Op &op, const OpShapes &shapes) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  const Shape &in = shapes.operands[0], &update = shapes.operands[1];
  const int64_t result = shapes.result(0);
  const bool constantStarts =
      std::all_of(op.operands.begin() + 2, op.operands.end(), [&](ValueId v) {
        const Op *def = graph.value(v).definingOp;
        return def && def->kind == OpKind::Constant;
      });
  for (int64_t d = 0; d < static_cast<int64_t>(in.size()); ++d) {
    if (in[d] == update[d]) {
      builder.addFactor(in[d], FactorKind::PassThrough, {{0, d}, {1, d}, {result, d}});
      continue;
    }
    builder.addFactor(in[d], FactorKind::PassThrough, {{0, d}, {result, d}});
    builder.addFactor(update[d],
                      constantStarts ? FactorKind::PassThrough : FactorKind::NeedReplication,
                      {{1, d}});
  }
  return builder.take();
}

/// Collectives that change the size of some dims: those dims are separate
/// need-replication factors on each side, the other dims pass through. In
/// Shardy's form the pass-through dims come first, then `dims` in order.
OpShardingRule resizingCollectiveRule(const OpShapes &shapes, const std::vector<int64_t> &dims) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  const Shape &in = shapes.operands[0], &out = shapes.results[0];
  int64_t result = shapes.result(0);
  auto addResized = [&](int64_t d) {
    builder.addFactor(in[d], FactorKind::NeedReplication, {{0, d}});
    builder.addFactor(out[d], FactorKind::NeedReplication, {{result, d}});
  };
  for (int64_t d = 0; d < static_cast<int64_t>(out.size()); ++d) {
    if (!contains(dims, d))
      builder.addFactor(out[d], FactorKind::PassThrough, {{0, d}, {result, d}});
    else if (!shapes.unitFactors)
      addResized(d);
  }
  if (shapes.unitFactors)
    for (auto d = dims.begin(); d != dims.end(); ++d)
      if (std::find(dims.begin(), d, *d) == d) // all_to_all's split and concat dim may be one
        addResized(*d);
  return builder.take();
}

/// Without a rule nothing may cross the call: each dim is its own blocked
/// need-replication factor.
OpShardingRule opaqueRule(const OpShapes &shapes) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
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

/// Shardy's kind for concatenate's dim: permutation when the pieces are
/// slices (of one tensor, or all slices), which a partitioner can move
/// around; otherwise the dim needs replication.
FactorKind concatenatedDimKind(const Graph &graph, const Op &concat) {
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

// ---- the Rule column's builders that are not above ----

/// Elementwise ops, sources, annotations and the collectives that keep
/// shapes: every dim shared.
OpShardingRule pointwiseRule(const Graph &, const Op &, const OpShapes &shapes) {
  return pointwiseFactors(shapes);
}

/// Shardy's rule: the dims both sides have are one factor each; the minor
/// dim of the narrower side (a width change) needs replication: its
/// elements are the pieces of one wide element.
OpShardingRule bitcastConvertRule(const Graph &, const Op &, const OpShapes &shapes) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  const Shape &in = shapes.operands[0], &out = shapes.results[0];
  const size_t common = std::min(in.size(), out.size());
  for (size_t d = 0; d < common; ++d)
    builder.addFactor(in[d], FactorKind::PassThrough,
                      {{0, static_cast<int64_t>(d)}, {shapes.result(0), static_cast<int64_t>(d)}});
  if (in.size() != out.size()) {
    const bool narrowIn = in.size() > common;
    builder.addFactor(narrowIn ? in[common] : out[common], FactorKind::NeedReplication,
                      {{narrowIn ? 0 : shapes.result(0), static_cast<int64_t>(common)}});
  }
  return builder.take();
}

OpShardingRule reshapeRule(const Graph &, const Op &, const OpShapes &shapes) {
  // Shardy has no rule for a reshape without elements: nothing crosses it.
  return isEmpty(shapes.operands[0]) ? opaqueRule(shapes) : reshapeFactors(shapes);
}

OpShardingRule concatenateRule(const Graph &graph, const Op &op, const OpShapes &shapes) {
  return pointwiseFactors(shapes, op.attr<ConcatenateAttrs>().dimension,
                          concatenatedDimKind(graph, op));
}

OpShardingRule customCallRule(const Graph &, const Op &op, const OpShapes &shapes) {
  const auto &attrs = op.attr<CustomCallAttrs>();
  return attrs.shardingRule ? *attrs.shardingRule : opaqueRule(shapes);
}

OpShardingRule allGatherRule(const Graph &, const Op &op, const OpShapes &shapes) {
  return resizingCollectiveRule(shapes, {op.attr<AllGatherAttrs>().dimension});
}

OpShardingRule reduceScatterRule(const Graph &, const Op &op, const OpShapes &shapes) {
  return resizingCollectiveRule(shapes, {op.attr<ReduceScatterAttrs>().dimension});
}

OpShardingRule allToAllRule(const Graph &, const Op &op, const OpShapes &shapes) {
  const auto &attrs = op.attr<AllToAllAttrs>();
  return resizingCollectiveRule(shapes, {attrs.splitDimension, attrs.concatDimension});
}

// ---- gather and scatter ----

/// The dims of gather and scatter as Shardy's registry relates them: the
/// operand (scatter: input), the start indices, and the slices (gather's
/// result, scatter's updates).
struct IndexedDims {
  int64_t indexVectorDim;
  const std::vector<int64_t> &offsetDims, &collapsedDims, &operandBatchingDims,
      &indicesBatchingDims;
};

/// Which tensors of the op's rule hold the operand, the indices and the
/// slices, and the one (a scatter's result) that mirrors the operand (-1:
/// none). A scatter of `count` inputs has `count` consecutive tensors at
/// each of operand, slices and mirror, all sharing the factors.
struct IndexedTensors {
  int64_t operand, indices, slices, mirror, count = 1;
};

/// Shardy's gather/scatter factors, in its order: per slices dim an offset
/// dim's (pass-through when taken whole; sliced: need-replication, or for a
/// gather slice of size 1 a reduction on the operand) or a batch dim's
/// (indices and slices, with the operand's batching dim when explicit; a
/// scatter's implicit batch dim is a reduction when its update computation
/// is one of Shardy's common reductions, else need-replication); then each
/// collapsed (inserted) dim's; then the index vector dim's.
void addIndexedFactors(RuleBuilder &builder, const OpShapes &shapes, const IndexedTensors &t,
                       const IndexedDims &dims, bool isScatter, bool commonReduction) {
  const Shape &operand = shapes.operands[t.operand], &indices = shapes.operands[t.indices];
  const int64_t numOperands = static_cast<int64_t>(shapes.operands.size());
  const Shape &slices =
      t.slices < numOperands ? shapes.operands[t.slices] : shapes.results[t.slices - numOperands];
  // One factor over (operand dim, indices dim, slices dim), -1 for none.
  auto add = [&](int64_t operandDim, int64_t indicesDim, int64_t slicesDim, int64_t size,
                 FactorKind kind, bool blocked = false) {
    std::vector<std::pair<int64_t, int64_t>> tensorDims;
    for (int64_t i = 0; i < t.count && operandDim >= 0; ++i)
      tensorDims.push_back({t.operand + i, operandDim});
    if (indicesDim >= 0)
      tensorDims.push_back({t.indices, indicesDim});
    for (int64_t i = 0; i < t.count && slicesDim >= 0; ++i)
      tensorDims.push_back({t.slices + i, slicesDim});
    for (int64_t i = 0; i < t.count && operandDim >= 0 && t.mirror >= 0; ++i)
      tensorDims.push_back({t.mirror + i, operandDim});
    builder.addFactor(size, kind, tensorDims, blocked);
  };
  int64_t operandDim = 0, batchPos = 0;
  auto excluded = [&](int64_t d) {
    return contains(dims.collapsedDims, d) || contains(dims.operandBatchingDims, d);
  };
  for (int64_t d = 0; d < static_cast<int64_t>(slices.size()); ++d) {
    if (contains(dims.offsetDims, d)) {
      while (operandDim < static_cast<int64_t>(operand.size()) && excluded(operandDim))
        ++operandDim;
      if (operandDim >= static_cast<int64_t>(operand.size()))
        break; // the verifier refuses such dimension numbers
      const int64_t size = operand[operandDim];
      if (size == slices[d]) {
        add(operandDim, -1, d, size, FactorKind::PassThrough);
      } else if (isScatter) {
        add(operandDim, -1, -1, size, FactorKind::NeedReplication);
        add(-1, -1, d, slices[d], FactorKind::NeedReplication);
      } else if (slices[d] != 1) {
        add(operandDim, -1, d, size, FactorKind::NeedReplication, true);
      } else {
        add(operandDim, -1, -1, size, FactorKind::Reduction);
        add(-1, -1, d, slices[d], FactorKind::NeedReplication);
      }
      ++operandDim;
      continue;
    }
    const int64_t indicesDim = batchPos < dims.indexVectorDim ? batchPos : batchPos + 1;
    ++batchPos;
    const auto explicitBatch =
        std::find(dims.indicesBatchingDims.begin(), dims.indicesBatchingDims.end(), indicesDim);
    const bool isExplicit = explicitBatch != dims.indicesBatchingDims.end();
    const int64_t operandBatchDim =
        isExplicit ? dims.operandBatchingDims[explicitBatch - dims.indicesBatchingDims.begin()]
                   : -1;
    FactorKind kind = FactorKind::PassThrough;
    if (isScatter && !isExplicit)
      kind = commonReduction ? FactorKind::Reduction : FactorKind::NeedReplication;
    add(operandBatchDim, indicesDim, d, slices[d], kind);
  }
  for (int64_t d : dims.collapsedDims) {
    const int64_t size = operand[d];
    const FactorKind kind = isScatter   ? FactorKind::PassThrough
                            : size == 1 ? FactorKind::NeedReplication
                                        : FactorKind::Reduction;
    add(d, -1, -1, size, kind);
  }
  if (dims.indexVectorDim < static_cast<int64_t>(indices.size()))
    add(-1, dims.indexVectorDim, -1, indices[dims.indexVectorDim], FactorKind::NeedReplication);
}

/// Shardy's gather rule (addGatherScatterFactors): operand, start indices,
/// result.
OpShardingRule gatherRule(const Graph &, const Op &op, const OpShapes &shapes) {
  const GatherDimensionNumbers &n = op.attr<GatherAttrs>().dimensionNumbers;
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  addIndexedFactors(builder, shapes, {0, 1, shapes.result(0), -1},
                    {n.indexVectorDim, n.offsetDims, n.collapsedSliceDims, n.operandBatchingDims,
                     n.startIndicesBatchingDims},
                    false, false);
  return builder.take();
}

/// Shardy's common reductions of a scatter of N inputs: each value its
/// update computation returns, i, is one add, multiply, maximum or minimum
/// (and, or on i1) of its arguments i and N + i, the same op for every i.
bool isCommonScatterReduction(const Graph &graph, const Op &op) {
  const std::optional<Reducer> reducer = pairwiseReducer(op);
  if (!reducer)
    return false;
  if (*reducer == Reducer::And || *reducer == Reducer::Or)
    return std::all_of(
        op.operands.begin(), op.operands.begin() + op.results.size(),
        [&](ValueId input) { return graph.type(input).elementType == ElementType::I1; });
  return true;
}

/// Shardy's scatter rule: inputs, indices, updates, results (the inputs'
/// factors).
OpShardingRule scatterRule(const Graph &graph, const Op &op, const OpShapes &shapes) {
  const ScatterDimensionNumbers &n = op.attr<ScatterAttrs>().dimensionNumbers;
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  const auto count = static_cast<int64_t>(op.results.size());
  addIndexedFactors(builder, shapes, {0, count, count + 1, shapes.result(0), count},
                    {n.indexVectorDim, n.updateWindowDims, n.insertedWindowDims,
                     n.inputBatchingDims, n.scatterIndicesBatchingDims},
                    true, isCommonScatterReduction(graph, op));
  return builder.take();
}

/// Ops propagated through their data-flow edges (manual_computation,
/// optimization_barrier) have no rule.
/// Shardy's sort rule: each dim a factor of every input and result; the
/// sorted dim needs replication, blocked when no other dim is larger than 1.
OpShardingRule sortRule(const Graph &, const Op &op, const OpShapes &shapes) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  const Shape &in = shapes.operands[0];
  const int64_t rank = static_cast<int64_t>(in.size());
  const int64_t sorted = op.attr<SortAttrs>().sortedDim(rank);
  bool onlySorted = true;
  for (int64_t d = 0; d < rank; ++d)
    onlySorted &= d == sorted || in[d] == 1;
  for (int64_t d = 0; d < rank; ++d) {
    std::vector<std::pair<int64_t, int64_t>> tensorDims;
    for (size_t t = 0; t < shapes.operands.size(); ++t)
      tensorDims.push_back({static_cast<int64_t>(t), d});
    for (size_t r = 0; r < shapes.results.size(); ++r)
      tensorDims.push_back({shapes.result(static_cast<int64_t>(r)), d});
    if (d == sorted)
      builder.addFactor(in[d], FactorKind::NeedReplication, tensorDims, onlySorted);
    else
      builder.addFactor(in[d], FactorKind::PassThrough, tensorDims);
  }
  return builder.take();
}

/// Shardy's rule of mhlo.topk: the dims before the last pass through to
/// both results; the last (n in, k out) is one factor of size n, blocked and
/// needing replication. (Shardy makes it pass-through when k = n; a top_k of
/// a sharded row is no top_k of each piece, so here it never is.)
OpShardingRule topKRule(const Graph &, const Op &, const OpShapes &shapes) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  const Shape &in = shapes.operands[0];
  const int64_t last = static_cast<int64_t>(in.size()) - 1;
  const int64_t values = shapes.result(0), indices = shapes.result(1);
  for (int64_t d = 0; d < last; ++d)
    builder.addFactor(in[d], FactorKind::PassThrough, {{0, d}, {values, d}, {indices, d}});
  builder.addFactor(in[last], FactorKind::NeedReplication,
                    {{0, last}, {values, last}, {indices, last}}, true);
  return builder.take();
}

/// Shardy's: the state (in and out) needs replication and blocks
/// propagation; each output dim is free (a device makes its piece from the
/// counter of its first element).
OpShardingRule rngBitGeneratorRule(const Graph &, const Op &, const OpShapes &shapes) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  builder.addFactor(shapes.operands[0][0], FactorKind::NeedReplication,
                    {{0, 0}, {shapes.result(0), 0}}, true);
  const Shape &output = shapes.results[1];
  for (size_t d = 0; d < output.size(); ++d)
    builder.addFactor(output[d], FactorKind::PassThrough,
                      {{shapes.result(1), static_cast<int64_t>(d)}});
  return builder.take();
}

OpShardingRule noRule(const Graph &, const Op &op, const OpShapes &) {
  fail(op.pointer, std::string(op.name()) + " has no sharding rule; it is propagated through "
                                            "its data-flow edges");
}

} // namespace

bool hasShardingRule(const Graph &graph, const Op &op) {
  if (op.kind == OpKind::ManualComputation || opCategory(op.kind) == OpCategory::DataFlow)
    return false; // optimization_barrier, while, case, if: data-flow edges
  if (op.kind == OpKind::CustomCall)
    return op.attr<CustomCallAttrs>().shardingRule.has_value();
  if (op.kind == OpKind::Reshape)
    return !isEmpty(graph.type(op.operands[0]).shape);
  return true;
}

namespace {

/// A local reshape turns the operand's piece into the result's piece only
/// along factors both sides hold.
void replicateOneSidedFactors(OpShardingRule &rule) {
  std::vector<int> sides(rule.factorSizes.size(), 0);
  auto mark = [&](const OpShardingRule::TensorFactors &tensor, int side) {
    for (const auto &dim : tensor)
      for (int64_t f : dim)
        sides[f] |= side;
  };
  mark(rule.operands[0], 1);
  mark(rule.results[0], 2);
  for (size_t f = 0; f < sides.size(); ++f)
    if (sides[f] != 3)
      rule.factorKinds[f] = FactorKind::NeedReplication;
}

/// An op with start-index operands (its row's indexScalars) reads and writes
/// at global positions, so a dim whose size differs between its data
/// tensors (a sliced dim) must be whole on every device: Shardy keeps a
/// dynamic_update_slice's operand sharded there for a partitioner that
/// offsets the indices per piece, which the local kernel does not.
void replicateSlicedDims(const Graph &graph, const Op &op, OpShardingRule &rule) {
  const std::vector<OperandRole> roles = operandRoles(op.kind, op.operands.size());
  const auto groups = opRow(op.kind).operands.all();
  if (std::none_of(groups.begin(), groups.end(), [](const OperandGroup &group) {
        return group.role == OperandRole::Index && group.variadic;
      }))
    return;
  std::vector<std::pair<const OpShardingRule::TensorFactors *, const Shape *>> data;
  for (size_t t = 0; t < op.operands.size(); ++t)
    if (roles[t] == OperandRole::Data)
      data.push_back({&rule.operands[t], &graph.type(op.operands[t]).shape});
  for (size_t r = 0; r < op.results.size(); ++r)
    data.push_back({&rule.results[r], &graph.type(op.results[r]).shape});
  const Shape &first = *data.front().second;
  for (size_t d = 0; d < first.size(); ++d) {
    const bool sliced = std::any_of(data.begin(), data.end(), [&](const auto &tensor) {
      return tensor.second->size() != first.size() || (*tensor.second)[d] != first[d];
    });
    if (!sliced)
      continue;
    for (const auto &tensor : data)
      if (d < tensor.first->size())
        for (int64_t f : (*tensor.first)[d])
          rule.factorKinds[f] = FactorKind::NeedReplication;
  }
}

/// gather and scatter index the operand globally; their local kernels know
/// their piece's place only along the dims they take one element of: a
/// gather's reduction factors (each piece gathers the starts it holds and
/// writes zeros for the others; the pieces' sum is the result; not on i1,
/// which has no sum) and a scatter's inserted window dims (each piece
/// applies the updates that land in it). A scatter-add's implicit batch
/// dims split too (each piece scatters its updates, one into the input,
/// the others into zeros; the pieces' sum is the result). Every other
/// factor the slices (gather's result, scatter's updates) do not share, a
/// scatter's other reduction factors, and a scatter's indexed window dims
/// (a window lands shifted by its start, element by element) need
/// replication here.
void replicateIndexedDims(const Graph &graph, const Op &op, OpShardingRule &rule) {
  if (op.kind != OpKind::Gather && op.kind != OpKind::Scatter)
    return;
  // A scatter of several inputs sums its pieces when it adds every pair.
  const bool summable =
      std::none_of(op.results.begin(), op.results.end(),
                   [&](ValueId r) { return graph.type(r).elementType == ElementType::I1; }) &&
      (op.kind == OpKind::Gather || pairwiseReducer(op) == Reducer::Add);
  const OpShardingRule::TensorFactors &slices =
      op.kind == OpKind::Gather ? rule.results[0] : rule.operands[op.results.size() + 1];
  std::vector<bool> inSlices(rule.factorSizes.size(), false);
  for (const auto &dim : slices)
    for (int64_t f : dim)
      inSlices[f] = true;
  for (int64_t f = 0; f < rule.numFactors(); ++f)
    if (rule.factorKinds[f] == FactorKind::Reduction && !summable)
      rule.factorKinds[f] = FactorKind::NeedReplication;
  if (op.kind == OpKind::Gather) {
    for (const auto &dim : rule.operands[0])
      for (int64_t f : dim)
        if (!inSlices[f] && rule.factorKinds[f] != FactorKind::Reduction)
          rule.factorKinds[f] = FactorKind::NeedReplication;
    return;
  }
  const ScatterDimensionNumbers &n = op.attr<ScatterAttrs>().dimensionNumbers;
  for (int64_t d : n.scatterDimsToOperandDims)
    if (!contains(n.insertedWindowDims, d))
      for (int64_t f : rule.operands[0][d])
        rule.factorKinds[f] = FactorKind::NeedReplication;
}

// ---- windows ----

/// Shardy's isWindowPassthroughDim: no padding, window and stride of 1.
bool isWindowPassthroughDim(const std::vector<std::array<int64_t, 2>> &padding,
                            const std::vector<int64_t> &dimensions,
                            const std::vector<int64_t> &strides, size_t dim) {
  return (dim >= padding.size() || (padding[dim][0] == 0 && padding[dim][1] == 0)) &&
         (dim >= strides.size() || strides[dim] == 1) &&
         (dim >= dimensions.size() || dimensions[dim] == 1);
}

/// Shardy's rule: a factor per result dim (the number of windows), shared
/// with the input; a windowed dim's is a permutation factor (its elements
/// move between shards). The init value maps no factor.
OpShardingRule reduceWindowRule(const Graph &, const Op &op, const OpShapes &shapes) {
  const auto &attrs = op.attr<ReduceWindowAttrs>();
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  const Shape &out = shapes.results[0];
  for (size_t d = 0; d < out.size(); ++d) {
    // As Shardy's: a base dilation changes the size, which keeps the
    // partitioner from sharding the factor.
    const bool passThrough =
        isWindowPassthroughDim(attrs.padding, attrs.windowDimensions, attrs.windowStrides, d);
    // Every input and result shares it; the inits map none.
    std::vector<std::pair<int64_t, int64_t>> tensorDims;
    const int64_t numInputs = static_cast<int64_t>(shapes.results.size());
    for (int64_t t = 0; t < numInputs; ++t)
      tensorDims.push_back({t, static_cast<int64_t>(d)});
    for (int64_t r = 0; r < numInputs; ++r)
      tensorDims.push_back({shapes.result(r), static_cast<int64_t>(d)});
    builder.addFactor(out[d], passThrough ? FactorKind::PassThrough : FactorKind::Permutation,
                      tensorDims);
  }
  return builder.take();
}

/// Shardy's rule: pass-through dims are shared by operand, source and
/// result; on a windowed dim the source's factor needs replication and the
/// operand's and result's is a permutation factor.
OpShardingRule selectAndScatterRule(const Graph &, const Op &op, const OpShapes &shapes) {
  const auto &attrs = op.attr<SelectAndScatterAttrs>();
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  const Shape &out = shapes.results[0], &source = shapes.operands[1];
  const int64_t result = shapes.result(0);
  for (int64_t d = 0; d < static_cast<int64_t>(out.size()); ++d) {
    if (isWindowPassthroughDim(attrs.padding, attrs.windowDimensions, attrs.windowStrides,
                               static_cast<size_t>(d))) {
      builder.addFactor(out[d], FactorKind::PassThrough, {{0, d}, {1, d}, {result, d}});
      continue;
    }
    builder.addFactor(source[d], FactorKind::NeedReplication, {{1, d}});
    builder.addFactor(out[d], FactorKind::Permutation, {{0, d}, {result, d}});
  }
  return builder.take();
}

/// Shardy's rule: batch and output feature pass through as a dot's free
/// dims, the input feature is a reduction factor (lhs and kernel), the
/// groups a factor of their own; per spatial dim a permutation factor (the
/// number of windows, lhs and output) and a reduction factor (the window
/// size, lhs and kernel), the larger one major.
OpShardingRule convolutionRule(const Graph &, const Op &op, const OpShapes &shapes) {
  const auto &a = op.attr<ConvolutionAttrs>();
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  const Shape &lhs = shapes.operands[0], &rhs = shapes.operands[1], &out = shapes.results[0];
  const int64_t result = shapes.result(0);
  if (a.batchGroupCount > 1)
    builder.addFactor(a.batchGroupCount, FactorKind::PassThrough,
                      {{0, a.inputBatchDimension},
                       {1, a.kernelOutputFeatureDimension},
                       {result, a.outputFeatureDimension}});
  // A factor of size 1 (Shardy's form only) maps just the dims of size 1:
  // a per-group batch or input feature of 1 stays off the grouped dim.
  const auto unitOr = [&](int64_t size, std::vector<std::pair<int64_t, int64_t>> tensorDims) {
    if (size == 1)
      std::erase_if(tensorDims, [&](const std::pair<int64_t, int64_t> &tensorDim) {
        const auto [tensor, dim] = tensorDim;
        const Shape &shape = tensor < 2 ? shapes.operands[tensor] : out;
        return shape[dim] != 1;
      });
    return tensorDims;
  };
  builder.addFactor(out[a.outputBatchDimension], FactorKind::PassThrough,
                    unitOr(out[a.outputBatchDimension],
                           {{0, a.inputBatchDimension}, {result, a.outputBatchDimension}}));
  for (size_t s = 0; s < a.inputSpatialDimensions.size(); ++s) {
    const int64_t lhsDim = a.inputSpatialDimensions[s], rhsDim = a.kernelSpatialDimensions[s],
                  outDim = a.outputSpatialDimensions[s];
    int64_t remaining = lhs[lhsDim];
    const auto addSpatial = [&](int64_t size, bool window) {
      size = std::min(remaining, size);
      if (size <= 1)
        return;
      if (window)
        builder.addFactor(size, FactorKind::Reduction, {{0, lhsDim}, {1, rhsDim}});
      else
        builder.addFactor(size, FactorKind::Permutation, {{0, lhsDim}, {result, outDim}});
      remaining /= size;
    };
    const int64_t windows = out[outDim], windowSize = rhs[rhsDim];
    addSpatial(windows >= windowSize ? windows : windowSize, windows < windowSize);
    addSpatial(windows >= windowSize ? windowSize : windows, windows >= windowSize);
  }
  if (a.featureGroupCount > 1)
    builder.addFactor(a.featureGroupCount, FactorKind::PassThrough,
                      {{0, a.inputFeatureDimension},
                       {1, a.kernelOutputFeatureDimension},
                       {result, a.outputFeatureDimension}});
  builder.addFactor(rhs[a.kernelInputFeatureDimension], FactorKind::Reduction,
                    unitOr(rhs[a.kernelInputFeatureDimension],
                           {{0, a.inputFeatureDimension}, {1, a.kernelInputFeatureDimension}}));
  const int64_t outFeatures =
      out[a.outputFeatureDimension] / (a.batchGroupCount * a.featureGroupCount);
  if (outFeatures > 1)
    builder.addFactor(outFeatures, FactorKind::PassThrough,
                      {{1, a.kernelOutputFeatureDimension}, {result, a.outputFeatureDimension}});
  return builder.take();
}

/// The local convolution kernel runs on whole windows and whole groups:
/// the factors of spatial dims, and of the dims a group factor shares,
/// need replication in the partitioner (halo exchange is not done).
void replicateConvolutionFactors(const Op &op, OpShardingRule &rule) {
  const auto &a = op.attr<ConvolutionAttrs>();
  const auto replicate = [&](const OpShardingRule::TensorFactors &tensor, int64_t dim) {
    for (int64_t f : tensor[dim])
      rule.factorKinds[f] = FactorKind::NeedReplication;
  };
  for (int64_t d : a.inputSpatialDimensions)
    replicate(rule.operands[0], d);
  for (int64_t d : a.kernelSpatialDimensions)
    replicate(rule.operands[1], d);
  for (int64_t d : a.outputSpatialDimensions)
    replicate(rule.results[0], d);
  if (a.batchGroupCount > 1) {
    replicate(rule.operands[0], a.inputBatchDimension);
    replicate(rule.operands[1], a.kernelOutputFeatureDimension);
    replicate(rule.results[0], a.outputFeatureDimension);
  }
  if (a.featureGroupCount > 1) {
    replicate(rule.operands[0], a.inputFeatureDimension);
    replicate(rule.operands[1], a.kernelOutputFeatureDimension);
    replicate(rule.results[0], a.outputFeatureDimension);
  }
}

/// Shardy's: every dim a factor of the operand's size shared by operand and
/// result; the batch dims pass through, the transform's dims need
/// replication (each output element reads the whole line), and RFFT's and
/// IRFFT's last dim, of another size on each side, blocks propagation.
OpShardingRule fftRule(const Graph &, const Op &op, const OpShapes &shapes) {
  RuleBuilder builder(shapes.operandRanks(), shapes.resultRanks(), shapes.unitFactors);
  const Shape &in = shapes.operands[0], &out = shapes.results[0];
  const auto rank = static_cast<int64_t>(in.size());
  const auto fftRank = static_cast<int64_t>(op.attr<FftAttrs>().fftLength.size());
  for (int64_t d = 0; d < rank; ++d) {
    const std::vector<std::pair<int64_t, int64_t>> tensorDims{{0, d}, {shapes.result(0), d}};
    if (d < rank - fftRank)
      builder.addFactor(in[d], FactorKind::PassThrough, tensorDims);
    else
      builder.addFactor(in[d], FactorKind::NeedReplication, tensorDims,
                        d == rank - 1 && in[d] != out[d]);
  }
  return builder.take();
}

} // namespace

OpShardingRule partitioningRuleFor(const Graph &graph, const Op &op) {
  // An op without a rule (nothing says how its dims move) runs on whole
  // operands: every factor needs replication; never an error.
  if (!hasShardingRule(graph, op))
    return opaqueRule(shapesOf(graph, op));
  OpShardingRule rule = shardingRuleFor(graph, op);
  if (op.kind == OpKind::Reshape)
    replicateOneSidedFactors(rule);
  replicateSlicedDims(graph, op, rule);
  replicateIndexedDims(graph, op, rule);
  if (op.kind == OpKind::Convolution)
    replicateConvolutionFactors(op, rule);
  return rule;
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

/// The rule of `op` over `shapes` (its operand and result shapes): its row's
/// Rule column.
static OpShardingRule buildRule(const Graph &graph, const Op &op, const OpShapes &shapes) {
  using Builder = OpShardingRule (*)(const Graph &, const Op &, const OpShapes &);
  static constexpr Builder kRules[] = {
#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, Bound, Mlir, Infer,  \
                    Rule, ...)                                                                     \
  &Rule,
#include "compiler/ops/Ops.def"
  };
  static_assert(std::size(kRules) == kNumOpKinds);
  return kRules[static_cast<size_t>(op.kind)](graph, op, shapes);
}

OpShardingRule shardingRuleFor(const Graph &graph, const Op &op) {
  return buildRule(graph, op, shapesOf(graph, op));
}

std::optional<OpShardingRule> shardyShardingRule(const Graph &graph, const Op &op) {
  // Ops Shardy handles apart from its registry, and shardgen's own ops.
  static constexpr OpKind kNoRegistryRule[] = {
      OpKind::Constant,      OpKind::Iota,       OpKind::PropagationBarrier,
      OpKind::ShardingGroup, OpKind::Distribute, OpKind::AxisIndex,
      OpKind::AfterAll};
  if (std::find(std::begin(kNoRegistryRule), std::end(kNoRegistryRule), op.kind) !=
          std::end(kNoRegistryRule) ||
      !hasShardingRule(graph, op))
    return std::nullopt;
  OpShapes shapes = shapesOf(graph, op);
  shapes.unitFactors = true;
  return buildRule(graph, op, shapes);
}

} // namespace shardgen
