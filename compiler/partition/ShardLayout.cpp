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

int64_t postSize(const Mesh &mesh, const AxisRef &axis) {
  if (!axis.isSubAxis())
    return 1;
  // At least 1 even for a sub-axis that does not fit (the verifier rejects
  // those; the coherence check reports them before using this).
  return std::max<int64_t>(1, mesh.axisSize(axis.name) / (axis.pre() * axis.size(mesh)));
}

AxisRef axisPart(const Mesh &mesh, const std::string &name, int64_t pre, int64_t size) {
  if (pre == 1 && size == mesh.axisSize(name))
    return AxisRef::full(name);
  return AxisRef::sub(name, pre, size);
}

std::vector<AxisRef> mergedAxes(const Mesh &mesh, const std::vector<AxisRef> &axes) {
  std::vector<AxisRef> merged;
  for (const AxisRef &axis : axes) {
    if (!merged.empty() && merged.back().name == axis.name && axis.isSubAxis() &&
        merged.back().pre() * merged.back().size(mesh) == axis.pre()) {
      AxisRef &last = merged.back();
      last = axisPart(mesh, axis.name, last.pre(), last.size(mesh) * axis.size(mesh));
      continue;
    }
    merged.push_back(axis);
  }
  return merged;
}

int64_t positionStep(const Mesh &mesh, const AxisRef &axis) {
  return axisStride(mesh, *mesh.axisIndex(axis.name)) * postSize(mesh, axis);
}

int64_t axisCoordinate(const Mesh &mesh, const AxisRef &axis, int64_t device) {
  return device / positionStep(mesh, axis) % axis.size(mesh);
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
    digits.push_back({positionStep(mesh, axis), axis.size(mesh)});
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

namespace {

/// The member at group position k: the group's leader with the digits of
/// the grouped (sub-)axes (in each axis' mixed radix) set to k's, row-major
/// over the axes.
int64_t memberAt(const std::vector<PositionDigit> &digits, int64_t leader, int64_t k) {
  int64_t member = leader;
  for (size_t i = digits.size(); i-- > 0;) {
    member += k % digits[i].size * digits[i].step;
    k /= digits[i].size;
  }
  return member;
}

} // namespace

int64_t groupMember(const Mesh &mesh, const std::vector<AxisRef> &axes, int64_t device,
                    int64_t position) {
  std::vector<PositionDigit> digits = positionDigits(mesh, axes);
  return memberAt(digits, withoutDigits(digits, device), position);
}

std::vector<int64_t> groupDevices(const Mesh &mesh, const std::vector<AxisRef> &axes,
                                  int64_t device) {
  // Enumerated directly: linear in the group, not in the mesh.
  std::vector<PositionDigit> digits = positionDigits(mesh, axes);
  int64_t leader = withoutDigits(digits, device);
  std::vector<int64_t> group(axesSize(mesh, axes));
  for (int64_t k = 0; k < static_cast<int64_t>(group.size()); ++k)
    group[k] = memberAt(digits, leader, k);
  return group;
}

ShardLayout makeShardLayout(const Mesh &mesh, const TensorType &type,
                            const TensorSharding &sharding) {
  ShardLayout layout;
  layout.globalType = type;
  layout.sharding = sharding;
  layout.numDevices_ = mesh.numDevices();
  for (auto &dim : layout.sharding.dims) {
    dim.isClosed = true;
    dim.priority.reset();
  }
  for (int64_t d = 0; d < type.rank(); ++d) {
    DimShards dim;
    dim.size = type.shape[d];
    dim.shards = axesSize(mesh, sharding.dims[d].axes);
    dim.chunk = (dim.size + dim.shards - 1) / dim.shards;
    for (const PositionDigit &digit : positionDigits(mesh, sharding.dims[d].axes))
      dim.digits.push_back({digit.step, digit.size});
    layout.dims_.push_back(std::move(dim));
  }
  return layout;
}

ShardLayout makeDistributedLayout(const Mesh &mesh, const TensorType &type,
                                  const Distribution &distribution) {
  // Sharded like a replicated value (one shard per dim: numShards 1, the
  // global chunk shape, even); the pieces come from `chunks`.
  ShardLayout layout =
      makeShardLayout(mesh, type, TensorSharding::replicatedOn(mesh.name, type.rank()));
  layout.distribution = distribution;
  layout.chunks = std::make_shared<const DistributionLayout>(distribution, type.shape, mesh);
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
  if (a.globalType != b.globalType || a.partialAxes.size() != b.partialAxes.size() ||
      a.sharding.dims.size() != b.sharding.dims.size())
    return false;
  for (size_t d = 0; d < a.sharding.dims.size(); ++d)
    if (a.sharding.dims[d].axes != b.sharding.dims[d].axes || a.dims_[d].reach != b.dims_[d].reach)
      return false;
  for (const auto &axis : a.partialAxes)
    if (std::find(b.partialAxes.begin(), b.partialAxes.end(), axis) == b.partialAxes.end())
      return false;
  return a.partialAxes.empty() || a.partialReducer == b.partialReducer;
}

bool samePieceShapes(const ShardLayout &a, const ShardLayout &b) {
  if (a.rank() != b.rank())
    return false;
  if (a.isDistributed() || b.isDistributed()) {
    // Local buffers [k, shardShape...]: compared device by device (a
    // distributed and a sharded value have the same dims_ of a replicated one).
    if (a.isDistributed() && b.isDistributed() && a.globalType == b.globalType &&
        a.distribution == b.distribution && a.overrides_.empty() && b.overrides_.empty())
      return true;
    for (int64_t device = 0; device < a.numDevices(); ++device)
      if (a.extentsOf(device) != b.extentsOf(device))
        return false;
    return true;
  }
  bool sameDims = a.overrides_.empty() && b.overrides_.empty();
  for (int64_t d = 0; sameDims && d < a.rank(); ++d) {
    const DimShards &x = a.dims_[d], &y = b.dims_[d];
    sameDims = x.size == y.size && x.shards == y.shards && x.digits.size() == y.digits.size() &&
               x.reach == y.reach;
    for (size_t i = 0; sameDims && i < x.digits.size(); ++i)
      sameDims = x.digits[i].step == y.digits[i].step && x.digits[i].size == y.digits[i].size;
  }
  if (sameDims)
    return true;
  for (int64_t device = 0; device < a.numDevices(); ++device)
    for (int64_t d = 0; d < a.rank(); ++d)
      if (a.extent(device, d) != b.extent(device, d))
        return false;
  return true;
}

int64_t localBytes(const ShardLayout &layout, int64_t device) {
  return layout.localElements(device) *
         static_cast<int64_t>(elementByteWidth(layout.globalType.elementType));
}

int64_t DimShards::shardOf(int64_t device) const {
  int64_t shard = 0;
  for (const Digit &digit : digits)
    shard = shard * digit.size + device / digit.step % digit.size;
  return shard;
}

int64_t DimShards::pieceBegin(int64_t shard) const {
  if (!reach)
    return offset(shard);
  const int64_t first = std::min(shard * reach->windowChunk, reach->windows);
  return std::clamp<int64_t>(first * reach->stride - reach->low, 0, size);
}

int64_t DimShards::pieceEnd(int64_t shard) const {
  if (!reach)
    return offset(shard) + extent(shard);
  const int64_t first = std::min(shard * reach->windowChunk, reach->windows);
  const int64_t last = std::min(first + reach->windowChunk, reach->windows) - 1;
  if (last < first)
    return pieceBegin(shard);
  return std::max(pieceBegin(shard),
                  std::clamp<int64_t>(last * reach->stride - reach->low + reach->extent, 0, size));
}

const ShardLayout::Piece *ShardLayout::overrideOf(int64_t device) const {
  for (const auto &[overridden, piece] : overrides_)
    if (overridden == device)
      return &piece;
  return nullptr;
}

void ShardLayout::overridePieceForTest(int64_t device, Shape offsets, Shape extents) {
  for (auto &[overridden, piece] : overrides_)
    if (overridden == device) {
      piece = {std::move(offsets), std::move(extents)};
      return;
    }
  overrides_.push_back({device, {std::move(offsets), std::move(extents)}});
}

int64_t ShardLayout::offset(int64_t device, int64_t dim) const {
  if (!overrides_.empty())
    if (const Piece *piece = overrideOf(device))
      return piece->offsets[dim];
  if (chunks)
    return 0;
  return dims_[dim].pieceBegin(dims_[dim].shardOf(device));
}

int64_t ShardLayout::extent(int64_t device, int64_t dim) const {
  if (!overrides_.empty())
    if (const Piece *piece = overrideOf(device))
      return piece->extents[dim];
  if (chunks)
    return chunks->localShape(device)[dim];
  const DimShards &shards = dims_[dim];
  const int64_t shard = shards.shardOf(device);
  return shards.pieceEnd(shard) - shards.pieceBegin(shard);
}

Shape ShardLayout::offsetsOf(int64_t device) const {
  if (chunks && !overrideOf(device))
    return Shape(chunks->localShape(device).size(), 0);
  Shape offsets(rank());
  for (int64_t d = 0; d < rank(); ++d)
    offsets[d] = offset(device, d);
  return offsets;
}

Shape ShardLayout::extentsOf(int64_t device) const {
  if (const Piece *piece = overrideOf(device))
    return piece->extents;
  if (chunks)
    return chunks->localShape(device);
  Shape extents(rank());
  for (int64_t d = 0; d < rank(); ++d)
    extents[d] = extent(device, d);
  return extents;
}

int64_t ShardLayout::numShards(int64_t dim) const { return dims_[dim].shards; }

Shape ShardLayout::chunkShape() const {
  Shape chunk(rank());
  for (int64_t d = 0; d < rank(); ++d) {
    const DimShards &dim = dims_[d];
    chunk[d] = dim.reach ? std::min(dim.size, (dim.reach->windowChunk - 1) * dim.reach->stride +
                                                  dim.reach->extent)
                         : dim.chunk;
  }
  return chunk;
}

bool ShardLayout::isEven() const {
  for (int64_t d = 0; d < rank(); ++d)
    if (dims_[d].size % dims_[d].shards != 0 || dims_[d].reach)
      return false;
  return true;
}

bool ShardLayout::hasHalo() const {
  return std::any_of(dims_.begin(), dims_.end(),
                     [](const DimShards &dim) { return dim.reach.has_value(); });
}

void ShardLayout::setWindowReach(int64_t dim, const WindowReach &reach) {
  dims_[dim].reach = reach;
}

int64_t ShardLayout::localElements(int64_t device) const {
  int64_t n = 1;
  if (chunks && !overrideOf(device)) {
    for (int64_t e : chunks->localShape(device)) // rank + 1 dims
      n *= e;
    return n;
  }
  for (int64_t d = 0; d < rank(); ++d)
    n *= extent(device, d);
  return n;
}

TensorType localBufferType(const ShardLayout &layout, int64_t position) {
  return layout.localType(position);
}

TensorType ShardLayout::localType(int64_t device) const {
  return TensorType{globalType.elementType, extentsOf(device)};
}

} // namespace shardgen
