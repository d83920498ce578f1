// Partitioning a reduce whose body is no simple reducer (argmax, several
// inputs): the reduced dim stays sharded, each device reduces its piece and
// a RegionAllReduce combines the partials with the body; where the inits
// are not kept by the body (applied once per shard they would change the
// result) the reduced dim is gathered instead.

#include <doctest/doctest.h>

#include <limits>

#include "compiler/interp/Interpreter.h"
#include "compiler/partition/CommunicationManifest.h"
#include "test/partition/PartitionTestUtil.h"
#include "test/partition/SpmdSimulator.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

/// argmax over dim 1 of x, and of a second input y summed with init `sumInit`.
std::string graphJson(const std::string &xSharding, int sumInit) {
  return R"({"format": "shardgen-graph", "version": 1, "name": "t",
  "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]}],
  "inputs": [{"name": "v", "type": "tensor<4x12xf32>", "sharding": ")" +
         xSharding + R"("},
             {"name": "w", "type": "tensor<4x12xi32>", "sharding": ")" +
         xSharding + R"("}],
  "ops": [
    {"op": "iota", "result": "index", "type": "tensor<4x12xi32>", "iota_dimension": 1},
    {"op": "constant", "result": "lowest", "value": "-inf", "type": "tensor<f32>"},
    {"op": "constant", "result": "zero", "value": 0, "type": "tensor<i32>"},
    {"op": "constant", "result": "start", "value": )" +
         std::to_string(sumInit) + R"(, "type": "tensor<i32>"},
    {"op": "reduce", "operands": ["v", "index", "w", "lowest", "zero", "start"],
     "results": ["best", "token", "total"], "dimensions": [1],
     "body": {"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "ai", "type": "tensor<i32>"},
                       {"name": "as", "type": "tensor<i32>"},
                       {"name": "b", "type": "tensor<f32>"}, {"name": "bi", "type": "tensor<i32>"},
                       {"name": "bs", "type": "tensor<i32>"}],
              "ops": [
                {"op": "compare", "operands": ["a", "b"], "result": "gt", "comparison_direction": "GT"},
                {"op": "compare", "operands": ["a", "b"], "result": "eq", "comparison_direction": "EQ"},
                {"op": "compare", "operands": ["ai", "bi"], "result": "lt", "comparison_direction": "LT"},
                {"op": "and", "operands": ["eq", "lt"], "result": "tie"},
                {"op": "or", "operands": ["gt", "tie"], "result": "pickIndex"},
                {"op": "select", "operands": ["gt", "a", "b"], "result": "value"},
                {"op": "select", "operands": ["pickIndex", "ai", "bi"], "result": "position"},
                {"op": "add", "operands": ["as", "bs"], "result": "sum"}],
              "return": ["value", "position", "sum"]}}],
  "outputs": [{"value": "best"}, {"value": "token"}, {"value": "total"}]})";
}

/// Many ties: values 0..2 only, so most rows tie across the shards.
std::vector<Literal> tiedInputs() {
  Literal v(TensorType{ElementType::F32, {4, 12}}), w(TensorType{ElementType::I32, {4, 12}});
  for (int64_t i = 0; i < 48; ++i) {
    v.setFloat(i, static_cast<double>((i * 7 + i / 12) % 3));
    w.setInt(i, i * 31 - 700);
  }
  return {v, w};
}

} // namespace

TEST_CASE("argmax with a sharded reduced dim: local reduces, one RegionAllReduce, exact") {
  for (const char *sharding :
       {"<@mesh, [{x}, {y}]>", "<@mesh, [{}, {y, x}]>", "<@mesh, [{}, {x}]>"}) {
    INFO(sharding);
    Graph graph = loadGraph(graphJson(sharding, 0));
    propagateInPlace(graph);
    SpmdProgram program = partitionVerified(graph);
    REQUIRE(countSteps(program, StepKind::RegionAllReduce) == 1);
    CHECK(countSteps(program, StepKind::AllGather) == 0);
    for (const SpmdStep &step : program.steps)
      if (step.kind == StepKind::RegionAllReduce) {
        CHECK(step.inputs.size() == 3);
        CHECK(step.outputs.size() == 3);
        CHECK(step.op == &graph.main.ops[4]);
      }
    // The manifest counts every value the combine moves.
    CommunicationManifest manifest = computeManifest(program);
    REQUIRE(manifest.collectives.size() >= 1);
    std::vector<Literal> inputs = tiedInputs();
    std::vector<Literal> expected = evaluate(graph, inputs);
    std::vector<Literal> actual = simulateSpmd(program, inputs);
    REQUIRE(actual.size() == 3);
    for (size_t j = 0; j < 3; ++j)
      CHECK(actual[j] == expected[j]); // bit for bit: ties resolved alike
    CHECK(checkPartitionedEqualsInterpreter(graph, 11) == "");
  }
}

TEST_CASE("a body that does not keep its inits gathers the reduced dim instead") {
  // body(init, init) sums 5 + 5: the init would count once per shard.
  Graph graph = loadGraph(graphJson("<@mesh, [{}, {y}]>", 5));
  propagateInPlace(graph);
  SpmdProgram program = partitionVerified(graph);
  CHECK(countSteps(program, StepKind::RegionAllReduce) == 0);
  CHECK(countSteps(program, StepKind::AllGather) >= 1);
  std::vector<Literal> inputs = tiedInputs();
  std::vector<Literal> expected = evaluate(graph, inputs);
  std::vector<Literal> actual = simulateSpmd(program, inputs);
  for (size_t j = 0; j < 3; ++j)
    CHECK(actual[j] == expected[j]);
}
