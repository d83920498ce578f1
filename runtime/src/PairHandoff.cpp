#include "PairHandoff.h"

#include <thread>

#include "shardgen/communicator.h"

namespace shardgen::runtime {

PairHandoff::PairHandoff(int64_t size, const std::atomic<bool> &aborted, bool spinFirst)
    : slots_(std::make_unique<Slot[]>(static_cast<size_t>(size))), size_(size), aborted_(aborted),
      spinFirst_(spinFirst) {}

void PairHandoff::signal(Slot &slot) {
  slot.wakeups.fetch_add(1, std::memory_order_acq_rel);
  slot.wakeups.notify_all();
}

void PairHandoff::wake() {
  for (int64_t position = 0; position < size_; ++position)
    signal(slots_[position]);
}

template <typename Done, typename OnAbort>
void PairHandoff::waitFor(Slot &slot, Done done, OnAbort onAbort) {
  if (spinFirst_) {
    for (int spin = 0; spin < 4000; ++spin) {
      if (done())
        return;
      if (spin % 64 == 63)
        std::this_thread::yield();
    }
  }
  while (true) {
    // Load the futex word first: any later state change or abort changes
    // it, so the wait below cannot miss it.
    uint32_t wakeups = slot.wakeups.load(std::memory_order_acquire);
    if (done())
      return;
    if (aborted_.load(std::memory_order_acquire) && onAbort())
      return;
    slot.wakeups.wait(wakeups, std::memory_order_acquire);
  }
}

void PairHandoff::post(int64_t position, int64_t round, Buffer buffer) {
  Slot &slot = slots_[position];
  slot.buffer = buffer;
  slot.state.store(word(round, kPosted), std::memory_order_release);
  signal(slot);
}

PairHandoff::Buffer PairHandoff::claim(int64_t source, int64_t round) {
  Slot &slot = slots_[source];
  std::atomic<int64_t> &state = slot.state;
  bool claimed = false;
  waitFor(
      slot,
      [&] {
        int64_t seen = state.load(std::memory_order_acquire);
        if (seen == word(round, kPosted))
          claimed =
              state.compare_exchange_strong(seen, word(round, kClaimed), std::memory_order_acq_rel);
        return claimed || seen == word(round, kWithdrawn);
      },
      [] { return true; });
  if (!claimed)
    throw PeerFailure(); // aborted, or the sender withdrew its buffer
  return slot.buffer;
}

void PairHandoff::release(int64_t source, int64_t round) {
  Slot &slot = slots_[source];
  slot.state.store(word(round, kRead), std::memory_order_release);
  signal(slot);
}

void PairHandoff::awaitRead(int64_t position, int64_t round) {
  Slot &slot = slots_[position];
  std::atomic<int64_t> &state = slot.state;
  bool withdrawn = false;
  waitFor(
      slot, [&] { return state.load(std::memory_order_acquire) == word(round, kRead); },
      [&] {
        // Only an unclaimed buffer may be withdrawn; a claimed one is
        // being read and is marked read without fail.
        int64_t posted = word(round, kPosted);
        withdrawn = state.compare_exchange_strong(posted, word(round, kWithdrawn),
                                                  std::memory_order_acq_rel);
        return withdrawn;
      });
  if (withdrawn) {
    signal(slot); // a receiver waiting for the post gives up
    throw PeerFailure();
  }
}

} // namespace shardgen::runtime
