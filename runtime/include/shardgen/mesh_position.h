#pragma once
// A device's row-major position on a mesh and its coordinates (one per axis,
// the last axis minor): the one copy the compiler's Mesh and the runtime's
// DeviceMesh share. Callers check ranges; these only compute.

#include <cstdint>
#include <vector>

namespace shardgen::runtime {

inline std::vector<int64_t> coordinatesOf(int64_t position, const std::vector<int64_t> &axisSizes) {
  std::vector<int64_t> coordinates(axisSizes.size());
  for (size_t i = axisSizes.size(); i-- > 0;) {
    coordinates[i] = position % axisSizes[i];
    position /= axisSizes[i];
  }
  return coordinates;
}

inline int64_t positionOf(const std::vector<int64_t> &coordinates,
                          const std::vector<int64_t> &axisSizes) {
  int64_t position = 0;
  for (size_t i = 0; i < axisSizes.size(); ++i)
    position = position * axisSizes[i] + coordinates[i];
  return position;
}

} // namespace shardgen::runtime
