#pragma once
// The LAPACK custom calls JAX prints on CPU for jnp.linalg and
// jax.scipy.linalg, read as the StableHLO ops that compute them (s, d, c, z:
// f32, f64, complex<f32>, complex<f64>; leading dims a batch):
// - `lapack_?getrf_ffi` (LU with partial pivoting: jnp.linalg.solve, inv,
//   det, slogdet, lax.linalg.lu): the factors, LAPACK's 1-based pivots (the
//   first row of largest |re| + |im|, as i?amax) and info (the 1-based first
//   zero pivot, else 0).
// - `lapack_?potrf_ffi` (Cholesky: jnp.linalg.cholesky, cho_factor): the
//   triangle `uplo` names (76 'L' or 85 'U') factored, the other keeping the
//   operand's values; info the first leading minor not positive definite.
// - `lapack_?geqrf_ffi` and `lapack_?orgqr_ffi` / `?ungqr` (QR:
//   jnp.linalg.qr, householder_product): LAPACK's Householder reflectors
//   and taus, and Q multiplied out from them.
// - `lapack_?syevd_ffi` / `lapack_?heevd_ffi` (s, d / c, z: the symmetric
//   or Hermitian eigendecomposition, jnp.linalg.eigh, eigvalsh): of the
//   matrix the triangle `uplo` names stands for, the eigenvectors as columns
//   (`mode` 86 'V'; with 78 'N' the operand back instead), the eigenvalues
//   ascending (the real type) and info (1 where Jacobi did not converge).
// - `lapack_?gesdd_ffi` / `lapack_?gesvd_ffi` (the SVD: jnp.linalg.svd,
//   pinv, lstsq, matrix_rank): the singular values descending (the real
//   type), U and V^H as `mode` says (65 'A' full, 83 'S' reduced, 78 'N'
//   none: zeros), info 0; the operand back as the first result.
// - The GPU solvers' `cusolver_` / `hipsolver_` + `getrf`, `potrf`
//   (backend_config `lower`), `geqrf`, `orgqr`, `syevd` (`lower`,
//   `algorithm`) (`_ffi`) on any of the four types, and `cu_` /
//   `hip_lu_pivots_to_permutation`.
// Each call becomes a func.call of a private function
// (LapackFactorizations.h: while loops over panels of columns, or Jacobi
// sweeps) that the importer inlines as any other call. Other LAPACK targets
// stay custom calls of the application's.

#include "compiler/mlir/MlirSyntax.h"

namespace shardgen::mlir {

/// Rewrites every LAPACK custom call above of `module` into a func.call of a
/// function added to the module. Errors (types, attributes) name the op's
/// place.
void expandLapackCalls(Module &module);

} // namespace shardgen::mlir
