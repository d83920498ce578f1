#include <algorithm>
#include <stdexcept>
#include <string>

#include "BoxCopy.h"
#include "shardgen/round_robin.h"

namespace shardgen::runtime {
namespace rr = round_robin;
namespace {
[[noreturn]] void invalidRoundRobin(const std::string &message) {
  throw std::invalid_argument("round-robin layout: " + message);
}
} // namespace

RoundRobinLayout::RoundRobinLayout(std::vector<int64_t> globalShape,
                                   std::vector<int64_t> shardShape, std::vector<int64_t> deviceGrid)
    : globalShape_(std::move(globalShape)), shardShape_(std::move(shardShape)),
      deviceGrid_(std::move(deviceGrid)) {
  if (shardShape_.size() != globalShape_.size())
    invalidRoundRobin("the shard shape has rank " + std::to_string(shardShape_.size()) +
                      " but the tensor has rank " + std::to_string(globalShape_.size()));
  if (deviceGrid_.empty())
    invalidRoundRobin("the device grid is empty");
  for (int64_t size : deviceGrid_) {
    if (size <= 0)
      invalidRoundRobin("device grid sizes must be positive");
    numDevices_ *= size;
  }
  for (size_t dim = 0; dim < globalShape_.size(); ++dim)
    if (globalShape_[dim] < 0 || shardShape_[dim] <= 0)
      invalidRoundRobin("dim " + std::to_string(dim) +
                        ": tensor sizes must be >= 0 and shard sizes > 0");
  chunkGrid_ = rr::chunkGrid(globalShape_, shardShape_);
  numChunks_ = rr::volume(chunkGrid_);
}

std::vector<int64_t> RoundRobinLayout::chunksOn(int64_t device) const {
  return rr::chunksOf(numChunks_, numDevices_, device);
}

std::vector<int64_t> RoundRobinLayout::gridCoordinates(int64_t device) const {
  return coordinatesOf(device, deviceGrid_);
}

ShardBox RoundRobinLayout::chunkBox(int64_t chunk) const {
  ShardBox box;
  rr::chunkBox(chunk, globalShape_, shardShape_, chunkGrid_, box.offset, box.extent);
  return box;
}

DeviceBuffers RoundRobinLayout::scatter(const void *global, int64_t elementBytes) const {
  int64_t chunkBytes = volumeOf(shardShape_) * elementBytes;
  DeviceBuffers buffers(numDevices_);
  for (int64_t device = 0; device < numDevices_; ++device) {
    std::vector<int64_t> chunks = chunksOn(device);
    buffers[device].assign(static_cast<size_t>(chunkBytes) * chunks.size(), std::byte{0});
    for (size_t slot = 0; slot < chunks.size(); ++slot)
      copyBox(globalShape_, chunkBox(chunks[slot]), shardShape_, elementBytes,
              BoxDirection::GlobalToLocal, global, buffers[device].data() + slot * chunkBytes);
  }
  return buffers;
}

void RoundRobinLayout::gather(const std::vector<const void *> &buffers, int64_t elementBytes,
                              void *global) const {
  if (static_cast<int64_t>(buffers.size()) != numDevices_)
    invalidRoundRobin("gather needs one buffer per device (" + std::to_string(numDevices_) +
                      "), got " + std::to_string(buffers.size()));
  int64_t chunkBytes = volumeOf(shardShape_) * elementBytes;
  for (int64_t chunk = 0; chunk < numChunks_; ++chunk) {
    auto *local = static_cast<const std::byte *>(buffers[deviceOfChunk(chunk)]) +
                  slotOfChunk(chunk) * chunkBytes;
    copyBox(globalShape_, chunkBox(chunk), shardShape_, elementBytes, BoxDirection::LocalToGlobal,
            local, global);
  }
}

} // namespace shardgen::runtime
