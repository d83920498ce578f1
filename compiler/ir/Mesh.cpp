#include "compiler/ir/Mesh.h"

#include "runtime/include/shardgen/mesh_position.h"

namespace shardgen {

int64_t Mesh::numDevices() const {
  int64_t n = 1;
  for (const auto &axis : axes)
    n *= axis.size;
  return n;
}

std::optional<size_t> Mesh::axisIndex(const std::string &axis) const {
  for (size_t i = 0; i < axes.size(); ++i)
    if (axes[i].name == axis)
      return i;
  return std::nullopt;
}

int64_t Mesh::axisSize(const std::string &axis) const { return axes[*axisIndex(axis)].size; }

int64_t Mesh::deviceId(int64_t position) const {
  return deviceIds.empty() ? position : deviceIds[position];
}

bool Mesh::permutesDevices() const {
  for (size_t p = 0; p < deviceIds.size(); ++p)
    if (deviceIds[p] != static_cast<int64_t>(p))
      return true;
  return false;
}

std::vector<int64_t> Mesh::axisSizes() const {
  std::vector<int64_t> sizes;
  for (const MeshAxis &axis : axes)
    sizes.push_back(axis.size);
  return sizes;
}

std::vector<int64_t> Mesh::coordinates(int64_t position) const {
  return runtime::coordinatesOf(position, axisSizes());
}

int64_t Mesh::position(const std::vector<int64_t> &coords) const {
  return runtime::positionOf(coords, axisSizes());
}

} // namespace shardgen
