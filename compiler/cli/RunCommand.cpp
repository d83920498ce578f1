// shardgen run GRAPH [--inputs A.npy ...] [-o DIR] [--check] [--strategy S]
// [--backend threads|mpi [--ranks N]]: propagate, partition, generate C++,
// compile it in-process (clang + ORC JIT) and run it with one thread per
// device of the mesh, or under mpirun (MpiLauncher.h, RunCommandMpi.cpp).

#include <cstdlib>
#include <iostream>
#include <limits>
#include <optional>

#include "compiler/cli/Command.h"
#include "compiler/cli/CompileCacheOption.h"
#include "compiler/cli/CustomCallsOption.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/MaxMemoryOption.h"
#include "compiler/cli/MpiLauncher.h"
#include "compiler/cli/OutputWriting.h"
#include "compiler/cli/PassReporter.h"
#include "compiler/cli/RunCommand.h"
#include "compiler/cli/RunTimings.h"
#include "compiler/cli/StrategyOption.h"
#include "compiler/cli/VerifySpmdOption.h"
#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/driver/LaunchSettings.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ResultCheck.h"
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
    return std::nullopt; // no number, or out of double's range
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

double timeoutOption(const ParsedArgs &args) {
  std::optional<std::string> text = args.value("--timeout");
  if (!text)
    return 0;
  std::optional<double> seconds = numberIn(*text, 1e9);
  if (!seconds)
    throw UsageError("--timeout takes a number of seconds, not '" + *text + "'");
  return *seconds;
}

enum class Backend { Threads, Mpi };

static Backend backendOption(const ParsedArgs &args) {
  std::optional<std::string> name = args.value("--backend");
  if (!name || *name == "threads") {
    if (args.has("--ranks") || args.has("--mpirun-args"))
      throw UsageError("--ranks and --mpirun-args need --backend mpi");
    return Backend::Threads;
  }
  if (*name == "mpi")
    return Backend::Mpi;
  throw UsageError("--backend takes threads or mpi, not '" + *name + "'");
}

/// The threads backend runs one OS thread per device (a rank of the MPI
/// backend one per device it holds): larger counts are refused before
/// anything is compiled.
static void requireThreadsFit(const std::string &path, const Mesh &mesh, int64_t threads) {
  if (threads <= runtime::kMaxThreadsDevices)
    return;
  throw FileGraphError(displayName(path), mesh.pointer,
                       "mesh @" + mesh.name + " has " + std::to_string(mesh.numDevices()) +
                           " devices, but run runs at most " +
                           std::to_string(runtime::kMaxThreadsDevices) +
                           " threads per process (one per device); use --backend mpi --ranks N "
                           "or 'shardgen compile' to build the program");
}

/// `--ranks N` (default: one rank per device); N must divide the devices.
static int64_t ranksOption(const ParsedArgs &args, const std::string &path, const Mesh &mesh) {
  std::optional<std::string> text = args.value("--ranks");
  if (!text)
    return mesh.numDevices();
  std::optional<double> ranks = numberIn(*text, 1e6);
  if (!ranks || *ranks < 1 || *ranks != static_cast<double>(static_cast<int64_t>(*ranks)))
    throw UsageError("--ranks takes a positive whole number, not '" + *text + "'");
  auto count = static_cast<int64_t>(*ranks);
  if (mesh.numDevices() % count != 0)
    throw FileGraphError(displayName(path), mesh.pointer,
                         "--ranks " + std::to_string(count) + " does not divide the " +
                             std::to_string(mesh.numDevices()) + " devices of mesh @" + mesh.name +
                             " (each rank runs the same number of devices)");
  return count;
}

RunSettings runSettings(const ParsedArgs &args) {
  return RunSettings{
      args.positionals[0], strategyOption(args),
      ToleranceOverride{toleranceOption(args, "--rtol"), toleranceOption(args, "--atol")},
      timeoutOption(args)};
}

int checkAndEmit(const ParsedArgs &args, const RunSettings &settings, const Graph &graph,
                 const SpmdProgram &program, const std::vector<Literal> &inputs,
                 const std::vector<Literal> &outputs, const CustomCallFunctions &customCalls,
                 const std::vector<std::vector<Literal>> *localBuffers) {
  const std::string &path = settings.path;
  if (args.has("--check")) {
    BoundedEvaluation expected = atFile(path, [&] {
      EvalOptions options = driver::evalOptionsWith(customCalls);
      options.timeoutSeconds = settings.timeoutSeconds; // the reference run is bounded too
      return evaluateWithBounds(graph, inputs, options);
    });
    if (auto mismatch = compareOutputs(outputs, expected, settings.tolerance, outputNames(graph))) {
      std::cerr << displayName(path) << ": check failed: " << mismatch->describe()
                << " (reference interpreter)\n";
      return kCheckFailed;
    }
    std::cerr << displayName(path) << ": check passed: " << outputs.size()
              << " outputs agree with the reference interpreter's on " << program.mesh.numDevices()
              << " devices\n";
  }
  if (localBuffers)
    writeOutputs(*args.value("-o"), outputs, *localBuffers);
  else
    emitOutputs(args, outputs);
  return kSuccess;
}

static int runRun(const ParsedArgs &args) {
  const Backend backend = backendOption(args);
  const bool shards = args.has("--shards");
  if (shards && !args.value("-o"))
    throw UsageError("--shards needs -o DIR (the local buffers are written there)");
  if (shards && backend == Backend::Mpi)
    throw UsageError("--shards needs the threads backend (--backend mpi writes no local buffers)");
  if (backend == Backend::Mpi && isMpiRank())
    return runMpiRank(args);
  const RunSettings settings = runSettings(args);
  const std::string &path = settings.path;
  driver::MemoryLimit limit = memoryLimit(args);
  int64_t repeat = repeatOption(args);
  PassReporter reporter(args, path, pipeline::Pass::Generate);
  pipeline::Pipeline passes(&reporter);
  Graph graph = loadGraph(passes, args, path);
  Mesh mesh = atFile(path, [&] { return programMesh(graph); });
  int64_t ranks = 1;
  std::vector<std::string> mpirunArgs;
  if (backend == Backend::Mpi) {
    if (!mpiBackendBuilt())
      throw InputError("shardgen run", "this shardgen was built without MPI (install "
                                       "libopenmpi-dev and openmpi-bin, then rebuild)");
    ranks = ranksOption(args, path, mesh);
    if (std::optional<std::string> text = args.value("--mpirun-args"))
      mpirunArgs = splitMpirunArgs(*text);
    checkMpirunArgs(mpirunArgs);
  }
  requireThreadsFit(path, mesh, mesh.numDevices() / ranks);
  std::unique_ptr<driver::CustomCallLibrary> library = customCallLibraryFromArgs(args);
  CustomCallFunctions customCalls =
      atFile(path, [&] { return customCallFunctions(graph, library.get()); });
  PropagationResult propagation = passes.propagate(graph, settings.strategy);
  SpmdProgram program = passes.partition(graph, propagation);
  driver::MemoryDemand demand = driver::meshRunDemand(program);
  if (args.has("--check")) // the reference interpreter runs too
    demand.bytes = driver::saturatingAdd(demand.bytes, driver::interpreterDemand(graph).bytes);
  atFile(path, [&] { driver::requireFits("run", demand, limit); });
  std::vector<Literal> inputs = inputsFromArgs(graph, path, args);
  verifySpmdIfAsked(args, path, program);
  GeneratedProgram generated = passes.generate(program);
  if (args.has("--report")) {
    CommunicationManifest manifest = computeManifest(program);
    std::cout << formatManifest(manifest, program);
    if (backend == Backend::Mpi)
      std::cout << formatRankTraffic(manifest, program, ranks);
  }
  if (backend == Backend::Mpi)
    return runMpirun(ranks, mesh.numDevices() / ranks, mpirunArgs); // the ranks do the rest
  JitOptions jitOptions = cachedJitOptions(args, customCalls);
  std::unique_ptr<CompiledProgram> compiled = passes.jit(program, generated, jitOptions);
  std::vector<Literal> outputs;
  std::vector<std::vector<Literal>> localBuffers; // with --shards: [output][position]
  std::vector<double> callMs = timeCalls(repeat, [&] {
    try {
      runtime::LaunchOptions launch = driver::launchOptions(settings.timeoutSeconds);
      outputs =
          shards ? compiled->run(inputs, launch, localBuffers) : compiled->run(inputs, launch);
    } catch (const runtime::RunTimeout &error) {
      throw InputError(displayName(path), error.what());
    }
  });
  if (args.has("--repeat"))
    std::cerr << formatRunTimings(displayName(path), passes.timings(), callMs);
  return checkAndEmit(args, settings, graph, program, inputs, outputs, customCalls,
                      shards ? &localBuffers : nullptr);
}

const Command &runCommand() {
  static const Command command{
      {"run",
       "partition, JIT-compile and run on a device mesh (--check against the reference)",
       "GRAPH [--inputs A.npy B.npy ...] [-o DIR] [--check] [--rtol R] [--atol A] [--report] "
       "[--max-memory SIZE] [--timeout SECONDS] [--strategy S] [--custom-calls LIB.so] "
       "[--verify-spmd] [--no-cache] [--repeat N] [--mesh AXIS=SIZE,...] [--dump-after STAGE] "
       "[--backend threads|mpi] [--ranks N] [--mpirun-args 'ARGS'] [--shards]",
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
       "more memory than --max-memory (default: 90% of this machine's).\n"
       "Compiled programs are cached in $XDG_CACHE_HOME/shardgen (else\n"
       "~/.cache/shardgen): a second run of an unchanged graph skips the compiler.\n"
       "With --backend mpi, shardgen starts mpirun (Open MPI) running itself as --ranks\n"
       "ranks; each runs the whole pipeline and its devices/ranks devices as threads (the\n"
       "minor mesh axes inside a rank); rank 0 reads the inputs and writes the outputs.\n"
       "A device that fails ends every rank with its error and rank (exit 1).",
       {"GRAPH"},
       withPipelineOptions(
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
            kStrategyOption,
            kCustomCallsOption,
            kVerifySpmdOption,
            kNoCacheOption,
            kRepeatOption,
            {"--backend", OptionSpec::Value, "threads|mpi",
             "threads (default): one thread per device; mpi: starts mpirun with --ranks ranks"},
            {"--ranks", OptionSpec::Value, "N",
             "with --backend mpi: N ranks, each running devices/N devices as threads (N must "
             "divide the devices; default: one rank per device)"},
            {"--mpirun-args", OptionSpec::Value, "'ARGS'",
             "with --backend mpi: more mpirun arguments, split at spaces (e.g. '--hostfile "
             "hosts')"}},
           pipeline::Pass::Generate)},
      runRun};
  return command;
}

} // namespace shardgen::cli
