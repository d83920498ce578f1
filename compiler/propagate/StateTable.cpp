#include "compiler/propagate/StateTable.h"

#include <memory>
#include <utility>

#include "compiler/propagate/Fnv.h"

namespace shardgen::propagation {

namespace {

uint64_t mixAxes(uint64_t hash, const AxisList &axes) {
  hash = fnvMix(hash, static_cast<int64_t>(axes.size()));
  for (const SubAxis &axis : axes)
    hash = fnvMix(fnvMix(fnvMix(hash, axis.axis), axis.pre), axis.size);
  return hash;
}

} // namespace

uint64_t hashState(const ShardingState &state) {
  uint64_t hash = fnvMix(kFnvOffsetBasis, state.mesh);
  hash = fnvMix(hash, static_cast<int64_t>(state.dims.size()));
  for (const DimState &dim : state.dims) {
    hash = mixAxes(hash, dim.axes);
    hash = fnvMix(hash, dim.closed ? 1 : 0);
    hash = fnvMix(hash, dim.priority ? *dim.priority + 1 : 0);
  }
  hash = mixAxes(hash, state.replicated);
  hash = mixAxes(hash, state.unreduced);
  return mixAxes(hash, state.forbidden);
}

StateTable::StateTable() { intern(ShardingState{}); }

int32_t StateTable::intern(const ShardingState &state) { return internImpl(state); }
int32_t StateTable::intern(ShardingState &&state) { return internImpl(std::move(state)); }

template <typename State> int32_t StateTable::internImpl(State &&state) {
  uint64_t hash = hashState(state);
  auto [begin, end] = byHash_.equal_range(hash);
  for (auto it = begin; it != end; ++it)
    if (*states_[it->second] == state)
      return it->second;
  auto id = static_cast<int32_t>(states_.size());
  summaries_.push_back({state.mesh, state.hasAxes()});
  states_.push_back(std::make_unique<const ShardingState>(std::forward<State>(state)));
  byHash_.emplace(hash, id);
  return id;
}

} // namespace shardgen::propagation
