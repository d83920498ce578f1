#pragma once
// What propagation works on: tensors (one per IR value, plus virtual ones for
// graph outputs, manual_computation in_shardings and sharding-group shadows)
// joined by edges. An edge is an op with its sharding rule, or an identity
// (sharding_constraint, propagation_barrier, graph output, group shadow), or
// a manual_computation boundary, an identity that hides the manual axes of
// its global side. The special ops are lowered here, once; the engine only
// sees tensors, edges and rules.

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "compiler/ir/Graph.h"
#include "compiler/propagate/Direction.h"
#include "compiler/propagate/ShardingState.h"
#include "compiler/propagate/StateTable.h"

namespace shardgen::propagation {

/// Tensor and edge ids are stored as int32: the arrays below hold one or
/// more per tensor and per edge (a million-op graph has millions), so half
/// the bytes of int64. buildPropagationGraph refuses a larger graph.
inline constexpr int64_t kMaxPropagationIds = INT32_MAX;

enum class OriginKind : uint8_t { None, User, Constraint, Group, Op, Default };

/// Why a tensor has its current sharding: the last thing that changed it.
/// Two per user-sharded tensor, one per other: 12 bytes, what it names in
/// one field read by its kind.
struct Origin {
  int32_t source = -1; // Op/Group: the tensor it came from
  /// User/Constraint: the sharding's JSON pointer (the constraint's: the
  /// op's) as an index into PropagationGraph::pointers; Op: the edge
  /// crossed; Group: index into PropagationGraph::groups.
  int32_t ref = -1;
  OriginKind kind = OriginKind::None;

  int32_t pointer() const {
    return kind == OriginKind::User || kind == OriginKind::Constraint ? ref : -1;
  }
  int32_t edge() const { return kind == OriginKind::Op ? ref : -1; }
  int32_t group() const { return kind == OriginKind::Group ? ref : -1; }

  static Origin user(int64_t pointer) { return make(OriginKind::User, -1, pointer); }
  static Origin op(int64_t edge, int64_t source) { return make(OriginKind::Op, source, edge); }
  static Origin ofGroup(int64_t source, int64_t group) {
    return make(OriginKind::Group, source, group);
  }

private:
  static Origin make(OriginKind kind, int64_t source, int64_t ref) {
    Origin origin;
    origin.kind = kind;
    origin.source = static_cast<int32_t>(source);
    origin.ref = static_cast<int32_t>(ref);
    return origin;
  }
};

enum class EdgeKind : uint8_t {
  Rule,      // an op with its sharding rule
  Identity,  // tensors of one shape, identity rule
  ManualIn,  // manual_computation operand (global, in_sharding) -> body arg (local)
  ManualOut, // body return (local) -> manual_computation result (global)
  /// Shardy's data-flow edge (ir/DataFlow.h): an identity from the values
  /// flowing into a result unchanged (operands, region returns) to the
  /// result and the region arguments holding it (optimization_barrier).
  DataFlow,
};

/// How op-priority propagation treats an edge (Shardy's op schedule).
enum class OpClass : uint8_t {
  PassThrough, // elementwise, reshape, transpose, data-flow edges: first stages
  /// dynamic_slice, dynamic_update_slice: forward only in the first stages,
  /// as any op after them (Shardy's isPassThroughOp).
  ForwardPassThrough,
  Broadcast, // broadcast_in_dim: only backward until the last stage
  Other,
  Unscheduled, // graph outputs and barriers: only their own direction counts
};

/// About one per op: kept small (40 bytes).
struct Edge {
  /// Its tensor ids, operands then results, in PropagationGraph::edgeTensors.
  const int32_t *tensors = nullptr;
  uint32_t numOperands = 0, numResults = 0;
  int32_t op = -1;     // index into PropagationGraph::ops; -1 for graph outputs
  int32_t manual = -1; // ManualIn/ManualOut: index into PropagationGraph::manuals
  int32_t output = -1; // the graph output this edge feeds
  EdgeKind kind = EdgeKind::Rule;
  Direction allowed = Direction::Both; // barriers restrict it
  OpClass opClass = OpClass::Other;
  bool opaque = false; // a custom_call without sharding_rule
  /// An operand of the op (not a scalar) has other uses too: Shardy's
  /// op-priority propagation waits a stage before crossing such an op.
  bool multiUseOperand = false;
  /// Shardy's isElementwise: elementwise ops (compare, select, clamp and
  /// convert too), sharding constraints (group shadows' included), barriers.
  bool elementwise = false;

  std::span<const int32_t> operands() const { return {tensors, numOperands}; }
  std::span<const int32_t> results() const { return {tensors + numOperands, numResults}; }
  size_t numTensors() const { return size_t{numOperands} + numResults; }
};

/// A few million of these: kept small (40 bytes), with what most tensors
/// lack (a user sharding, extensions) in tables of PropagationGraph.
struct Tensor {
  int32_t value = -1; // its ValueId; -1 for a virtual tensor
  /// Equal shapes have equal ids (rules are found by shapes: EdgeRules);
  /// the shape itself is PropagationGraph::shapes[shapeId].
  int32_t shapeId = -1;
  /// Its sharding: an id in PropagationGraph::states (0: none yet).
  int32_t stateId = 0;
  /// The sharding the user wrote (or the constraint's), before propagation:
  /// an index into PropagationGraph::users, -1 for most tensors (shared: a
  /// constant's copies share it).
  int32_t user = -1;
  /// Where the tensor's first axes came from (shardings only grow, so these
  /// links form a forest back to user annotations) ...
  Origin origin;
  /// ... and the updates that extended it after that (at most a few): an
  /// index into PropagationGraph::extensionLists, -1 for none.
  int32_t extensions = -1;
  int32_t group = -1; // index into PropagationGraph::groups
  /// A mesh an edge reached it with, when it got no axes (meshes are
  /// counted in int16: buildPropagationGraph refuses more).
  int16_t meshHint = -1;
  /// A distributed value: Shardy propagation treats it as closed, neither
  /// giving nor taking axes (it has no sharding at all).
  bool distributed = false;
};

/// A JSON pointer as the place in the graph it extends, not a string per
/// origin: `*base` + `suffix`, then "/index" unless index < 0. `base` is a
/// pointer string of the graph (it outlives the propagation graph).
struct PointerPlace {
  const std::string *base = nullptr;
  const char *suffix = "";
  int64_t index = -1;
  std::string text() const;
};

/// A user sharding (Tensor::user): its state in PropagationGraph::states and
/// where it was written.
struct UserSharding {
  int32_t stateId = 0;
  Origin origin;
};

struct ManualInfo {
  int64_t op = -1;
  int32_t mesh = -1;
  AxisList manualAxes;
  std::vector<int64_t> inTensors;  // global, one per operand
  std::vector<int64_t> outTensors; // the result values' tensors
};

struct ShardingGroup {
  int64_t id = -1; // the smallest group_id of the unified group
  std::vector<int64_t> members;
};

struct PropagationGraph {
  PropagationGraph() = default;
  // Edges point into edgeTensors: a move keeps the array where it is, a copy
  // would not.
  PropagationGraph(const PropagationGraph &) = delete;
  PropagationGraph &operator=(const PropagationGraph &) = delete;
  PropagationGraph(PropagationGraph &&) = default;
  PropagationGraph &operator=(PropagationGraph &&) = default;

  std::vector<const Op *> ops; // walk order (walkOps)
  std::vector<Tensor> tensors;
  /// The tensors' states (Tensor::stateId): equal states are stored once.
  StateTable states;
  /// Sorted by a rank derived from the graph's structure and names only, so
  /// the worklist order does not depend on the order of ops in the file.
  std::vector<Edge> edges;
  std::vector<int32_t> edgeTensors;  // every edge's operands then results, edge after edge
  std::vector<int32_t> valueTensor;  // ValueId -> its tensor
  std::vector<int32_t> outputTensor; // graph output index -> virtual tensor
  /// The shapes by id (Tensor::shapeId), pointing into the graph (it
  /// outlives the propagation graph).
  std::vector<const Shape *> shapes;
  std::vector<UserSharding> users;                 // Tensor::user
  std::vector<std::vector<Origin>> extensionLists; // Tensor::extensions
  std::vector<ShardingGroup> groups;
  /// Whether any tensor is `distributed` (most graphs: none).
  bool anyDistributed = false;
  std::vector<ManualInfo> manuals;
  std::vector<std::string> warnings;
  /// The JSON pointers user and constraint origins name (Origin::pointer).
  std::vector<PointerPlace> pointers;
  /// Virtual tensors' names in diagnostics ("output 0", ...); a value's
  /// tensor is named by its value.
  std::unordered_map<int64_t, std::string> virtualLabels;
  /// The edges touching tensor t (once per slot, in edge order):
  /// tensorEdges[tensorEdgeBegin[t] .. tensorEdgeBegin[t + 1]). The engine's
  /// (edgesOf): freed once it is done (releaseTensorEdges).
  std::vector<int32_t> tensorEdgeBegin, tensorEdges;

  const ShardingState &stateOf(int64_t tensor) const {
    return states.state(tensors[tensor].stateId);
  }
  void setState(int64_t tensor, ShardingState state) {
    tensors[tensor].stateId = states.intern(std::move(state));
  }

  const Shape &shapeOf(int64_t tensor) const { return *shapes[tensors[tensor].shapeId]; }
  /// The tensor's user sharding, or null.
  const ShardingState *userOf(const Tensor &tensor) const {
    return tensor.user >= 0 ? &states.state(users[tensor.user].stateId) : nullptr;
  }
  /// Where its user sharding came from (no origin without one).
  const Origin &userOriginOf(const Tensor &tensor) const {
    static const Origin kNone;
    return tensor.user >= 0 ? users[tensor.user].origin : kNone;
  }
  std::span<const Origin> extensionsOf(const Tensor &tensor) const {
    if (tensor.extensions < 0)
      return {};
    return extensionLists[tensor.extensions];
  }

  /// The group_id (as the file gave it) of a Group origin.
  int64_t groupIdOf(const Origin &origin) const { return groups[origin.group()].id; }

  std::string pointerOf(const Origin &origin) const {
    return origin.pointer() >= 0 ? pointers[origin.pointer()].text() : std::string();
  }
  std::string label(const Graph &graph, int64_t tensor) const {
    ValueId value = tensors[tensor].value;
    return value >= 0 ? graph.value(value).name : virtualLabels.at(tensor);
  }

  std::span<const int32_t> edgesOf(int64_t tensor) const {
    return {tensorEdges.data() + tensorEdgeBegin[tensor],
            tensorEdges.data() + tensorEdgeBegin[tensor + 1]};
  }
  /// Frees the lists edgesOf reads (what the result is built beside).
  void releaseTensorEdges() {
    tensorEdgeBegin = {};
    tensorEdges = {};
  }
  /// What edgesOf gave, found by going through every edge: for `explain`,
  /// one value after propagation.
  std::vector<int32_t> edgesTouching(int64_t tensor) const;
};

PropagationGraph buildPropagationGraph(const Graph &graph);

/// Gives the whole free pages of the heap back to the system (glibc's
/// malloc_trim) when `pg` is large: blocks a stage frees stay resident
/// otherwise, and a large graph's next stage takes fresh pages beside them.
/// Not for small graphs: a trim costs system time, their blocks are few.
void returnFreedMemory(const PropagationGraph &pg);

/// The op's pointer, or the output's for an output edge.
std::string edgePointer(const Graph &graph, const PropagationGraph &pg, const Edge &edge);
std::string edgeDescription(const Graph &graph, const PropagationGraph &pg, const Edge &edge);

} // namespace shardgen::propagation
