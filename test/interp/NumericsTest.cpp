// Interpreter numerics: IEEE 754-2019 maximum/minimum (signed zeros, NaN),
// sums in the compute type, and the error bounds evaluateWithBounds returns.

#include <cmath>
#include <limits>

#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

namespace {

/// Each element's value and sign bit, so -0 and +0 differ.
std::vector<std::pair<double, bool>> signedValues(const Literal &literal) {
  std::vector<std::pair<double, bool>> out;
  for (int64_t i = 0; i < literal.numElements(); ++i)
    out.emplace_back(literal.getFloat(i), std::signbit(literal.getFloat(i)));
  return out;
}

} // namespace

TEST_CASE("maximum(+0, -0) is +0 and minimum(-0, +0) is -0 in every float type; NaN propagates") {
  for (const char *type : {"f32", "f64", "f16", "bf16"}) {
    CAPTURE(type);
    const std::string t = std::string("tensor<5x") + type + ">";
    const Literal a = literal(t, {0.0, -0.0, -0.0, kNaN, 1.0});
    const Literal b = literal(t, {-0.0, 0.0, -0.0, 1.0, kNaN});
    const Literal max = evalOne(opGraph("maximum", {t, t}), {a, b});
    const Literal min = evalOne(opGraph("minimum", {t, t}), {a, b});
    CHECK(signedValues(max).at(0) == std::pair(0.0, false));
    CHECK(signedValues(max).at(1) == std::pair(0.0, false));
    CHECK(signedValues(max).at(2) == std::pair(0.0, true));
    CHECK(signedValues(min).at(0) == std::pair(0.0, true));
    CHECK(signedValues(min).at(1) == std::pair(0.0, true));
    CHECK(signedValues(min).at(2) == std::pair(0.0, true));
    for (int64_t i : {3, 4}) {
      CHECK(std::isnan(max.getFloat(i)));
      CHECK(std::isnan(min.getFloat(i)));
    }
  }
}

TEST_CASE("max and min reducers order signed zeros as IEEE maximum/minimum") {
  const Literal zeros = literal("tensor<3xf32>", {-0.0, 0.0, -0.0});
  const std::string reduce = R"(, "dimensions": [0], "reducer": ")";
  for (auto [reducer, init, sign] :
       {std::tuple("max", -1.0, false), std::tuple("min", 1.0, true)}) {
    CAPTURE(reducer);
    const Literal out = evalOne(
        opGraph("reduce", {"tensor<3xf32>", "tensor<f32>"}, reduce + reducer + "\"", "tensor<f32>"),
        {zeros, literal("tensor<f32>", {init})});
    CHECK(out.getFloat(0) == 0.0);
    CHECK(std::signbit(out.getFloat(0)) == sign);
  }
}

TEST_CASE("f32 sums accumulate in f32, as XLA's CPU backend (not in double)") {
  // 2^24 + 1 + 1 - 2^24: f32 loses each 1 (ties to even), double keeps them.
  const Literal x = literal("tensor<4xf32>", {16777216.0, 1.0, 1.0, -16777216.0});
  const Literal sum = evalOne(opGraph("reduce", {"tensor<4xf32>", "tensor<f32>"},
                                      R"(, "dimensions": [0], "reducer": "add")", "tensor<f32>"),
                              {x, literal("tensor<f32>", {0.0})});
  CHECK(sum.getFloat(0) == 0.0);
}

TEST_CASE("error bounds: 0 where the compiled code computes the same, growing with sums") {
  const std::string json = R"({"format": "shardgen-graph", "version": 1, "name": "b",
    "inputs": [{"name": "a", "type": "tensor<2x3xf32>"}, {"name": "w", "type": "tensor<3x2xf32>"}],
    "ops": [
      {"op": "multiply", "operands": ["a", "a"], "result": "sq"},
      {"op": "dot_general", "operands": ["a", "w"], "result": "d",
       "lhs_contracting_dimensions": [1], "rhs_contracting_dimensions": [0]},
      {"op": "tanh", "operands": ["d"], "result": "t"},
      {"op": "compare", "operands": ["t", "t"], "result": "same", "comparison_direction": "EQ"}
    ],
    "outputs": [{"value": "sq"}, {"value": "d"}, {"value": "t"}, {"value": "same"}]})";
  Graph graph = loadGraph(json);
  const BoundedEvaluation eval =
      evaluateWithBounds(graph, {literal("tensor<2x3xf32>", {1, 2, 3, -4, 5, -6}),
                                 literal("tensor<3x2xf32>", {0.5, 1, -1, 2, 0.25, -3})});
  REQUIRE(eval.bounds.size() == 4);
  for (double b : floats(eval.bounds[0]))
    CHECK(b == 0); // an elementwise op on exact operands: the same bits
  // d[0][0] = 0.5 - 2 + 0.75 = -0.75 from |terms| 0.5 + 2 + 0.75 = 3.25:
  // (2 * 3 * 2^-24 + 2 * 2^-24) * 3.25, plus one ulp of f32 at 0.75.
  const double expected = 8 * std::ldexp(1.0, -24) * 3.25;
  CHECK(eval.bounds[1].getFloat(0) > expected);
  CHECK(eval.bounds[1].getFloat(0) < expected + std::ldexp(1.0, -23));
  // tanh: |tanh'| <= 1 times that, plus the approximation's 8 ulp.
  CHECK(eval.bounds[2].getFloat(0) > 0);
  CHECK(eval.bounds[2].getFloat(0) < eval.bounds[1].getFloat(0) + 10 * std::ldexp(1.0, -24));
  // t == t compares two uncertain values that overlap: undetermined.
  CHECK(std::isinf(eval.bounds[3].getFloat(0)));
}
