#pragma once
// The engine's worklist: edges come out smallest index (rank) first, each at
// most once while queued. A min-heap of a million edges misses the cache on
// every pop; here edges at or after the cursor (the usual case: a stage
// starts with every edge queued, a change queues later edges) are bits
// scanned a word at a time, and only edges behind the cursor go to a small
// heap. The order is exactly the heap's.

#include <bit>
#include <cstdint>
#include <functional>
#include <queue>
#include <vector>

namespace shardgen::propagation {

class EdgeWorklist {
public:
  /// Empties the list for `numEdges` edges.
  void reset(size_t numEdges) {
    ahead_.assign((numEdges + 63) / 64, 0);
    queued_.assign(numEdges, 0);
    cursor_ = 0;
    behind_ = {};
  }

  /// Queues `edge` unless it is queued already.
  void push(int64_t edge) {
    if (queued_[edge])
      return;
    queued_[edge] = 1;
    if (edge >= cursor_)
      ahead_[edge / 64] |= uint64_t{1} << (edge % 64);
    else
      behind_.push(edge);
  }

  /// The smallest queued edge, unqueued; -1 when none is left.
  int64_t pop() {
    int64_t edge = -1;
    if (!behind_.empty()) {
      edge = behind_.top();
      behind_.pop();
    } else {
      edge = nextAhead();
      if (edge < 0)
        return -1;
      ahead_[edge / 64] &= ~(uint64_t{1} << (edge % 64));
      cursor_ = edge + 1;
    }
    queued_[edge] = 0;
    return edge;
  }

private:
  int64_t nextAhead() const {
    auto word = static_cast<size_t>(cursor_ / 64);
    if (word >= ahead_.size())
      return -1;
    uint64_t bits = ahead_[word] & (~uint64_t{0} << (cursor_ % 64));
    while (bits == 0) {
      if (++word == ahead_.size())
        return -1;
      bits = ahead_[word];
    }
    return static_cast<int64_t>(word * 64) + std::countr_zero(bits);
  }

  std::vector<uint64_t> ahead_; // queued edges >= cursor_
  std::vector<char> queued_;
  int64_t cursor_ = 0;
  std::priority_queue<int64_t, std::vector<int64_t>, std::greater<>> behind_;
};

} // namespace shardgen::propagation
