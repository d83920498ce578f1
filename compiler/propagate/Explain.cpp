// `shardgen explain`: why a value has its sharding. The origin chain is
// recorded during propagation; why a dim stayed replicated is worked out
// afterwards from the final state: for every op touching the value, what the
// other tensors offer along the dim's factors, and what kept each offered
// axis out (a barrier, a missing rule, a closed dim, a replicated axis, an
// axis already used, or a conflict).

#include <algorithm>
#include <optional>
#include <set>
#include <sstream>

#include "compiler/ir/Diagnostic.h"
#include "compiler/propagate/DistributionSpread.h"
#include "compiler/propagate/FactorPropagation.h"
#include "compiler/propagate/Propagation.h"
#include "compiler/propagate/PropagationEngine.h"
#include "compiler/propagate/PropagationGraph.h"

namespace shardgen {

using namespace propagation;

namespace {

/// Where a tensor's own sharding was written: its JSON pointer, or the group
/// whose member's sharding it copied.
std::string userSlot(const PropagationGraph &pg, const Tensor &tensor) {
  const Origin &origin = pg.userOriginOf(tensor);
  if (origin.kind == OriginKind::Group)
    return "sharding_group " + std::to_string(pg.groupIdOf(origin));
  return pg.pointerOf(origin);
}

class Explainer {
public:
  Explainer(const Graph &graph, const PropagationGraph &pg, PropagationStrategy strategy,
            size_t maxOriginSteps)
      : graph_(graph), pg_(pg), strategy_(strategy), maxOriginSteps_(maxOriginSteps) {}

  std::string explain(int64_t tensor) {
    const Tensor &target = pg_.tensors[tensor];
    out_ << "value \"" << pg_.label(graph_, tensor) << "\": " << shardingText(pg_.stateOf(tensor))
         << "\n";
    if (const Op *op = target.value >= 0 ? graph_.values[target.value].definingOp : nullptr)
      if (auto scope = metadataString(op->metadata, kInlinedFromKey))
        out_ << "defined in " << *scope << " (inlined), by " << op->name() << " " << op->pointer
             << "\n";
    out_ << "origin:\n";
    originChain(tensor);
    for (const Origin &extension : pg_.extensionsOf(target))
      out_ << "  then extended " << step(extension) << "\n";
    for (size_t d = 0; d < pg_.shapeOf(tensor).size(); ++d)
      if (pg_.stateOf(tensor).hasSharding() && pg_.stateOf(tensor).dims[d].axes.empty())
        explainReplicatedDim(tensor, d);
    return out_.str();
  }

private:
  std::string shardingText(const ShardingState &state) const {
    if (!state.hasSharding())
      return "(no mesh)";
    return printSharding(toSharding(state, graph_, true));
  }

  std::string axesText(const AxisList &axes, int32_t mesh) const {
    std::string text = "{";
    for (size_t i = 0; i < axes.size(); ++i)
      text += (i ? ", " : "") + printAxisRef(toAxisRef(axes[i], graph_.meshes[mesh]));
    return text + "}";
  }

  std::string name(int64_t tensor) const { return "\"" + pg_.label(graph_, tensor) + "\""; }

  void originChain(int64_t tensor) {
    std::set<int64_t> seen;
    for (size_t steps = 0; tensor >= 0 && seen.insert(tensor).second; ++steps) {
      if (steps == maxOriginSteps_) {
        out_ << "  ... and on from " << name(tensor)
             << " (shardgen explain gives the whole chain)\n";
        return;
      }
      const Tensor &current = pg_.tensors[tensor];
      const Origin &origin = current.origin;
      out_ << "  " << name(tensor) << " " << shardingText(pg_.stateOf(tensor)) << ": ";
      switch (origin.kind) {
      case OriginKind::User:
        out_ << "user sharding at " << pg_.pointerOf(origin) << "\n";
        return;
      case OriginKind::Constraint:
        out_ << "sharding_constraint at " << pg_.pointerOf(origin) << "\n";
        return;
      case OriginKind::Group:
        out_ << "member of sharding_group " << pg_.groupIdOf(origin) << ", same as "
             << (origin.source >= 0 ? name(origin.source) : std::string("another member")) << "\n";
        tensor = origin.source;
        break;
      case OriginKind::Op:
        out_ << step(origin) << "\n";
        tensor = origin.source;
        break;
      default:
        out_ << "no sharding reached it: replicated by default\n";
        return;
      }
    }
  }

  std::string step(const Origin &origin) const {
    std::string text;
    if (origin.kind == OriginKind::Group)
      text = "as a member of sharding_group " + std::to_string(pg_.groupIdOf(origin));
    else if (origin.kind == OriginKind::Op)
      text = "propagated through " + edgeDescription(graph_, pg_, pg_.edges[origin.edge()]);
    else
      return "by the user sharding at " + pg_.pointerOf(origin);
    if (origin.source >= 0)
      text += " from " + name(origin.source);
    return text;
  }

  static size_t positionOf(const Edge &edge, int64_t tensor) {
    for (size_t k = 0; k < edge.operands().size(); ++k)
      if (edge.operands()[k] == tensor)
        return k;
    for (size_t k = 0; k < edge.results().size(); ++k)
      if (edge.results()[k] == tensor)
        return edge.operands().size() + k;
    return SIZE_MAX;
  }

  static int64_t tensorAt(const Edge &edge, size_t k) {
    return k < edge.operands().size() ? edge.operands()[k]
                                      : edge.results()[k - edge.operands().size()];
  }

  void explainReplicatedDim(int64_t tensor, size_t dim) {
    const Tensor &target = pg_.tensors[tensor];
    out_ << "dim " << dim << " (size " << pg_.shapeOf(tensor)[dim] << ") is replicated:\n";
    size_t before = out_.str().size();
    std::vector<std::string> silentNeighbours;
    for (int64_t e : pg_.edgesTouching(tensor))
      explainEdge(tensor, dim, e, silentNeighbours);
    if (out_.str().size() == before) {
      const ShardingState *user = pg_.userOf(target);
      if (user && dim < user->dims.size() && user->dims[dim].closed)
        out_ << "  - closed dim: the sharding at " << userSlot(pg_, target)
             << " closes it, so it may not gain axes\n";
      out_ << "  - nothing offered an axis for it";
      if (!silentNeighbours.empty()) {
        out_ << ": its neighbours";
        for (const auto &neighbour : silentNeighbours)
          out_ << " " << neighbour;
        out_ << " are replicated along it too";
      }
      out_ << "\n";
    }
  }

  void explainEdge(int64_t tensor, size_t dim, int64_t edgeIndex,
                   std::vector<std::string> &silentNeighbours) {
    const Edge &edge = pg_.edges[edgeIndex];
    size_t position = positionOf(edge, tensor);
    std::string via = edgeDescription(graph_, pg_, edge);
    OpShardingRule rule = edgeRule(graph_, pg_, edge);
    size_t numTensors = edge.numTensors();
    if (edge.opaque) {
      bool anyOffer = false;
      for (size_t s = 0; s < numTensors; ++s)
        anyOffer |= s != position && pg_.stateOf(tensorAt(edge, s)).hasAxes();
      if (anyOffer)
        out_ << "  - missing rule: " << via
             << " has no sharding_rule, so no sharding propagates through it\n";
      return;
    }
    std::vector<ShardingState> views;
    OpProjection projection;
    projection.numOperands = edge.operands().size();
    for (size_t k = 0; k < numTensors; ++k) {
      views.push_back(edgeView(pg_, edge, k));
      const auto &mapping =
          k < edge.operands().size() ? rule.operands[k] : rule.results[k - edge.operands().size()];
      projection.tensors.push_back(projectTensor(views.back(), mapping, rule.factorSizes));
    }
    const auto &mapping = position < edge.operands().size()
                              ? rule.operands[position]
                              : rule.results[position - edge.operands().size()];
    if (dim >= mapping.size())
      return;
    const ShardingState &own = views[position];
    for (int64_t factor : mapping[dim]) {
      for (size_t s = 0; s < numTensors; ++s) {
        if (s == position)
          continue;
        const FactorSharding &offered = projection.tensors[s].factors[factor];
        if (!offered.present)
          continue;
        int64_t source = tensorAt(edge, s);
        if (offered.axes.empty()) {
          if (std::find(silentNeighbours.begin(), silentNeighbours.end(), name(source)) ==
              silentNeighbours.end())
            silentNeighbours.push_back(name(source));
          continue;
        }
        explainOffer(edge, rule, projection, position, s, factor, own, via);
      }
    }
  }

  /// One axis offered to tensor `position` of an edge along `factor` by
  /// tensor `source`, and what explaining its refusal needs.
  struct Offer {
    const Edge &edge;
    const OpShardingRule &rule;
    const OpProjection &projection;
    size_t position, source;
    int64_t factor;
    const ShardingState &own; // the receiving tensor's state
    const std::string &via;   // the edge, described
    const FactorSharding &offered;
    int32_t mesh;
    std::string text;     // "\"x\" offers {a} through ..."
    std::string axisName; // the first offered axis
    const SubAxis &axis() const { return offered.axes.front(); }
  };

  /// Why the offer was not taken: the first reason that applies, in the
  /// order propagation checks them.
  void explainOffer(const Edge &edge, const OpShardingRule &rule, const OpProjection &projection,
                    size_t position, size_t s, int64_t factor, const ShardingState &own,
                    const std::string &via) {
    const FactorSharding &offered = projection.tensors[s].factors[factor];
    int32_t mesh = pg_.stateOf(tensorAt(edge, s)).mesh;
    Offer offer{edge,
                rule,
                projection,
                position,
                s,
                factor,
                own,
                via,
                offered,
                mesh,
                name(tensorAt(edge, s)) + " offers " + axesText(offered.axes, mesh) + " through " +
                    via,
                axesText({offered.axes.front()}, mesh)};
    std::optional<std::string> reason = barrierOrRule(offer);
    if (!reason)
      reason = ownState(offer);
    if (!reason)
      reason = conflict(offer);
    if (!reason)
      reason = divisibility(offer);
    out_ << "  - "
         << reason.value_or("not taken: " + offer.text +
                            ", but a higher-priority choice (op or user priority, or a larger "
                            "tensor) claimed the axis first")
         << "\n";
  }

  /// A barrier closed to the offer's direction, a blocked factor, two meshes.
  std::optional<std::string> barrierOrRule(const Offer &offer) const {
    const Edge &edge = offer.edge;
    bool intoOperand = offer.position < edge.operands().size();
    bool fromOperand = offer.source < edge.operands().size();
    // backward into operands, forward into results
    Direction needed = intoOperand ? Direction::Backward : Direction::Forward;
    if (intoOperand != fromOperand && !allows(edge.allowed, needed))
      return "barrier: " + offer.text + ", but it allows only " +
             (edge.allowed == Direction::None      ? "NONE"
              : edge.allowed == Direction::Forward ? "FORWARD"
                                                   : "BACKWARD");
    const auto &blocked = offer.rule.blockedFactors;
    if (std::find(blocked.begin(), blocked.end(), offer.factor) != blocked.end())
      return "blocked: " + offer.text + ", but the sharding_rule blocks that factor";
    if (offer.own.hasSharding() && commonMesh(graph_, pg_, edge) < 0)
      return "different meshes: " + offer.text + " on @" + graph_.meshes[offer.mesh].name +
             ", this value is on @" + graph_.meshes[offer.own.mesh].name;
    return std::nullopt;
  }

  /// The receiving tensor cannot take the axis: a closed dim, or the axis is
  /// replicated, unreduced, manual or in use there.
  std::optional<std::string> ownState(const Offer &offer) const {
    const Tensor &target = pg_.tensors[tensorAt(offer.edge, offer.position)];
    const ShardingState &own = offer.own;
    const SubAxis &axis = offer.axis();
    const std::string &axisName = offer.axisName;
    if (target.user >= 0 && offer.projection.tensors[offer.position].factors[offer.factor].closed)
      return "closed dim: " + offer.text + ", but the dim is closed in the sharding at " +
             userSlot(pg_, target);
    if (overlapsAny(axis, own.replicated))
      return "replicated axis: " + offer.text + ", but " + axisName +
             " is listed in replicated={...} of this value's sharding";
    if (overlapsAny(axis, own.unreduced))
      return "unreduced axis: " + offer.text + ", but " + axisName + " is unreduced here";
    if (overlapsAny(axis, own.forbidden))
      return "manual axis: " + offer.text + ", but " + axisName +
             " is a manual axis of the enclosing manual_computation";
    for (size_t d = 0; d < own.dims.size(); ++d)
      if (overlapsAny(axis, own.dims[d].axes))
        return "axis in use: " + offer.text + ", but " + axisName + " already shards dim " +
               std::to_string(d) + " of this value";
    return std::nullopt;
  }

  /// Another tensor of the op disagrees on this factor, or uses the axis for
  /// another factor: a conflict Shardy leaves unresolved.
  std::optional<std::string> conflict(const Offer &offer) const {
    for (size_t k = 0; k < offer.projection.tensors.size(); ++k) {
      if (k == offer.position || k == offer.source)
        continue;
      if (auto reason = conflictWith(offer, k))
        return reason;
    }
    return std::nullopt;
  }

  std::optional<std::string> conflictWith(const Offer &offer, size_t k) const {
    const TensorProjection &other = offer.projection.tensors[k];
    const FactorSharding &theirs = other.factors[offer.factor];
    std::string otherName = name(tensorAt(offer.edge, k));
    const SubAxis &axis = offer.axis();
    if (theirs.present && !theirs.axes.empty() &&
        axisListPrefixStatus(theirs.axes, offer.offered.axes) == PrefixStatus::NotAPrefix &&
        axisListPrefixStatus(offer.offered.axes, theirs.axes) == PrefixStatus::NotAPrefix)
      return "conflict: " + offer.text + ", but " + otherName + " has " +
             axesText(theirs.axes, offer.mesh) + " on the same dim";
    if (strategy_ == PropagationStrategy::Basic && theirs.present) {
      if (overlapsAny(axis, other.excluded))
        return "conflict: " + offer.text + ", but " + otherName + " may not use " + offer.axisName +
               " (replicated, unreduced, manual or on a size-1 dim there), and basic"
               " propagation gives all tensors the same axes";
      if (theirs.closed && !overlapsAny(axis, theirs.axes))
        return "conflict: " + offer.text + ", but " + otherName +
               " has that dim closed, and basic propagation gives all tensors the same axes";
    }
    for (size_t f = 0; f < other.factors.size(); ++f)
      if (static_cast<int64_t>(f) != offer.factor && other.factors[f].present &&
          overlapsAny(axis, other.factors[f].axes))
        return "conflict: " + offer.text + ", but " + otherName + " uses " + offer.axisName +
               " for another dim of " + offer.via;
    return std::nullopt;
  }

  /// The axis does not divide the factor it would shard.
  std::optional<std::string> divisibility(const Offer &offer) const {
    int64_t factorSize = offer.rule.factorSizes[offer.factor];
    bool minorMost = offer.projection.tensors[offer.position].factors[offer.factor].minorMost;
    if (minorMost || factorSize % offer.axis().size == 0)
      return std::nullopt;
    return "not divisible: " + offer.text + ", but " + offer.axisName +
           " does not divide the size " + std::to_string(factorSize) + " it would shard";
  }

  const Graph &graph_;
  const PropagationGraph &pg_;
  PropagationStrategy strategy_;
  size_t maxOriginSteps_;
  std::ostringstream out_;
};

} // namespace

std::string explainValue(const Graph &graph, const PropagationResult &result,
                         const std::string &valueName) {
  if (!result.state)
    fail("", "no propagation result to explain");
  for (size_t v = 0; v < graph.values.size(); ++v)
    if (graph.values[v].name == valueName && v < result.state->valueTensor.size())
      return explainValue(graph, result, static_cast<ValueId>(v));
  fail("", "no value named \"" + valueName + "\" in the graph");
}

std::string explainValue(const Graph &graph, const PropagationResult &result, ValueId value,
                         size_t maxOriginSteps) {
  if (!result.state)
    fail("", "no propagation result to explain");
  const PropagationGraph &pg = *result.state;
  if (value < 0 || static_cast<size_t>(value) >= pg.valueTensor.size())
    fail("", "no value " + std::to_string(value) + " in the graph");
  if (pg.valueTensor[value] < 0)
    fail("", "\"" + graph.values[value].name +
                 "\" is a scalar in an op's body: it has no sharding to explain");
  // No per-value lists: the graph has no distributions (a scan of the
  // graph here, per value, made `show` quadratic in the outputs).
  if (!result.spread || result.spread->distributions.empty())
    return Explainer(graph, pg, result.strategy, maxOriginSteps).explain(pg.valueTensor[value]);
  if (result.distributionOf(value))
    return explainDistribution(graph, *result.spread, value);
  return Explainer(graph, pg, result.strategy, maxOriginSteps).explain(pg.valueTensor[value]) +
         explainDistribution(graph, *result.spread, value);
}

} // namespace shardgen
