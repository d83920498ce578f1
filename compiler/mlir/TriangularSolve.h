#pragma once
// stablehlo.triangular_solve (jax.scipy.linalg.solve_triangular, and what
// jnp.linalg.solve prints after its LU) read as the StableHLO ops of a
// substitution: each becomes a call of a private function
// `stablehlo.triangular_solve.N` that brings the system to op(a) x = b form
// (transposing a and b for a right-side solve, conjugating a for ADJOINT),
// keeps a's triangle (its diagonal as 1 for unit_diagonal), and solves one
// row of x per iteration of a while loop, forward for a lower and backward
// for an upper triangle: x_i = (b_i - a_i . x) / a_ii, where the rows of x
// not yet solved are 0. Above 64 rows, a block of 64 rows per step of an
// outer loop (one product for the rows before it, then the block row by
// row), the system padded to whole blocks. The importer inlines the call as any other, so
// every stage sees ordinary ops (their --check bounds included).

#include "compiler/mlir/MlirSyntax.h"

namespace shardgen::mlir {

/// Rewrites every stablehlo.triangular_solve of `module` (in any function
/// and region) into a func.call of a function added to the module. Errors
/// (the spec's C1-C4, a malformed attribute) name the op's place.
void expandTriangularSolves(Module &module);

} // namespace shardgen::mlir
