// Elementwise ops, compare, select, clamp and convert on every element type,
// with the integer and floating-point corner cases of StableHLO/XLA.

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <limits>

#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

namespace {

constexpr int64_t kI32Min = std::numeric_limits<int32_t>::min();
constexpr int64_t kI32Max = std::numeric_limits<int32_t>::max();
constexpr int64_t kI64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kI64Max = std::numeric_limits<int64_t>::max();

Literal unary(const std::string &op, const Literal &x) {
  return evalOne(opGraph(op, {printType(x.type())}), {x});
}

Literal binary(const std::string &op, const Literal &x, const Literal &y) {
  return evalOne(opGraph(op, {printType(x.type()), printType(y.type())}), {x, y});
}

Literal convert(const Literal &x, const std::string &resultType) {
  return evalOne(opGraph("convert", {printType(x.type())}, "", resultType), {x});
}

} // namespace

TEST_CASE("integer division truncates; x/0 is -1 (all ones unsigned); INT_MIN/-1 is INT_MIN") {
  Literal x = intLiteral("tensor<6xi32>", {7, -7, 7, -7, kI32Min, 5});
  Literal y = intLiteral("tensor<6xi32>", {2, 2, -2, -2, -1, 0});
  CHECK(ints(binary("divide", x, y)) == std::vector<int64_t>{3, -3, -3, 3, kI32Min, -1});
  CHECK(ints(binary("divide", intLiteral("tensor<2xui32>", {7, 9}),
                    intLiteral("tensor<2xui32>", {0, 2}))) == std::vector<int64_t>{4294967295, 4});
  CHECK(ints(binary("divide", intLiteral("tensor<2xui8>", {7, 200}),
                    intLiteral("tensor<2xui8>", {0, 3}))) == std::vector<int64_t>{255, 66});
  CHECK(ints(binary("divide", intLiteral("tensor<2xi64>", {kI64Min, 9}),
                    intLiteral("tensor<2xi64>", {-1, 0}))) == std::vector<int64_t>{kI64Min, -1});
  CHECK(ints(binary("divide", intLiteral("tensor<2xi8>", {-128, -128}),
                    intLiteral("tensor<2xi8>", {-1, 0}))) == std::vector<int64_t>{-128, -1});
}

TEST_CASE("integer remainder has the dividend's sign; x%0 is x; INT_MIN%-1 is 0") {
  Literal x = intLiteral("tensor<6xi32>", {7, -7, 7, -7, kI32Min, 5});
  Literal y = intLiteral("tensor<6xi32>", {2, 2, -2, -2, -1, 0});
  CHECK(ints(binary("remainder", x, y)) == std::vector<int64_t>{1, -1, 1, -1, 0, 5});
  CHECK(ints(binary("remainder", intLiteral("tensor<2xui8>", {7, 200}),
                    intLiteral("tensor<2xui8>", {0, 7}))) == std::vector<int64_t>{7, 4});
}

TEST_CASE("integer arithmetic wraps") {
  CHECK(ints(binary("add", intLiteral("tensor<2xi8>", {127, -128}),
                    intLiteral("tensor<2xi8>", {1, -1}))) == std::vector<int64_t>{-128, 127});
  CHECK(ints(binary("multiply", intLiteral("tensor<3xi8>", {16, -128, 100}),
                    intLiteral("tensor<3xi8>", {16, -1, 3}))) ==
        std::vector<int64_t>{0, -128, 44}); // 256 -> 0, 128 -> -128, 300 -> 44
  CHECK(ints(binary("add", intLiteral("tensor<1xui8>", {200}),
                    intLiteral("tensor<1xui8>", {100}))) == std::vector<int64_t>{44});
  CHECK(ints(binary("subtract", intLiteral("tensor<1xui32>", {0}),
                    intLiteral("tensor<1xui32>", {1}))) == std::vector<int64_t>{4294967295});
  CHECK(ints(binary("add", intLiteral("tensor<1xi64>", {kI64Max}),
                    intLiteral("tensor<1xi64>", {1}))) == std::vector<int64_t>{kI64Min});
  CHECK(ints(binary("subtract", intLiteral("tensor<1xi64>", {kI64Min}),
                    intLiteral("tensor<1xi64>", {1}))) == std::vector<int64_t>{kI64Max});
  CHECK(ints(binary("multiply", intLiteral("tensor<1xi32>", {65536}),
                    intLiteral("tensor<1xi32>", {65536}))) == std::vector<int64_t>{0});
  CHECK(ints(binary("multiply", intLiteral("tensor<1xui32>", {65537}),
                    intLiteral("tensor<1xui32>", {65537}))) == std::vector<int64_t>{131073});
}

TEST_CASE("abs and negate of INT_MIN wrap; negate of unsigned wraps") {
  CHECK(ints(unary("abs", intLiteral("tensor<3xi32>", {kI32Min, -5, 6}))) ==
        std::vector<int64_t>{kI32Min, 5, 6});
  CHECK(ints(unary("negate", intLiteral("tensor<2xi32>", {kI32Min, 3}))) ==
        std::vector<int64_t>{kI32Min, -3});
  CHECK(ints(unary("negate", intLiteral("tensor<2xui8>", {1, 0}))) == std::vector<int64_t>{255, 0});
  CHECK(ints(unary("abs", intLiteral("tensor<1xi8>", {-128}))) == std::vector<int64_t>{-128});
}

TEST_CASE("integer power by squaring; negative exponents give 0 unless the base is +-1") {
  Literal base = intLiteral("tensor<9xi32>", {3, 2, 1, -1, -1, 0, 2, -2, 5});
  Literal exponent = intLiteral("tensor<9xi32>", {4, -1, -5, -3, -2, 0, 31, 3, -1});
  CHECK(ints(binary("power", base, exponent)) ==
        std::vector<int64_t>{81, 0, 1, -1, 1, 1, kI32Min, -8, 0});
  CHECK(ints(binary("power", intLiteral("tensor<2xui8>", {2, 3}),
                    intLiteral("tensor<2xui8>", {9, 5}))) ==
        std::vector<int64_t>{0, 243}); // 512 wraps to 0
}

TEST_CASE("sign: -1/0/1 for integers; floats keep NaN and the sign of zero") {
  CHECK(ints(unary("sign", intLiteral("tensor<3xi32>", {-5, 0, 7}))) ==
        std::vector<int64_t>{-1, 0, 1});
  // sign on unsigned integers is refused by the verifier (StableHLO's type constraint).
  Literal s = unary("sign", literal("tensor<5xf32>", {-2.5, -0.0, 0.0, 3, kNaN}));
  std::vector<double> v = floats(s);
  CHECK(v[0] == -1);
  CHECK(v[1] == 0);
  CHECK(std::signbit(v[1]));
  CHECK(v[2] == 0);
  CHECK(!std::signbit(v[2]));
  CHECK(v[3] == 1);
  CHECK(std::isnan(v[4]));
}

TEST_CASE("not is logical on i1 and bitwise on integers") {
  CHECK(ints(unary("not", intLiteral("tensor<2xi1>", {0, 1}))) == std::vector<int64_t>{1, 0});
  CHECK(ints(unary("not", intLiteral("tensor<2xi8>", {0, 5}))) == std::vector<int64_t>{-1, -6});
  CHECK(ints(unary("not", intLiteral("tensor<2xui8>", {0, 15}))) == std::vector<int64_t>{255, 240});
  CHECK(ints(unary("not", intLiteral("tensor<1xui32>", {0}))) == std::vector<int64_t>{4294967295});
}

TEST_CASE("and, or, xor are bitwise on integers and logical on i1") {
  Literal a = intLiteral("tensor<2xi32>", {12, -1});
  Literal b = intLiteral("tensor<2xi32>", {10, 5});
  CHECK(ints(binary("and", a, b)) == std::vector<int64_t>{8, 5});
  CHECK(ints(binary("or", a, b)) == std::vector<int64_t>{14, -1});
  CHECK(ints(binary("xor", a, b)) == std::vector<int64_t>{6, -6});
  Literal p = intLiteral("tensor<4xi1>", {0, 0, 1, 1});
  Literal q = intLiteral("tensor<4xi1>", {0, 1, 0, 1});
  CHECK(ints(binary("and", p, q)) == std::vector<int64_t>{0, 0, 0, 1});
  CHECK(ints(binary("or", p, q)) == std::vector<int64_t>{0, 1, 1, 1});
  CHECK(ints(binary("xor", p, q)) == std::vector<int64_t>{0, 1, 1, 0});
}

TEST_CASE("maximum and minimum propagate NaN") {
  Literal a = literal("tensor<4xf32>", {kNaN, 1, 2, -3});
  Literal b = literal("tensor<4xf32>", {1, kNaN, 3, -4});
  std::vector<double> mx = floats(binary("maximum", a, b));
  std::vector<double> mn = floats(binary("minimum", a, b));
  CHECK(std::isnan(mx[0]));
  CHECK(std::isnan(mx[1]));
  CHECK(mx[2] == 3);
  CHECK(mx[3] == -3);
  CHECK(std::isnan(mn[0]));
  CHECK(std::isnan(mn[1]));
  CHECK(mn[2] == 2);
  CHECK(mn[3] == -4);
  CHECK(ints(binary("maximum", intLiteral("tensor<2xui32>", {4294967295, 1}),
                    intLiteral("tensor<2xui32>", {1, 2}))) == std::vector<int64_t>{4294967295, 2});
}

TEST_CASE("float remainder is fmod: the result has the dividend's sign") {
  CHECK(floats(binary("remainder", literal("tensor<3xf32>", {-7.5, 7.5, 5}),
                      literal("tensor<3xf32>", {2, -2, 2.5}))) ==
        std::vector<double>{-1.5, 1.5, 0});
  CHECK(floats(binary("remainder", literal("tensor<1xf64>", {-7.25}),
                      literal("tensor<1xf64>", {2}))) == std::vector<double>{-1.25});
}

TEST_CASE("float arithmetic of the basic ops") {
  Literal a = literal("tensor<4xf32>", {1.5, -2, 8, 9});
  Literal b = literal("tensor<4xf32>", {0.25, 4, -2, 0.5});
  CHECK(floats(binary("add", a, b)) == std::vector<double>{1.75, 2, 6, 9.5});
  CHECK(floats(binary("subtract", a, b)) == std::vector<double>{1.25, -6, 10, 8.5});
  CHECK(floats(binary("multiply", a, b)) == std::vector<double>{0.375, -8, -16, 4.5});
  CHECK(floats(binary("divide", a, b)) == std::vector<double>{6, -0.5, -4, 18});
  CHECK(floats(binary("power", literal("tensor<3xf32>", {2, 9, 2}),
                      literal("tensor<3xf32>", {10, 0.5, -1}))) ==
        std::vector<double>{1024, 3, 0.5});
  std::vector<double> byZero =
      floats(binary("divide", literal("tensor<2xf32>", {1, -1}), literal("tensor<2xf32>", {0, 0})));
  CHECK(byZero[0] == kInf);
  CHECK(byZero[1] == -kInf);
}

TEST_CASE("f32 computes in float, f64 in double") {
  CHECK(floats(binary("add", literal("tensor<1xf32>", {0.1}),
                      literal("tensor<1xf32>", {0.2})))[0] == static_cast<double>(0.1f + 0.2f));
  CHECK(floats(binary("add", literal("tensor<1xf64>", {0.1}),
                      literal("tensor<1xf64>", {0.2})))[0] == 0.1 + 0.2);
  CHECK(floats(binary("add", literal("tensor<1xf64>", {1}),
                      literal("tensor<1xf64>", {1e-15})))[0] == 1 + 1e-15);
}

TEST_CASE("float unary math at exactly known points") {
  CHECK(floats(unary("exponential", literal("tensor<2xf32>", {0, 1}))) ==
        std::vector<double>{1, static_cast<double>(std::exp(1.0f))});
  CHECK(floats(unary("log", literal("tensor<1xf32>", {1}))) == std::vector<double>{0});
  CHECK(floats(unary("sqrt", literal("tensor<2xf32>", {4, 2.25}))) == std::vector<double>{2, 1.5});
  CHECK(floats(unary("rsqrt", literal("tensor<2xf64>", {4, 0.25}))) == std::vector<double>{0.5, 2});
  CHECK(floats(unary("logistic", literal("tensor<1xf32>", {0}))) == std::vector<double>{0.5});
  CHECK(floats(unary("tanh", literal("tensor<1xf32>", {0}))) == std::vector<double>{0});
  CHECK(floats(unary("floor", literal("tensor<3xf32>", {-1.5, 1.5, 2}))) ==
        std::vector<double>{-2, 1, 2});
  CHECK(floats(unary("ceil", literal("tensor<3xf32>", {-1.5, 1.5, 2}))) ==
        std::vector<double>{-1, 2, 2});
  CHECK(floats(unary("sine", literal("tensor<1xf32>", {0}))) == std::vector<double>{0});
  CHECK(floats(unary("cosine", literal("tensor<1xf32>", {0}))) == std::vector<double>{1});
  CHECK(floats(unary("negate", literal("tensor<2xbf16>", {1.5, -2}))) ==
        std::vector<double>{-1.5, 2});
  CHECK(floats(unary("abs", literal("tensor<2xf16>", {-1.5, 2}))) == std::vector<double>{1.5, 2});
  CHECK(std::isnan(floats(unary("log", literal("tensor<1xf32>", {-1})))[0]));
  CHECK(floats(unary("logistic", literal("tensor<2xf32>", {100, -100}))) ==
        std::vector<double>{1, static_cast<double>(1.0f / (1.0f + std::exp(100.0f)))});
}

TEST_CASE("round_nearest_even, round_nearest_afz, cbrt and tan at exactly known points") {
  CHECK(floats(unary("round_nearest_even", literal("tensor<5xf32>", {0.5, 1.5, 2.5, -2.5, 2.4}))) ==
        std::vector<double>{0, 2, 2, -2, 2});
  CHECK(floats(unary("round_nearest_afz", literal("tensor<5xf32>", {0.5, 1.5, 2.5, -2.5, 2.4}))) ==
        std::vector<double>{1, 2, 3, -3, 2});
  CHECK(floats(unary("round_nearest_even", literal("tensor<2xf16>", {0.5, 3.5}))) ==
        std::vector<double>{0, 4});
  volatile double cube = 27, negativeCube = -8; // libm at run time, not folded
  CHECK(floats(unary("cbrt", literal("tensor<3xf64>", {27, -8, 0}))) ==
        std::vector<double>{std::cbrt(cube), std::cbrt(negativeCube), 0});
  CHECK(floats(unary("tan", literal("tensor<1xf32>", {0}))) == std::vector<double>{0});
}

TEST_CASE("exponential_minus_one and log_plus_one keep small arguments exact") {
  // exp(x) - 1 and log(1 + x) lose every digit of x = 1e-8 in f32.
  CHECK(floats(unary("exponential_minus_one", literal("tensor<3xf32>", {1e-8, 0, -1e-30}))) ==
        std::vector<double>{static_cast<double>(1e-8f), 0, static_cast<double>(-1e-30f)});
  CHECK(floats(unary("log_plus_one", literal("tensor<2xf32>", {1e-8, 0}))) ==
        std::vector<double>{static_cast<double>(1e-8f), 0});
  const std::vector<double> large =
      floats(unary("exponential_minus_one", literal("tensor<2xf64>", {1, -1000})));
  volatile double one = 1; // libm's expm1 at run time, not the compiler's folded value
  CHECK(large.at(0) == std::expm1(one));
  CHECK(large.at(1) == -1);
  CHECK(floats(unary("log_plus_one", literal("tensor<1xf64>", {-1}))) ==
        std::vector<double>{-std::numeric_limits<double>::infinity()});
  CHECK(std::isnan(floats(unary("log_plus_one", literal("tensor<1xf32>", {-2})))[0]));
  CHECK(floats(unary("exponential_minus_one", literal("tensor<1xbf16>", {0}))) ==
        std::vector<double>{0});
}

TEST_CASE("f16 is computed in f32 and rounded to nearest even") {
  // 2^-11 and 3 * 2^-11 are exact f16 values; 1 + 2^-11 is a tie between
  // 1 and 1 + 2^-10 (rounds to even: 1), 1 + 3 * 2^-11 a tie between
  // 1 + 2^-10 and 1 + 2^-9 (rounds to even: 1 + 2^-9).
  Literal one = literal("tensor<2xf16>", {1, 1});
  Literal small = literal("tensor<2xf16>", {std::ldexp(1.0, -11), 3 * std::ldexp(1.0, -11)});
  Literal sum = binary("add", one, small);
  CHECK(sum.as<uint16_t>()[0] == 0x3C00);
  CHECK(sum.as<uint16_t>()[1] == 0x3C02);
  // 60000 + 10000 overflows f16 (max 65504) to +inf.
  Literal big = binary("add", literal("tensor<1xf16>", {60000}), literal("tensor<1xf16>", {10000}));
  CHECK(big.as<uint16_t>()[0] == 0x7C00);
  // 1/3 in f16: 0x3555 (0.333251953125).
  Literal third = binary("divide", literal("tensor<1xf16>", {1}), literal("tensor<1xf16>", {3}));
  CHECK(third.as<uint16_t>()[0] == 0x3555);
}

TEST_CASE("bf16 is computed in f32 and rounded to nearest even") {
  Literal one = literal("tensor<2xbf16>", {1, 1});
  Literal small = literal("tensor<2xbf16>", {std::ldexp(1.0, -8), 3 * std::ldexp(1.0, -8)});
  Literal sum = binary("add", one, small);
  CHECK(sum.as<uint16_t>()[0] == 0x3F80); // 1 + 2^-8 ties to 1
  CHECK(sum.as<uint16_t>()[1] == 0x3F82); // 1 + 3 * 2^-8 ties to 1 + 2^-6
  // 1/3 in bf16: 0x3EAB (0.333984375).
  Literal third = binary("divide", literal("tensor<1xbf16>", {1}), literal("tensor<1xbf16>", {3}));
  CHECK(third.as<uint16_t>()[0] == 0x3EAB);
}

TEST_CASE("compare: unsigned types compare unsigned; NaN compares per IEEE") {
  auto cmp = [](const std::string &direction, const Literal &a, const Literal &b) {
    return ints(evalOne(opGraph("compare", {printType(a.type()), printType(b.type())},
                                R"(, "comparison_direction": ")" + direction + "\""),
                        {a, b}));
  };
  Literal u = intLiteral("tensor<2xui32>", {4294967295, 1});
  Literal v = intLiteral("tensor<2xui32>", {1, 1});
  CHECK(cmp("GT", u, v) == std::vector<int64_t>{1, 0});
  CHECK(cmp("GE", u, v) == std::vector<int64_t>{1, 1});
  Literal s = intLiteral("tensor<2xi32>", {-1, 1});
  Literal t = intLiteral("tensor<2xi32>", {1, 1});
  CHECK(cmp("LT", s, t) == std::vector<int64_t>{1, 0});
  CHECK(cmp("LE", s, t) == std::vector<int64_t>{1, 1});
  CHECK(cmp("EQ", s, t) == std::vector<int64_t>{0, 1});
  CHECK(cmp("NE", s, t) == std::vector<int64_t>{1, 0});
  Literal x = literal("tensor<3xf32>", {kNaN, 1, kNaN});
  Literal y = literal("tensor<3xf32>", {1, 1, kNaN});
  CHECK(cmp("EQ", x, y) == std::vector<int64_t>{0, 1, 0});
  CHECK(cmp("NE", x, y) == std::vector<int64_t>{1, 0, 1});
  CHECK(cmp("LT", x, y) == std::vector<int64_t>{0, 0, 0});
  CHECK(cmp("GE", x, y) == std::vector<int64_t>{0, 1, 0});
  CHECK(cmp("GT", literal("tensor<1xbf16>", {2}), literal("tensor<1xbf16>", {1.5})) ==
        std::vector<int64_t>{1});
  CHECK(cmp("LT", intLiteral("tensor<2xi1>", {0, 1}), intLiteral("tensor<2xi1>", {1, 1})) ==
        std::vector<int64_t>{1, 0});
}

TEST_CASE("select with an elementwise and with a scalar predicate") {
  Literal t = literal("tensor<2x2xf32>", {1, 2, 3, 4});
  Literal f = literal("tensor<2x2xf32>", {-1, -2, -3, -4});
  CHECK(floats(evalOne(opGraph("select", {"tensor<2x2xi1>", "tensor<2x2xf32>", "tensor<2x2xf32>"}),
                       {intLiteral("tensor<2x2xi1>", {1, 0, 0, 1}), t, f})) ==
        std::vector<double>{1, -2, -3, 4});
  CHECK(floats(evalOne(opGraph("select", {"tensor<i1>", "tensor<2x2xf32>", "tensor<2x2xf32>"}),
                       {intLiteral("tensor<i1>", {0}), t, f})) ==
        std::vector<double>{-1, -2, -3, -4});
  CHECK(ints(evalOne(opGraph("select", {"tensor<i1>", "tensor<2xi64>", "tensor<2xi64>"}),
                     {intLiteral("tensor<i1>", {1}), intLiteral("tensor<2xi64>", {kI64Max, 1}),
                      intLiteral("tensor<2xi64>", {0, 0})})) == std::vector<int64_t>{kI64Max, 1});
}

TEST_CASE("clamp with scalar and with same-shape bounds") {
  Literal x = literal("tensor<4xf32>", {-5, 0.5, 3, 10});
  CHECK(floats(evalOne(opGraph("clamp", {"tensor<f32>", "tensor<4xf32>", "tensor<f32>"}),
                       {literal("tensor<f32>", {0}), x, literal("tensor<f32>", {2})})) ==
        std::vector<double>{0, 0.5, 2, 2});
  CHECK(ints(evalOne(opGraph("clamp", {"tensor<3xi32>", "tensor<3xi32>", "tensor<3xi32>"}),
                     {intLiteral("tensor<3xi32>", {0, 5, -10}),
                      intLiteral("tensor<3xi32>", {-1, 7, 0}),
                      intLiteral("tensor<3xi32>", {3, 6, -5})})) == std::vector<int64_t>{0, 6, -5});
}

TEST_CASE("convert float to integer truncates and saturates; NaN gives 0") {
  Literal x = literal("tensor<6xf32>", {2.9, -2.9, 1e10, -1e10, kNaN, kInf});
  CHECK(ints(convert(x, "tensor<6xi32>")) ==
        std::vector<int64_t>{2, -2, kI32Max, kI32Min, 0, kI32Max});
  CHECK(ints(convert(literal("tensor<4xf32>", {-5, 300, 254.7, kNaN}), "tensor<4xui8>")) ==
        std::vector<int64_t>{0, 255, 254, 0});
  CHECK(ints(convert(literal("tensor<3xf64>", {1e300, -1e300, -7.99}), "tensor<3xi64>")) ==
        std::vector<int64_t>{kI64Max, kI64Min, -7});
  CHECK(ints(convert(literal("tensor<2xf64>", {-1, 5e9}), "tensor<2xui32>")) ==
        std::vector<int64_t>{0, 4294967295});
  CHECK(ints(convert(literal("tensor<2xf16>", {-300, 100.5}), "tensor<2xi8>")) ==
        std::vector<int64_t>{-128, 100});
}

TEST_CASE("convert to i1 is x != 0") {
  CHECK(ints(convert(literal("tensor<4xf32>", {0, -0.0, 0.5, kNaN}), "tensor<4xi1>")) ==
        std::vector<int64_t>{0, 0, 1, 1});
  CHECK(ints(convert(intLiteral("tensor<3xi32>", {0, 2, -1}), "tensor<3xi1>")) ==
        std::vector<int64_t>{0, 1, 1});
  CHECK(ints(convert(intLiteral("tensor<2xui8>", {0, 2}), "tensor<2xi1>")) ==
        std::vector<int64_t>{0, 1});
}

TEST_CASE("convert between integers wraps; to floats rounds") {
  CHECK(ints(convert(intLiteral("tensor<3xi32>", {300, -129, 127}), "tensor<3xi8>")) ==
        std::vector<int64_t>{44, 127, 127});
  CHECK(ints(convert(intLiteral("tensor<2xi32>", {-1, 256}), "tensor<2xui8>")) ==
        std::vector<int64_t>{255, 0});
  CHECK(ints(convert(intLiteral("tensor<1xui32>", {4294967295}), "tensor<1xi64>")) ==
        std::vector<int64_t>{4294967295});
  CHECK(ints(convert(intLiteral("tensor<1xi8>", {-1}), "tensor<1xui32>")) ==
        std::vector<int64_t>{4294967295});
  CHECK(floats(convert(intLiteral("tensor<1xui32>", {4294967295}), "tensor<1xf32>")) ==
        std::vector<double>{4294967296.0});
  CHECK(floats(convert(intLiteral("tensor<2xi1>", {1, 0}), "tensor<2xf32>")) ==
        std::vector<double>{1, 0});
  CHECK(ints(convert(intLiteral("tensor<2xi1>", {1, 0}), "tensor<2xi32>")) ==
        std::vector<int64_t>{1, 0});
  // 2049 is not an f16 value: ties to even 2048.
  CHECK(convert(intLiteral("tensor<1xi32>", {2049}), "tensor<1xf16>").as<uint16_t>()[0] == 0x6800);
}

TEST_CASE("convert between float types rounds to nearest even") {
  // 1 + 2^-8 ties between bf16 1 and 1 + 2^-7: even is 1.
  CHECK(convert(literal("tensor<1xf32>", {1 + std::ldexp(1.0, -8)}), "tensor<1xbf16>")
            .as<uint16_t>()[0] == 0x3F80);
  // f16 1 + 2^-10 is exact in f32 and f64, and rounds back to bf16 1.
  Literal h = literal("tensor<1xf16>", {1 + std::ldexp(1.0, -10)});
  CHECK(floats(convert(h, "tensor<1xf64>")) == std::vector<double>{1 + std::ldexp(1.0, -10)});
  CHECK(convert(h, "tensor<1xbf16>").as<uint16_t>()[0] == 0x3F80);
  CHECK(floats(convert(literal("tensor<1xf64>", {0.1}), "tensor<1xf32>")) ==
        std::vector<double>{static_cast<double>(0.1f)});
}

TEST_CASE("i1 arithmetic: add and maximum are OR, multiply and minimum are AND") {
  Literal p = intLiteral("tensor<4xi1>", {0, 0, 1, 1});
  Literal q = intLiteral("tensor<4xi1>", {0, 1, 0, 1});
  CHECK(ints(binary("add", p, q)) == std::vector<int64_t>{0, 1, 1, 1});
  CHECK(ints(binary("maximum", p, q)) == std::vector<int64_t>{0, 1, 1, 1});
  CHECK(ints(binary("multiply", p, q)) == std::vector<int64_t>{0, 0, 0, 1});
  CHECK(ints(binary("minimum", p, q)) == std::vector<int64_t>{0, 0, 0, 1});
}

TEST_CASE("i16, ui16 and ui64 wrap, divide, compare and convert like the other integers") {
  constexpr int64_t kAllOnes = -1; // ui64's 2^64 - 1, as getInt gives its bits
  CHECK(ints(binary("add", intLiteral("tensor<2xi16>", {32767, -32768}),
                    intLiteral("tensor<2xi16>", {1, -1}))) == std::vector<int64_t>{-32768, 32767});
  CHECK(ints(binary("multiply", intLiteral("tensor<2xui16>", {65535, 300}),
                    intLiteral("tensor<2xui16>", {65535, 300}))) ==
        std::vector<int64_t>{1, 24464}); // (2^16 - 1)^2 mod 2^16, 90000 mod 2^16
  CHECK(ints(binary("subtract", intLiteral("tensor<1xui64>", {0}),
                    intLiteral("tensor<1xui64>", {1}))) == std::vector<int64_t>{kAllOnes});
  CHECK(ints(binary("divide", intLiteral("tensor<3xui64>", {kAllOnes, 7, 9}),
                    intLiteral("tensor<3xui64>", {2, 0, 2}))) ==
        std::vector<int64_t>{kI64Max, kAllOnes, 4}); // unsigned: (2^64 - 1) / 2
  CHECK(ints(binary("divide", intLiteral("tensor<2xi16>", {-32768, 5}),
                    intLiteral("tensor<2xi16>", {-1, 0}))) == std::vector<int64_t>{-32768, -1});
  CHECK(ints(binary("remainder", intLiteral("tensor<2xi16>", {-7, -32768}),
                    intLiteral("tensor<2xi16>", {2, -1}))) == std::vector<int64_t>{-1, 0});
  CHECK(ints(binary("maximum", intLiteral("tensor<2xui64>", {kAllOnes, 1}),
                    intLiteral("tensor<2xui64>", {1, 2}))) == std::vector<int64_t>{kAllOnes, 2});
  auto cmp = [](const Literal &a, const Literal &b) {
    return ints(evalOne(opGraph("compare", {printType(a.type()), printType(b.type())},
                                R"(, "comparison_direction": "GT")"),
                        {a, b}));
  };
  CHECK(cmp(intLiteral("tensor<2xui64>", {kAllOnes, 1}), intLiteral("tensor<2xui64>", {1, 1})) ==
        std::vector<int64_t>{1, 0});
  CHECK(cmp(intLiteral("tensor<2xui16>", {65535, 1}), intLiteral("tensor<2xui16>", {1, 1})) ==
        std::vector<int64_t>{1, 0});
  CHECK(cmp(intLiteral("tensor<2xi16>", {-1, 1}), intLiteral("tensor<2xi16>", {1, 1})) ==
        std::vector<int64_t>{0, 0});
  CHECK(ints(convert(literal("tensor<4xf64>", {-5, 1e30, 2.9, kNaN}), "tensor<4xui64>")) ==
        std::vector<int64_t>{0, kAllOnes, 2, 0});
  CHECK(ints(convert(literal("tensor<3xf32>", {40000, -40000, -2.5}), "tensor<3xi16>")) ==
        std::vector<int64_t>{32767, -32768, -2});
  CHECK(floats(convert(intLiteral("tensor<1xui64>", {kAllOnes}), "tensor<1xf64>")) ==
        std::vector<double>{18446744073709551616.0});
  CHECK(ints(convert(intLiteral("tensor<2xi16>", {-1, 300}), "tensor<2xui16>")) ==
        std::vector<int64_t>{65535, 300});
  CHECK(ints(convert(intLiteral("tensor<1xi8>", {-1}), "tensor<1xui64>")) ==
        std::vector<int64_t>{kAllOnes});
}

TEST_CASE("i2, i4, ui2 and ui4 wrap to their bits; floats saturate to their range on convert") {
  // add_op_test_si4, add_op_test_ui4 and add_op_test_si2 (interpret tests).
  CHECK(ints(binary("add", intLiteral("tensor<5xi4>", {0, 1, 2, -3, 0}),
                    intLiteral("tensor<5xi4>", {-8, -1, 2, -3, 7}))) ==
        std::vector<int64_t>{-8, 0, 4, -6, 7});
  CHECK(ints(binary("add", intLiteral("tensor<2xui4>", {0, 2}),
                    intLiteral("tensor<2xui4>", {15, 3}))) == std::vector<int64_t>{15, 5});
  CHECK(ints(binary("add", intLiteral("tensor<4xi2>", {1, 0, -1, -2}),
                    intLiteral("tensor<4xi2>", {-1, 1, 1, 1}))) ==
        std::vector<int64_t>{0, 1, 0, -1});
  CHECK(ints(binary("add", intLiteral("tensor<2xui2>", {0, 2}),
                    intLiteral("tensor<2xui2>", {1, 1}))) == std::vector<int64_t>{1, 3});
  // Wrapping past the bits, and the division corner cases at the type's own minimum.
  CHECK(ints(binary("add", intLiteral("tensor<2xi4>", {7, -8}),
                    intLiteral("tensor<2xi4>", {1, -1}))) == std::vector<int64_t>{-8, 7});
  CHECK(ints(binary("multiply", intLiteral("tensor<2xui4>", {15, 5}),
                    intLiteral("tensor<2xui4>", {15, 5}))) == std::vector<int64_t>{1, 9});
  CHECK(ints(binary("divide", intLiteral("tensor<3xi4>", {-8, 7, 5}),
                    intLiteral("tensor<3xi4>", {-1, 0, -2}))) == std::vector<int64_t>{-8, -1, -2});
  CHECK(ints(binary("divide", intLiteral("tensor<1xui4>", {9}),
                    intLiteral("tensor<1xui4>", {0}))) == std::vector<int64_t>{15});
  CHECK(ints(binary("remainder", intLiteral("tensor<2xi4>", {-8, -7}),
                    intLiteral("tensor<2xi4>", {-1, 2}))) == std::vector<int64_t>{0, -1});
  CHECK(ints(unary("negate", intLiteral("tensor<2xi4>", {-8, 3}))) == std::vector<int64_t>{-8, -3});
  CHECK(ints(unary("abs", intLiteral("tensor<2xi2>", {-2, -1}))) == std::vector<int64_t>{-2, 1});
  CHECK(ints(unary("not", intLiteral("tensor<2xui4>", {0, 5}))) == std::vector<int64_t>{15, 10});
  CHECK(ints(unary("not", intLiteral("tensor<2xi4>", {0, 5}))) == std::vector<int64_t>{-1, -6});
  CHECK(ints(convert(literal("tensor<5xf32>", {100, -100, 3.7, -8.5, kNaN}), "tensor<5xi4>")) ==
        std::vector<int64_t>{7, -8, 3, -8, 0});
  CHECK(ints(convert(literal("tensor<3xf64>", {100, -1, 2.5}), "tensor<3xui2>")) ==
        std::vector<int64_t>{3, 0, 2});
  // Integer to integer wraps: 300 is 0b100101100.
  CHECK(ints(convert(intLiteral("tensor<2xi32>", {300, -9}), "tensor<2xi4>")) ==
        std::vector<int64_t>{-4, 7});
  CHECK(ints(convert(intLiteral("tensor<2xi4>", {-1, 7}), "tensor<2xui4>")) ==
        std::vector<int64_t>{15, 7});
  CHECK(floats(convert(intLiteral("tensor<2xi4>", {-8, 7}), "tensor<2xf32>")) ==
        std::vector<double>{-8, 7});
}

TEST_CASE("8-, 6- and 4-bit floats compute in f32 and round each result to the format") {
  // f8E4M3FN's largest is 448; 464 ties to 448 (even), 480 is its NaN's place.
  CHECK(floats(binary("add", literal("tensor<3xf8E4M3FN>", {448, 448, 1}),
                      literal("tensor<3xf8E4M3FN>", {16, 1, 0.1}))) ==
        std::vector<double>{448, 448, 1.125});
  CHECK(std::isnan(floats(binary("add", literal("tensor<1xf8E4M3FN>", {448}),
                                 literal("tensor<1xf8E4M3FN>", {32})))[0]));
  // f8E5M2 overflows to inf; FNUZ formats have no -0 (0x80 is their NaN).
  CHECK(floats(binary("multiply", literal("tensor<1xf8E5M2>", {57344}),
                      literal("tensor<1xf8E5M2>", {2}))) == std::vector<double>{kInf});
  const Literal zero = binary("multiply", literal("tensor<1xf8E4M3FNUZ>", {-0.5}),
                              literal("tensor<1xf8E4M3FNUZ>", {0}));
  CHECK(zero.data()[0] == std::byte{0});
  // f6/f4 saturate; f8E8M0FNU holds powers of two only.
  CHECK(floats(binary("add", literal("tensor<2xf4E2M1FN>", {6, 1}),
                      literal("tensor<2xf4E2M1FN>", {6, 0.5}))) == std::vector<double>{6, 1.5});
  CHECK(floats(binary("add", literal("tensor<1xf8E8M0FNU>", {2}),
                      literal("tensor<1xf8E8M0FNU>", {1}))) == std::vector<double>{4});
  CHECK(floats(unary("sqrt", literal("tensor<2xf8E5M2>", {16, 2}))) == std::vector<double>{4, 1.5});
}

TEST_CASE("converts to 8-, 6- and 4-bit floats round once, as APFloat; back they are exact") {
  // f64 and integers round once: a double just above a tie of f8E4M3FN
  // rounds up; the float nearest to it is the tie itself, which rounds to even.
  CHECK(floats(convert(literal("tensor<1xf64>", {1.0625 + 0x1p-40}), "tensor<1xf8E4M3FN>")) ==
        std::vector<double>{1.125});
  CHECK(floats(convert(literal("tensor<1xf32>", {1.0625}), "tensor<1xf8E4M3FN>")) ==
        std::vector<double>{1});
  CHECK(floats(convert(intLiteral("tensor<2xi64>", {3 * (int64_t(1) << 61) - 1, -3}),
                       "tensor<2xf8E8M0FNU>"))[0] == 0x1p62);
  const std::vector<double> fromInts =
      floats(convert(intLiteral("tensor<3xi32>", {17, -300, 1000}), "tensor<3xf8E4M3FN>"));
  CHECK(fromInts[0] == 16); // a tie, to even
  CHECK(fromInts[1] == -288);
  CHECK(std::isnan(fromInts[2])); // beyond 448: f8E4M3FN has no inf
  // f6/f4: NaN and inf give a zero of their sign, overflow the largest value.
  const Literal f4 =
      convert(literal("tensor<4xf32>", {100, -kInf, kNaN, 0.75}), "tensor<4xf4E2M1FN>");
  CHECK(floats(f4) == std::vector<double>{6, 0, 0, 1});
  CHECK(f4.data()[1] == std::byte{0x08}); // -0
  // Back to wider types and integers exactly; NaN to an integer is 0.
  CHECK(floats(convert(literal("tensor<3xf8E5M2>", {57344, -0.0000152587890625, 3}),
                       "tensor<3xf16>")) == std::vector<double>{57344, -0.0000152587890625, 3});
  CHECK(ints(convert(literal("tensor<3xf8E4M3FN>", {448, -2.5, kNaN}), "tensor<3xi32>")) ==
        std::vector<int64_t>{448, -2, 0});
  CHECK(floats(convert(literal("tensor<2xf8E4M3B11FNUZ>", {30, 0.1}), "tensor<2xf8E5M2>")) ==
        std::vector<double>{32, 0.09375});
}

TEST_CASE("dot_general of 8-bit floats: the interpreter tests' add_op_test_f8E3M4 and _f8E4M3") {
  const std::string dims = R"(, "lhs_contracting_dimensions": [0],
                               "rhs_contracting_dimensions": [0])";
  const Literal e3m4 = literal("tensor<4xf8E3M4>", {0, 1, 2, 3});
  CHECK(floats(evalOne(opGraph("dot_general", {"tensor<4xf8E3M4>", "tensor<4xf8E3M4>"}, dims),
                       {e3m4, e3m4})) == std::vector<double>{14});
  // 140 rounds to 144 in f8E4M3 (3 mantissa bits: 128, 144, ...).
  const Literal e4m3 = literal("tensor<8xf8E4M3>", {0, 1, 2, 3, 4, 5, 6, 7});
  CHECK(floats(evalOne(opGraph("dot_general", {"tensor<8xf8E4M3>", "tensor<8xf8E4M3>"}, dims),
                       {e4m3, e4m3})) == std::vector<double>{144});
}
