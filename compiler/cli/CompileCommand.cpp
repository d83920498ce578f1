// shardgen compile GRAPH -o DIR [--strategy S]: writes the program's C++
// (device code, a header with both call styles, the host side), the kernel
// library and runtime it needs, and a CMakeLists.txt an application can
// add_subdirectory().

#include <filesystem>
#include <iostream>

#include "compiler/cli/Command.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/OutputFolder.h"
#include "compiler/cli/Pipeline.h"
#include "compiler/codegen/AotWriter.h"
#include "compiler/codegen/CodeGenerator.h"
#include "compiler/partition/CommunicationManifest.h"
#include "compiler/cli/StrategyOption.h"
#include "compiler/cli/VerifySpmdOption.h"

namespace shardgen::cli {

static int runCompile(const ParsedArgs &args) {
  const std::string &path = args.positionals[0];
  auto dir = args.value("-o");
  bool dumpOnly = args.has("--dump-after") && !args.has("--dump-file"); // writes nothing else
  if (!dir && !dumpOnly)
    throw UsageError("compile needs -o DIR");
  PropagationStrategy strategy = strategyOption(args);
  Pipeline pipeline(args, path, Stage::Codegen);
  Graph graph = pipeline.load();
  if (pipeline.stopped())
    return kSuccess;
  PropagationResult propagation = pipeline.propagate(graph, strategy);
  if (pipeline.stopped())
    return kSuccess;
  SpmdProgram program = pipeline.partition(graph, propagation);
  if (pipeline.stopped())
    return kSuccess;
  verifySpmdIfAsked(args, path, program);
  GeneratedProgram generated = pipeline.generate(program);
  if (pipeline.stopped())
    return kSuccess;
  OutputFolder folder(*dir);
  try {
    writeAotProject(folder.staging().string(), generated);
  } catch (const std::filesystem::filesystem_error &error) {
    throw InputError(*dir, "cannot write " + error.path1().filename().string() + ": " +
                               errorText(error.code()));
  }
  folder.commit();
  if (args.has("--report"))
    std::cout << formatManifest(computeManifest(program), program);
  std::cerr << "wrote " << *dir << "/" << generated.name << ".h, " << generated.name << ".cpp, "
            << generated.name << "_host.cpp and CMakeLists.txt (target " << generated.name
            << ")\n";
  return kSuccess;
}

const Command &compileCommand() {
  static const Command command{
      {"compile", "write the per-device C++, header and CMakeLists.txt",
       "GRAPH -o DIR [--report] [--strategy S] [--verify-spmd]",
       "Propagates shardings, partitions GRAPH and writes its C++ into DIR: NAME.cpp (the\n"
       "per-device program), NAME.h (global-tensor and per-shard call styles), NAME_host.cpp,\n"
       "the kernel library and runtime sources, and a CMakeLists.txt defining the library\n"
       "target NAME for add_subdirectory().",
       {"GRAPH"},
       withPipelineOptions({{"-o", OptionSpec::Value, "DIR", "output folder (created if needed)"},
                            {"--report", OptionSpec::Flag, "",
                             "print the communication manifest (collectives, bytes, peak memory)"},
                            kStrategyOption, kVerifySpmdOption},
                           Stage::Codegen)},
      runCompile};
  return command;
}

} // namespace shardgen::cli
