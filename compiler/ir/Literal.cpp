#include "compiler/ir/Literal.h"

#include <cstdint>
#include <cstring>

#include "compiler/ir/Float16.h"
#include "compiler/ir/InternalError.h"
#include "runtime/include/shardgen/element_types.h"

namespace shardgen {

namespace {

/// Saturating, NaN to 0: a float out of int64's range (or infinite) cast
/// to an integer is undefined behaviour.
int64_t saturatingInt64(double value) {
  if (value != value)
    return 0;
  if (value >= 9.2233720368547758e18)
    return INT64_MAX;
  if (value <= -9.2233720368547758e18)
    return INT64_MIN;
  return static_cast<int64_t>(value);
}

} // namespace

Literal::Literal(TensorType type)
    : type_(std::move(type)), bytes_(type_.numElements() * elementByteWidth(type_.elementType)) {}

std::vector<int64_t> Literal::strides() const {
  std::vector<int64_t> strides(type_.shape.size());
  int64_t stride = 1;
  for (size_t i = type_.shape.size(); i-- > 0;) {
    strides[i] = stride;
    stride *= type_.shape[i];
  }
  return strides;
}

double Literal::getFloat(int64_t i) const {
  switch (type_.elementType) {
  case ElementType::F32:
    return as<float>()[i];
  case ElementType::F64:
    return as<double>()[i];
  case ElementType::F16:
    return halfToFloat(as<uint16_t>()[i]);
  case ElementType::BF16:
    return bfloat16ToFloat(as<uint16_t>()[i]);
  case ElementType::UI64:
    return static_cast<double>(as<uint64_t>()[i]);
  case ElementType::C64:
    return as<float>()[2 * i];
  case ElementType::C128:
    return as<double>()[2 * i];
#define SHARDGEN_MINI_FLOAT_GET(Name, mlirName)                                                    \
  case ElementType::Name:                                                                          \
    return runtime::elements::Name::load(as<uint8_t>()[i]);
    SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_GET)
#undef SHARDGEN_MINI_FLOAT_GET
  default:
    return static_cast<double>(getInt(i));
  }
}

int64_t Literal::getInt(int64_t i) const {
  switch (type_.elementType) {
  case ElementType::I1:
    return as<uint8_t>()[i] != 0;
  case ElementType::I8:
    return as<int8_t>()[i];
  case ElementType::I32:
    return as<int32_t>()[i];
  case ElementType::I64:
    return as<int64_t>()[i];
  case ElementType::UI8:
    return as<uint8_t>()[i];
  case ElementType::UI32:
    return as<uint32_t>()[i];
  case ElementType::I16:
    return as<int16_t>()[i];
  case ElementType::UI16:
    return as<uint16_t>()[i];
  case ElementType::UI64: // the bits: 2^63 and above read negative
    return static_cast<int64_t>(as<uint64_t>()[i]);
  case ElementType::I2:
  case ElementType::I4:
    return as<int8_t>()[i];
  case ElementType::UI2:
  case ElementType::UI4:
    return as<uint8_t>()[i];
  case ElementType::Token:
    throw InternalError("a !stablehlo.token has no elements to read");
  default:
    return saturatingInt64(getFloat(i));
  }
}

std::string Literal::integerText(int64_t i) const {
  if (type_.elementType == ElementType::UI64)
    return std::to_string(as<uint64_t>()[i]);
  return std::to_string(getInt(i));
}

void Literal::setFloat(int64_t i, double value) {
  switch (type_.elementType) {
  case ElementType::F32:
    as<float>()[i] = static_cast<float>(value);
    return;
  case ElementType::F64:
    as<double>()[i] = value;
    return;
  case ElementType::F16:
    as<uint16_t>()[i] = floatToHalf(static_cast<float>(value));
    return;
  case ElementType::BF16:
    as<uint16_t>()[i] = floatToBfloat16(static_cast<float>(value));
    return;
  case ElementType::UI64:
    as<uint64_t>()[i] = value >= 18446744073709551615.0 ? UINT64_MAX
                        : value > 0                     ? static_cast<uint64_t>(value)
                                                        : 0; // NaN too
    return;
  case ElementType::C64:
  case ElementType::C128:
    setComplex(i, value, 0);
    return;
#define SHARDGEN_MINI_FLOAT_SET(Name, mlirName)                                                    \
  case ElementType::Name: /* one rounding from the double */                                       \
    as<uint8_t>()[i] = runtime::elements::Name::exact(value);                                      \
    return;
    SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_MINI_FLOAT_SET)
#undef SHARDGEN_MINI_FLOAT_SET
  default:
    setInt(i, saturatingInt64(value));
    return;
  }
}

void Literal::setInt(int64_t i, int64_t value) {
  switch (type_.elementType) {
  case ElementType::I1:
    as<uint8_t>()[i] = value != 0;
    return;
  case ElementType::I8:
    as<int8_t>()[i] = static_cast<int8_t>(value);
    return;
  case ElementType::I32:
    as<int32_t>()[i] = static_cast<int32_t>(value);
    return;
  case ElementType::I64:
    as<int64_t>()[i] = value;
    return;
  case ElementType::UI8:
    as<uint8_t>()[i] = static_cast<uint8_t>(value);
    return;
  case ElementType::UI32:
    as<uint32_t>()[i] = static_cast<uint32_t>(value);
    return;
  case ElementType::I16:
    as<int16_t>()[i] = static_cast<int16_t>(value);
    return;
  case ElementType::UI16:
    as<uint16_t>()[i] = static_cast<uint16_t>(value);
    return;
  case ElementType::UI64:
    as<uint64_t>()[i] = static_cast<uint64_t>(value);
    return;
  case ElementType::I2:
  case ElementType::I4: { // wraps to the type's bits, sign-extended
    const int64_t sign = int64_t(1) << (subByteBits(type_.elementType) - 1);
    as<int8_t>()[i] = static_cast<int8_t>(((value & (2 * sign - 1)) ^ sign) - sign);
    return;
  }
  case ElementType::UI2:
  case ElementType::UI4:
    as<uint8_t>()[i] = static_cast<uint8_t>(value & ((1 << subByteBits(type_.elementType)) - 1));
    return;
  case ElementType::Token:
    throw InternalError("a !stablehlo.token has no elements to write");
  default:
    setFloat(i, static_cast<double>(value));
    return;
  }
}

} // namespace shardgen

namespace shardgen {

double Literal::getImag(int64_t i) const {
  switch (type_.elementType) {
  case ElementType::C64:
    return as<float>()[2 * i + 1];
  case ElementType::C128:
    return as<double>()[2 * i + 1];
  default:
    return 0;
  }
}

void Literal::setComplex(int64_t i, double real, double imag) {
  if (type_.elementType == ElementType::C64) {
    as<float>()[2 * i] = static_cast<float>(real);
    as<float>()[2 * i + 1] = static_cast<float>(imag);
  } else if (type_.elementType == ElementType::C128) {
    as<double>()[2 * i] = real;
    as<double>()[2 * i + 1] = imag;
  } else {
    setFloat(i, real);
  }
}

} // namespace shardgen
