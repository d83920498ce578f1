#pragma once
// Every op of the graph format (spec "Ops"), with its StableHLO name and
// category.

#include <optional>
#include <string_view>

namespace shardgen {

#define SHARDGEN_OP_KINDS(X)                                                                       \
  X(Constant, "constant", Other)                                                                   \
  X(Iota, "iota", Other)                                                                           \
  X(Add, "add", ElementwiseBinary)                                                                 \
  X(Subtract, "subtract", ElementwiseBinary)                                                       \
  X(Multiply, "multiply", ElementwiseBinary)                                                       \
  X(Divide, "divide", ElementwiseBinary)                                                           \
  X(Maximum, "maximum", ElementwiseBinary)                                                         \
  X(Minimum, "minimum", ElementwiseBinary)                                                         \
  X(Power, "power", ElementwiseBinary)                                                             \
  X(Remainder, "remainder", ElementwiseBinary)                                                     \
  X(And, "and", ElementwiseBinary)                                                                 \
  X(Or, "or", ElementwiseBinary)                                                                   \
  X(Xor, "xor", ElementwiseBinary)                                                                 \
  X(Negate, "negate", ElementwiseUnary)                                                            \
  X(Abs, "abs", ElementwiseUnary)                                                                  \
  X(Exponential, "exponential", ElementwiseUnary)                                                  \
  X(Log, "log", ElementwiseUnary)                                                                  \
  X(Tanh, "tanh", ElementwiseUnary)                                                                \
  X(Sqrt, "sqrt", ElementwiseUnary)                                                                \
  X(Rsqrt, "rsqrt", ElementwiseUnary)                                                              \
  X(Logistic, "logistic", ElementwiseUnary)                                                        \
  X(Floor, "floor", ElementwiseUnary)                                                              \
  X(Ceil, "ceil", ElementwiseUnary)                                                                \
  X(Sign, "sign", ElementwiseUnary)                                                                \
  X(Not, "not", ElementwiseUnary)                                                                  \
  X(Sine, "sine", ElementwiseUnary)                                                                \
  X(Cosine, "cosine", ElementwiseUnary)                                                            \
  X(Compare, "compare", ElementwiseOther)                                                          \
  X(Select, "select", ElementwiseOther)                                                            \
  X(Clamp, "clamp", ElementwiseOther)                                                              \
  X(Convert, "convert", ElementwiseOther)                                                          \
  X(DotGeneral, "dot_general", Other)                                                              \
  X(Transpose, "transpose", Layout)                                                                \
  X(Reshape, "reshape", Layout)                                                                    \
  X(BroadcastInDim, "broadcast_in_dim", Broadcast)                                                 \
  X(Reduce, "reduce", Other)                                                                       \
  X(Concatenate, "concatenate", Other)                                                             \
  X(Slice, "slice", Other)                                                                         \
  X(Pad, "pad", Other)                                                                             \
  X(Reverse, "reverse", Other)                                                                     \
  X(ShardingConstraint, "sharding_constraint", Sharding)                                           \
  X(Distribute, "distribute", Sharding)                                                            \
  X(PropagationBarrier, "propagation_barrier", Sharding)                                           \
  X(CustomCall, "custom_call", Other)                                                              \
  X(ShardingGroup, "sharding_group", Sharding)                                                     \
  X(ManualComputation, "manual_computation", Sharding)                                             \
  X(AllReduce, "all_reduce", Collective)                                                           \
  X(AllGather, "all_gather", Collective)                                                           \
  X(ReduceScatter, "reduce_scatter", Collective)                                                   \
  X(AllToAll, "all_to_all", Collective)                                                            \
  X(CollectivePermute, "collective_permute", Collective)                                           \
  X(AxisIndex, "axis_index", Collective)

enum class OpKind {
#define X(kind, name, category) kind,
  SHARDGEN_OP_KINDS(X)
#undef X
};

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
  Other,
};

std::string_view opName(OpKind kind);
OpCategory opCategory(OpKind kind);
/// Accepts the name with or without the "stablehlo." prefix.
std::optional<OpKind> parseOpKind(std::string_view name);

inline bool isElementwise(OpKind kind) {
  auto c = opCategory(kind);
  return c == OpCategory::ElementwiseUnary || c == OpCategory::ElementwiseBinary;
}
inline bool isCollective(OpKind kind) { return opCategory(kind) == OpCategory::Collective; }
/// Per element in Shardy's sense (isElementwise, and compare, select, clamp,
/// convert): a value's sharding and distribution carry over to the result.
inline bool isPerElement(OpKind kind) {
  return isElementwise(kind) || opCategory(kind) == OpCategory::ElementwiseOther;
}
/// Shardy's pass-through ops, first in its op-priority schedule: per-element
/// and layout ops.
inline bool isPassThrough(OpKind kind) {
  return isPerElement(kind) || opCategory(kind) == OpCategory::Layout;
}

} // namespace shardgen
