#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {

namespace {

/// Operand count of each op, or -1 for "any number" (checked elsewhere).
int64_t expectedOperandCount(OpKind kind) {
  switch (opCategory(kind)) {
  case OpCategory::ElementwiseUnary:
    return 1;
  case OpCategory::ElementwiseBinary:
    return 2;
  default:
    break;
  }
  switch (kind) {
  case OpKind::Constant:
  case OpKind::Iota:
  case OpKind::AxisIndex:
    return 0;
  case OpKind::Compare:
  case OpKind::DotGeneral:
  case OpKind::Pad:
    return 2;
  case OpKind::Select:
  case OpKind::Clamp:
    return 3;
  case OpKind::Concatenate:
  case OpKind::CustomCall:
  case OpKind::ManualComputation:
  case OpKind::Reduce: // inputs and inits in pairs (inferReduce)
    return -1;
  default:
    return 1; // the remaining ops take one tensor
  }
}

/// Result count of each op, or -1 for "any number".
int64_t expectedResultCount(OpKind kind) {
  switch (kind) {
  case OpKind::ShardingGroup:
    return 0;
  case OpKind::CustomCall:
  case OpKind::ManualComputation:
  case OpKind::Reduce: // one per input (inferReduce)
    return -1;
  default:
    return 1;
  }
}

std::string plural(int64_t count, const std::string &noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

} // namespace

void verifyArity(const InferenceContext &context) {
  const Op &op = context.op;
  const int64_t operands = static_cast<int64_t>(op.operands.size());
  const int64_t expectedOperands = expectedOperandCount(op.kind);
  if (expectedOperands >= 0 && operands != expectedOperands)
    context.failAttr("operands", "takes " + plural(expectedOperands, "operand") + ", got " +
                                     std::to_string(operands));
  if (op.kind == OpKind::Concatenate && operands == 0)
    context.failAttr("operands", "takes at least 1 operand, got 0");

  const int64_t results = static_cast<int64_t>(op.results.size());
  const int64_t expectedResults = expectedResultCount(op.kind);
  if (expectedResults >= 0 && results != expectedResults)
    context.failAttr(op.pluralResults ? "results" : "result",
                     expectedResults == 0 ? "has no result, got " + std::to_string(results)
                                          : "has " + plural(expectedResults, "result") + ", got " +
                                                std::to_string(results));
}

} // namespace shardgen::verify
