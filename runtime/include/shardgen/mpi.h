#pragma once
// The MPI backend: every device of the mesh is an MPI rank (rank r runs the
// device whose id is r), with the same collective API and semantics as the
// threads backend. Build target: shardgen_runtime_mpi.

#include "shardgen/launch.h"

namespace shardgen::runtime {

/// Runs `function` as this rank's device. MPI_COMM_WORLD must have
/// mesh.numDevices() ranks; MPI is initialized here if the application has
/// not done it (finalizeMpi() then finalizes it). When `function` throws on
/// one rank of several, its peers may be blocked in collectives MPI cannot
/// cancel: the message ("shardgen: device R failed: ...") goes to stderr and
/// MPI_Abort ends every rank with exit status 1. With one rank, it is rethrown.
void launchMpi(const DeviceMesh &mesh, const DeviceFunction &function);

/// Finalizes MPI if launchMpi initialized it.
void finalizeMpi();

} // namespace shardgen::runtime
