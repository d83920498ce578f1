#include "compiler/propagate/PropagationGraph.h"

#include <algorithm>
#include <map>
#include <numeric>
#include <unordered_map>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "compiler/ir/DataFlow.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ops/KindTable.h"
#include "compiler/propagate/Fnv.h"
#include "compiler/propagate/ShardingRules.h"

namespace shardgen::propagation {

// A million-op graph has millions of each: their size is its memory.
static_assert(sizeof(Tensor) <= 40 && sizeof(Edge) <= 40 && sizeof(Origin) <= 12);

namespace {

uint64_t hashName(std::string_view text, uint64_t seed = kFnvOffsetBasis) {
  uint64_t hash = seed;
  for (char c : text) {
    hash ^= static_cast<unsigned char>(c);
    hash *= 1099511628211ull;
  }
  return hash;
}

/// A name as a sort key: the hash of its stem (without trailing digits),
/// the trailing number, and the hash of the whole name (to tell `v01` from
/// `v1`, and names whose number does not fit).
struct NameKey {
  uint64_t stem = 0;
  uint64_t number = 0;
  uint64_t whole = 0;
};

NameKey nameKey(std::string_view name) {
  size_t digits = name.size();
  while (digits > 0 && name[digits - 1] >= '0' && name[digits - 1] <= '9')
    --digits;
  NameKey key{hashName(name.substr(0, digits)), 0, hashName(name)};
  if (name.size() - digits > 18) // would overflow: order such names by hash
    key.stem = key.whole;
  else
    for (char c : name.substr(digits))
      key.number = key.number * 10 + static_cast<uint64_t>(c - '0');
  return key;
}

/// The directions a propagation_barrier lets shardings cross.
Direction barrierAllows(BarrierDirection direction) {
  switch (direction) {
  case BarrierDirection::None:
    return Direction::None;
  case BarrierDirection::Forward:
    return Direction::Forward;
  case BarrierDirection::Backward:
    return Direction::Backward;
  case BarrierDirection::Both:
    return Direction::Both;
  }
  return Direction::Both;
}

int32_t meshIndexOf(const Graph &graph, const std::string &name) {
  for (size_t i = 0; i < graph.meshes.size(); ++i)
    if (graph.meshes[i].name == name)
      return static_cast<int32_t>(i);
  return -1;
}

class Builder {
public:
  Builder(const Graph &graph, PropagationGraph &pg) : graph_(graph), pg_(pg) {}

  void build() {
    // Ids are stored as int32 (kMaxPropagationIds); edges and virtual
    // tensors are checked as they come (checkIdRange).
    checkIdRange(graph_.values.size() + graph_.main.results.size(), "tensors");
    // One tensor per value plus a few virtual ones; reserved so that the
    // tensors are not copied while the vector grows.
    pg_.tensors.reserve(graph_.values.size() + graph_.main.results.size());
    indexOps(graph_.main);
    if (graph_.meshes.size() > static_cast<size_t>(INT16_MAX)) // Tensor::meshHint
      fail("", "the graph is too large to propagate: " + std::to_string(graph_.meshes.size()) +
                   " meshes, more than " + std::to_string(INT16_MAX));
    // About one edge per op (constant copies and manual boundaries add a
    // few): reserved, so the large arrays are not copied while they grow.
    size_t expectedEdges = pg_.ops.size() + graph_.main.results.size();
    pg_.edges.reserve(expectedEdges);
    edgeTensorBegin_.reserve(expectedEdges);
    pg_.edgeTensors.reserve(3 * expectedEdges);
    createValueTensors(graph_.main, {});
    addUserShardings();
    uses_ = computeUses(graph_);
    applyShardingConstraints();
    useTensor_.assign(pg_.valueTensor.begin(), pg_.valueTensor.end());
    findConstantExpressions();
    buildGroups();
    emitOutputEdges();
    for (auto &[from, to] : shadowLinks_) // open sharding constraints in Shardy
      pg_.edges[addEdge(EdgeKind::Identity, -1, {from}, {to}, OpClass::PassThrough)].elementwise =
          true;
    emitRegion(graph_.main);
    releaseBuildState();
    returnFreedMemory(pg_);
    linkEdgeTensors();
    listTensorEdges();
  }

private:
  /// What only finding the edges needs, freed before the per-tensor edge
  /// lists are added (the build's peak for a large graph).
  void releaseBuildState() {
    uses_ = {};
    useTensor_ = {};
    constantExpression_ = {};
    chainOf_ = {};
    depthOf_ = {};
    walkIndex_ = {};
    specialOps_ = {};
  }

  /// A graph whose tensors, edges or edge slots do not fit the int32 ids
  /// of the propagation graph is refused (about a billion ops).
  static void checkIdRange(size_t count, const char *what) {
    if (count > static_cast<size_t>(kMaxPropagationIds))
      fail("", "the graph is too large to propagate: " + std::to_string(count) + " " + what +
                   ", more than " + std::to_string(kMaxPropagationIds));
  }

  /// Each tensor's edges in edge order, in one flat array: count, then place.
  void listTensorEdges() {
    checkIdRange(pg_.edgeTensors.size(), "tensor uses");
    std::vector<int32_t> &begin = pg_.tensorEdgeBegin;
    begin.assign(pg_.tensors.size() + 1, 0);
    for (int32_t t : pg_.edgeTensors)
      ++begin[static_cast<size_t>(t) + 1];
    for (size_t t = 0; t < pg_.tensors.size(); ++t)
      begin[t + 1] += begin[t];
    pg_.tensorEdges.resize(static_cast<size_t>(begin.back()));
    std::vector<int32_t> next(begin.begin(), begin.end() - 1);
    for (size_t e = 0; e < pg_.edges.size(); ++e) {
      const Edge &edge = pg_.edges[e];
      for (size_t k = 0; k < edge.numTensors(); ++k)
        pg_.tensorEdges[next[edge.tensors[k]]++] = static_cast<int32_t>(e);
    }
  }

  /// Lists the ops in walk order (pg_.ops); each region's op array gets
  /// their indices by position.
  void indexOps(const Region &region) {
    std::vector<int32_t> &indices = walkIndex_[&region];
    indices.reserve(region.ops.size());
    for (const Op &op : region.ops) {
      checkIdRange(pg_.ops.size() + 1, "ops");
      indices.push_back(static_cast<int32_t>(pg_.ops.size()));
      pg_.ops.push_back(&op);
      if (op.kind == OpKind::ShardingGroup || op.kind == OpKind::ShardingConstraint ||
          op.kind == OpKind::ManualComputation || !op.shardings.empty())
        specialOps_.push_back(&op);
      if (regionRole(op.kind) == RegionRole::Program)
        for (const Region &body : op.regions)
          indexOps(body);
    }
  }

  /// An op's operand and result lists live on the heap, apart from the op:
  /// loops over a million ops wait on them unless asked for a few ops ahead.
  static constexpr size_t kPrefetchDistance = 8;
  static void prefetchValueLists(const Op *op) {
    __builtin_prefetch(op->operands.data());
    __builtin_prefetch(op->results.data());
  }
  static void prefetchValueLists(const Region &region, size_t i) {
    if (i < region.ops.size())
      prefetchValueLists(&region.ops[i]);
  }

  int64_t opIndexOf(const Region &region, const Op &op) const {
    return walkIndex_.at(&region)[static_cast<size_t>(&op - region.ops.data())];
  }

  /// `label`: a virtual tensor's (a value's is its name).
  int64_t addTensor(ValueId value, const Shape &shape, std::string label,
                    const AxisList &forbidden) {
    checkIdRange(pg_.tensors.size() + 1, "tensors");
    Tensor &tensor = pg_.tensors.emplace_back();
    tensor.value = static_cast<int32_t>(value);
    tensor.shapeId = shapeIdOf(shape);
    auto t = static_cast<int64_t>(pg_.tensors.size()) - 1;
    if (value < 0)
      pg_.virtualLabels.emplace(t, std::move(label));
    if (!forbidden.empty()) {
      ShardingState state;
      state.forbidden = forbidden;
      tensor.stateId = pg_.states.intern(std::move(state));
    }
    return t;
  }

  int32_t shapeIdOf(const Shape &shape) {
    auto [it, inserted] = shapeIds_.try_emplace(shape, static_cast<int32_t>(shapeIds_.size()));
    if (inserted)
      pg_.shapes.push_back(&shape);
    return it->second;
  }

  void createValueTensors(const Region &region, const AxisList &forbidden) {
    pg_.valueTensor.resize(graph_.values.size(), -1);
    auto create = [&](ValueId v) {
      pg_.valueTensor[v] = static_cast<int32_t>(addTensor(v, graph_.type(v).shape, {}, forbidden));
    };
    for (const auto &arg : region.args)
      create(arg.value);
    for (size_t i = 0; i < region.ops.size(); ++i) {
      const Op &op = region.ops[i];
      prefetchValueLists(region, i + kPrefetchDistance);
      for (ValueId v : op.results)
        create(v);
      if (op.kind == OpKind::ManualComputation && op.body()) {
        const auto &attrs = op.attr<ManualComputationAttrs>();
        ManualInfo info;
        info.op = opIndexOf(region, op);
        std::string meshName = !attrs.inShardings.empty()    ? attrs.inShardings[0].meshName
                               : !attrs.outShardings.empty() ? attrs.outShardings[0].meshName
                                                             : std::string();
        info.mesh = meshIndexOf(graph_, meshName);
        AxisList inner = forbidden;
        if (info.mesh >= 0) {
          const Mesh &mesh = graph_.meshes[info.mesh];
          for (const auto &name : attrs.manualAxes) {
            SubAxis axis = toSubAxis(AxisRef::full(name), mesh);
            info.manualAxes.push_back(axis);
            inner.push_back(axis);
          }
        }
        manualOf_[&op] = static_cast<int64_t>(pg_.manuals.size());
        pg_.manuals.push_back(std::move(info));
        createValueTensors(*op.body(), inner);
      } else if (regionRole(op.kind) == RegionRole::Program) {
        for (const Region &body : op.regions) // a data-flow op's regions
          createValueTensors(body, forbidden);
      }
    }
  }

  void setUser(int64_t t, const TensorSharding &sharding, Origin origin) {
    Tensor &tensor = pg_.tensors[t];
    ShardingState state = toState(sharding, graph_);
    state.forbidden = pg_.stateOf(t).forbidden;
    tensor.stateId = pg_.states.intern(std::move(state));
    tensor.user = addUser(tensor.stateId, origin);
    tensor.origin = origin;
  }

  int32_t addUser(int32_t stateId, Origin origin) {
    pg_.users.push_back({stateId, origin});
    return static_cast<int32_t>(pg_.users.size() - 1);
  }

  /// At `base` + `suffix` (+ "/index"): see PointerPlace.
  Origin userOrigin(const std::string &base, const char *suffix, int64_t index = -1) {
    pg_.pointers.push_back({&base, suffix, index});
    return Origin::user(static_cast<int64_t>(pg_.pointers.size()) - 1);
  }

  void addUserShardings() {
    for (const auto &arg : graph_.main.args)
      if (arg.sharding)
        setUser(pg_.valueTensor[arg.value], *arg.sharding, userOrigin(arg.pointer, "/sharding"));
    forSpecialOps([&](const Op &op) {
      for (size_t j = 0; j < op.results.size() && j < op.shardings.size(); ++j) {
        if (!op.shardings[j])
          continue;
        Origin origin = op.pluralResults
                            ? userOrigin(op.pointer, "/shardings", static_cast<int64_t>(j))
                            : userOrigin(op.pointer, "/sharding");
        if (op.kind == OpKind::ShardingConstraint) {
          origin.kind = OriginKind::Constraint;
          pg_.pointers[origin.pointer()] = {&op.pointer, "", -1};
        }
        setUser(pg_.valueTensor[op.results[j]], *op.shardings[j], origin);
      }
      if (op.kind != OpKind::ManualComputation || !op.body())
        return;
      for (const auto &arg : op.body()->args)
        if (arg.sharding)
          setUser(pg_.valueTensor[arg.value], *arg.sharding, userOrigin(arg.pointer, "/sharding"));
      const auto &attrs = op.attr<ManualComputationAttrs>();
      ManualInfo &info = pg_.manuals[manualOf_.at(&op)];
      for (size_t i = 0; i < op.operands.size(); ++i) {
        int64_t t = addTensor(-1, graph_.type(op.operands[i]).shape,
                              "in_shardings[" + std::to_string(i) + "] of " + op.pointer, {});
        if (i < attrs.inShardings.size())
          setUser(t, attrs.inShardings[i],
                  userOrigin(op.pointer, "/in_shardings", static_cast<int64_t>(i)));
        info.inTensors.push_back(t);
      }
      for (size_t j = 0; j < op.results.size(); ++j) {
        int64_t t = pg_.valueTensor[op.results[j]];
        if (j < attrs.outShardings.size())
          setUser(t, attrs.outShardings[j],
                  userOrigin(op.pointer, "/out_shardings", static_cast<int64_t>(j)));
        info.outTensors.push_back(t);
      }
    });
    for (size_t i = 0; i < graph_.main.results.size(); ++i) {
      const auto &result = graph_.main.results[i];
      int64_t t = addTensor(-1, graph_.type(result.value).shape, "output " + std::to_string(i), {});
      if (result.sharding)
        setUser(t, *result.sharding, userOrigin(result.pointer, "/sharding"));
      pg_.outputTensor.push_back(static_cast<int32_t>(t));
    }
  }

  /// What a sharding_constraint or a manual_computation (its in_sharding)
  /// asks of a value it reads, and the tensor holding that sharding.
  struct Ask {
    const Op *op;
    const TensorSharding *sharding;
    int64_t tensor;
  };

  std::unordered_map<ValueId, std::vector<Ask>> collectAsks() {
    std::unordered_map<ValueId, std::vector<Ask>> asks;
    forSpecialOps([&](const Op &op) {
      if (op.kind == OpKind::ShardingConstraint && !op.operands.empty() && !op.results.empty() &&
          op.shardings.size() == 1 && op.shardings[0])
        asks[op.operands[0]].push_back({&op, &*op.shardings[0], pg_.valueTensor[op.results[0]]});
      if (op.kind != OpKind::ManualComputation)
        return;
      const auto &attrs = op.attr<ManualComputationAttrs>();
      const ManualInfo &info = pg_.manuals[manualOf_.at(&op)];
      for (size_t i = 0; i < op.operands.size() && i < attrs.inShardings.size(); ++i)
        asks[op.operands[i]].push_back({&op, &attrs.inShardings[i], info.inTensors[i]});
    });
    return asks;
  }

  /// Shardy's sdy-apply-sharding-constraints. A value without a sharding of
  /// its own takes the sharding a fully closed sharding_constraint (or a
  /// manual_computation's in_sharding) asks of it, when every constraint
  /// and manual_computation reading it asks the same; its other uses do not
  /// matter. Chains of constraints are found first (findConstraintChains).
  void applyShardingConstraints() {
    const Uses &uses = uses_;
    std::unordered_map<ValueId, std::vector<Ask>> asks = collectAsks();
    findConstraintChains(uses, asks);
    for (auto &[value, list] : asks) {
      Tensor &tensor = pg_.tensors[pg_.valueTensor[value]];
      if (tensor.user >= 0)
        continue;
      const Ask &first = list.front();
      bool agree = std::all_of(list.begin(), list.end(), [&](const Ask &other) {
        return *other.sharding == *first.sharding;
      });
      bool closed = std::all_of(first.sharding->dims.begin(), first.sharding->dims.end(),
                                [](const DimSharding &dim) { return dim.isClosed; });
      if (!agree || !closed)
        continue;
      // Every ask is equal: the constraint (first by name) names the origin.
      const Ask *named = &first;
      for (const Ask &ask : list)
        if (ask.op->kind == OpKind::ShardingConstraint &&
            (named->op->kind != OpKind::ShardingConstraint ||
             graph_.value(ask.op->results[0]).name < graph_.value(named->op->results[0]).name))
          named = &ask;
      const Tensor &source = pg_.tensors[named->tensor];
      ShardingState state = *pg_.userOf(source);
      state.forbidden = pg_.states.state(tensor.stateId).forbidden;
      tensor.stateId = pg_.states.intern(std::move(state));
      tensor.origin = source.origin;
      tensor.user = addUser(tensor.stateId, source.origin);
    }
  }

  /// Shardy's constraint chains: `y = constraint(x)`, `z = constraint(y)`,
  /// ... where x has no sharding and no other constraint or
  /// manual_computation reads it, each constraint but the last is only read
  /// by the next, and no constraint or manual_computation reads the last:
  /// x's other uses (graph outputs aside) read the last constraint instead.
  /// Shardy reroutes the uses after the last constraint in program order;
  /// shardgen reroutes all of them (none can come before it in every order),
  /// so the order the file lists its ops in does not matter.
  void findConstraintChains(const Uses &uses,
                            const std::unordered_map<ValueId, std::vector<Ask>> &asks) {
    auto askedOf = [&](ValueId v) {
      auto it = asks.find(v);
      return it == asks.end() ? size_t{0} : it->second.size();
    };
    for (const auto &[input, list] : asks) {
      const Op *head = list.front().op;
      const Op *def = graph_.value(input).definingOp;
      if (list.size() != 1 || head->kind != OpKind::ShardingConstraint ||
          (def && def->kind == OpKind::ShardingConstraint) ||
          pg_.tensors[pg_.valueTensor[input]].user >= 0)
        continue;
      const Op *tail = head;
      for (;;) {
        ValueId out = tail->results[0];
        const auto &users = uses.users[out];
        if (users.size() != 1 || uses.returnCount[out] != 0 ||
            users[0]->kind != OpKind::ShardingConstraint)
          break;
        tail = users[0];
      }
      if (tail != head && askedOf(tail->results[0]) == 0)
        chainOf_[input] = {head, pg_.valueTensor[tail->results[0]]};
    }
  }

  int64_t findRoot(std::vector<int64_t> &parent, int64_t x) {
    while (parent[x] != x)
      x = parent[x] = parent[parent[x]];
    return x;
  }

  /// Groups sharing a value are one group (Shardy's unification). Members'
  /// initial shardings are made equal; when they conflict, each member gets
  /// an open shadow tensor (Shardy inserts an open sharding_constraint) and
  /// the group ties the shadows instead.
  void buildGroups() {
    std::vector<std::pair<ValueId, int64_t>> memberships;
    forSpecialOps([&](const Op &op) {
      if (op.kind == OpKind::ShardingGroup && !op.operands.empty())
        memberships.push_back({op.operands[0], op.attr<ShardingGroupAttrs>().groupId});
    });
    if (memberships.empty())
      return;
    std::map<int64_t, int64_t> idIndex;
    for (auto &[value, id] : memberships)
      idIndex.emplace(id, static_cast<int64_t>(idIndex.size()));
    std::vector<int64_t> parent(idIndex.size());
    std::iota(parent.begin(), parent.end(), 0);
    std::unordered_map<ValueId, int64_t> firstGroupOfValue;
    for (auto &[value, id] : memberships) {
      auto [it, inserted] = firstGroupOfValue.emplace(value, idIndex[id]);
      if (!inserted)
        parent[findRoot(parent, idIndex[id])] = findRoot(parent, it->second);
    }
    std::map<int64_t, ShardingGroup> byRoot;
    std::map<int64_t, std::vector<ValueId>> valuesByRoot;
    for (auto &[id, index] : idIndex) {
      ShardingGroup &group = byRoot[findRoot(parent, index)];
      if (group.id < 0 || id < group.id)
        group.id = id;
    }
    for (auto &[value, id] : memberships) {
      auto &values = valuesByRoot[findRoot(parent, idIndex[id])];
      if (std::find(values.begin(), values.end(), value) == values.end())
        values.push_back(value);
    }
    for (auto &[root, group] : byRoot) {
      // Member order must not depend on the order of ops in the file.
      auto &values = valuesByRoot[root];
      std::sort(values.begin(), values.end(),
                [&](ValueId a, ValueId b) { return graph_.value(a).name < graph_.value(b).name; });
      addGroup(std::move(group), values);
    }
  }

  void addGroup(ShardingGroup group, const std::vector<ValueId> &values) {
    const ShardingState *common = nullptr;
    int64_t commonTensor = -1;
    bool conflict = false;
    std::string listed;
    for (ValueId v : values) {
      const ShardingState &state = pg_.stateOf(pg_.valueTensor[v]);
      if (!state.hasSharding())
        continue;
      listed += (listed.empty() ? "" : ", ") + pg_.label(graph_, pg_.valueTensor[v]) + " " +
                printSharding(toSharding(state, graph_, false));
      if (!common) {
        common = &state; // the table keeps its states where they are
        commonTensor = pg_.valueTensor[v];
      } else if (!(state == *common)) {
        conflict = true;
      }
    }
    auto groupIndex = static_cast<int64_t>(pg_.groups.size());
    if (!conflict) {
      for (ValueId v : values) {
        int64_t t = pg_.valueTensor[v];
        Tensor &tensor = pg_.tensors[t];
        if (common && !pg_.stateOf(t).hasSharding()) {
          // Shardy syncs the members before user-priority propagation: the
          // copy is the member's own sharding, priorities included, so a
          // copied p1 dim waits for p1 like the original.
          tensor.stateId = pg_.tensors[commonTensor].stateId;
          tensor.origin = Origin::ofGroup(commonTensor, groupIndex);
          tensor.user = addUser(tensor.stateId, tensor.origin);
        }
        tensor.group = static_cast<int32_t>(groupIndex);
        group.members.push_back(t);
      }
      pg_.groups.push_back(std::move(group));
      return;
    }
    pg_.warnings.push_back("sharding_group " + std::to_string(group.id) +
                           ": the initial shardings of its members do not match (" + listed +
                           "); as in Shardy, each member gets an open sharding constraint and "
                           "the group ties those instead");
    int32_t commonMesh = common->mesh;
    for (ValueId v : values) {
      int64_t original = pg_.valueTensor[v];
      const Shape &shape = pg_.shapeOf(original);
      std::string label =
          pg_.label(graph_, original) + " (group " + std::to_string(group.id) + " member)";
      AxisList forbidden = pg_.stateOf(original).forbidden;
      int64_t shadow = addTensor(-1, shape, std::move(label), forbidden);
      ShardingState open = pg_.stateOf(shadow);
      open.mesh = commonMesh;
      open.dims.assign(shape.size(), DimState{});
      pg_.setState(shadow, std::move(open));
      pg_.tensors[shadow].group = static_cast<int32_t>(groupIndex);
      group.members.push_back(shadow);
      useTensor_[v] = static_cast<int32_t>(shadow);
      shadowLinks_.push_back({original, shadow});
    }
    pg_.groups.push_back(std::move(group));
  }

  /// MLIR's use count: operand slots (an op using a value twice uses it
  /// twice) and region returns, the graph's outputs included.
  bool hasMultiUseOperand(const Op &op) const {
    return std::any_of(op.operands.begin(), op.operands.end(), [&](ValueId v) {
      size_t count = uses_.users[v].size() + static_cast<size_t>(uses_.returnCount[v]);
      return count > 1 && !graph_.type(v).shape.empty();
    });
  }

  /// The edge's tensors go to one array for all edges (linkEdgeTensors
  /// points the edges at them once the array is complete).
  int64_t addEdge(EdgeKind kind, int64_t op, std::span<const int64_t> operands,
                  std::span<const int64_t> results, OpClass opClass) {
    Edge edge;
    edge.kind = kind;
    edge.op = static_cast<int32_t>(op); // an index into pg_.ops: fewer than the tensors
    edge.opClass = opClass;
    edge.numOperands = static_cast<uint32_t>(operands.size());
    edge.numResults = static_cast<uint32_t>(results.size());
    checkIdRange(pg_.edges.size() + 1, "edges");
    checkIdRange(pg_.edgeTensors.size() + operands.size() + results.size(), "tensor uses");
    pg_.edges.push_back(edge);
    edgeTensorBegin_.push_back(static_cast<uint32_t>(pg_.edgeTensors.size()));
    for (auto list : {operands, results})
      for (int64_t t : list) // a tensor id: in range (addTensor)
        pg_.edgeTensors.push_back(static_cast<int32_t>(t));
    return static_cast<int64_t>(pg_.edges.size()) - 1;
  }
  int64_t addEdge(EdgeKind kind, int64_t op, std::initializer_list<int64_t> operands,
                  std::initializer_list<int64_t> results, OpClass opClass) {
    return addEdge(kind, op, std::span(operands.begin(), operands.size()),
                   std::span(results.begin(), results.size()), opClass);
  }

  void linkEdgeTensors() {
    for (size_t e = 0; e < pg_.edges.size(); ++e)
      pg_.edges[e].tensors = pg_.edgeTensors.data() + edgeTensorBegin_[e];
    edgeTensorBegin_ = {};
  }

  void emitOutputEdges() {
    for (size_t i = 0; i < graph_.main.results.size(); ++i) {
      int64_t e =
          addEdge(EdgeKind::Identity, -1,
                  {useTensorOf(graph_.main.results[i].value, graph_.main.results[i].pointer)},
                  {pg_.outputTensor[i]}, OpClass::Unscheduled);
      pg_.edges[e].output = static_cast<int32_t>(i);
    }
  }

  /// An op edge's place in the op schedule, from the op's category.
  static OpClass classify(OpKind kind) {
    if (kind == OpKind::DynamicSlice || kind == OpKind::DynamicUpdateSlice)
      return OpClass::ForwardPassThrough;
    if (isPassThrough(kind))
      return OpClass::PassThrough;
    return opCategory(kind) == OpCategory::Broadcast ? OpClass::Broadcast : OpClass::Other;
  }

  /// The tensors an op reads: a constant expression with several uses is
  /// read through the op's own copy; the start of a constraint chain through
  /// the chain's last constraint (findConstraintChains).
  const std::vector<int64_t> &useTensors(const Op &op) {
    std::vector<int64_t> &out = useScratch_;
    out.clear();
    for (ValueId v : op.operands) {
      auto chain = chainOf_.find(v);
      out.push_back(chain != chainOf_.end() && chain->second.first != &op
                        ? chain->second.second
                        : useTensorOf(v, op.pointer));
    }
    return out;
  }

  const std::vector<int64_t> &originalTensors(const Op &op) {
    std::vector<int64_t> &out = useScratch_;
    out.clear();
    for (ValueId v : op.operands)
      out.push_back(useTensor_[v]);
    return out;
  }

  /// Shardy's constant splitting (sdy-constant-or-scalar-splitter): constants
  /// and iotas, and broadcasts, reshapes, slices and elementwise ops of them
  /// (broadcasts of scalars too), are copied for each use before
  /// propagation, so that their users do not pass shardings to each other
  /// through them. Values in sharding groups stay whole.
  void findConstantExpressions() {
    constantExpression_.assign(graph_.values.size(), 0);
    std::vector<char> grouped(graph_.values.size(), 0);
    forSpecialOps([&](const Op &op) {
      if (op.kind == OpKind::ShardingGroup)
        for (ValueId v : op.operands)
          grouped[v] = 1;
    });
    for (size_t i = 0; i < pg_.ops.size(); ++i) { // walk order
      const Op &op = *pg_.ops[i];
      if (i + kPrefetchDistance < pg_.ops.size())
        prefetchValueLists(pg_.ops[i + kPrefetchDistance]);
      bool source = op.kind == OpKind::Constant || op.kind == OpKind::Iota;
      bool preserving = op.kind == OpKind::BroadcastInDim || op.kind == OpKind::Reshape ||
                        op.kind == OpKind::Slice ||
                        (isPassThrough(op.kind) && op.kind != OpKind::Transpose);
      if (!source && !preserving)
        continue; // most ops: their operands need not be read
      bool fromConstants = std::all_of(op.operands.begin(), op.operands.end(),
                                       [&](ValueId v) { return constantExpression_[v] != 0; });
      bool scalarExpansion =
          op.kind == OpKind::BroadcastInDim && graph_.type(op.operands[0]).shape.empty();
      if (!source && !fromConstants && !scalarExpansion)
        continue;
      for (ValueId v : op.results)
        constantExpression_[v] = grouped[v] ? 0 : 1;
    }
  }

  /// Visits, in walk order, the ops that may carry shardings, constraints,
  /// groups or manual computations (listed by indexOps): most ops are none.
  template <typename Visit> void forSpecialOps(Visit visit) const {
    for (size_t i = 0; i < specialOps_.size(); ++i) {
      if (i + kPrefetchDistance < specialOps_.size())
        prefetchValueLists(specialOps_[i + kPrefetchDistance]);
      visit(*specialOps_[i]);
    }
  }

  /// The tensor one use of `v` reads (`consumer`: the user's pointer).
  int64_t useTensorOf(ValueId v, const std::string &consumer) {
    size_t uses = uses_.users[v].size() + static_cast<size_t>(uses_.returnCount[v]);
    if (!constantExpression_[v] || uses < 2 || graph_.type(v).shape.empty())
      return useTensor_[v];
    return copyOfConstant(v, consumer);
  }

  /// A copy of the constant expression computing `v`, with its own edges.
  int64_t copyOfConstant(ValueId v, const std::string &consumer) {
    if (graph_.type(v).shape.empty())
      return useTensor_[v]; // scalars are never sharded: nothing to split
    Tensor original = pg_.tensors[pg_.valueTensor[v]]; // addTensor may reallocate
    int64_t copy = addTensor(-1, *pg_.shapes[original.shapeId],
                             pg_.label(graph_, pg_.valueTensor[v]) + " (copy for " + consumer + ")",
                             pg_.states.state(original.stateId).forbidden);
    Tensor &tensor = pg_.tensors[copy];
    tensor.stateId = original.stateId;
    tensor.user = original.user;
    tensor.origin = original.origin;
    const Op &def = *graph_.value(v).definingOp;
    std::vector<int64_t> operands;
    for (ValueId operand : def.operands)
      operands.push_back(copyOfConstant(operand, consumer));
    addOpEdge(def, opIndexOf(*graph_.value(v).region, def), operands, std::span(&copy, 1));
    return copy;
  }

  int64_t addOpEdge(const Op &op, int64_t index, std::span<const int64_t> operands,
                    std::span<const int64_t> results) {
    int64_t e = addEdge(EdgeKind::Rule, index, operands, results, classify(op.kind));
    Edge &edge = pg_.edges[e];
    edge.opaque = !hasShardingRule(graph_, op);
    edge.multiUseOperand = hasMultiUseOperand(op);
    edge.elementwise = isPerElement(op.kind);
    return e;
  }

  const std::vector<int64_t> &defTensors(std::span<const ValueId> values) {
    std::vector<int64_t> &out = defScratch_;
    out.clear();
    for (ValueId v : values)
      out.push_back(pg_.valueTensor[v]);
    return out;
  }

  /// Ops in an order fixed by the graph's structure and names: depth from the
  /// region's arguments, then the op's name (its first result, or its
  /// operands for ops without results) in natural order for names that
  /// differ only in a trailing number (`v2` before `v10`), else by hash.
  /// Shardy breaks ties by program order, and SSA-numbered names (`%0`,
  /// `%1`: MLIR imports, Shardy's own tests) are numbered in program order,
  /// so such programs resolve ties as Shardy does, whatever the order the
  /// graph file lists its ops in.
  std::vector<const Op *> canonicalOrder(const Region &region) {
    // Per value (0: a region argument); a body's values are its own.
    depthOf_.resize(graph_.values.size(), 0);
    std::vector<int32_t> &depthOf = depthOf_;
    // One per op: int32 (no deeper than the ops, fewer than the tensors).
    struct Keyed {
      int32_t depth;
      uint32_t index;
      NameKey name;
    };
    std::vector<Keyed> keyed;
    keyed.reserve(region.ops.size());
    int32_t maxDepth = 0;
    for (size_t i = 0; i < region.ops.size(); ++i) {
      const Op &op = region.ops[i];
      prefetchValueLists(region, i + kPrefetchDistance);
      int32_t depth = 0;
      for (ValueId v : op.operands)
        depth = std::max(depth, depthOf[v]);
      ++depth;
      maxDepth = std::max(maxDepth, depth);
      for (ValueId v : op.results)
        depthOf[v] = depth;
      keyed.push_back({depth, static_cast<uint32_t>(i), opNameKey(op)});
    }
    // By depth first (counting, linear), then each depth's few ops by name:
    // the same order as one sort by (depth, name, index), without sorting
    // a million entries at once.
    std::vector<uint32_t> begin(static_cast<size_t>(maxDepth) + 2, 0);
    for (const Keyed &k : keyed)
      ++begin[static_cast<size_t>(k.depth) + 1];
    for (size_t d = 1; d < begin.size(); ++d)
      begin[d] += begin[d - 1];
    // Op indices (keyed[i] is op i's).
    std::vector<uint32_t> byDepth(keyed.size());
    std::vector<uint32_t> next(begin.begin(), begin.end() - 1);
    for (const Keyed &k : keyed)
      byDepth[next[static_cast<size_t>(k.depth)]++] = k.index;
    for (size_t d = 0; d + 1 < begin.size(); ++d)
      std::sort(byDepth.begin() + static_cast<std::ptrdiff_t>(begin[d]),
                byDepth.begin() + static_cast<std::ptrdiff_t>(begin[d + 1]),
                [&](uint32_t i, uint32_t j) {
                  const Keyed &a = keyed[i], &b = keyed[j];
                  return std::tie(a.name.stem, a.name.number, a.name.whole, a.index) <
                         std::tie(b.name.stem, b.name.number, b.name.whole, b.index);
                });
    std::vector<const Op *> order;
    order.reserve(keyed.size());
    for (uint32_t i : byDepth)
      order.push_back(&region.ops[i]);
    return order;
  }

  /// An op's name as a sort key: its first result's, else a hash of its
  /// kind, operands (and group id).
  NameKey opNameKey(const Op &op) const {
    if (!op.results.empty())
      return nameKey(graph_.value(op.results[0]).name);
    uint64_t hash = hashName(op.name());
    for (ValueId v : op.operands)
      hash = hashName(graph_.value(v).name, hash);
    if (op.kind == OpKind::ShardingGroup)
      hash = hashName(std::to_string(op.attr<ShardingGroupAttrs>().groupId), hash);
    return {hash, 0, hash};
  }

  void emitRegion(const Region &region) {
    std::vector<const Op *> order = canonicalOrder(region);
    for (size_t i = 0; i < order.size(); ++i) {
      const Op &op = *order[i];
      if (i + kPrefetchDistance < order.size())
        prefetchValueLists(order[i + kPrefetchDistance]);
      int64_t index = opIndexOf(region, op);
      switch (opCategory(op.kind)) {
      case OpCategory::Sharding:
        emitShardingOp(op, index);
        break;
      case OpCategory::DataFlow:
        emitDataFlowOp(op, index);
        break;
      case OpCategory::ElementwiseUnary:
      case OpCategory::ElementwiseBinary:
      case OpCategory::ElementwiseOther:
      case OpCategory::Layout:
      case OpCategory::Broadcast:
      case OpCategory::Collective:
      case OpCategory::Other:
        emitOpEdge(op, index);
        break;
      }
    }
  }

  void emitOpEdge(const Op &op, int64_t index) {
    // The ops of a constant expression are not its users: they keep
    // reading the originals.
    bool partOfConstant = !op.results.empty() && constantExpression_[op.results[0]];
    addOpEdge(op, index, partOfConstant ? originalTensors(op) : useTensors(op),
              defTensors(op.results));
  }

  /// The edges of each sharding annotation op: one specialization per row
  /// of the Sharding category (emitShardingOp does not build without it).
  template <OpKind K> void emitShardingOpOf(const Op &op, int64_t index) = delete;
  void emitShardingOp(const Op &op, int64_t index);

  /// Shardy's data-flow edges: the op's program regions, then per result
  /// one identity from its sources to it and the region arguments holding
  /// it. Not elementwise and never waiting on multi-use operands in Shardy
  /// (its edge's only operand is the result itself).
  void emitDataFlowOp(const Op &op, int64_t index) {
    for (const Region &body : op.regions)
      emitRegion(body);
    for (const DataFlowEdge &flow : dataFlowEdges(op)) {
      std::vector<int64_t> sources, targets = {pg_.valueTensor[flow.owner]};
      for (ValueId source : flow.sources)
        sources.push_back(useTensorOf(source, op.pointer));
      for (ValueId target : flow.targets)
        targets.push_back(pg_.valueTensor[target]);
      addEdge(EdgeKind::DataFlow, index, sources, targets, OpClass::PassThrough);
    }
  }

  void emitManualComputation(const Op &op, int64_t index) {
    int64_t manual = manualOf_.at(&op);
    const ManualInfo &info = pg_.manuals[manual];
    const Region *body = op.body();
    for (size_t i = 0; i < op.operands.size(); ++i) {
      addEdge(EdgeKind::Identity, index, {useTensorOf(op.operands[i], op.pointer)},
              {info.inTensors[i]}, OpClass::PassThrough);
      if (body && i < body->args.size()) {
        int64_t e = addEdge(EdgeKind::ManualIn, index, {info.inTensors[i]},
                            {pg_.valueTensor[body->args[i].value]}, OpClass::PassThrough);
        pg_.edges[e].manual = static_cast<int32_t>(manual);
      }
    }
    if (!body)
      return;
    emitRegion(*body);
    for (size_t j = 0; j < op.results.size() && j < body->results.size(); ++j) {
      int64_t e =
          addEdge(EdgeKind::ManualOut, index, {useTensorOf(body->results[j].value, body->pointer)},
                  {pg_.valueTensor[op.results[j]]}, OpClass::PassThrough);
      pg_.edges[e].manual = static_cast<int32_t>(manual);
    }
  }

  const Graph &graph_;
  PropagationGraph &pg_;
  /// Per region: its ops' indices into pg_.ops (a handful of regions).
  std::unordered_map<const Region *, std::vector<int32_t>> walkIndex_;
  std::unordered_map<const Op *, int64_t> manualOf_;
  std::vector<int32_t> useTensor_;
  Uses uses_;
  std::vector<char> constantExpression_; // per ValueId, see findConstantExpressions
  std::vector<std::pair<int64_t, int64_t>> shadowLinks_;
  /// The start of a constraint chain -> (its first constraint, the tensor of
  /// its last constraint's result).
  std::unordered_map<ValueId, std::pair<const Op *, int64_t>> chainOf_;
  std::vector<int32_t> depthOf_;                 // see canonicalOrder
  std::vector<const Op *> specialOps_;           // see forSpecialOps
  std::vector<int64_t> useScratch_, defScratch_; // useTensors, defTensors
  std::vector<uint32_t> edgeTensorBegin_;        // per edge, into pg_.edgeTensors
  struct ShapeHash {
    size_t operator()(const Shape &shape) const {
      uint64_t hash = kFnvOffsetBasis;
      for (int64_t size : shape)
        hash = fnvMix(hash, size);
      return hash;
    }
  };
  std::unordered_map<Shape, int32_t, ShapeHash> shapeIds_;
};

// sharding_group only ties shardings (buildGroups): no edge.
template <> void Builder::emitShardingOpOf<OpKind::ShardingGroup>(const Op &, int64_t) {}

// Elementwise in Shardy: a first-stage op.
template <>
void Builder::emitShardingOpOf<OpKind::ShardingConstraint>(const Op &op, int64_t index) {
  int64_t e = addEdge(EdgeKind::Identity, index, useTensors(op), defTensors(op.results),
                      OpClass::PassThrough);
  pg_.edges[e].multiUseOperand = hasMultiUseOperand(op);
  pg_.edges[e].elementwise = true;
}

template <> void Builder::emitShardingOpOf<OpKind::Distribute>(const Op &op, int64_t index) {
  emitShardingOpOf<OpKind::ShardingConstraint>(op, index);
}

template <>
void Builder::emitShardingOpOf<OpKind::PropagationBarrier>(const Op &op, int64_t index) {
  int64_t e = addEdge(EdgeKind::Identity, index, useTensors(op), defTensors(op.results),
                      OpClass::Unscheduled);
  pg_.edges[e].elementwise = true;
  pg_.edges[e].allowed = barrierAllows(op.attr<PropagationBarrierAttrs>().allowedDirection);
}

template <> void Builder::emitShardingOpOf<OpKind::ManualComputation>(const Op &op, int64_t index) {
  emitManualComputation(op, index);
}

void Builder::emitShardingOp(const Op &op, int64_t index) {
  using OpEdges = void (Builder::*)(const Op &, int64_t);
  static constexpr auto kEdges = tableByKind([](auto kind) -> OpEdges {
    if constexpr (opCategory(decltype(kind)::value) == OpCategory::Sharding)
      return &Builder::emitShardingOpOf<decltype(kind)::value>;
    else
      return nullptr; // emitRegion sends only sharding ops here
  });
  (this->*entryFor(kEdges, op.kind))(op, index);
}

} // namespace

void returnFreedMemory(const PropagationGraph &pg) {
  constexpr size_t kTrimAtTensors = size_t(1) << 16;
  if (pg.tensors.size() < kTrimAtTensors)
    return;
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

std::vector<int32_t> PropagationGraph::edgesTouching(int64_t tensor) const {
  std::vector<int32_t> found;
  for (size_t e = 0; e < edges.size(); ++e)
    for (size_t k = 0; k < edges[e].numTensors(); ++k)
      if (edges[e].tensors[k] == tensor)
        found.push_back(static_cast<int32_t>(e));
  return found;
}

std::string PointerPlace::text() const {
  std::string text = *base + suffix;
  return index >= 0 ? joinPointer(text, static_cast<size_t>(index)) : text;
}

PropagationGraph buildPropagationGraph(const Graph &graph) {
  PropagationGraph pg;
  Builder(graph, pg).build();
  return pg;
}

std::string edgePointer(const Graph &graph, const PropagationGraph &pg, const Edge &edge) {
  if (edge.output >= 0)
    return graph.main.results[edge.output].pointer;
  if (edge.op >= 0)
    return pg.ops[edge.op]->pointer;
  return "";
}

std::string edgeDescription(const Graph &graph, const PropagationGraph &pg, const Edge &edge) {
  if (edge.output >= 0)
    return "output " + std::to_string(edge.output) + " (" + edgePointer(graph, pg, edge) + ")";
  if (edge.op < 0)
    return "sharding_group link";
  std::string text = std::string(pg.ops[edge.op]->name()) + " " + pg.ops[edge.op]->pointer;
  if (auto scope = metadataString(pg.ops[edge.op]->metadata, kInlinedFromKey))
    text += " (in " + *scope + ")";
  if (edge.kind == EdgeKind::ManualIn)
    text += " (into its body)";
  if (edge.kind == EdgeKind::ManualOut)
    text += " (out of its body)";
  if (edge.kind == EdgeKind::DataFlow)
    text += " (data-flow edge)";
  return text;
}

} // namespace shardgen::propagation
