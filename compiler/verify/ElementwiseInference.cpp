#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {

namespace {

bool isIntegerOrBool(ElementType type) { return !isFloat(type); }

/// Unary ops defined on floating-point values only (StableHLO's
/// HLO_FpOrComplexTensor).
bool isFloatOnly(OpKind kind) {
  switch (kind) {
  case OpKind::Exponential:
  case OpKind::Log:
  case OpKind::Tanh:
  case OpKind::Sqrt:
  case OpKind::Rsqrt:
  case OpKind::Logistic:
  case OpKind::Floor:
  case OpKind::Ceil:
  case OpKind::Sine:
  case OpKind::Cosine:
    return true;
  default:
    return false;
  }
}

/// Bitwise ops, defined on integers and i1 (StableHLO's HLO_PredOrIntTensor).
bool isBitwise(OpKind kind) {
  return kind == OpKind::And || kind == OpKind::Or || kind == OpKind::Xor || kind == OpKind::Not;
}

/// Arithmetic StableHLO defines on integers and floats but not on i1
/// (HLO_IntFpOrComplexTensor): the spec's "integer" excludes boolean.
bool rejectsBool(OpKind kind) {
  switch (kind) {
  case OpKind::Negate:
  case OpKind::Abs:
  case OpKind::Sign:
  case OpKind::Subtract:
  case OpKind::Divide:
  case OpKind::Remainder:
  case OpKind::Power:
    return true;
  default:
    return false;
  }
}

/// Ops on signed values only (HLO_SIntFpOrComplexTensor): no unsigned integers.
bool rejectsUnsigned(OpKind kind) { return kind == OpKind::Abs || kind == OpKind::Sign; }

void checkElementKind(const InferenceContext &context, const TensorType &type) {
  const OpKind kind = context.op.kind;
  if (isFloatOnly(kind) && !isFloat(type.elementType))
    context.failOp("requires floating-point operands, got " + printType(type));
  if (isBitwise(kind) && !isIntegerOrBool(type.elementType))
    context.failOp("requires integer or i1 operands, got " + printType(type));
  if (rejectsBool(kind) && type.elementType == ElementType::I1)
    context.failOp("requires integer or floating-point operands, got " + printType(type));
  if (rejectsUnsigned(kind) && isUnsignedInteger(type.elementType))
    context.failOp("requires signed integer or floating-point operands, got " + printType(type));
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

TensorType inferSelect(const InferenceContext &context) {
  const TensorType &pred = context.operand(0);
  const TensorType &onTrue = context.operand(1);
  const TensorType &onFalse = context.operand(2);
  if (pred.elementType != ElementType::I1)
    context.failOp("requires a predicate of element type i1, got " + printType(pred));
  requireSameType(context, onTrue, onFalse);
  if (!isScalarOrShape(pred, onTrue.shape))
    context.failOp("requires a scalar predicate or one of the operands' shape, got " +
                   printType(pred) + " for " + printType(onTrue));
  return onTrue;
}

TensorType inferClamp(const InferenceContext &context) {
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
  return operand;
}

TensorType inferConvert(const InferenceContext &context) {
  const TensorType &operand = context.operand(0);
  const TensorType &result = context.requireDeclared(0);
  if (operand.shape != result.shape)
    context.failOp("requires the same shape for operand and result, got " + printType(operand) +
                   " and " + printType(result));
  return result;
}

} // namespace

TensorType inferElementwise(const InferenceContext &context) {
  switch (context.op.kind) {
  case OpKind::Select:
    return inferSelect(context);
  case OpKind::Clamp:
    return inferClamp(context);
  case OpKind::Convert:
    return inferConvert(context);
  case OpKind::Compare: {
    requireSameType(context, context.operand(0), context.operand(1));
    return TensorType{ElementType::I1, context.operand(0).shape};
  }
  default:
    break;
  }
  const TensorType &first = context.operand(0);
  for (size_t i = 1; i < context.numOperands(); ++i)
    requireSameType(context, first, context.operand(i));
  checkElementKind(context, first);
  return first;
}

} // namespace shardgen::verify
