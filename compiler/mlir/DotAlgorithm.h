#pragma once
// dot_general's `algorithm` (#stablehlo.dot_algorithm, what JAX prints for
// `precision=jax.lax.DotAlgorithmPreset.*`): the precision each operand is
// rounded to, the type the products are summed in, and the components an
// operand is split into to emulate a wider type (bf16_6x: three bf16
// components per operand, six dots). The importer reads such a dot as the
// StableHLO ops that compute it: each operand rounded (convert to the
// precision type, or reduce_precision for tf32) and split into components
// (each the rounding of what the ones before left), one dot_general per
// pair of components the algorithm takes (the pairs whose indices sum to at
// most k, for the k that gives num_primitive_operations of them), summed
// from the smallest terms up in the accumulation type.

#include <cstdint>
#include <vector>

#include "compiler/mlir/MlirSyntax.h"

namespace shardgen::mlir {

/// The most operations decomposeDotAlgorithm gives (three components per
/// operand, nine dots): what the inlining budget counts for such a dot.
inline constexpr uint64_t kMaxDotAlgorithmSteps = 64;

/// Whether `op` is a dot_general (or dot) with an `algorithm` attribute.
bool hasDotAlgorithm(const Operation &op);

/// The operations computing `dot`'s result (generic form, the dot's place).
/// The last defines its result with its shardings and metadata; the others
/// define values `<result>#<k>`. On integer operands the algorithm's float
/// precisions do not apply (as in StableHLO's interpreter): the dot alone.
/// Errors (a malformed or unsupported algorithm, C21-C24) name the place.
std::vector<Operation> decomposeDotAlgorithm(const Operation &dot);

} // namespace shardgen::mlir
