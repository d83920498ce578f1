#pragma once
// Every op of the graph format (spec "Ops"): the enumerators, StableHLO
// names and categories of the op table's rows (compiler/ops/Ops.def; the
// rest of each row is in compiler/ops/OpTable.h).

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

namespace shardgen {

enum class OpKind {
#define SHARDGEN_OP(Kind, ...) Kind,
#include "compiler/ops/Ops.def"
};

/// Every kind, in the table's order.
inline constexpr auto kAllOpKinds = std::to_array<OpKind>({
#define SHARDGEN_OP(Kind, ...) OpKind::Kind,
#include "compiler/ops/Ops.def"
});

inline constexpr size_t kNumOpKinds = kAllOpKinds.size();

/// What kind of op it is: the one classification every stage reads (verify
/// the operand counts, interp and codegen the kernels, propagate Shardy's op
/// schedule, partition the distributions ops carry).
enum class OpCategory {
  ElementwiseUnary,  // one operand, a function per element (negate, tanh, ...)
  ElementwiseBinary, // two operands of one type, an operator per element (add, ...)
  ElementwiseOther,  // per element with types of its own: compare, select, clamp, convert
  Layout,            // elements moved, not changed: reshape, transpose
  Broadcast,         // broadcast_in_dim
  Sharding,          // sharding annotations as ops (constraint, group, barrier, ...)
  Collective,        // collectives inside manual computations
  DataFlow,          // values flow through unchanged: optimization_barrier (ir/DataFlow.h)
  Other,
};

namespace detail {
inline constexpr std::string_view kOpNames[] = {
#define SHARDGEN_OP(Kind, Name, ...) Name,
#include "compiler/ops/Ops.def"
};
inline constexpr OpCategory kOpCategories[] = {
#define SHARDGEN_OP(Kind, Name, Category, ...) OpCategory::Category,
#include "compiler/ops/Ops.def"
};
} // namespace detail

constexpr std::string_view opName(OpKind kind) {
  return detail::kOpNames[static_cast<size_t>(kind)];
}
constexpr OpCategory opCategory(OpKind kind) {
  return detail::kOpCategories[static_cast<size_t>(kind)];
}
/// Accepts the name with or without the "stablehlo." prefix.
std::optional<OpKind> parseOpKind(std::string_view name);

constexpr bool isElementwise(OpKind kind) {
  auto c = opCategory(kind);
  return c == OpCategory::ElementwiseUnary || c == OpCategory::ElementwiseBinary;
}
constexpr bool isCollective(OpKind kind) { return opCategory(kind) == OpCategory::Collective; }
/// Per element in Shardy's sense (isElementwise, and compare, select, clamp,
/// convert): a value's sharding and distribution carry over to the result.
constexpr bool isPerElement(OpKind kind) {
  return isElementwise(kind) || opCategory(kind) == OpCategory::ElementwiseOther;
}
/// Shardy's pass-through ops, first in its op-priority schedule: per-element
/// and layout ops.
constexpr bool isPassThrough(OpKind kind) {
  return isPerElement(kind) || opCategory(kind) == OpCategory::Layout;
}

} // namespace shardgen
