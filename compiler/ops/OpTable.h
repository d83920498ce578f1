#pragma once
// The declarative part of each op's row (Ops.def): operand and result
// signatures, attribute schema, element types, error-bound class, MLIR
// dialect. Stage code asks here instead of switching over kinds; the
// stages' own per-op functions are their columns of the same rows.

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "compiler/ir/Attributes.h"
#include "compiler/ir/OpKind.h"

namespace shardgen {

/// What an operand is to the op: data it computes with or moves, or an
/// index that says where (the bound of a result that moves data is the
/// bound of the element moved, provided the indices are exact).
enum class OperandRole : uint8_t { Data, Index };

/// One operand, or a variadic run of them.
struct OperandGroup {
  OperandRole role = OperandRole::Data;
  bool variadic = false;
  uint8_t minimum = 1; // operands the group needs (exactly 1 when not variadic)
};

/// The groups of an op's operands, in order.
struct OperandList {
  static constexpr size_t kMaxGroups = 4;
  constexpr OperandList(std::initializer_list<OperandGroup> list) {
    for (const OperandGroup &group : list)
      groups[size++] = group;
  }
  constexpr std::span<const OperandGroup> all() const { return {groups, size}; }
  /// Operands needed at least, and whether more may follow.
  constexpr size_t minimum() const {
    size_t count = 0;
    for (size_t i = 0; i < size; ++i)
      count += groups[i].minimum;
    return count;
  }
  constexpr bool variadic() const {
    for (size_t i = 0; i < size; ++i)
      if (groups[i].variadic)
        return true;
    return false;
  }

  size_t size = 0;
  OperandGroup groups[kMaxGroups] = {};
};

/// The operand groups the table's rows are written with.
namespace opsig {
inline constexpr OperandGroup tensor{OperandRole::Data, false, 1};
inline constexpr OperandGroup tensors{OperandRole::Data, true, 0};
inline constexpr OperandGroup tensors1{OperandRole::Data, true, 1};
inline constexpr OperandGroup indexScalars{OperandRole::Index, true, 0};
/// One integer tensor of start indices (gather's, scatter's).
inline constexpr OperandGroup indexTensor{OperandRole::Index, false, 1};
} // namespace opsig

enum class ResultArity : uint8_t {
  One,      // one result, its type inferred
  None,     // sharding_group
  Declared, // one result whose type cannot be inferred: the file gives it
  Variadic, // any number (custom_call, manual_computation)
};

/// The element types an elementwise op is defined on (StableHLO's operand
/// type constraints); other ops' type rules check their own.
enum class ElementTypes : uint8_t {
  Any,
  Float,         // HLO_FpOrComplexTensor
  IntOrBool,     // HLO_PredOrIntTensor: bitwise ops
  NotBool,       // HLO_IntFpOrComplexTensor: arithmetic the spec does not define on i1
  SignedOrFloat, // HLO_SIntFpOrComplexTensor: not i1, not unsigned
  Int,           // HLO_IntTensor: shifts, popcnt, count_leading_zeros (not i1)
  RealFloat,     // HLO_FpTensor: floats, not complex
};

/// The Elements column's values, as rows name them; by kind for templates.
namespace rowvalues {
inline constexpr ElementTypes anyType = ElementTypes::Any;
inline constexpr ElementTypes floatType = ElementTypes::Float;
inline constexpr ElementTypes intOrBoolType = ElementTypes::IntOrBool;
inline constexpr ElementTypes notBoolType = ElementTypes::NotBool;
inline constexpr ElementTypes signedOrFloatType = ElementTypes::SignedOrFloat;
inline constexpr ElementTypes intType = ElementTypes::Int;
inline constexpr ElementTypes realFloatType = ElementTypes::RealFloat;
inline constexpr ElementTypes kElementTypes[] = {
#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, ...) Elements,
#include "compiler/ops/Ops.def"
};
} // namespace rowvalues
constexpr ElementTypes opElementTypes(OpKind kind) {
  return rowvalues::kElementTypes[static_cast<size_t>(kind)];
}

/// The unary and binary elementwise ops shardgen computes on complex values
/// (StableHLO defines them there; interp/ComplexFunctions.h and the
/// kernels' ComplexOp functors hold each one's function, checked at build
/// time). The verifier refuses complex operands for any other: an op added
/// later is refused on them until it is listed here.
inline constexpr OpKind kComplexElementwiseOps[] = {
    OpKind::Add,   OpKind::Subtract,   OpKind::Multiply,    OpKind::Divide,
    OpKind::Power, OpKind::Maximum,    OpKind::Minimum,     OpKind::Negate,
    OpKind::Abs,   OpKind::Sign,       OpKind::Exponential, OpKind::ExponentialMinusOne,
    OpKind::Log,   OpKind::LogPlusOne, OpKind::Sqrt,        OpKind::Rsqrt,
    OpKind::Cbrt,  OpKind::Sine,       OpKind::Cosine,      OpKind::Tan,
    OpKind::Tanh,  OpKind::Logistic,
};
constexpr bool definedOnComplex(OpKind kind) {
  for (OpKind k : kComplexElementwiseOps)
    if (k == kind)
      return true;
  return false;
}

/// How far a compiled program's result may be from the interpreter's, given
/// its operands' bounds (interp/ErrorBounds.h). Every op states it: there
/// is no default.
enum class BoundClass : uint8_t {
  Exact,         // the same bits from the same operands (IEEE-rounded or exact math)
  MovesData,     // elements moved or copied: bounds move with them
  Sums,          // sums in another order (reassociation)
  Approximation, // within some ulp of the exact function (vectorized or libm math)
};

/// The MLIR dialect of an op's name; None: the op has no MLIR form.
/// (Chlo: an op JAX prints in the chlo dialect, chlo.top_k.)
enum class MlirDialect : uint8_t { StableHlo, Sdy, Shardgen, None, Chlo };

struct OpRow {
  OpKind kind;
  std::string_view name;
  OpCategory category;
  OperandList operands;
  ResultArity results;
  ElementTypes elements;
  BoundClass bound;
  MlirDialect dialect;
  /// The attribute struct's fields, in the spec table's key order.
  std::span<const AttrField> (*schema)();
  /// A default attribute struct of the op's kind (NoAttrs for none).
  Attributes (*emptyAttributes)();
};

const OpRow &opRow(OpKind kind);

/// The role of each of `count` operands of an op of `kind` (variadic groups
/// share equally what the fixed groups leave).
std::vector<OperandRole> operandRoles(OpKind kind, size_t count);

inline std::span<const AttrField> attributeSchema(OpKind kind) { return opRow(kind).schema(); }
/// The JSON keys of the op's attributes, in schema order.
std::span<const std::string_view> attributeKeys(OpKind kind);
/// The op's attribute struct with every field at its default.
inline Attributes emptyAttributes(OpKind kind) { return opRow(kind).emptyAttributes(); }
/// Fills the defaults that depend on other fields (a slice's strides: one per
/// start index), once every given field is read.
void completeDefaults(Attributes &attrs);
/// The struct inside `attrs` the schema's members point into.
void *attributeStruct(Attributes &attrs);
const void *attributeStruct(const Attributes &attrs);

/// The op's MLIR name ("stablehlo.add", "sdy.sharding_constraint"); empty
/// when it has none.
std::string mlirOpName(OpKind kind);

} // namespace shardgen
