#pragma once
// The arithmetic of a round-robin (tt-metal ND) layout: a tensor cut into
// chunks of a shard shape, numbered row-major over the chunk grid; chunk s
// lives on the (s mod N)-th of N devices, as that device's (s / N)-th local
// chunk. One copy for the runtime's RoundRobinLayout (distribution.h) and
// the compiler's DistributionLayout (compiler/ir/Distribution.h), which
// includes it without linking the runtime: header-only.

#include <algorithm>
#include <cstdint>
#include <vector>

#include "mesh_position.h" // beside this file: found from any include path

namespace shardgen::runtime::round_robin {

/// Chunks per dim: ceil(tensor / shard) (0 for a dim of size 0).
inline std::vector<int64_t> chunkGrid(const std::vector<int64_t> &tensorShape,
                                      const std::vector<int64_t> &shardShape) {
  std::vector<int64_t> grid(tensorShape.size());
  for (size_t d = 0; d < tensorShape.size(); ++d)
    grid[d] = tensorShape[d] == 0 ? 0 : (tensorShape[d] - 1) / shardShape[d] + 1; // no overflow
  return grid;
}

/// The product of `sizes` (1 for none).
inline int64_t volume(const std::vector<int64_t> &sizes) {
  int64_t product = 1;
  for (int64_t size : sizes)
    product *= size;
  return product;
}

/// How many of `chunks` chunks the `index`-th of `devices` devices holds.
inline int64_t chunkCount(int64_t chunks, int64_t devices, int64_t index) {
  return index < chunks ? (chunks - index + devices - 1) / devices : 0;
}

/// The chunks the `index`-th of `devices` devices holds, in slot order.
inline std::vector<int64_t> chunksOf(int64_t chunks, int64_t devices, int64_t index) {
  std::vector<int64_t> held;
  for (int64_t chunk = index; chunk < chunks; chunk += devices)
    held.push_back(chunk);
  return held;
}

/// The part of the tensor chunk `chunk` covers: its offset and its extent,
/// clipped to the tensor (an edge chunk is shorter than the shard shape).
inline void chunkBox(int64_t chunk, const std::vector<int64_t> &tensorShape,
                     const std::vector<int64_t> &shardShape, const std::vector<int64_t> &grid,
                     std::vector<int64_t> &offset, std::vector<int64_t> &extent) {
  offset = coordinatesOf(chunk, grid); // the chunk's place in the grid
  extent.resize(offset.size());
  for (size_t d = 0; d < offset.size(); ++d) {
    offset[d] *= shardShape[d];
    extent[d] = std::min(shardShape[d], tensorShape[d] - offset[d]);
  }
}

} // namespace shardgen::runtime::round_robin
