// shardgen kernel library: element types and scalar semantics.
//
// Generated programs include no standard header (JIT compile time is
// dominated by them), so this file spells out what it needs with compiler
// builtins. Semantics are StableHLO's, as the reference interpreter computes
// them: f16/bf16 compute in f32 and round to nearest even on store; integer
// arithmetic wraps; x / 0 = -1, x % 0 = x; float to integer truncates and
// saturates (NaN gives 0); f32 exp, tanh and log are within a few ulp of libm.
#pragma once

#include <stddef.h>
#include <stdint.h>

#include "shardgen/element_types.h"
#include "shardgen/float16.h"
#include "shardgen/total_order.h"

#define SHARDGEN_INLINE inline __attribute__((always_inline))

namespace shardgen::kernels {

template <typename T> struct IsFloat {
  static constexpr bool value = false;
};
template <> struct IsFloat<float> {
  static constexpr bool value = true;
};
template <> struct IsFloat<double> {
  static constexpr bool value = true;
};
template <typename T> constexpr bool isFloat = IsFloat<T>::value;

template <typename T> struct UnsignedOf {
  using type = T;
};
template <> struct UnsignedOf<int8_t> {
  using type = uint8_t;
};
template <> struct UnsignedOf<int16_t> {
  using type = uint16_t;
};
template <> struct UnsignedOf<int32_t> {
  using type = uint32_t;
};
template <> struct UnsignedOf<int64_t> {
  using type = uint64_t;
};
template <typename T> using Unsigned = typename UnsignedOf<T>::type;

template <typename T> constexpr bool isSigned = T(-1) < T(0);

template <typename T> struct Limits;
template <> struct Limits<int8_t> {
  static constexpr int8_t min = -128, max = 127;
};
template <> struct Limits<int16_t> {
  static constexpr int16_t min = -32768, max = 32767;
};
template <> struct Limits<int32_t> {
  static constexpr int32_t min = -2147483647 - 1, max = 2147483647;
};
template <> struct Limits<int64_t> {
  static constexpr int64_t min = -9223372036854775807LL - 1, max = 9223372036854775807LL;
};
template <> struct Limits<uint8_t> {
  static constexpr uint8_t min = 0, max = 255;
};
template <> struct Limits<uint16_t> {
  static constexpr uint16_t min = 0, max = 65535;
};
template <> struct Limits<uint32_t> {
  static constexpr uint32_t min = 0, max = 4294967295u;
};
template <> struct Limits<uint64_t> {
  static constexpr uint64_t min = 0, max = 18446744073709551615ull;
};

/// A buffer pointer seen as elements of S (buffers are byte arrays).
template <typename S> SHARDGEN_INLINE S *as(void *p) { return reinterpret_cast<S *>(p); }
template <typename S> SHARDGEN_INLINE const S *as(const void *p) {
  return reinterpret_cast<const S *>(p);
}

// ---- f16 / bf16 <-> f32, round to nearest even ----------------------------
// One copy for the compiler, the runtime and generated code.

using runtime::bfloat16ToFloat;
using runtime::floatToBfloat16;
using runtime::floatToHalf;
using runtime::halfToFloat;

// ---- element types: storage, compute type, load/store ---------------------
// One copy for the compiler, the runtime and generated code.

using runtime::elements::BF16;
using runtime::elements::F16;
using runtime::elements::F32;
using runtime::elements::F64;
using runtime::elements::I1;
using runtime::elements::I16;
using runtime::elements::I32;
using runtime::elements::I64;
using runtime::elements::I8;
using runtime::elements::TotalOrder;
using runtime::elements::UI16;
using runtime::elements::UI32;
using runtime::elements::UI64;
using runtime::elements::UI8;

// inline: two generated programs linked into one application both define it.
template <typename E> inline constexpr bool isBool = false;
template <> inline constexpr bool isBool<I1> = true;

// complex<f32> and complex<f64>: (real, imaginary) pairs, their arithmetic
// and functions the runtime's complex.h (one copy with the interpreter).
using runtime::elements::C128;
using runtime::elements::C64;
using runtime::elements::I2;
using runtime::elements::I4;
using runtime::elements::UI2;
using runtime::elements::UI4;
/// i2 i4 ui2 ui4: a byte wrapped to fewer bits on store (element_types.h).
template <typename E> inline constexpr bool isSubByte = requires { E::kBits; };
/// The 8-, 6- and 4-bit floats (element_types.h, minifloat.h).
#define SHARDGEN_MINI_FLOAT_USING(Name, mlirName) using runtime::elements::Name;
SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_USING)
#undef SHARDGEN_MINI_FLOAT_USING
using runtime::elements::Complex;
using runtime::elements::isMiniFloat;
namespace complexmath = runtime::elements::complexmath;
template <typename S> inline constexpr bool isComplexStorage = false;
template <typename T> inline constexpr bool isComplexStorage<Complex<T>> = true;
template <typename E> inline constexpr bool isComplex = false;
template <> inline constexpr bool isComplex<C64> = true;
template <> inline constexpr bool isComplex<C128> = true;
/// The element type of E's parts (E itself for a real type).
template <typename E> struct PartOf {
  using type = E;
};
template <> struct PartOf<C64> {
  using type = F32;
};
template <> struct PartOf<C128> {
  using type = F64;
};
/// A 16-byte element (complex<f64>) as data movement copies it.
struct Word128 {
  uint64_t low, high;
};

// ---- scalar math (float builtins lower to libm calls, no <cmath>) ----------

namespace math {

SHARDGEN_INLINE double exp(double x) { return __builtin_exp(x); }
SHARDGEN_INLINE double log(double x) { return __builtin_log(x); }
SHARDGEN_INLINE double tanh(double x) { return __builtin_tanh(x); }
SHARDGEN_INLINE float sqrt(float x) { return __builtin_sqrtf(x); }
SHARDGEN_INLINE double sqrt(double x) { return __builtin_sqrt(x); }
SHARDGEN_INLINE float fabs(float x) { return __builtin_fabsf(x); }
SHARDGEN_INLINE double fabs(double x) { return __builtin_fabs(x); }

// NaN tests on the bits: `x != x` on an f16 widened to f32 is narrowed back
// to an f16 comparison by LLVM, which a CPU without AVX512_FP16 does lane by
// lane (an f16 tanh loop ran 7x slower than the bf16 one).
SHARDGEN_INLINE bool isnan(float x) { return (__builtin_bit_cast(uint32_t, x) << 1) > 0xff000000u; }
SHARDGEN_INLINE bool isnan(double x) {
  return (__builtin_bit_cast(uint64_t, x) << 1) > 0xffe0000000000000ull;
}
template <typename T> SHARDGEN_INLINE bool isnan(T) { return false; }

// f32 exp, tanh and log are written out (not libm calls) so that loops over
// them vectorize: they dominate softmax, logistic, tanh and log layers, and
// a fused loop over them should run at memory speed. Their polynomials are
// evaluated in Estrin's scheme (short dependency chains: the loop is bound
// by latency otherwise). exp is within 1.1 ulp of the true result for
// normal results, tanh within 2.4 ulp and log within 0.8 ulp (test/codegen/
// NumericsTest.cpp scans them); the reference interpreter allows 8.

/// a * b + c with one rounding where the target has FMA instructions, a
/// product and a sum otherwise. Generated code is compiled with contraction
/// off (program.cpp.in): every fused multiply-add is asked for here, so GCC
/// and clang form the same ones.
SHARDGEN_INLINE float multiplyAdd(float a, float b, float c) {
#if defined(__FMA__) || defined(__ARM_FEATURE_FMA)
  return __builtin_fmaf(a, b, c);
#else
  return a * b + c;
#endif
}

/// x * 2^n for n in [-252, 254]: 2^n as two normal factors, so neither
/// overflows nor flushes to zero on its own.
SHARDGEN_INLINE float scaleByPowerOfTwo(float x, int32_t n) {
  const int32_t half = n >> 1;
  const float first = __builtin_bit_cast(float, static_cast<uint32_t>(half + 127) << 23);
  const float second = __builtin_bit_cast(float, static_cast<uint32_t>(n - half + 127) << 23);
  return x * first * second;
}

/// x = n ln 2 + r with n = round(x / ln 2), |r| <= ln(2) / 2 (|x| < 2^22).
struct ExpReduction {
  float r;
  int32_t n;
};
SHARDGEN_INLINE ExpReduction reduceExp(float x) {
  // x / ln 2 plus 1.5 * 2^23 rounds to an integer, which the low bits hold.
  const float shifted = multiplyAdd(x, 1.44269504f, 12582912.0f);
  const float n = shifted - 12582912.0f;
  float r = multiplyAdd(-n, 0.693145752f, x); // ln 2 in two parts: n * high part is exact
  r = multiplyAdd(-n, 1.42860677e-6f, r);
  return {r, static_cast<int32_t>(__builtin_bit_cast(uint32_t, shifted) - 0x4b400000u)};
}

/// expm1(r) for |r| <= ln(2) / 2: the Taylor series to r^7 (truncation
/// error below 2^-27 there), r + r^2 q(r) in Estrin's scheme.
SHARDGEN_INLINE float expm1OfReduced(float r) {
  const float r2 = r * r, r4 = r2 * r2;
  const float p23 = multiplyAdd(r, 1.0f / 6.0f, 0.5f);
  const float p45 = multiplyAdd(r, 1.0f / 120.0f, 1.0f / 24.0f);
  const float p67 = multiplyAdd(r, 1.0f / 5040.0f, 1.0f / 720.0f);
  return multiplyAdd(r2, multiplyAdd(r4, p67, multiplyAdd(r2, p45, p23)), r);
}

SHARDGEN_INLINE float exp(float x) {
  // Beyond [-104, 89] the result is 0 or inf anyway; NaN compares false and
  // becomes -104 here, so no NaN reaches the integer conversion.
  const float low = x > -104.0f ? x : -104.0f;
  const float bounded = low < 89.0f ? low : 89.0f;
  const ExpReduction reduced = reduceExp(bounded);
  // 1 + expm1(r): the one rounding to the scale of 1 comes last.
  const float result = scaleByPowerOfTwo(1.0f + expm1OfReduced(reduced.r), reduced.n);
  return isnan(x) ? x : result;
}

SHARDGEN_INLINE float tanh(float x) {
  // tanh|x| = e / (e + 2) with e = expm1(2|x|) >= 0: no cancellation
  // anywhere, so one formula serves small and large |x| alike (e is
  // accurate relative to itself near 0). expm1(y) = 2^n expm1(r) + (2^n - 1)
  // with y = n ln 2 + r; 2^n is normal since y <= 20 (tanh(10) rounds to 1;
  // NaN compares false and becomes 10 too, and is returned below).
  const float a = fabs(x);
  const ExpReduction reduced = reduceExp(2.0f * (a < 10.0f ? a : 10.0f));
  const float scale = __builtin_bit_cast(float, static_cast<uint32_t>(reduced.n + 127) << 23);
  const float e = multiplyAdd(expm1OfReduced(reduced.r), scale, scale - 1.0f);
  // copysign: tanh is odd, and -0 must stay -0.
  const float result = __builtin_copysignf(e / (e + 2.0f), x);
  return isnan(x) ? x : result;
}

/// tanh for a result rounded to a type narrower than f32 (f16, bf16, the
/// 8-bit floats): x P(x^2) / Q(x^2), a rational fit of degree 4 over 4 on
/// [-9, 9], constant beyond (1 - tanh 9 < 2^-24). Within 5.5 ulp of the
/// true f32 result with FMA, 6.8 without (every float scanned, by hand;
/// test/codegen/NarrowTanhTest.cpp scans every 97th and all of [5, 9.5]; the
/// reference interpreter allows 8), so the rounding to the narrow type
/// hides the difference but for results within 5.5 f32 ulp of a rounding
/// boundary. Half tanh's operations: the chains of narrow types, which round
/// between every op, are bound by their arithmetic.
SHARDGEN_INLINE float tanhRational(float x) {
  // NaN compares false both times and passes through; so do -0 and +0. The
  // bounds are not f16 values, so clang does not narrow the comparisons of
  // a widened f16 to f16 ones (lane by lane without AVX512_FP16).
  const float bounded = x > 9.00000095f ? 9.00000095f : (x < -9.00000095f ? -9.00000095f : x);
  const float t = bounded * bounded;
  const float p =
      multiplyAdd(multiplyAdd(multiplyAdd(multiplyAdd(t, 1.335338720e-08f, 2.060820448e-05f), t,
                                          3.495537237e-03f),
                              t, 1.338098376e-01f),
                  t, 9.999999795e-01f);
  const float q =
      multiplyAdd(multiplyAdd(multiplyAdd(multiplyAdd(t, 7.776047948e-07f, 3.285549749e-04f), t,
                                          2.587679154e-02f),
                              t, 4.671429939e-01f),
                  t, 1.0f);
  return bounded * p / q;
}

SHARDGEN_INLINE float log(float x) {
  // fdlibm's logf: x = 2^k m with m in [sqrt(1/2), sqrt(2)), f = m - 1,
  // s = f / (2 + f), log(m) = 2s + s R(s^2) = f - s (f - R), R = s^2 P(s^2)
  // fdlibm's minimax polynomial; subnormal x scaled by 2^23 first.
  const bool subnormal = __builtin_bit_cast(uint32_t, x) < 0x00800000u; // and +0
  const float scaled = subnormal ? x * 8388608.0f : x;
  const uint32_t offset = __builtin_bit_cast(uint32_t, scaled) - 0x3f3504f3u; // sqrt(1/2)
  const int32_t k = (static_cast<int32_t>(offset) >> 23) - (subnormal ? 23 : 0);
  const float m = __builtin_bit_cast(float, (offset & 0x007fffffu) + 0x3f3504f3u);
  const float f = m - 1.0f;
  const float s = f / (2.0f + f);
  const float z = s * s, w = z * z;
  const float polynomial = multiplyAdd(w, multiplyAdd(z, 0.24279078841f, 0.28498786688f),
                                       multiplyAdd(z, 0.40000972152f, 0.66666662693f));
  const float logm = multiplyAdd(-s, multiplyAdd(-z, polynomial, f), f);
  const float dk = static_cast<float>(k);
  // k ln 2 in two parts: k times the high part is exact.
  const float result = multiplyAdd(dk, 6.9313812256e-01f, multiplyAdd(dk, 9.0580006145e-06f, logm));
  // log(+inf) = inf, log(+-0) = -inf, log(x < 0) = NaN, NaN stays.
  const float positive = x == __builtin_inff() ? x : (x == 0.0f ? -__builtin_inff() : result);
  return x < 0.0f ? __builtin_nanf("") : (isnan(x) ? x : positive);
}

SHARDGEN_INLINE float fmod(float x, float y) { return __builtin_fmodf(x, y); }
SHARDGEN_INLINE double fmod(double x, double y) { return __builtin_fmod(x, y); }
SHARDGEN_INLINE float pow(float x, float y) { return __builtin_powf(x, y); }
SHARDGEN_INLINE double pow(double x, double y) { return __builtin_pow(x, y); }

template <typename T> SHARDGEN_INLINE T add(T x, T y) {
  if constexpr (isFloat<T>)
    return x + y;
  else
    return static_cast<T>(static_cast<Unsigned<T>>(x) + static_cast<Unsigned<T>>(y));
}
template <typename T> SHARDGEN_INLINE T subtract(T x, T y) {
  if constexpr (isFloat<T>)
    return x - y;
  else
    return static_cast<T>(static_cast<Unsigned<T>>(x) - static_cast<Unsigned<T>>(y));
}
template <typename T> SHARDGEN_INLINE T multiply(T x, T y) {
  if constexpr (isFloat<T>) {
    return x * y;
  } else {
    // Narrow types promote to int: multiply as unsigned int so nothing overflows.
    using Wide = __typeof__(Unsigned<T>(0) * 1u);
    return static_cast<T>(static_cast<Wide>(static_cast<Unsigned<T>>(x)) *
                          static_cast<Wide>(static_cast<Unsigned<T>>(y)));
  }
}
template <typename T> SHARDGEN_INLINE T negate(T x) {
  if constexpr (isFloat<T>)
    return -x;
  else
    return subtract<T>(0, x);
}
template <typename T> SHARDGEN_INLINE T divide(T x, T y) {
  if constexpr (isFloat<T>) {
    return x / y;
  } else {
    if (y == 0)
      return static_cast<T>(~Unsigned<T>(0));
    if constexpr (isSigned<T>)
      if (x == Limits<T>::min && y == T(-1))
        return x;
    return static_cast<T>(x / y);
  }
}
template <typename T> SHARDGEN_INLINE T remainder(T x, T y) {
  if constexpr (isFloat<T>) {
    return fmod(x, y);
  } else {
    if (y == 0)
      return x;
    if constexpr (isSigned<T>)
      if (x == Limits<T>::min && y == T(-1))
        return 0;
    return static_cast<T>(x % y);
  }
}
// IEEE 754-2019 maximum/minimum (StableHLO): NaN propagates, +0 > -0.
template <typename T> SHARDGEN_INLINE T maximum(T x, T y) {
  if constexpr (isFloat<T>) {
    if (isnan(x) || isnan(y))
      return isnan(x) ? x : y;
    if (x == y)
      return __builtin_signbit(x) ? y : x;
  }
  return x > y ? x : y;
}
template <typename T> SHARDGEN_INLINE T minimum(T x, T y) {
  if constexpr (isFloat<T>) {
    if (isnan(x) || isnan(y))
      return isnan(x) ? x : y;
    if (x == y)
      return __builtin_signbit(x) ? x : y;
  }
  return x < y ? x : y;
}
template <typename T> inline T power(T base, T exponent) {
  if constexpr (isFloat<T>) {
    return pow(base, exponent);
  } else {
    if constexpr (isSigned<T>) {
      if (exponent < 0) {
        if (base == 1)
          return 1;
        if (base == T(-1))
          return (exponent & 1) ? T(-1) : T(1);
        return 0;
      }
    }
    T result = 1;
    Unsigned<T> e = static_cast<Unsigned<T>>(exponent);
    while (e != 0) {
      if (e & 1)
        result = multiply(result, base);
      base = multiply(base, base);
      e >>= 1;
    }
    return result;
  }
}
template <typename T> SHARDGEN_INLINE T abs(T x) {
  if constexpr (isFloat<T>)
    return fabs(x);
  else if constexpr (isSigned<T>)
    return x < 0 ? negate(x) : x;
  else
    return x;
}
template <typename T> SHARDGEN_INLINE T sign(T x) {
  if constexpr (isFloat<T>) {
    if (isnan(x) || x == 0)
      return x;
    return x > 0 ? T(1) : T(-1);
  } else if constexpr (isSigned<T>) {
    return static_cast<T>((x > 0) - (x < 0));
  } else {
    return x > 0 ? T(1) : T(0);
  }
}

// Shifts and bit counts (integer types, not i1), XLA's semantics: the amount
// is read as unsigned; one >= the width gives 0 (the sign fill for the
// arithmetic shift, whose sign is the top bit, signed type or not).
template <typename T> inline constexpr Unsigned<T> kWidth = static_cast<Unsigned<T>>(sizeof(T) * 8);
template <typename T> SHARDGEN_INLINE T shiftLeft(T x, T amount) {
  const Unsigned<T> n = static_cast<Unsigned<T>>(amount);
  // Narrow types promote to int: shift as unsigned int so no bit reaches the sign.
  using Wide = __typeof__(Unsigned<T>(0) + 0u);
  const Unsigned<T> shifted = static_cast<Unsigned<T>>(
      static_cast<Wide>(static_cast<Unsigned<T>>(x)) << (n & (kWidth<T> - 1)));
  return static_cast<T>(n >= kWidth<T> ? Unsigned<T>(0) : shifted);
}
template <typename T> SHARDGEN_INLINE T shiftRightLogical(T x, T amount) {
  const Unsigned<T> n = static_cast<Unsigned<T>>(amount);
  const Unsigned<T> shifted =
      static_cast<Unsigned<T>>(static_cast<Unsigned<T>>(x) >> (n & (kWidth<T> - 1)));
  return static_cast<T>(n >= kWidth<T> ? Unsigned<T>(0) : shifted);
}
template <typename T> SHARDGEN_INLINE T shiftRightArithmetic(T x, T amount) {
  const Unsigned<T> bits = static_cast<Unsigned<T>>(x), n = static_cast<Unsigned<T>>(amount);
  const Unsigned<T> ones = static_cast<Unsigned<T>>(~Unsigned<T>(0));
  // The sign fill: all ones or zero; a shift by `n` (clamped to width - 1,
  // which gives the fill alone) keeps the top `n` bits of it.
  const Unsigned<T> sign =
      static_cast<Unsigned<T>>(0) - static_cast<Unsigned<T>>(bits >> (kWidth<T> - 1));
  const Unsigned<T> m = n >= kWidth<T> ? static_cast<Unsigned<T>>(kWidth<T> - 1) : n;
  const Unsigned<T> fill = static_cast<Unsigned<T>>(
      sign & static_cast<Unsigned<T>>(~static_cast<Unsigned<T>>(ones >> m)));
  return static_cast<T>(static_cast<Unsigned<T>>(static_cast<Unsigned<T>>(bits >> m) | fill));
}
template <typename T> SHARDGEN_INLINE T popcount(T x) {
  return static_cast<T>(
      __builtin_popcountll(static_cast<unsigned long long>(static_cast<Unsigned<T>>(x))));
}
template <typename T> SHARDGEN_INLINE T countLeadingZeros(T x) {
  const unsigned long long bits = static_cast<Unsigned<T>>(x);
  // __builtin_clzll(0) is undefined: 0 has all its width's bits leading.
  return static_cast<T>(bits == 0 ? static_cast<int>(kWidth<T>)
                                  : __builtin_clzll(bits) - (64 - static_cast<int>(kWidth<T>)));
}
/// IEEE finiteness on the bits (NaN and infinities have the top exponent).
SHARDGEN_INLINE bool isfinite(float x) {
  return (__builtin_bit_cast(uint32_t, x) << 1) < 0xff000000u;
}
SHARDGEN_INLINE bool isfinite(double x) {
  return (__builtin_bit_cast(uint64_t, x) << 1) < 0xffe0000000000000ull;
}

// Complex sums, products and lexicographic orderings (reductions, dot,
// clamp): complex.h's.
template <typename T> SHARDGEN_INLINE Complex<T> add(Complex<T> x, Complex<T> y) {
  return complexmath::add(x, y);
}
template <typename T> SHARDGEN_INLINE Complex<T> subtract(Complex<T> x, Complex<T> y) {
  return complexmath::subtract(x, y);
}
template <typename T> SHARDGEN_INLINE Complex<T> multiply(Complex<T> x, Complex<T> y) {
  return complexmath::multiply(x, y);
}
template <typename T> SHARDGEN_INLINE Complex<T> maximum(Complex<T> x, Complex<T> y) {
  return complexmath::maximum(x, y);
}
template <typename T> SHARDGEN_INLINE Complex<T> minimum(Complex<T> x, Complex<T> y) {
  return complexmath::minimum(x, y);
}

} // namespace math
} // namespace shardgen::kernels
