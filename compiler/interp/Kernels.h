#pragma once
// The interpreter's kernels: one function per op family, on whole (local)
// tensors. They assume a verified graph (shapes and attributes consistent);
// operand combinations StableHLO does not define (e.g. `and` on floats) raise
// a GraphError with an empty pointer that the interpreter fills in.

#include <cstdint>
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

// ComplexParts.cpp
/// real (`imaginary` false) or imag of a float or complex operand.
Literal evalComplexPart(const Literal &operand, bool imaginary);
/// complex(real, imaginary) of two f32 or f64 tensors.
Literal evalComplex(const Literal &real, const Literal &imaginary);
/// abs of a complex tensor: the modulus, of the part type.
Literal evalComplexAbs(const Literal &operand);

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

} // namespace shardgen::interp
