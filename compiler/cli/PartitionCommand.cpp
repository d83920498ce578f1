// shardgen partition GRAPH [-o OUT.txt] [--strategy S]: the partitioned
// per-device program as text (compiler/show/ProgramPrinter), what
// `--dump-after partition` prints for run, compile and show.

#include <iostream>

#include "compiler/cli/Command.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/OutputWriting.h"
#include "compiler/cli/PassReporter.h"
#include "compiler/cli/StrategyOption.h"
#include "compiler/cli/TerminalText.h"
#include "compiler/show/ProgramPrinter.h"

namespace shardgen::cli {

static int runPartition(const ParsedArgs &args) {
  const std::string &path = args.positionals[0];
  PropagationStrategy strategy = strategyOption(args);
  PassReporter reporter(args, path, pipeline::Pass::Partition);
  pipeline::Pipeline passes(&reporter);
  Graph graph = loadGraph(passes, args, path);
  PropagationResult result = passes.propagate(graph, strategy);
  SpmdProgram program = passes.partition(graph, result);
  std::string text = printableLines(show::printProgram(program)); // names may hold controls
  if (auto out = args.value("-o"))
    writeTextFile(*out, text);
  else
    std::cout << text;
  return kSuccess;
}

const Command &partitionCommand() {
  static const Command command{
      {"partition",
       "print the partitioned per-device program",
       "GRAPH [-o OUT.txt] [--strategy S] [--mesh AXIS=SIZE,...]",
       "Propagates shardings and partitions GRAPH as run and compile do, and prints the\n"
       "program every device runs: the mesh; each value's global type, sharding and local\n"
       "types (the devices holding each distinct local shape; short and empty pieces of\n"
       "uneven shardings marked); each step in order, an op on its local types or a\n"
       "reshard as its collective (kind, axes, device groups, bytes sent and received per\n"
       "device) with the op it serves. Deterministic: the same graph prints the same text.",
       {"GRAPH"},
       withPipelineOptions(
           {{"-o", OptionSpec::Value, "OUT.txt", "write the program to OUT.txt (default: stdout)"},
            kStrategyOption},
           pipeline::Pass::Partition)},
      runPartition};
  return command;
}

} // namespace shardgen::cli
