// The bit ops (shifts, popcnt, count_leading_zeros, bitcast_convert,
// reduce_precision), is_finite and atan2: the StableHLO interpreter tests'
// and the spec's values, and the corner cases XLA defines (shift amounts
// out of range, the sign fill, NaN kept).

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numbers>

#include "test/interp/InterpTestUtil.h"

using namespace shardgen;
using namespace shardgen::test;

namespace bitops_test {

constexpr int64_t kMax64 = std::numeric_limits<int64_t>::max();
constexpr int64_t kMin64 = std::numeric_limits<int64_t>::min();

Literal unaryOp(const std::string &op, const Literal &x, const std::string &attributes = "",
                const std::string &resultType = "") {
  return evalOne(opGraph(op, {printType(x.type())}, attributes, resultType), {x});
}

Literal binaryOp(const std::string &op, const Literal &x, const Literal &y) {
  return evalOne(opGraph(op, {printType(x.type()), printType(y.type())}), {x, y});
}

/// A literal from raw bits, element by element (little endian).
template <typename Bits> Literal fromBits(const std::string &type, const std::vector<Bits> &bits) {
  Literal out(tensorType(type));
  REQUIRE(out.byteSize() == bits.size() * sizeof(Bits));
  std::memcpy(out.data(), bits.data(), out.byteSize());
  return out;
}

template <typename Bits> std::vector<Bits> bitsOf(const Literal &x) {
  std::vector<Bits> out(x.byteSize() / sizeof(Bits));
  std::memcpy(out.data(), x.data(), x.byteSize());
  return out;
}

} // namespace bitops_test

using namespace bitops_test;

TEST_CASE("shift_left, shift_right_arithmetic, shift_right_logical: the interpreter tests") {
  const Literal lhs = intLiteral("tensor<3xi64>", {-1, 0, 1});
  const Literal rhs = intLiteral("tensor<3xi64>", {1, 2, 3});
  CHECK(ints(binaryOp("shift_left", lhs, rhs)) == std::vector<int64_t>{-2, 0, 8});
  const Literal lhs2 = intLiteral("tensor<3xi64>", {-1, 0, 8});
  CHECK(ints(binaryOp("shift_right_arithmetic", lhs2, rhs)) == std::vector<int64_t>{-1, 0, 1});
  CHECK(ints(binaryOp("shift_right_logical", lhs2, rhs)) == std::vector<int64_t>{kMax64, 0, 1});
}

TEST_CASE("shifts by the width or more, or by a negative amount: 0, or the sign fill") {
  const Literal x = intLiteral("tensor<5xi32>", {-5, -5, 5, 5, -5});
  const Literal n = intLiteral("tensor<5xi32>", {32, -1, 33, 31, 31});
  CHECK(ints(binaryOp("shift_left", x, n)) ==
        std::vector<int64_t>{0, 0, 0, INT64_C(-2147483648), INT64_C(-2147483648)});
  CHECK(ints(binaryOp("shift_right_logical", x, n)) == std::vector<int64_t>{0, 0, 0, 0, 1});
  CHECK(ints(binaryOp("shift_right_arithmetic", x, n)) == std::vector<int64_t>{-1, -1, 0, 0, -1});
  // i8 promotes to int in C++: no bit may leak past the width.
  CHECK(ints(binaryOp("shift_left", intLiteral("tensor<3xi8>", {-1, 64, 1}),
                      intLiteral("tensor<3xi8>", {7, 1, 8}))) ==
        std::vector<int64_t>{-128, -128, 0});
  CHECK(ints(binaryOp("shift_left", intLiteral("tensor<2xi64>", {kMin64, 3}),
                      intLiteral("tensor<2xi64>", {1, 63}))) == std::vector<int64_t>{0, kMin64});
}

TEST_CASE("unsigned shifts: the arithmetic shift fills with the top bit") {
  const Literal x = intLiteral("tensor<4xui8>", {0x80, 0x80, 0x7f, 0xf0});
  const Literal n = intLiteral("tensor<4xui8>", {1, 200, 1, 4});
  CHECK(ints(binaryOp("shift_right_arithmetic", x, n)) ==
        std::vector<int64_t>{0xc0, 0xff, 0x3f, 0xff});
  CHECK(ints(binaryOp("shift_right_logical", x, n)) == std::vector<int64_t>{0x40, 0, 0x3f, 0x0f});
  CHECK(ints(binaryOp("shift_left", intLiteral("tensor<2xui16>", {0xffff, 1}),
                      intLiteral("tensor<2xui16>", {15, 16}))) == std::vector<int64_t>{0x8000, 0});
  const Literal big = intLiteral("tensor<2xui64>", {-1, -1});
  CHECK(ints(binaryOp("shift_right_arithmetic", big, intLiteral("tensor<2xui64>", {63, 64}))) ==
        std::vector<int64_t>{-1, -1});
}

TEST_CASE("popcnt and count_leading_zeros: the interpreter tests and every width") {
  CHECK(ints(unaryOp("popcnt", intLiteral("tensor<4xi64>", {0, 1, 2, 127}))) ==
        std::vector<int64_t>{0, 1, 1, 7});
  CHECK(ints(unaryOp("count_leading_zeros", intLiteral("tensor<2x2xi64>", {0, 1, 128, -1}))) ==
        std::vector<int64_t>{64, 63, 56, 0});
  CHECK(ints(unaryOp("popcnt", intLiteral("tensor<3xi8>", {-1, -128, 0}))) ==
        std::vector<int64_t>{8, 1, 0});
  CHECK(ints(unaryOp("count_leading_zeros", intLiteral("tensor<4xui16>", {0, 1, 0x8000, 0xff}))) ==
        std::vector<int64_t>{16, 15, 0, 8});
  CHECK(ints(unaryOp("count_leading_zeros", intLiteral("tensor<2xi32>", {0, -1}))) ==
        std::vector<int64_t>{32, 0});
}

TEST_CASE("is_finite: the interpreter test; atan2: quadrants and signed zeros") {
  const Literal x = literal("tensor<7xf64>", {-kInf, kInf, kNaN, -10, -0.0, 0, 10});
  CHECK(ints(unaryOp("is_finite", x)) == std::vector<int64_t>{0, 0, 0, 1, 1, 1, 1});
  CHECK(ints(unaryOp("is_finite", literal("tensor<3xbf16>", {kInf, 1e38, kNaN}))) ==
        std::vector<int64_t>{0, 1, 0});
  const std::vector<double> angles =
      floats(binaryOp("atan2", literal("tensor<5xf64>", {0, 1, -1, 0, -0.0}),
                      literal("tensor<5xf64>", {0, 0, 0, -1, -1})));
  CHECK(angles[0] == 0);
  CHECK(angles[1] == doctest::Approx(1.5707963267948966));
  CHECK(angles[2] == doctest::Approx(-1.5707963267948966));
  CHECK(angles[3] == doctest::Approx(std::numbers::pi));
  CHECK(angles[4] == doctest::Approx(-std::numbers::pi));
  CHECK(
      floats(binaryOp("atan2", literal("tensor<1xf32>", {1}), literal("tensor<1xf32>", {1})))[0] ==
      static_cast<double>(std::atan2(1.0f, 1.0f)));
}

TEST_CASE("reduce_precision: the spec's example (f64 to e5m10 and back)") {
  const Literal x = fromBits<uint64_t>(
      "tensor<6xf64>", {0x7FF0000000000000, 0x7FFFFFFFFFFFFFFF, 0x0000000000000001, 0,
                        0x40EFFDE000000000 /* 65519 */, 0x40EFFE0000000000 /* 65520 */});
  const Literal y = unaryOp("reduce_precision", x, R"(, "exponent_bits": 5, "mantissa_bits": 10)");
  const std::vector<uint64_t> bits = bitsOf<uint64_t>(y);
  CHECK(bits[0] == 0x7FF0000000000000); // +inf
  CHECK(bits[1] == 0x7FFFFFFFFFFFFFFF); // NaN as it was
  CHECK(bits[2] == 0);                  // the denormal underflows
  CHECK(bits[3] == 0);
  CHECK(y.getFloat(4) == 65504);
  CHECK(y.getFloat(5) == kInf);
}

TEST_CASE("reduce_precision: without mantissa bits NaN becomes infinity (the interpreter test)") {
  const Literal x = fromBits<uint64_t>(
      "tensor<3xf64>", {0x7FFFFFFFFFFFFFFF, 0xFFF8000000000000, 0x3FF8000000000000});
  const Literal y = unaryOp("reduce_precision", x, R"(, "exponent_bits": 5, "mantissa_bits": 0)");
  // 1.5 rounds (a tie) to even: 2.
  CHECK(bitsOf<uint64_t>(y) ==
        std::vector<uint64_t>{0x7FF0000000000000, 0xFFF0000000000000, 0x4000000000000000});
}

TEST_CASE("reduce_precision: ties to even, signs, f16/bf16 on their own bits") {
  // To bf16's format (e8m7) from f32: 1 + 2^-8 is a tie (to 1), 1 + 3 * 2^-8 rounds up.
  const Literal x = literal("tensor<4xf32>", {1 + 0x1p-8, 1 + 3 * 0x1p-8, -(1 + 0x1p-8), 1e-40});
  const std::vector<double> y =
      floats(unaryOp("reduce_precision", x, R"(, "exponent_bits": 8, "mantissa_bits": 7)"));
  // 1e-40 is an f32 subnormal (bits 0x116C2): its mantissa rounds to 0x10000.
  CHECK(y == std::vector<double>{1, 1 + 0x1p-6, -1, 0x1p-133});
  // f16 keeps its own subnormals at e5: nothing changes.
  const Literal h = literal("tensor<2xf16>", {0x1p-24, 65504});
  CHECK(floats(unaryOp("reduce_precision", h, R"(, "exponent_bits": 5, "mantissa_bits": 10)")) ==
        std::vector<double>{0x1p-24, 65504});
  // e2m1 (a tiny format): bias 1, so exponents beyond [0, 1] over- or underflow;
  // -3.5 rounds (a tie, to even) to -4, which overflows.
  CHECK(floats(unaryOp("reduce_precision", literal("tensor<5xf32>", {1.5, 3, 4, 0.75, -3.5}),
                       R"(, "exponent_bits": 2, "mantissa_bits": 1)")) ==
        std::vector<double>{1.5, 3, kInf, 0, -kInf});
}

TEST_CASE("bitcast_convert: the interpreter tests' values, both width changes") {
  // i64 to f64 and back: the same bits.
  const Literal i = fromBits<uint64_t>("tensor<i64>", {0x0123456789ABCDEF});
  const Literal f = unaryOp("bitcast_convert", i, "", "tensor<f64>");
  CHECK(bitsOf<uint64_t>(f) == std::vector<uint64_t>{0x0123456789ABCDEF});
  // The spec's example: f64 to 4 x f16, little endian (the low bits first).
  const Literal pieces = unaryOp("bitcast_convert", f, "", "tensor<4xf16>");
  CHECK(bitsOf<uint16_t>(pieces) == std::vector<uint16_t>{0xCDEF, 0x89AB, 0x4567, 0x0123});
  // And back: the minor dim folds into one wide element.
  const Literal whole = unaryOp("bitcast_convert", pieces, "", "tensor<ui64>");
  CHECK(bitsOf<uint64_t>(whole) == std::vector<uint64_t>{0x0123456789ABCDEF});
  // Same width, a float's bits as an integer.
  CHECK(ints(unaryOp("bitcast_convert", literal("tensor<2xf32>", {1, -2}), "", "tensor<2xi32>")) ==
        std::vector<int64_t>{0x3f800000, INT64_C(-1073741824)});
  CHECK(ints(unaryOp("bitcast_convert",
                     fromBits<uint32_t>("tensor<2x1xui32>", {0x11223344, 0xAABBCCDD}), "",
                     "tensor<2x1x4xui8>")) ==
        std::vector<int64_t>{0x44, 0x33, 0x22, 0x11, 0xDD, 0xCC, 0xBB, 0xAA});
}

TEST_CASE("bitcast_convert of complex values: the real part's bytes, then the imaginary's") {
  // complex<f32> 1 + 2i as two f32 (the minor dim: real, imaginary) and as
  // one i64 (the real part's bits low).
  const Literal c =
      unaryOp("bitcast_convert", literal("tensor<2xf32>", {1, 2}), "", "tensor<complex<f32>>");
  CHECK(bitsOf<uint32_t>(c) == std::vector<uint32_t>{0x3f800000, 0x40000000});
  CHECK(bitsOf<uint64_t>(unaryOp("bitcast_convert", c, "", "tensor<i64>")) ==
        std::vector<uint64_t>{0x400000003f800000});
  CHECK(floats(unaryOp("bitcast_convert", c, "", "tensor<2xf32>")) == std::vector<double>{1, 2});
  // complex<f64> to two complex<f32> (the interpreter test's c128 -> c64).
  const Literal wide =
      fromBits<uint64_t>("tensor<complex<f64>>", {0x0123456789ABCDEF, 0xFEDCBA9876543210});
  CHECK(bitsOf<uint32_t>(unaryOp("bitcast_convert", wide, "", "tensor<2xcomplex<f32>>")) ==
        std::vector<uint32_t>{0x89ABCDEF, 0x01234567, 0x76543210, 0xFEDCBA98});
}

TEST_CASE("bitcast_convert: i1 is one bit (the interpreter tests' i1 <-> i64)") {
  // 0x0123456789ABCDEF, lowest bit first: the test's 64 booleans.
  const uint64_t value = 0x0123456789ABCDEF;
  std::vector<int64_t> flags;
  for (int j = 0; j < 64; ++j)
    flags.push_back(static_cast<int64_t>((value >> j) & 1));
  CHECK(std::vector<int64_t>(flags.begin(), flags.begin() + 8) ==
        std::vector<int64_t>{1, 1, 1, 1, 0, 1, 1, 1});
  const Literal bools = intLiteral("tensor<64xi1>", flags);
  CHECK(bitsOf<uint64_t>(unaryOp("bitcast_convert", bools, "", "tensor<i64>")) ==
        std::vector<uint64_t>{value});
  const Literal f = fromBits<uint64_t>("tensor<f64>", {value});
  CHECK(ints(unaryOp("bitcast_convert", f, "", "tensor<64xi1>")) == flags);
  CHECK(ints(unaryOp("bitcast_convert", intLiteral("tensor<2xui8>", {0x81, 0x02}), "",
                     "tensor<2x8xi1>")) ==
        std::vector<int64_t>{1, 0, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0});
}
