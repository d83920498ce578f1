#pragma once
// Where a graph comes from: a JSON graph file, or MLIR text (StableHLO + sdy)
// chosen by the `.mlir` extension or by content. For MLIR, errors of every
// stage are reported at the line and column of the .mlir file instead of a
// JSON pointer.

#include <string>
#include <utility>

#include "compiler/ir/Graph.h"

namespace shardgen::cli {

/// Reads GRAPH into the IR (not verified). `mlirFunction`: the entry
/// function of an MLIR module (empty: @main).
Graph readGraphSource(const std::string &graphPath, const std::string &mlirFunction = "");

/// How an error at `pointer` of the file shown as `file` is printed: the
/// place ("12:5" for MLIR, else the pointer) and the message (with the op's
/// source location, when the MLIR text gave one).
std::pair<std::string, std::string>
placeOfError(const std::string &file, const std::string &pointer, const std::string &message);

} // namespace shardgen::cli
