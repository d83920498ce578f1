#pragma once
// The stages a command runs on its graph, in order (read, verify, propagate,
// partition, generate, JIT), with what every command offers around them:
//
//   --mesh AXIS=SIZE,...   axis sizes replaced between reading and verifying;
//   --dump-after STAGE     the program after verify or propagate (the graph
//                          as JSON), partition (the per-device program as
//                          text, show/ProgramPrinter) or codegen (the C++);
//                          on stdout, and the command stops there (stdout
//                          holds the dump only), or with --dump-file FILE
//                          written there and the command goes on;
//   the progress line      (ProgressLine) while a stage runs;
//   stage timings          for `run --repeat`.

#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/cli/CommandLine.h"
#include "compiler/cli/ProgressLine.h"
#include "compiler/codegen/CodeGenerator.h"
#include "compiler/ir/Graph.h"
#include "compiler/partition/SpmdProgram.h"
#include "compiler/propagate/Propagation.h"

namespace shardgen::cli {

/// The stages --dump-after names, in pipeline order.
enum class Stage { Verify, Propagate, Partition, Codegen };

/// --mesh, --dump-after, --dump-file, --progress, --no-progress for a command
/// whose last stage is `last`, after the command's own `options`.
std::vector<OptionSpec> withPipelineOptions(std::vector<OptionSpec> options, Stage last);

class Pipeline {
public:
  /// Checks the options (a --dump-after stage the command does not run is a
  /// UsageError).
  Pipeline(const ParsedArgs &args, std::string graphPath, Stage last);

  /// Reads GRAPH, applies --mesh, verifies.
  Graph load();
  /// Propagates the verified graph (warnings on stderr).
  PropagationResult propagate(const Graph &graph, PropagationStrategy strategy);
  /// load() then propagate(), as most commands start; nullopt when a dump
  /// on stdout stopped the command after either.
  struct Propagated {
    Graph graph;
    PropagationResult result;
  };
  std::optional<Propagated> loadAndPropagate(PropagationStrategy strategy);
  /// Writes `result` into `graph` and partitions it (the program points into it).
  SpmdProgram partition(Graph &graph, const PropagationResult &result);
  GeneratedProgram generate(const SpmdProgram &program, const AotOptions &options = {});
  /// Runs `work` as the timed stage `name` under the progress line.
  template <typename Work> auto stage(const std::string &name, Work &&work) {
    StageScope scope(*this, name);
    return work();
  }

  /// The dump went to stdout: the command does nothing more.
  bool stopped() const { return stopped_; }
  /// Milliseconds per stage run so far, in order ("read", "verify", ...).
  const std::vector<std::pair<std::string, double>> &timings() const { return timings_; }
  const std::string &graphPath() const { return path_; }

private:
  struct StageScope {
    StageScope(Pipeline &pipeline, const std::string &name);
    ~StageScope();
    Pipeline &pipeline;
    std::string name;
    ScopedProgressSink sink; // what the stage reports goes to the progress line
    std::chrono::steady_clock::time_point start;
  };
  /// After `stage`: the dump if it was asked for there.
  void dumpIfAsked(Stage stage, const std::function<std::string()> &text);

  const ParsedArgs &args_;
  std::string path_;
  std::optional<Stage> dumpAfter_;
  bool stopped_ = false;
  ProgressLine progress_;
  std::vector<std::pair<std::string, double>> timings_;
};

} // namespace shardgen::cli
