#include "compiler/cli/Pipeline.h"

#include <iostream>

#include "compiler/cli/FileErrors.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/GraphSource.h"
#include "compiler/cli/MeshOverride.h"
#include "compiler/cli/OutputWriting.h"
#include "compiler/cli/TerminalText.h"

namespace shardgen::cli {

namespace {

constexpr const char *kStageNames[] = {"verify", "propagate", "partition", "codegen"};

std::string stageList(Stage last) {
  std::string list;
  for (int s = 0; s <= static_cast<int>(last); ++s)
    list += std::string(s ? ", " : "") + kStageNames[s];
  return list;
}

/// What the progress line calls a stage.
std::string progressName(const std::string &stage) {
  static const std::pair<const char *, const char *> names[] = {
      {"read", "reading"},           {"verify", "verifying"},        {"propagate", "propagating"},
      {"partition", "partitioning"}, {"generate", "generating C++"}, {"JIT", "compiling (JIT)"}};
  for (auto [timing, shown] : names)
    if (stage == timing)
      return shown;
  return stage;
}

} // namespace

std::vector<OptionSpec> withPipelineOptions(std::vector<OptionSpec> options, Stage last) {
  options.push_back(kMeshOption);
  options.push_back(
      {"--dump-after", OptionSpec::Value, "STAGE",
       "print the program after STAGE (" + stageList(last) + ") on stdout and stop there"});
  options.push_back({"--dump-file", OptionSpec::Value, "FILE",
                     "with --dump-after: write the dump to FILE instead and go on"});
  options.push_back(kProgressOption);
  options.push_back(kNoProgressOption);
  return options;
}

Pipeline::Pipeline(const ParsedArgs &args, std::string graphPath, Stage last)
    : args_(args), path_(std::move(graphPath)), progress_(args) {
  if (auto name = args.value("--dump-after")) {
    for (int s = 0; s <= static_cast<int>(last); ++s)
      if (*name == kStageNames[s])
        dumpAfter_ = static_cast<Stage>(s);
    if (!dumpAfter_)
      throw UsageError("--dump-after takes one of " + stageList(last) + " here, not '" + *name +
                       "'");
  } else if (args.has("--dump-file")) {
    throw UsageError("--dump-file needs --dump-after STAGE");
  }
}

namespace {

/// The --dump-after stage a pass ends, if any.
std::optional<Stage> dumpStage(pipeline::Pass pass) {
  switch (pass) {
  case pipeline::Pass::Verify:
    return Stage::Verify;
  case pipeline::Pass::Propagate:
    return Stage::Propagate;
  case pipeline::Pass::Partition:
    return Stage::Partition;
  case pipeline::Pass::Generate:
    return Stage::Codegen;
  default:
    return std::nullopt;
  }
}

} // namespace

void Pipeline::runPass(pipeline::Pass pass, const std::function<void()> &work) {
  ScopedProgressSink sink(&progress_); // what the pass reports goes to the progress line
  progress_.beginStage(progressName(std::string(pipeline::passName(pass))));
  struct EndStage {
    ProgressLine &line;
    ~EndStage() { line.endStage(); }
  } end{progress_};
  if (pass == pipeline::Pass::Jit)
    work(); // its errors name no place in the graph
  else
    atFile(path_, work);
}

void Pipeline::warn(pipeline::Pass, const std::vector<std::string> &warnings) {
  // after the progress line is gone
  for (const std::string &warning : warnings)
    std::cerr << displayName(path_) << ": warning: " << printable(warning) << "\n";
}

bool Pipeline::afterPass(pipeline::Pass pass, const std::function<std::string()> &dump) {
  if (!dumpAfter_ || dumpStage(pass) != dumpAfter_)
    return false;
  // The per-device program holds the graph's names, which may hold controls.
  std::string text = pass == pipeline::Pass::Partition ? printableLines(dump()) : dump();
  if (auto file = args_.value("--dump-file")) {
    writeTextFile(*file, text);
    return false;
  }
  std::cout << text;
  return true;
}

Graph Pipeline::load() {
  Graph graph = passes_.read([&] { return readGraphSource(path_); });
  applyMeshOverride(args_, graph);
  try {
    passes_.verify(graph);
  } catch (const FileGraphError &error) {
    if (!args_.has("--mesh"))
      throw;
    throw FileGraphError(error.file(), error.pointer(),
                         std::string(error.what()) + " (with --mesh " + *args_.value("--mesh") +
                             ")");
  }
  return graph;
}

PropagationResult Pipeline::propagate(const Graph &graph, PropagationStrategy strategy) {
  return passes_.propagate(graph, strategy);
}

std::optional<Pipeline::Propagated> Pipeline::loadAndPropagate(PropagationStrategy strategy) {
  Graph graph = load();
  if (stopped())
    return std::nullopt;
  PropagationResult result = propagate(graph, strategy);
  if (stopped())
    return std::nullopt;
  return Propagated{std::move(graph), std::move(result)};
}

SpmdProgram Pipeline::partition(Graph &graph, const PropagationResult &result) {
  return passes_.partition(graph, result);
}

GeneratedProgram Pipeline::generate(const SpmdProgram &program, const AotOptions &options) {
  return passes_.generate(program, options);
}

} // namespace shardgen::cli
