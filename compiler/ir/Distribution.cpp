#include "compiler/ir/Distribution.h"

#include <algorithm>

#include "runtime/include/shardgen/round_robin.h"

namespace shardgen {

namespace rr = runtime::round_robin;

std::string_view deviceOrderName(DeviceOrder order) {
  return order == DeviceOrder::RowMajor ? "row_major" : "col_major";
}

std::optional<DeviceOrder> parseDeviceOrder(std::string_view text) {
  if (text == "row_major")
    return DeviceOrder::RowMajor;
  if (text == "col_major")
    return DeviceOrder::ColMajor;
  return std::nullopt;
}

std::string printDistribution(const Distribution &distribution) {
  std::string text = "{\"mesh\": \"" + distribution.meshName + "\", \"shard_shape\": [";
  for (size_t i = 0; i < distribution.shardShape.size(); ++i)
    text += (i ? ", " : "") + std::to_string(distribution.shardShape[i]);
  text += "], \"order\": \"" + std::string(deviceOrderName(distribution.order)) + "\"}";
  return text;
}

Distribution withoutMetadata(const Distribution &distribution) {
  return {distribution.meshName, distribution.shardShape, distribution.order};
}

int64_t ChunkBox::volume() const { return rr::volume(extent); }

std::vector<int64_t> distributionDeviceOrder(const Mesh &mesh, DeviceOrder order) {
  int64_t n = mesh.numDevices();
  std::vector<int64_t> positions(n);
  for (int64_t i = 0; i < n; ++i) {
    if (order == DeviceOrder::RowMajor) {
      positions[i] = i;
      continue;
    }
    // col_major: i's digits with the first axis varying fastest.
    std::vector<int64_t> coords(mesh.axes.size());
    int64_t rest = i;
    for (size_t a = 0; a < mesh.axes.size(); ++a) {
      coords[a] = rest % mesh.axes[a].size;
      rest /= mesh.axes[a].size;
    }
    positions[i] = mesh.position(coords);
  }
  return positions;
}

DistributionLayout::DistributionLayout(const Distribution &distribution,
                                       std::vector<int64_t> tensorShape, const Mesh &mesh)
    : tensorShape_(std::move(tensorShape)), shardShape_(distribution.shardShape),
      order_(distribution.order), chunkGrid_(rr::chunkGrid(tensorShape_, shardShape_)),
      numChunks_(rr::volume(chunkGrid_)) {
  devicePositions_ = distributionDeviceOrder(mesh, order_);
  listIndex_.resize(devicePositions_.size());
  for (size_t i = 0; i < devicePositions_.size(); ++i)
    listIndex_[devicePositions_[i]] = static_cast<int64_t>(i);
}

int64_t DistributionLayout::chunkCountOfPosition(int64_t position) const {
  return rr::chunkCount(numChunks_, numDevices(), listIndexOfPosition(position));
}

std::vector<int64_t> DistributionLayout::chunksOfPosition(int64_t position) const {
  return rr::chunksOf(numChunks_, numDevices(), listIndexOfPosition(position));
}

std::vector<int64_t> DistributionLayout::localShape(int64_t position) const {
  std::vector<int64_t> shape{chunkCountOfPosition(position)};
  shape.insert(shape.end(), shardShape_.begin(), shardShape_.end());
  return shape;
}

std::vector<int64_t> DistributionLayout::chunkCoordinates(int64_t chunk) const {
  return runtime::coordinatesOf(chunk, chunkGrid_);
}

ChunkBox DistributionLayout::chunkBox(int64_t chunk) const {
  ChunkBox box;
  rr::chunkBox(chunk, tensorShape_, shardShape_, chunkGrid_, box.offset, box.extent);
  return box;
}

Distribution dropDistributionDims(const Distribution &operand,
                                  const std::vector<int64_t> &dimensions) {
  Distribution result{operand.meshName, {}, operand.order};
  for (int64_t d = 0; d < operand.rank(); ++d)
    if (std::find(dimensions.begin(), dimensions.end(), d) == dimensions.end())
      result.shardShape.push_back(operand.shardShape[d]);
  return result;
}

} // namespace shardgen
