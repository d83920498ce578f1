#include "compiler/cli/PassReporter.h"

#include <iostream>

#include "compiler/cli/FileErrors.h"
#include "compiler/cli/MeshOverride.h"
#include "compiler/cli/OutputWriting.h"
#include "compiler/cli/TerminalText.h"

namespace shardgen::cli {

namespace {

/// The dump names of the passes up to `last`: "verify, propagate, ...".
std::string dumpList(pipeline::Pass last) {
  std::string list;
  for (const pipeline::PassInfo &info : pipeline::allPasses())
    if (!info.dumpName.empty() && info.pass <= last)
      list += (list.empty() ? "" : ", ") + std::string(info.dumpName);
  return list;
}

} // namespace

std::vector<OptionSpec> withPipelineOptions(std::vector<OptionSpec> options, pipeline::Pass last) {
  options.push_back(kMeshOption);
  options.push_back(
      {"--dump-after", OptionSpec::Value, "STAGE",
       "print the program after STAGE (" + dumpList(last) + ") on stdout and stop there"});
  options.push_back({"--dump-file", OptionSpec::Value, "FILE",
                     "with --dump-after: write the dump to FILE instead and go on"});
  options.push_back(kProgressOption);
  options.push_back(kNoProgressOption);
  return options;
}

PassReporter::PassReporter(const ParsedArgs &args, std::string graphPath, pipeline::Pass last,
                           Mode mode)
    : args_(args), path_(std::move(graphPath)) {
  if (mode == Mode::Quiet)
    return;
  progress_.emplace(args);
  if (auto name = args.value("--dump-after")) {
    dumpAfter_ = pipeline::passOfDump(*name);
    if (!dumpAfter_ || *dumpAfter_ > last)
      throw UsageError("--dump-after takes one of " + dumpList(last) + " here, not '" + *name +
                       "'");
  } else if (args.has("--dump-file")) {
    throw UsageError("--dump-file needs --dump-after STAGE");
  }
}

void PassReporter::runPass(pipeline::Pass pass, const std::function<void()> &work) {
  std::optional<ScopedProgressSink> sink; // what the pass reports goes to the progress line
  struct EndStage {
    ProgressLine *line;
    ~EndStage() {
      if (line)
        line->endStage();
    }
  } end{progress_ ? &*progress_ : nullptr};
  if (progress_) {
    sink.emplace(&*progress_);
    progress_->beginStage(std::string(pipeline::passInfo(pass).doing));
  }
  if (pass == pipeline::Pass::Jit)
    work(); // its errors name no place in the graph
  else
    atFile(path_, work);
}

void PassReporter::warn(pipeline::Pass, const std::vector<std::string> &warnings) {
  if (!progress_)
    return; // quiet
  // after the progress line is gone
  for (const std::string &warning : warnings)
    std::cerr << displayName(path_) << ": warning: " << printable(warning) << "\n";
}

bool PassReporter::afterPass(pipeline::Pass pass, const std::function<std::string()> &dump) {
  if (pass != dumpAfter_)
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

} // namespace shardgen::cli
