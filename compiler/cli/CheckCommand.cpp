// shardgen check GRAPH: read and verify only.

#include <iostream>

#include "compiler/cli/Command.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/PassReporter.h"

namespace shardgen::cli {

static int runCheck(const ParsedArgs &args) {
  const std::string &path = args.positionals[0];
  PassReporter reporter(args, path, pipeline::Pass::Verify);
  pipeline::Pipeline passes(&reporter);
  Graph graph = loadGraph(passes, args, path);
  size_t numOps = 0;
  walkOps(graph.main, [&](const Op &) { ++numOps; });
  std::cout << displayName(path) << ": ok (" << graph.main.args.size() << " inputs, " << numOps
            << " ops, " << graph.main.results.size() << " outputs, " << graph.meshes.size()
            << (graph.meshes.size() == 1 ? " mesh)" : " meshes)") << "\n";
  return kSuccess;
}

const Command &checkCommand() {
  static const Command command{
      {"check",
       "verify a graph",
       "GRAPH",
       "Reads and verifies GRAPH (types, shardings against meshes, sharding groups, manual\n"
       "computation invariants). Prints a one-line summary, or the first error as\n"
       "FILE:JSON-POINTER: error: MESSAGE with exit status 1.",
       {"GRAPH"},
       withPipelineOptions({}, pipeline::Pass::Verify)},
      runCheck};
  return command;
}

} // namespace shardgen::cli
