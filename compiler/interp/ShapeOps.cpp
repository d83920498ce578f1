// Data-movement ops: each one is a strided copy between views of its operand
// and its result (see StridedLoop.h), so they are independent of the element
// type. iota is here too, as the one shape op that creates values.

#include <algorithm>
#include <string>

#include "compiler/interp/ElementTraits.h"
#include "compiler/interp/Kernels.h"
#include "compiler/interp/StridedLoop.h"

namespace shardgen::interp {
namespace {

StridedView denseView(const Shape &shape) { return StridedView{0, denseStrides(shape)}; }

size_t widthOf(const Literal &literal) { return elementByteWidth(literal.elementType()); }

/// Copies `source` seen through `sourceView` over the index space `shape`
/// into `target` seen through `targetView`.
void copy(const Shape &shape, const Literal &source, const StridedView &sourceView, Literal &target,
          const StridedView &targetView) {
  stridedCopy(shape, widthOf(source), source.data(), sourceView, target.data(), targetView);
}

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

} // namespace

Literal evalIota(const TensorType &type, int64_t iotaDimension) {
  Literal out(type);
  const std::vector<int64_t> strides = denseStrides(type.shape);
  const int64_t stride = strides[iotaDimension], size = type.shape[iotaDimension];
  dispatchElementType(type.elementType, [&](auto traits) {
    using T = decltype(traits);
    using S = typename T::Storage;
    using C = typename T::Compute;
    S *result = out.as<S>();
    for (int64_t i = 0, n = out.numElements(); i < n; ++i)
      result[i] = T::store(static_cast<C>((i / stride) % size));
  });
  return out;
}

Literal evalTranspose(const Literal &operand, const std::vector<int64_t> &permutation) {
  const std::vector<int64_t> operandStrides = denseStrides(operand.shape());
  Shape shape(permutation.size());
  StridedView source;
  for (size_t i = 0; i < permutation.size(); ++i) {
    shape[i] = operand.shape()[permutation[i]];
    source.strides.push_back(operandStrides[permutation[i]]);
  }
  Literal out(TensorType{operand.elementType(), shape});
  copy(shape, operand, source, out, denseView(shape));
  return out;
}

Literal evalReshape(const Literal &operand, const Shape &resultShape) {
  Literal out(TensorType{operand.elementType(), resultShape});
  if (out.numElements() != operand.numElements())
    unsupported("reshape cannot change the number of elements");
  std::copy(operand.data(), operand.data() + operand.byteSize(), out.data());
  return out;
}

Literal evalBroadcastInDim(const Literal &operand, const std::vector<int64_t> &broadcastDimensions,
                           const Shape &resultShape) {
  const std::vector<int64_t> operandStrides = denseStrides(operand.shape());
  // Result dims not mapped from the operand, and size-1 operand dims, repeat
  // the same element: stride 0.
  StridedView source{0, std::vector<int64_t>(resultShape.size(), 0)};
  for (size_t i = 0; i < broadcastDimensions.size(); ++i)
    if (operand.shape()[i] == resultShape[broadcastDimensions[i]])
      source.strides[broadcastDimensions[i]] = operandStrides[i];
  Literal out(TensorType{operand.elementType(), resultShape});
  copy(resultShape, operand, source, out, denseView(resultShape));
  return out;
}

Literal evalConcatenate(const std::vector<const Literal *> &operands, int64_t dimension) {
  if (operands.empty())
    unsupported("concatenate needs at least one operand");
  Shape shape = operands.front()->shape();
  shape[dimension] = 0;
  for (const Literal *operand : operands)
    shape[dimension] += operand->shape()[dimension];
  Literal out(TensorType{operands.front()->elementType(), shape});
  StridedView target = denseView(shape);
  for (const Literal *operand : operands) {
    copy(operand->shape(), *operand, denseView(operand->shape()), out, target);
    target.offset += operand->shape()[dimension] * target.strides[dimension];
  }
  return out;
}

Literal evalSlice(const Literal &operand, const std::vector<int64_t> &startIndices,
                  const std::vector<int64_t> &limitIndices, const std::vector<int64_t> &strides) {
  StridedView source = denseView(operand.shape());
  Shape shape(operand.shape().size());
  for (size_t d = 0; d < shape.size(); ++d) {
    shape[d] = std::max<int64_t>(0, ceilDiv(limitIndices[d] - startIndices[d], strides[d]));
    source.offset += startIndices[d] * source.strides[d];
    source.strides[d] *= strides[d];
  }
  Literal out(TensorType{operand.elementType(), shape});
  copy(shape, operand, source, out, denseView(shape));
  return out;
}

Literal evalPad(const Literal &operand, const Literal &padValue, const PadAttrs &attrs) {
  const size_t rank = operand.shape().size();
  Shape shape(rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t size = operand.shape()[d];
    const int64_t interior = size > 0 ? (size - 1) * attrs.interiorPadding[d] : 0;
    shape[d] = attrs.edgePaddingLow[d] + size + interior + attrs.edgePaddingHigh[d];
  }
  Literal out(TensorType{operand.elementType(), shape});
  copy(shape, padValue, StridedView{0, std::vector<int64_t>(rank, 0)}, out, denseView(shape));

  // Operand element i of dim d lands at low + i * (interior + 1); negative
  // low or high padding crops the elements that land outside the result.
  StridedView source = denseView(operand.shape());
  StridedView target = denseView(shape);
  Shape copied(rank);
  for (size_t d = 0; d < rank; ++d) {
    const int64_t step = attrs.interiorPadding[d] + 1;
    const int64_t low = attrs.edgePaddingLow[d];
    const int64_t first = low >= 0 ? 0 : ceilDiv(-low, step);
    const int64_t pastLast = std::min(operand.shape()[d], ceilDiv(shape[d] - low, step));
    copied[d] = std::max<int64_t>(0, pastLast - first);
    source.offset += first * source.strides[d];
    target.offset += (low + first * step) * target.strides[d];
    target.strides[d] *= step;
  }
  copy(copied, operand, source, out, target);
  return out;
}

Literal evalReverse(const Literal &operand, const std::vector<int64_t> &dimensions) {
  StridedView source = denseView(operand.shape());
  for (int64_t d : dimensions) {
    source.offset += (operand.shape()[d] - 1) * source.strides[d];
    source.strides[d] = -source.strides[d];
  }
  Literal out(operand.type());
  copy(operand.shape(), operand, source, out, denseView(operand.shape()));
  return out;
}

Literal extractBlock(const Literal &operand, const std::vector<int64_t> &offsets,
                     const Shape &shape) {
  StridedView source = denseView(operand.shape());
  for (size_t d = 0; d < shape.size(); ++d)
    source.offset += offsets[d] * source.strides[d];
  Literal out(TensorType{operand.elementType(), shape});
  copy(shape, operand, source, out, denseView(shape));
  return out;
}

void insertBlock(Literal &target, const Literal &block, const std::vector<int64_t> &offsets) {
  StridedView view = denseView(target.shape());
  for (size_t d = 0; d < offsets.size(); ++d)
    view.offset += offsets[d] * view.strides[d];
  copy(block.shape(), block, denseView(block.shape()), target, view);
}

} // namespace shardgen::interp
