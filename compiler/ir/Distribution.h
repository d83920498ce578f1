#pragma once
// A tt-metal style ND distribution (spec "Distributions: ND shards dealt
// round-robin"): the tensor is cut into equal chunks of `shardShape`,
// numbered row-major over the chunk grid; chunk s lives on D[s mod N], D the
// mesh's N devices linearized in `order`.
//
// For the partitioner and code generator (API kept stable; add, don't rename):
//   - `Distribution` is what the file says (mesh name, shard shape, order).
//     It sits on RegionArgument::distribution (graph inputs/outputs),
//     Op::distributions (per result; a `distribute` op's result, or what
//     propagation wrote) and DistributeAttrs (the `distribute` op).
//     After propagation, PropagationResult::distributions[value] holds the
//     distribution of every distributed value (see compiler/propagate).
//   - `DistributionLayout` binds one to a tensor shape and its mesh and
//     answers the placement questions. "Position" is a device's row-major
//     position in the mesh (as for shardings, `--shards` and per-device
//     buffers); "list index" is its index i in D. Mesh::deviceId(position)
//     gives the device id.
//   - A device's local buffer is [k, shardShape...] (localShape), its k
//     chunks in increasing chunk number; the part of an edge chunk outside
//     the tensor (chunkBox's extent < shardShape) is padding.
//   - The partitioner takes distributions (compiler/partition:
//     ShardLayout::distribution, makeDistributedLayout, Redistribution);
//     run, compile and show partition them as they are.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "compiler/ir/Mesh.h"
#include "compiler/ir/Metadata.h"

namespace shardgen {

/// How the mesh's devices are linearized into D: RowMajor, the last axis
/// varies fastest (the default); ColMajor, the first axis varies fastest.
enum class DeviceOrder { RowMajor, ColMajor };

std::string_view deviceOrderName(DeviceOrder order); // "row_major", "col_major"
std::optional<DeviceOrder> parseDeviceOrder(std::string_view text);

struct Distribution {
  std::string meshName;
  std::vector<int64_t> shardShape; // one positive size per tensor dim
  DeviceOrder order = DeviceOrder::RowMajor;
  /// The `_` keys of the distribution object as the file wrote it (written
  /// back there); never part of what the distribution means.
  Metadata metadata;

  Distribution() = default;
  Distribution(std::string mesh, std::vector<int64_t> shape,
               DeviceOrder deviceOrder = DeviceOrder::RowMajor, Metadata keys = {})
      : meshName(std::move(mesh)), shardShape(std::move(shape)), order(deviceOrder),
        metadata(std::move(keys)) {}

  int64_t rank() const { return static_cast<int64_t>(shardShape.size()); }
  bool operator==(const Distribution &other) const {
    return meshName == other.meshName && shardShape == other.shardShape && order == other.order;
  }
};

/// The same distribution without the file's `_` keys: what a value that
/// inherits it (rather than the annotation's own slot) carries.
Distribution withoutMetadata(const Distribution &distribution);

/// `{"mesh": "cores", "shard_shape": [2, 2, 2], "order": "row_major"}` as
/// compact text, for messages and explain.
std::string printDistribution(const Distribution &distribution);

/// The part of the tensor one chunk covers: offset and clipped extent per dim
/// (an edge chunk is shorter than the shard shape; never empty).
struct ChunkBox {
  std::vector<int64_t> offset;
  std::vector<int64_t> extent;
  int64_t volume() const;
};

/// A distribution placed on a tensor of `tensorShape` over `mesh` (the
/// distribution's mesh). Requires a verified distribution (rank and sizes).
class DistributionLayout {
public:
  DistributionLayout(const Distribution &distribution, std::vector<int64_t> tensorShape,
                     const Mesh &mesh);

  const std::vector<int64_t> &tensorShape() const { return tensorShape_; }
  const std::vector<int64_t> &shardShape() const { return shardShape_; }
  DeviceOrder order() const { return order_; }
  /// Chunks per dim: ceil(dim / shard) (0 for a dim of size 0).
  const std::vector<int64_t> &chunkGrid() const { return chunkGrid_; }
  int64_t numChunks() const { return numChunks_; }
  /// N, the mesh's device count.
  int64_t numDevices() const { return static_cast<int64_t>(devicePositions_.size()); }

  /// D as mesh positions: devicePositions()[i] is the position of D[i].
  const std::vector<int64_t> &devicePositions() const { return devicePositions_; }
  /// The index in D of the device at `position`.
  int64_t listIndexOfPosition(int64_t position) const { return listIndex_[position]; }

  /// The position of the device holding chunk s, and its slot there (the
  /// index of s among that device's chunks).
  int64_t positionOfChunk(int64_t chunk) const { return devicePositions_[chunk % numDevices()]; }
  int64_t slotOfChunk(int64_t chunk) const { return chunk / numDevices(); }
  /// How many chunks / which chunks (in slot order) the device at `position` holds.
  int64_t chunkCountOfPosition(int64_t position) const;
  std::vector<int64_t> chunksOfPosition(int64_t position) const;
  /// The local buffer shape of the device at `position`: [k, shardShape...].
  std::vector<int64_t> localShape(int64_t position) const;

  /// Chunk-grid coordinates of chunk s (row-major over chunkGrid).
  std::vector<int64_t> chunkCoordinates(int64_t chunk) const;
  ChunkBox chunkBox(int64_t chunk) const;

private:
  std::vector<int64_t> tensorShape_;
  std::vector<int64_t> shardShape_;
  DeviceOrder order_;
  std::vector<int64_t> chunkGrid_;
  int64_t numChunks_ = 1;
  std::vector<int64_t> devicePositions_;
  std::vector<int64_t> listIndex_;
};

/// The mesh positions in D order for `order` (row_major: 0, 1, 2, ...).
std::vector<int64_t> distributionDeviceOrder(const Mesh &mesh, DeviceOrder order);

/// The distribution of a reduce's result over `dimensions` of an operand
/// distributed as `operand`: the shard shape drops the reduced dims.
Distribution dropDistributionDims(const Distribution &operand,
                                  const std::vector<int64_t> &dimensions);

} // namespace shardgen
