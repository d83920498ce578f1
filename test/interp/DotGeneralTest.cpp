// dot_general: expected values come from explicit loops over small integers.

#include <doctest/doctest.h>

#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

namespace {

/// Small distinct integers, some negative: (i * 7 + seed) % 11 - 5.
std::vector<double> smallValues(int64_t n, int64_t seed) {
  std::vector<double> out;
  for (int64_t i = 0; i < n; ++i)
    out.push_back(static_cast<double>((i * 7 + seed) % 11 - 5));
  return out;
}

std::string dotAttrs(const std::string &lb, const std::string &rb, const std::string &lc,
                     const std::string &rc) {
  return R"(, "lhs_batching_dimensions": )" + lb + R"(, "rhs_batching_dimensions": )" + rb +
         R"(, "lhs_contracting_dimensions": )" + lc + R"(, "rhs_contracting_dimensions": )" + rc;
}

} // namespace

TEST_CASE("dot_general: a plain matrix product") {
  Literal a = literal("tensor<2x3xf32>", {1, 2, 3, 4, 5, 6});
  Literal b = literal("tensor<3x2xf32>", {7, 8, 9, 10, 11, 12});
  Literal c = evalOne(opGraph("dot_general", {"tensor<2x3xf32>", "tensor<3x2xf32>"},
                              dotAttrs("[]", "[]", "[1]", "[0]")),
                      {a, b});
  CHECK(c.shape() == Shape{2, 2});
  CHECK(floats(c) == std::vector<double>{58, 64, 139, 154});
}

TEST_CASE("dot_general with leading batch dims (i32)") {
  std::vector<double> lv = smallValues(24, 1), rv = smallValues(40, 3);
  Literal lhs = literal("tensor<2x3x4xi32>", lv);
  Literal rhs = literal("tensor<2x4x5xi32>", rv);
  Literal out = evalOne(opGraph("dot_general", {"tensor<2x3x4xi32>", "tensor<2x4x5xi32>"},
                                dotAttrs("[0]", "[0]", "[2]", "[1]")),
                        {lhs, rhs});
  REQUIRE(out.shape() == Shape{2, 3, 5});
  std::vector<int64_t> expected;
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 5; ++j) {
        int64_t sum = 0;
        for (int k = 0; k < 4; ++k)
          sum += static_cast<int64_t>(lv[b * 12 + i * 4 + k] * rv[b * 20 + k * 5 + j]);
        expected.push_back(sum);
      }
  CHECK(ints(out) == expected);
}

TEST_CASE("dot_general with batch dims in the middle and at the end, and two contracting dims") {
  // lhs[i][b][k1][k2] (3x2x2x4), rhs[k2][j][k1][b] (4x5x2x2): result[b][i][j].
  std::vector<double> lv = smallValues(48, 2), rv = smallValues(80, 5);
  Literal lhs = literal("tensor<3x2x2x4xf32>", lv);
  Literal rhs = literal("tensor<4x5x2x2xf32>", rv);
  Literal out = evalOne(opGraph("dot_general", {"tensor<3x2x2x4xf32>", "tensor<4x5x2x2xf32>"},
                                dotAttrs("[1]", "[3]", "[2, 3]", "[2, 0]")),
                        {lhs, rhs});
  REQUIRE(out.shape() == Shape{2, 3, 5});
  std::vector<double> expected;
  for (int b = 0; b < 2; ++b)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 5; ++j) {
        double sum = 0;
        for (int k1 = 0; k1 < 2; ++k1)
          for (int k2 = 0; k2 < 4; ++k2)
            sum += lv[((i * 2 + b) * 2 + k1) * 4 + k2] * rv[((k2 * 5 + j) * 2 + k1) * 2 + b];
        expected.push_back(sum);
      }
  CHECK(floats(out) == expected);
}

TEST_CASE("dot_general without contracting dims is an outer product") {
  Literal out =
      evalOne(opGraph("dot_general", {"tensor<2xi64>", "tensor<3xi64>"}, ""),
              {intLiteral("tensor<2xi64>", {2, -3}), intLiteral("tensor<3xi64>", {1, 10, 100})});
  CHECK(out.shape() == Shape{2, 3});
  CHECK(ints(out) == std::vector<int64_t>{2, 20, 200, -3, -30, -300});
}

TEST_CASE("dot_general: integers wrap, floats accumulate exactly and round once") {
  Literal w = evalOne(
      opGraph("dot_general", {"tensor<2xi8>", "tensor<2xi8>"}, dotAttrs("[]", "[]", "[0]", "[0]")),
      {intLiteral("tensor<2xi8>", {100, 100}), intLiteral("tensor<2xi8>", {2, 1})});
  CHECK(ints(w) == std::vector<int64_t>{44}); // 300 mod 256
  Literal h =
      evalOne(opGraph("dot_general", {"tensor<3xf16>", "tensor<3xf16>"},
                      dotAttrs("[]", "[]", "[0]", "[0]")),
              {literal("tensor<3xf16>", {2048, 1, 1}), literal("tensor<3xf16>", {1, 1, 1})});
  CHECK(floats(h) == std::vector<double>{2050});
  Literal u = evalOne(
      opGraph("dot_general", {"tensor<2xui32>", "tensor<2xui32>"},
              dotAttrs("[]", "[]", "[0]", "[0]")),
      {intLiteral("tensor<2xui32>", {4294967295, 1}), intLiteral("tensor<2xui32>", {2, 3})});
  CHECK(ints(u) == std::vector<int64_t>{1}); // 2 * (2^32 - 1) + 3 wraps to 1
}

TEST_CASE("dot_general with an empty free dim or an empty contraction") {
  // A zero-size free dim (an empty shard of an uneven sharding) gives an
  // empty result; an empty contraction gives zeros.
  Literal a = literal("tensor<2x3xf32>", {1, 2, 3, 4, 5, 6});
  Literal empty = literal("tensor<3x0xf32>", {});
  Literal c = evalOne(opGraph("dot_general", {"tensor<2x3xf32>", "tensor<3x0xf32>"},
                              dotAttrs("[]", "[]", "[1]", "[0]")),
                      {a, empty});
  CHECK(c.shape() == Shape{2, 0});
  Literal l = literal("tensor<2x0xf32>", {});
  Literal r = literal("tensor<0x2xf32>", {});
  Literal zeros = evalOne(opGraph("dot_general", {"tensor<2x0xf32>", "tensor<0x2xf32>"},
                                  dotAttrs("[]", "[]", "[1]", "[0]")),
                          {l, r});
  CHECK(floats(zeros) == std::vector<double>{0, 0, 0, 0});
}

TEST_CASE("dot_general with a wider declared result computes in the result's type") {
  // JAX's preferred_element_type: f16 x f16 -> f32 keeps what f16 would
  // round away (2049 is not an f16: an f16 result would be 2048).
  Literal a = literal("tensor<1x2xf16>", {2048, 1});
  Literal b = literal("tensor<2x1xf16>", {1, 1});
  Literal c = evalOne(opGraph("dot_general", {"tensor<1x2xf16>", "tensor<2x1xf16>"},
                              dotAttrs("[]", "[]", "[1]", "[0]"), "tensor<1x1xf32>"),
                      {a, b});
  CHECK(c.elementType() == ElementType::F32);
  CHECK(floats(c) == std::vector<double>{2049});
  // i8 x i8 -> i32: 127 * 127 * 2 does not fit i8 or i16's product chain.
  Literal p = literal("tensor<1x2xi8>", {127, -128});
  Literal q = literal("tensor<2x1xi8>", {127, -128});
  Literal r = evalOne(opGraph("dot_general", {"tensor<1x2xi8>", "tensor<2x1xi8>"},
                              dotAttrs("[]", "[]", "[1]", "[0]"), "tensor<1x1xi32>"),
                      {p, q});
  CHECK(ints(r) == std::vector<int64_t>{127 * 127 + 128 * 128});
}
