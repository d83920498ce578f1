#pragma once
// Element types and static tensor types in MLIR's textual form.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/include/shardgen/minifloat.h"

namespace shardgen {

enum class ElementType {
  F32,
  F64,
  F16,
  BF16,
  I1,
  I8,
  I32,
  I64,
  UI8,
  UI32,
  I16,
  UI16,
  UI64,
  C64,  // complex<f32>
  C128, // complex<f64>
  I2,   // sub-byte integers: one byte per element holding a value in range
  I4,
  UI2,
  UI4,
  // StableHLO's `!stablehlo.token`: no data. A token is a TensorType of
  // this element type and rank 0 that takes no bytes; only the ops that
  // order effects (after_all) or carry values unchanged (optimization_barrier,
  // while, case, if, manual_computation, custom_call) take or give one.
  Token,
// The 8-, 6- and 4-bit floats (f8E4M3FN, ...): one byte per element
// holding the format's code (runtime/include/shardgen/minifloat.h).
#define SHARDGEN_ELEMENT_TYPE_ENUMERATOR(Name, mlirName) Name,
  SHARDGEN_FOR_EACH_MINI_FLOAT(SHARDGEN_ELEMENT_TYPE_ENUMERATOR)
#undef SHARDGEN_ELEMENT_TYPE_ENUMERATOR
};

std::string_view elementTypeName(ElementType type);
std::optional<ElementType> parseElementType(std::string_view text);
/// Bytes per element in memory (i1 takes one byte).
size_t elementByteWidth(ElementType type);
bool isFloat(ElementType type);
bool isSignedInteger(ElementType type);   // i8 i16 i32 i64
bool isUnsignedInteger(ElementType type); // ui8 ui16 ui32 ui64, and i1
/// Whether every value of `narrow` is a value of `wide` of the same kind
/// (float to a float with more exponent and mantissa bits, an integer to a
/// wider integer whose range contains it); not i1, not a type to itself.
bool holdsExactly(ElementType wide, ElementType narrow);
bool isComplex(ElementType type); // complex<f32> complex<f64>
/// The bits of a sub-byte integer type (i2 i4 ui2 ui4), else 0.
int subByteBits(ElementType type);
/// Whether `type` is an 8-, 6- or 4-bit float (isFloat holds for them too).
bool isMiniFloat(ElementType type);
/// The bits of a mini float's code (8, 6 or 4), else 0.
int miniFloatBits(ElementType type);
/// A complex type's part type (f32 or f64); other types are their own.
ElementType complexPartType(ElementType type);
/// The complex type whose parts are `part` (f32 or f64).
ElementType complexOf(ElementType part);
/// numpy's dtype descriptor ("<f4", "|b1", ...).
std::string_view numpyDescr(ElementType type);

using Shape = std::vector<int64_t>;

struct TensorType {
  ElementType elementType = ElementType::F32;
  Shape shape;

  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t numElements() const;
  bool isToken() const { return elementType == ElementType::Token; }
  bool operator==(const TensorType &) const = default;
};

/// The highest rank a type may have, written (parseType) or inferred (the
/// verifier). Every stage walks a tensor's dims, and the tools print values
/// as arrays nested once per dim: a bound keeps that work and depth small
/// whatever the input (real programs stay below 10).
inline constexpr int64_t kMaxRank = 64;

/// The most elements a tensor may have: larger sizes cannot be real
/// tensors and would overflow int64 arithmetic later (the verifier rejects
/// them, and so do the importer's expansions before it).
inline constexpr int64_t kMaxElementCount = int64_t(1) << 48;

/// Whether `type`'s element count is at most kMaxElementCount (its dims
/// non-negative), computed without overflow.
inline bool hasBoundedSize(const TensorType &type) {
  int64_t count = 1;
  for (int64_t dim : type.shape) {
    if (dim < 0 || (dim > 0 && count > kMaxElementCount / dim))
      return false;
    count *= dim;
  }
  return true;
}

/// The type of a token: `!stablehlo.token`.
inline TensorType tokenType() { return TensorType{ElementType::Token, {}}; }

/// "tensor<8x16xf32>", "tensor<f32>", "!stablehlo.token".
std::string printType(const TensorType &type);
/// Parses MLIR's tensor type syntax (at most kMaxRank dims) or
/// `!stablehlo.token`; returns nullopt
/// with `error` set on failure.
std::optional<TensorType> parseType(std::string_view text, std::string *error);

std::string printShape(const Shape &shape); // "8x16", "" for scalars
/// Integers separated by ", ": "2, 3".
std::string joinInts(const std::vector<int64_t> &values);

} // namespace shardgen
