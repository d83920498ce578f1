#pragma once
// The verifier: checks a graph read by the frontend against the graph format's
// rules (meshes, op types, shardings, manual computations, sharding groups,
// collectives, custom_call rules) and infers every op result type.
//
// Errors are GraphError(jsonPointer, message) at the first offending place in
// file order, in the words StableHLO and Shardy use for the same mistake.

#include <string>
#include <vector>

#include "compiler/ir/Graph.h"

namespace shardgen {

/// Verifies the whole graph. On success every Value has a type (op results
/// get the inferred type, checked against any `type`/`types` the file gave).
void verifyGraph(Graph &graph);

/// Every value's size in bytes fits in int64_t (so no later element-count or
/// byte arithmetic overflows). Throws GraphError at the first that does not.
void checkTensorSizes(const Graph &graph);

/// The result types `op` infers from its operands' types (which must be set)
/// and attributes. For ops whose types cannot be inferred (reshape, convert,
/// custom_call, ...) the declared types are used. Collectives and nested
/// manual computations take their axis sizes from the enclosing manual
/// computations. Throws GraphError when the op is invalid.
std::vector<TensorType> inferResultTypes(const Graph &graph, const Op &op);

/// Checks a sharding against its tensor type and the graph's meshes with all
/// of Shardy's rules (mesh exists, one dim sharding per dim, axes exist, sub-
/// axes valid, no axis twice, replicated/unreduced ordered, ...). `pointer`
/// names the sharding in error messages. Propagation output must pass it.
void verifySharding(const TensorSharding &sharding, const TensorType &type, const Graph &graph,
                    const std::string &pointer);

} // namespace shardgen
