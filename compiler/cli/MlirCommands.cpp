// shardgen import MODEL.mlir [-o GRAPH.json] [--function NAME]: StableHLO +
// sdy MLIR text to a graph file. shardgen export GRAPH [-o MODEL.mlir]
// [--generic] [--sharding-rules]: a graph (JSON or MLIR) as StableHLO + sdy
// text, optionally with each op's Shardy sharding rule.

#include <iostream>

#include "compiler/cli/Command.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/OutputWriting.h"
#include "compiler/cli/PassReporter.h"
#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/mlir/MlirWriter.h"
#include "compiler/propagate/ShardingRules.h"

namespace shardgen::cli {

namespace {

/// GRAPH read and verified (no option of the pipeline's: nothing shown).
Graph loadQuietly(const ParsedArgs &args, const std::string &mlirFunction = "") {
  const std::string &path = args.positionals[0];
  PassReporter reporter(args, path, pipeline::Pass::Verify, PassReporter::Mode::Quiet);
  pipeline::Pipeline passes(&reporter);
  return loadGraph(passes, args, path, mlirFunction);
}

int runImport(const ParsedArgs &args) {
  const std::string &path = args.positionals[0];
  Graph graph = loadQuietly(args, args.value("--function").value_or(""));
  std::string text = writeGraph(graph);
  // Never write what `check` would refuse: the graph file is read back and
  // verified first (an error names the MLIR place its pointer came from).
  atFile(path, [&] {
    Graph written = readGraph(text);
    pipeline::Pipeline().verify(written);
  });
  emitText(args, text);
  return kSuccess;
}

/// Each op's rule as `sdy_opt -sdy-populate-op-sharding-rules` prints it.
std::optional<std::string> shardyRuleText(const Graph &graph, const Op &op) {
  std::optional<OpShardingRule> rule = shardyShardingRule(graph, op);
  if (!rule)
    return std::nullopt;
  // A user's rule (a custom_call's) is marked as such.
  return printOpShardingRule(*rule) + (op.kind == OpKind::CustomCall ? ", custom" : "");
}

int runExport(const ParsedArgs &args) {
  const std::string &path = args.positionals[0];
  Graph graph = loadQuietly(args);
  mlir::MlirWriteOptions options;
  options.form = args.has("--generic") ? mlir::MlirForm::Generic : mlir::MlirForm::Pretty;
  if (args.has("--sharding-rules"))
    options.shardingRule = [&](const Op &op) { return shardyRuleText(graph, op); };
  std::string text = atFile(path, [&] { return mlir::writeMlir(graph, options); });
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
       "GRAPH [-o MODEL.mlir] [--generic] [--sharding-rules]",
       "Writes GRAPH (typically the output of propagate) as a module of sdy.mesh definitions\n"
       "and a func.func @main in the form JAX prints; with --generic every op in MLIR's\n"
       "generic form (mlir-opt --allow-unregistered-dialect parses it). import reads both\n"
       "back to the same graph. --sharding-rules adds each op's Shardy sharding rule as\n"
       "sdy_opt -sdy-populate-op-sharding-rules prints it (sdy.sharding_rule).",
       {"GRAPH"},
       {{"-o", OptionSpec::Value, "MODEL.mlir", "write the text to MODEL.mlir (default: stdout)"},
        {"--generic", OptionSpec::Flag, "", "every op in MLIR's generic form"},
        {"--sharding-rules", OptionSpec::Flag, "",
         "each op's Shardy sharding rule as an sdy.sharding_rule attribute"}}},
      runExport};
  return command;
}

} // namespace shardgen::cli
