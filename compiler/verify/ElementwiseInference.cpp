#include "compiler/ops/OpTable.h"
#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {

namespace {

/// The element types StableHLO defines the op on (its row's `Elements`).
void checkElementKind(const InferenceContext &context, const TensorType &type) {
  const ElementType element = type.elementType;
  switch (opRow(context.op.kind).elements) {
  case ElementTypes::Any:
    return;
  case ElementTypes::Float:
    if (!isFloat(element) && !isComplex(element))
      context.failOp("requires floating-point or complex operands, got " + printType(type));
    return;
  case ElementTypes::RealFloat:
    if (!isFloat(element))
      context.failOp("requires floating-point operands, got " + printType(type));
    return;
  case ElementTypes::IntOrBool:
    if (isFloat(element) || isComplex(element))
      context.failOp("requires integer or i1 operands, got " + printType(type));
    return;
  case ElementTypes::NotBool:
  case ElementTypes::SignedOrFloat:
    // The spec's "integer" excludes boolean.
    if (element == ElementType::I1)
      context.failOp("requires integer or floating-point operands, got " + printType(type));
    if (opRow(context.op.kind).elements == ElementTypes::SignedOrFloat &&
        isUnsignedInteger(element))
      context.failOp("requires signed integer or floating-point operands, got " + printType(type));
    return;
  case ElementTypes::Int:
    if (isFloat(element) || isComplex(element) || element == ElementType::I1)
      context.failOp("requires integer operands, got " + printType(type));
    // Their kernels count the storage byte's bits, not the type's.
    if (subByteBits(element) != 0)
      context.failOp("is not supported on sub-byte integers (i2, i4, ui2, ui4), got " +
                     printType(type));
    return;
  }
}

/// Complex operands: only the ops shardgen computes on them (the spec leaves
/// remainder on complex numbers undefined; an op added later is refused
/// until it has its complex function).
void checkComplexDefined(const InferenceContext &context, const TensorType &type) {
  if (isComplex(type.elementType) && !definedOnComplex(context.op.kind))
    context.failOp("is not defined on complex operands, got " + printType(type));
}

void requireSameType(const InferenceContext &context, const TensorType &a, const TensorType &b) {
  if (a != b)
    context.failOp("requires compatible types for all operands and results, got " + printType(a) +
                   " and " + printType(b));
}

/// select's predicate and clamp's bounds: a scalar or the operand's shape.
bool isScalarOrShape(const TensorType &type, const Shape &shape) {
  return type.rank() == 0 || type.shape == shape;
}

} // namespace

ResultTypes inferSelect(const InferenceContext &context) {
  const TensorType &pred = context.operand(0);
  const TensorType &onTrue = context.operand(1);
  const TensorType &onFalse = context.operand(2);
  if (pred.elementType != ElementType::I1)
    context.failOp("requires a predicate of element type i1, got " + printType(pred));
  requireSameType(context, onTrue, onFalse);
  if (!isScalarOrShape(pred, onTrue.shape))
    context.failOp("requires a scalar predicate or one of the operands' shape, got " +
                   printType(pred) + " for " + printType(onTrue));
  return {onTrue};
}

ResultTypes inferClamp(const InferenceContext &context) {
  const TensorType &min = context.operand(0);
  const TensorType &operand = context.operand(1);
  const TensorType &max = context.operand(2);
  for (const TensorType *bound : {&min, &max}) {
    if (bound->elementType != operand.elementType)
      context.failOp("requires min, operand and max of the same element type, got " +
                     printType(*bound) + " and " + printType(operand));
    if (!isScalarOrShape(*bound, operand.shape))
      context.failOp("min and max must be scalars or have the operand's shape, got " +
                     printType(*bound) + " for " + printType(operand));
  }
  return {operand};
}

ResultTypes inferConvert(const InferenceContext &context) {
  const TensorType &operand = context.operand(0);
  const TensorType &result = context.requireDeclared(0);
  if (operand.shape != result.shape)
    context.failOp("requires the same shape for operand and result, got " + printType(operand) +
                   " and " + printType(result));
  return {result};
}

ResultTypes inferCompare(const InferenceContext &context) {
  requireSameType(context, context.operand(0), context.operand(1));
  // StableHLO's C3: the compare type follows the element type; floats
  // take FLOAT or TOTALORDER, complex values FLOAT.
  const auto &attrs = context.attrs<CompareAttrs>();
  if (attrs.compareTypeGiven) {
    const ElementType element = context.operand(0).elementType;
    const bool valid = isFloat(element)     ? attrs.compareType == "FLOAT" || attrs.totalOrder()
                       : isComplex(element) ? attrs.compareType == "FLOAT"
                       : isSignedInteger(element) ? attrs.compareType == "SIGNED"
                                                  : attrs.compareType == "UNSIGNED";
    if (!valid)
      context.failAttr("compare_type",
                       "compare type \"" + attrs.compareType + "\" does not fit " +
                           printType(context.operand(0)) +
                           " (FLOAT or TOTALORDER for floats, FLOAT for complex values, SIGNED "
                           "for signed integers, UNSIGNED for unsigned integers and i1)");
  }
  return {TensorType{ElementType::I1, context.operand(0).shape}};
}

ResultTypes inferIsFinite(const InferenceContext &context) {
  const TensorType &operand = context.operand(0);
  checkElementKind(context, operand);
  return {TensorType{ElementType::I1, operand.shape}};
}

ResultTypes inferReducePrecision(const InferenceContext &context) {
  const TensorType &operand = context.operand(0);
  checkElementKind(context, operand);
  if (isMiniFloat(operand.elementType)) // its kernels take IEEE formats' fields
    context.failOp("is not supported on 8-, 6- and 4-bit floats, got " + printType(operand));
  const auto &attrs = context.attrs<ReducePrecisionAttrs>();
  if (attrs.exponentBits < 1)
    context.failAttr("exponent_bits",
                     "exponent_bits must be at least 1, got " + std::to_string(attrs.exponentBits));
  if (attrs.mantissaBits < 0)
    context.failAttr("mantissa_bits",
                     "mantissa_bits must be at least 0, got " + std::to_string(attrs.mantissaBits));
  return {operand};
}

/// Unary and binary elementwise ops: operands of one type, the element types
/// of the op's row.
ResultTypes inferElementwise(const InferenceContext &context) {
  const TensorType &first = context.operand(0);
  for (size_t i = 1; i < context.numOperands(); ++i)
    requireSameType(context, first, context.operand(i));
  checkElementKind(context, first);
  checkComplexDefined(context, first);
  if (context.op.kind == OpKind::Abs && isComplex(first.elementType))
    return {TensorType{complexPartType(first.elementType), first.shape}}; // the modulus
  return {first};
}

/// real and imag: a float or complex operand, a result of its part type.
ResultTypes inferComplexPart(const InferenceContext &context) {
  const TensorType &operand = context.operand(0);
  if (!isFloat(operand.elementType) && !isComplex(operand.elementType))
    context.failOp("requires a floating-point or complex operand, got " + printType(operand));
  return {TensorType{complexPartType(operand.elementType), operand.shape}};
}

/// complex: two f32 or two f64 operands of one type, a complex result.
ResultTypes inferComplex(const InferenceContext &context) {
  const TensorType &lhs = context.operand(0);
  requireSameType(context, lhs, context.operand(1));
  if (lhs.elementType != ElementType::F32 && lhs.elementType != ElementType::F64)
    context.failOp("requires f32 or f64 operands, got " + printType(lhs));
  return {TensorType{complexOf(lhs.elementType), lhs.shape}};
}

} // namespace shardgen::verify
