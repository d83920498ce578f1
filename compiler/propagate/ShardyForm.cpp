// applyPropagationShardyForm: the propagated shardings written as Shardy's
// propagation leaves its program, for output in Shardy's printed form.

#include <algorithm>

#include "compiler/propagate/Propagation.h"
#include "compiler/propagate/PropagationGraph.h"

namespace shardgen {

namespace {

bool hasAxes(const TensorSharding &sharding) {
  return !sharding.unreduced.empty() ||
         std::any_of(sharding.dims.begin(), sharding.dims.end(),
                     [](const DimSharding &dim) { return !dim.axes.empty(); });
}

/// Shardy updates a sharding in place: the user's dims keep whether they are
/// open and their priority (user-priority propagation drops the priorities
/// once it has used them); a value without one gets open dims, and only once
/// an axis reaches it.
std::optional<TensorSharding> shardyForm(const std::optional<TensorSharding> &user,
                                         const TensorSharding &propagated, bool keepPriorities) {
  if (propagated.meshName.empty())
    return user; // the graph has no mesh: nothing was propagated
  if (!user && !hasAxes(propagated))
    return std::nullopt;
  TensorSharding out = propagated;
  for (size_t d = 0; d < out.dims.size(); ++d) {
    bool fromUser = user && d < user->dims.size();
    out.dims[d].isClosed = fromUser && user->dims[d].isClosed;
    out.dims[d].priority = fromUser && keepPriorities ? user->dims[d].priority : std::nullopt;
  }
  return out;
}

} // namespace

void applyPropagationShardyForm(Graph &graph, const PropagationResult &result) {
  bool keepPriorities = result.strategy != PropagationStrategy::UserPriority;
  auto setShardyForm = [&](UniquedOptional<TensorSharding> &slot,
                           const TensorSharding &propagated) {
    slot = shardyForm(slot, propagated, keepPriorities);
  };
  for (auto &arg : graph.main.args)
    setShardyForm(arg.sharding, result.shardingOf(arg.value));
  for (size_t i = 0; i < graph.main.results.size() && i < result.outputShardings.size(); ++i)
    setShardyForm(graph.main.results[i].sharding, result.outputShardings[i]);
  size_t opIndex = 0; // `graph` may be a clone: its ops are the propagated graph's in walk order
  walkMutableOps(graph.main, [&](Op &op) {
    const Op *propagated = result.state ? result.state->ops.at(opIndex++) : &op;
    if (op.kind != OpKind::ManualComputation) { // its results are its out_shardings
      if (!op.results.empty())
        op.shardings.resize(op.results.size());
      for (size_t j = 0; j < op.results.size(); ++j)
        setShardyForm(op.shardings[j], result.shardingOf(op.results[j]));
      return;
    }
    auto found = result.manualComputations.find(propagated);
    if (found == result.manualComputations.end())
      return;
    auto &attrs = op.attr<ManualComputationAttrs>();
    for (size_t i = 0; i < attrs.inShardings.size() && i < found->second.inShardings.size(); ++i)
      attrs.inShardings[i] =
          *shardyForm(attrs.inShardings[i], found->second.inShardings[i], keepPriorities);
    for (size_t i = 0; i < attrs.outShardings.size() && i < found->second.outShardings.size(); ++i)
      attrs.outShardings[i] =
          *shardyForm(attrs.outShardings[i], found->second.outShardings[i], keepPriorities);
  });
}

} // namespace shardgen
