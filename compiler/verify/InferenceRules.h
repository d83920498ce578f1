#pragma once
// The type inference rules, grouped by kind of op (one file per group);
// TypeInference.cpp dispatches to them.

#include <vector>

#include "compiler/verify/InferenceContext.h"

namespace shardgen::verify {

/// Operand and result counts (e.g. `"add" takes 2 operands, got 3`).
void verifyArity(const InferenceContext &context);

/// Elementwise unary/binary ops, compare, select, clamp, convert.
TensorType inferElementwise(const InferenceContext &context);

/// constant, iota, dot_general, transpose, reshape, broadcast_in_dim, reduce,
/// concatenate, slice, pad, reverse.
TensorType inferShapeOp(const InferenceContext &context);

/// reduce, with one or several inputs: the result types (one per input).
/// Needs its body, if any, verified.
std::vector<TensorType> inferReduce(const InferenceContext &context);

/// Dimension numbers in attribute `key`: each in [0, rank), none repeated.
void checkDimensions(const InferenceContext &context, const std::string &key,
                     const std::vector<int64_t> &dims, int64_t rank);

/// Collectives are valid only inside a manual_computation body.
void verifyCollectivePlacement(const InferenceContext &context);
/// Collectives; checks their axes are manual axes of an enclosing body.
TensorType inferCollective(const InferenceContext &context);

} // namespace shardgen::verify
