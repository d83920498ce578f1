// Whole-mesh byte collectives (shardgen/byte_collectives.h) on the threads
// backend: what a compiled program's runRank relies on to move global
// tensors (its MPI use is tested end to end by aot_mpi_app_sample).

#include <doctest/doctest.h>

#include <atomic>
#include <cstring>
#include <limits>
#include <vector>

#include "shardgen/byte_collectives.h"
#include "shardgen/launch.h"

using namespace shardgen::runtime;

TEST_CASE("broadcastBytes copies the holders' bytes to every device, bit for bit") {
  DeviceMesh mesh({{"x", 2}, {"y", 3}});
  // Bytes with every bit pattern, -0.0f and a NaN payload among them.
  std::vector<unsigned char> source(1000);
  for (size_t k = 0; k < source.size(); ++k)
    source[k] = static_cast<unsigned char>(k * 37 + 11);
  const float specials[2] = {-0.0f, std::numeric_limits<float>::quiet_NaN()};
  std::memcpy(source.data(), specials, sizeof specials);
  std::atomic<int> wrong{0};
  launch(mesh, [&](const DeviceContext &device) {
    std::vector<unsigned char> data(source.size(), 0xff); // overwritten whole
    // Two devices hold the bytes (as every device of rank 0 does under MPI).
    bool holder = device.position == 1 || device.position == 4;
    broadcastBytes(device, holder ? source.data() : nullptr, data.data(),
                   static_cast<int64_t>(data.size()));
    if (data != source)
      ++wrong;
  });
  CHECK(wrong == 0);
}

TEST_CASE("mergeBytes completes disjoint writes; anyDevice agrees on a flag") {
  DeviceMesh mesh({{"x", 4}});
  std::atomic<int> wrong{0};
  launch(mesh, [&](const DeviceContext &device) {
    // Device p writes bytes [p * 5, p * 5 + 5) of 20; zeros elsewhere.
    std::vector<unsigned char> data(20, 0);
    for (int64_t k = 0; k < 5; ++k)
      data[static_cast<size_t>(device.position * 5 + k)] =
          static_cast<unsigned char>(200 + device.position * 5 + k);
    mergeBytes(device, data.data(), 20);
    for (size_t k = 0; k < data.size(); ++k)
      if (data[k] != static_cast<unsigned char>(200 + k))
        ++wrong;
    if (anyDevice(device, device.position == 2) != true || anyDevice(device, false) != false)
      ++wrong;
  });
  CHECK(wrong == 0);
}
