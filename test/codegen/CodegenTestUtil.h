#pragma once
// The codegen suites' end-to-end check: a graph is propagated, partitioned,
// generated, JIT-compiled and run on the threads runtime, and its outputs
// compared with the reference interpreter's.

#include <string>

#include "compiler/ir/Graph.h"
#include "compiler/partition/SpmdProgram.h"

namespace shardgen::testing {

/// Reads and verifies a graph from JSON text.
Graph loadVerified(const std::string &json);

/// propagateAndPartition, then the SPMD coherence check (every program the
/// codegen suites partition is checked).
SpmdProgram partitionVerified(Graph &graph);

/// "" when the compiled program's outputs equal the interpreter's on inputs
/// drawn from `seed`; else what differs (or what failed).
std::string checkCompiledEqualsInterpreter(Graph &graph, uint64_t seed);

} // namespace shardgen::testing
