#include "test/partition/PartitionTestUtil.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "compiler/frontend/GraphReader.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/mlir/MlirImporter.h"
#include "compiler/partition/Partitioner.h"
#include "compiler/partition/SpmdCoherence.h"
#include "compiler/propagate/Propagation.h"
#include "compiler/verify/Verifier.h"
#include "test/partition/SpmdSimulator.h"
#include "test/support/TestValues.h"

namespace shardgen::testing {

Graph loadGraph(const std::string &json) {
  Graph graph = readGraph(json);
  verifyGraph(graph);
  return graph;
}

Graph loadSampleGraph(const std::string &name) {
  const std::string path = std::string(SHARDGEN_SOURCE_DIR) + "/samples/" + name;
  if (name.rfind("mlir/", 0) == 0) {
    std::ifstream file(path + ".mlir");
    std::stringstream text;
    text << file.rdbuf();
    Graph graph = std::move(mlir::importMlir(text.str()).graph);
    verifyGraph(graph);
    return graph;
  }
  Graph graph = readGraphFile(path + ".json");
  verifyGraph(graph);
  return graph;
}

std::vector<std::string> sampleGraphNames() {
  namespace fs = std::filesystem;
  std::vector<std::string> names;
  const fs::path samples = fs::path(SHARDGEN_SOURCE_DIR) / "samples";
  for (const auto &entry : fs::directory_iterator(samples))
    if (entry.path().extension() == ".json")
      names.push_back(entry.path().stem().string());
  for (const auto &entry : fs::directory_iterator(samples / "mlir"))
    if (entry.path().extension() == ".mlir")
      names.push_back("mlir/" + entry.path().stem().string());
  std::sort(names.begin(), names.end());
  return names;
}

SpmdProgram partitionVerified(const Graph &graph) {
  SpmdProgram program = partitionProgram(graph);
  verifySpmdCoherence(program);
  return program;
}

void propagateInPlace(Graph &graph) {
  PropagationResult result = propagateShardings(graph, PropagationStrategy::UserPriority);
  applyPropagation(graph, result);
}

std::string checkPartitionedEqualsInterpreter(const Graph &graph, uint64_t inputSeed) {
  std::vector<Literal> inputs = randomInputs(graph, inputSeed);
  std::vector<Literal> expected = evaluate(graph, inputs);
  SpmdProgram program = partitionVerified(graph);
  std::vector<Literal> actual = simulateSpmd(program, inputs);
  if (actual.size() != expected.size())
    return "output count differs";
  for (size_t i = 0; i < expected.size(); ++i) {
    std::string why;
    if (!literalsClose(actual[i], expected[i], 1e-4, &why))
      return "output " + std::to_string(i) + ": " + why;
  }
  return "";
}

size_t countSteps(const SpmdProgram &program, StepKind kind) {
  size_t n = 0;
  for (const auto &step : program.steps)
    n += step.kind == kind;
  return n;
}

} // namespace shardgen::testing
