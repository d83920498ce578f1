// shardgen run GRAPH [--inputs A.npy ...] [-o DIR] [--check] [--strategy S]:
// propagate, partition, generate C++, compile it in-process (clang + ORC
// JIT) and run it with one thread per device of the mesh.

#include <iostream>

#include "compiler/cli/Command.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/MemoryBudget.h"
#include "compiler/cli/OutputWriting.h"
#include "compiler/cli/StrategyOption.h"
#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/codegen/ResultCheck.h"
#include "compiler/codegen/ShardedProgram.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/partition/CommunicationManifest.h"
#include "compiler/partition/ProgramMesh.h"
#include "runtime/include/shardgen/launch.h"

namespace shardgen::cli {

/// `--timeout SECONDS`: 0 (the default) is no limit.
static double timeoutOption(const ParsedArgs &args) {
  auto text = args.value("--timeout");
  if (!text)
    return 0;
  try {
    size_t used = 0;
    double seconds = std::stod(*text, &used);
    if (used == text->size() && seconds >= 0 && seconds <= 1e9)
      return seconds;
  } catch (const std::exception &) {
  }
  throw UsageError("--timeout takes a number of seconds, not '" + *text + "'");
}

/// The threads backend runs one OS thread per device: larger meshes are
/// refused before anything is compiled.
static void requireThreadsBackendFits(const std::string &path, const Graph &graph) {
  Mesh mesh = atFile(path, [&] { return programMesh(graph); });
  if (mesh.numDevices() <= runtime::kMaxThreadsDevices)
    return;
  throw FileGraphError(displayName(path), mesh.pointer,
                       "mesh @" + mesh.name + " has " + std::to_string(mesh.numDevices()) +
                           " devices, but run's threads backend runs at most " +
                           std::to_string(runtime::kMaxThreadsDevices) +
                           " (one thread each); use 'shardgen compile' to build the program (a "
                           "--backend mpi for run is planned but does not exist yet)");
}

static int runRun(const ParsedArgs &args) {
  const std::string &path = args.positionals[0];
  PropagationStrategy strategy = strategyOption(args);
  MemoryLimit limit = memoryLimit(args);
  double timeout = timeoutOption(args);
  Graph graph = loadVerifiedGraph(path);
  requireThreadsBackendFits(path, graph);
  SpmdProgram program = atFile(path, [&] { return propagateAndPartition(graph, strategy); });
  MemoryDemand demand = meshRunDemand(program);
  if (args.has("--check")) // the reference interpreter runs too
    demand.bytes = saturatingAdd(demand.bytes, interpreterDemand(graph).bytes);
  requireFits(path, "run", demand, limit);
  std::vector<Literal> inputs = inputsFromArgs(graph, path, args);
  if (args.has("--report"))
    std::cout << formatManifest(computeManifest(program), program);
  GeneratedProgram generated = atFile(path, [&] { return generateProgram(program); });
  CompiledProgram compiled(program, generated);
  std::vector<Literal> outputs;
  try {
    outputs = compiled.run(inputs, runtime::LaunchOptions{timeout});
  } catch (const runtime::RunTimeout &error) {
    throw InputError(displayName(path), error.what());
  }

  if (args.has("--check")) {
    std::vector<Literal> expected = atFile(path, [&] { return evaluate(graph, inputs); });
    if (auto mismatch = compareOutputs(outputs, expected)) {
      std::cerr << displayName(path) << ": check failed: " << mismatch->describe()
                << " (reference interpreter)\n";
      return kCheckFailed;
    }
    std::cerr << displayName(path) << ": check passed: " << outputs.size()
              << " outputs equal the reference interpreter's on " << program.mesh.numDevices()
              << " devices\n";
  }
  emitOutputs(args, outputs);
  return kSuccess;
}

const Command &runCommand() {
  static const Command command{
      {"run", "partition, JIT-compile and run on a device mesh (--check against the reference)",
       "GRAPH [--inputs A.npy B.npy ...] [-o DIR] [--check] [--report] [--max-memory SIZE]\n"
       "    [--timeout SECONDS] [--strategy S]",
       "Propagates shardings, partitions GRAPH over its mesh, generates C++, compiles it\n"
       "in-process (clang + LLVM ORC JIT) and runs it with one thread per device.\n"
       "Inputs are .npy files, one per graph input (pseudo-random when omitted). With\n"
       "--check, compares with the reference interpreter and exits 3 on a difference.\n"
       "With -o, writes DIR/out0.npy, out1.npy, ...; without, prints the outputs.\n"
       "Refused up front (exit 1): a mesh of more than 512 devices, and a run needing\n"
       "more memory than --max-memory (default: 90% of this machine's).",
       {"GRAPH"},
       {{"--inputs", OptionSpec::List, "FILE", "one .npy file per graph input"},
        {"-o", OptionSpec::Value, "DIR", "write the outputs as .npy files into DIR"},
        {"--check", OptionSpec::Flag, "", "compare with the reference interpreter"},
        {"--report", OptionSpec::Flag, "",
         "print the communication manifest (collectives, bytes, peak memory) first"},
        kMaxMemoryOption,
        {"--timeout", OptionSpec::Value, "SECONDS",
         "end the run (exit 1) if it takes longer, saying where each device waits (default "
         "and 0: no limit)"},
        kStrategyOption}},
      runRun};
  return command;
}

} // namespace shardgen::cli
