#include "BoxCopy.h"

#include <cstring>

namespace shardgen::runtime {

int64_t volumeOf(const std::vector<int64_t> &shape) {
  int64_t volume = 1;
  for (int64_t size : shape)
    volume *= size;
  return volume;
}

int64_t ShardBox::volume() const { return volumeOf(extent); }

namespace {
std::vector<int64_t> stridesOf(const std::vector<int64_t> &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;)
    strides[d - 1] = strides[d] * shape[d];
  return strides;
}
} // namespace

void copyBox(const std::vector<int64_t> &globalShape, const ShardBox &box,
             const std::vector<int64_t> &localShape, int64_t elementBytes, BoxDirection direction,
             const void *source, void *destination) {
  const bool toLocal = direction == BoxDirection::GlobalToLocal;
  const size_t rank = globalShape.size();
  if (box.volume() == 0)
    return;
  if (rank == 0) {
    std::memcpy(destination, source, static_cast<size_t>(elementBytes));
    return;
  }
  std::vector<int64_t> globalStrides = stridesOf(globalShape);
  std::vector<int64_t> localStrides = stridesOf(localShape);
  const size_t runBytes = static_cast<size_t>(box.extent[rank - 1] * elementBytes);
  // Walk every index of the box but the last dim (an odometer); each step
  // copies one contiguous run.
  std::vector<int64_t> index(rank, 0);
  while (true) {
    int64_t globalOffset = 0, localOffset = 0;
    for (size_t d = 0; d < rank; ++d) {
      globalOffset += (box.offset[d] + index[d]) * globalStrides[d];
      localOffset += index[d] * localStrides[d];
    }
    int64_t sourceOffset = toLocal ? globalOffset : localOffset;
    int64_t destinationOffset = toLocal ? localOffset : globalOffset;
    std::memcpy(static_cast<unsigned char *>(destination) + destinationOffset * elementBytes,
                static_cast<const unsigned char *>(source) + sourceOffset * elementBytes, runBytes);
    size_t d = rank - 1;
    while (d-- > 0) {
      if (++index[d] < box.extent[d])
        break;
      index[d] = 0;
    }
    if (d == static_cast<size_t>(-1))
      return;
  }
}

} // namespace shardgen::runtime
