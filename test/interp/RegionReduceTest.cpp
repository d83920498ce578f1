// reduce with a body that is no simple reducer: the scalar-region evaluator
// (argmax as JAX writes it, several inputs, f16 rounding per op), and a
// simple body given as a region taking the simple reducer's kernel.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "compiler/interp/ScalarRegion.h"
#include "test/interp/InterpTestUtil.h"
#include "test/support/ArgmaxGraph.h"

using namespace shardgen;
using namespace shardgen::test;
using shardgen::testing::argmaxGraph;

TEST_CASE("argmax: the larger value, the smallest index on ties, the first NaN") {
  Graph graph = loadGraph(argmaxGraph("tensor<3x4xf32>", "", "tensor<3x4xi32>", "[1]",
                                      "tensor<3xf32>", "tensor<3xi32>"));
  Literal x = literal("tensor<3x4xf32>", {1, 5, 2, 5,                 // a tie: index 1
                                          -kInf, -kInf, -kInf, -kInf, // all lowest: the init's 0
                                          3, kNaN, 7, kNaN});         // the first NaN: 1
  Literal index = intLiteral("tensor<3x4xi32>", {0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3});
  std::vector<Literal> out = evaluate(graph, {x, index}); // token, best
  REQUIRE(out.size() == 2);
  CHECK(out[1].getFloat(0) == 5);
  CHECK(out[1].getFloat(1) == -kInf);
  CHECK(std::isnan(out[1].getFloat(2)));
  CHECK(ints(out[0]) == std::vector<int64_t>{1, 0, 1});
}

TEST_CASE("argmax over the outer dimension and over all dimensions") {
  Literal x = literal("tensor<2x3xf32>", {4, 0, 9, 4, 8, 1});
  Literal index = intLiteral("tensor<2x3xi32>", {0, 0, 0, 1, 1, 1});
  Graph outer = loadGraph(argmaxGraph("tensor<2x3xf32>", "", "tensor<2x3xi32>", "[0]",
                                      "tensor<3xf32>", "tensor<3xi32>"));
  std::vector<Literal> out = evaluate(outer, {x, index});
  CHECK(floats(out[1]) == std::vector<double>{4, 8, 9});
  CHECK(ints(out[0]) == std::vector<int64_t>{0, 1, 0});
  Literal flat = intLiteral("tensor<2x3xi32>", {0, 1, 2, 3, 4, 5});
  Graph all = loadGraph(argmaxGraph("tensor<2x3xf32>", "", "tensor<2x3xi32>", "[0, 1]",
                                    "tensor<f32>", "tensor<i32>"));
  out = evaluate(all, {x, flat});
  CHECK(out[0].shape().empty());
  CHECK(ints(out[0]) == std::vector<int64_t>{2});
}

TEST_CASE("a reduce of two inputs with their own bodies: a sum and a product side by side") {
  Graph graph = loadGraph(R"({"format": "shardgen-graph", "version": 1, "meshes": [],
  "inputs": [{"name": "x", "type": "tensor<2x3xi32>"}, {"name": "y", "type": "tensor<2x3xf16>"}],
  "ops": [
    {"op": "constant", "result": "c0", "value": 10, "type": "tensor<i32>"},
    {"op": "constant", "result": "c1", "value": 1, "type": "tensor<f16>"},
    {"op": "reduce", "operands": ["x", "y", "c0", "c1"], "results": ["s", "p"], "dimensions": [1],
     "body": {"args": [{"name": "a", "type": "tensor<i32>"}, {"name": "b", "type": "tensor<f16>"},
                       {"name": "c", "type": "tensor<i32>"}, {"name": "d", "type": "tensor<f16>"}],
              "ops": [{"op": "add", "operands": ["a", "c"], "result": "sum"},
                      {"op": "multiply", "operands": ["b", "d"], "result": "product"}],
              "return": ["sum", "product"]}}],
  "outputs": [{"value": "s"}, {"value": "p"}]})");
  Literal x = intLiteral("tensor<2x3xi32>", {1, 2, 3, 4, 5, 6});
  // f16 rounds after every multiply (a region runs op by op): 1.001 is not
  // an f16, and 1 * 1.0009765625 ... stays on f16's grid.
  Literal y = literal("tensor<2x3xf16>", {2, 3, 4, 1.0009765625, 1.0009765625, 2048});
  std::vector<Literal> out = evaluate(graph, {x, y});
  CHECK(ints(out[0]) == std::vector<int64_t>{16, 25});
  CHECK(floats(out[1])[0] == 24);
  // 1.0009765625^2 = 1.00195407... rounds to 1.001953125 (f16), times 2048.
  CHECK(floats(out[1])[1] == 2052);
}

TEST_CASE("a simple reducer written as a body runs as that reducer") {
  Graph graph = loadGraph(R"({"format": "shardgen-graph", "version": 1, "meshes": [],
  "inputs": [{"name": "x", "type": "tensor<4xf16>"}],
  "ops": [
    {"op": "constant", "result": "zero", "value": 0, "type": "tensor<f16>"},
    {"op": "reduce", "operands": ["x", "zero"], "result": "s", "dimensions": [0],
     "body": {"args": [{"name": "a", "type": "tensor<f16>"}, {"name": "b", "type": "tensor<f16>"}],
              "ops": [{"op": "add", "operands": ["b", "a"], "result": "r"}],
              "return": ["r"]}}],
  "outputs": [{"value": "s"}]})");
  const Op &reduce = graph.main.ops[1];
  CHECK(simpleReducer(reduce) == Reducer::Add);
  // The add reducer accumulates f16 in f32 and rounds once: 2048 + 1 + 1
  // is 2050, where rounding after each add would stay at 2048.
  Literal x = literal("tensor<4xf16>", {2048, 1, 1, 0});
  CHECK(floats(evaluate(graph, {x})[0]) == std::vector<double>{2050});
}

TEST_CASE("the scalar-region evaluator runs each op of a body as the tensor kernels do") {
  Graph graph = loadGraph(R"({"format": "shardgen-graph", "version": 1, "meshes": [],
  "inputs": [],
  "ops": [
    {"op": "constant", "result": "zero", "value": 0, "type": "tensor<bf16>"},
    {"op": "reduce", "operands": ["zero", "zero"], "result": "s", "dimensions": [],
     "body": {"args": [{"name": "a", "type": "tensor<bf16>"}, {"name": "b", "type": "tensor<bf16>"}],
              "ops": [{"op": "constant", "result": "three", "value": 3, "type": "tensor<bf16>"},
                      {"op": "divide", "operands": ["a", "three"], "result": "q"},
                      {"op": "convert", "operands": ["q"], "result": "w", "type": "tensor<i8>"},
                      {"op": "convert", "operands": ["w"], "result": "back", "type": "tensor<bf16>"},
                      {"op": "clamp", "operands": ["b", "back", "three"], "result": "r"}],
              "return": ["r"]}}],
  "outputs": [{"value": "s"}]})");
  interp::ScalarRegion body(graph, *graph.main.ops[1].body());
  CHECK(body.numArguments() == 2);
  CHECK(body.numResults() == 1);
  auto bf16 = [](double x) {
    Literal l(TensorType{ElementType::BF16, {}});
    l.setFloat(0, x);
    return interp::loadScalarBits(l, 0);
  };
  auto value = [](interp::ScalarBits bits) {
    Literal l(TensorType{ElementType::BF16, {}});
    interp::storeScalarBits(l, 0, bits);
    return l.getFloat(0);
  };
  std::vector<interp::ScalarBits> result(1);
  // 200 / 3 = 66.67 rounds to bf16 66.5, truncates to 66 (i8), clamps to [b=0, 3].
  body.run(std::vector<interp::ScalarBits>{bf16(200), bf16(0)}, result);
  CHECK(value(result[0]) == 3);
  // -500 / 3 saturates to -128 in i8, clamped up to b = -5.
  body.run(std::vector<interp::ScalarBits>{bf16(-500), bf16(-5)}, result);
  CHECK(value(result[0]) == -5);
  body.run(std::vector<interp::ScalarBits>{bf16(7), bf16(-5)}, result);
  CHECK(value(result[0]) == 2);
}
