#pragma once
// The codegen suites' end-to-end check: a graph is propagated, partitioned,
// generated, JIT-compiled and run on the threads runtime, and its outputs
// compared with the reference interpreter's.

#include <string>
#include <vector>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/ir/Graph.h"
#include "compiler/jit/JitCompiler.h"
#include "compiler/partition/SpmdProgram.h"

namespace shardgen::testing {

/// Reads and verifies a graph from JSON text.
Graph loadVerified(const std::string &json);

/// The JSON text of samples/NAME.json.
std::string sample(const std::string &name);

/// A graph named `name` on mesh "m" = [x=2, y=2] with the JSON texts of its
/// inputs, ops and outputs (each the inside of its array).
std::string graphOn2x2(const std::string &name, const std::string &inputs, const std::string &ops,
                       const std::string &outputs);

/// How often `needle` occurs in `text` (overlaps counted).
size_t countOccurrences(const std::string &text, const std::string &needle);

/// propagateAndPartition, then the SPMD coherence check (every program the
/// codegen suites partition is checked).
SpmdProgram partitionVerified(Graph &graph);

/// The C++ source generated for the graph `json` (loaded, verified,
/// partitioned).
std::string generatedSource(const std::string &json);

/// The distance of `got` from the true value `exact` in f32 ulps at `exact`.
double ulpsFrom(double got, double exact);

/// The compiled program's outputs on `inputs` (its generated C++ in
/// `source` if given).
std::vector<Literal> runCompiled(Graph &graph, const std::vector<Literal> &inputs,
                                 std::string *source = nullptr);

/// "" when the compiled program's outputs agree with the interpreter's on
/// inputs drawn from `seed`, each element within its error bound (as `run
/// --check`); else what differs (or what failed).
std::string checkCompiledEqualsInterpreter(Graph &graph, uint64_t seed);
/// As above, generated with `options` and compiled with `jitOptions`.
std::string checkCompiledEqualsInterpreter(Graph &graph, uint64_t seed, const AotOptions &options,
                                           const JitOptions &jitOptions);

} // namespace shardgen::testing
