#pragma once
// The compiler as a list of passes, each taking what the one before made
// (the models: Halide's lower_impl, Shardy's addPropagationPipeline):
//
//   read       graph text -> Graph                       compiler/frontend, mlir
//   verify     types, shardings, groups, manual bodies    compiler/verify
//   propagate  a sharding for every value                  compiler/propagate
//   partition  the per-device (SPMD) program               compiler/partition
//   generate   its C++                                     compiler/codegen
//   JIT        compiled in-process, ready to run           compiler/codegen/JitRunner
//
// (AOT: `shardgen compile` writes the generated C++ out instead of the JIT
// pass, codegen/AotWriter.) Every pass is named (Pass.h) and timed; a
// PassObserver (the CLI's progress line and --dump-after) sees each one run
// and may stop the pipeline after it. Every caller goes through this class:
// the commands and MPI ranks of the CLI, the benches, embedders. One with
// work between two passes (--mesh between read and verify, a memory check
// before generate) calls the passes one by one; one with nothing between
// calls compileGraph.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/ir/Graph.h"
#include "compiler/partition/SpmdProgram.h"
#include "compiler/pipeline/Pass.h"
#include "compiler/propagate/Propagation.h"

namespace shardgen::pipeline {

/// Milliseconds per pass run, in order ("read", "verify", ...).
using PassTimings = std::vector<std::pair<std::string, double>>;

class Pipeline {
public:
  /// `observer` (may be null) must outlive the pipeline.
  explicit Pipeline(PassObserver *observer = nullptr) : observer_(observer) {}

  /// read: `frontend` parses the graph (readGraphFile, the MLIR importer...).
  Graph read(const std::function<Graph()> &frontend);
  /// verify: the graph is well formed and every value's type is known.
  void verify(Graph &graph);
  /// propagate: a sharding for every value (not written into `graph` yet).
  PropagationResult propagate(const Graph &graph, PropagationStrategy strategy);
  /// partition: writes `result` into `graph` and partitions it (the
  /// program points into `graph`).
  SpmdProgram partition(Graph &graph, const PropagationResult &result);
  /// generate: the program's C++.
  GeneratedProgram generate(const SpmdProgram &program, const AotOptions &options = {});
  /// JIT: the C++ compiled in-process (`program` must outlive the result).
  std::unique_ptr<CompiledProgram> jit(const SpmdProgram &program,
                                       const GeneratedProgram &generated,
                                       const JitOptions &options = generatedCodeJitOptions());

  /// Milliseconds per pass run so far, in order ("read", "verify", ...).
  const PassTimings &timings() const { return timings_; }

private:
  /// Runs `work` as the timed pass `pass` under the observer.
  template <typename Work> auto run(Pass pass, Work &&work) {
    using Result = decltype(work());
    if constexpr (std::is_void_v<Result>) {
      timed(pass, work);
    } else {
      std::optional<Result> result;
      timed(pass, [&] { result.emplace(work()); });
      return std::move(*result);
    }
  }
  void timed(Pass pass, const std::function<void()> &work);
  /// The observer's afterPass; throws Stopped when it stops the pipeline.
  void after(Pass pass, const std::function<std::string()> &dump);

  PassObserver *observer_;
  PassTimings timings_;
};

/// Everything the passes made of one graph, up to the JIT.
struct CompiledGraph {
  std::unique_ptr<Graph> graph;         // the program points into it
  std::unique_ptr<SpmdProgram> program; // the compiled program points to it
  GeneratedProgram generated;
  std::unique_ptr<CompiledProgram> compiled; // null when JIT was not asked for
  PassTimings timings;
};

/// The milliseconds `timings` (Pipeline::timings) spent in `pass`.
double passMilliseconds(const PassTimings &timings, Pass pass);

/// Which passes compileGraph runs after read.
enum class Until { Partition, Generate, Jit };

/// The passes from read to `until` with nothing between (benches, tests).
CompiledGraph compileGraph(const std::function<Graph()> &frontend, Until until = Until::Jit,
                           PropagationStrategy strategy = PropagationStrategy::UserPriority);

/// propagate then partition of a verified graph (the program points into it).
SpmdProgram propagateAndPartition(Graph &graph,
                                  PropagationStrategy strategy = PropagationStrategy::UserPriority);

} // namespace shardgen::pipeline
