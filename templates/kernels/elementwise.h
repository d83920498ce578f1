// shardgen kernel library: elementwise ops over a contiguous local buffer.
// The element count is a template argument, so each loop is a constant-trip
// contiguous loop the compiler vectorizes.
#pragma once

#include "kernels/memory.h"

namespace shardgen::kernels {

// Each op is a functor on the compute type; the bitwise ones take integers.
#define SHARDGEN_BINARY_OP(Name, expression)                                                       \
  struct Name {                                                                                    \
    template <typename C> static SHARDGEN_INLINE C apply(C a, C b) { return expression; }          \
  };
SHARDGEN_BINARY_OP(OpAdd, math::add(a, b))
SHARDGEN_BINARY_OP(OpSubtract, math::subtract(a, b))
SHARDGEN_BINARY_OP(OpMultiply, math::multiply(a, b))
SHARDGEN_BINARY_OP(OpDivide, math::divide(a, b))
SHARDGEN_BINARY_OP(OpRemainder, math::remainder(a, b))
SHARDGEN_BINARY_OP(OpMaximum, math::maximum(a, b))
SHARDGEN_BINARY_OP(OpMinimum, math::minimum(a, b))
SHARDGEN_BINARY_OP(OpPower, math::power(a, b))
SHARDGEN_BINARY_OP(OpAnd, C(a &b))
SHARDGEN_BINARY_OP(OpOr, C(a | b))
SHARDGEN_BINARY_OP(OpXor, C(a ^ b))
SHARDGEN_BINARY_OP(OpShiftLeft, math::shiftLeft(a, b))
SHARDGEN_BINARY_OP(OpShiftRightArithmetic, math::shiftRightArithmetic(a, b))
SHARDGEN_BINARY_OP(OpShiftRightLogical, math::shiftRightLogical(a, b))
#undef SHARDGEN_BINARY_OP

#define SHARDGEN_UNARY_OP(Name, expression)                                                        \
  struct Name {                                                                                    \
    template <typename C> static SHARDGEN_INLINE C apply(C v) { return expression; }               \
  };
SHARDGEN_UNARY_OP(OpNegate, math::negate(v))
SHARDGEN_UNARY_OP(OpAbs, math::abs(v))
SHARDGEN_UNARY_OP(OpSign, math::sign(v))
SHARDGEN_UNARY_OP(OpNot, C(~v))
SHARDGEN_UNARY_OP(OpLogicalNot, C(!v))
SHARDGEN_UNARY_OP(OpPopcnt, math::popcount(v))
SHARDGEN_UNARY_OP(OpCountLeadingZeros, math::countLeadingZeros(v))
SHARDGEN_UNARY_OP(OpExponential, math::exp(v))
SHARDGEN_UNARY_OP(OpLog, math::log(v))
SHARDGEN_UNARY_OP(OpTanh, math::tanh(v))
// tanh of f16, bf16 and the 8-bit floats (computed in f32, rounded after).
SHARDGEN_UNARY_OP(OpNarrowTanh, math::tanhRational(v))
SHARDGEN_UNARY_OP(OpSqrt, math::sqrt(v))
SHARDGEN_UNARY_OP(OpRsqrt, C(1) / math::sqrt(v))
// NaN: the operand itself (compilers order 1 + NaN's operands differently).
SHARDGEN_UNARY_OP(OpLogistic, math::isnan(v) ? v : C(1) / (C(1) + math::exp(-v)))
#undef SHARDGEN_UNARY_OP

// A float op that is one libm function: its f32 and f64 calls (f16 and bf16
// compute in f32). Builtins, as elements.h's math: no standard header.
#define SHARDGEN_LIBM_UNARY_OP(Name, function)                                                     \
  struct Name {                                                                                    \
    static SHARDGEN_INLINE float apply(float v) { return __builtin_##function##f(v); }             \
    static SHARDGEN_INLINE double apply(double v) { return __builtin_##function(v); }              \
  };
SHARDGEN_LIBM_UNARY_OP(OpFloor, floor)
SHARDGEN_LIBM_UNARY_OP(OpCeil, ceil)
SHARDGEN_LIBM_UNARY_OP(OpSine, sin)
SHARDGEN_LIBM_UNARY_OP(OpCosine, cos)
SHARDGEN_LIBM_UNARY_OP(OpExponentialMinusOne, expm1)
SHARDGEN_LIBM_UNARY_OP(OpLogPlusOne, log1p)
SHARDGEN_LIBM_UNARY_OP(OpCbrt, cbrt)
SHARDGEN_LIBM_UNARY_OP(OpTan, tan)
SHARDGEN_LIBM_UNARY_OP(OpRoundNearestEven, roundeven)
SHARDGEN_LIBM_UNARY_OP(OpRoundNearestAfz, round)
#undef SHARDGEN_LIBM_UNARY_OP

// A float op of two operands that is one libm function.
#define SHARDGEN_LIBM_BINARY_OP(Name, function)                                                    \
  struct Name {                                                                                    \
    static SHARDGEN_INLINE float apply(float a, float b) { return __builtin_##function##f(a, b); } \
    static SHARDGEN_INLINE double apply(double a, double b) { return __builtin_##function(a, b); } \
  };
SHARDGEN_LIBM_BINARY_OP(OpAtan2, atan2)
#undef SHARDGEN_LIBM_BINARY_OP

/// A float type's bit fields, its bits as an unsigned word.
template <typename B, int Exponent, int Mantissa> struct BitFields {
  using Bits = B;
  static constexpr int exponent = Exponent, mantissa = Mantissa;
};
template <typename E> struct FloatFields;
template <> struct FloatFields<F16> : BitFields<uint16_t, 5, 10> {};
template <> struct FloatFields<BF16> : BitFields<uint16_t, 8, 7> {};
template <> struct FloatFields<F32> : BitFields<uint32_t, 8, 23> {};
template <> struct FloatFields<F64> : BitFields<uint64_t, 11, 52> {};

/// reduce_precision on the storage's bits (XLA's): the mantissa rounded to
/// M bits, ties to even; an exponent beyond E bits' range overflows to inf
/// or underflows to zero with the sign; NaN kept (infinity with M = 0).
template <typename E, int64_t ExponentBits, int64_t MantissaBits>
SHARDGEN_INLINE typename E::Storage reducePrecisionElement(typename E::Storage x) {
  using F = FloatFields<E>;
  using Bits = typename F::Bits;
  using Wide = __typeof__(Bits(0) + 0u); // no promotion to int
  constexpr int e = F::exponent, m = F::mantissa;
  constexpr Wide exponentMask = ((Wide(1) << e) - 1) << m, signBit = Wide(1) << (e + m);
  const Wide original = __builtin_bit_cast(Bits, x);
  Wide bits = original;
  const bool nan = (bits & exponentMask) == exponentMask && (bits & ((Wide(1) << m) - 1)) != 0;
  if constexpr (MantissaBits < m) {
    constexpr int dropped = static_cast<int>(m - MantissaBits);
    const Wide lastKept = (bits >> dropped) & 1;
    bits = static_cast<Bits>((bits + ((Wide(1) << (dropped - 1)) - 1) + lastKept) &
                             ~((Wide(1) << dropped) - 1));
  }
  if constexpr (ExponentBits < e) {
    constexpr Wide bias = (Wide(1) << (e - 1)) - 1;
    constexpr Wide reducedBias = (Wide(1) << (ExponentBits - 1)) - 1;
    const Wide exponent = (bits & exponentMask) >> m;
    bits = exponent > bias + reducedBias    ? (bits & signBit) | exponentMask
           : exponent <= bias - reducedBias ? bits & signBit
                                            : bits;
  }
  if constexpr (MantissaBits == 0) // no NaN without mantissa bits: infinity
    return __builtin_bit_cast(typename E::Storage,
                              static_cast<Bits>(nan ? (original & signBit) | exponentMask : bits));
  else
    return nan ? x : __builtin_bit_cast(typename E::Storage, static_cast<Bits>(bits));
}

template <typename E, int64_t ExponentBits, int64_t MantissaBits, int64_t N>
SHARDGEN_INLINE void reducePrecision(const typename E::Storage *__restrict in,
                                     typename E::Storage *__restrict out) {
  for (int64_t i = 0; i < N; ++i)
    storeAt(out, i, reducePrecisionElement<E, ExponentBits, MantissaBits>(loadAt(in, i)));
}

/// is_finite: f32/f64 (f16 and bf16 compute in f32) to i1.
template <typename E, int64_t N>
SHARDGEN_INLINE void isFinite(const typename E::Storage *__restrict in, uint8_t *__restrict out) {
  for (int64_t i = 0; i < N; ++i)
    storeAt(out, i, static_cast<uint8_t>(math::isfinite(E::load(loadAt(in, i)))));
}

#define SHARDGEN_COMPARE_OP(Name, op)                                                              \
  struct Name {                                                                                    \
    template <typename C> static SHARDGEN_INLINE uint8_t apply(C a, C b) { return a op b; }        \
  };
SHARDGEN_COMPARE_OP(CmpEQ, ==)
SHARDGEN_COMPARE_OP(CmpNE, !=)
SHARDGEN_COMPARE_OP(CmpLT, <)
SHARDGEN_COMPARE_OP(CmpLE, <=)
SHARDGEN_COMPARE_OP(CmpGT, >)
SHARDGEN_COMPARE_OP(CmpGE, >=)
#undef SHARDGEN_COMPARE_OP

template <typename E, typename Op, int64_t N>
SHARDGEN_INLINE void unary(const typename E::Storage *__restrict in,
                           typename E::Storage *__restrict out) {
  storeAll<typename E::Storage, N, !isMiniFloat<E>>(
      out, [&](int64_t i) { return E::store(Op::apply(E::load(loadAt(in, i)))); });
}

template <typename E, typename Op, int64_t N>
SHARDGEN_INLINE void binary(const typename E::Storage *a, const typename E::Storage *b,
                            typename E::Storage *__restrict out) {
  storeAll<typename E::Storage, N, !isMiniFloat<E>>(out, [&](int64_t i) {
    return E::store(Op::apply(E::load(loadAt(a, i)), E::load(loadAt(b, i))));
  });
}

/// A fused elementwise chain (several ops, one pass): out[i] = body(i),
/// where the body reads the chain's inputs at i and keeps intermediates in
/// registers. `out` never aliases an input: the buffer plan gives a value
/// defined at a step a slot no input of that step holds. `Vectorize` false:
/// a chain through an 8-, 6- or 4-bit float (storeRange).
template <typename S, int64_t N, bool Vectorize = true, typename Body>
SHARDGEN_INLINE void fusedElementwise(S *__restrict out, Body &&body) {
  storeAll<S, N, Vectorize>(out, body);
}

/// A fused chain that reads broadcast operands (never materialized): a
/// nest of Outer x Inner iterations, out[i] = body(r, c, i) with
/// i = r * Inner + c; the body reads a row-wide operand at c, a per-row one
/// at r and the others at i. `Vectorize` as fusedElementwise's.
template <typename S, int64_t Outer, int64_t Inner, bool Vectorize = true, typename Body>
SHARDGEN_INLINE void fusedElementwise2D(S *__restrict out, Body &&body) {
  if constexpr (Inner < 64 || isComplexStorage<S> || !Vectorize) {
    // A short inner loop: clang -O3 unrolls it fully before it could
    // vectorize it, and then warns that the forced vectorization failed.
    for (int64_t i = 0; i < Outer * Inner; ++i)
      storeAt(out, i, body(i / Inner, i % Inner, i));
  } else {
    for (int64_t r = 0; r < Outer; ++r) {
#if defined(__clang__)
#pragma clang loop vectorize(assume_safety)
#elif defined(__GNUC__)
#pragma GCC ivdep
#endif
      for (int64_t c = 0; c < Inner; ++c)
        storeAt(out, r * Inner + c, body(r, c, r * Inner + c));
    }
  }
}

template <typename E, typename Cmp, int64_t N>
SHARDGEN_INLINE void compare(const typename E::Storage *a, const typename E::Storage *b,
                             uint8_t *__restrict out) {
  for (int64_t i = 0; i < N; ++i)
    storeAt(out, i, Cmp::apply(E::load(loadAt(a, i)), E::load(loadAt(b, i))));
}

/// compare with StableHLO's TOTALORDER compare type: Cmp on the elements'
/// totalOrder keys (shardgen/total_order.h).
template <typename E, typename Cmp, int64_t N>
SHARDGEN_INLINE void compareTotalOrder(const typename E::Storage *a, const typename E::Storage *b,
                                       uint8_t *__restrict out) {
  for (int64_t i = 0; i < N; ++i)
    storeAt(out, i, Cmp::apply(TotalOrder<E>::key(loadAt(a, i)), TotalOrder<E>::key(loadAt(b, i))));
}

/// `PredStride` is 0 for a scalar predicate (broadcast), else 1.
template <typename E, int64_t N, int64_t PredStride>
SHARDGEN_INLINE void select(const uint8_t *pred, const typename E::Storage *onTrue,
                            const typename E::Storage *onFalse,
                            typename E::Storage *__restrict out) {
  for (int64_t i = 0; i < N; ++i)
    storeAt(out, i, loadAt(pred, i * PredStride) ? loadAt(onTrue, i) : loadAt(onFalse, i));
}

/// `LoStride` / `HiStride` are 0 for scalar bounds, else 1.
template <typename E, int64_t N, int64_t LoStride, int64_t HiStride>
SHARDGEN_INLINE void clamp(const typename E::Storage *lo, const typename E::Storage *x,
                           const typename E::Storage *hi, typename E::Storage *__restrict out) {
  for (int64_t i = 0; i < N; ++i) {
    const auto low = E::load(loadAt(lo, i * LoStride));
    const auto high = E::load(loadAt(hi, i * HiStride));
    storeAt(out, i, E::store(math::minimum(math::maximum(E::load(loadAt(x, i)), low), high)));
  }
}

template <typename To, typename From> SHARDGEN_INLINE To floatToInteger(From x) {
  if (math::isnan(x))
    return 0;
  const From upper = static_cast<From>(Limits<To>::max);
  const From lower = static_cast<From>(Limits<To>::min);
  if (x >= upper)
    return Limits<To>::max;
  if (x <= lower)
    return Limits<To>::min;
  return static_cast<To>(x);
}

template <typename From, typename To>
SHARDGEN_INLINE typename To::Compute convertElement(typename From::Compute x);

/// A value as the widest type of its kind (double, int64_t or uint64_t):
/// what a mini float rounds from exactly.
template <typename C> SHARDGEN_INLINE auto exactSource(C x) {
  if constexpr (isFloat<C>)
    return static_cast<double>(x);
  else if constexpr (C(-1) < C(0))
    return static_cast<int64_t>(x);
  else
    return static_cast<uint64_t>(x);
}

/// convert to or from a complex type (StableHLO): a real value becomes the
/// real part (imaginary part 0); a complex one converts its real part to a
/// real type, both parts to a complex type.
template <typename From, typename To>
SHARDGEN_INLINE typename To::Compute convertComplex(typename From::Compute x) {
  using ToC = typename To::Compute;
  if constexpr (isComplex<From> && isComplex<To>) {
    using Part = typename PartOf<To>::type::Compute;
    return ToC{static_cast<Part>(x.re), static_cast<Part>(x.im)};
  } else if constexpr (isComplex<From>) {
    return convertElement<typename PartOf<From>::type, To>(x.re);
  } else {
    using Part = typename PartOf<To>::type::Compute;
    return ToC{convertElement<From, typename PartOf<To>::type>(x), Part(0)};
  }
}

template <typename From, typename To>
SHARDGEN_INLINE typename To::Compute convertElement(typename From::Compute x) {
  using FromC = typename From::Compute;
  using ToC = typename To::Compute;
  if constexpr (isComplex<From> || isComplex<To>)
    return convertComplex<From, To>(x);
  else if constexpr (isMiniFloat<To> && !__is_same(FromC, float)) // one rounding, exact
    return To::load(To::exact(exactSource(x)));
  else if constexpr (isFloat<FromC> && isSubByte<To>) // saturates to the type's range
    return floatToInteger<ToC>(math::isnan(x)        ? FromC(0)
                               : x < FromC(To::kMin) ? FromC(To::kMin)
                               : x > FromC(To::kMax) ? FromC(To::kMax)
                                                     : x);
  else if constexpr (isBool<To>)
    return x != FromC(0);
  else if constexpr (isFloat<FromC> && !isFloat<ToC>)
    return floatToInteger<ToC>(x);
  else
    return static_cast<ToC>(x);
}

template <typename From, typename To, int64_t N>
SHARDGEN_INLINE void convert(const typename From::Storage *__restrict in,
                             typename To::Storage *__restrict out) {
  for (int64_t i = 0; i < N; ++i)
    storeAt(out, i, To::store(convertElement<From, To>(From::load(loadAt(in, i)))));
}

// ---- complex<f32>, complex<f64> ---------------------------------------------
// The per-element ops defined on complex values (elementwiseFunctor names
// them ComplexOp<Kind>): the runtime's complex.h, as the interpreter runs it.

#define SHARDGEN_COMPLEX_UNARY_OP(Name, function)                                                  \
  struct Name {                                                                                    \
    template <typename C> static SHARDGEN_INLINE C apply(C v) { return complexmath::function(v); } \
  };
SHARDGEN_COMPLEX_UNARY_OP(ComplexOpNegate, negate)
SHARDGEN_COMPLEX_UNARY_OP(ComplexOpSign, sign)
SHARDGEN_COMPLEX_UNARY_OP(ComplexOpExponential, exp)
SHARDGEN_COMPLEX_UNARY_OP(ComplexOpExponentialMinusOne, expm1)
SHARDGEN_COMPLEX_UNARY_OP(ComplexOpLog, log)
SHARDGEN_COMPLEX_UNARY_OP(ComplexOpLogPlusOne, log1p)
SHARDGEN_COMPLEX_UNARY_OP(ComplexOpSqrt, sqrt)
SHARDGEN_COMPLEX_UNARY_OP(ComplexOpRsqrt, rsqrt)
SHARDGEN_COMPLEX_UNARY_OP(ComplexOpCbrt, cbrt)
SHARDGEN_COMPLEX_UNARY_OP(ComplexOpSine, sin)
SHARDGEN_COMPLEX_UNARY_OP(ComplexOpCosine, cos)
SHARDGEN_COMPLEX_UNARY_OP(ComplexOpTan, tan)
SHARDGEN_COMPLEX_UNARY_OP(ComplexOpTanh, tanh)
SHARDGEN_COMPLEX_UNARY_OP(ComplexOpLogistic, logistic)
#undef SHARDGEN_COMPLEX_UNARY_OP

#define SHARDGEN_COMPLEX_BINARY_OP(Name, function)                                                 \
  struct Name {                                                                                    \
    template <typename C> static SHARDGEN_INLINE C apply(C a, C b) {                               \
      return complexmath::function(a, b);                                                          \
    }                                                                                              \
  };
SHARDGEN_COMPLEX_BINARY_OP(ComplexOpAdd, add)
SHARDGEN_COMPLEX_BINARY_OP(ComplexOpSubtract, subtract)
SHARDGEN_COMPLEX_BINARY_OP(ComplexOpMultiply, multiply)
SHARDGEN_COMPLEX_BINARY_OP(ComplexOpDivide, divide)
SHARDGEN_COMPLEX_BINARY_OP(ComplexOpPower, power)
SHARDGEN_COMPLEX_BINARY_OP(ComplexOpMaximum, maximum)
SHARDGEN_COMPLEX_BINARY_OP(ComplexOpMinimum, minimum)
#undef SHARDGEN_COMPLEX_BINARY_OP

/// abs of a complex value: its modulus, of the part type.
template <typename E, int64_t N>
SHARDGEN_INLINE void complexAbs(const typename E::Storage *__restrict in,
                                typename PartOf<E>::type::Storage *__restrict out) {
  for (int64_t i = 0; i < N; ++i)
    storeAt(out, i, complexmath::abs(loadAt(in, i)));
}

/// real (Imaginary false) or imag of a complex or float value; imag of a
/// float value is +0.
template <typename E, bool Imaginary>
SHARDGEN_INLINE typename PartOf<E>::type::Storage partOf(typename E::Storage x) {
  if constexpr (isComplex<E>)
    return Imaginary ? x.im : x.re;
  else
    return Imaginary ? typename E::Storage(0) : x;
}

template <typename E, bool Imaginary, int64_t N>
SHARDGEN_INLINE void complexPart(const typename E::Storage *__restrict in,
                                 typename PartOf<E>::type::Storage *__restrict out) {
  for (int64_t i = 0; i < N; ++i)
    storeAt(out, i, partOf<E, Imaginary>(loadAt(in, i)));
}

/// complex(real, imaginary) into complex type E.
template <typename E, int64_t N>
SHARDGEN_INLINE void makeComplex(const typename PartOf<E>::type::Storage *re,
                                 const typename PartOf<E>::type::Storage *im,
                                 typename E::Storage *__restrict out) {
  for (int64_t i = 0; i < N; ++i)
    storeAt(out, i, typename E::Storage{loadAt(re, i), loadAt(im, i)});
}

} // namespace shardgen::kernels
