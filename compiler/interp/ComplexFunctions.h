#pragma once
// The scalar function of each per-element op defined on complex<f32> and
// complex<f64> (StableHLO's complex semantics, runtime/include/shardgen/
// complex.h: the one copy generated code runs too, so both agree to the
// bit): `ComplexScalarOp<K>::apply<T>(x...)` on the compute type
// Complex<float> or Complex<double>. An op without a specialization is not
// defined on complex tensors (withScalarOp reports it).

#include "compiler/ir/OpKind.h"
#include "compiler/ops/KindTable.h"
#include "compiler/ops/OpTable.h"
#include "runtime/include/shardgen/element_types.h"

namespace shardgen::interp {

template <OpKind K> struct ComplexScalarOp {};

#define SHARDGEN_COMPLEX_UNARY(Kind, function)                                                     \
  template <> struct ComplexScalarOp<OpKind::Kind> {                                               \
    template <typename T, typename C = typename T::Compute> static C apply(C v) {                  \
      return runtime::elements::complexmath::function(v);                                          \
    }                                                                                              \
  };
#define SHARDGEN_COMPLEX_BINARY(Kind, function)                                                    \
  template <> struct ComplexScalarOp<OpKind::Kind> {                                               \
    template <typename T, typename C = typename T::Compute> static C apply(C a, C b) {             \
      return runtime::elements::complexmath::function(a, b);                                       \
    }                                                                                              \
  };

SHARDGEN_COMPLEX_UNARY(Negate, negate)
SHARDGEN_COMPLEX_UNARY(Sign, sign)
SHARDGEN_COMPLEX_UNARY(Exponential, exp)
SHARDGEN_COMPLEX_UNARY(ExponentialMinusOne, expm1)
SHARDGEN_COMPLEX_UNARY(Log, log)
SHARDGEN_COMPLEX_UNARY(LogPlusOne, log1p)
SHARDGEN_COMPLEX_UNARY(Sqrt, sqrt)
SHARDGEN_COMPLEX_UNARY(Rsqrt, rsqrt)
SHARDGEN_COMPLEX_UNARY(Cbrt, cbrt)
SHARDGEN_COMPLEX_UNARY(Sine, sin)
SHARDGEN_COMPLEX_UNARY(Cosine, cos)
SHARDGEN_COMPLEX_UNARY(Tan, tan)
SHARDGEN_COMPLEX_UNARY(Tanh, tanh)
SHARDGEN_COMPLEX_UNARY(Logistic, logistic)
SHARDGEN_COMPLEX_BINARY(Add, add)
SHARDGEN_COMPLEX_BINARY(Subtract, subtract)
SHARDGEN_COMPLEX_BINARY(Multiply, multiply)
SHARDGEN_COMPLEX_BINARY(Divide, divide)
SHARDGEN_COMPLEX_BINARY(Power, power)
SHARDGEN_COMPLEX_BINARY(Maximum, maximum)
SHARDGEN_COMPLEX_BINARY(Minimum, minimum)

#undef SHARDGEN_COMPLEX_UNARY
#undef SHARDGEN_COMPLEX_BINARY

/// Every op the verifier lets through on complex values has its function
/// (abs, whose result is real, is its own kernel: ComplexParts.cpp).
static_assert([] {
  constexpr auto kHas = tableByKind([](auto kind) {
    using Op = ComplexScalarOp<decltype(kind)::value>;
    using C = runtime::elements::Complex<float>;
    return requires(C x) { Op::template apply<runtime::elements::C64>(x); } ||
           requires(C x) { Op::template apply<runtime::elements::C64>(x, x); };
  });
  for (OpKind kind : kComplexElementwiseOps)
    if (kind != OpKind::Abs && !entryFor(kHas, kind))
      return false;
  return true;
}());

} // namespace shardgen::interp
