#pragma once
// How distributions spread (spec "Distributions"), before Shardy propagation:
// from the user's distributions (inputs, op results, `distribute`, outputs)
// through elementwise ops whose distributed operands share one distribution
// (scalars and constants join as they are) and through reduces over dims
// every chunk holds whole, forward and backward, only among values that no
// user sharding reaches first (their tensor holds a sharding before
// propagation: their own, a constraint's, a group's, or that of an output
// returning them). Values inside manual bodies are never distributed.

#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Graph.h"
#include "compiler/propagate/PropagationGraph.h"

namespace shardgen::propagation {

/// Where a value's distribution came from.
struct DistributionSource {
  enum class Kind { None, User, Op };
  Kind kind = Kind::None;
  std::string pointer; // User: the distribution's JSON pointer; Op: the op's
  ValueId from = -1;   // Op: the value it came from
};

struct DistributionSpread {
  /// Per ValueId; all three lists are empty when the graph has no
  /// distribution at all.
  std::vector<std::optional<Distribution>> distributions;
  std::vector<DistributionSource> sources;
  /// Per ValueId: a user sharding reaches it first ("" if none), as a pointer.
  std::vector<std::string> pinnedBy;
};

/// `pg` as built, before the engine runs (its initial states are the user's).
DistributionSpread spreadDistributions(const Graph &graph, const PropagationGraph &pg);

/// Ops a distribution can pass: elementwise (unary, binary, compare, select,
/// clamp, convert) and a reduce of one input by a simple reducer.
bool passesDistributions(const Op &op);

/// A value's name in double quotes, as the explanations show it.
std::string quotedValueName(const Graph &graph, ValueId v);

/// Why `value` (not distributed) got no distribution through `op` (its
/// defining op or a user) although a value next to it there is distributed;
/// empty when no neighbour through `op` is distributed.
std::string whyNotThrough(const Graph &graph, const DistributionSpread &spread, const Op &op,
                          ValueId value);

/// `explain` for a graph with distributions: for a distributed value, its
/// distribution and where it came from (the whole explanation); for another
/// one, why it is not distributed (added after the sharding's explanation).
std::string explainDistribution(const Graph &graph, const DistributionSpread &spread,
                                ValueId value);

} // namespace shardgen::propagation
