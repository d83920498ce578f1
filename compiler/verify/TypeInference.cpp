#include "compiler/verify/TypeInference.h"

#include "compiler/verify/InferenceRules.h"
#include "compiler/verify/ManualComputationVerifier.h"
#include "compiler/verify/Verifier.h"

namespace shardgen::verify {

namespace {

/// A custom_call's results are whatever the kernel returns: the file says.
std::vector<TensorType> customCallResultTypes(const InferenceContext &context) {
  std::vector<TensorType> types;
  for (size_t i = 0; i < context.op.results.size(); ++i) {
    if (i >= context.op.declaredTypes.size() || !context.op.declaredTypes[i])
      fail(context.op.pointer, context.opLabel() + " needs a type for each result (`type`, or "
                                                   "`types` for several results)");
    types.push_back(*context.op.declaredTypes[i]);
  }
  return types;
}

} // namespace

std::vector<TensorType> inferOpResultTypes(const Graph &graph, const Op &op,
                                           const ManualScope &scope) {
  InferenceContext context{graph, op, scope};
  if (isCollective(op.kind))
    verifyCollectivePlacement(context);
  verifyArity(context);
  if (isElementwise(op.kind))
    return {inferElementwise(context)};
  switch (op.kind) {
  case OpKind::Compare:
  case OpKind::Select:
  case OpKind::Clamp:
  case OpKind::Convert:
    return {inferElementwise(context)};
  case OpKind::ShardingConstraint:
  case OpKind::Distribute:
  case OpKind::PropagationBarrier:
    return {context.operand(0)};
  case OpKind::ShardingGroup:
    return {};
  case OpKind::CustomCall:
    return customCallResultTypes(context);
  case OpKind::ManualComputation:
    return manualComputationResultTypes(graph, op);
  case OpKind::Reduce:
    return inferReduce(context);
  default:
    break;
  }
  if (isCollective(op.kind))
    return {inferCollective(context)};
  return {inferShapeOp(context)};
}

void checkDeclaredTypes(const Op &op, const std::vector<TensorType> &inferred) {
  for (size_t i = 0; i < inferred.size() && i < op.declaredTypes.size(); ++i)
    if (op.declaredTypes[i] && *op.declaredTypes[i] != inferred[i])
      fail(resultTypePointer(op, i), "result type " + printType(*op.declaredTypes[i]) +
                                         " does not match the inferred type " +
                                         printType(inferred[i]));
}

} // namespace shardgen::verify

namespace shardgen {

std::vector<TensorType> inferResultTypes(const Graph &graph, const Op &op) {
  std::vector<TensorType> types = verify::inferOpResultTypes(graph, op, verify::scopeOf(graph, op));
  verify::checkDeclaredTypes(op, types);
  return types;
}

} // namespace shardgen
