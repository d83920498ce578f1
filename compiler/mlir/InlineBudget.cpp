#include "compiler/mlir/InlineBudget.h"

#include <algorithm>

#include "compiler/ir/Diagnostic.h"
#include "compiler/mlir/ChloDecomposition.h"
#include "compiler/mlir/DeviceIds.h"
#include "compiler/mlir/DotAlgorithm.h"

namespace shardgen::mlir {

namespace {

/// A sum that stops just past the budget (no overflow, however many calls).
uint64_t cappedAdd(uint64_t a, uint64_t b) {
  return a + b > kMaxInlinedOps ? kMaxInlinedOps + 1 : a + b;
}

const Function *callee(const Operation &call,
                       const std::map<std::string, const Function *> &functions) {
  const Attribute *name = call.find(calleeAttribute(call));
  if (!name)
    return nullptr;
  auto found = functions.find(name->text);
  return found == functions.end() ? nullptr : found->second;
}

} // namespace

bool isCall(const Operation &op) {
  return op.name == "func.call" || op.name == "call" || op.name == "stablehlo.composite";
}

const char *calleeAttribute(const Operation &call) {
  return call.name == "stablehlo.composite" ? "decomposition" : "callee";
}

uint64_t InlineBudget::callSize(const Operation &call, size_t depth) {
  const Function *function = callee(call, functions_);
  if (!function || depth > kMaxCallDepth || counting_[function])
    return 1;
  // The call itself counts as one (inlining a callee that adds no op is
  // still work: 2^30 calls of an empty function must be refused too), and
  // its own result shardings as the sharding_constraints they become.
  uint64_t own = 1 + (call.find("sdy.sharding") ? call.results.size() : 0);
  return cappedAdd(own, inlinedSize(*function, depth + 1));
}

uint64_t InlineBudget::inlinedSize(const Function &function, size_t depth) {
  if (auto known = sizes_.find(&function); known != sizes_.end())
    return known->second;
  counting_[&function] = true;
  // Its argument and result shardings become sharding_constraints at each call.
  auto sharded = [](const std::vector<NamedAttribute> &attrs) {
    return std::any_of(attrs.begin(), attrs.end(), [](const NamedAttribute &attr) {
      return attr.name == "sdy.sharding" || attr.name == "mhlo.sharding";
    });
  };
  uint64_t size = 0;
  for (const auto &arg : function.args)
    size += sharded(arg.attrs) ? 1 : 0;
  for (const auto &result : function.results)
    size += sharded(result.attrs) ? 1 : 0;
  size = cappedAdd(size, blockSize(function.body, depth));
  counting_[&function] = false;
  // Counted where the call chain is short enough; a deeper chain is refused
  // on its own, so the size is the same for every caller that gets there.
  sizes_[&function] = size;
  return size;
}

uint64_t InlineBudget::blockSize(const Block &block, size_t depth) {
  uint64_t size = 0;
  for (size_t i = 0; i + 1 < block.ops.size(); ++i) {
    const Operation &op = block.ops[i];
    if (isCall(op)) {
      size = cappedAdd(size, callSize(op, depth));
      continue;
    }
    // A chlo op, or a dot with an algorithm, becomes the StableHLO ops of
    // its decomposition.
    size = cappedAdd(size, isDecomposedChlo(op.name)             ? decompositionSize(op.name)
                           : hasDotAlgorithm(op)                 ? kMaxDotAlgorithmSteps
                           : op.name == "stablehlo.partition_id" ? kMaxPartitionIdSteps
                                                                 : 1);
    for (const Block &region : op.regions)
      size = cappedAdd(size, blockSize(region, depth));
  }
  return size;
}

void InlineBudget::check(const Block &block) {
  uint64_t added = 0;
  // Depth first in program order, so the error names the call that
  // crosses the budget; the walk is iterative over regions (bounded by the
  // parser's nesting limit anyway).
  std::vector<const Block *> pending = {&block};
  std::vector<size_t> next = {0};
  while (!pending.empty()) {
    const Block &current = *pending.back();
    size_t &i = next.back();
    if (i + 1 >= current.ops.size()) {
      pending.pop_back();
      next.pop_back();
      continue;
    }
    const Operation &op = current.ops[i++];
    if (isCall(op)) {
      added = cappedAdd(added, callSize(op, 1));
      if (added > kMaxInlinedOps)
        fail(op.loc.str(), "inlining this call would take the graph past " +
                               std::to_string(kMaxInlinedOps) +
                               " inlined ops (every func.call is inlined: the graph format has "
                               "no functions)");
      continue;
    }
    for (auto region = op.regions.rbegin(); region != op.regions.rend(); ++region) {
      pending.push_back(&*region);
      next.push_back(0);
    }
  }
}

} // namespace shardgen::mlir
