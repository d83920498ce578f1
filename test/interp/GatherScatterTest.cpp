// gather and scatter: the facts of openxla/stablehlo's interpreter tests
// (stablehlo/tests/interpret/gather.mlir, scatter.mlir), StableHLO's clamp
// of gather's starts for every index type, and scatter's skip of each
// update element whose place lies outside the input.

#include <doctest/doctest.h>

#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

namespace {

/// first, first + 1, ... as doubles.
std::vector<double> counting(int64_t n, double first = 1) {
  std::vector<double> out;
  for (int64_t i = 0; i < n; ++i)
    out.push_back(first + static_cast<double>(i));
  return out;
}

std::string gatherAttrs(const std::string &numbers, const std::string &sliceSizes) {
  return R"(, "dimension_numbers": {)" + numbers + R"(}, "slice_sizes": )" + sliceSizes;
}

/// A scatter's attributes with an update computation of element type
/// `element` whose ops are `ops` (on args "a", "b"), returning `result`.
std::string scatterAttrs(const std::string &numbers, const std::string &element,
                         const std::string &ops, const std::string &result) {
  const std::string scalar = "tensor<" + element + ">";
  return R"(, "scatter_dimension_numbers": {)" + numbers +
         R"(}, "update_computation": {"args": [{"name": "a", "type": ")" + scalar +
         R"("}, {"name": "b", "type": ")" + scalar + R"("}], "ops": [)" + ops +
         R"(], "return": [")" + result + R"("]})";
}

const std::string kAdd = R"({"op": "add", "operands": ["a", "b"], "result": "s"})";

} // namespace

TEST_CASE("gather: stablehlo/tests/interpret/gather.mlir, gather_op_test") {
  const std::string attrs = gatherAttrs(R"("offset_dims": [2, 3], "collapsed_slice_dims": [0],
                     "start_index_map": [1, 0], "index_vector_dim": 2)",
                                        "[1, 2, 2]");
  Literal result = evalOne(opGraph("gather", {"tensor<3x4x2xi64>", "tensor<2x3x2xi64>"}, attrs),
                           {literal("tensor<3x4x2xi64>", counting(24)),
                            intLiteral("tensor<2x3x2xi64>", {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 9})});
  REQUIRE(result.shape() == Shape{2, 3, 2, 2});
  CHECK(ints(result) == std::vector<int64_t>{1, 2,  3,  4,  3,  4,  5,  6,  13, 14, 15, 16,
                                             9, 10, 11, 12, 11, 12, 13, 14, 17, 18, 19, 20});
}

TEST_CASE("gather: stablehlo/tests/interpret/gather.mlir, gather_op_with_batching_dim_test") {
  const std::string attrs = gatherAttrs(
      R"("offset_dims": [3, 4], "collapsed_slice_dims": [1], "operand_batching_dims": [0],
         "start_indices_batching_dims": [1], "start_index_map": [2, 1], "index_vector_dim": 3)",
      "[1, 1, 2, 2]");
  Literal result =
      evalOne(opGraph("gather", {"tensor<2x3x4x2xi64>", "tensor<2x2x3x2xi64>"}, attrs),
              {literal("tensor<2x3x4x2xi64>", counting(48)),
               intLiteral("tensor<2x2x3x2xi64>", {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 9,
                                                  0, 0, 2, 1, 2, 2, 1, 2, 0, 1, 1, 0})});
  REQUIRE(result.shape() == Shape{2, 2, 3, 2, 2});
  CHECK(ints(result) == std::vector<int64_t>{1,  2,  3,  4,  3,  4,  5,  6,  13, 14, 15, 16,
                                             33, 34, 35, 36, 35, 36, 37, 38, 41, 42, 43, 44,
                                             1,  2,  3,  4,  13, 14, 15, 16, 21, 22, 23, 24,
                                             43, 44, 45, 46, 33, 34, 35, 36, 27, 28, 29, 30});
}

TEST_CASE("gather clamps each start to [0, dim - slice size], for any index type") {
  // Rows of 2 out of 5: i8's minimum reads from 0, its maximum the last 2.
  const std::string rows =
      gatherAttrs(R"("offset_dims": [1], "start_index_map": [0], "index_vector_dim": 1)", "[2]");
  CHECK(floats(evalOne(opGraph("gather", {"tensor<5xf32>", "tensor<3x1xi8>"}, rows),
                       {literal("tensor<5xf32>", counting(5, 0)),
                        intLiteral("tensor<3x1xi8>", {-128, 127, 2})})) ==
        std::vector<double>{0, 1, 3, 4, 2, 3});
  // index_vector_dim = rank: each element is a whole start; a ui64 of 2^63
  // or more is past the end.
  const std::string scalars = gatherAttrs(
      R"("collapsed_slice_dims": [0], "start_index_map": [0], "index_vector_dim": 1)", "[1]");
  for (const char *type : {"tensor<2xui64>", "tensor<2xi64>", "tensor<2xui8>", "tensor<2xi16>"}) {
    CAPTURE(type);
    const bool wide = std::string(type).find("64") != std::string::npos;
    const int64_t big = wide ? std::numeric_limits<int64_t>::min() + 5 : 200;
    const bool pastEnd = std::string(type) != "tensor<2xi64>" || !wide;
    Literal result =
        evalOne(opGraph("gather", {"tensor<5xf32>", type}, scalars),
                {literal("tensor<5xf32>", counting(5, 0)),
                 intLiteral(type, {std::string(type) == "tensor<2xi16>" ? -7 : big, 1})});
    const double first = std::string(type) == "tensor<2xi16>" ? 0 : (pastEnd ? 4 : 0);
    CHECK(floats(result) == std::vector<double>{first, 1});
  }
}

TEST_CASE("scatter: stablehlo/tests/interpret/scatter.mlir, scatter_op_test") {
  const std::string attrs =
      scatterAttrs(R"("update_window_dims": [2, 3], "inserted_window_dims": [0],
                      "scatter_dims_to_operand_dims": [1, 0], "index_vector_dim": 2)",
                   "i64", kAdd, "s");
  Literal result = evalOne(
      opGraph("scatter", {"tensor<3x4x2xi64>", "tensor<2x3x2xi64>", "tensor<2x3x2x2xi64>"}, attrs),
      {literal("tensor<3x4x2xi64>", counting(24)),
       intLiteral("tensor<2x3x2xi64>", {0, 2, 1, 0, 2, 1, 0, 1, 1, 0, 0, 9}),
       literal("tensor<2x3x2x2xi64>", std::vector<double>(24, 1))});
  CHECK(ints(result) == std::vector<int64_t>{1,  2,  5,  6,  7,  8,  7,  8,  10, 11, 12, 13,
                                             14, 15, 16, 17, 18, 19, 20, 21, 21, 22, 23, 24});
}

TEST_CASE("scatter: stablehlo/tests/interpret/scatter.mlir, scatter_op_with_batching_dim_test") {
  const std::string attrs = scatterAttrs(
      R"("update_window_dims": [3, 4], "inserted_window_dims": [1], "input_batching_dims": [0],
         "scatter_indices_batching_dims": [1], "scatter_dims_to_operand_dims": [2, 1],
         "index_vector_dim": 3)",
      "i64", kAdd, "s");
  Literal result = evalOne(
      opGraph("scatter", {"tensor<2x3x4x2xi64>", "tensor<2x2x3x2xi64>", "tensor<2x2x3x2x2xi64>"},
              attrs),
      {literal("tensor<2x3x4x2xi64>", counting(48)),
       intLiteral("tensor<2x2x3x2xi64>",
                  {0, 0, 1, 0, 2, 1, 0, 1, 1, 1, 0, 9, 0, 0, 2, 1, 2, 2, 1, 2, 0, 1, 1, 0}),
       literal("tensor<2x2x3x2x2xi64>", std::vector<double>(48, 1))});
  CHECK(ints(result) == std::vector<int64_t>{3,  4,  6,  7,  6,  7,  7,  8,  9,  10, 11, 12,
                                             15, 16, 17, 18, 17, 18, 19, 20, 22, 23, 24, 25,
                                             25, 26, 28, 29, 30, 31, 31, 32, 35, 36, 38, 39,
                                             38, 39, 39, 40, 41, 42, 44, 45, 46, 47, 47, 48});
}

TEST_CASE("scatter skips each update element whose place lies outside the input") {
  // A window of 3 at starts 3 and -1 in a dim of 5: the elements that land
  // inside are combined, the others skipped (the spec's per-element rule).
  const std::string attrs =
      scatterAttrs(R"("update_window_dims": [1], "scatter_dims_to_operand_dims": [0],
                      "index_vector_dim": 1)",
                   "f32", kAdd, "s");
  auto run = [&](int64_t start) {
    return floats(
        evalOne(opGraph("scatter", {"tensor<5xf32>", "tensor<1x1xi32>", "tensor<1x3xf32>"}, attrs),
                {literal("tensor<5xf32>", {0, 0, 0, 0, 0}), intLiteral("tensor<1x1xi32>", {start}),
                 literal("tensor<1x3xf32>", {1, 2, 3})}));
  };
  CHECK(run(3) == std::vector<double>{0, 0, 0, 1, 2});
  CHECK(run(-1) == std::vector<double>{2, 3, 0, 0, 0});
  CHECK(run(5) == std::vector<double>{0, 0, 0, 0, 0});
  CHECK(run(-3) == std::vector<double>{0, 0, 0, 0, 0});
}

TEST_CASE("scatter's update computation: replace, multiply, max, and a general body") {
  const std::string numbers = R"("inserted_window_dims": [0], "scatter_dims_to_operand_dims": [0],
                                 "index_vector_dim": 1)";
  auto run = [&](const std::string &ops, const std::string &result) {
    return floats(
        evalOne(opGraph("scatter", {"tensor<3xf32>", "tensor<3x1xi64>", "tensor<3xf32>"},
                        scatterAttrs(numbers, "f32", ops, result)),
                {literal("tensor<3xf32>", {10, 20, 30}), intLiteral("tensor<3x1xi64>", {2, 0, 2}),
                 literal("tensor<3xf32>", {1, 2, 3})}));
  };
  // Updates apply in order: the last of two at one place wins a replace.
  CHECK(run("", "b") == std::vector<double>{2, 20, 3});
  CHECK(run(R"({"op": "multiply", "operands": ["a", "b"], "result": "m"})", "m") ==
        std::vector<double>{20, 20, 90});
  CHECK(run(R"({"op": "maximum", "operands": ["a", "b"], "result": "m"})", "m") ==
        std::vector<double>{10, 20, 30});
  // 2a - b: not commutative, applied as (current, update).
  CHECK(run(R"({"op": "add", "operands": ["a", "a"], "result": "t"},
               {"op": "subtract", "operands": ["t", "b"], "result": "d"})",
            "d") == std::vector<double>{18, 20, 115});
}

TEST_CASE("scatter of two inputs: the body takes both current values, then both updates") {
  // JAX's argmax by scatter: per place the larger value and its id (ties
  // keep the current); and a sum of each. Index 3 lies outside: skipped.
  auto run = [](const std::string &ops, const std::string &returned) {
    const std::string json = R"({"format": "shardgen-graph", "version": 1, "meshes": [],
      "inputs": [{"name": "x", "type": "tensor<3xf32>"}, {"name": "k", "type": "tensor<3xi32>"},
                 {"name": "i", "type": "tensor<4x1xi64>"}, {"name": "u", "type": "tensor<4xf32>"},
                 {"name": "v", "type": "tensor<4xi32>"}],
      "ops": [{"op": "scatter", "operands": ["x", "k", "i", "u", "v"], "results": ["y", "z"],
               "scatter_dimension_numbers": {"inserted_window_dims": [0],
                 "scatter_dims_to_operand_dims": [0], "index_vector_dim": 1},
               "update_computation": {"args": [{"name": "a", "type": "tensor<f32>"},
                 {"name": "b", "type": "tensor<i32>"}, {"name": "c", "type": "tensor<f32>"},
                 {"name": "d", "type": "tensor<i32>"}], "ops": [)" +
                             ops + R"(], "return": )" + returned + R"(}}],
      "outputs": [{"value": "y"}, {"value": "z"}]})";
    Graph graph = loadGraph(json);
    return evaluate(graph, {literal("tensor<3xf32>", {10, 20, 30}),
                            intLiteral("tensor<3xi32>", {-1, -1, -1}),
                            intLiteral("tensor<4x1xi64>", {2, 0, 2, 3}),
                            literal("tensor<4xf32>", {40, 5, 35, 99}),
                            intLiteral("tensor<4xi32>", {0, 1, 2, 3})});
  };
  std::vector<Literal> argmax = run(
      R"({"op": "compare", "operands": ["a", "c"], "result": "keep", "comparison_direction": "GE"},
         {"op": "select", "operands": ["keep", "a", "c"], "result": "m"},
         {"op": "select", "operands": ["keep", "b", "d"], "result": "n"})",
      R"(["m", "n"])");
  REQUIRE(argmax.size() == 2);
  CHECK(floats(argmax[0]) == std::vector<double>{10, 20, 40});
  CHECK(ints(argmax[1]) == std::vector<int64_t>{-1, -1, 0});
  std::vector<Literal> sums = run(R"({"op": "add", "operands": ["a", "c"], "result": "s"},
                                     {"op": "add", "operands": ["b", "d"], "result": "t"})",
                                  R"(["s", "t"])");
  REQUIRE(sums.size() == 2);
  CHECK(floats(sums[0]) == std::vector<double>{15, 20, 105});
  CHECK(ints(sums[1]) == std::vector<int64_t>{0, -1, 1});
}
