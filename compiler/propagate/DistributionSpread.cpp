#include "compiler/propagate/DistributionSpread.h"

#include <algorithm>
#include <deque>

namespace shardgen::propagation {

bool passesDistributions(const Op &op) {
  // A reduce chunk by chunk: one input and one of the simple reducers.
  return isPerElement(op.kind) ||
         (op.kind == OpKind::Reduce && op.operands.size() == 2 && simpleReducer(op));
}

namespace {

bool isConstant(const Graph &graph, ValueId v) {
  const Op *op = graph.value(v).definingOp;
  return op && op->kind == OpKind::Constant;
}

/// An operand that joins an elementwise op as it is: a constant, or a scalar
/// next to a result of higher rank (select's predicate, clamp's bounds).
bool joins(const Graph &graph, const Op &op, ValueId operand) {
  return isConstant(graph, operand) ||
         (graph.type(operand).rank() == 0 && graph.type(op.results[0]).rank() > 0);
}

/// The operand distribution whose reduce over `dims` gives `result`: every
/// reduced dim whole in a chunk.
Distribution insertWholeDims(const Distribution &result, const std::vector<int64_t> &dims,
                             const Shape &operandShape) {
  Distribution operand{result.meshName, {}, result.order};
  size_t next = 0;
  for (int64_t d = 0; d < static_cast<int64_t>(operandShape.size()); ++d) {
    if (std::find(dims.begin(), dims.end(), d) != dims.end())
      operand.shardShape.push_back(operandShape[d]);
    else
      operand.shardShape.push_back(result.shardShape[next++]);
  }
  return operand;
}

/// The first reduced dim a chunk of `operand` splits, or -1.
int64_t splitReducedDim(const Distribution &operand, const std::vector<int64_t> &dims,
                        const Shape &shape) {
  for (int64_t d : dims)
    if (operand.shardShape[d] != shape[d])
      return d;
  return -1;
}

class Spreader {
public:
  Spreader(const Graph &graph, const PropagationGraph &pg) : graph_(graph), pg_(pg) {}

  DistributionSpread run() {
    if (firstDistributionPointer(graph_).empty())
      return std::move(spread_); // nothing to spread (most graphs): no per-value lists
    size_t n = graph_.values.size();
    spread_.distributions.resize(n);
    spread_.sources.resize(n);
    spread_.pinnedBy.resize(n);
    findPins();
    uses_ = computeUses(graph_);
    seedUserDistributions();
    while (!queue_.empty()) {
      const Op *op = queue_.front();
      queue_.pop_front();
      if (op->kind == OpKind::Reduce)
        visitReduce(*op);
      else
        visitElementwise(*op);
    }
    return std::move(spread_);
  }

private:
  /// A user sharding reaches a value first when its tensor holds a sharding
  /// before propagation, or an output with a sharding returns it.
  void findPins() {
    for (size_t v = 0; v < graph_.values.size(); ++v) {
      if (pg_.valueTensor[v] < 0)
        continue; // a scalar body's value: no tensor
      const Tensor &tensor = pg_.tensors[pg_.valueTensor[v]];
      if (!pg_.states.state(tensor.stateId).hasSharding())
        continue;
      spread_.pinnedBy[v] = tensor.user >= 0 && tensor.origin.kind != OriginKind::Group
                                ? pg_.pointerOf(pg_.userOriginOf(tensor))
                                : "sharding_group " + std::to_string(pg_.groupIdOf(tensor.origin));
    }
    for (const auto &result : graph_.main.results)
      if (result.sharding && spread_.pinnedBy[result.value].empty())
        spread_.pinnedBy[result.value] = result.pointer + "/sharding";
  }

  void seedUserDistributions() {
    for (const auto &arg : graph_.main.args)
      if (arg.distribution)
        assign(arg.value, *arg.distribution,
               {DistributionSource::Kind::User, arg.pointer + "/distribution", -1});
    walkOps(graph_.main, [&](const Op &op) {
      for (size_t j = 0; j < op.results.size() && j < op.distributions.size(); ++j)
        if (op.distributions[j])
          assign(op.results[j], *op.distributions[j],
                 {DistributionSource::Kind::User,
                  op.pluralResults ? op.pointer + "/distributions/" + std::to_string(j)
                                   : op.pointer + "/distribution",
                  -1});
    });
    // An output's distribution is its value's unless the value has its own
    // annotation (then the output converts).
    for (const auto &result : graph_.main.results)
      if (result.distribution && !spread_.distributions[result.value] &&
          spread_.pinnedBy[result.value].empty())
        assign(result.value, *result.distribution,
               {DistributionSource::Kind::User, result.pointer + "/distribution", -1});
  }

  bool candidate(ValueId v) const {
    return graph_.value(v).region == &graph_.main && spread_.pinnedBy[v].empty() &&
           !spread_.distributions[v] && !isConstant(graph_, v);
  }

  void assign(ValueId v, const Distribution &distribution, DistributionSource source) {
    // Values inheriting a user distribution do not inherit its `_` keys.
    spread_.distributions[v] = withoutMetadata(distribution);
    spread_.sources[v] = std::move(source);
    const Value &value = graph_.value(v);
    if (value.region != &graph_.main)
      return;
    if (value.definingOp && passesDistributions(*value.definingOp))
      queue_.push_back(value.definingOp);
    for (const Op *user : uses_.users[v])
      if (passesDistributions(*user))
        queue_.push_back(user);
  }

  void visitElementwise(const Op &op) {
    ValueId result = op.results[0];
    std::vector<ValueId> members; // operands that do not merely join
    for (ValueId operand : op.operands)
      if (!joins(graph_, op, operand) &&
          std::find(members.begin(), members.end(), operand) == members.end())
        members.push_back(operand);
    const auto &dists = spread_.distributions;
    std::optional<Distribution> common = dists[result];
    bool allOperandsDistributed = !members.empty();
    for (ValueId operand : members) {
      if (!dists[operand]) {
        allOperandsDistributed = false;
        continue;
      }
      if (common && *common != *dists[operand])
        return; // two distributions meet: the op passes neither
      common = dists[operand];
    }
    if (!common)
      return;
    if (allOperandsDistributed && candidate(result)) {
      ValueId from = *std::find_if(members.begin(), members.end(),
                                   [&](ValueId m) { return dists[m].has_value(); });
      assign(result, *common, {DistributionSource::Kind::Op, op.pointer, from});
      return;
    }
    if (!dists[result])
      return;
    // Backward: every undistributed operand must be able to take it.
    for (ValueId operand : members)
      if (!dists[operand] && !candidate(operand))
        return;
    for (ValueId operand : members)
      if (!dists[operand])
        assign(operand, *common, {DistributionSource::Kind::Op, op.pointer, result});
  }

  void visitReduce(const Op &op) {
    ValueId operand = op.operands[0], result = op.results[0];
    const auto &dims = op.attr<ReduceAttrs>().dimensions;
    const Shape &shape = graph_.type(operand).shape;
    const auto &dists = spread_.distributions;
    if (dists[operand] && candidate(result) && splitReducedDim(*dists[operand], dims, shape) < 0)
      assign(result, dropDistributionDims(*dists[operand], dims),
             {DistributionSource::Kind::Op, op.pointer, operand});
    else if (dists[result] && candidate(operand))
      assign(operand, insertWholeDims(*dists[result], dims, shape),
             {DistributionSource::Kind::Op, op.pointer, result});
  }

  const Graph &graph_;
  const PropagationGraph &pg_;
  DistributionSpread spread_;
  Uses uses_;
  std::deque<const Op *> queue_;
};

std::string opText(const Op &op) { return std::string(op.name()) + " " + op.pointer; }

} // namespace

DistributionSpread spreadDistributions(const Graph &graph, const PropagationGraph &pg) {
  return Spreader(graph, pg).run();
}

std::string quotedValueName(const Graph &graph, ValueId v) {
  return "\"" + graph.value(v).name + "\"";
}

std::string whyNotThrough(const Graph &graph, const DistributionSpread &spread, const Op &op,
                          ValueId value) {
  const auto &dists = spread.distributions;
  ValueId distributedNeighbour = -1;
  for (ValueId v : op.operands)
    if (v != value && dists[v])
      distributedNeighbour = v;
  for (ValueId v : op.results)
    if (v != value && dists[v])
      distributedNeighbour = v;
  if (distributedNeighbour < 0)
    return "";
  std::string neighbour = quotedValueName(graph, distributedNeighbour);
  if (!passesDistributions(op))
    return opText(op) + " does not pass distributions (from " + neighbour + ")";

  if (op.kind == OpKind::Reduce) {
    ValueId operand = op.operands[0];
    if (value != op.results[0] || !dists[operand])
      return "";
    const auto &dims = op.attr<ReduceAttrs>().dimensions;
    const Shape &shape = graph.type(operand).shape;
    int64_t d = splitReducedDim(*dists[operand], dims, shape);
    if (d < 0)
      return "";
    return opText(op) + " reduces dim " + std::to_string(d) + " of " + neighbour +
           ", which its chunks split (shard_shape " +
           std::to_string(dists[operand]->shardShape[d]) + " of " + std::to_string(shape[d]) + ")";
  }

  // Elementwise: name the first thing that stops it.
  std::optional<Distribution> common;
  ValueId commonFrom = -1;
  for (ValueId v : op.operands) {
    if (joins(graph, op, v) || !dists[v])
      continue;
    if (common && *common != *dists[v])
      return opText(op) + ": its operands " + quotedValueName(graph, commonFrom) + " and " +
             quotedValueName(graph, v) + " have different distributions";
    common = dists[v];
    commonFrom = v;
  }
  ValueId result = op.results[0];
  if (common && dists[result] && *common != *dists[result])
    return opText(op) + ": its operand " + quotedValueName(graph, commonFrom) + " and result " +
           quotedValueName(graph, result) + " have different distributions";
  for (ValueId v : op.operands) {
    if (v == value || joins(graph, op, v) || dists[v])
      continue;
    if (!spread.pinnedBy[v].empty())
      return opText(op) + ": operand " + quotedValueName(graph, v) + " has a user sharding (" +
             spread.pinnedBy[v] + ")";
    if (value == result)
      return opText(op) + ": operand " + quotedValueName(graph, v) +
             " is neither distributed nor a scalar or constant";
  }
  if (value != result && !dists[result])
    return opText(op) + ": its result " + quotedValueName(graph, result) +
           " is not distributed, so nothing comes back to this operand";
  return "";
}

} // namespace shardgen::propagation
