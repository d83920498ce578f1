#include "compiler/show/BlockMap.h"

#include <algorithm>
#include <map>

#include "compiler/ir/InternalError.h"

namespace shardgen::show {

int64_t BlockMap::cellIndex(const std::vector<int64_t> &cutIndex) const {
  int64_t index = 0;
  for (size_t d = 0; d < cuts.size(); ++d)
    index = index * static_cast<int64_t>(cuts[d].size()) + cutIndex[d];
  return index;
}

BlockMap mapBlocks(const ShardLayout &layout) {
  BlockMap map;
  map.shape = layout.globalType.shape;
  map.partialAxes = layout.partialAxes;
  const size_t rank = map.shape.size();
  const Shape chunk = layout.isDistributed() ? layout.chunks->shardShape() : layout.chunkShape();

  // Devices by the box they hold (ordered by box, so by offsets).
  std::map<std::vector<int64_t>, std::vector<int64_t>> holders;
  Block empty;
  empty.empty = true;
  if (layout.isDistributed()) // one box per chunk, each on one device
    for (int64_t position = 0; position < layout.numDevices(); ++position) {
      std::vector<int64_t> chunks = layout.chunks->chunksOfPosition(position);
      if (chunks.empty())
        empty.positions.push_back(position);
      for (int64_t c : chunks) {
        ChunkBox box = layout.chunks->chunkBox(c);
        std::vector<int64_t> key = box.offset;
        key.insert(key.end(), box.extent.begin(), box.extent.end());
        holders[key].push_back(position);
      }
    }
  for (int64_t position = 0; position < layout.numDevices() && !layout.isDistributed();
       ++position) {
    const Shape extents = layout.extentsOf(position);
    if (std::find(extents.begin(), extents.end(), 0) != extents.end()) {
      empty.positions.push_back(static_cast<int64_t>(position));
      continue;
    }
    std::vector<int64_t> key = layout.offsetsOf(position);
    key.insert(key.end(), extents.begin(), extents.end());
    holders[key].push_back(static_cast<int64_t>(position));
  }

  map.cuts.resize(rank);
  for (const auto &[key, positions] : holders)
    for (size_t d = 0; d < rank; ++d) {
      Interval interval{key[d], key[rank + d]};
      auto &cuts = map.cuts[d];
      if (std::find(cuts.begin(), cuts.end(), interval) == cuts.end())
        cuts.push_back(interval);
    }
  for (auto &cuts : map.cuts)
    std::sort(cuts.begin(), cuts.end(),
              [](const Interval &a, const Interval &b) { return a.offset < b.offset; });

  int64_t numCells = 1;
  for (const auto &cuts : map.cuts)
    numCells *= static_cast<int64_t>(cuts.size());
  map.cellBlock.assign(holders.empty() ? 0 : numCells, -1);
  for (const auto &[key, positions] : holders) {
    Block block;
    std::vector<int64_t> cutIndex(rank);
    for (size_t d = 0; d < rank; ++d) {
      Interval interval{key[d], key[rank + d]};
      block.box.push_back(interval);
      block.uneven |= interval.extent < chunk[d];
      cutIndex[d] =
          std::find(map.cuts[d].begin(), map.cuts[d].end(), interval) - map.cuts[d].begin();
    }
    block.positions = positions;
    int64_t cell = map.cellIndex(cutIndex);
    SHARDGEN_CHECK(map.cellBlock[cell] < 0, "two blocks of a layout share a cell");
    map.cellBlock[cell] = static_cast<int64_t>(map.blocks.size());
    map.blocks.push_back(std::move(block));
  }
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
