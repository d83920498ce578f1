#pragma once
// Where each device's piece of a global tensor lies, under a sharding on the
// program's mesh. A dim sharded on axes A (product n) is cut into n chunks of
// ceil(dim / n) elements; chunk k goes to the devices whose row-major index
// over A is k. The last chunks may be short or empty (GSPMD's uneven
// sharding): a piece holds the real elements only, so a device computes
// exactly its own part and padding never exists outside a collective.

#include <algorithm>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compiler/ir/Attributes.h"
#include "compiler/ir/Distribution.h"
#include "compiler/ir/Mesh.h"
#include "compiler/ir/Sharding.h"
#include "compiler/ir/TensorType.h"

namespace shardgen {

/// The input rows a windowed op's windows read (WindowHalo.h): shard j's
/// piece is what windows [j * windowChunk, (j + 1) * windowChunk) of
/// `windows` read, window o the rows [o * stride - low, o * stride - low +
/// extent), clipped to the dim (no rows for no windows). Neighbouring pieces
/// overlap: a piece holds its neighbours' rows its windows read, its halo.
struct WindowReach {
  int64_t windows = 0, windowChunk = 0, stride = 1, low = 0, extent = 1;
  bool operator==(const WindowReach &) const = default;
};

/// A dim of a layout cut into shards: `shards` chunks of `chunk` elements
/// (the last ones may be short or empty); a device's shard index is its
/// row-major index over the dim's axes, read from its mesh position's digits.
struct DimShards {
  struct Digit {
    int64_t step; // mesh positions per unit of this (sub-)axis
    int64_t size;
  };
  int64_t size = 0;          // the global dim
  int64_t shards = 1;        // product of the axes' sizes
  int64_t chunk = 0;         // ceil(size / shards)
  std::vector<Digit> digits; // the dim's axes, major first
  /// Set: a shard's piece is what its windows read instead of its chunk.
  std::optional<WindowReach> reach;

  int64_t shardOf(int64_t device) const;
  int64_t offset(int64_t shard) const { return std::min(shard * chunk, size); }
  int64_t extent(int64_t shard) const { return std::min(chunk, size - offset(shard)); }
  /// The first element of a shard's piece and its end (its chunk, or what
  /// its windows read).
  int64_t pieceBegin(int64_t shard) const;
  int64_t pieceEnd(int64_t shard) const;
};

struct ShardLayout {
  TensorType globalType;
  TensorSharding sharding; // closed, without priorities
  /// Axes over which every device holds a partial value still to be reduced
  /// (with `partialReducer`), as after a dot_general with a sharded
  /// contraction; `unreduced` in Shardy's terms.
  std::vector<AxisRef> partialAxes;
  Reducer partialReducer = Reducer::Add;
  /// Set for a distributed value (spec "Distributions: ND shards dealt
  /// round-robin"): `sharding` is then replicated and unused; `chunks`
  /// places the chunks.
  std::optional<Distribution> distribution;
  std::shared_ptr<const DistributionLayout> chunks;

  bool isDistributed() const { return distribution.has_value(); }

  int64_t rank() const { return globalType.rank(); }
  /// The mesh's number of devices (positions 0 .. numDevices() - 1).
  int64_t numDevices() const { return numDevices_; }
  /// The first global index and the number of real elements `device` holds
  /// on `dim`; device = row-major mesh position (not the device id).
  /// Computed from the position's digits: nothing is stored per device, so
  /// a layout's size does not depend on the mesh's. For a distributed value
  /// they describe its local buffer instead: extents [k, shardShape...]
  /// (rank + 1 dims, padding of edge chunks included), offsets all 0.
  int64_t offset(int64_t device, int64_t dim) const;
  int64_t extent(int64_t device, int64_t dim) const;
  Shape offsetsOf(int64_t device) const;
  Shape extentsOf(int64_t device) const;
  /// The chunk size per dim: ceil(dim / shards), what padded buffers need
  /// (and the largest piece: device 0's).
  Shape chunkShape() const;
  /// The number of shards of a dim (product of its axes' sizes).
  int64_t numShards(int64_t dim) const;
  /// True when every device's piece has the full chunk shape.
  bool isEven() const;
  int64_t localElements(int64_t device) const;
  /// Local type of one device's piece.
  TensorType localType(int64_t device) const;

  /// The window reach of `dim`, if its pieces are what windows read.
  const std::optional<WindowReach> &windowReach(int64_t dim) const { return dims_[dim].reach; }
  /// Whether some dim's pieces are what windows read (they overlap: halos).
  bool hasHalo() const;
  /// Makes `dim`'s pieces what `reach`'s windows read, shard by shard (a
  /// sharded value's layout, not a distributed one).
  void setWindowReach(int64_t dim, const WindowReach &reach);

  /// For tests of the checks that read layouts (the coherence check): makes
  /// one device's piece depart from what the sharding gives it.
  void overridePieceForTest(int64_t device, Shape offsets, Shape extents);

private:
  friend ShardLayout makeShardLayout(const Mesh &, const TensorType &, const TensorSharding &);
  friend ShardLayout makeDistributedLayout(const Mesh &, const TensorType &, const Distribution &);
  friend bool samePieceShapes(const ShardLayout &, const ShardLayout &);
  friend bool sameLayout(const ShardLayout &, const ShardLayout &);
  std::vector<DimShards> dims_; // one unsharded shard per dim when distributed
  int64_t numDevices_ = 1;
  struct Piece {
    Shape offsets, extents;
  };
  std::vector<std::pair<int64_t, Piece>> overrides_; // tests only; empty otherwise
  const Piece *overrideOf(int64_t device) const;
};

/// Lays `type` out over `mesh` by `sharding` (whose axes must exist in mesh).
ShardLayout makeShardLayout(const Mesh &mesh, const TensorType &type,
                            const TensorSharding &sharding);

/// The axes of each dim, major to minor.
using DimAxes = std::vector<std::vector<AxisRef>>;

/// Lays `type` out with the given axes per dim, partial over `partialAxes`.
ShardLayout makeShardLayout(const Mesh &mesh, const TensorType &type, const DimAxes &dimAxes,
                            const std::vector<AxisRef> &partialAxes = {},
                            Reducer partialReducer = Reducer::Add);

/// Lays `type` out by `distribution` (verified against `type`; on `mesh`).
ShardLayout makeDistributedLayout(const Mesh &mesh, const TensorType &type,
                                  const Distribution &distribution);

/// The axes of each dim (none for a distributed value).
DimAxes dimAxesOf(const ShardLayout &layout);

/// Same global type, same axes per dim and same partial axes (as a set), or
/// the same distribution: every device holds the same piece in both.
bool sameLayout(const ShardLayout &a, const ShardLayout &b);

/// Every device's pieces of `a` and `b` (on one mesh) have the same shape.
/// Decided per dim when the dims agree, else device by device.
bool samePieceShapes(const ShardLayout &a, const ShardLayout &b);

/// The type of the buffer device `position` holds (its local piece; what the
/// per-device call style and `run --shards` exchange).
TensorType localBufferType(const ShardLayout &layout, int64_t position);

/// Bytes of one device's piece.
int64_t localBytes(const ShardLayout &layout, int64_t device);

/// The product of the parts of `axis`'s mesh axis minor to it: Shardy's
/// sub-axis "x":(pre)size sees x as [pre, size, post], pre major (1 for a
/// full axis). Its coordinate advances once per `post` units of x's.
int64_t postSize(const Mesh &mesh, const AxisRef &axis);

/// The part of axis `name` of `size` after `pre`: the whole axis when it
/// spans it, else the sub-axis "name":(pre)size.
AxisRef axisPart(const Mesh &mesh, const std::string &name, int64_t pre, int64_t size);

/// `axes` with consecutive parts of one axis merged ("x":(1)2, "x":(2)2 ->
/// "x" on a size-4 x), Shardy's canonical spelling: the same pieces, so
/// layouts that hold the same pieces compare equal (sameLayout).
std::vector<AxisRef> mergedAxes(const Mesh &mesh, const std::vector<AxisRef> &axes);

/// Mesh positions per unit of an axis or sub-axis coordinate.
int64_t positionStep(const Mesh &mesh, const AxisRef &axis);

/// A device's coordinate along an axis or sub-axis ("x":(pre)size takes
/// (coordinate / post) % size of axis x).
int64_t axisCoordinate(const Mesh &mesh, const AxisRef &axis, int64_t device);

/// The device's row-major index over `axes` (the first is major): its shard
/// index along a dim sharded on `axes`, or its position in a collective group.
int64_t indexOverAxes(const Mesh &mesh, const std::vector<AxisRef> &axes, int64_t device);

/// Product of the sizes of `axes`.
int64_t axesSize(const Mesh &mesh, const std::vector<AxisRef> &axes);

/// The devices of `device`'s group over `axes` (those differing only in
/// `axes`), ordered by position in the group (row-major over `axes`).
std::vector<int64_t> groupDevices(const Mesh &mesh, const std::vector<AxisRef> &axes,
                                  int64_t device);

/// The member at position 0 of `device`'s group over `axes` (its first device).
int64_t groupLeader(const Mesh &mesh, const std::vector<AxisRef> &axes, int64_t device);

/// The member at `position` of `device`'s group over `axes` (groupDevices's
/// element, without listing the group).
int64_t groupMember(const Mesh &mesh, const std::vector<AxisRef> &axes, int64_t device,
                    int64_t position);

} // namespace shardgen
