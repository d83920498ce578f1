// Elementwise unary and binary ops, compare, select and clamp.

#include <cmath>
#include <string>

#include "compiler/interp/ElementMath.h"
#include "compiler/interp/ElementTraits.h"
#include "compiler/interp/Kernels.h"

namespace shardgen::interp {
namespace {

template <typename Traits, typename Fn> Literal mapUnary(const Literal &x, Fn fn) {
  using S = typename Traits::Storage;
  Literal out(x.type());
  const S *in = x.as<S>();
  S *result = out.as<S>();
  for (int64_t i = 0, n = x.numElements(); i < n; ++i)
    result[i] = Traits::store(fn(Traits::load(in[i])));
  return out;
}

/// A scalar operand is broadcast (select's pred, clamp's bounds); otherwise
/// element i pairs with element i.
inline int64_t strideOf(const Literal &x) { return x.shape().empty() ? 0 : 1; }

template <typename Traits, typename Fn>
Literal mapBinary(const Literal &x, const Literal &y, const TensorType &resultType, Fn fn) {
  using S = typename Traits::Storage;
  Literal out(resultType);
  const S *a = x.as<S>();
  const S *b = y.as<S>();
  S *result = out.as<S>();
  for (int64_t i = 0, n = out.numElements(); i < n; ++i)
    result[i] = Traits::store(fn(Traits::load(a[i]), Traits::load(b[i])));
  return out;
}

std::string notDefined(OpKind kind, ElementType type) {
  return std::string(opName(kind)) + " is not defined on " + std::string(elementTypeName(type)) +
         " tensors";
}

template <typename Traits> Literal unary(OpKind kind, const Literal &x) {
  using C = typename Traits::Compute;
  switch (kind) {
  case OpKind::Negate:
    return mapUnary<Traits>(x, [](C v) { return math::negate(v); });
  case OpKind::Abs:
    return mapUnary<Traits>(x, [](C v) { return math::abs(v); });
  case OpKind::Sign:
    return mapUnary<Traits>(x, [](C v) { return math::sign(v); });
  case OpKind::Not:
    if constexpr (isBoolTraits<Traits>)
      return mapUnary<Traits>(x, [](C v) { return C(!v); });
    else if constexpr (!isFloatTraits<Traits>)
      return mapUnary<Traits>(x, [](C v) { return C(~v); });
    break;
  default:
    break;
  }
  if constexpr (isFloatTraits<Traits>) {
    switch (kind) {
    case OpKind::Exponential:
      return mapUnary<Traits>(x, [](C v) { return std::exp(v); });
    case OpKind::Log:
      return mapUnary<Traits>(x, [](C v) { return std::log(v); });
    case OpKind::Tanh:
      return mapUnary<Traits>(x, [](C v) { return std::tanh(v); });
    case OpKind::Sqrt:
      return mapUnary<Traits>(x, [](C v) { return std::sqrt(v); });
    case OpKind::Rsqrt:
      return mapUnary<Traits>(x, [](C v) { return C(1) / std::sqrt(v); });
    case OpKind::Logistic:
      return mapUnary<Traits>(x, [](C v) { return C(1) / (C(1) + std::exp(-v)); });
    case OpKind::Floor:
      return mapUnary<Traits>(x, [](C v) { return std::floor(v); });
    case OpKind::Ceil:
      return mapUnary<Traits>(x, [](C v) { return std::ceil(v); });
    case OpKind::Sine:
      return mapUnary<Traits>(x, [](C v) { return std::sin(v); });
    case OpKind::Cosine:
      return mapUnary<Traits>(x, [](C v) { return std::cos(v); });
    default:
      break;
    }
  }
  unsupported(notDefined(kind, x.elementType()));
}

template <typename Traits> Literal binary(OpKind kind, const Literal &x, const Literal &y) {
  using C = typename Traits::Compute;
  const TensorType &type = x.type();
  switch (kind) {
  case OpKind::Add:
    return mapBinary<Traits>(x, y, type, [](C a, C b) { return math::add(a, b); });
  case OpKind::Subtract:
    return mapBinary<Traits>(x, y, type, [](C a, C b) { return math::subtract(a, b); });
  case OpKind::Multiply:
    return mapBinary<Traits>(x, y, type, [](C a, C b) { return math::multiply(a, b); });
  case OpKind::Divide:
    return mapBinary<Traits>(x, y, type, [](C a, C b) { return math::divide(a, b); });
  case OpKind::Remainder:
    return mapBinary<Traits>(x, y, type, [](C a, C b) { return math::remainder(a, b); });
  case OpKind::Maximum:
    return mapBinary<Traits>(x, y, type, [](C a, C b) { return math::maximum(a, b); });
  case OpKind::Minimum:
    return mapBinary<Traits>(x, y, type, [](C a, C b) { return math::minimum(a, b); });
  case OpKind::Power:
    return mapBinary<Traits>(x, y, type, [](C a, C b) { return math::power(a, b); });
  default:
    break;
  }
  if constexpr (!isFloatTraits<Traits>) {
    switch (kind) {
    case OpKind::And:
      return mapBinary<Traits>(x, y, type, [](C a, C b) { return C(a & b); });
    case OpKind::Or:
      return mapBinary<Traits>(x, y, type, [](C a, C b) { return C(a | b); });
    case OpKind::Xor:
      return mapBinary<Traits>(x, y, type, [](C a, C b) { return C(a ^ b); });
    default:
      break;
    }
  }
  unsupported(notDefined(kind, x.elementType()));
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

template <typename Traits, ComparisonDirection Direction>
void compareAll(const Literal &x, const Literal &y, Literal &out) {
  using S = typename Traits::Storage;
  const S *a = x.as<S>();
  const S *b = y.as<S>();
  uint8_t *result = out.as<uint8_t>();
  for (int64_t i = 0, n = out.numElements(); i < n; ++i)
    result[i] = compare(Direction, Traits::load(a[i]), Traits::load(b[i]));
}

/// Calls fn with an unsigned integer type as wide as one element.
template <typename Fn> void dispatchWidth(size_t width, Fn &&fn) {
  switch (width) {
  case 1:
    return fn(uint8_t{});
  case 2:
    return fn(uint16_t{});
  case 4:
    return fn(uint32_t{});
  default:
    return fn(uint64_t{});
  }
}

} // namespace

Literal evalUnary(OpKind kind, const Literal &operand) {
  return dispatchElementType(operand.elementType(),
                             [&](auto traits) { return unary<decltype(traits)>(kind, operand); });
}

Literal evalBinary(OpKind kind, const Literal &lhs, const Literal &rhs) {
  return dispatchElementType(lhs.elementType(),
                             [&](auto traits) { return binary<decltype(traits)>(kind, lhs, rhs); });
}

Literal evalCompare(ComparisonDirection direction, const Literal &lhs, const Literal &rhs) {
  Literal out(TensorType{ElementType::I1, lhs.shape()});
  dispatchElementType(lhs.elementType(), [&](auto traits) {
    using T = decltype(traits);
    switch (direction) {
    case ComparisonDirection::EQ:
      return compareAll<T, ComparisonDirection::EQ>(lhs, rhs, out);
    case ComparisonDirection::NE:
      return compareAll<T, ComparisonDirection::NE>(lhs, rhs, out);
    case ComparisonDirection::LT:
      return compareAll<T, ComparisonDirection::LT>(lhs, rhs, out);
    case ComparisonDirection::LE:
      return compareAll<T, ComparisonDirection::LE>(lhs, rhs, out);
    case ComparisonDirection::GT:
      return compareAll<T, ComparisonDirection::GT>(lhs, rhs, out);
    case ComparisonDirection::GE:
      return compareAll<T, ComparisonDirection::GE>(lhs, rhs, out);
    }
  });
  return out;
}

Literal evalSelect(const Literal &pred, const Literal &onTrue, const Literal &onFalse) {
  Literal out(onTrue.type());
  const uint8_t *choose = pred.as<uint8_t>();
  const int64_t predStride = strideOf(pred);
  dispatchWidth(elementByteWidth(out.elementType()), [&](auto word) {
    using W = decltype(word);
    const W *t = onTrue.as<W>();
    const W *f = onFalse.as<W>();
    W *result = out.as<W>();
    for (int64_t i = 0, n = out.numElements(); i < n; ++i)
      result[i] = choose[i * predStride] ? t[i] : f[i];
  });
  return out;
}

Literal evalClamp(const Literal &min, const Literal &operand, const Literal &max) {
  Literal out(operand.type());
  dispatchElementType(operand.elementType(), [&](auto traits) {
    using T = decltype(traits);
    using S = typename T::Storage;
    const S *lo = min.as<S>();
    const S *x = operand.as<S>();
    const S *hi = max.as<S>();
    S *result = out.as<S>();
    const int64_t loStride = strideOf(min), hiStride = strideOf(max);
    for (int64_t i = 0, n = out.numElements(); i < n; ++i)
      result[i] = T::store(math::minimum(math::maximum(T::load(x[i]), T::load(lo[i * loStride])),
                                         T::load(hi[i * hiStride])));
  });
  return out;
}

} // namespace shardgen::interp
