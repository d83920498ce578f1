#include "compiler/verify/TypeInference.h"

#include "compiler/verify/InferenceRules.h"
#include "compiler/verify/ManualComputationVerifier.h"
#include "compiler/verify/Verifier.h"

namespace shardgen::verify {

/// A custom_call's results are whatever the kernel returns: the file says.
ResultTypes inferCustomCall(const InferenceContext &context) {
  ResultTypes types;
  for (size_t i = 0; i < context.op.results.size(); ++i) {
    if (i >= context.op.declaredTypes.size() || !context.op.declaredTypes[i])
      fail(context.op.pointer, context.opLabel() + " needs a type for each result (`type`, or "
                                                   "`types` for several results)");
    types.push_back(*context.op.declaredTypes[i]);
  }
  return types;
}

/// sharding_constraint, distribute, propagation_barrier.
ResultTypes inferIdentity(const InferenceContext &context) { return {context.operand(0)}; }

/// optimization_barrier: each operand passes through as its result.
ResultTypes inferOptimizationBarrier(const InferenceContext &context) {
  if (context.op.results.size() != context.numOperands())
    context.failAttr(context.op.pluralResults ? "results" : "result",
                     "has one result per operand (" + std::to_string(context.numOperands()) +
                         "), got " + std::to_string(context.op.results.size()));
  ResultTypes types;
  for (size_t i = 0; i < context.numOperands(); ++i)
    types.push_back(context.operand(i));
  return types;
}

/// sharding_group: it only ties shardings.
ResultTypes inferNoResult(const InferenceContext &) { return {}; }

ResultTypes inferManualComputation(const InferenceContext &context) {
  return manualComputationResultTypes(context.graph, context.op);
}

namespace {
using TypeRule = ResultTypes (*)(const InferenceContext &);
/// The table's `Infer` column, by kind.
constexpr TypeRule kTypeRules[] = {
#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, Bound, Mlir, Infer,  \
                    ...)                                                                           \
  &Infer,
#include "compiler/ops/Ops.def"
};
static_assert(std::size(kTypeRules) == kNumOpKinds);
} // namespace

std::vector<TensorType> inferOpResultTypes(const Graph &graph, const Op &op,
                                           const ManualScope &scope) {
  InferenceContext context{graph, op, scope};
  if (isCollective(op.kind))
    verifyCollectivePlacement(context);
  verifyArity(context);
  verifyTokenUses(context);
  std::vector<TensorType> types = kTypeRules[static_cast<size_t>(op.kind)](context);
  // Written types are refused past kMaxRank when parsed; an inferred one
  // (dot_general adds its operands' free dims) is held to the same bound,
  // or a chain of such ops doubles the rank at each step.
  for (size_t i = 0; i < types.size(); ++i)
    if (types[i].rank() > kMaxRank)
      fail(resultTypePointer(op, i), "the result would have " + std::to_string(types[i].rank()) +
                                         " dimensions, more than " + std::to_string(kMaxRank));
  return types;
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
