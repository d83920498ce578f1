// shardgen propagate GRAPH [-o OUT.json] [--strategy S] [--format F]: the
// graph with a sharding (and its `_origin`) on every input, op result, output
// and body value; or, as MLIR, the program as Shardy's propagation prints it. shardgen explain
// GRAPH VALUE [--strategy S]: why VALUE has its sharding, and what kept each replicated dim from
// being sharded.

#include <iostream>

#include "compiler/cli/Command.h"
#include "compiler/cli/GraphLoading.h"
#include "compiler/cli/OutputWriting.h"
#include "compiler/cli/PassReporter.h"
#include "compiler/cli/StrategyOption.h"
#include "compiler/cli/TerminalText.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/mlir/MlirWriter.h"
#include "compiler/propagate/Propagation.h"

namespace shardgen::cli {

namespace {

/// --format: mlir when named, or when -o names a .mlir file; else json.
bool mlirFormat(const ParsedArgs &args) {
  if (auto format = args.value("--format")) {
    if (*format != "json" && *format != "mlir")
      throw UsageError("unknown --format '" + *format + "' (expected json or mlir)");
    return *format == "mlir";
  }
  auto out = args.value("-o");
  return out && out->size() > 5 && out->compare(out->size() - 5, 5, ".mlir") == 0;
}

/// The program in Shardy's printed form (what sdy_opt's propagation passes print).
void writeShardyForm(const ParsedArgs &args, const std::string &path, Graph &graph,
                     const PropagationResult &result) {
  applyPropagationShardyForm(graph, result);
  emitText(args, atFile(path, [&] { return mlir::writeMlir(graph, mlir::MlirForm::Pretty); }));
}

int runPropagate(const ParsedArgs &args) {
  const std::string &path = args.positionals[0];
  PropagationStrategy strategy = strategyOption(args);
  bool mlir = mlirFormat(args);
  PassReporter reporter(args, path, pipeline::Pass::Propagate);
  pipeline::Pipeline passes(&reporter);
  Graph graph = loadGraph(passes, args, path);
  PropagationResult result = passes.propagate(graph, strategy);
  if (mlir) {
    writeShardyForm(args, path, graph, result);
    return kSuccess;
  }
  // Writing needs neither explain's state nor, once applied, the result: each
  // is freed as early as possible (peak memory of large graphs).
  result.state.reset();
  result.spread.reset();
  applyPropagation(graph, std::move(result)); // moves the origins out
  result = PropagationResult{};
  // Printed in pieces: the text of a large graph is never held whole.
  if (auto out = args.value("-o"))
    writeTextFile(*out, [&](const TextSink &sink) { writeGraph(graph, sink); });
  else
    writeGraph(graph, [](std::string_view text) {
      std::cout.write(text.data(), static_cast<std::streamsize>(text.size()));
    });
  return kSuccess;
}

int runExplain(const ParsedArgs &args) {
  const std::string &path = args.positionals[0];
  PropagationStrategy strategy = strategyOption(args);
  PassReporter reporter(args, path, pipeline::Pass::Propagate);
  pipeline::Pipeline passes(&reporter);
  Graph graph = loadGraph(passes, args, path);
  PropagationResult result = passes.propagate(graph, strategy);
  // Line breaks are the explanation's own; names inside are made printable.
  std::string text = atFile(path, [&] { return explainValue(graph, result, args.positionals[1]); });
  std::cout << printableLines(text);
  return kSuccess;
}

} // namespace

const Command &propagateCommand() {
  static const Command command{
      {"propagate",
       "write the graph with every tensor's sharding",
       "GRAPH [-o OUT.json] [--strategy S] [--format F]",
       "Propagates shardings through GRAPH as Shardy does and writes the graph with a closed\n"
       "sharding on every input, op result, output and manual-computation body value, each\n"
       "with an \"_origin\": user:POINTER, constraint:POINTER, group:ID, op:POINTER or default.\n"
       "--format mlir writes the program as sdy_opt's propagation passes print it instead:\n"
       "the user's dims keep their open/closed state and priority, propagated dims stay open,\n"
       "values no axis reached stay unannotated, no origins.",
       {"GRAPH"},
       withPipelineOptions(
           {{"-o", OptionSpec::Value, "OUT.json", "write the graph to OUT.json (default: stdout)"},
            kStrategyOption,
            {"--format", OptionSpec::Value, "F",
             "json (default) or mlir (the default when -o names a .mlir file)"}},
           pipeline::Pass::Propagate)},
      runPropagate};
  return command;
}

const Command &explainCommand() {
  static const Command command{
      {"explain",
       "why a value has its sharding (or stayed replicated)",
       "GRAPH VALUE [--strategy S]",
       "Explains VALUE's propagated sharding: the chain of origins back to user annotations,\n"
       "and for each replicated dim what stopped each axis (a conflict, a closed dim, a\n"
       "replicated axis, a barrier, a missing sharding_rule).",
       {"GRAPH", "VALUE"},
       withPipelineOptions({kStrategyOption}, pipeline::Pass::Propagate)},
      runExplain};
  return command;
}

} // namespace shardgen::cli
