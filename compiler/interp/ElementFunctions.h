#pragma once
// The scalar function of each per-element op on an element type's compute
// type: what the tensor kernels (Elementwise.cpp, Convert.cpp) map over
// their operands and what the scalar-region evaluator (ScalarRegion.h) runs
// one element group at a time. One definition, so both agree to the bit.

#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "compiler/interp/ElementMath.h"
#include "compiler/interp/ElementTraits.h"
#include "compiler/ir/Attributes.h"
#include "compiler/ir/OpKind.h"

namespace shardgen::interp {

inline std::string notDefined(OpKind kind, ElementType type) {
  return std::string(opName(kind)) + " is not defined on " + std::string(elementTypeName(type)) +
         " tensors";
}

/// Calls `fn(f)`, f the scalar function (a lambda on `Traits::Compute`) of
/// the elementwise unary op `kind`; an op `type` does not define is an error.
template <typename Traits, typename Fn>
decltype(auto) withUnaryFunction(OpKind kind, ElementType type, Fn &&fn) {
  using C = typename Traits::Compute;
  switch (kind) {
  case OpKind::Negate:
    return fn([](C v) { return math::negate(v); });
  case OpKind::Abs:
    return fn([](C v) { return math::abs(v); });
  case OpKind::Sign:
    return fn([](C v) { return math::sign(v); });
  case OpKind::Not:
    if constexpr (isBoolTraits<Traits>)
      return fn([](C v) { return C(!v); });
    else if constexpr (!isFloatTraits<Traits>)
      return fn([](C v) { return C(~v); });
    break;
  default:
    break;
  }
  if constexpr (isFloatTraits<Traits>) {
    switch (kind) {
    case OpKind::Exponential:
      return fn([](C v) { return std::exp(v); });
    case OpKind::Log:
      return fn([](C v) { return std::log(v); });
    case OpKind::ExponentialMinusOne:
      return fn([](C v) { return std::expm1(v); });
    case OpKind::LogPlusOne:
      return fn([](C v) { return std::log1p(v); });
    case OpKind::Cbrt:
      return fn([](C v) { return std::cbrt(v); });
    case OpKind::Tan:
      return fn([](C v) { return std::tan(v); });
    case OpKind::RoundNearestEven: // the default rounding mode: ties to even
      return fn([](C v) { return std::nearbyint(v); });
    case OpKind::RoundNearestAfz:
      return fn([](C v) { return std::round(v); });
    case OpKind::Tanh:
      return fn([](C v) { return std::tanh(v); });
    case OpKind::Sqrt:
      return fn([](C v) { return std::sqrt(v); });
    case OpKind::Rsqrt:
      return fn([](C v) { return C(1) / std::sqrt(v); });
    case OpKind::Logistic:
      return fn([](C v) { return C(1) / (C(1) + std::exp(-v)); });
    case OpKind::Floor:
      return fn([](C v) { return std::floor(v); });
    case OpKind::Ceil:
      return fn([](C v) { return std::ceil(v); });
    case OpKind::Sine:
      return fn([](C v) { return std::sin(v); });
    case OpKind::Cosine:
      return fn([](C v) { return std::cos(v); });
    default:
      break;
    }
  }
  unsupported(notDefined(kind, type));
}

/// Calls `fn(f)`, f the scalar function of the elementwise binary op `kind`.
template <typename Traits, typename Fn>
decltype(auto) withBinaryFunction(OpKind kind, ElementType type, Fn &&fn) {
  using C = typename Traits::Compute;
  switch (kind) {
  case OpKind::Add:
    return fn([](C a, C b) { return math::add(a, b); });
  case OpKind::Subtract:
    return fn([](C a, C b) { return math::subtract(a, b); });
  case OpKind::Multiply:
    return fn([](C a, C b) { return math::multiply(a, b); });
  case OpKind::Divide:
    return fn([](C a, C b) { return math::divide(a, b); });
  case OpKind::Remainder:
    return fn([](C a, C b) { return math::remainder(a, b); });
  case OpKind::Maximum:
    return fn([](C a, C b) { return math::maximum(a, b); });
  case OpKind::Minimum:
    return fn([](C a, C b) { return math::minimum(a, b); });
  case OpKind::Power:
    return fn([](C a, C b) { return math::power(a, b); });
  default:
    break;
  }
  if constexpr (!isFloatTraits<Traits>) {
    switch (kind) {
    case OpKind::And:
      return fn([](C a, C b) { return C(a & b); });
    case OpKind::Or:
      return fn([](C a, C b) { return C(a | b); });
    case OpKind::Xor:
      return fn([](C a, C b) { return C(a ^ b); });
    default:
      break;
    }
  }
  unsupported(notDefined(kind, type));
}

template <typename C> bool compare(ComparisonDirection direction, C a, C b) {
  // Plain C++ comparisons are IEEE's: every ordered comparison with NaN is
  // false and NE is true.
  switch (direction) {
  case ComparisonDirection::EQ:
    return a == b;
  case ComparisonDirection::NE:
    return a != b;
  case ComparisonDirection::LT:
    return a < b;
  case ComparisonDirection::LE:
    return a <= b;
  case ComparisonDirection::GT:
    return a > b;
  case ComparisonDirection::GE:
    return a >= b;
  }
  return false;
}

template <typename To, typename From> To convertFloatToInteger(From x) {
  if (std::isnan(x))
    return 0;
  // The limits as From are exact or round up to the next power of two, so
  // the comparisons catch every value whose truncation would not fit.
  const From upper = static_cast<From>(std::numeric_limits<To>::max());
  const From lower = static_cast<From>(std::numeric_limits<To>::min());
  if (x >= upper)
    return std::numeric_limits<To>::max();
  if (x <= lower)
    return std::numeric_limits<To>::min();
  return static_cast<To>(x);
}

/// convert with XLA's rules: float to integer truncates toward zero and
/// saturates (NaN gives 0), anything to i1 is `x != 0`, integer to integer
/// wraps, to a float rounds.
template <typename FromTraits, typename ToTraits>
typename ToTraits::Compute convertElement(typename FromTraits::Compute x) {
  using From = typename FromTraits::Compute;
  using To = typename ToTraits::Compute;
  if constexpr (isBoolTraits<ToTraits>)
    return x != From(0);
  else if constexpr (std::is_floating_point_v<From> && !std::is_floating_point_v<To>)
    return convertFloatToInteger<To>(x);
  else
    // Integer to integer wraps (C++20 conversions are modular); to float rounds.
    return static_cast<To>(x);
}

} // namespace shardgen::interp
