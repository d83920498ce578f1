#include "compiler/ir/Graph.h"

#include <algorithm>
#include <array>

#include "compiler/ops/OpTable.h"

namespace shardgen {

const Mesh *Graph::findMesh(const std::string &meshName) const {
  for (const auto &mesh : meshes)
    if (mesh.name == meshName)
      return &mesh;
  return nullptr;
}

Graph::Graph(Graph &&other) noexcept { *this = std::move(other); }

Graph &Graph::operator=(Graph &&other) noexcept {
  name = std::move(other.name);
  meshes = std::move(other.meshes);
  values = std::move(other.values);
  main = std::move(other.main);
  metadata = std::move(other.metadata);
  entry = std::move(other.entry);
  linkDefinitions();
  return *this;
}

// Millions of values in a large graph: keep them a cache line each.
static_assert(sizeof(Value) <= 64, "Value grew past 64 bytes");

const std::string &Value::pointer() const {
  static const std::string unlinked;
  if (definingOp)
    return definingOp->pointer;
  if (region && argumentIndex >= 0)
    return region->args[static_cast<size_t>(argumentIndex)].pointer;
  return unlinked;
}

ValueId Graph::addValue(std::string valueName, UniquedOptional<TensorType> valueType) {
  Value &value = values.emplace_back();
  value.name = std::move(valueName);
  value.type = valueType;
  return static_cast<ValueId>(values.size()) - 1;
}

static void linkRegion(Graph &graph, Region &region) {
  for (size_t i = 0; i < region.args.size(); ++i) {
    Value &value = graph.values[region.args[i].value];
    value.region = &region;
    value.definingOp = nullptr;
    value.argumentIndex = static_cast<int32_t>(i);
  }
  for (auto &op : region.ops) {
    for (size_t i = 0; i < op.results.size(); ++i) {
      Value &value = graph.values[op.results[i]];
      value.definingOp = &op;
      value.resultIndex = static_cast<int32_t>(i);
      value.argumentIndex = -1;
      value.region = &region;
    }
    for (Region &inner : op.regions) {
      inner.parentOp = &op;
      linkRegion(graph, inner);
    }
  }
}

void Graph::linkDefinitions() { linkRegion(*this, main); }

static Region cloneRegion(const Region &region);

static Op cloneOp(const Op &op) {
  Op copy;
  copy.kind = op.kind;
  copy.pointer = op.pointer;
  copy.operands = op.operands;
  copy.results = op.results;
  copy.declaredTypes = op.declaredTypes;
  copy.shardings = op.shardings;
  copy.distributions = op.distributions;
  copy.origins = op.origins;
  copy.pluralResults = op.pluralResults;
  copy.statesOrigins = op.statesOrigins;
  copy.attrs = op.attrs;
  copy.metadata = op.metadata;
  for (const Region &inner : op.regions)
    copy.regions.add() = cloneRegion(inner);
  return copy;
}

static Region cloneRegion(const Region &region) {
  Region copy;
  copy.args = region.args;
  copy.results = region.results;
  copy.pointer = region.pointer;
  copy.metadata = region.metadata;
  copy.ops.reserve(region.ops.size());
  for (const auto &op : region.ops)
    copy.ops.push_back(cloneOp(op));
  return copy;
}

Graph Graph::clone() const {
  Graph copy;
  copy.name = name;
  copy.meshes = meshes;
  copy.values = values;
  copy.main = cloneRegion(main);
  copy.metadata = metadata;
  copy.entry = entry;
  copy.linkDefinitions();
  return copy;
}

RegionRole regionRole(OpKind kind) {
  static const std::array<RegionRole, kNumOpKinds> roles = [] {
    std::array<RegionRole, kNumOpKinds> out{};
    for (OpKind k : kAllOpKinds) {
      out[static_cast<size_t>(k)] = RegionRole::Program;
      for (const AttrField &field : attributeSchema(k))
        if (field.kind == AttrKind::Region)
          out[static_cast<size_t>(k)] = field.role;
    }
    return out;
  }();
  return roles[static_cast<size_t>(kind)];
}

OpKind reducerOpKind(Reducer reducer) {
  switch (reducer) {
  case Reducer::Add:
    return OpKind::Add;
  case Reducer::Mul:
    return OpKind::Multiply;
  case Reducer::Max:
    return OpKind::Maximum;
  case Reducer::Min:
    return OpKind::Minimum;
  case Reducer::And:
    return OpKind::And;
  case Reducer::Or:
    return OpKind::Or;
  }
  return OpKind::Add;
}

std::optional<Reducer> simpleReducer(const Op &reduce) {
  if (const auto *attrs = std::get_if<ReduceAttrs>(&reduce.attrs.get()); attrs && attrs->reducer)
    return attrs->reducer;
  const Region *body = reduce.body();
  if (!body || body->args.size() != 2)
    return std::nullopt;
  return pairwiseReducer(reduce);
}

std::optional<Reducer> pairwiseReducer(const Op &op) {
  const Region *body = op.body();
  if (!body)
    return std::nullopt;
  const size_t n = body->results.size();
  if (n == 0 || body->args.size() != 2 * n || body->ops.size() != n)
    return std::nullopt;
  std::optional<Reducer> common;
  for (size_t i = 0; i < n; ++i) {
    const auto apply = std::find_if(body->ops.begin(), body->ops.end(), [&](const Op &candidate) {
      return candidate.results.size() == 1 && candidate.results[0] == body->results[i].value;
    });
    if (apply == body->ops.end() || apply->operands.size() != 2)
      return std::nullopt;
    const ValueId a = body->args[i].value, b = body->args[n + i].value;
    if (!((apply->operands[0] == a && apply->operands[1] == b) ||
          (apply->operands[0] == b && apply->operands[1] == a)))
      return std::nullopt;
    std::optional<Reducer> reducer;
    for (Reducer candidate :
         {Reducer::Add, Reducer::Mul, Reducer::Max, Reducer::Min, Reducer::And, Reducer::Or})
      if (reducerOpKind(candidate) == apply->kind)
        reducer = candidate;
    if (!reducer || (common && *common != *reducer))
      return std::nullopt;
    common = reducer;
  }
  return common;
}

void walkOps(const Region &region, const std::function<void(const Op &)> &visit) {
  for (const auto &op : region.ops) {
    visit(op);
    if (regionRole(op.kind) == RegionRole::Program)
      for (const Region &inner : op.regions)
        walkOps(inner, visit);
  }
}

void walkMutableOps(Region &region, const std::function<void(Op &)> &visit) {
  for (auto &op : region.ops) {
    visit(op);
    if (regionRole(op.kind) == RegionRole::Program)
      for (Region &inner : op.regions)
        walkMutableOps(inner, visit);
  }
}

void walkAllOps(const Region &region, const std::function<void(const Op &)> &visit) {
  for (const auto &op : region.ops) {
    visit(op);
    for (const Region &inner : op.regions)
      walkAllOps(inner, visit);
  }
}

Uses computeUses(const Graph &graph) {
  Uses uses;
  uses.returnCount.assign(graph.values.size(), 0);
  // Two walks in the same order: count each value's uses, then place them.
  std::vector<int64_t> &begin = uses.users.begin_;
  begin.assign(graph.values.size() + 1, 0);
  walkOps(graph.main, [&](const Op &op) {
    for (ValueId operand : op.operands)
      ++begin[operand + 1];
  });
  for (size_t v = 0; v < graph.values.size(); ++v)
    begin[v + 1] += begin[v];
  uses.users.ops_.resize(static_cast<size_t>(begin.back()));
  std::vector<int64_t> next(begin.begin(), begin.end() - 1);
  walkOps(graph.main, [&](const Op &op) {
    for (ValueId operand : op.operands)
      uses.users.ops_[next[operand]++] = &op;
  });
  std::function<void(const Region &)> countReturns = [&](const Region &region) {
    for (const auto &op : region.ops)
      if (regionRole(op.kind) == RegionRole::Program)
        for (const Region &inner : op.regions)
          countReturns(inner);
    for (const auto &result : region.results)
      ++uses.returnCount[result.value];
  };
  countReturns(graph.main);
  return uses;
}

std::string firstDistributionPointer(const Graph &graph) {
  for (const auto &arg : graph.main.args)
    if (arg.distribution)
      return arg.pointer + "/distribution";
  std::string found;
  walkOps(graph.main, [&](const Op &op) {
    for (size_t i = 0; i < op.distributions.size() && found.empty(); ++i)
      if (op.distributions[i])
        found = op.pluralResults ? op.pointer + "/distributions/" + std::to_string(i)
                                 : op.pointer + "/distribution";
  });
  if (!found.empty())
    return found;
  for (const auto &result : graph.main.results)
    if (result.distribution)
      return result.pointer + "/distribution";
  return "";
}

} // namespace shardgen
