#pragma once
// Which device holds which block of a tensor, read from the partitioner's own
// per-device layout (ShardLayout offsets and extents): devices holding the
// same box are one block (replicas), and the blocks' boxes cut each dim into
// intervals, so the tensor is a grid of cells, one block per cell. Nothing
// here repeats the sharding arithmetic.

#include <cstdint>
#include <vector>

#include "compiler/ir/Distribution.h"
#include "compiler/partition/ShardLayout.h"

namespace shardgen::show {

/// Elements [offset, offset + extent) of one dim.
struct Interval {
  int64_t offset = 0, extent = 0;
  bool operator==(const Interval &) const = default;
};

struct Block {
  std::vector<Interval> box;      // per dim (empty blocks: none)
  std::vector<int64_t> positions; // mesh positions holding it, ascending
  bool uneven = false;            // shorter than the chunk shape in some dim
  bool empty = false;             // no elements: the devices hold nothing
};

struct BlockMap {
  Shape shape;
  /// Per dim: the distinct intervals of the non-empty blocks, by offset.
  std::vector<std::vector<Interval>> cuts;
  /// The non-empty blocks in row-major order of their cells, then (at most
  /// one) the empty block listing every device holding nothing.
  std::vector<Block> blocks;
  /// Row-major over `cuts`: the block index of each cell.
  std::vector<int64_t> cellBlock;
  /// Devices with the same box hold different partial values to be reduced
  /// over these axes.
  std::vector<AxisRef> partialAxes;

  int64_t numCells() const { return static_cast<int64_t>(cellBlock.size()); }
  /// The cell index of per-dim cut indices.
  int64_t cellIndex(const std::vector<int64_t> &cutIndex) const;
};

BlockMap mapBlocks(const ShardLayout &layout);

/// A distributed tensor: one block per chunk (the cells are the chunk grid,
/// so cell s is chunk s), held by the device the chunk is dealt to; devices
/// dealt no chunk form the empty block.
BlockMap mapChunks(const DistributionLayout &layout);

} // namespace shardgen::show
