// The ops between complex values and their parts: real, imag, complex, and
// abs of a complex operand (its modulus, a real result).

#include "compiler/interp/ElementTraits.h"
#include "compiler/interp/Kernels.h"
#include "runtime/include/shardgen/complex.h"

namespace shardgen::interp {
namespace {

/// Calls fn(T{}) with the part type T (float or double) of a complex or
/// float type; f16/bf16 take a float path through the Literal.
template <typename Fn> void dispatchComplex(ElementType type, Fn &&fn) {
  if (type == ElementType::C64)
    return fn(float{});
  return fn(double{});
}

} // namespace

Literal evalComplexPart(const Literal &operand, bool imaginary) {
  const ElementType type = operand.elementType();
  Literal out(TensorType{complexPartType(type), operand.shape()});
  if (!isComplex(type)) { // a real operand: itself, or an imaginary part of zeros
    if (!imaginary)
      out = operand;
    return out;
  }
  dispatchComplex(type, [&](auto part) {
    using T = decltype(part);
    const auto *in = operand.as<runtime::elements::Complex<T>>();
    T *result = out.as<T>();
    for (int64_t i = 0, n = out.numElements(); i < n; ++i)
      result[i] = imaginary ? in[i].im : in[i].re;
  });
  return out;
}

Literal evalComplex(const Literal &real, const Literal &imaginary) {
  Literal out(TensorType{complexOf(real.elementType()), real.shape()});
  dispatchComplex(out.elementType(), [&](auto part) {
    using T = decltype(part);
    const T *re = real.as<T>(), *im = imaginary.as<T>();
    auto *result = out.as<runtime::elements::Complex<T>>();
    for (int64_t i = 0, n = out.numElements(); i < n; ++i)
      result[i] = {re[i], im[i]};
  });
  return out;
}

Literal evalComplexAbs(const Literal &operand) {
  Literal out(TensorType{complexPartType(operand.elementType()), operand.shape()});
  dispatchComplex(operand.elementType(), [&](auto part) {
    using T = decltype(part);
    const auto *in = operand.as<runtime::elements::Complex<T>>();
    T *result = out.as<T>();
    for (int64_t i = 0, n = out.numElements(); i < n; ++i)
      result[i] = runtime::elements::complexmath::abs(in[i]);
  });
  return out;
}

} // namespace shardgen::interp
