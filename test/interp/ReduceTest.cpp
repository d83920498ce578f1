// reduce with every reducer, over inner, outer, middle and all dimensions.

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

namespace {

Literal reduce(const Literal &x, const Literal &init, const std::string &dims,
               const std::string &reducer) {
  return evalOne(opGraph("reduce", {printType(x.type()), printType(init.type())},
                         R"(, "dimensions": )" + dims + R"(, "reducer": ")" + reducer + "\""),
                 {x, init});
}

} // namespace

TEST_CASE("reduce add over each dimension and over all, init counted once") {
  Literal x = literal("tensor<2x3xf32>", {1, 2, 3, 4, 5, 6});
  Literal zero = literal("tensor<f32>", {0});
  CHECK(floats(reduce(x, zero, "[1]", "add")) == std::vector<double>{6, 15});
  CHECK(floats(reduce(x, zero, "[0]", "add")) == std::vector<double>{5, 7, 9});
  Literal all = reduce(x, literal("tensor<f32>", {10}), "[0, 1]", "add");
  CHECK(all.shape().empty());
  CHECK(floats(all) == std::vector<double>{31});
}

TEST_CASE("reduce over a middle dimension") {
  std::vector<int64_t> values;
  for (int64_t i = 0; i < 24; ++i)
    values.push_back(i);
  Literal x = intLiteral("tensor<2x3x4xi32>", values);
  std::vector<int64_t> expected;
  for (int i = 0; i < 2; ++i)
    for (int k = 0; k < 4; ++k) {
      int64_t sum = 100;
      for (int j = 0; j < 3; ++j)
        sum += i * 12 + j * 4 + k;
      expected.push_back(sum);
    }
  CHECK(ints(reduce(x, intLiteral("tensor<i32>", {100}), "[1]", "add")) == expected);
}

TEST_CASE("reduce mul, max, min") {
  Literal x = literal("tensor<2x3xf32>", {1, 2, 3, 4, 5, 6});
  CHECK(floats(reduce(x, literal("tensor<f32>", {1}), "[1]", "mul")) ==
        std::vector<double>{6, 120});
  CHECK(floats(reduce(x, literal("tensor<f32>", {-kInf}), "[1]", "max")) ==
        std::vector<double>{3, 6});
  CHECK(floats(reduce(x, literal("tensor<f32>", {kInf}), "[0]", "min")) ==
        std::vector<double>{1, 2, 3});
  // The init takes part: max(5, ...) and min(2, ...).
  CHECK(floats(reduce(x, literal("tensor<f32>", {5}), "[1]", "max")) == std::vector<double>{5, 6});
  CHECK(floats(reduce(x, literal("tensor<f32>", {2}), "[1]", "min")) == std::vector<double>{1, 2});
  std::vector<double> withNan = floats(
      reduce(literal("tensor<3xf32>", {1, NAN, 2}), literal("tensor<f32>", {-kInf}), "[0]", "max"));
  CHECK(std::isnan(withNan[0]));
  CHECK(ints(reduce(intLiteral("tensor<3xui32>", {4294967295, 1, 7}),
                    intLiteral("tensor<ui32>", {0}), "[0]", "max")) ==
        std::vector<int64_t>{4294967295});
}

TEST_CASE("reduce and, or on i1 and on integers") {
  Literal p = intLiteral("tensor<2x3xi1>", {1, 1, 0, 1, 1, 1});
  CHECK(ints(reduce(p, intLiteral("tensor<i1>", {1}), "[1]", "and")) == std::vector<int64_t>{0, 1});
  Literal q = intLiteral("tensor<2x3xi1>", {0, 0, 0, 0, 1, 0});
  CHECK(ints(reduce(q, intLiteral("tensor<i1>", {0}), "[1]", "or")) == std::vector<int64_t>{0, 1});
  Literal b = intLiteral("tensor<2xi32>", {12, 10});
  CHECK(ints(reduce(b, intLiteral("tensor<i32>", {-1}), "[0]", "and")) == std::vector<int64_t>{8});
  CHECK(ints(reduce(b, intLiteral("tensor<i32>", {1}), "[0]", "or")) == std::vector<int64_t>{15});
}

TEST_CASE("integer reduce wraps; f16 reduce rounds once at the end") {
  CHECK(ints(reduce(intLiteral("tensor<3xi8>", {100, 100, 1}), intLiteral("tensor<i8>", {0}), "[0]",
                    "add")) == std::vector<int64_t>{-55});
  CHECK(ints(reduce(intLiteral("tensor<2xui8>", {16, 17}), intLiteral("tensor<ui8>", {1}), "[0]",
                    "mul")) == std::vector<int64_t>{16}); // 272 mod 256
  // Rounding after each step would give 2048 (2048 + 1 ties to 2048 in f16);
  // the exact sum 2050 is an f16 value.
  CHECK(floats(reduce(literal("tensor<3xf16>", {2048, 1, 1}), literal("tensor<f16>", {0}), "[0]",
                      "add")) == std::vector<double>{2050});
}
