// `shardgen run --backend mpi`, one rank (see RunCommand.h).

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>

#include "compiler/cli/Command.h"
#include "compiler/cli/CompileCacheOption.h"
#include "compiler/cli/CustomCallsOption.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/MpiLauncher.h"
#include "compiler/cli/PassReporter.h"
#include "compiler/cli/RunCommand.h"
#include "compiler/cli/RunTimings.h"
#include "compiler/codegen/CodeGenerator.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/partition/ProgramMesh.h"
#include "compiler/partition/RankPieces.h"

#ifdef SHARDGEN_HAVE_MPI
#include "runtime/include/shardgen/mpi.h"
#endif

namespace shardgen::cli {

#ifdef SHARDGEN_HAVE_MPI

bool mpiBackendBuilt() { return true; }

namespace {

/// --timeout of the rank's arguments, read before anything else (0: none).
double rankTimeout(const ParsedArgs &args) {
  try {
    return runSettings(args).timeoutSeconds;
  } catch (const std::exception &) {
    return 0; // the launcher refused bad options before mpirun started
  }
}

} // namespace

/// Rank 0's inputs (read, or pseudo-random as the threads backend makes
/// them); zeroed tensors of the same types on the other ranks.
static std::vector<Literal> rankInputs(const ParsedArgs &args, const RunSettings &settings,
                                       const Graph &graph, int rank) {
  if (rank == 0)
    return args.has("--inputs") ? loadInputs(graph, settings.path, args.list("--inputs"))
                                : randomInputs(graph, 0);
  std::vector<Literal> inputs;
  for (const auto &arg : graph.main.args)
    inputs.emplace_back(*graph.value(arg.value).type);
  return inputs;
}

/// Each rank receives the pieces of the inputs its devices read, at their
/// places. Once per `run`, not per call: no call writes an input, so after
/// the first they would be sent unchanged (`--repeat` would time what an
/// application keeping its inputs on its ranks never pays).
static void scatterInputs(const SpmdProgram &program, std::vector<Literal> &inputs, int ranks) {
  for (size_t i = 0; i < inputs.size(); ++i) {
    const ShardLayout &layout = program.layout(program.inputs[i]);
    runtime::scatterBoxesFromRoot(
        inputs[i].data(), layout.globalType.shape,
        static_cast<int64_t>(elementByteWidth(layout.globalType.elementType)),
        piecesByRank(layout, program.mesh, ranks));
  }
}

/// One call as `run` counts it: each rank runs its devices on the inputs
/// scatterInputs placed, and rank 0 receives the outputs (the bitwise or of
/// what each rank's devices own).
static std::vector<Literal> runOnce(CompiledProgram &compiled, std::vector<Literal> &inputs,
                                    const runtime::LaunchOptions &options,
                                    runtime::RankWatchdog &watchdog) {
  // Test hook (test/mpi_run): the device with this id fails before its first
  // step, while its peers go on into their collectives.
  const char *failing = std::getenv("SHARDGEN_TEST_FAIL_DEVICE");
  std::vector<Literal> outputs = compiled.run(
      inputs, [&](const runtime::DeviceMesh &mesh, const runtime::DeviceFunction &function) {
        runtime::launchMpi(
            mesh,
            [&](const runtime::DeviceContext &device) {
              if (failing && std::to_string(device.deviceId) == failing)
                throw std::runtime_error("device " + std::string(failing) +
                                         " failed on purpose (SHARDGEN_TEST_FAIL_DEVICE)");
              function(device);
            },
            options);
      });
  watchdog.waitIn("MPI_Reduce (rank 0 receiving the outputs)", [&] {
    for (Literal &output : outputs)
      runtime::mergeDisjointToRoot(output.data(), static_cast<int64_t>(output.byteSize()));
  });
  return outputs;
}

int runMpiRank(const ParsedArgs &args) {
  // Under --timeout no wait for a peer rank outlasts it (a stopped or lost
  // peer ends the job, naming this rank and the call it waits in).
  runtime::RankWatchdog watchdog(rankTimeout(args));
  runtime::MpiWorld world;
  watchdog.waitIn("MPI_Init (starting MPI)", [&] { world = runtime::initializeMpi(); });
  // Before any piece is placed: every index below assumes the planned ranks
  // (mpirun told to start another number would have each rank read or
  // write pieces it does not hold).
  if (const int64_t planned = plannedRanks(); planned != world.size) {
    if (world.rank == 0 && planned < 0)
      std::cerr << "shardgen: rank 0: error: the planned rank count (environment variable "
                << kRankModeVariable << ", set by `shardgen run --backend mpi`) is not a "
                << "positive integer; start ranks through shardgen run\n";
    else if (world.rank == 0)
      std::cerr << "shardgen: rank 0: error: mpirun started " << world.size
                << " rank(s), but the run is planned for " << planned
                << " (--ranks; one per device by default); let shardgen choose the count\n";
    runtime::finalizeMpi();
    return kInvalidInput;
  }
  // The command line was checked, and dumps and warnings printed, before
  // mpirun started: every rank runs the same passes quietly (timed for
  // --repeat) and gets the same program and generated code.
  const RunSettings settings = runSettings(args);
  const std::string &path = settings.path;
  PassReporter reporter(args, path, pipeline::Pass::Jit, PassReporter::Mode::Quiet);
  pipeline::Pipeline passes(&reporter);
  Graph graph = loadGraph(passes, args, path); // --mesh as the launcher applied it
  std::unique_ptr<driver::CustomCallLibrary> library = customCallLibraryFromArgs(args);
  CustomCallFunctions customCalls =
      atFile(path, [&] { return customCallFunctions(graph, library.get()); });
  // The planned count comes from the environment mpirun was given: the
  // mesh decides whether it can work (each rank runs the same number of
  // devices), before any index divides by it.
  const Mesh mesh = atFile(path, [&] { return programMesh(graph); });
  if (mesh.numDevices() % world.size != 0) {
    if (world.rank == 0)
      std::cerr << "shardgen: rank 0: error: mpirun started " << world.size
                << " rank(s), which do not divide the " << mesh.numDevices() << " devices of mesh @"
                << escapedText(mesh.name) << "; let shardgen choose the count (--ranks)\n";
    runtime::finalizeMpi();
    return kInvalidInput;
  }
  PropagationResult result = passes.propagate(graph, settings.strategy);
  SpmdProgram program = passes.partition(graph, result);
  GeneratedProgram generated = passes.generate(program);
  JitOptions jitOptions = cachedJitOptions(args, customCalls); // ranks share it (atomic entries)
  std::unique_ptr<CompiledProgram> compiled = passes.jit(program, generated, jitOptions);
  std::vector<Literal> inputs = rankInputs(args, settings, graph, world.rank);
  std::vector<Literal> outputs;
  watchdog.waitIn("MPI_Alltoallw (rank 0 sending the inputs)",
                  [&] { scatterInputs(program, inputs, world.size); });
  std::vector<double> callMs = timeCalls(repeatOption(args), [&] {
    outputs = runOnce(*compiled, inputs, runtime::LaunchOptions{settings.timeoutSeconds}, watchdog);
  });
  watchdog.waitIn("MPI_Finalize (finishing)", [] { runtime::finalizeMpi(); });
  if (world.rank != 0)
    return kSuccess;
  if (args.has("--repeat"))
    std::cerr << formatRunTimings(displayName(path), passes.timings(), callMs);
  const int status = checkAndEmit(args, settings, graph, program, inputs, outputs, customCalls);
  std::cout.flush();
  std::cerr << kRanksFinishedLine << "\n" << std::flush;
  return status;
}

#else

bool mpiBackendBuilt() { return false; }

int runMpiRank(const ParsedArgs &) { return kInternalError; }

#endif

} // namespace shardgen::cli
