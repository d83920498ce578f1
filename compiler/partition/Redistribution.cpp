#include "compiler/partition/Redistribution.h"

#include <algorithm>
#include <map>

namespace shardgen {

int64_t RedistributionBlock::elements() const {
  int64_t n = 1;
  for (int64_t e : extent)
    n *= e;
  return n;
}

namespace {

/// A part of the global tensor one buffer holds: at `slot` of the buffer of
/// `position`, covering [offset, offset + extent).
struct BufferPiece {
  int64_t position = 0;
  int64_t slot = 0;
  std::vector<int64_t> offset, extent;
};

bool nonEmpty(const std::vector<int64_t> &extent) {
  return std::all_of(extent.begin(), extent.end(), [](int64_t e) { return e > 0; });
}

/// Every region of a layout's pieces (one per chunk, or per device holding
/// real elements), in position and slot order.
std::vector<BufferPiece> destinationRegions(const ShardLayout &layout) {
  std::vector<BufferPiece> regions;
  const int64_t devices = layout.numDevices();
  for (int64_t position = 0; position < devices; ++position) {
    if (layout.isDistributed()) {
      std::vector<int64_t> chunks = layout.chunks->chunksOfPosition(position);
      for (size_t slot = 0; slot < chunks.size(); ++slot) {
        ChunkBox box = layout.chunks->chunkBox(chunks[slot]);
        regions.push_back({position, static_cast<int64_t>(slot), box.offset, box.extent});
      }
    } else if (Shape extents = layout.extentsOf(position); nonEmpty(extents)) {
      regions.push_back({position, 0, layout.offsetsOf(position), extents});
    }
  }
  return regions;
}

/// Where a sharded source holds what: each distinct piece once, with the
/// positions holding it (ascending).
struct ShardedSource {
  std::vector<BufferPiece> pieces;
  std::vector<std::vector<int64_t>> holders;
};

ShardedSource shardedSource(const ShardLayout &layout) {
  ShardedSource source;
  std::map<std::vector<int64_t>, size_t> pieceOf;
  for (int64_t position = 0; position < layout.numDevices(); ++position) {
    Shape extents = layout.extentsOf(position);
    if (!nonEmpty(extents))
      continue;
    Shape offsets = layout.offsetsOf(position);
    auto [it, fresh] = pieceOf.try_emplace(offsets, source.pieces.size());
    if (fresh) {
      source.pieces.push_back({position, 0, offsets, extents});
      source.holders.emplace_back();
    }
    source.holders[it->second].push_back(position);
  }
  return source;
}

/// The holder of `holder`'s piece nearest `target`: `target` with its
/// coordinates on the layout's axes taken from `holder` (the pieces of a
/// sharded layout depend on those alone), so a piece comes from the
/// target's own group over the other axes (a halo from the neighbour
/// beside it, not from the first device holding the piece).
int64_t nearestHolder(const Mesh &mesh, const ShardLayout &layout, int64_t holder, int64_t target) {
  int64_t nearest = target;
  for (const DimSharding &dim : layout.sharding.dims)
    for (const AxisRef &axis : dim.axes) {
      const int64_t step = positionStep(mesh, axis);
      nearest += (axisCoordinate(mesh, axis, holder) - axisCoordinate(mesh, axis, target)) * step;
    }
  return nearest;
}

/// The block moving the intersection of `source` and `target`, if any.
bool intersect(const BufferPiece &source, const BufferPiece &target, RedistributionBlock &block) {
  const size_t rank = target.offset.size();
  block.from = source.position;
  block.to = target.position;
  block.fromStart = {source.slot};
  block.toStart = {target.slot};
  block.extent = {1};
  for (size_t d = 0; d < rank; ++d) {
    int64_t begin = std::max(source.offset[d], target.offset[d]);
    int64_t end =
        std::min(source.offset[d] + source.extent[d], target.offset[d] + target.extent[d]);
    if (end <= begin)
      return false;
    block.fromStart.push_back(begin - source.offset[d]);
    block.toStart.push_back(begin - target.offset[d]);
    block.extent.push_back(end - begin);
  }
  return true;
}

/// Calls fn(chunk) for every chunk of a distribution meeting `target`'s box.
template <typename Fn>
void forEachChunkMeeting(const DistributionLayout &chunks, const BufferPiece &target, Fn &&fn) {
  const size_t rank = target.offset.size();
  const std::vector<int64_t> &shard = chunks.shardShape();
  std::vector<int64_t> first(rank), last(rank);
  for (size_t d = 0; d < rank; ++d) {
    first[d] = target.offset[d] / shard[d];
    last[d] = (target.offset[d] + target.extent[d] - 1) / shard[d];
  }
  std::vector<int64_t> at = first;
  while (true) {
    int64_t chunk = 0;
    for (size_t d = 0; d < rank; ++d)
      chunk = chunk * chunks.chunkGrid()[d] + at[d];
    fn(chunk);
    size_t d = rank;
    while (d > 0 && at[d - 1] == last[d - 1]) {
      at[d - 1] = first[d - 1];
      --d;
    }
    if (d == 0)
      return;
    ++at[d - 1];
  }
}

} // namespace

std::vector<RedistributionBlock> planRedistribution(const Mesh &mesh, const ShardLayout &from,
                                                    const ShardLayout &to) {
  std::vector<RedistributionBlock> blocks;
  ShardedSource sharded;
  if (!from.isDistributed())
    sharded = shardedSource(from);
  for (const BufferPiece &target : destinationRegions(to)) {
    if (!nonEmpty(target.extent))
      continue;
    RedistributionBlock block;
    if (from.isDistributed()) {
      forEachChunkMeeting(*from.chunks, target, [&](int64_t chunk) {
        ChunkBox box = from.chunks->chunkBox(chunk);
        BufferPiece source{from.chunks->positionOfChunk(chunk), from.chunks->slotOfChunk(chunk),
                           box.offset, box.extent};
        if (intersect(source, target, block))
          blocks.push_back(block);
      });
      continue;
    }
    for (size_t i = 0; i < sharded.pieces.size(); ++i) {
      BufferPiece source = sharded.pieces[i];
      const std::vector<int64_t> &holders = sharded.holders[i];
      // Taken from the destination itself when it holds the piece, else
      // from the holder nearest it.
      const int64_t nearest = nearestHolder(mesh, from, holders[0], target.position);
      source.position =
          std::binary_search(holders.begin(), holders.end(), nearest) ? nearest : holders[0];
      if (intersect(source, target, block))
        blocks.push_back(block);
    }
  }
  std::stable_sort(blocks.begin(), blocks.end(),
                   [](const RedistributionBlock &a, const RedistributionBlock &b) {
                     return a.to != b.to ? a.to < b.to : a.from < b.from;
                   });
  return blocks;
}

Shape redistributionBufferShape(const ShardLayout &layout, int64_t position) {
  if (layout.isDistributed())
    return layout.extentsOf(position);
  Shape shape{1};
  Shape extents = layout.extentsOf(position);
  shape.insert(shape.end(), extents.begin(), extents.end());
  return shape;
}

RedistributionTraffic redistributionTraffic(const Mesh &mesh, const ShardLayout &from,
                                            const ShardLayout &to) {
  RedistributionTraffic traffic;
  traffic.sent.assign(mesh.numDevices(), 0);
  traffic.received.assign(mesh.numDevices(), 0);
  const int64_t width = static_cast<int64_t>(elementByteWidth(from.globalType.elementType));
  for (const RedistributionBlock &block : planRedistribution(mesh, from, to)) {
    if (block.from == block.to)
      continue;
    traffic.sent[block.from] += block.elements() * width;
    traffic.received[block.to] += block.elements() * width;
    traffic.totalReceived += block.elements() * width;
  }
  return traffic;
}

} // namespace shardgen
