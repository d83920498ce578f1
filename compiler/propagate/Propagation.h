#pragma once
// Sharding propagation as Shardy does it: the public entry points.
//
//   PropagationResult result = propagateShardings(graph, PropagationStrategy::UserPriority);
//   applyPropagation(graph, result); // then GraphWriter emits the propagated graph
//
// The graph must be verified (every value's type known).

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir/Graph.h"

namespace shardgen {

namespace propagation {
struct PropagationGraph;
struct DistributionSpread;
} // namespace propagation

/// Shardy's strategies. UserPriority (the default) runs OpPriority once per
/// user priority level; OpPriority runs Aggressive in three op stages;
/// Aggressive resolves conflicts between factors by the larger source tensor;
/// Basic propagates only what every tensor of an op agrees on.
enum class PropagationStrategy { Basic, Aggressive, OpPriority, UserPriority };

/// "basic", "aggressive", "op-priority", "user-priority".
std::string_view strategyName(PropagationStrategy strategy);
std::optional<PropagationStrategy> parseStrategy(std::string_view name);

struct ManualComputationShardings {
  std::vector<TensorSharding> inShardings, outShardings;
};

struct PropagationResult {
  PropagationStrategy strategy = PropagationStrategy::UserPriority;
  /// Per ValueId: the final sharding, closed and without priorities, keeping
  /// replicated/unreduced axes the user wrote (inside manual bodies: free
  /// axes only), read through `shardingOf`. A program's values share a few
  /// dozen shardings, so each is held once: `shardingIds` index
  /// `distinctShardings` (id 0: no sharding, the graph has no mesh), uniqued
  /// instances that applyPropagation hands to the IR slots without a copy.
  std::vector<int32_t> shardingIds;
  std::vector<UniquedOptional<TensorSharding>> distinctShardings;
  std::vector<ShardingOrigin> origins;
  /// Per ValueId: the distribution of a distributed value (a user's, or
  /// spread to it; spec "Distributions"), else none; empty when no value is
  /// distributed (most graphs: no 100-byte slot per value), so read it
  /// through `distributionOf`. A distributed value's sharding is replicated
  /// on the distribution's mesh and its `origins` entry says where the
  /// distribution came from ("user:" the distribution's pointer, or "op:"
  /// the op it crossed).
  std::vector<std::optional<Distribution>> distributions;
  /// Per graph output.
  std::vector<TensorSharding> outputShardings;
  std::vector<ShardingOrigin> outputOrigins;
  /// Per graph output: its distribution (the user's, or its value's when the
  /// output has no annotation of its own), else none.
  std::vector<std::optional<Distribution>> outputDistributions;
  /// Per manual_computation op of the propagated graph: its in/out
  /// shardings extended with the free axes propagation found.
  std::map<const Op *, ManualComputationShardings> manualComputations;
  std::vector<std::string> warnings;
  /// How many times an op (edge) was visited: the cost measure of the bench.
  int64_t opVisits = 0;
  /// The propagation state `explainValue` reads.
  std::shared_ptr<const propagation::PropagationGraph> state;
  std::shared_ptr<const propagation::DistributionSpread> spread;

  const TensorSharding &shardingOf(ValueId value) const { return *uniquedShardingOf(value); }
  const UniquedOptional<TensorSharding> &uniquedShardingOf(ValueId value) const {
    return distinctShardings[shardingIds[value]];
  }
  /// `value`'s distribution, if it has one.
  const std::optional<Distribution> &distributionOf(ValueId value) const {
    static const std::optional<Distribution> kNone;
    return static_cast<size_t>(value) < distributions.size() ? distributions[value] : kNone;
  }
};

PropagationResult propagateShardings(const Graph &graph, PropagationStrategy strategy);

/// Writes the result into the IR slots (input/output/op/body-argument
/// shardings or distributions, manual_computation in/out shardings), each
/// with its typed origin (the writer prints it as `_origin`, or an op's
/// `_origins`). A slot whose sharding does not change and that already has an
/// `_origin` keeps it, so propagating a propagated graph changes nothing. A
/// distributed slot gets its `distribution` and no `sharding`.
void applyPropagation(Graph &graph, const PropagationResult &result);
/// The same, moving the origins and the manual computations' shardings out
/// of `result` (what is left of it is only fit to be destroyed). Either way
/// the slots share the result's uniqued shardings.
void applyPropagation(Graph &graph, PropagationResult &&result);

/// Writes the result as Shardy's propagation leaves its program, for
/// printing in Shardy's form (`propagate --format mlir`): a slot the user
/// annotated keeps each dim's open/closed state and priority and gets the
/// propagated axes; a value the user left unannotated gets its axes with
/// every dim open, or no sharding when no axis reached it; manual
/// computations' in/out shardings are updated alike. No origins are written,
/// nor body-argument shardings (Shardy's come from the in_shardings), nor
/// distributions.
void applyPropagationShardyForm(Graph &graph, const PropagationResult &result);

/// Why `valueName` has its sharding: the chain of origins back to user
/// annotations, and for every dim left replicated what stopped each axis.
/// `graph` must be the graph that was propagated. Throws GraphError when the
/// value does not exist.
std::string explainValue(const Graph &graph, const PropagationResult &result,
                         const std::string &valueName);
/// The same for one value (names inside manual bodies may repeat outer names),
/// with at most `maxOriginSteps` lines of the origin chain and then one
/// saying it goes on (`show` explains every value of a page: whole chains
/// would make the page grow with the square of a chain's length).
std::string explainValue(const Graph &graph, const PropagationResult &result, ValueId value,
                         size_t maxOriginSteps = SIZE_MAX);

} // namespace shardgen
