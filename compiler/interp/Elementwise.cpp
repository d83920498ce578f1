// Elementwise unary and binary ops, compare, select and clamp.

#include <cmath>
#include <string>

#include "compiler/interp/ElementFunctions.h"
#include "compiler/interp/ElementMath.h"
#include "compiler/interp/ElementTraits.h"
#include "compiler/interp/Kernels.h"

namespace shardgen::interp {
namespace {

template <typename Traits, typename Scalar> Literal mapUnary(const Literal &x) {
  using S = typename Traits::Storage;
  Literal out(x.type());
  const S *in = x.as<S>();
  S *result = out.as<S>();
  for (int64_t i = 0, n = x.numElements(); i < n; ++i)
    result[i] = Traits::store(Scalar::template apply<Traits>(Traits::load(in[i])));
  return out;
}

/// A scalar operand is broadcast (select's pred, clamp's bounds); otherwise
/// element i pairs with element i.
inline int64_t strideOf(const Literal &x) { return x.shape().empty() ? 0 : 1; }

template <typename Traits, typename Scalar>
Literal mapBinary(const Literal &x, const Literal &y, const TensorType &resultType) {
  using S = typename Traits::Storage;
  Literal out(resultType);
  const S *a = x.as<S>();
  const S *b = y.as<S>();
  S *result = out.as<S>();
  for (int64_t i = 0, n = out.numElements(); i < n; ++i)
    result[i] =
        Traits::store(Scalar::template apply<Traits>(Traits::load(a[i]), Traits::load(b[i])));
  return out;
}

template <typename Traits, ComparisonDirection Direction>
void compareAll(const Literal &x, const Literal &y, Literal &out, bool totalOrder) {
  using S = typename Traits::Storage;
  const S *a = x.as<S>();
  const S *b = y.as<S>();
  uint8_t *result = out.as<uint8_t>();
  for (int64_t i = 0, n = out.numElements(); i < n; ++i)
    result[i] = totalOrder
                    ? compare(Direction, totalOrderKey<Traits>(a[i]), totalOrderKey<Traits>(b[i]))
                    : compare(Direction, Traits::load(a[i]), Traits::load(b[i]));
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
  case 8:
    return fn(uint64_t{});
  default: // complex<f64>
    return fn(runtime::elements::Complex<double>{});
  }
}

} // namespace

Literal evalUnary(OpKind kind, const Literal &operand) {
  return dispatchElementType(operand.elementType(), [&](auto traits) {
    using T = decltype(traits);
    return withScalarOp<Literal, OpCategory::ElementwiseUnary, T>(
        kind, operand.elementType(),
        [&](auto scalar) { return mapUnary<T, decltype(scalar)>(operand); });
  });
}

Literal evalBinary(OpKind kind, const Literal &lhs, const Literal &rhs) {
  return dispatchElementType(lhs.elementType(), [&](auto traits) {
    using T = decltype(traits);
    return withScalarOp<Literal, OpCategory::ElementwiseBinary, T>(
        kind, lhs.elementType(),
        [&](auto scalar) { return mapBinary<T, decltype(scalar)>(lhs, rhs, lhs.type()); });
  });
}

Literal evalCompare(ComparisonDirection direction, const Literal &lhs, const Literal &rhs,
                    bool totalOrder) {
  Literal out(TensorType{ElementType::I1, lhs.shape()});
  dispatchElementType(lhs.elementType(), [&](auto traits) {
    using T = decltype(traits);
    switch (direction) {
    case ComparisonDirection::EQ:
      return compareAll<T, ComparisonDirection::EQ>(lhs, rhs, out, totalOrder);
    case ComparisonDirection::NE:
      return compareAll<T, ComparisonDirection::NE>(lhs, rhs, out, totalOrder);
    case ComparisonDirection::LT:
      return compareAll<T, ComparisonDirection::LT>(lhs, rhs, out, totalOrder);
    case ComparisonDirection::LE:
      return compareAll<T, ComparisonDirection::LE>(lhs, rhs, out, totalOrder);
    case ComparisonDirection::GT:
      return compareAll<T, ComparisonDirection::GT>(lhs, rhs, out, totalOrder);
    case ComparisonDirection::GE:
      return compareAll<T, ComparisonDirection::GE>(lhs, rhs, out, totalOrder);
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
