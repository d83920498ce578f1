// Data-movement ops, iota, constant and the sharding identities.

#include <doctest/doctest.h>

#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

namespace {

/// 0, 1, 2, ... as doubles.
std::vector<double> iotaValues(int64_t n) {
  std::vector<double> out;
  for (int64_t i = 0; i < n; ++i)
    out.push_back(static_cast<double>(i));
  return out;
}

} // namespace

TEST_CASE("reshape keeps row-major order") {
  Literal x = literal("tensor<2x3xf32>", {1, 2, 3, 4, 5, 6});
  Literal y = evalOne(opGraph("reshape", {"tensor<2x3xf32>"}, "", "tensor<3x1x2xf32>"), {x});
  CHECK(y.shape() == Shape{3, 1, 2});
  CHECK(floats(y) == std::vector<double>{1, 2, 3, 4, 5, 6});
  Literal s = evalOne(opGraph("reshape", {"tensor<1x1xi64>"}, "", "tensor<i64>"),
                      {intLiteral("tensor<1x1xi64>", {-7})});
  CHECK(s.shape().empty());
  CHECK(ints(s) == std::vector<int64_t>{-7});
}

TEST_CASE("transpose permutes dimensions") {
  Literal x = literal("tensor<2x3x4xf32>", iotaValues(24));
  Literal y =
      evalOne(opGraph("transpose", {"tensor<2x3x4xf32>"}, R"(, "permutation": [2, 0, 1])"), {x});
  REQUIRE(y.shape() == Shape{4, 2, 3});
  std::vector<double> expected;
  for (int i = 0; i < 4; ++i) // result[i][j][k] = x[j][k][i]
    for (int j = 0; j < 2; ++j)
      for (int k = 0; k < 3; ++k)
        expected.push_back(j * 12 + k * 4 + i);
  CHECK(floats(y) == expected);
  Literal m = evalOne(opGraph("transpose", {"tensor<2x3xi8>"}, R"(, "permutation": [1, 0])"),
                      {intLiteral("tensor<2x3xi8>", {1, 2, 3, 4, 5, 6})});
  CHECK(ints(m) == std::vector<int64_t>{1, 4, 2, 5, 3, 6});
}

TEST_CASE("broadcast_in_dim maps dims and expands size-1 dims") {
  CHECK(floats(evalOne(opGraph("broadcast_in_dim", {"tensor<3xf32>"},
                               R"(, "broadcast_dimensions": [1])", "tensor<2x3xf32>"),
                       {literal("tensor<3xf32>", {1, 2, 3})})) ==
        std::vector<double>{1, 2, 3, 1, 2, 3});
  CHECK(floats(evalOne(opGraph("broadcast_in_dim", {"tensor<3xf32>"},
                               R"(, "broadcast_dimensions": [0])", "tensor<3x2xf32>"),
                       {literal("tensor<3xf32>", {1, 2, 3})})) ==
        std::vector<double>{1, 1, 2, 2, 3, 3});
  CHECK(ints(evalOne(opGraph("broadcast_in_dim", {"tensor<2x1xi32>"},
                             R"(, "broadcast_dimensions": [0, 2])", "tensor<2x2x3xi32>"),
                     {intLiteral("tensor<2x1xi32>", {5, 6})})) ==
        std::vector<int64_t>{5, 5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6});
  CHECK(floats(evalOne(opGraph("broadcast_in_dim", {"tensor<f16>"},
                               R"(, "broadcast_dimensions": [])", "tensor<2x2xf16>"),
                       {literal("tensor<f16>", {0.5})})) ==
        std::vector<double>{0.5, 0.5, 0.5, 0.5});
}

TEST_CASE("concatenate along an inner and an outer dimension") {
  Literal a = literal("tensor<2x2xf32>", {1, 2, 3, 4});
  Literal b = literal("tensor<2x1xf32>", {5, 6});
  CHECK(floats(evalOne(
            opGraph("concatenate", {"tensor<2x2xf32>", "tensor<2x1xf32>"}, R"(, "dimension": 1)"),
            {a, b})) == std::vector<double>{1, 2, 5, 3, 4, 6});
  Literal c =
      evalOne(opGraph("concatenate", {"tensor<1x2xi32>", "tensor<2x2xi32>", "tensor<1x2xi32>"},
                      R"(, "dimension": 0)"),
              {intLiteral("tensor<1x2xi32>", {1, 2}), intLiteral("tensor<2x2xi32>", {3, 4, 5, 6}),
               intLiteral("tensor<1x2xi32>", {7, 8})});
  CHECK(c.shape() == Shape{4, 2});
  CHECK(ints(c) == std::vector<int64_t>{1, 2, 3, 4, 5, 6, 7, 8});
}

TEST_CASE("slice with and without strides") {
  Literal v = literal("tensor<10xf32>", iotaValues(10));
  CHECK(floats(evalOne(opGraph("slice", {"tensor<10xf32>"},
                               R"(, "start_indices": [1], "limit_indices": [8], "strides": [3])"),
                       {v})) == std::vector<double>{1, 4, 7});
  CHECK(floats(evalOne(
            opGraph("slice", {"tensor<10xf32>"}, R"(, "start_indices": [2], "limit_indices": [5])"),
            {v})) == std::vector<double>{2, 3, 4});
  Literal m = literal("tensor<3x4xf32>", iotaValues(12));
  Literal s =
      evalOne(opGraph("slice", {"tensor<3x4xf32>"},
                      R"(, "start_indices": [0, 1], "limit_indices": [3, 4], "strides": [2, 2])"),
              {m});
  CHECK(s.shape() == Shape{2, 2});
  CHECK(floats(s) == std::vector<double>{1, 3, 9, 11});
}

TEST_CASE("pad with interior padding and negative (cropping) edge padding") {
  // dim 0: low 1, interior 1 -> [p, r0, p, r1]; dim 1: interior 1 gives
  // [a, p, b, p, c], high 1 appends p, low -1 drops a: [p, b, p, c, p].
  Literal x = literal("tensor<2x3xf32>", {1, 2, 3, 4, 5, 6});
  Literal y = evalOne(opGraph("pad", {"tensor<2x3xf32>", "tensor<f32>"},
                              R"(, "edge_padding_low": [1, -1], "edge_padding_high": [0, 1],)"
                              R"( "interior_padding": [1, 1])"),
                      {x, literal("tensor<f32>", {-1})});
  REQUIRE(y.shape() == Shape{4, 5});
  CHECK(floats(y) == std::vector<double>{-1, -1, -1, -1, -1, //
                                         -1, 2,  -1, 3,  -1, //
                                         -1, -1, -1, -1, -1, //
                                         -1, 5,  -1, 6,  -1});
  Literal v = intLiteral("tensor<4xi32>", {1, 2, 3, 4});
  auto pad1d = [&](const std::string &attrs) {
    return ints(evalOne(opGraph("pad", {"tensor<4xi32>", "tensor<i32>"}, attrs),
                        {v, intLiteral("tensor<i32>", {0})}));
  };
  CHECK(pad1d(R"(, "edge_padding_low": [2], "edge_padding_high": [-3], "interior_padding": [0])") ==
        std::vector<int64_t>{0, 0, 1});
  CHECK(
      pad1d(R"(, "edge_padding_low": [-1], "edge_padding_high": [-1], "interior_padding": [0])") ==
      std::vector<int64_t>{2, 3});
  CHECK(pad1d(R"(, "edge_padding_low": [-2], "edge_padding_high": [1], "interior_padding": [2])") ==
        std::vector<int64_t>{0, 2, 0, 0, 3, 0, 0, 4, 0});
}

TEST_CASE("reverse along some or all dimensions") {
  Literal x = intLiteral("tensor<2x3xui8>", {1, 2, 3, 4, 5, 6});
  CHECK(ints(evalOne(opGraph("reverse", {"tensor<2x3xui8>"}, R"(, "dimensions": [1])"), {x})) ==
        std::vector<int64_t>{3, 2, 1, 6, 5, 4});
  CHECK(ints(evalOne(opGraph("reverse", {"tensor<2x3xui8>"}, R"(, "dimensions": [0, 1])"), {x})) ==
        std::vector<int64_t>{6, 5, 4, 3, 2, 1});
}

TEST_CASE("iota counts along its dimension in any element type") {
  CHECK(ints(evalOne(opGraph("iota", {}, R"(, "iota_dimension": 1)", "tensor<2x3xi32>"), {})) ==
        std::vector<int64_t>{0, 1, 2, 0, 1, 2});
  CHECK(floats(evalOne(opGraph("iota", {}, R"(, "iota_dimension": 0)", "tensor<2x3xf32>"), {})) ==
        std::vector<double>{0, 0, 0, 1, 1, 1});
  CHECK(floats(evalOne(opGraph("iota", {}, R"(, "iota_dimension": 0)", "tensor<3xbf16>"), {})) ==
        std::vector<double>{0, 1, 2});
}

TEST_CASE("constant: nested arrays and splats") {
  CHECK(floats(evalOne(opGraph("constant", {}, R"(, "value": [[1.5, 2], [3, 4]])"), {})) ==
        std::vector<double>{1.5, 2, 3, 4});
  Literal splat = evalOne(opGraph("constant", {}, R"(, "value": 7)", "tensor<2x2xi8>"), {});
  CHECK(splat.type() == tensorType("tensor<2x2xi8>"));
  CHECK(ints(splat) == std::vector<int64_t>{7, 7, 7, 7});
}

TEST_CASE("sharding_constraint, propagation_barrier are identities; sharding_group is a no-op") {
  std::string graph = R"({"format": "shardgen-graph", "version": 1,
    "meshes": [{"name": "m", "axes": [{"name": "x", "size": 2}]}],
    "inputs": [{"name": "a", "type": "tensor<4xf32>"}],
    "ops": [
      {"op": "sharding_constraint", "operands": ["a"], "result": "b", "sharding": "<@m, [{x}]>"},
      {"op": "propagation_barrier", "operands": ["b"], "result": "c", "allowed_direction": "FORWARD"},
      {"op": "sharding_group", "operands": ["c"], "group_id": 3},
      {"op": "stablehlo.negate", "operands": ["c"], "result": "d"}
    ],
    "outputs": [{"value": "d"}, {"value": "b"}]})";
  Graph g = loadGraph(graph);
  std::vector<Literal> out = evaluate(g, {literal("tensor<4xf32>", {1, 2, 3, 4})});
  REQUIRE(out.size() == 2);
  CHECK(floats(out[0]) == std::vector<double>{-1, -2, -3, -4});
  CHECK(floats(out[1]) == std::vector<double>{1, 2, 3, 4});
}

namespace {

/// A rank-0 start index.
Literal startIndex(const std::string &type, int64_t value) { return intLiteral(type, {value}); }

} // namespace

// openxla/stablehlo stablehlo/tests/interpret/dynamic_slice.mlir and the
// spec's example: starts clamp to [0, dim - size].
TEST_CASE("dynamic_slice clamps its start indices") {
  const std::string ones3x3 =
      opGraph("dynamic_slice", {"tensor<3x3xi64>", "tensor<i64>", "tensor<i64>"},
              R"(, "slice_sizes": [3, 3])");
  Literal ones = intLiteral("tensor<3x3xi64>", std::vector<int64_t>(9, 1));
  CHECK(ints(evalOne(ones3x3, {ones, startIndex("tensor<i64>", 3),
                               startIndex("tensor<i64>", 3)})) == std::vector<int64_t>(9, 1));

  const std::string spec =
      opGraph("dynamic_slice", {"tensor<4x4xi32>", "tensor<i64>", "tensor<i64>"},
              R"(, "slice_sizes": [2, 2])");
  Literal x = intLiteral("tensor<4x4xi32>", {0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0});
  CHECK(ints(evalOne(spec, {x, startIndex("tensor<i64>", -1), startIndex("tensor<i64>", 3)})) ==
        std::vector<int64_t>{1, 1, 1, 1});
  CHECK(ints(evalOne(spec, {x, startIndex("tensor<i64>", INT64_MIN),
                            startIndex("tensor<i64>", INT64_MAX)})) ==
        std::vector<int64_t>{1, 1, 1, 1});
  CHECK(ints(evalOne(spec, {x, startIndex("tensor<i64>", 1), startIndex("tensor<i64>", 1)})) ==
        std::vector<int64_t>{0, 1, 0, 0});
}

TEST_CASE("dynamic_slice takes any integer index type") {
  Literal x = literal("tensor<5xf32>", {10, 11, 12, 13, 14});
  auto sliceAt = [&](const std::string &type, int64_t start) {
    return floats(
        evalOne(opGraph("dynamic_slice", {"tensor<5xf32>", type}, R"(, "slice_sizes": [2])"),
                {x, startIndex(type, start)}));
  };
  CHECK(sliceAt("tensor<i8>", -128) == std::vector<double>{10, 11});
  CHECK(sliceAt("tensor<ui8>", 255) == std::vector<double>{13, 14});
  CHECK(sliceAt("tensor<ui32>", 2) == std::vector<double>{12, 13});
  CHECK(sliceAt("tensor<ui64>", -1) == std::vector<double>{13, 14}); // 2^64 - 1
  CHECK(sliceAt("tensor<i16>", 1) == std::vector<double>{11, 12});
}

// openxla/stablehlo stablehlo/tests/interpret/dynamic_update_slice.mlir and
// the spec's example.
TEST_CASE("dynamic_update_slice writes at the clamped starts") {
  const std::string graph = opGraph(
      "dynamic_update_slice", {"tensor<4x4xi64>", "tensor<2x3xi64>", "tensor<i64>", "tensor<i64>"});
  Literal operand = intLiteral("tensor<4x4xi64>", {1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 2, 2, 2});
  Literal update = intLiteral("tensor<2x3xi64>", {1, 1, 1, 1, 1, 1});
  CHECK(ints(evalOne(graph, {operand, update, startIndex("tensor<i64>", 4),
                             startIndex("tensor<i64>", 4)})) == std::vector<int64_t>(16, 1));

  const std::string spec = opGraph(
      "dynamic_update_slice", {"tensor<4x4xi32>", "tensor<2x2xi32>", "tensor<i32>", "tensor<i32>"});
  Literal x = intLiteral("tensor<4x4xi32>", {1, 1, 0, 0, 1, 1, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1});
  Literal ones = intLiteral("tensor<2x2xi32>", {1, 1, 1, 1});
  CHECK(ints(evalOne(spec, {x, ones, startIndex("tensor<i32>", -1),
                            startIndex("tensor<i32>", 3)})) == std::vector<int64_t>(16, 1));
  CHECK(ints(evalOne(spec, {x, intLiteral("tensor<2x2xi32>", {5, 6, 7, 8}),
                            startIndex("tensor<i32>", INT32_MIN), startIndex("tensor<i32>", 1)})) ==
        std::vector<int64_t>{1, 5, 6, 0, 1, 7, 8, 0, 1, 1, 1, 1, 1, 1, 1, 1});
}
