#pragma once
// What every command shows around the compiler's passes (the one pipeline,
// compiler/pipeline): a pipeline::PassObserver for the command's graph file.
//
//   --dump-after STAGE     the program after verify or propagate (the graph
//                          as JSON), partition (the per-device program as
//                          text, show/ProgramPrinter) or codegen (the C++);
//                          on stdout, and the command stops there (the pass
//                          throws pipeline::Stopped, main exits 0: stdout
//                          holds the dump only), or with --dump-file FILE
//                          written there and the command goes on;
//   the progress line      (ProgressLine) while a pass runs;
//   errors                 of a pass, as FILE:POINTER: error: ... of the graph;
//   warnings               of propagation, on stderr.
//
// A command runs:
//   PassReporter reporter(args, path, Pass::Partition);
//   pipeline::Pipeline passes(&reporter);
//   Graph graph = loadGraph(passes, args, path); // read, --mesh, verify
//   PropagationResult result = passes.propagate(graph, strategy); ...

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "compiler/cli/CommandLine.h"
#include "compiler/cli/ProgressLine.h"
#include "compiler/pipeline/Pass.h"

namespace shardgen::cli {

/// --mesh, --dump-after, --dump-file, --progress, --no-progress for a command
/// whose last pass is `last`, after the command's own `options`.
std::vector<OptionSpec> withPipelineOptions(std::vector<OptionSpec> options, pipeline::Pass last);

class PassReporter : public pipeline::PassObserver {
public:
  /// Everything shown: what a person at a terminal sees.
  enum class Mode { Shown, Quiet };

  /// Checks the options (a --dump-after stage after `last` is a
  /// UsageError). Quiet (an MPI rank: its launcher showed the progress,
  /// dumps and warnings): errors carry the file's name, nothing else.
  PassReporter(const ParsedArgs &args, std::string graphPath, pipeline::Pass last,
               Mode mode = Mode::Shown);

  void runPass(pipeline::Pass pass, const std::function<void()> &work) override;
  void warn(pipeline::Pass pass, const std::vector<std::string> &warnings) override;
  bool afterPass(pipeline::Pass pass, const std::function<std::string()> &dump) override;

private:
  const ParsedArgs &args_;
  std::string path_;
  std::optional<pipeline::Pass> dumpAfter_;
  std::optional<ProgressLine> progress_; // none when quiet
};

} // namespace shardgen::cli
