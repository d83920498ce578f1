#pragma once
// The MPI communicators of one device per rank, kept from one launchMpi to
// the next. Making one (MPI_Comm_split by mesh position, MPI_Comm_dup, one
// split per collective group on first use) waits for every rank three
// times; an application calling its program in a loop would pay that on
// every call, and on a loaded machine each wait can cost a scheduling
// quantum. Kept, they also keep their scratch buffers (no page faults of
// fresh ones per call). They are freed when MPI is finalized, by whoever
// finalizes it: a delete callback of an attribute on MPI_COMM_SELF, which
// MPI_Finalize runs before anything else.

#include <cstdint>
#include <memory>
#include <vector>

#include "MpiCommunicator.h"
#include "shardgen/mesh.h"

namespace shardgen::runtime {

/// What a communicator depends on: the mesh's axis sizes (its collective
/// groups, cached inside it by axis list, are made of them), then every
/// rank's mesh position, by rank. The same on every rank for one mesh, so
/// every rank finds (or makes) the same communicator.
using MeshKey = std::vector<int64_t>;
MeshKey meshKey(const DeviceMesh &mesh, int ranks);

/// The cached communicator for `key`, taken out of the cache (a
/// concurrent launch makes its own), or a new one made collectively on the
/// world. Give it back with returnCommunicator after the launch.
std::unique_ptr<MpiCommunicator> takeCommunicator(const MeshKey &key);
void returnCommunicator(const MeshKey &key, std::unique_ptr<MpiCommunicator> communicator);

} // namespace shardgen::runtime
