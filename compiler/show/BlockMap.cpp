#include "compiler/show/BlockMap.h"

#include <algorithm>

#include "compiler/ir/InternalError.h"

namespace shardgen::show {

int64_t BlockMap::cellIndex(const std::vector<int64_t> &cutIndex) const {
  int64_t index = 0;
  for (size_t d = 0; d < cuts.size(); ++d)
    index = index * static_cast<int64_t>(cuts[d].size()) + cutIndex[d];
  return index;
}

BlockMap mapBlocks(const ShardLayout &layout) {
  if (layout.isDistributed()) { // one block per chunk, on the device it is dealt to
    BlockMap map = mapChunks(*layout.chunks);
    map.partialAxes = layout.partialAxes;
    return map;
  }
  BlockMap map;
  map.shape = layout.globalType.shape;
  map.partialAxes = layout.partialAxes;
  const size_t rank = map.shape.size();
  const Shape chunk = layout.chunkShape();
  // The cuts of a dim are its non-empty shards, in shard order: shard k of a
  // dim starts at k * chunk. Every combination of them is one block (a dim's
  // axes are its own), so the cells are the blocks, in row-major order, and
  // a device's block follows from its shard index per dim: one pass over the
  // devices, nothing looked up (a mesh may have 2^20 of them).
  map.cuts.resize(rank);
  int64_t numCells = 1;
  for (size_t d = 0; d < rank; ++d) {
    for (int64_t k = 0; k < layout.numShards(static_cast<int64_t>(d)) && chunk[d] > 0; ++k) {
      const int64_t offset = k * chunk[d];
      if (offset >= map.shape[d])
        break;
      map.cuts[d].push_back({offset, std::min(chunk[d], map.shape[d] - offset)});
    }
    numCells *= static_cast<int64_t>(map.cuts[d].size());
  }
  map.blocks.resize(static_cast<size_t>(numCells));
  map.cellBlock.resize(static_cast<size_t>(numCells));
  for (int64_t cell = 0; cell < numCells; ++cell) {
    map.cellBlock[cell] = cell;
    Block &block = map.blocks[cell];
    block.box.resize(rank);
    for (size_t d = rank, rest = static_cast<size_t>(cell); d-- > 0;) {
      block.box[d] = map.cuts[d][rest % map.cuts[d].size()];
      block.uneven |= block.box[d].extent < chunk[d];
      rest /= map.cuts[d].size();
    }
  }
  Block empty;
  empty.empty = true;
  for (int64_t position = 0; position < layout.numDevices(); ++position) {
    int64_t cell = 0;
    for (size_t d = 0; d < rank; ++d) {
      const auto dim = static_cast<int64_t>(d);
      const Interval piece{layout.offset(position, dim), layout.extent(position, dim)};
      if (piece.extent == 0) {
        cell = -1;
        break;
      }
      const int64_t k = piece.offset / chunk[d];
      SHARDGEN_CHECK(k < static_cast<int64_t>(map.cuts[d].size()) && map.cuts[d][k] == piece,
                     "a device's piece is not one of its dim's shards");
      cell = cell * static_cast<int64_t>(map.cuts[d].size()) + k;
    }
    (cell < 0 ? empty : map.blocks[cell]).positions.push_back(position);
  }
  SHARDGEN_CHECK(std::none_of(map.blocks.begin(), map.blocks.end(),
                              [](const Block &block) { return block.positions.empty(); }),
                 "a block of a layout has no device");
  if (!empty.positions.empty())
    map.blocks.push_back(std::move(empty));
  return map;
}

BlockMap mapChunks(const DistributionLayout &layout) {
  BlockMap map;
  map.shape = layout.tensorShape();
  const std::vector<int64_t> &shard = layout.shardShape();
  for (size_t d = 0; d < map.shape.size(); ++d) {
    map.cuts.emplace_back();
    for (int64_t k = 0; k < layout.chunkGrid()[d]; ++k)
      map.cuts[d].push_back({k * shard[d], std::min(shard[d], map.shape[d] - k * shard[d])});
  }
  for (int64_t chunk = 0; chunk < layout.numChunks(); ++chunk) {
    ChunkBox box = layout.chunkBox(chunk);
    Block block;
    for (size_t d = 0; d < box.offset.size(); ++d) {
      block.box.push_back({box.offset[d], box.extent[d]});
      block.uneven |= box.extent[d] < shard[d];
    }
    block.positions = {layout.positionOfChunk(chunk)};
    map.cellBlock.push_back(chunk);
    map.blocks.push_back(std::move(block));
  }
  Block empty;
  empty.empty = true;
  for (int64_t position = 0; position < layout.numDevices(); ++position)
    if (layout.chunkCountOfPosition(position) == 0)
      empty.positions.push_back(position);
  if (!empty.positions.empty())
    map.blocks.push_back(std::move(empty));
  return map;
}

} // namespace shardgen::show
