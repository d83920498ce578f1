// gather and scatter: StableHLO's constraints on their dimension numbers
// (spec.md, gather C1-C23, scatter C1-C25). The two share most of them under
// different names: gather's operand, start indices and result (its slices)
// are scatter's input, scatter indices and updates. An error names the key
// inside the dimension-numbers object (`dimension_numbers/offset_dims`).

#include <algorithm>

#include "compiler/verify/InferenceRules.h"

namespace shardgen::verify {

namespace {

/// The keys of one op's dimension numbers, and the spec's names of its
/// tensors, for messages.
struct IndexedKeys {
  const char *object;          // dimension_numbers / scatter_dimension_numbers
  const char *offsetDims;      // offset_dims / update_window_dims
  const char *collapsedDims;   // collapsed_slice_dims / inserted_window_dims
  const char *operandBatching; // operand_batching_dims / input_batching_dims
  const char *indicesBatching; // start_indices_batching_dims / scatter_indices_batching_dims
  const char *indexMap;        // start_index_map / scatter_dims_to_operand_dims
  const char *operandName;     // operand / input
  const char *indicesName;     // start_indices / scatter_indices
  const char *slicesName;      // result / updates
};

struct IndexedDimsView {
  const std::vector<int64_t> &offsetDims, &collapsedDims, &operandBatching, &indicesBatching,
      &indexMap;
  int64_t indexVectorDim;
};

class IndexedDimsChecker {
public:
  IndexedDimsChecker(const InferenceContext &context, const IndexedKeys &keys,
                     const IndexedDimsView &dims, const TensorType &operand,
                     const TensorType &indices, size_t indicesOperand)
      : context_(context), keys_(keys), dims_(dims), operand_(operand), indices_(indices),
        indicesOperand_(indicesOperand) {}

  [[noreturn]] void failAt(const char *key, const std::string &message) const {
    fail(joinPointer(attrPointer(context_.op, keys_.object), key),
         context_.opLabel() + " " + message);
  }

  /// Every constraint that does not involve the slices' shape.
  void checkIndexing() const {
    const int64_t operandRank = operand_.rank(), indicesRank = indices_.rank();
    const std::string indicesPointer =
        joinPointer(attrPointer(context_.op, "operands"), indicesOperand_);
    if (isFloat(indices_.elementType) || indices_.elementType == ElementType::I1)
      fail(indicesPointer, context_.opLabel() + " " + keys_.indicesName +
                               " must be of integer type, got " + printType(indices_));
    const int64_t ivd = dims_.indexVectorDim;
    if (ivd < 0 || ivd > indicesRank)
      failAt("index_vector_dim", "index_vector_dim " + std::to_string(ivd) +
                                     " is out of range [0, " + std::to_string(indicesRank) +
                                     "] (the rank of " + keys_.indicesName + ")");
    const size_t total =
        dims_.offsetDims.size() + dims_.collapsedDims.size() + dims_.operandBatching.size();
    if (static_cast<int64_t>(total) != operandRank)
      failAt(keys_.offsetDims,
             std::string(keys_.offsetDims) + " (" + std::to_string(dims_.offsetDims.size()) +
                 "), " + keys_.collapsedDims + " (" + std::to_string(dims_.collapsedDims.size()) +
                 ") and " + keys_.operandBatching + " (" +
                 std::to_string(dims_.operandBatching.size()) + ") must number the rank of " +
                 keys_.operandName + " (" + std::to_string(operandRank) + ")");
    checkSortedUnique(keys_.offsetDims, dims_.offsetDims, true);
    checkSortedUnique(keys_.collapsedDims, dims_.collapsedDims, true);
    checkInRange(keys_.collapsedDims, dims_.collapsedDims, operandRank, keys_.operandName);
    checkSortedUnique(keys_.operandBatching, dims_.operandBatching, true);
    checkInRange(keys_.operandBatching, dims_.operandBatching, operandRank, keys_.operandName);
    for (int64_t d : dims_.operandBatching)
      if (std::count(dims_.collapsedDims.begin(), dims_.collapsedDims.end(), d))
        failAt(keys_.operandBatching, "dimension " + std::to_string(d) + " is in both " +
                                          keys_.collapsedDims + " and " + keys_.operandBatching);
    checkSortedUnique(keys_.indicesBatching, dims_.indicesBatching, false);
    checkInRange(keys_.indicesBatching, dims_.indicesBatching, indicesRank, keys_.indicesName);
    if (std::count(dims_.indicesBatching.begin(), dims_.indicesBatching.end(), ivd))
      failAt(keys_.indicesBatching, std::string(keys_.indicesBatching) +
                                        " must not hold index_vector_dim " + std::to_string(ivd));
    if (dims_.operandBatching.size() != dims_.indicesBatching.size())
      failAt(keys_.indicesBatching,
             std::string(keys_.indicesBatching) + " " + formatList(dims_.indicesBatching) +
                 " and " + keys_.operandBatching + " " + formatList(dims_.operandBatching) +
                 " must have the same size");
    for (size_t i = 0; i < dims_.operandBatching.size(); ++i)
      if (operand_.shape[dims_.operandBatching[i]] != indices_.shape[dims_.indicesBatching[i]])
        failAt(keys_.indicesBatching,
               std::string("batching dimension ") + std::to_string(dims_.operandBatching[i]) +
                   " of " + keys_.operandName + " (" + printType(operand_) + ") and " +
                   std::to_string(dims_.indicesBatching[i]) + " of " + keys_.indicesName + " (" +
                   printType(indices_) + ") differ in size");
    const int64_t indexCount = ivd < indicesRank ? indices_.shape[ivd] : 1;
    if (static_cast<int64_t>(dims_.indexMap.size()) != indexCount)
      failAt(keys_.indexMap, std::string(keys_.indexMap) + " " + formatList(dims_.indexMap) +
                                 " must have one entry per index of the index vector (" +
                                 std::to_string(indexCount) + ")");
    checkInRange(keys_.indexMap, dims_.indexMap, operandRank, keys_.operandName);
    std::vector<int64_t> mapped = dims_.indexMap;
    mapped.insert(mapped.end(), dims_.operandBatching.begin(), dims_.operandBatching.end());
    std::sort(mapped.begin(), mapped.end());
    if (std::adjacent_find(mapped.begin(), mapped.end()) != mapped.end())
      failAt(keys_.indexMap, std::string(keys_.indexMap) + " " + formatList(dims_.indexMap) +
                                 " repeats a dimension or names one of " + keys_.operandBatching);
  }

  /// The rank of the slices: the batch dims of the indices and the offset dims.
  int64_t slicesRank() const {
    const int64_t batch = indices_.rank() - (dims_.indexVectorDim < indices_.rank() ? 1 : 0);
    return batch + static_cast<int64_t>(dims_.offsetDims.size());
  }

  /// The operand dims the offset dims take, in order (neither collapsed nor
  /// batching).
  std::vector<int64_t> windowOperandDims() const {
    std::vector<int64_t> dims;
    for (int64_t d = 0; d < operand_.rank(); ++d)
      if (!std::count(dims_.collapsedDims.begin(), dims_.collapsedDims.end(), d) &&
          !std::count(dims_.operandBatching.begin(), dims_.operandBatching.end(), d))
        dims.push_back(d);
    return dims;
  }

  /// The slices' shape with `windowSizes` (one per window operand dim) at the
  /// offset dims and the indices' batch dims elsewhere.
  Shape slicesShape(const std::vector<int64_t> &windowSizes) const {
    const int64_t rank = slicesRank();
    checkInRange(keys_.offsetDims, dims_.offsetDims, rank, keys_.slicesName);
    Shape shape;
    size_t window = 0;
    int64_t batch = 0;
    for (int64_t d = 0; d < rank; ++d) {
      if (std::count(dims_.offsetDims.begin(), dims_.offsetDims.end(), d)) {
        shape.push_back(windowSizes[window++]);
        continue;
      }
      const int64_t indicesDim = batch < dims_.indexVectorDim ? batch : batch + 1;
      shape.push_back(indices_.shape[indicesDim]);
      ++batch;
    }
    return shape;
  }

private:
  void checkSortedUnique(const char *key, const std::vector<int64_t> &dims, bool sorted) const {
    for (size_t i = 1; i < dims.size(); ++i) {
      if (sorted ? dims[i] <= dims[i - 1]
                 : std::count(dims.begin(), dims.begin() + static_cast<ptrdiff_t>(i), dims[i]))
        failAt(key, std::string(key) + " " + formatList(dims) + " must be " +
                        (sorted ? "sorted and unique" : "unique"));
    }
  }
  void checkInRange(const char *key, const std::vector<int64_t> &dims, int64_t rank,
                    const char *tensor) const {
    for (int64_t d : dims)
      if (d < 0 || d >= rank)
        failAt(key, "dimension " + std::to_string(d) + " in " + key + " is out of range [0, " +
                        std::to_string(rank) + ") (the rank of " + tensor + ")");
  }

  const InferenceContext &context_;
  const IndexedKeys &keys_;
  const IndexedDimsView &dims_;
  const TensorType &operand_, &indices_;
  size_t indicesOperand_;
};

constexpr IndexedKeys kGatherKeys{"dimension_numbers",
                                  "offset_dims",
                                  "collapsed_slice_dims",
                                  "operand_batching_dims",
                                  "start_indices_batching_dims",
                                  "start_index_map",
                                  "operand",
                                  "start_indices",
                                  "result"};
constexpr IndexedKeys kScatterKeys{"scatter_dimension_numbers",
                                   "update_window_dims",
                                   "inserted_window_dims",
                                   "input_batching_dims",
                                   "scatter_indices_batching_dims",
                                   "scatter_dims_to_operand_dims",
                                   "input",
                                   "scatter_indices",
                                   "updates"};

} // namespace

ResultTypes inferGather(const InferenceContext &context) {
  const auto &attrs = context.attrs<GatherAttrs>();
  const GatherDimensionNumbers &n = attrs.dimensionNumbers;
  const TensorType &operand = context.operand(0), &indices = context.operand(1);
  const IndexedDimsView dims{n.offsetDims,          n.collapsedSliceDims,
                             n.operandBatchingDims, n.startIndicesBatchingDims,
                             n.startIndexMap,       n.indexVectorDim};
  IndexedDimsChecker checker(context, kGatherKeys, dims, operand, indices, 1);
  checker.checkIndexing();
  const std::vector<int64_t> &sizes = attrs.sliceSizes;
  if (static_cast<int64_t>(sizes.size()) != operand.rank())
    context.failAttr("slice_sizes", "slice_sizes " + formatList(sizes) +
                                        " must have one entry per operand dimension (" +
                                        std::to_string(operand.rank()) + ")");
  for (int64_t d = 0; d < operand.rank(); ++d) {
    if (sizes[d] < 0 || sizes[d] > operand.shape[d])
      context.failAttr("slice_sizes", "slice size " + std::to_string(sizes[d]) +
                                          " is out of range [0, " +
                                          std::to_string(operand.shape[d]) + "] in dimension " +
                                          std::to_string(d));
    const bool dropped = std::count(n.collapsedSliceDims.begin(), n.collapsedSliceDims.end(), d) ||
                         std::count(n.operandBatchingDims.begin(), n.operandBatchingDims.end(), d);
    if (dropped && sizes[d] > 1)
      context.failAttr("slice_sizes", "slice size " + std::to_string(sizes[d]) +
                                          " of collapsed or batching dimension " +
                                          std::to_string(d) + " must be at most 1");
    // The spec reads operand[dim] then: past the end.
    if (dropped && sizes[d] == 0)
      context.failAttr("slice_sizes", "slice size 0 of collapsed or batching dimension " +
                                          std::to_string(d) +
                                          " is not supported (each result element would read "
                                          "past the operand's end)");
  }
  std::vector<int64_t> windowSizes;
  for (int64_t d : checker.windowOperandDims())
    windowSizes.push_back(sizes[d]);
  return {TensorType{operand.elementType, checker.slicesShape(windowSizes)}};
}

ResultTypes inferScatter(const InferenceContext &context) {
  const auto &attrs = context.attrs<ScatterAttrs>();
  const ScatterDimensionNumbers &n = attrs.dimensionNumbers;
  // N inputs, the scatter indices, N updates (C1-C3).
  const size_t numOperands = context.numOperands();
  if (numOperands < 3 || numOperands % 2 == 0)
    context.failAttr("operands", "takes N inputs, the scatter_indices and N updates (an odd "
                                 "number of operands, at least 3), got " +
                                     std::to_string(numOperands));
  const size_t numInputs = numOperands / 2;
  checkInputsOfOneShape(context, numInputs);
  const TensorType &input = context.operand(0), &indices = context.operand(numInputs),
                   &updates = context.operand(numInputs + 1);
  const IndexedDimsView dims{n.updateWindowDims,         n.insertedWindowDims,
                             n.inputBatchingDims,        n.scatterIndicesBatchingDims,
                             n.scatterDimsToOperandDims, n.indexVectorDim};
  IndexedDimsChecker checker(context, kScatterKeys, dims, input, indices, numInputs);
  checker.checkIndexing();
  const std::string operands = attrPointer(context.op, "operands");
  const std::string updatesPointer = joinPointer(operands, numInputs + 1);
  for (size_t i = 0; i < numInputs; ++i) {
    const TensorType &update = context.operand(numInputs + 1 + i);
    const std::string pointer = joinPointer(operands, numInputs + 1 + i);
    if (update.elementType != context.operand(i).elementType)
      fail(pointer, context.opLabel() + " updates " + printType(update) +
                        " must have the element type of the input " +
                        printType(context.operand(i)));
    if (i > 0 && update.shape != updates.shape)
      fail(pointer, context.opLabel() + " requires updates of one shape, got " +
                        printType(updates) + " and " + printType(update));
  }
  if (updates.rank() != checker.slicesRank())
    fail(updatesPointer, context.opLabel() + " updates " + printType(updates) + " must have rank " +
                             std::to_string(checker.slicesRank()) +
                             " (the batch dims of scatter_indices and the update_window_dims)");
  std::vector<int64_t> windowSizes;
  for (int64_t d : n.updateWindowDims)
    windowSizes.push_back(d >= 0 && d < updates.rank() ? updates.shape[d] : 0);
  const Shape expected = checker.slicesShape(windowSizes);
  const std::vector<int64_t> windowDims = checker.windowOperandDims();
  for (size_t w = 0; w < windowDims.size(); ++w)
    if (windowSizes[w] > input.shape[windowDims[w]])
      fail(updatesPointer, context.opLabel() + " update window dimension " +
                               std::to_string(n.updateWindowDims[w]) + " of " + printType(updates) +
                               " is larger than dimension " + std::to_string(windowDims[w]) +
                               " of the input " + printType(input));
  if (updates.shape != expected)
    fail(updatesPointer, context.opLabel() + " updates " + printType(updates) +
                             " must have shape " +
                             printType(TensorType{updates.elementType, expected}) +
                             " (the batch dims of scatter_indices and the update windows)");
  const Region *body = context.op.body();
  if (!body)
    context.failOp("needs an `update_computation`");
  // C23, as a reduce body: N current values, then N updates.
  checkPairedBody(context, *body, numInputs, "update_computation", "a current value and an update");
  std::vector<TensorType> results;
  for (size_t i = 0; i < numInputs; ++i)
    results.push_back(context.operand(i));
  return results;
}

} // namespace shardgen::verify
