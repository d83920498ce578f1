#pragma once
// The scalar function of each per-element op on an element type's compute
// type: what the tensor kernels (Elementwise.cpp, Convert.cpp) map over
// their operands and what the scalar-region evaluator (ScalarRegion.h) runs
// one element group at a time. One definition, so both agree to the bit.

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>

#include "runtime/include/shardgen/total_order.h"

#include "compiler/interp/ComplexFunctions.h"
#include "compiler/interp/ElementMath.h"
#include "compiler/interp/ElementTraits.h"
#include "compiler/ir/Attributes.h"
#include "compiler/ir/OpKind.h"
#include "compiler/ops/KindTable.h"

namespace shardgen::interp {

inline std::string notDefined(OpKind kind, ElementType type) {
  return std::string(opName(kind)) + " is not defined on " + std::string(elementTypeName(type)) +
         " tensors";
}

template <typename T> using Compute = typename T::Compute;

/// The element types a scalar function is declared on (traits T).
template <typename T>
concept AnyElement = true;
template <typename T>
concept FloatElement = isFloatTraits<T>;
template <typename T>
concept IntegerElement = !isFloatTraits<T>; // i1 too
template <typename T>
concept IntElement = !isFloatTraits<T> && !isBoolTraits<T>;

/// The reference scalar function of the elementwise op K on the compute type
/// of element traits T: `ScalarOp<K>::apply<T>(x...)`, declared only on the
/// types the op is defined on. Every elementwise row of the op table has
/// one: withScalarOp's table does not build without it.
template <OpKind K> struct ScalarOp;

#define SHARDGEN_UNARY_SCALAR(Kind, Types, expression)                                             \
  template <> struct ScalarOp<OpKind::Kind> {                                                      \
    template <Types T, typename C = Compute<T>> static C apply(C v) { return expression; }         \
  };
#define SHARDGEN_BINARY_SCALAR(Kind, Types, expression)                                            \
  template <> struct ScalarOp<OpKind::Kind> {                                                      \
    template <Types T, typename C = Compute<T>> static C apply(C a, C b) { return expression; }    \
  };

SHARDGEN_UNARY_SCALAR(Negate, AnyElement, math::negate(v))
SHARDGEN_UNARY_SCALAR(Abs, AnyElement, math::abs(v))
SHARDGEN_UNARY_SCALAR(Sign, AnyElement, math::sign(v))
SHARDGEN_UNARY_SCALAR(Exponential, FloatElement, std::exp(v))
SHARDGEN_UNARY_SCALAR(Log, FloatElement, std::log(v))
SHARDGEN_UNARY_SCALAR(ExponentialMinusOne, FloatElement, std::expm1(v))
SHARDGEN_UNARY_SCALAR(LogPlusOne, FloatElement, std::log1p(v))
SHARDGEN_UNARY_SCALAR(Cbrt, FloatElement, std::cbrt(v))
SHARDGEN_UNARY_SCALAR(Tan, FloatElement, std::tan(v))
// The default rounding mode: ties to even.
SHARDGEN_UNARY_SCALAR(RoundNearestEven, FloatElement, std::nearbyint(v))
SHARDGEN_UNARY_SCALAR(RoundNearestAfz, FloatElement, std::round(v))
SHARDGEN_UNARY_SCALAR(Tanh, FloatElement, std::tanh(v))
SHARDGEN_UNARY_SCALAR(Sqrt, FloatElement, std::sqrt(v))
SHARDGEN_UNARY_SCALAR(Rsqrt, FloatElement, C(1) / std::sqrt(v))
SHARDGEN_UNARY_SCALAR(Logistic, FloatElement, C(1) / (C(1) + std::exp(-v)))
SHARDGEN_UNARY_SCALAR(Floor, FloatElement, std::floor(v))
SHARDGEN_UNARY_SCALAR(Ceil, FloatElement, std::ceil(v))
SHARDGEN_UNARY_SCALAR(Sine, FloatElement, std::sin(v))
SHARDGEN_UNARY_SCALAR(Cosine, FloatElement, std::cos(v))

/// `not` of booleans is logical, of integers bitwise.
template <> struct ScalarOp<OpKind::Not> {
  template <IntegerElement T, typename C = Compute<T>> static C apply(C v) {
    if constexpr (isBoolTraits<T>)
      return C(!v);
    else
      return C(~v);
  }
};

SHARDGEN_BINARY_SCALAR(Add, AnyElement, math::add(a, b))
SHARDGEN_BINARY_SCALAR(Subtract, AnyElement, math::subtract(a, b))
SHARDGEN_BINARY_SCALAR(Multiply, AnyElement, math::multiply(a, b))
SHARDGEN_BINARY_SCALAR(Divide, AnyElement, math::divide(a, b))
SHARDGEN_BINARY_SCALAR(Remainder, AnyElement, math::remainder(a, b))
SHARDGEN_BINARY_SCALAR(Maximum, AnyElement, math::maximum(a, b))
SHARDGEN_BINARY_SCALAR(Minimum, AnyElement, math::minimum(a, b))
SHARDGEN_BINARY_SCALAR(Power, AnyElement, math::power(a, b))
SHARDGEN_BINARY_SCALAR(And, IntegerElement, C(a &b))
SHARDGEN_BINARY_SCALAR(Or, IntegerElement, C(a | b))
SHARDGEN_BINARY_SCALAR(Xor, IntegerElement, C(a ^ b))
SHARDGEN_BINARY_SCALAR(ShiftLeft, IntElement, math::shiftLeft(a, b))
SHARDGEN_BINARY_SCALAR(ShiftRightArithmetic, IntElement, math::shiftRightArithmetic(a, b))
SHARDGEN_BINARY_SCALAR(ShiftRightLogical, IntElement, math::shiftRightLogical(a, b))
SHARDGEN_BINARY_SCALAR(Atan2, FloatElement, std::atan2(a, b))
SHARDGEN_UNARY_SCALAR(Popcnt, IntElement, math::popcount(v))
SHARDGEN_UNARY_SCALAR(CountLeadingZeros, IntElement, math::countLeadingZeros(v))

#undef SHARDGEN_UNARY_SCALAR
#undef SHARDGEN_BINARY_SCALAR

/// The scalar functions of K on element traits T: complex types have their
/// own (ComplexFunctions.h).
template <OpKind K, typename T>
using ScalarOpOn = std::conditional_t<isComplexTraits<T>, ComplexScalarOp<K>, ScalarOp<K>>;

/// Whether the op K of category `Family` has its scalar function on T.
template <OpKind K, OpCategory Family, typename T> constexpr bool hasScalarOp() {
  if constexpr (opCategory(K) != Family) {
    return false;
  } else {
    static_assert(requires { sizeof(ScalarOp<K>); }, "an elementwise row without its ScalarOp");
    if constexpr (Family == OpCategory::ElementwiseUnary)
      return requires(Compute<T> x) { ScalarOpOn<K, T>::template apply<T>(x); };
    else
      return requires(Compute<T> x) { ScalarOpOn<K, T>::template apply<T>(x, x); };
  }
}

/// `fn(ScalarOp<K>{})` for the op `kind` = K of category `Family` (unary or
/// binary elementwise) on element type `type` (traits T); an op of another
/// family, or one `type` does not define, is an error.
template <typename Result, OpCategory Family, typename T, typename Fn>
Result withScalarOp(OpKind kind, ElementType type, Fn &&fn) {
  using Entry = Result (*)(Fn &);
  static constexpr auto kEntries = tableByKind([](auto k) -> Entry {
    constexpr OpKind K = decltype(k)::value;
    if constexpr (hasScalarOp<K, Family, T>())
      return [](Fn &f) -> Result { return f(ScalarOpOn<K, T>{}); };
    else
      return nullptr;
  });
  if (Entry entry = entryFor(kEntries, kind))
    return entry(fn);
  unsupported(notDefined(kind, type));
}

/// The unary op's scalar function on f64 (error bounds evaluate it around
/// an operand).
using UnaryAtF64 = double (*)(double);
inline UnaryAtF64 unaryAtF64(OpKind kind) {
  return withScalarOp<UnaryAtF64, OpCategory::ElementwiseUnary, F64Traits>(
      kind, ElementType::F64,
      [](auto op) -> UnaryAtF64 { return &decltype(op)::template apply<F64Traits>; });
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

/// StableHLO's TOTALORDER: an integer key of an element's stored bits whose
/// usual order is IEEE totalOrder (-NaN < -inf < ... < -0 < +0 < ... < +inf
/// < +NaN); on integers the value itself.
template <typename Traits> auto totalOrderKey(typename Traits::Storage x) {
  return runtime::elements::TotalOrder<Traits>::key(x);
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
typename ToTraits::Compute convertElement(typename FromTraits::Compute x);

/// The f32 or f64 traits of a complex type's parts.
template <typename Traits>
using ComplexPartTraits =
    std::conditional_t<std::is_same_v<Traits, C64Traits>, F32Traits, F64Traits>;

/// convert to or from a complex type (StableHLO): a real value becomes the
/// real part (imaginary part 0), a complex one converts its real part to a
/// real type and both parts to a complex type.
template <typename FromTraits, typename ToTraits>
typename ToTraits::Compute convertComplex(typename FromTraits::Compute x) {
  if constexpr (isComplexTraits<FromTraits> && isComplexTraits<ToTraits>) {
    using Part = decltype(ToTraits::Compute::re);
    return {static_cast<Part>(x.re), static_cast<Part>(x.im)};
  } else if constexpr (isComplexTraits<FromTraits>) {
    return convertElement<ComplexPartTraits<FromTraits>, ToTraits>(x.re);
  } else {
    using Part = decltype(ToTraits::Compute::re);
    return {convertElement<FromTraits, ComplexPartTraits<ToTraits>>(x), Part(0)};
  }
}

template <typename FromTraits, typename ToTraits>
typename ToTraits::Compute convertElement(typename FromTraits::Compute x) {
  using From = typename FromTraits::Compute;
  using To = typename ToTraits::Compute;
  if constexpr (isComplexTraits<FromTraits> || isComplexTraits<ToTraits>)
    return convertComplex<FromTraits, ToTraits>(x);
  else if constexpr (isBoolTraits<ToTraits>)
    return x != From(0);
  else if constexpr (isMiniFloatTraits<ToTraits> && !std::is_same_v<From, float>)
    // f64 and integers round once, exactly (not twice, through float).
    return ToTraits::load(ToTraits::exact(
        std::conditional_t<std::is_floating_point_v<From>, double,
                           std::conditional_t<std::is_signed_v<From>, int64_t, uint64_t>>(x)));
  else if constexpr (std::is_floating_point_v<From> && isSubByteTraits<ToTraits>)
    // Saturates to the type's range (NaN gives 0), then within the byte.
    return convertFloatToInteger<To>(
        std::isnan(x) ? From(0) : std::clamp(x, From(ToTraits::kMin), From(ToTraits::kMax)));
  else if constexpr (std::is_floating_point_v<From> && !std::is_floating_point_v<To>)
    return convertFloatToInteger<To>(x);
  else
    // Integer to integer wraps (C++20 conversions are modular); to float rounds.
    return static_cast<To>(x);
}

} // namespace shardgen::interp
