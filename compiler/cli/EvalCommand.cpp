// shardgen eval GRAPH --inputs A.npy ... -o DIR: the unsharded reference
// interpreter on the whole graph.

#include "compiler/cli/Command.h"
#include "compiler/cli/CustomCallsOption.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/MaxMemoryOption.h"
#include "compiler/cli/OutputWriting.h"
#include "compiler/cli/PassReporter.h"
#include "compiler/cli/RunCommand.h"
#include "compiler/interp/Interpreter.h"

namespace shardgen::cli {

static int runEval(const ParsedArgs &args) {
  const std::string &path = args.positionals[0];
  driver::MemoryLimit limit = memoryLimit(args);
  PassReporter reporter(args, path, pipeline::Pass::Verify);
  pipeline::Pipeline passes(&reporter);
  Graph graph = loadGraph(passes, args, path);
  atFile(path, [&] { driver::requireFits("eval", driver::interpreterDemand(graph), limit); });
  std::unique_ptr<driver::CustomCallLibrary> library = customCallLibraryFromArgs(args);
  CustomCallFunctions customCalls =
      atFile(path, [&] { return customCallFunctions(graph, library.get()); });
  std::vector<Literal> inputs = inputsFromArgs(graph, path, args);
  EvalOptions options = driver::evalOptionsWith(customCalls);
  options.timeoutSeconds = timeoutOption(args);
  std::vector<Literal> outputs = atFile(path, [&] { return evaluate(graph, inputs, options); });
  emitOutputs(args, outputs);
  return kSuccess;
}

const Command &evalCommand() {
  static const Command command{
      {"eval",
       "run the unsharded reference interpreter",
       "GRAPH [--inputs A.npy B.npy ...] [-o DIR] [--max-memory SIZE] [--timeout SECONDS] "
       "[--custom-calls LIB.so]",
       "Runs GRAPH on the unsharded reference interpreter. Inputs are .npy files, one per\n"
       "graph input in order, of exactly the input's type (pseudo-random when omitted).\n"
       "With -o, writes DIR/out0.npy, out1.npy, ...; without, prints the outputs.\n"
       "custom_call targets are functions of --custom-calls LIB.so, looked up there only.\n"
       "A graph needing more memory than --max-memory (default: 90% of this machine's)\n"
       "is refused before anything is allocated (exit 1). With --timeout, an evaluation\n"
       "running longer (a while loop that never ends) stops there, naming the op it was\n"
       "about to evaluate (exit 1); the clock is read before each op and loop iteration.",
       {"GRAPH"},
       withPipelineOptions(
           {{"--inputs", OptionSpec::List, "FILE", "one .npy file per graph input"},
            {"-o", OptionSpec::Value, "DIR", "write the outputs as .npy files into DIR"},
            kMaxMemoryOption,
            {"--timeout", OptionSpec::Value, "SECONDS",
             "stop the evaluation (exit 1) if it takes longer, naming the op it is in (default "
             "and 0: no limit)"},
            kCustomCallsOption},
           pipeline::Pass::Verify)},
      runEval};
  return command;
}

} // namespace shardgen::cli
