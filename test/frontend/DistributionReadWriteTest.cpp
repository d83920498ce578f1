// The `distribution` key (inputs, outputs, op results) and the `distribute`
// op: read, written back canonically (every key, order spelled out), read
// back equal; syntax errors at their JSON pointer.
#include <doctest/doctest.h>

#include <string>

#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphWriter.h"
#include "compiler/ir/Diagnostic.h"
#include "test/frontend/GraphEquality.h"

using namespace shardgen;
using shardgen::testing::checkSameGraph;

namespace {

std::string graphWith(const std::string &inputs, const std::string &ops,
                      const std::string &outputs) {
  return R"({"format": "shardgen-graph", "version": 1,
    "meshes": [{"name": "cores", "axes": [{"name": "r", "size": 2}, {"name": "c", "size": 3}]}],
    "inputs": [)" +
         inputs + R"(], "ops": [)" + ops + R"(], "outputs": [)" + outputs + "]}";
}

const std::string kInput =
    R"({"name": "x", "type": "tensor<3x7x5xf32>",
        "distribution": {"mesh": "cores", "shard_shape": [2, 2, 2]}, "_note": 1})";

void expectError(const std::string &text, const std::string &pointer, const std::string &message) {
  try {
    readGraph(text);
  } catch (const GraphError &error) {
    CHECK(error.pointer() == pointer);
    CHECK(std::string(error.what()) == message);
    return;
  }
  FAIL("expected a GraphError at " << pointer);
}

} // namespace

TEST_CASE("distributions are read on inputs, op results, distribute and outputs") {
  Graph graph = readGraph(
      graphWith(kInput,
                R"({"op": "tanh", "operands": ["x"], "result": "y",
          "distribution": {"order": "col_major", "shard_shape": [1, 7, 5], "mesh": "cores"}},
         {"op": "stablehlo.distribute", "operands": ["y"], "result": "z",
          "distribution": {"mesh": "cores", "shard_shape": [3, 1, 1], "order": "row_major"}},
         {"op": "tanh", "operands": ["z"], "results": ["w"],
          "distributions": [{"mesh": "cores", "shard_shape": [3, 7, 5]}]})",
                R"({"value": "z", "distribution": {"mesh": "cores", "shard_shape": [1, 1, 1]}})"));
  const RegionArgument &input = graph.main.args[0];
  REQUIRE(input.distribution);
  CHECK(input.distribution->meshName == "cores");
  CHECK(input.distribution->shardShape == std::vector<int64_t>{2, 2, 2});
  CHECK(input.distribution->order == DeviceOrder::RowMajor); // the default
  CHECK_FALSE(input.sharding);
  REQUIRE(graph.main.ops[0].distributions.size() == 1);
  CHECK(graph.main.ops[0].distributions[0]->order == DeviceOrder::ColMajor);
  CHECK(graph.main.ops[1].kind == OpKind::Distribute);
  CHECK(graph.main.ops[1].distributions[0]->shardShape == std::vector<int64_t>{3, 1, 1});
  CHECK(graph.main.ops[2].distributions[0]->shardShape == std::vector<int64_t>{3, 7, 5});
  CHECK(graph.main.results[0].distribution->shardShape == std::vector<int64_t>{1, 1, 1});
}

TEST_CASE("distributions are written canonically and read back equal") {
  Graph graph = readGraph(
      graphWith(kInput,
                R"({"op": "distribute", "operands": ["x"], "result": "z",
          "distribution": {"shard_shape": [1, 7, 5], "mesh": "cores", "order": "col_major"}},
         {"op": "tanh", "operands": ["z"], "results": ["w"],
          "distributions": [{"mesh": "cores", "shard_shape": [3, 7, 5]}]})",
                R"({"value": "z", "distribution": {"mesh": "cores", "shard_shape": [1, 1, 1]}},
         {"value": "w"})"));
  std::string text = writeGraph(graph);
  // Key order fixed, order always spelled out, the input's `_` key kept after.
  CHECK(text.find(
            R"("distribution": {"mesh": "cores", "shard_shape": [2, 2, 2], "order": "row_major"},)"
            "\n      \"_note\": 1") != std::string::npos);
  CHECK(text.find(R"("op": "distribute",)") != std::string::npos);
  CHECK(
      text.find(
          R"("distribution": {"mesh": "cores", "shard_shape": [1, 7, 5], "order": "col_major"})") !=
      std::string::npos);
  CHECK(text.find(R"("distributions": [)") != std::string::npos);
  Graph back = readGraph(text);
  checkSameGraph(graph, back);
  CHECK(writeGraph(back) == text);
}

TEST_CASE("distribution syntax errors name their place") {
  SUBCASE("unknown order") {
    expectError(graphWith(R"({"name": "x", "type": "tensor<4xf32>",
                             "distribution": {"mesh": "cores", "shard_shape": [2], "order": "diagonal"}})",
                          "", ""),
                "/inputs/0/distribution/order",
                "invalid order \"diagonal\" (expected one of row_major, col_major)");
  }
  SUBCASE("order not a string") {
    expectError(graphWith(R"({"name": "x", "type": "tensor<4xf32>",
                             "distribution": {"mesh": "cores", "shard_shape": [2], "order": 1}})",
                          "", ""),
                "/inputs/0/distribution/order", "expected a string, got an integer");
  }
  SUBCASE("shard_shape not integers") {
    expectError(graphWith(R"({"name": "x", "type": "tensor<4xf32>",
                             "distribution": {"mesh": "cores", "shard_shape": [2.5]}})",
                          "", ""),
                "/inputs/0/distribution/shard_shape/0",
                "expected an array of integers, got a number with a fraction or exponent element");
  }
  SUBCASE("missing mesh") {
    expectError(graphWith(R"({"name": "x", "type": "tensor<4xf32>",
                             "distribution": {"shard_shape": [2]}})",
                          "", ""),
                "/inputs/0/distribution/mesh", "missing required key \"mesh\"");
  }
  SUBCASE("unknown key") {
    expectError(graphWith(R"({"name": "x", "type": "tensor<4xf32>",
                             "distribution": {"mesh": "cores", "shard_shape": [2], "grid": [2, 3]}})",
                          "", ""),
                "/inputs/0/distribution/grid", "unknown key \"grid\" in distribution");
  }
  SUBCASE("not an object") {
    expectError(
        graphWith(R"({"name": "x", "type": "tensor<4xf32>", "distribution": "cores"})", "", ""),
        "/inputs/0/distribution", "expected an object, got a string for distribution");
  }
  SUBCASE("distribute without its distribution") {
    expectError(graphWith(R"({"name": "x", "type": "tensor<4xf32>"})",
                          R"({"op": "distribute", "operands": ["x"], "result": "y"})", ""),
                "/ops/0/distribution", "missing required key \"distribution\"");
  }
  SUBCASE("plural key with one result") {
    expectError(graphWith(R"({"name": "x", "type": "tensor<4xf32>"})",
                          R"({"op": "tanh", "operands": ["x"], "result": "y",
                              "distributions": [{"mesh": "cores", "shard_shape": [2]}]})",
                          ""),
                "/ops/0/distributions",
                "\"distributions\" goes with \"results\"; an op with one \"result\" uses "
                "\"distribution\"");
  }
  SUBCASE("not on a manual_computation body argument") {
    expectError(graphWith(R"({"name": "x", "type": "tensor<4xf32>"})",
                          R"({"op": "manual_computation", "operands": ["x"], "results": ["y"],
                      "in_shardings": ["<@cores, [{}]>"], "out_shardings": ["<@cores, [{}]>"],
                      "body": {"args": [{"name": "a", "type": "tensor<4xf32>",
                                         "distribution": {"mesh": "cores", "shard_shape": [2]}}],
                               "ops": [], "return": ["a"]}})",
                          ""),
                "/ops/0/body/args/0/distribution", "unknown key \"distribution\" in body argument");
  }
}
