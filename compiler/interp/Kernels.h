#pragma once
// The interpreter's kernels: one function per op family, on whole (local)
// tensors. They assume a verified graph (shapes and attributes consistent);
// operand combinations StableHLO does not define (e.g. `and` on floats) raise
// a GraphError with an empty pointer that the interpreter fills in.

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "compiler/ir/Attributes.h"
#include "compiler/ir/Literal.h"
#include "compiler/ir/OpKind.h"

namespace shardgen::interp {

/// One result as an op's list of results.
inline std::vector<Literal> oneResult(Literal literal) {
  std::vector<Literal> results;
  results.push_back(std::move(literal));
  return results;
}

class ScalarRegion;

// Elementwise.cpp
Literal evalUnary(OpKind kind, const Literal &operand);
Literal evalBinary(OpKind kind, const Literal &lhs, const Literal &rhs);
Literal evalCompare(ComparisonDirection direction, const Literal &lhs, const Literal &rhs);
/// `pred` is a scalar or has the shape of the branches.
Literal evalSelect(const Literal &pred, const Literal &onTrue, const Literal &onFalse);
/// `min` and `max` are scalars or have the operand's shape.
Literal evalClamp(const Literal &min, const Literal &operand, const Literal &max);

// Convert.cpp
Literal evalConvert(const Literal &operand, ElementType resultType);

// DotGeneral.cpp
Literal evalDotGeneral(const Literal &lhs, const Literal &rhs, const DotGeneralAttrs &attrs);

// ShapeOps.cpp
Literal evalIota(const TensorType &type, int64_t iotaDimension);
Literal evalTranspose(const Literal &operand, const std::vector<int64_t> &permutation);
Literal evalReshape(const Literal &operand, const Shape &resultShape);
Literal evalBroadcastInDim(const Literal &operand, const std::vector<int64_t> &broadcastDimensions,
                           const Shape &resultShape);
Literal evalConcatenate(const std::vector<const Literal *> &operands, int64_t dimension);
Literal evalSlice(const Literal &operand, const std::vector<int64_t> &startIndices,
                  const std::vector<int64_t> &limitIndices, const std::vector<int64_t> &strides);
Literal evalPad(const Literal &operand, const Literal &padValue, const PadAttrs &attrs);
Literal evalReverse(const Literal &operand, const std::vector<int64_t> &dimensions);
/// The block of `shape` starting at `offsets` (unit strides).
Literal extractBlock(const Literal &operand, const std::vector<int64_t> &offsets,
                     const Shape &shape);
/// Writes `block` into `target` starting at `offsets`.
void insertBlock(Literal &target, const Literal &block, const std::vector<int64_t> &offsets);

// Reduce.cpp
/// reduce with one of the six simple reducers.
Literal evalReduce(const Literal &operand, const Literal &init, const std::vector<int64_t> &dims,
                   Reducer reducer);
/// reduce with a general body (several inputs, any scalar body): each
/// output element starts from the inits and takes its inputs in row-major
/// order, acc = body(acc..., x...).
std::vector<Literal> evalReduceRegion(std::span<const Literal *const> inputs,
                                      std::span<const Literal *const> inits,
                                      const std::vector<int64_t> &dims, const ScalarRegion &body);
/// Combines same-typed tensors elementwise with `reducer`, in the given order
/// (floats accumulate in their compute type and round once): all_reduce's
/// arithmetic.
Literal combineElementwise(const std::vector<const Literal *> &operands, Reducer reducer);

// Windows.cpp
/// A window over every dim of a tensor (reduce_window's attributes; a
/// convolution's lhs window, select_and_scatter's with no dilations).
struct WindowSpec {
  Shape dimensions;
  std::vector<int64_t> strides, baseDilations, windowDilations;
  std::vector<std::array<int64_t, 2>> padding;
};
WindowSpec reduceWindowSpec(const ReduceWindowAttrs &attrs);
/// select_and_scatter's window: no dilations.
WindowSpec selectAndScatterSpec(const SelectAndScatterAttrs &attrs);
/// The number of windows along each dim (StableHLO's num_windows).
Shape windowOutputShape(const Shape &input, const WindowSpec &window);
/// Calls visit(window, offset) for each element of each window: windows in
/// row-major order (their flat index), positions in row-major order within
/// each; `offset` is the input element's, -1 for padding or a hole.
void forEachWindowElement(const Shape &input, const WindowSpec &window,
                          const std::function<void(int64_t, int64_t)> &visit);
/// reduce_window of N inputs: acc... = body(acc..., x...) from the init
/// values over each window's elements, padding and holes reading the inits.
std::vector<Literal> evalReduceWindow(std::span<const Literal *const> inputs,
                                      std::span<const Literal *const> inits,
                                      const WindowSpec &window, const ScalarRegion &body);
Literal evalSelectAndScatter(const Literal &operand, const Literal &source, const Literal &init,
                             const WindowSpec &window, const ScalarRegion &select,
                             const ScalarRegion &scatter);
/// The convolution's lhs window over every lhs dim (size 1 on batch and
/// feature).
WindowSpec convolutionLhsWindow(const ConvolutionAttrs &attrs, const Shape &lhs, const Shape &rhs);
Literal evalConvolution(const Literal &lhs, const Literal &rhs, const ConvolutionAttrs &attrs,
                        const TensorType &resultType);

} // namespace shardgen::interp
