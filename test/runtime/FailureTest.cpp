// Nothing hangs on the threads backend: a device that fails before or inside
// any collective ends the run with its own error, and the watchdog reports
// where the devices wait when a run outlives its timeout.

#include <doctest/doctest.h>

#include <stdexcept>
#include <string>

#include "shardgen/launch.h"
#include "shardgen/runtime.h"

using namespace shardgen::runtime;

namespace {

const char *const kCollectives[] = {"all_reduce",         "all_gather", "reduce_scatter",
                                    "all_to_all",         "collective_permute", "barrier"};

/// Calls `collective` over axis `axis` (an invalid axis makes it throw inside).
void callCollective(const DeviceContext &device, const std::string &collective, int32_t axis) {
  const int32_t axes[] = {axis};
  float in[4] = {1, 2, 3, 4}, out[16] = {};
  const int64_t shape[] = {4};
  if (collective == "all_reduce")
    allReduce(device, {axes, 1}, SHARDGEN_F32, Reducer::Add, in, out, 4);
  else if (collective == "all_gather")
    allGather(device, {axes, 1}, SHARDGEN_F32, DimView{1, 4, 1}, in, out);
  else if (collective == "reduce_scatter")
    reduceScatter(device, {axes, 1}, SHARDGEN_F32, Reducer::Add, DimView{1, 4, 1}, in, out);
  else if (collective == "all_to_all")
    allToAll(device, {axes, 1}, SHARDGEN_F32, shape, 1, 0, 0, in, out);
  else if (collective == "collective_permute")
    collectivePermute(device, {axes, 1}, SHARDGEN_F32, 1, in, out, 4);
  else
    barrier(device);
}

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
    std::string expected = std::string(collective) + ": axis 5 is not an axis of the mesh (it has 1)";
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
