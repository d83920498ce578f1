#pragma once
// Loading what commands work on: the verified graph and its input tensors.

#include <string>
#include <vector>

#include "compiler/cli/CommandLine.h"
#include "compiler/cli/FileErrors.h"
#include "compiler/ir/Graph.h"
#include "compiler/ir/Literal.h"

namespace shardgen::cli {

/// Reads (JSON or MLIR text, see GraphSource.h) and verifies the graph
/// (every value's type is then known).
Graph loadVerifiedGraph(const std::string &graphPath, const std::string &mlirFunction = "");

/// The two halves of loadVerifiedGraph, for a caller working in between.
Graph readGraphAt(const std::string &graphPath, const std::string &mlirFunction = "");
void verifyGraphAt(const std::string &graphPath, Graph &graph);

/// One .npy per graph input, in order; each must have the input's exact type.
std::vector<Literal> loadInputs(const Graph &graph, const std::string &graphPath,
                                const std::vector<std::string> &files);

/// Deterministic pseudo-random inputs of the graph's input types.
std::vector<Literal> randomInputs(const Graph &graph, uint64_t seed);

/// The `--inputs` files if given, else pseudo-random inputs (with a note on
/// stderr), as `eval` and `run` take them.
std::vector<Literal> inputsFromArgs(const Graph &graph, const std::string &graphPath,
                                    const ParsedArgs &args);

} // namespace shardgen::cli
