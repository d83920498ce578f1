#include "compiler/interp/LocalOps.h"

#include "compiler/interp/Kernels.h"
#include "compiler/interp/ScalarRegion.h"
#include "compiler/ir/Diagnostic.h"

namespace shardgen::interp {

std::vector<Literal> evalLocalOp(const Graph &graph, const Op &op,
                                 const std::vector<const Literal *> &operands,
                                 shardgen_custom_call_fn customCall) {
  const auto resultType = [&]() -> const TensorType & { return graph.type(op.results.at(0)); };
  const auto one = [](Literal literal) {
    std::vector<Literal> results;
    results.push_back(std::move(literal));
    return results;
  };
  if (isElementwise(op.kind)) {
    if (opCategory(op.kind) == OpCategory::ElementwiseUnary)
      return one(evalUnary(op.kind, *operands[0]));
    return one(evalBinary(op.kind, *operands[0], *operands[1]));
  }
  switch (op.kind) {
  case OpKind::Constant:
    return one(op.attr<ConstantAttrs>().expanded());
  case OpKind::Iota:
    return one(evalIota(resultType(), op.attr<IotaAttrs>().iotaDimension));
  case OpKind::Compare:
    return one(evalCompare(op.attr<CompareAttrs>().direction, *operands[0], *operands[1]));
  case OpKind::Select:
    return one(evalSelect(*operands[0], *operands[1], *operands[2]));
  case OpKind::Clamp:
    return one(evalClamp(*operands[0], *operands[1], *operands[2]));
  case OpKind::Convert:
    return one(evalConvert(*operands[0], resultType().elementType));
  case OpKind::DotGeneral:
    return one(evalDotGeneral(*operands[0], *operands[1], op.attr<DotGeneralAttrs>()));
  case OpKind::Transpose:
    return one(evalTranspose(*operands[0], op.attr<TransposeAttrs>().permutation));
  case OpKind::Reshape:
    return one(evalReshape(*operands[0], resultType().shape));
  case OpKind::BroadcastInDim:
    return one(evalBroadcastInDim(*operands[0], op.attr<BroadcastInDimAttrs>().broadcastDimensions,
                                  resultType().shape));
  case OpKind::Reduce: {
    const auto &dims = op.attr<ReduceAttrs>().dimensions;
    if (std::optional<Reducer> reducer = simpleReducer(op))
      return one(evalReduce(*operands[0], *operands[1], dims, *reducer));
    const size_t n = operands.size() / 2;
    return evalReduceRegion(std::span(operands).first(n), std::span(operands).subspan(n), dims,
                            ScalarRegion(graph, *op.body()));
  }
  case OpKind::Concatenate:
    return one(evalConcatenate(operands, op.attr<ConcatenateAttrs>().dimension));
  case OpKind::Slice: {
    const auto &attrs = op.attr<SliceAttrs>();
    const std::vector<int64_t> unitStrides(attrs.startIndices.size(), 1);
    return one(evalSlice(*operands[0], attrs.startIndices, attrs.limitIndices,
                         attrs.strides.empty() ? unitStrides : attrs.strides));
  }
  case OpKind::Pad:
    return one(evalPad(*operands[0], *operands[1], op.attr<PadAttrs>()));
  case OpKind::Reverse:
    return one(evalReverse(*operands[0], op.attr<ReverseAttrs>().dimensions));
  case OpKind::ShardingConstraint:
  case OpKind::Distribute:
  case OpKind::PropagationBarrier:
    return one(*operands[0]); // identities
  case OpKind::OptimizationBarrier: {
    std::vector<Literal> results;
    for (const Literal *operand : operands)
      results.push_back(*operand);
    return results;
  }
  case OpKind::ShardingGroup:
    return {}; // only constrains shardings
  case OpKind::CustomCall: {
    std::vector<TensorType> resultTypes;
    for (ValueId result : op.results)
      resultTypes.push_back(graph.type(result));
    return callCustomCall(customCall, operands, resultTypes);
  }
  default:
    fail(op.pointer, std::string(op.name()) + " cannot run on one device by itself");
  }
}

} // namespace shardgen::interp
