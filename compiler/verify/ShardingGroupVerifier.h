#pragma once
// Sharding groups (Shardy's sdy.sharding_group): the members of one group
// have the same shape and the same innermost enclosing manual_computation
// (or none), never on both sides of a manual_computation boundary.

#include <cstdint>
#include <map>

#include "compiler/ir/Graph.h"

namespace shardgen::verify {

class ShardingGroupVerifier {
public:
  /// Adds a sharding_group op inside `manualComputation` (innermost; null:
  /// none), in file order; throws at the first member that breaks its group.
  void addMember(const Graph &graph, const Op &op, const Op *manualComputation);

private:
  struct FirstMember {
    const Op *manualComputation; // the innermost enclosing one, or null
    TensorType type;
  };
  std::map<int64_t, FirstMember> groups_;
};

} // namespace shardgen::verify
