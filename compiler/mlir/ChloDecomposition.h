#pragma once
// The `chlo` ops JAX prints (chlo.erf_inv, chlo.lgamma, chlo.sinh, ...) are
// no StableHLO ops: XLA legalizes them into StableHLO before it compiles. The
// importer does the same here, so the graph holds StableHLO ops only: each
// chlo op becomes a sequence of StableHLO operations (the same syntax tree
// the parser builds), which the importer then reads as if the text had held
// them. f16 and bf16 operands are computed in f32, as XLA does.

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/mlir/MlirSyntax.h"

namespace shardgen::mlir {

/// Whether `name` is a chlo op this file decomposes.
bool isDecomposedChlo(const std::string &name);

/// The most operations decomposeChlo gives for the op `name` (a decomposed
/// chlo op), whatever its element type: what the inlining budget counts.
uint64_t decompositionSize(const std::string &name);

/// The StableHLO operations computing `chlo`'s result, in order (generic
/// form, the chlo op's location). The last one defines the chlo op's result
/// and carries its attributes (shardings, metadata); the others define
/// values named `<result>#<k>`, which no MLIR text can name. Errors (an
/// operand that is not a float tensor, a missing type) name the op's place.
std::vector<Operation> decomposeChlo(const Operation &chlo);

} // namespace shardgen::mlir
