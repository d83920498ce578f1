// sort, chlo.top_k and compare's TOTALORDER: the StableHLO interpreter
// tests (stablehlo/tests/interpret/sort.mlir) and the spec's example
// translated, NaN and signed zeros in TOTALORDER, ties kept in order.

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

namespace {

/// A graph sorting inputs of `types` along `dimension` with a comparator
/// that compares the first input's pair by `direction` (and `compareType`).
std::string sortGraph(const std::vector<std::string> &types, int64_t dimension,
                      const std::string &direction, const std::string &compareType = "",
                      bool stable = true) {
  std::string inputs, operands, results, args;
  for (size_t i = 0; i < types.size(); ++i) {
    const std::string k = std::to_string(i);
    const std::string element = types[i].substr(types[i].rfind('x') + 1);
    inputs +=
        (i ? ", " : "") + std::string(R"({"name": "in)") + k + R"(", "type": ")" + types[i] + "\"}";
    operands += (i ? ", \"in" : "\"in") + k + "\"";
    results += (i ? ", \"out" : "\"out") + k + "\"";
    const std::string scalar = "tensor<" + element.substr(0, element.size() - 1) + ">";
    args += (i ? ", " : "") + std::string(R"({"name": "l)") + k + R"(", "type": ")" + scalar +
            R"("}, {"name": "r)" + k + R"(", "type": ")" + scalar + "\"}";
  }
  const std::string type = compareType.empty() ? "" : R"(, "compare_type": ")" + compareType + "\"";
  return R"({"format": "shardgen-graph", "version": 1, "meshes": [], "inputs": [)" + inputs +
         R"(], "ops": [{"op": "sort", "operands": [)" + operands + R"(], "results": [)" + results +
         R"(], "dimension": )" + std::to_string(dimension) + R"(, "is_stable": )" +
         (stable ? "true" : "false") + R"(, "comparator": {"args": [)" + args +
         R"(], "ops": [{"op": "compare", "operands": ["l0", "r0"], "result": "less",
           "comparison_direction": ")" +
         direction + "\"" + type + R"(}], "return": ["less"]}}],
  "outputs": [)" +
         [&] {
           std::string out;
           for (size_t i = 0; i < types.size(); ++i)
             out += (i ? ", " : "") + std::string(R"({"value": "out)") + std::to_string(i) + "\"}";
           return out;
         }() +
         "]}";
}

double negativeNaN() {
  const uint64_t bits = 0xfff8000000000000ull;
  double x;
  std::memcpy(&x, &bits, sizeof x);
  return x;
}

bool signBit(double x) { return std::signbit(x); }

} // namespace

TEST_CASE("sort: the spec's example, two inputs sorted together by the first, stably") {
  // stablehlo/tests/interpret/sort.mlir @sort_stable and the spec's example.
  Graph graph = loadGraph(sortGraph({"tensor<2x3xi64>", "tensor<2x3xi64>"}, 0, "GT"));
  std::vector<Literal> out = evaluate(graph, {intLiteral("tensor<2x3xi64>", {1, 2, 3, 3, 2, 1}),
                                              intLiteral("tensor<2x3xi64>", {3, 2, 1, 1, 2, 3})});
  REQUIRE(out.size() == 2);
  CHECK(ints(out[0]) == std::vector<int64_t>{3, 2, 3, 1, 2, 1});
  CHECK(ints(out[1]) == std::vector<int64_t>{1, 2, 1, 3, 2, 3});
}

TEST_CASE("sort: issue 2440, 5x7 along dim 0 with LT SIGNED, is_stable absent") {
  Graph graph = loadGraph(sortGraph({"tensor<5x7xi64>"}, 0, "LT", "SIGNED", false));
  Literal in =
      intLiteral("tensor<5x7xi64>", {0, 1, 1, -3, -3, -2, 0,  4, -1, 3, 0, 4, 0, -3, 1, 0,  0, 0,
                                     0, 2, 3, -3, -4, -4, -2, 0, 3,  3, 0, 5, 2, -2, 0, -2, 0});
  std::vector<Literal> out = evaluate(graph, {in});
  CHECK(ints(out[0]) == std::vector<int64_t>{-3, -4, -4, -3, -3, -2, -3, 0, -1, 0, -2, 0,
                                             -2, 0,  0,  0,  1,  -2, 0,  0, 0,  1, 1,  2,
                                             0,  0,  2,  3,  4,  5,  3,  0, 4,  3, 3});
}

TEST_CASE("sort: a negative dimension counts from the back; rank 3 along the middle dim") {
  Graph graph = loadGraph(sortGraph({"tensor<2x3x2xi32>"}, -2, "LT"));
  Literal in = intLiteral("tensor<2x3x2xi32>", {5, 0, 3, 2, 4, 1, 9, 6, 7, 8, 8, 7});
  std::vector<Literal> out = evaluate(graph, {in});
  CHECK(ints(out[0]) == std::vector<int64_t>{3, 0, 4, 1, 5, 2, 7, 6, 8, 7, 9, 8});
}

TEST_CASE("sort with TOTALORDER: -NaN < -inf < -2 < -1 < -0 < +0 < 1 < +inf < NaN, stable ties") {
  // jnp.argsort's form: the values and an iota, compared LT TOTALORDER. The
  // 16-bit floats' keys once flipped their sign bit with the magnitude's
  // (an int promotion): negatives sorted after positives.
  for (const std::string element : {"f32", "f64", "f16", "bf16"}) {
    CAPTURE(element);
    const std::string type = "tensor<11x" + element + ">";
    Graph graph = loadGraph(sortGraph({type, "tensor<11xi32>"}, 0, "LT", "TOTALORDER"));
    Literal x = literal(type, {kNaN, 1, 0.0, -0.0, -kInf, negativeNaN(), kInf, -1, -0.0, 1, -2});
    Literal iota = intLiteral("tensor<11xi32>", {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10});
    std::vector<Literal> out = evaluate(graph, {x, iota});
    CHECK(ints(out[1]) == std::vector<int64_t>{5, 4, 10, 7, 3, 8, 2, 1, 9, 6, 0});
    std::vector<double> values = floats(out[0]);
    CHECK((std::isnan(values[0]) && signBit(values[0])));
    CHECK(values[1] == -kInf);
    CHECK((values[4] == 0 && signBit(values[4]) && signBit(values[5]) && !signBit(values[6])));
    CHECK((std::isnan(values[10]) && !signBit(values[10])));
  }
}

TEST_CASE("compare with TOTALORDER on tensors, and FLOAT's IEEE answers beside it") {
  const std::vector<std::string> types = {"tensor<4xf32>", "tensor<4xf32>"};
  Literal a = literal("tensor<4xf32>", {-0.0, kNaN, 1, kNaN});
  Literal b = literal("tensor<4xf32>", {0.0, kNaN, kNaN, 1});
  Literal total = evalOne(
      opGraph("compare", types, R"(, "comparison_direction": "LT", "compare_type": "TOTALORDER")"),
      {a, b});
  CHECK(ints(total) == std::vector<int64_t>{1, 0, 1, 0});
  Literal equal = evalOne(
      opGraph("compare", types, R"(, "comparison_direction": "EQ", "compare_type": "TOTALORDER")"),
      {a, b});
  CHECK(ints(equal) == std::vector<int64_t>{0, 1, 0, 0});
  Literal ieee = evalOne(
      opGraph("compare", types, R"(, "comparison_direction": "LT", "compare_type": "FLOAT")"),
      {a, b});
  CHECK(ints(ieee) == std::vector<int64_t>{0, 0, 0, 0});
}

TEST_CASE("top_k: the k largest per row, descending, NaN first, ties by the lower index") {
  Literal x = literal("tensor<2x6xf32>", {3, kNaN, 7, 7, -kInf, 7, //
                                          -0.0, 0.0, -1, negativeNaN(), -0.0, 0.0});
  Graph graph = loadGraph(R"({"format": "shardgen-graph", "version": 1, "meshes": [],
    "inputs": [{"name": "x", "type": "tensor<2x6xf32>"}],
    "ops": [{"op": "top_k", "operands": ["x"], "results": ["v", "i"], "k": 4}],
    "outputs": [{"value": "v"}, {"value": "i"}]})");
  std::vector<Literal> out = evaluate(graph, {x});
  REQUIRE(out.size() == 2);
  CHECK(out[1].type() == tensorType("tensor<2x4xi32>"));
  CHECK(ints(out[1]) == std::vector<int64_t>{1, 2, 3, 5, 1, 5, 0, 4});
  std::vector<double> values = floats(out[0]);
  CHECK(std::isnan(values[0]));
  CHECK(values[1] == 7);
  CHECK((values[4] == 0 && !signBit(values[4]) && signBit(values[6])));
}

TEST_CASE("top_k on integers, k = 0 and k = n") {
  Literal x = intLiteral("tensor<5xi32>", {2, -7, 2, 9, 0});
  auto topK = [&](int64_t k) {
    return evaluate(loadGraph(R"({"format": "shardgen-graph", "version": 1, "meshes": [],
      "inputs": [{"name": "x", "type": "tensor<5xi32>"}],
      "ops": [{"op": "top_k", "operands": ["x"], "results": ["v", "i"], "k": )" +
                              std::to_string(k) + R"(}],
      "outputs": [{"value": "v"}, {"value": "i"}]})"),
                    {x});
  };
  CHECK(topK(0)[0].numElements() == 0);
  std::vector<Literal> all = topK(5);
  CHECK(ints(all[0]) == std::vector<int64_t>{9, 2, 2, 0, -7});
  CHECK(ints(all[1]) == std::vector<int64_t>{3, 0, 2, 4, 1});
}
