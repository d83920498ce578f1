#pragma once
// A named device mesh: axes major to minor, and the device id at each
// row-major position (iota unless the graph gives `device_ids`).

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Metadata.h"

namespace shardgen {

struct MeshAxis {
  std::string name;
  int64_t size = 1;
  bool operator==(const MeshAxis &) const = default;
};

struct Mesh {
  std::string name;
  std::vector<MeshAxis> axes;
  std::vector<int64_t> deviceIds; // as given; empty means iota
  std::string pointer;            // JSON pointer of the mesh object
  Metadata metadata;
  /// Per axis, the `_` keys of its object (empty when no axis has any).
  std::vector<Metadata> axisMetadata;

  int64_t numDevices() const; // product of axis sizes (1 for a maximal mesh)
  /// A mesh with no axes and one device id: the tensor lives on that device.
  bool isMaximal() const { return axes.empty() && deviceIds.size() == 1; }
  bool isEmpty() const { return axes.empty() && deviceIds.empty(); }
  std::optional<size_t> axisIndex(const std::string &axis) const;
  int64_t axisSize(const std::string &axis) const; // requires the axis to exist
  /// Device id at a row-major logical position, through device_ids.
  int64_t deviceId(int64_t position) const;
  /// Whether device_ids give some position another id than itself.
  bool permutesDevices() const;
  std::vector<int64_t> axisSizes() const; // major to minor
  /// Coordinates (one per axis) of a row-major logical position.
  std::vector<int64_t> coordinates(int64_t position) const;
  int64_t position(const std::vector<int64_t> &coordinates) const;
};

} // namespace shardgen
