#pragma once
// The 8-, 6- and 4-bit float types (f8E5M2, f8E4M3FN, ..., f6E2M3FN,
// f4E2M1FN) <-> float/double, rounding to nearest even: the one copy the
// compiler (constants, .npy data, the reference interpreter), the runtime
// (reductions) and generated code (the kernel library) all use. One byte
// holds one element (an f6/f4 code in its low bits). Header-only and
// freestanding like float16.h: generated code includes no standard header.
//
// The formats are LLVM APFloat's (llvm/ADT/APFloat.h), which the StableHLO
// interpreter uses: test/codegen/MiniFloatTest.cpp checks every code and
// every rounding case against llvm::APFloat for the formats LLVM 19 has.
//   Ieee        inf and NaNs as IEEE 754 (all-ones exponent): E5M2 E4M3 E3M4
//   NanAllOnes  no inf; NaN = all-ones exponent and mantissa (FN): E4M3FN
//   NanNegZero  no inf, no -0; the one NaN is the code of -0, 0x80 (FNUZ)
//   FiniteOnly  no inf, no NaN (f6 f4 "FN"): overflow saturates; NaN and inf
//               convert to a zero of their sign, as APFloat does (LLVM 19)
//   ExponentOnly E8M0FNU: unsigned powers of two 2^-127..2^127, 0xFF NaN, no
//               zero: zero and values below 2^-127 give 2^-127 (APFloat has
//               no zero to make), a negative value or inf gives NaN
// Overflow (after rounding with an unbounded exponent) gives inf where the
// format has one, else NaN, else the largest finite value.

#include <stdint.h>

namespace shardgen::runtime {

enum class MiniFloatKind { Ieee, NanAllOnes, NanNegZero, FiniteOnly, ExponentOnly };

template <int ExponentBits, int MantissaBits, int Bias, MiniFloatKind Kind> struct MiniFloatFormat {
  static constexpr int kExponentBits = ExponentBits, kMantissaBits = MantissaBits, kBias = Bias;
  static constexpr MiniFloatKind kKind = Kind;
  static constexpr bool kSigned = Kind != MiniFloatKind::ExponentOnly;
  static constexpr int kBits = ExponentBits + MantissaBits + (kSigned ? 1 : 0);
  static constexpr uint32_t kSignBit = kSigned ? 1u << (ExponentBits + MantissaBits) : 0u;
  static constexpr uint32_t kMaxField = (1u << ExponentBits) - 1;
  static constexpr uint32_t kMantissaMask = (1u << MantissaBits) - 1;
  /// The largest finite magnitude's code.
  static constexpr uint32_t kMaxFinite =
      Kind == MiniFloatKind::Ieee           ? ((kMaxField - 1) << MantissaBits) | kMantissaMask
      : Kind == MiniFloatKind::NanAllOnes   ? (kMaxField << MantissaBits) | (kMantissaMask - 1)
      : Kind == MiniFloatKind::ExponentOnly ? kMaxField - 1
                                            : (kMaxField << MantissaBits) | kMantissaMask;
  /// The code a NaN of this sign converts to (FiniteOnly: its zero).
  static constexpr uint32_t nanCode(bool negative) {
    return Kind == MiniFloatKind::NanNegZero     ? 0x80u
           : Kind == MiniFloatKind::ExponentOnly ? 0xffu
           : Kind == MiniFloatKind::FiniteOnly   ? (negative ? kSignBit : 0u)
           : Kind == MiniFloatKind::NanAllOnes
               ? (negative ? kSignBit : 0u) | (kMaxField << MantissaBits) | kMantissaMask
               : (negative ? kSignBit : 0u) | (kMaxField << MantissaBits) |
                     (1u << (MantissaBits - 1)); // quiet
  }
  static constexpr bool isNan(uint32_t code) {
    const uint32_t magnitude = code & ~kSignBit;
    switch (Kind) {
    case MiniFloatKind::Ieee:
      return (magnitude >> MantissaBits) == kMaxField && (magnitude & kMantissaMask) != 0;
    case MiniFloatKind::NanAllOnes:
      return magnitude == ((kMaxField << MantissaBits) | kMantissaMask);
    case MiniFloatKind::NanNegZero:
      return code == 0x80u;
    case MiniFloatKind::FiniteOnly:
      return false;
    case MiniFloatKind::ExponentOnly:
      return code == 0xffu;
    }
    return false;
  }
};

namespace minifloat {

/// 2^e as a float, for -149 <= e <= 127.
inline __attribute__((always_inline)) float powerOfTwo(int e) {
  return __builtin_bit_cast(float,
                            e >= -126 ? static_cast<uint32_t>(e + 127) << 23 : 1u << (e + 149));
}

/// The code of the value `significand * 2^exponent` (significand > 0),
/// rounded to nearest even, with the sign.
template <typename F>
inline uint8_t encodeFinite(bool negative, uint64_t significand, int exponent) {
  constexpr int m = F::kMantissaBits;
  // The exponent of the smallest normal value (E8M0FNU's field 0 is normal).
  constexpr int minExponent = F::kKind == MiniFloatKind::ExponentOnly ? -F::kBias : 1 - F::kBias;
  const uint32_t sign = negative ? F::kSignBit : 0u;
  if constexpr (F::kKind == MiniFloatKind::ExponentOnly)
    if (negative)
      return 0xff;
  const int msb = 63 - __builtin_clzll(significand);
  const int valueExponent = exponent + msb; // value in [2^ve, 2^(ve + 1))
  if constexpr (F::kKind == MiniFloatKind::ExponentOnly)
    if (valueExponent < -F::kBias)
      return 0; // no zero, no subnormals: the smallest value
  // The exponent of the last kept bit: the value rounded to a multiple of 2^quantum.
  const int quantum = (valueExponent < minExponent ? minExponent : valueExponent) - m;
  if (valueExponent > int(F::kMaxField) - F::kBias + 1)
    return static_cast<uint8_t>(F::kKind == MiniFloatKind::Ieee         ? sign | (F::kMaxField << m)
                                : F::kKind == MiniFloatKind::FiniteOnly ? sign | F::kMaxFinite
                                                                        : F::nanCode(negative));
  const int shift = quantum - exponent;
  uint64_t kept;
  if (shift <= 0) {
    kept = significand << -shift; // exact: at most m + 1 bits
  } else {
    kept = shift >= 64 ? 0 : significand >> shift;
    const uint64_t rest = shift >= 64 ? significand : significand & ((uint64_t(1) << shift) - 1);
    const uint64_t half = shift > 64 ? ~uint64_t(0) : uint64_t(1) << (shift - 1);
    if (rest > half || (rest == half && shift <= 64 && (kept & 1)))
      ++kept;
  }
  // kept * 2^quantum; a carry to 2^(m + 1) moves to the next binade (exact).
  uint32_t field, mantissa;
  if (kept >> (m + 1)) {
    field = static_cast<uint32_t>(quantum + 1 + m + F::kBias);
    mantissa = 0;
  } else if (kept >> m) {
    field = static_cast<uint32_t>(quantum + m + F::kBias);
    mantissa = static_cast<uint32_t>(kept) & F::kMantissaMask;
  } else { // subnormal or zero
    field = 0;
    mantissa = static_cast<uint32_t>(kept);
  }
  const uint32_t magnitude = (field << m) | mantissa;
  if (magnitude > F::kMaxFinite)
    return static_cast<uint8_t>(F::kKind == MiniFloatKind::Ieee         ? sign | (F::kMaxField << m)
                                : F::kKind == MiniFloatKind::FiniteOnly ? sign | F::kMaxFinite
                                                                        : F::nanCode(negative));
  if (magnitude == 0 && F::kKind == MiniFloatKind::NanNegZero)
    return 0; // no -0
  return static_cast<uint8_t>(sign | magnitude);
}

/// The code of a zero (E8M0FNU: 2^-127, its smallest value).
template <typename F> inline uint8_t zeroCode(bool negative) {
  return F::kKind == MiniFloatKind::NanNegZero || F::kKind == MiniFloatKind::ExponentOnly
             ? 0
             : static_cast<uint8_t>(negative ? F::kSignBit : 0u);
}

} // namespace minifloat

template <typename F> inline float miniFloatToFloat(uint8_t code) {
  constexpr int m = F::kMantissaBits;
  const uint32_t sign = (code & F::kSignBit) ? 0x80000000u : 0u;
  const uint32_t magnitude = code & ~F::kSignBit & ((1u << F::kBits) - 1);
  const uint32_t field = magnitude >> m, mantissa = magnitude & F::kMantissaMask;
  if (F::isNan(code)) // quiet, the top payload bits kept (as APFloat converts)
    return __builtin_bit_cast(
        float,
        (F::kKind == MiniFloatKind::Ieee || F::kKind == MiniFloatKind::NanAllOnes ? sign : 0u) |
            0x7fc00000u | (mantissa << (23 - m)));
  if (F::kKind == MiniFloatKind::Ieee && field == F::kMaxField)
    return __builtin_bit_cast(float, sign | 0x7f800000u);
  if constexpr (F::kKind == MiniFloatKind::ExponentOnly)
    return minifloat::powerOfTwo(static_cast<int>(field) - F::kBias);
  // Subnormal: mantissa * 2^(1 - bias - m); normal: (2^m + mantissa) * 2^(field - bias - m).
  const float value = field == 0
                          ? static_cast<float>(mantissa) * minifloat::powerOfTwo(1 - F::kBias - m)
                          : static_cast<float>((1u << m) | mantissa) *
                                minifloat::powerOfTwo(static_cast<int>(field) - F::kBias - m);
  return sign ? -value : value;
}

template <typename F> inline uint8_t miniFloatFromDouble(double value) {
  const uint64_t bits = __builtin_bit_cast(uint64_t, value);
  const bool negative = bits >> 63;
  const uint64_t fraction = bits & ((uint64_t(1) << 52) - 1);
  const int field = static_cast<int>((bits >> 52) & 0x7ff);
  if (field == 0x7ff) {
    if (fraction == 0) // inf
      return static_cast<uint8_t>(
          F::kKind == MiniFloatKind::Ieee
              ? (negative ? F::kSignBit : 0u) | (F::kMaxField << F::kMantissaBits)
          : F::kKind == MiniFloatKind::FiniteOnly ? (negative ? F::kSignBit : 0u)
                                                  : F::nanCode(negative));
    if constexpr (F::kKind == MiniFloatKind::Ieee) // quiet, the top payload bits kept
      return static_cast<uint8_t>(F::nanCode(negative) |
                                  static_cast<uint32_t>(fraction >> (52 - F::kMantissaBits)));
    return static_cast<uint8_t>(F::nanCode(negative));
  }
  if (field == 0 && fraction == 0)
    return minifloat::zeroCode<F>(negative);
  return field == 0
             ? minifloat::encodeFinite<F>(negative, fraction, -1074)
             : minifloat::encodeFinite<F>(negative, fraction | (uint64_t(1) << 52), field - 1075);
}

/// A float is exactly a double: one rounding either way.
template <typename F> inline uint8_t miniFloatFromFloat(float value) {
  return miniFloatFromDouble<F>(static_cast<double>(value));
}

/// An integer's exact value, rounded once (not through a double, which
/// would round a 64-bit integer twice).
template <typename F> inline uint8_t miniFloatFromInt64(int64_t value) {
  if (value == 0)
    return minifloat::zeroCode<F>(false);
  const uint64_t magnitude =
      value < 0 ? uint64_t(0) - static_cast<uint64_t>(value) : static_cast<uint64_t>(value);
  return minifloat::encodeFinite<F>(value < 0, magnitude, 0);
}
template <typename F> inline uint8_t miniFloatFromUInt64(uint64_t value) {
  return value == 0 ? minifloat::zeroCode<F>(false) : minifloat::encodeFinite<F>(false, value, 0);
}

// The formats, as MLIR names them (exponent bits, mantissa bits, bias).
using FormatF8E5M2 = MiniFloatFormat<5, 2, 15, MiniFloatKind::Ieee>;
using FormatF8E5M2FNUZ = MiniFloatFormat<5, 2, 16, MiniFloatKind::NanNegZero>;
using FormatF8E4M3 = MiniFloatFormat<4, 3, 7, MiniFloatKind::Ieee>;
using FormatF8E4M3FN = MiniFloatFormat<4, 3, 7, MiniFloatKind::NanAllOnes>;
using FormatF8E4M3FNUZ = MiniFloatFormat<4, 3, 8, MiniFloatKind::NanNegZero>;
using FormatF8E4M3B11FNUZ = MiniFloatFormat<4, 3, 11, MiniFloatKind::NanNegZero>;
using FormatF8E3M4 = MiniFloatFormat<3, 4, 3, MiniFloatKind::Ieee>;
using FormatF8E8M0FNU = MiniFloatFormat<8, 0, 127, MiniFloatKind::ExponentOnly>;
using FormatF6E2M3FN = MiniFloatFormat<2, 3, 1, MiniFloatKind::FiniteOnly>;
using FormatF6E3M2FN = MiniFloatFormat<3, 2, 3, MiniFloatKind::FiniteOnly>;
using FormatF4E2M1FN = MiniFloatFormat<2, 1, 1, MiniFloatKind::FiniteOnly>;

} // namespace shardgen::runtime

/// X(Name, mlir_name) for every type above: the one list that enumerations
/// of element types (the compiler's, the custom-call ABI's, the traits)
/// expand.
#define SHARDGEN_FOR_EACH_MINI_FLOAT(X)                                                            \
  X(F8E3M4, f8E3M4)                                                                                \
  X(F8E4M3, f8E4M3)                                                                                \
  X(F8E4M3FN, f8E4M3FN)                                                                            \
  X(F8E4M3FNUZ, f8E4M3FNUZ)                                                                        \
  X(F8E4M3B11FNUZ, f8E4M3B11FNUZ)                                                                  \
  X(F8E5M2, f8E5M2)                                                                                \
  X(F8E5M2FNUZ, f8E5M2FNUZ)                                                                        \
  X(F8E8M0FNU, f8E8M0FNU)                                                                          \
  X(F6E2M3FN, f6E2M3FN)                                                                            \
  X(F6E3M2FN, f6E3M2FN)                                                                            \
  X(F4E2M1FN, f4E2M1FN)
