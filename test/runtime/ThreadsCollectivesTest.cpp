// The threads backend against the shared collective expectations, on the
// mesh shapes partitioned programs use, plus what only threads can show:
// error propagation and shared-memory barriers.

#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "CollectiveCases.h"

using namespace shardgen::runtime;
using namespace shardgen::runtime::testing;

namespace {

void requireNoFailures(const std::vector<std::string> &failures) {
  for (const std::string &failure : failures)
    MESSAGE(failure);
  CHECK(failures.empty());
}

const Launcher kThreads = [](const DeviceMesh &mesh, const DeviceFunction &function) {
  launch(mesh, function);
};

} // namespace

TEST_CASE("every collective on a 1-D mesh of 4") {
  requireNoFailures(checkEveryCollective(kThreads, DeviceMesh({{"x", 4}})));
}

TEST_CASE("every collective on a 1-D mesh of 8") {
  requireNoFailures(checkEveryCollective(kThreads, DeviceMesh({{"x", 8}})));
}

TEST_CASE("every collective on a 2x2 mesh") {
  requireNoFailures(checkEveryCollective(kThreads, DeviceMesh({{"x", 2}, {"y", 2}})));
}

TEST_CASE("every collective on a 2x4 mesh (axes also listed out of mesh order)") {
  requireNoFailures(checkEveryCollective(kThreads, DeviceMesh({{"x", 2}, {"y", 4}})));
}

TEST_CASE("every collective on a 2x2x2 mesh with permuted device ids") {
  requireNoFailures(checkEveryCollective(
      kThreads, DeviceMesh({{"a", 2}, {"b", 2}, {"c", 2}}, {7, 6, 5, 4, 3, 2, 1, 0})));
}

TEST_CASE("group position is row-major over the axes in the order listed") {
  // Mesh x=2, y=4; device (x=1, y=2) is position 6. Over {y, x} its position
  // is y * 2 + x = 5 and the group, by position, is (y, x) = (0,0) (0,1)
  // (1,0) (1,1) ... i.e. mesh positions 0 4 1 5 2 6 3 7.
  DeviceMesh mesh({{"x", 2}, {"y", 4}});
  const int32_t yx[] = {1, 0};
  std::vector<int64_t> positions, members;
  launch(mesh, [&](const DeviceContext &device) {
    if (device.position != 6)
      return;
    positions.push_back(groupPosition(device, {yx, 2}));
    members = groupMembers(device, {1, 0});
    positions.push_back(groupPosition(device, {yx + 1, 1})); // over {x}: 1
    positions.push_back(groupPosition(device, {yx, 1}));     // over {y}: 2
  });
  CHECK(positions == std::vector<int64_t>{5, 1, 2});
  CHECK(members == std::vector<int64_t>{0, 4, 1, 5, 2, 6, 3, 7});
}

TEST_CASE("all_gather over {y, x} concatenates in listed-order positions") {
  DeviceMesh mesh({{"x", 2}, {"y", 2}});
  const int32_t yx[] = {1, 0};
  std::vector<std::vector<int32_t>> results(4);
  launch(mesh, [&](const DeviceContext &device) {
    int32_t mine = static_cast<int32_t>(device.position);
    results[device.position].resize(4);
    allGather(device, {yx, 2}, SHARDGEN_I32, DimView{1, 1, 1}, &mine,
              results[device.position].data());
  });
  // Positions (x, y) -> mesh position 2x + y; listed order y major.
  for (const auto &result : results)
    CHECK(result == std::vector<int32_t>{0, 2, 1, 3});
}

TEST_CASE("the first device error is rethrown and peers blocked in collectives are released") {
  DeviceMesh mesh({{"x", 8}});
  CHECK_THROWS_WITH_AS(
      launch(mesh,
             [](const DeviceContext &device) {
               float value = 1.0f;
               if (device.position == 5)
                 throw std::runtime_error("device 5 failed");
               allReduce(device, {nullptr, 0}, SHARDGEN_F32, Reducer::Add, &value, &value, 1);
               const int32_t x[] = {0};
               allReduce(device, {x, 1}, SHARDGEN_F32, Reducer::Add, &value, &value, 1);
             }),
      "device 5 failed", std::runtime_error);
}

TEST_CASE("bad collective arguments are reported, not crashed on") {
  DeviceMesh mesh({{"x", 2}, {"y", 2}});
  auto runWith = [&](auto body) { launch(mesh, body); };
  const int32_t badAxis[] = {2};
  const int32_t twice[] = {0, 0};
  const int32_t x[] = {0};
  float value = 0;
  CHECK_THROWS_AS(runWith([&](const DeviceContext &device) {
                    float local = 1;
                    allReduce(device, {badAxis, 1}, SHARDGEN_F32, Reducer::Add, &local, &local, 1);
                  }),
                  std::invalid_argument);
  CHECK_THROWS_AS(runWith([&](const DeviceContext &device) {
                    float local = 1;
                    allReduce(device, {twice, 2}, SHARDGEN_F32, Reducer::Add, &local, &local, 1);
                  }),
                  std::invalid_argument);
  CHECK_THROWS_WITH_AS(runWith([&](const DeviceContext &device) {
                         float local = 1;
                         allReduce(device, {x, 1}, SHARDGEN_F32, Reducer::And, &local, &local, 1);
                       }),
                       doctest::Contains("integer"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(runWith([&](const DeviceContext &device) {
                         int32_t in[3] = {}, out[3];
                         reduceScatter(device, {x, 1}, SHARDGEN_I32, Reducer::Add, DimView{1, 3, 1},
                                       in, out);
                       }),
                       doctest::Contains("not divisible"), std::invalid_argument);
  CHECK_THROWS_WITH_AS(runWith([&](const DeviceContext &device) {
                         // Devices disagree on the size: every one must fail.
                         float local[4] = {};
                         allReduce(device, {x, 1}, SHARDGEN_F32, Reducer::Add, local, local,
                                   device.coordinates[0] + 1);
                       }),
                       doctest::Contains("different sizes"), std::invalid_argument);
  DeviceContext detached = mesh.deviceContext(0, nullptr);
  CHECK_THROWS_AS(axisIndex(detached, 2), std::invalid_argument);
  CHECK_THROWS_WITH_AS(allReduce(detached, {x, 1}, SHARDGEN_F32, Reducer::Add, &value, &value, 1),
                       doctest::Contains("communicator"), std::invalid_argument);
}

TEST_CASE("the mesh barrier orders writes between devices") {
  DeviceMesh mesh({{"x", 8}});
  std::vector<int64_t> published(8, -1);
  std::atomic<int> mismatches{0};
  launch(mesh, [&](const DeviceContext &device) {
    for (int round = 0; round < 50; ++round) {
      published[device.position] = round * 8 + device.position;
      barrier(device);
      for (int64_t peer = 0; peer < 8; ++peer)
        if (published[peer] != round * 8 + peer)
          ++mismatches;
      barrier(device);
    }
  });
  CHECK(mismatches.load() == 0);
}

TEST_CASE("a failure while other groups are mid-collective cancels cleanly, repeatedly") {
  // Groups over y on a 2x4 mesh; device 7 fails at step 3 while the other
  // group keeps exchanging (its buffers must stay valid until peers finish).
  DeviceMesh mesh({{"x", 2}, {"y", 4}});
  const int32_t y[] = {1};
  for (int run = 0; run < 20; ++run) {
    CHECK_THROWS_WITH_AS(launch(mesh,
                                [&](const DeviceContext &device) {
                                  std::vector<float> in(4096, 1.0f), out(4 * 4096);
                                  for (int step = 0; step < 10; ++step) {
                                    if (device.position == 7 && step == 3)
                                      throw std::runtime_error("step 3 failed");
                                    allGather(device, {y, 1}, SHARDGEN_F32, DimView{1, 4096, 1},
                                              in.data(), out.data());
                                  }
                                }),
                         "step 3 failed", std::runtime_error);
  }
}
