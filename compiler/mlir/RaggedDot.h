#pragma once
// chlo.ragged_dot (jax.lax.ragged_dot: a mixture of experts' grouped
// matmul) read as StableHLO's own legalization writes it
// (chlo-legalize-to-stablehlo): each becomes a call of a private function
// that masks the lhs to one group at a time and multiplies it by that
// group's rhs (mode 1, the ragged dim an lhs free dim: one dot per group,
// summed), or by the whole rhs (mode 2, the ragged dim contracting: the
// groups' products stacked on a new leading dim); mode 3 (the ragged dim a
// batch dim) is a plain dot_general. The importer inlines the call as any
// other, so the ops it runs are ordinary dot_generals, selects and slices.

#include "compiler/mlir/MlirSyntax.h"

namespace shardgen::mlir {

/// The most groups the ragged_dots of a module may have in all: each
/// group's part of a decomposition holds about 16 ops (checked before the
/// decompositions are made).
inline constexpr int64_t kMaxRaggedDotGroups = 4096;

/// Rewrites every chlo.ragged_dot of `module` (in any function and region)
/// into a func.call of a function added to the module, named
/// `chlo.ragged_dot.N`. Errors name the op's place.
void expandRaggedDots(Module &module);

} // namespace shardgen::mlir
