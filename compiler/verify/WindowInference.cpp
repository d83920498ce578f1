// The window ops' type rules, StableHLO's constraints: reduce_window (one
// input here), select_and_scatter and convolution. Every size is computed
// with overflow checks, and the work a window op implies (windows times
// their size) is bounded before anything runs.

#include <algorithm>
#include <cmath>

#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {
namespace {

/// The work one window op may imply: output elements times window elements.
constexpr int64_t kMaxWindowWork = int64_t(1) << 40;

void requireSize(const InferenceContext &context, const std::string &key, size_t size,
                 int64_t expected, const std::string &what) {
  if (static_cast<int64_t>(size) != expected)
    context.failAttr(key, "needs " + std::to_string(expected) + " entries (" + what + "), got " +
                              std::to_string(size));
}

void requirePositive(const InferenceContext &context, const std::string &key,
                     const std::vector<int64_t> &values) {
  for (int64_t value : values)
    if (value <= 0)
      context.failAttr(key, "entries must be positive, got " + std::to_string(value));
}

int64_t checked(const InferenceContext &context, std::optional<int64_t> value,
                const std::string &what) {
  if (!value || *value > kMaxElementCount || *value < -kMaxElementCount)
    context.failOp(what + " is too large");
  return *value;
}

/// StableHLO's num_windows along one dim (C15 of reduce_window, C25 of
/// convolution).
int64_t numWindows(const InferenceContext &context, int64_t size, int64_t baseDilation,
                   std::array<int64_t, 2> padding, int64_t window, int64_t windowDilation,
                   int64_t stride, int64_t dim) {
  const std::string where = "dimension " + std::to_string(dim) + "'s padded size";
  const int64_t dilated =
      size == 0 ? 0 : checked(context, checkedMul(size - 1, baseDilation), where) + 1;
  const int64_t padded = checked(
      context, checkedAdd(checked(context, checkedAdd(padding[0], dilated), where), padding[1]),
      where);
  const int64_t dilatedWindow =
      window == 0 ? 0
                  : checked(context, checkedMul(window - 1, windowDilation),
                            "dimension " + std::to_string(dim) + "'s dilated window") +
                        1;
  if (padded <= 0 || dilatedWindow > padded)
    return 0;
  return (padded - dilatedWindow) / stride + 1;
}

void checkWork(const InferenceContext &context, const Shape &result, const Shape &window) {
  // In doubles: the product may exceed int64 before it is refused.
  double work = 1;
  for (int64_t extent : result)
    work *= static_cast<double>(std::max<int64_t>(extent, 1));
  for (int64_t extent : window)
    work *= static_cast<double>(std::max<int64_t>(extent, 1));
  if (work > static_cast<double>(kMaxWindowWork))
    context.failOp("implies about 2^" + std::to_string(static_cast<int>(std::log2(work))) +
                   " window element visits (outputs times window size; at most 2^40)");
}

/// A scalar body taking scalars of `arguments` and returning scalars of
/// `returns` (StableHLO's C13 of reduce_window, C9/C10 of
/// select_and_scatter).
void checkScalarBody(const InferenceContext &context, const Region &body, const std::string &what,
                     const std::vector<ElementType> &arguments,
                     const std::vector<ElementType> &returns) {
  const Graph &graph = context.graph;
  if (body.args.size() != arguments.size())
    fail(joinPointer(body.pointer, "args"),
         context.opLabel() + " " + what + " takes " + std::to_string(arguments.size()) +
             " arguments, got " + std::to_string(body.args.size()));
  for (size_t i = 0; i < arguments.size(); ++i) {
    const TensorType scalar{arguments[i], {}};
    if (graph.type(body.args[i].value) != scalar)
      fail(joinPointer(body.args[i].pointer, "type"),
           context.opLabel() + " " + what + " argument has type " +
               printType(graph.type(body.args[i].value)) + ", expected " + printType(scalar));
  }
  if (body.results.size() != returns.size())
    fail(joinPointer(body.pointer, "return"),
         context.opLabel() + " " + what + " returns " + std::to_string(returns.size()) + " value" +
             (returns.size() == 1 ? "" : "s") + ", got " + std::to_string(body.results.size()));
  for (size_t i = 0; i < returns.size(); ++i) {
    const TensorType expected{returns[i], {}};
    if (graph.type(body.results[i].value) != expected)
      fail(body.results[i].pointer, context.opLabel() + " " + what + " returns " +
                                        printType(graph.type(body.results[i].value)) +
                                        ", expected " + printType(expected));
  }
}

void checkScalarInit(const InferenceContext &context, size_t index, const TensorType &input) {
  const TensorType &init = context.operand(index);
  if (init.rank() != 0)
    context.failOp("requires a scalar init value, got " + printType(init));
  if (init.elementType != input.elementType)
    context.failOp("requires an init value of the input's element type, got " + printType(init) +
                   " for " + printType(input));
}

/// The window attributes every window op has, sized by the operand's rank.
void checkWindow(const InferenceContext &context, int64_t rank,
                 const std::vector<int64_t> &dimensions, const std::vector<int64_t> &strides,
                 const std::vector<std::array<int64_t, 2>> &padding) {
  requireSize(context, "window_dimensions", dimensions.size(), rank, "one per operand dimension");
  requireSize(context, "window_strides", strides.size(), rank, "one per operand dimension");
  requireSize(context, "padding", padding.size(), rank, "one pair per operand dimension");
  requirePositive(context, "window_dimensions", dimensions);
  requirePositive(context, "window_strides", strides);
}

} // namespace

ResultTypes inferReduceWindow(const InferenceContext &context) {
  const auto &attrs = context.attrs<ReduceWindowAttrs>();
  const Op &op = context.op;
  const size_t numInputs = checkInputsThenInits(context);
  const TensorType &input = context.operand(0);
  std::vector<ElementType> elements;
  for (size_t i = 0; i < numInputs; ++i) {
    checkScalarInit(context, numInputs + i, context.operand(i));
    elements.push_back(context.operand(i).elementType);
  }
  const int64_t rank = input.rank();
  checkWindow(context, rank, attrs.windowDimensions, attrs.windowStrides, attrs.padding);
  requireSize(context, "base_dilations", attrs.baseDilations.size(), rank,
              "one per operand dimension");
  requireSize(context, "window_dilations", attrs.windowDilations.size(), rank,
              "one per operand dimension");
  requirePositive(context, "base_dilations", attrs.baseDilations);
  requirePositive(context, "window_dilations", attrs.windowDilations);
  // N accumulators, then N elements -> N values.
  std::vector<ElementType> arguments = elements;
  arguments.insert(arguments.end(), elements.begin(), elements.end());
  checkScalarBody(context, *op.body(), "body", arguments, elements);
  Shape windows;
  for (int64_t d = 0; d < rank; ++d)
    windows.push_back(numWindows(context, input.shape[d], attrs.baseDilations[d], attrs.padding[d],
                                 attrs.windowDimensions[d], attrs.windowDilations[d],
                                 attrs.windowStrides[d], d));
  checkWork(context, windows, attrs.windowDimensions);
  ResultTypes results;
  for (ElementType element : elements)
    results.push_back(TensorType{element, windows});
  return results;
}

ResultTypes inferSelectAndScatter(const InferenceContext &context) {
  const auto &attrs = context.attrs<SelectAndScatterAttrs>();
  const TensorType &operand = context.operand(0), &source = context.operand(1);
  if (source.elementType != operand.elementType)
    context.failOp("requires a source of the operand's element type, got " + printType(source) +
                   " for " + printType(operand));
  checkScalarInit(context, 2, operand);
  const int64_t rank = operand.rank();
  checkWindow(context, rank, attrs.windowDimensions, attrs.windowStrides, attrs.padding);
  Shape windows;
  for (int64_t d = 0; d < rank; ++d)
    windows.push_back(numWindows(context, operand.shape[d], 1, attrs.padding[d],
                                 attrs.windowDimensions[d], 1, attrs.windowStrides[d], d));
  if (source.shape != windows)
    context.failOp("requires a source of one element per window, " +
                   printType(TensorType{operand.elementType, windows}) + ", got " +
                   printType(source));
  checkWork(context, windows, attrs.windowDimensions);
  const std::vector<ElementType> pair(2, operand.elementType);
  checkScalarBody(context, context.op.regions[0], "select", pair, {ElementType::I1});
  checkScalarBody(context, context.op.regions[1], "scatter", pair, {operand.elementType});
  return {operand};
}

namespace {

/// The attribute lists: one entry per spatial dim, positive strides and
/// dilations, the dims of each operand and the result a permutation.
void checkConvolutionAttributes(const InferenceContext &context, const ConvolutionAttrs &a,
                                int64_t rank) {
  const int64_t spatial = rank - 2;
  const std::string perSpatial = "one per spatial dimension";
  requireSize(context, "input_spatial_dimensions", a.inputSpatialDimensions.size(), spatial,
              perSpatial);
  requireSize(context, "kernel_spatial_dimensions", a.kernelSpatialDimensions.size(), spatial,
              perSpatial);
  requireSize(context, "output_spatial_dimensions", a.outputSpatialDimensions.size(), spatial,
              perSpatial);
  requireSize(context, "window_strides", a.windowStrides.size(), spatial, perSpatial);
  requireSize(context, "padding", a.padding.size(), spatial, "one pair per spatial dimension");
  requireSize(context, "lhs_dilation", a.lhsDilation.size(), spatial, perSpatial);
  requireSize(context, "rhs_dilation", a.rhsDilation.size(), spatial, perSpatial);
  requireSize(context, "window_reversal", a.windowReversal.size(), spatial, perSpatial);
  requirePositive(context, "window_strides", a.windowStrides);
  requirePositive(context, "lhs_dilation", a.lhsDilation);
  requirePositive(context, "rhs_dilation", a.rhsDilation);
  auto dims = [](int64_t first, const std::vector<int64_t> &middle, int64_t last) {
    std::vector<int64_t> out{first};
    out.insert(out.end(), middle.begin(), middle.end());
    out.push_back(last);
    return out;
  };
  checkDimensions(context, "input_spatial_dimensions",
                  dims(a.inputBatchDimension, a.inputSpatialDimensions, a.inputFeatureDimension),
                  rank);
  checkDimensions(context, "kernel_spatial_dimensions",
                  dims(a.kernelInputFeatureDimension, a.kernelSpatialDimensions,
                       a.kernelOutputFeatureDimension),
                  rank);
  checkDimensions(context, "output_spatial_dimensions",
                  dims(a.outputBatchDimension, a.outputSpatialDimensions, a.outputFeatureDimension),
                  rank);
}

/// feature_group_count and batch_group_count against the operands' sizes.
void checkConvolutionGroups(const InferenceContext &context, const ConvolutionAttrs &a,
                            const TensorType &lhs, const TensorType &rhs) {
  if (a.featureGroupCount <= 0)
    context.failAttr("feature_group_count",
                     "must be positive, got " + std::to_string(a.featureGroupCount));
  if (a.batchGroupCount <= 0)
    context.failAttr("batch_group_count",
                     "must be positive, got " + std::to_string(a.batchGroupCount));
  if (a.featureGroupCount != 1 && a.batchGroupCount != 1)
    context.failOp("has a feature_group_count or a batch_group_count above 1, not both");
  const int64_t batch = lhs.shape[a.inputBatchDimension];
  const int64_t features = lhs.shape[a.inputFeatureDimension];
  const int64_t kernelIn = rhs.shape[a.kernelInputFeatureDimension];
  const int64_t kernelOut = rhs.shape[a.kernelOutputFeatureDimension];
  if (batch % a.batchGroupCount != 0)
    context.failAttr("batch_group_count",
                     "must divide the input batch size " + std::to_string(batch));
  if (features % a.featureGroupCount != 0)
    context.failAttr("feature_group_count",
                     "must divide the input feature size " + std::to_string(features));
  if (kernelIn != features / a.featureGroupCount)
    context.failOp("requires a kernel input feature size of " +
                   std::to_string(features / a.featureGroupCount) +
                   " (input features / feature_group_count), got " + std::to_string(kernelIn));
  if (kernelOut % a.batchGroupCount != 0)
    context.failAttr("batch_group_count",
                     "must divide the kernel output feature size " + std::to_string(kernelOut));
  if (kernelOut % a.featureGroupCount != 0)
    context.failAttr("feature_group_count",
                     "must divide the kernel output feature size " + std::to_string(kernelOut));
}

} // namespace

ResultTypes inferConvolution(const InferenceContext &context) {
  const auto &a = context.attrs<ConvolutionAttrs>();
  const TensorType &lhs = context.operand(0), &rhs = context.operand(1);
  const int64_t rank = lhs.rank();
  if (rhs.rank() != rank)
    context.failOp("requires lhs and rhs of one rank, got " + printType(lhs) + " and " +
                   printType(rhs));
  if (rank < 2)
    context.failOp("requires operands of rank 2 at least, got " + printType(lhs));
  if (lhs.elementType != rhs.elementType)
    context.failOp("requires lhs and rhs of one element type, got " + printType(lhs) + " and " +
                   printType(rhs));
  if (lhs.elementType == ElementType::I1)
    context.failOp("is not supported on " + std::string(elementTypeName(lhs.elementType)) +
                   " elements");
  checkConvolutionAttributes(context, a, rank);
  checkConvolutionGroups(context, a, lhs, rhs);
  // The result's element type: the operands', or a wider one that holds
  // every operand value, as dot_general's (JAX's preferred_element_type).
  ElementType element = lhs.elementType;
  if (UniquedOptional<TensorType> declared = context.declared(0);
      declared && declared->elementType != element) {
    const ElementType wanted = declared->elementType;
    if (!holdsExactly(wanted, element))
      context.failOp("cannot produce " + std::string(elementTypeName(wanted)) + " from " +
                     printType(lhs) + " (a wider type of the same kind only)");
    element = wanted;
  }
  const int64_t kernelIn = rhs.shape[a.kernelInputFeatureDimension];
  TensorType result{element, Shape(rank, 0)};
  result.shape[a.outputBatchDimension] = lhs.shape[a.inputBatchDimension] / a.batchGroupCount;
  result.shape[a.outputFeatureDimension] = rhs.shape[a.kernelOutputFeatureDimension];
  Shape window;
  for (int64_t s = 0; s < rank - 2; ++s) {
    const int64_t d = a.inputSpatialDimensions[s];
    window.push_back(rhs.shape[a.kernelSpatialDimensions[s]]);
    result.shape[a.outputSpatialDimensions[s]] =
        numWindows(context, lhs.shape[d], a.lhsDilation[s], a.padding[s], window.back(),
                   a.rhsDilation[s], a.windowStrides[s], d);
  }
  window.push_back(kernelIn);
  checkWork(context, result.shape, window);
  return {result};
}

} // namespace shardgen::verify
