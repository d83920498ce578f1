#pragma once
// The worklist that drives propagation to a fixed point: every edge is
// visited in rank order, and whenever a tensor's sharding changes, the other
// edges touching it (and the members of its sharding group) are queued again.
// Shardings only grow, so the loop terminates.

#include "compiler/propagate/EdgeRules.h"
#include "compiler/propagate/EdgeWorklist.h"
#include "compiler/propagate/FactorPropagation.h"
#include "compiler/propagate/PropagationGraph.h"
#include "compiler/propagate/StateTable.h"
#include "compiler/propagate/VisitMemo.h"

namespace shardgen::propagation {

/// Op-priority stages (Shardy's op schedule). Each stage also allows what the
/// earlier ones allowed.
enum class OpStage {
  PassThroughSingleUse = 0, // elementwise, reshape, transpose, data-flow edges whose
                            // operands have no other use
  PassThroughOps = 1,       // the same ops, whatever the uses
  PassThroughFactors = 2,   // pass-through factors of every op; broadcast only backward
  AnyButBroadcastForward = 3,
  Everything = 4,
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

/// Tensor `position` of `edge` (operands first).
inline int64_t tensorAt(const Edge &edge, size_t position) {
  return position < edge.operands().size() ? edge.operands()[position]
                                           : edge.results()[position - edge.operands().size()];
}
/// The factors of tensor `position` of `edge` in its rule.
inline const OpShardingRule::TensorFactors &tensorFactors(const OpShardingRule &rule,
                                                          const Edge &edge, size_t position) {
  return position < edge.operands().size() ? rule.operands[position]
                                           : rule.results[position - edge.operands().size()];
}
/// The state of tensor `position` (operands first) of `edge` as the edge sees it.
ShardingState edgeView(const PropagationGraph &pg, const Edge &edge, size_t position);
/// Meshes that are one mesh for propagation: equal axes and device ids,
/// whatever their names (Shardy compares MeshAttrs, not symbols).
bool sameMesh(const Graph &graph, int32_t a, int32_t b);
/// Shardy's common mesh of an op's shardings (getCommonMeshOrRef): the first
/// sharded tensor's mesh (operands, then results), where an empty mesh gives
/// way to any other; -1 when none has a sharding or two meshes differ.
int32_t commonMesh(const Graph &graph, const PropagationGraph &pg, const Edge &edge);
/// The direction `factor` may propagate along `edge` in `stage`.
Direction factorDirection(const Edge &edge, const OpShardingRule &rule, int64_t factor,
                          OpStage stage);

/// Records `origin` as where the tensor's sharding came from if its
/// `current` state has no axes yet, else as an extension of it. Call before changing the state.
void recordOrigin(PropagationGraph &pg, int64_t tensor, const ShardingState &current,
                  Origin origin);

class PropagationEngine {
public:
  /// `memoize`: replay visits seen before (VisitMemo); off only to test
  /// that replaying writes what computing again writes.
  PropagationEngine(const Graph &graph, PropagationGraph &pg, bool memoize = true)
      : graph_(graph), pg_(pg), rules_(graph, pg), memoize_(memoize) {}

  /// Runs the worklist to a fixed point. With `afterPrevStage` (the engine
  /// just ran the stage before `stage` to its fixed point), only the edges the
  /// new stage lets cross more start in the worklist.
  void run(ConflictResolution resolution, OpStage stage, bool afterPrevStage = false);
  int64_t visits() const { return visits_; }

private:
  void visit(int64_t edgeIndex);
  bool crossesInStage(const Edge &edge) const;
  int32_t meshToPropagateOn(const Edge &edge);
  void project(const Edge &edge, const OpShardingRule &rule, OpProjection &projection);
  void setDirections(const Edge &edge, const OpShardingRule &rule);
  void writeBack(int64_t edgeIndex, const OpShardingRule &rule, int32_t mesh, bool record);
  bool memoizable(const Edge &edge) const;
  void memoKey(const Edge &edge, int32_t rule);
  void replay(int64_t edgeIndex, std::span<const VisitMemo::Step> steps);
  void setSharding(int64_t tensor, int32_t stateId, Origin origin, int64_t fromEdge);
  void enqueueNeighbours(int64_t tensor, int64_t exceptEdge);
  void hideIfDistributed(TensorProjection &projection, int64_t tensor) const;
  int64_t findSource(const OpProjection &projection, const OpProjection &before,
                     size_t target) const;

  const Graph &graph_;
  PropagationGraph &pg_;
  EdgeRules rules_;
  ConflictResolution resolution_ = ConflictResolution::Basic;
  OpStage stage_ = OpStage::Everything;
  EdgeWorklist worklist_;
  int64_t visits_ = 0;
  // Reused by every visit, so that a visit allocates nothing unless it
  // changes a sharding.
  std::vector<const ShardingState *> views_;
  ShardingState manualView_;
  OpProjection projection_, before_;
  std::vector<Direction> directions_;
  FactorStepScratch scratch_;
  // Visits already seen (VisitMemo, states by their ids in pg_.states), the
  // key and steps of this visit.
  VisitMemo memo_;
  bool memoize_ = true;
  std::vector<int64_t> memoKey_;
  std::vector<VisitMemo::Step> steps_;
};

} // namespace shardgen::propagation
