#pragma once
// The LAPACK custom calls JAX prints on CPU for jnp.linalg and
// jax.scipy.linalg, read as the StableHLO ops that compute them:
// - `lapack_{s,d,c,z}getrf_ffi` (LU with partial pivoting: jnp.linalg.solve,
//   inv, det, slogdet, lax.linalg.lu): a while loop over the columns that
//   picks the first element of largest magnitude (|re| + |im| on complex, as
//   LAPACK's i?amax), swaps its row up, scales the column below the pivot by
//   the pivot's reciprocal and subtracts the outer product from the trailing
//   block. Results: the factors, the 1-based pivots, and info (the 1-based
//   first zero pivot, else 0), as LAPACK gives them.
// - `lapack_{s,d,c,z}potrf_ffi` (Cholesky: jnp.linalg.cholesky,
//   jax.scipy.linalg.cho_factor): the same loop taking square roots; the
//   triangle `uplo` names (76 'L' or 85 'U') is factored, the other keeps the
//   operand's values; info is the 1-based order of the first leading minor
//   that is not positive definite, the columns from it on left unfactored.
// Leading dims are a batch. Each call becomes a func.call of a private
// function the importer inlines as any other call.

#include "compiler/mlir/MlirSyntax.h"

namespace shardgen::mlir {

/// Rewrites every LAPACK custom call above of `module` into a func.call of a
/// function added to the module. Errors (types, attributes) name the op's
/// place.
void expandLapackCalls(Module &module);

} // namespace shardgen::mlir
