// shardgen import MODEL.mlir [-o GRAPH.json] [--function NAME]: StableHLO +
// sdy MLIR text to a graph file. shardgen export GRAPH [-o MODEL.mlir]
// [--generic]: a graph (JSON or MLIR) as StableHLO + sdy text.

#include <iostream>

#include "compiler/cli/Command.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/OutputWriting.h"
#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/mlir/MlirWriter.h"

namespace shardgen::cli {

namespace {

void emitText(const ParsedArgs &args, const std::string &text) {
  if (auto out = args.value("-o"))
    writeTextFile(*out, text);
  else
    std::cout << text;
}

int runImport(const ParsedArgs &args) {
  const std::string &path = args.positionals[0];
  Graph graph = loadVerifiedGraph(path, args.value("--function").value_or(""));
  std::string text = writeGraph(graph);
  // Never write what `check` would refuse: the graph file is read back and
  // verified first (an error names the MLIR place its pointer came from).
  atFile(path, [&] {
    Graph written = readGraph(text);
    verifyGraphAt(path, written);
  });
  emitText(args, text);
  return kSuccess;
}

int runExport(const ParsedArgs &args) {
  const std::string &path = args.positionals[0];
  Graph graph = loadVerifiedGraph(path);
  std::string text = atFile(path, [&] {
    return mlir::writeMlir(graph, args.has("--generic") ? mlir::MlirForm::Generic
                                                        : mlir::MlirForm::Pretty);
  });
  emitText(args, text);
  return kSuccess;
}

} // namespace

const Command &importCommand() {
  static const Command command{
      {"import",
       "read StableHLO + Shardy MLIR text into a graph file",
       "MODEL.mlir [-o GRAPH.json] [--function NAME]",
       "Reads MODEL.mlir (as jax.jit(f).lower(...).as_text() prints it: sdy.mesh definitions,\n"
       "a public func.func with sdy.sharding attributes, StableHLO ops in pretty or generic\n"
       "form), verifies it and writes the graph. What the graph format cannot hold is an\n"
       "error at FILE:LINE:COLUMN. Every command taking a GRAPH also takes .mlir files.\n"
       "See docs/mlir.md.",
       {"MODEL.mlir"},
       {{"-o", OptionSpec::Value, "GRAPH.json", "write the graph to GRAPH.json (default: stdout)"},
        {"--function", OptionSpec::Value, "NAME", "the entry function (default: main)"}}},
      runImport};
  return command;
}

const Command &exportCommand() {
  static const Command command{
      {"export",
       "write a graph as StableHLO + Shardy MLIR text",
       "GRAPH [-o MODEL.mlir] [--generic]",
       "Writes GRAPH (typically the output of propagate) as a module of sdy.mesh definitions\n"
       "and a func.func @main in the form JAX prints; with --generic every op in MLIR's\n"
       "generic form (mlir-opt --allow-unregistered-dialect parses it). import reads both\n"
       "back to the same graph.",
       {"GRAPH"},
       {{"-o", OptionSpec::Value, "MODEL.mlir", "write the text to MODEL.mlir (default: stdout)"},
        {"--generic", OptionSpec::Flag, "", "every op in MLIR's generic form"}}},
      runExport};
  return command;
}

} // namespace shardgen::cli
