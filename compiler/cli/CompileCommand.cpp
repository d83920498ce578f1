// shardgen compile GRAPH -o DIR [--backend threads|mpi] [--name NAME]
// [--strategy S]: writes the program's C++ (device code, a header with the
// call styles and every tensor's layout, the host side), the kernel library
// and runtime it needs, and a CMakeLists.txt an application can
// add_subdirectory().

#include <filesystem>
#include <iostream>

#include "compiler/cli/Command.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/PassReporter.h"
#include "compiler/cli/StrategyOption.h"
#include "compiler/cli/VerifySpmdOption.h"
#include "compiler/codegen/AotWriter.h"
#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/CppNames.h"
#include "compiler/driver/OutputFolder.h"
#include "compiler/partition/CommunicationManifest.h"

namespace shardgen::cli {

/// --backend and --name.
static AotOptions aotOptions(const ParsedArgs &args) {
  AotOptions options;
  std::string backend = args.value("--backend").value_or("threads");
  if (backend != "threads" && backend != "mpi")
    throw UsageError("unknown --backend '" + backend + "' (expected threads or mpi)");
  options.mpi = backend == "mpi";
  if (auto name = args.value("--name")) {
    // Only names the generated C++ and file system take as they are.
    if (codegen::programIdentifier(*name) != *name)
      throw UsageError("--name '" + *name +
                       "' is not a usable C++ name (an identifier of at most 200 characters "
                       "with a lowercase letter, no keyword or reserved name)");
    options.name = *name;
  }
  return options;
}

static int runCompile(const ParsedArgs &args) {
  const std::string &path = args.positionals[0];
  auto dir = args.value("-o");
  bool dumpOnly = args.has("--dump-after") && !args.has("--dump-file"); // writes nothing else
  if (!dir && !dumpOnly)
    throw UsageError("compile needs -o DIR");
  PropagationStrategy strategy = strategyOption(args);
  AotOptions options = aotOptions(args);
  PassReporter reporter(args, path, pipeline::Pass::Generate);
  pipeline::Pipeline passes(&reporter);
  Graph graph = loadGraph(passes, args, path);
  PropagationResult propagation = passes.propagate(graph, strategy);
  SpmdProgram program = passes.partition(graph, propagation);
  verifySpmdIfAsked(args, path, program);
  GeneratedProgram generated = passes.generate(program, options);
  driver::OutputFolder folder(*dir);
  try {
    writeAotProject(folder.staging().string(), generated);
  } catch (const std::filesystem::filesystem_error &error) {
    throw InputError(*dir, "cannot write " + error.path1().filename().string() + ": " +
                               driver::errorText(error.code()));
  }
  folder.commit();
  if (args.has("--report"))
    std::cout << formatManifest(computeManifest(program), program);
  std::string parts; // a large program's other device files
  if (!generated.deviceParts.empty())
    parts = generated.name + "_part1.cpp .. " + generated.name + "_part" +
            std::to_string(generated.deviceParts.size()) + ".cpp, ";
  std::cerr << "wrote " << *dir << "/" << generated.name << ".h, " << generated.name << ".cpp, "
            << parts << generated.name
            << (options.mpi ? "_host.cpp, " + generated.name + "_mpi.cpp" : "_host.cpp")
            << " and CMakeLists.txt (target " << generated.name << ")\n";
  return kSuccess;
}

const Command &compileCommand() {
  static const Command command{
      {"compile",
       "write the per-device C++, header and CMakeLists.txt",
       "GRAPH -o DIR [--backend threads|mpi] [--name NAME] [--report] [--strategy S] "
       "[--verify-spmd]",
       "Propagates shardings, partitions GRAPH and writes its C++ into DIR: NAME.cpp (the\n"
       "per-device program; a large one also NAME_part1.cpp, ...), NAME.h (global-tensor\n"
       "and per-shard call styles, the mesh and every tensor's layout), NAME_host.cpp, the\n"
       "kernel library and runtime sources, and a\n"
       "CMakeLists.txt defining the library target NAME for add_subdirectory(). With\n"
       "--backend mpi also NAME_mpi.cpp (runRank, runRankShards) and the runtime's MPI\n"
       "backend, built when the CMake option SHARDGEN_BACKEND_MPI is ON (its default then).",
       {"GRAPH"},
       withPipelineOptions({{"-o", OptionSpec::Value, "DIR", "output folder (created if needed)"},
                            {"--backend", OptionSpec::Value, "B",
                             "threads (default) or mpi: also the MPI call styles and runtime "
                             "sources"},
                            {"--name", OptionSpec::Value, "NAME",
                             "the program's C++ name (header, namespace, target); default: the "
                             "graph's name"},
                            {"--report", OptionSpec::Flag, "",
                             "print the communication manifest (collectives, bytes, peak memory)"},
                            kStrategyOption,
                            kVerifySpmdOption},
                           pipeline::Pass::Generate)},
      runCompile};
  return command;
}

} // namespace shardgen::cli
