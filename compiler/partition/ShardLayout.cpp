#include "compiler/partition/ShardLayout.h"

#include <algorithm>

namespace shardgen {

namespace {

/// Devices per step of a mesh axis' coordinate (the product of the more
/// minor axes' sizes).
int64_t axisStride(const Mesh &mesh, size_t index) {
  int64_t stride = 1;
  for (size_t a = index + 1; a < mesh.axes.size(); ++a)
    stride *= mesh.axes[a].size;
  return stride;
}

} // namespace

int64_t axisCoordinate(const Mesh &mesh, const AxisRef &axis, int64_t device) {
  size_t index = *mesh.axisIndex(axis.name);
  int64_t coordinate = device / axisStride(mesh, index) % mesh.axes[index].size;
  if (!axis.isSubAxis())
    return coordinate;
  return (coordinate / *axis.preSize) % *axis.subSize;
}

int64_t indexOverAxes(const Mesh &mesh, const std::vector<AxisRef> &axes, int64_t device) {
  int64_t index = 0;
  for (const auto &axis : axes)
    index = index * axis.size(mesh) + axisCoordinate(mesh, axis, device);
  return index;
}

int64_t axesSize(const Mesh &mesh, const std::vector<AxisRef> &axes) {
  int64_t size = 1;
  for (const auto &axis : axes)
    size *= axis.size(mesh);
  return size;
}

namespace {

/// A grouped (sub-)axis as a digit of the mesh position.
struct PositionDigit {
  int64_t step; // mesh positions per unit of this (sub-)axis
  int64_t size;
};

std::vector<PositionDigit> positionDigits(const Mesh &mesh, const std::vector<AxisRef> &axes) {
  std::vector<PositionDigit> digits;
  for (const auto &axis : axes)
    digits.push_back({axisStride(mesh, *mesh.axisIndex(axis.name)) * axis.pre(), axis.size(mesh)});
  return digits;
}

int64_t withoutDigits(const std::vector<PositionDigit> &digits, int64_t device) {
  for (const PositionDigit &digit : digits)
    device -= (device / digit.step % digit.size) * digit.step;
  return device;
}

} // namespace

int64_t groupLeader(const Mesh &mesh, const std::vector<AxisRef> &axes, int64_t device) {
  return withoutDigits(positionDigits(mesh, axes), device);
}

std::vector<int64_t> groupDevices(const Mesh &mesh, const std::vector<AxisRef> &axes,
                                  int64_t device) {
  // The member at group position k: `device` with the digits of the grouped
  // (sub-)axes (in each axis' mixed radix) replaced by k's, row-major over
  // `axes`. Enumerated directly: linear in the group, not in the mesh.
  std::vector<PositionDigit> digits = positionDigits(mesh, axes);
  int64_t base = withoutDigits(digits, device);
  std::vector<int64_t> group(axesSize(mesh, axes));
  for (int64_t k = 0; k < static_cast<int64_t>(group.size()); ++k) {
    int64_t member = base, rest = k;
    for (size_t i = digits.size(); i-- > 0;) {
      member += rest % digits[i].size * digits[i].step;
      rest /= digits[i].size;
    }
    group[k] = member;
  }
  return group;
}

ShardLayout makeShardLayout(const Mesh &mesh, const TensorType &type,
                            const TensorSharding &sharding) {
  ShardLayout layout;
  layout.globalType = type;
  layout.sharding = sharding;
  for (auto &dim : layout.sharding.dims) {
    dim.isClosed = true;
    dim.priority.reset();
  }
  int64_t rank = type.rank();
  layout.shardsPerDim_.resize(rank);
  for (int64_t d = 0; d < rank; ++d)
    layout.shardsPerDim_[d] = axesSize(mesh, sharding.dims[d].axes);
  int64_t numDevices = mesh.numDevices();
  layout.offsets.assign(numDevices, std::vector<int64_t>(rank));
  layout.extents.assign(numDevices, std::vector<int64_t>(rank));
  std::vector<std::vector<PositionDigit>> dimDigits;
  for (int64_t d = 0; d < rank; ++d)
    dimDigits.push_back(positionDigits(mesh, sharding.dims[d].axes));
  for (int64_t device = 0; device < numDevices; ++device) {
    for (int64_t d = 0; d < rank; ++d) {
      int64_t size = type.shape[d];
      int64_t shards = layout.shardsPerDim_[d];
      int64_t chunk = (size + shards - 1) / shards;
      int64_t shard = 0; // indexOverAxes, with the axes looked up once
      for (const PositionDigit &digit : dimDigits[d])
        shard = shard * digit.size + device / digit.step % digit.size;
      int64_t offset = std::min(shard * chunk, size);
      layout.offsets[device][d] = offset;
      layout.extents[device][d] = std::min(chunk, size - offset);
    }
  }
  return layout;
}

ShardLayout makeDistributedLayout(const Mesh &mesh, const TensorType &type,
                                  const Distribution &distribution) {
  ShardLayout layout;
  layout.globalType = type;
  layout.sharding = TensorSharding::replicatedOn(mesh.name, type.rank());
  layout.shardsPerDim_.assign(type.rank(), 1);
  layout.distribution = distribution;
  layout.chunks = std::make_shared<const DistributionLayout>(distribution, type.shape, mesh);
  for (int64_t position = 0; position < mesh.numDevices(); ++position) {
    layout.extents.push_back(layout.chunks->localShape(position));
    layout.offsets.emplace_back(layout.extents.back().size(), 0);
  }
  return layout;
}

ShardLayout makeShardLayout(const Mesh &mesh, const TensorType &type, const DimAxes &dimAxes,
                            const std::vector<AxisRef> &partialAxes, Reducer partialReducer) {
  TensorSharding sharding;
  sharding.meshName = mesh.name;
  for (const auto &axes : dimAxes)
    sharding.dims.push_back(DimSharding{axes, true, std::nullopt});
  sharding.unreduced = partialAxes;
  ShardLayout layout = makeShardLayout(mesh, type, sharding);
  layout.partialAxes = partialAxes;
  layout.partialReducer = partialReducer;
  return layout;
}

DimAxes dimAxesOf(const ShardLayout &layout) {
  DimAxes axes;
  for (const auto &dim : layout.sharding.dims)
    axes.push_back(dim.axes);
  return axes;
}

bool sameLayout(const ShardLayout &a, const ShardLayout &b) {
  if (a.isDistributed() || b.isDistributed())
    return a.globalType == b.globalType && a.distribution == b.distribution;
  if (a.globalType != b.globalType || dimAxesOf(a) != dimAxesOf(b) ||
      a.partialAxes.size() != b.partialAxes.size())
    return false;
  for (const auto &axis : a.partialAxes)
    if (std::find(b.partialAxes.begin(), b.partialAxes.end(), axis) == b.partialAxes.end())
      return false;
  return a.partialAxes.empty() || a.partialReducer == b.partialReducer;
}

int64_t localBytes(const ShardLayout &layout, int64_t device) {
  return layout.localElements(device) *
         static_cast<int64_t>(elementByteWidth(layout.globalType.elementType));
}

int64_t ShardLayout::numShards(int64_t dim) const { return shardsPerDim_[dim]; }

Shape ShardLayout::chunkShape() const {
  Shape chunk(rank());
  for (int64_t d = 0; d < rank(); ++d)
    chunk[d] = (globalType.shape[d] + shardsPerDim_[d] - 1) / shardsPerDim_[d];
  return chunk;
}

bool ShardLayout::isEven() const {
  for (int64_t d = 0; d < rank(); ++d)
    if (globalType.shape[d] % shardsPerDim_[d] != 0)
      return false;
  return true;
}

int64_t ShardLayout::localElements(int64_t device) const {
  int64_t n = 1;
  for (int64_t e : extents[device])
    n *= e;
  return n;
}

TensorType localBufferType(const ShardLayout &layout, int64_t position) {
  return layout.localType(position);
}

TensorType ShardLayout::localType(int64_t device) const {
  return TensorType{globalType.elementType, extents[device]};
}

} // namespace shardgen
