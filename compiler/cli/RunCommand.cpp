// shardgen run GRAPH [--inputs A.npy ...] [-o DIR] [--check] [--strategy S]:
// propagate, partition, generate C++, compile it in-process (clang + ORC
// JIT) and run it with one thread per device of the mesh.

#include <iostream>

#include "compiler/cli/Command.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/OutputWriting.h"
#include "compiler/cli/StrategyOption.h"
#include "compiler/cli/VerifySpmdOption.h"
#include "compiler/codegen/CodeGenerator.h"
#include "compiler/codegen/JitRunner.h"
#include "compiler/codegen/ResultCheck.h"
#include "compiler/codegen/ShardedProgram.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/partition/CommunicationManifest.h"

namespace shardgen::cli {

static int runRun(const ParsedArgs &args) {
  const std::string &path = args.positionals[0];
  PropagationStrategy strategy = strategyOption(args);
  Graph graph = loadVerifiedGraph(path);
  std::vector<Literal> inputs = inputsFromArgs(graph, path, args);
  SpmdProgram program = atFile(path, [&] { return propagateAndPartition(graph, strategy); });
  verifySpmdIfAsked(args, path, program);
  if (args.has("--report"))
    std::cout << formatManifest(computeManifest(program), program);
  GeneratedProgram generated = atFile(path, [&] { return generateProgram(program); });
  CompiledProgram compiled(program, generated);
  std::vector<Literal> outputs = compiled.run(inputs);

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
       "GRAPH [--inputs A.npy B.npy ...] [-o DIR] [--check] [--report] [--strategy S]"
       " [--verify-spmd]",
       "Propagates shardings, partitions GRAPH over its mesh, generates C++, compiles it\n"
       "in-process (clang + LLVM ORC JIT) and runs it with one thread per device.\n"
       "Inputs are .npy files, one per graph input (pseudo-random when omitted). With\n"
       "--check, compares with the reference interpreter and exits 3 on a difference.\n"
       "With -o, writes DIR/out0.npy, out1.npy, ...; without, prints the outputs.",
       {"GRAPH"},
       {{"--inputs", OptionSpec::List, "FILE", "one .npy file per graph input"},
        {"-o", OptionSpec::Value, "DIR", "write the outputs as .npy files into DIR"},
        {"--check", OptionSpec::Flag, "", "compare with the reference interpreter"},
        {"--report", OptionSpec::Flag, "",
         "print the communication manifest (collectives, bytes, peak memory) first"},
        kStrategyOption, kVerifySpmdOption}},
      runRun};
  return command;
}

} // namespace shardgen::cli
