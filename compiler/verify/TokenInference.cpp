// Tokens (`!stablehlo.token`): the ops that make them and the ops that may
// carry them. A token holds no data, so an op that computes on elements
// must never see one.

#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {

namespace {
/// The ops a token may pass through: after_all joins them; the data-flow
/// ops (optimization_barrier, while, case, if) and manual_computation carry
/// them unchanged; a custom_call is the program's own code. (case's index
/// and if's pred are checked by their rules: a token is no integer.)
bool takesTokens(OpKind kind) {
  return kind == OpKind::AfterAll || kind == OpKind::CustomCall ||
         kind == OpKind::ManualComputation || opCategory(kind) == OpCategory::DataFlow;
}
} // namespace

void verifyTokenUses(const InferenceContext &context) {
  if (takesTokens(context.op.kind))
    return;
  for (size_t i = 0; i < context.numOperands(); ++i)
    if (context.operand(i).isToken())
      fail(context.op.pointer + "/operands/" + std::to_string(i),
           context.opLabel() + " takes tensors, but operand " + std::to_string(i) +
               " is a !stablehlo.token (a token holds no data: only after_all, "
               "optimization_barrier, while, case, if, manual_computation and custom_call "
               "take one)");
  for (size_t i = 0; i < context.op.declaredTypes.size(); ++i)
    if (context.op.declaredTypes[i] && context.op.declaredTypes[i]->isToken())
      fail(resultTypePointer(context.op, i),
           context.opLabel() + " makes tensors, not a !stablehlo.token (after_all makes one)");
}

/// after_all: (I1) every input is a token; the result is a token.
ResultTypes inferAfterAll(const InferenceContext &context) {
  for (size_t i = 0; i < context.numOperands(); ++i)
    if (!context.operand(i).isToken())
      fail(context.op.pointer + "/operands/" + std::to_string(i),
           context.opLabel() + " joins tokens, but operand " + std::to_string(i) + " is " +
               printType(context.operand(i)));
  return {tokenType()};
}

} // namespace shardgen::verify
