#include "compiler/propagate/Propagation.h"

#include <algorithm>
#include <set>
#include <type_traits>

#include "compiler/propagate/DistributionSpread.h"
#include "compiler/propagate/PropagationEngine.h"
#include "compiler/propagate/PropagationGraph.h"

namespace shardgen {

using namespace propagation;

std::string_view strategyName(PropagationStrategy strategy) {
  switch (strategy) {
  case PropagationStrategy::Basic:
    return "basic";
  case PropagationStrategy::Aggressive:
    return "aggressive";
  case PropagationStrategy::OpPriority:
    return "op-priority";
  case PropagationStrategy::UserPriority:
    return "user-priority";
  }
  return "user-priority";
}

std::optional<PropagationStrategy> parseStrategy(std::string_view name) {
  for (auto strategy : {PropagationStrategy::Basic, PropagationStrategy::Aggressive,
                        PropagationStrategy::OpPriority, PropagationStrategy::UserPriority})
    if (strategyName(strategy) == name)
      return strategy;
  return std::nullopt;
}

namespace {

int64_t priorityOf(const DimState &dim) { return dim.priority.value_or(0); }

bool lessAxis(const SubAxis &a, const SubAxis &b) {
  return std::tie(a.axis, a.pre) < std::tie(b.axis, b.pre);
}

/// Shardy's user-priority start: dims of priority > 0 are hidden (closed,
/// empty, their axes replicated) until their level comes. Returns the levels.
std::vector<int64_t> hideLowerPriorities(PropagationGraph &pg) {
  std::set<int64_t> levels;
  for (Tensor &tensor : pg.tensors) {
    const ShardingState *user = pg.userOf(tensor);
    if (!user)
      continue;
    ShardingState state = pg.states.state(tensor.stateId);
    for (size_t d = 0; d < user->dims.size(); ++d) {
      int64_t priority = priorityOf(user->dims[d]);
      if (priority == 0)
        continue;
      levels.insert(priority);
      DimState &dim = state.dims[d];
      state.replicated.insert(state.replicated.end(), dim.axes.begin(), dim.axes.end());
      dim = DimState{{}, true, std::nullopt};
    }
    std::sort(state.replicated.begin(), state.replicated.end(), lessAxis);
    tensor.stateId = pg.states.intern(std::move(state));
  }
  return {levels.begin(), levels.end()};
}

void revealPriority(PropagationGraph &pg, int64_t level) {
  for (size_t t = 0; t < pg.tensors.size(); ++t) {
    const ShardingState *user = pg.userOf(pg.tensors[t]);
    if (!user)
      continue;
    ShardingState state = pg.stateOf(static_cast<int64_t>(t));
    for (size_t d = 0; d < user->dims.size(); ++d) {
      const DimState &original = user->dims[d];
      if (priorityOf(original) != level)
        continue;
      if (!original.axes.empty())
        recordOrigin(pg, static_cast<int64_t>(t), state, pg.userOriginOf(pg.tensors[t]));
      state.dims[d] = original;
      AxisList &replicated = state.replicated;
      replicated.erase(std::remove_if(replicated.begin(), replicated.end(),
                                      [&](const SubAxis &axis) {
                                        return std::find(original.axes.begin(), original.axes.end(),
                                                         axis) != original.axes.end();
                                      }),
                       replicated.end());
    }
    pg.tensors[t].stateId = pg.states.intern(std::move(state));
  }
}

void runOpPriority(PropagationEngine &engine) {
  for (OpStage stage :
       {OpStage::PassThroughSingleUse, OpStage::PassThroughOps, OpStage::PassThroughFactors,
        OpStage::AnyButBroadcastForward, OpStage::Everything})
    engine.run(ConflictResolution::Aggressive, stage,
               /*afterPrevStage=*/stage != OpStage::PassThroughSingleUse);
}

void runStrategy(PropagationEngine &engine, PropagationGraph &pg, PropagationStrategy strategy) {
  switch (strategy) {
  case PropagationStrategy::Basic:
    engine.run(ConflictResolution::Basic, OpStage::Everything);
    return;
  case PropagationStrategy::Aggressive:
    engine.run(ConflictResolution::Aggressive, OpStage::Everything);
    return;
  case PropagationStrategy::OpPriority:
    runOpPriority(engine);
    return;
  case PropagationStrategy::UserPriority: {
    std::vector<int64_t> levels = hideLowerPriorities(pg);
    runOpPriority(engine);
    for (int64_t level : levels) {
      revealPriority(pg, level);
      runOpPriority(engine);
    }
    return;
  }
  }
}

/// Values nothing reached are replicated on the mesh an op reached them
/// with, else on the graph's first mesh.
void replicateTheRest(const Graph &graph, PropagationGraph &pg) {
  for (Tensor &tensor : pg.tensors) {
    if (pg.states.state(tensor.stateId).hasSharding())
      continue;
    int32_t mesh = tensor.meshHint >= 0 ? tensor.meshHint : graph.meshes.empty() ? -1 : 0;
    if (mesh < 0)
      continue;
    ShardingState state = pg.states.state(tensor.stateId);
    state.mesh = mesh;
    state.dims.assign(pg.shapes[tensor.shapeId]->size(), DimState{{}, true, std::nullopt});
    tensor.stateId = pg.states.intern(std::move(state));
    tensor.origin = Origin{};
    tensor.origin.kind = OriginKind::Default;
  }
}

/// Distributed tensors leave Shardy propagation: no sharding, no user
/// sharding (a constraint's included), invisible to the engine.
void closeDistributedTensors(PropagationGraph &pg, const DistributionSpread &spread) {
  for (size_t v = 0; v < spread.distributions.size(); ++v) {
    if (!spread.distributions[v])
      continue;
    Tensor &tensor = pg.tensors[pg.valueTensor[v]];
    tensor.distributed = true;
    pg.anyDistributed = true;
    ShardingState state;
    state.forbidden = pg.states.state(tensor.stateId).forbidden;
    tensor.stateId = pg.states.intern(std::move(state));
    tensor.user = -1;
    tensor.origin = Origin{};
  }
}

ShardingOrigin distributionOrigin(const DistributionSource &source) {
  ShardingOrigin origin;
  if (source.kind == DistributionSource::Kind::User)
    origin.kind = ShardingOrigin::Kind::User;
  else if (source.kind == DistributionSource::Kind::Op)
    origin.kind = ShardingOrigin::Kind::Op;
  origin.pointer = CompactPointer(source.pointer);
  origin.from = static_cast<int32_t>(source.from);
  return origin;
}

TensorSharding replicatedOn(const Distribution &distribution) {
  return TensorSharding::replicatedOn(distribution.meshName, distribution.rank());
}

/// Distributed values and outputs: their distribution, a replicated
/// placeholder sharding, and the distribution's origin.
void addDistributions(const Graph &graph, const DistributionSpread &spread,
                      PropagationResult &result) {
  result.distributions = spread.distributions; // empty when nothing was spread
  for (size_t v = 0; v < spread.distributions.size(); ++v) {
    if (!spread.distributions[v])
      continue;
    result.shardingIds[v] = static_cast<int32_t>(result.distinctShardings.size());
    result.distinctShardings.emplace_back(replicatedOn(*spread.distributions[v]));
    result.origins[v] = distributionOrigin(spread.sources[v]);
  }
  result.outputDistributions.resize(graph.main.results.size());
  for (size_t i = 0; i < graph.main.results.size(); ++i) {
    const RegionResult &output = graph.main.results[i];
    std::optional<Distribution> &distribution = result.outputDistributions[i];
    ShardingOrigin origin;
    if (output.distribution) {
      distribution = output.distribution;
      origin.kind = ShardingOrigin::Kind::User;
      origin.pointer = CompactPointer(output.pointer + "/distribution");
    } else if (!output.sharding && !spread.distributions.empty() &&
               spread.distributions[output.value]) {
      distribution = spread.distributions[output.value];
      origin.kind = ShardingOrigin::Kind::Op;
      origin.pointer = CompactPointer(output.pointer);
      origin.from = static_cast<int32_t>(output.value);
    } else {
      continue;
    }
    result.outputShardings[i] = replicatedOn(*distribution);
    result.outputOrigins[i] = origin;
  }
}

ShardingOrigin publicOrigin(const Graph &graph, const PropagationGraph &pg, const Origin &origin) {
  ShardingOrigin out;
  auto valueOf = [&](int64_t tensor) {
    return static_cast<int32_t>(tensor >= 0 ? pg.tensors[tensor].value : -1);
  };
  switch (origin.kind) {
  case OriginKind::User:
    out.kind = ShardingOrigin::Kind::User;
    out.pointer = CompactPointer(pg.pointerOf(origin));
    break;
  case OriginKind::Constraint:
    out.kind = ShardingOrigin::Kind::Constraint;
    out.pointer = CompactPointer(pg.pointerOf(origin));
    break;
  case OriginKind::Group:
    out.kind = ShardingOrigin::Kind::Group;
    out.groupId = pg.groupIdOf(origin);
    out.from = valueOf(origin.source);
    break;
  case OriginKind::Op:
    out.kind = ShardingOrigin::Kind::Op;
    out.pointer = CompactPointer(edgePointer(graph, pg, pg.edges[origin.edge()]));
    out.from = valueOf(origin.source);
    break;
  default:
    break;
  }
  return out;
}

/// The IR shardings propagation writes, converted once per distinct state
/// (a program's million tensors hold a few dozen) into the result's
/// `distinctShardings`; id 0 there is "no sharding".
class FinalShardings {
public:
  FinalShardings(const Graph &graph, const PropagationGraph &pg, PropagationResult &result)
      : graph_(graph), pg_(pg), result_(result) {
    result_.distinctShardings.assign(1, TensorSharding{});
  }

  /// The result's id of the tensor's sharding.
  int32_t idOf(int64_t tensor) {
    auto stateId = static_cast<size_t>(pg_.tensors[tensor].stateId);
    const ShardingState &state = pg_.states.state(static_cast<int32_t>(stateId));
    if (!state.hasSharding())
      return 0;
    if (stateId >= converted_.size())
      converted_.resize(stateId + 1, -1);
    if (converted_[stateId] < 0) {
      converted_[stateId] = static_cast<int32_t>(result_.distinctShardings.size());
      result_.distinctShardings.emplace_back(toSharding(state, graph_, /*closeAll=*/true));
    }
    return converted_[stateId];
  }
  TensorSharding of(int64_t tensor) {
    int32_t id = idOf(tensor); // may grow distinctShardings
    return *result_.distinctShardings[id];
  }

private:
  const Graph &graph_;
  const PropagationGraph &pg_;
  PropagationResult &result_;
  std::vector<int32_t> converted_; // by state id: the result's id, or -1
};

} // namespace

PropagationResult propagateShardings(const Graph &graph, PropagationStrategy strategy) {
  auto pg = std::make_shared<PropagationGraph>(buildPropagationGraph(graph));
  // User annotations first, then distributions spread, then Shardy decides
  // the rest with distributed values closed.
  auto spread = std::make_shared<DistributionSpread>(spreadDistributions(graph, *pg));
  closeDistributedTensors(*pg, *spread);
  int64_t visits = 0;
  { // the engine's tables (rules by edge, worklist, memo) go before the result comes
    PropagationEngine engine(graph, *pg);
    runStrategy(engine, *pg, strategy);
    visits = engine.visits();
  }
  pg->releaseTensorEdges(); // the engine's: explain finds a tensor's edges itself
  returnFreedMemory(*pg);
  replicateTheRest(graph, *pg);

  PropagationResult result;
  result.strategy = strategy;
  result.opVisits = visits;
  result.warnings = pg->warnings;
  FinalShardings finalSharding(graph, *pg, result);
  result.shardingIds.resize(graph.values.size());
  result.origins.resize(graph.values.size());
  for (size_t v = 0; v < graph.values.size(); ++v) {
    int64_t t = pg->valueTensor[v];
    if (t < 0)
      continue; // a scalar body's value (a reduce's): no tensor, nothing to shard
    const Tensor &tensor = pg->tensors[t];
    result.shardingIds[v] = finalSharding.idOf(t);
    result.origins[v] = publicOrigin(graph, *pg, tensor.origin);
  }
  for (int64_t t : pg->outputTensor) {
    result.outputShardings.push_back(finalSharding.of(t));
    result.outputOrigins.push_back(publicOrigin(graph, *pg, pg->tensors[t].origin));
  }
  addDistributions(graph, *spread, result);
  result.spread = std::move(spread);
  for (const ManualInfo &info : pg->manuals) {
    ManualComputationShardings &shardings = result.manualComputations[pg->ops[info.op]];
    for (int64_t t : info.inTensors)
      shardings.inShardings.push_back(finalSharding.of(t));
    for (int64_t t : info.outTensors)
      shardings.outShardings.push_back(finalSharding.of(t));
  }
  result.state = std::move(pg);
  return result;
}

namespace {

/// `value` copied out of a const result, moved out of one being consumed.
template <typename T> decltype(auto) take(T &value) {
  if constexpr (std::is_const_v<T>)
    return static_cast<const T &>(value);
  else
    return std::move(value);
}

using Sharding = UniquedOptional<TensorSharding>;

/// Sets one sharding slot and its origin. A slot whose sharding does not
/// change keeps the origin it already has (or the file states), so
/// propagating a propagated graph again changes nothing.
template <typename Origin>
void writeSlot(Sharding &slot, std::optional<ShardingOrigin> &slotOrigin, bool statesOrigin,
               const Sharding &sharding, Origin &origin) {
  if (sharding->meshName.empty())
    return; // the graph has no mesh at all
  bool unchanged = slot == sharding && (slotOrigin || statesOrigin);
  slot = sharding;
  if (!unchanged)
    slotOrigin = take(origin);
}

/// A graph input or output: its distribution if it has one, else its sharding.
template <typename Origin>
void writeSlot(RegionArgument &slot, const Sharding &sharding,
               const std::optional<Distribution> &distribution, Origin &origin) {
  if (!distribution) {
    writeSlot(slot.sharding, slot.origin, slot.statesOrigin, sharding, origin);
    return;
  }
  bool unchanged =
      slot.distribution == distribution && !slot.sharding && (slot.origin || slot.statesOrigin);
  if (slot.distribution != distribution) // keep the file's own (with its `_` keys)
    slot.distribution = distribution;
  slot.sharding.reset();
  if (!unchanged)
    slot.origin = take(origin);
}

template <typename Result> void writeOpResults(Op &op, Result &result) {
  if (op.results.empty())
    return;
  op.shardings.resize(op.results.size());
  op.distributions.resize(op.results.size());
  bool unchanged = !op.origins.empty() || op.statesOrigins;
  for (size_t j = 0; j < op.results.size(); ++j) {
    const Sharding &sharding = result.uniquedShardingOf(op.results[j]);
    if (sharding->meshName.empty())
      return;
    const std::optional<Distribution> &distribution = result.distributionOf(op.results[j]);
    if (distribution) {
      unchanged &= op.distributions[j] == distribution && !op.shardings[j];
      if (op.distributions[j] != distribution) // keep the file's own (with its `_` keys)
        op.distributions[j] = distribution;
      op.shardings[j].reset();
    } else {
      unchanged &= op.shardings[j] == sharding && !op.distributions[j];
      op.shardings[j] = sharding;
      op.distributions[j].reset();
    }
  }
  if (unchanged)
    return;
  op.origins.clear();
  for (ValueId v : op.results)
    op.origins.push_back(take(result.origins[v]));
}

/// applyPropagation, copying out of a const result or moving out of one
/// that is consumed (each value's origin goes to one slot; the shardings
/// are uniqued, shared by every slot).
template <typename Result> void applyResult(Graph &graph, Result &result) {
  for (auto &arg : graph.main.args)
    writeSlot(arg, result.uniquedShardingOf(arg.value), result.distributionOf(arg.value),
              result.origins[arg.value]);
  for (size_t i = 0; i < graph.main.results.size() && i < result.outputShardings.size(); ++i)
    writeSlot(graph.main.results[i], Sharding(result.outputShardings[i]),
              result.outputDistributions[i], result.outputOrigins[i]);
  size_t opIndex = 0; // `graph` may be a clone: its ops are the propagated graph's in walk order
  walkMutableOps(graph.main, [&](Op &op) {
    const Op *propagated = result.state ? result.state->ops.at(opIndex++) : &op;
    writeOpResults(op, result);
    if (op.kind != OpKind::ManualComputation)
      return;
    if (auto it = result.manualComputations.find(propagated);
        it != result.manualComputations.end()) {
      auto &attrs = op.attr<ManualComputationAttrs>();
      attrs.inShardings = take(it->second.inShardings);
      attrs.outShardings = take(it->second.outShardings);
    }
    for (Region &body : op.regions)
      for (auto &arg : body.args)
        writeSlot(arg.sharding, arg.origin, arg.statesOrigin, result.uniquedShardingOf(arg.value),
                  result.origins[arg.value]);
  });
}

} // namespace

void applyPropagation(Graph &graph, const PropagationResult &result) { applyResult(graph, result); }

void applyPropagation(Graph &graph, PropagationResult &&result) { applyResult(graph, result); }

} // namespace shardgen
