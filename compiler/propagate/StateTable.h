#pragma once
// Sharding states by id: equal states get one id. A program's tensors hold
// few distinct states (every layer repeats the same shardings), so an id
// names what a visit of an op saw and left (VisitMemo), and tensors hold ids,
// not states (a million tensors, a few dozen states). Id 0 is the empty
// state (no sharding yet).

#include <memory>
#include <unordered_map>
#include <vector>

#include "compiler/propagate/ShardingState.h"

namespace shardgen::propagation {

class StateTable {
public:
  StateTable();
  /// The id of `state`, added if new.
  int32_t intern(const ShardingState &state);
  int32_t intern(ShardingState &&state);
  const ShardingState &state(int32_t id) const { return *states_[id]; }
  /// What every visit asks of each of its tensors first, without reaching
  /// into the state: its mesh (-1: no sharding) and whether it has axes.
  int32_t mesh(int32_t id) const { return summaries_[id].mesh; }
  bool hasAxes(int32_t id) const { return summaries_[id].hasAxes; }
  int64_t size() const { return static_cast<int64_t>(states_.size()); }

private:
  template <typename State> int32_t internImpl(State &&state);
  // Each state where it was put: callers hold references across interning
  // (and a vector of them moves without allocating).
  std::vector<std::unique_ptr<const ShardingState>> states_;
  struct Summary {
    int32_t mesh;
    bool hasAxes;
  };
  std::vector<Summary> summaries_; // by id, flat
  std::unordered_multimap<uint64_t, int32_t> byHash_;
};

uint64_t hashState(const ShardingState &state);

} // namespace shardgen::propagation
