#pragma once
// Every op of the graph format (spec "Ops"), with its StableHLO name.

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
  X(Compare, "compare", Other)                                                                     \
  X(Select, "select", Other)                                                                       \
  X(Clamp, "clamp", Other)                                                                         \
  X(Convert, "convert", Other)                                                                     \
  X(DotGeneral, "dot_general", Other)                                                              \
  X(Transpose, "transpose", Other)                                                                 \
  X(Reshape, "reshape", Other)                                                                     \
  X(BroadcastInDim, "broadcast_in_dim", Other)                                                     \
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

enum class OpCategory { ElementwiseUnary, ElementwiseBinary, Sharding, Collective, Other };

std::string_view opName(OpKind kind);
OpCategory opCategory(OpKind kind);
/// Accepts the name with or without the "stablehlo." prefix.
std::optional<OpKind> parseOpKind(std::string_view name);

inline bool isElementwise(OpKind kind) {
  auto c = opCategory(kind);
  return c == OpCategory::ElementwiseUnary || c == OpCategory::ElementwiseBinary;
}
inline bool isCollective(OpKind kind) { return opCategory(kind) == OpCategory::Collective; }

} // namespace shardgen
