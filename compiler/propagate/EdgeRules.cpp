#include "compiler/propagate/EdgeRules.h"

#include "compiler/propagate/ShardingRules.h"

namespace shardgen::propagation {

namespace {

uint64_t mix(uint64_t hash, int64_t value) {
  return (hash ^ static_cast<uint64_t>(value)) * 1099511628211ull;
}

uint64_t hashRule(const OpShardingRule &rule) {
  uint64_t hash = 1469598103934665603ull;
  for (const auto *tensors : {&rule.operands, &rule.results}) {
    hash = mix(hash, static_cast<int64_t>(tensors->size()));
    for (const auto &dims : *tensors) {
      hash = mix(hash, static_cast<int64_t>(dims.size()));
      for (const auto &factors : dims) {
        hash = mix(hash, static_cast<int64_t>(factors.size()));
        for (int64_t f : factors)
          hash = mix(hash, f);
      }
    }
  }
  for (int64_t size : rule.factorSizes)
    hash = mix(hash, size);
  for (FactorKind kind : rule.factorKinds)
    hash = mix(hash, static_cast<int64_t>(kind));
  for (int64_t f : rule.blockedFactors)
    hash = mix(hash, f);
  return hash;
}

} // namespace

OpShardingRule edgeRule(const Graph &graph, const PropagationGraph &pg, const Edge &edge) {
  if (edge.kind == EdgeKind::Rule)
    return shardingRuleFor(graph, *pg.ops[edge.op]);
  // Identities run on the local (body-side) shape for manual boundaries.
  int64_t shapeTensor = edge.kind == EdgeKind::ManualIn ? edge.results[0] : edge.operands[0];
  return identityShardingRule(pg.tensors[shapeTensor].shape,
                              static_cast<int64_t>(edge.operands.size()),
                              static_cast<int64_t>(edge.results.size()));
}

const OpShardingRule &EdgeRules::of(int64_t edge) {
  int32_t &index = ruleOfEdge_[edge];
  if (index < 0) {
    const Edge &e = pg_.edges[edge];
    index = e.kind == EdgeKind::Rule && e.elementwise ? elementwiseRule(e)
                                                      : intern(edgeRule(graph_, pg_, e));
  }
  return rules_[index];
}

size_t EdgeRules::KeyHash::operator()(const std::vector<int64_t> &key) const {
  uint64_t hash = 1469598103934665603ull;
  for (int64_t value : key)
    hash = mix(hash, value);
  return hash;
}

int32_t EdgeRules::elementwiseRule(const Edge &edge) {
  const Op &op = *pg_.ops[edge.op];
  key_.clear();
  for (const auto *values : {&op.operands, &op.results}) {
    key_.push_back(static_cast<int64_t>(values->size()));
    for (ValueId v : *values) {
      const Shape &shape = graph_.type(v).shape;
      key_.push_back(static_cast<int64_t>(shape.size()));
      key_.insert(key_.end(), shape.begin(), shape.end());
    }
  }
  if (auto found = byShapes_.find(key_); found != byShapes_.end())
    return found->second;
  int32_t index = intern(edgeRule(graph_, pg_, edge));
  byShapes_.emplace(key_, index);
  return index;
}

int32_t EdgeRules::intern(OpShardingRule rule) {
  uint64_t hash = hashRule(rule);
  auto [begin, end] = byHash_.equal_range(hash);
  for (auto it = begin; it != end; ++it)
    if (rules_[it->second] == rule)
      return it->second;
  auto index = static_cast<int32_t>(rules_.size());
  rules_.push_back(std::move(rule));
  byHash_.emplace(hash, index);
  return index;
}

} // namespace shardgen::propagation
