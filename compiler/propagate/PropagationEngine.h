#pragma once
// The worklist that drives propagation to a fixed point: every edge is
// visited in rank order, and whenever a tensor's sharding changes, the other
// edges touching it (and the members of its sharding group) are queued again.
// Shardings only grow, so the loop terminates.

#include <queue>

#include "compiler/propagate/FactorPropagation.h"
#include "compiler/propagate/PropagationGraph.h"

namespace shardgen::propagation {

/// Op-priority stages (Shardy's op schedule). Each stage also allows what the
/// earlier ones allowed.
enum class OpStage {
  PassThroughOps = 0,      // elementwise, reshape, transpose, data-flow edges
  PassThroughFactors = 1,  // pass-through factors of every op; broadcast only backward
  Everything = 2,
};

/// The view of a global tensor inside a manual computation: the manual axes
/// leading each dim are cut off (and become forbidden); `restore` puts them back.
struct ManualView {
  ShardingState local;
  std::vector<AxisList> prefixes;
};
ManualView stripManualAxes(const ShardingState &global, const AxisList &manualAxes);
ShardingState restoreManualAxes(const ShardingState &local, const ManualView &view,
                                const ShardingState &global);

/// The rule an edge propagates through (an op's rule or an identity).
OpShardingRule edgeRule(const Graph &graph, const PropagationGraph &pg, const Edge &edge);
/// The state of tensor `position` (operands first) of `edge` as the edge sees it.
ShardingState edgeView(const PropagationGraph &pg, const Edge &edge, size_t position);
/// The direction `factor` may propagate along `edge` in `stage`.
Direction factorDirection(const Edge &edge, const OpShardingRule &rule, int64_t factor,
                          OpStage stage);

/// Records `origin` as where the tensor's sharding came from if it had no
/// axes yet, else as an extension of it. Call before changing the state.
void recordOrigin(Tensor &tensor, Origin origin);

class PropagationEngine {
public:
  PropagationEngine(const Graph &graph, PropagationGraph &pg) : graph_(graph), pg_(pg) {}

  /// Runs the worklist to a fixed point.
  void run(ConflictResolution resolution, OpStage stage);
  int64_t visits() const { return visits_; }

private:
  void visit(int64_t edgeIndex);
  void setSharding(int64_t tensor, ShardingState state, Origin origin, int64_t fromEdge);
  void enqueueNeighbours(int64_t tensor, int64_t exceptEdge);
  void hideIfDistributed(TensorProjection &projection, int64_t tensor) const;
  int64_t findSource(const OpProjection &projection, const OpProjection &before, size_t target,
                     const std::vector<bool> &updated) const;

  const Graph &graph_;
  PropagationGraph &pg_;
  ConflictResolution resolution_ = ConflictResolution::Basic;
  OpStage stage_ = OpStage::Everything;
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> worklist_;
  std::vector<char> queued_;
  int64_t visits_ = 0;
};

} // namespace shardgen::propagation
