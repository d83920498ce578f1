#pragma once
// Sharding states by id: equal states get one id. A program's tensors hold
// few distinct states (every layer repeats the same shardings), so an id
// names what a visit of an op saw and left (VisitMemo).

#include <deque>
#include <unordered_map>

#include "compiler/propagate/ShardingState.h"

namespace shardgen::propagation {

class StateTable {
public:
  /// The id of `state`, added if new.
  int32_t intern(const ShardingState &state);
  const ShardingState &state(int32_t id) const { return states_[id]; }
  int64_t size() const { return static_cast<int64_t>(states_.size()); }

private:
  std::deque<ShardingState> states_; // stable addresses
  std::unordered_multimap<uint64_t, int32_t> byHash_;
};

uint64_t hashState(const ShardingState &state);

} // namespace shardgen::propagation
