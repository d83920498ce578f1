#include "compiler/ir/Distribution.h"

#include <algorithm>

namespace shardgen {

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

int64_t ChunkBox::volume() const {
  int64_t volume = 1;
  for (int64_t e : extent)
    volume *= e;
  return volume;
}

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
      order_(distribution.order) {
  for (size_t d = 0; d < tensorShape_.size(); ++d) {
    chunkGrid_.push_back((tensorShape_[d] + shardShape_[d] - 1) / shardShape_[d]);
    numChunks_ *= chunkGrid_.back();
  }
  devicePositions_ = distributionDeviceOrder(mesh, order_);
  listIndex_.resize(devicePositions_.size());
  for (size_t i = 0; i < devicePositions_.size(); ++i)
    listIndex_[devicePositions_[i]] = static_cast<int64_t>(i);
}

int64_t DistributionLayout::chunkCountOfPosition(int64_t position) const {
  int64_t i = listIndexOfPosition(position);
  return i < numChunks_ ? (numChunks_ - i + numDevices() - 1) / numDevices() : 0;
}

std::vector<int64_t> DistributionLayout::chunksOfPosition(int64_t position) const {
  std::vector<int64_t> chunks;
  for (int64_t s = listIndexOfPosition(position); s < numChunks_; s += numDevices())
    chunks.push_back(s);
  return chunks;
}

std::vector<int64_t> DistributionLayout::localShape(int64_t position) const {
  std::vector<int64_t> shape{chunkCountOfPosition(position)};
  shape.insert(shape.end(), shardShape_.begin(), shardShape_.end());
  return shape;
}

std::vector<int64_t> DistributionLayout::chunkCoordinates(int64_t chunk) const {
  std::vector<int64_t> coords(chunkGrid_.size());
  for (size_t d = chunkGrid_.size(); d-- > 0;) {
    coords[d] = chunk % chunkGrid_[d];
    chunk /= chunkGrid_[d];
  }
  return coords;
}

ChunkBox DistributionLayout::chunkBox(int64_t chunk) const {
  ChunkBox box;
  std::vector<int64_t> coords = chunkCoordinates(chunk);
  for (size_t d = 0; d < coords.size(); ++d) {
    int64_t offset = coords[d] * shardShape_[d];
    box.offset.push_back(offset);
    box.extent.push_back(std::min(shardShape_[d], tensorShape_[d] - offset));
  }
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
