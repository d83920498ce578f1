#pragma once
// The reference interpreter: evaluates a graph on whole (unsharded) tensors
// with StableHLO's semantics. It is the oracle every sharded run is compared
// against, so it favours exactness and clarity: floats accumulate in double
// where an op sums, and manual computations run faithfully, once per device
// of the mesh on that device's local shards, with real collectives between
// the devices.

#include <functional>
#include <string>
#include <vector>

#include "compiler/ir/Graph.h"
#include "compiler/ir/Literal.h"
#include "runtime/include/shardgen/custom_call.h"

namespace shardgen {

/// Finds the function implementing a custom_call target; null if there is none.
using CustomCallResolver = std::function<shardgen_custom_call_fn(const std::string &target)>;

struct EvalOptions {
  /// The only source of custom_call functions: nothing is looked up in the
  /// process. Without one, a graph with a custom_call cannot be evaluated.
  CustomCallResolver customCallResolver;
};

/// Runs `graph` (which must be verified: every Value::type set) on `inputs`,
/// one per graph input with exactly its type, and returns one Literal per
/// graph output. Throws GraphError naming the input ("/inputs/1") on a count
/// or type mismatch, and at the op for a custom_call target that cannot be
/// resolved.
std::vector<Literal> evaluate(const Graph &graph, const std::vector<Literal> &inputs,
                              const EvalOptions &options = {});

} // namespace shardgen
