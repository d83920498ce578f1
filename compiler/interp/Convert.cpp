// convert between any two element types, with XLA's rules: float to integer
// truncates toward zero and saturates (NaN gives 0), anything to i1 is
// `x != 0`, integer to integer wraps, f16/bf16 round to nearest even.

#include <cmath>
#include <limits>
#include <type_traits>

#include "compiler/interp/ElementTraits.h"
#include "compiler/interp/Kernels.h"

namespace shardgen::interp {
namespace {

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

template <typename FromTraits, typename ToTraits>
void convertAll(const Literal &operand, Literal &out) {
  using FromStorage = typename FromTraits::Storage;
  using ToStorage = typename ToTraits::Storage;
  const FromStorage *in = operand.as<FromStorage>();
  ToStorage *result = out.as<ToStorage>();
  for (int64_t i = 0, n = out.numElements(); i < n; ++i)
    result[i] = ToTraits::store(convertElement<FromTraits, ToTraits>(FromTraits::load(in[i])));
}

} // namespace

Literal evalConvert(const Literal &operand, ElementType resultType) {
  Literal out(TensorType{resultType, operand.shape()});
  dispatchElementType(operand.elementType(), [&](auto from) {
    dispatchElementType(resultType,
                        [&](auto to) { convertAll<decltype(from), decltype(to)>(operand, out); });
  });
  return out;
}

} // namespace shardgen::interp
