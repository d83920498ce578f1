// The one conversion of the 8-, 6- and 4-bit floats
// (runtime/include/shardgen/minifloat.h) against llvm::APFloat, whose
// formats the StableHLO interpreter computes with: every code's value, and
// the rounding of floats, doubles (ties and their neighbours) and integers,
// for the formats LLVM 19 has. f8E3M4 and f8E8M0FNU (newer LLVM) against the
// values the StableHLO interpreter's tests state (constant.mlir) and their
// definitions.

#include <bit>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <ios>
#include <limits>

#include <doctest/doctest.h>
#include <llvm/ADT/APFloat.h>
#include <llvm/ADT/APInt.h>

#include "runtime/include/shardgen/minifloat.h"

namespace shardgen::runtime {
namespace {

unsigned apfloatCode(llvm::APFloat value, const llvm::fltSemantics &semantics) {
  bool losesInfo = false;
  value.convert(semantics, llvm::APFloat::rmNearestTiesToEven, &losesInfo);
  return static_cast<unsigned>(value.bitcastToAPInt().getZExtValue());
}

template <typename F> void checkAgainstApfloat(const llvm::fltSemantics &semantics) {
  for (unsigned code = 0; code < (1u << F::kBits); ++code) {
    llvm::APFloat value(semantics, llvm::APInt(F::kBits, code));
    bool losesInfo = false;
    value.convert(llvm::APFloat::IEEEsingle(), llvm::APFloat::rmNearestTiesToEven, &losesInfo);
    const auto want = static_cast<uint32_t>(value.bitcastToAPInt().getZExtValue());
    REQUIRE_MESSAGE(std::bit_cast<uint32_t>(miniFloatToFloat<F>(static_cast<uint8_t>(code))) ==
                        want,
                    "code 0x" << std::hex << code);
  }
  // Every float whose top 16 bits vary (every exponent, the mantissa bits
  // that decide rounding, NaNs and infinities), with low bits that make
  // ties and their neighbours.
  for (uint32_t top = 0; top < (1u << 16); ++top)
    for (uint32_t low : {0u, 1u, 0x7fffu, 0x8000u, 0x8001u, 0xffffu}) {
      const uint32_t bits = (top << 16) | low;
      const float f = std::bit_cast<float>(bits);
      REQUIRE_MESSAGE(miniFloatFromFloat<F>(f) == apfloatCode(llvm::APFloat(f), semantics),
                      "float bits 0x" << std::hex << bits);
    }
  // The midpoints between neighbouring codes as doubles, and one double ulp
  // either side of them (f64 converts with one rounding, not through float).
  for (unsigned code = 0; code + 1 < (1u << F::kBits); ++code) {
    const double low = miniFloatToFloat<F>(static_cast<uint8_t>(code));
    const double high = miniFloatToFloat<F>(static_cast<uint8_t>(code + 1));
    if (!std::isfinite(low) || !std::isfinite(high))
      continue;
    const double middle = (low + high) / 2;
    for (double x : {middle, std::nextafter(middle, INFINITY), std::nextafter(middle, -INFINITY)})
      REQUIRE_MESSAGE(miniFloatFromDouble<F>(x) == apfloatCode(llvm::APFloat(x), semantics),
                      "double " << x);
  }
  for (int64_t i : {int64_t(0), int64_t(1), int64_t(-1), int64_t(3), int64_t(17), int64_t(-300),
                    int64_t(1000000), (int64_t(1) << 53) + 1, INT64_MIN, INT64_MAX}) {
    llvm::APFloat want(semantics);
    want.convertFromAPInt(llvm::APInt(64, static_cast<uint64_t>(i), true), true,
                          llvm::APFloat::rmNearestTiesToEven);
    REQUIRE_MESSAGE(miniFloatFromInt64<F>(i) == want.bitcastToAPInt().getZExtValue(),
                    "int64 " << i);
  }
}

TEST_CASE("f8E5M2, f8E5M2FNUZ: every code and rounding as llvm::APFloat") {
  checkAgainstApfloat<FormatF8E5M2>(llvm::APFloat::Float8E5M2());
  checkAgainstApfloat<FormatF8E5M2FNUZ>(llvm::APFloat::Float8E5M2FNUZ());
}

TEST_CASE("f8E4M3, f8E4M3FN, f8E4M3FNUZ, f8E4M3B11FNUZ: every code and rounding as APFloat") {
  checkAgainstApfloat<FormatF8E4M3>(llvm::APFloat::Float8E4M3());
  checkAgainstApfloat<FormatF8E4M3FN>(llvm::APFloat::Float8E4M3FN());
  checkAgainstApfloat<FormatF8E4M3FNUZ>(llvm::APFloat::Float8E4M3FNUZ());
  checkAgainstApfloat<FormatF8E4M3B11FNUZ>(llvm::APFloat::Float8E4M3B11FNUZ());
}

TEST_CASE("f6E2M3FN, f6E3M2FN, f4E2M1FN: every code and rounding as APFloat") {
  checkAgainstApfloat<FormatF6E2M3FN>(llvm::APFloat::Float6E2M3FN());
  checkAgainstApfloat<FormatF6E3M2FN>(llvm::APFloat::Float6E3M2FN());
  checkAgainstApfloat<FormatF4E2M1FN>(llvm::APFloat::Float4E2M1FN());
}

TEST_CASE("f8E3M4 as the StableHLO interpreter's tests state it (IEEE-like, bias 3)") {
  using F = FormatF8E3M4;
  CHECK(miniFloatFromFloat<F>(0.1f) == miniFloatFromFloat<F>(0.09375f));
  CHECK(miniFloatToFloat<F>(miniFloatFromFloat<F>(3.1415f)) == 3.125f);
  CHECK(miniFloatToFloat<F>(0x01) == 0.015625f); // the smallest subnormal, 2^-6
  CHECK(miniFloatToFloat<F>(0x81) == -0.015625f);
  CHECK(std::isnan(miniFloatToFloat<F>(0x7f)));
  CHECK(miniFloatToFloat<F>(0x70) == INFINITY);
  CHECK(miniFloatToFloat<F>(0x6f) == 15.5f);    // the largest finite value
  CHECK(miniFloatFromFloat<F>(15.75f) == 0x70); // the tie above it rounds to inf
  CHECK(miniFloatFromFloat<F>(15.7f) == 0x6f);
  CHECK(miniFloatFromFloat<F>(-0.0f) == 0x80);
  CHECK(miniFloatFromInt64<F>(14) == miniFloatFromFloat<F>(14.0f));
}

TEST_CASE("f8E8M0FNU: powers of two 2^-127..2^127, 0xFF NaN, no zero, no sign") {
  using F = FormatF8E8M0FNU;
  CHECK(miniFloatToFloat<F>(0x7f) == 1.0f);
  CHECK(miniFloatToFloat<F>(0x80) == 2.0f);
  CHECK(miniFloatToFloat<F>(0x00) == std::ldexp(1.0f, -127));
  CHECK(miniFloatToFloat<F>(0xfe) == std::ldexp(1.0f, 127));
  CHECK(std::isnan(miniFloatToFloat<F>(0xff)));
  // constant.mlir: 0.125 and 0.1 give 0.125, 3.1415 gives 4.0.
  CHECK(miniFloatFromFloat<F>(0.125f) == 0x7c);
  CHECK(miniFloatFromFloat<F>(0.1f) == 0x7c);
  CHECK(miniFloatFromFloat<F>(3.1415f) == 0x81);
  CHECK(miniFloatFromFloat<F>(3.0f) == 0x81);  // a tie: the one significand bit is odd, up
  CHECK(miniFloatFromFloat<F>(2.99f) == 0x80); // below the tie
  // No zero: zero and anything below 2^-127 give 2^-127 (as APFloat).
  CHECK(miniFloatFromFloat<F>(0.0f) == 0x00);
  CHECK(miniFloatFromFloat<F>(-0.0f) == 0x00);
  CHECK(miniFloatFromFloat<F>(std::ldexp(1.0f, -140)) == 0x00);
  // No sign, no inf: NaN.
  CHECK(miniFloatFromFloat<F>(-1.0f) == 0xff);
  CHECK(miniFloatFromFloat<F>(INFINITY) == 0xff);
  CHECK(miniFloatFromFloat<F>(NAN) == 0xff);
  CHECK(miniFloatFromDouble<F>(0x1.8p127) == 0xff); // the tie above 2^127 overflows
  CHECK(miniFloatFromDouble<F>(0x1.7fffffp127) == 0xfe);
  // An integer rounds once: 3 * 2^61 - 1 lies below the tie between 2^62 and 2^63.
  CHECK(miniFloatFromInt64<F>(3 * (int64_t(1) << 61) - 1) == 127 + 62);
  CHECK(miniFloatFromInt64<F>(3 * (int64_t(1) << 61)) == 127 + 63);
}

TEST_CASE("an f64 or an integer rounds to f8 once, not twice through float") {
  using F = FormatF8E4M3FN;
  // 1.0625 is the tie between 1 and 1.125 (ties to even: 1); just above it a
  // double rounds up, but the float nearest to that double is the tie.
  const double above = 1.0625 + 0x1p-40;
  CHECK(static_cast<float>(above) == 1.0625f);
  CHECK(miniFloatFromFloat<F>(static_cast<float>(above)) == 0x38);
  CHECK(miniFloatFromDouble<F>(above) == 0x39);
}

} // namespace
} // namespace shardgen::runtime
