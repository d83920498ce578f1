#pragma once
// Transfers of distributed values: distribution -> sharding, sharding ->
// distribution, distribution -> distribution. A redistribution moves each
// element a destination needs exactly once, from a device holding it (the
// destination itself when it does: nothing moves then), so it moves only
// the bytes that must move; its blocks are what the code generator copies
// and exchanges, the manifest counts and the coherence check verifies.
//
// Blocks are in buffer coordinates of rank + 1: a distributed buffer is
// [k, shardShape...] (slot, then the place inside the chunk), a sharded
// piece is seen as [1, extents...].

#include <cstdint>
#include <vector>

#include "compiler/partition/ShardLayout.h"

namespace shardgen {

struct RedistributionBlock {
  int64_t from = 0, to = 0; // mesh positions
  std::vector<int64_t> fromStart, toStart, extent;
  int64_t elements() const;
};

/// The blocks turning `from` into `to` (same global type; `from` holds no
/// partial axes; `to`'s partial axes are ignored: the value is complete),
/// sorted by destination, then source. Every real element of every
/// destination piece is covered once; padding is never a source or a target.
std::vector<RedistributionBlock> planRedistribution(const Mesh &mesh, const ShardLayout &from,
                                                    const ShardLayout &to);

/// A piece's buffer shape in block coordinates: [k, shardShape...] for a
/// distributed value, [1, extents...] for a sharded one.
Shape redistributionBufferShape(const ShardLayout &layout, int64_t position);

/// Bytes each device sends and receives (blocks between distinct devices).
struct RedistributionTraffic {
  std::vector<int64_t> sent, received; // by position
  int64_t totalReceived = 0;
};
RedistributionTraffic redistributionTraffic(const Mesh &mesh, const ShardLayout &from,
                                            const ShardLayout &to);

} // namespace shardgen
