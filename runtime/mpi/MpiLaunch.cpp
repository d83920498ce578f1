#include <mpi.h>

#include <cstdio>
#include <stdexcept>
#include <string>

#include "MpiCommunicator.h"
#include "shardgen/mpi.h"

namespace shardgen::runtime {
namespace {
bool initializedHere = false;
} // namespace

void launchMpi(const DeviceMesh &mesh, const DeviceFunction &function) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) {
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
    initializedHere = true;
  }
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != mesh.numDevices())
    throw std::invalid_argument("the mesh has " + std::to_string(mesh.numDevices()) +
                                " devices but MPI runs " + std::to_string(size) +
                                " ranks (use mpirun -np " + std::to_string(mesh.numDevices()) +
                                ")");
  // Ranks are device ids; the communicator numbers ranks by mesh position,
  // which collectives' groups are defined over.
  int64_t position = mesh.positionOfDevice(rank);
  MPI_Comm byPosition;
  MPI_Comm_split(MPI_COMM_WORLD, 0, static_cast<int>(position), &byPosition);
  MpiCommunicator communicator(byPosition); // keeps its own duplicate
  MPI_Comm_free(&byPosition);
  DeviceContext device = mesh.deviceContext(position, &communicator);
  if (size == 1)
    return function(device);
  // Peers may be blocked in a collective this device will never enter: MPI
  // cannot cancel them, so the whole job ends with this device's error.
  std::string error;
  try {
    function(device);
    return;
  } catch (const std::exception &exception) {
    error = exception.what();
  } catch (...) {
    error = "unknown exception";
  }
  std::fprintf(stderr, "shardgen: device %d failed: %s (aborting every rank)\n", rank,
               error.c_str());
  std::fflush(stderr);
  MPI_Abort(MPI_COMM_WORLD, 1);
}

void finalizeMpi() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (initializedHere && !finalized)
    MPI_Finalize();
}

} // namespace shardgen::runtime
