// shardgen run GRAPH [--inputs A.npy ...] [-o DIR] [--check] [--strategy S]:
// propagate, partition, generate C++, compile it in-process (clang + ORC
// JIT) and run it with one thread per device of the mesh.

#include <iostream>
#include <limits>
#include <optional>

#include "compiler/cli/Command.h"
#include "compiler/cli/CustomCallLibrary.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/MemoryBudget.h"
#include "compiler/cli/OutputWriting.h"
#include "compiler/cli/StrategyOption.h"
#include "compiler/cli/VerifySpmdOption.h"
#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/codegen/ResultCheck.h"
#include "compiler/codegen/ShardedProgram.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/partition/CommunicationManifest.h"
#include "compiler/partition/ProgramMesh.h"
#include "runtime/include/shardgen/launch.h"

namespace shardgen::cli {

/// The whole of `text` as a number in [0, max], else nullopt (NaN and text
/// after the number are refused too).
static std::optional<double> numberIn(const std::string &text, double max) {
  size_t used = 0;
  double value = -1;
  try {
    value = std::stod(text, &used);
  } catch (const std::exception &) {
  }
  if (used != text.size() || !(value >= 0 && value <= max))
    return std::nullopt;
  return value;
}

/// --rtol/--atol: a finite non-negative number.
static std::optional<double> toleranceOption(const ParsedArgs &args, const std::string &name) {
  std::optional<std::string> text = args.value(name);
  if (!text)
    return std::nullopt;
  std::optional<double> value = numberIn(*text, std::numeric_limits<double>::max());
  if (!value)
    throw UsageError(name + " needs a finite non-negative number, not '" + *text + "'");
  return value;
}

/// `--timeout SECONDS`: 0 (the default) is no limit.
static double timeoutOption(const ParsedArgs &args) {
  std::optional<std::string> text = args.value("--timeout");
  if (!text)
    return 0;
  std::optional<double> seconds = numberIn(*text, 1e9);
  if (!seconds)
    throw UsageError("--timeout takes a number of seconds, not '" + *text + "'");
  return *seconds;
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
  const ToleranceOverride tolerance{toleranceOption(args, "--rtol"),
                                    toleranceOption(args, "--atol")};
  MemoryLimit limit = memoryLimit(args);
  double timeout = timeoutOption(args);
  const bool shards = args.has("--shards");
  if (shards && !args.value("-o"))
    throw UsageError("--shards needs -o DIR (the local buffers are written there)");
  Graph graph = loadVerifiedGraph(path);
  requireThreadsBackendFits(path, graph);
  std::unique_ptr<CustomCallLibrary> library = customCallLibraryFromArgs(args);
  CustomCallFunctions customCalls =
      atFile(path, [&] { return customCallFunctions(graph, library.get()); });
  SpmdProgram program = atFile(path, [&] { return propagateAndPartition(graph, strategy); });
  MemoryDemand demand = meshRunDemand(program);
  if (args.has("--check")) // the reference interpreter runs too
    demand.bytes = saturatingAdd(demand.bytes, interpreterDemand(graph).bytes);
  requireFits(path, "run", demand, limit);
  std::vector<Literal> inputs = inputsFromArgs(graph, path, args);
  verifySpmdIfAsked(args, path, program);
  if (args.has("--report"))
    std::cout << formatManifest(computeManifest(program), program);
  GeneratedProgram generated = atFile(path, [&] { return generateProgram(program); });
  CompiledProgram compiled(program, generated, generatedCodeJitOptions(customCalls));
  std::vector<Literal> outputs;
  std::vector<std::vector<Literal>> localBuffers; // with --shards: [output][position]
  try {
    outputs = shards ? compiled.run(inputs, runtime::LaunchOptions{timeout}, localBuffers)
                     : compiled.run(inputs, runtime::LaunchOptions{timeout});
  } catch (const runtime::RunTimeout &error) {
    throw InputError(displayName(path), error.what());
  }

  if (args.has("--check")) {
    BoundedEvaluation expected = atFile(
        path, [&] { return evaluateWithBounds(graph, inputs, evalOptionsWith(customCalls)); });
    if (auto mismatch = compareOutputs(outputs, expected, tolerance, outputNames(graph))) {
      std::cerr << displayName(path) << ": check failed: " << mismatch->describe()
                << " (reference interpreter)\n";
      return kCheckFailed;
    }
    std::cerr << displayName(path) << ": check passed: " << outputs.size()
              << " outputs agree with the reference interpreter's on " << program.mesh.numDevices()
              << " devices\n";
  }
  if (shards)
    writeOutputs(*args.value("-o"), outputs, localBuffers);
  else
    emitOutputs(args, outputs);
  return kSuccess;
}

const Command &runCommand() {
  static const Command command{
      {"run", "partition, JIT-compile and run on a device mesh (--check against the reference)",
       "GRAPH [--inputs A.npy B.npy ...] [-o DIR] [--check] [--rtol R] [--atol A] [--report] "
       "[--max-memory SIZE] [--timeout SECONDS] [--strategy S] [--custom-calls LIB.so] "
       "[--verify-spmd] [--shards]",
       "Propagates shardings, partitions GRAPH over its mesh, generates C++, compiles it\n"
       "in-process (clang + LLVM ORC JIT) and runs it with one thread per device.\n"
       "Inputs are .npy files, one per graph input (pseudo-random when omitted). With\n"
       "--check, compares with the reference interpreter and exits 3 on a difference.\n"
       "Each float element must be within the error bound the interpreter computes\n"
       "for it (sums in another order, approximated exp/tanh/logistic, propagated\n"
       "through the following ops; 0 where the computation is the same, so bit-exact);\n"
       "--rtol/--atol replace that bound by ATOL + RTOL * |expected|. Integers and i1\n"
       "compare exactly; NaN matches only NaN; infinities must match exactly.\n"
       "With -o, writes DIR/out0.npy, out1.npy, ...; without, prints the outputs.\n"
       "With --shards also DIR/out<j>.dev<p>.npy: device position p's local buffer of\n"
       "output j (its exact piece for a sharding, [k, shard_shape...] for a distribution).\n"
       "custom_call targets are functions of --custom-calls LIB.so, looked up there only.\n"
       "Refused up front (exit 1): a mesh of more than 512 devices, and a run needing\n"
       "more memory than --max-memory (default: 90% of this machine's).",
       {"GRAPH"},
       {{"--inputs", OptionSpec::List, "FILE", "one .npy file per graph input"},
        {"-o", OptionSpec::Value, "DIR", "write the outputs as .npy files into DIR"},
        {"--check", OptionSpec::Flag, "", "compare with the reference interpreter"},
        {"--shards", OptionSpec::Flag, "",
         "with -o: also write each device's local buffer of each output (out<j>.dev<p>.npy)"},
        {"--rtol", OptionSpec::Value, "R",
         "with --check: allowed relative difference (replaces the computed bound)"},
        {"--atol", OptionSpec::Value, "A",
         "with --check: allowed absolute difference (replaces the computed bound)"},
        {"--report", OptionSpec::Flag, "",
         "print the communication manifest (collectives, bytes, peak memory) first"},
        kMaxMemoryOption,
        {"--timeout", OptionSpec::Value, "SECONDS",
         "end the run (exit 1) if it takes longer, saying where each device waits (default "
         "and 0: no limit)"},
        kStrategyOption, kCustomCallsOption, kVerifySpmdOption}},
      runRun};
  return command;
}

} // namespace shardgen::cli
