#pragma once
// StableHLO's TOTALORDER comparison (IEEE 754 totalOrder) as an integer key
// per element: comparing keys as integers orders -NaN < -inf < negative
// finites < -0 < +0 < positive finites < +inf < +NaN, NaNs by payload. The
// key is taken from the stored bits (an f16 NaN keeps its payload). On
// integers and i1 the key is the value: their total order is the usual one.
// One copy for the reference interpreter and generated code; header-only.

#include <stdint.h>

#include "element_types.h" // beside this file: found from any include path

namespace shardgen::runtime::elements {

/// A float's bits as a signed integer whose order is totalOrder's: a
/// negative value (sign bit set) has its magnitude bits flipped so that a
/// larger magnitude sorts lower.
template <typename Signed, typename Unsigned>
inline __attribute__((always_inline)) Signed totalOrderBits(Unsigned bits) {
  const Signed key = static_cast<Signed>(bits);
  // Unsigned(~0): a 16-bit ~0 is an int, -1, whose shift keeps the sign bit.
  const Signed magnitude = static_cast<Signed>(static_cast<Unsigned>(~Unsigned(0)) >> 1);
  return key < 0 ? static_cast<Signed>(key ^ magnitude) : key;
}

template <typename E> struct TotalOrder {
  static inline __attribute__((always_inline)) auto key(typename E::Storage x) {
    return E::load(x);
  }
};
template <> struct TotalOrder<F32> {
  static inline __attribute__((always_inline)) int32_t key(float x) {
    return totalOrderBits<int32_t>(__builtin_bit_cast(uint32_t, x));
  }
};
template <> struct TotalOrder<F64> {
  static inline __attribute__((always_inline)) int64_t key(double x) {
    return totalOrderBits<int64_t>(__builtin_bit_cast(uint64_t, x));
  }
};
template <> struct TotalOrder<F16> {
  static inline __attribute__((always_inline)) int16_t key(uint16_t x) {
    return totalOrderBits<int16_t>(x);
  }
};
template <> struct TotalOrder<BF16> {
  static inline __attribute__((always_inline)) int16_t key(uint16_t x) {
    return totalOrderBits<int16_t>(x);
  }
};
/// The 8-, 6- and 4-bit floats: the key of their (exact) float value; the
/// FNUZ formats' one NaN and E8M0FNU's sort as a positive NaN.
template <typename E>
  requires isMiniFloat<E>
struct TotalOrder<E> {
  static inline __attribute__((always_inline)) int32_t key(uint8_t x) {
    return totalOrderBits<int32_t>(__builtin_bit_cast(uint32_t, E::load(x)));
  }
};

} // namespace shardgen::runtime::elements
