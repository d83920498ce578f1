#pragma once
// The type rules: the op table's `Infer` column (compiler/ops/Ops.def), one
// function per op or family of ops, declared here from the table (so a rule
// the table names and nobody defines fails the link); TypeInference.cpp
// dispatches to them. The rules live one file per kind of op:
// ElementwiseInference.cpp, ShapeOpInference.cpp, CollectiveVerifier.cpp,
// TypeInference.cpp (sharding ops, custom_call, manual_computation).

#include <vector>

#include "compiler/verify/InferenceContext.h"

namespace shardgen::verify {

/// The op's result types, in order.
using ResultTypes = std::vector<TensorType>;

#define SHARDGEN_OP(Kind, Name, Category, Operands, Results, Attrs, Elements, Bound, Mlir, Infer,  \
                    ...)                                                                           \
  ResultTypes Infer(const InferenceContext &context);
#include "compiler/ops/Ops.def"

/// Operand and result counts from the op's row (e.g. `"add" takes 2
/// operands, got 3`).
void verifyArity(const InferenceContext &context);

/// Dimension numbers in attribute `key`: each in [0, rank), none repeated.
void checkDimensions(const InferenceContext &context, const std::string &key,
                     const std::vector<int64_t> &dims, int64_t rank);

/// A variadic op's first `numInputs` operands (reduce's and sort's inputs):
/// one result each, all of one shape.
void checkInputsOfOneShape(const InferenceContext &context, size_t numInputs);
/// reduce's and reduce_window's operands: N inputs of one shape (one result
/// each), then N init values; returns N.
size_t checkInputsThenInits(const InferenceContext &context);

/// Tokens only where an op may take or make one (TokenInference.cpp).
void verifyTokenUses(const InferenceContext &context);
/// A body of N pairs (reduce's, scatter's update_computation): (tensor<E_0>,
/// ..., tensor<E_N-1>) twice -> (tensor<E_0>, ..., tensor<E_N-1>), E_i the
/// element type of operand i (shardgen promotes no element type). `name`
/// and `argumentsPerInput` word the errors.
void checkPairedBody(const InferenceContext &context, const Region &body, size_t numInputs,
                     const std::string &name, const std::string &argumentsPerInput);

/// Collectives are valid only inside a manual_computation body.
void verifyCollectivePlacement(const InferenceContext &context);

} // namespace shardgen::verify
