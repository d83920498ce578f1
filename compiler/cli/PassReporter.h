#pragma once
// The compiler's passes (compiler/pipeline/Pipeline.h: read, verify,
// propagate, partition, generate, JIT) as a command runs them on its graph
// file, with what every command offers around them:
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

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "compiler/cli/CommandLine.h"
#include "compiler/cli/ProgressLine.h"
#include "compiler/pipeline/Pipeline.h"

namespace shardgen::cli {

/// The stages --dump-after names, in pipeline order.
enum class Stage { Verify, Propagate, Partition, Codegen };

/// --mesh, --dump-after, --dump-file, --progress, --no-progress for a command
/// whose last stage is `last`, after the command's own `options`.
std::vector<OptionSpec> withPipelineOptions(std::vector<OptionSpec> options, Stage last);

/// The pipeline's observer for a command: errors carry the graph file's
/// name, passes draw the progress line, dumps go to stdout or --dump-file.
class Pipeline : private pipeline::PassObserver {
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
  std::unique_ptr<CompiledProgram>
  jit(const SpmdProgram &program, const GeneratedProgram &generated, const JitOptions &options) {
    return passes_.jit(program, generated, options);
  }

  /// The dump went to stdout: the command does nothing more.
  bool stopped() const { return passes_.stopped(); }
  /// Milliseconds per pass run so far, in order ("read", "verify", ...).
  const std::vector<std::pair<std::string, double>> &timings() const { return passes_.timings(); }
  const std::string &graphPath() const { return path_; }

private:
  void runPass(pipeline::Pass pass, const std::function<void()> &work) override;
  void warn(pipeline::Pass pass, const std::vector<std::string> &warnings) override;
  bool afterPass(pipeline::Pass pass, const std::function<std::string()> &dump) override;

  const ParsedArgs &args_;
  std::string path_;
  std::optional<Stage> dumpAfter_;
  ProgressLine progress_;
  pipeline::Pipeline passes_{this};
};

} // namespace shardgen::cli
