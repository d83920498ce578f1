#pragma once
// Scalar semantics of StableHLO's element operations on a compute type
// (float, double, or a fixed-width integer). Integer arithmetic runs in the
// unsigned type of the same width so overflow wraps instead of being UB; the
// division corner cases follow XLA (x / 0 = -1, INT_MIN / -1 = INT_MIN,
// x % 0 = x, INT_MIN % -1 = 0).

#include <bit>
#include <cmath>
#include <limits>
#include <type_traits>

#include "runtime/include/shardgen/complex.h"

namespace shardgen::interp::math {

template <typename T> using Unsigned = std::make_unsigned_t<T>;

template <typename T> T add(T x, T y) {
  if constexpr (std::is_floating_point_v<T>)
    return x + y;
  else
    return static_cast<T>(static_cast<Unsigned<T>>(x) + static_cast<Unsigned<T>>(y));
}

template <typename T> T subtract(T x, T y) {
  if constexpr (std::is_floating_point_v<T>)
    return x - y;
  else
    return static_cast<T>(static_cast<Unsigned<T>>(x) - static_cast<Unsigned<T>>(y));
}

template <typename T> T multiply(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    return x * y;
  } else {
    // uint8_t promotes to int, where 255 * 255 still fits; wider types stay unsigned.
    using Wide = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, Unsigned<T>>;
    return static_cast<T>(static_cast<Wide>(static_cast<Unsigned<T>>(x)) *
                          static_cast<Wide>(static_cast<Unsigned<T>>(y)));
  }
}

template <typename T> T negate(T x) {
  if constexpr (std::is_floating_point_v<T>)
    return -x;
  else
    return subtract<T>(0, x);
}

template <typename T> T divide(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    return x / y;
  } else {
    if (y == 0)
      return static_cast<T>(~Unsigned<T>(0)); // -1, or all ones when unsigned
    if constexpr (std::is_signed_v<T>)
      if (x == std::numeric_limits<T>::min() && y == -1)
        return x;
    return static_cast<T>(x / y);
  }
}

template <typename T> T remainder(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::fmod(x, y);
  } else {
    if (y == 0)
      return x;
    if constexpr (std::is_signed_v<T>)
      if (x == std::numeric_limits<T>::min() && y == -1)
        return 0;
    return static_cast<T>(x % y);
  }
}

/// IEEE 754-2019 maximum/minimum (StableHLO): NaN propagates, and +0 is
/// above -0.
template <typename T> T maximum(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x) || std::isnan(y))
      return std::isnan(x) ? x : y;
    if (x == y)
      return std::signbit(x) ? y : x;
  }
  return x > y ? x : y;
}

template <typename T> T minimum(T x, T y) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x) || std::isnan(y))
      return std::isnan(x) ? x : y;
    if (x == y)
      return std::signbit(x) ? x : y;
  }
  return x < y ? x : y;
}

/// Integer power by squaring, wrapping; a negative exponent gives 0 unless
/// the base is 1 or -1 (as XLA).
template <typename T> T power(T base, T exponent) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::pow(base, exponent);
  } else {
    if constexpr (std::is_signed_v<T>) {
      if (exponent < 0) {
        if (base == 1)
          return 1;
        if (base == -1)
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

template <typename T> T abs(T x) {
  if constexpr (std::is_floating_point_v<T>)
    return std::fabs(x);
  else if constexpr (std::is_signed_v<T>)
    return x < 0 ? negate(x) : x; // abs(INT_MIN) wraps to INT_MIN
  else
    return x;
}

/// -1, 0 or 1; NaN stays NaN and a zero keeps its sign.
template <typename T> T sign(T x) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(x) || x == 0)
      return x;
    return x > 0 ? T(1) : T(-1);
  } else if constexpr (std::is_signed_v<T>) {
    return static_cast<T>((x > 0) - (x < 0));
  } else {
    return x > 0 ? T(1) : T(0);
  }
}

// ---- shifts and bit counts (integer types, not i1) ---------------------------
// XLA's and the StableHLO interpreter's (APInt) semantics: the shift amount
// is read as unsigned, so a negative one is as large as one >= the width;
// such shifts give 0, or the sign fill for the arithmetic right shift. The
// bits are the type's, signed or not (an unsigned type's top bit is its sign
// for shift_right_arithmetic, as LLVM's ashr).

template <typename T> constexpr Unsigned<T> kWidth = static_cast<Unsigned<T>>(sizeof(T) * 8);

template <typename T> T shiftLeft(T x, T amount) {
  const Unsigned<T> n = static_cast<Unsigned<T>>(amount);
  if (n >= kWidth<T>)
    return 0;
  // Narrow types promote to int: shift as unsigned int so no bit reaches the sign.
  using Wide = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, Unsigned<T>>;
  return static_cast<T>(
      static_cast<Unsigned<T>>(static_cast<Wide>(static_cast<Unsigned<T>>(x)) << n));
}

template <typename T> T shiftRightLogical(T x, T amount) {
  const Unsigned<T> n = static_cast<Unsigned<T>>(amount);
  if (n >= kWidth<T>)
    return 0;
  return static_cast<T>(static_cast<Unsigned<T>>(static_cast<Unsigned<T>>(x) >> n));
}

template <typename T> T shiftRightArithmetic(T x, T amount) {
  const Unsigned<T> bits = static_cast<Unsigned<T>>(x), n = static_cast<Unsigned<T>>(amount);
  const Unsigned<T> ones = static_cast<Unsigned<T>>(~Unsigned<T>(0));
  const bool negative = (bits >> (kWidth<T> - 1)) != 0;
  if (n >= kWidth<T>)
    return static_cast<T>(negative ? ones : Unsigned<T>(0));
  const Unsigned<T> shifted = static_cast<Unsigned<T>>(bits >> n);
  const Unsigned<T> fill = static_cast<Unsigned<T>>(~static_cast<Unsigned<T>>(ones >> n));
  return static_cast<T>(negative ? static_cast<Unsigned<T>>(shifted | fill) : shifted);
}

template <typename T> T popcount(T x) {
  return static_cast<T>(std::popcount(static_cast<Unsigned<T>>(x)));
}

template <typename T> T countLeadingZeros(T x) {
  return static_cast<T>(std::countl_zero(static_cast<Unsigned<T>>(x)));
}

// complex<f32> and complex<f64>: the runtime's one copy (complex.h).
template <typename T> using Complex = runtime::elements::Complex<T>;
namespace complexmath = runtime::elements::complexmath;
template <typename T> Complex<T> add(Complex<T> x, Complex<T> y) { return complexmath::add(x, y); }
template <typename T> Complex<T> subtract(Complex<T> x, Complex<T> y) {
  return complexmath::subtract(x, y);
}
template <typename T> Complex<T> multiply(Complex<T> x, Complex<T> y) {
  return complexmath::multiply(x, y);
}
template <typename T> Complex<T> maximum(Complex<T> x, Complex<T> y) {
  return complexmath::maximum(x, y);
}
template <typename T> Complex<T> minimum(Complex<T> x, Complex<T> y) {
  return complexmath::minimum(x, y);
}

} // namespace shardgen::interp::math
