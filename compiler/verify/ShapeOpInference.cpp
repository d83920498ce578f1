#include <algorithm>
#include <set>

#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {

void checkDimensions(const InferenceContext &context, const std::string &key,
                     const std::vector<int64_t> &dims, int64_t rank) {
  std::set<int64_t> seen;
  for (int64_t dim : dims) {
    if (dim < 0 || dim >= rank)
      context.failAttr(key, key + " value: " + std::to_string(dim) + " is out of range: [0, " +
                                std::to_string(rank) + ")");
    if (!seen.insert(dim).second)
      context.failAttr(key, key + " has a duplicate dimension " + std::to_string(dim));
  }
}

namespace {

void requireAttrSize(const InferenceContext &context, const std::string &key, size_t size,
                     const TensorType &operand) {
  if (static_cast<int64_t>(size) != operand.rank())
    context.failAttr(key, "the number of elements in " + key + " (" + std::to_string(size) +
                              ") does not match the rank of the operand (" +
                              std::to_string(operand.rank()) + ")");
}

void requireSameElementType(const InferenceContext &context, const TensorType &a,
                            const TensorType &b) {
  if (a.elementType != b.elementType)
    context.failOp("requires the same element type for operand and result, got " + printType(a) +
                   " and " + printType(b));
}

/// StableHLO's start indices: one 0-d integer tensor per operand dim, all
/// of one type, from operand `first` on.
void checkStartIndices(const InferenceContext &context, size_t first, const TensorType &operand) {
  const size_t count = context.numOperands() - first;
  if (static_cast<int64_t>(count) != operand.rank())
    context.failAttr("operands", "takes one start index per operand dimension (" +
                                     std::to_string(operand.rank()) + "), got " +
                                     std::to_string(count));
  for (size_t i = first; i < context.numOperands(); ++i) {
    const TensorType &index = context.operand(i);
    const std::string pointer = joinPointer(attrPointer(context.op, "operands"), i);
    const bool integer = !isFloat(index.elementType) && !isComplex(index.elementType) &&
                         index.elementType != ElementType::I1;
    if (index.rank() != 0 || !integer)
      fail(pointer, context.opLabel() + " start index must be a 0-d tensor of integer type, got " +
                        printType(index));
    if (index != context.operand(first))
      fail(pointer, context.opLabel() + " start indices must have the same type, got " +
                        printType(context.operand(first)) + " and " + printType(index));
  }
}

} // namespace

ResultTypes inferConstant(const InferenceContext &context) {
  return {context.attrs<ConstantAttrs>().type};
}

ResultTypes inferIota(const InferenceContext &context) {
  const TensorType &result = context.requireDeclared(0);
  int64_t dim = context.attrs<IotaAttrs>().iotaDimension;
  if (result.elementType == ElementType::I1) // StableHLO: integer or float, not boolean
    context.failOp("requires an integer or floating-point result, got " + printType(result));
  if (dim < 0 || dim >= result.rank())
    context.failAttr("iota_dimension", "iota dimension cannot go beyond the output rank or be "
                                       "negative: " +
                                           std::to_string(dim) + " for " + printType(result));
  return {result};
}

ResultTypes inferDotGeneral(const InferenceContext &context) {
  const auto &attrs = context.attrs<DotGeneralAttrs>();
  const TensorType &lhs = context.operand(0);
  const TensorType &rhs = context.operand(1);
  if (lhs.elementType != rhs.elementType)
    context.failOp("requires lhs and rhs of the same element type, got " + printType(lhs) +
                   " and " + printType(rhs));
  if (attrs.lhsBatchingDimensions.size() != attrs.rhsBatchingDimensions.size())
    context.failAttr("lhs_batching_dimensions",
                     "lhs and rhs should have the same number of batching dimensions");
  if (attrs.lhsContractingDimensions.size() != attrs.rhsContractingDimensions.size())
    context.failAttr("lhs_contracting_dimensions",
                     "lhs and rhs should have the same number of contracting dimensions");
  auto checkSide = [&](const std::string &side, const std::vector<int64_t> &batching,
                       const std::vector<int64_t> &contracting, int64_t rank) {
    const std::string batchKey = side + "_batching_dimensions";
    const std::string contractKey = side + "_contracting_dimensions";
    checkDimensions(context, batchKey, batching, rank);
    checkDimensions(context, contractKey, contracting, rank);
    for (int64_t dim : contracting)
      if (std::find(batching.begin(), batching.end(), dim) != batching.end())
        context.failAttr(contractKey, "has duplicated dimension from " + batchKey + " and " +
                                          contractKey + ": " + std::to_string(dim));
  };
  checkSide("lhs", attrs.lhsBatchingDimensions, attrs.lhsContractingDimensions, lhs.rank());
  checkSide("rhs", attrs.rhsBatchingDimensions, attrs.rhsContractingDimensions, rhs.rank());
  auto checkSizes = [&](const std::vector<int64_t> &lhsDims, const std::vector<int64_t> &rhsDims,
                        const std::string &what, const std::string &key) {
    for (size_t i = 0; i < lhsDims.size(); ++i)
      if (lhs.shape[lhsDims[i]] != rhs.shape[rhsDims[i]])
        context.failAttr(key, what + " dimension sizes must match for lhs/rhs: lhs dim " +
                                  std::to_string(lhsDims[i]) + " has size " +
                                  std::to_string(lhs.shape[lhsDims[i]]) + ", rhs dim " +
                                  std::to_string(rhsDims[i]) + " has size " +
                                  std::to_string(rhs.shape[rhsDims[i]]));
  };
  checkSizes(attrs.lhsBatchingDimensions, attrs.rhsBatchingDimensions, "batching",
             "lhs_batching_dimensions");
  checkSizes(attrs.lhsContractingDimensions, attrs.rhsContractingDimensions, "contracting",
             "lhs_contracting_dimensions");

  // Result dims: batch, then lhs free, then rhs free, each in operand order.
  // The element type is the operands' or a declared wider one that holds
  // every operand value exactly (JAX's preferred_element_type: bf16 x bf16
  // -> f32, i8 x i8 -> i32): the product is computed in the result's type.
  TensorType result{lhs.elementType, {}};
  if (const auto declared = context.declared(0);
      declared && declared->elementType != lhs.elementType) {
    if (!holdsExactly(declared->elementType, lhs.elementType))
      context.failAttr(
          "type", "result element type " + std::string(elementTypeName(declared->elementType)) +
                      " does not hold every " + std::string(elementTypeName(lhs.elementType)) +
                      " operand value exactly (the product is computed in the "
                      "result's type: convert the result instead)");
    result.elementType = declared->elementType;
  }
  for (int64_t dim : attrs.lhsBatchingDimensions)
    result.shape.push_back(lhs.shape[dim]);
  auto appendFree = [&](const TensorType &side, const std::vector<int64_t> &batching,
                        const std::vector<int64_t> &contracting) {
    for (int64_t dim = 0; dim < side.rank(); ++dim)
      if (std::find(batching.begin(), batching.end(), dim) == batching.end() &&
          std::find(contracting.begin(), contracting.end(), dim) == contracting.end())
        result.shape.push_back(side.shape[dim]);
  };
  appendFree(lhs, attrs.lhsBatchingDimensions, attrs.lhsContractingDimensions);
  appendFree(rhs, attrs.rhsBatchingDimensions, attrs.rhsContractingDimensions);
  return {result};
}

ResultTypes inferTranspose(const InferenceContext &context) {
  const TensorType &operand = context.operand(0);
  const auto &permutation = context.attrs<TransposeAttrs>().permutation;
  if (static_cast<int64_t>(permutation.size()) != operand.rank())
    context.failAttr("permutation", "permutation size (" + std::to_string(permutation.size()) +
                                        ") does not match the operand rank (" +
                                        std::to_string(operand.rank()) + ")");
  std::vector<int64_t> sorted = permutation;
  std::sort(sorted.begin(), sorted.end());
  for (size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != static_cast<int64_t>(i))
      context.failAttr("permutation", "permutation " + formatList(permutation) +
                                          " is not a permutation of [0, " +
                                          std::to_string(operand.rank()) + ")");
  TensorType result{operand.elementType, {}};
  for (int64_t dim : permutation)
    result.shape.push_back(operand.shape[dim]);
  return {result};
}

ResultTypes inferReshape(const InferenceContext &context) {
  const TensorType &operand = context.operand(0);
  const TensorType &result = context.requireDeclared(0);
  requireSameElementType(context, operand, result);
  if (operand.numElements() != result.numElements())
    context.failOp("number of output elements (" + std::to_string(result.numElements()) +
                   ") doesn't match expected number of elements (" +
                   std::to_string(operand.numElements()) + ")");
  return {result};
}

ResultTypes inferBroadcastInDim(const InferenceContext &context) {
  const TensorType &operand = context.operand(0);
  const TensorType &result = context.requireDeclared(0);
  const auto &dims = context.attrs<BroadcastInDimAttrs>().broadcastDimensions;
  const std::string key = "broadcast_dimensions";
  requireSameElementType(context, operand, result);
  if (static_cast<int64_t>(dims.size()) != operand.rank())
    context.failAttr(key, "broadcast_dimensions size (" + std::to_string(dims.size()) +
                              ") does not match operand rank (" + std::to_string(operand.rank()) +
                              ")");
  std::set<int64_t> seen;
  for (size_t i = 0; i < dims.size(); ++i) {
    int64_t dim = dims[i];
    if (dim < 0 || dim >= result.rank())
      context.failAttr(key, "broadcast_dimensions contains invalid value " + std::to_string(dim) +
                                " for result with rank " + std::to_string(result.rank()));
    if (!seen.insert(dim).second)
      context.failAttr(key, "broadcast_dimensions should not have duplicates");
    if (operand.shape[i] != 1 && operand.shape[i] != result.shape[dim])
      context.failAttr(key, "size of operand dimension " + std::to_string(i) + " (" +
                                std::to_string(operand.shape[i]) +
                                ") is not equal to 1 or size of result dimension " +
                                std::to_string(dim) + " (" + std::to_string(result.shape[dim]) +
                                ")");
  }
  return {result};
}

ResultTypes inferConcatenate(const InferenceContext &context) {
  const int64_t dimension = context.attrs<ConcatenateAttrs>().dimension;
  const TensorType &first = context.operand(0);
  if (dimension < 0 || dimension >= first.rank())
    context.failAttr("dimension", "dimension " + std::to_string(dimension) +
                                      " is out-of-bounds for input rank " +
                                      std::to_string(first.rank()));
  TensorType result = first;
  for (size_t i = 1; i < context.numOperands(); ++i) {
    const TensorType &next = context.operand(i);
    if (next.rank() != first.rank() || next.elementType != first.elementType)
      context.failOp("operands (0) and (" + std::to_string(i) +
                     ") do not match rank or element "
                     "type: " +
                     printType(first) + " and " + printType(next));
    for (int64_t dim = 0; dim < first.rank(); ++dim)
      if (dim != dimension && next.shape[dim] != first.shape[dim])
        context.failOp("shapes of operand (0) and (" + std::to_string(i) +
                       ") do not match at non-concat index: " + printType(first) + " and " +
                       printType(next));
    auto sum = checkedAdd(result.shape[dimension], next.shape[dimension]);
    if (!sum || *sum > kMaxElementCount)
      context.failOp("result dimension is too large");
    result.shape[dimension] = *sum;
  }
  return {result};
}

ResultTypes inferSlice(const InferenceContext &context) {
  const auto &attrs = context.attrs<SliceAttrs>();
  const TensorType &operand = context.operand(0);
  std::vector<int64_t> strides = attrs.strides;
  if (!attrs.stridesGiven && strides.empty())
    strides.assign(operand.rank(), 1);
  requireAttrSize(context, "start_indices", attrs.startIndices.size(), operand);
  requireAttrSize(context, "limit_indices", attrs.limitIndices.size(), operand);
  requireAttrSize(context, "strides", strides.size(), operand);
  TensorType result{operand.elementType, {}};
  for (int64_t dim = 0; dim < operand.rank(); ++dim) {
    const int64_t start = attrs.startIndices[dim], limit = attrs.limitIndices[dim];
    const int64_t stride = strides[dim], size = operand.shape[dim];
    const std::string where = " in dimension " + std::to_string(dim);
    if (start < 0)
      context.failAttr("start_indices", "negative start index " + std::to_string(start) + where);
    if (limit > size)
      context.failAttr("limit_indices", "limit index " + std::to_string(limit) +
                                            " is larger than dimension size " +
                                            std::to_string(size) + where);
    if (start > limit)
      context.failAttr("start_indices", "start index " + std::to_string(start) +
                                            " is larger than limit index " + std::to_string(limit) +
                                            where);
    if (stride < 1)
      context.failAttr("strides",
                       "stride must be positive but got " + std::to_string(stride) + where);
    // ceil((limit - start) / stride), written so a huge stride cannot overflow.
    result.shape.push_back(limit == start ? 0 : (limit - start - 1) / stride + 1);
  }
  return {result};
}

ResultTypes inferPad(const InferenceContext &context) {
  const auto &attrs = context.attrs<PadAttrs>();
  const TensorType &operand = context.operand(0);
  const TensorType &padValue = context.operand(1);
  if (padValue.rank() != 0)
    context.failOp("padding value type should be a rank-0 tensor, is rank " +
                   std::to_string(padValue.rank()));
  if (padValue.elementType != operand.elementType)
    context.failOp("requires a padding value of the operand's element type, got " +
                   printType(padValue) + " for " + printType(operand));
  requireAttrSize(context, "edge_padding_low", attrs.edgePaddingLow.size(), operand);
  requireAttrSize(context, "edge_padding_high", attrs.edgePaddingHigh.size(), operand);
  requireAttrSize(context, "interior_padding", attrs.interiorPadding.size(), operand);
  TensorType result{operand.elementType, {}};
  for (int64_t dim = 0; dim < operand.rank(); ++dim) {
    const int64_t interior = attrs.interiorPadding[dim], size = operand.shape[dim];
    if (interior < 0)
      context.failAttr("interior_padding",
                       "interior padding cannot be negative: " + std::to_string(interior));
    // low + high + size + max(size - 1, 0) * interior, overflow-checked.
    std::optional<int64_t> grown = checkedMul(std::max<int64_t>(size - 1, 0), interior);
    if (grown)
      grown = checkedAdd(*grown, size);
    if (grown)
      grown = checkedAdd(*grown, attrs.edgePaddingLow[dim]);
    if (grown)
      grown = checkedAdd(*grown, attrs.edgePaddingHigh[dim]);
    if (!grown || *grown > kMaxElementCount)
      context.failOp("padding makes dimension " + std::to_string(dim) + " too large");
    if (*grown < 0)
      context.failOp("padding results in negative size " + std::to_string(*grown) +
                     " for dimension " + std::to_string(dim));
    result.shape.push_back(*grown);
  }
  return {result};
}

ResultTypes inferReverse(const InferenceContext &context) {
  const TensorType &operand = context.operand(0);
  checkDimensions(context, "dimensions", context.attrs<ReverseAttrs>().dimensions, operand.rank());
  return {operand};
}

ResultTypes inferDynamicSlice(const InferenceContext &context) {
  const std::vector<int64_t> &sizes = context.attrs<DynamicSliceAttrs>().sliceSizes;
  const TensorType &operand = context.operand(0);
  requireAttrSize(context, "slice_sizes", sizes.size(), operand);
  checkStartIndices(context, 1, operand);
  for (int64_t dim = 0; dim < operand.rank(); ++dim)
    if (sizes[dim] < 0 || sizes[dim] > operand.shape[dim])
      context.failAttr("slice_sizes", "slice size " + std::to_string(sizes[dim]) +
                                          " is out of range [0, " +
                                          std::to_string(operand.shape[dim]) + "] in dimension " +
                                          std::to_string(dim));
  return {TensorType{operand.elementType, sizes}};
}

ResultTypes inferDynamicUpdateSlice(const InferenceContext &context) {
  const TensorType &operand = context.operand(0);
  const TensorType &update = context.operand(1);
  const std::string updatePointer = joinPointer(attrPointer(context.op, "operands"), 1);
  if (update.elementType != operand.elementType || update.rank() != operand.rank())
    fail(updatePointer, context.opLabel() +
                            " requires an update of the operand's rank and element type, got " +
                            printType(update) + " for " + printType(operand));
  for (int64_t dim = 0; dim < operand.rank(); ++dim)
    if (update.shape[dim] > operand.shape[dim])
      fail(updatePointer, context.opLabel() + " update " + printType(update) +
                              " is larger than the operand " + printType(operand) +
                              " in dimension " + std::to_string(dim));
  checkStartIndices(context, 2, operand);
  return {operand};
}

} // namespace shardgen::verify
