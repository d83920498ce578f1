// Partitioning decisions on small hand-written graphs: partial results,
// reduce_scatter, unreduced, guards, manual computations, one mesh.

#include <doctest/doctest.h>

#include "compiler/ir/Diagnostic.h"
#include "compiler/partition/CommunicationManifest.h"
#include "compiler/partition/Partitioner.h"
#include "test/partition/PartitionTestUtil.h"

using namespace shardgen;
using namespace shardgen::testing;

namespace {

std::string graphJson(const std::string &meshes, const std::string &inputs, const std::string &ops,
                      const std::string &outputs) {
  return R"({"format": "shardgen-graph", "version": 1, "name": "t", "meshes": [)" + meshes +
         R"(], "inputs": [)" + inputs + R"(], "ops": [)" + ops + R"(], "outputs": [)" + outputs +
         "]}";
}

const std::string meshXY =
    R"({"name": "mesh", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 2}]})";

std::string dotGraph(const std::string &resultSharding, const std::string &outputSharding) {
  return graphJson(meshXY,
                   R"({"name": "a", "type": "tensor<4x8xf32>", "sharding": "<@mesh, [{}, {y}]>"},
         {"name": "b", "type": "tensor<8x4xf32>", "sharding": "<@mesh, [{y}, {}]>"})",
                   R"({"op": "dot_general", "operands": ["a", "b"], "result": "c",
          "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0],
          "sharding": ")" +
                       resultSharding + R"("})",
                   R"({"value": "c", "sharding": ")" + outputSharding + R"("})");
}

} // namespace

TEST_CASE("a sharded contraction ends in one all_reduce when the result is not split on it") {
  Graph graph = loadGraph(dotGraph("<@mesh, [{x}, {}]>", "<@mesh, [{x}, {}]>"));
  SpmdProgram program = partitionVerified(graph);
  CHECK(countSteps(program, StepKind::AllReduce) == 1);
  CHECK(countSteps(program, StepKind::AllGather) == 0);
  CHECK(checkPartitionedEqualsInterpreter(graph, 3) == "");
}

TEST_CASE("a sharded contraction whose result is split on that axis is a reduce_scatter") {
  Graph graph = loadGraph(dotGraph("<@mesh, [{x}, {y}]>", "<@mesh, [{x}, {y}]>"));
  SpmdProgram program = partitionVerified(graph);
  CHECK(countSteps(program, StepKind::ReduceScatter) == 1);
  CHECK(countSteps(program, StepKind::AllReduce) == 0);
  CHECK(checkPartitionedEqualsInterpreter(graph, 3) == "");
}

TEST_CASE("an unreduced result sharding keeps the partial value") {
  Graph graph =
      loadGraph(dotGraph("<@mesh, [{x}, {}], unreduced={y}>", "<@mesh, [{x}, {}], unreduced={y}>"));
  SpmdProgram program = partitionVerified(graph);
  REQUIRE(program.outputs.size() == 1);
  CHECK(program.layout(program.outputs[0]).partialAxes == std::vector<AxisRef>{AxisRef::full("y")});
  // Only the global call style's gather sums it: one all_reduce into the
  // gathered output (the per-device style returns the partial pieces).
  CHECK(countSteps(program, StepKind::AllReduce) == 1);
  REQUIRE(program.gatheredOutputs.size() == 1);
  CHECK(program.gatheredOutputs[0] != program.outputs[0]);
  CHECK(program.layout(program.gatheredOutputs[0]).partialAxes.empty());
  // The simulator sums the partial output over y: still the interpreter's value.
  CHECK(checkPartitionedEqualsInterpreter(graph, 3) == "");
}

TEST_CASE("an unreduced value read by two ops is all-reduced once and both share it") {
  // c is partial over y; tanh and negate each want it whole. One all_reduce
  // of c's 2x4 f32 piece (32 bytes per device) serves both.
  std::string json =
      graphJson(meshXY,
                R"({"name": "a", "type": "tensor<4x8xf32>", "sharding": "<@mesh, [{x}, {y}]>"},
         {"name": "b", "type": "tensor<8x4xf32>", "sharding": "<@mesh, [{y}, {}]>"})",
                R"({"op": "dot_general", "operands": ["a", "b"], "result": "c",
          "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0],
          "sharding": "<@mesh, [{x}, {}], unreduced={y}>"},
         {"op": "tanh", "operands": ["c"], "result": "t", "sharding": "<@mesh, [{x}, {}]>"},
         {"op": "negate", "operands": ["c"], "result": "n", "sharding": "<@mesh, [{x}, {}]>"})",
                R"({"value": "t", "sharding": "<@mesh, [{x}, {}]>"},
         {"value": "n", "sharding": "<@mesh, [{x}, {}]>"})");
  Graph graph = loadGraph(json);
  SpmdProgram program = partitionVerified(graph);
  CHECK(countSteps(program, StepKind::AllReduce) == 1);
  CommunicationManifest manifest = computeManifest(program);
  int64_t sent = 0;
  for (const auto &collective : manifest.collectives)
    if (collective.kind == StepKind::AllReduce)
      sent += collective.traffic[0].sent;
  CHECK(sent == 32);
  CHECK(checkPartitionedEqualsInterpreter(graph, 3) == "");
}

TEST_CASE("a reduce whose init is not the identity does not reduce over shards") {
  auto reduceGraph = [](const char *init) {
    return graphJson(
        meshXY, R"({"name": "a", "type": "tensor<6x5xf32>", "sharding": "<@mesh, [{}, {x}]>"})",
        std::string(R"({"op": "constant", "result": "i", "type": "tensor<f32>", "value": )") +
            init +
            R"(}, {"op": "reduce", "operands": ["a", "i"], "result": "r",
                                "dimensions": [1], "reducer": "add"})",
        R"({"value": "r"})");
  };
  Graph identity = loadGraph(reduceGraph("0.0"));
  CHECK(countSteps(partitionVerified(identity), StepKind::AllReduce) == 1);
  CHECK(checkPartitionedEqualsInterpreter(identity, 5) == "");
  Graph offset = loadGraph(reduceGraph("2.5"));
  SpmdProgram program = partitionVerified(offset);
  CHECK(countSteps(program, StepKind::AllReduce) == 0);
  CHECK(countSteps(program, StepKind::AllGather) == 1);
  CHECK(checkPartitionedEqualsInterpreter(offset, 5) == "");
}

TEST_CASE("shardings on two different meshes are an error at the second one") {
  std::string json =
      graphJson(meshXY + R"(, {"name": "other", "axes": [{"name": "z", "size": 4}]})",
                R"({"name": "a", "type": "tensor<4xf32>", "sharding": "<@mesh, [{x}]>"},
         {"name": "b", "type": "tensor<4xf32>", "sharding": "<@other, [{z}]>"})",
                R"({"op": "add", "operands": ["a", "b"], "result": "c"})", R"({"value": "c"})");
  Graph graph = loadGraph(json);
  try {
    partitionVerified(graph);
    FAIL("expected a GraphError");
  } catch (const GraphError &error) {
    CHECK(error.pointer() == "/inputs/1/sharding");
    CHECK(std::string(error.what()).find("must use one mesh") != std::string::npos);
  }
}

TEST_CASE("a manual computation's replicated manual axis takes the value at coordinate 0") {
  Graph graph = loadSampleGraph("dp_grad_step");
  SpmdProgram program = partitionVerified(graph);
  CHECK(countSteps(program, StepKind::Broadcast) == 1);
  CHECK(countSteps(program, StepKind::AllReduce) == 1); // the body's all_reduce
  CHECK(countSteps(program, StepKind::Alias) == 4);     // 3 operands in, 1 result out
  CHECK(checkPartitionedEqualsInterpreter(graph, 11) == "");
}

TEST_CASE("a free axis sharding a manual dim unevenly is gathered before entering") {
  std::string json = graphJson(meshXY, R"({"name": "a", "type": "tensor<6x2xf32>"})",
                               R"({"op": "manual_computation", "operands": ["a"], "results": ["m"],
          "in_shardings": ["<@mesh, [{x, y}, {}]>"],
          "out_shardings": ["<@mesh, [{x, y}, {}]>"], "manual_axes": ["x"],
          "body": {"args": [{"name": "l", "type": "tensor<3x2xf32>"}],
                   "ops": [{"op": "axis_index", "axis": "x", "result": "i"},
                           {"op": "convert", "operands": ["i"], "result": "f", "type": "tensor<f32>"},
                           {"op": "broadcast_in_dim", "operands": ["f"], "result": "fb",
                            "type": "tensor<3x2xf32>", "broadcast_dimensions": []},
                           {"op": "add", "operands": ["l", "fb"], "result": "s"},
                           {"op": "all_gather", "operands": ["s"], "result": "g",
                            "axes": ["x"], "dimension": 1}],
                   "return": ["g"]}})",
                               R"({"value": "m"})");
  Graph graph = loadGraph(json);
  CHECK(checkPartitionedEqualsInterpreter(graph, 2) == "");
}

TEST_CASE("the manifest is computed without running and names the op of each collective") {
  Graph graph = loadGraph(dotGraph("<@mesh, [{x}, {}]>", "<@mesh, [{}, {}]>"));
  SpmdProgram program = partitionVerified(graph);
  CommunicationManifest manifest = computeManifest(program);
  REQUIRE(manifest.collectives.size() == 2);
  CHECK(manifest.collectives[0].kind == StepKind::AllReduce);
  CHECK(manifest.collectives[0].pointer == "/ops/0");
  // c is 4x4 f32 split on x: local 2x4 = 32 bytes, exchanged within y pairs.
  CHECK(manifest.collectives[0].traffic[0].sent == 32);
  CHECK(manifest.collectives[1].kind == StepKind::AllGather);
  CHECK(manifest.collectives[1].pointer == "/outputs/0");
  CHECK(manifest.collectives[1].traffic[0].received == 32);
}

TEST_CASE("nested manual computations with collectives over inner and enclosing axes") {
  std::string json = graphJson(
      meshXY, R"({"name": "a", "type": "tensor<4x4xf32>", "sharding": "<@mesh, [{y}, {}]>"})",
      R"({"op": "manual_computation", "operands": ["a"], "results": ["r", "full"],
          "in_shardings": ["<@mesh, [{x}, {}]>"],
          "out_shardings": ["<@mesh, [{x}, {}]>", "<@mesh, [{}, {}], replicated={x}>"],
          "manual_axes": ["x"],
          "body": {
            "args": [{"name": "rows", "type": "tensor<2x4xf32>"}],
            "ops": [
              {"op": "manual_computation", "operands": ["rows"], "results": ["inner"],
               "in_shardings": ["<@mesh, [{}, {y}]>"], "out_shardings": ["<@mesh, [{}, {y}]>"],
               "manual_axes": ["y"],
               "body": {
                 "args": [{"name": "block", "type": "tensor<2x2xf32>"}],
                 "ops": [
                   {"op": "all_reduce", "operands": ["block"], "result": "s", "axes": ["y", "x"], "reducer": "add"},
                   {"op": "collective_permute", "operands": ["s"], "result": "p", "axes": ["x"], "shift": 1},
                   {"op": "add", "operands": ["p", "block"], "result": "sum"}
                 ],
                 "return": ["sum"]}},
              {"op": "all_gather", "operands": ["rows"], "result": "g", "axes": ["x"], "dimension": 0}
            ],
            "return": ["inner", "g"]}})",
      R"({"value": "r", "sharding": "<@mesh, [{}, {x}]>"}, {"value": "full"})");
  Graph graph = loadGraph(json);
  CHECK(checkPartitionedEqualsInterpreter(graph, 4) == "");
}

TEST_CASE("an unreduced manual axis of an out_sharding leaves a partial value") {
  std::string json = graphJson(
      meshXY,
      R"({"name": "l", "type": "tensor<2x4xf32>"}, {"name": "r", "type": "tensor<4x2xf32>"})",
      R"({"op": "manual_computation", "operands": ["l", "r"], "results": ["p"],
          "in_shardings": ["<@mesh, [{}, {x}], replicated={y}>", "<@mesh, [{x}, {}], replicated={y}>"],
          "out_shardings": ["<@mesh, [{}, {}], replicated={x, y}>"],
          "manual_axes": ["x", "y"],
          "body": {
            "args": [{"name": "ll", "type": "tensor<2x2xf32>"}, {"name": "rl", "type": "tensor<2x2xf32>"}],
            "ops": [
              {"op": "dot_general", "operands": ["ll", "rl"], "result": "d",
               "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]},
              {"op": "axis_index", "result": "yi", "axis": "y"},
              {"op": "convert", "operands": ["yi"], "result": "yf", "type": "tensor<f32>"},
              {"op": "broadcast_in_dim", "operands": ["yf"], "result": "yb",
               "broadcast_dimensions": [], "type": "tensor<2x2xf32>"},
              {"op": "add", "operands": ["d", "yb"], "result": "out"}
            ],
            "return": ["out"]}})",
      R"({"value": "p"})");
  // The verifier counts only dims and `replicated` as uses of a manual
  // axis, so x becomes unreduced after verification.
  Graph graph = loadGraph(json);
  TensorSharding &out = graph.main.ops.at(0).attr<ManualComputationAttrs>().outShardings.at(0);
  out.replicated = {AxisRef::full("y")};
  out.unreduced = {AxisRef::full("x")};
  SpmdProgram program = partitionVerified(graph);
  CHECK(countSteps(program, StepKind::Broadcast) == 1); // over y
  CHECK(countSteps(program, StepKind::AllReduce) == 1); // the partial sum over x
  CHECK(checkPartitionedEqualsInterpreter(graph, 9) == "");
}

TEST_CASE("inputs arrive and outputs leave in their declared shardings; others are replicated") {
  std::string json =
      graphJson(meshXY,
                R"({"name": "a", "type": "tensor<5x4xf32>", "sharding": "<@mesh, [{x, y}, {}]>"},
         {"name": "b", "type": "tensor<5x4xf32>"})",
                R"({"op": "add", "operands": ["a", "b"], "result": "c"})",
                R"({"value": "c", "sharding": "<@mesh, [{}, {y}]>"}, {"value": "c"})");
  Graph graph = loadGraph(json);
  SpmdProgram program = partitionVerified(graph);
  auto axesOf = [&](SpmdValueId v) { return dimAxesOf(program.layout(v)); };
  AxisRef x = AxisRef::full("x"), y = AxisRef::full("y");
  CHECK(axesOf(program.inputs[0]) == DimAxes{{x, y}, {}});
  CHECK(axesOf(program.inputs[1]) == DimAxes{{}, {}});
  CHECK(axesOf(program.outputs[0]) == DimAxes{{}, {y}});
  CHECK(axesOf(program.outputs[1]) == DimAxes{{}, {}});
  CHECK(checkPartitionedEqualsInterpreter(graph, 6) == "");
}
