#include "GroupBarrier.h"

#include <thread>

#include "shardgen/communicator.h"

namespace shardgen::runtime {

GroupBarrier::GroupBarrier(int64_t size, const std::atomic<bool> &aborted, bool spinFirst)
    : size_(size), aborted_(aborted), spinFirst_(spinFirst) {}

namespace {

uint32_t roundOf(uint64_t state) { return static_cast<uint32_t>(state >> 32); }
int64_t arrivedOf(uint64_t state) { return static_cast<int64_t>(state & 0xffffffffu); }

} // namespace

void GroupBarrier::withdraw(uint32_t round) {
  uint64_t state = state_.load(std::memory_order_acquire);
  while (roundOf(state) == round) {
    // All arrived: the last one is completing the round, which this thread
    // is part of.
    if (arrivedOf(state) == size_) {
      state = state_.load(std::memory_order_acquire);
      continue;
    }
    if (state_.compare_exchange_weak(state, state - 1, std::memory_order_acq_rel,
                                     std::memory_order_acquire))
      throw PeerFailure();
  }
}

void GroupBarrier::arriveAndWait(bool cancellable) {
  if (cancellable && aborted_.load(std::memory_order_acquire))
    throw PeerFailure();
  const uint64_t before = state_.fetch_add(1, std::memory_order_acq_rel);
  const uint32_t round = roundOf(before);
  if (arrivedOf(before) + 1 == size_) {
    // Nobody else changes the word now: every member has arrived.
    state_.store(static_cast<uint64_t>(round + 1) << 32, std::memory_order_release);
    wakeups_.fetch_add(1, std::memory_order_acq_rel);
    wakeups_.notify_all();
    return;
  }
  if (spinFirst_) {
    for (int spin = 0; spin < 4000; ++spin) {
      if (roundOf(state_.load(std::memory_order_acquire)) != round)
        return;
      if (spin % 64 == 63)
        std::this_thread::yield();
    }
  }
  while (true) {
    // Load the futex word first: any later completion or abort changes it,
    // so the wait below cannot miss it.
    uint32_t wakeups = wakeups_.load(std::memory_order_acquire);
    if (roundOf(state_.load(std::memory_order_acquire)) != round)
      return;
    if (cancellable && aborted_.load(std::memory_order_acquire)) {
      withdraw(round); // throws unless the round completed meanwhile
      return;
    }
    wakeups_.wait(wakeups, std::memory_order_acquire);
  }
}

void GroupBarrier::wake() {
  wakeups_.fetch_add(1, std::memory_order_acq_rel);
  wakeups_.notify_all();
}

} // namespace shardgen::runtime
