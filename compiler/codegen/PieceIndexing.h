#pragma once
// Where a device's piece of a tensor lies, as C++ computed from the device's
// mesh `position` at run time, so code that differs between devices only by
// offsets is emitted once per distinct piece shape, not once per device.

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/ir/Mesh.h"
#include "compiler/partition/ShardLayout.h"

namespace shardgen::codegen {

/// The devices whose pieces of a layout have one shape.
struct PieceClass {
  Shape extents;
  std::string condition; // C++ over the locals of pieceLocals(): "k0 < 62 && k1 == 62"; "" = all
};

/// "const int64_t k0 = ..., o0 = ...;": per sharded dim d, its shard index
/// `k<d>` and the global offset `o<d>` of `position`'s piece ("" when no dim is
/// sharded). `suffix` keeps names of several layouts apart.
std::string pieceLocals(const Mesh &mesh, const ShardLayout &layout,
                        const std::string &suffix = "");

/// The offset of dim d as an expression over pieceLocals() ("0" when unsharded).
std::string pieceOffset(const ShardLayout &layout, int64_t dim, const std::string &suffix = "");

/// One dim's chunks: full ones (shard < full), a short one (shard == full,
/// when the size is not a multiple of the chunk) and empty ones after; each
/// extent occurs once. Conditions are over pieceLocals()' `k<dim><suffix>`.
struct DimCase {
  int64_t extent;
  std::string condition; // "" = every shard
};
std::vector<DimCase> dimCases(const ShardLayout &layout, int64_t dim,
                              const std::string &suffix = "");

/// The distinct piece shapes of `layout`, with conditions that select their
/// devices. Enumerated per dim (full, short and empty chunks), never per device.
std::vector<PieceClass> pieceClasses(const ShardLayout &layout, const std::string &suffix = "");

/// The distinct local buffer shapes of `layout` with conditions that select
/// their devices: pieceClasses(), or for a distributed layout its buffers
/// [k, shardShape...] by chunk count (conditions over `position`).
std::vector<PieceClass> localShapeClasses(const Mesh &mesh, const ShardLayout &layout);

/// True for the devices that are the first (lowest position) holding their
/// piece: their coordinates on mesh (sub-)axes no dim uses are 0. "" = every
/// device (every axis shards a dim).
std::string firstHolderCondition(const Mesh &mesh, const ShardLayout &layout);
/// The condition (on `position`) that holds on the devices at coordinate 0 of
/// every partial axis of `layout`: of a global value scattered to partial
/// pieces, they hold it, the others the sum's identity. Empty: no partial axis.
std::string partialHolderCondition(const Mesh &mesh, const ShardLayout &layout);

/// A C++ condition over `position` that holds exactly for `devices` (sorted
/// positions): per mesh axis coordinate ranges when the set is a product of
/// such ranges (as the devices of one piece shape are), else ranges of
/// positions. "" when `devices` is the whole mesh.
std::string devicesCondition(const Mesh &mesh, const std::vector<int64_t> &devices);

/// Chains `bodies[i]` under `if (classes[i].condition)`, skipping empty bodies.
std::string dispatchOnClass(const std::vector<PieceClass> &classes,
                            const std::vector<std::string> &bodies);

} // namespace shardgen::codegen
