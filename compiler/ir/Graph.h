#pragma once
// The IR: a graph of SSA values and ops in regions. The top-level region's
// arguments are the graph inputs and its results the graph outputs; an op may
// own regions of its own (a manual_computation's body, a reduce's body), each
// with its own arguments, ops and returned values.
//
// Every entity remembers the JSON pointer it was read from, so later stages
// report errors at the place the user wrote.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "compiler/ir/Attributes.h"
#include "compiler/ir/BoxedOptional.h"
#include "compiler/ir/Distribution.h"
#include "compiler/ir/InlineVector.h"
#include "compiler/ir/Mesh.h"
#include "compiler/ir/Metadata.h"
#include "compiler/ir/OpKind.h"
#include "compiler/ir/Sharding.h"
#include "compiler/ir/ShardingOrigin.h"
#include "compiler/ir/TensorType.h"
#include "compiler/ir/Uniqued.h"

namespace shardgen {

using ValueId = int64_t; // index into Graph::values

struct Op;
struct Region;
struct Uses;
struct Graph;

struct Value {
  std::string name;
  /// Known for arguments from the file; for op results set by type inference
  /// (verify), after which every value has one. Uniqued: a large graph has
  /// millions of values and a handful of distinct types.
  UniquedOptional<TensorType> type;
  const Op *definingOp = nullptr; // null for region arguments
  const Region *region = nullptr; // the scope it belongs to
  int32_t resultIndex = -1;       // index among definingOp's results
  int32_t argumentIndex = -1;     // index among region's args (region arguments)

  /// The JSON pointer of the input, op or body argument defining it (derived
  /// from them, not stored: a pointer per value would be most of its size).
  /// Empty until Graph::linkDefinitions.
  const std::string &pointer() const;
};

/// A region argument (graph input or body argument) or result (graph output
/// or body return), with its optional user sharding or distribution (graph
/// inputs and outputs only) and `_` metadata.
struct RegionArgument {
  ValueId value = -1;
  /// Uniqued: a propagated graph's slots share a few dozen shardings.
  UniquedOptional<TensorSharding> sharding;
  std::string pointer;
  Metadata metadata;
  /// Boxed, as in Op: rare and large.
  BoxedOptional<Distribution> distribution;
  /// Set by propagation: where `sharding` (or `distribution`) came from.
  std::optional<ShardingOrigin> origin;
  /// The file states an origin of its own that is not `origin` (kept in
  /// `metadata`, compiler/frontend/OriginMetadata.h): propagation leaves it
  /// there while the sharding stays the same.
  bool statesOrigin = false;
};
using RegionResult = RegionArgument;

/// The regions an op owns, in order: 8 bytes, null for the many ops without
/// any. A region never moves once added (values and ops point at it).
class OpRegions {
public:
  OpRegions() = default;
  OpRegions(OpRegions &&) noexcept = default;
  OpRegions &operator=(OpRegions &&) noexcept = default;
  OpRegions(const OpRegions &) = delete;
  OpRegions &operator=(const OpRegions &) = delete;
  ~OpRegions();

  size_t size() const { return list_ ? list_->size() : 0; }
  bool empty() const { return size() == 0; }
  Region &operator[](size_t i) { return *(*list_)[i]; }
  const Region &operator[](size_t i) const { return *(*list_)[i]; }
  /// Appends an empty region and returns it.
  Region &add();

  /// Iterates the regions themselves (not their owning pointers).
  template <typename R, typename It> class Iterator {
  public:
    explicit Iterator(It at) : at_(at) {}
    R &operator*() const { return **at_; }
    R *operator->() const { return &**at_; }
    Iterator &operator++() {
      ++at_;
      return *this;
    }
    bool operator==(const Iterator &other) const { return at_ == other.at_; }

  private:
    It at_;
  };
  using List = std::vector<std::unique_ptr<Region>>;
  using iterator = Iterator<Region, List::iterator>;
  using const_iterator = Iterator<const Region, List::const_iterator>;
  iterator begin() { return iterator(list_ ? list_->begin() : List::iterator()); }
  iterator end() { return iterator(list_ ? list_->end() : List::iterator()); }
  const_iterator begin() const {
    return const_iterator(list_ ? list_->cbegin() : List::const_iterator());
  }
  const_iterator end() const {
    return const_iterator(list_ ? list_->cend() : List::const_iterator());
  }

private:
  std::unique_ptr<List> list_;
};

struct Op {
  OpKind kind = OpKind::Constant;
  /// The file used the plural keys (`results`, `types`, `shardings`).
  bool pluralResults = false;
  /// As RegionArgument::statesOrigin, for the op's results.
  bool statesOrigins = false;
  std::string pointer; // of the op object
  // Inline for the common sizes (see InlineVector): most ops have one or two
  // operands and one result.
  InlineVector<ValueId, 2> operands;
  InlineVector<ValueId, 1> results;
  /// Per result: the `type`/`types` the file gave, to be checked against
  /// inference. Empty when it gave none (most ops).
  InlineVector<UniquedOptional<TensorType>, 1> declaredTypes;
  /// Per result: the user sharding (`sharding`/`shardings`). For
  /// sharding_constraint this is the constraint itself. Uniqued: after
  /// propagation every result has one, and a program has a few dozen.
  InlineVector<UniquedOptional<TensorSharding>, 1> shardings;
  /// Per result: the user distribution (`distribution`/`distributions`). For
  /// distribute this is the op's distribution itself. Boxed: most ops have
  /// none, and an empty slot is 8 bytes instead of 96.
  InlineVector<BoxedOptional<Distribution>, 1> distributions;
  /// Per result, set by propagation: where its sharding or distribution came
  /// from (empty: nothing to write beyond the metadata).
  InlineVector<ShardingOrigin, 1> origins;
  OpAttributes attrs;
  /// Its regions: a manual_computation's body (a nested program), a reduce's
  /// body when it is not one of the six simple reducers (a scalar body).
  /// regionRole says how an op's regions run.
  OpRegions regions;
  Metadata metadata;

  template <typename T> const T &attr() const { return std::get<T>(attrs.get()); }
  template <typename T> T &attr() { return std::get<T>(attrs.mutableGet()); }
  std::string_view name() const { return opName(kind); }
  /// The first region (a manual_computation's or reduce's body), or null.
  const Region *body() const { return regions.empty() ? nullptr : &regions[0]; }
  Region *body() { return regions.empty() ? nullptr : &regions[0]; }
};

/// How an op's regions take part in the program (the role of the region
/// fields of its attribute schema, compiler/ops; Program for an op without).
RegionRole regionRole(OpKind kind);

/// The simple reducer a reduce applies: its `reducer`, or its body when that
/// body is one of the six (one `add`, `multiply`, `maximum`, `minimum`,
/// `and` or `or` of its two arguments, returned), which then runs on their
/// fast kernels and collectives; none for any other body (the general
/// scalar-region path).
std::optional<Reducer> simpleReducer(const Op &reduce);
/// The reducer a body of N pairs (a variadic scatter's update computation)
/// applies to each: value i one `add`, `multiply`, ... of arguments i and
/// N + i, the same op for every i; simpleReducer's body test for N = 1.
std::optional<Reducer> pairwiseReducer(const Op &op);
/// The StableHLO op a simple reducer applies.
OpKind reducerOpKind(Reducer reducer);

struct Region {
  std::vector<RegionArgument> args;
  std::vector<Op> ops;
  std::vector<RegionResult> results;
  std::string pointer; // "" for the graph, ".../body" for an op's body
  Metadata metadata;
  const Op *parentOp = nullptr; // the op owning this region (null for the graph)
};

/// The MLIR function a graph was imported from, so that the MLIR writer
/// prints it back as written (`func.func @f(` as Shardy's tests, `func.func
/// public @main(` as JAX). A graph file has none: @main, as JAX writes it.
struct EntryFunction {
  std::string name = "main";
  bool publicKeyword = true;
};

inline OpRegions::~OpRegions() = default;
inline Region &OpRegions::add() {
  if (!list_)
    list_ = std::make_unique<List>();
  return *list_->emplace_back(std::make_unique<Region>());
}

struct Graph {
  std::string name;
  std::vector<Mesh> meshes;
  std::vector<Value> values;
  Region main; // args: /inputs/i; results: /outputs/i
  Metadata metadata;
  EntryFunction entry;

  Graph() = default;
  Graph(const Graph &) = delete;
  Graph &operator=(const Graph &) = delete;
  // Values point at their region; `main` lives inside the Graph, so a move
  // relinks them (bodies are on the heap and ops keep their addresses).
  Graph(Graph &&other) noexcept;
  Graph &operator=(Graph &&other) noexcept;

  const Mesh *findMesh(const std::string &name) const;
  Value &value(ValueId id) { return values[id]; }
  const Value &value(ValueId id) const { return values[id]; }
  /// The (inferred) type of a value; valid after verification.
  const TensorType &type(ValueId id) const { return *values[id].type; }
  /// A value defined by an op or region argument the caller adds; its
  /// definition (and pointer) is linked by linkDefinitions.
  ValueId addValue(std::string name, UniquedOptional<TensorType> type = std::nullopt);

  /// Sets Value::definingOp/resultIndex/argumentIndex/region from the
  /// regions. Call once the regions are complete (their op vectors no longer
  /// change).
  void linkDefinitions();
  /// A deep copy (Graph itself is move-only because of the owned bodies).
  Graph clone() const;
};

/// Visits every op that runs as a step, in program order: entering an op's
/// program regions (a manual_computation's body) before moving on, not its
/// scalar bodies (RegionRole).
void walkOps(const Region &region, const std::function<void(const Op &)> &visit);
void walkMutableOps(Region &region, const std::function<void(Op &)> &visit);
/// Visits every op of every region, scalar bodies included, in program order.
void walkAllOps(const Region &region, const std::function<void(const Op &)> &visit);

/// Each value's users, in program order, in one flat array (no vector per
/// value: large graphs have millions of values).
class UserLists {
public:
  std::span<const Op *const> operator[](ValueId v) const {
    return {ops_.data() + begin_[v], ops_.data() + begin_[v + 1]};
  }

private:
  friend Uses computeUses(const Graph &graph);
  std::vector<int64_t> begin_; // per value, plus one past the last
  std::vector<const Op *> ops_;
};

/// users[v]: the ops taking value v as an operand (once per operand slot);
/// returnCount[v]: how often v is a region result.
struct Uses {
  UserLists users;
  std::vector<int64_t> returnCount;
};
Uses computeUses(const Graph &graph);

/// The JSON pointer of the first distribution (input, op result or output) in
/// file order; empty when the graph has none.
std::string firstDistributionPointer(const Graph &graph);

} // namespace shardgen
