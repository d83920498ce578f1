#pragma once
// The importer inlines every func.call (the graph format has no functions).
// A few lines can call a function that calls another twice, 30 levels deep:
// 2^30 ops. So the ops inlining would make are counted first, each function
// once (linear in the text), and a module past the budget is refused before
// anything is inlined.

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>

#include "compiler/mlir/MlirSyntax.h"

namespace shardgen::mlir {

/// Ops that inlining may add to one imported graph (about 2^20: a larger
/// graph than any JAX program lowers to, imported in seconds).
inline constexpr uint64_t kMaxInlinedOps = uint64_t(1) << 20;

/// Deepest chain of calls the importer inlines.
inline constexpr size_t kMaxCallDepth = 32;

class InlineBudget {
public:
  explicit InlineBudget(const std::map<std::string, const Function *> &functions)
      : functions_(functions) {}

  /// Throws GraphError at the first call of `block` (in program order,
  /// regions included) by which inlining has added more than kMaxInlinedOps
  /// ops. Calls the importer refuses anyway (unknown, recursive, too deep)
  /// count as one op: their own error comes when they are reached.
  void check(const Block &block);

private:
  /// The ops one call of `function` adds (its body's, calls inlined, and
  /// the sharding_constraints of its argument and result shardings).
  uint64_t inlinedSize(const Function &function, size_t depth);
  /// The ops `block` makes, calls inlined (its terminator is no op).
  uint64_t blockSize(const Block &block, size_t depth);
  uint64_t callSize(const Operation &call, size_t depth);

  const std::map<std::string, const Function *> &functions_;
  /// Sizes counted so far; absent while a function is being counted.
  std::unordered_map<const Function *, uint64_t> sizes_;
  std::unordered_map<const Function *, bool> counting_;
};

/// Whether `op` is a call the importer inlines: func.call, or a
/// stablehlo.composite (read as a call of its decomposition, which states
/// what the composite computes).
bool isCall(const Operation &op);

/// The attribute naming a call's function ("callee"; a composite's
/// "decomposition").
const char *calleeAttribute(const Operation &call);

} // namespace shardgen::mlir
