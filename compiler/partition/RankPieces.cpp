#include "compiler/partition/RankPieces.h"

#include <algorithm>

namespace shardgen {

int64_t rankOfPosition(const Mesh &mesh, int64_t ranks, int64_t position) {
  int64_t perRank = mesh.numDevices() / ranks;
  return perRank == 1 ? mesh.deviceId(position) : position / perRank;
}

std::vector<std::vector<runtime::ShardBox>> piecesByRank(const ShardLayout &layout,
                                                         const Mesh &mesh, int64_t ranks) {
  std::vector<std::vector<runtime::ShardBox>> pieces(ranks);
  for (int64_t position = 0; position < mesh.numDevices(); ++position) {
    std::vector<runtime::ShardBox> &list = pieces[rankOfPosition(mesh, ranks, position)];
    auto add = [&](runtime::ShardBox box) {
      bool known = std::any_of(list.begin(), list.end(), [&](const runtime::ShardBox &other) {
        return other.offset == box.offset && other.extent == box.extent;
      });
      bool empty = std::any_of(box.extent.begin(), box.extent.end(),
                               [](int64_t extent) { return extent == 0; });
      if (!empty && !known)
        list.push_back(std::move(box));
    };
    if (layout.isDistributed()) {
      for (int64_t chunk : layout.chunks->chunksOfPosition(position)) {
        ChunkBox box = layout.chunks->chunkBox(chunk);
        add(runtime::ShardBox{box.offset, box.extent});
      }
    } else {
      add(runtime::ShardBox{layout.offsetsOf(position), layout.extentsOf(position)});
    }
  }
  return pieces;
}

} // namespace shardgen
