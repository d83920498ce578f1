#pragma once
// Every op's Shardy sharding rule, as data: each operand and result dim maps
// to factors (major to minor) with sizes and kinds. Propagation and the
// partitioner both read shardings through these rules only; no other code
// knows what an op does to its dims.
//
// Kinds follow Shardy: pass-through (batch and free dims, elementwise dims),
// reduction (dot_general's contracting dims, reduce's reduced dims),
// need-replication (dims an op must see whole: collectives' gathered/split
// dims, reshape dims that cannot be matched) and permutation (dims whose
// elements move: slice, pad, reverse, concatenate's dim). Size-1 dims map to
// no factor; size-0 dims to a factor of size 0 (Shardy).

#include <optional>

#include "compiler/ir/Graph.h"
#include "compiler/ir/OpShardingRule.h"

namespace shardgen {

/// False for ops through which nothing propagates by rule: manual_computation
/// (a region, handled by its data-flow edges), a custom_call without a
/// `sharding_rule` and a reshape without elements (Shardy gives it no rule).
bool hasShardingRule(const Graph &graph, const Op &op);

/// The op's rule (operands first, then results). Value types must be known
/// (after verification). A custom_call without a rule gets one where every
/// dim is its own need-replication factor with propagation blocked, so the
/// partitioner replicates its operands and results. manual_computation has no
/// rule: asking for one is an error.
OpShardingRule shardingRuleFor(const Graph &graph, const Op &op);

/// The rule as Shardy's registry builds it: what `sdy_opt
/// -sdy-populate-op-sharding-rules` attaches to the op. Size-1 dims keep a
/// factor of size 1 each, numbered where Shardy adds them. None where
/// Shardy's registry gives the op none (constant, iota, propagation_barrier,
/// sharding_group, manual_computation, a reshape without elements, a
/// custom_call without `sharding_rule`) and for shardgen's own distribute and
/// axis_index. A custom_call's rule is its user's (Shardy prints it with a
/// trailing `, custom`).
std::optional<OpShardingRule> shardyShardingRule(const Graph &graph, const Op &op);

/// The rule the partitioner shards an op by: shardingRuleFor, except that a
/// reshape's factors only one side holds need replication (Shardy's rule
/// makes them pass-through, but a local reshape cannot produce a piece of one
/// side along a factor the other side lacks), that an op with start-index
/// operands needs its sliced dims whole (its kernel indexes globally), and
/// that an op without a rule gets every dim as a need-replication factor (it
/// runs on whole operands).
OpShardingRule partitioningRuleFor(const Graph &graph, const Op &op);

/// The rule of an identity between tensors of one shape: every dim is one
/// pass-through factor shared by all tensors.
OpShardingRule identityShardingRule(const Shape &shape, int64_t numOperands, int64_t numResults);

} // namespace shardgen
