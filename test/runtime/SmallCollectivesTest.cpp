// The threads backend's latency paths: all_reduce and all_gather up to
// 32 KiB go through staging buffers with one barrier, larger ones through the
// two-barrier path; collective_permute synchronizes pairs only. Both
// all_reduce paths must give the same bits (sources in group position
// order), around the threshold, in place, and when a fast device already
// runs its next collective while peers still read the last one.

#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "shardgen/launch.h"

using namespace shardgen::runtime;

namespace {

const int32_t kX[] = {0};
constexpr AxisList kOverX{kX, 1};

/// Values whose f32 sum depends on the order they are added in.
float valueOf(int64_t device, int64_t i) {
  auto bits = static_cast<uint32_t>((device * 2654435761U) ^ (i * 40503U));
  return static_cast<float>(bits % 1000003) * 1e-3f + static_cast<float>(device) * 1e5f;
}

/// The sum every backend must produce: f32, in group position order.
float orderedSum(int64_t devices, int64_t i) {
  float sum = valueOf(0, i);
  for (int64_t d = 1; d < devices; ++d)
    sum += valueOf(d, i);
  return sum;
}

bool sameBits(float a, float b) {
  uint32_t x = 0, y = 0;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  return x == y;
}

/// Runs an all_reduce of `count` floats on `devices` threads, `inPlace` or
/// not, and counts elements whose bits differ from orderedSum.
int64_t allReduceMismatches(int64_t devices, int64_t count, bool inPlace) {
  std::atomic<int64_t> mismatches{0};
  launch(DeviceMesh({{"x", devices}}), [&](const DeviceContext &device) {
    std::vector<float> in(count), out(count, -1.0f);
    for (int64_t i = 0; i < count; ++i)
      in[i] = valueOf(device.position, i);
    float *result = inPlace ? in.data() : out.data();
    allReduce(device, kOverX, SHARDGEN_F32, Reducer::Add, in.data(), result, count);
    for (int64_t i = 0; i < count; ++i)
      if (!sameBits(result[i], orderedSum(devices, i)))
        ++mismatches;
  });
  return mismatches.load();
}

} // namespace

TEST_CASE("all_reduce gives the position-order bits on both sides of the one-phase threshold") {
  // 8192 floats are exactly 32 KiB (the last one-phase size); odd counts
  // leave short tiles and uneven chunks on the two-barrier side.
  for (int64_t devices : {2, 3, 4}) {
    for (int64_t count : {1, 7, 2049, 8191, 8192, 8193, 8200, 12289}) {
      for (bool inPlace : {false, true}) {
        CAPTURE(devices);
        CAPTURE(count);
        CAPTURE(inPlace);
        CHECK(allReduceMismatches(devices, count, inPlace) == 0);
      }
    }
  }
}

TEST_CASE("back-to-back small collectives: a fast device never overwrites what peers still read") {
  // No barrier ends a one-phase all_reduce or all_gather, nor a permute:
  // device 0 may start its next call while others still read its last one.
  // Varying values per round make a reused buffer show up as a wrong sum.
  constexpr int64_t kDevices = 4, kRounds = 200, kCount = 33;
  std::atomic<int64_t> mismatches{0};
  launch(DeviceMesh({{"x", kDevices}}), [&](const DeviceContext &device) {
    const int64_t p = device.position;
    std::vector<int32_t> in(kCount), out(kCount), gathered(kCount * kDevices);
    for (int64_t round = 0; round < kRounds; ++round) {
      for (int64_t i = 0; i < kCount; ++i)
        in[i] = static_cast<int32_t>(round * 1000 + p * 10 + i);
      allReduce(device, kOverX, SHARDGEN_I32, Reducer::Add, in.data(), out.data(), kCount);
      for (int64_t i = 0; i < kCount; ++i)
        if (out[i] != static_cast<int32_t>(kDevices * (round * 1000 + i) + 10 * (0 + 1 + 2 + 3)))
          ++mismatches;
      allGather(device, kOverX, SHARDGEN_I32, DimView{1, kCount, 1}, in.data(), gathered.data());
      for (int64_t q = 0; q < kDevices; ++q)
        for (int64_t i = 0; i < kCount; ++i)
          if (gathered[q * kCount + i] != static_cast<int32_t>(round * 1000 + q * 10 + i))
            ++mismatches;
      int64_t shift = 1 + round % 3;
      collectivePermute(device, kOverX, SHARDGEN_I32, shift, in.data(), out.data(), kCount);
      int64_t from = (p - shift + kDevices) % kDevices;
      for (int64_t i = 0; i < kCount; ++i)
        if (out[i] != static_cast<int32_t>(round * 1000 + from * 10 + i))
          ++mismatches;
    }
  });
  CHECK(mismatches.load() == 0);
}

TEST_CASE("all_gather on both sides of the one-phase threshold, uneven rows") {
  // 4 devices x 2048 floats = 32 KiB gathered (one phase); 2049: two phases.
  for (int64_t local : {1, 3, 2047, 2048, 2049}) {
    CAPTURE(local);
    std::atomic<int64_t> mismatches{0};
    launch(DeviceMesh({{"x", 4}}), [&](const DeviceContext &device) {
      // Rows of 1 element: the gathered rows interleave the devices' rows.
      std::vector<float> in(local), out(local * 4, -1.0f);
      for (int64_t i = 0; i < local; ++i)
        in[i] = valueOf(device.position, i);
      allGather(device, kOverX, SHARDGEN_F32, DimView{local, 1, 1}, in.data(), out.data());
      for (int64_t row = 0; row < local; ++row)
        for (int64_t q = 0; q < 4; ++q)
          if (!sameBits(out[row * 4 + q], valueOf(q, row)))
            ++mismatches;
    });
    CHECK(mismatches.load() == 0);
  }
}

TEST_CASE("collective_permute: size mismatches are reported, failures release waiting pairs") {
  DeviceMesh mesh({{"x", 4}});
  CHECK_THROWS_WITH_AS(launch(mesh,
                              [](const DeviceContext &device) {
                                int32_t in[4] = {}, out[4] = {};
                                collectivePermute(device, kOverX, SHARDGEN_I32, 1, in, out,
                                                  device.position == 2 ? 3 : 4);
                              }),
                       doctest::Contains("different sizes"), std::invalid_argument);
  for (int run = 0; run < 20; ++run) {
    // Device 3 fails before its fourth permute: device 0 waits for its
    // source (3), device 2 for its destination (3) to read its buffer.
    CHECK_THROWS_WITH_AS(launch(mesh,
                                [](const DeviceContext &device) {
                                  std::vector<int32_t> in(64, 1), out(64);
                                  for (int step = 0; step < 6; ++step) {
                                    if (device.position == 3 && step == 3)
                                      throw std::runtime_error("step 3 failed");
                                    collectivePermute(device, kOverX, SHARDGEN_I32, 1, in.data(),
                                                      out.data(), 64);
                                  }
                                }),
                         "step 3 failed", std::runtime_error);
  }
}
