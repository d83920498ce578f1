#pragma once
// How each element type is stored in a buffer and in which type it is
// computed: f16/bf16 are stored as their 16-bit patterns and computed in
// float (rounded once, to nearest even, on store); i1 is one byte holding 0
// or 1. One copy for the reference interpreter, the runtime's reductions and
// generated code. Header-only and freestanding (see float16.h).

#include <stdint.h>

#include "complex.h" // beside this file: found from any include path
#include "float16.h"
#include "minifloat.h"

namespace shardgen::runtime::elements {

#define SHARDGEN_ELEMENT_INLINE inline __attribute__((always_inline))

template <typename S, typename C = S> struct Plain {
  using Storage = S;
  using Compute = C;
  static SHARDGEN_ELEMENT_INLINE Compute load(Storage x) { return x; }
  static SHARDGEN_ELEMENT_INLINE Storage store(Compute x) { return x; }
};
struct F32 : Plain<float> {};
struct F64 : Plain<double> {};
struct F16 {
  using Storage = uint16_t;
  using Compute = float;
  static SHARDGEN_ELEMENT_INLINE Compute load(Storage x) { return halfToFloat(x); }
  static SHARDGEN_ELEMENT_INLINE Storage store(Compute x) { return floatToHalf(x); }
};
struct BF16 {
  using Storage = uint16_t;
  using Compute = float;
  static SHARDGEN_ELEMENT_INLINE Compute load(Storage x) { return bfloat16ToFloat(x); }
  static SHARDGEN_ELEMENT_INLINE Storage store(Compute x) { return floatToBfloat16(x); }
};
struct I1 {
  using Storage = uint8_t;
  using Compute = uint8_t;
  static SHARDGEN_ELEMENT_INLINE Compute load(Storage x) { return x != 0; }
  static SHARDGEN_ELEMENT_INLINE Storage store(Compute x) { return x != 0; }
};
struct I8 : Plain<int8_t> {};
struct I32 : Plain<int32_t> {};
struct I64 : Plain<int64_t> {};
struct UI8 : Plain<uint8_t> {};
struct UI32 : Plain<uint32_t> {};
struct I16 : Plain<int16_t> {};
struct UI16 : Plain<uint16_t> {};
struct UI64 : Plain<uint64_t> {};
struct C64 : Plain<Complex<float>> {};
struct C128 : Plain<Complex<double>> {};

/// i2, i4, ui2, ui4: one byte per element, computed in that byte (so
/// arithmetic wraps modulo 2^8) and wrapped to the type's bits on store
/// (modulo 2^Bits, sign-extended): the same value as wrapping every step.
/// kMin/kMax: the range a float saturates to on convert.
template <int Bits> struct SignedBits {
  using Storage = int8_t;
  using Compute = int8_t;
  static constexpr int kBits = Bits;
  static constexpr int8_t kMin = -(1 << (Bits - 1)), kMax = (1 << (Bits - 1)) - 1;
  static SHARDGEN_ELEMENT_INLINE Compute load(Storage x) { return x; }
  static SHARDGEN_ELEMENT_INLINE Storage store(Compute x) {
    constexpr int sign = 1 << (Bits - 1);
    return static_cast<int8_t>(((static_cast<uint8_t>(x) & (2 * sign - 1)) ^ sign) - sign);
  }
};
template <int Bits> struct UnsignedBits {
  using Storage = uint8_t;
  using Compute = uint8_t;
  static constexpr int kBits = Bits;
  static constexpr uint8_t kMin = 0, kMax = (1 << Bits) - 1;
  static SHARDGEN_ELEMENT_INLINE Compute load(Storage x) { return x; }
  static SHARDGEN_ELEMENT_INLINE Storage store(Compute x) {
    return static_cast<uint8_t>(x & ((1 << Bits) - 1));
  }
};
struct I2 : SignedBits<2> {};
struct I4 : SignedBits<4> {};
struct UI2 : UnsignedBits<2> {};
struct UI4 : UnsignedBits<4> {};

/// The 8-, 6- and 4-bit floats (minifloat.h): one byte per element, computed
/// in float and rounded to the format on store, as f16/bf16 are. A value of
/// f64 or an integer converts with `exact` (one rounding, not two through
/// float).
template <typename F> struct MiniFloat {
  using Storage = uint8_t;
  using Compute = float;
  using Format = F;
  static SHARDGEN_ELEMENT_INLINE Compute load(Storage x) { return miniFloatToFloat<F>(x); }
  static SHARDGEN_ELEMENT_INLINE Storage store(Compute x) { return miniFloatFromFloat<F>(x); }
  static SHARDGEN_ELEMENT_INLINE Storage exact(double x) { return miniFloatFromDouble<F>(x); }
  static SHARDGEN_ELEMENT_INLINE Storage exact(int64_t x) { return miniFloatFromInt64<F>(x); }
  static SHARDGEN_ELEMENT_INLINE Storage exact(uint64_t x) { return miniFloatFromUInt64<F>(x); }
};
#define SHARDGEN_MINI_FLOAT_TRAITS(Name, mlirName)                                                 \
  struct Name : MiniFloat<Format##Name> {};
SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_TRAITS)
#undef SHARDGEN_MINI_FLOAT_TRAITS
/// Whether E is one of the types above.
template <typename E> inline constexpr bool isMiniFloat = requires { typename E::Format; };

#undef SHARDGEN_ELEMENT_INLINE

} // namespace shardgen::runtime::elements
