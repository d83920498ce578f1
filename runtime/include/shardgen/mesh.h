#pragma once
// A mesh of devices with named axes (major to minor). Devices are numbered by
// their row-major position; `device_ids` (a permutation) maps a position to
// the device id it runs on, as in the graph format.

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "shardgen/runtime.h"

namespace shardgen::runtime {

struct MeshAxis {
  std::string name;
  int64_t size = 1;
};

class DeviceMesh {
public:
  /// Throws std::invalid_argument on a non-positive size, a duplicate name,
  /// more than kMaxMeshAxes axes or device ids that are not a permutation.
  explicit DeviceMesh(std::vector<MeshAxis> axes, std::vector<int64_t> deviceIds = {});

  int64_t numDevices() const { return numDevices_; }
  int32_t numAxes() const { return static_cast<int32_t>(axes_.size()); }
  const std::vector<MeshAxis> &axes() const { return axes_; }
  int64_t axisSize(int32_t axis) const { return axes_.at(axis).size; }
  /// The index of the axis called `name`; throws std::invalid_argument.
  int32_t axisIndex(const std::string &name) const;

  int64_t deviceId(int64_t position) const;
  int64_t positionOfDevice(int64_t deviceId) const;
  std::vector<int64_t> axisSizes() const; // major to minor
  std::vector<int64_t> coordinates(int64_t position) const;
  int64_t position(const std::vector<int64_t> &coordinates) const;

  /// The context of the device at `position`, bound to `communicator`.
  DeviceContext deviceContext(int64_t position, Communicator *communicator) const;

private:
  std::vector<MeshAxis> axes_;
  std::vector<int64_t> deviceIds_; // empty: iota
  std::vector<int64_t> positionOfDevice_;
  int64_t numDevices_ = 1;
};

} // namespace shardgen::runtime
