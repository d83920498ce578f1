#include "compiler/interp/LocalOps.h"

#include <algorithm>

#include "compiler/interp/KernelColumn.h"
#include "compiler/interp/Kernels.h"
#include "compiler/interp/ScalarRegion.h"
#include "compiler/ir/Diagnostic.h"
#include "compiler/ir/InternalError.h"

namespace shardgen::interp {

namespace kernels {
namespace {

const TensorType &resultType(const KernelInputs &in) { return in.graph->type(in.op.results.at(0)); }

const Literal &operand(const KernelInputs &in, size_t i) {
  SHARDGEN_CHECK(!in.onGrid(), std::string(in.op.name()) + " runs on each device, not on a grid");
  return *in.operands[i];
}

/// StableHLO's start of a dynamic slice along each dim: the index operands
/// from `first` on, clamped to [0, dim - size] so the slice stays inside.
std::vector<int64_t> clampedStarts(const KernelInputs &in, size_t first, const Shape &sizes) {
  const Shape &dims = operand(in, 0).shape();
  std::vector<int64_t> starts;
  for (size_t d = 0; d < dims.size(); ++d) {
    const Literal &index = operand(in, first + d);
    const int64_t value = index.getInt(0), last = dims[d] - sizes[d];
    // A ui64 index of 2^63 or more reads negative: it is past every end.
    const bool huge = value < 0 && index.elementType() == ElementType::UI64;
    starts.push_back(huge ? last : std::clamp<int64_t>(value, 0, last));
  }
  return starts;
}

} // namespace

std::vector<Literal> constantKernel(const KernelInputs &in) {
  return oneResult(in.op.attr<ConstantAttrs>().expanded());
}

std::vector<Literal> iotaKernel(const KernelInputs &in) {
  return oneResult(evalIota(resultType(in), in.op.attr<IotaAttrs>().iotaDimension));
}

std::vector<Literal> unaryKernel(const KernelInputs &in) {
  if (in.op.kind == OpKind::Abs && isComplex(operand(in, 0).elementType()))
    return oneResult(evalComplexAbs(operand(in, 0)));
  return oneResult(evalUnary(in.op.kind, operand(in, 0)));
}

std::vector<Literal> binaryKernel(const KernelInputs &in) {
  return oneResult(evalBinary(in.op.kind, operand(in, 0), operand(in, 1)));
}

std::vector<Literal> compareKernel(const KernelInputs &in) {
  return oneResult(evalCompare(in.op.attr<CompareAttrs>().direction, operand(in, 0), operand(in, 1),
                               in.op.attr<CompareAttrs>().totalOrder()));
}

std::vector<Literal> selectKernel(const KernelInputs &in) {
  return oneResult(evalSelect(operand(in, 0), operand(in, 1), operand(in, 2)));
}

std::vector<Literal> clampKernel(const KernelInputs &in) {
  return oneResult(evalClamp(operand(in, 0), operand(in, 1), operand(in, 2)));
}

std::vector<Literal> convertKernel(const KernelInputs &in) {
  return oneResult(evalConvert(operand(in, 0), resultType(in).elementType));
}

std::vector<Literal> isFiniteKernel(const KernelInputs &in) {
  return oneResult(evalIsFinite(operand(in, 0)));
}

std::vector<Literal> reducePrecisionKernel(const KernelInputs &in) {
  const auto &attrs = in.op.attr<ReducePrecisionAttrs>();
  return oneResult(evalReducePrecision(operand(in, 0), attrs.exponentBits, attrs.mantissaBits));
}

std::vector<Literal> bitcastConvertKernel(const KernelInputs &in) {
  return oneResult(evalBitcastConvert(operand(in, 0), resultType(in)));
}

std::vector<Literal> realKernel(const KernelInputs &in) {
  return oneResult(evalComplexPart(operand(in, 0), false));
}

std::vector<Literal> imagKernel(const KernelInputs &in) {
  return oneResult(evalComplexPart(operand(in, 0), true));
}

std::vector<Literal> complexKernel(const KernelInputs &in) {
  return oneResult(evalComplex(operand(in, 0), operand(in, 1)));
}

std::vector<Literal> dotGeneralKernel(const KernelInputs &in) {
  // A wider result type (preferred_element_type) is the type the product is
  // computed in: the operands widen exactly first.
  const ElementType type = resultType(in).elementType;
  auto widened = [&](size_t i) {
    const Literal &value = operand(in, i);
    return value.elementType() == type ? value : evalConvert(value, type);
  };
  return oneResult(evalDotGeneral(widened(0), widened(1), in.op.attr<DotGeneralAttrs>()));
}

std::vector<Literal> transposeKernel(const KernelInputs &in) {
  return oneResult(evalTranspose(operand(in, 0), in.op.attr<TransposeAttrs>().permutation));
}

std::vector<Literal> reshapeKernel(const KernelInputs &in) {
  return oneResult(evalReshape(operand(in, 0), resultType(in).shape));
}

std::vector<Literal> broadcastInDimKernel(const KernelInputs &in) {
  return oneResult(evalBroadcastInDim(
      operand(in, 0), in.op.attr<BroadcastInDimAttrs>().broadcastDimensions, resultType(in).shape));
}

std::vector<Literal> reduceKernel(const KernelInputs &in) {
  const auto &dims = in.op.attr<ReduceAttrs>().dimensions;
  if (std::optional<Reducer> reducer = simpleReducer(in.op))
    return oneResult(evalReduce(operand(in, 0), operand(in, 1), dims, *reducer));
  const size_t n = in.operands.size() / 2;
  return evalReduceRegion(std::span(in.operands).first(n), std::span(in.operands).subspan(n), dims,
                          ScalarRegion(*in.graph, *in.op.body()));
}

std::vector<Literal> concatenateKernel(const KernelInputs &in) {
  return oneResult(evalConcatenate(in.operands, in.op.attr<ConcatenateAttrs>().dimension));
}

std::vector<Literal> sliceKernel(const KernelInputs &in) {
  const auto &attrs = in.op.attr<SliceAttrs>();
  const std::vector<int64_t> unitStrides(attrs.startIndices.size(), 1);
  return oneResult(evalSlice(operand(in, 0), attrs.startIndices, attrs.limitIndices,
                             attrs.strides.empty() ? unitStrides : attrs.strides));
}

std::vector<Literal> padKernel(const KernelInputs &in) {
  return oneResult(evalPad(operand(in, 0), operand(in, 1), in.op.attr<PadAttrs>()));
}

std::vector<Literal> reverseKernel(const KernelInputs &in) {
  return oneResult(evalReverse(operand(in, 0), in.op.attr<ReverseAttrs>().dimensions));
}

std::vector<Literal> dynamicSliceKernel(const KernelInputs &in) {
  const Shape &sizes = in.op.attr<DynamicSliceAttrs>().sliceSizes;
  return oneResult(extractBlock(operand(in, 0), clampedStarts(in, 1, sizes), sizes));
}

std::vector<Literal> dynamicUpdateSliceKernel(const KernelInputs &in) {
  const Literal &update = operand(in, 1);
  Literal result = operand(in, 0);
  insertBlock(result, update, clampedStarts(in, 2, update.shape()));
  return oneResult(std::move(result));
}

std::vector<Literal> gatherKernel(const KernelInputs &in) {
  return oneResult(
      evalGather(operand(in, 0), operand(in, 1), in.op.attr<GatherAttrs>(), resultType(in).shape));
}

std::vector<Literal> scatterKernel(const KernelInputs &in) {
  const size_t n = in.op.operands.size() / 2;
  std::vector<const Literal *> inputs, updates;
  for (size_t i = 0; i < n; ++i) {
    inputs.push_back(&operand(in, i));
    updates.push_back(&operand(in, n + 1 + i));
  }
  return evalScatter(inputs, operand(in, n), updates, in.op.attr<ScatterAttrs>(),
                     ScalarRegion(*in.graph, *in.op.body()));
}

std::vector<Literal> sortKernel(const KernelInputs &in) {
  const int64_t rank = operand(in, 0).type().rank();
  return evalSort(in.operands, in.op.attr<SortAttrs>().sortedDim(rank),
                  ScalarRegion(*in.graph, *in.op.body()));
}

std::vector<Literal> topKKernel(const KernelInputs &in) {
  return evalTopK(operand(in, 0), in.op.attr<TopKAttrs>().k);
}

std::vector<Literal> rngBitGeneratorKernel(const KernelInputs &in) {
  return evalRngBitGenerator(operand(in, 0), in.op.attr<RngBitGeneratorAttrs>().algorithm(),
                             in.graph->type(in.op.results.at(1)));
}

std::vector<Literal> fftKernel(const KernelInputs &in) {
  return oneResult(
      evalFft(operand(in, 0), in.op.attr<FftAttrs>(), in.graph->type(in.op.results.at(0))));
}

/// Sharding annotations and optimization_barrier: their operands, as they are.
std::vector<Literal> identityKernel(const KernelInputs &in) {
  std::vector<Literal> results;
  for (size_t i = 0; i < in.operands.size(); ++i)
    results.push_back(operand(in, i));
  return results;
}

/// after_all: a token, which holds nothing (its inputs ran before it: the
/// interpreter runs every op in order).
std::vector<Literal> afterAllKernel(const KernelInputs &) {
  return oneResult(Literal(tokenType()));
}

/// sharding_group only constrains shardings.
std::vector<Literal> noResultKernel(const KernelInputs &) { return {}; }

std::vector<Literal> customCallKernel(const KernelInputs &in) {
  std::vector<TensorType> resultTypes;
  for (ValueId result : in.op.results)
    resultTypes.push_back(in.graph->type(result));
  // The custom-call ABI (shardgen/custom_call.h) passes buffers of data.
  bool tokens = std::any_of(resultTypes.begin(), resultTypes.end(),
                            [](const TensorType &type) { return type.isToken(); });
  for (const Literal *operand : in.operands)
    tokens |= operand->type().isToken();
  if (tokens)
    fail("", "custom_call " + in.op.attr<CustomCallAttrs>().callTargetName +
                 " takes or returns a !stablehlo.token; custom calls run on tensors only");
  return callCustomCall(in.customCall, in.operands, resultTypes);
}

/// manual_computation: the interpreter runs its body (evalManualComputation).
std::vector<Literal> regionKernel(const KernelInputs &in) {
  throw InternalError(std::string(in.op.name()) + " is run by the region evaluator");
}

// ---- windows (Windows.cpp) ----

std::vector<Literal> reduceWindowKernel(const KernelInputs &in) {
  const size_t n = in.operands.size() / 2;
  return evalReduceWindow(std::span(in.operands).first(n), std::span(in.operands).subspan(n),
                          reduceWindowSpec(in.op.attr<ReduceWindowAttrs>()),
                          ScalarRegion(*in.graph, *in.op.body()));
}

std::vector<Literal> selectAndScatterKernel(const KernelInputs &in) {
  return oneResult(evalSelectAndScatter(operand(in, 0), operand(in, 1), operand(in, 2),
                                        selectAndScatterSpec(in.op.attr<SelectAndScatterAttrs>()),
                                        ScalarRegion(*in.graph, in.op.regions[0]),
                                        ScalarRegion(*in.graph, in.op.regions[1])));
}

std::vector<Literal> convolutionKernel(const KernelInputs &in) {
  return oneResult(evalConvolution(operand(in, 0), operand(in, 1), in.op.attr<ConvolutionAttrs>(),
                                   resultType(in)));
}

std::vector<Literal> runKernel(const KernelInputs &in) {
  using Kernel = std::vector<Literal> (*)(const KernelInputs &);
  static constexpr Kernel kKernels[] = {
#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, Bound, Mlir, Infer,  \
                    Rule, Eval, ...)                                                               \
  &Eval,
#include "compiler/ops/Ops.def"
  };
  static_assert(std::size(kKernels) == kNumOpKinds);
  return kKernels[static_cast<size_t>(in.op.kind)](in);
}

} // namespace kernels

std::vector<Literal> evalLocalOp(const Graph &graph, const Op &op,
                                 const std::vector<const Literal *> &operands,
                                 shardgen_custom_call_fn customCall) {
  return kernels::runKernel(kernels::KernelInputs{&graph, op, operands, customCall, nullptr, {}});
}

} // namespace shardgen::interp
