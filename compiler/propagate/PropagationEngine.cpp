#include "compiler/propagate/PropagationEngine.h"

#include <algorithm>

#include "compiler/ir/Progress.h"
#include "compiler/propagate/ShardingRules.h"

namespace shardgen::propagation {

ManualView stripManualAxes(const ShardingState &global, const AxisList &manualAxes) {
  ManualView view;
  view.local = global;
  if (!global.hasSharding())
    return view;
  view.prefixes.resize(global.dims.size());
  for (size_t d = 0; d < global.dims.size(); ++d) {
    AxisList &axes = view.local.dims[d].axes;
    size_t cut = 0;
    while (cut < axes.size() && overlapsAny(axes[cut], manualAxes))
      ++cut;
    view.prefixes[d].assign(axes.begin(), axes.begin() + static_cast<std::ptrdiff_t>(cut));
    axes.erase(axes.begin(), axes.begin() + static_cast<std::ptrdiff_t>(cut));
  }
  auto dropManual = [&](AxisList &axes) {
    axes.erase(std::remove_if(axes.begin(), axes.end(),
                              [&](const SubAxis &axis) { return overlapsAny(axis, manualAxes); }),
               axes.end());
  };
  dropManual(view.local.replicated);
  dropManual(view.local.unreduced);
  view.local.forbidden.insert(view.local.forbidden.end(), manualAxes.begin(), manualAxes.end());
  return view;
}

ShardingState restoreManualAxes(const ShardingState &local, const ManualView &view,
                                const ShardingState &global) {
  ShardingState result = local;
  for (size_t d = 0; d < result.dims.size() && d < view.prefixes.size(); ++d) {
    AxisList axes = view.prefixes[d];
    for (const SubAxis &axis : local.dims[d].axes)
      appendOrMerge(axes, axis);
    result.dims[d].axes = std::move(axes);
  }
  result.replicated = global.replicated;
  result.unreduced = global.unreduced;
  result.forbidden = global.forbidden;
  return result;
}

static bool isGlobalSide(const Edge &edge, size_t position) {
  return (edge.kind == EdgeKind::ManualIn && position == 0) ||
         (edge.kind == EdgeKind::ManualOut && position == 1);
}

ShardingState edgeView(const PropagationGraph &pg, const Edge &edge, size_t position) {
  const ShardingState &state = pg.stateOf(tensorAt(edge, position));
  if (isGlobalSide(edge, position))
    return stripManualAxes(state, pg.manuals[edge.manual].manualAxes).local;
  return state;
}

bool sameMesh(const Graph &graph, int32_t a, int32_t b) {
  const Mesh &x = graph.meshes[a], &y = graph.meshes[b];
  return a == b || (x.axes == y.axes && x.deviceIds == y.deviceIds);
}

int32_t commonMesh(const Graph &graph, const PropagationGraph &pg, const Edge &edge) {
  int32_t mesh = -1;
  for (size_t k = 0; k < edge.numTensors(); ++k) {
    int32_t other = pg.stateOf(tensorAt(edge, k)).mesh;
    if (other < 0)
      continue;
    if (mesh < 0 || graph.meshes[mesh].isEmpty())
      mesh = other;
    else if (!graph.meshes[other].isEmpty() && !sameMesh(graph, mesh, other))
      return -1;
  }
  return mesh;
}

/// Ops the first two stages (pass-through ops, single then multiple use) move
/// shardings across.
static bool isFirstStagesOp(OpClass opClass) {
  return opClass == OpClass::PassThrough || opClass == OpClass::ForwardPassThrough;
}

Direction factorDirection(const Edge &edge, const OpShardingRule &rule, int64_t factor,
                          OpStage stage) {
  if (std::find(rule.blockedFactors.begin(), rule.blockedFactors.end(), factor) !=
      rule.blockedFactors.end())
    return Direction::None;
  Direction allowed = edge.allowed;
  if (edge.opClass == OpClass::Unscheduled || stage == OpStage::Everything)
    return allowed;
  Direction byStage = Direction::None;
  if (isFirstStagesOp(edge.opClass) &&
      (stage != OpStage::PassThroughSingleUse || !edge.multiUseOperand))
    byStage = edge.opClass == OpClass::PassThrough ? Direction::Both : Direction::Forward;
  bool anyFactor = stage >= OpStage::AnyButBroadcastForward;
  if (anyFactor ||
      (stage >= OpStage::PassThroughFactors && rule.factorKinds[factor] == FactorKind::PassThrough))
    byStage =
        unite(byStage, edge.opClass == OpClass::Broadcast ? Direction::Backward : Direction::Both);
  return intersect(allowed, byStage);
}

/// Whether `stage` lets `edge` cross more than the stage before it did. An
/// edge that does not gain has nothing new to do until a neighbour changes.
static bool gainsInStage(const Edge &edge, OpStage stage) {
  switch (stage) {
  case OpStage::PassThroughSingleUse:
    return true;
  case OpStage::PassThroughOps:
    return isFirstStagesOp(edge.opClass) && edge.multiUseOperand;
  case OpStage::PassThroughFactors:
  case OpStage::AnyButBroadcastForward: // a forward-only op gains backward
    return edge.opClass == OpClass::Other || edge.opClass == OpClass::Broadcast ||
           edge.opClass == OpClass::ForwardPassThrough;
  case OpStage::Everything:
    return edge.opClass == OpClass::Broadcast;
  }
  return true;
}

void PropagationEngine::run(ConflictResolution resolution, OpStage stage, bool afterPrevStage) {
  resolution_ = resolution;
  stage_ = stage;
  worklist_.reset(pg_.edges.size());
  for (size_t e = 0; e < pg_.edges.size(); ++e)
    if (!afterPrevStage || gainsInStage(pg_.edges[e], stage))
      worklist_.push(static_cast<int64_t>(e));
  // Progress: ops visited at least once in this pass, of all ops.
  std::vector<char> seen(pg_.edges.size(), 0);
  auto total = static_cast<int64_t>(pg_.edges.size());
  int64_t done = 0;
  for (int64_t e = worklist_.pop(); e >= 0; e = worklist_.pop()) {
    visit(e);
    if (!seen[e]) {
      seen[e] = 1;
      if (++done % 256 == 0)
        reportProgress("ops", done, total);
    }
  }
  reportProgress("ops", done, total);
}

void PropagationEngine::enqueueNeighbours(int64_t tensor, int64_t exceptEdge) {
  for (int64_t e : pg_.edgesOf(tensor))
    if (e != exceptEdge)
      worklist_.push(e);
}

void recordOrigin(PropagationGraph &pg, int64_t tensor, const ShardingState &current,
                  Origin origin) {
  constexpr size_t kMaxExtensions = 8;
  Tensor &target = pg.tensors[tensor];
  if (!current.hasAxes() || target.origin.kind == OriginKind::None) {
    target.origin = origin;
    return;
  }
  if (target.extensions < 0) { // the tensor's first: most tensors never get one
    target.extensions = static_cast<int32_t>(pg.extensionLists.size());
    pg.extensionLists.emplace_back();
  }
  std::vector<Origin> &extensions = pg.extensionLists[target.extensions];
  if (extensions.size() < kMaxExtensions)
    extensions.push_back(origin);
}

void PropagationEngine::setSharding(int64_t tensor, int32_t stateId, Origin origin,
                                    int64_t fromEdge) {
  recordOrigin(pg_, tensor, pg_.stateOf(tensor), origin);
  Tensor &target = pg_.tensors[tensor];
  target.stateId = stateId;
  enqueueNeighbours(tensor, fromEdge);
  if (target.group < 0)
    return;
  // Every member of a sharding group follows: same sharding, same origin chain.
  const ShardingGroup &group = pg_.groups[target.group];
  for (int64_t member : group.members) {
    if (member == tensor)
      continue;
    Tensor &other = pg_.tensors[member];
    if (other.distributed)
      continue;
    const ShardingState &current = pg_.states.state(other.stateId);
    ShardingState copy = pg_.states.state(stateId);
    copy.forbidden = current.forbidden;
    if (copy == current)
      continue;
    recordOrigin(pg_, member, current, Origin::ofGroup(tensor, target.group));
    other.stateId = pg_.states.intern(std::move(copy));
    enqueueNeighbours(member, fromEdge);
  }
}

int64_t PropagationEngine::findSource(const OpProjection &projection, const OpProjection &before,
                                      size_t target) const {
  const TensorProjection &grown = projection.tensors[target];
  int64_t fallback = -1;
  for (size_t f = 0; f < grown.factors.size(); ++f) {
    const AxisList &axes = grown.factors[f].axes;
    if (axes == before.tensors[target].factors[f].axes)
      continue;
    for (size_t s = 0; s < projection.tensors.size(); ++s) {
      if (s == target || !before.tensors[s].factors[f].present)
        continue;
      if (axisListPrefixStatus(axes, before.tensors[s].factors[f].axes) == PrefixStatus::NotAPrefix)
        continue;
      if (!scratch_.updated[s])
        return static_cast<int64_t>(s);
      if (fallback < 0)
        fallback = static_cast<int64_t>(s);
    }
  }
  return fallback;
}

/// A distributed tensor maps no factor for propagation: it neither gives nor
/// takes axes, nor excludes any.
void PropagationEngine::hideIfDistributed(TensorProjection &projection, int64_t tensor) const {
  if (!pg_.tensors[tensor].distributed)
    return;
  for (FactorSharding &factor : projection.factors)
    factor = FactorSharding{};
  projection.excluded.clear();
}

/// Whether the current stage lets anything cross `edge` at all.
bool PropagationEngine::crossesInStage(const Edge &edge) const {
  if (edge.opaque || edge.allowed == Direction::None)
    return false; // nothing crosses a custom_call without rule or a closed barrier
  // Not this stage's op: every factor's direction would be None.
  return stage_ > OpStage::PassThroughOps || isFirstStagesOp(edge.opClass) ||
         edge.opClass == OpClass::Unscheduled;
}

/// The mesh the edge propagates on, or -1 when there is nothing to do (two
/// meshes, or no axes at all). Tensors without a sharding remember the mesh
/// as where a replicated default will live.
int32_t PropagationEngine::meshToPropagateOn(const Edge &edge) {
  size_t numTensors = edge.numTensors();
  int32_t mesh = -1;
  for (size_t k = 0; k < numTensors; ++k) {
    int32_t other = pg_.states.mesh(pg_.tensors[tensorAt(edge, k)].stateId);
    if (other < 0)
      continue;
    if (mesh < 0 || graph_.meshes[mesh].isEmpty())
      mesh = other;
    else if (!graph_.meshes[other].isEmpty() && !sameMesh(graph_, mesh, other))
      return -1; // Shardy propagates only between shardings of one mesh
  }
  if (mesh < 0)
    return -1;
  bool anyAxes = false;
  for (size_t k = 0; k < numTensors; ++k) {
    int64_t t = tensorAt(edge, k);
    Tensor &tensor = pg_.tensors[t];
    anyAxes |= pg_.states.hasAxes(tensor.stateId);
    if (pg_.states.mesh(tensor.stateId) < 0 && tensor.meshHint < 0)
      tensor.meshHint = static_cast<int16_t>(mesh); // a mesh index: checked when built
  }
  return anyAxes ? mesh : -1;
}

/// Projects every tensor of the edge onto the rule's factors. Tensors are
/// seen as they are, except a manual boundary's global side.
void PropagationEngine::project(const Edge &edge, const OpShardingRule &rule,
                                OpProjection &projection) {
  size_t numTensors = edge.numTensors();
  projection.numOperands = edge.operands().size();
  projection.tensors.resize(numTensors);
  for (size_t k = 0; k < numTensors; ++k) {
    projectTensor(*views_[k], tensorFactors(rule, edge, k), rule.factorSizes,
                  projection.tensors[k]);
    hideIfDistributed(projection.tensors[k], tensorAt(edge, k));
  }
}

void PropagationEngine::setDirections(const Edge &edge, const OpShardingRule &rule) {
  directions_.resize(rule.factorSizes.size());
  for (size_t f = 0; f < directions_.size(); ++f)
    directions_[f] = factorDirection(edge, rule, static_cast<int64_t>(f), stage_);
}

/// A visit's outcome depends only on what VisitMemo's key holds unless a
/// manual boundary cuts axes off its global side, a sharding group copies
/// a change to tensors outside the edge, or the edge holds a tensor twice.
bool PropagationEngine::memoizable(const Edge &edge) const {
  if (edge.kind != EdgeKind::Rule && edge.kind != EdgeKind::Identity &&
      edge.kind != EdgeKind::DataFlow)
    return false;
  // A tensor the edge holds twice (x * x) sees its own first update when
  // its second place is written: the outcome differs from an edge holding
  // two tensors with the same states.
  size_t numTensors = edge.numTensors();
  for (size_t k = 1; k < numTensors; ++k)
    for (size_t j = 0; j < k; ++j)
      if (tensorAt(edge, j) == tensorAt(edge, k))
        return false;
  if (pg_.groups.empty())
    return true; // most graphs: no tensor to look at
  for (size_t k = 0; k < edge.numTensors(); ++k)
    if (pg_.tensors[tensorAt(edge, k)].group >= 0)
      return false;
  return true;
}

/// The memo's key: the rule, the step's settings and the states seen.
void PropagationEngine::memoKey(const Edge &edge, int32_t rule) {
  memoKey_.clear();
  memoKey_.push_back(rule);
  memoKey_.push_back(resolution_ == ConflictResolution::Basic ? 0 : 1);
  memoKey_.push_back(edge.elementwise ? 1 : 0);
  memoKey_.push_back(static_cast<int64_t>(edge.operands().size()));
  for (Direction direction : directions_)
    memoKey_.push_back(static_cast<int64_t>(direction));
  for (size_t k = 0; k < edge.numTensors(); ++k) {
    int64_t t = tensorAt(edge, k);
    bool distributed = pg_.anyDistributed && pg_.tensors[t].distributed;
    memoKey_.push_back(int64_t{pg_.tensors[t].stateId} * 2 + (distributed ? 1 : 0));
  }
}

void PropagationEngine::visit(int64_t edgeIndex) {
  ++visits_;
  const Edge &edge = pg_.edges[edgeIndex];
  if (!crossesInStage(edge))
    return;
  int32_t mesh = meshToPropagateOn(edge);
  if (mesh < 0)
    return;
  int32_t ruleIndex = rules_.indexOf(edgeIndex);
  const OpShardingRule &rule = rules_.of(edgeIndex);
  setDirections(edge, rule);
  bool memoize = memoize_ && memoizable(edge);
  if (memoize) {
    memoKey(edge, ruleIndex);
    std::span<const VisitMemo::Step> steps;
    if (memo_.find(memoKey_, steps)) {
      replay(edgeIndex, steps);
      return;
    }
  }
  size_t numTensors = edge.numTensors();
  views_.resize(numTensors);
  for (size_t k = 0; k < numTensors; ++k) {
    if (isGlobalSide(edge, k)) {
      manualView_ = edgeView(pg_, edge, k);
      views_[k] = &manualView_;
    } else {
      views_[k] = &pg_.stateOf(tensorAt(edge, k));
    }
  }
  project(edge, rule, projection_);
  steps_.clear();
  if (propagateFactors(projection_, rule.factorSizes, directions_.data(), resolution_,
                       edge.elementwise, scratch_))
    writeBack(edgeIndex, rule, mesh, memoize);
  if (memoize)
    memo_.record(memoKey_, steps_);
}

/// What a recorded visit did, done again: the same states, the same origins.
void PropagationEngine::replay(int64_t edgeIndex, std::span<const VisitMemo::Step> steps) {
  const Edge &edge = pg_.edges[edgeIndex];
  for (const VisitMemo::Step &step : steps) {
    int64_t t = tensorAt(edge, static_cast<size_t>(step.position));
    Origin origin = Origin::op(
        edgeIndex, step.source >= 0 ? tensorAt(edge, static_cast<size_t>(step.source)) : -1);
    setSharding(t, step.state, origin, edgeIndex);
  }
}

/// Writes the grown factor shardings back to the tensors that changed (and,
/// with `record`, what it wrote to steps_).
void PropagationEngine::writeBack(int64_t edgeIndex, const OpShardingRule &rule, int32_t mesh,
                                  bool record) {
  const Edge &edge = pg_.edges[edgeIndex];
  // The projections before the step, to tell where new axes came from.
  project(edge, rule, before_);
  for (size_t k = 0; k < projection_.tensors.size(); ++k) {
    if (!scratch_.updated[k])
      continue;
    int64_t t = tensorAt(edge, k);
    ShardingState next = unprojectTensor(projection_.tensors[k], tensorFactors(rule, edge, k),
                                         rule.factorSizes, *views_[k], mesh);
    const ShardingState &old = pg_.stateOf(t);
    if (isGlobalSide(edge, k))
      next =
          restoreManualAxes(next, stripManualAxes(old, pg_.manuals[edge.manual].manualAxes), old);
    if ((!old.hasSharding() && !next.hasAxes()) || next == old)
      continue; // e.g. a strided view would be needed
    int64_t source = findSource(projection_, before_, k);
    int32_t id = pg_.states.intern(std::move(next));
    if (record)
      steps_.push_back({static_cast<int32_t>(k), id, static_cast<int32_t>(source)});
    Origin origin = Origin::op(edgeIndex, source >= 0 ? tensorAt(edge, source) : -1);
    setSharding(t, id, origin, edgeIndex);
  }
}

} // namespace shardgen::propagation
