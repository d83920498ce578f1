#pragma once
// Helpers of the partitioner tests: load and verify graphs, propagate, and
// check that the simulated SPMD program computes what the interpreter does.

#include <string>
#include <vector>

#include "compiler/ir/Graph.h"
#include "compiler/partition/SpmdProgram.h"

namespace shardgen::testing {

Graph loadGraph(const std::string &json);
/// samples/<name>.json, or samples/mlir/<stem>.mlir for a name "mlir/<stem>".
Graph loadSampleGraph(const std::string &name);
/// The names of samples/*.json, sorted, then "mlir/<stem>" for samples/mlir/*.mlir.
std::vector<std::string> sampleGraphNames();

/// partitionProgram, then the SPMD coherence check (every program the
/// partitioner suites make is checked).
SpmdProgram partitionVerified(const Graph &graph);

/// Propagates shardings into the IR slots (applyPropagation).
void propagateInPlace(Graph &graph);

/// Partitions `graph`, simulates the program on random inputs and compares
/// each output with the interpreter's; returns "" when equal, else what differs.
std::string checkPartitionedEqualsInterpreter(const Graph &graph, uint64_t inputSeed);

/// The number of steps of `kind` in `program`.
size_t countSteps(const SpmdProgram &program, StepKind kind);

} // namespace shardgen::testing
