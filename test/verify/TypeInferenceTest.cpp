// Result types the verifier infers, against shapes derived by hand from
// StableHLO's definitions, and graphs that must be accepted.

#include <doctest/doctest.h>

#include <string>

#include "compiler/frontend/GraphReader.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/verify/Verifier.h"

using namespace shardgen;

namespace {

/// A graph over `mesh` (data=2, model=4) with the given inputs and ops.
std::string graphText(const std::string &inputs, const std::string &ops,
                      const std::string &outputs = "[]") {
  return R"({"format": "shardgen-graph", "version": 1, "name": "t",
    "meshes": [{"name": "mesh", "axes": [{"name": "data", "size": 2}, {"name": "model", "size": 4}]},
               {"name": "solo", "axes": [], "device_ids": [5]}],
    "inputs": )" +
         inputs + R"(, "ops": )" + ops + R"(, "outputs": )" + outputs + "}";
}

Graph verified(const std::string &text) {
  Graph graph = readGraph(text);
  try {
    verifyGraph(graph);
  } catch (const GraphError &error) {
    FAIL(error.pointer(), ": ", error.what());
  }
  return graph;
}

std::string typeOf(const Graph &graph, const std::string &name) {
  for (const Value &value : graph.values)
    if (value.name == name)
      return value.type ? printType(*value.type) : "<none>";
  return "<no such value>";
}

} // namespace

TEST_CASE("dot_general: batch dims, then lhs free, then rhs free") {
  // lhs 2x3x5x7 with batch dim 2 (5) and contracting dim 3 (7); rhs 7x5x11
  // with batch dim 1 and contracting dim 0: result 5 | 2x3 | 11.
  Graph graph = verified(graphText(
      R"([{"name": "l", "type": "tensor<2x3x5x7xf32>"}, {"name": "r", "type": "tensor<7x5x11xf32>"}])",
      R"([{"op": "dot_general", "operands": ["l", "r"], "result": "d",
           "lhs_batching_dimensions": [2], "rhs_batching_dimensions": [1],
           "lhs_contracting_dimensions": [3], "rhs_contracting_dimensions": [0]},
          {"op": "dot_general", "operands": ["l", "l"], "result": "outer"}])"));
  CHECK(typeOf(graph, "d") == "tensor<5x2x3x11xf32>");
  // No batching or contracting dims: an outer product of all dims.
  CHECK(typeOf(graph, "outer") == "tensor<2x3x5x7x2x3x5x7xf32>");
}

TEST_CASE("pad: negative edges and interior padding") {
  // dim 0: 5 + 4*2 interior = 13, then -1 low + 3 high = 15.
  // dim 1: 4 + 2 low - 1 high = 5.
  Graph graph = verified(
      graphText(R"([{"name": "a", "type": "tensor<5x4xf32>"}])",
                R"([{"op": "constant", "result": "zero", "value": 0.0, "type": "tensor<f32>"},
          {"op": "pad", "operands": ["a", "zero"], "result": "p", "edge_padding_low": [-1, 2],
           "edge_padding_high": [3, -1], "interior_padding": [2, 0]},
          {"op": "pad", "operands": ["a", "zero"], "result": "gone", "edge_padding_low": [-5, 0],
           "edge_padding_high": [0, 0], "interior_padding": [0, 0]}])"));
  CHECK(typeOf(graph, "p") == "tensor<15x5xf32>");
  CHECK(typeOf(graph, "gone") == "tensor<0x4xf32>");
}

TEST_CASE("slice: strided result sizes round up") {
  // dim 0 keeps 1, 4, 7 of [1, 10); dim 1 keeps 0, 2, 4, 6 of [0, 7);
  // an empty range keeps nothing.
  Graph graph = verified(
      graphText(R"([{"name": "a", "type": "tensor<10x7xi32>"}])",
                R"([{"op": "slice", "operands": ["a"], "result": "s", "start_indices": [1, 0],
           "limit_indices": [10, 7], "strides": [3, 2]},
          {"op": "slice", "operands": ["a"], "result": "e", "start_indices": [4, 2],
           "limit_indices": [4, 5]}])"));
  CHECK(typeOf(graph, "s") == "tensor<3x4xi32>");
  CHECK(typeOf(graph, "e") == "tensor<0x3xi32>");
}

TEST_CASE("reduce, transpose, concatenate, broadcast_in_dim, compare, select") {
  Graph graph = verified(graphText(
      R"([{"name": "a", "type": "tensor<2x3x4xf32>"}, {"name": "b", "type": "tensor<1x3xf32>"},
          {"name": "c", "type": "tensor<5x3xf32>"}, {"name": "p", "type": "tensor<i1>"}])",
      R"([{"op": "constant", "result": "zero", "value": 0.0, "type": "tensor<f32>"},
          {"op": "reduce", "operands": ["a", "zero"], "result": "r", "dimensions": [0, 2], "reducer": "max"},
          {"op": "transpose", "operands": ["a"], "result": "t", "permutation": [2, 0, 1]},
          {"op": "concatenate", "operands": ["b", "c", "b"], "result": "cat", "dimension": 0},
          {"op": "broadcast_in_dim", "operands": ["b"], "result": "bc", "type": "tensor<2x4x3xf32>",
           "broadcast_dimensions": [0, 2]},
          {"op": "compare", "operands": ["c", "c"], "result": "lt", "comparison_direction": "LT"},
          {"op": "select", "operands": ["p", "c", "c"], "result": "sel"},
          {"op": "iota", "result": "i", "type": "tensor<3x2xi64>", "iota_dimension": 1},
          {"op": "reshape", "operands": ["a"], "result": "flat", "type": "tensor<24xf32>"}])"));
  CHECK(typeOf(graph, "r") == "tensor<3xf32>");
  CHECK(typeOf(graph, "t") == "tensor<4x2x3xf32>");
  CHECK(typeOf(graph, "cat") == "tensor<7x3xf32>");
  CHECK(typeOf(graph, "bc") == "tensor<2x4x3xf32>");
  CHECK(typeOf(graph, "lt") == "tensor<5x3xi1>");
  CHECK(typeOf(graph, "sel") == "tensor<5x3xf32>");
  CHECK(typeOf(graph, "flat") == "tensor<24xf32>");
}

TEST_CASE("collectives inside a manual body: local shapes and group sizes") {
  // Global 8x16 on [{data}, {model}], both manual: local 4x4.
  // all_gather over data on dim 0: 8x4. all_to_all over model, split 0 (4/4),
  // concat 1 (4*4): 1x16. reduce_scatter over model on dim 0: 1x4.
  // all_reduce over (model, data) keeps 4x4. The result 8x4 on
  // [{data}, {model}] is global 16x16.
  Graph graph =
      verified(graphText(R"([{"name": "a", "type": "tensor<8x16xf32>"}])",
                         R"([{"op": "manual_computation", "operands": ["a"], "result": "out",
           "in_shardings": ["<@mesh, [{data}, {model}]>"],
           "out_shardings": ["<@mesh, [{data}, {model}]>"],
           "manual_axes": ["data", "model"],
           "body": {"args": [{"name": "x", "type": "tensor<4x4xf32>"}],
             "ops": [
               {"op": "all_gather", "operands": ["x"], "result": "g", "axes": ["data"], "dimension": 0},
               {"op": "all_to_all", "operands": ["x"], "result": "t", "axes": ["model"],
                "split_dimension": 0, "concat_dimension": 1},
               {"op": "reduce_scatter", "operands": ["x"], "result": "rs", "axes": ["model"],
                "dimension": 0, "reducer": "add"},
               {"op": "all_reduce", "operands": ["x"], "result": "ar", "axes": ["model", "data"],
                "reducer": "add"},
               {"op": "collective_permute", "operands": ["x"], "result": "cp", "axes": ["data"], "shift": -1},
               {"op": "axis_index", "result": "i", "axis": "model"}],
             "return": ["g"]}}])",
                         R"([{"value": "out"}])"));
  CHECK(typeOf(graph, "g") == "tensor<8x4xf32>");
  CHECK(typeOf(graph, "t") == "tensor<1x16xf32>");
  CHECK(typeOf(graph, "rs") == "tensor<1x4xf32>");
  CHECK(typeOf(graph, "ar") == "tensor<4x4xf32>");
  CHECK(typeOf(graph, "cp") == "tensor<4x4xf32>");
  CHECK(typeOf(graph, "i") == "tensor<i32>");
  CHECK(typeOf(graph, "out") == "tensor<16x16xf32>");
}

TEST_CASE("a manual computation divides only along its manual axes; nesting uses other axes") {
  // Outer: data manual, model free (uneven: 6 on model=4 is allowed for a
  // free axis): the body sees 4x6. Inner: model manual on dim 0: 1x6.
  Graph graph = verified(graphText(
      R"([{"name": "a", "type": "tensor<8x6xf32>", "sharding": "<@mesh, [{data}, {model}]>"}])",
      R"([{"op": "manual_computation", "operands": ["a"], "result": "out",
           "in_shardings": ["<@mesh, [{data}, {model, ?}]>"],
           "out_shardings": ["<@mesh, [{}, {?}], replicated={data}>"],
           "manual_axes": ["data"],
           "body": {"args": [{"name": "x", "type": "tensor<4x6xf32>", "sharding": "<@mesh, [{}, {model}]>"}],
             "ops": [
               {"op": "manual_computation", "operands": ["x"], "result": "y",
                "in_shardings": ["<@mesh, [{model}, {}]>"], "out_shardings": ["<@mesh, [{model}, {}]>"],
                "manual_axes": ["model"],
                "body": {"args": [{"name": "z", "type": "tensor<1x6xf32>"}],
                  "ops": [{"op": "all_reduce", "operands": ["z"], "result": "s", "axes": ["data", "model"],
                           "reducer": "add"}],
                  "return": ["s"]}}],
             "return": ["y"]}}])",
      R"([{"value": "out", "sharding": "<@mesh, [{}, {}]>"}])"));
  CHECK(typeOf(graph, "s") == "tensor<1x6xf32>");
  CHECK(typeOf(graph, "y") == "tensor<4x6xf32>");
  CHECK(typeOf(graph, "out") == "tensor<4x6xf32>");
}

TEST_CASE("valid shardings: uneven dims, sub-axes, priorities, maximal and open dims") {
  Graph graph = verified(graphText(
      R"([{"name": "a", "type": "tensor<7x5xf32>", "sharding": "<@mesh, [{data}, {model}]>"},
          {"name": "b", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{\"model\":(1)2, ?}p2, {\"model\":(2)2}p0]>"},
          {"name": "c", "type": "tensor<8x8xf32>", "sharding": "<@solo, [{}, {}]>"},
          {"name": "d", "type": "tensor<8x8xf32>", "sharding": "<@mesh, [{?}p1, {}], replicated={data}, unreduced={model}>"},
          {"name": "e", "type": "tensor<f32>", "sharding": "<@mesh, []>"}])",
      R"([{"op": "sharding_group", "operands": ["b"], "group_id": 1},
          {"op": "sharding_group", "operands": ["c"], "group_id": 1}])"));
  CHECK(typeOf(graph, "a") == "tensor<7x5xf32>");
}

TEST_CASE("verifySharding: the public check other stages use") {
  Graph graph = verified(graphText(R"([{"name": "a", "type": "tensor<8x8xf32>"}])", "[]"));
  const TensorType type{ElementType::F32, {8, 8}};
  auto check = [&](const char *text) {
    std::string error;
    auto sharding = parseSharding(text, &error);
    REQUIRE(sharding);
    verifySharding(*sharding, type, graph, "/here");
  };
  CHECK_NOTHROW(check(R"(<@mesh, [{"data"}, {"model"}]>)"));
  CHECK_THROWS_AS(check(R"(<@mesh, [{"data"}, {"data"}]>)"), GraphError);
  try {
    check(R"(<@mesh, [{"model":(1)4}, {}]>)");
    FAIL("a sub-axis equal to its axis was accepted");
  } catch (const GraphError &error) {
    CHECK(error.pointer() == "/here");
    CHECK(std::string(error.what()) ==
          R"(sub-axis size is equal to the full axis size: "model":(1)4)");
  }
}

TEST_CASE("inferResultTypes: reusable on a verified graph, inside bodies too") {
  Graph graph =
      verified(graphText(R"([{"name": "a", "type": "tensor<8x16xf32>"}])",
                         R"([{"op": "manual_computation", "operands": ["a"], "result": "out",
           "in_shardings": ["<@mesh, [{data}, {}]>"], "out_shardings": ["<@mesh, [{data}, {}]>"],
           "manual_axes": ["data"],
           "body": {"args": [{"name": "x", "type": "tensor<4x16xf32>"}],
             "ops": [{"op": "all_gather", "operands": ["x"], "result": "g", "axes": ["data"], "dimension": 1}],
             "return": ["g"]}}])"));
  const Op &manual = graph.main.ops.at(0);
  const Op &gather = manual.body()->ops.at(0);
  auto gathered = inferResultTypes(graph, gather);
  REQUIRE(gathered.size() == 1);
  CHECK(printType(gathered[0]) == "tensor<4x32xf32>");
  auto outer = inferResultTypes(graph, manual);
  REQUIRE(outer.size() == 1);
  CHECK(printType(outer[0]) == "tensor<8x32xf32>");
}
