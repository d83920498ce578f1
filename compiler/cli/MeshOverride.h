#pragma once
// --mesh AXIS=SIZE[,AXIS=SIZE...]: try another mesh without editing the graph.
// The sizes replace those of the graph's mesh axes of those names (in every
// mesh that has the axis) before verification.

#include <string>

#include "compiler/cli/CommandLine.h"
#include "compiler/ir/Graph.h"

namespace shardgen::cli {

extern const OptionSpec kMeshOption;

/// Applies --mesh to `graph` (nothing without it). A size that is not an
/// integer in [1, 2^20], an axis no mesh has, or a mesh whose device_ids no
/// longer match its device count is an InputError at "--mesh" (exit 1).
void applyMeshOverride(const ParsedArgs &args, Graph &graph);

} // namespace shardgen::cli
