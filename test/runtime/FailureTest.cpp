// Nothing hangs on the threads backend: a device that fails before or inside
// any collective ends the run with its own error, and the watchdog reports
// where the devices wait when a run outlives its timeout.

#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>

#include "CollectiveByName.h"
#include "shardgen/launch.h"

using namespace shardgen::runtime;
using shardgen::runtime::testing::callCollective;

namespace {

const char *const kCollectives[] = {"all_reduce", "all_gather",         "reduce_scatter",
                                    "all_to_all", "collective_permute", "barrier"};

} // namespace

TEST_CASE("a device failing before any collective ends the run with its error") {
  DeviceMesh mesh({{"x", 4}});
  for (const char *collective : kCollectives) {
    INFO(collective);
    CHECK_THROWS_WITH_AS(launch(mesh,
                                [&](const DeviceContext &device) {
                                  if (device.position == 2)
                                    throw std::runtime_error("device 2 failed");
                                  callCollective(device, collective, 0);
                                }),
                         "device 2 failed", std::runtime_error);
  }
}

TEST_CASE("a device failing inside any collective ends the run with its error") {
  // Device 2 passes an axis the mesh lacks: its collective throws while the
  // peers wait in theirs. (A barrier takes no arguments to get wrong.)
  DeviceMesh mesh({{"x", 4}});
  for (const char *collective : kCollectives) {
    if (std::string(collective) == "barrier")
      continue;
    INFO(collective);
    std::string expected =
        std::string(collective) + ": axis 5 is not an axis of the mesh (it has 1)";
    CHECK_THROWS_WITH_AS(launch(mesh,
                                [&](const DeviceContext &device) {
                                  callCollective(device, collective, device.position == 2 ? 5 : 0);
                                }),
                         expected.c_str(), std::invalid_argument);
  }
}

TEST_CASE("the watchdog reports which devices wait in which collective for which op") {
  // Device 3 returns early: the others would wait forever.
  DeviceMesh mesh({{"x", 4}}, {3, 2, 1, 0}); // reports name device ids
  for (const char *collective : kCollectives) {
    INFO(collective);
    std::string expected = "the run did not finish within the timeout of 0.2 s: devices 1-3 are "
                           "waiting in " +
                           std::string(collective) + " for /ops/7; device 0 is finished";
    // A permute (shift 1) only synchronizes pairs: device 0 (position 3) is
    // missing for position 0 (its receiver, id 3) and position 2 (its
    // sender, id 1); position 1 (id 2) has both of its peers and finishes.
    if (std::string(collective) == "collective_permute")
      expected = "the run did not finish within the timeout of 0.2 s: devices 1, 3 are waiting "
                 "in collective_permute for /ops/7; devices 0, 2 are finished";
    CHECK_THROWS_WITH_AS(launch(
                             mesh,
                             [&](const DeviceContext &device) {
                               if (device.deviceId == 0)
                                 return;
                               traceOp(device, "/ops/7");
                               callCollective(device, collective, 0);
                             },
                             LaunchOptions{0.2}),
                         expected.c_str(), RunTimeout);
  }
}

TEST_CASE("a run within its timeout is not disturbed by the watchdog") {
  DeviceMesh mesh({{"x", 4}});
  float sum = 0;
  launch(
      mesh,
      [&](const DeviceContext &device) {
        float one = 1, total = 0;
        const int32_t x[] = {0};
        allReduce(device, {x, 1}, SHARDGEN_F32, Reducer::Add, &one, &total, 1);
        if (device.position == 0)
          sum = total;
      },
      LaunchOptions{600});
  CHECK(sum == 4);
}

TEST_CASE("a cancelled run stops every device at its next traced op") {
  // Every device traces an op and all-reduces, forever, until the flag is
  // set from another thread (as a signal handler would): each device stops
  // at its next traced op (or in the all-reduce its peers left), launch
  // throws RunCancelled and every device function has returned.
  DeviceMesh mesh({{"x", 4}});
  std::atomic<bool> cancel{false};
  std::atomic<int> finished{0};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancel.store(true);
  });
  LaunchOptions options;
  options.cancel = &cancel;
  CHECK_THROWS_AS(launch(
                      mesh,
                      [&](const DeviceContext &device) {
                        struct Finished {
                          std::atomic<int> &count;
                          ~Finished() { ++count; }
                        } done{finished};
                        for (;;) {
                          traceOp(device, "/ops/0");
                          float one = 1, total = 0;
                          const int32_t x[] = {0};
                          allReduce(device, {x, 1}, SHARDGEN_F32, Reducer::Add, &one, &total, 1);
                        }
                      },
                      options),
                  RunCancelled);
  canceller.join();
  CHECK(finished == 4);
}

TEST_CASE("a stalled device stops when the run is cancelled") {
  // The test hook's device never reaches the collective its peers wait in.
  DeviceMesh mesh({{"x", 2}});
  std::atomic<bool> cancel{false};
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    cancel.store(true);
  });
  LaunchOptions options;
  options.stallPositionForTest = 1;
  options.cancel = &cancel;
  CHECK_THROWS_WITH_AS(launch(
                           mesh,
                           [&](const DeviceContext &device) {
                             traceOp(device, "/ops/4");
                             callCollective(device, "all_reduce", 0);
                           },
                           options),
                       "the run was cancelled", RunCancelled);
  canceller.join();
}

TEST_CASE("an uncancelled run with a cancel flag runs to the end") {
  DeviceMesh mesh({{"x", 4}});
  std::atomic<bool> cancel{false};
  LaunchOptions options;
  options.cancel = &cancel;
  std::atomic<int> traced{0};
  launch(
      mesh,
      [&](const DeviceContext &device) {
        for (int op = 0; op < 100; ++op) {
          traceOp(device, "/ops/0");
          ++traced;
        }
      },
      options);
  CHECK(traced == 400);
}

TEST_CASE("the threads backend refuses a mesh beyond its limit before starting a thread") {
  DeviceMesh mesh({{"x", kMaxThreadsDevices + 1}});
  bool ran = false;
  CHECK_THROWS_WITH_AS(launch(mesh, [&](const DeviceContext &) { ran = true; }),
                       ("the threads backend runs at most " + std::to_string(kMaxThreadsDevices) +
                        " devices (one thread each); the mesh has " +
                        std::to_string(kMaxThreadsDevices + 1))
                           .c_str(),
                       std::length_error);
  CHECK(!ran);
}
