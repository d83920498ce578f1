#include "shardgen/mesh.h"
#include "shardgen/mesh_position.h"

#include <stdexcept>

namespace shardgen::runtime {

DeviceMesh::DeviceMesh(std::vector<MeshAxis> axes, std::vector<int64_t> deviceIds)
    : axes_(std::move(axes)), deviceIds_(std::move(deviceIds)) {
  if (axes_.size() > static_cast<size_t>(kMaxMeshAxes))
    throw std::invalid_argument("a mesh has at most " + std::to_string(kMaxMeshAxes) +
                                " axes, got " + std::to_string(axes_.size()));
  for (size_t i = 0; i < axes_.size(); ++i) {
    if (axes_[i].size <= 0)
      throw std::invalid_argument("mesh axis \"" + axes_[i].name + "\" has size " +
                                  std::to_string(axes_[i].size) + "; sizes must be positive");
    for (size_t j = 0; j < i; ++j)
      if (axes_[j].name == axes_[i].name)
        throw std::invalid_argument("duplicate mesh axis \"" + axes_[i].name + "\"");
    if (numDevices_ > (int64_t{1} << 40) / axes_[i].size)
      throw std::invalid_argument("the mesh has too many devices");
    numDevices_ *= axes_[i].size;
  }
  if (deviceIds_.empty())
    return;
  if (static_cast<int64_t>(deviceIds_.size()) != numDevices_)
    throw std::invalid_argument("device_ids has " + std::to_string(deviceIds_.size()) +
                                " entries but the mesh has " + std::to_string(numDevices_) +
                                " devices");
  positionOfDevice_.assign(numDevices_, -1);
  for (int64_t position = 0; position < numDevices_; ++position) {
    int64_t id = deviceIds_[position];
    if (id < 0 || id >= numDevices_ || positionOfDevice_[id] != -1)
      throw std::invalid_argument("device_ids must be a permutation of 0.." +
                                  std::to_string(numDevices_ - 1));
    positionOfDevice_[id] = position;
  }
}

int32_t DeviceMesh::axisIndex(const std::string &name) const {
  for (size_t i = 0; i < axes_.size(); ++i)
    if (axes_[i].name == name)
      return static_cast<int32_t>(i);
  throw std::invalid_argument("unknown mesh axis \"" + name + "\"");
}

int64_t DeviceMesh::deviceId(int64_t position) const {
  if (position < 0 || position >= numDevices_)
    throw std::out_of_range("device position " + std::to_string(position) + " is outside the mesh");
  return deviceIds_.empty() ? position : deviceIds_[position];
}

int64_t DeviceMesh::positionOfDevice(int64_t deviceId) const {
  if (deviceId < 0 || deviceId >= numDevices_)
    throw std::out_of_range("device id " + std::to_string(deviceId) + " is outside the mesh");
  return positionOfDevice_.empty() ? deviceId : positionOfDevice_[deviceId];
}

std::vector<int64_t> DeviceMesh::coordinates(int64_t position) const {
  if (position < 0 || position >= numDevices_)
    throw std::out_of_range("device position " + std::to_string(position) + " is outside the mesh");
  return coordinatesOf(position, axisSizes());
}

int64_t DeviceMesh::position(const std::vector<int64_t> &coordinates) const {
  if (coordinates.size() != axes_.size())
    throw std::invalid_argument("expected " + std::to_string(axes_.size()) + " coordinates, got " +
                                std::to_string(coordinates.size()));
  for (size_t i = 0; i < axes_.size(); ++i)
    if (coordinates[i] < 0 || coordinates[i] >= axes_[i].size)
      throw std::out_of_range("coordinate " + std::to_string(coordinates[i]) +
                              " is outside axis \"" + axes_[i].name + "\"");
  return positionOf(coordinates, axisSizes());
}

std::vector<int64_t> DeviceMesh::axisSizes() const {
  std::vector<int64_t> sizes;
  for (const MeshAxis &axis : axes_)
    sizes.push_back(axis.size);
  return sizes;
}

DeviceContext DeviceMesh::deviceContext(int64_t position, Communicator *communicator) const {
  DeviceContext context;
  context.position = position;
  context.deviceId = deviceId(position);
  context.numDevices = numDevices_;
  context.numAxes = numAxes();
  std::vector<int64_t> coords = coordinates(position);
  for (int32_t i = 0; i < context.numAxes; ++i) {
    context.axisSizes[i] = axes_[i].size;
    context.coordinates[i] = coords[i];
  }
  context.mesh = this;
  context.communicator = communicator;
  return context;
}

} // namespace shardgen::runtime
