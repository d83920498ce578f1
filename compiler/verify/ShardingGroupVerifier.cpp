#include "compiler/verify/ShardingGroupVerifier.h"

#include "compiler/ir/Diagnostic.h"

namespace shardgen::verify {

void ShardingGroupVerifier::addMember(const Graph &graph, const Op &op,
                                      const Op *manualComputation) {
  const int64_t groupId = op.attr<ShardingGroupAttrs>().groupId;
  const TensorType &type = graph.type(op.operands.at(0));
  // Shardy's rule: members share their innermost manual_computation (or
  // none); a while's or case's regions are no boundary.
  auto [it, inserted] = groups_.emplace(groupId, FirstMember{manualComputation, type});
  if (inserted)
    return;
  if (it->second.manualComputation != manualComputation)
    fail(op.pointer, "ShardingGroupOps values cannot cross ManualComputationOp boundaries for "
                     "groupId: " +
                         std::to_string(groupId));
  if (it->second.type.shape != type.shape)
    fail(op.pointer, "ShardingGroupOps values must have the same shape for groupId: " +
                         std::to_string(groupId) + " (" + printType(it->second.type) + " vs " +
                         printType(type) + ")");
}

} // namespace shardgen::verify
