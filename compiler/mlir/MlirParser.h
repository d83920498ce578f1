#pragma once
// A recursive-descent parser for the subset of MLIR text that JAX, Shardy's
// tests and XLA dumps print for StableHLO + sdy programs: a module of
// `sdy.mesh` definitions and `func.func`s whose ops are in StableHLO's
// pretty form or MLIR's generic form. Syntax only; what the ops mean is the
// importer's job. Errors are GraphError("line:col", message).

#include <string_view>

#include "compiler/mlir/MlirSyntax.h"

namespace shardgen::mlir {

Module parseModule(std::string_view text);

/// The tensor type `ref` states (the text keeps types as written), or an
/// error at `where`: `prefix`, then why it is not one.
TensorType statedType(const TypeRef &ref, const std::string &where, const std::string &prefix = "");

/// Whether `text` looks like MLIR rather than JSON: after space and `//`
/// comments it starts with `module`, `#`, `func.func`, `sdy.mesh` or `"builtin.module"`.
bool looksLikeMlir(std::string_view text);

} // namespace shardgen::mlir
