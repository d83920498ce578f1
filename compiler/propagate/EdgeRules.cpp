#include "compiler/propagate/EdgeRules.h"

#include <utility>

#include "compiler/ops/KindTable.h"
#include "compiler/propagate/Fnv.h"
#include "compiler/propagate/ShardingRules.h"

namespace shardgen::propagation {

namespace {

uint64_t hashRule(const OpShardingRule &rule) {
  uint64_t hash = kFnvOffsetBasis;
  for (const auto *tensors : {&rule.operands, &rule.results}) {
    hash = fnvMix(hash, static_cast<int64_t>(tensors->size()));
    for (const auto &dims : *tensors) {
      hash = fnvMix(hash, static_cast<int64_t>(dims.size()));
      for (const auto &factors : dims) {
        hash = fnvMix(hash, static_cast<int64_t>(factors.size()));
        for (int64_t f : factors)
          hash = fnvMix(hash, f);
      }
    }
  }
  for (int64_t size : rule.factorSizes)
    hash = fnvMix(hash, size);
  for (FactorKind kind : rule.factorKinds)
    hash = fnvMix(hash, static_cast<int64_t>(kind));
  for (int64_t f : rule.blockedFactors)
    hash = fnvMix(hash, f);
  return hash;
}

} // namespace

OpShardingRule edgeRule(const Graph &graph, const PropagationGraph &pg, const Edge &edge) {
  if (edge.kind == EdgeKind::Rule)
    return shardingRuleFor(graph, *pg.ops[edge.op]);
  // Identities run on the local (body-side) shape for manual boundaries.
  int64_t shapeTensor = edge.kind == EdgeKind::ManualIn || edge.operands().empty()
                            ? edge.results()[0]
                            : edge.operands()[0];
  return identityShardingRule(pg.shapeOf(shapeTensor), static_cast<int64_t>(edge.operands().size()),
                              static_cast<int64_t>(edge.results().size()));
}

int32_t EdgeRules::indexOf(int64_t edge) {
  int32_t &index = ruleOfEdge_[edge];
  if (index < 0) {
    const Edge &e = pg_.edges[edge];
    index = e.kind == EdgeKind::Rule && e.elementwise ? elementwiseRule(e)
            : e.kind == EdgeKind::Rule                ? keyedRule(e)
                                                      : intern(edgeRule(graph_, pg_, e));
  }
  return index;
}

size_t EdgeRules::KeyHash::operator()(const std::vector<int64_t> &key) const {
  uint64_t hash = kFnvOffsetBasis;
  for (int64_t value : key)
    hash = fnvMix(hash, value);
  return hash;
}

/// The edge's tensors' shapes (equal to its op's values' shapes) by id.
void EdgeRules::keyShapes(const Edge &edge) {
  key_.clear();
  for (std::span<const int32_t> tensors : {edge.operands(), edge.results()}) {
    key_.push_back(static_cast<int64_t>(tensors.size()));
    for (int64_t t : tensors)
      key_.push_back(pg_.tensors[t].shapeId);
  }
}

namespace {
/// Appends each list with its length, so the key stays unambiguous.
void appendLists(std::vector<int64_t> &key,
                 std::initializer_list<const std::vector<int64_t> *> lists) {
  for (const std::vector<int64_t> *list : lists) {
    key.push_back(static_cast<int64_t>(list->size()));
    key.insert(key.end(), list->begin(), list->end());
  }
}

/// The attributes `shardingRuleFor` reads for each op whose rule is cached,
/// appended to the key. An op not listed builds its rule every time (a
/// concatenate looks at its operands' defining ops; the rest are rare):
/// correct for any op, only slower.
using AppendKey = void (*)(const Op &, std::vector<int64_t> &);
constexpr std::pair<OpKind, AppendKey> kKeyedRules[] = {
    {OpKind::DotGeneral,
     [](const Op &op, std::vector<int64_t> &key) {
       const auto &attrs = op.attr<DotGeneralAttrs>();
       appendLists(key, {&attrs.lhsBatchingDimensions, &attrs.rhsBatchingDimensions,
                         &attrs.lhsContractingDimensions, &attrs.rhsContractingDimensions});
     }},
    {OpKind::Transpose,
     [](const Op &op, std::vector<int64_t> &key) {
       appendLists(key, {&op.attr<TransposeAttrs>().permutation});
     }},
    {OpKind::Reshape, [](const Op &, std::vector<int64_t> &) {}},
    {OpKind::BroadcastInDim,
     [](const Op &op, std::vector<int64_t> &key) {
       appendLists(key, {&op.attr<BroadcastInDimAttrs>().broadcastDimensions});
     }},
    {OpKind::Reduce,
     [](const Op &op, std::vector<int64_t> &key) {
       appendLists(key, {&op.attr<ReduceAttrs>().dimensions});
     }},
};

constexpr auto kAppendKey = tableByKind([](auto kind) -> AppendKey {
  for (const auto &[keyed, append] : kKeyedRules)
    if (keyed == decltype(kind)::value)
      return append;
  return nullptr;
});

} // namespace

/// The op's key attributes appended to the key; false for kinds whose
/// rule is not cached.
bool EdgeRules::keyAttributes(const Op &op) {
  key_.push_back(static_cast<int64_t>(op.kind));
  const AppendKey append = entryFor(kAppendKey, op.kind);
  if (append == nullptr)
    return false;
  append(op, key_);
  return true;
}

int32_t EdgeRules::keyedRule(const Edge &edge) {
  const Op &op = *pg_.ops[edge.op];
  keyShapes(edge);
  if (!keyAttributes(op))
    return intern(edgeRule(graph_, pg_, edge));
  if (auto found = byKey_.find(key_); found != byKey_.end())
    return found->second;
  int32_t index = intern(edgeRule(graph_, pg_, edge));
  byKey_.emplace(key_, index);
  return index;
}

int32_t EdgeRules::elementwiseRule(const Edge &edge) {
  keyShapes(edge);
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
