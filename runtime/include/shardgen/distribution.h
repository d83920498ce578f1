#pragma once
// Host-side helpers for the "global tensors in and out" call style: cut a
// global row-major tensor into per-device buffers and put it back together.
//
// ShardedLayout follows the graph format's shardings: each tensor dim is
// split over (sub-)axes of the mesh, major to minor; a dim of size D over n
// shards has ceil(D/n) elements per shard, the last shards short or empty.
// RoundRobinLayout is tt-metal's ND sharding: the tensor is cut into chunks
// of a shard shape, dealt row-major over a device grid round-robin, so a
// device may hold several chunks.
//
// Per-device buffers are indexed by mesh position (row-major), not device id.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "shardgen/mesh.h"

namespace shardgen::runtime {

/// One (sub-)axis sharding a tensor dim: mesh axis `axis`, or with `size`
/// set, the sub-axis "axis":(preSize)size (Shardy: the axis seen as
/// [preSize, size, rest], major to minor).
struct AxisSlice {
  int32_t axis = 0;
  int64_t preSize = 1;
  int64_t size = 0; // 0: the whole axis
};

using DimAxes = std::vector<AxisSlice>; // major to minor

/// The part of the global tensor a buffer holds: `offset` and `extent` per
/// dim. An extent may be 0 (an empty shard past the end of an uneven dim).
struct ShardBox {
  std::vector<int64_t> offset;
  std::vector<int64_t> extent;
  int64_t volume() const;
};

/// Whether a per-device buffer has the uniform padded shard shape (the
/// shape partitioned code computes on; padding is zero-filled) or exactly
/// the extent of its data.
enum class ShardPadding { Padded, Exact };

using DeviceBuffers = std::vector<std::vector<std::byte>>; // by mesh position

class ShardedLayout {
public:
  /// Throws std::invalid_argument on a rank mismatch, an unknown axis, a
  /// sub-axis whose pre*size does not divide its axis, or an axis used twice.
  ShardedLayout(const DeviceMesh &mesh, std::vector<int64_t> globalShape,
                std::vector<DimAxes> dimAxes);

  int64_t rank() const { return static_cast<int64_t>(globalShape_.size()); }
  const std::vector<int64_t> &globalShape() const { return globalShape_; }
  /// Number of shards of dim `dim` (product of its axis sizes).
  int64_t numShards(int64_t dim) const { return numShards_.at(dim); }
  /// The padded per-device shape: ceil(dim / shards) per dim.
  const std::vector<int64_t> &shardShape() const { return shardShape_; }
  /// Which shard of each dim the device at `position` holds.
  std::vector<int64_t> shardIndex(int64_t position) const;
  /// The real part of the global tensor the device at `position` holds.
  ShardBox box(int64_t position) const;
  std::vector<int64_t> localShape(int64_t position, ShardPadding padding) const;

  DeviceBuffers scatter(const void *global, int64_t elementBytes, ShardPadding padding) const;
  /// Reassembles the global tensor; a tensor replicated over some axes is
  /// read from the device at coordinate 0 on them.
  void gather(const std::vector<const void *> &shards, int64_t elementBytes, ShardPadding padding,
              void *global) const;
  /// As gather, for a tensor whose devices hold partial values over the
  /// mesh axes `unreducedAxes` (a sharding's `unreduced`): the global value
  /// is the full one, each shard the sum of its partial pieces in mesh
  /// position order (as all_reduce). Throws std::invalid_argument on an
  /// unknown axis or one that shards a dim.
  void gatherUnreduced(const std::vector<const void *> &shards, ElementType type,
                       ShardPadding padding, const std::vector<int32_t> &unreducedAxes,
                       void *global) const;

private:
  /// For each distinct shard, the lowest position holding it.
  std::vector<int64_t> shardOwners() const;

  struct ResolvedSlice {
    int32_t axis;
    int64_t stride; // the axis coordinate divided by this, mod size, is the slice coordinate
    int64_t size;
  };
  DeviceMesh mesh_;
  std::vector<int64_t> globalShape_;
  std::vector<std::vector<ResolvedSlice>> dims_;
  std::vector<int64_t> numShards_;
  std::vector<int64_t> shardShape_;
};

class RoundRobinLayout {
public:
  /// Throws std::invalid_argument on rank mismatches or non-positive shard
  /// or grid sizes.
  RoundRobinLayout(std::vector<int64_t> globalShape, std::vector<int64_t> shardShape,
                   std::vector<int64_t> deviceGrid);

  int64_t numDevices() const { return numDevices_; }
  int64_t numChunks() const { return numChunks_; }
  /// Chunks per dim: ceil(global / shard).
  const std::vector<int64_t> &chunkGrid() const { return chunkGrid_; }
  const std::vector<int64_t> &shardShape() const { return shardShape_; }
  /// Chunk k (row-major over the chunk grid) lives on device k mod D, as
  /// that device's (k / D)-th local chunk.
  int64_t deviceOfChunk(int64_t chunk) const { return chunk % numDevices_; }
  int64_t slotOfChunk(int64_t chunk) const { return chunk / numDevices_; }
  std::vector<int64_t> chunksOn(int64_t device) const;
  /// A device's coordinates in the device grid (row-major).
  std::vector<int64_t> gridCoordinates(int64_t device) const;
  /// The real part of the tensor chunk k covers (edge chunks are short).
  ShardBox chunkBox(int64_t chunk) const;

  /// Each device's buffer holds its chunks in slot order, each padded to the
  /// shard shape (padding zero-filled).
  DeviceBuffers scatter(const void *global, int64_t elementBytes) const;
  void gather(const std::vector<const void *> &buffers, int64_t elementBytes, void *global) const;

private:
  std::vector<int64_t> globalShape_;
  std::vector<int64_t> shardShape_;
  std::vector<int64_t> deviceGrid_;
  std::vector<int64_t> chunkGrid_;
  int64_t numDevices_ = 1;
  int64_t numChunks_ = 1;
};

} // namespace shardgen::runtime
