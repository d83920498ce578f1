#pragma once
// IEEE binary16 and bfloat16 <-> float, rounding to nearest even: the one
// copy the compiler (constants, .npy data, the reference interpreter), the
// runtime (reductions) and generated code (the kernel library) all use, so
// the three can never round differently. Header-only and freestanding: it
// includes only <stdint.h> and uses compiler builtins, because generated
// code includes no standard library header.
//
// Where the target has F16C (generated code compiled for this host, -march=
// native), binary16 converts with its instructions, through _Float16 casts so
// that loops of them vectorize; the portable code below gives the same bits,
// NaNs included: a NaN is made quiet and keeps its payload's top bits, as
// vcvtph2ps and vcvtps2ph do (test/ir/Float16Test.cpp checks both against
// the instructions).

#include <stdint.h>

namespace shardgen::runtime {

inline __attribute__((always_inline)) float halfToFloat(uint16_t bits) {
#if defined(__F16C__)
  return static_cast<float>(__builtin_bit_cast(_Float16, bits));
#else
  uint32_t sign = static_cast<uint32_t>(bits & 0x8000u) << 16;
  uint32_t exponent = (bits >> 10) & 0x1fu;
  uint32_t mantissa = bits & 0x3ffu;
  if (exponent == 0x1f) // inf, or nan made quiet
    return __builtin_bit_cast(float, sign | 0x7f800000u | (mantissa << 13) |
                                         (mantissa != 0 ? 0x400000u : 0u));
  if (exponent == 0) {
    // Zero or subnormal: mantissa * 2^-24, exact in float.
    float magnitude = static_cast<float>(mantissa) * (1.0f / 16777216.0f);
    return sign ? -magnitude : magnitude;
  }
  return __builtin_bit_cast(float, sign | ((exponent + 112) << 23) | (mantissa << 13));
#endif
}

inline __attribute__((always_inline)) uint16_t floatToHalf(float value) {
#if defined(__F16C__)
  return __builtin_bit_cast(uint16_t, static_cast<_Float16>(value));
#else
  uint32_t bits = __builtin_bit_cast(uint32_t, value);
  auto sign = static_cast<uint16_t>((bits >> 16) & 0x8000u);
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u) // inf stays inf; nan: quiet, top payload bits kept
    return sign | (magnitude > 0x7f800000u ? 0x7e00u | ((magnitude >> 13) & 0x3ffu) : 0x7c00u);
  if (magnitude >= 0x477ff000u) // rounds to >= 65520: overflow to inf
    return sign | 0x7c00u;
  if (magnitude < 0x38800000u) {
    // Subnormal (or zero) result: in units of 2^-24 it is below 2^10;
    // round it to an integer, ties to even (the default rounding mode).
    float scaled = __builtin_bit_cast(float, magnitude) * 16777216.0f;
    return sign | static_cast<uint16_t>(__builtin_nearbyintf(scaled));
  }
  // Normal: rebias the exponent and drop 13 mantissa bits, ties to even.
  uint32_t rounded = magnitude + 0xfffu + ((magnitude >> 13) & 1u);
  return sign | static_cast<uint16_t>((rounded - 0x38000000u) >> 13);
#endif
}

inline __attribute__((always_inline)) float bfloat16ToFloat(uint16_t bits) {
  return __builtin_bit_cast(float, static_cast<uint32_t>(bits) << 16);
}

inline __attribute__((always_inline)) uint16_t floatToBfloat16(float value) {
  uint32_t bits = __builtin_bit_cast(uint32_t, value);
  if ((bits & 0x7fffffffu) > 0x7f800000u) // nan: keep the sign, make it quiet
    return static_cast<uint16_t>((bits >> 16) | 0x0040u);
  bits += 0x7fffu + ((bits >> 16) & 1u);
  return static_cast<uint16_t>(bits >> 16);
}

} // namespace shardgen::runtime
