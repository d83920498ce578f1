#pragma once
// Each edge's sharding rule, built once (on the edge's first visit with axes)
// and shared by every edge with an equal rule: a program repeats few distinct
// rules, so the engine keeps one small index per edge instead of rebuilding
// the rule at every visit.

#include <deque>
#include <unordered_map>
#include <vector>

#include "compiler/propagate/PropagationGraph.h"

namespace shardgen::propagation {

/// The rule an edge propagates through (an op's rule or an identity).
OpShardingRule edgeRule(const Graph &graph, const PropagationGraph &pg, const Edge &edge);

class EdgeRules {
public:
  EdgeRules(const Graph &graph, const PropagationGraph &pg)
      : graph_(graph), pg_(pg), ruleOfEdge_(pg.edges.size(), -1) {}

  const OpShardingRule &of(int64_t edge) { return rules_[indexOf(edge)]; }
  /// The rule's index: equal rules, equal indices.
  int32_t indexOf(int64_t edge);
  int64_t distinctRules() const { return static_cast<int64_t>(rules_.size()); }

private:
  int32_t intern(OpShardingRule rule);
  /// Shardy's elementwise ops have the pointwise rule of their shapes: the
  /// shapes (in key_) find it without building it again.
  int32_t elementwiseRule(const Edge &edge);
  /// Other ops whose rule follows from their shapes and attributes alone
  /// (dot_general, transpose, reshape, broadcast_in_dim, reduce) find it by
  /// those; the rest build theirs.
  int32_t keyedRule(const Edge &edge);
  void keyShapes(const Edge &edge);
  bool keyAttributes(const Op &op);

  struct KeyHash {
    size_t operator()(const std::vector<int64_t> &key) const;
  };

  const Graph &graph_;
  const PropagationGraph &pg_;
  std::vector<int32_t> ruleOfEdge_; // -1: not built yet
  std::deque<OpShardingRule> rules_;
  std::unordered_multimap<uint64_t, int32_t> byHash_;
  std::unordered_map<std::vector<int64_t>, int32_t, KeyHash> byShapes_;
  std::unordered_map<std::vector<int64_t>, int32_t, KeyHash> byKey_; // kind, shapes, attributes
  std::vector<int64_t> key_;
};

} // namespace shardgen::propagation
