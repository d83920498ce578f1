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
/// `totalOrder`: StableHLO's TOTALORDER compare type (IEEE totalOrder on
/// floats; the usual order on integers).
Literal evalCompare(ComparisonDirection direction, const Literal &lhs, const Literal &rhs,
                    bool totalOrder = false);
/// `pred` is a scalar or has the shape of the branches.
Literal evalSelect(const Literal &pred, const Literal &onTrue, const Literal &onFalse);
/// `min` and `max` are scalars or have the operand's shape.
Literal evalClamp(const Literal &min, const Literal &operand, const Literal &max);

// ComplexParts.cpp
/// real (`imaginary` false) or imag of a float or complex operand.
Literal evalComplexPart(const Literal &operand, bool imaginary);
/// complex(real, imaginary) of two f32 or f64 tensors.
Literal evalComplex(const Literal &real, const Literal &imaginary);
/// abs of a complex tensor: the modulus, of the part type.
Literal evalComplexAbs(const Literal &operand);

// Convert.cpp
Literal evalConvert(const Literal &operand, ElementType resultType);

// ElementBits.cpp
/// A float tensor's elements: neither infinite nor NaN (i1).
Literal evalIsFinite(const Literal &operand);
/// Rounds each element to a float format of `exponentBits` and
/// `mantissaBits` and back (XLA's overflow, underflow and NaN rules).
Literal evalReducePrecision(const Literal &operand, int64_t exponentBits, int64_t mantissaBits);
/// The operand's bits as `resultType` (a verified bitcast_convert).
Literal evalBitcastConvert(const Literal &operand, const TensorType &resultType);

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
/// sort: the slices of `inputs` along `dim` sorted together by
/// `comparator` (2N scalars -> i1), stably: a merge sort whose schedule
/// (runs of kSortRun by insertion, then pairwise merges) generated code
/// follows too, so any comparator gives the same result in both.
std::vector<Literal> evalSort(std::span<const Literal *const> inputs, int64_t dim,
                              const ScalarRegion &comparator);
/// chlo.top_k: per last-dim row the k largest elements (TOTALORDER: NaN
/// above +inf, -NaN below -inf) in descending order, ties by the lower
/// index first, and their indices (i32).
std::vector<Literal> evalTopK(const Literal &operand, int64_t k);
/// Combines same-typed tensors elementwise with `reducer`, in the given order
/// (floats accumulate in their compute type and round once): all_reduce's
/// arithmetic.
Literal combineElementwise(const std::vector<const Literal *> &operands, Reducer reducer);

// GatherScatter.cpp
/// gather: the result (of `resultShape`) reads the operand at each clamped
/// start plus its offset.
Literal evalGather(const Literal &operand, const Literal &startIndices, const GatherAttrs &attrs,
                   const Shape &resultShape);
/// scatter's places: `visit(place, update)` for each update element (its
/// index in the updates) whose place (its index in the input) lies inside
/// the input, in the order the update computation applies them.
void forEachScatterPlace(const Shape &input, const Literal &scatterIndices, const Shape &updates,
                         const ScatterAttrs &attrs,
                         const std::function<void(int64_t place, int64_t update)> &visit);
/// scatter: `input` with each update element combined into its place by the
/// update computation, in row-major order of `updates`; an element whose
/// place lies outside the input is skipped.
/// N inputs and N updates (variadic scatter); N results.
std::vector<Literal> evalScatter(std::span<const Literal *const> inputs,
                                 const Literal &scatterIndices,
                                 std::span<const Literal *const> updates, const ScatterAttrs &attrs,
                                 const ScalarRegion &updateComputation);
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

// RngBitGenerator.cpp
/// rng_bit_generator as XLA's CPU backend computes it: {output_state,
/// output} from `state` (verified: 1-D ui64 of the algorithm's size) and
/// the output's type.
std::vector<Literal> evalRngBitGenerator(const Literal &state, RngAlgorithm algorithm,
                                         const TensorType &outputType);

// Fft.cpp
/// fft as StableHLO's spec defines it (verified attributes), computed in
/// double for f32 and complex<f32>, in long double for f64 and complex<f64>.
Literal evalFft(const Literal &operand, const FftAttrs &attrs, const TensorType &resultType);

} // namespace shardgen::interp
