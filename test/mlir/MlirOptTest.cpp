// The generic export parses with MLIR's own parser: mlir-opt-19
// --allow-unregistered-dialect (package mlir-19-tools, installed by
// scripts/test.sh) reads every exported sample, and what it prints back in
// generic form imports to the same graph (up to value names: mlir-opt
// renumbers them).
#include <doctest/doctest.h>

#include <cstdlib>
#include <unistd.h>

#include "compiler/frontend/GraphReader.h"
#include "compiler/mlir/MlirImporter.h"
#include "compiler/mlir/MlirWriter.h"
#include "compiler/propagate/Propagation.h"
#include "compiler/verify/Verifier.h"
#include "test/frontend/GraphEquality.h"
#include "test/mlir/MlirTestSupport.h"
#include "test/support/RandomGraphGenerator.h"

using namespace shardgen;
using namespace shardgen::testing;
namespace fs = std::filesystem;

namespace {

std::string findMlirOpt() {
  for (const char *candidate : {"/usr/bin/mlir-opt-19", "/usr/lib/llvm-19/bin/mlir-opt"})
    if (::access(candidate, X_OK) == 0)
      return candidate;
  return "";
}

/// What mlir-opt's reprint does not keep: SSA names (it renumbers them)
/// and how a constant was written (it prints equal elements as a splat).
void forgetSpelling(Graph &graph) {
  for (size_t i = 0; i < graph.values.size(); ++i)
    graph.values[i].name = "v" + std::to_string(i);
  walkMutableOps(graph.main, [](Op &op) {
    if (op.kind == OpKind::Constant) {
      ConstantAttrs &constant = op.attr<ConstantAttrs>();
      constant = ConstantAttrs::dense(constant.expanded());
    }
  });
}

std::vector<Graph> exportedGraphs() {
  std::vector<Graph> graphs;
  fs::path samples = fs::path(SHARDGEN_SOURCE_DIR) / "samples";
  std::vector<fs::path> json = filesIn(samples, ".json");
  for (const auto &file : filesIn(samples / "custom_call", ".json"))
    json.push_back(file);
  for (const auto &path : json) {
    Graph graph = readGraph(readFile(path));
    verifyGraph(graph);
    if (!firstDistributionPointer(graph).empty())
      continue; // MLIR has no form for distributions (the nd_* samples)
    Graph propagated = graph.clone();
    applyPropagation(propagated, propagateShardings(propagated, PropagationStrategy::UserPriority));
    graphs.push_back(std::move(graph));
    graphs.push_back(std::move(propagated));
  }
  for (const auto &path : filesIn(samples / "mlir", ".mlir")) {
    Graph graph = mlir::importMlir(readFile(path)).graph;
    verifyGraph(graph);
    graphs.push_back(std::move(graph));
  }
  for (uint64_t seed = 100; seed < 112; ++seed) {
    Graph graph = readGraph(randomGraphJson(seed));
    verifyGraph(graph);
    graphs.push_back(std::move(graph));
  }
  return graphs;
}

} // namespace

TEST_CASE("mlir-opt-19 parses the generic export of every sample, and its reprint imports back") {
  std::string mlirOpt = findMlirOpt();
  REQUIRE_MESSAGE(!mlirOpt.empty(),
                  "mlir-opt-19 not found: install mlir-19-tools (scripts/test.sh does)");
  std::vector<Graph> graphs = exportedGraphs();
  REQUIRE(graphs.size() >= 20);
  // One mlir-opt run over all modules (--split-input-file), generic in and out.
  std::string text;
  for (size_t i = 0; i < graphs.size(); ++i)
    text += (i ? "// -----\n" : "") + mlir::writeMlir(graphs[i], mlir::MlirForm::Generic);
  char folder[] = "/tmp/shardgen_mlir_opt_XXXXXX";
  REQUIRE(::mkdtemp(folder) != nullptr);
  std::string input = std::string(folder) + "/exported.mlir",
              output = std::string(folder) + "/reprinted.mlir";
  {
    std::ofstream out(input);
    out << text;
  }
  std::string command = mlirOpt +
                        " --allow-unregistered-dialect --split-input-file "
                        "--mlir-print-op-generic " +
                        input + " -o " + output + " 2>" + folder + "/err.txt";
  int status = std::system(command.c_str());
  INFO("mlir-opt said: " << readFile(std::string(folder) + "/err.txt"));
  REQUIRE(status == 0);

  std::string reprinted = readFile(output);
  std::vector<std::string> modules;
  for (size_t start = 0; start <= reprinted.size();) {
    size_t end = reprinted.find("// -----", start);
    modules.push_back(
        reprinted.substr(start, end == std::string::npos ? std::string::npos : end - start));
    if (end == std::string::npos)
      break;
    start = end + 8;
  }
  REQUIRE(modules.size() == graphs.size());
  for (size_t i = 0; i < graphs.size(); ++i) {
    INFO("module " << i << ":\n" << modules[i]);
    Graph back = mlir::importMlir(modules[i]).graph;
    verifyGraph(back);
    Graph expected = graphs[i].clone();
    for (Graph *graph : {&back, &expected}) {
      normalizeForMlir(*graph);
      forgetSpelling(*graph);
    }
    checkSameGraph(back, expected);
  }
  fs::remove_all(folder);
}
