#pragma once
// What a visit of an op did, by what it saw: the rule, the step's settings
// (resolution, factor directions) and the ids of its tensors' states decide
// the states it writes and where their axes came from, so a later visit
// that sees the same replays them instead of projecting and merging again.
// Programs repeat their layers: after the first, nearly every visit is a
// replay.

#include <cstdint>
#include <span>
#include <unordered_map>
#include <vector>

#include "compiler/propagate/Fnv.h"

namespace shardgen::propagation {

class VisitMemo {
public:
  /// One tensor the visit changed: its position in the edge, its new state's
  /// id, and the position of the tensor its new axes came from (-1: none).
  struct Step {
    int32_t position = -1;
    int32_t state = -1;
    int32_t source = -1;
  };

  /// Sets `steps` to those recorded for `key`; false when it was never seen.
  bool find(const std::vector<int64_t> &key, std::span<const Step> &steps) const {
    auto it = entries_.find(key);
    if (it == entries_.end())
      return false;
    steps = {steps_.data() + it->second.first, static_cast<size_t>(it->second.second)};
    return true;
  }

  /// Records the steps a visit took for `key` (until the memo is full:
  /// a program without repeats gains nothing from it).
  void record(const std::vector<int64_t> &key, std::span<const Step> steps) {
    if (steps_.size() + entries_.size() > kMaxEntries)
      return;
    auto begin = static_cast<int64_t>(steps_.size());
    steps_.insert(steps_.end(), steps.begin(), steps.end());
    entries_.emplace(key, std::pair(begin, static_cast<int64_t>(steps.size())));
  }

private:
  // About 40 MB at most: a program without repeats would otherwise record
  // every visit.
  static constexpr size_t kMaxEntries = size_t{1} << 18;
  struct KeyHash {
    size_t operator()(const std::vector<int64_t> &key) const {
      uint64_t hash = kFnvOffsetBasis;
      for (int64_t value : key)
        hash = fnvMix(hash, value);
      return hash;
    }
  };
  std::unordered_map<std::vector<int64_t>, std::pair<int64_t, int64_t>, KeyHash> entries_;
  std::vector<Step> steps_;
};

} // namespace shardgen::propagation
