#pragma once
// A reusable barrier for the threads of one collective group that can be
// cancelled when another device fails. Spins briefly only when every thread
// has a core, then sleeps on a futex (std::atomic::wait).

#include <atomic>
#include <cstdint>

namespace shardgen::runtime {

class GroupBarrier {
public:
  GroupBarrier(int64_t size, const std::atomic<bool> &aborted, bool spinFirst);

  /// Returns once all `size` threads arrived. A cancellable wait throws
  /// PeerFailure once the run is aborted (a peer may never arrive), and
  /// withdraws its arrival first: the round then never completes without
  /// it, so no peer goes on to read the buffers of a thread that left. A wait
  /// that every member is sure to reach (a collective's later barriers: its
  /// peers may still be reading this thread's buffers) is not cancellable.
  void arriveAndWait(bool cancellable = true);
  /// Wakes every waiter, to see the abort flag set before.
  void wake();

private:
  const int64_t size_;
  const std::atomic<bool> &aborted_;
  const bool spinFirst_;
  /// Throws PeerFailure after taking back this thread's arrival in `round`;
  /// returns when the round completed first (the wait succeeded).
  void withdraw(uint32_t round);

  // The round (high 32 bits: rounds completed) and the threads arrived in it
  // (low 32 bits), in one word so that an arrival, the completion and a
  // withdrawal never interleave.
  std::atomic<uint64_t> state_{0};
  std::atomic<uint32_t> wakeups_{0}; // the futex word: completions and aborts
};

} // namespace shardgen::runtime
