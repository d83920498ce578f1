#pragma once
// The functions LAPACK's factorizations are read as (LapackCalls.h): the
// text of one `func.func private @name`, of StableHLO ops over a batch of
// matrices `a` (its leading dims the batch).

#include <string>

#include "compiler/ir/TensorType.h"

namespace shardgen::mlir {

/// The columns a blocked factorization takes at a time, for `steps`
/// columns to factor (a matrix of at most this many is factored a column
/// per step over the whole matrix). Each step of a panel costs its rows x
/// width, each panel a few passes over the whole matrix: wider panels pay
/// off on larger matrices (bench/linalg_torch.py: 8 fastest up to 256,
/// 32 at 1024).
inline int64_t lapackPanelWidth(int64_t steps) {
  return steps <= 256 ? 8 : steps <= 512 ? 16 : steps <= 2048 ? 32 : 64;
}

/// The Jacobi sweeps of eigh and svd at most: Jacobi converges
/// quadratically, a few sweeps more than log2 of the order in practice, so
/// a matrix still rotating after these holds NaN or infinity (eigh's info
/// 1), or rotates by its rounding errors alone (svd).
constexpr int64_t kJacobiMaxSweeps = 30;

/// getrf: `(a) -> (factors, 1-based pivots [batch x min(m, n)], info
/// [batch])`. Up to 64 columns, one loop step per column over the whole
/// matrix; above, a panel of 64 columns at a time (its row swaps applied
/// to the rest with one gather, the rows to its right solved with a
/// triangular solve, the trailing block updated with one product).
std::string luFunctionText(const std::string &name, const TensorType &a);

/// lu_pivots_to_permutation (JAX's GPU custom call): `(pivots [batch x k],
/// 0-based) -> permutation [batch x size]`, the identity with rows i and
/// pivots[i] swapped for i = 0, 1, ..., k - 1 (a pivot out of range
/// skipped).
std::string pivotsToPermutationText(const std::string &name, const TensorType &pivots,
                                    int64_t size);

/// potrf: `(a) -> (factor, info [batch])`, the `lower` triangle factored;
/// above 64 columns, a panel at a time, the trailing block less L21 L21^H
/// with one product.
std::string choleskyFunctionText(const std::string &name, const TensorType &a, bool lower);

/// geqrf: `(a) -> (a', taus [batch x min(m, n)])`: R on and above the
/// diagonal, below it the Householder vectors v (v_i = 1 implied) of
/// H_i = I - tau_i v v^H, as LAPACK's unblocked geqr2 computes them.
std::string qrFunctionText(const std::string &name, const TensorType &a);

/// orgqr / ungqr: `(a, taus) -> q`, the first n columns of H_0 ... H_k-1
/// (k = taus' last dim), from the vectors below a's diagonal.
std::string householderProductText(const std::string &name, const TensorType &a,
                                   const TensorType &taus);

/// gesdd / gesvd: `(a) -> (a, s [batch x k], u, vt, info [batch])`, k =
/// min(m, n): the singular values in descending order, u m x m (`full`)
/// or m x k, vt n x n or k x n (zeros unless `vectors`), a as it is (JAX
/// drops LAPACK's overwritten copy), info 0. One-sided Jacobi; the text
/// also holds the functions `<name>.geqrf` and `<name>.orgqr` it calls
/// (left singular vectors for zero singular values, or beyond k, complete
/// the others).
std::string svdFunctionText(const std::string &name, const TensorType &a, bool vectors, bool full);

/// syevd / heevd: `(a) -> (vectors, eigenvalues [batch x n], info
/// [batch])` of the Hermitian matrix a's `lower` (or upper) triangle
/// stands for: the eigenvalues ascending (of the real type), the
/// orthonormal eigenvectors as the columns of the first result (with
/// `vectors` false, a itself), info 1 where the Jacobi sweeps did not bring
/// the off-diagonal part within eps of the norm (EighDecomposition.cpp).
std::string eighFunctionText(const std::string &name, const TensorType &a, bool lower,
                             bool vectors);

} // namespace shardgen::mlir
