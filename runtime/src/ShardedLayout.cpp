#include <algorithm>
#include <stdexcept>
#include <string>
#include <unordered_set>

#include "BoxCopy.h"
#include "Reduce.h"

namespace shardgen::runtime {
namespace {
[[noreturn]] void invalidSharded(const std::string &message) {
  throw std::invalid_argument("sharded layout: " + message);
}
} // namespace

ShardedLayout::ShardedLayout(const DeviceMesh &mesh, std::vector<int64_t> globalShape,
                             std::vector<DimAxes> dimAxes)
    : mesh_(mesh), globalShape_(std::move(globalShape)) {
  if (dimAxes.size() != globalShape_.size())
    invalidSharded("the tensor has rank " + std::to_string(globalShape_.size()) + " but " +
                   std::to_string(dimAxes.size()) + " dim shardings were given");
  // Used parts of each axis as intervals [pre, pre * size) of its
  // multiplicative coordinate space, to reject overlaps.
  std::vector<std::vector<std::pair<int64_t, int64_t>>> used(mesh.numAxes());
  for (size_t dim = 0; dim < dimAxes.size(); ++dim) {
    if (globalShape_[dim] < 0)
      invalidSharded("dim " + std::to_string(dim) + " has negative size");
    std::vector<ResolvedSlice> slices;
    int64_t shards = 1;
    for (const AxisSlice &slice : dimAxes[dim]) {
      if (slice.axis < 0 || slice.axis >= mesh.numAxes())
        invalidSharded("dim " + std::to_string(dim) + " names axis " + std::to_string(slice.axis) +
                       " of a mesh with " + std::to_string(mesh.numAxes()) + " axes");
      const MeshAxis &axis = mesh.axes()[slice.axis];
      int64_t pre = slice.size == 0 ? 1 : slice.preSize;
      int64_t size = slice.size == 0 ? axis.size : slice.size;
      if (pre <= 0 || size <= 0 || axis.size % pre != 0 || (axis.size / pre) % size != 0)
        invalidSharded("sub-axis \"" + axis.name + "\":(" + std::to_string(pre) + ")" +
                       std::to_string(size) + " does not divide axis size " +
                       std::to_string(axis.size));
      for (auto [otherPre, otherEnd] : used[slice.axis])
        if (pre < otherEnd && otherPre < pre * size)
          invalidSharded("axis \"" + axis.name + "\" is used more than once");
      used[slice.axis].emplace_back(pre, pre * size);
      slices.push_back(ResolvedSlice{slice.axis, axis.size / (pre * size), size});
      shards *= size;
    }
    dims_.push_back(std::move(slices));
    numShards_.push_back(shards);
    shardShape_.push_back((globalShape_[dim] + shards - 1) / shards);
  }
}

std::vector<int64_t> ShardedLayout::shardIndex(int64_t position) const {
  std::vector<int64_t> coordinates = mesh_.coordinates(position);
  std::vector<int64_t> index;
  for (const auto &slices : dims_) {
    int64_t shard = 0;
    for (const ResolvedSlice &slice : slices)
      shard = shard * slice.size + (coordinates[slice.axis] / slice.stride) % slice.size;
    index.push_back(shard);
  }
  return index;
}

ShardBox ShardedLayout::box(int64_t position) const {
  std::vector<int64_t> index = shardIndex(position);
  ShardBox box;
  for (size_t dim = 0; dim < globalShape_.size(); ++dim) {
    int64_t begin = std::min(index[dim] * shardShape_[dim], globalShape_[dim]);
    box.offset.push_back(begin);
    box.extent.push_back(std::min(shardShape_[dim], globalShape_[dim] - begin));
  }
  return box;
}

std::vector<int64_t> ShardedLayout::localShape(int64_t position, ShardPadding padding) const {
  return padding == ShardPadding::Padded ? shardShape_ : box(position).extent;
}

DeviceBuffers ShardedLayout::scatter(const void *global, int64_t elementBytes,
                                     ShardPadding padding) const {
  DeviceBuffers buffers(mesh_.numDevices());
  for (int64_t position = 0; position < mesh_.numDevices(); ++position) {
    std::vector<int64_t> shape = localShape(position, padding);
    buffers[position].assign(static_cast<size_t>(volumeOf(shape) * elementBytes), std::byte{0});
    copyBox(globalShape_, box(position), shape, elementBytes, BoxDirection::GlobalToLocal, global,
            buffers[position].data());
  }
  return buffers;
}

std::vector<int64_t> ShardedLayout::shardOwners() const {
  // Devices holding the same shards differ only on axes the tensor is
  // replicated over; the lowest position among them has coordinate 0 there.
  std::vector<int64_t> owners;
  std::unordered_set<int64_t> seen;
  for (int64_t position = 0; position < mesh_.numDevices(); ++position) {
    int64_t key = 0;
    std::vector<int64_t> index = shardIndex(position);
    for (size_t dim = 0; dim < index.size(); ++dim)
      key = key * numShards_[dim] + index[dim];
    if (seen.insert(key).second)
      owners.push_back(position);
  }
  return owners;
}

void ShardedLayout::gather(const std::vector<const void *> &shards, int64_t elementBytes,
                           ShardPadding padding, void *global) const {
  if (static_cast<int64_t>(shards.size()) != mesh_.numDevices())
    invalidSharded("gather needs one buffer per device (" + std::to_string(mesh_.numDevices()) +
                   "), got " + std::to_string(shards.size()));
  for (int64_t position : shardOwners())
    copyBox(globalShape_, box(position), localShape(position, padding), elementBytes,
            BoxDirection::LocalToGlobal, shards[position], global);
}

void ShardedLayout::gatherUnreduced(const std::vector<const void *> &shards, ElementType type,
                                    ShardPadding padding, const std::vector<int32_t> &unreducedAxes,
                                    void *global) const {
  if (static_cast<int64_t>(shards.size()) != mesh_.numDevices())
    invalidSharded("gather needs one buffer per device (" + std::to_string(mesh_.numDevices()) +
                   "), got " + std::to_string(shards.size()));
  for (int32_t axis : unreducedAxes) {
    if (axis < 0 || axis >= mesh_.numAxes())
      invalidSharded("unreduced axis " + std::to_string(axis) + " is not an axis of the mesh");
    for (const std::vector<ResolvedSlice> &slices : dims_)
      for (const ResolvedSlice &slice : slices)
        if (slice.axis == axis)
          invalidSharded("unreduced axis " + std::to_string(axis) + " also shards a dim");
  }
  // The owner of each shard (coordinate 0 on every axis that does not shard
  // a dim) and its peers along the unreduced axes hold its partial values.
  for (int64_t position : shardOwners()) {
    std::vector<int64_t> peers{position};
    for (int32_t axis : unreducedAxes) {
      std::vector<int64_t> more;
      for (int64_t peer : peers)
        for (int64_t c = 0; c < mesh_.axisSize(axis); ++c) {
          std::vector<int64_t> coordinates = mesh_.coordinates(peer);
          coordinates[axis] = c;
          more.push_back(mesh_.position(coordinates));
        }
      peers = std::move(more);
    }
    std::sort(peers.begin(), peers.end());
    peers.erase(std::unique(peers.begin(), peers.end()), peers.end());
    const std::vector<int64_t> shape = localShape(position, padding);
    std::vector<const void *> parts;
    for (int64_t peer : peers)
      parts.push_back(shards[peer]);
    std::vector<std::byte> sum(static_cast<size_t>(volumeOf(shape) * elementBytes(type)));
    reduceSources(type, Reducer::Add, parts.data(), static_cast<int64_t>(parts.size()), sum.data(),
                  volumeOf(shape));
    copyBox(globalShape_, box(position), shape, elementBytes(type), BoxDirection::LocalToGlobal,
            sum.data(), global);
  }
}

} // namespace shardgen::runtime
