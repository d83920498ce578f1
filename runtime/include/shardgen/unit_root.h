#pragma once
// exp(-2 pi i k / n), the twiddle factors of the discrete Fourier transform,
// to within an ulp or two of R: the angle 2 pi k / n is q quarter turns
// plus phi in [-pi/4, pi/4], q and phi's numerator found with exact integer
// arithmetic (the octant of 8k / n), so cos and sin see a small argument
// whose rounding error is relative to itself, not to 2 pi. One copy for the
// reference interpreter (R = double, long double) and generated code (R =
// double: the fft kernel's tables); header-only and freestanding (see
// float16.h).

#include <stdint.h>

#include "complex.h" // beside this file: found from any include path

namespace shardgen::runtime::elements {

/// 0 <= k < n <= 2^60 (8k fits in 64 bits).
template <typename R> inline Complex<R> unitRoot(uint64_t k, uint64_t n) {
  const uint64_t eighths = 8 * k;
  const uint64_t octant = eighths / n, rest = eighths - octant * n;
  const R quarterPi = static_cast<R>(0.785398163397448309615660845819875721L);
  // octant even: octant/2 quarter turns plus (pi/4) rest/n; odd: the next
  // quarter turn minus (pi/4) (n - rest)/n.
  const bool odd = (octant & 1) != 0;
  const uint64_t quarters = (octant + (odd ? 1 : 0)) / 2;
  const R phi = odd ? -quarterPi * static_cast<R>(n - rest) / static_cast<R>(n)
                    : quarterPi * static_cast<R>(rest) / static_cast<R>(n);
  R c, s;
  if constexpr (sizeof(R) == sizeof(double)) {
    c = __builtin_cos(phi);
    s = __builtin_sin(phi);
  } else {
    c = __builtin_cosl(phi);
    s = __builtin_sinl(phi);
  }
  // exp(+i angle) is (c, s) turned by q quarter turns; the root its conjugate.
  switch (quarters & 3) {
  case 0:
    return {c, -s};
  case 1:
    return {-s, -c};
  case 2:
    return {-c, s};
  default:
    return {s, c};
  }
}

} // namespace shardgen::runtime::elements
