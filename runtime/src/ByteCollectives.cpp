#include "shardgen/byte_collectives.h"

#include <cstring>
#include <vector>

namespace shardgen::runtime {
namespace {

/// Every mesh axis: the group of the whole mesh.
std::vector<int32_t> allAxes(const DeviceContext &device) {
  std::vector<int32_t> axes(static_cast<size_t>(device.numAxes));
  for (int32_t a = 0; a < device.numAxes; ++a)
    axes[static_cast<size_t>(a)] = a;
  return axes;
}

// Collective messages stay below the MPI backend's 2 GiB (int counts).
constexpr int64_t kChunkBytes = int64_t{1} << 30;

} // namespace

void mergeBytes(const DeviceContext &device, void *data, int64_t bytes) {
  std::vector<int32_t> axes = allAxes(device);
  AxisList list{axes.data(), device.numAxes};
  auto *at = static_cast<unsigned char *>(data);
  for (int64_t done = 0; done < bytes; done += kChunkBytes) {
    int64_t count = bytes - done < kChunkBytes ? bytes - done : kChunkBytes;
    allReduce(device, list, SHARDGEN_UI8, Reducer::Or, at + done, at + done, count);
  }
}

void broadcastBytes(const DeviceContext &device, const void *source, void *data, int64_t bytes) {
  if (bytes > 0) {
    if (source)
      std::memcpy(data, source, static_cast<size_t>(bytes));
    else
      std::memset(data, 0, static_cast<size_t>(bytes));
  }
  mergeBytes(device, data, bytes);
}

bool anyDevice(const DeviceContext &device, bool flag) {
  unsigned char byte = flag ? 1 : 0;
  mergeBytes(device, &byte, 1);
  return byte != 0;
}

} // namespace shardgen::runtime
