#pragma once
// Loading what commands work on: the verified graph and its input tensors.

#include <string>
#include <vector>

#include "compiler/cli/CommandLine.h"
#include "compiler/cli/FileErrors.h"
#include "compiler/ir/Graph.h"
#include "compiler/ir/Literal.h"
#include "compiler/pipeline/Pipeline.h"

namespace shardgen::cli {

/// The read and verify passes of `passes` on GRAPH (JSON or MLIR text, see
/// GraphSource.h), with --mesh applied between them: every value's type is
/// then known. `mlirFunction`: the entry function of an MLIR module.
Graph loadGraph(pipeline::Pipeline &passes, const ParsedArgs &args, const std::string &graphPath,
                const std::string &mlirFunction = "");

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
