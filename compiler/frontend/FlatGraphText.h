#pragma once
// The graph writer's ops, inputs and outputs printed straight to text, the
// same bytes as printing their JSON, for the flat ones (every member a
// scalar or an array of scalars: no body, no distribution, no metadata but
// the origin). A large graph's elements are nearly all flat; the others go
// through JSON as before.

#include <string>

#include "compiler/ir/Graph.h"

namespace shardgen {

/// Each prints at indent 4 and returns true, or returns false and prints
/// nothing when the element is not flat.
bool printFlatOp(const Graph &graph, const Op &op, std::string &out);
bool printFlatInput(const Graph &graph, const RegionArgument &input, std::string &out);
bool printFlatOutput(const Graph &graph, const RegionResult &output, std::string &out);

} // namespace shardgen
