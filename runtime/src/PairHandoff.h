#pragma once
// Flag-based handoff between one sender and one receiver of a group, for
// collectives where each device only depends on one peer (collective_permute):
// no device waits for the whole group, only for its source and its
// destination. The sender posts its buffer, the receiver claims it, copies
// and marks it done; the sender returns once its buffer was read.
//
// Per sender one word holds round * 4 + phase. A wait is cancelled by abort()
// only while nobody reads the sender's buffer: a receiver claims it with a
// compare-exchange, and a sender cancelling withdraws it with one, so a
// buffer is never freed while it is read.

#include <atomic>
#include <cstdint>
#include <memory>

namespace shardgen::runtime {

class PairHandoff {
public:
  PairHandoff(int64_t size, const std::atomic<bool> &aborted, bool spinFirst);

  struct Buffer {
    const void *data = nullptr;
    int64_t bytes = 0;
  };
  /// Sender `position` publishes `buffer` for round `round` (>= 1).
  void post(int64_t position, int64_t round, Buffer buffer);
  /// Receiver: waits until `source` posted `round`, claims it and returns
  /// the buffer. Throws PeerFailure if the run was aborted before (nothing
  /// is read then).
  Buffer claim(int64_t source, int64_t round);
  /// Receiver: done reading `source`'s buffer of `round`.
  void release(int64_t source, int64_t round);
  /// Sender: waits until its buffer of `round` was read. Throws PeerFailure
  /// on abort only if no receiver claimed it (else the read finishes first).
  void awaitRead(int64_t position, int64_t round);
  /// Wakes every waiter, to see the abort flag set before.
  void wake();

private:
  enum Phase : int64_t { kWithdrawn = 0, kPosted = 1, kClaimed = 2, kRead = 3 };
  static int64_t word(int64_t round, Phase phase) { return round * 4 + phase; }
  /// Waits until `done()`; `onAbort()` runs when the run is aborted and
  /// returns whether to stop waiting.
  struct alignas(64) Slot { // one cache line per sender: no false sharing
    std::atomic<int64_t> state{0};
    /// The futex word of the slot's two waiters (its sender and receiver):
    /// bumped on every state change they wait for, and on abort.
    std::atomic<uint32_t> wakeups{0};
    Buffer buffer; // written by the sender before it posts
  };
  template <typename Done, typename OnAbort> void waitFor(Slot &slot, Done done, OnAbort onAbort);
  static void signal(Slot &slot);

  std::unique_ptr<Slot[]> slots_;
  const int64_t size_;
  const std::atomic<bool> &aborted_;
  const bool spinFirst_;
};

} // namespace shardgen::runtime
