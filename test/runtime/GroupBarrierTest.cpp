// GroupBarrier: a cancelled waiter takes its arrival back, so a round never
// completes without it (peers must not go on to read the buffers of a
// device that left the collective).

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "runtime/src/GroupBarrier.h"
#include "shardgen/communicator.h"

using shardgen::runtime::GroupBarrier;
using shardgen::runtime::PeerFailure;

TEST_CASE("a waiter cancelled by an abort withdraws its arrival from the round") {
  for (bool spinFirst : {false, true}) {
    std::atomic<bool> aborted{false};
    GroupBarrier barrier(2, aborted, spinFirst);
    std::atomic<bool> threw{false};
    std::thread first([&] {
      try {
        barrier.arriveAndWait(true);
      } catch (const PeerFailure &) {
        threw = true;
      }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20)); // let it arrive
    aborted = true;
    barrier.wake();
    first.join();
    REQUIRE(threw);

    // The round is as if `first` never came: one arrival does not complete it.
    aborted = false;
    std::atomic<bool> passed{false};
    std::thread second([&] {
      barrier.arriveAndWait(false);
      passed = true;
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    if (passed.load()) { // the withdrawn arrival was counted: the round is wrong
      second.join();
      FAIL("a round completed with a member that had withdrawn");
    }
    barrier.arriveAndWait(false);
    second.join();
    CHECK(passed.load());
  }
}

TEST_CASE("rounds complete again and again for every member") {
  std::atomic<bool> aborted{false};
  GroupBarrier barrier(3, aborted, true);
  std::atomic<int> total{0};
  auto member = [&] {
    for (int round = 0; round < 300; ++round) {
      barrier.arriveAndWait(true);
      total.fetch_add(1);
    }
  };
  std::thread a(member), b(member);
  member();
  a.join();
  b.join();
  CHECK(total.load() == 900);
}
