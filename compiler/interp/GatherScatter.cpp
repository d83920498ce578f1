// gather and scatter as StableHLO's spec defines them ("gather", "scatter"
// in spec.md), one element at a time: this is the oracle, written for
// clarity. Both map an index of their slices (gather's result, scatter's
// updates) to an operand index: start (from the indices tensor) + batching
// + offset. gather clamps the start so the slice lies inside the operand;
// scatter skips an update element whose index falls outside.

#include <algorithm>
#include <cstring>
#include <functional>

#include "compiler/interp/ElementTraits.h"
#include "compiler/interp/Kernels.h"
#include "compiler/interp/ScalarRegion.h"
#include "compiler/interp/StridedLoop.h"

namespace shardgen::interp {
namespace {

/// The dimension numbers gather and scatter share, in gather's words.
struct IndexedView {
  const std::vector<int64_t> &offsetDims, &collapsedDims, &operandBatching, &indicesBatching,
      &indexMap;
  int64_t indexVectorDim;
};

IndexedView viewOf(const GatherDimensionNumbers &n) {
  return {n.offsetDims,    n.collapsedSliceDims, n.operandBatchingDims, n.startIndicesBatchingDims,
          n.startIndexMap, n.indexVectorDim};
}
IndexedView viewOf(const ScatterDimensionNumbers &n) {
  return {n.updateWindowDims,           n.insertedWindowDims,       n.inputBatchingDims,
          n.scatterIndicesBatchingDims, n.scatterDimsToOperandDims, n.indexVectorDim};
}

int64_t elementCount(const Shape &shape) {
  int64_t n = 1;
  for (int64_t extent : shape)
    n *= extent;
  return n;
}

bool hasDim(const std::vector<int64_t> &dims, int64_t d) {
  return std::find(dims.begin(), dims.end(), d) != dims.end();
}

/// The operand position of each slices index, dim by dim, before gather's
/// clamp: `start` (a start index; `past` when it is a ui64 of 2^63 or more,
/// past every end) and `rest` (batching + offset, always in range).
class IndexedMapping {
public:
  IndexedMapping(const IndexedView &view, const Shape &operand, const Literal &indices,
                 const Shape &slices)
      : view_(view), indices_(indices), indexStrides_(denseStrides(indices.shape())),
        operandRank_(static_cast<int64_t>(operand.size())) {
    for (int64_t d = 0; d < static_cast<int64_t>(slices.size()); ++d)
      (hasDim(view.offsetDims, d) ? offsetDims_ : batchDims_).push_back(d);
    for (int64_t d = 0; d < operandRank_; ++d)
      if (!hasDim(view.collapsedDims, d) && !hasDim(view.operandBatching, d))
        windowDims_.push_back(d);
  }

  struct Position {
    std::vector<int64_t> start, rest;
    std::vector<bool> past;
  };

  /// The slices' dims, batch dims first: scatter's schedule (an order the
  /// spec leaves to the implementation; the generated code's).
  std::vector<int64_t> batchMajorOrder() const {
    std::vector<int64_t> order = batchDims_;
    order.insert(order.end(), offsetDims_.begin(), offsetDims_.end());
    return order;
  }

  void map(const std::vector<int64_t> &sliceIndex, Position &out) const {
    out.start.assign(operandRank_, 0);
    out.rest.assign(operandRank_, 0);
    out.past.assign(operandRank_, false);
    const int64_t indicesRank = static_cast<int64_t>(indices_.shape().size());
    // The batch index, with room for the index vector dim.
    std::vector<int64_t> at(indicesRank, 0);
    for (size_t b = 0; b < batchDims_.size(); ++b) {
      const int64_t d = static_cast<int64_t>(b) < view_.indexVectorDim
                            ? static_cast<int64_t>(b)
                            : static_cast<int64_t>(b) + 1;
      at[d] = sliceIndex[batchDims_[b]];
    }
    for (size_t k = 0; k < view_.indexMap.size(); ++k) {
      if (view_.indexVectorDim < indicesRank)
        at[view_.indexVectorDim] = static_cast<int64_t>(k);
      int64_t linear = 0;
      for (int64_t d = 0; d < indicesRank; ++d)
        linear += at[d] * indexStrides_[d];
      const int64_t value = indices_.getInt(linear);
      const int64_t d = view_.indexMap[k];
      out.start[d] = value;
      out.past[d] = value < 0 && indices_.elementType() == ElementType::UI64;
    }
    for (size_t i = 0; i < view_.operandBatching.size(); ++i) {
      const int64_t startDim = view_.indicesBatching[i];
      const int64_t b = startDim - (startDim < view_.indexVectorDim ? 0 : 1);
      out.rest[view_.operandBatching[i]] = sliceIndex[batchDims_[b]];
    }
    for (size_t w = 0; w < windowDims_.size(); ++w)
      out.rest[windowDims_[w]] = sliceIndex[offsetDims_[w]];
  }

private:
  const IndexedView &view_;
  const Literal &indices_;
  std::vector<int64_t> indexStrides_;
  int64_t operandRank_;
  std::vector<int64_t> batchDims_, offsetDims_, windowDims_;
};

/// Steps an index through `shape`, the last of `order`'s dims fastest;
/// false once past the end.
bool stepIndex(std::vector<int64_t> &index, const Shape &shape, const std::vector<int64_t> &order) {
  for (auto d = order.rbegin(); d != order.rend(); ++d) {
    if (++index[*d] < shape[*d])
      return true;
    index[*d] = 0;
  }
  return false;
}

std::vector<int64_t> rowMajorOrder(size_t rank) {
  std::vector<int64_t> order(rank);
  for (size_t d = 0; d < rank; ++d)
    order[d] = static_cast<int64_t>(d);
  return order;
}

} // namespace

Literal evalGather(const Literal &operand, const Literal &startIndices, const GatherAttrs &attrs,
                   const Shape &resultShape) {
  Literal result(TensorType{operand.elementType(), resultShape});
  if (result.numElements() == 0)
    return result;
  const IndexedView view = viewOf(attrs.dimensionNumbers);
  const Shape &dims = operand.shape();
  const IndexedMapping mapping(view, dims, startIndices, resultShape);
  const std::vector<int64_t> strides = denseStrides(dims);
  const size_t width = elementByteWidth(operand.elementType());
  std::vector<int64_t> index(resultShape.size(), 0);
  const std::vector<int64_t> order = rowMajorOrder(resultShape.size());
  IndexedMapping::Position position;
  int64_t out = 0;
  do {
    mapping.map(index, position);
    int64_t linear = 0;
    for (size_t d = 0; d < dims.size(); ++d) {
      const int64_t last = dims[d] - attrs.sliceSizes[d];
      const int64_t start =
          position.past[d] ? last : std::clamp<int64_t>(position.start[d], 0, last);
      linear += (start + position.rest[d]) * strides[d];
    }
    std::memcpy(result.data() + out * static_cast<int64_t>(width),
                operand.data() + linear * static_cast<int64_t>(width), width);
    ++out;
  } while (stepIndex(index, resultShape, order));
  return result;
}

void forEachScatterPlace(const Shape &input, const Literal &scatterIndices, const Shape &updates,
                         const ScatterAttrs &attrs,
                         const std::function<void(int64_t place, int64_t update)> &visit) {
  if (elementCount(updates) == 0)
    return;
  const IndexedView view = viewOf(attrs.dimensionNumbers);
  const IndexedMapping mapping(view, input, scatterIndices, updates);
  const std::vector<int64_t> strides = denseStrides(input);
  // Each update position once, batch positions in row-major order and the
  // window's elements in row-major order at each (the generated code's
  // order: duplicate places combine in it).
  std::vector<int64_t> index(updates.size(), 0);
  const std::vector<int64_t> order = mapping.batchMajorOrder();
  const std::vector<int64_t> updateStrides = denseStrides(updates);
  IndexedMapping::Position position;
  do {
    mapping.map(index, position);
    int64_t place = 0;
    bool inBounds = true;
    for (size_t d = 0; d < input.size() && inBounds; ++d) {
      // start + rest in [0, dim), without overflow (rest < dim).
      const int64_t start = position.start[d], rest = position.rest[d];
      inBounds = !position.past[d] && start >= -rest && start < input[d] - rest;
      if (inBounds)
        place += (start + rest) * strides[d];
    }
    if (inBounds) {
      int64_t update = 0;
      for (size_t d = 0; d < index.size(); ++d)
        update += index[d] * updateStrides[d];
      visit(place, update);
    }
  } while (stepIndex(index, updates, order));
}

std::vector<Literal> evalScatter(std::span<const Literal *const> inputs,
                                 const Literal &scatterIndices,
                                 std::span<const Literal *const> updates, const ScatterAttrs &attrs,
                                 const ScalarRegion &updateComputation) {
  // results = inputs; then per update element in range, all N results at
  // its place take update_computation(results..., updates...) at once.
  const size_t n = inputs.size();
  std::vector<Literal> results;
  for (const Literal *input : inputs)
    results.push_back(*input);
  std::vector<ScalarBits> arguments(2 * n), combined(n);
  forEachScatterPlace(inputs[0]->shape(), scatterIndices, updates[0]->shape(), attrs,
                      [&](int64_t place, int64_t update) {
                        for (size_t i = 0; i < n; ++i) {
                          arguments[i] = loadScalarBits(results[i], place);
                          arguments[n + i] = loadScalarBits(*updates[i], update);
                        }
                        updateComputation.run(arguments, combined);
                        for (size_t i = 0; i < n; ++i)
                          storeScalarBits(results[i], place, combined[i]);
                      });
  return results;
}

} // namespace shardgen::interp
