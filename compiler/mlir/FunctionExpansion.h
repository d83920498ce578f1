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

/// Makes every op named `opName` of `module` (in any function and region)
/// a `func.call` of a private function `<opName>.N` added to the module:
/// `functionText(op, name)` writes it (a `func.func private @name`, then
/// any functions it calls, named `@name.<suffix>`), and
/// it and its ops get the op's place, so any later error names the op. The
/// op's `sdy.sharding` (its results' shardings) stays on the call.
void expandEach(
    Module &module, const std::string &opName,
    const std::function<std::string(const Operation &op, const std::string &name)> &functionText);

/// The same for every op `matches` accepts (custom calls by target), its
/// function named `<nameOf(op)>.N`.
void expandEachMatching(
    Module &module, const std::function<bool(const Operation &op)> &matches,
    const std::function<std::string(const Operation &op)> &nameOf,
    const std::function<std::string(const Operation &op, const std::string &name)> &functionText);

} // namespace shardgen::mlir
