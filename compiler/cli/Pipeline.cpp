#include "compiler/cli/Pipeline.h"

#include <iostream>

#include "compiler/cli/FileErrors.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/MeshOverride.h"
#include "compiler/cli/OutputWriting.h"
#include "compiler/cli/TerminalText.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/partition/Partitioner.h"
#include "compiler/show/ProgramPrinter.h"

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

Pipeline::StageScope::StageScope(Pipeline &pipeline, const std::string &name)
    : pipeline(pipeline), name(name), sink(&pipeline.progress_),
      start(std::chrono::steady_clock::now()) {
  pipeline.progress_.beginStage(progressName(name));
}

Pipeline::StageScope::~StageScope() {
  pipeline.progress_.endStage();
  pipeline.timings_.emplace_back(
      name,
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
}

void Pipeline::dumpIfAsked(Stage stage, const std::function<std::string()> &text) {
  if (dumpAfter_ != stage)
    return;
  if (auto file = args_.value("--dump-file")) {
    writeTextFile(*file, text());
    return;
  }
  std::cout << text();
  stopped_ = true;
}

Graph Pipeline::load() {
  Graph graph = stage("read", [&] { return readGraphAt(path_); });
  applyMeshOverride(args_, graph);
  stage("verify", [&] {
    try {
      verifyGraphAt(path_, graph);
    } catch (const FileGraphError &error) {
      if (!args_.has("--mesh"))
        throw;
      throw FileGraphError(error.file(), error.pointer(),
                           std::string(error.what()) + " (with --mesh " + *args_.value("--mesh") +
                               ")");
    }
  });
  dumpIfAsked(Stage::Verify, [&] { return writeGraph(graph); });
  return graph;
}

PropagationResult Pipeline::propagate(const Graph &graph, PropagationStrategy strategy) {
  PropagationResult result = stage("propagate", [&] {
    return atFile(path_, [&] { return propagateShardings(graph, strategy); });
  });
  printPropagationWarnings(path_, result); // after the progress line is gone
  dumpIfAsked(Stage::Propagate, [&] {
    Graph propagated = graph.clone();
    applyPropagation(propagated, result);
    return writeGraph(propagated);
  });
  return result;
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
  SpmdProgram program = stage("partition", [&] {
    return atFile(path_, [&] {
      applyPropagation(graph, result);
      return partitionProgram(graph);
    });
  });
  dumpIfAsked(Stage::Partition, [&] { return printableLines(show::printProgram(program)); });
  return program;
}

GeneratedProgram Pipeline::generate(const SpmdProgram &program, const AotOptions &options) {
  GeneratedProgram generated = stage(
      "generate", [&] { return atFile(path_, [&] { return generateProgram(program, options); }); });
  dumpIfAsked(Stage::Codegen, [&] { return generated.source; });
  return generated;
}

} // namespace shardgen::cli
