// The ops that read an element's bits rather than its value, with the
// StableHLO spec's semantics: is_finite (the exponent field), reduce_precision
// (rounds the fields to a narrower format, as XLA) and bitcast_convert (the
// bits under another type; i1 is one bit).

#include <cmath>
#include <cstring>

#include "compiler/interp/ElementTraits.h"
#include "compiler/interp/Kernels.h"
#include "compiler/ir/InternalError.h"

namespace shardgen::interp {

namespace {

/// An IEEE binary format: sign, exponent and mantissa (trailing significand) fields.
struct FloatFormat {
  int64_t exponentBits, mantissaBits;
  size_t bytes;
};

FloatFormat formatOf(ElementType type) {
  switch (type) {
  case ElementType::F16:
    return {5, 10, 2};
  case ElementType::BF16:
    return {8, 7, 2};
  case ElementType::F32:
    return {8, 23, 4};
  case ElementType::F64:
    return {11, 52, 8};
  default:
    throw InternalError("reduce_precision of a non-float type");
  }
}

uint64_t lowMask(int64_t bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

/// The spec's three steps on the bits of one element of `format`: round the
/// mantissa to `mantissaBits` (ties to even; a carry moves into the
/// exponent), then an exponent beyond `exponentBits`' range overflows to
/// infinity or underflows to zero (the narrow format's subnormals included,
/// as XLA), both with the original sign. NaN stays as it is (infinity
/// when no mantissa bit is left).
uint64_t reducePrecisionBits(uint64_t bits, FloatFormat format, int64_t exponentBits,
                             int64_t mantissaBits) {
  const int64_t e = format.exponentBits, m = format.mantissaBits;
  const uint64_t exponentMask = lowMask(e) << m, signBit = uint64_t(1) << (e + m);
  const bool nan = (bits & exponentMask) == exponentMask && (bits & lowMask(m)) != 0;
  // A format without mantissa bits has no NaN: infinity, with the sign (the
  // StableHLO interpreter's e5m0 test).
  if (nan)
    return mantissaBits > 0 ? bits : (bits & signBit) | exponentMask;
  if (mantissaBits < m) {
    const int64_t dropped = m - mantissaBits;
    const uint64_t lastKept = (bits >> dropped) & 1;
    const uint64_t halfMinusOne = (uint64_t(1) << (dropped - 1)) - 1;
    bits = (bits + halfMinusOne + lastKept) & ~lowMask(dropped);
  }
  if (exponentBits < e) {
    const int64_t bias = (int64_t(1) << (e - 1)) - 1;
    const int64_t reducedBias = (int64_t(1) << (exponentBits - 1)) - 1;
    const auto exponent = static_cast<int64_t>((bits & exponentMask) >> m);
    if (exponent > bias + reducedBias)
      bits = (bits & signBit) | exponentMask;
    else if (exponent <= bias - reducedBias)
      bits = bits & signBit;
  }
  return bits;
}

} // namespace

Literal evalIsFinite(const Literal &operand) {
  Literal out(TensorType{ElementType::I1, operand.shape()});
  uint8_t *result = out.as<uint8_t>();
  for (int64_t i = 0, n = operand.numElements(); i < n; ++i)
    result[i] = std::isfinite(operand.getFloat(i)) ? 1 : 0;
  return out;
}

Literal evalReducePrecision(const Literal &operand, int64_t exponentBits, int64_t mantissaBits) {
  const FloatFormat format = formatOf(operand.elementType());
  Literal out(operand.type());
  for (int64_t i = 0, n = operand.numElements(); i < n; ++i) {
    uint64_t bits = 0;
    std::memcpy(&bits, operand.data() + i * format.bytes, format.bytes); // little endian
    bits = reducePrecisionBits(bits, format, exponentBits, mantissaBits);
    std::memcpy(out.data() + i * format.bytes, &bits, format.bytes);
  }
  return out;
}

Literal evalBitcastConvert(const Literal &operand, const TensorType &resultType) {
  Literal out(resultType);
  const bool fromBool = operand.elementType() == ElementType::I1;
  if (fromBool != (resultType.elementType == ElementType::I1)) {
    // i1 is one bit (the spec's num_bits): wide element i is i1 elements
    // [i * n, (i + 1) * n), the first its lowest bit.
    const Literal &wide = fromBool ? out : operand;
    const size_t bytes = elementByteWidth(wide.elementType()), n = bytes * 8;
    for (int64_t i = 0; i < wide.numElements(); ++i) {
      uint64_t bits = 0;
      if (fromBool) {
        for (size_t j = 0; j < n; ++j)
          bits |= static_cast<uint64_t>(
                      operand.getInt(i * static_cast<int64_t>(n) + static_cast<int64_t>(j)) != 0)
                  << j;
        std::memcpy(out.data() + i * bytes, &bits, bytes);
      } else {
        std::memcpy(&bits, operand.data() + i * bytes, bytes);
        for (size_t j = 0; j < n; ++j)
          out.setInt(i * static_cast<int64_t>(n) + static_cast<int64_t>(j), (bits >> j) & 1);
      }
    }
    return out;
  }
  // Row-major elements, each little endian (as the spec's example and XLA's
  // CPU): a wide element's bytes are its narrow pieces along the minor dim,
  // lowest first. So the whole tensor's bytes are the result's.
  SHARDGEN_CHECK(out.byteSize() == operand.byteSize(), "bitcast_convert changes the byte count");
  std::memcpy(out.data(), operand.data(), operand.byteSize());
  return out;
}

} // namespace shardgen::interp
