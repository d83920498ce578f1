#pragma once
// Which pieces of a global tensor each MPI rank's devices hold, for hosts
// that keep the global tensors on rank 0 and send each rank only its pieces
// (`run --backend mpi`, bench/mpi_mlp.cpp).

#include <cstdint>
#include <vector>

#include "compiler/partition/ShardLayout.h"
#include "runtime/include/shardgen/distribution.h"

namespace shardgen {

/// The rank that runs the device at mesh `position` when `ranks` ranks run
/// the mesh (as runtime::launchMpi places them).
int64_t rankOfPosition(const Mesh &mesh, int64_t ranks, int64_t position);

/// Per rank, the distinct non-empty pieces of a tensor laid out by `layout`
/// that the rank's devices hold (for a distributed value: their chunks' real
/// boxes, as the generated scatter reads them).
std::vector<std::vector<runtime::ShardBox>> piecesByRank(const ShardLayout &layout,
                                                         const Mesh &mesh, int64_t ranks);

} // namespace shardgen
