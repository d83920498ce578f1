// The pipeline as its callers see it: the passes in order under an observer,
// a stop after a pass with that pass's dump, propagation's warnings, errors
// as the stage threw them, and compileGraph's program computing what the
// reference interpreter computes.

#include <doctest/doctest.h>

#include <optional>
#include <string>
#include <vector>

#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/interp/Interpreter.h"
#include "compiler/interp/ResultCheck.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/pipeline/Pipeline.h"
#include "compiler/show/ProgramPrinter.h"
#include "compiler/verify/Verifier.h"

using namespace shardgen;
using pipeline::Pass;

namespace {

const std::string kMlp = std::string(SHARDGEN_SOURCE_DIR) + "/samples/mlp.json";

/// Records what the pipeline shows its observer; stops after `stopAfter`.
struct Recorder : pipeline::PassObserver {
  std::vector<std::string> ran, after, dumps, warnings;
  std::optional<Pass> stopAfter;
  void runPass(Pass pass, const std::function<void()> &work) override {
    ran.emplace_back(pipeline::passName(pass));
    work();
  }
  void warn(Pass, const std::vector<std::string> &found) override {
    warnings.insert(warnings.end(), found.begin(), found.end());
  }
  bool afterPass(Pass pass, const std::function<std::string()> &dump) override {
    after.emplace_back(pipeline::passName(pass));
    if (pass != stopAfter)
      return false;
    dumps.push_back(dump());
    return true;
  }
};

std::vector<std::string> names(const pipeline::PassTimings &timings) {
  std::vector<std::string> out;
  for (const auto &[name, ms] : timings)
    out.push_back(name);
  return out;
}

/// Inputs of the program's global types, small distinct values.
std::vector<Literal> inputsOf(const Graph &graph) {
  std::vector<Literal> inputs;
  for (const auto &arg : graph.main.args) {
    Literal literal(*graph.value(arg.value).type);
    for (int64_t i = 0; i < literal.numElements(); ++i)
      literal.setFloat(i, static_cast<double>(i % 7) * 0.125 - 0.375);
    inputs.push_back(std::move(literal));
  }
  return inputs;
}

} // namespace

TEST_CASE("the passes run in order, each under the observer and timed once") {
  Recorder recorder;
  pipeline::Pipeline passes(&recorder);
  Graph graph = passes.read([] { return readGraphFile(kMlp); });
  passes.verify(graph);
  PropagationResult result = passes.propagate(graph, PropagationStrategy::UserPriority);
  SpmdProgram program = passes.partition(graph, result);
  GeneratedProgram generated = passes.generate(program);
  auto compiled = passes.jit(program, generated);
  const std::vector<std::string> all = {"read",      "verify",   "propagate",
                                        "partition", "generate", "JIT"};
  CHECK(recorder.ran == all);
  CHECK(names(passes.timings()) == all);
  CHECK(recorder.after == std::vector<std::string>{"verify", "propagate", "partition", "generate"});
  CHECK(recorder.warnings.empty());
  REQUIRE(compiled);
  // The compiled program computes what the reference interpreter does.
  std::vector<Literal> inputs = inputsOf(graph);
  auto mismatch = compareOutputs(compiled->run(inputs), evaluateWithBounds(graph, inputs));
  CHECK_MESSAGE(!mismatch, (mismatch ? mismatch->describe() : ""));
}

TEST_CASE("an observer stops the pipeline after a pass, with that pass's dump") {
  SUBCASE("after propagate: the graph with every sharding and its origin") {
    Recorder recorder;
    recorder.stopAfter = Pass::Propagate;
    pipeline::Pipeline passes(&recorder);
    Graph graph = passes.read([] { return readGraphFile(kMlp); });
    passes.verify(graph);
    std::optional<Pass> stoppedAfter;
    try {
      passes.propagate(graph, PropagationStrategy::UserPriority);
    } catch (const pipeline::Stopped &stop) {
      stoppedAfter = stop.after;
    }
    CHECK(stoppedAfter == Pass::Propagate);
    REQUIRE(recorder.dumps.size() == 1);
    CHECK(recorder.dumps[0].find("\"_origin\"") != std::string::npos);
    Graph propagated = graph.clone();
    applyPropagation(propagated, propagateShardings(graph, PropagationStrategy::UserPriority));
    CHECK(recorder.dumps[0] == writeGraph(propagated));
    // The dump is of a copy: the caller's graph is not written to yet.
    CHECK(writeGraph(graph).find("\"_origin\"") == std::string::npos);
  }
  SUBCASE("after partition: the per-device program as text") {
    Recorder recorder;
    recorder.stopAfter = Pass::Partition;
    pipeline::Pipeline passes(&recorder);
    Graph graph = passes.read([] { return readGraphFile(kMlp); });
    passes.verify(graph);
    PropagationResult result = passes.propagate(graph, PropagationStrategy::UserPriority);
    CHECK_THROWS_AS(passes.partition(graph, result), pipeline::Stopped);
    REQUIRE(recorder.dumps.size() == 1);
    pipeline::CompiledGraph unobserved =
        pipeline::compileGraph([] { return readGraphFile(kMlp); }, pipeline::Until::Partition);
    CHECK(recorder.dumps[0] == show::printProgram(*unobserved.program));
    CHECK(names(passes.timings()) ==
          std::vector<std::string>{"read", "verify", "propagate", "partition"});
  }
}

TEST_CASE("one list names the passes: timings, progress and dumps") {
  std::vector<std::string> all;
  for (const pipeline::PassInfo &info : pipeline::allPasses()) {
    CHECK(&pipeline::passInfo(info.pass) == &info);
    all.emplace_back(info.name);
  }
  CHECK(all ==
        std::vector<std::string>{"read", "verify", "propagate", "partition", "generate", "JIT"});
  CHECK(pipeline::passOfDump("codegen") == Pass::Generate);
  CHECK(pipeline::passOfDump("verify") == Pass::Verify);
  CHECK_FALSE(pipeline::passOfDump("read")); // no dump
  CHECK_FALSE(pipeline::passOfDump("JIT"));
  CHECK_FALSE(pipeline::passOfDump(""));
  CHECK(pipeline::passInfo(Pass::Jit).doing == "compiling (JIT)");
}

TEST_CASE("propagation's warnings reach the observer") {
  const std::string json =
      R"({"format": "shardgen-graph", "version": 1, "name": "t",
  "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
  "inputs": [{"name": "a", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{x}, {}]>"},
             {"name": "b", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{y}, {}]>"}],
  "ops": [{"op": "sharding_group", "operands": ["a"], "group_id": 0},
          {"op": "sharding_group", "operands": ["b"], "group_id": 0},
          {"op": "add", "operands": ["a", "b"], "result": "c"}],
  "outputs": [{"value": "c"}]})";
  Recorder recorder;
  pipeline::Pipeline passes(&recorder);
  Graph graph = passes.read([&] { return readGraph(json); });
  passes.verify(graph);
  PropagationResult result = passes.propagate(graph, PropagationStrategy::UserPriority);
  CHECK(recorder.warnings == result.warnings);
  REQUIRE(recorder.warnings.size() == 1);
  CHECK(recorder.warnings[0].find("sharding_group 0") != std::string::npos);
}

TEST_CASE("a pass's error reaches the caller as the stage threw it, untimed") {
  const std::string json =
      R"({"format": "shardgen-graph", "version": 1, "name": "t", "meshes": [],
  "inputs": [{"name": "a", "type": "tensor<4xf32>"}, {"name": "b", "type": "tensor<5xf32>"}],
  "ops": [{"op": "add", "operands": ["a", "b"], "result": "c"}],
  "outputs": [{"value": "c"}]})";
  std::string expected;
  try {
    Graph graph = readGraph(json);
    verifyGraph(graph);
  } catch (const GraphError &error) {
    expected = std::string(error.pointer()) + ": " + error.what();
  }
  REQUIRE(expected.starts_with("/ops/0"));
  Recorder recorder;
  pipeline::Pipeline passes(&recorder);
  Graph graph = passes.read([&] { return readGraph(json); });
  std::string got;
  try {
    passes.verify(graph);
  } catch (const GraphError &error) {
    got = std::string(error.pointer()) + ": " + error.what();
  }
  CHECK(got == expected);
  CHECK(recorder.ran == std::vector<std::string>{"read", "verify"});
  CHECK(names(passes.timings()) == std::vector<std::string>{"read"});
  CHECK(recorder.after.empty());
}

TEST_CASE("compileGraph runs read to the pass asked for") {
  pipeline::CompiledGraph partitioned =
      pipeline::compileGraph([] { return readGraphFile(kMlp); }, pipeline::Until::Partition);
  CHECK(names(partitioned.timings) ==
        std::vector<std::string>{"read", "verify", "propagate", "partition"});
  REQUIRE(partitioned.program);
  CHECK(partitioned.program->mesh.numDevices() == 4);
  CHECK(partitioned.generated.source.empty());
  CHECK_FALSE(partitioned.compiled);
  // propagateAndPartition gives the same program.
  Graph graph = readGraphFile(kMlp);
  verifyGraph(graph);
  CHECK(show::printProgram(pipeline::propagateAndPartition(graph)) ==
        show::printProgram(*partitioned.program));
}
