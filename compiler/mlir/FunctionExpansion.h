#pragma once
// What the importer's expansions share: an op read as a call of a private
// function written as StableHLO text (as StableHLO's own legalizations write
// it), which the importer then inlines as any other call.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compiler/ir/TensorType.h"
#include "compiler/mlir/MlirSyntax.h"

namespace shardgen::mlir {

/// `[a, b, c]`.
std::string integerList(const std::vector<int64_t> &values);
/// 0, 1, ..., n - 1.
std::vector<int64_t> upTo(int64_t n);
/// The body of `dense<...>` for a zero of `type` (as the writer prints
/// constants: 0, 0.0, (0.0, 0.0) or false).
std::string zeroOf(ElementType type);

/// Every op of `block` and its regions, depth first.
void forEachOp(Block &block, const std::function<void(Operation &)> &fn);

/// Parses `functionText` (one `func.func private @name`), gives it and its
/// ops `op`'s place (so any later error names the op), adds it to `added`
/// and makes `op` a `func.call` of it.
void replaceWithCall(Operation &op, const std::string &name, const std::string &functionText,
                     std::vector<Function> &added);

} // namespace shardgen::mlir
