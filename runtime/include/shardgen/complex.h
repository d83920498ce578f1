#pragma once
// complex<f32> and complex<f64>: the element value (a real and an imaginary
// part) and StableHLO's complex arithmetic and functions on it. One copy for
// the reference interpreter, the runtime's reductions and generated code, so
// all three give the same bits: every product goes through product(), which
// the compiler cannot fuse into an FMA (generated code is built with
// -march=native and FP contraction, the interpreter without), and the real
// functions are libm's (builtins: generated code includes no standard
// header). Header-only and freestanding (see float16.h).

namespace shardgen::runtime::elements {

template <typename T> struct Complex {
  T re;
  T im = T(0); // a real value converts to (value, 0)
};

namespace complexmath {

#define SHARDGEN_COMPLEX_INLINE inline __attribute__((always_inline))

// libm's real functions, for float and double parts.
#define SHARDGEN_COMPLEX_LIBM1(name)                                                               \
  SHARDGEN_COMPLEX_INLINE float name(float x) { return __builtin_##name##f(x); }                   \
  SHARDGEN_COMPLEX_INLINE double name(double x) { return __builtin_##name(x); }
#define SHARDGEN_COMPLEX_LIBM2(name)                                                               \
  SHARDGEN_COMPLEX_INLINE float name(float x, float y) { return __builtin_##name##f(x, y); }       \
  SHARDGEN_COMPLEX_INLINE double name(double x, double y) { return __builtin_##name(x, y); }
SHARDGEN_COMPLEX_LIBM1(exp)
SHARDGEN_COMPLEX_LIBM1(expm1)
SHARDGEN_COMPLEX_LIBM1(log)
SHARDGEN_COMPLEX_LIBM1(sin)
SHARDGEN_COMPLEX_LIBM1(cos)
SHARDGEN_COMPLEX_LIBM1(sinh)
SHARDGEN_COMPLEX_LIBM1(cosh)
SHARDGEN_COMPLEX_LIBM1(sqrt)
SHARDGEN_COMPLEX_LIBM1(fabs)
SHARDGEN_COMPLEX_LIBM2(atan2)
SHARDGEN_COMPLEX_LIBM2(hypot)
SHARDGEN_COMPLEX_LIBM2(copysign)
#undef SHARDGEN_COMPLEX_LIBM1
#undef SHARDGEN_COMPLEX_LIBM2

template <typename T> SHARDGEN_COMPLEX_INLINE bool isnan(T x) { return x != x; }

/// a * b rounded on its own: an asm barrier the compiler cannot see
/// through, so no sum it meets becomes a fused multiply-add.
template <typename T> SHARDGEN_COMPLEX_INLINE T product(T a, T b) {
  T p = a * b;
#if defined(__x86_64__) || defined(__i386__)
  __asm__("" : "+x"(p));
#elif defined(__aarch64__)
  __asm__("" : "+w"(p));
#else
  __asm__("" : "+m"(p));
#endif
  return p;
}

template <typename T> using C = Complex<T>;

template <typename T> SHARDGEN_COMPLEX_INLINE C<T> add(C<T> a, C<T> b) {
  return {a.re + b.re, a.im + b.im};
}
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> subtract(C<T> a, C<T> b) {
  return {a.re - b.re, a.im - b.im};
}
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> negate(C<T> a) { return {-a.re, -a.im}; }
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> multiply(C<T> a, C<T> b) {
  return {product(a.re, b.re) - product(a.im, b.im), product(a.re, b.im) + product(a.im, b.re)};
}
/// Smith's algorithm (no overflow in c^2 + d^2); x / 0 divides the parts by
/// the zero (inf or NaN).
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> divide(C<T> a, C<T> b) {
  if (b.re == T(0) && b.im == T(0))
    return {a.re / b.re, a.im / b.re};
  if (fabs(b.re) >= fabs(b.im)) {
    const T r = b.im / b.re, den = b.re + product(b.im, r);
    return {(a.re + product(a.im, r)) / den, (a.im - product(a.re, r)) / den};
  }
  const T r = b.re / b.im, den = b.im + product(b.re, r);
  return {(product(a.re, r) + a.im) / den, (product(a.im, r) - a.re) / den};
}
template <typename T> SHARDGEN_COMPLEX_INLINE T abs(C<T> a) { return hypot(a.re, a.im); }
/// z / |z|; zero stays, NaN in either part gives NaN in both.
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> sign(C<T> a) {
  if (isnan(a.re) || isnan(a.im))
    return {a.re + a.im, a.re + a.im};
  if (a.re == T(0) && a.im == T(0))
    return a;
  const T m = abs(a);
  return {a.re / m, a.im / m};
}
/// e^x (cos y + i sin y); a real operand gives a real result.
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> exp(C<T> a) {
  const T e = exp(a.re);
  if (a.im == T(0))
    return {e, a.im};
  return {product(e, cos(a.im)), product(e, sin(a.im))};
}
/// e^z - 1 without cancellation near 0: expm1(x) cos y - 2 sin^2(y / 2).
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> expm1(C<T> a) {
  const T half = sin(a.im * T(0.5));
  return {product(expm1(a.re), cos(a.im)) - product(T(2) * half, half),
          product(exp(a.re), sin(a.im))};
}
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> log(C<T> a) {
  return {log(abs(a)), atan2(a.im, a.re)};
}
/// The spec's formula: (log(hypot(x + 1, y)), atan2(y, x + 1)).
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> log1p(C<T> a) {
  const T x = a.re + T(1);
  return {log(hypot(x, a.im)), atan2(a.im, x)};
}
/// The principal root: real part >= 0, imaginary part of y's sign.
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> sqrt(C<T> a) {
  if (a.re == T(0) && a.im == T(0))
    return {T(0), a.im};
  const T t = sqrt((fabs(a.re) + abs(a)) * T(0.5));
  if (a.re >= T(0))
    return {t, a.im / (T(2) * t)};
  return {fabs(a.im) / (T(2) * t), copysign(t, a.im)};
}
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> rsqrt(C<T> a) {
  return divide(C<T>{T(1), T(0)}, sqrt(a));
}
/// exp(log(z) / 3), the principal cube root.
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> cbrt(C<T> a) {
  const C<T> l = log(a);
  return exp(C<T>{l.re / T(3), l.im / T(3)});
}
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> sin(C<T> a) {
  return {product(sin(a.re), cosh(a.im)), product(cos(a.re), sinh(a.im))};
}
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> cos(C<T> a) {
  return {product(cos(a.re), cosh(a.im)), -product(sin(a.re), sinh(a.im))};
}
/// (sinh 2x + i sin 2y) / (cosh 2x + cos 2y); past |x| = 20 the real part
/// is +-1 and the imaginary one 4 sin y cos y e^(-2|x|).
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> tanh(C<T> a) {
  if (fabs(a.re) > T(20))
    return {copysign(T(1), a.re),
            product(product(T(4) * sin(a.im), cos(a.im)), exp(T(-2) * fabs(a.re)))};
  const T den = cosh(T(2) * a.re) + cos(T(2) * a.im);
  return {sinh(T(2) * a.re) / den, sin(T(2) * a.im) / den};
}
/// tan z = -i tanh(i z).
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> tan(C<T> a) {
  const C<T> t = tanh(C<T>{-a.im, a.re});
  return {t.im, -t.re};
}
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> logistic(C<T> a) {
  const C<T> one{T(1), T(0)};
  return divide(one, add(one, exp(negate(a))));
}
/// exp(w log z); 0^w is 1 for w = 0, 0 for Re w > 0 and NaN otherwise.
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> power(C<T> z, C<T> w) {
  if (z.re == T(0) && z.im == T(0)) {
    if (w.re == T(0) && w.im == T(0))
      return {T(1), T(0)};
    if (w.re > T(0))
      return {T(0), T(0)};
    const T nan = __builtin_nan("");
    return {nan, nan};
  }
  return exp(multiply(w, log(z)));
}

// Comparisons: EQ and NE on both parts; the orderings lexicographic on
// (real, imaginary), as StableHLO's compare, maximum and minimum.
template <typename T> SHARDGEN_COMPLEX_INLINE bool equal(C<T> a, C<T> b) {
  return a.re == b.re && a.im == b.im;
}
template <typename T> SHARDGEN_COMPLEX_INLINE bool less(C<T> a, C<T> b) {
  return a.re < b.re || (a.re == b.re && a.im < b.im);
}
template <typename T> SHARDGEN_COMPLEX_INLINE bool lessEqual(C<T> a, C<T> b) {
  return a.re < b.re || (a.re == b.re && a.im <= b.im);
}
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> maximum(C<T> a, C<T> b) {
  return less(b, a) ? a : b;
}
template <typename T> SHARDGEN_COMPLEX_INLINE C<T> minimum(C<T> a, C<T> b) {
  return less(a, b) ? a : b;
}

#undef SHARDGEN_COMPLEX_INLINE

} // namespace complexmath

template <typename T> inline bool operator==(Complex<T> a, Complex<T> b) {
  return complexmath::equal(a, b);
}
template <typename T> inline bool operator!=(Complex<T> a, Complex<T> b) {
  return !complexmath::equal(a, b);
}
template <typename T> inline bool operator<(Complex<T> a, Complex<T> b) {
  return complexmath::less(a, b);
}
template <typename T> inline bool operator<=(Complex<T> a, Complex<T> b) {
  return complexmath::lessEqual(a, b);
}
template <typename T> inline bool operator>(Complex<T> a, Complex<T> b) {
  return complexmath::less(b, a);
}
template <typename T> inline bool operator>=(Complex<T> a, Complex<T> b) {
  return complexmath::lessEqual(b, a);
}

} // namespace shardgen::runtime::elements
