// writeGraph then readGraph gives back an equal graph, and the written text
// has the documented key order and layout.
#include <doctest/doctest.h>

#include "compiler/frontend/GraphReader.h"
#include "compiler/frontend/GraphWriter.h"
#include "test/frontend/GraphEquality.h"

using namespace shardgen;
using shardgen::testing::checkSameGraph;

// Every op kind, plural results with partial types/shardings, a nested manual
// computation, a custom call with a rule, and `_` metadata on every object
// that keeps it.
static const char *kRich = R"j({
  "_comment": "first key",
  "format": "shardgen-graph",
  "version": 1,
  "name": "rich",
  "meshes": [
    {"name": "mesh", "axes": [{"name": "x", "size": 2}, {"name": "y", "size": 4}],
     "device_ids": [7, 6, 5, 4, 3, 2, 1, 0], "_mesh_note": {"a": [1, 2]}},
    {"name": "solo", "axes": [], "device_ids": [3]},
    {"name": "empty"}
  ],
  "inputs": [
    {"name": "a", "type": "tensor<8x16xf32>", "sharding": "<@mesh, [{x, ?}, {}p1]>",
     "_origin": "user"},
    {"name": "b", "type": "tensor<16x8xf32>", "sharding": "<@mesh, [{}, {\"y\":(1)2}], replicated={x}>"},
    {"name": "p", "type": "tensor<8x16xi1>"},
    {"name": "s", "type": "tensor<f32>"}
  ],
  "ops": [
    {"op": "constant", "result": "c0", "type": "tensor<8x16xf32>", "value": 0.5, "_why": null},
    {"op": "constant", "result": "c1", "value": [[1, 2], [3, 4]]},
    {"op": "constant", "result": "c2", "value": [true, false]},
    {"op": "constant", "result": "c3", "type": "tensor<3xbf16>", "value": [1.5, "inf", "-inf"]},
    {"op": "constant", "result": "c4", "type": "tensor<2xf64>", "value": [0.1, "nan"]},
    {"op": "constant", "result": "c5", "type": "tensor<2x0xi64>", "value": [[], []]},
    {"op": "iota", "result": "io", "type": "tensor<8x16xi32>", "iota_dimension": 1},
    {"op": "add", "operands": ["a", "c0"], "result": "t0"},
    {"op": "stablehlo.subtract", "operands": ["t0", "a"], "result": "t1",
     "type": "tensor<8x16xf32>", "sharding": "<@mesh, [{x}, {y}]>"},
    {"op": "multiply", "operands": ["t1", "t1"], "result": "t2"},
    {"op": "divide", "operands": ["t2", "t1"], "result": "t3"},
    {"op": "maximum", "operands": ["t3", "t1"], "result": "t4"},
    {"op": "minimum", "operands": ["t4", "t1"], "result": "t5"},
    {"op": "power", "operands": ["t5", "t1"], "result": "t6"},
    {"op": "remainder", "operands": ["t6", "t1"], "result": "t7"},
    {"op": "and", "operands": ["p", "p"], "result": "l0"},
    {"op": "or", "operands": ["l0", "p"], "result": "l1"},
    {"op": "xor", "operands": ["l1", "p"], "result": "l2"},
    {"op": "not", "operands": ["l2"], "result": "l3"},
    {"op": "negate", "operands": ["t7"], "result": "u0"},
    {"op": "abs", "operands": ["u0"], "result": "u1"},
    {"op": "exponential", "operands": ["u1"], "result": "u2"},
    {"op": "log", "operands": ["u2"], "result": "u3"},
    {"op": "tanh", "operands": ["u3"], "result": "u4"},
    {"op": "sqrt", "operands": ["u4"], "result": "u5"},
    {"op": "rsqrt", "operands": ["u5"], "result": "u6"},
    {"op": "logistic", "operands": ["u6"], "result": "u7"},
    {"op": "floor", "operands": ["u7"], "result": "u8"},
    {"op": "ceil", "operands": ["u8"], "result": "u9"},
    {"op": "sign", "operands": ["u9"], "result": "u10"},
    {"op": "sine", "operands": ["u10"], "result": "u11"},
    {"op": "cosine", "operands": ["u11"], "result": "u12"},
    {"op": "compare", "operands": ["u12", "a"], "result": "cmp", "comparison_direction": "GE"},
    {"op": "select", "operands": ["cmp", "u12", "a"], "result": "sel"},
    {"op": "clamp", "operands": ["c0", "sel", "a"], "result": "cl"},
    {"op": "convert", "operands": ["cl"], "result": "cv", "type": "tensor<8x16xf16>"},
    {"op": "dot_general", "operands": ["a", "b"], "result": "d",
     "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]},
    {"op": "dot_general", "operands": ["a", "a"], "result": "d2", "lhs_batching_dimensions": [0],
     "rhs_batching_dimensions": [0], "lhs_contracting_dimensions": [1],
     "rhs_contracting_dimensions": [1]},
    {"op": "transpose", "operands": ["a"], "result": "tr", "permutation": [1, 0]},
    {"op": "reshape", "operands": ["a"], "result": "rs", "type": "tensor<128xf32>"},
    {"op": "broadcast_in_dim", "operands": ["s"], "result": "bc", "type": "tensor<8x16xf32>",
     "broadcast_dimensions": []},
    {"op": "reduce", "operands": ["a", "s"], "result": "rd", "dimensions": [1], "reducer": "max"},
    {"op": "concatenate", "operands": ["a", "a", "a"], "result": "cc", "dimension": 0},
    {"op": "slice", "operands": ["a"], "result": "sl1", "start_indices": [0, 0],
     "limit_indices": [4, 8]},
    {"op": "slice", "operands": ["a"], "result": "sl2", "start_indices": [0, 1],
     "limit_indices": [8, 16], "strides": [2, 3]},
    {"op": "pad", "operands": ["a", "s"], "result": "pd", "edge_padding_low": [1, 0],
     "edge_padding_high": [0, 2], "interior_padding": [1, 1]},
    {"op": "reverse", "operands": ["a"], "result": "rv", "dimensions": [0, 1]},
    {"op": "constant", "result": "at", "type": "tensor<i32>", "value": -3},
    {"op": "dynamic_slice", "operands": ["a", "at", "at"], "result": "ds",
     "slice_sizes": [4, 8]},
    {"op": "dynamic_update_slice", "operands": ["a", "ds", "at", "at"], "result": "dus"},
    {"op": "sharding_constraint", "operands": ["rv"], "result": "sc",
     "sharding": "<@mesh, [{y}, {?}], unreduced={x}>"},
    {"op": "propagation_barrier", "operands": ["sc"], "result": "pb",
     "allowed_direction": "BACKWARD"},
    {"op": "custom_call", "operands": ["a", "b"], "results": ["k0", "k1"],
     "types": [null, "tensor<8x8xf32>"], "shardings": ["<@mesh, [{x}, {}]>", null],
     "call_target_name": "my_kernel",
     "sharding_rule": "([i, j], [j, k])->([i, k], [i, k]) {i=8, j=16, k=8} reduction={j}",
     "_backend_config": "fast"},
    {"op": "custom_call", "operands": ["a"], "results": [], "call_target_name": "sink"},
    {"op": "sharding_group", "operands": ["k0"], "group_id": 3},
    {"op": "manual_computation", "operands": ["a"], "results": ["m"],
     "in_shardings": ["<@mesh, [{x}, {y, ?}]>"], "out_shardings": ["<@mesh, [{x}, {?}]>"],
     "manual_axes": ["x"], "_mc": 1,
     "body": {
       "_body_note": "local",
       "args": [{"name": "al", "type": "tensor<4x16xf32>", "sharding": "<@mesh, [{}, {y}]>",
                 "_arg": true}],
       "ops": [
         {"op": "all_reduce", "operands": ["al"], "result": "r0", "axes": ["x"], "reducer": "add"},
         {"op": "all_gather", "operands": ["r0"], "result": "r1", "axes": ["x"], "dimension": 0},
         {"op": "reduce_scatter", "operands": ["r1"], "result": "r2", "axes": ["x"],
          "dimension": 0, "reducer": "min"},
         {"op": "all_to_all", "operands": ["r2"], "result": "r3", "axes": ["x"],
          "split_dimension": 1, "concat_dimension": 0},
         {"op": "collective_permute", "operands": ["r3"], "result": "r4", "axes": ["x"],
          "shift": -1},
         {"op": "axis_index", "result": "ix", "axis": "x"},
         {"op": "manual_computation", "operands": ["r4"], "results": ["n"],
          "in_shardings": ["<@mesh, [{}, {y}]>"], "out_shardings": ["<@mesh, [{}, {y}]>"],
          "manual_axes": ["y"],
          "body": {"args": [{"name": "al", "type": "tensor<4x4xf32>"}],
                   "ops": [{"op": "negate", "operands": ["al"], "result": "r0"}],
                   "return": ["r0"]}}
       ],
       "return": ["n"]
     }}
  ],
  "outputs": [
    {"value": "m", "sharding": "<@mesh, [{x}, {}]>", "_out": [1]},
    {"value": "a"},
    {"value": "d"}
  ],
  "_tool": {"version": "1.2", "flags": ["a", "b"]}
})j";

TEST_CASE("round trip: a graph using every op and every metadata slot") {
  Graph original = readGraph(kRich);
  std::string written = writeGraph(original);
  Graph reread = readGraph(written);
  checkSameGraph(original, reread);
  // Writing is a fixed point after one round.
  CHECK(writeGraph(reread) == written);
}

TEST_CASE("round trip: the reader kept what the rich graph says") {
  Graph graph = readGraph(kRich);
  CHECK(graph.metadata == Metadata{{"_comment", "\"first key\""},
                                   {"_tool", R"({"version":"1.2","flags":["a","b"]})"}});
  CHECK(graph.meshes[0].metadata == Metadata{{"_mesh_note", R"({"a":[1,2]})"}});
  CHECK(graph.meshes[0].deviceIds == std::vector<int64_t>{7, 6, 5, 4, 3, 2, 1, 0});
  CHECK(graph.meshes[1].isMaximal());
  CHECK(graph.meshes[2].isEmpty());
  CHECK(graph.main.args[0].metadata == Metadata{{"_origin", "\"user\""}});
  CHECK(graph.main.results[0].metadata == Metadata{{"_out", "[1]"}});

  const Op *customCall = nullptr, *manual = nullptr, *group = nullptr;
  for (const auto &op : graph.main.ops) {
    if (op.kind == OpKind::CustomCall && !customCall)
      customCall = &op;
    if (op.kind == OpKind::ManualComputation)
      manual = &op;
    if (op.kind == OpKind::ShardingGroup)
      group = &op;
  }
  REQUIRE(customCall);
  CHECK(customCall->pluralResults);
  CHECK(customCall->results.size() == 2);
  CHECK_FALSE(customCall->declaredTypes[0].has_value());
  CHECK(customCall->declaredTypes[1] == TensorType{ElementType::F32, {8, 8}});
  CHECK(customCall->shardings[0].has_value());
  CHECK_FALSE(customCall->shardings[1].has_value());
  const auto &call = customCall->attr<CustomCallAttrs>();
  CHECK(call.callTargetName == "my_kernel");
  REQUIRE(call.shardingRule.has_value());
  CHECK(call.shardingRule->factorSizes == std::vector<int64_t>{8, 16, 8});
  CHECK(customCall->metadata == Metadata{{"_backend_config", "\"fast\""}});

  REQUIRE(group);
  CHECK(group->results.empty());
  CHECK(group->attr<ShardingGroupAttrs>().groupId == 3);

  REQUIRE(manual);
  REQUIRE(manual->body());
  const Region &body = *manual->body();
  CHECK(body.pointer == manual->pointer + "/body");
  CHECK(body.parentOp == manual);
  CHECK(body.metadata == Metadata{{"_body_note", "\"local\""}});
  CHECK(body.args[0].metadata == Metadata{{"_arg", "true"}});
  CHECK(body.args[0].pointer == manual->pointer + "/body/args/0");
  CHECK(body.results[0].pointer == manual->pointer + "/body/return/0");
  CHECK(graph.value(body.args[0].value).region == &body);
  CHECK(manual->attr<ManualComputationAttrs>().manualAxes == std::vector<std::string>{"x"});
  CHECK(body.ops[4].attr<CollectivePermuteAttrs>().shift == -1);
  // The nested body reuses the names "al" and "r0": it is its own scope.
  const Op &inner = body.ops[6];
  REQUIRE(inner.body());
  CHECK(graph.value(inner.body()->args[0].value).name == "al");
  CHECK(inner.body()->args[0].value != body.args[0].value);
  CHECK(inner.body()->ops[0].pointer == manual->pointer + "/body/ops/6/body/ops/0");
}

TEST_CASE("writer: key order and layout") {
  const char *input = R"({"version": 1, "_z": 1, "outputs": [{"_o": 2, "value": "y"}],
    "ops": [{"lhs_contracting_dimensions": [1], "result": "y", "operands": ["x", "x"],
             "op": "stablehlo.dot_general", "rhs_contracting_dimensions": [0],
             "sharding": "<@m, [{a}, {}]>", "_c": "note"}],
    "inputs": [{"type": "tensor<2x2xf32>", "name": "x", "sharding": "<@m, [{\"a\"}, {?}]>"}],
    "meshes": [{"axes": [{"size": 2, "name": "a"}], "name": "m"}],
    "format": "shardgen-graph", "_a": [true]})";
  const char *expected = R"({
  "format": "shardgen-graph",
  "version": 1,
  "meshes": [
    {
      "name": "m",
      "axes": [
        {"name": "a", "size": 2}
      ]
    }
  ],
  "inputs": [
    {"name": "x", "type": "tensor<2x2xf32>", "sharding": "<@m, [{\"a\"}, {?}]>"}
  ],
  "ops": [
    {
      "op": "dot_general",
      "operands": ["x", "x"],
      "result": "y",
      "sharding": "<@m, [{\"a\"}, {}]>",
      "lhs_batching_dimensions": [],
      "rhs_batching_dimensions": [],
      "lhs_contracting_dimensions": [1],
      "rhs_contracting_dimensions": [0],
      "_c": "note"
    }
  ],
  "outputs": [
    {"value": "y", "_o": 2}
  ],
  "_z": 1,
  "_a": [true]
}
)";
  CHECK(writeGraph(readGraph(input)) == expected);
}

TEST_CASE("writer: shardings a pass set are written per result") {
  Graph graph = readGraph(R"({"format": "shardgen-graph", "version": 1,
    "meshes": [{"name": "m", "axes": [{"name": "a", "size": 2}]}],
    "inputs": [{"name": "x", "type": "tensor<4xf32>"}],
    "ops": [{"op": "custom_call", "operands": ["x"], "results": ["p", "q"],
             "call_target_name": "f"}],
    "outputs": [{"value": "q"}]})");
  // A pass may size the per-result vectors lazily: only the first is set.
  Op &call = graph.main.ops[0];
  call.shardings = {TensorSharding{"m", {DimSharding{{AxisRef::full("a")}, true, {}}}, {}, {}}};
  std::string text = writeGraph(graph);
  CHECK(text.find(R"("shardings": ["<@m, [{\"a\"}]>", null])") != std::string::npos);
  Graph reread = readGraph(text);
  CHECK(reread.main.ops[0].shardings[0] == call.shardings[0]);
  CHECK_FALSE(reread.main.ops[0].shardings[1].has_value());
}

TEST_CASE("round trip: a reduce with a body, several inputs, and optimization_barrier") {
  const std::string text = R"({
  "format": "shardgen-graph", "version": 1, "name": "bodies", "meshes": [],
  "inputs": [{"name": "x", "type": "tensor<4x8xf32>"}, {"name": "i", "type": "tensor<4x8xi32>"}],
  "ops": [
    {"op": "constant", "result": "lowest", "value": "-inf", "type": "tensor<f32>"},
    {"op": "constant", "result": "zero", "value": 0, "type": "tensor<i32>"},
    {"op": "reduce", "operands": ["x", "i", "lowest", "zero"], "results": ["v", "k"],
     "dimensions": [1],
     "body": {"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "ai", "type": "tensor<i32>"},
                       {"name": "x", "type": "tensor<f32>", "_note": "names are the body's own"},
                       {"name": "bi", "type": "tensor<i32>"}],
              "ops": [{"op": "compare", "operands": ["a", "x"], "result": "gt",
                       "comparison_direction": "GT"},
                      {"op": "select", "operands": ["gt", "a", "x"], "result": "value"},
                      {"op": "select", "operands": ["gt", "ai", "bi"], "result": "index"}],
              "return": ["value", "index"], "_body": 1}},
    {"op": "optimization_barrier", "operands": ["v", "k"], "results": ["bv", "bk"]}
  ],
  "outputs": [{"value": "bv"}, {"value": "bk"}]
})";
  Graph original = readGraph(text);
  const Op &reduce = original.main.ops.at(2);
  REQUIRE(reduce.body());
  CHECK(reduce.body()->pointer == "/ops/2/body");
  CHECK(reduce.body()->parentOp == &reduce);
  CHECK(reduce.body()->metadata == Metadata{{"_body", "1"}});
  CHECK(reduce.body()->args[2].pointer == "/ops/2/body/args/2");
  CHECK(original.value(reduce.body()->args[2].value).region == reduce.body());
  CHECK_FALSE(reduce.attr<ReduceAttrs>().reducer.has_value());
  std::string written = writeGraph(original);
  CHECK(written.find("\"reducer\"") == std::string::npos);
  Graph reread = readGraph(written);
  checkSameGraph(original, reread);
  CHECK(writeGraph(reread) == written);
}

TEST_CASE("round trip: the window ops, their defaults written back, two scalar regions") {
  const std::string text = R"({
  "format": "shardgen-graph", "version": 1, "name": "windows", "meshes": [],
  "inputs": [{"name": "x", "type": "tensor<2x6x6x3xf32>"}, {"name": "w", "type": "tensor<3x3x3x4xf32>"},
             {"name": "g", "type": "tensor<2x3x3x3xf32>"}],
  "ops": [
    {"op": "constant", "result": "zero", "value": 0.0, "type": "tensor<f32>"},
    {"op": "reduce_window", "operands": ["x", "zero"], "result": "pooled",
     "window_dimensions": [1, 2, 2, 1], "window_strides": [1, 2, 2, 1],
     "body": {"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "b", "type": "tensor<f32>"}],
              "ops": [{"op": "add", "operands": ["a", "b"], "result": "s"}], "return": ["s"]}},
    {"op": "select_and_scatter", "operands": ["x", "g", "zero"], "result": "grad",
     "window_dimensions": [1, 2, 2, 1], "window_strides": [1, 2, 2, 1], "padding": [[0, 0], [0, 0], [0, 0], [0, 0]],
     "select": {"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "b", "type": "tensor<f32>"}],
                "ops": [{"op": "compare", "operands": ["a", "b"], "result": "ge",
                         "comparison_direction": "GE"}], "return": ["ge"]},
     "scatter": {"args": [{"name": "a", "type": "tensor<f32>"}, {"name": "b", "type": "tensor<f32>"}],
                 "ops": [{"op": "add", "operands": ["a", "b"], "result": "s"}], "return": ["s"]}},
    {"op": "convolution", "operands": ["x", "w"], "result": "y",
     "input_batch_dimension": 0, "input_feature_dimension": 3, "input_spatial_dimensions": [1, 2],
     "kernel_input_feature_dimension": 2, "kernel_output_feature_dimension": 3,
     "kernel_spatial_dimensions": [0, 1], "output_batch_dimension": 0,
     "output_feature_dimension": 3, "output_spatial_dimensions": [1, 2],
     "window_reversal": [true, false], "padding": [[1, 1], [0, 2]]}
  ],
  "outputs": [{"value": "pooled"}, {"value": "grad"}, {"value": "y"}]
})";
  Graph original = readGraph(text);
  const Op &scatter = original.main.ops.at(2);
  REQUIRE(scatter.regions.size() == 2);
  CHECK(scatter.regions[1].pointer == "/ops/2/scatter");
  const auto &pool = original.main.ops.at(1).attr<ReduceWindowAttrs>();
  CHECK(pool.baseDilations == std::vector<int64_t>{1, 1, 1, 1});
  CHECK(pool.padding == std::vector<std::array<int64_t, 2>>(4, {0, 0}));
  const auto &conv = original.main.ops.at(3).attr<ConvolutionAttrs>();
  CHECK(conv.windowReversal == std::vector<bool>{true, false});
  CHECK(conv.lhsDilation == std::vector<int64_t>{1, 1});
  const std::string written = writeGraph(original);
  CHECK(written.find("\"base_dilations\": [1, 1, 1, 1]") != std::string::npos);
  checkSameGraph(original, readGraph(written));
}

TEST_CASE("round trip: tokens, after_all and a token through optimization_barrier") {
  const char *text = R"({
  "format": "shardgen-graph",
  "version": 1,
  "meshes": [{"name": "mesh", "axes": [{"name": "x", "size": 2}]}],
  "inputs": [{"name": "t", "type": "!stablehlo.token", "sharding": "<@mesh, []>"},
             {"name": "a", "type": "tensor<4xf32>"}],
  "ops": [
    {"op": "after_all", "operands": [], "result": "fresh"},
    {"op": "after_all", "operands": ["t", "fresh"], "result": "joined", "type": "!stablehlo.token"},
    {"op": "optimization_barrier", "operands": ["joined", "a"], "results": ["t2", "a2"]}
  ],
  "outputs": [{"value": "a2"}, {"value": "t2"}]
})";
  Graph graph = readGraph(text);
  CHECK(graph.type(graph.main.args[0].value) == tokenType());
  CHECK(graph.main.ops[0].kind == OpKind::AfterAll);
  REQUIRE(graph.main.ops[1].declaredTypes.size() == 1);
  CHECK(graph.main.ops[1].declaredTypes[0]->isToken());
  const std::string written = writeGraph(graph);
  CHECK(written.find(R"({"name": "t", "type": "!stablehlo.token", "sharding": "<@mesh, []>"})") !=
        std::string::npos);
  checkSameGraph(readGraph(written), graph);
}
